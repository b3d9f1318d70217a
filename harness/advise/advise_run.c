/*
 * advise_run.c: the advisor's options and its loop (what and why: advise_run.h; its record and
 * steps: advise_step.c; the search space and its order: advise_search.h; docs/scenarios.md,
 * "The advisor").
 *
 * A step is a child process running this program as an ordinary scenario run (--scenario FILE
 * --design ... --output STEPS/step-NN-STAGE.csv), its stdout and stderr in a log beside its
 * CSV; the advisor waits for it, reads its samples file back (advise_rows.h) and decides. So a
 * step gets everything a scenario run has: separate processes, interleaved frames, the
 * checksum agreement of every design (a design whose checksum differs fails the step, and the
 * advisor stops), the CSV's lock and its atomic writes.
 *
 * The budget: before a step, its wall time is estimated from the survey (each design's frames,
 * warm-up included, at its backend's median, times the ratio of wall time to that prediction
 * over the steps done); a search step starts only if it, the steps it must leave room for (the
 * contest, the confirmation) and the time already spent fit in the budget. The survey and the
 * confirmation always run.
 *
 * Interruption: SIGINT, SIGTERM or SIGHUP stop the step under way (SIGTERM to its process,
 * which removes its temporary files), and the advisor writes what the finished steps found,
 * marked interrupted, then exits 128 + the signal. Every finished step is on disk as it ends:
 * its own CSV, and the steps CSV, the advice and the advised file rewritten.
 *
 * Costs: a step costs its processes' setup and frames (the survey: every backend's); between
 * steps, reading a samples file (linear) and the statistics (stats.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/cli.h"
#include "../core/measure.h"
#include "../core/output.h"
#include "../core/report.h"
#include "../scenario/scenario_engine.h"
#include "../scenario/scenario_run.h"
#include "../scenario/scenario_sanity.h"
#include "advise_report.h"
#include "advise_run.h"
#include "advise_search.h"
#include "advise_step.h"

#define DEFAULT_BUDGET_S 600.0
#define STEP_PROCESSES 3u
#define WIDE_PROCESSES DEFAULT_PROCESSES
#define ADVISE_FRAMES 60u
#define MIN_BUDGET_S 10.0
#define MAX_BUDGET_S (7 * 24 * 3600.0)
#define ADVISE_CONTEST_MAX 3u
/* A survey's wall time over its frames at their quick-look time (warm-up included), for the
 * warmed-up frames, the setups and the checks: a guess on the safe side (the quick look is
 * timed under the machine's load already). */
#define ADVISE_QUICK_SLOWER 4.0


/* --- options ---------------------------------------------------------------------------------- */

/* Its table (advise_cli, below) refuses the options it does not take; --format it takes as csv
 * only, as a scenario run does. */
static void refuse_options(const struct options *o)
{
	if (o->format_json)
		options_usage_error("--format json does not go with --advise FILE (the advisor chooses "
		                    "each step's designs itself)");
}

static void advise_options(struct options *o)
{
	refuse_options(o);
	struct advisor *a = calloc(1, sizeof *a);
	struct scenario *base = malloc(sizeof *base);
	if (!a || !base)
		options_usage_error("out of memory");
	a->o = o;
	a->file = o->advise_file;
	char err[400];
	if (scenario_load(base, a->file, err, sizeof err) != SCENARIO_OK) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	bool frames_given = false;
	for (size_t i = 0; i < o->set_count; i++) {
		frames_given = frames_given || strncmp(o->sets[i], "scenario.frames=", 16) == 0;
		if (scenario_set_assignment(base, o->sets[i], err, sizeof err) != SCENARIO_OK)
			options_usage_error("--set %s", err);
	}
	/* Each step compares its designs process by process: a process's median over 60 frames is
	 * as steady as over 300, and the steps are many. */
	if (!frames_given && base->frames > ADVISE_FRAMES) {
		char v[16];
		snprintf(v, sizeof v, "%u", ADVISE_FRAMES);
		if (scenario_set(base, "scenario.frames", v, err, sizeof err) != SCENARIO_OK)
			options_usage_error("%s", err);
	}
	if (scenario_engine_check(base, err, sizeof err))
		options_usage_error("%s", err);
	a->base = base;
	const char *slash = strrchr(a->file, '/');
	snprintf(a->name, sizeof a->name, "%s", slash ? slash + 1 : a->file);
	size_t len = strlen(a->name);
	if (len > 4 && strcmp(a->name + len - 4, ".ini") == 0)
		a->name[len - 4] = '\0';
	a->budget_s = o->budget ? cli_duration("--budget", o->budget, MIN_BUDGET_S, MAX_BUDGET_S) : o->budget_s;
	a->processes = o->processes;
	if (a->processes < 2)
		options_usage_error("--processes %u: the advisor compares designs across processes (at "
		                    "least 2; default %u)",
		                    a->processes, STEP_PROCESSES);
	a->wide_processes = a->processes > WIDE_PROCESSES ? a->processes : WIDE_PROCESSES;
	for (size_t i = 0; i < o->backend_count; i++)
		a->backends[a->backend_count++] = o->backends[i];
	if (!o->output) {
		static char output[300];
		snprintf(output, sizeof output, "results/advise-%s.csv", a->name);
		o->output = output;
	}
	size_t olen = strlen(o->output);
	if (olen < 5 || strcmp(o->output + olen - 4, ".csv") != 0 || olen + 40 >= ADVISE_PATH)
		options_usage_error("--output '%s': the advisor's steps CSV must end in .csv", o->output);
	snprintf(a->csv, sizeof a->csv, "%s", o->output);
	snprintf(a->md, sizeof a->md, "%.*s.md", (int)(olen - 4), o->output);
	snprintf(a->steps_dir, sizeof a->steps_dir, "%.*s-steps", (int)(olen - 4), o->output);
	const char *oslash = strrchr(o->output, '/');
	snprintf(a->ini, sizeof a->ini, "%.*s%s-advised.ini",
	         oslash ? (int)(oslash - o->output + 1) : 0, o->output, a->name);
	a->survey_step = a->confirm_step = -1;
	o->kind_data = a;
}

