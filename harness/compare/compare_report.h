/*
 * compare_report.h: make compare's output (compare_report.c), formatted from what
 * compare_stats.c computed, in three forms:
 *
 *   the screen  what a user reads first, in about 40 lines: the two runs, what changed per
 *               backend (the geometric means and their verdicts), the rows called faster or
 *               slower (the largest N of each workload first, at most COMPARE_REPORT_LISTED),
 *               the verdicts counted, why rows are undecided and what the comparison cannot
 *               say, the machine states in short, and where every row is;
 *   the rows    the full report: the head with the machine states in full, a line per row in
 *               both runs, the drift, the verdicts counted and the per-backend means
 *               (ecsbench-compare --rows; make compare keeps it as NEW-compare/compare.txt);
 *   verdicts    the CSV of every row's verdicts that the figures read (--output).
 *
 * Nothing here computes a statistic: a verdict, an interval and a drift are compare_stats.c's.
 */
#ifndef ECSB_COMPARE_REPORT_H
#define ECSB_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_stats.h"
#include "csvread.h"

/* The screen lists at most this many rows called faster or slower (then "and N more"). */
#define COMPARE_REPORT_LISTED 10

struct compare_report {
	const struct csv_file *old, *new_;
	const char *paths[2];    /* OLD's and NEW's CSV as the user named them */
	const struct compare_result *res;
	bool profiles;           /* two profiles of one run set (--profiles) */
	const char *drift_is;    /* with profiles: what the drift measures; "" otherwise */
	const char *machine;     /* the machine states in a line (machine_compare_print's brief) */
	const char *rows_in;     /* the screen: where the full report is kept, or NULL */
};

void compare_report_screen(FILE *out, const struct compare_report *r);
void compare_report_rows(FILE *out, const struct compare_report *r);
void compare_report_verdicts(FILE *out, const struct compare_report *r);

#endif
