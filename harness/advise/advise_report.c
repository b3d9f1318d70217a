/*
 * advise_report.c: the steps CSV and the advice (what and why: advise_report.h). Only
 * formatting: every figure comes from the record (advise_state.h), computed by stats.c through
 * advise_rows.c and advise_search.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../scenario/scenario_sanity.h"
#include "advise_report.h"

static const char *stage_name(enum advise_stage s)
{
	static const char *const names[] = {"survey", "sparse", "group", "contest", "batch",
	                                    "confirm"};
	return names[s];
}

static const char *duration(double ns, char *buf, size_t len)
{
	if (isnan(ns) || ns <= 0)
		snprintf(buf, len, "-");
	else
		scenario_sanity_duration(ns, buf, len);
	return buf;
}

static const char *seconds_text(double s, char *buf, size_t len)
{
	if (s < 100)
		snprintf(buf, len, "%.0f s", s);
	else
		snprintf(buf, len, "%.1f min", s / 60);
	return buf;
}

/* A field without commas (the CSV has no quoting): ", " becomes "+". */
static void csv_text(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == ',') {
			fputc('+', f);
			if (p[1] == ' ')
				p++;
		} else if (*p != '\n') {
			fputc(*p, f);
		}
	}
}

static const char *status_text(const struct advisor *a, char *buf, size_t len)
{
	switch (a->status) {
	case ADVISE_RUNNING:
		snprintf(buf, len, "in progress: %u step%s done", a->step_count,
		         a->step_count == 1 ? "" : "s");
		break;
	case ADVISE_DONE: snprintf(buf, len, "complete%s%s", a->status_text[0] ? ": " : "",
	                           a->status_text); break;
	case ADVISE_INTERRUPTED:
	case ADVISE_FAILED: snprintf(buf, len, "%s", a->status_text); break;
	}
	return buf;
}

/* The file, written whole to a temporary file and renamed. */
static int write_atomic(const char *path, void (*body)(const struct advisor *, FILE *),
                        const struct advisor *a)
{
	char temp[ADVISE_PATH + 32];
	snprintf(temp, sizeof temp, "%s.tmp-%ld", path, (long)getpid());
	FILE *f = fopen(temp, "w");
	if (!f) {
		fprintf(stderr, "advise: cannot write %s: %s\n", temp, strerror(errno));
		return -1;
	}
	body(a, f);
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0 || fclose(f) != 0 ||
	    rename(temp, path) != 0) {
		fprintf(stderr, "advise: could not write %s: %s\n", path, strerror(errno));
		unlink(temp);
		return -1;
	}
	return 0;
}

static void header(const struct advisor *a, FILE *f)
{
	char st[ADVISE_PATH + 1100];
	fprintf(f, "# advise %s: %s\n", a->file, status_text(a, st, sizeof st));
	fprintf(f, "# cpu %s; load average %.2f at the start", a->cpu, a->loadavg_start);
	if (a->status != ADVISE_RUNNING)
		fprintf(f, ", %.2f at the end", a->loadavg_end);
	fprintf(f, "\n# budget %.0f s, used %.0f s; per search step %u processes, the survey %u, "
	           "the confirmation %u; %u frames after %u warm-up frames a process\n",
	        a->budget_s, a->elapsed_s, a->processes,
	        a->survey_step >= 0 ? a->steps[a->survey_step].processes : a->wide_processes,
	        a->wide_processes, a->base->frames, a->base->warmup);
	fprintf(f, "# columns: ratio is the design's frame to the step's reference (against: the "
	           "best so far) or to its fastest, paired by process, with its interval at level; "
	           "verdict faster, slower or tied (the interval holds 1)\n");
	if (a->have_survey)
		for (uint32_t i = 0; i < a->survey.warning_count; i++)
			fprintf(f, "# warning: %s\n", a->survey.warning[i]);
	fprintf(f, "# command");
	for (int i = 0; i < a->o->argc; i++)
		fprintf(f, " %s", a->o->argv[i]);
	fputc('\n', f);
}

