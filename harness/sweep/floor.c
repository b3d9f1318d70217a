/*
 * floor.c: the floor of every swept workload: the simplest correct code for the same task over
 * plain arrays indexed by entity, with no storage abstraction and no indirect call. It runs
 * beside the backends, in the same interleaved samples, and its checksum must agree with
 * theirs; each backend's ratio_to_floor reads as its distance to the machine's limit. What a
 * floor leaves out is what a real storage needs: generations and handle checks, bookkeeping of
 * who has what, growth, and systems to keep informed.
 *
 *   create      take the next index (under lived-in, the next of a free list holding the
 *               predecessors' indices in their order of death, as the backends recycle them),
 *               mark it alive, write its k values into preallocated arrays, and the values of
 *               its kind's own types where the history spawns kinds (history.h) into arrays of
 *               their own
 *   create-batch  create's entities in create-batch's batches (history.h: struct batch_plan),
 *               the way plain arrays take a batch: the alive marks of its range set with one
 *               memset, each type of S's packed values copied with one memcpy, the kinds' own
 *               types filled with their one value; under lived-in, entity by entity at the
 *               recycled indices (a batch of them has no range)
 *   iterate     the update over the k arrays, in order (iterate-aged: the same; the floor
 *               does not age)
 *   churn       the same as create, taking indices from a free list first; then, for each
 *               entity in the history's order of destruction, clear its alive mark and push its
 *               index on the free list; the arrays and the free list are reused from round to
 *               round
 *   add-remove  for every entity in the backends' order of visits (shuffled under lived-in),
 *               set its presence bit and write its status; then clear every bit in that order
 *   add-remove-batch  the same: a batch of scattered entities has no range plain arrays could
 *               set at once
 *   get         read the k values of every entity in the same shuffled order, from the arrays
 *               (get-one, get-batch: the same; get-ordered: in creation order, entity i at
 *               index i)
 *   destroy     for each entity in the backends' order, clear its alive mark (one array of
 *               marks per run of the sample, set again before the clock) and push its index on
 *               a free list
 *   empty-pass  a system's list of matching entities that is empty: its length read, nothing
 *               walked
 *   systems-64  the N entities' Position and Velocity packed group by group, and the update
 *               over each of the 64 groups' ranges, as 64 systems with perfect lists would
 *   fragmented  one pass over the packed Position and Velocity of the entities that have both,
 *               as a system would with a perfect list of them
 *   parallel-iterate  iterate's update over the k arrays cut in T contiguous ranges, one per
 *               thread of the same pool as the backends' (parallel.c), each range but the first
 *               starting on a cache-line start of Position (ecs_split_bound, ecs_split_align:
 *               the backends' rule), so that no two threads write one line
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "../core/parallel.h"
#include "world.h"

struct floor {
	struct values v;        /* the component arrays, indexed by entity index */
	unsigned char *alive;   /* create, churn */
	uint32_t *free_list;    /* churn */
	uint32_t free_count, next;
	uint32_t alive_runs;    /* destroy: the runs `alive` has marks for */
	uint32_t *index;        /* churn: the index each entity of the round got */
	uint64_t *present;      /* add-remove: the status's presence bits */
	unsigned char *status;  /* add-remove: the status's values */
	uint32_t *order;        /* get: the shuffled order */
	uint32_t *slot;         /* fragmented: entity -> packed slot, or UINT32_MAX */
	unsigned char *has;     /* fragmented: bit 0 Position, bit 1 Velocity */
	unsigned char *packed_p;   /* fragmented: the matching entities' values */
	unsigned char *packed_v;
	uint32_t matches;
	struct parallel_pool *pool; /* parallel-iterate */
	struct spawn_plan spawn;    /* create, churn: the kinds, the order of destruction */
	struct batch_plan batches;  /* create-batch */
	unsigned char *extra[HISTORY_KINDS]; /* create, churn: the kinds' own types' values */
};

static struct floor *floor_of(struct run *run) { return run->state; }

/* The floor's own memory, for peak_bytes and live_bytes. */
static void floor_bytes(struct run *run, uint64_t bytes)
{
	run->r->peak_bytes += bytes;
	run->r->live_bytes += bytes;
}

static int floor_new(struct run *run)
{
	run->state = calloc(1, sizeof(struct floor));
	return run->state ? 0 : bench_fail(run->r, "out of memory in the harness");
}

