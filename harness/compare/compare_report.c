/*
 * compare_report.c: make compare's output (compare_report.h): the screen, the full report of
 * every row, and the verdicts CSV, from compare_stats.c's figures. Formats only.
 *
 * The screen answers "what changed?" before anything else and stays within a terminal's
 * height: a run of make bench has hundreds of rows, and a table of them all hid the few that
 * were called and the per-backend means, which see changes too small for any one row. Its
 * lines keep within about 100 columns, so that a line a terminal wraps does not take two.
 *
 * Costs: a sort of the rows called (the screen's order); the rest is a pass over the pairs.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "answer_report.h"
#include "compare_report.h"
#include "../core/machine.h"
#include "../core/race.h"
#include "../core/stats.h"

static const char *const side_names[2] = {"OLD", "NEW"};

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

/* A row's time as make compare prints it, as the answer gives it: ns an entity (the CSV's
 * ns_per_entity: per entity and round for Varkor's, per pass for empty-pass), a scenario's ns
 * a frame. */
static double per_entity(const struct csv_file *f, const struct csv_row *r)
{
	if (f->scenario)
		return r->median;
	if (!isnan(r->ns_per_entity))
		return r->ns_per_entity;
	return r->entities ? r->median / r->entities : r->median;
}

/* "1.342 [1.101, 1.635]", or "1.342 [no interval]" */
static void ratio_text(char *buf, size_t len, double ratio, double low, double high, bool has)
{
	if (has)
		snprintf(buf, len, "%.3f [%.3f, %.3f]", ratio, low, high);
	else
		snprintf(buf, len, "%.3f [no interval]", ratio);
}

/* What each run measured that the other did not (compare_settings): said before the rows, so
 * that a comparison of runs of other settings says what it compares and what it cannot. */
static void print_settings(FILE *out, const struct compare_report *r)
{
	struct compare_settings s;
	compare_settings(r->old, r->new_, &s);
	fprintf(out, "Compared: the %u rows both runs measured.\n", r->res->count);
	for (int i = 0; i < 2; i++) {
		if (!s.workloads[i][0] && !s.entities[i][0] && !s.components[i][0] && !s.backends[i][0])
			continue;
		fprintf(out, "Only in %s, not compared:", side_names[i]);
		const char *sep = "";
		if (s.workloads[i][0]) {
			fprintf(out, " workloads %s", s.workloads[i]);
			sep = ";";
		}
		if (s.entities[i][0]) {
			fprintf(out, "%s N = %s (of workloads both measured)", sep, s.entities[i]);
			sep = ";";
		}
		if (s.components[i][0]) {
			fprintf(out, "%s k = %s", sep, s.components[i]);
			sep = ";";
		}
		if (s.backends[i][0])
			fprintf(out, "%s backends %s", sep, s.backends[i]);
		fprintf(out, ".\n");
	}
	if (s.raced[0][0] && s.raced[1][0]) {
		if (strcmp(s.raced[0], s.raced[1]) != 0)
			fprintf(out,
			        "Measured otherwise: OLD raced %s, NEW %s; each row is compared with its own "
			        "interval, so the run of fewer processes decides less.\n",
			        s.raced[0], s.raced[1]);
	} else if (s.processes[0] != s.processes[1] || s.reps[0] != s.reps[1])
		fprintf(out,
		        "Measured otherwise: OLD in %u processes of %u samples a row, NEW in %u of %u; "
		        "each row is compared with its own interval, so the rows of the run with fewer "
		        "processes decide less.\n",
		        s.processes[0], s.reps[0], s.processes[1], s.reps[1]);
	/* said once where both runs have it */
	bool both = s.processes[0] == s.processes[1];
	for (int i = 0; i < (both ? 1 : 2); i++)
		if (s.processes[i] == 2)
			fprintf(out,
			        "%s 2 processes a row: %s intervals are Student's t with 1 degree of "
			        "freedom (%.1f standard errors each side, where 5 processes have %.2f), too "
			        "wide to decide most rows; run %s with PROCESSES=5 to compare.\n",
			        both ? "Both runs have" : i ? "NEW has" : "OLD has", both ? "their" : "its",
			        stats_t975(1), stats_t975(4), both ? "them" : "it");
		else if (s.processes[i] < 2)
			fprintf(out,
			        "%s 1 process a row: %s intervals are within that process only and say "
			        "nothing of another run.\n",
			        both ? "Both runs have" : i ? "NEW has" : "OLD has", both ? "their" : "its");
}