/* --- the search --------------------------------------------------------------------------------- */

/* Appends sep and name to decision (size bytes, a string), keeping room for ", ..." after it;
 * true when it fit. When it does not, decision ends with ", ..." (that a list was cut) and
 * false. */
static bool decision_append(char *decision, size_t size, const char *sep, const char *name)
{
	static const char more[] = ", ...";
	size_t at = strlen(decision);
	if (at + sizeof more <= size) {
		int w = snprintf(decision + at, size - at - (sizeof more - 1), "%s%s", sep, name);
		if (w >= 0 && (size_t)w < size - at - (sizeof more - 1))
			return true;
	}
	decision[at] = '\0';
	if (at + sizeof more <= size)
		memcpy(decision + at, more, sizeof more);
	return false;
}

/* A search step: `try` against the best so far; keeps it when decidedly faster. 0 done, 1
 * interrupted, -1 failed. */
static int try_design(struct advisor *a, enum advise_stage stage, struct advise_design *best,
                      const struct advise_design *try, const char *what, struct outlook *ol,
                      bool *kept)
{
	struct advise_step *st = advisor_step_begin(a, stage, "%s", what);
	if (!st)
		return -1;
	advisor_step_add(a, st, "best", best);
	advisor_step_add(a, st, "try", try);
	int rc = advisor_step_against_first(a, st, a->processes, ol);
	if (rc)
		return rc;
	const struct advise_ratio *q = &st->entry[1].vs;
	*kept = q->has_interval && q->high < 1;
	st->kept = *kept;
	snprintf(st->decision, sizeof st->decision, "%s",
	         *kept                              ? "kept: decidedly faster"
	         : q->has_interval && q->low > 1    ? "not kept: slower"
	                                            : "not kept: within the noise");
	if (*kept)
		*best = *try;
	advisor_step_done(a, st, ol);
	return 0;
}

/* The estimate of a step of two designs on design d's backend, in `processes` processes: a
 * search step's, or the confirmation's. */
static double pair_estimate(const struct advisor *a, const struct advise_design *d,
                            uint32_t processes)
{
	struct advise_step probe;
	memset(&probe, 0, sizeof probe);
	advisor_step_add(a, &probe, "best", d);
	advisor_step_add(a, &probe, "try", d);
	return advisor_estimate_s(a, &probe, processes, false);
}

/* The survey's row of backend b's best design there. */
static int survey_row(const struct advisor *a, uint32_t b)
{
	if (a->survey_step < 0)
		return -1;
	const struct advise_step *sv = &a->steps[a->survey_step];
	int row = -1;
	double best = INFINITY;
	for (uint32_t i = 0; i < sv->entry_count; i++)
		if (strcmp(sv->entry[i].design.backend, a->backends[b]->name) == 0 &&
		    sv->entry[i].frame.ns < best) {
			best = sv->entry[i].frame.ns;
			row = advise_rows_find(&a->survey, sv->entry[i].name);
		}
	return row;
}

