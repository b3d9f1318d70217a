/*
 * workloads.c: the workloads swept over N (and k), the table of every workload, and the runner
 * through which the pass drives each participant (workloads_runner, bench.h). Varkor's
 * workloads are in varkor.c, parallel-iterate in parallel_iterate.c, empty-pass and systems-64
 * in fixed_cost.c; what they all share is in world.c.
 *
 * Rules every workload keeps (docs/method.md):
 * - the timed region holds the operation and nothing else: storages are created, values are
 *   generated and checksums are taken outside it (run_sample times `execute` alone);
 * - the number of runs per sample is the same for every backend of a row, so every backend does
 *   the same work and the checksums of the state it leaves can be compared;
 * - the work cannot be deleted: its results are read back for the checksum, and a compiler
 *   barrier closes every timed region.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "history.h"
#include "../core/measure.h"
#include "state.h"
#include "world.h"

const uint32_t workloads_sweep_types[COMP_MAX_K] = {COMP_POSITION, COMP_VELOCITY, COMP_MASS};

/* How a spawning workload creates its N entities under the row's history (untimed). */
static int spawn_setup(struct run *run, uint64_t stream)
{
	const struct bench_case *c = run->c;
	if (!(run->spawn = calloc(1, sizeof *run->spawn)))
		return bench_fail(run->r, "out of memory in the harness");
	return history_spawn_plan_make(run->spawn, c->history, c, workloads_sweep_types, c->k, c->values, stream,
	                               run->r);
}

/* create ------------------------------------------------------------------------------- */

/*
 * Under a lived-in history, creation runs into a storage whose predecessors died (rule
 * 'created', state.h: history_turnover_*): N of them for create and create-batch, reserved for
 * the most the storage holds; under the others, into an empty storage reserved for N (the
 * labelled best case).
 */
uint32_t workloads_predecessors(const struct bench_case *c)
{
	if (!history_lived(c))
		return 0;
	return c->workload == &workload_create_unreserved ? c->entities / 2 : c->entities;
}

int workloads_create_setup(struct run *run, bool reserve)
{
	const struct bench_case *c = run->c;
	if (spawn_setup(run, HISTORY_STREAM_CREATE))
		return -1;
	return history_lived(c) ? history_turnover_open(run, workloads_predecessors(c), reserve) : 0;
}

ecs_entity *workloads_created(const struct run *run, uint32_t j)
{
	return run->turnover ? history_turnover_handles(run, j) : run->handles;
}

/* The first process, after its first sample: what the creations took (rule 'created'). */
int workloads_create_end_sample(struct run *run)
{
	world_fresh_end_sample(run);
	if (!run->turnover || !run->verify || run->state_checked)
		return 0;
	run->state_checked = true;
	return history_turnover_check(run, run->c->workload->name);
}

int workloads_create_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	struct world *last = &run->worlds[run->inner - 1];
	return world_checksum_values(last, run->c->entities, workloads_sweep_types, run->c->k,
	                             workloads_created(run, run->inner - 1), &run->r->checksum, run->r);
}

static int create_setup(struct run *run) { return workloads_create_setup(run, true); }

static int create_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++)
		if (history_spawn_planned(&run->worlds[j], run->spawn, workloads_created(run, j), run->r))
			return -1;
	return 0;
}

/* The storages before the clock: after turnover (history_turnover_prepare), or fresh ones each
 * told the N entities coming (reserve). */
static int create_prepare(struct run *run)
{
	if (run->turnover)
		return history_turnover_prepare(run);
	if (world_fresh_prepare(run))
		return -1;
	for (uint32_t j = 0; j < run->worlds_open; j++)
		if (world_reserve(&run->worlds[j], run->c->entities, run->r))
			return -1;
	return 0;
}

/* create-batch ------------------------------------------------------------------------- */

/* create's spawn plan, taken batch by batch (history.h: struct batch_plan), in run->state. */
static int create_batch_setup(struct run *run)
{
	if (create_setup(run))
		return -1;
	if (!(run->state = calloc(1, sizeof(struct batch_plan))))
		return bench_fail(run->r, "out of memory in the harness");
	return history_batch_plan_make(run->state, run->spawn, run->r);
}

static int create_batch_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++)
		if (history_spawn_batched(&run->worlds[j], run->spawn, run->state, workloads_created(run, j),
		                          run->r))
			return -1;
	return 0;
}

static void create_batch_release(struct run *run)
{
	if (run->state)
		history_batch_plan_free(run->state);
}

/* iterate ------------------------------------------------------------------------------ */

/* The storage iterate, parallel-iterate and get measure: the sweep's k types under the row's
 * history, with iterate's draws (world.h: workloads_iterate_world). */
