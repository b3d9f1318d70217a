/*
 * report.h: what every CSV of a run shares (report.c): the header lines that say where and how
 * it was measured and what its statistics mean, and the formatting of a figure. Each kind of
 * run writes its own rows with them (run_kind.h); these only format.
 */
#ifndef ECSB_REPORT_H
#define ECSB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collection.h"

/* What the build recorded (the Makefile's -D flags, given to the files that name them: this
 * one alone, so that a new commit rebuilds it alone): the commit, the flags, what -march=native
 * resolved to; "unknown" where none was given. */
const char *report_commit(void);
const char *report_cflags(void);
const char *report_march(void);
/* The CPU's model name from /proc/cpuinfo ("unknown" where it says none). */
void report_cpu_model(char *buf, size_t len);

/* The lines every CSV of a run starts with: commit, date, CPU and pinning, compiler and flags,
 * malloc mode, clock, and what the machine was doing (machine.h; with samples, the samples
 * file's: a line per process too). */
void report_run_header(FILE *f, const struct collection *c, bool samples);
/* The lines that say what a CSV's statistics are: its centre column (median_ns), interval,
 * ratio_to_best and its interval, vs_best and noisy (stats.h), for `processes` processes and
 * rows of `participant`s. */
void report_stats_header(FILE *f, uint32_t processes, const char *participant,
                         const char *centre);
/* "12.5" (fmt applied to v), or "" for a figure that does not exist (has false, or NaN). */
const char *report_figure(char *buf, size_t len, bool has, const char *fmt, double v);

#endif
