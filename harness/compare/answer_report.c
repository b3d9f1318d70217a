/*
 * answer_report.c: a run's answer (answer.h) as records for scripts/answer.sh (see
 * answer_report.h): the run, its warnings, the summary of the uses a game has, then the table
 * per workload; a scenario's frame per point, its crossovers, its frame-time tails and its
 * phases. A provisional CSV (the processes done so far) gets the summary alone, a short block
 * that the next one replaces. Formats only: every decision is answer.c's.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer_report.h"
#include "../core/race.h"
#include "../core/stats.h"

/* --- numbers as a reader reads them ------------------------------------------------------- */

void answer_report_digits(char *buf, size_t len, double x)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (x >= 100)
		snprintf(buf, len, "%.0f", x);
	else if (x >= 10)
		snprintf(buf, len, "%.1f", x);
	else if (x >= 1)
		snprintf(buf, len, "%.2f", x);
	else if (x >= 0.1)
		snprintf(buf, len, "%.3f", x);
	else
		snprintf(buf, len, "%.3g", x);
}

/* The time of a run or a frame: ms, µs or ns. */
static void duration(char *buf, size_t len, double ns)
{
	char v[32];
	answer_report_digits(v, sizeof v, ns >= 1e6 ? ns / 1e6 : ns >= 1e3 ? ns / 1e3 : ns);
	snprintf(buf, len, "%s %s", v, ns >= 1e6 ? "ms" : ns >= 1e3 ? "µs" : "ns");
}

/* A bound of an interval in the unit of the value it goes with. */
static void bound(char *buf, size_t len, double ns, double ref)
{
	answer_report_digits(buf, len, ref >= 1e6 ? ns / 1e6 : ref >= 1e3 ? ns / 1e3 : ns);
}

/* A ratio: 1.05, 12.3, 150, 1.2e+05 */
static void num(char *buf, size_t len, double x)
{
	if (x < 9.995)
		snprintf(buf, len, "%.2f", x);
	else if (x < 99.95)
		snprintf(buf, len, "%.1f", x);
	else if (x < 9999.5)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.2g", x);
}

/* "1.32x [1.08, 1.60]"; an interval wider than ANSWER_MAX_SPAN is not a result: "about 1.7x
 * (unsure: its interval spans 12x)". */
static void ratio_text(char *buf, size_t len, double r, double lo, double hi, bool provisional)
{
	char a[32], b[32], c[32];
	num(a, sizeof a, r);
	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "%sx %s", a, provisional ? "(no interval yet)" : "(no interval)");
	else if (hi > ANSWER_MAX_SPAN * lo) {
		num(b, sizeof b, hi / lo);
		snprintf(buf, len, "about %sx (unsure: its interval spans %sx)", a,
		         hi / lo < 1000 ? b : "more than 1000");
	} else {
		num(b, sizeof b, lo);
		num(c, sizeof c, hi);
		snprintf(buf, len, "%sx [%s, %s]", a, b, c);
	}
}