static void csv_body(const struct advisor *a, FILE *f)
{
	header(a, f);
	fputs("step,stage,what,design,backend,marks,median_ns,ci_low_ns,ci_high_ns,ratio,"
	      "ratio_ci_low,ratio_ci_high,level,against,verdict,decision,processes,frames,seconds,"
	      "run_csv\n",
	      f);
	for (uint32_t i = 0; i < a->step_count; i++) {
		const struct advise_step *st = &a->steps[i];
		for (uint32_t e = 0; e < st->entry_count; e++) {
			const struct advise_entry *en = &st->entry[e];
			char marks[1000];
			advise_design_marks_text(a->base, &en->design, marks, sizeof marks);
			bool ref = st->reference >= 0 ? (int)e == st->reference : (int)e == st->fastest;
			const char *against = st->reference >= 0 ? st->entry[st->reference].name
			                      : st->fastest >= 0 ? st->entry[st->fastest].name
			                                         : "";
			fprintf(f, "%u,%s,", st->number, stage_name(st->stage));
			csv_text(f, st->what);
			fprintf(f, ",%s,%s,", en->name, en->design.backend);
			csv_text(f, marks);
			fprintf(f, ",%.1f,", en->frame.ns);
			if (en->frame.has_interval)
				fprintf(f, "%.1f,%.1f", en->frame.low, en->frame.high);
			else
				fputc(',', f);
			fprintf(f, ",%.4f,", ref ? 1.0 : en->vs.ratio);
			if (ref)
				fputs("1,1", f);
			else if (en->vs.has_interval)
				fprintf(f, "%.4f,%.4f", en->vs.low, en->vs.high);
			else
				fputc(',', f);
			fprintf(f, ",%.4f,%s,%s,", en->vs.level, ref ? "" : against,
			        ref ? (st->reference >= 0 ? "reference" : "fastest")
			            : advise_ratio_verdict(&en->vs));
			/* the decision on the tried design's row (a search step's second entry) */
			if (st->reference >= 0 && !ref)
				fputs(st->kept ? "kept" : "not kept", f);
			else if (st->stage == ADVISE_CONFIRM && ref)
				csv_text(f, st->decision);
			fprintf(f, ",%u,%u,%.1f,%s\n", st->processes, st->frames, st->seconds, st->csv);
		}
	}
}

int advise_report_csv(const struct advisor *a, const char *path)
{
	return write_atomic(path, csv_body, a);
}

/* --- the advice ------------------------------------------------------------------------------ */

static const struct advise_step *confirm_step(const struct advisor *a)
{
	return a->confirm_step >= 0 ? &a->steps[a->confirm_step] : NULL;
}

static void design_line(const struct advisor *a, const struct advise_design *d, char *buf,
                        size_t len)
{
	char marks[1000];
	advise_design_marks_text(a->base, d, marks, sizeof marks);
	snprintf(buf, len, "%s, %s", d->backend, marks);
}

/* The advice's first line (advise_search_matter decides which). */
static void headline(const struct advisor *a, FILE *f)
{
	const struct advise_matter *m = &a->matter;
	const struct advise_step *cs = a->confirm_step >= 0 ? &a->steps[a->confirm_step] : NULL;
	if (!cs || cs->entry_count < 2)
		return;
	const struct advise_entry *o = &cs->entry[1];
	double gain = 100 * (1 - 1 / o->vs.ratio);
	switch (m->headline) {
	case ADVISE_HEAD_NONE: return;
	case ADVISE_HEAD_HARDLY:
		fprintf(f, "**For this frame the storage hardly matters**: most backends are within the "
		           "noise of one another (below), and the chosen design's lead over %s, %.1f%% of "
		           "its frame, is under the tenth a game would feel. Any of the tied will do.",
		        o->name, gain);
		break;
	case ADVISE_HEAD_MARKS:
		fprintf(f, "**The marks matter here, the backend hardly**: most backends are within the "
		           "noise of one another as the file marks them (below), but the chosen marks "
		           "take %.1f%% off the frame of %s.",
		        gain, o->name);
		break;
	case ADVISE_HEAD_MATTERS:
		fprintf(f, "**The storage matters for this frame**: the chosen design takes %.1f%% off "
		           "the frame of %s.",
		        gain, o->name);
		break;
	case ADVISE_HEAD_SMALL:
		fprintf(f, "**The chosen design is decidedly the fastest, by a little**: %.1f%% of the "
		           "frame of %s, under the tenth a game would feel.",
		        gain, o->name);
		break;
	case ADVISE_HEAD_EITHER:
		fprintf(f, "**Either will do**: the confirmation cannot tell the chosen design from %s.",
		        o->name);
		break;
	case ADVISE_HEAD_REVERSED:
		fprintf(f, "**Not confirmed**: in the fresh run %s was decidedly faster than the chosen "
		           "design; take %s, and read the search's steps as the noise they were.",
		        o->name, o->name);
		break;
	}
	fprintf(f, "\n\n");
}

