/*
 * compare_stats.c: the statistics of build/ecsbench-compare (compare_stats.h); nothing here
 * prints. Two runs: per row NEW/OLD with Welch's interval from each row's own interval and the
 * between-run term make repeat measured (STATS_RERUN_ROW_SD), the drift (the median log ratio,
 * and its quartiles), the rows' own movement between these runs (a robust spread), the
 * verdicts with and without the drift; what each run measured that the other did not. Repeatability: pairs of backends of
 * a group compared in each run (stats_ratio, stats_ratio_rounds, stats_bootstrap_ratio) and
 * how run 2 falls against run 1's intervals. --stats: stats_group over each group's samples.
 *
 * Costs: a lookup of each row in the other run (csv_find, linear); sorting the log ratios for
 * the quantiles; a bootstrap of BOOTSTRAP_RESAMPLES per pair of backends in --repeat.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_stats.h"
#include "../core/free_and_null.h"
#include "../core/race.h"

#define BOOTSTRAP_RESAMPLES 2000

static const char *const verdict_names[COMPARE_VERDICTS] = {"faster", "slower", "same",
                                                            "undecided"};

bool compare_is_floor(const struct csv_row *r) { return strcmp(r->backend, "floor") == 0; }

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
	*se = log(r->ci_high / r->ci_low) / 2 / stats_t975(*df);
	return true;
}

const char *compare_verdict(double low, double high)
{
	if (high < 1)
		return "faster";
	if (low > 1)
		return "slower";
	if (low >= 1 - COMPARE_SAME_MARGIN && high <= 1 + COMPARE_SAME_MARGIN)
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

/*
 * A row's log standard error and degrees of freedom, from its processes. A raced run
 * (harness/core/race.h) measures a backend screened out of a row's race in one process (or its
 * one cold calibration run): such a row has no interval and gets no verdict. Its run's typical
 * process spread was tried in its place, and two runs of one build disagreed far beyond it: the
 * log ratio of such rows between two default runs of make bench PROFILE=AAA had a standard
 * deviation of 0.29 to 0.40 (130 to 208 rows a pair of runs, 2026-11-29), twice that of rows of
 * two processes or more (0.11 to 0.21), and make compare called 4.8% to 5.2% of the rows of two
 * runs of one build different, most of them such rows. A first process is the longest and the
 * one most exposed to a slow stretch of the machine; a backend screened in it is far slower than
 * the fastest, which the rows that raced say with their intervals.
 */
static bool row_se(const struct csv_row *r, double *se, double *df)
{
	return r->processes >= 2 && log_se(r, se, df);
}

/* The pairs of rows in both runs, each with its log ratio and Welch's interval. */
static void pair_rows(const struct csv_file *old, const struct csv_file *new_,
                      struct compare_result *res)
{
	for (uint32_t i = 0; i < new_->count; i++) {
		const struct csv_row *o = csv_find(old, &new_->rows[i]);
		if (!o || o->median <= 0 || new_->rows[i].median <= 0)
			continue;
		struct compare_pair *p = &res->pairs[res->count++];
		p->old = o;
		p->new_ = &new_->rows[i];
		p->log_ratio = log(p->new_->median / o->median);
		double se_o, df_o, se_n, df_n;
		if (row_se(o, &se_o, &df_o) && row_se(p->new_, &se_n, &df_n)) {
			double v = se_o * se_o + se_n * se_n;
			double df = v * v / (pow(se_o, 4) / df_o + pow(se_n, 4) / df_n);
			p->own_half = stats_t975(df < 1 ? 1 : df) * sqrt(v);
			p->half = hypot(p->own_half, 1.959964 * STATS_RERUN_ROW_SD);
			p->has_interval = true;
		}
	}
}

/*
 * Rows also move between two runs on their own, beyond the drift and beyond their own
 * intervals: the machine's state changes what a run costs unevenly (a memory-bound row more
 * than a compute-bound one), and each run's interval sees only its own processes. That
 * between-run spread is estimated from the rows themselves, robustly (most rows of two runs
 * did not change): the median absolute deviation of the drift-adjusted log ratios, scaled to a
 * standard deviation, less the part the rows' own standard errors explain. The verdicts without
 * drift add it, or make repeat's figure (STATS_RERUN_ROW_SD) where that is larger, to each
 * row's uncertainty (a random effect per row): a robust spread of two runs' rows cannot tell a
 * change from noise, and too few rows moved by chance give it too little.
 */
