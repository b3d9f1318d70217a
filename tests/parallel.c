/*
 * parallel.c: the parallel pass (harness/core/parallel.c) on every backend, built with
 * ThreadSanitizer by make test (build/tsan/parallel): T threads sweep one storage at once, each
 * its part of a split, and write every value they are handed. ThreadSanitizer reports any two
 * threads touching one byte without an order between them (a part that overlaps another, an
 * iterator that writes shared state, the pool's own hand-over); the reference model then checks
 * that every matching entity was updated exactly once (tests/model.c), which a split that
 * drops or repeats an entity would fail.
 *
 * States: a storage built in order; one whose Position pool and system list were filled in
 * shuffled order (sparse: pointer batches; the family: pointer arrays); one of many component
 * sets (archetype: many small tables beside large ones); and one left by random operations.
 * T = 1..4 (more threads than this machine may have CPUs: nothing is pinned here, and the races
 * ThreadSanitizer finds do not need the threads to overlap in time). Then the pool alone: jobs
 * far apart (its threads fall asleep between them) and back to back.
 * Ends with "N passed, N failed".
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness/core/parallel.h"
#include "check.h"
#include "ops.h"


enum { COMPONENTS = 32, SYSTEMS = 8, N = 3000 };

/* What a visit does to a batch: adds 1 to the first byte of every entity's first component
 * (the system's written one), in place, as a system's update would. */
static void bump(void *ctx, uint32_t thread, const struct ecs_batch *b)
{
	const struct fixture *f = ctx;
	(void)thread;
	uint32_t size = f->sizes[0];
	for (uint32_t i = 0; i < b->count; i++) {
		unsigned char *p = b->columns[0] ? (unsigned char *)b->columns[0] + (size_t)i * size
		                                 : b->pointers[0][i];
		p[0]++;
	}
}

/* System 0 (which requires type 0 first) on `threads` threads: the storage must then hold what
 * the model holds after the same bump of every entity that matches it. */
static bool pass_on(struct fixture *f, uint32_t threads)
{
	struct parallel_pool *pool;
	char err[160];
	if (parallel_pool_start(&pool, threads, NULL, err, sizeof err)) {
		check_failed(__FILE__, __LINE__, "%s", err);
		return false;
	}
	uint64_t visited = 0;
	int rc = parallel_system_pass(pool, f->ops, f->s, 0, bump, f, &visited);
	parallel_pool_stop(pool);
	CHECK_OK(rc);
	uint64_t expected = 0;
	for (uint32_t i = 0; i < f->m.entity_count; i++) {
		struct model_entity *r = &f->m.entities[i];
		if (!r->alive || model_find(&f->m, r->handle) != r || !r->has[0] || !r->has[1])
			continue;
		bool excluded = false;
		for (uint32_t c = 0; c < f->m.system_excluded_count[0]; c++)
			excluded |= r->has[f->m.system_excluded[0][c]] != 0;
		if (excluded)
			continue;
		((unsigned char *)model_value(&f->m, r->handle, 0))[0]++;
		expected++;
	}
	CHECK_EQ(visited, expected);
	return check_all(f);
}

static bool every_thread_count(struct fixture *f)
{
	for (uint32_t threads = 1; threads <= 4; threads++)
		TRY(pass_on(f, threads));
	return true;
}

static bool open_with_system(struct fixture *f, const struct ecs_ops *ops, uint64_t seed)
{
	static const uint32_t pair[] = {0, 1};
	TRY(fixture_open(f, ops, COMPONENTS, SYSTEMS, seed));
	TRY(op_register(f, pair, 2));
	return register_systems(f, SYSTEMS - 1);
}

static bool test_in_order(const struct ecs_ops *ops)
{
	struct fixture f;
	TRY(open_with_system(&f, ops, 21));
	static const uint32_t pair[] = {0, 1};
	unsigned char v[2][64] = {{1}, {2}};
	const void *values[2] = {v[0], v[1]};
	for (uint32_t i = 0; i < N; i++) {
		ecs_entity e;
		TRY(op_create_with(&f, pair, 2, values, &e));
	}
	TRY(every_thread_count(&f));
	return fixture_close(&f);
}

