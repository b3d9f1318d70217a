/*
 * compare.c: build/ecsbench-compare, what `make compare` and `make repeat` run.
 *
 *   ecsbench-compare [--profiles] OLD.csv NEW.csv [--output VERDICTS.csv] [--rows | --rows-in TEXT]
 *       Prints what changed in about a screen (compare_report.h): the two runs, per backend the
 *       geometric mean of NEW/OLD and its verdict, the rows called faster or slower (the
 *       largest N of each workload first), the verdicts counted, what the comparison cannot
 *       say, the machine states in short, and where every row is (--rows-in: make compare
 *       names the file it keeps them in). --rows prints the full report instead: a line per
 *       row, the machine states in full. --output writes every row's verdicts as CSV.
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
 * The statistics are compare_stats.c's; this file reads the files, checks that they can be
 * compared, and formats (two runs through compare_report.c): it computes nothing.
 *
 * Exit status: 0; 1 --machine: the states differ; 2 bad usage or files that cannot be compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer_report.h"
#include "compare_report.h"
#include "compare_stats.h"
#include "csvread.h"
#include "../core/machine.h"
#include "../core/stats.h"

static void usage(void)
{
	fprintf(stderr, "usage: ecsbench-compare [--profiles] OLD.csv NEW.csv [--output VERDICTS.csv] "
	                "[--rows | --rows-in TEXT]\n"
	                "       ecsbench-compare --repeat RUN1.csv RUN2.csv\n"
	                "       ecsbench-compare --machine OLD.csv NEW.csv [--brief]\n"
	                "       ecsbench-compare --stats RUN.csv\n"
	                "       ecsbench-compare --answer RUN.csv [--first FIRST.csv] [--figures DIR] "
	                "[--brief] [--note TEXT]\n");
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

/* --- make compare: two runs --------------------------------------------------------- */

/* add_word: word to buf (a list, ", " between words) unless it is there already; a list that
 * would not fit ends with ", ...". */
static void add_word(char *buf, size_t len, const char *word)
{
	size_t wl = strlen(word), at = strlen(buf);
	for (const char *p = buf; (p = strstr(p, word)); p++)
		if ((p == buf || (p - buf >= 2 && p[-1] == ' ' && p[-2] == ',')) &&
		    (p[wl] == ',' || p[wl] == '\0'))
			return;
	if (at >= 5 && strcmp(buf + at - 5, ", ...") == 0)
		return;
	if (at + wl + 8 < len)
		snprintf(buf + at, len - at, "%s%s", at ? ", " : "", word);
	else if (at + 6 < len)
		snprintf(buf + at, len - at, ", ...");
}

/* What f holds, a line under a refusal of two files with no row in common: its profile, the
 * histories its rows ran under (a row's workload is named with its history: "iterate-pristine";
 * a bare name is lived-in), its workloads, N and k. */
static void describe_rows(const char *label, const struct csv_file *f)
{
	char hist[200] = "", work[400] = "", ks[40] = "";
	uint32_t nmin = UINT32_MAX, nmax = 0;
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *r = &f->rows[i];
		size_t bl = strlen(r->base);
		const char *h = f->scenario ? "-"
		                : strncmp(r->workload, r->base, bl) == 0 && r->workload[bl] == '-'
		                        ? r->workload + bl + 1
		                        : strncmp(r->base, "varkor-", 7) == 0 ? "- (Varkor's take none)"
		                                                              : "lived-in";
		add_word(hist, sizeof hist, h);
		add_word(work, sizeof work, r->base);
		char k[12];
		snprintf(k, sizeof k, "%u", r->components);
		add_word(ks, sizeof ks, k);
		nmin = r->entities < nmin ? r->entities : nmin;
		nmax = r->entities > nmax ? r->entities : nmax;
	}
	fprintf(stderr, "  %s %s: %s %s, %u rows; histories: %s; workloads: %s; N %u..%u; k %s\n",
	        label, f->path, f->scenario ? "scenario" : "profile",
	        f->count ? f->rows[0].profile : "-", f->count, f->count ? hist : "none",
	        f->count ? work : "none", f->count ? nmin : 0, nmax, f->count ? ks : "none");
}