/* --- the full report (--rows) ------------------------------------------------------------- */

static void print_rows_head(FILE *out, const struct compare_report *r)
{
	const struct csv_file *old = r->old, *new_ = r->new_;
	fprintf(out, "OLD %s (commit %s, %s)\nNEW %s (commit %s, %s)\n", r->paths[0], old->commit,
	        old->date, r->paths[1], new_->commit, new_->date);
	machine_compare_print(out, r->paths[0], r->paths[1], old, new_, NULL, 0);
	if (r->profiles)
		fprintf(out, "Profiles: rows matched without the profile, %s.\n", r->drift_is);
	if (new_->scenario)
		fprintf(out,
		        "Scenario %s: a row per participant and phase (frame: the whole frame), ns per "
		        "frame; entities: at the start.\n",
		        new_->rows[0].profile);
	else
		fprintf(out, "Times: ns an entity (the CSV's ns_per_entity: Varkor's workloads per entity "
		             "and round, empty-pass per pass).\n");
	print_settings(out, r);
	fprintf(out, "\n");
	fprintf(out, "%-10s %-30s %8s %2s %10s %10s %22s  %-9s %s\n", "backend",
	        new_->scenario ? "phase" : "workload", "entities", "k",
	        new_->scenario ? "old ns" : "old ns/e", new_->scenario ? "new ns" : "new ns/e",
	        "new/old [95% interval]", "verdict", "without drift");
}

static void print_row(FILE *out, const struct compare_report *r, const struct compare_pair *p)
{
	char interval[64], was[24], now[24], label[96];
	ratio_text(interval, sizeof interval, p->ratio, p->low, p->high, p->has_interval);
	row_label(r->new_, p->new_, label, sizeof label);
	answer_report_digits(was, sizeof was, per_entity(r->old, p->old));
	answer_report_digits(now, sizeof now, per_entity(r->new_, p->new_));
	fprintf(out, "%-10s %-30s %8u %2u %10s %10s %22s  %-9s %s\n", p->new_->backend, label,
	        p->new_->entities, p->new_->components, was, now, interval, p->verdict, p->adjusted);
}

/* The median of the pairs' own half widths (the two runs' sampling) and of their whole ones,
 * on a log scale; NaN where no pair has an interval. */
static void median_halves(const struct compare_result *res, double *own, double *whole)
{
	double *a = calloc(res->count + 1, sizeof *a), *b = calloc(res->count + 1, sizeof *b);
	uint32_t n = 0;
	for (uint32_t i = 0; a && b && i < res->count; i++)
		if (res->pairs[i].has_interval) {
			a[n] = res->pairs[i].own_half;
			b[n++] = res->pairs[i].half;
		}
	*own = n ? stats_median(a, n) : NAN;
	*whole = n ? stats_median(b, n) : NAN;
	free(a);
	free(b);
}

/* Why rows are undecided, where most are: their intervals, and what makes them wide. */
static void print_undecided(FILE *out, const struct compare_result *res)
{
	unsigned undecided = res->verdicts[0][COMPARE_UNDECIDED];
	if (!res->count || undecided * 4 < res->count)
		return;
	double median, whole;
	median_halves(res, &median, &whole);
	fprintf(out,
	        "%u of the %u rows are undecided: their interval holds 1 and reaches beyond +-%.0f%%. ",
	        undecided, res->count, 100 * COMPARE_SAME_MARGIN);
	if (!isnan(median))
		fprintf(out,
		        "Half of the rows' own intervals (the two runs' sampling) are wider than "
		        "+-%.1f%%, and the between-run term adds +-%.1f%%: %s\n",
		        100 * (exp(median) - 1), 100 * (exp(1.959964 * STATS_RERUN_ROW_SD) - 1),
		        median > 1.959964 * STATS_RERUN_ROW_SD
		            ? "the runs' own intervals decide less than the machine allows: more "
		              "processes (PROCESSES=9) in both runs narrow them"
		            : "two runs on this machine cannot tell changes that small; compare the "
		              "backends' geometric means below, or run both sides in one session");
	else
		fprintf(out, "No row has an interval in both runs.\n");
}