const char workloads_iterate_world[] = "iterate's storage";

int workloads_iterate_build(struct run *run)
{
	return history_world(run, workloads_sweep_types, run->c->k, HISTORY_STREAM_ITERATE);
}

static int iterate_adopt(struct run *run)
{
	run->expected = run->c->entities;
	return 0;
}

static int iterate_execute(struct run *run)
{
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++)
		visited += world_system_pass(&run->world, run->c->k);
	run->visited = visited;
	return 0;
}

int workloads_check_visited(struct run *run)
{
	uint64_t expected = run->expected * run->inner;
	if (run->visited != expected)
		return bench_fail(run->r, "the system visited %llu entities, expected %llu",
		                  (unsigned long long)run->visited, (unsigned long long)expected);
	return 0;
}

int workloads_iterate_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	world_note_memory(run, &run->world);
	if (!run->verify)
		return 0;
	return world_checksum_values(&run->world, c->entities, workloads_sweep_types, c->k, run->handles,
	                             &run->r->checksum, run->r);
}

/* iterate-shared ------------------------------------------------------------------------- */

/*
 * The pass of a system that shares its pools with a hotter one and so cannot own a group of its
 * own: N entities with Position, Velocity and Mass (k = 3, iterate's draws), the props with
 * Position and Velocity; the hottest system is physics (Position, Velocity: it visits the props
 * too), the one a storage with owning groups is asked to own (struct workload's grouped_k); the
 * measured pass is forces' (Position += Velocity * Mass * dt), whose Position and Velocity
 * pools physics' group keeps in its own order. Beside iterate (a system that owns its group),
 * the second row of a game's frame: every system reading Position but the grouped one.
 */
static int iterate_shared_setup(struct run *run)
{
	run->expected = run->c->entities;
	return history_world(run, workloads_sweep_types, run->c->k, HISTORY_STREAM_ITERATE);
}

/* churn -------------------------------------------------------------------------------- */

static int churn_setup(struct run *run)
{
	return world_open(run->c, &run->world, run->r) ||
	       world_reserve(&run->world, run->c->entities, run->r) || spawn_setup(run, HISTORY_STREAM_CHURN) ? -1 : 0;
}

static int churn_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		if (history_spawn_planned(&run->world, run->spawn, run->handles, run->r) ||
		    history_despawn_planned(&run->world, run->spawn, run->handles, run->r))
			return -1;
		if (!run->first_round_peak)
			run->first_round_peak = run->world.counter.peak_bytes;
	}
	return 0;
}

/* The first process, after its first sample: the order churn destroys a round's entities in
 * (rule 'order'), now that their handles exist. */
static int churn_end_sample(struct run *run)
{
	const struct spawn_plan *p = run->spawn;
	if (!run->verify || run->state_checked || !history_lived(run->c))
		return 0;
	run->state_checked = true;
	if (!p->destroy_order)
		return bench_fail(run->r, "churn destroys in creation order under %s (rule 'order', "
		                  "docs/method.md#the-state-a-game-is-in)", run->c->history->name);
	return state_check_order_of(p->destroy_order, p->n, run->handles, "churn's destroys", run->r);
}

/*
 * What the rounds leave: every handle of the last round dead and the system empty; then one
 * more (untimed) round must store and return the right values, and the system visit them all.
 */
static int churn_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	struct world *w = &run->world;
	world_note_memory(run, w);
	run->r->reuse = (double)w->counter.peak_bytes / (double)run->first_round_peak;
	if (!run->verify)
		return 0;
	for (uint32_t i = 0; i < c->entities; i++)
		if (w->ops->entity_alive(w->s, run->handles[i]))
			return bench_fail(run->r, "entity %u is alive after it was destroyed", i);
	if (world_system_pass(w, c->k) != 0)
		return bench_fail(run->r, "the system still visits entities after all were destroyed");
	if (history_spawn_planned(w, run->spawn, run->handles, run->r) ||
	    world_checksum_values(w, c->entities, workloads_sweep_types, c->k, run->handles, &run->r->checksum,
	                          run->r))
		return -1;
	if (world_system_pass(w, c->k) != c->entities)
		return bench_fail(run->r, "after reuse the system does not visit every entity");
	return 0;
}

/* add-remove --------------------------------------------------------------------------- */

/*
 * iterate's storage (shared: the entities keep their k components), and a status comes and
 * goes (bench.h: COMP_STATUS, marked sparse by the rule users are given; the game's status
 * system requires it, no measured pass walks it). The handles are visited in a shuffled order
 * under a lived-in history (a game adds a status to entities as play picks them, rule 'order'),
 * in creation order under the others; the status values packed in that order (Health's table:
 * 8 bytes, any values will do, every backend gets the same), so that the timed loops read both
 * lists in order and the random access is the storage's alone.
 */
