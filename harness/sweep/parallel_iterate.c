/*
 * parallel_iterate.c: the workload parallel-iterate: iterate's pass (Position += Velocity * dt
 * over N entities of k components) split in T parts that T threads sweep at once, T from
 * --threads, on the pool of core/parallel.c (system_iter_split). Its floor (floor.c) splits
 * plain arrays the same way, on the same pool.
 *
 * Costs: adopt starts a pool (T - 1 thread creations) on iterate's storage (built once for
 * iterate, parallel-iterate and get in a process); a run is one
 * parallel pass; a sample wakes the pool first and puts it to rest after.
 */
#include <stdlib.h>

#include "../core/parallel.h"
#include "history.h"
#include "world.h"

struct update_job {
	uint32_t k;
	size_t size[COMP_MAX_K];
};

/* iterate's update, batch by batch, on whichever thread holds the batch. */
static void update_visit(void *ctx, uint32_t thread, const struct ecs_batch *b)
{
	const struct update_job *u = ctx;
	(void)thread;
	update_batch(b, u->k, u->size);
}

/* The pool of a row's participant, as its run's state. */
struct parallel_state {
	struct parallel_pool *pool;
};

static int parallel_state_start(struct run *run)
{
	const struct bench_case *c = run->c;
	struct parallel_state *st = world_run_state(run, sizeof *st);
	if (!st)
		return -1;
	char err[160];
	if (parallel_pool_start(&st->pool, c->threads, c->cpus, err, sizeof err))
		return bench_fail(run->r, "%s", err);
	return 0;
}

static struct parallel_pool *parallel_state_pool(struct run *run)
{
	return ((struct parallel_state *)run->state)->pool;
}

static void parallel_state_release(struct run *run)
{
	struct parallel_state *st = run->state;
	if (st)
		parallel_pool_stop(st->pool);
}

static int parallel_state_wake(struct run *run)
{
	parallel_wake(parallel_state_pool(run));
	return 0;
}

/* On iterate's storage (workloads_iterate_build), its threads: a fork of the process that
 * built the storage has none of its parent's. */
static int parallel_iterate_adopt(struct run *run)
{
	const struct bench_case *c = run->c;
	run->expected = c->entities;
	if (c->threads > 1 && !c->ops->system_iter_split)
		return bench_fail(run->r, "%s has no system_iter_split: its pass cannot be split in %u parts",
		                  c->ops->name, c->threads);
	return parallel_state_start(run);
}

static int parallel_iterate_execute(struct run *run)
{
	struct world *w = &run->world;
	struct parallel_pool *pool = parallel_state_pool(run);
	struct update_job u = {run->c->k, {w->sizes[0], w->sizes[1], w->sizes[2]}};
	uint64_t visited = 0;
	for (uint32_t j = 0; j < run->inner; j++) {
		uint64_t n;
		int rc = parallel_system_pass(pool, w->ops, w->s, w->measured, update_visit, &u, &n);
		if (rc != ECS_OK)
			return bench_fail(run->r, "system_iter_split in %u parts returned %s",
			                  parallel_pool_threads(pool), ecs_status_name(rc));
		visited += n;
	}
	measure_clobber();
	run->visited = visited;
	return 0;
}

static int parallel_iterate_check(struct run *run)
{
	parallel_rest(parallel_state_pool(run));
	return workloads_check_visited(run);
}

const struct workload workload_parallel_iterate = {
	.name = "parallel-iterate",
	.timed = "iterate's pass split in T parts (system_iter_split) that T threads sweep at "
	         "once; T from --threads",
	.floor = &floor_parallel_iterate,
	.count_dependent = true,
	.threaded = true,
	.history = WORKLOAD_WORLD,
	.peak_entities = history_peak_entities,
	.shares = workloads_iterate_world,
	.build = workloads_iterate_build,
	.adopt = parallel_iterate_adopt,
	.prepare = parallel_state_wake,
	.execute = parallel_iterate_execute,
	.end_sample = parallel_iterate_check,
	.finish = workloads_iterate_finish,
	.release = parallel_state_release,
};