static void print_rows_summary(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	bool profiles = r->profiles;
	fprintf(out, "\n%u rows compared; %u only in OLD, %u only in NEW\n", res->count, res->only_old,
	        res->only_new);
	fprintf(out,
	        "Drift%s: NEW ran at %.3fx OLD's times, the median over the %u rows in common (half "
	        "of them between %.3fx and %.3fx)",
	        profiles ? " (the profiles' difference, not the machine's)" : "", exp(res->drift),
	        res->count, exp(res->q1), exp(res->q3));
	if (res->has_floor_drift)
		fprintf(out, "; the floor rows alone: %.3fx", exp(res->floor_drift));
	fprintf(out, ".\n");
	fprintf(out,
	        "Between two runs a row moves by about +-%.1f%% (one standard deviation) beyond its "
	        "own interval (make repeat, make bench's default sweep: docs/trust.md); every interval "
	        "above allows for it. ",
	        100 * (exp(STATS_RERUN_ROW_SD) - 1));
	if (res->between > 0)
		fprintf(out,
		        "These two runs' rows moved by about +-%.1f%% beyond the drift and their "
		        "intervals; the verdicts without drift allow for the larger.\n",
		        100 * (exp(res->between) - 1));
	else
		fprintf(out, "These two runs' rows moved no more than their own intervals say (too few "
		             "rows, or intervals wider than the rows moved).\n");
	double drift = res->drift;
	if (profiles)
		fprintf(out,
		        "Profile %s ran %.0f%% %s than profile %s in the median row: the verdicts say "
		        "what the profile costs each row; without drift, which rows pay more or less than "
		        "the median row.\n",
		        r->new_->rows[0].profile, 100 * fabs(exp(drift) - 1),
		        drift > 0 ? "slower" : "faster", r->old->rows[0].profile);
	else if (fabs(drift) > log(1 + COMPARE_SAME_MARGIN))
		fprintf(out,
		        "The machine itself ran %.0f%% %s the second time: read the verdicts without "
		        "drift.\n",
		        100 * fabs(exp(drift) - 1), drift > 0 ? "slower" : "faster");
	for (int a = 0; a < 2; a++)
		fprintf(out, "Verdicts%s: %u faster, %u slower, %u same (within +-5%%), %u undecided\n",
		        a ? (profiles ? " with the median profile difference divided out"
		                      : " with the drift divided out")
		          : "",
		        res->verdicts[a][COMPARE_FASTER], res->verdicts[a][COMPARE_SLOWER],
		        res->verdicts[a][COMPARE_SAME], res->verdicts[a][COMPARE_UNDECIDED]);
	print_undecided(out, res);
	fprintf(out,
	        "\nPer backend, the geometric mean of new/old over its rows, with a 95%% t interval "
	        "across them and what a backend's rows move together between runs (+-%.1f%%), then "
	        "over the %s:\n",
	        100 * (exp(STATS_RERUN_BACKEND_SD) - 1),
	        profiles ? "median row" : "drift (the median row)");
	for (uint32_t i = 0; i < res->backend_count; i++) {
		const struct compare_backend *b = &res->backends[i];
		if (b->rows < 2)
			fprintf(out, "  %-10s %.3f (%u row)\n", b->name, b->geomean, b->rows);
		else
			fprintf(out, "  %-10s %.3f [%.3f, %.3f]; over the %s %.3f [%.3f, %.3f]: %s (%u rows)\n",
			        b->name, b->geomean, b->low, b->high, profiles ? "median" : "drift",
			        b->relative, b->relative_low, b->relative_high,
			        b->relative_low > 1    ? "slower than the other rows"
			        : b->relative_high < 1 ? "faster than the other rows"
			                               : "moved as the other rows did",
			        b->rows);
	}
}