/* 2^18, or 1,000,000 where N is no power of two. */
static void entities(char *buf, size_t len, uint32_t n)
{
	for (int e = 0; e < 32; e++)
		if ((1u << e) == n) {
			snprintf(buf, len, "2^%d", e);
			return;
		}
	char digits[16];
	snprintf(digits, sizeof digits, "%u", n);
	size_t d = strlen(digits), o = 0;
	for (size_t i = 0; i < d && o + 2 < len; i++) {
		buf[o++] = digits[i];
		if ((d - i - 1) % 3 == 0 && i + 1 < d)
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

/* --- the records ------------------------------------------------------------------------- */

static void record(FILE *out, const char *kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(out, "%s\t", kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	va_end(ap);
}

/* The time of group g's row x as the table gives it: ns (ps below 0.1 ns) an entity; a run's
 * (Varkor's workloads, whose N is their own); a pass's (empty-pass); a scenario's frame or
 * phase. */
static void time_of(char *buf, size_t len, const struct answer *a, const struct csv_row *x)
{
	char v[48];
	if (a->file->scenario || strncmp(x->base, "varkor-", 7) == 0 || isnan(x->ns_per_entity)) {
		duration(v, sizeof v, x->median);
		snprintf(buf, len, "%s%s", v, a->file->scenario ? "" : " a run");
	} else if (strcmp(x->base, "empty-pass") == 0) {
		answer_report_digits(v, sizeof v, x->ns_per_entity);
		snprintf(buf, len, "%s ns a pass", v);
	} else if (x->ns_per_entity < 0.1) {
		answer_report_digits(v, sizeof v, x->ns_per_entity * 1000);
		snprintf(buf, len, "%s ps an entity", v);
	} else {
		answer_report_digits(v, sizeof v, x->ns_per_entity);
		snprintf(buf, len, "%s ns an entity", v);
	}
}

static void bytes_of(char *buf, size_t len, double b)
{
	if (isnan(b) || b <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f B", b < 10 ? 1 : 0, b);
}

/* What the others' intervals are, as the CSV's header says they were made. */
static const char *interval_level(const struct answer *a)
{
	if (csv_note(a->file, "race:"))
		return "paired, at the level of the look that decided each (ratio_level): 95% for the run's looks and the comparisons with the best";
	const char *c = csv_note(a->file, "comparisons:");
	if (c && strstr(c, "simultaneous 95%"))
		return "95% for the group";
	if (c && strstr(c, "1 - 5%/(K - 1)"))
		return "each at 1 - 5%/(K - 1)";
	return "as the CSV states";
}

/* How a backend left its group's race (a raced run's CSV): " (left after 4 processes)",
 * " (screened: over 10x slower in each round)" (the first process: sure), " (screened: over 2x
 * slower in the first two processes)" (suspected in the first, confirmed in the second), " (its
 * calibration run)", or "". */
static const char *race_note(const struct csv_row *x)
{
	static char note[96];
	if (strcmp(x->race, "left") == 0)
		snprintf(note, sizeof note, " (left after %u processes%s%s)", x->race_process,
		         x->race_behind[0] ? ", behind " : "", x->race_behind);
	else if (strcmp(x->race, "screened") == 0 && x->race_process >= 2)
		snprintf(note, sizeof note, " (screened: over %.0fx slower in the first two processes)",
		         RACE_SCREEN_RATIO);
	else if (strcmp(x->race, "screened") == 0)
		snprintf(note, sizeof note, " (screened: over %.0fx slower in each round)",
		         RACE_SCREEN_SURE);
	else if (strcmp(x->race, "calibration") == 0)
		snprintf(note, sizeof note, " (screened by its calibration run: over %.0fx slower)",
		         RACE_CALIBRATION_RATIO);
	else
		note[0] = '\0';
	return note;
}

/* The others of group g, nearest first: "sparse 1.32x [1.08, 1.60], vector 1.77x [1.62, 1.94]
 * tied, tree not measured"; of a group with no decision, why, and no ratio. */
static void others_of(char *buf, size_t len, const struct answer *a, const struct answer_group *g)
{
	size_t used = 0;
	buf[0] = '\0';
	if (!g->decided) {
		snprintf(buf, len, "%s%s", g->why,
		         g->raced ? "" : "; re-run with more processes (PROCESSES=9) or on a quieter machine");
		return;
	}
	if (g->equal)
		used += (size_t)snprintf(buf, len, "%s: equal within %.0f%% [%.2f, %.2f]: either",
		                         g->set, 100 * (RACE_EQUAL - 1), g->equal_low, g->equal_high);
	for (uint32_t i = 0; i < g->count && used + 1 < len; i++) {
		const struct answer_member *m = &g->members[i];
		char text[320], r[160];
		if (m->place == ANSWER_FASTEST || (g->equal && m->place == ANSWER_TIED))
			continue;
		if (!m->row)
			snprintf(text, sizeof text, "%s not measured", m->backend);
		else {
			ratio_text(r, sizeof r, m->row->ratio, m->row->ratio_low, m->row->ratio_high,
			           a->provisional);
			snprintf(text, sizeof text, "%s %s%s%s", m->backend, r,
			         m->place == ANSWER_TIED ? " tied" : "", race_note(m->row));
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", text);
	}
	if (!used)
		snprintf(buf, len, "(the only backend)");
}

/* The run: its commit, date, CPU, profile and processes. */
static void print_run(FILE *out, const struct answer *a)
{
	const struct csv_file *f = a->file;
	char cpu[160], profile[96] = "", processes[48] = "";
	snprintf(cpu, sizeof cpu, "%s", f->cpu[0] ? f->cpu : "?");
	char *cut = strstr(cpu, "; a parallel row");
	if (cut)
		*cut = '\0';
	const char *p = csv_note(f, "profile ");
	if (p) {
		snprintf(profile, sizeof profile, "; %s", p);
		cut = strstr(profile, "; systems registered");
		if (cut)
			*cut = '\0';
	}
	const char *n = csv_note(f, "processes ");
	if (n)
		snprintf(processes, sizeof processes, "; %.*s processes", (int)strcspn(n + 10, ","), n + 10);
	record(out, "p", "Run: commit %s, %s; cpu %s%s%s.", f->commit[0] ? f->commit : "?",
	       f->date[0] ? f->date : "no date", cpu, profile, processes);
}

/* The warnings the run wrote in its header ("# warning: "), first, under a heading. */
static void print_warnings(FILE *out, const struct answer *a)
{
	bool any = false;
	for (uint32_t i = 0; i < a->file->note_count; i++) {
		const char *w = a->file->notes[i];
		if (strncmp(w, "warning: ", 9) != 0)
			continue;
		if (!any)
			record(out, "h", "Warnings");
		any = true;
		record(out, "li", "%s", w + 9);
	}
}

/* --- a run of the workloads --------------------------------------------------------------- */

static void figure_path(char *buf, size_t len, const struct answer_report_options *o,
                        const char *figure)
{
	if (o->figures && o->figures[0])
		snprintf(buf, len, "%s/%s", o->figures, figure);
	else
		snprintf(buf, len, "%s", figure);
}

/* "iterate, 2^18, k = 2" */
static void case_of(char *buf, size_t len, const struct answer *a, const struct answer_group *g)
{
	char name[96], n[32];
	answer_group_name(a, g, name, sizeof name);
	entities(n, sizeof n, g->lowest->entities);
	snprintf(buf, len, "%s, %s, k = %u", name, n, g->lowest->components);
}

/* memory: every backend of the group by its bytes held an entity, fewest first */
static void memory_line(char *buf, size_t len, const struct answer_group *g)
{
	const struct answer_member *order[64];
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->count && n < 64; i++)
		if (g->members[i].row && g->members[i].row->bytes_per_entity > 0)
			order[n++] = &g->members[i];
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && order[j]->row->bytes_per_entity <
		                                  order[j - 1]->row->bytes_per_entity; j--) {
			const struct answer_member *t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	size_t used = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < n && used + 1 < len; i++) {
		char b[32];
		bytes_of(b, sizeof b, order[i]->row->bytes_per_entity);
		if (i > 0)
			b[strlen(b) - 2] = '\0'; /* the unit once, after the first */
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s%s", i == 1 ? "; " : i ? ", " : "",
		                         order[i]->backend, b, i == 0 ? " an entity" : "");
	}
}

static void print_use(FILE *out, const struct answer *a, const struct answer_use *u,
                      const struct answer_report_options *o)
{
	char where[160], fig[512] = "", text[1400];
	const struct answer_group *g = u->group;
	if (!u->workload) {
		record(out, "li", "%s: a scenario's (make bench SCENARIO=scenarios/shooter.ini: its p99 "
		                  "and longest frame per backend); the workloads time whole passes",
		       u->label);
		return;
	}
	if (!g)
		return; /* print_uses names it with the others this run lacks */
	case_of(where, sizeof where, a, g);
	if (u->figure && o->figures && o->figures[0]) {
		char path[480];
		figure_path(path, sizeof path, o, u->figure);
		snprintf(fig, sizeof fig, " -> %s", path);
	}
	if (u->memory) {
		memory_line(text, sizeof text, g);
		record(out, "li", "%s: %s (held after %s)%s", u->label,
		       text[0] ? text : "not in this CSV (no live_bytes_per_entity)", where, fig);
		return;
	}
	if (!g->decided) {
		record(out, "li", "%s: no decision: %s%s (%s)%s", u->label, g->why,
		       g->raced ? "" : "; re-run with more processes (PROCESSES=9)", where, fig);
		return;
	}
	char time[96], tied[256] = "", next[320] = "";
	time_of(time, sizeof time, a, g->lowest);
	size_t used = 0;
	for (uint32_t i = 0; i < g->count; i++) {
		const struct answer_member *m = &g->members[i];
		if (m->place == ANSWER_TIED && used + 1 < sizeof tied)
			used += (size_t)snprintf(tied + used, sizeof tied - used, "%s%s", used ? ", " : "",
			                         m->backend);
		if (m->place == ANSWER_SLOWER && !next[0]) {
			char r[160];
			ratio_text(r, sizeof r, m->row->ratio, m->row->ratio_low, m->row->ratio_high,
			           a->provisional);
			snprintf(next, sizeof next, "; next %s %s", m->backend, r);
		}
	}
	if (g->equal)
		snprintf(text, sizeof text, "%s: %s, equal within %.0f%% [%.2f, %.2f]: either, %s%s (%s)%s",
		         u->label, g->set, 100 * (RACE_EQUAL - 1), g->equal_low, g->equal_high, time, next,
		         where, fig);
	else
		snprintf(text, sizeof text, "%s: %s, %s%s%s%s (%s)%s", u->label, g->lowest->backend, time,
		         tied[0] ? "; tied within 10%: " : "", tied, next, where, fig);
	record(out, "li", "%s", text);
}

/* The uses, a line each; those whose workload this run lacks, on one line at the end. */
static void print_uses(FILE *out, const struct answer *a, const struct answer_report_options *o)
{
	char absent[1024] = "";
	size_t used = 0;
	for (uint32_t i = 0; i < a->use_count; i++) {
		const struct answer_use *u = &a->uses[i];
		print_use(out, a, u, o);
		if (!u->group && u->workload && used + 1 < sizeof absent)
			used += (size_t)snprintf(absent + used, sizeof absent - used, "%s%s (%s)",
			                         used ? ", " : "", u->label, u->workload);
	}
	if (used)
		record(out, "li", "not in this run: %s", absent);
}

static void print_changes(FILE *out, const struct answer *a, const struct answer_report_options *o)
{
	if (!a->has_changes || !a->changes_total)
		return;
	record(out, "p", "Since the first provisional answer (%s): %u of %u verdicts changed (%.1f%%), "
	                 "%u reversed (%.1f%%: the fastest became slower than another, or one called "
	                 "slower became the fastest).",
	       o->first, a->changed, a->changes_total, 100.0 * a->changed / a->changes_total,
	       a->reversed, 100.0 * a->reversed / a->changes_total);
}

static void workloads_table(FILE *out, const struct answer *a)
{
	record(out, "table", "workload|N|k|fastest|its time|over the floor [95%%]|memory|the others, "
	                     "over the fastest [%s, paired]\t2 3 5 7",
	       interval_level(a));
	for (uint32_t i = 0; i < a->group_count; i++) {
		const struct answer_group *g = &a->groups[i];
		char name[96], n[32], time[96] = "-", floor[160] = "-", mem[32] = "-", others[4096];
		answer_group_name(a, g, name, sizeof name);
		entities(n, sizeof n, g->lowest->entities);
		others_of(others, sizeof others, a, g);
		if (g->decided) {
			const struct csv_row *x = g->lowest;
			time_of(time, sizeof time, a, x);
			if (isnan(x->floor_ratio))
				snprintf(floor, sizeof floor, "no floor");
			else
				ratio_text(floor, sizeof floor, x->floor_ratio, x->floor_low, x->floor_high,
				           a->provisional);
			bytes_of(mem, sizeof mem, x->bytes_per_entity);
		}
		record(out, "row", "%d\t%s\t%s\t%u\t%s\t%s\t%s\t%s\t%s", g->decided ? 4 : 0, name, n,
		       g->lowest->components,
		       !g->decided ? "no decision" : g->equal ? g->set : g->lowest->backend, time, floor,
		       mem, others);
	}
	record(out, "end", "");
}

static void workloads_answer(FILE *out, const struct answer *a, const struct answer_report_options *o)
{
	if (a->provisional)
		record(out, "title", "Which storage for what (%s; the run goes on)",
		       a->provisional_note);
	else
		record(out, "title", "Which storage for what: %s", o->path);
	if (!a->provisional) {
		print_run(out, a);
		print_warnings(out, a);
		record(out, "h", "In short");
	}
	print_uses(out, a, o);
	if (a->provisional) {
		record(out, "p", "The table per workload comes when the run ends.");
		return;
	}
	record(out, "h", "Per workload");
	if (!o->brief) {
		bool other = false;
		for (uint32_t i = 0; i < a->group_count; i++)
			other = other || !a->groups[i].lowest->headline;
		record(out, "p",
		       "Per workload, at its largest N and each k%s: the fastest backend, its time, its "
		       "time over the floor's (the same work over plain arrays: the machine's limit) with "
		       "its 95%% interval, and the bytes it held an entity; then every other backend's "
		       "time over the fastest's, paired by process, nearest first, with an interval that "
		       "holds, with all of its group's together, in 95%% of runs (so a backend as fast as "
		       "the fastest is called slower in at most 5%% of runs). tied: the interval holds 1. "
		       "no decision: this run cannot name a fastest, because a backend is tied with the "
		       "lowest with an interval reaching beyond %.2f (noisy), or has no interval, or one "
		       "spanning more than %.0fx; then no ratio is given.%s",
		       a->max_threads > 1 ? " (a threaded workload at its largest T)" : "",
		       STATS_NOISY_RATIO, ANSWER_MAX_SPAN,
		       other ? " The storages are lived-in (the headline); a workload named with another "
		               "history (iterate-pristine: built in order and never changed, a best case) "
		               "is that history's, after them."
		             : "");
	}
	if (a->group_count)
		workloads_table(out, a);
	else
		record(out, "p", "No backend row in this CSV.");
	print_changes(out, a, o);
}

/* --- a scenario ------------------------------------------------------------------------------ */

/* The points of a scenario's sweep, in order ("" for a scenario that is not swept). */
static uint32_t points_of(const struct answer *a, const char **points, uint32_t most)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < a->group_count; i++) {
		const char *v = a->groups[i].lowest->sweep_value;
		bool seen = false;
		for (uint32_t k = 0; k < n && !seen; k++)
			seen = strcmp(points[k], v) == 0;
		if (!seen && n < most)
			points[n++] = v;
	}
	return n;
}

