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
 *       --profiles compares two profiles of one run set instead (A against AAA, as seeds 000
 *       and 003 do): rows are matched without the profile, and the output says that the drift
 *       then measures the profiles' difference, not the machine's.
 *
 *   ecsbench-compare --repeat RUN1.csv RUN2.csv
 *       The repeatability of one command run twice (make repeat), from the raw samples beside
 *       each CSV: (a) the pairs of backends of a row group that either run calls different
 *       (their paired ratio's interval excludes 1), and how many of them swap order in the
 *       other run; (b) coverage: the share of run 2's pair ratios inside run 1's 95% interval,
 *       for the intervals ecsbench writes and for a hierarchical bootstrap; (c) the share of
 *       rows whose medians agree within 5%.
 *
 * Exit status: 0; 2 bad usage or files that cannot be compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "stats.h"

#define SAME_MARGIN 0.05 /* "same": the interval lies within +-5% */
#define BOOTSTRAP_RESAMPLES 2000

static void usage(void)
{
	fprintf(stderr, "usage: ecsbench-compare [--profiles] OLD.csv NEW.csv [--output VERDICTS.csv]\n"
	                "       ecsbench-compare --repeat RUN1.csv RUN2.csv\n");
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
 * comparison is of the profiles themselves (--profiles, which compare_main handles). */
static void check_profiles(const struct csv_file *a, const struct csv_file *b)
{
	if (!same_profile(a, b)) {
		fprintf(stderr,
		        "ecsbench-compare: %s is profile %s and %s profile %s: their rows measure "
		        "different things; to compare the profiles themselves, add --profiles "
		        "(make compare ... PROFILES=1)\n",
		        a->path, a->rows[0].profile, b->path, b->rows[0].profile);
		exit(2);
	}
}

/* The standard error of log(median) from a row's 95% interval, and its degrees of freedom. */
static bool log_se(const struct csv_row *r, double *se, double *df)
{
	if (isnan(r->ci_high) || r->median <= 0 || r->ci_high <= 0)
		return false;
	*df = r->processes >= 2 ? r->processes - 1 : r->reps >= 2 ? r->reps - 1 : 0;
	if (*df < 1)
		return false;
	*se = log(r->ci_high / r->median) / t975(*df);
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
	if (!profiles)
		check_profiles(&old, &new_);
	/* With --profiles the median ratio is the price of the larger profile, not the machine's
	 * state: every line that names the drift says so. */
	const char *old_profile = old.rows[0].profile, *new_profile = new_.rows[0].profile;
	char drift_is[160] = "";
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
	if (profiles)
		printf("Profiles: rows matched without the profile, %s.\n", drift_is);
	printf("\n");
	printf("%-10s %-30s %8s %2s %13s %13s %22s  %-9s %s\n", "backend", "workload", "entities",
	       "k", "old ns/run", "new ns/run", "new/old [95% interval]", "verdict",
	       "without drift");
	if (out) {
		fprintf(out, "# ecsbench-compare OLD %s (commit %s, %s) NEW %s (commit %s, %s)\n"
		             "# drift %.4f (median new/old over %u rows)\n",
		        old_path, old.commit, old.date, new_path, new_.commit, new_.date, exp(drift), nl);
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

/* --- make repeat ------------------------------------------------------------------------- */

struct pair_figures {
	bool ok;
	double ratio, low, high;     /* the interval ecsbench writes (t across processes) */
	double boot_low, boot_high;  /* the hierarchical bootstrap's */
};

static void pair_of(const struct csv_row *x, const struct csv_row *y, uint64_t seed,
                    struct pair_figures *f)
{
	memset(f, 0, sizeof *f);
	if (!x->samples || !y->samples || x->processes != y->processes || x->reps != y->reps)
		return;
	f->ok = stats_paired_ratio(x->samples, y->samples, x->processes, x->reps, &f->ratio, &f->low,
	                           &f->high) &&
	        stats_bootstrap_ratio(x->samples, y->samples, x->processes, x->reps,
	                              BOOTSTRAP_RESAMPLES, seed, &f->boot_low, &f->boot_high);
}

static int repeat_main(const char *path1, const char *path2)
{
	struct csv_file a, b;
	load(path1, true, &a);
	load(path2, true, &b);
	check_profiles(&a, &b);
	unsigned pairs = 0, called = 0, swapped = 0, covered = 0, boot_covered = 0, rows = 0,
	         agree = 0, row_covered = 0, called_both = 0, swaps_both = 0;
	double width_sum = 0, boot_width_sum = 0;
	static char swap_text[16384];
	size_t swap_len = 0;
	swap_text[0] = '\0';
	uint64_t seed = 1;
	for (uint32_t i = 0; i < a.count; i++) {
		const struct csv_row *x1 = &a.rows[i], *x2 = csv_find(&b, x1);
		if (!x2)
			continue;
		rows++;
		agree += fabs(x2->median / x1->median - 1) <= 0.05;
		row_covered += x2->median >= x1->ci_low && x2->median <= x1->ci_high;
		if (strcmp(x1->backend, "floor") == 0)
			continue;
		for (uint32_t j = i + 1; j < a.count; j++) {
			const struct csv_row *y1 = &a.rows[j];
			if (!csv_same_group(x1, y1) || strcmp(y1->backend, "floor") == 0)
				continue;
			const struct csv_row *y2 = csv_find(&b, y1);
			if (!y2)
				continue;
			struct pair_figures f1, f2;
			pair_of(x1, y1, seed, &f1);
			pair_of(x2, y2, seed + 1, &f2);
			seed += 2;
			if (!f1.ok || !f2.ok)
				continue;
			pairs++;
			bool c1 = f1.low > 1 || f1.high < 1, c2 = f2.low > 1 || f2.high < 1;
			if ((c1 || c2) && (f1.ratio > 1) != (f2.ratio > 1)) {
				/* Each swap named, with both runs' figures: a swap that both runs call
				 * is a contradiction, one that a run calls a tie is a near miss. */
				bool both = c1 && c2;
				char swap[320];
				snprintf(swap, sizeof swap,
				         "    %s N=%u k=%u: %s/%s %.3f [%.3f, %.3f] in run 1, %.3f [%.3f, %.3f] "
				         "in run 2%s\n",
				         x1->workload, x1->entities, x1->components, x1->backend, y1->backend,
				         f1.ratio, f1.low, f1.high, f2.ratio, f2.low, f2.high,
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
			covered += f2.ratio >= f1.low && f2.ratio <= f1.high;
			boot_covered += f2.ratio >= f1.boot_low && f2.ratio <= f1.boot_high;
			width_sum += log(f1.high / f1.low);
			boot_width_sum += log(f1.boot_high / f1.boot_low);
		}
	}
	if (rows == 0 || pairs == 0) {
		fprintf(stderr, "ecsbench-compare: %s and %s have no pair of backends in common\n", path1,
		        path2);
		return 2;
	}
	printf("Repeatability of %s (commit %s, %s) and %s (%s)\n", path1, a.commit, a.date, path2,
	       b.date);
	printf("(a) %u of %u pairs of backends of a row group are called different by either run "
	       "(their 95%% interval excludes 1; %u by both); %u of them swap order in the other run "
	       "(%u called by both runs)%s\n%s",
	       called, pairs, called_both, swapped, swaps_both, swapped ? ":" : "", swap_text);
	printf("(b) coverage: %u of %u (%.1f%%) of run 2's pair ratios fall inside run 1's 95%% "
	       "interval (mean width %.1f%%); with a hierarchical bootstrap's interval instead: %u "
	       "(%.1f%%, mean width %.1f%%)\n",
	       covered, pairs, 100.0 * covered / pairs, 100 * (exp(width_sum / pairs) - 1),
	       boot_covered, 100.0 * boot_covered / pairs, 100 * (exp(boot_width_sum / pairs) - 1));
	printf("(c) %u of %u rows (%.1f%%) have medians within 5%% of each other; %u (%.1f%%) of "
	       "run 2's medians fall inside run 1's interval\n",
	       agree, rows, 100.0 * agree / rows, row_covered, 100.0 * row_covered / rows);
	csv_free(&a);
	csv_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--repeat") == 0)
		return repeat_main(argv[2], argv[3]);
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