void compare_report_rows(FILE *out, const struct compare_report *r)
{
	print_rows_head(out, r);
	for (uint32_t i = 0; i < r->res->count; i++)
		print_row(out, r, &r->res->pairs[i]);
	print_rows_summary(out, r);
}

/* --- the verdicts CSV (--output) ---------------------------------------------------------- */

void compare_report_verdicts(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	fprintf(out, "# ecsbench-compare OLD %s (commit %s, %s) NEW %s (commit %s, %s)\n"
	             "# drift %.4f (median new/old over %u rows)\n# machine %s\n",
	        r->paths[0], r->old->commit, r->old->date, r->paths[1], r->new_->commit, r->new_->date,
	        exp(res->drift), res->count, r->machine);
	if (r->profiles)
		fprintf(out, "# profiles OLD %s NEW %s: rows matched without the profile; %s\n",
		        r->old->rows[0].profile, r->new_->rows[0].profile, r->drift_is);
	fprintf(out, "backend,profile,workload,entities,components,old_ns,old_low,old_high,new_ns,"
	             "new_low,new_high,ratio,ratio_low,ratio_high,verdict,verdict_without_drift,"
	             "threads\n");
	for (uint32_t i = 0; i < res->count; i++) {
		const struct compare_pair *p = &res->pairs[i];
		fprintf(out, "%s,%s,%s,%u,%u,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.4f,%.4f,%.4f,%s,%s,%u\n",
		        p->new_->backend, p->new_->profile, p->new_->workload, p->new_->entities,
		        p->new_->components, p->old->median, p->old->ci_low, p->old->ci_high,
		        p->new_->median, p->new_->ci_low, p->new_->ci_high, p->ratio, p->low, p->high,
		        p->verdict, p->adjusted, p->new_->threads);
	}
}

/* --- the screen ---------------------------------------------------------------------------- */

/* The screen's width: its sentences wrap there (its tables fit it). */
#define SCREEN_COLUMNS 100

/* What print writes, each line wrapped at SCREEN_COLUMNS on spaces, continued two spaces in. */
static void print_wrapped(FILE *out, void (*print)(FILE *, const struct compare_report *),
                          const struct compare_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *buf = open_memstream(&text, &len);
	if (!buf) { /* unwrapped rather than nothing */
		print(out, r);
		return;
	}
	print(buf, r);
	if (fclose(buf) != 0) {
		free(text);
		print(out, r);
		return;
	}
	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n"), col = 0;
		const char *at = line, *end = line + n;
		while (at < end) {
			size_t room = SCREEN_COLUMNS - col, left = (size_t)(end - at), cut = left;
			if (left > room) { /* the last space that fits, or the first after */
				cut = room;
				while (cut > 0 && at[cut] != ' ')
					cut--;
				if (cut == 0)
					cut = strcspn(at, " ") < left ? strcspn(at, " ") : left;
			}
			fprintf(out, "%s%.*s\n", col ? "  " : "", (int)cut, at);
			at += cut;
			while (at < end && *at == ' ')
				at++;
			col = 2;
		}
		if (n == 0)
			fprintf(out, "\n");
		line = *end ? end + 1 : end;
	}
	free(text);
}

/* "AMD EPYC, 2 online" from the CSV's "AMD EPYC; 2 online; pinned to ...": the CPU without how
 * the run pinned itself. */
static void cpu_short(const char *cpu, char *buf, size_t len)
{
	size_t a = strcspn(cpu, ";");
	if (!cpu[a]) {
		snprintf(buf, len, "%s", cpu[0] ? cpu : "CPU not recorded");
		return;
	}
	const char *second = cpu + a + 1 + strspn(cpu + a + 1, " ");
	snprintf(buf, len, "%.*s, %.*s", (int)a, cpu, (int)strcspn(second, ";"), second);
}

