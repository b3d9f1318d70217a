/*
 * stats.h: the statistics of a row and of a comparison (stats.c). A row's samples come from P
 * separate processes, R timed samples each (ns per run of the workload). Samples inside one
 * process agree far better than separate processes do (heap and address layout, calibration,
 * the machine's state), so a row's uncertainty is measured across processes.
 *
 * One estimator throughout, on a log scale (times compare as ratios). A row's **units** are its
 * processes (P >= 2), each valued at the median over its rounds of log(sample); with a single
 * process, its rounds, each valued at log(sample). A row's centre (the CSV's median_ns) is
 * exp(mean of its units' values), and its 95% interval is Student's t over those values,
 * centred on the same mean. The ratio of two rows is the ratio of their centres, with Student's
 * t interval over the per-unit differences of the units both have (samples paired by process):
 * when both have the same units, that mean difference is exactly the log of the ratio of the
 * centres. So ratios are transitive, the best of a row group is the row with the lowest centre,
 * and every ratio to it is >= 1 by construction (docs/method.md).
 */
#ifndef ECSB_STATS_H
#define ECSB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A row is noisy when this run cannot place it against the best of its group: its ratio to the
 * best is undecided (tied) and the ratio's interval reaches beyond this (docs/method.md). */
#define STATS_NOISY_RATIO 1.10

/*
 * How far an estimate moves between two runs of the same command beyond what their own
 * intervals explain: one standard deviation of the log difference between two runs' estimates,
 * less their sampling variance. One run cannot see it (each process of a run shares the run's
 * calibration, its heap's history, the machine's state of that hour); make repeat measures it
 * (build/ecsbench-compare --repeat, docs/trust.md "A rerun"). These are make bench's default
 * sweep's, raced (issue 41): a row's median_ns, and a ratio of two backends of one group, the
 * larger of what two pairs of default runs of make bench PROFILE=AAA showed on a 2-core AMD EPYC
 * on 2026-11-29 (the term that puts 95% of the second run inside: runs 1 and 2, 0.165 and
 * 0.061; runs 2 and 3, 0.019 and 0.018), rounded up; checked on other pairs of that day's runs
 * (docs/trust.md, "A rerun"). Before the race: 0.21 and 0.115 (an Intel Xeon, 2026-11-28). They
 * are the between-run term of a rerun's prediction interval (stats_rerun) and of make compare's
 * verdicts.
 */
#define STATS_RERUN_ROW_SD 0.17
#define STATS_RERUN_RATIO_SD 0.065
/* A backend's rows move together between runs (one allocator, one code layout): its geometric
 * mean over them, against the median row's, moves by this much between two runs of one build
 * (one standard deviation of the log; make compare's figure per backend). */
#define STATS_RERUN_BACKEND_SD 0.03

struct row_stats {
	uint32_t samples;    /* present (not NaN) */
	uint32_t processes;  /* with at least one sample */
	uint32_t units;      /* units with a value: processes (P >= 2) or rounds (one process) */
	double log_centre;   /* the mean of the units' log values */
	double centre;       /* exp(log_centre): the median_ns column; 0 if the row has no
	                        positive sample (and no units) */
	double min, max;
	double mad_pct;      /* within a process: the median over processes of each one's median
	                        absolute deviation, in % of its median */
	bool has_interval;   /* at least two units */
	double ci_low, ci_high; /* centre x exp(-+ t(0.975, units - 1) x sd / sqrt(units)) */
	double log_se;       /* the standard error of log_centre (sd / sqrt(units)) */
	bool across_processes; /* the units are processes (false: the rounds of one process) */
	bool has_spread;
	double spread_pct;   /* standard deviation of the processes' log medians, x 100 (~%) */
	bool has_rerun;      /* a rerun's 95% prediction interval of its centre (stats_rerun with
	                        STATS_RERUN_ROW_SD) */
	double rerun_low, rerun_high;
};

/* samples: P rows of `reps` (process-major), NaN where missing; samples <= 0 count as missing
 * in the units (a log needs a positive time). */
void stats_row(const double *samples, uint32_t processes, uint32_t reps, struct row_stats *out);

/* The ratio x / y of two rows measured in the same processes (each with its own rounds per
 * process): the ratio of their centres, and the t interval at two-sided confidence `level` of
 * the per-unit log differences over the units both have, centred on that ratio. */
struct stats_ratio {
	double ratio;        /* centre(x) / centre(y) */
	bool has_interval;   /* at least two units in common */
	double low, high;
	double log_se;       /* the standard error of the log ratio */
	uint32_t pairs;      /* units in common */
};
bool stats_ratio(const double *x, uint32_t x_reps, const double *y, uint32_t y_reps,
                 uint32_t processes, double level, struct stats_ratio *out);

