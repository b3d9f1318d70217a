/*
 * compare_stats.h: the statistics of build/ecsbench-compare (compare_stats.c), as plain data
 * that compare.c's reporters only format, as google benchmark's reporters do: two runs row by
 * row (make compare), the repeatability of one command run twice (make repeat), and every row's
 * statistics computed again from a run's samples (--stats).
 */
#ifndef ECSB_COMPARE_STATS_H
#define ECSB_COMPARE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "csvread.h"
#include "../core/stats.h"

#define COMPARE_SAME_MARGIN 0.05 /* "same": the interval lies within +-5% */

/* One row in both runs: NEW/OLD of the median, its 95% interval, and the verdicts. */
struct compare_pair {
	const struct csv_row *old, *new_;
	double log_ratio, half; /* half: the interval's half width on a log scale */
	bool has_interval;
	double ratio, low, high; /* low, high NaN without an interval */
	const char *verdict;     /* faster, slower, same, undecided */
	const char *adjusted;    /* the same with the drift divided out */
};

/* A backend's geometric mean of NEW/OLD over its pairs. */
struct compare_backend {
	const char *name;
	double geomean;
};

enum { COMPARE_FASTER, COMPARE_SLOWER, COMPARE_SAME, COMPARE_UNDECIDED, COMPARE_VERDICTS };

struct compare_result {
	struct compare_pair *pairs; /* in NEW's row order */
	uint32_t count;
	uint32_t only_old, only_new; /* rows in one run only */
	double drift, q1, q3;        /* log NEW/OLD: the median over the pairs, and its quartiles */
	bool has_floor_drift;
	double floor_drift;          /* the same over the floor rows alone */
	double between;              /* rows' own movement between runs (log, one sd) */
	unsigned verdicts[2][COMPARE_VERDICTS]; /* [0] as measured, [1] without drift */
	struct compare_backend *backends; /* in order of first appearance */
	uint32_t backend_count;
};

/* NEW against OLD, row by row. 0; -1 if out of memory (result->count 0: no row in common). */
int compare_runs(const struct csv_file *old, const struct csv_file *new_,
                 struct compare_result *result);
void compare_result_free(struct compare_result *result);

/* --repeat: a pair of backends of one row group that swaps order between the runs, or has no
 * interval in one of them. */
struct repeat_pair {
	const struct csv_row *x, *y; /* run 1's rows */
	struct stats_ratio r1, r2;   /* y over x... as stats_ratio gives it, in each run */
	bool both;                   /* both runs call it different: a contradiction */
};

struct repeat_result {
	unsigned rows, agree, row_covered;
	unsigned pairs, called, called_both, swapped, swaps_both, covered, uneven;
	unsigned rounds_covered, rounds_missing, boot_covered, missing;
	double width_sum, rounds_width_sum, boot_width_sum; /* log widths of run 1's intervals */
	struct repeat_pair *swaps, *missing_pairs;
	uint32_t swap_count, missing_count;
};

/* Run 2 against run 1, from their samples. 0; -1 if out of memory. */
int compare_repeat(const struct csv_file *a, const struct csv_file *b, struct repeat_result *r);
void compare_repeat_free(struct repeat_result *r);

/* --stats: the rows of f's row group that starts at row i end at the returned row. */
uint32_t compare_group_end(const struct csv_file *f, uint32_t i);

/* One row group's statistics computed again from its samples (stats_group), into m[0..n-1]. */
struct restat_group {
	uint32_t n, processes;
	int best;           /* the best row (stats_group), or -1 */
	int pooled;         /* the best by the pooled median of all samples (ecsbench before) */
	bool *slower_plain; /* per row: called slower than the best at 95% without the correction */
	/* A/A: the copies of the best's backend (--twin), other than the best itself */
	unsigned copies, copies_slower, copies_slower_plain;
	double **held;      /* padded samples of rows measured in fewer processes */
};

/* The statistics of rows [i, i + n) of f into m (n entries) and g. 0; -1 if out of memory. */
int compare_restat(const struct csv_file *f, uint32_t i, uint32_t n, struct stats_member *m,
                   struct restat_group *g);
void compare_restat_free(struct restat_group *g);

/* What --stats adds up over every group. */
struct restat_totals {
	unsigned groups, rows, best, slower, tied, below, noisy, others, others_noisy, file_noisy;
	unsigned aa_groups, aa_false, aa_copies, aa_copies_false, aa_false_plain, pooled_differs;
	unsigned slower_plain;
};
void compare_restat_add(struct restat_totals *t, const struct csv_file *f, uint32_t i,
                        const struct stats_member *m, const struct restat_group *g);

bool compare_is_floor(const struct csv_row *r);

#endif
