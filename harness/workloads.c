/*
 * workloads.c: the profiles and the workloads, and what every workload needs: a "world" (a
 * storage with the profile registered, and its counting allocator), deterministic component
 * values, the system pass, and checksums.
 *
 * Rules every workload keeps (BRIEF.md, "Rules that keep the numbers honest"):
 * - the timed region holds the operation and nothing else: storages are created, values are
 *   generated and checksums are taken outside it;
 * - the number of runs per sample depends on N only (never on time), so every backend does the
 *   same work and the checksums of the state it leaves can be compared;
 * - the work cannot be deleted: its results are read back for the checksum, and a compiler
 *   barrier closes every timed loop.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bench.h"

const struct profile profiles[] = {
	{"A", 32, 16},
	{"AA", 128, 32},
	{"AAA", 512, 64},
};
const size_t profile_count = sizeof profiles / sizeof profiles[0];

const struct profile *profile_find(const char *name)
{
	for (size_t i = 0; i < profile_count; i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

/* google benchmark's ClobberMemory: the compiler must assume all memory was read and written. */
static inline void clobber_memory(void) { __asm__ volatile("" : : : "memory"); }

static const float dt = 1.0f / 60.0f;

static int fail(struct bench_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	return -1;
}

/* --- deterministic values ------------------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static float unit_float(uint64_t seed, uint64_t i, uint64_t field)
{
	uint64_t bits = mix64(seed ^ mix64(i * 4 + field + 0x9e3779b97f4a7c15ull));
	return (float)(bits >> 40) * (1.0f / 16777216.0f); /* [0, 1) */
}

/* The values the i-th created entity gets, for every backend alike. */
struct values {
	struct position *position;
	struct velocity *velocity;
	struct mass *mass;
};

static int values_make(struct values *v, uint32_t n, uint64_t seed)
{
	v->position = malloc((size_t)n * sizeof *v->position);
	v->velocity = malloc((size_t)n * sizeof *v->velocity);
	v->mass = malloc((size_t)n * sizeof *v->mass);
	if (!v->position || !v->velocity || !v->mass)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		v->position[i] = (struct position){unit_float(seed, i, 0) * 1000.0f,
		                                   unit_float(seed, i, 1) * 1000.0f};
		v->velocity[i] = (struct velocity){unit_float(seed, i, 2) - 0.5f,
		                                   unit_float(seed, i, 3) - 0.5f};
		v->mass[i] = (struct mass){0.5f + unit_float(seed, i, 4)};
	}
	return 0;
}

static void values_free(struct values *v)
{
	free(v->position);
	free(v->velocity);
	free(v->mass);
}

static const void *value_of(const struct values *v, uint32_t type, uint32_t i)
{
	switch (type) {
	case COMP_POSITION: return &v->position[i];
	case COMP_VELOCITY: return &v->velocity[i];
	default: return &v->mass[i];
	}
}

/* --- the world: a storage with the profile registered --------------------------------- */

struct world {
	const struct ecs_ops *ops;
	ecs_storage *s;
	struct counting_alloc counter;
	uint32_t *sizes;
};

static void world_close(struct world *w)
{
	if (w->s)
		w->ops->destroy(w->s);
	w->s = NULL;
	free(w->sizes);
	w->sizes = NULL;
}

/*
 * All component types and all systems of the profile, before the workload runs. System 0 is the
 * workload's (its k components); the others each require a fixed pair of types outside the
 * workload's, so they match nothing but are asked on every add and remove.
 */
