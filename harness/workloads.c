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

int values_make(struct values *v, uint32_t n, uint64_t seed)
{
	memset(v, 0, sizeof *v);
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

void values_free(struct values *v)
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

/* The update of system 0 over one batch: Position += Velocity * dt (k=1: += dt; k=3: scaled
 * by Mass), through columns where the batch has them, pointers where it has not. */
static inline void update_batch(const struct ecs_batch *b, uint32_t k, const size_t size[COMP_MAX_K])
{
	uint32_t n = b->count;
	bool columns = true;
	for (uint32_t c = 0; c < k; c++)
		columns = columns && b->columns[c];
	if (columns && size[0] == sizeof(struct position) &&
	    (k < 2 || size[1] == sizeof(struct velocity)) && (k < 3 || size[2] == sizeof(struct mass))) {
		/* The common case, typed so that the compiler can vectorise it: what the floor and
		 * every backend that hands out columns get alike. */
		struct position *p = b->columns[0];
		const struct velocity *v = b->columns[1];
		const struct mass *m = b->columns[2];
		if (k == 1)
			for (uint32_t i = 0; i < n; i++)
				update_one(1, &p[i], NULL, NULL);
		else if (k == 2)
			for (uint32_t i = 0; i < n; i++)
				update_one(2, &p[i], &v[i], NULL);
		else
			for (uint32_t i = 0; i < n; i++)
				update_one(3, &p[i], &v[i], &m[i]);
	} else if (columns) {
		char *p = b->columns[0], *v = k > 1 ? b->columns[1] : NULL,
		     *m = k > 2 ? b->columns[2] : NULL;
		for (uint32_t i = 0; i < n; i++)
			update_one(k, (void *)(p + i * size[0]), v ? (void *)(v + i * size[1]) : NULL,
			           m ? (void *)(m + i * size[2]) : NULL);
	} else {
		for (uint32_t i = 0; i < n; i++)
			update_one(k, component_at(b, 0, i, size[0]),
			           k > 1 ? component_at(b, 1, i, size[1]) : NULL,
			           k > 2 ? component_at(b, 2, i, size[2]) : NULL);
	}
}

static void component_sizes(const struct world *w, size_t size[COMP_MAX_K])
{
	for (uint32_t c = 0; c < COMP_MAX_K; c++)
		size[c] = w->sizes[c];
}

/* One pass of system 0 through the storage. Returns the number of entities visited. */
static uint64_t system_pass(struct world *w, uint32_t k)
{
	size_t size[COMP_MAX_K];
	component_sizes(w, size);
	struct ecs_iter it;
	struct ecs_batch b;
	uint64_t visited = 0;
	if (w->ops->system_iter_begin(w->s, 0, &it) != ECS_OK)
		return UINT64_MAX;
	while (w->ops->system_iter_next(&it, &b)) {
		visited += b.count;
		update_batch(&b, k, size);
	}
	clobber_memory();
	return visited;
}

/* --- checksums ------------------------------------------------------------------------ */

#define CHECKSUM_START 0xcbf29ce484222325ull

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
	uint64_t h = CHECKSUM_START;
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

/* --- runs: one participant (a backend, or the floor) in one row ----------------------- */

struct run {
	const struct bench_case *c;
	struct bench_result *r;
	ecs_entity *handles;   /* the entities of the last round, in creation order */
	struct world world;    /* iterate, churn: the storage of the whole row */
	struct world *worlds;  /* create: a fresh storage per run of the sample */
	uint32_t worlds_open, worlds_cap;
	uint32_t inner;        /* runs in the sample under way */
	uint64_t visited;      /* iterate: entities the sample's passes visited */
	struct values floor;   /* the floor's plain arrays */
};

static bool is_floor(const struct run *run) { return run->c->ops == NULL; }

static void close_worlds(struct run *run)
{
	for (uint32_t j = 0; j < run->worlds_open; j++)
		world_close(&run->worlds[j]);
	run->worlds_open = 0;
}

/* Allocation calls of every storage the run holds. */
static uint64_t run_allocation_calls(const struct run *run)
{
	uint64_t calls = run->world.s ? run->world.counter.allocations : 0;
	for (uint32_t j = 0; j < run->worlds_open; j++)
		calls += run->worlds[j].counter.allocations;
	return calls;
}

static void note_memory(struct run *run, const struct world *w)
{
	if (w->counter.peak_bytes > run->r->peak_bytes)
		run->r->peak_bytes = w->counter.peak_bytes;
	run->r->live_bytes = w->counter.live_bytes;
}

/* create ------------------------------------------------------------------------------- */

static int create_prepare(struct run *run)
{
	close_worlds(run);
	if (run->inner > run->worlds_cap) {
		struct world *w = realloc(run->worlds, run->inner * sizeof *w);
		if (!w)
			return fail(run->r, "out of memory in the harness");
		run->worlds = w;
		run->worlds_cap = run->inner;
	}
	while (run->worlds_open < run->inner) {
		if (world_open(run->c, &run->worlds[run->worlds_open], run->r))
			return -1;
		run->worlds_open++;
	}
	return 0;
}

static int create_execute(struct run *run)
{
	const struct bench_case *c = run->c;
	for (uint32_t j = 0; j < run->inner; j++)
		if (spawn(&run->worlds[j], c->entities, c->k, c->values, run->handles, run->r))
			return -1;
	return 0;
}

static int create_end_sample(struct run *run)
{
	for (uint32_t j = 0; j < run->worlds_open; j++)
		note_memory(run, &run->worlds[j]);
	return 0;
}

static int create_finish(struct run *run)
{
	struct world *last = &run->worlds[run->worlds_open - 1];
	return checksum_values(last, run->c->entities, run->c->k, run->handles, &run->r->checksum,
	                       run->r);
}

/* iterate ------------------------------------------------------------------------------ */

static int iterate_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (is_floor(run)) {
		if (values_make(&run->floor, c->entities, c->seed))
			return fail(run->r, "out of memory in the harness");
		run->r->peak_bytes = run->r->live_bytes =
			(uint64_t)c->entities * (sizeof(struct position) +
			                         (c->k > 1 ? sizeof(struct velocity) : 0) +
			                         (c->k > 2 ? sizeof(struct mass) : 0));
		return 0;
	}
	if (world_open(c, &run->world, run->r))
		return -1;
	return spawn(&run->world, c->entities, c->k, c->values, run->handles, run->r);
}