static void floor_release(struct run *run)
{
	struct floor *f = floor_of(run);
	if (!f)
		return;
	world_values_free(&f->v);
	free(f->alive);
	free(f->free_list);
	free(f->index);
	free(f->present);
	free(f->status);
	free(f->order);
	free(f->slot);
	free(f->has);
	free(f->packed_p);
	free(f->packed_v);
	parallel_pool_stop(f->pool);
	history_spawn_plan_free(&f->spawn);
	history_batch_plan_free(&f->batches);
	for (uint32_t x = 0; x < HISTORY_KINDS; x++)
		free(f->extra[x]);
}

/* The arrays of the k component types (sizes as the backends'), values as created. */
static int floor_arrays(struct run *run, uint32_t k)
{
	const struct bench_case *c = run->c;
	struct floor *f = floor_of(run);
	if (world_values_make(&f->v, c->entities, c->seed, 0, c->component_size))
		return bench_fail(run->r, "out of memory in the harness");
	for (uint32_t t = 0; t < k; t++)
		floor_bytes(run, (uint64_t)c->entities * f->v.size[t]);
	return 0;
}

/* The checksum the backends compute (checksum_values): the values of the listed types of each
 * entity in creation order, where entity i is at index[i] (NULL: at i); absent types (has
 * returns false) hash a marker. */
static uint64_t floor_checksum(struct run *run, const uint32_t *types, uint32_t ntypes,
                               const uint32_t *index, bool (*has)(struct run *, uint32_t, uint32_t))
{
	struct floor *f = floor_of(run);
	uint64_t h = CHECKSUM_START;
	for (uint32_t i = 0; i < run->c->entities; i++) {
		uint32_t at = index ? index[i] : i;
		for (uint32_t j = 0; j < ntypes; j++) {
			if (has && !has(run, at, types[j]))
				h = world_hash_bytes(h, "-", 1);
			else
				h = world_hash_bytes(h, world_value_of(&f->v, types[j], at), f->v.size[types[j]]);
		}
	}
	return h;
}

/* create ------------------------------------------------------------------------------- */

/* The spawn plan of create or churn (the backends' own: history.h), and arrays for the kinds'
 * own types where it spawns kinds. */
static int spawn_arrays(struct run *run, uint64_t stream)
{
	const struct bench_case *c = run->c;
	struct floor *f = floor_of(run);
	if (history_spawn_plan_make(&f->spawn, c->history, c, workloads_sweep_types, c->k, c->values, stream, run->r))
		return -1;
	if (f->spawn.lists < HISTORY_KINDS)
		return 0;
	for (uint32_t x = 0; x < HISTORY_KINDS; x++) {
		if (!(f->extra[x] = malloc((size_t)c->entities * sizeof(uint64_t) + 1)))
			return bench_fail(run->r, "out of memory in the harness");
		floor_bytes(run, (uint64_t)c->entities * sizeof(uint64_t));
	}
	return 0;
}

static int create_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (floor_new(run) || floor_arrays(run, c->k) || spawn_arrays(run, HISTORY_STREAM_CREATE))
		return -1;
	struct floor *f = floor_of(run);
	f->alive = calloc(c->entities + 1, 1);
	if (!f->alive)
		return bench_fail(run->r, "out of memory in the harness");
	floor_bytes(run, c->entities);
	/* Under a lived-in history the backends recycle their predecessors' indices: so does the
	 * floor, from a free list of its own (history_turnover_indices). */
	uint32_t predecessors = workloads_predecessors(c);
	if (predecessors && !(f->index = history_turnover_indices(c, predecessors)))
		return bench_fail(run->r, "out of memory in the harness");
	if (predecessors)
		floor_bytes(run, (uint64_t)c->entities * sizeof *f->index);
	return 0;
}

/* Where the k values of entity i come from and go to, in locals: the stores through the
 * value arrays would otherwise make the compiler reload every pointer for every entity. */
struct copy_plan {
	unsigned char *dst[COMP_MAX_K];
	const unsigned char *src[COMP_MAX_K];
	uint32_t size[COMP_MAX_K];
	uint32_t k;
	const uint8_t *kind;  /* per entity (history_spawn_plan_kind), or NULL: no kinds */
	unsigned char *extra[HISTORY_KINDS];
};

static struct copy_plan copy_plan(const struct run *run, const struct floor *f)
{
	struct copy_plan p = {.k = run->c->k};
	for (uint32_t t = 0; t < p.k; t++) {
		p.dst[t] = f->v.data[t];
		p.src[t] = run->c->values->data[workloads_sweep_types[t]];
		p.size[t] = f->v.size[t];
	}
	if (f->spawn.lists == HISTORY_KINDS) {
		p.kind = f->spawn.list;
		for (uint32_t x = 0; x < HISTORY_KINDS; x++)
			p.extra[x] = f->extra[x];
	}
	return p;
}

