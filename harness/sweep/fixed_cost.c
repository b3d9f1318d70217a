/*
 * fixed_cost.c: what a pass costs before it visits anything, for the small worlds of the sweep
 * (docs/workloads.md, "Small worlds and fixed costs"):
 *
 *   empty-pass  one pass of a system that matches no entity (world.h: WORLD_EMPTY, the first
 *               of the systems that require pairs of the profile's other types, which no
 *               measured entity has both of), over
 *               iterate's storage of N entities: what a backend spends to begin and end a pass
 *               (finding the system's list, its tables or its smallest pool) and nothing else.
 *               Its rows are per pass: ns_per_entity is the pass's time (struct workload's
 *               per_run).
 *   systems-64  64 systems of the workload's own, each requiring Position, Velocity and a pair
 *               of the profile's other types that no other system requires; entity i has
 *               Position, Velocity and the pair of group i % 64, so each system matches its
 *               own N / 64 entities (N = 6400: 64 systems over 100 entities each). One run is
 *               one pass of each: the cost of many small passes where one big pass would do.
 *
 * Both have a floor (floor.c). Nothing here is timed outside `execute`.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "world.h"

/* empty-pass --------------------------------------------------------------------------- */

/* The profile registers it (world_open) and no entity has both its types. */
enum { EMPTY_SYSTEM = WORLD_EMPTY };

static int empty_pass_adopt(struct run *run)
{
	if (run->c->systems <= EMPTY_SYSTEM) /* refused before the run (sweep_run.c) */
		return bench_fail(run->r, "empty-pass needs a system that matches nothing (--systems %u or more)",
		                  EMPTY_SYSTEM + 1);
	run->expected = 0;
	return 0;
}

static int empty_pass_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		struct ecs_iter it;
		struct ecs_batch b;
		if (ops->system_iter_begin(w->s, EMPTY_SYSTEM, &it) != ECS_OK)
			return bench_fail(run->r, "system_iter_begin failed for system %d", EMPTY_SYSTEM);
		while (ops->system_iter_next(&it, &b))
			visited += b.count;
		measure_clobber();
	}
	run->visited = visited;
	return 0;
}

const struct workload workload_empty_pass = {
	.name = "empty-pass",
	.timed = "one pass of a system that matches nothing, over iterate's storage of N "
	         "entities: a pass's fixed cost (ns_per_entity is per pass)",
	.floor = &floor_empty_pass,
	.history = WORKLOAD_WORLD,
	.per_run = true,
	.named_only = true,
	.min_systems = EMPTY_SYSTEM + 1,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = empty_pass_adopt,
	.execute = empty_pass_execute,
	.end_sample = workloads_check_visited,
	.finish = workloads_iterate_finish,
};

/* systems-64 --------------------------------------------------------------------------- */

struct systems_64 {
	uint32_t pair[WORKLOADS_SYSTEMS][2]; /* the other types of group g's entities */
	uint32_t id[WORKLOADS_SYSTEMS];      /* group g's system */
	const struct values *values;         /* Position's and Velocity's */
};

/*
 * The pairs: a < b among the profile's other types, b - a from 2 to others - 2, so that no pair
 * is one a profile system requires (theirs are neighbours, world_open, or the first and last
 * when they wrap). Returns -1 if the profile has too few types for 64 of them.
 */
static int systems_64_pairs(struct systems_64 *s, uint32_t component_count)
{
	uint32_t others = component_count - FIRST_OTHER_TYPE, g = 0;
	for (uint32_t d = 2; d + 2 <= others && g < WORKLOADS_SYSTEMS; d++)
		for (uint32_t a = 0; a + d < others && g < WORKLOADS_SYSTEMS; a++, g++) {
			s->pair[g][0] = FIRST_OTHER_TYPE + a;
			s->pair[g][1] = FIRST_OTHER_TYPE + a + d;
		}
	return g == WORKLOADS_SYSTEMS ? 0 : -1;
}