static double between_runs(const struct compare_result *res)
{
	double between = 0;
	uint32_t n = res->count, m = 0;
	double *dev = calloc(n + 1, sizeof *dev), *se2 = calloc(n + 1, sizeof *se2);
	for (uint32_t i = 0; i < n && dev && se2; i++)
		if (res->pairs[i].has_interval) {
			dev[m] = fabs(res->pairs[i].log_ratio - res->drift);
			se2[m++] = pow(res->pairs[i].own_half / 1.96, 2);
		}
	if (m >= 8) {
		double mad = 1.4826 * quantile(dev, m, 0.5), own = quantile(se2, m, 0.5);
		between = mad * mad > own ? sqrt(mad * mad - own) : 0;
	}
	free(dev);
	free(se2);
	return between;
}

/* Each pair's interval and verdicts, counted. */
static void decide(struct compare_result *res)
{
	for (uint32_t i = 0; i < res->count; i++) {
		struct compare_pair *p = &res->pairs[i];
		p->ratio = exp(p->log_ratio);
		p->low = p->high = NAN;
		p->verdict = p->adjusted = "undecided";
		if (p->has_interval) {
			p->low = exp(p->log_ratio - p->half);
			p->high = exp(p->log_ratio + p->half);
			p->verdict = compare_verdict(p->low, p->high);
			double half = hypot(p->own_half, 1.959964 * res->between_used);
			p->adjusted = compare_verdict(exp(p->log_ratio - res->drift - half),
			                              exp(p->log_ratio - res->drift + half));
		}
		for (int k = 0; k < COMPARE_VERDICTS; k++) {
			res->verdicts[0][k] += strcmp(p->verdict, verdict_names[k]) == 0;
			res->verdicts[1][k] += strcmp(p->adjusted, verdict_names[k]) == 0;
		}
	}
}

/* The geometric mean of NEW/OLD per backend, in order of first appearance, over its rows that
 * have an interval in both runs (two processes or more: not a screened row's figure). */
static void backend_means(struct compare_result *res)
{
	for (uint32_t i = 0; i < res->count; i++) {
		const char *name = res->pairs[i].new_->backend;
		bool first = true;
		for (uint32_t j = 0; j < i; j++)
			first = first && strcmp(res->pairs[j].new_->backend, name) != 0;
		if (!first)
			continue;
		double sum = 0, squares = 0;
		unsigned m = 0;
		for (uint32_t j = i; j < res->count; j++)
			if (res->pairs[j].has_interval && strcmp(res->pairs[j].new_->backend, name) == 0) {
				sum += res->pairs[j].log_ratio;
				squares += res->pairs[j].log_ratio * res->pairs[j].log_ratio;
				m++;
			}
		if (m == 0)
			continue;
		double mean = sum / m, half = NAN;
		if (m >= 2) /* across its rows, and what a backend's rows move together between runs */
			half = hypot(stats_t975(m - 1) *
			                 sqrt(fmax(0, (squares - m * mean * mean) / (m - 1)) / m),
			             1.959964 * STATS_RERUN_BACKEND_SD);
		res->backends[res->backend_count++] = (struct compare_backend){
			.name = name, .rows = m, .geomean = exp(mean), .low = exp(mean - half),
			.high = exp(mean + half), .relative = exp(mean - res->drift),
			.relative_low = exp(mean - res->drift - half),
			.relative_high = exp(mean - res->drift + half)};
	}
}

int compare_runs(const struct csv_file *old, const struct csv_file *new_,
                 struct compare_result *res)
{
	memset(res, 0, sizeof *res);
	res->pairs = calloc(new_->count + 1, sizeof *res->pairs);
	res->backends = calloc(new_->count + 1, sizeof *res->backends);
	double *logs = calloc(new_->count + 1, sizeof *logs);
	double *floors = calloc(new_->count + 1, sizeof *floors);
	if (!res->pairs || !res->backends || !logs || !floors) {
		free(logs);
		free(floors);
		compare_result_free(res);
		return -1;
	}
	pair_rows(old, new_, res);
	uint32_t nf = 0;
	for (uint32_t i = 0; i < res->count; i++) {
		logs[i] = res->pairs[i].log_ratio;
		if (compare_is_floor(res->pairs[i].new_))
			floors[nf++] = res->pairs[i].log_ratio;
	}
	if (res->count) {
		res->drift = quantile(logs, res->count, 0.5);
		res->q1 = quantile(logs, res->count, 0.25);
		res->q3 = quantile(logs, res->count, 0.75);
		res->has_floor_drift = nf > 0;
		res->floor_drift = nf ? quantile(floors, nf, 0.5) : NAN;
		res->between = between_runs(res);
		res->between_used = fmax(res->between, STATS_RERUN_ROW_SD);
		decide(res);
		backend_means(res);
	}
	res->only_new = new_->count - res->count;
	for (uint32_t i = 0; i < old->count; i++)
		res->only_old += csv_find(new_, &old->rows[i]) == NULL;
	free(logs);
	free(floors);
	return 0;
}