static bool is_sweep(const struct answer *a, uint32_t points)
{
	return points > 1 || (a->group_count && a->groups[0].lowest->sweep_key[0]);
}

static const struct answer_group *frame_at(const struct answer *a, const char *point)
{
	for (uint32_t i = 0; i < a->group_count; i++)
		if (a->groups[i].frame && strcmp(a->groups[i].lowest->sweep_value, point) == 0)
			return &a->groups[i];
	return NULL;
}

static const char *tail_names[3] = {"p95", "p99", "max"};

/* A tail of x: "490 µs [290, 827]", or "-" */
static void tail_text(char *buf, size_t len, const struct csv_row *x, int q)
{
	char v[64], lo[32], hi[32];
	if (isnan(x->tail[q])) {
		snprintf(buf, len, "-");
		return;
	}
	duration(v, sizeof v, x->tail[q]);
	if (isnan(x->tail_low[q]) || isnan(x->tail_high[q]))
		snprintf(buf, len, "%s", v);
	else {
		bound(lo, sizeof lo, x->tail_low[q], x->tail[q]);
		bound(hi, sizeof hi, x->tail_high[q], x->tail[q]);
		snprintf(buf, len, "%s [%s, %s]", v, lo, hi);
	}
}

/* The members of frame group g with tails, ordered by tail q (-1: by median, as they are). */
static uint32_t order_by_tail(const struct answer_group *g, int q, const struct csv_row **list)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->count; i++)
		if (g->members[i].row)
			list[n++] = g->members[i].row;
	for (uint32_t i = 1; q >= 0 && i < n; i++)
		for (uint32_t j = i; j > 0; j--) {
			double x = isnan(list[j]->tail[q]) ? INFINITY : list[j]->tail[q];
			double y = isnan(list[j - 1]->tail[q]) ? INFINITY : list[j - 1]->tail[q];
			if (!(x < y))
				break;
			const struct csv_row *t = list[j];
			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	return n;
}

