/*
 * gbench.h: google benchmark's JSON output format (its JSONReporter, as its tools/compare.py
 * reads it), written by a kind of run beside its CSV with --format json (gbench.c). The
 * context block (the machine, the build, the run) and one entry at a time; the kind decides
 * what its entries are (the sweep: a sample each, then its row's median, sweep_report.c).
 * Formatting only: the figures are the statistics' (stats.c), as in the CSV.
 */
#ifndef ECSB_GBENCH_H
#define ECSB_GBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "collection.h"

/* A counter of an entry (google benchmark's user counters): left out when has is false or the
 * value is not finite (JSON has no NaN). */
struct gbench_counter {
	const char *name;
	double value;
	bool has;
};

#define GBENCH_MAX_COUNTERS 12

struct gbench_entry {
	const char *name;             /* "archetype/create/A/N:1048576/k:2" */
	uint32_t family_index;        /* the backend x workload (x history) */
	uint32_t instance_index;      /* its N x k (x T), in the order of the run */
	const char *aggregate;        /* NULL: one timed sample ("iteration"); else "median" */
	uint32_t repetitions;         /* the row's samples */
	uint32_t repetition_index;    /* a sample's, across the processes */
	uint32_t threads;
	uint64_t iterations;          /* runs of the workload in the sample */
	double time_ns;               /* per run: real_time and cpu_time (the clock: context) */
	struct gbench_counter counters[GBENCH_MAX_COUNTERS];
	uint32_t counter_count;
};

/* A JSON string: quoted, escaped, invalid UTF-8 replaced by U+FFFD. */
void gbench_string(FILE *f, const char *s);
/* `{"context": {...}, "benchmarks": [` for the run of c. */
void gbench_begin(FILE *f, const struct collection *c);
/* One entry of "benchmarks"; first: the list's first (no comma before it). */
void gbench_entry(FILE *f, const struct gbench_entry *e, bool first);
/* `]}` and the end of the file. */
void gbench_end(FILE *f);

#endif