struct add_remove {
	const unsigned char *values; /* the status of visit i at values + i * size */
	size_t size;
	unsigned char packed[];
};

int workloads_visit_order(const struct bench_case *c, uint64_t stream, uint32_t **order,
                          struct bench_result *r)
{
	uint32_t n = c->entities;
	bool shuffled = history_lived(c) && !state_break(STATE_ORDER);
	*order = shuffled ? rng_permutation(c->seed, stream, n) : malloc((size_t)n * sizeof **order + 1);
	if (!*order)
		return bench_fail(r, "out of memory in the harness");
	for (uint32_t i = 0; !shuffled && i < n; i++)
		(*order)[i] = i;
	return 0;
}

static int add_remove_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	uint32_t n = c->entities, *order;
	size_t size = c->values->size[COMP_HEALTH];
	if (workloads_visit_order(c, WORKLOADS_ADD_REMOVE_ORDER, &order, run->r))
		return -1;
	struct add_remove *a = malloc(sizeof *a + (size_t)n * size + 1);
	run->shuffled = malloc((size_t)n * sizeof *run->shuffled + 1);
	if (!a || !run->shuffled) {
		free(a);
		free(order);
		return bench_fail(run->r, "out of memory in the harness");
	}
	run->state = a;
	a->values = a->packed;
	a->size = size;
	for (uint32_t i = 0; i < n; i++) {
		run->shuffled[i] = run->handles[order[i]];
		memcpy(a->packed + (size_t)i * size, world_value_of(c->values, COMP_HEALTH, order[i]), size);
	}
	free(order);
	if (run->verify && history_lived(c))
		return state_check_order(run->shuffled, n, run->handles, n, "add-remove's visits", run->r);
	return 0;
}

static int add_remove_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	const struct add_remove *a = run->state;
	const ecs_entity *visit = run->shuffled;
	uint32_t n = run->c->entities;
	for (uint32_t j = 0; j < run->inner; j++) {
		for (uint32_t i = 0; i < n; i++) {
			int rc = ops->component_add(w->s, visit[i], COMP_STATUS, a->values + i * a->size);
			if (rc != ECS_OK)
				return bench_fail(run->r, "adding the status to entity %u returned %s", i,
				                  ecs_status_name(rc));
		}
		for (uint32_t i = 0; i < n; i++) {
			int rc = ops->component_remove(w->s, visit[i], COMP_STATUS);
			if (rc != ECS_OK)
				return bench_fail(run->r, "removing the status from entity %u returned %s", i,
				                  ecs_status_name(rc));
		}
	}
	return 0;
}

static int add_remove_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	world_note_memory(run, &run->world);
	if (!run->verify)
		return 0;
	uint32_t types[COMP_MAX_K + 1] = {COMP_STATUS}; /* must be absent everywhere */
	memcpy(types + 1, workloads_sweep_types, c->k * sizeof *types);
	return world_checksum_values(&run->world, c->entities, types, c->k + 1, run->handles,
	                             &run->r->checksum, run->r);
}

/* add-remove-batch ----------------------------------------------------------------------- */

/* add-remove's storage and visits, its work in batches of HISTORY_SPAWN_BATCH handles taken in
 * that order (under lived-in, a batch of entities scattered over the storage, as a wave of hits
 * a game applies at once): each batch's status values one packed array. */
static int add_remove_batch_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	const struct add_remove *a = run->state;
	const ecs_entity *visit = run->shuffled;
	uint32_t n = run->c->entities;
	for (uint32_t j = 0; j < run->inner; j++) {
		for (uint32_t i = 0; i < n; i += HISTORY_SPAWN_BATCH) {
			uint32_t count = n - i < HISTORY_SPAWN_BATCH ? n - i : HISTORY_SPAWN_BATCH;
			struct ecs_values v = {a->values + (size_t)i * a->size, a->size};
			int rc = ecs_component_add_batch(ops, w->s, visit + i, count, COMP_STATUS, &v);
			if (rc != ECS_OK)
				return bench_fail(run->r, "adding the status to entities %u.. returned %s", i,
				                  ecs_status_name(rc));
		}
		for (uint32_t i = 0; i < n; i += HISTORY_SPAWN_BATCH) {
			uint32_t count = n - i < HISTORY_SPAWN_BATCH ? n - i : HISTORY_SPAWN_BATCH;
			int rc = ecs_component_remove_batch(ops, w->s, visit + i, count, COMP_STATUS);
			if (rc != ECS_OK)
				return bench_fail(run->r, "removing the status from entities %u.. returned %s", i,
				                  ecs_status_name(rc));
		}
	}
	return 0;
}