/*
 * The rows of a row group and their comparison with its best. Candidates (the backends; not
 * the floor, not a scenario's harness row) with a positive centre compete: the best is the one
 * with the lowest centre, and each other candidate's ratio to it has an interval that is part
 * of a simultaneous 95% set: Bonferroni over every pair of the group's K candidates, each
 * interval at two-sided 1 - 0.05 / (K (K - 1) / 2) (stats_group_level). Every pair's interval
 * holds its true ratio, all of them together, in at least 95% of runs, whichever row came out
 * best; the ratios to the best are some of those pairs, so a row as fast as the best is called
 * slower, anywhere in the group, in at most 5% of runs, whatever K. (The best is chosen from
 * the very samples the comparison uses: Bonferroni over its K - 1 comparisons alone protects
 * only the truly fastest, and lets some row of K equal ones be called slower in 8% (K = 5) to
 * 10% (K = 7) of groups: docs/method.md, "The winner's curse".)
 */
struct stats_member {
	/* in */
	const double *samples; /* processes x reps */
	uint32_t reps;
	bool candidate;
	/* out */
	struct row_stats row;
	bool has_ratio;        /* a candidate, and the group has a best */
	struct stats_ratio vs_best;
	const char *verdict;   /* "best", "slower", "tied" (its interval contains 1, or it has
	                          none), or "" (not compared) */
	bool noisy;            /* tied, with an interval that reaches beyond STATS_NOISY_RATIO or
	                          none; the best: another row of its group is noisy */
	bool has_rerun;        /* not the best: a rerun's 95% prediction interval of its ratio to
	                          this best (stats_rerun with STATS_RERUN_RATIO_SD) */
	double rerun_low, rerun_high;
};
/* Returns the index of the best, or -1 if no candidate has a sample. */
int stats_group(struct stats_member *m, uint32_t count, uint32_t processes);

/* A rerun's 95% prediction interval around an estimate (a row's centre, a ratio) with log
 * standard error se on df degrees of freedom, between_sd the between-run term
 * (STATS_RERUN_*): estimate x exp(+- sqrt(2 (t(0.975, df) se)^2 + (1.96 between_sd)^2)); the
 * rerun's own sampling error taken as this run's. False (low, high NaN) where df < 1. */
bool stats_rerun(double estimate, double se, double df, double between_sd, double *low,
                 double *high);

/* The two-sided level of each of a group's comparisons with its best, K candidates: 0.95 for
 * K <= 2, else 1 - 0.05 / (K (K - 1) / 2). Together the group's intervals are 95%. */
double stats_group_level(uint32_t candidates);

/* The same ratio paired by process and round instead (what ecsbench wrote before it paired by
 * process): per process, the median over the rounds both have of log(x / y); their mean and a
 * 95% t interval across processes. For make repeat's comparison of the two (compare.c). */
bool stats_ratio_rounds(const double *x, const double *y, uint32_t processes, uint32_t reps,
                        double *ratio, double *low, double *high);

/* The same ratio's hierarchical bootstrap interval: resample processes, then rounds within them
 * (pairs kept together), B resamples with a fixed seed. */
bool stats_bootstrap_ratio(const double *x, const double *y, uint32_t processes, uint32_t reps,
                           uint32_t resamples, uint64_t seed, double *low, double *high);

/* Student's t: the p-quantile for df > 0 degrees of freedom (p in (0, 1)). */
double stats_t_quantile(double p, double df);
/* Its 97.5th percentile, for df >= 1 (NaN below). */
double stats_t975(double df);

double stats_median(double *v, uint32_t n); /* sorts v */

/* The q-quantile (q in [0, 1]) of v's n values by linear interpolation between order
 * statistics (Hyndman and Fan's type 7, R's and numpy's default): x(1 + (n-1)q), so q = 1 is
 * the maximum and q = 0.5 the median. Sorts v; NaN if n = 0 or q is outside [0, 1]. */
double stats_quantile(double *v, uint32_t n, double q);

/*
 * A tail of a row's samples (frame times): per process, the q-quantile of its rounds (q = 0.95,
 * 0.99; 1 for the maximum); then across processes the same estimator as a row's centre: the
 * geometric mean of the processes' values and Student's t 95% interval of their logs. A process
 * is one unit whatever its rounds (a single process gives a value and no interval: its rounds
 * are not independent draws of its tail). Samples that are NaN or <= 0 are left out.
 */
struct stats_tail {
	uint32_t units;      /* processes with at least one sample */
	double value;        /* exp(mean of log per-process quantiles); NaN without units */
	bool has_interval;   /* at least two units */
	double ci_low, ci_high;
};
void stats_tail(const double *samples, uint32_t processes, uint32_t reps, double q,
                struct stats_tail *out);

/* How many of n values are at least `threshold` (NaN never is): a run's growth frames, from
 * each frame's largest allocation (docs/scenarios.md, "Frame-time tails"). */
uint64_t stats_count_at_least(const double *v, size_t n, double threshold);

#endif