/* Whether the order of frame group g by tail q (named what) is its order by median; if not,
 * every pair it swaps, decided where their intervals of q are apart. */
static void tail_order(char *buf, size_t len, const struct answer_group *g, int q, const char *what)
{
	const struct csv_row *bymed[64], *byq[64];
	uint32_t n = order_by_tail(g, -1, bymed);
	order_by_tail(g, q, byq);
	char order[512] = "", swaps[2048] = "";
	size_t o = 0, s = 0;
	for (uint32_t i = 0; i < n; i++)
		o += (size_t)snprintf(order + o, sizeof order - o, "%s%s", i ? ", " : "", byq[i]->backend);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++) {
			const struct csv_row *x = bymed[i], *y = bymed[j];
			uint32_t rx = 0, ry = 0;
			for (uint32_t k = 0; k < n; k++) {
				rx = byq[k] == x ? k : rx;
				ry = byq[k] == y ? k : ry;
			}
			if (ry > rx || s + 1 >= sizeof swaps)
				continue;
			bool apart = !isnan(y->tail_high[q]) && !isnan(x->tail_low[q]) &&
			             y->tail_high[q] < x->tail_low[q];
			s += (size_t)snprintf(swaps + s, sizeof swaps - s, "%s%s before %s (%s)", s ? "; " : "",
			                      y->backend, x->backend,
			                      apart ? "decided: their intervals are apart"
			                            : "within the noise: their intervals overlap");
		}
	if (!s)
		snprintf(buf, len, "The order by %s (%s) is the order by median.", what, order);
	else
		snprintf(buf, len, "The order by %s is %s, not the order by median: %s.", what, order, swaps);
}