/* Two files with no row in common: what each holds, and how to pair them. */
static void refuse_no_common(const struct csv_file *old, const struct csv_file *new_)
{
	fprintf(stderr,
	        "ecsbench-compare: %s and %s have no row in common (a row pairs with the row of the "
	        "same backend, workload and history, N, k and threads):\n",
	        old->path, new_->path);
	describe_rows("OLD", old);
	describe_rows("NEW", new_);
	fprintf(stderr, "  to pair them: compare two runs of the same histories, workloads, N and k "
	                "(make bench ... HISTORY=lived-in for both, or HISTORY=lived-in,pristine for "
	                "both); a lived-in row never pairs with a pristine one, as the storage's "
	                "history is part of what a row measures\n");
}

/* The files compare_main compares, refused (exit 2) where their rows cannot be compared. */
static void check_pair(const struct csv_file *old, const struct csv_file *new_, bool profiles)
{
	if (profiles && (old->scenario || new_->scenario)) {
		fprintf(stderr, "ecsbench-compare: --profiles compares two profiles of a run of the "
		                "workloads, not scenarios\n");
		exit(2);
	}
	if (!profiles)
		check_profiles(old, new_);
	for (int i = 0; i < 2; i++) {
		const struct csv_file *f = i ? new_ : old;
		if (!f->has_ci) {
			fprintf(stderr,
			        "ecsbench-compare: %s has no intervals (ci_low_ns, ci_high_ns): it was "
			        "written by an older ecsbench; run it again to compare\n",
			        f->path);
			exit(2);
		}
	}
}

/* What compare_main prints: the screen (what changed, in about 40 lines), or every row. */
struct compare_options {
	const char *paths[2];
	const char *out_path; /* --output: the verdicts CSV */
	const char *rows_in;  /* --rows-in: where the screen says the full report is */
	bool profiles, rows;
};

static int compare_main(const struct compare_options *o)
{
	struct csv_file old, new_;
	load(o->paths[0], false, &old);
	load(o->paths[1], false, &new_);
	check_pair(&old, &new_, o->profiles);
	/* With --profiles the median ratio is the price of the larger profile, not the machine's
	 * state: every line that names the drift says so. */
	char drift_is[320] = "";
	if (o->profiles)
		snprintf(drift_is, sizeof drift_is,
		         "profile %s against profile %s: the drift measures the profiles' difference, not "
		         "the machine's",
		         new_.rows[0].profile, old.rows[0].profile);
	struct compare_result res;
	if (compare_runs(&old, &new_, &res)) {
		fprintf(stderr, "ecsbench-compare: out of memory\n");
		return 2;
	}
	if (res.count == 0) {
		refuse_no_common(&old, &new_);
		return 2;
	}
	FILE *out = NULL;
	if (o->out_path && !(out = fopen(o->out_path, "w"))) {
		fprintf(stderr, "ecsbench-compare: cannot write %s\n", o->out_path);
		return 2;
	}
	char machine[400];
	machine_compare_print(NULL, o->paths[0], o->paths[1], &old, &new_, machine, sizeof machine);
	struct compare_report r = {.old = &old,
	                           .new_ = &new_,
	                           .paths = {o->paths[0], o->paths[1]},
	                           .res = &res,
	                           .profiles = o->profiles,
	                           .drift_is = drift_is,
	                           .machine = machine,
	                           .rows_in = o->rows_in};
	if (out)
		compare_report_verdicts(out, &r);
	if (o->rows)
		compare_report_rows(stdout, &r);
	else
		compare_report_screen(stdout, &r);
	int rc = 0;
	if (out && fclose(out) != 0) {
		fprintf(stderr, "ecsbench-compare: cannot write %s\n", o->out_path);
		rc = 2;
	}
	compare_result_free(&res);
	csv_free(&old);
	csv_free(&new_);
	return rc;
}

/* --- make repeat ------------------------------------------------------------------------ */

/* The pairs' lines as the report lists them, as many as fit in len. */
static void pair_lines(char *buf, size_t len, const struct repeat_pair *v, uint32_t count,
                       bool swaps)
{
	size_t used = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < count; i++) {
		const struct repeat_pair *p = &v[i];
		char line[320];
		int n = swaps ? snprintf(line, sizeof line,
		                         "    %s N=%u k=%u: %s/%s %.3f [%.3f, %.3f] in run 1, %.3f "
		                         "[%.3f, %.3f] in run 2%s\n",
		                         p->x->workload, p->x->entities, p->x->components, p->x->backend,
		                         p->y->backend, p->r1.ratio, p->r1.low, p->r1.high, p->r2.ratio,
		                         p->r2.low, p->r2.high,
		                         p->both ? " (both runs call it: a contradiction)" : "")
		              : snprintf(line, 200, "    %s N=%u k=%u: %s/%s\n", p->x->workload,
		                         p->x->entities, p->x->components, p->x->backend, p->y->backend);
		size_t add = swaps ? strlen(line) : (size_t)n;
		if (n > 0 && used + add < len) {
			memcpy(buf + used, line, add + 1);
			used += add;
		}
	}
}