/* get ---------------------------------------------------------------------------------- */

/* The shuffled handles are built here, in setup: the timed loop reads them in order, so that
 * the random access it measures is the storage's, not a lookup of handles[order[i]] in a
 * harness array (at N = 2^20 a 4 MiB array, a cache miss per entity of its own). */
static int get_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	uint32_t *order = rng_permutation(c->seed, 1, c->entities);
	run->shuffled = malloc((size_t)c->entities * sizeof *run->shuffled + 1);
	if (!order || !run->shuffled) {
		free(order);
		return bench_fail(run->r, "out of memory in the harness");
	}
	for (uint32_t i = 0; i < c->entities; i++)
		run->shuffled[i] = run->handles[order[i]];
	free(order);
	if (run->verify && history_lived(c))
		return state_check_order(run->shuffled, c->entities, run->handles, c->entities,
		                         "get's fetches", run->r);
	return 0;
}

/* get-ordered: the same fetches in creation order, as published suites measure get (their
 * storages are built in order; under lived-in, creation order is not index order). */
static int get_ordered_adopt(struct run *run)
{
	run->shuffled = malloc((size_t)run->c->entities * sizeof *run->shuffled + 1);
	if (!run->shuffled)
		return bench_fail(run->r, "out of memory in the harness");
	memcpy(run->shuffled, run->handles, (size_t)run->c->entities * sizeof *run->shuffled);
	return 0;
}

/* Fetches the k components of every entity, in shuffled order, one entity a call through
 * entity_get (ecs.h's fallback, one component_get a type, where a backend has none), and adds up
 * their first floats (the same additions in the same order on every backend). The storage and
 * the method are read once, not after every call (which may write memory, so the compiler
 * would read them again): the loop around the call is as short as the floor's. */
static int get_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	ecs_storage *s = w->s;
	int (*get)(ecs_storage *, ecs_entity, const uint32_t *, uint32_t, void **, int *) =
		ops->entity_get;
	const ecs_entity *shuffled = run->shuffled;
	uint32_t n = run->c->entities, k = run->c->k;
	uint32_t types[COMP_MAX_K];
	for (uint32_t t = 0; t < k; t++)
		types[t] = t;
	double sum = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		sum = 0; /* one run's: the same whatever the number of runs */
		for (uint32_t i = 0; i < n; i++) {
			void *p[COMP_MAX_K];
			int rc = get ? get(s, shuffled[i], types, k, p, NULL)
			             : ecs_entity_get_fallback(ops, s, shuffled[i], types, k, p, NULL);
			if (rc != ECS_OK)
				return bench_fail(run->r, "entity_get returned %s", ecs_status_name(rc));
			for (uint32_t t = 0; t < k; t++)
				sum += *(const float *)p[t];
		}
	}
	run->sum = sum;
	measure_clobber();
	return 0;
}

/* get-one: get's fetches one component a call through component_get (k calls an entity), as
 * get was measured before entity_get: what the call a type costs beside one call an entity. */
static int get_one_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	const ecs_entity *shuffled = run->shuffled;
	uint32_t n = run->c->entities, k = run->c->k;
	double sum = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		sum = 0;
		for (uint32_t i = 0; i < n; i++) {
			ecs_entity e = shuffled[i];
			for (uint32_t t = 0; t < k; t++) {
				void *p;
				int rc = ops->component_get(w->s, e, t, &p);
				if (rc != ECS_OK)
					return bench_fail(run->r, "component_get returned %s", ecs_status_name(rc));
				sum += *(const float *)p;
			}
		}
	}
	run->sum = sum;
	measure_clobber();
	return 0;
}

/* get-batch: get's lookups in get's order, WORKLOADS_GET_BATCH handles a call through
 * component_get_batch (ecs.h's fallback, one component_get a lookup, where a backend has none),
 * as an engine's gather pass asks them; then the batch's values added up in get's order: the
 * same sum as get's. */
#define WORKLOADS_GET_BATCH ECS_BATCH_MAX
static int get_batch_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	const ecs_entity *shuffled = run->shuffled;
	uint32_t n = run->c->entities, k = run->c->k;
	uint32_t types[COMP_MAX_K];
	for (uint32_t t = 0; t < k; t++)
		types[t] = t;
	void *values[WORKLOADS_GET_BATCH * COMP_MAX_K];
	double sum = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		sum = 0;
		for (uint32_t i = 0; i < n; i += WORKLOADS_GET_BATCH) {
			uint32_t m = n - i < WORKLOADS_GET_BATCH ? n - i : WORKLOADS_GET_BATCH;
			int rc = ecs_component_get_batch(ops, w->s, shuffled + i, m, types, k, values, NULL);
			if (rc != ECS_OK)
				return bench_fail(run->r, "component_get_batch returned %s",
				                  ecs_status_name(rc));
			for (uint32_t v = 0; v < m * k; v++)
				sum += *(const float *)values[v];
		}
	}
	run->sum = sum;
	measure_clobber();
	return 0;
}