void compare_result_free(struct compare_result *res)
{
	FREE_AND_NULL(res->pairs);
	FREE_AND_NULL(res->backends);
}

/* --- what two runs measured ------------------------------------------------------------- */

/* Appends item to list (joined by ", ") unless it is there already. */
static void list_add(char *list, size_t len, const char *item)
{
	size_t n = strlen(item), used = strlen(list);
	for (const char *p = list; (p = strstr(p, item)) != NULL; p += n)
		if ((p == list || p[-2] == ',') && (p[n] == '\0' || p[n] == ','))
			return;
	if (used + n + 3 < len)
		snprintf(list + used, len - used, "%s%s", used ? ", " : "", item);
}

static bool has_workload(const struct csv_file *f, const char *w)
{
	for (uint32_t i = 0; i < f->count; i++)
		if (strcmp(f->rows[i].workload, w) == 0)
			return true;
	return false;
}

/* Whether f has a row of workload w at N = n (any backend, k, T), or k = k (n 0). */
static bool has_case(const struct csv_file *f, const char *w, uint32_t n, int k)
{
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *r = &f->rows[i];
		if (strcmp(r->workload, w) == 0 && (n == 0 || r->entities == n) &&
		    (k < 0 || r->components == (uint32_t)k))
			return true;
	}
	return false;
}

static bool has_backend(const struct csv_file *f, const char *b)
{
	for (uint32_t i = 0; i < f->count; i++)
		if (strcmp(f->rows[i].backend, b) == 0)
			return true;
	return false;
}

/* A raced run's settings from the "# processes:" line ecsbench writes (sweep_report.c): "up to
 * 32 processes a row group, 24 rounds a process, a budget of 270 s"; "" where the file has no
 * such line (a run that did not race, or a scenario's). */
static void raced_settings(const struct csv_file *f, char *buf, size_t len)
{
	buf[0] = '\0';
	const char *n = csv_note(f, "processes: up to ");
	unsigned cap, rounds;
	if (!n || sscanf(n, "processes: up to %u a row group", &cap) != 1)
		return;
	const char *budget = strstr(n, "), "), *r = strstr(n, " and up to ");
	if (!budget || !r || sscanf(r, " and up to %u timed rounds", &rounds) != 1)
		return;
	budget += 3;
	snprintf(buf, len, "up to %u processes a row group, %u rounds a process, %.*s", cap, rounds,
	         (int)strcspn(budget, ";"), budget);
}

void compare_settings(const struct csv_file *old, const struct csv_file *new_,
                      struct compare_settings *s)
{
	memset(s, 0, sizeof *s);
	for (int side = 0; side < 2; side++) {
		const struct csv_file *f = side ? new_ : old, *other = side ? old : new_;
		raced_settings(f, s->raced[side], sizeof s->raced[side]);
		for (uint32_t i = 0; i < f->count; i++) {
			const struct csv_row *r = &f->rows[i];
			char item[48];
			if (r->processes > s->processes[side])
				s->processes[side] = r->processes;
			if (r->reps > s->reps[side])
				s->reps[side] = r->reps;
			if (!has_backend(other, r->backend))
				list_add(s->backends[side], sizeof s->backends[side], r->backend);
			if (!has_workload(other, r->workload)) {
				list_add(s->workloads[side], sizeof s->workloads[side], r->workload);
				continue;
			}
			if (!has_case(other, r->workload, r->entities, -1)) {
				snprintf(item, sizeof item, "%u", r->entities);
				list_add(s->entities[side], sizeof s->entities[side], item);
			}
			if (!has_case(other, r->workload, 0, (int)r->components)) {
				snprintf(item, sizeof item, "%u", r->components);
				list_add(s->components[side], sizeof s->components[side], item);
			}
		}
	}
}

