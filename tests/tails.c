/*
 * tails.c: the frame-time tails and the growth frames of a scenario run, on known data
 * (deterministic, never a time): stats_quantile and stats_tail (harness/core/stats.c) against
 * values worked out by hand, and the counting allocator's largest block per frame (alloc.c)
 * under a scripted sequence of allocations, counted as the scenario report counts growth frames
 * (stats_count_at_least at SCENARIO_GROWTH_BYTES). Ends with "N passed, N failed".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/core/alloc.h"
#include "../harness/core/stats.h"
#include "../harness/scenario/scenario_engine.h"
#include "check.h"

#define CHECK_CLOSE(a, b)                                                                  \
	do {                                                                                   \
		double close_a_ = (a), close_b_ = (b);                                             \
		if (!(fabs(close_a_ - close_b_) <= 1e-9 * fmax(1, fabs(close_b_)))) {              \
			check_failed(__FILE__, __LINE__, "%s == %s (%.12g != %.12g)", #a, #b, close_a_, \
			             close_b_);                                                        \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

/* 1..100 in a scrambled order (37 is prime to 100) */
static void hundred(double *v, double scale)
{
	for (uint32_t i = 0; i < 100; i++)
		v[i] = scale * (double)(1 + (i * 37) % 100);
}

static bool quantiles_known(void)
{
	double v[100];
	hundred(v, 1);
	CHECK_CLOSE(stats_quantile(v, 100, 0.95), 95.05); /* x(1 + 99 * 0.95) = x(95.05) */
	hundred(v, 1);
	CHECK_CLOSE(stats_quantile(v, 100, 0.99), 99.01);
	hundred(v, 1);
	CHECK_CLOSE(stats_quantile(v, 100, 1.0), 100);
	hundred(v, 1);
	CHECK_CLOSE(stats_quantile(v, 100, 0.5), 50.5); /* the median */
	hundred(v, 1);
	CHECK_CLOSE(stats_quantile(v, 100, 0), 1);
	double one = 7;
	CHECK_CLOSE(stats_quantile(&one, 1, 0.99), 7);
	CHECK(isnan(stats_quantile(v, 0, 0.5)));
	CHECK(isnan(stats_quantile(v, 100, 1.5)));
	CHECK(isnan(stats_quantile(v, 100, NAN)));
	return true;
}

/* Three processes whose frames are 1..100 times 1, 2 and 4: each one's p99 is 99.01 times its
 * scale, so the geometric mean is 2 x 99.01 and the logs' sd is ln 2. */
static bool tail_across_processes(void)
{
	double s[300];
	hundred(s, 1);
	hundred(s + 100, 2);
	hundred(s + 200, 4);
	struct stats_tail t;
	stats_tail(s, 3, 100, 0.99, &t);
	CHECK_EQ(t.units, 3);
	CHECK_CLOSE(t.value, 2 * 99.01);
	CHECK(t.has_interval);
	double half = stats_t975(2) * log(2) / sqrt(3);
	CHECK_CLOSE(t.ci_low, 2 * 99.01 * exp(-half));
	CHECK_CLOSE(t.ci_high, 2 * 99.01 * exp(half));
	stats_tail(s, 3, 100, 1.0, &t);
	CHECK_CLOSE(t.value, 200); /* (100 x 200 x 400)^(1/3) */
	/* missing and non-positive samples left out: process 1 keeps 1..99 */
	for (uint32_t i = 0; i < 100; i++)
		if (s[i] == 100)
			s[i] = NAN;
		else if (s[i] == 1)
			s[i] = -5;
	stats_tail(s, 3, 100, 1.0, &t);
	CHECK_CLOSE(t.value, cbrt(99.0 * 200 * 400));
	return true;
}