/* Velocity first, Position in shuffled order: the pools and the system's list out of step. */
static bool test_shuffled(const struct ecs_ops *ops)
{
	struct fixture f;
	TRY(open_with_system(&f, ops, 22));
	ecs_entity *e = malloc(N * sizeof *e);
	CHECK(e != NULL);
	bool ok = true;
	for (uint32_t i = 0; ok && i < N; i++)
		ok = op_create(&f, &e[i]) && op_add(&f, e[i], 1);
	for (uint32_t i = N; ok && i-- > 1;) { /* Fisher-Yates with the fixture's generator */
		uint32_t j = below(&f, i + 1);
		ecs_entity t = e[i];
		e[i] = e[j];
		e[j] = t;
	}
	for (uint32_t i = 0; ok && i < N; i++)
		ok = op_add(&f, e[i], 0);
	free(e);
	TRY(ok);
	TRY(every_thread_count(&f));
	return fixture_close(&f);
}

/* Position and Velocity and 0..3 other types each: many sets, tables of every size. */
static bool test_many_sets(const struct ecs_ops *ops)
{
	struct fixture f;
	TRY(open_with_system(&f, ops, 23));
	unsigned char v[5][64] = {{1}, {2}, {3}, {4}, {5}};
	const void *values[5] = {v[0], v[1], v[2], v[3], v[4]};
	for (uint32_t i = 0; i < N; i++) {
		uint32_t types[5] = {0, 1}, n = 2 + below(&f, 4);
		for (uint32_t c = 2; c < n; c++)
			types[c] = 2 + (c - 2) * 10 + below(&f, 10);
		ecs_entity e;
		TRY(op_create_with(&f, types, n, values, &e));
	}
	TRY(every_thread_count(&f));
	return fixture_close(&f);
}

static bool test_random(const struct ecs_ops *ops)
{
	struct fixture f;
	TRY(open_with_system(&f, ops, 24));
	for (uint32_t i = 0; i < 4000; i++)
		TRY(random_op(&f, 600));
	TRY(every_thread_count(&f));
	return fixture_close(&f);
}

/* --- the pool alone --------------------------------------------------------------------- */

struct tally {
	uint64_t per_thread[4][8]; /* a cache line each: no false sharing to hide a race */
};

static void count_job(void *ctx, uint32_t thread, uint32_t threads)
{
	struct tally *t = ctx;
	(void)threads;
	t->per_thread[thread][0]++;
}

/* Jobs back to back (the threads spin between them), far apart (they sleep), and while the
 * pool rests (they sleep at once): every thread runs every job once, and thread 0 sees what
 * each wrote. */
static bool test_pool(void)
{
	for (uint32_t threads = 1; threads <= 4; threads++) {
		struct parallel_pool *pool;
		char err[160];
		struct tally t;
		memset(&t, 0, sizeof t);
		CHECK(parallel_pool_start(&pool, threads, NULL, err, sizeof err) == 0);
		for (int j = 0; j < 200; j++)
			parallel_run(pool, count_job, &t);
		for (int j = 0; j < 5; j++) {
			struct timespec pause = {0, 2000000}; /* 2 ms: longer than the pool's spin */
			nanosleep(&pause, NULL);
			parallel_wake(pool);
			parallel_run(pool, count_job, &t);
		}
		for (int j = 0; j < 5; j++) { /* resting: asleep at once after each job */
			parallel_rest(pool);
			parallel_run(pool, count_job, &t);
			parallel_run(pool, count_job, &t);
		}
		parallel_pool_stop(pool);
		for (uint32_t i = 0; i < threads; i++)
			CHECK_EQ(t.per_thread[i][0], 215);
	}
	struct parallel_pool *pool;
	char err[160];
	struct cpu_list none = {.count = 1, .pinned = true, .cpu = {0}};
	CHECK(parallel_pool_start(&pool, 2, &none, err, sizeof err) == -1); /* more than the CPUs */
	CHECK(parallel_pool_start(&pool, 0, NULL, err, sizeof err) == -1);
	return true;
}

int main(void)
{
	static const struct {
		const char *name;
		bool (*run)(const struct ecs_ops *);
	} tests[] = {
		{"parallel-in-order", test_in_order},
		{"parallel-shuffled", test_shuffled},
		{"parallel-many-sets", test_many_sets},
		{"parallel-random", test_random},
	};
	for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
		for (size_t b = 0; b < ecs_backend_count; b++) {
			runner_begin("%s/%s", tests[t].name, ecs_backends[b]->name);
			runner_end(tests[t].run(ecs_backends[b]));
		}
	}
	runner_begin("parallel-pool");
	runner_end(test_pool());
	return runner_summary();
}