static int survey(struct advisor *a)
{
	struct advise_step *st = advisor_step_begin(a, ADVISE_SURVEY,
	                                    "every backend as marked and with no marks (those within "
	                                    "%.0fx in the quick look), the floor, the harness alone",
	                                    ADVISE_QUICK_CUT);
	struct advise_design file, bare;
	double quickest = INFINITY;
	for (uint32_t b = 0; b < a->backend_count; b++)
		if (a->quick_ns[b] < quickest)
			quickest = a->quick_ns[b];
	for (uint32_t b = 0; b < a->backend_count; b++) {
		const char *name = a->backends[b]->name;
		if (!a->surveyed[b]) {
			advisor_note(a, "%s was left out of the survey: its frame took %.1fx the fastest's in a quick "
			        "look (%d frames in the advisor's own process, no warm-up: a rough figure, no "
			        "interval), beyond %.0fx, so it is no contender",
			     name, a->quick_ns[b] / quickest, ADVISE_QUICK_FRAMES, ADVISE_QUICK_CUT);
			continue;
		}
		advise_design_of(a->base, name, &file);
		advisor_effective(a, &file);
		advise_design_bare(a->base, name, &bare);
		advisor_step_add(a, st, "file", &file);
		if (!advise_design_same(a->base, &file, &bare))
			advisor_step_add(a, st, "bare", &bare);
	}
	/* Five processes, unless the quick look says they would take over a third of the budget:
	 * then the search's own (its frames, warm-up included, at their quick-look time, times
	 * ADVISE_QUICK_SLOWER for the warmed-up frames, the setups and the checks). */
	uint32_t processes = a->wide_processes;
	double quick = quickest; /* the floor, about the fastest */
	for (uint32_t b = 0; b < a->backend_count; b++)
		quick += a->surveyed[b] ? a->quick_ns[b] : 0;
	double expect = ADVISE_QUICK_SLOWER * processes * quick *
	                ((double)a->base->warmup + a->base->frames) / 1e9;
	if (expect > a->budget_s / 3 && a->processes < processes) {
		advisor_note(a, "the survey ran %u processes, not %u: the quick look put %u at about %.0f s, over "
		        "a third of the budget (its intervals are the wider for it; the confirmation runs "
		        "%u)",
		     a->processes, processes, processes, expect, a->wide_processes);
		processes = a->processes;
	}
	fprintf(stderr, "advise: step 1 is the survey: the backends, the floor and the harness "
	                "alone, %u processes (the longest step; its time sets the estimates)\n",
	        processes);
	int rc = advisor_step_run(a, st, processes, true, NULL);
	if (rc)
		return rc;
	a->survey_step = (int)a->step_count;
	/* each backend's best in the survey */
	for (uint32_t b = 0; b < a->backend_count; b++) {
		a->survey_ns[b] = INFINITY;
		for (uint32_t i = 0; i < st->entry_count; i++)
			if (strcmp(st->entry[i].design.backend, a->backends[b]->name) == 0 &&
			    st->entry[i].frame.ns < a->survey_ns[b]) {
				a->survey_ns[b] = st->entry[i].frame.ns;
				a->best[b] = st->entry[i].design;
			}
	}
	if (st->fastest >= 0) {
		a->leader = st->entry[st->fastest].design;
		a->have_leader = true;
	}
	advise_search_matter(a); /* first: the load's prediction reads the floor's median */
	advisor_learn_load(a, st, true);
	snprintf(st->decision, sizeof st->decision, "fastest: %s",
	         st->fastest >= 0 ? st->entry[st->fastest].name : "none");
	advisor_step_done(a, st, NULL);
	return 0;
}

/* The backends in the order of their survey frame. */
static void by_frame(const struct advisor *a, uint32_t *order)
{
	for (uint32_t b = 0; b < a->backend_count; b++) {
		uint32_t at = b;
		while (at > 0 && a->survey_ns[order[at - 1]] > a->survey_ns[b]) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = b;
	}
}

static double fastest_survey_ns(const struct advisor *a)
{
	double f = INFINITY;
	for (uint32_t b = 0; b < a->backend_count; b++)
		if (a->survey_ns[b] < f)
			f = a->survey_ns[b];
	return f;
}

/* The backends whose marks are searched: following them, within ADVISE_REACH of the fastest. */
static bool reachable(struct advisor *a, uint32_t b, const char *marks)
{
	double fastest = fastest_survey_ns(a);
	if (a->survey_ns[b] <= ADVISE_REACH * fastest)
		return true;
	advisor_note(a, "%s's %s were not searched: its best survey frame is %.2fx the fastest's, beyond "
	        "%.1fx (its marks would have to win back a third of its frame)",
	     a->backends[b]->name, marks, a->survey_ns[b] / fastest, ADVISE_REACH);
	return false;
}

/* A candidate of the marks' search: a component kept sparse (or not) or a system's owning group
 * (or none) on one backend, scored by at most how much of the fastest frame it could win back,
 * read from the survey: a sparse component, its share (by changes a frame) of how far the
 * backend's add and remove phases are from the best of any design's; a group, how far the
 * system's pass is from the best pass of any participant, the floor's included (for a group
 * taken away, the whole pass: what it frees is other passes', which the survey cannot bound). */
struct candidate {
	enum advise_stage stage; /* ADVISE_SPARSE or ADVISE_GROUP */
	uint32_t backend, index;
	double rate; /* changes a frame, or the pass (ns) */
	double score;
};

/* Survey row `row`'s median of the sum of phases `first` and `second` (NULL: none); NaN if the
 * survey has no such phase. */
static double survey_phases(const struct advisor *a, int row, const char *first,
                            const char *second)
{
	const struct advise_rows *r = &a->survey;
	double sum = 0;
	for (int i = 0; i < 2; i++) {
		const char *name = i ? second : first;
		if (!name)
			continue;
		int ph = advise_rows_phase_index(r, name);
		if (row < 0 || ph < 0)
			return NAN;
		struct advise_centre c;
		advise_rows_centre(r, advise_rows_phase(r, (uint32_t)row, (uint32_t)ph), &c);
		sum += c.ns;
	}
	return sum;
}

/* The least of it over every participant of the survey (the floor's too). */
static double survey_phases_min(const struct advisor *a, const char *first, const char *second)
{
	double least = INFINITY;
	for (uint32_t i = 0; i < a->survey.count; i++) {
		if (strcmp(a->survey.name[i], "harness") == 0)
			continue;
		double v = survey_phases(a, (int)i, first, second);
		if (v < least)
			least = v;
	}
	return least;
}

