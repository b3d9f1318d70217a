/*
 * stats.c: the summary of a row's samples. The median and the median absolute deviation
 * (nanobench's choice) rather than mean and standard deviation: on a noisy shared machine a few
 * slow samples should not move the figure.
 */
#include <stdlib.h>
#include <time.h>

#include "bench.h"

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t median_sorted(const uint64_t *v, uint32_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void stats_summarise(uint64_t *samples, uint32_t n, struct bench_result *r)
{
	qsort(samples, n, sizeof *samples, compare_u64);
	r->min_ns = samples[0];
	r->max_ns = samples[n - 1];
	r->median_ns = median_sorted(samples, n);
	uint64_t dev[n];
	for (uint32_t i = 0; i < n; i++)
		dev[i] = samples[i] > r->median_ns ? samples[i] - r->median_ns
		                                   : r->median_ns - samples[i];
	qsort(dev, n, sizeof *dev, compare_u64);
	r->mad_pct = r->median_ns ? 100.0 * (double)median_sorted(dev, n) / (double)r->median_ns : 0;
}