/* The survey's verdict: which backends it could tell apart, and those left out of it. */
static void verdict_survey(const struct advisor *a, FILE *f)
{
	const struct advise_matter *m = &a->matter;
	const struct advise_rows *r = &a->survey;
	fprintf(f, "In the survey (every backend as the file marks it and with no marks): ");
	switch (m->verdict) {
	case ADVISE_HARDLY_MATTERS:
		fprintf(f, "%u of the %u backends measured are within the noise of the fastest (%s): "
		           "any of them will do.",
		        m->tied_backends, m->backends, m->tied);
		break;
	case ADVISE_SOME_TIED:
		fprintf(f, "a few designs are within the noise of one another (%s), the others decidedly "
		           "slower.",
		        m->tied);
		break;
	case ADVISE_MATTERS:
		fprintf(f, "%s is decidedly the fastest.", r->name[m->fastest]);
		break;
	case ADVISE_ALONE:
		fprintf(f, "only one backend was measured (--backends): the survey compares no storage "
		           "with another, only its designs.");
		break;
	}
	if (m->slower[0])
		fprintf(f, " Slower (ratio to the fastest, with the survey's interval): %s.", m->slower);
	double quickest = INFINITY;
	for (uint32_t b = 0; b < a->backend_count; b++)
		if (a->quick_ns[b] < quickest)
			quickest = a->quick_ns[b];
	for (uint32_t b = 0, n = 0; b < a->backend_count; b++)
		if (!a->surveyed[b])
			fprintf(f, "%s%s about %.1fx", n++ ? ", " : " Left out of the survey, far behind in "
			                                            "a quick look (no interval): ",
			        a->backends[b]->name, a->quick_ns[b] / quickest);
	for (uint32_t b = 0; b < a->backend_count; b++)
		if (!a->surveyed[b]) {
			fputc('.', f);
			break;
		}
	fprintf(f, "\n\n");
}

/* The frame's scale (the fastest, the slowest contender, the floor, the harness alone) and what
 * makes the storage matter or not: the systems' share, the world against the cache, the
 * structural changes, the harness's share. */
static void verdict_causes(const struct advisor *a, FILE *f)
{
	const struct advise_matter *m = &a->matter;
	const struct advise_rows *r = &a->survey;
	char b1[32], b2[32], b3[32], b4[32];
	fprintf(f, "The fastest frame of the survey is %s (%s)",
	        duration(m->fastest_ns, b1, sizeof b1), r->name[m->fastest]);
	if (m->contenders > 1)
		fprintf(f, "; the slowest contender's (within %.0fx of it) %s (%s), %.2fx", 2.0,
		        duration(m->slowest_contender_ns, b2, sizeof b2), m->slowest_name,
		        m->slowest_contender_ns / m->fastest_ns);
	fprintf(f, "; the floor (the same frames over plain arrays) %s, the harness alone (the "
	           "engine with no storage and no work) %s.\n\n",
	        duration(m->floor_ns, b3, sizeof b3), duration(m->harness_ns, b4, sizeof b4));
	fprintf(f, "What makes it so:\n\n");
	fprintf(f, "- the systems' own work: the passes are %.0f%% of the fastest design's frame",
	        100 * m->systems_share);
	if (!isnan(m->passes_vs_floor))
		fprintf(f, ", and the slowest contender's passes take %.2fx the floor's (over plain "
		           "arrays, no storage at all)",
		        m->passes_vs_floor);
	fprintf(f, ";\n");
	char world[32], cache[32];
	snprintf(world, sizeof world, "%.0f KiB", m->world_bytes / 1024);
	if (m->world_bytes >= 1 << 20)
		snprintf(world, sizeof world, "%.1f MiB", m->world_bytes / (1 << 20));
	if (m->cache_bytes > 0) {
		snprintf(cache, sizeof cache, "%.0f MiB", m->cache_bytes / (1 << 20));
		fprintf(f, "- the world: the entities at the start hold %s of components, %s the %s "
		           "last-level cache of this machine;\n",
		        world, m->world_bytes <= m->cache_bytes ? "within" : "beyond", cache);
	} else {
		fprintf(f, "- the world: the entities at the start hold %s of components;\n", world);
	}
	if (!isnan(m->changes_share))
		fprintf(f, "- structural changes: about %.*f%% of the entities are spawned, despawned "
		           "or given or relieved of an effect a frame (the systems' own changes aside);\n",
		        m->changes_share < 0.01 ? 2 : 0, 100 * m->changes_share);
	if (!isnan(m->harness_ns))
		fprintf(f, "- the harness alone is %.0f%% of the fastest frame: every design pays it "
		           "alike.\n",
		        100 * m->harness_ns / m->fastest_ns);
	fputc('\n', f);
}