static void print_repeat(const struct repeat_result *r)
{
	static char swap_text[16384], missing_text[4096];
	pair_lines(swap_text, sizeof swap_text, r->swaps, r->swap_count, true);
	pair_lines(missing_text, sizeof missing_text, r->missing_pairs, r->missing_count, false);
	unsigned pairs = r->pairs, with = pairs - r->missing, rounds_with = pairs - r->rounds_missing;
	printf("(a) %u of %u pairs of backends of a row group are called different by either run "
	       "(their 95%% interval excludes 1; %u by both); %u of them swap order in the other run "
	       "(%u called by both runs)%s\n%s",
	       r->called, pairs, r->called_both, r->swapped, r->swaps_both, r->swapped ? ":" : "",
	       swap_text);
	printf("(b) coverage: %u of %u (%.1f%%) of run 2's pair ratios fall inside run 1's 95%% "
	       "interval (mean width %.1f%%), counting every pair of backends of a row group that "
	       "both runs measured (%u of them with rows of different samples per process, a long "
	       "run's one against three: paired by process all the same)",
	       r->covered, pairs, 100.0 * r->covered / pairs,
	       with ? 100 * (exp(r->width_sum / with) - 1) : 0.0, r->uneven);
	if (r->missing)
		printf("; %u pairs have no interval in a run (fewer than two processes in common) and "
		       "count as not covered:\n%s",
		       r->missing, missing_text);
	else
		printf("\n");
	if (r->raced)
		printf("    (two raced runs: every figure from the race's levels, a median polish of each "
		       "process's rounds, paired by process; a pair's interval its plain 95%%)\n");
	else
		printf("    paired by process and round instead (how ecsbench paired before): %u (%.1f%%, "
		       "mean width %.1f%%); with a hierarchical bootstrap's interval: %u (%.1f%%, mean "
		       "width %.1f%%); both counted over the same %u pairs%s\n",
		       r->rounds_covered, 100.0 * r->rounds_covered / pairs,
		       rounds_with ? 100 * (exp(r->rounds_width_sum / rounds_with) - 1) : 0.0,
		       r->boot_covered, 100.0 * r->boot_covered / pairs,
		       rounds_with ? 100 * (exp(r->boot_width_sum / rounds_with) - 1) : 0.0, pairs,
		       r->rounds_missing ? ", those without a figure as not covered" : "");
	printf("(c) %u of %u rows (%.1f%%) have centres (median_ns) within 5%% of each other; %u "
	       "(%.1f%%) of run 2's fall inside run 1's interval\n",
	       r->agree, r->rows, 100.0 * r->agree / r->rows, r->row_covered,
	       100.0 * r->row_covered / r->rows);
	printf("(d) a rerun's prediction intervals (95%%, the between-run terms of make bench's default "
	       "sweep: rows +-%.1f%%, ratios +-%.1f%%): %u of %u (%.1f%%) of run 2's row centres fall "
	       "inside run 1's, %u of %u (%.1f%%) of its pair ratios\n",
	       100 * (exp(STATS_RERUN_ROW_SD) - 1), 100 * (exp(STATS_RERUN_RATIO_SD) - 1),
	       r->rows_predicted, r->rows_with_pi,
	       r->rows_with_pi ? 100.0 * r->rows_predicted / r->rows_with_pi : 0.0, r->pairs_predicted,
	       r->pairs_with_pi, r->pairs_with_pi ? 100.0 * r->pairs_predicted / r->pairs_with_pi : 0.0);
	printf("    the between-run terms these two runs show (one standard deviation of the log "
	       "difference beyond the sampling: the moment estimate, then the term that puts 95%% "
	       "inside): rows %.4f, %.4f; ratios %.4f, %.4f\n",
	       r->row_between, r->row_between_95, r->ratio_between, r->ratio_between_95);
	printf("(e) make compare on the two runs (the same command twice, so every call is false): "
	       "%u of %u rows (%.1f%%) called faster or slower; %u (%.1f%%) with the drift divided "
	       "out\n",
	       r->compare_called[0], r->compare_rows,
	       r->compare_rows ? 100.0 * r->compare_called[0] / r->compare_rows : 0.0,
	       r->compare_called[1],
	       r->compare_rows ? 100.0 * r->compare_called[1] / r->compare_rows : 0.0);
}