static int get_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	world_note_memory(run, &run->world);
	if (!run->verify)
		return 0;
	if (world_checksum_values(&run->world, c->entities, workloads_sweep_types, c->k, run->handles,
	                          &run->r->checksum, run->r))
		return -1;
	run->r->checksum = world_hash_bytes(run->r->checksum, &run->sum, sizeof run->sum);
	return 0;
}

/* destroy ------------------------------------------------------------------------------ */

/*
 * N measured entities under the row's history, in a storage of their own per run (a destroyed
 * entity cannot be destroyed again): setup builds the first, with the history's checks, and
 * draws the order of destruction; each sample's prepare builds its `inner` storages again the
 * same way (the same draws, so the same handles), untimed.
 */
static int destroy_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	if (history_world(run, workloads_sweep_types, c->k, HISTORY_STREAM_DESTROY))
		return -1;
	world_close(&run->world); /* the samples' storages are prepare's */
	uint32_t *order = rng_permutation(c->seed, WORKLOADS_DESTROY_ORDER, c->entities);
	run->shuffled = malloc((size_t)c->entities * sizeof *run->shuffled + 1);
	if (!order || !run->shuffled) {
		free(order);
		return bench_fail(run->r, "out of memory in the harness");
	}
	for (uint32_t i = 0; i < c->entities; i++)
		run->shuffled[i] = run->handles[order[i]];
	free(order);
	if (run->verify && history_lived(c))
		return state_check_order(run->shuffled, c->entities, run->handles, c->entities,
		                         "destroy's order", run->r);
	return 0;
}

static int destroy_prepare(struct run *run)
{
	const struct bench_case *c = run->c;
	if (world_fresh_prepare(run))
		return -1;
	for (uint32_t j = 0; j < run->worlds_open; j++) {
		struct world *w = &run->worlds[j];
		struct history_outcome out;
		if (world_reserve(w, history_entities(c->history, c->entities), run->r) ||
		    history_build(w, c->history, c, &run->history->pop, HISTORY_STREAM_DESTROY, run->handles,
		                  &out, run->r))
			return -1;
	}
	return 0;
}

/* Destroys the N measured entities of each run's storage, in the shuffled order. */
static int destroy_execute(struct run *run)
{
	const ecs_entity *order = run->shuffled;
	uint32_t n = run->c->entities;
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		int (*destroy)(ecs_storage *, ecs_entity) = w->ops->entity_destroy;
		for (uint32_t i = 0; i < n; i++) {
			int rc = destroy(w->s, order[i]);
			if (rc != ECS_OK)
				return bench_fail(run->r, "destroying entity %u returned %s", i, ecs_status_name(rc));
		}
	}
	return 0;
}

/*
 * What a destroy leaves, on the last run's storage: every measured handle dead, the system
 * empty; then N entities of S created again (untimed) must hold their values and be visited,
 * and those values are the checksum (the floor's are the same).
 */
static int destroy_finish(struct run *run)
{
	const struct bench_case *c = run->c;
	struct world *w = &run->worlds[run->worlds_open - 1];
	world_fresh_end_sample(run);
	if (!run->verify)
		return 0;
	for (uint32_t i = 0; i < c->entities; i++)
		if (w->ops->entity_alive(w->s, run->handles[i]))
			return bench_fail(run->r, "entity %u is alive after it was destroyed", i);
	if (world_visit_count(w) != 0)
		return bench_fail(run->r, "the system still visits entities after all were destroyed");
	if (world_spawn(w, c->entities, workloads_sweep_types, c->k, c->values, run->handles, run->r) ||
	    world_checksum_values(w, c->entities, workloads_sweep_types, c->k, run->handles,
	                          &run->r->checksum, run->r))
		return -1;
	if (world_visit_count(w) != c->entities)
		return bench_fail(run->r, "after the destroy the system does not visit every new entity");
	return 0;
}

/* fragmented --------------------------------------------------------------------------- */

/* Every entity's set, drawn once (the floor makes the same draws), and a value buffer for the
 * one being created. */
struct fragmented {
	uint16_t (*types)[FRAGMENTED_MAX_TYPES];
	uint8_t *count;
	uint64_t seed;
	uint32_t *sizes;
	unsigned char value[FRAGMENTED_MAX_TYPES * ECS_MAX_COMPONENT_SIZE];
};

