/*
 * compare_stats.h: the statistics of build/ecsbench-compare (compare_stats.c), as plain data
 * that compare.c's and compare_report.c's reporters only format, as google benchmark's
 * reporters do: two runs row by row (make compare), the repeatability of one command run twice
 * (make repeat), and every row's statistics computed again from a run's samples (--stats).
 */
#ifndef ECSB_COMPARE_STATS_H
#define ECSB_COMPARE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "csvread.h"
#include "../core/stats.h"

#define COMPARE_SAME_MARGIN 0.05 /* "same": the interval lies within +-5% */

/* One row in both runs: NEW/OLD of the median, its 95% interval, and the verdicts. The
 * interval holds both rows' own intervals (Welch) and what a row moves between two runs beyond
 * them (STATS_RERUN_ROW_SD, measured by make repeat): one run's interval cannot see that, and
 * two runs of the same build would otherwise differ in one row of seven (docs/comparing.md). */
struct compare_pair {
	const struct csv_row *old, *new_;
	double log_ratio, half; /* half: the interval's half width on a log scale */
	double own_half;        /* the part of it the two rows' own intervals give (Welch) */
	bool has_interval;
	double ratio, low, high; /* low, high NaN without an interval */
	const char *verdict;     /* faster, slower, same, undecided */
	const char *adjusted;    /* the same with the drift divided out */
};

/* A backend's geometric mean of NEW/OLD over its pairs, and over the drift: with 95% t
 * intervals across its rows widened by STATS_RERUN_BACKEND_SD (NaN with fewer than two rows), a
 * verdict where single rows have none. */
struct compare_backend {
	const char *name;
	uint32_t rows;
	double geomean, low, high;
	double relative, relative_low, relative_high; /* geomean / drift */
};

/* The verdict of a ratio's 95% interval [low, high]: faster or slower where it excludes 1, same
 * where it lies within +-COMPARE_SAME_MARGIN, undecided otherwise; "undecided" for NaN bounds.
 * A row's, and a backend's geometric mean's as make compare prints it. */
const char *compare_verdict(double low, double high);

enum { COMPARE_FASTER, COMPARE_SLOWER, COMPARE_SAME, COMPARE_UNDECIDED, COMPARE_VERDICTS };

struct compare_result {
	struct compare_pair *pairs; /* in NEW's row order */
	uint32_t count;
	uint32_t only_old, only_new; /* rows in one run only */
	double drift, q1, q3;        /* log NEW/OLD: the median over the pairs, and its quartiles */
	bool has_floor_drift;
	double floor_drift;          /* the same over the floor rows alone */
	double between;              /* rows' own movement between these runs, beyond their
	                                intervals and the drift (log, one sd), as they show it */
	double between_used;         /* the verdicts without drift allow for the larger of it and
	                                STATS_RERUN_ROW_SD */
	unsigned verdicts[2][COMPARE_VERDICTS]; /* [0] as measured, [1] without drift */
	struct compare_backend *backends; /* in order of first appearance */
	uint32_t backend_count;
};

/* What each of two runs measured that the other did not, and how: the rows make compare
 * cannot compare, said rather than left out. Lists joined by ", ", "" where none. */
struct compare_settings {
	char workloads[2][1024]; /* [0]: only in OLD, [1]: only in NEW */
	char entities[2][512];   /* N that one run has for a workload both measured */
	char components[2][128];
	char backends[2][512];
	uint32_t processes[2];   /* each run's processes a row (the most of any row) */
	uint32_t reps[2];        /* and its timed samples a process (the most of any row) */
	/* A raced run's settings (its "# processes:" line: the processes a row group may have, the
	 * rounds a process, the budget), "" for a run that did not race: in a raced run the
	 * processes and samples of a row are what its race took, not how the run was set. */
	char raced[2][160];
};
void compare_settings(const struct csv_file *old, const struct csv_file *new_,
                      struct compare_settings *s);

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
	bool raced; /* two raced runs: their figures from the race's levels (race.h) */
	unsigned rows, agree, row_covered;
	unsigned pairs, called, called_both, swapped, swaps_both, covered, uneven;
	unsigned rounds_covered, rounds_missing, boot_covered, missing;
	double width_sum, rounds_width_sum, boot_width_sum; /* log widths of run 1's intervals */
	struct repeat_pair *swaps, *missing_pairs;
	uint32_t swap_count, missing_count;
	/* A rerun's 95% prediction intervals (stats_rerun, with STATS_RERUN_ROW_SD and
	 * STATS_RERUN_RATIO_SD): how many of run 2's row centres and pair ratios fall inside run
	 * 1's; and the between-run term these two runs show: the moment estimate (the root mean
	 * square of the log differences less their sampling variance) and the smallest term that
	 * would put 95% of them inside. */
	unsigned rows_with_pi, rows_predicted, pairs_with_pi, pairs_predicted;
	double row_between, row_between_95, ratio_between, ratio_between_95;
	/* make compare on the two runs (an A/A across runs: every call is false): rows compared,
	 * and those called faster or slower, as measured and with the drift divided out */
	unsigned compare_rows, compare_called[2];
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
	bool *slower_before; /* and at 1 - 5%/(K - 1), Bonferroni over the comparisons with the
	                        best alone (ecsbench before) */
	/* A/A: the copies of the best's backend (--twin), other than the best itself */
	unsigned copies, copies_slower, copies_slower_plain;
	unsigned copies_slower_before; /* at 1 - 5%/(K - 1) each: ecsbench's level before */
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
	unsigned aa_false_before;
	unsigned slower_plain, slower_before;
};
void compare_restat_add(struct restat_totals *t, const struct csv_file *f, uint32_t i,
                        const struct stats_member *m, const struct restat_group *g);

bool compare_is_floor(const struct csv_row *r);

#endif