static void frame_cells(FILE *out, const struct answer *a, const struct answer_group *g, bool sweep)
{
	char time[96] = "-", floor[64] = "-", harness[64] = "-", others[4096];
	if (g->decided)
		time_of(time, sizeof time, a, g->lowest);
	if (g->floor)
		duration(floor, sizeof floor, g->floor->median);
	if (g->harness)
		duration(harness, sizeof harness, g->harness->median);
	others_of(others, sizeof others, a, g);
	const char *fastest = g->decided ? g->lowest->backend : "no decision";
	if (sweep)
		record(out, "row", "%d	%s	%s	%s	%s	%s	%s", g->decided ? 2 : 0,
		       g->lowest->sweep_value, fastest, time, floor, harness, others);
	else
		record(out, "row", "%d	%s	%s	%s	%s	%s", g->decided ? 1 : 0, fastest, time, floor,
		       harness, others);
}

static void scenario_summary(FILE *out, const struct answer *a, const char **points, uint32_t np,
                             bool sweep, const struct answer_report_options *o)
{
	for (uint32_t i = 0; i < np; i++) {
		const struct answer_group *g = frame_at(a, points[i]);
		if (!g)
			continue;
		char at[96] = "", others[4096], time[96];
		if (sweep)
			snprintf(at, sizeof at, " at %s = %s", g->lowest->sweep_key, points[i]);
		if (!g->decided) {
			record(out, "li", "the frame%s: no decision: %s; re-run with more processes "
			                  "(PROCESSES=9)", at, g->why);
			continue;
		}
		time_of(time, sizeof time, a, g->lowest);
		others_of(others, sizeof others, a, g);
		record(out, "li", "the frame%s: %s, %s; %s", at, g->lowest->backend, time, others);
		const struct csv_row *byq[64];
		uint32_t n = order_by_tail(g, 1, byq);
		if (n == 0 || isnan(byq[0]->tail[1]))
			continue;
		char first[160], second[160] = "";
		tail_text(first, sizeof first, byq[0], 1);
		bool apart = true;
		if (n > 1 && !isnan(byq[1]->tail[1])) {
			tail_text(second, sizeof second, byq[1], 1);
			apart = !isnan(byq[0]->tail_high[1]) && !isnan(byq[1]->tail_low[1]) &&
			        byq[0]->tail_high[1] < byq[1]->tail_low[1];
		}
		/* the lowest p99 is named only where its interval is apart from the next one's */
		if (!second[0])
			record(out, "li", "the worst frames%s (p99): %s %s", at, byq[0]->backend, first);
		else if (apart)
			record(out, "li", "the worst frames%s (p99): %s, %s; next %s %s (their intervals are "
			                  "apart)",
			       at, byq[0]->backend, first, byq[1]->backend, second);
		else
			record(out, "li", "the worst frames%s (p99): no decision: %s %s and %s %s, their "
			                  "intervals overlap",
			       at, byq[0]->backend, first, byq[1]->backend, second);
	}
	(void)o;
}