static void print_run(FILE *out, const struct compare_report *r, int side)
{
	const struct csv_file *f = side ? r->new_ : r->old;
	char cpu[200], other[200];
	cpu_short(f->cpu, cpu, sizeof cpu);
	cpu_short(side ? r->old->cpu : r->new_->cpu, other, sizeof other);
	fprintf(out, "%s %s: commit %s%s%s, %s", side_names[side], r->paths[side],
	        f->commit[0] ? f->commit : "not recorded", f->date[0] ? ", " : "", f->date,
	        side && strcmp(cpu, other) == 0 ? "the same CPU" : cpu);
	if (r->profiles || f->scenario)
		fprintf(out, ", %s %s", f->scenario ? "scenario" : "profile", f->rows[0].profile);
	fprintf(out, "\n");
}

/* What the drift says, in a line: the machine's own change between the runs (whether to read
 * the verdicts without it), or with profiles, what the larger profile costs the median row. */
static void print_drift(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	char floors[48] = "";
	if (res->has_floor_drift)
		snprintf(floors, sizeof floors, " (floor rows %.3fx)", exp(res->floor_drift));
	double drift = res->drift;
	if (r->profiles)
		fprintf(out, "Profile %s: %.3fx %s's times in the median row%s: the profile's cost, not drift.\n",
		        r->new_->rows[0].profile, exp(drift), r->old->rows[0].profile, floors);
	else if (fabs(drift) > log(1 + COMPARE_SAME_MARGIN))
		fprintf(out,
		        "Drift: NEW ran at %.3fx OLD's times in the median row%s: the machine itself ran "
		        "%.0f%% %s the second time: read the verdicts without drift.\n",
		        exp(drift), floors, 100 * fabs(exp(drift) - 1), drift > 0 ? "slower" : "faster");
	else
		fprintf(out, "Drift: NEW ran at %.3fx OLD's times in the median row%s, within +-%.0f%%.\n",
		        exp(drift), floors, 100 * COMPARE_SAME_MARGIN);
}

static void print_backends(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	const char *over = r->profiles ? "the median row" : "the drift";
	fprintf(out, "Per backend, NEW/OLD over its rows (geometric mean, 95%% interval), then over %s:\n",
	        over);
	fprintf(out, "  %-10s %4s  %-22s %-9s  %-22s %s\n", "backend", "rows", "new/old [95% interval]",
	        "verdict", r->profiles ? "over the median row" : "over the drift", "verdict");
	for (uint32_t i = 0; i < res->backend_count; i++) {
		const struct compare_backend *b = &res->backends[i];
		char raw[64], rel[64];
		bool has = b->rows >= 2;
		ratio_text(raw, sizeof raw, b->geomean, b->low, b->high, has);
		ratio_text(rel, sizeof rel, b->relative, b->relative_low, b->relative_high, has);
		fprintf(out, "  %-10s %4u  %-22s %-9s  %-22s %s\n", b->name, b->rows, raw,
		        compare_verdict(b->low, b->high), rel,
		        compare_verdict(b->relative_low, b->relative_high));
	}
}

static bool called(const char *verdict)
{
	return strcmp(verdict, "faster") == 0 || strcmp(verdict, "slower") == 0;
}

/* Whether the verdicts to read are those without the drift: the machine itself moved by more
 * than the margin of "same" (with two profiles the median row is the profiles' cost, and the
 * verdicts as measured say what the profile costs each row). */
static bool read_without_drift(const struct compare_report *r)
{
	return !r->profiles && fabs(r->res->drift) > log(1 + COMPARE_SAME_MARGIN);
}

/* A row called faster or slower, as the screen orders them: those called by the verdicts to read
 * first (read_without_drift), then the answer's rows before others (the largest N of each
 * workload), then the next N down, and so on; NEW's order within. */
struct listed {
	const struct compare_pair *pair;
	bool secondary; /* called only by the verdicts not to read */
	uint32_t rank;  /* how many larger N its workload has */
	uint32_t index; /* in NEW's order */
};