static uint32_t mark_candidates(struct advisor *a, struct candidate *c, uint32_t max)
{
	uint32_t types[SCENARIO_MAX_COMPONENTS];
	double rate[SCENARIO_MAX_COMPONENTS], total = 0;
	uint32_t nt = advise_search_sparse_candidates(a->base, types, rate);
	for (uint32_t i = 0; i < nt; i++)
		total += rate[i];
	double fastest = fastest_survey_ns(a);
	uint32_t n = 0;
	for (uint32_t b = 0; b < a->backend_count; b++) {
		if (!a->surveyed[b] || (!a->follows_sparse[b] && !a->follows_group[b]))
			continue;
		if (!reachable(a, b, a->follows_sparse[b] ? "sparse components" : "owning groups"))
			continue;
		a->searched[b] = true;
		int row = survey_row(a, b);
		if (a->follows_sparse[b] && total > 0) {
			double excess = survey_phases(a, row, "add", "remove") -
			                survey_phases_min(a, "add", "remove");
			for (uint32_t i = 0; i < nt && n < max; i++)
				c[n++] = (struct candidate){ADVISE_SPARSE, b, types[i], rate[i],
				                            (excess > 0 ? excess : 0) * rate[i] / total / fastest};
		}
		if (a->follows_group[b]) {
			uint32_t systems[SCENARIO_MAX_SYSTEMS];
			double ns[SCENARIO_MAX_SYSTEMS];
			uint32_t ng = advise_search_group_candidates(a->base, &a->survey, row, systems, ns);
			for (uint32_t i = 0; i < ng && n < max; i++) {
				char phase[ADVISE_NAME_SIZE];
				snprintf(phase, sizeof phase, "system:%s", a->base->systems[systems[i]].name);
				double excess = a->best[b].group[systems[i]]
				                    ? ns[i]
				                    : ns[i] - survey_phases_min(a, phase, NULL);
				c[n++] = (struct candidate){ADVISE_GROUP, b, systems[i], ns[i],
				                            (excess > 0 ? excess : 0) / fastest};
			}
		}
	}
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && c[j - 1].score < c[j].score; j--) {
			struct candidate t = c[j];
			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	return n;
}

/* The outlook once the survey is in: every candidate step the search means to run. */
static void plan_outlook(struct advisor *a, const struct candidate *c, uint32_t n,
                         struct outlook *ol)
{
	ol->left_s = 0;
	uint32_t small[MAX_LIST] = {0};
	for (uint32_t i = 0; i < n; i++)
		if (c[i].score >= ADVISE_MIN_SHARE)
			ol->left_s += pair_estimate(a, &a->best[c[i].backend], a->processes);
		else if (c[i].stage == ADVISE_SPARSE && !a->best[c[i].backend].sparse[c[i].index])
			small[c[i].backend]++;
	for (uint32_t b = 0; b < a->backend_count; b++) /* the small ones together: one step */
		if (small[b] >= 2)
			ol->left_s += pair_estimate(a, &a->best[b], a->processes);
	if (a->have_leader) {
		struct advise_batch_candidate bc[SCENARIO_MAX_KINDS + SCENARIO_MAX_EFFECTS];
		double share[2];
		int lb = advisor_backend_index(a, a->leader.backend);
		uint32_t nb = advise_search_batch_candidates(a->base, &a->survey,
		                                             lb >= 0 ? survey_row(a, (uint32_t)lb) : -1,
		                                             bc, share);
		ol->left_s += nb * pair_estimate(a, &a->leader, a->processes) +
		              2 * pair_estimate(a, &a->leader, a->wide_processes);
	}
}

/* One candidate: its step against its backend's best so far, unless it cannot matter, the
 * storage declines it, or the budget has no room for it. */
static int try_candidate(struct advisor *a, const struct candidate *c, struct outlook *ol,
                         double reserve, struct scenario *applied)
{
	uint32_t b = c->backend, i = c->index;
	struct advise_design try = a->best[b];
	char what[240], took[32];
	if (c->stage == ADVISE_SPARSE) {
		try.sparse[i] = !try.sparse[i];
		snprintf(what, sizeof what, "%s %s (%s; about %.0f changes a frame)",
		         a->base->types[i].name, try.sparse[i] ? "sparse" : "back in the tables",
		         a->backends[b]->name, c->rate);
	} else {
		try.group[i] = !try.group[i];
		scenario_sanity_duration(c->rate, took, sizeof took);
		snprintf(what, sizeof what, "%s %s (%s; its pass %s)", a->base->systems[i].name,
		         try.group[i] ? "an owning group" : "no group", a->backends[b]->name, took);
	}
	if (c->score < ADVISE_MIN_SHARE) {
		bool sparse = c->stage == ADVISE_SPARSE;
		advisor_note(a, "%s: not tried%s: the survey leaves it at most %.2g%% of the fastest frame to "
		        "win (below %.0f%%, within the noise%s)",
		     what, sparse ? " alone" : "", 100 * c->score, 100 * ADVISE_MIN_SHARE,
		     sparse ? "; two or more such types of a backend that no pass walks are tried together"
		            : "");
		return 0;
	}
	if (c->stage == ADVISE_GROUP && try.group[i]) {
		int8_t grouped[SCENARIO_MAX_SYSTEMS];
		char err[300];
		if (advise_design_apply(a->base, &try, applied, err, sizeof err) ||
		    scenario_storage_groups(applied, a->backends[b], grouped, err, sizeof err) ||
		    grouped[i] != 1) {
			advisor_note(a, "%s declines an owning group for %s (a pool of its types is another group's): "
			        "not tried",
			     a->backends[b]->name, a->base->systems[i].name);
			return 0;
		}
	}
	if (!advisor_fits(a, pair_estimate(a, &try, a->processes), reserve)) {
		advisor_note(a, "the budget left no room for: %s", what);
		return 0;
	}
	bool kept;
	int rc = try_design(a, c->stage, &a->best[b], &try, what, ol, &kept);
	if (!rc)
		a->improved[b] = a->improved[b] || kept;
	return rc;
}