/* Entity i's values at index e: its k values, and its kind's own (a bullet one, a particle
 * two; 8 bytes each, the size of the profile's other types). */
static inline __attribute__((always_inline)) void copy_values(const struct copy_plan *p,
                                                              uint32_t e, uint32_t i, bool kinds)
{
	for (uint32_t t = 0; t < p->k; t++)
		world_value_copy(p->dst[t] + (size_t)e * p->size[t], p->src[t] + (size_t)i * p->size[t],
		                 p->size[t]);
	if (!kinds)
		return;
	uint32_t kind = p->kind[i];
	if (kind == 1)
		world_value_copy(p->extra[0] + (size_t)e * 8, history_extra_value, 8);
	else if (kind == 2) {
		world_value_copy(p->extra[1] + (size_t)e * 8, history_extra_value, 8);
		world_value_copy(p->extra[2] + (size_t)e * 8, history_extra_value, 8);
	}
}

/* The loop with or without kinds, each with the test of p->kind out of it (inside it, gcc kept
 * p in memory and the floor's create took 2.4 ns an entity instead of 1.8). */
static inline void create_all(const struct copy_plan *p, unsigned char *alive, uint32_t n,
                              bool kinds)
{
	for (uint32_t e = 0; e < n; e++) {
		alive[e] = 1;
		copy_values(p, e, e, kinds);
	}
}

/* The same, entity i at the index the free list gives it. */
static inline void create_recycled(const struct copy_plan *p, unsigned char *alive,
                                   const uint32_t *index, uint32_t n, bool kinds)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t e = index[i];
		alive[e] = 1;
		copy_values(p, e, i, kinds);
	}
}

static int create_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	const struct copy_plan plan = copy_plan(run, f);
	unsigned char *alive = f->alive;
	uint32_t n = run->c->entities;
	for (uint32_t j = 0; j < run->inner; j++) {
		if (f->index && plan.kind)
			create_recycled(&plan, alive, f->index, n, true);
		else if (f->index)
			create_recycled(&plan, alive, f->index, n, false);
		else if (plan.kind)
			create_all(&plan, alive, n, true);
		else
			create_all(&plan, alive, n, false);
		f->next = n;
		measure_clobber();
	}
	return 0;
}

static int create_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	run->r->checksum = floor_checksum(run, workloads_sweep_types, run->c->k, floor_of(run)->index,
	                                  NULL);
	return 0;
}

const struct workload floor_create = {
	.name = "create",
	.setup = create_setup,
	.execute = create_execute,
	.finish = create_finish,
	.release = floor_release,
};

/* create-batch --------------------------------------------------------------------------- */

static int create_batch_setup(struct run *run)
{
	struct floor *f;
	if (create_setup(run))
		return -1;
	f = floor_of(run);
	return history_batch_plan_make(&f->batches, &f->spawn, run->r);
}

/* The kinds' own types of a batch of kind `kind`: one value for all, an 8-byte store each. */
static void fill_extra(unsigned char *dst, uint32_t count)
{
	uint64_t v;
	memcpy(&v, history_extra_value, 8);
	for (uint32_t j = 0; j < count; j++)
		memcpy(dst + (size_t)j * 8, &v, 8);
}

/* Batch x of create-batch's plan at the indices the free list gives its positions. */
static void create_batch_recycled(struct floor *f, const struct batch_plan *b, uint32_t x,
                                  uint32_t k, bool kinds)
{
	uint32_t first = b->first[x], count = b->count[x], list = b->list[x];
	for (uint32_t pos = first; pos < first + count; pos++) {
		uint32_t e = f->index[pos];
		f->alive[e] = 1;
		for (uint32_t t = 0; t < k; t++)
			world_value_copy(f->v.data[t] + (size_t)e * b->size[t],
			                 b->values[t] + (size_t)pos * b->size[t], b->size[t]);
		if (kinds && list == 1)
			world_value_copy(f->extra[0] + (size_t)e * 8, history_extra_value, 8);
		else if (kinds && list == 2) {
			world_value_copy(f->extra[1] + (size_t)e * 8, history_extra_value, 8);
			world_value_copy(f->extra[2] + (size_t)e * 8, history_extra_value, 8);
		}
	}
}