/* The three phases where the choice of design moves the frame most. */
static void verdict_phases(const struct advisor *a, FILE *f)
{
	const struct advise_matter *m = &a->matter;
	int top[3] = {-1, -1, -1};
	for (uint32_t i = 0; i < m->phase_count; i++)
		for (int t = 0; t < 3; t++)
			if (top[t] < 0 || m->phase[i].moves > m->phase[top[t]].moves) {
				for (int u = 2; u > t; u--)
					top[u] = top[u - 1];
				top[t] = (int)i;
				break;
			}
	if (top[0] >= 0 && m->phase[top[0]].moves > 0) {
		fprintf(f, "Where the contenders differ most (the slowest contender's phase less the "
		           "fastest's, as a share of the fastest frame):");
		for (int t = 0; t < 3 && top[t] >= 0; t++) {
			const struct advise_phase_spread *p = &m->phase[top[t]];
			char lo[32], hi[32];
			fprintf(f, "%s %s %.1f%% (%s %s, %s %s)", t ? ";" : "", p->phase, 100 * p->moves,
			        p->fastest_name, duration(p->fastest_ns, lo, sizeof lo), p->slowest_name,
			        duration(p->slowest_ns, hi, sizeof hi));
		}
		fprintf(f, ".\n\n");
	}
}

static void verdict(const struct advisor *a, FILE *f)
{
	if (!a->matter.known)
		return;
	verdict_survey(a, f);
	verdict_causes(a, f);
	verdict_phases(a, f);
}

/* The title, the command, and the advice: the design chosen and its confirmation. */
static void advice_opening(const struct advisor *a, FILE *f)
{
	char st[ADVISE_PATH + 1100], line[1200];
	fprintf(f, "# Storage advice for %s\n\n", a->name);
	fprintf(f, "`%s`, searched by `", a->file);
	for (int i = 0; i < a->o->argc; i++)
		fprintf(f, "%s%s", i ? " " : "", a->o->argv[i]);
	fprintf(f, "`: %s.\n\n", status_text(a, st, sizeof st));
	fprintf(f, "## The advice\n\n");
	const struct advise_step *cs = confirm_step(a);
	if (a->have_chosen) {
		design_line(a, &a->chosen, line, sizeof line);
		fprintf(f, "**%s**.", line);
	} else if (a->have_leader) {
		design_line(a, &a->leader, line, sizeof line);
		fprintf(f, "The fastest design found so far (the search did not finish): **%s**.", line);
	} else {
		fprintf(f, "No design was measured to its end.");
	}
	if (cs && cs->entry_count == 2) {
		const struct advise_entry *c = &cs->entry[0], *o = &cs->entry[1];
		char ct[32], ot[32];
		fprintf(f, " Confirmed in a fresh run that the search did not see (step %u, %u "
		           "processes): its frame %s, %s's %s, %.3fx [%.3f, %.3f] (%.0f%% interval, "
		           "paired by process): %s.",
		        cs->number, cs->processes, duration(c->frame.ns, ct, sizeof ct), o->name,
		        duration(o->frame.ns, ot, sizeof ot), o->vs.ratio, o->vs.low, o->vs.high,
		        100 * o->vs.level, cs->decision);
	} else if (a->have_chosen) {
		fprintf(f, " (Not confirmed: the confirmation run did not take place.)");
	}
	fprintf(f, "\n\n");
}