/* Whether a pass walks type t: a system requires or excludes it. */
static bool walked(const struct scenario *sc, uint32_t t)
{
	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct scenario_system *sys = &sc->systems[s];
		for (uint32_t i = 0; i < sys->required_count; i++)
			if (sys->required[i] == t)
				return true;
		for (uint32_t i = 0; i < sys->excluded_count; i++)
			if (sys->excluded[i] == t)
				return true;
	}
	return false;
}

/* The sparse candidates of backend b each too small to try alone (below ADVISE_MIN_SHARE), not
 * yet sparse in its best design and walked by no pass, into `bundle`: their number, and
 * names/keys/sum (their names, their --design keys, the survey's bound on what they win). */
static uint32_t small_bundle(const struct advisor *a, uint32_t b, const struct candidate *c,
                             uint32_t n, struct advise_design *bundle, char *names, size_t names_size,
                             char *keys, size_t keys_size, double *sum)
{
	size_t ln = 0, lk = 0;
	uint32_t count = 0;
	*bundle = a->best[b];
	names[0] = keys[0] = '\0';
	*sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (c[i].backend != b || c[i].stage != ADVISE_SPARSE || c[i].score >= ADVISE_MIN_SHARE ||
		    a->best[b].sparse[c[i].index] || walked(a->base, c[i].index))
			continue;
		const char *t = a->base->types[c[i].index].name;
		if (ln < names_size)
			ln += (size_t)snprintf(names + ln, names_size - ln, "%s%s", count ? ", " : "", t);
		if (lk < keys_size)
			lk += (size_t)snprintf(keys + lk, keys_size - lk, " component.%s.storage=sparse", t);
		bundle->sparse[c[i].index] = 1;
		*sum += c[i].score;
		count++;
	}
	if (ln >= names_size || lk >= keys_size)
		return 0; /* too many to name: not bundled */
	return count;
}

/* The sparse candidates of a backend each too small to try alone can add up: rpg's hand-marked
 * file keeps three such types sparse besides Hit (Haste, Shield, Marked), and together they
 * took 0.7% off its frame, which a step of one of them cannot tell from the noise. So, once
 * each candidate worth a step of its own has had it, the small ones of each backend (two or
 * more) that no pass walks are tried together as one step, kept like every step only when
 * decidedly faster. Those a pass requires or excludes stay out of it: marked sparse they make
 * that pass probe a pool per entity, a loss that can hide the others' gain (rpg's Regen, in
 * such a bundle with the three, left it within the noise, 1.002x [0.982, 1.023]); a
 * backend's bundle is one step whatever its size, so it costs what one candidate costs. Where
 * the budget has no room, the advice names them with the command that measures them. */
static int try_small_together(struct advisor *a, const struct candidate *c, uint32_t n,
                              struct outlook *ol, double reserve)
{
	for (uint32_t b = 0; b < a->backend_count; b++) {
		if (!a->follows_sparse[b] || !a->searched[b])
			continue;
		char names[300], keys[400];
		double sum;
		struct advise_design try;
		uint32_t count = small_bundle(a, b, c, n, &try, names, sizeof names, keys, sizeof keys, &sum);
		if (count < 2)
			continue;
		const char *be = a->backends[b]->name;
		char what[400];
		snprintf(what, sizeof what,
		         "%s sparse together (%s; each under %.0f%% of the frame by the survey, at most "
		         "about %.2g%% together)",
		         names, be, 100 * ADVISE_MIN_SHARE, 100 * sum);
		if (!advisor_fits(a, pair_estimate(a, &try, a->processes), reserve)) {
			char line[1400];
			int len = snprintf(line, sizeof line,
			                   "the budget left no room for: %s; to measure them yourself: "
			                   "build/ecsbench --scenario %s --backends %s --design '%s:more%s' "
			                   "--processes 5",
			                   what, a->ini, be, be, keys);
			if (len < 0 || (size_t)len >= sizeof a->note[0]) /* a command cut short is worse than none */
				snprintf(line, sizeof line, "the budget left no room for: %s", what);
			advisor_note(a, "%s", line);
			continue;
		}
		bool kept;
		int rc = try_design(a, ADVISE_SPARSE, &a->best[b], &try, what, ol, &kept);
		if (rc)
			return rc;
		a->improved[b] = a->improved[b] || kept;
	}
	return 0;
}

