/*
 * stats.h: the statistics of a row and of a comparison (stats.c). A row's samples come from P
 * separate processes, R timed samples each (ns per run of the workload). Samples inside one
 * process agree far better than separate processes do (heap and address layout, calibration,
 * the machine's state), so a row's uncertainty is measured across processes: each process's
 * median is one observation of the row, and the 95% interval of the row's median follows from
 * how those observations spread (Student's t with P - 1 degrees of freedom, on a log scale:
 * times are ratios of each other). With one process, the interval is within that process only
 * and says so. A hierarchical bootstrap (resample processes, then samples in them) is here too,
 * to compare against (docs/method.md: with a handful of processes it is too narrow).
 */
#ifndef ECSB_STATS_H
#define ECSB_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct row_stats {
	uint32_t samples;    /* present (not NaN) */
	uint32_t processes;  /* with at least one sample */
	double median, min, max;
	double mad_pct;      /* within a process: the median over processes of each one's median
	                        absolute deviation, in % of its median */
	bool has_interval;
	double ci_low, ci_high;
	bool across_processes; /* the interval is across processes (false: within one) */
	bool has_spread;
	double spread_pct;   /* standard deviation of the processes' log medians, x 100 (~%) */
};

/* samples: P rows of R (process-major), NaN where missing. */
void stats_row(const double *samples, uint32_t processes, uint32_t reps, struct row_stats *out);

/* The ratio x / y from samples paired by process and round: per process, the median over its
 * rounds of log(x / y); then their mean and a t interval across processes (within the one
 * process if there is only one). Returns false if no pair exists. */
bool stats_paired_ratio(const double *x, const double *y, uint32_t processes, uint32_t reps,
                        double *ratio, double *low, double *high);

/* The hierarchical bootstrap's percentile interval of the median, B resamples, fixed seed. */
void stats_bootstrap_median(const double *samples, uint32_t processes, uint32_t reps,
                            uint32_t resamples, uint64_t seed, double *low, double *high);

/* The same ratio's hierarchical bootstrap interval: resample processes, then rounds within them
 * (pairs kept together), B resamples with a fixed seed. */
bool stats_bootstrap_ratio(const double *x, const double *y, uint32_t processes, uint32_t reps,
                           uint32_t resamples, uint64_t seed, double *low, double *high);

/* Student's t, 97.5th percentile, for df >= 1. */
double t975(double df);

double stats_median(double *v, uint32_t n); /* sorts v */

#endif
