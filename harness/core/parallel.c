/*
 * parallel.c: the thread pool and the parallel pass (see parallel.h), which the workload
 * parallel-iterate (sweep/parallel_iterate.c), its floor and a scenario's parallel systems run
 * on.
 *
 * Why a pool of our own and not OpenMP (gcc's libgomp): the measuring thread must be thread 0
 * and stay on the CPU it was pinned to, each other thread on a CPU of its own, the threads
 * started before any timed region, and idle threads must neither spin for long (the other
 * participants of a row are measured in between, on the same CPUs) nor need to be woken at the
 * start of a timed sample. libgomp's pinning (OMP_PLACES, GOMP_CPU_AFFINITY) is read from the
 * environment once per process and its idle policy (OMP_WAIT_POLICY, GOMP_SPINCOUNT) is global;
 * a pool per row says all of it in code, in a few hundred lines, and ThreadSanitizer checks it
 * (tests/parallel.c) without an instrumented libgomp.
 *
 * Costs: starting a pool, T - 1 thread creations (in setup); a job, one atomic increment of
 * the job number, the parts, one atomic decrement per thread, and thread 0's wait for the last
 * (it spins: it has a CPU of its own); a thread idle for SPIN_NS sleeps, and a job after that
 * pays a wake-up (parallel_wake, before each sample, spares the timed runs from it; after the
 * sample, parallel_rest puts the threads to sleep at once, so that they do not spin into the
 * next participant's sample on the CPUs it is measured on).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parallel.h"

/* How long an idle thread waits for the next job before it sleeps: far longer than the gap
 * between two runs of a sample (the harness's bookkeeping, a microsecond or so) and than one
 * part's lead over another, far shorter than a sample of another participant (2 ms). */
#define SPIN_NS 200000u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- CPUs ------------------------------------------------------------------------------ */

uint32_t parallel_cpus_allowed(struct cpu_list *out)
{
	cpu_set_t set;
	out->count = 0;
	out->pinned = false;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (uint32_t c = 0; c < CPU_SETSIZE && out->count < CPU_LIST_MAX; c++)
		if (CPU_ISSET(c, &set))
			out->cpu[out->count++] = (uint16_t)c;
	return out->count;
}

void parallel_cpus_put_first(struct cpu_list *list, uint32_t first)
{
	for (uint32_t i = 0; i < list->count; i++) {
		if (list->cpu[i] != first)
			continue;
		memmove(list->cpu + 1, list->cpu, i * sizeof *list->cpu);
		list->cpu[0] = (uint16_t)first;
		return;
	}
}

/* --- the pool -------------------------------------------------------------------------- */

/* What one thread reports of a job, alone on its cache line. */
struct pool_slot {
	_Alignas(ECS_CACHE_LINE) uint64_t visited;
	int status;
};

struct worker {
	struct parallel_pool *pool;
	uint32_t thread;
};

struct parallel_pool {
	/* Written by thread 0 once per job, read by every thread as it waits: a line of its own,
	 * apart from `pending`, which every thread writes once per job. */
	_Alignas(ECS_CACHE_LINE) _Atomic uint64_t generation;
	void (*job)(void *ctx, uint32_t thread, uint32_t threads);
	void *ctx;
	uint32_t threads;
	atomic_bool stopping;
	atomic_bool resting; /* after the current job, sleep at once instead of spinning */
	_Alignas(ECS_CACHE_LINE) atomic_uint pending; /* threads 1.. still in the current job */
	_Alignas(ECS_CACHE_LINE) atomic_uint sleepers; /* threads waiting on `wake` */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint32_t started; /* threads 1..started-1 are running */
	pthread_t *ids;
	struct worker *workers;
	struct pool_slot *slots; /* one per thread (parallel_system_pass) */
};

/* The next job number after `seen`: spins for SPIN_NS (not at all while the pool rests), then
 * sleeps until thread 0 starts one. */
static uint64_t wait_for_job(struct parallel_pool *p, uint64_t seen)
{
	uint64_t g, deadline = 0;
	bool spin = !atomic_load_explicit(&p->resting, memory_order_acquire);
	for (uint32_t spins = 1; spin; spins++) {
		if ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) != seen)
			return g;
		cpu_relax();
		if (spins % 256 == 0) {
			uint64_t now = monotonic_ns();
			if (!deadline)
				deadline = now + SPIN_NS;
			else if (now >= deadline)
				break;
		}
	}
	/* Sequentially consistent with start_job: either it sees this thread among the sleepers
	 * and wakes it, or this thread sees the new job number and does not sleep. */
	pthread_mutex_lock(&p->lock);
	atomic_fetch_add(&p->sleepers, 1);
	while ((g = atomic_load(&p->generation)) == seen)
		pthread_cond_wait(&p->wake, &p->lock);
	atomic_fetch_sub(&p->sleepers, 1);
	pthread_mutex_unlock(&p->lock);
	return g;
}

static void start_job(struct parallel_pool *p)
{
	atomic_fetch_add(&p->generation, 1);
	if (atomic_load(&p->sleepers)) {
		pthread_mutex_lock(&p->lock);
		pthread_cond_broadcast(&p->wake);
		pthread_mutex_unlock(&p->lock);
	}
}

static void *worker_main(void *arg)
{
	const struct worker *w = arg;
	struct parallel_pool *p = w->pool;
	/* Job 0 is the pool's start: a thread that starts late still runs job 1, which thread 0
	 * may have started before this thread got to run at all. */
	uint64_t seen = 0;
	for (;;) {
		seen = wait_for_job(p, seen);
		if (atomic_load_explicit(&p->stopping, memory_order_acquire))
			return NULL;
		p->job(p->ctx, w->thread, p->threads);
		atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
	}
}