/* Each backend's best design together, when a search changed one: the leader is the fastest. */
static int contest(struct advisor *a, struct outlook *ol)
{
	bool any = false;
	for (uint32_t b = 0; b < a->backend_count; b++)
		any = any || a->improved[b];
	if (!any)
		return 0; /* the survey compared them all already */
	struct advise_step *st = advisor_step_begin(a, ADVISE_CONTEST, "each backend's best design");
	/* the backends a search improved, then the survey's fastest, up to ADVISE_CONTEST_MAX */
	uint32_t order[MAX_LIST];
	by_frame(a, order);
	for (uint32_t i = 0; i < a->backend_count; i++)
		if (a->improved[order[i]] && st->entry_count < ADVISE_CONTEST_MAX)
			advisor_step_add(a, st, "best", &a->best[order[i]]);
	for (uint32_t i = 0; i < a->backend_count && st->entry_count < ADVISE_CONTEST_MAX; i++)
		if (!a->improved[order[i]] && a->surveyed[order[i]] && isfinite(a->survey_ns[order[i]]))
			advisor_step_add(a, st, "best", &a->best[order[i]]);
	if (st->entry_count < 2) { /* one backend in reach: its best leads */
		a->leader = st->entry[0].design;
		a->have_leader = true;
		return 0;
	}
	int rc = advisor_step_run(a, st, a->processes, false, ol);
	if (rc)
		return rc;
	advisor_learn_load(a, st, false);
	if (st->fastest >= 0) {
		a->leader = st->entry[st->fastest].design;
		a->have_leader = true;
	}
	/* "fastest: NAME; tied: NAME, NAME": as many of the tied as the decision holds, then ", ..."
	 * (a name is at most ADVISE_NAME_SIZE - 1 bytes: the first part always fits) */
	snprintf(st->decision, sizeof st->decision, "fastest: %s",
	         st->fastest >= 0 ? st->entry[st->fastest].name : "none");
	bool first = true, cut = false;
	for (uint32_t i = 0; i < st->entry_count && !cut; i++)
		if ((int)i != st->fastest && strcmp(advise_ratio_verdict(&st->entry[i].vs), "tied") == 0) {
			cut = !decision_append(st->decision, sizeof st->decision, first ? "; tied: " : ", ",
			                       st->entry[i].name);
			first = false;
		}
	advisor_step_done(a, st, ol);
	return 0;
}

static int search_batches(struct advisor *a, struct outlook *ol, double reserve)
{
	struct advise_batch_candidate c[SCENARIO_MAX_KINDS + SCENARIO_MAX_EFFECTS];
	double share[2];
	int lb = advisor_backend_index(a, a->leader.backend);
	uint32_t n = advise_search_batch_candidates(
		a->base, &a->survey, lb >= 0 ? survey_row(a, (uint32_t)lb) : -1, c, share);
	double total[2] = {0, 0};
	for (uint32_t i = 0; i < n; i++)
		total[c[i].effect] += c[i].rate;
	for (uint32_t i = 0; i < n; i++) {
		struct advise_design try = a->leader;
		const char *name = c[i].effect ? a->base->effects[c[i].index].name
		                               : a->base->kinds[c[i].index].name;
		uint8_t *mark = c[i].effect ? &try.batch_effect[c[i].index] : &try.batch_kind[c[i].index];
		*mark = !*mark;
		/* its part of the phase it changes: the phase's share of the frame, split by the
		 * candidates' spawns (or adds) a frame */
		double phase = share[c[i].effect] * c[i].rate / total[c[i].effect];
		char what[240];
		snprintf(what, sizeof what, "%s %s %s (%s; %.0f %s a frame)", c[i].effect ? "effect" : "kind",
		         name, *mark ? "batched" : "one call at a time", try.backend, c[i].rate,
		         c[i].effect ? "adds" : "spawns");
		if (phase < ADVISE_MIN_SHARE) {
			advisor_note(a, "%s: not tried: its part of the %s phase%s about %.2g%% of %s's frame in the "
			        "survey, too little to move it beyond the noise",
			     what, c[i].effect ? "add and remove" : "spawn", c[i].effect ? "s is" : " is",
			     100 * phase, try.backend);
			continue;
		}
		if (!advisor_fits(a, pair_estimate(a, &try, a->processes), reserve)) {
			advisor_note(a, "the budget left no room for: %s", what);
			continue;
		}
		bool kept;
		int rc = try_design(a, ADVISE_BATCH, &a->leader, &try, what, ol, &kept);
		if (rc)
			return rc;
	}
	return 0;
}

/* The chosen design against the fastest design with no marks (or, when that is the chosen one,
 * the next fastest), in a fresh run. */
