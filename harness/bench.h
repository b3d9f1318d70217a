/*
 * bench.h: what the harness's layers share. A run is plain data (struct bench_case in,
 * struct bench_result out); workloads.c measures, stats.c summarises, main.c reports.
 */
#ifndef ECSB_BENCH_H
#define ECSB_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "../impls/ecs.h"

/* Seed 000's profiles. */
struct profile {
	const char *name;
	uint32_t component_count;
	uint32_t system_count;
};

extern const struct profile profiles[];
extern const size_t profile_count;
const struct profile *profile_find(const char *name);

/* The component types a workload uses: k = 1, 2 or 3 of them, ids 0, 1, 2. */
enum { COMP_POSITION = 0, COMP_VELOCITY = 1, COMP_MASS = 2, COMP_MAX_K = 3 };

struct position { float x, y; };
struct velocity { float x, y; };
struct mass { float m; };

struct workload;

struct bench_case {
	const struct ecs_ops *ops;
	const struct workload *workload;
	const struct profile *profile;
	uint32_t systems;  /* systems registered: the profile's, or fewer (--systems) */
	uint32_t entities; /* N */
	uint32_t k;        /* components per entity, 1..3 */
	uint32_t reps;     /* timed samples */
	uint32_t warmup;   /* untimed samples before them */
	uint64_t seed;
};

struct bench_result {
	uint32_t inner;       /* workload runs per timed sample (small N is repeated) */
	uint64_t median_ns;   /* per run of the workload over N entities */
	uint64_t min_ns, max_ns;
	double mad_pct;       /* median absolute deviation, in % of the median */
	uint64_t peak_bytes;  /* peak live bytes of the storage */
	uint64_t live_bytes;  /* live bytes of the storage when the workload ends */
	uint64_t allocations; /* allocation calls in the timed region, per run */
	uint64_t checksum;
	char error[200];      /* non-empty: the run failed and the numbers mean nothing */
};

struct workload {
	const char *name;
	const char *timed; /* what the timed region holds, for --list and the README */
	uint64_t min_ops;  /* entity operations a sample holds at least */
	int (*run)(const struct bench_case *c, struct bench_result *r);
};

extern const struct workload workloads[];
extern const size_t workload_count;
const struct workload *workload_find(const char *name);

/* stats.c: summary of n samples (ns per run); sorts the array. */
void stats_summarise(uint64_t *samples, uint32_t n, struct bench_result *r);

uint64_t now_ns(void);

#endif