/* --- repeatability --------------------------------------------------------------------- */

uint32_t compare_group_end(const struct csv_file *f, uint32_t i)
{
	uint32_t j = i + 1;
	while (j < f->count && csv_same_group(&f->rows[i], &f->rows[j]))
		j++;
	return j;
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

/* One estimate in both runs, for the prediction intervals: its log difference between the
 * runs, run 1's standard error and degrees of freedom, run 2's standard error. */
struct rerun_case {
	double d, se1, df1, se2;
};

struct rerun_cases {
	struct rerun_case *v;
	uint32_t count, cap;
};

static void rerun_add(struct rerun_cases *c, double x1, double se1, double df1, double x2,
                      double se2)
{
	if (!(x1 > 0) || !(x2 > 0) || isnan(se1) || isnan(se2) || df1 < 1)
		return;
	if (c->count == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 256;
		struct rerun_case *v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->count++] = (struct rerun_case){log(x2 / x1), se1, df1, se2};
}

/* How many of c's run 2 estimates fall inside run 1's prediction interval with term between. */
static unsigned rerun_covered(const struct rerun_cases *c, double between)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < c->count; i++) {
		double lo, hi;
		stats_rerun(1, c->v[i].se1, c->v[i].df1, between, &lo, &hi);
		n += inside(exp(c->v[i].d), lo, hi);
	}
	return n;
}

/* The between-run term of c: the moment estimate, and the smallest that covers 95%. */
static void rerun_between(const struct rerun_cases *c, double *moment, double *at95)
{
	*moment = *at95 = NAN;
	if (c->count < 8)
		return;
	double excess = 0;
	for (uint32_t i = 0; i < c->count; i++)
		excess += c->v[i].d * c->v[i].d - c->v[i].se1 * c->v[i].se1 - c->v[i].se2 * c->v[i].se2;
	*moment = sqrt(fmax(0, excess / c->count));
	double lo = 0, hi = 4;
	if (rerun_covered(c, lo) >= 0.95 * c->count) {
		*at95 = 0;
		return;
	}
	for (int k = 0; k < 60; k++) {
		double mid = (lo + hi) / 2;
		if (rerun_covered(c, mid) >= 0.95 * c->count)
			hi = mid;
		else
			lo = mid;
	}
	*at95 = hi;
}

/* Pair x1/y1 of run 1 against x2/y2 of run 2; seed: the bootstrap's for run 1, seed + 1 run 2's. */
static void repeat_pair(struct repeat_result *r, const struct csv_row *x1, const struct csv_row *y1,
                        const struct csv_row *x2, const struct csv_row *y2, uint64_t seed,
                        struct rerun_cases *ratios)
{
	/* Every pair counts, whatever its rows' samples per process: a long run's one sample per
	 * process against another's three is paired by process. */
	r->pairs++;
	r->uneven += x1->reps != y1->reps || x2->reps != y2->reps;
	struct pair_figures f1, f2;
	pair_of(x1, y1, seed, &f1);
	pair_of(x2, y2, seed + 1, &f2);
	if (f1.rounds_ok && f2.rounds_ok) {
		r->rounds_covered += inside(f2.rounds, f1.rounds_low, f1.rounds_high);
		r->rounds_width_sum += log(f1.rounds_high / f1.rounds_low);
	} else
		r->rounds_missing++;
	if (f1.boot_ok && f2.rounds_ok) {
		r->boot_covered += inside(f2.rounds, f1.boot_low, f1.boot_high);
		r->boot_width_sum += log(f1.boot_high / f1.boot_low);
	}
	if (!f1.ok || !f2.ok) {
		/* No interval in a run (fewer than two processes in common): not covered. */
		r->missing_pairs[r->missing_count++] = (struct repeat_pair){.x = x1, .y = y1};
		r->missing++;
		return;
	}
	const struct stats_ratio *r1 = &f1.ratio, *r2 = &f2.ratio;
	rerun_add(ratios, r1->ratio, r1->log_se, r1->pairs - 1.0, r2->ratio, r2->log_se);
	bool c1 = r1->low > 1 || r1->high < 1, c2 = r2->low > 1 || r2->high < 1;
	if ((c1 || c2) && (r1->ratio > 1) != (r2->ratio > 1)) {
		/* a swap that both runs call is a contradiction, one that a run calls a tie a near
		 * miss */
		r->swaps[r->swap_count++] =
			(struct repeat_pair){.x = x1, .y = y1, .r1 = *r1, .r2 = *r2, .both = c1 && c2};
		r->swaps_both += c1 && c2;
		r->swapped++;
	}
	r->called += c1 || c2;
	r->called_both += c1 && c2;
	r->covered += inside(r2->ratio, r1->low, r1->high);
	r->width_sum += log(r1->high / r1->low);
}