static int world_open(const struct bench_case *c, struct world *w, struct bench_result *r)
{
	memset(w, 0, sizeof *w);
	w->ops = c->ops;
	uint32_t types = c->profile->component_count;
	w->sizes = malloc(types * sizeof *w->sizes);
	if (!w->sizes)
		return fail(r, "out of memory in the harness");
	for (uint32_t t = 0; t < types; t++)
		w->sizes[t] = t == COMP_MASS ? sizeof(struct mass) : sizeof(struct position);
	struct ecs_allocator alloc = counting_alloc_init(&w->counter);
	struct ecs_config cfg = {types, c->systems, w->sizes};
	int rc = c->ops->create(&cfg, &alloc, &w->s);
	if (rc != ECS_OK) {
		w->s = NULL;
		world_close(w);
		return fail(r, "create returned %s", ecs_status_name(rc));
	}
	uint32_t required[COMP_MAX_K] = {COMP_POSITION, COMP_VELOCITY, COMP_MASS};
	uint32_t id, others = types - COMP_MAX_K;
	rc = c->ops->system_register(w->s, required, c->k, &id);
	for (uint32_t j = 1; rc == ECS_OK && j < c->systems; j++) {
		uint32_t pair[2] = {COMP_MAX_K + (2 * (j - 1)) % others,
		                    COMP_MAX_K + (2 * (j - 1) + 1) % others};
		rc = c->ops->system_register(w->s, pair, 2, &id);
	}
	if (rc != ECS_OK) {
		world_close(w);
		return fail(r, "system_register returned %s", ecs_status_name(rc));
	}
	return 0;
}

/* Creates n entities with their k components, values in creation order. */
static int spawn(struct world *w, uint32_t n, uint32_t k, const struct values *v,
                 ecs_entity *handles, struct bench_result *r)
{
	const struct ecs_ops *ops = w->ops;
	for (uint32_t i = 0; i < n; i++) {
		int rc = ops->entity_create(w->s, &handles[i]);
		for (uint32_t t = 0; rc == ECS_OK && t < k; t++)
			rc = ops->component_add(w->s, handles[i], t, value_of(v, t, i));
		if (rc != ECS_OK)
			return fail(r, "creating entity %u returned %s", i, ecs_status_name(rc));
	}
	return 0;
}

static int despawn(struct world *w, uint32_t n, const ecs_entity *handles, struct bench_result *r)
{
	for (uint32_t i = 0; i < n; i++) {
		int rc = w->ops->entity_destroy(w->s, handles[i]);
		if (rc != ECS_OK)
			return fail(r, "destroying entity %u returned %s", i, ecs_status_name(rc));
	}
	return 0;
}

/* --- the system pass ------------------------------------------------------------------ */

static inline void *component_at(const struct ecs_batch *b, uint32_t c, uint32_t i, size_t size)
{
	return b->columns[c] ? (char *)b->columns[c] + i * size : b->pointers[c][i];
}

static inline void update_one(uint32_t k, struct position *p, const struct velocity *v,
                              const struct mass *m)
{
	if (k == 1) {
		p->x += dt;
		p->y += dt;
	} else if (k == 2) {
		p->x += v->x * dt;
		p->y += v->y * dt;
	} else {
		p->x += v->x * m->m * dt;
		p->y += v->y * m->m * dt;
	}
}

/* One pass of system 0: Position += Velocity * dt (k=1: += dt; k=3: scaled by Mass). Returns
 * the number of entities visited. */
static uint64_t system_pass(struct world *w, uint32_t k)
{
	const size_t size[COMP_MAX_K] = {w->sizes[COMP_POSITION], w->sizes[COMP_VELOCITY],
	                                 w->sizes[COMP_MASS]};
	struct ecs_iter it;
	struct ecs_batch b;
	uint64_t visited = 0;
	if (w->ops->system_iter_begin(w->s, 0, &it) != ECS_OK)
		return UINT64_MAX;
	while (w->ops->system_iter_next(&it, &b)) {
		uint32_t n = b.count;
		visited += n;
		bool columns = true;
		for (uint32_t c = 0; c < k; c++)
			columns = columns && b.columns[c];
		if (columns) {
			char *p = b.columns[0], *v = k > 1 ? b.columns[1] : NULL,
			     *m = k > 2 ? b.columns[2] : NULL;
			for (uint32_t i = 0; i < n; i++)
				update_one(k, (void *)(p + i * size[0]), v ? (void *)(v + i * size[1]) : NULL,
				           m ? (void *)(m + i * size[2]) : NULL);
		} else {
			for (uint32_t i = 0; i < n; i++)
				update_one(k, component_at(&b, 0, i, size[0]),
				           k > 1 ? component_at(&b, 1, i, size[1]) : NULL,
				           k > 2 ? component_at(&b, 2, i, size[2]) : NULL);
		}
	}
	clobber_memory();
	return visited;
}