static uint32_t fragmented_list_of(void *ctx, uint32_t i, uint32_t *types, const void **values)
{
	struct fragmented *f = ctx;
	unsigned char *value = f->value;
	for (uint32_t y = 0; y < f->count[i]; y++) {
		types[y] = f->types[i][y];
		world_value_fill(f->seed, types[y], i, 0, value, f->sizes[types[y]]);
		values[y] = value;
		value += f->sizes[types[y]];
	}
	return f->count[i];
}

static void fragmented_release(struct run *run)
{
	struct fragmented *f = run->state;
	if (f) {
		free(f->types);
		free(f->count);
		free(f->sizes);
	}
}

/*
 * N entities, each with a random subset of the profile's component types: Position and
 * Velocity each with probability 1/2, and 0..4 more types drawn from the rest of the profile,
 * so that there are many distinct sets (archetypes) and pools of uneven size, built under the
 * row's history (its kinds are these sets; the types it ages are Position and Velocity). The
 * timed pass is the physics system's (Position += Velocity * dt) over the entities that have
 * both.
 */
static int fragmented_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	struct fragmented *f = world_run_state(run, sizeof *f);
	if (!f)
		return -1;
	f->types = malloc((size_t)c->entities * sizeof *f->types + 1);
	f->count = malloc((size_t)c->entities + 1);
	f->sizes = malloc(c->profile->component_count * sizeof *f->sizes);
	if (!f->types || !f->count || !f->sizes)
		return bench_fail(run->r, "out of memory in the harness");
	f->seed = c->seed;
	for (uint32_t t = 0; t < c->profile->component_count; t++)
		f->sizes[t] = world_type_size(c, t);
	struct rng g;
	rng_seed(&g, c->seed, 2);
	run->expected = 0;
	for (uint32_t i = 0; i < c->entities; i++) {
		uint32_t types[FRAGMENTED_MAX_TYPES];
		uint32_t n = world_fragmented_types(&g, c->profile->component_count, types);
		run->expected += n >= 2 && types[0] == COMP_POSITION && types[1] == COMP_VELOCITY;
		f->count[i] = (uint8_t)n;
		for (uint32_t y = 0; y < n; y++)
			f->types[i][y] = (uint16_t)types[y];
	}
	struct population pop = {
		.n = c->entities,
		.list_of = fragmented_list_of,
		.ctx = f,
		.aged = {COMP_POSITION, COMP_VELOCITY},
		.aged_count = 2,
		.values = c->values,
	};
	return history_world_of(run, &pop, HISTORY_STREAM_FRAGMENTED);
}

static int fragmented_execute(struct run *run)
{
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++)
		visited += world_system_pass(&run->world, 2);
	run->visited = visited;
	return 0;
}

static int fragmented_finish(struct run *run)
{
	world_note_memory(run, &run->world);
	if (!run->verify)
		return 0;
	static const uint32_t types[2] = {COMP_POSITION, COMP_VELOCITY};
	return world_checksum_values(&run->world, run->c->entities, types, 2, run->handles,
	                             &run->r->checksum, run->r);
}

/* --- the table ------------------------------------------------------------------------- */