/* The points of a scenario's answer: a sweep's values of key, or the one frame. */
struct scenario_points {
	const char *at[256];
	uint32_t count;
	bool sweep;
	const char *key; /* the swept key, "" for none */
};

/* A section's heading, then what it shows, which a brief answer leaves out. */
static void section(FILE *out, const struct answer_report_options *o, const char *title,
                    const char *about)
{
	record(out, "h", "%s", title);
	if (!o->brief)
		record(out, "p", "%s", about);
}

/* "The frame": per point, the fastest backend, the floor's and the harness's, the others; then
 * the file's crossovers. */
static void scenario_frames(FILE *out, const struct answer *a, const struct answer_report_options *o,
                            const struct scenario_points *pt, const char *name)
{
	bool sweep = pt->sweep;
	char about[1200];
	snprintf(about, sizeof about,
	         "Scenario %s%s%s: per frame%s, the fastest backend and its time, the floor's (the "
	         "same frames over plain arrays) and the harness's alone; then every other "
	         "backend's time over the fastest's, paired by process, nearest first, with an "
	         "interval that holds, with all of its group's together, in 95%% of runs. tied: the "
	         "interval holds 1. no decision: a backend tied with the lowest reaches beyond "
	         "%.2f (noisy), or has no interval, or one spanning more than %.0fx: no fastest "
	         "and no ratio is given.",
	         name, sweep ? ", swept over " : "", sweep ? pt->key : "",
	         sweep ? " at each point" : "", STATS_NOISY_RATIO, ANSWER_MAX_SPAN);
	section(out, o, "The frame", about);
	char head[256];
	snprintf(head, sizeof head, "%s%sfastest|its frame|floor|harness alone|the others, over the "
	                            "fastest [%s, paired]",
	         sweep ? pt->key : "", sweep ? "|" : "", interval_level(a));
	record(out, "table", "%s	%s", head, sweep ? "3 4 5" : "2 3 4");
	for (uint32_t i = 0; i < pt->count; i++) {
		const struct answer_group *g = frame_at(a, pt->at[i]);
		if (g)
			frame_cells(out, a, g, sweep);
	}
	record(out, "end", "");
	for (uint32_t i = 0; i < a->file->note_count; i++)
		if (strncmp(a->file->notes[i], "crossover ", 10) == 0)
			record(out, "p", "%s", a->file->notes[i]);
}