/*
 * A raced run's group as the run computed it (harness/core/race.h): the levels of its rows in
 * each process, by the median polish of the process's log samples, rows x rounds. level holds
 * f->sample_processes x n values (NaN where a row was not measured); rows: the group's n rows.
 */
/* Whether process q (0-based) of f is among its header's "# set aside:" ones. */
static bool busy_process(const struct csv_file *f, uint32_t q)
{
	const char *note = csv_note(f, "set aside: ");
	if (!note)
		return false;
	for (const char *at = note + 12; *at >= '0' && *at <= '9';) {
		char *end;
		unsigned long v = strtoul(at, &end, 10);
		if (v == q + 1)
			return true;
		at = *end == ',' ? end + 1 : end;
	}
	return false;
}

static void raced_levels(const struct csv_file *f, const struct csv_row *const *rows, uint32_t n,
                         double *level)
{
	uint32_t P = f->sample_processes, R = f->sample_rounds;
	double *y = malloc(((size_t)n * R + 1) * sizeof *y);
	/* the run's rule (harness/core/collection.h): the group's busy processes set aside while
	 * they are fewer than half of its processes, never its first */
	uint32_t measured = 0, busy = 0, first = UINT32_MAX;
	for (uint32_t q = 0; q < P; q++) {
		bool any = false;
		for (uint32_t i = 0; i < n && !any; i++)
			for (uint32_t t = 0; t < R && !any && rows[i]->samples; t++)
				any = !isnan(rows[i]->samples[(size_t)q * R + t]);
		if (!any)
			continue;
		first = first == UINT32_MAX ? q : first;
		measured++;
		busy += busy_process(f, q);
	}
	for (uint32_t q = 0; q < P; q++) {
		if (q != first && busy_process(f, q) && 2 * busy < measured) {
			for (uint32_t i = 0; i < n; i++)
				level[(size_t)q * n + i] = NAN;
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t t = 0; t < R; t++) {
				double x = y && rows[i]->samples ? rows[i]->samples[(size_t)q * R + t] : NAN;
				if (y)
					y[(size_t)i * R + t] = !isnan(x) && x > 0 ? log(x) : NAN;
			}
		if (y)
			race_levels(y, n, R, level + (size_t)q * n);
		else
			for (uint32_t i = 0; i < n; i++)
				level[(size_t)q * n + i] = NAN;
	}
	free(y);
}

/* Row i's centre, its log standard error and processes, from its levels. */
static bool level_centre(const double *level, uint32_t processes, uint32_t n, uint32_t i,
                         double *centre, double *se, uint32_t *count)
{
	double mean;
	*count = race_level_mean(level, n, processes, i, &mean, se);
	if (*count < 2)
		return false;
	*centre = exp(mean);
	return true;
}

/* The rows of group [i, end) of f, and their counterparts in g (NULL where g lacks one). */
static uint32_t group_rows_of(const struct csv_file *f, uint32_t i, uint32_t end,
                              const struct csv_file *g, const struct csv_row **mine,
                              const struct csv_row **theirs)
{
	uint32_t n = 0;
	for (uint32_t j = i; j < end; j++) {
		mine[n] = &f->rows[j];
		theirs[n] = csv_find(g, &f->rows[j]);
		n++;
	}
	return n;
}

