/*
 * compare.c: build/ecsbench-compare, what `make compare` and `make repeat` run.
 *
 *   ecsbench-compare [--profiles] OLD.csv NEW.csv [--output VERDICTS.csv]
 *       Per row in both: NEW/OLD of the median with a 95% interval (the two runs are
 *       independent: each row's interval gives its standard error on a log scale, Welch's
 *       degrees of freedom), and a verdict: faster or slower when the interval excludes 1,
 *       same when it lies within +-5%, undecided otherwise. The whole machine can run slower
 *       or faster from one run to the next (another tenant, another state of the host): the
 *       drift is estimated as the median NEW/OLD over every row in common (and over the floor
 *       rows alone), and the verdicts are given again with it divided out, so that a machine
 *       10% slower is named as such rather than reported as hundreds of regressions. Files of
 *       different profiles, or with no row in common, are refused (exit 2).
 *       --profiles compares two profiles of one run set instead (A against AAA, as Vigier's
 *       posts do): rows are matched without the profile, and the output says that the drift
 *       then measures the profiles' difference, not the machine's.
 *       Two runs of one scenario (build/ecsbench --scenario) compare the same way, a row per
 *       participant and phase (and point of a sweep), the drift over all of them; a scenario's
 *       CSV against a workload run's, or two scenarios, are refused.
 *
 *   ecsbench-compare --repeat RUN1.csv RUN2.csv
 *       The repeatability of one command run twice (make repeat), from the raw samples beside
 *       each CSV: (a) the pairs of backends of a row group that either run calls different
 *       (their paired ratio's interval excludes 1), and how many of them swap order in the
 *       other run; (b) coverage: the share of run 2's pair ratios inside run 1's 95% interval,
 *       for the intervals ecsbench writes and for a hierarchical bootstrap; (c) the share of
 *       rows whose medians agree within 5%. Beside them, what the two runs' machine states say
 *       (machine.h): coverage between runs of two sessions is only as good as the machine's
 *       states agree, and --repeat between any two runs names the difference.
 *
 *   ecsbench-compare --machine OLD.csv NEW.csv [--brief]
 *       The machine-state comparison alone (make compare and --repeat print it too): exit 1 when
 *       the states differ, 0 otherwise; --brief: one short line, for a figure's title.
 *
 * Exit status: 0; 1 --machine: the states differ; 2 bad usage or files that cannot be compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "../core/machine.h"
#include "../core/stats.h"

#define SAME_MARGIN 0.05 /* "same": the interval lies within +-5% */
#define BOOTSTRAP_RESAMPLES 2000

static void usage(void)
{
	fprintf(stderr, "usage: ecsbench-compare [--profiles] OLD.csv NEW.csv [--output VERDICTS.csv]\n"
	                "       ecsbench-compare --repeat RUN1.csv RUN2.csv\n"
	                "       ecsbench-compare --machine OLD.csv NEW.csv [--brief]\n"
	                "       ecsbench-compare --stats RUN.csv\n");
	exit(2);
}

static void load(const char *path, bool samples, struct csv_file *f)
{
	char err[512];
	if (csv_read(path, samples, f, err, sizeof err)) {
		fprintf(stderr, "ecsbench-compare: %s\n", err);
		exit(2);
	}
	if (f->count == 0) {
		fprintf(stderr, "ecsbench-compare: %s has no rows\n", path);
		exit(2);
	}
}

static bool same_profile(const struct csv_file *a, const struct csv_file *b)
{
	return strcmp(a->rows[0].profile, b->rows[0].profile) == 0;
}

/* Both files must measure the same profile: rows of A and AAA are different cases, unless the
 * comparison is of the profiles themselves (--profiles, which compare_main handles); two
 * scenarios' CSVs, the same scenario. */
static void check_profiles(const struct csv_file *a, const struct csv_file *b)
{
	if (a->scenario != b->scenario) {
		fprintf(stderr,
		        "ecsbench-compare: %s is %s and %s %s: their rows measure different things\n",
		        a->path, a->scenario ? "a scenario's CSV" : "a run of the workloads", b->path,
		        b->scenario ? "a scenario's" : "a run of the workloads'");
		exit(2);
	}
	if (a->scenario && !same_profile(a, b)) {
		fprintf(stderr,
		        "ecsbench-compare: %s is scenario %s and %s scenario %s: their rows measure "
		        "different things\n",
		        a->path, a->rows[0].profile, b->path, b->rows[0].profile);
		exit(2);
	}
	if (!same_profile(a, b)) {
		fprintf(stderr,
		        "ecsbench-compare: %s is profile %s and %s profile %s: their rows measure "
		        "different things; to compare the profiles themselves, add --profiles "
		        "(make compare ... PROFILES=1)\n",
		        a->path, a->rows[0].profile, b->path, b->rows[0].profile);
		exit(2);
	}
}