static int confirm(struct advisor *a, struct outlook *ol)
{
	const struct advise_step *sv = &a->steps[a->survey_step];
	const struct advise_design *other = NULL;
	double other_ns = INFINITY;
	bool same = false;
	for (uint32_t i = 0; i < sv->entry_count; i++) {
		const struct advise_entry *e = &sv->entry[i];
		if (advise_design_marks(a->base, &e->design) == 0 && e->frame.ns < other_ns) {
			other = &e->design;
			other_ns = e->frame.ns;
		}
	}
	const char *other_name = "nomarks";
	if (!other || advise_design_same(a->base, other, &a->chosen)) {
		/* the chosen has no marks: the runner-up of the last step that compared backends */
		same = other != NULL;
		const struct advise_step *from = sv;
		for (uint32_t i = 0; i < a->step_count; i++)
			if (a->steps[i].stage == ADVISE_CONTEST)
				from = &a->steps[i];
		other = NULL;
		other_ns = INFINITY;
		for (uint32_t i = 0; i < from->entry_count; i++) {
			const struct advise_entry *e = &from->entry[i];
			if (strcmp(e->design.backend, a->chosen.backend) != 0 && e->frame.ns < other_ns) {
				other = &e->design;
				other_ns = e->frame.ns;
			}
		}
		other_name = "next";
	}
	if (!other) {
		advisor_note(a, "no confirmation: no other design to hold the chosen one against");
		return 0;
	}
	struct advise_step *st = advisor_step_begin(a, ADVISE_CONFIRM, "%s against %s",
	                                    "the chosen design", same ? "the next fastest backend"
	                                                              : "the fastest with no marks");
	advisor_step_add(a, st, "chosen", &a->chosen);
	struct advise_design o = *other;
	advisor_step_add(a, st, other_name, &o);
	int rc = advisor_step_against_first(a, st, a->wide_processes, ol);
	if (rc)
		return rc;
	const struct advise_ratio *q = &st->entry[1].vs;
	const char *v = advise_ratio_verdict(q);
	snprintf(st->decision, sizeof st->decision, "%s",
	         strcmp(v, "slower") == 0 ? "confirmed: the chosen design is decidedly faster"
	         : strcmp(v, "tied") == 0 ? "tied: the chosen design is not decidedly faster here, "
	                                    "so either will do"
	                                  : "not confirmed: the other design is decidedly faster in "
	                                    "this run (the search's choice was its luckiest sample)");
	a->confirm_step = (int)a->step_count;
	advisor_step_done(a, st, ol);
	return 0;
}

static int search(struct advisor *a)
{
	char err[400];
	if (advise_search_probe(a, err, sizeof err)) {
		snprintf(a->status_text, sizeof a->status_text, "the probe failed: %s", err);
		return -1;
	}
	fprintf(stderr, "advise: a quick look at every backend (%d frames each, no warm-up) ...\n",
	        ADVISE_QUICK_FRAMES);
	if (advise_search_quick_look(a, err, sizeof err)) {
		snprintf(a->status_text, sizeof a->status_text, "the quick look failed: %s", err);
		return -1;
	}
	int rc = survey(a);
	if (rc)
		return rc;
	uint32_t types[SCENARIO_MAX_COMPONENTS];
	double rate[SCENARIO_MAX_COMPONENTS];
	uint32_t nt = advise_search_sparse_candidates(a->base, types, rate);
	char never[1200] = "";
	for (uint32_t t = 0; t < a->base->component_count; t++) {
		bool changes = false;
		for (uint32_t i = 0; i < nt; i++)
			changes = changes || types[i] == t;
		if (!changes)
			snprintf(never + strlen(never), sizeof never - strlen(never), "%s%s",
			         never[0] ? ", " : "", a->base->types[t].name);
	}
	if (never[0])
		advisor_note(a, "the types that never come and go were not tried as sparse (%s): marked sparse "
		        "they only make the passes that walk them probe a pool per entity",
		     never);
	char follow[2][400] = {"", ""};
	for (uint32_t b = 0; b < a->backend_count; b++)
		for (int k = 0; k < 2; k++)
			if (k ? a->follows_group[b] : a->follows_sparse[b])
				snprintf(follow[k] + strlen(follow[k]), sizeof follow[k] - strlen(follow[k]),
				         "%s%s", follow[k][0] ? ", " : "", a->backends[b]->name);
	advisor_note(a, "the marks were searched only on the backends that follow them: sparse components "
	        "on %s; owning groups on %s (a backend whose memory does not change when the types "
	        "that come and go are marked sparse ignores the hint; one without system_group has "
	        "no groups)",
	     follow[0][0] ? follow[0] : "none", follow[1][0] ? follow[1] : "none");
	/* every backend's candidates in one order, the most a step could win first, so that the
	 * budget goes where the survey says the frame can move */
	struct candidate *cands = calloc(2 * MAX_LIST * (SCENARIO_MAX_COMPONENTS + SCENARIO_MAX_SYSTEMS),
	                                 sizeof *cands);
	struct scenario *applied = malloc(sizeof *applied);
	if (!cands || !applied) {
		free(cands);
		free(applied);
		snprintf(a->status_text, sizeof a->status_text, "out of memory");
		return -1;
	}
	uint32_t nc = mark_candidates(a, cands, 2 * MAX_LIST * (SCENARIO_MAX_COMPONENTS + SCENARIO_MAX_SYSTEMS));
	struct outlook ol;
	plan_outlook(a, cands, nc, &ol);
	/* room kept for the contest and the confirmation */
	double reserve = a->have_leader ? 2 * pair_estimate(a, &a->leader, a->wide_processes) : 0;
	for (uint32_t i = 0; i < nc && rc == 0; i++)
		rc = try_candidate(a, &cands[i], &ol, reserve, applied);
	if (rc == 0)
		rc = try_small_together(a, cands, nc, &ol, reserve);
	free(cands);
	free(applied);
	if (rc)
		return rc;
	if ((rc = contest(a, &ol)))
		return rc;
	double reserve_confirm = a->have_leader ? pair_estimate(a, &a->leader, a->wide_processes) : 0;
	if (a->have_leader && (rc = search_batches(a, &ol, reserve_confirm)))
		return rc;
	if (!a->have_leader)
		return 0;
	a->chosen = a->leader;
	a->have_chosen = true;
	return confirm(a, &ol);
}