/* --repeat of two raced runs: every figure from their samples as the race computes them. */
static void repeat_raced(const struct csv_file *a, const struct csv_file *b,
                         struct repeat_result *r, struct rerun_cases *rows,
                         struct rerun_cases *ratios)
{
	for (uint32_t i = 0; i < a->count;) {
		uint32_t end = compare_group_end(a, i), n = end - i;
		const struct csv_row **x = calloc(n + 1, sizeof *x), **y = calloc(n + 1, sizeof *y);
		double *la = malloc(((size_t)a->sample_processes * n + 1) * sizeof *la);
		double *lb = malloc(((size_t)b->sample_processes * n + 1) * sizeof *lb);
		if (!x || !y || !la || !lb) {
			free(x);
			free(y);
			free(la);
			free(lb);
			return;
		}
		group_rows_of(a, i, end, b, x, y);
		raced_levels(a, x, n, la);
		/* run 2's levels in run 1's order of rows (a row it lacks: NaN) */
		for (uint32_t j = 0; j < n; j++)
			if (!y[j])
				y[j] = x[j]; /* placeholder, never read: its levels are set NaN below */
		raced_levels(b, y, n, lb);
		for (uint32_t j = 0; j < n; j++)
			if (!csv_find(b, x[j]))
				for (uint32_t q = 0; q < b->sample_processes; q++)
					lb[(size_t)q * n + j] = NAN;
		for (uint32_t j = 0; j < n; j++) {
			if (!csv_find(b, x[j]))
				continue;
			r->rows++;
			double c1, se1, c2, se2;
			uint32_t n1, n2;
			bool h1 = level_centre(la, a->sample_processes, n, j, &c1, &se1, &n1);
			bool h2 = level_centre(lb, b->sample_processes, n, j, &c2, &se2, &n2);
			if (!h1 || !h2)
				continue;
			double half = stats_t975(n1 - 1.0) * se1, lo, hi;
			r->agree += fabs(c2 / c1 - 1) <= 0.05;
			r->row_covered += inside(c2, c1 * exp(-half), c1 * exp(half));
			if (stats_rerun(c1, se1, n1 - 1.0, STATS_RERUN_ROW_SD, &lo, &hi)) {
				r->rows_with_pi++;
				r->rows_predicted += inside(c2, lo, hi);
				rerun_add(rows, c1, se1, n1 - 1.0, c2, se2);
			}
		}
		for (uint32_t j = 0; j < n; j++)
			for (uint32_t k = j + 1; k < n; k++) {
				if (compare_is_floor(x[j]) || compare_is_floor(x[k]) || !csv_find(b, x[j]) ||
				    !csv_find(b, x[k]))
					continue;
				r->pairs++;
				r->rounds_missing++;
				double m1, s1, m2, s2;
				uint32_t p1, p2;
				bool ok1 = race_pair(la, n, a->sample_processes, k, j, &m1, &s1, &p1);
				bool ok2 = race_pair(lb, n, b->sample_processes, k, j, &m2, &s2, &p2);
				if (!ok1 || !ok2) {
					r->missing_pairs[r->missing_count++] = (struct repeat_pair){.x = x[j], .y = x[k]};
					r->missing++;
					continue;
				}
				struct stats_ratio r1 = {.ratio = exp(m1), .has_interval = true, .log_se = s1, .pairs = p1};
				struct stats_ratio r2 = {.ratio = exp(m2), .has_interval = true, .log_se = s2, .pairs = p2};
				double h1 = stats_t975(p1 - 1.0) * s1, h2 = stats_t975(p2 - 1.0) * s2;
				r1.low = exp(m1 - h1);
				r1.high = exp(m1 + h1);
				r2.low = exp(m2 - h2);
				r2.high = exp(m2 + h2);
				rerun_add(ratios, r1.ratio, s1, p1 - 1.0, r2.ratio, s2);
				bool c1 = r1.low > 1 || r1.high < 1, c2 = r2.low > 1 || r2.high < 1;
				if ((c1 || c2) && (r1.ratio > 1) != (r2.ratio > 1)) {
					r->swaps[r->swap_count++] = (struct repeat_pair){
						.x = x[j], .y = x[k], .r1 = r1, .r2 = r2, .both = c1 && c2};
					r->swaps_both += c1 && c2;
					r->swapped++;
				}
				r->called += c1 || c2;
				r->called_both += c1 && c2;
				r->covered += inside(r2.ratio, r1.low, r1.high);
				r->width_sum += 2 * h1;
			}
		free(x);
		free(y);
		free(la);
		free(lb);
		i = end;
	}
}