static uint32_t systems_64_list_of(void *ctx, uint32_t i, uint32_t *types, const void **values)
{
	struct systems_64 *s = ctx;
	types[0] = COMP_POSITION;
	types[1] = COMP_VELOCITY;
	types[2] = s->pair[i % WORKLOADS_SYSTEMS][0];
	types[3] = s->pair[i % WORKLOADS_SYSTEMS][1];
	values[0] = world_value_of(s->values, COMP_POSITION, i);
	values[1] = world_value_of(s->values, COMP_VELOCITY, i);
	values[2] = values[3] = history_extra_value;
	return 4;
}

/* The N entities under the row's history (its kinds are the 64 groups; the types it ages are
 * Position and Velocity), then the 64 systems: registered after the entities exist, which the
 * interface allows (a system matches the entities that already match). */
static int systems_64_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	struct systems_64 *s = world_run_state(run, sizeof *s);
	if (!s)
		return -1;
	s->values = c->values;
	if (systems_64_pairs(s, c->profile->component_count))
		return bench_fail(run->r, "systems-64 needs %u pairs of the profile's other types; profile "
		                  "%s has too few types", WORKLOADS_SYSTEMS, c->profile->name);
	struct population pop = {
		.n = c->entities,
		.list_of = systems_64_list_of,
		.ctx = s,
		.aged = {COMP_POSITION, COMP_VELOCITY},
		.aged_count = 2,
		.values = c->values,
	};
	/* history_build without history_world_of's checks: they look for a walk in index order,
	 * which 64 groups of one entity each (N = 64) have by construction in a table per group. */
	struct history_state *st = calloc(1, sizeof *st);
	if (!st)
		return bench_fail(run->r, "out of memory in the harness");
	run->history = st;
	st->pop = pop;
	struct world *w = &run->world;
	if (world_open(c, w, run->r) || world_reserve(w, history_entities(c->history, c->entities), run->r) ||
	    history_build(w, c->history, c, &st->pop, HISTORY_STREAM_SYSTEMS_64, run->handles, &st->outcome,
	                  run->r))
		return -1;
	for (uint32_t g = 0; g < WORKLOADS_SYSTEMS; g++) {
		uint32_t types[4] = {COMP_POSITION, COMP_VELOCITY, s->pair[g][0], s->pair[g][1]};
		int rc = w->ops->system_register(w->s, types, 4, NULL, 0, &s->id[g]);
		if (rc != ECS_OK)
			return bench_fail(run->r, "registering system %u of 64 returned %s", g, ecs_status_name(rc));
	}
	run->expected = c->entities;
	return 0;
}

/* One pass of each of the 64 systems: Position += Velocity * dt over its entities. */
static int systems_64_execute(struct run *run)
{
	struct world *w = &run->world;
	const struct ecs_ops *ops = w->ops;
	const struct systems_64 *s = run->state;
	const size_t size[COMP_MAX_K] = {w->sizes[COMP_POSITION], w->sizes[COMP_VELOCITY], 4};
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++)
		for (uint32_t g = 0; g < WORKLOADS_SYSTEMS; g++) {
			struct ecs_iter it;
			struct ecs_batch b;
			if (ops->system_iter_begin(w->s, s->id[g], &it) != ECS_OK)
				return bench_fail(run->r, "system_iter_begin failed for system %u", s->id[g]);
			while (ops->system_iter_next(&it, &b)) {
				visited += b.count;
				update_batch(&b, 2, size);
			}
			measure_clobber();
		}
	run->visited = visited;
	return 0;
}

static int systems_64_finish(struct run *run)
{
	static const uint32_t types[2] = {COMP_POSITION, COMP_VELOCITY};
	world_note_memory(run, &run->world);
	if (!run->verify)
		return 0;
	return world_checksum_values(&run->world, run->c->entities, types, 2, run->handles,
	                             &run->r->checksum, run->r);
}

const struct workload workload_systems_64 = {
	.name = "systems-64",
	.timed = "one pass of each of 64 systems, each over its own N / 64 entities (Position += "
	         "Velocity * dt): many small passes",
	.floor = &floor_systems_64,
	.k_fixed = true,
	.fixed_components = 2,
	.history = WORKLOAD_WORLD,
	.count_dependent = true,
	.own_systems = WORKLOADS_SYSTEMS,
	.named_only = true,
	.peak_entities = history_peak_entities,
	.setup = systems_64_setup,
	.execute = systems_64_execute,
	.end_sample = workloads_check_visited,
	.finish = systems_64_finish,
};