static int create_batch_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	const struct batch_plan *b = &f->batches;
	bool kinds = f->spawn.lists == HISTORY_KINDS && f->spawn.list;
	uint32_t k = run->c->k;
	for (uint32_t j = 0; j < run->inner; j++) {
		for (uint32_t x = 0; x < b->batches; x++) {
			uint32_t first = b->first[x], count = b->count[x];
			if (f->index) { /* recycled indices: no range to fill at once */
				create_batch_recycled(f, b, x, k, kinds);
				continue;
			}
			memset(f->alive + first, 1, count);
			for (uint32_t t = 0; t < k; t++)
				memcpy(f->v.data[t] + (size_t)first * b->size[t],
				       b->values[t] + (size_t)first * b->size[t], (size_t)count * b->size[t]);
			if (kinds && b->list[x] == 1)
				fill_extra(f->extra[0] + (size_t)first * 8, count);
			else if (kinds && b->list[x] == 2) {
				fill_extra(f->extra[1] + (size_t)first * 8, count);
				fill_extra(f->extra[2] + (size_t)first * 8, count);
			}
		}
		f->next = run->c->entities;
		measure_clobber();
	}
	return 0;
}

const struct workload floor_create_batch = {
	.name = "create-batch",
	.setup = create_batch_setup,
	.execute = create_batch_execute,
	.finish = create_finish,
	.release = floor_release,
};

/* iterate ------------------------------------------------------------------------------ */

/* The arrays the floors of iterate, parallel-iterate and get share (as their backends share
 * iterate's storage: workloads_iterate_world). */
static int iterate_build(struct run *run)
{
	return floor_new(run) || floor_arrays(run, run->c->k) ? -1 : 0;
}

static int iterate_adopt(struct run *run)
{
	run->expected = run->c->entities;
	return 0;
}

static void floor_pass(struct floor *f, uint32_t n, uint32_t k)
{
	struct ecs_batch b = {.count = n};
	size_t size[COMP_MAX_K];
	for (uint32_t t = 0; t < COMP_MAX_K; t++) {
		b.columns[t] = t < k ? f->v.data[t] : NULL;
		size[t] = f->v.size[t];
	}
	update_batch(&b, k, size);
	measure_clobber();
}

static int iterate_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++)
		floor_pass(floor_of(run), run->c->entities, run->c->k);
	run->visited = (uint64_t)run->c->entities * run->inner;
	return 0;
}

static int iterate_check(struct run *run)
{
	uint64_t expected = run->expected * run->inner;
	if (run->visited != expected)
		return bench_fail(run->r, "the pass visited %llu entities, expected %llu",
		                  (unsigned long long)run->visited, (unsigned long long)expected);
	return 0;
}

const struct workload floor_iterate = {
	.name = "iterate",
	.build = iterate_build,
	.adopt = iterate_adopt,
	.execute = iterate_execute,
	.end_sample = iterate_check,
	.finish = create_finish,
	.release = floor_release,
};

/* churn -------------------------------------------------------------------------------- */

static int churn_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (floor_new(run) || floor_arrays(run, c->k) || spawn_arrays(run, HISTORY_STREAM_CHURN))
		return -1;
	struct floor *f = floor_of(run);
	f->alive = calloc(c->entities + 1, 1);
	f->free_list = malloc((size_t)c->entities * sizeof *f->free_list + 1);
	f->index = malloc((size_t)c->entities * sizeof *f->index + 1);
	if (!f->alive || !f->free_list || !f->index)
		return bench_fail(run->r, "out of memory in the harness");
	floor_bytes(run, (uint64_t)c->entities * (1 + sizeof *f->free_list));
	return 0;
}

static inline __attribute__((always_inline)) void churn_create_all(struct floor *f,
                                                                   const struct copy_plan *p,
                                                                   uint32_t n, bool kinds)
{
	unsigned char *alive = f->alive;
	uint32_t *free_list = f->free_list, *index = f->index;
	uint32_t free_count = f->free_count, next = f->next;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t e = free_count ? free_list[--free_count] : next++;
		alive[e] = 1;
		index[i] = e;
		copy_values(p, e, i, kinds);
	}
	f->free_count = free_count;
	f->next = next;
}

static void churn_create(struct run *run)
{
	struct floor *f = floor_of(run);
	const struct copy_plan plan = copy_plan(run, f);
	if (plan.kind)
		churn_create_all(f, &plan, run->c->entities, true);
	else
		churn_create_all(f, &plan, run->c->entities, false);
}

static void churn_destroy(struct floor *f, uint32_t n)
{
	unsigned char *alive = f->alive;
	uint32_t *free_list = f->free_list, free_count = f->free_count;
	const uint32_t *index = f->index, *order = f->spawn.destroy_order;
	if (order) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t e = index[order[i]];
			alive[e] = 0;
			free_list[free_count++] = e;
		}
	} else {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t e = index[i];
			alive[e] = 0;
			free_list[free_count++] = e;
		}
	}
	f->free_count = free_count;
}