uint32_t parallel_pool_threads(const struct parallel_pool *pool) { return pool->threads; }

void parallel_pool_stop(struct parallel_pool *p)
{
	if (!p)
		return;
	if (p->started > 1) {
		atomic_store(&p->stopping, true);
		start_job(p);
		for (uint32_t t = 1; t < p->started; t++)
			pthread_join(p->ids[t], NULL);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	free(p->ids);
	free(p->workers);
	free(p->slots);
	free(p);
}

int parallel_pool_start(struct parallel_pool **out, uint32_t threads, const struct cpu_list *cpus,
                        char *err, size_t err_len)
{
	*out = NULL;
	bool pin = cpus && cpus->pinned;
	if (threads == 0 || threads > CPU_LIST_MAX || (pin && threads > cpus->count)) {
		snprintf(err, err_len, "cannot run %u threads on the %u CPUs this process may use",
		         threads, pin ? cpus->count : CPU_LIST_MAX);
		return -1;
	}
	struct parallel_pool *p = aligned_alloc(ECS_CACHE_LINE, sizeof *p);
	if (!p) {
		snprintf(err, err_len, "out of memory for a pool of %u threads", threads);
		return -1;
	}
	memset(p, 0, sizeof *p);
	atomic_init(&p->generation, 0);
	atomic_init(&p->stopping, false);
	atomic_init(&p->resting, false);
	atomic_init(&p->pending, 0);
	atomic_init(&p->sleepers, 0);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	p->threads = threads;
	p->started = 1;
	p->ids = calloc(threads, sizeof *p->ids);
	p->workers = calloc(threads, sizeof *p->workers);
	p->slots = aligned_alloc(ECS_CACHE_LINE, threads * sizeof *p->slots);
	if (!p->ids || !p->workers || !p->slots) {
		parallel_pool_stop(p);
		snprintf(err, err_len, "out of memory for a pool of %u threads", threads);
		return -1;
	}
	for (uint32_t t = 1; t < threads; t++) {
		pthread_attr_t attr;
		int rc = pthread_attr_init(&attr);
		if (rc == 0 && pin) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(cpus->cpu[t], &set);
			rc = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
		}
		p->workers[t] = (struct worker){p, t};
		if (rc == 0)
			rc = pthread_create(&p->ids[t], &attr, worker_main, &p->workers[t]);
		pthread_attr_destroy(&attr);
		if (rc != 0) {
			char where[32] = "";
			if (pin)
				snprintf(where, sizeof where, " on cpu %u", cpus->cpu[t]);
			snprintf(err, err_len, "cannot start thread %u%s: %s%s", t, where, strerror(rc),
			         pin ? " (--no-pin starts it unpinned)" : "");
			parallel_pool_stop(p);
			return -1;
		}
		p->started = t + 1;
	}
	*out = p;
	return 0;
}

void parallel_run(struct parallel_pool *p, void (*job)(void *ctx, uint32_t thread,
                                                       uint32_t threads),
                  void *ctx)
{
	if (p->threads == 1) {
		job(ctx, 0, 1);
		return;
	}
	/* Every thread has finished the previous job (and read job and ctx) before this one is
	 * written: thread 0 waited for pending to reach 0. */
	p->job = job;
	p->ctx = ctx;
	atomic_store_explicit(&p->pending, p->threads - 1, memory_order_relaxed);
	start_job(p);
	job(ctx, 0, p->threads);
	while (atomic_load_explicit(&p->pending, memory_order_acquire) != 0)
		cpu_relax();
}

static void nothing(void *ctx, uint32_t thread, uint32_t threads)
{
	(void)ctx;
	(void)thread;
	(void)threads;
}

void parallel_wake(struct parallel_pool *pool)
{
	atomic_store(&pool->resting, false);
	parallel_run(pool, nothing, NULL);
}

void parallel_rest(struct parallel_pool *pool)
{
	atomic_store(&pool->resting, true);
	parallel_run(pool, nothing, NULL);
}

/* --- the parallel pass ------------------------------------------------------------------ */

struct pass_job {
	const struct ecs_ops *ops;
	ecs_storage *s;
	uint32_t system;
	void (*visit)(void *ctx, uint32_t thread, const struct ecs_batch *b);
	void *ctx;
	struct pool_slot *slots;
};

static void pass_part(void *arg, uint32_t thread, uint32_t threads)
{
	const struct pass_job *j = arg;
	struct ecs_iter it;
	struct ecs_batch b;
	uint64_t visited = 0;
	int rc = ecs_system_iter_split(j->ops, j->s, j->system, thread, threads, &it);
	if (rc == ECS_OK) {
		while (j->ops->system_iter_next(&it, &b)) {
			visited += b.count;
			j->visit(j->ctx, thread, &b);
		}
	}
	j->slots[thread].visited = visited;
	j->slots[thread].status = rc;
}

int parallel_system_pass(struct parallel_pool *pool, const struct ecs_ops *ops, ecs_storage *s,
                         uint32_t system,
                         void (*visit)(void *ctx, uint32_t thread, const struct ecs_batch *b),
                         void *ctx, uint64_t *visited)
{
	struct pass_job j = {ops, s, system, visit, ctx, pool->slots};
	parallel_run(pool, pass_part, &j);
	int rc = ECS_OK;
	*visited = 0;
	for (uint32_t t = 0; t < pool->threads; t++) {
		*visited += pool->slots[t].visited;
		if (rc == ECS_OK)
			rc = pool->slots[t].status;
	}
	return rc;
}