static const struct workload workload_create = {
	.name = "create",
	.timed = "create N entities with their k components (and their kind's own), into a storage "
	         "whose N predecessors died (lived-in; an empty one under pristine), reserved",
	.history = WORKLOAD_SPAWNS,
	.first_run_alike = true,
	.setup = create_setup,
	.prepare = create_prepare,
	.execute = create_execute,
	.end_sample = workloads_create_end_sample,
	.finish = workloads_create_finish,
	.floor = &floor_create,
};
static const struct workload workload_create_batch = {
	.name = "create-batch",
	.timed = "create's N entities through entity_create_batch, in batches of one kind of up to "
	         "1024, into create's storage",
	.history = WORKLOAD_SPAWNS,
	.first_run_alike = true,
	.setup = create_batch_setup,
	.prepare = create_prepare,
	.execute = create_batch_execute,
	.end_sample = workloads_create_end_sample,
	.finish = workloads_create_finish,
	.release = create_batch_release,
	.floor = &floor_create_batch,
};
static const struct workload workload_iterate = {
	.name = "iterate",
	.timed = "one pass of system 0 over N entities: Position += Velocity * dt",
	.floor = &floor_iterate,
	.history = WORKLOAD_WORLD,
	.count_dependent = true,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = iterate_adopt,
	.execute = iterate_execute,
	.end_sample = workloads_check_visited,
	.finish = workloads_iterate_finish,
};
static const struct workload workload_iterate_shared = {
	.name = "iterate-shared",
	.timed = "one pass of a system that cannot own its group: Position += Velocity * Mass * dt "
	         "over N entities, whose Position and Velocity the grouped system (physics, over "
	         "Position and Velocity) owns",
	.floor = &floor_iterate,
	.history = WORKLOAD_WORLD,
	.k_fixed = true,
	.fixed_components = 3,
	.grouped_k = 2,
	.count_dependent = true,
	.peak_entities = history_peak_entities,
	.setup = iterate_shared_setup,
	.execute = iterate_execute,
	.end_sample = workloads_check_visited,
	.finish = workloads_iterate_finish,
};
static const struct workload workload_churn = {
	.name = "churn",
	.timed = "create N entities with their k components, then destroy them all",
	.history = WORKLOAD_SPAWNS,
	.setup = churn_setup,
	.execute = churn_execute,
	.end_sample = churn_end_sample,
	.finish = churn_finish,
	.floor = &floor_churn,
};
static const struct workload workload_add_remove = {
	.name = "add-remove",
	.timed = "on iterate's N entities (k components), add a status (a sparse-marked type a small "
	         "system requires) to each, then remove it from each, in a shuffled order",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = add_remove_adopt,
	.execute = add_remove_execute,
	.finish = add_remove_finish,
	.floor = &floor_add_remove,
};
static const struct workload workload_add_remove_batch = {
	.name = "add-remove-batch",
	.timed = "add-remove's work through component_add_batch and component_remove_batch, in "
	         "batches of 1024 handles in add-remove's order",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = add_remove_adopt,
	.execute = add_remove_batch_execute,
	.finish = add_remove_finish,
	.floor = &floor_add_remove_batch,
};
static const struct workload workload_get = {
	.name = "get",
	.timed = "fetch the k components of N entities, in shuffled order, one entity a call through "
	         "entity_get",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = get_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.floor = &floor_get,
};
static const struct workload workload_get_one = {
	.name = "get-one",
	.timed = "fetch the k components of N entities, in get's shuffled order, one component a "
	         "call through component_get (get's work as it was asked before entity_get)",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.named_only = true,
	.adopt = get_adopt,
	.execute = get_one_execute,
	.finish = get_finish,
	.floor = &floor_get_one,
};
static const struct workload workload_get_batch = {
	.name = "get-batch",
	.timed = "fetch the k components of N entities, in get's shuffled order, 256 handles a call "
	         "through component_get_batch",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = get_adopt,
	.execute = get_batch_execute,
	.finish = get_finish,
	.floor = &floor_get_batch,
};
static const struct workload workload_get_ordered = {
	.name = "get-ordered",
	.timed = "fetch the k components of N entities, in creation order, one entity a call "
	         "through entity_get (get's fetches in the order published suites measure them)",
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.named_only = true,
	.adopt = get_ordered_adopt,
	.execute = get_execute,
	.finish = get_finish,
	.floor = &floor_get_ordered,
};
static const struct workload workload_destroy = {
	.name = "destroy",
	.timed = "destroy N entities (k components each) of a storage built under the history, in "
	         "a shuffled order; a storage per run, built before the clock",
	.history = WORKLOAD_WORLD,
	.named_only = true,
	.peak_entities = history_peak_entities,
	.max_inner = WORKLOADS_DESTROY_MAX_INNER,
	.setup = destroy_setup,
	.prepare = destroy_prepare,
	.execute = destroy_execute,
	.end_sample = world_fresh_end_sample,
	.finish = destroy_finish,
	.floor = &floor_destroy,
};
static const struct workload workload_fragmented = {
	.name = "fragmented",
	.timed = "one pass of system 0 (Position, Velocity) over N entities of random component sets",
	.k_fixed = true,
	.fixed_components = 2,
	.history = WORKLOAD_WORLD,
	.count_dependent = true,
	.peak_entities = history_peak_entities,
	.setup = fragmented_setup,
	.execute = fragmented_execute,
	.end_sample = workloads_check_visited,
	.finish = fragmented_finish,
	.release = fragmented_release,
	.floor = &floor_fragmented,
};

const struct workload *const workloads[] = {
	&workload_create,
	&workload_create_batch,
	&workload_create_unreserved,
	&workload_iterate,
	&workload_iterate_shared,
	&workload_parallel_iterate,
	&workload_churn,
	&workload_destroy,
	&workload_add_remove,
	&workload_add_remove_batch,
	&workload_get,
	&workload_get_one,
	&workload_get_batch,
	&workload_get_ordered,
	&workload_fragmented,
	&workload_empty_pass,
	&workload_systems_64,
	&workload_varkor_create,
	&workload_varkor_add,
	&workload_varkor_add_write_delete,
	&workload_varkor_distributed,
	&workload_varkor_relationship,
	&workload_varkor_random,
};
const size_t workload_count = sizeof workloads / sizeof workloads[0];