/* --- checksums ------------------------------------------------------------------------ */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull; /* FNV-1a */
	return h;
}

/* Every component value of every entity, in creation order, read back through the interface. */
static int checksum_values(struct world *w, uint32_t n, uint32_t k, const ecs_entity *handles,
                           uint64_t *out, struct bench_result *r)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t t = 0; t < k; t++) {
			void *p;
			int rc = w->ops->component_get(w->s, handles[i], t, &p);
			if (rc != ECS_OK)
				return fail(r, "reading back entity %u returned %s", i, ecs_status_name(rc));
			h = hash_bytes(h, p, w->sizes[t]);
		}
	}
	*out = h;
	return 0;
}

/* --- shared by the workloads ---------------------------------------------------------- */

struct row {
	const struct bench_case *c;
	struct bench_result *r;
	uint32_t inner;
	uint32_t total; /* warmup + reps */
	uint64_t *samples;
	struct values v;
	ecs_entity *handles;
};

static int row_begin(struct row *row, const struct bench_case *c, struct bench_result *r)
{
	uint64_t min_ops = c->workload->min_ops;
	memset(row, 0, sizeof *row);
	row->c = c;
	row->r = r;
	uint64_t inner = (min_ops + c->entities - 1) / c->entities;
	row->inner = r->inner = inner ? (uint32_t)inner : 1;
	row->total = c->warmup + c->reps;
	row->samples = malloc(c->reps * sizeof *row->samples);
	row->handles = malloc((size_t)c->entities * sizeof *row->handles);
	if (!row->samples || !row->handles || values_make(&row->v, c->entities, c->seed))
		return fail(r, "out of memory in the harness");
	return 0;
}

static int row_end(struct row *row, int rc)
{
	if (rc == 0)
		stats_summarise(row->samples, row->c->reps, row->r);
	free(row->samples);
	free(row->handles);
	values_free(&row->v);
	return rc;
}

/* Allocation calls per run of the workload, over the timed samples, rounded up so that a
 * backend that allocates at all never shows 0. */
static uint64_t timed_allocations_per_run(const struct row *row, uint64_t calls)
{
	uint64_t runs = (uint64_t)row->c->reps * row->inner;
	return (calls + runs - 1) / runs;
}

/* Sample s of row->total: warm-up samples come first and are not kept. */
static void row_sample(struct row *row, uint32_t s, uint64_t ns)
{
	if (s >= row->c->warmup)
		row->samples[s - row->c->warmup] = ns / row->inner;
}

/* --- create --------------------------------------------------------------------------- */

static int run_create(const struct bench_case *c, struct bench_result *r)
{
	struct row row;
	int rc = row_begin(&row, c, r);
	struct world *worlds = rc ? NULL : calloc(row.inner, sizeof *worlds);
	if (rc == 0 && !worlds)
		rc = fail(r, "out of memory in the harness");
	for (uint32_t s = 0; rc == 0 && s < row.total; s++) {
		/* A fresh storage per run, opened before the clock starts. */
		uint32_t opened = 0;
		while (rc == 0 && opened < row.inner)
			if ((rc = world_open(c, &worlds[opened], r)) == 0)
				opened++;
		struct world *last = &worlds[row.inner - 1];
		uint64_t setup_allocations = rc ? 0 : last->counter.allocations;
		uint64_t t0 = now_ns();
		for (uint32_t j = 0; rc == 0 && j < row.inner; j++)
			rc = spawn(&worlds[j], c->entities, c->k, &row.v, row.handles, r);
		clobber_memory();
		row_sample(&row, s, now_ns() - t0);
		if (rc == 0) {
			r->allocations = last->counter.allocations - setup_allocations;
			r->live_bytes = last->counter.live_bytes;
			if (last->counter.peak_bytes > r->peak_bytes)
				r->peak_bytes = last->counter.peak_bytes;
		}
		if (rc == 0 && s == row.total - 1)
			rc = checksum_values(last, c->entities, c->k, row.handles, &r->checksum, r);
		for (uint32_t j = 0; j < opened; j++)
			world_close(&worlds[j]);
	}
	free(worlds);
	return row_end(&row, rc);
}

/* --- iterate -------------------------------------------------------------------------- */