/* The survey's designs, fastest first, each with its frame and its ratio to the fastest. */
static void survey_table(const struct advisor *a, const struct advise_step *sv, FILE *f)
{
	fprintf(f, "| design | marks | frame [95%%] | ratio to the fastest [interval] |\n"
	           "| --- | --- | --- | --- |\n");
	uint32_t order[ADVISE_MAX_DESIGNS];
	for (uint32_t i = 0; i < sv->entry_count; i++) {
		uint32_t at = i;
		while (at > 0 && sv->entry[order[at - 1]].frame.ns > sv->entry[i].frame.ns) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = i;
	}
	for (uint32_t k = 0; k < sv->entry_count; k++) {
		const struct advise_entry *e = &sv->entry[order[k]];
		char marks[1000], fr[32], lo[32], hi[32];
		advise_design_marks_text(a->base, &e->design, marks, sizeof marks);
		fprintf(f, "| %s | %s | %s [%s, %s] | ", e->name, marks,
		        duration(e->frame.ns, fr, sizeof fr), duration(e->frame.low, lo, sizeof lo),
		        duration(e->frame.high, hi, sizeof hi));
		if ((int)order[k] == sv->fastest)
			fprintf(f, "fastest |\n");
		else
			fprintf(f, "%.3f [%.3f, %.3f] %s |\n", e->vs.ratio, e->vs.low, e->vs.high,
			        advise_ratio_verdict(&e->vs));
	}
}

/* The survey by phase, among the contenders. */
static void survey_phases(const struct advise_matter *m, FILE *f)
{
	fprintf(f, "\nBy phase, among the contenders (within 2x of the fastest frame): each "
	           "phase's fastest and slowest median, the floor's and the harness's, and "
	           "what the choice moves, as a share of the fastest frame:\n\n"
	           "| phase | fastest | slowest contender | floor | harness alone | the choice "
	           "moves |\n| --- | --- | --- | --- | --- | --- |\n");
	for (uint32_t i = 0; i < m->phase_count; i++) {
		const struct advise_phase_spread *p = &m->phase[i];
		char a1[32], a2[32], a3[32], a4[32];
		fprintf(f, "| %s | %s (%s) | %s (%s) | %s | %s | %.1f%% |\n", p->phase,
		        duration(p->fastest_ns, a1, sizeof a1), p->fastest_name,
		        duration(p->slowest_ns, a2, sizeof a2), p->slowest_name,
		        duration(p->floor_ns, a3, sizeof a3), duration(p->harness_ns, a4, sizeof a4),
		        100 * p->moves);
	}
}

/* "How much it matters": the survey step, its designs and phases. */
static void survey_section(const struct advisor *a, FILE *f)
{
	const struct advise_step *sv = &a->steps[a->survey_step];
	fprintf(f, "## How much it matters: the survey (step %u)\n\n", sv->number);
	fprintf(f, "Every backend as the file marks it and with no marks (`:bare`, where that "
	           "differs for it), the floor and the harness alone, %u processes, %u frames "
	           "after %u warm-up frames each; each design's ratio to the fastest, paired by "
	           "process, at the level of %u comparisons (Bonferroni).\n\n",
	        sv->processes, a->base->frames, a->base->warmup,
	        sv->entry_count > 1 ? sv->entry_count - 1 : 1);
	survey_table(a, sv, f);
	if (a->matter.known)
		survey_phases(&a->matter, f);
	fputc('\n', f);
}