static int churn_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		churn_create(run);
		churn_destroy(floor_of(run), run->c->entities);
	}
	measure_clobber();
	return 0;
}

/* As the backends': every entity of the last round dead; one more round read back. */
static int churn_finish(struct run *run)
{
	struct floor *f = floor_of(run);
	run->r->reuse = 1.0; /* the same arrays every round, by construction */
	if (!run->verify)
		return 0;
	for (uint32_t i = 0; i < run->c->entities; i++)
		if (f->alive[f->index[i]])
			return bench_fail(run->r, "entity %u is alive after it was destroyed", i);
	churn_create(run);
	run->r->checksum = floor_checksum(run, workloads_sweep_types, run->c->k, f->index, NULL);
	return 0;
}

const struct workload floor_churn = {
	.name = "churn",
	.setup = churn_setup,
	.execute = churn_execute,
	.finish = churn_finish,
	.release = floor_release,
};

/* add-remove --------------------------------------------------------------------------- */

/* On iterate's arrays (the backends' storage is iterate's): the status's presence bits and
 * values, visited in the backends' order (workloads_visit_order), the values packed in it. */
static int add_remove_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	struct floor *f = floor_of(run);
	uint32_t n = c->entities;
	size_t size = c->values->size[COMP_HEALTH];
	if (workloads_visit_order(c, WORKLOADS_ADD_REMOVE_ORDER, &f->order, run->r))
		return -1;
	f->present = calloc((n + 63) / 64 + 1, sizeof *f->present);
	f->status = malloc((size_t)n * size + 1);
	f->packed_v = malloc((size_t)n * size + 1);
	if (!f->present || !f->status || !f->packed_v)
		return bench_fail(run->r, "out of memory in the harness");
	for (uint32_t i = 0; i < n; i++)
		memcpy(f->packed_v + (size_t)i * size, world_value_of(c->values, COMP_HEALTH, f->order[i]),
		       size);
	floor_bytes(run, (uint64_t)n * size + n / 8);
	return 0;
}

/* Per entity in the visits' order: its presence bit set and its status written; then every
 * bit cleared in the same order. add-remove-batch's floor is the same: a batch of scattered
 * entities has no range to set at once. */
static int add_remove_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	uint64_t *present = f->present;
	const uint32_t *order = f->order;
	uint32_t n = run->c->entities, size = run->c->values->size[COMP_HEALTH];
	unsigned char *status = f->status;
	const unsigned char *values = f->packed_v;
	for (uint32_t j = 0; j < run->inner; j++) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t e = order[i];
			present[e / 64] |= 1ull << (e % 64);
			world_value_copy(status + (size_t)e * size, values + (size_t)i * size, size);
		}
		measure_clobber();
		for (uint32_t i = 0; i < n; i++) {
			uint32_t e = order[i];
			present[e / 64] &= ~(1ull << (e % 64));
		}
		measure_clobber();
	}
	return 0;
}

static bool add_remove_has(struct run *run, uint32_t e, uint32_t type)
{
	return type != COMP_STATUS || (floor_of(run)->present[e / 64] >> (e % 64) & 1);
}

static int add_remove_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	uint32_t types[COMP_MAX_K + 1] = {COMP_STATUS}; /* absent everywhere, as the backends' */
	memcpy(types + 1, workloads_sweep_types, run->c->k * sizeof *types);
	run->r->checksum = floor_checksum(run, types, run->c->k + 1, NULL, add_remove_has);
	return 0;
}

const struct workload floor_add_remove = {
	.name = "add-remove",
	.build = iterate_build,
	.adopt = add_remove_adopt,
	.execute = add_remove_execute,
	.finish = add_remove_finish,
	.release = floor_release,
};

const struct workload floor_add_remove_batch = {
	.name = "add-remove-batch",
	.build = iterate_build,
	.adopt = add_remove_adopt,
	.execute = add_remove_execute,
	.finish = add_remove_finish,
	.release = floor_release,
};

/* get ---------------------------------------------------------------------------------- */

static int get_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	struct floor *f = floor_of(run);
	/* The same shuffled order as the backends' (get_setup in workloads.c). */
	if (!(f->order = rng_permutation(c->seed, 1, c->entities)))
		return bench_fail(run->r, "out of memory in the harness");
	return 0;
}