/* "Frame-time tails", where the file has them: per point and backend the median, p95, p99 and
 * longest frame with their intervals, growth and allocating frames; then the order of the p99s
 * and of the longest frames. */
static void scenario_tails(FILE *out, const struct answer *a, const struct answer_report_options *o,
                           const struct scenario_points *pt)
{
	bool tails = false, sweep = pt->sweep;
	for (uint32_t i = 0; i < a->file->count && !tails; i++)
		tails = !isnan(a->file->rows[i].tail[1]);
	if (!tails)
		return;
	section(out, o, "Frame-time tails",
	        "A game is judged by its worst frames. Per backend, its median frame, then its 95th "
	        "and 99th percentile and its longest frame: each taken per process, then their "
	        "geometric mean and 95% t interval across processes. growth frames: those in which "
	        "the storage asked for a block of 64 KiB or more (a rehash, a regrown column, a large "
	        "new table), over every process; frames allocating: those in which it allocated at "
	        "all.");
	char head[256];
	snprintf(head, sizeof head, "%s%sbackend|median|p95 [95%%]|p99 [95%%]|max [95%%]|growth "
	                            "frames|frames allocating",
	         sweep ? pt->key : "", sweep ? "|" : "");
	record(out, "table", "%s	%s", head, sweep ? "3 4 5 6 7 8" : "2 3 4 5 6 7");
	for (uint32_t i = 0; i < pt->count; i++) {
		const struct answer_group *g = frame_at(a, pt->at[i]);
		const struct csv_row *list[64];
		uint32_t n = g ? order_by_tail(g, -1, list) : 0;
		for (uint32_t k = 0; k < n; k++) {
			const struct csv_row *x = list[k];
			char med[64], t[3][160], growth[64] = "-";
			duration(med, sizeof med, x->median);
			for (int q = 0; q < 3; q++)
				tail_text(t[q], sizeof t[q], x, q);
			if (x->growth[0])
				snprintf(growth, sizeof growth, "%s (%s%%)", x->growth, x->growth_pct);
			record(out, "row", "0	%s%s%s	%s	%s	%s	%s	%s	%s", sweep ? pt->at[i] : "",
			       sweep ? "	" : "", x->backend, med, t[0], t[1], t[2], growth,
			       x->alloc_frames[0] ? x->alloc_frames : "-");
		}
	}
	record(out, "end", "");
	for (uint32_t i = 0; i < pt->count; i++) {
		const struct answer_group *g = frame_at(a, pt->at[i]);
		if (!g)
			continue;
		char p99[2600], longest[2600];
		tail_order(p99, sizeof p99, g, 1, tail_names[1]);
		tail_order(longest, sizeof longest, g, 2, "longest frame");
		if (sweep)
			record(out, "p", "At %s = %s: %s", pt->key, pt->at[i], p99);
		else
			record(out, "p", "%s", p99);
		record(out, "p", "%s", longest);
	}
}