/* The floor: the same update over plain arrays, no storage at all. */
static void floor_pass(struct run *run)
{
	struct ecs_batch b = {.count = run->c->entities};
	b.columns[0] = run->floor.position;
	b.columns[1] = run->floor.velocity;
	b.columns[2] = run->floor.mass;
	const size_t size[COMP_MAX_K] = {sizeof(struct position), sizeof(struct velocity),
	                                 sizeof(struct mass)};
	update_batch(&b, run->c->k, size);
	clobber_memory();
}

static int iterate_execute(struct run *run)
{
	uint64_t visited = 0;
	if (is_floor(run)) {
		for (uint32_t j = 0; j < run->inner; j++)
			floor_pass(run);
		visited = (uint64_t)run->c->entities * run->inner;
	} else {
		for (uint32_t j = 0; j < run->inner; j++)
			visited += system_pass(&run->world, run->c->k);
	}
	run->visited = visited;
	return 0;
}

static int iterate_end_sample(struct run *run)
{
	uint64_t expected = (uint64_t)run->c->entities * run->inner;
	if (run->visited != expected)
		return fail(run->r, "the system visited %llu entities, expected %llu",
		            (unsigned long long)run->visited, (unsigned long long)expected);
	return 0;
}

static int iterate_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	if (!is_floor(run)) {
		note_memory(run, &run->world);
		return checksum_values(&run->world, c->entities, c->k, run->handles, &run->r->checksum,
		                       run->r);
	}
	uint64_t h = CHECKSUM_START;
	for (uint32_t i = 0; i < c->entities; i++)
		for (uint32_t t = 0; t < c->k; t++)
			h = hash_bytes(h, value_of(&run->floor, t, i),
			               t == COMP_MASS ? sizeof(struct mass) : sizeof(struct position));
	run->r->checksum = h;
	return 0;
}