/* The same additions in the same order as the backends' get: their sums agree exactly. */
static int get_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	uint32_t n = run->c->entities, k = run->c->k;
	const uint32_t *order = f->order;
	const unsigned char *data[COMP_MAX_K];
	size_t size[COMP_MAX_K];
	for (uint32_t t = 0; t < k; t++) {
		data[t] = f->v.data[t];
		size[t] = f->v.size[t];
	}
	double sum = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		sum = 0; /* one run's, as the backends' */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t e = order[i];
			for (uint32_t t = 0; t < k; t++)
				sum += *(const float *)(const void *)(data[t] + e * size[t]);
		}
	}
	run->sum = sum;
	measure_clobber();
	return 0;
}

static int get_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	uint64_t h = floor_checksum(run, workloads_sweep_types, run->c->k, NULL, NULL);
	run->r->checksum = world_hash_bytes(h, &run->sum, sizeof run->sum);
	return 0;
}

const struct workload floor_get = {
	.name = "get",
	.build = iterate_build,
	.adopt = get_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.release = floor_release,
};

/* get-one: the same task as get's (the same reads in the same order): plain arrays have no call
 * to split by type. */
const struct workload floor_get_one = {
	.name = "get-one",
	.build = iterate_build,
	.adopt = get_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.release = floor_release,
};

/* get-batch: the same task as get's (the same reads in the same order): plain arrays have no
 * lookup to batch. */
const struct workload floor_get_batch = {
	.name = "get-batch",
	.build = iterate_build,
	.adopt = get_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.release = floor_release,
};

/* get-ordered: the same reads in creation order (entity i at index i). */
static int get_ordered_adopt(struct run *run)
{
	struct floor *f = floor_of(run);
	if (!(f->order = malloc((size_t)run->c->entities * sizeof *f->order + 1)))
		return bench_fail(run->r, "out of memory in the harness");
	for (uint32_t i = 0; i < run->c->entities; i++)
		f->order[i] = i;
	return 0;
}

const struct workload floor_get_ordered = {
	.name = "get-ordered",
	.build = iterate_build,
	.adopt = get_ordered_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.release = floor_release,
};

/* destroy ------------------------------------------------------------------------------ */

/* An alive mark per entity for each run of a sample (set again before the clock), and the
 * backends' order of destruction. */
static int destroy_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (floor_new(run) || floor_arrays(run, c->k))
		return -1;
	struct floor *f = floor_of(run);
	f->order = rng_permutation(c->seed, WORKLOADS_DESTROY_ORDER, c->entities);
	f->free_list = malloc((size_t)c->entities * sizeof *f->free_list + 1);
	if (!f->order || !f->free_list)
		return bench_fail(run->r, "out of memory in the harness");
	floor_bytes(run, (uint64_t)c->entities * (1 + sizeof *f->free_list));
	return 0;
}

static int destroy_prepare(struct run *run)
{
	struct floor *f = floor_of(run);
	size_t bytes = (size_t)run->inner * run->c->entities;
	if (run->inner > f->alive_runs) {
		free(f->alive);
		if (!(f->alive = malloc(bytes + 1)))
			return bench_fail(run->r, "out of memory in the harness");
		f->alive_runs = run->inner;
	}
	memset(f->alive, 1, bytes);
	return 0;
}

/* For each entity in the backends' order: clear its alive mark, push its index on the free
 * list (as churn's floor destroys). */
static int destroy_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	uint32_t n = run->c->entities;
	const uint32_t *order = f->order;
	uint32_t *free_list = f->free_list;
	for (uint32_t j = 0; j < run->inner; j++) {
		unsigned char *alive = f->alive + (size_t)j * n;
		for (uint32_t i = 0; i < n; i++) {
			alive[order[i]] = 0;
			free_list[i] = order[i];
		}
		measure_clobber();
	}
	return 0;
}

static int destroy_finish(struct run *run)
{
	struct floor *f = floor_of(run);
	if (!run->verify)
		return 0;
	const unsigned char *alive = f->alive + (size_t)(run->inner ? run->inner - 1 : 0) * run->c->entities;
	for (uint32_t i = 0; i < run->c->entities && run->inner; i++)
		if (alive[i])
			return bench_fail(run->r, "entity %u is alive after it was destroyed", i);
	run->r->checksum = floor_checksum(run, workloads_sweep_types, run->c->k, NULL, NULL);
	return 0;
}

const struct workload floor_destroy = {
	.name = "destroy",
	.setup = destroy_setup,
	.prepare = destroy_prepare,
	.execute = destroy_execute,
	.finish = destroy_finish,
	.release = floor_release,
};

/* empty-pass: a system's list of matching entities, empty. */
static int empty_pass_adopt(struct run *run)
{
	floor_of(run)->matches = 0;
	run->expected = 0;
	return 0;
}