int compare_repeat(const struct csv_file *a, const struct csv_file *b, struct repeat_result *r)
{
	memset(r, 0, sizeof *r);
	/* at most one entry per pair of rows of a group */
	size_t most = 1;
	for (uint32_t i = 0; i < a->count;) {
		uint32_t end = compare_group_end(a, i);
		most += (size_t)(end - i) * (end - i);
		i = end;
	}
	r->swaps = calloc(most, sizeof *r->swaps);
	r->missing_pairs = calloc(most, sizeof *r->missing_pairs);
	if (!r->swaps || !r->missing_pairs) {
		compare_repeat_free(r);
		return -1;
	}
	uint64_t seed = 1;
	struct rerun_cases rows = {0}, ratios = {0};
	r->raced = a->raced && b->raced;
	if (r->raced)
		repeat_raced(a, b, r, &rows, &ratios);
	for (uint32_t i = 0; i < a->count && !r->raced; i++) {
		const struct csv_row *x1 = &a->rows[i], *x2 = csv_find(b, x1);
		if (!x2)
			continue;
		r->rows++;
		/* Each run's row as ecsbench computes it now, from its samples. */
		struct row_stats s1, s2;
		stats_row(x1->samples, x1->processes, x1->reps, &s1);
		stats_row(x2->samples, x2->processes, x2->reps, &s2);
		r->agree += s1.centre > 0 && fabs(s2.centre / s1.centre - 1) <= 0.05;
		r->row_covered += s1.has_interval && inside(s2.centre, s1.ci_low, s1.ci_high);
		if (s1.has_rerun && s2.has_interval) {
			r->rows_with_pi++;
			r->rows_predicted += inside(s2.centre, s1.rerun_low, s1.rerun_high);
			rerun_add(&rows, s1.centre, s1.log_se, s1.units - 1.0, s2.centre, s2.log_se);
		}
		if (compare_is_floor(x1))
			continue;
		for (uint32_t j = i + 1; j < a->count; j++) {
			const struct csv_row *y1 = &a->rows[j];
			if (!csv_same_group(x1, y1) || compare_is_floor(y1))
				continue;
			const struct csv_row *y2 = csv_find(b, y1);
			if (!y2)
				continue;
			repeat_pair(r, x1, y1, x2, y2, seed, &ratios);
			seed += 2;
		}
	}
	r->pairs_with_pi = ratios.count;
	r->pairs_predicted = rerun_covered(&ratios, STATS_RERUN_RATIO_SD);
	rerun_between(&rows, &r->row_between, &r->row_between_95);
	rerun_between(&ratios, &r->ratio_between, &r->ratio_between_95);
	free(rows.v);
	free(ratios.v);
	struct compare_result cr;
	if (compare_runs(a, b, &cr) == 0) {
		r->compare_rows = cr.count;
		for (int k = 0; k < 2; k++)
			r->compare_called[k] = cr.verdicts[k][COMPARE_FASTER] + cr.verdicts[k][COMPARE_SLOWER];
		compare_result_free(&cr);
	}
	return 0;
}

void compare_repeat_free(struct repeat_result *r)
{
	free(r->swaps);
	free(r->missing_pairs);
	r->swaps = r->missing_pairs = NULL;
}

/* --- --stats ------------------------------------------------------------------------------ */

/* The name of the backend a row is a copy of: "sparse~2" -> "sparse" (build/ecsbench --twin). */
static size_t base_length(const char *name)
{
	return strcspn(name, "~");
}

/* Whether m[k] is slower than the best m[b] by an interval at two-sided `level`. */
static bool slower_at(const struct stats_member *m, uint32_t k, int b, uint32_t processes,
                      double level)
{
	struct stats_ratio plain;
	return stats_ratio(m[k].samples, m[k].reps, m[b].samples, m[b].reps, processes, level,
	                   &plain) &&
	       plain.has_interval && plain.low > 1;
}

static bool slower_at_95(const struct stats_member *m, uint32_t k, int b, uint32_t processes)
{
	return slower_at(m, k, b, processes, 0.95);
}

/* The candidates of a group (the rows stats_group compares). */
static uint32_t candidates_of(const struct stats_member *m, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		k += m[i].candidate && m[i].row.units > 0;
	return k;
}

/* A/A: the copies of the best's backend, other than the best itself. */
static void copies_of_best(const struct csv_file *f, uint32_t i, const struct stats_member *m,
                           struct restat_group *g)
{
	const char *bn = f->rows[i + (uint32_t)g->best].backend;
	for (uint32_t k = 0; k < g->n; k++) {
		const char *name = f->rows[i + k].backend;
		if ((int)k == g->best || !m[k].has_ratio || base_length(name) != base_length(bn) ||
		    strncmp(name, bn, base_length(bn)) != 0)
			continue;
		g->copies++;
		g->copies_slower += strcmp(m[k].verdict, "slower") == 0;
		/* the same comparison at 95%, as if the best had been named in advance; and at the
		 * level ecsbench used before, Bonferroni over the K - 1 comparisons with the best */
		g->copies_slower_plain += slower_at_95(m, k, g->best, g->processes);
		uint32_t K = candidates_of(m, g->n);
		g->copies_slower_before +=
			slower_at(m, k, g->best, g->processes, K > 2 ? 1 - 0.05 / (K - 1) : 0.95);
	}
}