/* churn -------------------------------------------------------------------------------- */

static int churn_setup(struct run *run) { return world_open(run->c, &run->world, run->r); }

static int churn_execute(struct run *run)
{
	const struct bench_case *c = run->c;
	for (uint32_t j = 0; j < run->inner; j++) {
		if (spawn(&run->world, c->entities, c->k, c->values, run->handles, run->r) ||
		    despawn(&run->world, c->entities, run->handles, run->r))
			return -1;
	}
	return 0;
}

/*
 * What the rounds leave: every handle of the last round dead and the system empty; then one
 * more (untimed) round must store and return the right values, and the system visit them all.
 */
static int churn_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	struct world *w = &run->world;
	note_memory(run, w);
	for (uint32_t i = 0; i < c->entities; i++)
		if (w->ops->entity_alive(w->s, run->handles[i]))
			return fail(run->r, "entity %u is alive after it was destroyed", i);
	if (system_pass(w, c->k) != 0)
		return fail(run->r, "the system still visits entities after all were destroyed");
	if (spawn(w, c->entities, c->k, c->values, run->handles, run->r) ||
	    checksum_values(w, c->entities, c->k, run->handles, &run->r->checksum, run->r))
		return -1;
	if (system_pass(w, c->k) != c->entities)
		return fail(run->r, "after reuse the system does not visit every entity");
	return 0;
}

/* --- the table of workloads, and the run API main.c drives ----------------------------- */

const struct workload workloads[] = {
	{
		.name = "create",
		.timed = "create N entities and add their k components, into an empty storage",
		.prepare = create_prepare,
		.execute = create_execute,
		.end_sample = create_end_sample,
		.finish = create_finish,
	},
	{
		.name = "iterate",
		.timed = "one pass of system 0 over N entities: Position += Velocity * dt",
		.floor = true,
		.setup = iterate_setup,
		.execute = iterate_execute,
		.end_sample = iterate_end_sample,
		.finish = iterate_finish,
	},
	{
		.name = "churn",
		.timed = "create N entities with their k components, then destroy them all",
		.setup = churn_setup,
		.execute = churn_execute,
		.finish = churn_finish,
	},
};
const size_t workload_count = sizeof workloads / sizeof workloads[0];

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (strcmp(workloads[i].name, name) == 0)
			return &workloads[i];
	return NULL;
}

struct run *run_new(const struct bench_case *c, struct bench_result *r)
{
	struct run *run = calloc(1, sizeof *run);
	if (run)
		run->handles = malloc((size_t)c->entities * sizeof *run->handles);
	if (!run || !run->handles) {
		free(run);
		fail(r, "out of memory in the harness");
		return NULL;
	}
	run->c = c;
	run->r = r;
	return run;
}

int run_setup(struct run *run)
{
	return run->c->workload->setup ? run->c->workload->setup(run) : 0;
}

/*
 * One sample: `inner` runs of the workload, timed together; the untimed preparation and
 * checks around them are the workload's. *ns is the time of the whole sample, *allocations the
 * allocation calls made inside it.
 */
int run_sample(struct run *run, uint32_t inner, uint64_t *ns, uint64_t *allocations)
{
	const struct workload *w = run->c->workload;
	run->inner = inner;
	if (w->prepare && w->prepare(run))
		return -1;
	uint64_t calls = run_allocation_calls(run);
	uint64_t t0 = now_ns();
	int rc = w->execute(run);
	clobber_memory();
	*ns = now_ns() - t0;
	*allocations = run_allocation_calls(run) - calls;
	if (rc == 0 && w->end_sample)
		rc = w->end_sample(run);
	return rc;
}

int run_finish(struct run *run) { return run->c->workload->finish(run); }

void run_free(struct run *run)
{
	if (!run)
		return;
	close_worlds(run);
	free(run->worlds);
	world_close(&run->world);
	values_free(&run->floor);
	free(run->handles);
	free(run);
}