static int run_iterate(const struct bench_case *c, struct bench_result *r)
{
	struct row row;
	struct world w = {0};
	int rc = row_begin(&row, c, r);
	if (rc == 0)
		rc = world_open(c, &w, r);
	bool opened = rc == 0;
	if (rc == 0)
		rc = spawn(&w, c->entities, c->k, &row.v, row.handles, r);
	uint64_t timed_from = 0; /* allocation count when the first timed sample starts */
	for (uint32_t s = 0; rc == 0 && s < row.total; s++) {
		if (s == c->warmup)
			timed_from = w.counter.allocations;
		uint64_t visited = 0;
		uint64_t t0 = now_ns();
		for (uint32_t j = 0; j < row.inner; j++)
			visited += system_pass(&w, c->k);
		row_sample(&row, s, now_ns() - t0);
		if (visited != (uint64_t)c->entities * row.inner)
			rc = fail(r, "the system visited %llu entities, expected %llu",
			          (unsigned long long)visited,
			          (unsigned long long)c->entities * row.inner);
	}
	if (rc == 0) {
		r->allocations = timed_allocations_per_run(&row, w.counter.allocations - timed_from);
		r->peak_bytes = w.counter.peak_bytes;
		r->live_bytes = w.counter.live_bytes;
		rc = checksum_values(&w, c->entities, c->k, row.handles, &r->checksum, r);
	}
	if (opened)
		world_close(&w);
	return row_end(&row, rc);
}

/* --- churn ---------------------------------------------------------------------------- */

/*
 * Seed 000's create_and_remove, repeated on one storage so that indices and memory are reused.
 * Its checksum covers what the rounds leave: every handle of the last round must be dead and
 * the system empty; then one more (untimed) round must store and return the right values.
 */
static int run_churn(const struct bench_case *c, struct bench_result *r)
{
	struct row row;
	struct world w = {0};
	int rc = row_begin(&row, c, r);
	if (rc == 0)
		rc = world_open(c, &w, r);
	bool opened = rc == 0;
	uint64_t timed_from = 0; /* allocation count when the first timed sample starts */
	for (uint32_t s = 0; rc == 0 && s < row.total; s++) {
		if (s == c->warmup)
			timed_from = w.counter.allocations;
		uint64_t t0 = now_ns();
		for (uint32_t j = 0; rc == 0 && j < row.inner; j++) {
			rc = spawn(&w, c->entities, c->k, &row.v, row.handles, r);
			if (rc == 0)
				rc = despawn(&w, c->entities, row.handles, r);
		}
		clobber_memory();
		row_sample(&row, s, now_ns() - t0);
	}
	if (rc == 0) {
		r->allocations = timed_allocations_per_run(&row, w.counter.allocations - timed_from);
		r->peak_bytes = w.counter.peak_bytes;
		r->live_bytes = w.counter.live_bytes;
		for (uint32_t i = 0; rc == 0 && i < c->entities; i++)
			if (w.ops->entity_alive(w.s, row.handles[i]))
				rc = fail(r, "entity %u is alive after it was destroyed", i);
	}
	if (rc == 0 && system_pass(&w, c->k) != 0)
		rc = fail(r, "the system still visits entities after all were destroyed");
	if (rc == 0)
		rc = spawn(&w, c->entities, c->k, &row.v, row.handles, r);
	if (rc == 0)
		rc = checksum_values(&w, c->entities, c->k, row.handles, &r->checksum, r);
	if (rc == 0 && system_pass(&w, c->k) != c->entities)
		rc = fail(r, "after reuse the system does not visit every entity");
	if (opened)
		world_close(&w);
	return row_end(&row, rc);
}

const struct workload workloads[] = {
	{"create", "create N entities and add their k components, into an empty storage", 1u << 16,
	 run_create},
	{"iterate", "one pass of system 0 over N entities: Position += Velocity * dt", 1u << 18,
	 run_iterate},
	{"churn", "create N entities with their k components, then destroy them all", 1u << 16,
	 run_churn},
};
const size_t workload_count = sizeof workloads / sizeof workloads[0];

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (strcmp(workloads[i].name, name) == 0)
			return &workloads[i];
	return NULL;
}
