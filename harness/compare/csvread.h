/*
 * csvread.h: reads what ecsbench writes (csvread.c): a results CSV and its raw samples, for the
 * tools that compare runs (compare.c). Columns are found by their names in the header row;
 * the '#' lines before it are kept for the report.
 */
#ifndef ECSB_CSVREAD_H
#define ECSB_CSVREAD_H

#include <stdbool.h>
#include <stdint.h>

struct csv_row {
	/* workload: named with its history as the tools name it ("iterate", "iterate-pristine":
	 * csvread.c, workload_with_history). In a scenario's CSV (build/ecsbench --scenario): profile
	 * is the scenario's name, workload the phase ("frame", "system:move"), with the point of a
	 * sweep ("frame at 0.5%"), entities the entities at the start, components 0. */
	char backend[32], profile[64], workload[64];
	uint32_t entities, components, processes, reps;
	uint32_t threads; /* T of a threaded workload's row; 1 where the file has no such column */
	double median, ci_low, ci_high; /* ci NaN when the file has none */
	bool noisy;
	/* The raw samples of the row (from the -samples.csv beside it), processes x reps, NaN
	 * where missing; NULL when there is no samples file. */
	double *samples;
};

struct csv_file {
	char path[4096];
	char commit[64], date[32], cpu[160];
	struct csv_row *rows;
	uint32_t count;
	bool has_ci;
	bool has_samples;
	bool scenario; /* a scenario's CSV: a row per participant and phase (see csv_row) */
};

/* Reads path (and, with samples, path's -samples.csv). 0, or -1 with the reason in err. */
int csv_read(const char *path, bool samples, struct csv_file *f, char *err, size_t errlen);
void csv_free(struct csv_file *f);
/* The row of f with the same case as r (backend, workload, entities, components, threads), or
 * NULL. */
struct csv_row *csv_find(const struct csv_file *f, const struct csv_row *r);
/* Same case, any backend: for rows of one group. */
bool csv_same_group(const struct csv_row *a, const struct csv_row *b);

#endif