/* The list is empty: its length read, nothing walked (no update called on nothing). */
static int empty_pass_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		for (uint32_t i = 0; i < f->matches; i++)
			visited++;
		measure_clobber();
	}
	run->visited = visited;
	return 0;
}

const struct workload floor_empty_pass = {
	.name = "empty-pass",
	.build = iterate_build,
	.adopt = empty_pass_adopt,
	.execute = empty_pass_execute,
	.end_sample = iterate_check,
	.finish = create_finish,
	.release = floor_release,
};

/* systems-64: the N entities' Position and Velocity packed group by group (entity i is in group
 * i % 64), and one update over each group's range, as 64 systems with perfect lists would. */
static int systems_64_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (floor_new(run) || floor_arrays(run, 2))
		return -1;
	struct floor *f = floor_of(run);
	size_t size = c->component_size;
	f->slot = malloc((size_t)c->entities * sizeof *f->slot + 1);
	f->packed_p = malloc((size_t)c->entities * size + 1);
	f->packed_v = malloc((size_t)c->entities * size + 1);
	if (!f->slot || !f->packed_p || !f->packed_v)
		return bench_fail(run->r, "out of memory in the harness");
	uint32_t at = 0;
	for (uint32_t g = 0; g < WORKLOADS_SYSTEMS; g++)
		for (uint32_t i = g; i < c->entities; i += WORKLOADS_SYSTEMS) {
			memcpy(f->packed_p + (size_t)at * size, world_value_of(&f->v, COMP_POSITION, i), size);
			memcpy(f->packed_v + (size_t)at * size, world_value_of(&f->v, COMP_VELOCITY, i), size);
			f->slot[i] = at++;
		}
	run->expected = c->entities;
	run->r->peak_bytes = run->r->live_bytes = (uint64_t)c->entities * 2 * size;
	return 0;
}

static int systems_64_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	uint32_t n = run->c->entities;
	const size_t size[COMP_MAX_K] = {run->c->component_size, run->c->component_size, 4};
	for (uint32_t j = 0; j < run->inner; j++) {
		uint32_t at = 0;
		for (uint32_t g = 0; g < WORKLOADS_SYSTEMS; g++) {
			struct ecs_batch b = {.count = n / WORKLOADS_SYSTEMS + (g < n % WORKLOADS_SYSTEMS)};
			b.columns[0] = f->packed_p + (size_t)at * size[0];
			b.columns[1] = f->packed_v + (size_t)at * size[1];
			update_batch(&b, 2, size);
			at += b.count;
			measure_clobber();
		}
	}
	run->visited = (uint64_t)n * run->inner;
	return 0;
}

/* Position and Velocity of every entity in creation order, as the backends' checksum reads. */
static int systems_64_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	struct floor *f = floor_of(run);
	size_t size = run->c->component_size;
	uint64_t h = CHECKSUM_START;
	for (uint32_t i = 0; i < run->c->entities; i++) {
		h = world_hash_bytes(h, f->packed_p + (size_t)f->slot[i] * size, size);
		h = world_hash_bytes(h, f->packed_v + (size_t)f->slot[i] * size, size);
	}
	run->r->checksum = h;
	return 0;
}

const struct workload floor_systems_64 = {
	.name = "systems-64",
	.setup = systems_64_setup,
	.execute = systems_64_execute,
	.end_sample = iterate_check,
	.finish = systems_64_finish,
	.release = floor_release,
};

/* fragmented --------------------------------------------------------------------------- */

/* The same draws as the backends' (fragmented_setup), so the same entities have Position and
 * Velocity; those that have both are packed in creation order. */
static int fragmented_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (floor_new(run) || floor_arrays(run, 2))
		return -1;
	struct floor *f = floor_of(run);
	f->slot = malloc((size_t)c->entities * sizeof *f->slot + 1);
	f->has = malloc(c->entities + 1);
	size_t size = c->component_size;
	f->packed_p = malloc((size_t)c->entities * size + 1);
	f->packed_v = malloc((size_t)c->entities * size + 1);
	if (!f->slot || !f->has || !f->packed_p || !f->packed_v)
		return bench_fail(run->r, "out of memory in the harness");
	struct rng g;
	rng_seed(&g, c->seed, 2);
	f->matches = 0;
	for (uint32_t i = 0; i < c->entities; i++) {
		uint32_t types[FRAGMENTED_MAX_TYPES];
		uint32_t n = world_fragmented_types(&g, c->profile->component_count, types);
		f->has[i] = 0;
		for (uint32_t y = 0; y < n; y++)
			f->has[i] |= types[y] == COMP_POSITION ? 1 : types[y] == COMP_VELOCITY ? 2 : 0;
		f->slot[i] = UINT32_MAX;
		if (f->has[i] == 3) {
			memcpy(f->packed_p + f->matches * size, world_value_of(&f->v, COMP_POSITION, i), size);
			memcpy(f->packed_v + f->matches * size, world_value_of(&f->v, COMP_VELOCITY, i), size);
			f->slot[i] = f->matches++;
		}
	}
	run->expected = f->matches;
	/* the floor's memory: what the pass needs, the packed pairs */
	run->r->peak_bytes = run->r->live_bytes = (uint64_t)f->matches * 2 * size;
	return 0;
}