static bool tail_edges(void)
{
	double s[6] = {NAN, NAN, 3, 1, 2, 5};
	struct stats_tail t;
	stats_tail(s, 1, 6, 0.5, &t); /* one process: a value, no interval */
	CHECK_EQ(t.units, 1);
	CHECK_CLOSE(t.value, 2.5);
	CHECK(!t.has_interval);
	stats_tail(s, 3, 2, 1.0, &t); /* the first process has no sample: two units */
	CHECK_EQ(t.units, 2);
	CHECK_CLOSE(t.value, sqrt(3.0 * 5));
	CHECK(t.has_interval);
	stats_tail(s, 0, 6, 0.5, &t);
	CHECK_EQ(t.units, 0);
	CHECK(isnan(t.value) && !t.has_interval);
	return true;
}

/*
 * A storage's allocations, scripted frame by frame, through either counting allocator: per
 * frame the largest block asked for, then the growth frames as the scenario report counts them.
 * Frame 0: 100 small blocks; 1: a column regrown to exactly 64 KiB (growth); 2: that column
 * shrunk (no growth); 3: a 70,000-byte block (growth); 4: a 16 -> 32 KiB regrowth (below); 5: a
 * 100,000-byte realloc from NULL (growth); 6: nothing. Three growth frames.
 */
static bool growth_scripted(struct ecs_allocator a, struct counting_alloc *c)
{
	static const double want[7] = {48, 65536, 0, 70000, 32768, 100000, 0};
	double largest[7];
	void *small[100], *column = a.malloc(a.ctx, 32768), *big = NULL, *other = NULL;
	CHECK(column != NULL);
	for (uint32_t f = 0; f < 7; f++) {
		counting_alloc_largest_reset(c);
		if (f == 0)
			for (uint32_t i = 0; i < 100; i++)
				CHECK((small[i] = a.malloc(a.ctx, 48)) != NULL);
		if (f == 1)
			CHECK((column = a.realloc(a.ctx, column, 32768, 65536)) != NULL);
		if (f == 2)
			CHECK((column = a.realloc(a.ctx, column, 65536, 16384)) != NULL);
		if (f == 3)
			CHECK((big = a.malloc(a.ctx, 70000)) != NULL);
		if (f == 4)
			CHECK((column = a.realloc(a.ctx, column, 16384, 32768)) != NULL);
		if (f == 5)
			CHECK((other = a.realloc(a.ctx, NULL, 0, 100000)) != NULL);
		largest[f] = (double)c->largest;
	}
	for (uint32_t f = 0; f < 7; f++)
		CHECK_CLOSE(largest[f], want[f]);
	CHECK_EQ(stats_count_at_least(largest, 7, SCENARIO_GROWTH_BYTES), 3);
	double with_nan[3] = {NAN, 65536, 65535};
	CHECK_EQ(stats_count_at_least(with_nan, 3, SCENARIO_GROWTH_BYTES), 1);
	for (uint32_t i = 0; i < 100; i++)
		a.free(a.ctx, small[i], 48);
	a.free(a.ctx, column, 32768);
	a.free(a.ctx, big, 70000);
	a.free(a.ctx, other, 100000);
	CHECK_EQ(c->live_bytes, 0);
	return true;
}

static bool growth_bench_allocator(void)
{
	struct counting_alloc c;
	return growth_scripted(counting_alloc_bench(&c), &c);
}

static bool growth_tests_allocator(void)
{
	struct counting_alloc c;
	struct ecs_allocator a = counting_alloc_init(&c);
	CHECK(counting_alloc_track(&c) == 0);
	bool ok = growth_scripted(a, &c);
	CHECK_EQ(c.size_errors, 0);
	counting_alloc_release(&c);
	return ok;
}

int main(void)
{
	static const struct {
		const char *name;
		bool (*run)(void);
	} tests[] = {
		{"quantiles-known", quantiles_known},
		{"tail-across-processes", tail_across_processes},
		{"tail-edges", tail_edges},
		{"growth-scripted-bench-allocator", growth_bench_allocator},
		{"growth-scripted-tests-allocator", growth_tests_allocator},
	};
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		runner_begin("tails/%s", tests[i].name);
		runner_end(tests[i].run());
	}
	return runner_summary();
}