/* Every step as a row: what it tried, its ratio, its decision and its time. */
static void steps_section(const struct advisor *a, FILE *f)
{
	fprintf(f, "## The steps\n\nEach a scenario run of its own (its CSV in `%s/`), the designs "
	           "as participants whose frames are interleaved, paired by process; a search step "
	           "keeps the tried design only when the 95%% interval of its ratio to the best so "
	           "far is below 1.\n\n| step | what | design | ratio [interval] | decision | time "
	           "(expected) |\n| --- | --- | --- | --- | --- | --- |\n",
	        a->steps_dir);
	for (uint32_t i = 0; i < a->step_count; i++) {
		const struct advise_step *s = &a->steps[i];
		int shown = s->reference >= 0 ? (s->entry_count > 1 ? 1 : 0)
		            : s->fastest >= 0 ? s->fastest
		                              : 0;
		const struct advise_entry *e = &s->entry[shown];
		char took[32], expect[48] = "";
		seconds_text(s->seconds, took, sizeof took);
		if (s->estimate > 0) {
			char ex[32];
			snprintf(expect, sizeof expect, " (%s)", seconds_text(s->estimate, ex, sizeof ex));
		}
		fprintf(f, "| %u | %s: %s | %s | ", s->number, stage_name(s->stage), s->what, e->name);
		if (s->reference >= 0 && s->entry_count > 1)
			fprintf(f, "%.3f [%.3f, %.3f] to %s", e->vs.ratio, e->vs.low, e->vs.high,
			        s->entry[s->reference].name);
		else
			fprintf(f, "fastest of %u", s->entry_count);
		fprintf(f, " | %s | %s%s |\n", s->decision, took, expect);
	}
	fputc('\n', f);
}

/* What the search did not try, and how it measured (machine, budget, processes, frames). */
static void method_section(const struct advisor *a, FILE *f)
{
	fprintf(f, "## What it did not try\n\n");
	for (uint32_t i = 0; i < a->note_count; i++)
		fprintf(f, "- %s\n", a->note[i]);
	fprintf(f, "- Combinations: each change was tried alone against the best design so far, in "
	           "the order above, and kept only when it was decidedly faster (a greedy search), not "
	           "every combination of marks.\n\n");
	fprintf(f, "## How it was measured\n\n");
	fprintf(f, "On %s; load average %.2f at the start", a->cpu, a->loadavg_start);
	if (a->status != ADVISE_RUNNING)
		fprintf(f, " and %.2f at the end", a->loadavg_end);
	fprintf(f, " (other work on the machine slows every participant of a step alike: its frames "
	           "are interleaved). Budget %.0f s, used %.0f s. Per search step %u processes; the "
	           "survey %u, the confirmation %u. %u frames after the file's %u warm-up frames in "
	           "each process (the file's `frames`, at most 60, unless `--set scenario.frames=N`). "
	           "Every step's CSV, samples and log: `%s/`; the steps as a table: `%s`.\n",
	        a->budget_s, a->elapsed_s, a->processes,
	        a->survey_step >= 0 ? a->steps[a->survey_step].processes : a->wide_processes,
	        a->wide_processes, a->base->frames, a->base->warmup, a->steps_dir, a->csv);
}

static void advice_body(const struct advisor *a, FILE *f)
{
	advice_opening(a, f);
	headline(a, f);
	verdict(a, f);
	if (a->have_chosen || a->have_leader)
		fprintf(f, "Take away: `%s` is `%s` with these marks (the backend is yours to pick: a "
		           "scenario file does not name one); `make bench SCENARIO=%s` runs it as is. A "
		           "mark changes no result: every design computes the same checksum.\n\n",
		        a->ini, a->file, a->ini);
	if (a->have_survey && a->survey.warning_count) {
		fprintf(f, "## Warnings\n\n");
		for (uint32_t i = 0; i < a->survey.warning_count; i++)
			fprintf(f, "- %s\n", a->survey.warning[i]);
		fputc('\n', f);
	}
	if (a->survey_step >= 0)
		survey_section(a, f);
	if (a->step_count)
		steps_section(a, f);
	method_section(a, f);
}

int advise_report_markdown(const struct advisor *a, const char *path)
{
	return write_atomic(path, advice_body, a);
}

void advise_report_advice(const struct advisor *a, FILE *f)
{
	advice_body(a, f);
}