/* "By phase": each phase's fastest backend and its time, and the others over it. */
static void scenario_phases(FILE *out, const struct answer *a, const struct scenario_points *pt)
{
	bool sweep = pt->sweep;
	char head[256];
	record(out, "h", "By phase");
	snprintf(head, sizeof head, "%s%sphase|fastest|its time|the others, over the fastest [%s, "
	                            "paired]",
	         sweep ? pt->key : "", sweep ? "|" : "", interval_level(a));
	record(out, "table", "%s	%s", head, sweep ? "4" : "3");
	for (uint32_t i = 0; i < a->group_count; i++) {
		const struct answer_group *g = &a->groups[i];
		if (g->frame)
			continue;
		char time[96] = "-", others[4096];
		if (g->decided)
			time_of(time, sizeof time, a, g->lowest);
		others_of(others, sizeof others, a, g);
		if (sweep)
			record(out, "row", "%d	%s	%s	%s	%s	%s", g->decided ? 3 : 0,
			       g->lowest->sweep_value, g->lowest->base,
			       g->decided ? g->lowest->backend : "no decision", time, others);
		else
			record(out, "row", "%d	%s	%s	%s	%s", g->decided ? 2 : 0, g->lowest->base,
			       g->decided ? g->lowest->backend : "no decision", time, others);
	}
	record(out, "end", "");
}

static void scenario_answer(FILE *out, const struct answer *a, const struct answer_report_options *o)
{
	struct scenario_points pt;
	pt.count = points_of(a, pt.at, 256);
	pt.sweep = is_sweep(a, pt.count);
	pt.key = a->group_count ? a->groups[0].lowest->sweep_key : "";
	const char *scenario = a->file->count ? a->file->rows[0].profile : "?";
	const char *named = csv_note(a->file, "scenario ");
	char name[160];
	snprintf(name, sizeof name, "%s", named ? named + 9 : scenario);
	name[strcspn(name, ":")] = '\0';
	if (a->provisional) {
		record(out, "title", "Which storage for this game (%s; the run goes on)",
		       a->provisional_note);
		scenario_summary(out, a, pt.at, pt.count, pt.sweep, o);
		record(out, "p", "The tables come when the run ends.");
		return;
	}
	record(out, "title", "Which storage for this game: %s", o->path);
	print_run(out, a);
	print_warnings(out, a);
	record(out, "h", "In short");
	scenario_summary(out, a, pt.at, pt.count, pt.sweep, o);
	if (o->figures && o->figures[0]) {
		const char *base = strrchr(o->path, '/');
		base = base ? base + 1 : o->path;
		record(out, "p", "Its figure: %s/%.*s.png", o->figures, (int)(strlen(base) > 4 &&
		       strcmp(base + strlen(base) - 4, ".csv") == 0 ? strlen(base) - 4 : strlen(base)), base);
	}
	scenario_frames(out, a, o, &pt, name);
	scenario_tails(out, a, o, &pt);
	if (o->brief && pt.count > 1) {
		record(out, "p", "By phase, at every point: in %s.", o->note ? o->note : "the full answer");
		return;
	}
	scenario_phases(out, a, &pt);
}

void answer_report_print(FILE *out, const struct answer *a, const struct answer_report_options *o)
{
	if (a->file->scenario)
		scenario_answer(out, a, o);
	else
		workloads_answer(out, a, o);
	if (a->file->scenario)
		print_changes(out, a, o);
}
