/*
 * parallel.h: running one system's pass on T threads (parallel.c): the CPUs a measuring
 * process may use, a pool of threads started before any timed region, and the parallel pass
 * itself, which the parallel-iterate workload times and which a scenario engine can call for a
 * system marked parallel.
 *
 * The pool is plain pthreads (not OpenMP): the measuring thread is thread 0 and runs its part
 * itself, so T = 1 is exactly the serial pass on the CPU it was measured on; threads 1..T-1 are
 * started once, each pinned to a CPU of its own, and between jobs they spin a short while,
 * then sleep on a condition variable, so that a pool idle while other participants are
 * measured takes no CPU from them. What a job costs beyond its work: one atomic store to start
 * it and one atomic decrement per thread to end it (never a shared write per entity), and the
 * wait for the slowest part.
 */
#ifndef ECSB_PARALLEL_H
#define ECSB_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../impls/ecs.h"

#define CPU_LIST_MAX 1024u

/*
 * The CPUs a measuring process may run on, in the order threads are pinned to them: the CPU
 * the measuring thread itself is pinned to first (thread 0 runs there), then the others in
 * ascending order. count 0: unknown (threads are then not pinned). pinned: whether threads
 * are pinned at all (not with --no-pin).
 */
struct cpu_list {
	uint32_t count;
	bool pinned;
	uint16_t cpu[CPU_LIST_MAX];
};

/* The CPUs this process may run on now (sched_getaffinity), ascending; 0 on failure. */
uint32_t parallel_cpus_allowed(struct cpu_list *out);
/* Puts `first` (the CPU the measuring thread was pinned to) at the head of the list. */
void parallel_cpus_put_first(struct cpu_list *list, uint32_t first);

struct parallel_pool;

/*
 * Starts threads 1..threads-1 (threads: 1..CPU_LIST_MAX), thread t pinned to cpus->cpu[t]
 * where cpus->pinned (threads must then be at most cpus->count). 0, or -1 with the reason in
 * err (a bad count, no memory, a thread that cannot be created or pinned: nothing is left
 * running).
 */
int parallel_pool_start(struct parallel_pool **out, uint32_t threads, const struct cpu_list *cpus,
                        char *err, size_t err_len);
/* Stops and joins the threads, frees the pool; NULL is ignored. */
void parallel_pool_stop(struct parallel_pool *pool);
uint32_t parallel_pool_threads(const struct parallel_pool *pool);

/* Runs job(ctx, t, threads) on every thread t of the pool, the caller as thread 0, and returns
 * when all have returned. */
void parallel_run(struct parallel_pool *pool, void (*job)(void *ctx, uint32_t thread,
                                                          uint32_t threads),
                  void *ctx);
/* Makes sure the pool's threads are awake and spinning (untimed, before a sample): the first
 * job of a sample then does not pay for waking them. */
void parallel_wake(struct parallel_pool *pool);
/* Puts the threads to sleep at once after the jobs so far, without spinning (untimed, after a
 * sample): an idle pool then takes no CPU from what is measured next. parallel_wake undoes it. */
void parallel_rest(struct parallel_pool *pool);

/*
 * One pass of `system` over storage s on the pool's T threads: thread t iterates part t of T
 * of the pass (ecs_system_iter_split) and calls visit(ctx, t, batch) for each of its batches.
 * *visited: the entities of all parts. Returns ECS_OK, or the first error a part's split
 * returned (ECS_ERR_INVALID for T > 1 on a backend that cannot split).
 *
 * This is the hook for a scenario engine: a system marked parallel runs its pass through it,
 * with its own visit (which must write only the values of the batch it is given).
 */
int parallel_system_pass(struct parallel_pool *pool, const struct ecs_ops *ops, ecs_storage *s,
                         uint32_t system,
                         void (*visit)(void *ctx, uint32_t thread, const struct ecs_batch *b),
                         void *ctx, uint64_t *visited);

#endif