static int compare_listed(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	if (x->secondary != y->secondary)
		return x->secondary ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* How many larger N the workload (and T) of p has among the pairs. Quadratic in the pairs of
 * one workload, which are a few dozen. */
static uint32_t rank_of(const struct compare_result *res, const struct compare_pair *p)
{
	uint32_t rank = 0;
	for (uint32_t i = 0; i < res->count; i++) {
		const struct csv_row *q = res->pairs[i].new_;
		if (q->entities <= p->new_->entities || q->threads != p->new_->threads ||
		    strcmp(q->workload, p->new_->workload) != 0)
			continue;
		bool seen = false; /* count each larger N once */
		for (uint32_t j = 0; j < i && !seen; j++) {
			const struct csv_row *s = res->pairs[j].new_;
			seen = s->entities == q->entities && s->threads == q->threads &&
			       strcmp(s->workload, q->workload) == 0;
		}
		rank += !seen;
	}
	return rank;
}

/* The rows print_called lists, in its order: the called ones of r, *count of them. NULL where
 * none is called (or out of memory). */
static struct listed *called_rows(const struct compare_report *r, uint32_t *count)
{
	const struct compare_result *res = r->res;
	bool adjusted = read_without_drift(r);
	struct listed *v = calloc(res->count + 1, sizeof *v);
	uint32_t n = 0;
	for (uint32_t i = 0; v && i < res->count; i++) {
		const struct compare_pair *p = &res->pairs[i];
		if (called(p->verdict) || called(p->adjusted))
			v[n++] = (struct listed){p, !called(adjusted ? p->adjusted : p->verdict),
			                         rank_of(res, p), i};
	}
	if (v && n == 0) {
		free(v);
		v = NULL;
	}
	if (v)
		qsort(v, n, sizeof *v, compare_listed);
	*count = v ? n : 0;
	return v;
}

static void print_called_head(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	fprintf(out, "Rows called faster or slower: %u as measured, %u %s%s; largest N first:\n",
	        res->verdicts[0][COMPARE_FASTER] + res->verdicts[0][COMPARE_SLOWER],
	        res->verdicts[1][COMPARE_FASTER] + res->verdicts[1][COMPARE_SLOWER],
	        r->profiles ? "over the median row" : "without the drift",
	        read_without_drift(r) ? " (these first)" : "");
}

static void print_called(FILE *out, const struct compare_report *r)
{
	uint32_t n;
	struct listed *v = called_rows(r, &n);
	if (!v) {
		fprintf(out, "No row is called faster or slower, as measured or %s.\n",
		        r->profiles ? "over the median row" : "without the drift");
		return;
	}
	print_wrapped(out, print_called_head, r);
	/* "and N more" takes the last line rather than add one */
	uint32_t shown = n <= COMPARE_REPORT_LISTED ? n : COMPARE_REPORT_LISTED - 1;
	int wb = 7, ww = 8; /* the columns as wide as the names listed */
	char label[96];
	for (uint32_t i = 0; i < shown; i++) {
		row_label(r->new_, v[i].pair->new_, label, sizeof label);
		int b = (int)strlen(v[i].pair->new_->backend), w = (int)strlen(label);
		wb = b > wb ? b : wb;
		ww = w > ww ? w : ww;
	}
	bool scenario = r->new_->scenario;
	fprintf(out, "  %-*s %-*s %7s %1s %8s %8s  %-22s %-9s %s\n", wb, "backend", ww,
	        scenario ? "phase" : "workload", "N", "k", scenario ? "old ns" : "old ns/e",
	        scenario ? "new ns" : "new ns/e", "new/old [95% interval]", "verdict",
	        r->profiles ? "over median" : "without drift");
	for (uint32_t i = 0; i < shown; i++) {
		const struct compare_pair *p = v[i].pair;
		char interval[64], was[24], now[24];
		ratio_text(interval, sizeof interval, p->ratio, p->low, p->high, p->has_interval);
		row_label(r->new_, p->new_, label, sizeof label);
		answer_report_digits(was, sizeof was, per_entity(r->old, p->old));
		answer_report_digits(now, sizeof now, per_entity(r->new_, p->new_));
		fprintf(out, "  %-*s %-*s %7u %1u %8s %8s  %-22s %-9s %s\n", wb, p->new_->backend, ww,
		        label, p->new_->entities, p->new_->components, was, now, interval, p->verdict,
		        p->adjusted);
	}
	if (shown < n)
		fprintf(out, "  and %u more: every row is in the full table (%s)\n", n - shown,
		        r->rows_in ? "the last line names it" : "--rows");
	free(v);
}

static void print_counts(FILE *out, const struct compare_report *r)
{
	const unsigned(*v)[COMPARE_VERDICTS] = r->res->verdicts;
	fprintf(out,
	        "Verdicts: %u faster, %u slower, %u same (within +-%.0f%%), %u undecided; %s: %u, "
	        "%u, %u, %u.\n",
	        v[0][COMPARE_FASTER], v[0][COMPARE_SLOWER], v[0][COMPARE_SAME], 100 * COMPARE_SAME_MARGIN,
	        v[0][COMPARE_UNDECIDED],
	        r->profiles ? "over the median row" : "without the drift",
	        v[1][COMPARE_FASTER], v[1][COMPARE_SLOWER], v[1][COMPARE_SAME],
	        v[1][COMPARE_UNDECIDED]);
}

/* The median half width of the backends' intervals (log), NaN where none has one: how small a
 * change the per-backend means see. */
static double backend_half(const struct compare_result *res)
{
	double *v = calloc(res->backend_count + 1, sizeof *v), half = NAN;
	uint32_t n = 0;
	for (uint32_t i = 0; v && i < res->backend_count; i++)
		if (res->backends[i].rows >= 2)
			v[n++] = log(res->backends[i].high / res->backends[i].low) / 2;
	if (n)
		half = stats_median(v, n);
	free(v);
	return half;
}

/* An interval's half width h (log) as the screen says it: "+-26.9%", or from a factor of 2 on,
 * where a percentage above 100 reads as nonsense, "x2.11 either way". */
static const char *spread(char *buf, size_t len, double h)
{
	if (exp(h) < 2)
		snprintf(buf, len, "+-%.1f%%", 100 * (exp(h) - 1));
	else
		snprintf(buf, len, "x%.2f either way", exp(h));
	return buf;
}

/* Whether f was raced (harness/core/race.h): its rows have a place in a race. */
static bool raced_run(const struct csv_file *f)
{
	for (uint32_t i = 0; i < f->count; i++)
		if (f->rows[i].race[0])
			return true;
	return false;
}

/*
 * A raced run measures a row in few processes by design (the rows its answer does not read in
 * at most RACE_PLOT_PROCESSES, a backend screened out of its race in one), and such rows' own
 * intervals are what keeps them undecided between two runs: more processes would not change
 * them (the race decides how many a row gets), so the screen says how many rows that is and
 * how wide, beside the others.
 */
static void print_few(FILE *out, const struct compare_result *res)
{
	double *few = calloc(res->count + 1, sizeof *few), *rest = calloc(res->count + 1, sizeof *rest);
	uint32_t nf = 0, nr = 0;
	for (uint32_t i = 0; few && rest && i < res->count; i++) {
		const struct compare_pair *p = &res->pairs[i];
		if (!p->has_interval)
			continue;
		uint32_t processes = p->old->processes < p->new_->processes ? p->old->processes
		                                                           : p->new_->processes;
		if (processes < RACE_FIRST_LOOK)
			few[nf++] = p->own_half;
		else
			rest[nr++] = p->own_half;
	}
	if (nf) {
		char w[32];
		fprintf(out,
		        " %u rows had under %u processes in a run (a raced run gives rows below its "
		        "largest N %u, a backend screened out of its race 1): half wider than %s on their "
		        "own",
		        nf, RACE_FIRST_LOOK, RACE_PLOT_PROCESSES, spread(w, sizeof w, stats_median(few, nf)));
		if (nr)
			fprintf(out, ", the others %s", spread(w, sizeof w, stats_median(rest, nr)));
		fprintf(out, ".");
	}
	free(few);
	free(rest);
}

/*
 * Where most rows are undecided, what the comparison can say and what it cannot, plainly: a
 * row's interval holds both runs' own and what any row moves between two runs, so one row is
 * called only beyond a factor that no number of processes brings down below the second part; a
 * backend's rows move together far less, so its geometric mean sees changes of a few percent.
 */
static void print_cannot(FILE *out, const struct compare_report *r)
{
	const struct compare_result *res = r->res;
	unsigned undecided = res->verdicts[0][COMPARE_UNDECIDED];
	if (!res->count || undecided * 4 < res->count)
		return;
	double own, whole, backend = backend_half(res);
	median_halves(res, &own, &whole);
	if (isnan(own)) {
		fprintf(out, "%u of the %u rows are undecided: no row has an interval in both runs.\n",
		        undecided, res->count);
		return;
	}
	double between = 1.959964 * STATS_RERUN_ROW_SD;
	bool raced = raced_run(r->old) || raced_run(r->new_);
	char w[32];
	fprintf(out,
	        "%u of the %u rows are undecided: a row is called only beyond about x%.2f either way, "
	        "its interval holding both runs' own (half wider than %s) and the +-%.1f%% any "
	        "row moves between two runs, which no number of processes narrows%s.",
	        undecided, res->count, exp(whole), spread(w, sizeof w, own), 100 * (exp(between) - 1),
	        own > between && !raced
	            ? "; more processes in both runs narrow the first part"
	            : "");
	if (raced)
		print_few(out, res);
	if (isnan(backend)) {
		fprintf(out, "\n");
		return;
	}
	if (r->profiles)
		fprintf(out,
		        " What two profiles' runs can say: what profile %s costs each backend over %s, to "
		        "about %s (the means above), and which backends pay more or less than the median "
		        "row; not one row's cost, within x%.2f.\n",
		        r->new_->rows[0].profile, r->old->rows[0].profile, spread(w, sizeof w, backend),
		        exp(whole));
	else
		fprintf(out,
		        " The per-backend means see changes beyond about %s; a smaller one in a row shows "
		        "only between two backends of one run.\n",
		        spread(w, sizeof w, backend));
}

/* The machine states in two lines: the verdict (the brief line the figures' titles carry) and
 * what other work each run met. The full lines are in the rows' report. */
static void print_machine(FILE *out, const struct compare_report *r)
{
	const char *m = r->machine;
	if (strncmp(m, "machine state ", 14) == 0)
		m += 14;
	fprintf(out, "Machine state: %s\n", m);
	struct machine_state s[2];
	machine_compare_read_state(r->paths[0], &s[0]);
	machine_compare_read_state(r->paths[1], &s[1]);
	if (!s[0].recorded && !s[1].recorded)
		return;
	fprintf(out, "  other work on the measuring CPU:");
	for (int i = 0; i < 2; i++) {
		if (!s[i].recorded)
			fprintf(out, " %s not recorded%s", side_names[i], i ? "" : ",");
		else if (isnan(s[i].others_pct)) /* /proc/stat's ticks: a run under 0.2 s has none */
			fprintf(out, " %s not measured (too short)%s", side_names[i], i ? "" : ",");
		else
			fprintf(out, " %s %.1f%%%s", side_names[i], s[i].others_pct, i ? "" : ",");
	}
	bool steal = false;
	for (int i = 0; i < 2; i++)
		steal = steal || (s[i].recorded && s[i].steal_pct >= 0.5);
	if (steal)
		fprintf(out, "; steal: OLD %.1f%%, NEW %.1f%%", s[0].steal_pct, s[1].steal_pct);
	fprintf(out, "\n");
}

static void print_where(FILE *out, const struct compare_report *r)
{
	if (r->rows_in)
		fprintf(out, "Every row and the machine states in full: %s\n", r->rows_in);
	else
		fprintf(out, "Every row and the machine states in full: add --rows.\n");
}

void compare_report_screen(FILE *out, const struct compare_report *r)
{
	print_run(out, r, 0);
	print_run(out, r, 1);
	print_wrapped(out, print_settings, r);
	print_wrapped(out, print_drift, r);
	fprintf(out, "\n");
	print_backends(out, r);
	fprintf(out, "\n");
	print_called(out, r);
	print_wrapped(out, print_counts, r);
	print_wrapped(out, print_cannot, r);
	print_wrapped(out, print_machine, r);
	print_wrapped(out, print_where, r);
}