/* The standard error of log(median) from a row's 95% interval, and its degrees of freedom. The
 * interval is symmetric on a log scale (around the median_ns of the file, or, in a file of an
 * older ecsbench, around the log medians' mean it was built from): half its log width. */
static bool log_se(const struct csv_row *r, double *se, double *df)
{
	if (isnan(r->ci_high) || isnan(r->ci_low) || r->ci_low <= 0 || r->ci_high <= 0)
		return false;
	*df = r->processes >= 2 ? r->processes - 1 : r->reps >= 2 ? r->reps - 1 : 0;
	if (*df < 1)
		return false;
	*se = log(r->ci_high / r->ci_low) / 2 / t975(*df);
	return true;
}

static const char *verdict(double low, double high)
{
	if (high < 1)
		return "faster";
	if (low > 1)
		return "slower";
	if (low >= 1 - SAME_MARGIN && high <= 1 + SAME_MARGIN)
		return "same";
	return "undecided";
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double quantile(double *v, uint32_t n, double q)
{
	qsort(v, n, sizeof *v, compare_double);
	return v[(uint32_t)(q * (n - 1) + 0.5)];
}

struct pairing {
	const struct csv_row *old, *new_;
	double log_ratio, half;
	bool has_interval;
};

/* The workload of a row as the report prints it: "parallel-iterate T=2" for a workload that f
 * has at more than one thread count T (a threaded workload's rows differ by T alone). */
static void row_label(const struct csv_file *f, const struct csv_row *r, char *buf, size_t len)
{
	bool threaded = false;
	for (uint32_t i = 0; i < f->count && !threaded; i++)
		threaded = f->rows[i].threads != r->threads && strcmp(f->rows[i].workload, r->workload) == 0;
	if (threaded)
		snprintf(buf, len, "%s T=%u", r->workload, r->threads);
	else
		snprintf(buf, len, "%s", r->workload);
}

static int compare_main(const char *old_path, const char *new_path, const char *out_path,
                        bool profiles)
{
	struct csv_file old, new_;
	load(old_path, false, &old);
	load(new_path, false, &new_);
	if (profiles && (old.scenario || new_.scenario)) {
		fprintf(stderr, "ecsbench-compare: --profiles compares two profiles of a run of the "
		                "workloads, not scenarios\n");
		exit(2);
	}
	if (!profiles)
		check_profiles(&old, &new_);
	/* With --profiles the median ratio is the price of the larger profile, not the machine's
	 * state: every line that names the drift says so. */
	const char *old_profile = old.rows[0].profile, *new_profile = new_.rows[0].profile;
	char drift_is[320] = "";
	if (profiles)
		snprintf(drift_is, sizeof drift_is,
		         "profile %s against profile %s: the drift measures the profiles' difference, not "
		         "the machine's",
		         new_profile, old_profile);
	for (int i = 0; i < 2; i++) {
		const struct csv_file *f = i ? &new_ : &old;
		if (!f->has_ci) {
			fprintf(stderr,
			        "ecsbench-compare: %s has no intervals (ci_low_ns, ci_high_ns): it was "
			        "written by an older ecsbench; run it again to compare\n",
			        f->path);
			exit(2);
		}
	}
	struct pairing *pairs = calloc(new_.count, sizeof *pairs);
	double *logs = calloc(new_.count + 1, sizeof *logs), *floors = calloc(new_.count + 1, sizeof *floors);
	if (!pairs || !logs || !floors) {
		fprintf(stderr, "ecsbench-compare: out of memory\n");
		return 2;
	}
	uint32_t n = 0, nl = 0, nf = 0;
	for (uint32_t i = 0; i < new_.count; i++) {
		const struct csv_row *o = csv_find(&old, &new_.rows[i]);
		if (!o || o->median <= 0 || new_.rows[i].median <= 0)
			continue;
		struct pairing *p = &pairs[n++];
		p->old = o;
		p->new_ = &new_.rows[i];
		p->log_ratio = log(p->new_->median / o->median);
		double se_o, df_o, se_n, df_n;
		if (log_se(o, &se_o, &df_o) && log_se(p->new_, &se_n, &df_n)) {
			double v = se_o * se_o + se_n * se_n;
			double df = v * v / (pow(se_o, 4) / df_o + pow(se_n, 4) / df_n);
			p->half = t975(df < 1 ? 1 : df) * sqrt(v);
			p->has_interval = true;
		}
		logs[nl++] = p->log_ratio;
		if (strcmp(p->new_->backend, "floor") == 0)
			floors[nf++] = p->log_ratio;
	}
	if (n == 0) {
		fprintf(stderr, "ecsbench-compare: %s and %s have no row in common\n", old_path,
		        new_path);
		return 2;
	}
	double drift = quantile(logs, nl, 0.5), q1 = quantile(logs, nl, 0.25),
	       q3 = quantile(logs, nl, 0.75);
	/*
	 * Rows also move between two runs on their own, beyond the drift and beyond their own
	 * intervals: the machine's state changes what a run costs unevenly (a memory-bound row more
	 * than a compute-bound one), and each run's interval sees only its own processes. That
	 * between-run spread is estimated from the rows themselves, robustly (most rows of two runs
	 * did not change): the median absolute deviation of the drift-adjusted log ratios, scaled
	 * to a standard deviation, less the part the rows' own standard errors explain. The
	 * verdicts without drift add it to each row's uncertainty (a random effect per row).
	 */
	double between = 0;
	{
		double *dev = calloc(n + 1, sizeof *dev), *se2 = calloc(n + 1, sizeof *se2);
		uint32_t m = 0;
		for (uint32_t i = 0; i < n && dev && se2; i++)
			if (pairs[i].has_interval) {
				dev[m] = fabs(pairs[i].log_ratio - drift);
				se2[m++] = pow(pairs[i].half / 1.96, 2);
			}
		if (m >= 8) {
			double mad = 1.4826 * quantile(dev, m, 0.5), own = quantile(se2, m, 0.5);
			between = mad * mad > own ? sqrt(mad * mad - own) : 0;
		}
		free(dev);
		free(se2);
	}
	FILE *out = NULL;
	if (out_path && !(out = fopen(out_path, "w"))) {
		fprintf(stderr, "ecsbench-compare: cannot write %s\n", out_path);
		return 2;
	}
	printf("OLD %s (commit %s, %s)\nNEW %s (commit %s, %s)\n", old_path, old.commit, old.date,
	       new_path, new_.commit, new_.date);
	char machine[400];
	machine_compare_print(stdout, old_path, new_path, &old, &new_, machine, sizeof machine);
	if (profiles)
		printf("Profiles: rows matched without the profile, %s.\n", drift_is);
	if (new_.scenario)
		printf("Scenario %s: a row per participant and phase (frame: the whole frame), ns per "
		       "frame; entities: at the start.\n",
		       new_.rows[0].profile);
	printf("\n");
	printf("%-10s %-30s %8s %2s %13s %13s %22s  %-9s %s\n", "backend",
	       new_.scenario ? "phase" : "workload", "entities", "k",
	       new_.scenario ? "old ns/frame" : "old ns/run", new_.scenario ? "new ns/frame" : "new ns/run",
	       "new/old [95% interval]", "verdict", "without drift");
	if (out) {
		fprintf(out, "# ecsbench-compare OLD %s (commit %s, %s) NEW %s (commit %s, %s)\n"
		             "# drift %.4f (median new/old over %u rows)\n# machine %s\n",
		        old_path, old.commit, old.date, new_path, new_.commit, new_.date, exp(drift), nl,
		        machine);
		if (profiles)
			fprintf(out, "# profiles OLD %s NEW %s: rows matched without the profile; %s\n",
			        old_profile, new_profile, drift_is);
		fprintf(out, "backend,profile,workload,entities,components,old_ns,old_low,old_high,new_ns,"
		             "new_low,new_high,ratio,ratio_low,ratio_high,verdict,verdict_without_drift,"
		             "threads\n");
	}
	unsigned counts[2][4] = {{0}};
	static const char *kinds[4] = {"faster", "slower", "same", "undecided"};
	for (uint32_t i = 0; i < n; i++) {
		const struct pairing *p = &pairs[i];
		double r = exp(p->log_ratio), lo = NAN, hi = NAN;
		const char *raw = "undecided", *adjusted = "undecided";
		if (p->has_interval) {
			lo = exp(p->log_ratio - p->half);
			hi = exp(p->log_ratio + p->half);
			raw = verdict(lo, hi);
			double half = sqrt(p->half * p->half + pow(1.96 * between, 2));
			adjusted = verdict(exp(p->log_ratio - drift - half), exp(p->log_ratio - drift + half));
		}
		for (int k = 0; k < 4; k++) {
			counts[0][k] += strcmp(raw, kinds[k]) == 0;
			counts[1][k] += strcmp(adjusted, kinds[k]) == 0;
		}
		char interval[40] = "";
		if (p->has_interval)
			snprintf(interval, sizeof interval, "%.3f [%.3f, %.3f]", r, lo, hi);
		else
			snprintf(interval, sizeof interval, "%.3f [no interval]", r);
		char label[96];
		row_label(&new_, p->new_, label, sizeof label);
		printf("%-10s %-30s %8u %2u %13.1f %13.1f %22s  %-9s %s\n", p->new_->backend, label,
		       p->new_->entities, p->new_->components, p->old->median, p->new_->median, interval,
		       raw, adjusted);
		if (out)
			fprintf(out, "%s,%s,%s,%u,%u,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.4f,%.4f,%.4f,%s,%s,%u\n",
			        p->new_->backend, p->new_->profile, p->new_->workload, p->new_->entities,
			        p->new_->components, p->old->median, p->old->ci_low, p->old->ci_high,
			        p->new_->median, p->new_->ci_low, p->new_->ci_high, r, lo, hi, raw,
			        adjusted, p->new_->threads);
	}
	unsigned only_old = 0, only_new = new_.count - n;
	for (uint32_t i = 0; i < old.count; i++)
		only_old += csv_find(&new_, &old.rows[i]) == NULL;
	printf("\n%u rows compared; %u only in OLD, %u only in NEW\n", n, only_old, only_new);
	printf("Drift%s: NEW ran at %.3fx OLD's times, the median over the %u rows in common (half "
	       "of them between %.3fx and %.3fx)",
	       profiles ? " (the profiles' difference, not the machine's)" : "", exp(drift), nl, exp(q1),
	       exp(q3));
	if (nf)
		printf("; the floor rows alone: %.3fx", exp(quantile(floors, nf, 0.5)));
	printf(".\n");
	printf("Between the runs, rows also moved by about +-%.1f%% (one standard deviation) on their "
	       "own, beyond the drift and their intervals; the verdicts without drift allow for it.\n",
	       100 * (exp(between) - 1));
	if (profiles)
		printf("Profile %s ran %.0f%% %s than profile %s in the median row: the verdicts say "
		       "what the profile costs each row; without drift, which rows pay more or less than "
		       "the median row.\n",
		       new_profile, 100 * fabs(exp(drift) - 1), drift > 0 ? "slower" : "faster",
		       old_profile);
	else if (fabs(drift) > log(1 + SAME_MARGIN))
		printf("The machine itself ran %.0f%% %s the second time: read the verdicts without "
		       "drift.\n",
		       100 * fabs(exp(drift) - 1), drift > 0 ? "slower" : "faster");
	for (int a = 0; a < 2; a++)
		printf("Verdicts%s: %u faster, %u slower, %u same (within +-5%%), %u undecided\n",
		       a ? (profiles ? " with the median profile difference divided out"
		                     : " with the drift divided out")
		         : "",
		       counts[a][0], counts[a][1], counts[a][2], counts[a][3]);
	/* Geometric mean per backend. */
	printf("\nGeometric mean of new/old per backend:");
	for (uint32_t i = 0; i < n; i++) {
		bool first = true;
		for (uint32_t j = 0; j < i; j++)
			first = first && strcmp(pairs[j].new_->backend, pairs[i].new_->backend) != 0;
		if (!first)
			continue;
		double sum = 0;
		unsigned m = 0;
		for (uint32_t j = i; j < n; j++)
			if (strcmp(pairs[j].new_->backend, pairs[i].new_->backend) == 0) {
				sum += pairs[j].log_ratio;
				m++;
			}
		printf(" %s %.3f", pairs[i].new_->backend, exp(sum / m));
	}
	printf("\n");
	if (out)
		fclose(out);
	free(pairs);
	free(logs);
	free(floors);
	csv_free(&old);
	csv_free(&new_);
	return 0;
}

/* --- statistics from the samples: make repeat and --stats --------------------------------- */

/* The rows of f's row group that starts at row i (rows of a group are written together), and
 * whether row i starts one. */
static uint32_t group_end(const struct csv_file *f, uint32_t i)
{
	uint32_t j = i + 1;
	while (j < f->count && csv_same_group(&f->rows[i], &f->rows[j]))
		j++;
	return j;
}

static bool is_floor(const struct csv_row *r)
{
	return strcmp(r->backend, "floor") == 0;
}

/* The processes two rows of one group share (their samples are processes x reps each). */
static uint32_t shared_processes(const struct csv_row *x, const struct csv_row *y)
{
	return x->processes < y->processes ? x->processes : y->processes;
}

/* A row's samples as `processes` x `reps` (reps >= its own), NaN where it has none: for the
 * statistics that pair by round, which need both rows laid out alike. */
static double *padded(const struct csv_row *r, uint32_t processes, uint32_t reps)
{
	double *v = malloc(((size_t)processes * reps + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (uint32_t p = 0; p < processes; p++)
		for (uint32_t q = 0; q < reps; q++)
			v[(size_t)p * reps + q] =
				q < r->reps ? r->samples[(size_t)p * r->reps + q] : NAN;
	return v;
}

struct pair_figures {
	bool ok, rounds_ok, boot_ok;
	struct stats_ratio ratio;   /* ecsbench's: the ratio of centres, paired by process */
	double rounds, rounds_low, rounds_high; /* paired by process and round (ecsbench before) */
	double boot_low, boot_high; /* the hierarchical bootstrap's, paired by process and round */
};

static void pair_of(const struct csv_row *x, const struct csv_row *y, uint64_t seed,
                    struct pair_figures *f)
{
	memset(f, 0, sizeof *f);
	if (!x->samples || !y->samples)
		return;
	uint32_t processes = shared_processes(x, y), reps = x->reps > y->reps ? x->reps : y->reps;
	f->ok = stats_ratio(x->samples, x->reps, y->samples, y->reps, processes, 0.95, &f->ratio) &&
	        f->ratio.has_interval;
	double *px = padded(x, processes, reps), *py = padded(y, processes, reps);
	if (px && py) {
		f->rounds_ok = stats_ratio_rounds(px, py, processes, reps, &f->rounds, &f->rounds_low,
		                                  &f->rounds_high) &&
		               f->rounds_high > f->rounds_low;
		f->boot_ok = stats_bootstrap_ratio(px, py, processes, reps, BOOTSTRAP_RESAMPLES, seed,
		                                   &f->boot_low, &f->boot_high);
	}
	free(px);
	free(py);
}

static bool inside(double v, double low, double high)
{
	return v >= low && v <= high;
}

static int repeat_main(const char *path1, const char *path2)
{
	struct csv_file a, b;
	load(path1, true, &a);
	load(path2, true, &b);
	check_profiles(&a, &b);
	unsigned pairs = 0, called = 0, swapped = 0, covered = 0, rounds_covered = 0,
	         boot_covered = 0, rows = 0, agree = 0, row_covered = 0, called_both = 0,
	         swaps_both = 0, uneven = 0, missing = 0, rounds_missing = 0;
	double width_sum = 0, rounds_width_sum = 0, boot_width_sum = 0;
	static char swap_text[16384], missing_text[4096];
	size_t swap_len = 0, missing_len = 0;
	swap_text[0] = missing_text[0] = '\0';
	uint64_t seed = 1;
	for (uint32_t i = 0; i < a.count; i++) {
		const struct csv_row *x1 = &a.rows[i], *x2 = csv_find(&b, x1);
		if (!x2)
			continue;
		rows++;
		/* Each run's row as ecsbench computes it now, from its samples. */
		struct row_stats s1, s2;
		stats_row(x1->samples, x1->processes, x1->reps, &s1);
		stats_row(x2->samples, x2->processes, x2->reps, &s2);
		agree += s1.centre > 0 && fabs(s2.centre / s1.centre - 1) <= 0.05;
		row_covered += s1.has_interval && inside(s2.centre, s1.ci_low, s1.ci_high);
		if (is_floor(x1))
			continue;
		for (uint32_t j = i + 1; j < a.count; j++) {
			const struct csv_row *y1 = &a.rows[j];
			if (!csv_same_group(x1, y1) || is_floor(y1))
				continue;
			const struct csv_row *y2 = csv_find(&b, y1);
			if (!y2)
				continue;
			/* Every pair counts, whatever its rows' samples per process: a long run's one
			 * sample per process against another's three is paired by process. */
			pairs++;
			uneven += x1->reps != y1->reps || x2->reps != y2->reps;
			struct pair_figures f1, f2;
			pair_of(x1, y1, seed, &f1);
			pair_of(x2, y2, seed + 1, &f2);
			seed += 2;
			if (f1.rounds_ok && f2.rounds_ok) {
				rounds_covered += inside(f2.rounds, f1.rounds_low, f1.rounds_high);
				rounds_width_sum += log(f1.rounds_high / f1.rounds_low);
			} else
				rounds_missing++;
			if (f1.boot_ok && f2.rounds_ok) {
				boot_covered += inside(f2.rounds, f1.boot_low, f1.boot_high);
				boot_width_sum += log(f1.boot_high / f1.boot_low);
			}
			if (!f1.ok || !f2.ok) {
				/* No interval in a run (fewer than two processes in common): not covered. */
				char line[200];
				int len = snprintf(line, sizeof line, "    %s N=%u k=%u: %s/%s\n", x1->workload,
				                   x1->entities, x1->components, x1->backend, y1->backend);
				if (len > 0 && missing_len + (size_t)len < sizeof missing_text) {
					memcpy(missing_text + missing_len, line, (size_t)len + 1);
					missing_len += (size_t)len;
				}
				missing++;
				continue;
			}
			const struct stats_ratio *r1 = &f1.ratio, *r2 = &f2.ratio;
			bool c1 = r1->low > 1 || r1->high < 1, c2 = r2->low > 1 || r2->high < 1;
			if ((c1 || c2) && (r1->ratio > 1) != (r2->ratio > 1)) {
				/* Each swap named, with both runs' figures: a swap that both runs call
				 * is a contradiction, one that a run calls a tie is a near miss. */
				bool both = c1 && c2;
				char swap[320];
				snprintf(swap, sizeof swap,
				         "    %s N=%u k=%u: %s/%s %.3f [%.3f, %.3f] in run 1, %.3f [%.3f, %.3f] "
				         "in run 2%s\n",
				         x1->workload, x1->entities, x1->components, x1->backend, y1->backend,
				         r1->ratio, r1->low, r1->high, r2->ratio, r2->low, r2->high,
				         both ? " (both runs call it: a contradiction)" : "");
				swaps_both += both;
				if (swap_len + strlen(swap) < sizeof swap_text) {
					memcpy(swap_text + swap_len, swap, strlen(swap) + 1);
					swap_len += strlen(swap);
				}
				swapped++;
			}
			called += c1 || c2;
			called_both += c1 && c2;
			covered += inside(r2->ratio, r1->low, r1->high);
			width_sum += log(r1->high / r1->low);
		}
	}
	if (rows == 0 || pairs == 0) {
		fprintf(stderr, "ecsbench-compare: %s and %s have no pair of backends in common\n", path1,
		        path2);
		return 2;
	}
	unsigned with = pairs - missing, rounds_with = pairs - rounds_missing;
	printf("Repeatability of %s (commit %s, %s) and %s (%s)\n", path1, a.commit, a.date, path2,
	       b.date);
	/* Coverage between runs of two sessions depends on the state each met: said beside it. */
	machine_compare_print(stdout, path1, path2, &a, &b, NULL, 0);
	printf("Every statistic below is computed from the raw samples beside each CSV, as ecsbench "
	       "computes them now (docs/method.md).\n");
	printf("(a) %u of %u pairs of backends of a row group are called different by either run "
	       "(their 95%% interval excludes 1; %u by both); %u of them swap order in the other run "
	       "(%u called by both runs)%s\n%s",
	       called, pairs, called_both, swapped, swaps_both, swapped ? ":" : "", swap_text);
	printf("(b) coverage: %u of %u (%.1f%%) of run 2's pair ratios fall inside run 1's 95%% "
	       "interval (mean width %.1f%%), counting every pair of backends of a row group that "
	       "both runs measured (%u of them with rows of different samples per process, a long "
	       "run's one against three: paired by process all the same)",
	       covered, pairs, 100.0 * covered / pairs,
	       with ? 100 * (exp(width_sum / with) - 1) : 0.0, uneven);
	if (missing)
		printf("; %u pairs have no interval in a run (fewer than two processes in common) and "
		       "count as not covered:\n%s",
		       missing, missing_text);
	else
		printf("\n");
	printf("    paired by process and round instead (how ecsbench paired before): %u (%.1f%%, "
	       "mean width %.1f%%); with a hierarchical bootstrap's interval: %u (%.1f%%, mean width "
	       "%.1f%%); both counted over the same %u pairs%s\n",
	       rounds_covered, 100.0 * rounds_covered / pairs,
	       rounds_with ? 100 * (exp(rounds_width_sum / rounds_with) - 1) : 0.0, boot_covered,
	       100.0 * boot_covered / pairs,
	       rounds_with ? 100 * (exp(boot_width_sum / rounds_with) - 1) : 0.0, pairs,
	       rounds_missing ? ", those without a figure as not covered" : "");
	printf("(c) %u of %u rows (%.1f%%) have centres (median_ns) within 5%% of each other; %u "
	       "(%.1f%%) of run 2's fall inside run 1's interval\n",
	       agree, rows, 100.0 * agree / rows, row_covered, 100.0 * row_covered / rows);
	csv_free(&a);
	csv_free(&b);
	return 0;
}

/* "12.5" (fmt applied to v), or "" for a figure that does not exist. */
static const char *figure(char *buf, size_t len, bool has, const char *fmt, double v)
{
	if (!has || isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

/* The name of the backend a row is a copy of: "sparse~2" -> "sparse" (build/ecsbench --twin). */
static size_t base_length(const char *name)
{
	return strcspn(name, "~");
}

/*
 * --stats RUN.csv: every row's statistics computed again from RUN-samples.csv, as ecsbench
 * writes them now: a line per row, with the file's own figures beside them, then what they
 * add up to. Offline: a run written by an older ecsbench reads as if written today, and a
 * synthetic samples file (tests/stats.sh) exercises the statistics without timing anything.
 * A run with copies of a backend (--twin) gets the A/A count: copies are the same code, so a
 * copy called slower than the best that is its own copy is a false call.
 */
static int stats_main(const char *path)
{
	struct csv_file f;
	load(path, true, &f);
	struct stats_member *m = calloc(f.count + 1, sizeof *m);
	if (!m) {
		fprintf(stderr, "ecsbench-compare: out of memory\n");
		return 2;
	}
	printf("# ecsbench-compare --stats %s (commit %s, %s): each row's statistics computed again "
	       "from its samples; file_*: what the file says\n",
	       path, f.commit, f.date);
	printf("backend,workload,entities,components,threads,processes,reps,median_ns,ci_low_ns,"
	       "ci_high_ns,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best,noisy,file_median_ns,"
	       "file_noisy\n");
	unsigned groups = 0, rows = 0, best = 0, slower = 0, tied = 0, below = 0, noisy = 0,
	         others = 0, others_noisy = 0, file_noisy = 0, aa_groups = 0, aa_false = 0,
	         aa_copies = 0, aa_copies_false = 0, aa_false_plain = 0, pooled_differs = 0,
	         slower_plain = 0;
	for (uint32_t i = 0; i < f.count;) {
		uint32_t end = group_end(&f, i), n = end - i, processes = 0;
		for (uint32_t k = 0; k < n; k++) {
			const struct csv_row *r = &f.rows[i + k];
			processes = r->processes > processes ? r->processes : processes;
			m[k].samples = r->samples;
			m[k].reps = r->reps;
			m[k].candidate = !is_floor(r);
		}
		/* A row measured in fewer processes than its group (it cannot be, in a run that
		 * ended well) reads as missing the last ones. */
		double **held = calloc(n, sizeof *held);
		for (uint32_t k = 0; k < n && held; k++)
			if (f.rows[i + k].processes < processes) {
				held[k] = padded(&f.rows[i + k], processes, f.rows[i + k].reps);
				if (held[k]) {
					for (uint32_t p = f.rows[i + k].processes; p < processes; p++)
						for (uint32_t q = 0; q < f.rows[i + k].reps; q++)
							held[k][(size_t)p * f.rows[i + k].reps + q] = NAN;
					m[k].samples = held[k];
				}
			}
		int b = stats_group(m, n, processes);
		groups += b >= 0;
		/* The best by the pooled median of all samples, as ecsbench chose before. */
		int pooled = -1;
		double pooled_best = 0;
		for (uint32_t k = 0; k < n; k++) {
			const struct csv_row *r = &f.rows[i + k];
			if (is_floor(r) || r->median <= 0)
				continue;
			if (pooled < 0 || r->median < pooled_best) {
				pooled = (int)k;
				pooled_best = r->median;
			}
		}
		pooled_differs += b >= 0 && pooled >= 0 && pooled != b;
		for (uint32_t k = 0; k < n; k++) {
			const struct csv_row *r = &f.rows[i + k];
			const struct stats_member *x = &m[k];
			char lo[32], hi[32], rb[32], rl[32], rh[32];
			printf("%s,%s,%u,%u,%u,%u,%u,%.1f,%s,%s,%s,%s,%s,%s,%d,%.1f,%d\n", r->backend,
			       r->workload, r->entities, r->components, r->threads, x->row.processes,
			       r->reps, x->row.centre,
			       figure(lo, sizeof lo, x->row.has_interval, "%.1f", x->row.ci_low),
			       figure(hi, sizeof hi, x->row.has_interval, "%.1f", x->row.ci_high),
			       figure(rb, sizeof rb, x->has_ratio, "%.4f", x->vs_best.ratio),
			       figure(rl, sizeof rl, x->has_ratio && x->vs_best.has_interval, "%.4f",
			                     x->vs_best.low),
			       figure(rh, sizeof rh, x->has_ratio && x->vs_best.has_interval, "%.4f",
			                     x->vs_best.high),
			       x->verdict, x->noisy, r->median, r->noisy);
			file_noisy += r->noisy;
			if (!x->has_ratio)
				continue;
			rows++;
			best += strcmp(x->verdict, "best") == 0;
			slower += strcmp(x->verdict, "slower") == 0;
			tied += strcmp(x->verdict, "tied") == 0;
			below += x->vs_best.ratio < 1;
			noisy += x->noisy;
			if ((int)k != b) {
				others++;
				others_noisy += x->noisy;
				/* what the uncorrected 95% interval would call (the correction's cost) */
				struct stats_ratio plain;
				slower_plain += stats_ratio(x->samples, x->reps, m[b].samples, m[b].reps,
				                            processes, 0.95, &plain) &&
				                plain.has_interval && plain.low > 1;
			}
		}
		/* A/A: the copies of the best's backend, other than the best itself. */
		if (b >= 0) {
			const char *bn = f.rows[i + (uint32_t)b].backend;
			unsigned copies = 0, wrong = 0, wrong_plain = 0;
			for (uint32_t k = 0; k < n; k++) {
				const char *name = f.rows[i + k].backend;
				if ((int)k == b || !m[k].has_ratio || base_length(name) != base_length(bn) ||
				    strncmp(name, bn, base_length(bn)) != 0)
					continue;
				copies++;
				wrong += strcmp(m[k].verdict, "slower") == 0;
				/* the same comparison at 95%, as if the best had been named in advance */
				struct stats_ratio plain;
				wrong_plain += stats_ratio(m[k].samples, m[k].reps, m[b].samples, m[b].reps,
				                           processes, 0.95, &plain) &&
				               plain.has_interval && plain.low > 1;
			}
			aa_groups += copies > 0;
			aa_false += wrong > 0;
			aa_false_plain += wrong_plain > 0;
			aa_copies += copies;
			aa_copies_false += wrong;
		}
		for (uint32_t k = 0; k < n && held; k++)
			free(held[k]);
		free(held);
		i = end;
	}
	printf("# %u groups, %u backend rows: %u best, %u slower, %u tied; ratio_to_best below 1: "
	       "%u; slower without the correction for choosing the best (each at 95%%): %u\n",
	       groups, rows, best, slower, tied, below, slower_plain);
	printf("# noisy: %u of the %u backend rows (%.1f%%); %u of the %u that are not the best "
	       "(%.1f%%); the file flags %u of its %u rows\n",
	       noisy, rows, rows ? 100.0 * noisy / rows : 0.0, others_noisy, others,
	       others ? 100.0 * others_noisy / others : 0.0, file_noisy, f.count);
	printf("# the best by the pooled median of all samples (ecsbench before) is another row in "
	       "%u of the %u groups\n",
	       pooled_differs, groups);
	if (aa_groups)
		printf("# A/A (copies of one backend, --twin): %u groups whose best has a copy; in %u of "
		       "them (%.1f%%) a copy is called slower than the best, a false call; %u of the %u "
		       "copies (%.1f%%); without the correction for choosing the best (each comparison "
		       "at 95%%): %u groups (%.1f%%)\n",
		       aa_groups, aa_false, 100.0 * aa_false / aa_groups, aa_copies_false, aa_copies,
		       100.0 * aa_copies_false / aa_copies, aa_false_plain,
		       100.0 * aa_false_plain / aa_groups);
	free(m);
	csv_free(&f);
	return 0;
}

/* --machine OLD NEW: what the two runs' machine states say (machine.h), alone: for the report
 * and the figures of runs drawn together. Exit 0 agrees or unknown, 1 differs. */
static int machine_main(const char *old_path, const char *new_path, bool brief)
{
	/* The rows are only for the floors: a file whose rows this reader does not know (a scenario
	 * run's) still has its machine lines. */
	struct csv_file old, new_;
	char err[512];
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(i ? new_path : old_path, "r");
		if (!f) {
			fprintf(stderr, "ecsbench-compare: cannot read %s\n", i ? new_path : old_path);
			exit(2);
		}
		fclose(f);
	}
	bool has_old = csv_read(old_path, false, &old, err, sizeof err) == 0,
	     has_new = csv_read(new_path, false, &new_, err, sizeof err) == 0;
	char text[400];
	int differ = machine_compare_print(brief ? NULL : stdout, old_path, new_path,
	                                   has_old ? &old : NULL, has_new ? &new_ : NULL, text,
	                                   sizeof text);
	if (brief)
		printf("%s\n", text);
	if (has_old)
		csv_free(&old);
	if (has_new)
		csv_free(&new_);
	return differ == 1;
}

int main(int argc, char **argv)
{
	if ((argc == 4 || (argc == 5 && strcmp(argv[4], "--brief") == 0)) &&
	    strcmp(argv[1], "--machine") == 0)
		return machine_main(argv[2], argv[3], argc == 5);
	if (argc == 4 && strcmp(argv[1], "--repeat") == 0)
		return repeat_main(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--stats") == 0)
		return stats_main(argv[2]);
	/* [--profiles] OLD NEW [--output FILE], the options anywhere */
	const char *paths[2] = {NULL, NULL}, *out_path = NULL;
	bool profiles = false;
	int npaths = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--profiles") == 0 && !profiles)
			profiles = true;
		else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc && !out_path)
			out_path = argv[++i];
		else if (argv[i][0] != '-' && npaths < 2)
			paths[npaths++] = argv[i];
		else
			usage();
	}
	if (npaths != 2)
		usage();
	return compare_main(paths[0], paths[1], out_path, profiles);
}