int compare_restat(const struct csv_file *f, uint32_t i, uint32_t n, struct stats_member *m,
                   struct restat_group *g)
{
	memset(g, 0, sizeof *g);
	g->n = n;
	for (uint32_t k = 0; k < n; k++) {
		const struct csv_row *r = &f->rows[i + k];
		g->processes = r->processes > g->processes ? r->processes : g->processes;
		m[k] = (struct stats_member){.samples = r->samples, .reps = r->reps,
		                             .candidate = !compare_is_floor(r)};
	}
	/* A row measured in fewer processes than its group (it cannot be, in a run that ended
	 * well) reads as missing the last ones. */
	g->held = calloc(n, sizeof *g->held);
	g->slower_plain = calloc(n + 1, sizeof *g->slower_plain);
	g->slower_before = calloc(n + 1, sizeof *g->slower_before);
	if (!g->slower_plain || !g->slower_before)
		return -1;
	for (uint32_t k = 0; k < n && g->held; k++) {
		const struct csv_row *r = &f->rows[i + k];
		if (r->processes >= g->processes || !(g->held[k] = padded(r, g->processes, r->reps)))
			continue;
		for (uint32_t p = r->processes; p < g->processes; p++)
			for (uint32_t q = 0; q < r->reps; q++)
				g->held[k][(size_t)p * r->reps + q] = NAN;
		m[k].samples = g->held[k];
	}
	g->best = stats_group(m, n, g->processes);
	/* The best by the pooled median of all samples, as ecsbench chose before. */
	g->pooled = -1;
	double pooled_best = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct csv_row *r = &f->rows[i + k];
		if (compare_is_floor(r) || r->median <= 0)
			continue;
		if (g->pooled < 0 || r->median < pooled_best) {
			g->pooled = (int)k;
			pooled_best = r->median;
		}
	}
	for (uint32_t k = 0; k < n; k++)
		if (m[k].has_ratio && (int)k != g->best)
			g->slower_plain[k] = slower_at_95(m, k, g->best, g->processes);
	uint32_t K = candidates_of(m, n);
	for (uint32_t k = 0; k < n; k++)
		if (m[k].has_ratio && (int)k != g->best)
			g->slower_before[k] =
				slower_at(m, k, g->best, g->processes, K > 2 ? 1 - 0.05 / (K - 1) : 0.95);
	if (g->best >= 0)
		copies_of_best(f, i, m, g);
	return 0;
}

void compare_restat_free(struct restat_group *g)
{
	for (uint32_t k = 0; k < g->n && g->held; k++)
		free(g->held[k]);
	FREE_AND_NULL(g->held);
	FREE_AND_NULL(g->slower_plain);
	FREE_AND_NULL(g->slower_before);
}

void compare_restat_add(struct restat_totals *t, const struct csv_file *f, uint32_t i,
                        const struct stats_member *m, const struct restat_group *g)
{
	t->groups += g->best >= 0;
	t->pooled_differs += g->best >= 0 && g->pooled >= 0 && g->pooled != g->best;
	for (uint32_t k = 0; k < g->n; k++) {
		const struct stats_member *x = &m[k];
		t->file_noisy += f->rows[i + k].noisy;
		if (!x->has_ratio)
			continue;
		t->rows++;
		t->best += strcmp(x->verdict, "best") == 0;
		t->slower += strcmp(x->verdict, "slower") == 0;
		t->tied += strcmp(x->verdict, "tied") == 0;
		t->below += x->vs_best.ratio < 1;
		t->noisy += x->noisy;
		if ((int)k != g->best) {
			t->others++;
			t->others_noisy += x->noisy;
			t->slower_plain += g->slower_plain[k];
			t->slower_before += g->slower_before[k];
		}
	}
	if (g->best >= 0) {
		t->aa_groups += g->copies > 0;
		t->aa_false += g->copies_slower > 0;
		t->aa_false_plain += g->copies_slower_plain > 0;
		t->aa_false_before += g->copies_slower_before > 0;
		t->aa_copies += g->copies;
		t->aa_copies_false += g->copies_slower;
	}
}