static int repeat_main(const char *path1, const char *path2)
{
	struct csv_file a, b;
	load(path1, true, &a);
	load(path2, true, &b);
	check_profiles(&a, &b);
	struct repeat_result r;
	if (compare_repeat(&a, &b, &r)) {
		fprintf(stderr, "ecsbench-compare: out of memory\n");
		return 2;
	}
	if (r.rows == 0 || r.pairs == 0) {
		fprintf(stderr, "ecsbench-compare: %s and %s have no pair of backends in common\n", path1,
		        path2);
		return 2;
	}
	printf("Repeatability of %s (commit %s, %s) and %s (%s)\n", path1, a.commit, a.date, path2,
	       b.date);
	/* Coverage between runs of two sessions depends on the state each met: said beside it. */
	machine_compare_print(stdout, path1, path2, &a, &b, NULL, 0);
	printf("Every statistic below is computed from the raw samples beside each CSV, as ecsbench "
	       "computes them now (docs/method.md).\n");
	print_repeat(&r);
	compare_repeat_free(&r);
	csv_free(&a);
	csv_free(&b);
	return 0;
}

/* --- --stats ------------------------------------------------------------------------------ */

/* "12.5" (fmt applied to v), or "" for a figure that does not exist. */
static const char *figure(char *buf, size_t len, bool has, const char *fmt, double v)
{
	if (!has || isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

static void print_restat_row(const struct csv_row *r, const struct stats_member *x)
{
	char lo[32], hi[32], rb[32], rl[32], rh[32];
	printf("%s,%s,%u,%u,%u,%u,%u,%.1f,%s,%s,%s,%s,%s,%s,%d,%.1f,%d\n", r->backend, r->workload,
	       r->entities, r->components, r->threads, x->row.processes, r->reps, x->row.centre,
	       figure(lo, sizeof lo, x->row.has_interval, "%.1f", x->row.ci_low),
	       figure(hi, sizeof hi, x->row.has_interval, "%.1f", x->row.ci_high),
	       figure(rb, sizeof rb, x->has_ratio, "%.4f", x->vs_best.ratio),
	       figure(rl, sizeof rl, x->has_ratio && x->vs_best.has_interval, "%.4f", x->vs_best.low),
	       figure(rh, sizeof rh, x->has_ratio && x->vs_best.has_interval, "%.4f",
	              x->vs_best.high),
	       x->verdict, x->noisy, r->median, r->noisy);
}

static void print_restat_totals(const struct restat_totals *t, uint32_t file_rows)
{
	printf("# %u groups, %u backend rows: %u best, %u slower, %u tied; ratio_to_best below 1: "
	       "%u; slower without the correction for choosing the best (each at 95%%): %u; at 1 - "
	       "5%%/(K - 1), Bonferroni over the comparisons with the best alone (ecsbench before): "
	       "%u\n",
	       t->groups, t->rows, t->best, t->slower, t->tied, t->below, t->slower_plain,
	       t->slower_before);
	printf("# noisy: %u of the %u backend rows (%.1f%%); %u of the %u that are not the best "
	       "(%.1f%%); the file flags %u of its %u rows\n",
	       t->noisy, t->rows, t->rows ? 100.0 * t->noisy / t->rows : 0.0, t->others_noisy,
	       t->others, t->others ? 100.0 * t->others_noisy / t->others : 0.0, t->file_noisy,
	       file_rows);
	printf("# the best by the pooled median of all samples (ecsbench before) is another row in "
	       "%u of the %u groups\n",
	       t->pooled_differs, t->groups);
	if (t->aa_groups)
		printf("# A/A (copies of one backend, --twin): %u groups whose best has a copy; in %u of "
		       "them (%.1f%%) a copy is called slower than the best, a false call; %u of the %u "
		       "copies (%.1f%%); without the correction for choosing the best (each comparison "
		       "at 95%%): %u groups (%.1f%%); with Bonferroni over the K - 1 comparisons with the "
		       "best alone (ecsbench before): %u groups (%.1f%%)\n",
		       t->aa_groups, t->aa_false, 100.0 * t->aa_false / t->aa_groups, t->aa_copies_false,
		       t->aa_copies, 100.0 * t->aa_copies_false / t->aa_copies, t->aa_false_plain,
		       100.0 * t->aa_false_plain / t->aa_groups, t->aa_false_before,
		       100.0 * t->aa_false_before / t->aa_groups);
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
	struct restat_totals totals = {0};
	for (uint32_t i = 0; i < f.count;) {
		uint32_t end = compare_group_end(&f, i);
		struct restat_group g;
		if (compare_restat(&f, i, end - i, m, &g)) {
			fprintf(stderr, "ecsbench-compare: out of memory\n");
			return 2;
		}
		for (uint32_t k = 0; k < g.n; k++)
			print_restat_row(&f.rows[i + k], &m[k]);
		compare_restat_add(&totals, &f, i, m, &g);
		compare_restat_free(&g);
		i = end;
	}
	print_restat_totals(&totals, f.count);
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

/*
 * --answer RUN.csv: the run's answer (answer.h) as records for scripts/answer.sh
 * (answer_report.h), from its CSV alone. --first: the run's first provisional CSV, whose
 * verdicts the answer counts the changes from; --figures: the folder of the run's figures;
 * --brief: a terminal's, without what --note says holds the rest.
 */
static int answer_main(int argc, char **argv)
{
	struct answer_report_options o = {0};
	const char *first = NULL;
	for (int i = 2; i < argc; i++) {
		if (argv[i][0] != '-' && !o.path)
			o.path = argv[i];
		else if (strcmp(argv[i], "--brief") == 0)
			o.brief = true;
		else if (i + 1 < argc && strcmp(argv[i], "--first") == 0)
			first = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--figures") == 0)
			o.figures = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--note") == 0)
			o.note = argv[++i];
		else
			usage();
	}
	if (!o.path)
		usage();
	struct csv_file f, was;
	char err[512];
	if (csv_read(o.path, false, &f, err, sizeof err)) {
		fprintf(stderr, "ecsbench-compare: %s\n", err);
		return 2;
	}
	if (!f.has_ratios) {
		fprintf(stderr, "ecsbench-compare: %s has no ratio_to_best or vs_best column: a CSV from "
		                "before paired ratios; the answer needs them\n",
		        o.path);
		csv_free(&f);
		return 2;
	}
	struct answer a;
	int rc = answer_make(&f, &a) ? 2 : 0;
	if (!rc && first && strcmp(first, o.path) != 0) {
		if (csv_read(first, false, &was, err, sizeof err) == 0) {
			o.first = first;
			rc = answer_changes(&a, &was) ? 2 : 0;
			csv_free(&was);
		} else
			fprintf(stderr, "ecsbench-compare: the first provisional answer's CSV: %s\n", err);
	}
	if (rc)
		fprintf(stderr, "ecsbench-compare: out of memory\n");
	else
		answer_report_print(stdout, &a, &o);
	answer_free(&a);
	csv_free(&f);
	return fflush(stdout) == 0 && !ferror(stdout) ? rc : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--answer") == 0)
		return answer_main(argc, argv);
	if ((argc == 4 || (argc == 5 && strcmp(argv[4], "--brief") == 0)) &&
	    strcmp(argv[1], "--machine") == 0)
		return machine_main(argv[2], argv[3], argc == 5);
	if (argc == 4 && strcmp(argv[1], "--repeat") == 0)
		return repeat_main(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--stats") == 0)
		return stats_main(argv[2]);
	/* [--profiles] OLD NEW [--output FILE] [--rows | --rows-in TEXT], the options anywhere */
	struct compare_options o = {0};
	int npaths = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--profiles") == 0 && !o.profiles)
			o.profiles = true;
		else if (strcmp(argv[i], "--rows") == 0 && !o.rows)
			o.rows = true;
		else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc && !o.out_path)
			o.out_path = argv[++i];
		else if (strcmp(argv[i], "--rows-in") == 0 && i + 1 < argc && !o.rows_in)
			o.rows_in = argv[++i];
		else if (argv[i][0] != '-' && npaths < 2)
			o.paths[npaths++] = argv[i];
		else
			usage();
	}
	if (npaths != 2)
		usage();
	return compare_main(&o);
}