static int advise_drive(const struct options *o)
{
	struct advisor *a = o->kind_data;
	a->steps = calloc(ADVISE_MAX_STEPS, sizeof *a->steps);
	if (!a->steps) {
		fprintf(stderr, "advise: out of memory\n");
		return 1;
	}
	output_lock(o);
	advisor_keep_previous(a);
	if (mkdir(a->steps_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "advise: cannot make %s: %s; nothing was run\n", a->steps_dir,
		        strerror(errno));
		return 2;
	}
	a->start_ns = measure_now_ns();
	char model[128];
	report_cpu_model(model, sizeof model);
	snprintf(a->cpu, sizeof a->cpu, "%s (%ld CPUs)", model, sysconf(_SC_NPROCESSORS_ONLN));
	a->loadavg_start = advisor_loadavg();
	advisor_signals_catch();
	fprintf(stderr, "advise: %s, budget %.0f min; the steps in %s\n", a->file, a->budget_s / 60,
	        a->steps_dir);
	int rc = search(a);
	a->loadavg_end = advisor_loadavg();
	if (advisor_stopped() || rc == 1) {
		a->status = ADVISE_INTERRUPTED;
		const char *sig = advisor_stopped() == SIGTERM ? "SIGTERM"
		                  : advisor_stopped() == SIGHUP ? "SIGHUP"
		                                          : "SIGINT";
		if (a->step_count)
			snprintf(a->status_text, sizeof a->status_text,
			         "interrupted (%s) after step %u: what the finished steps found", sig,
			         a->step_count);
		else
			snprintf(a->status_text, sizeof a->status_text,
			         "interrupted (%s) in the survey: nothing was measured to its end", sig);
	} else if (rc) {
		a->status = ADVISE_FAILED;
	} else {
		a->status = ADVISE_DONE;
		a->status_text[0] = '\0';
		if (a->note_count && strstr(a->note[a->note_count - 1], "budget"))
			snprintf(a->status_text, sizeof a->status_text, "the budget left steps untried");
	}
	advisor_publish(a);
	if (a->status == ADVISE_DONE)
		advise_report_advice(a, stdout);
	fflush(stdout);
	fprintf(stderr, "advise: %s%s; wrote %s, %s%s in %.1f min\n",
	        a->status == ADVISE_DONE ? "done" : a->status_text,
	        a->status == ADVISE_FAILED ? " (the steps before it are kept)" : "", a->md, a->csv,
	        advisor_current_design(a) ? " and the advised file" : "", a->elapsed_s / 60);
	if (advisor_stopped())
		return 128 + advisor_stopped();
	return a->status == ADVISE_DONE ? 0 : 1;
}

/* --- its options -------------------------------------------------------------------------------- */

static const struct cli_option opt_advise = {
	.name = "advise", .value = "FILE",
	.help = "the scenario file; writes results/advise-NAME.csv (its\n"
	        "steps), -NAME.md (the advice), NAME-advised.ini (the file\n"
	        "with the chosen marks)",
	.read = cli_read_text, .field = offsetof(struct options, advise_file),
};

static const struct cli_take advise_takes[] = {
	{.option = &opt_advise, .chooses = true},
	{.option = &cli_opt_budget, .def = &(const union cli_value){.real = DEFAULT_BUDGET_S},
	 .help = "the search's time, e.g. 600, 10m, 1h; the steps that do not\n"
	         "fit are left untried, and said so"},
	{.option = &cli_opt_processes, .def = &(const union cli_value){.number = STEP_PROCESSES},
	 .help = "the processes of each step, at least 2"},
	{.option = &scenario_opt_set},
	{.option = &cli_opt_backends, .def = &(const union cli_value){.entry = NULL}},
	{.option = &cli_opt_output, .shown = "results/advise-NAME.csv"},
	{.group = cli_measuring_takes},
	{0},
};

/* The options of a step's design, which the advisor chooses itself. */
#define CHOSEN_BY_IT "does not go with --advise FILE (the advisor chooses each step's designs itself)"
static const struct cli_refusal advise_refusals[] = {
	{.name = "scenario", .says = CHOSEN_BY_IT},   {.name = "sweep", .says = CHOSEN_BY_IT},
	{.name = "points", .says = CHOSEN_BY_IT},     {.name = "spacing", .says = CHOSEN_BY_IT},
	{.name = "unmarked", .says = CHOSEN_BY_IT},   {.name = "design", .says = CHOSEN_BY_IT},
	{.name = "twin", .says = CHOSEN_BY_IT},       {.name = "threads", .says = CHOSEN_BY_IT},
	{.name = "floor-alone", .says = CHOSEN_BY_IT}, {.name = "provisional", .says = CHOSEN_BY_IT},
	{0},
};

static const struct cli_kind advise_cli = {
	.noun = "the advisor",
	.why = "its steps are scenario runs of the file: --set KEY=VALUE changes the frame",
	.heading = "The advisor (docs/scenarios.md, \"The advisor\"): which storage design is fastest\n"
	           "for a scenario, searched step by step, each a paired run of its own:",
	.also = "With --advise, also:",
	.takes = advise_takes,
	.refusals = advise_refusals,
};

const struct run_kind advise_run_kind = {
	.cli = &advise_cli,
	.options = advise_options,
	.drive = advise_drive,
};