/* --- the run API ----------------------------------------------------------------------- */

static struct run *run_new(const struct bench_case *c, struct bench_result *r)
{
	struct run *run = calloc(1, sizeof *run);
	if (run)
		run->handles = malloc((size_t)c->entities * sizeof *run->handles + 1);
	if (!run || !run->handles) {
		free(run);
		bench_fail(r, "out of memory in the harness");
		return NULL;
	}
	run->c = c;
	run->r = r;
	run->verify = c->verify;
	return run;
}

/* What a participant runs: the workload, or for the floor (no backend) its floor. */
static const struct workload *impl(const struct run *run)
{
	return run->c->ops ? run->c->workload : run->c->workload->floor;
}

static int run_build(struct run *run) { return impl(run)->build ? impl(run)->build(run) : 0; }

/* The run becomes the case run->c now describes, on the storage built for the first one. */
static int run_adopt(struct run *run)
{
	run->verify = run->c->verify;
	return impl(run)->adopt ? impl(run)->adopt(run) : 0;
}

static int run_setup(struct run *run)
{
	const struct workload *w = impl(run);
	if (w->setup)
		return w->setup(run);
	return run_build(run) || run_adopt(run) ? -1 : 0;
}

/* Allocation calls of every storage the run holds. */
static uint64_t run_allocation_calls(const struct run *run)
{
	uint64_t calls = run->world.s ? run->world.counter.allocations : 0;
	for (uint32_t j = 0; j < run->worlds_open; j++)
		calls += run->worlds[j].counter.allocations;
	return calls;
}

/*
 * One sample: `inner` runs of the workload, timed together; the untimed preparation and
 * checks around them are the workload's. This is the one timed region of the harness: two
 * clocks around it, the thread's CPU time outside the wall clock, so that what the CPU clock
 * sees includes everything the wall clock sees. With trace, what the process met during the
 * sample too (those calls sit outside both clocks).
 */
static int run_sample(struct run *run, uint32_t inner, struct sample_time *t, bool trace)
{
	const struct workload *w = impl(run);
	run->inner = inner;
	if (w->prepare && w->prepare(run))
		return -1;
	uint64_t calls = run_allocation_calls(run);
	struct rusage before, after;
	if (trace)
		getrusage(RUSAGE_THREAD, &before);
	uint64_t cpu0 = measure_cpu_ns();
	uint64_t t0 = measure_now_ns();
	MEASURE_BEGIN();
	int rc = w->execute(run);
	/* A test's copy made slower on purpose (--twin B:F): the sample spins until its CPU time is
	 * F times what the run took */
	if (run->c->slowdown > 1) {
		uint64_t until = cpu0 + (uint64_t)((double)(measure_cpu_ns() - cpu0) * run->c->slowdown);
		while (measure_cpu_ns() < until)
			;
	}
	measure_clobber();
	MEASURE_END();
	t->wall_ns = measure_now_ns() - t0;
	t->cpu_ns = measure_cpu_ns() - cpu0;
	if (trace) {
		getrusage(RUSAGE_THREAD, &after);
		t->minflt = after.ru_minflt - before.ru_minflt;
		t->majflt = after.ru_majflt - before.ru_majflt;
		t->nvcsw = after.ru_nvcsw - before.ru_nvcsw;
		t->nivcsw = after.ru_nivcsw - before.ru_nivcsw;
		t->cpu = sched_getcpu();
	}
	t->allocations = run_allocation_calls(run) - calls;
	if (rc == 0 && w->end_sample)
		rc = w->end_sample(run);
	return rc;
}

static int run_finish(struct run *run, bool verify)
{
	run->verify = verify;
	int rc = impl(run)->finish(run);
	if (rc == 0 && verify && !run->c->harness) /* the harness alone has no values to check */
		run->r->verified = true;
	return rc;
}

static const double *run_figures(struct run *run, uint32_t *count)
{
	return run && impl(run)->figures ? impl(run)->figures(run, count) : NULL;
}

static void run_free(struct run *run)
{
	if (!run)
		return;
	if (impl(run)->release)
		impl(run)->release(run);
	world_run_release(run);
	free(run->history);
	history_turnover_free(run->turnover);
	if (run->spawn)
		history_spawn_plan_free(run->spawn);
	free(run->spawn);
	free(run);
}

const struct bench_runner workloads_runner = {
	.values_make = world_values_make,
	.values_free = world_values_free,
	.open = run_new,
	.setup = run_setup,
	.build = run_build,
	.adopt = run_adopt,
	.sample = run_sample,
	.figures = run_figures,
	.finish = run_finish,
	.free = run_free,
};