static int fragmented_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	for (uint32_t j = 0; j < run->inner; j++) {
		struct ecs_batch b = {.count = f->matches};
		b.columns[0] = f->packed_p;
		b.columns[1] = f->packed_v;
		const size_t size[COMP_MAX_K] = {run->c->component_size, run->c->component_size, 4};
		update_batch(&b, 2, size);
		measure_clobber();
	}
	run->visited = (uint64_t)f->matches * run->inner;
	return 0;
}

static int fragmented_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	struct floor *f = floor_of(run);
	uint64_t h = CHECKSUM_START;
	for (uint32_t i = 0; i < run->c->entities; i++) {
		for (uint32_t t = 0; t < 2; t++) {
			if (!(f->has[i] >> t & 1)) {
				h = world_hash_bytes(h, "-", 1);
				continue;
			}
			size_t size = run->c->component_size;
			const void *p = f->slot[i] == UINT32_MAX ? world_value_of(&f->v, t, i)
			                : t == 0                 ? f->packed_p + f->slot[i] * size
			                                         : f->packed_v + f->slot[i] * size;
			h = world_hash_bytes(h, p, size);
		}
	}
	run->r->checksum = h;
	return 0;
}

const struct workload floor_fragmented = {
	.name = "fragmented",
	.setup = fragmented_setup,
	.execute = fragmented_execute,
	.end_sample = iterate_check,
	.finish = fragmented_finish,
	.release = floor_release,
};

/* parallel-iterate ---------------------------------------------------------------------- */

static int parallel_iterate_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	run->expected = c->entities;
	char err[160];
	if (parallel_pool_start(&floor_of(run)->pool, c->threads, c->cpus, err, sizeof err))
		return bench_fail(run->r, "%s", err);
	return 0;
}

static int parallel_iterate_prepare(struct run *run)
{
	parallel_wake(floor_of(run)->pool);
	return 0;
}

struct floor_split {
	const struct floor *f;
	uint32_t n, k;
};

/* Where thread `part`'s range starts: an even share, moved forward (by less than a share) to
 * the next cache-line start of Position's array. */
static uint32_t floor_split_bound(const struct floor_split *j, uint32_t part, uint32_t parts)
{
	uint32_t at = ecs_split_bound(j->n, part, parts), size = j->f->v.size[0];
	if (part == 0 || part == parts || j->n / parts < 2)
		return at;
	return at + ecs_split_align(j->f->v.data[0] + (size_t)at * size, size, j->n / parts);
}

static void floor_part(void *arg, uint32_t thread, uint32_t threads)
{
	const struct floor_split *j = arg;
	uint32_t from = floor_split_bound(j, thread, threads);
	uint32_t to = floor_split_bound(j, thread + 1, threads);
	struct ecs_batch b = {.count = to - from};
	size_t size[COMP_MAX_K];
	for (uint32_t t = 0; t < COMP_MAX_K; t++) {
		size[t] = j->f->v.size[t];
		b.columns[t] = t < j->k ? j->f->v.data[t] + (size_t)from * size[t] : NULL;
	}
	if (b.count)
		update_batch(&b, j->k, size);
}

static int parallel_iterate_execute(struct run *run)
{
	struct floor *f = floor_of(run);
	struct floor_split j = {f, run->c->entities, run->c->k};
	for (uint32_t i = 0; i < run->inner; i++) {
		parallel_run(f->pool, floor_part, &j);
		measure_clobber();
	}
	run->visited = (uint64_t)run->c->entities * run->inner;
	return 0;
}

static int parallel_iterate_check(struct run *run)
{
	parallel_rest(floor_of(run)->pool);
	return iterate_check(run);
}

const struct workload floor_parallel_iterate = {
	.name = "parallel-iterate",
	.build = iterate_build,
	.adopt = parallel_iterate_adopt,
	.prepare = parallel_iterate_prepare,
	.execute = parallel_iterate_execute,
	.end_sample = parallel_iterate_check,
	.finish = create_finish,
	.release = floor_release,
};
