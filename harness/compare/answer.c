/*
 * answer.c: a run's answer as plain data (see answer.h): its row groups (per workload and k at
 * the largest N, a threaded workload at its largest T; per point and phase of a scenario), each
 * decided or not, the uses a game has with the group that answers each, and the verdicts
 * changed since the first provisional answer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "compare_stats.h"
#include "../core/race.h"
#include "../core/free_and_null.h"
#include "../core/stats.h"

static bool is_candidate(const struct csv_row *r)
{
	return !compare_is_floor(r) && strcmp(r->backend, "harness") != 0 && r->median > 0;
}

/* The largest T of a workload's rows (its name with history), and the largest N of a name
 * and k at that T: where the answer reads each workload. */
static uint32_t largest_threads(const struct csv_file *f, const char *name)
{
	uint32_t t = 0;
	for (uint32_t i = 0; i < f->count; i++)
		if (strcmp(f->rows[i].workload, name) == 0 && !compare_is_floor(&f->rows[i]) &&
		    f->rows[i].threads > t)
			t = f->rows[i].threads;
	return t;
}

static uint32_t largest_entities(const struct csv_file *f, const char *name, uint32_t k,
                                 uint32_t t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *r = &f->rows[i];
		if (strcmp(r->workload, name) == 0 && r->components == k && r->threads == t &&
		    !compare_is_floor(r) && r->entities > n)
			n = r->entities;
	}
	return n;
}

/* The place of candidate x beside the group's lowest, as the CSV calls it; in a provisional
 * CSV a ratio with no interval yet (one process so far, or a long run's one sample) is read
 * from its value: slower beyond STATS_NOISY_RATIO. */
static enum answer_place place_of(const struct answer *a, const struct csv_row *x,
                                  const struct csv_row *lowest)
{
	if (x == lowest)
		return ANSWER_FASTEST;
	if (a->provisional && isnan(x->ratio_low) && !isnan(x->ratio))
		return x->ratio > STATS_NOISY_RATIO ? ANSWER_SLOWER : ANSWER_TIED;
	return strcmp(x->vs_best, "slower") == 0 ? ANSWER_SLOWER : ANSWER_TIED;
}

static int by_ratio(const void *pa, const void *pb)
{
	const struct answer_member *x = pa, *y = pb;
	if (!x->row || !y->row)
		return !x->row - !y->row;
	if (x->place == ANSWER_FASTEST || y->place == ANSWER_FASTEST)
		return (y->place == ANSWER_FASTEST) - (x->place == ANSWER_FASTEST);
	double rx = isnan(x->row->ratio) ? INFINITY : x->row->ratio;
	double ry = isnan(y->row->ratio) ? INFINITY : y->row->ratio;
	return rx < ry ? -1 : rx > ry;
}

static int by_name(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* A ratio for the reason of a group's no decision: 1.15, 37, "more than 1000". */
static void reach_text(char *buf, size_t len, double x)
{
	if (!(x <= 1000))
		snprintf(buf, len, "more than 1000x");
	else
		snprintf(buf, len, "%.*fx", x < 10 ? 2 : 0, x);
}

/* "a, b and c" or "a or b" (joined by `last`) of up to n names, sorted, into buf. */
static void names_text(char *buf, size_t len, const char **names, uint32_t n, const char *last)
{
	qsort(names, n, sizeof *names, by_name);
	size_t at = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : i + 1 == n ? last : ", ",
		                       names[i]);
}

/*
 * A raced run's group (race.h): its decision is the CSV's own. Equal: the set that holds the
 * fastest, every two within RACE_EQUAL ("archetype or hybrid"), and how far their intervals to
 * the lowest reach. Open: the backends still in the race, the furthest reach of their
 * intervals, whether every other left it, and about how many processes would decide it: for
 * each one still racing, the processes that would shrink its interval (which narrows as the
 * square root of the processes) to lie within RACE_EQUAL of the lowest or beyond RACE_MARGIN.
 */
static void decide_race(struct answer_group *g)
{
	const struct csv_row *lowest = g->lowest;
	g->raced = true;
	g->processes = lowest->processes;
	/* a figure the machine cannot produce decides nothing (the invalid column): the lowest's,
	 * or that of one still in the race */
	for (uint32_t i = 0; i < g->count; i++) {
		const struct csv_row *x = g->members[i].row;
		if (x && x->invalid[0] && (x == lowest || strcmp(x->race, "in") == 0)) {
			snprintf(g->why, sizeof g->why, "%s's figure is no result: %.180s", x->backend,
			         x->invalid);
			return;
		}
	}
	const char *names[ANSWER_NAMED_TIED + 1];
	uint32_t named = 0;
	if (strcmp(lowest->decision, "fastest") == 0) {
		g->decided = true;
		return;
	}
	double most = 1, least = 1, need = 0;
	bool others_left = true;
	for (uint32_t i = 0; i < g->count; i++) {
		const struct csv_row *x = g->members[i].row;
		if (!x)
			continue;
		bool in = x == lowest || strcmp(x->race, "in") == 0;
		if (!in) {
			others_left &= strcmp(x->vs_best, "slower") == 0;
			continue;
		}
		if (named < ANSWER_NAMED_TIED)
			names[named++] = x->backend;
		if (x == lowest || isnan(x->ratio_high))
			continue;
		most = fmax(most, x->ratio_high);
		least = fmin(least, x->ratio_low);
		double d = log(x->ratio), h = log(x->ratio_high) - d;
		double equal = log(RACE_EQUAL) - d, apart = d - log(RACE_MARGIN);
		double want = fmax(equal, apart);
		if (h > 0 && want > 0)
			need = fmax(need, x->processes * (h / want) * (h / want));
		else
			need = INFINITY;
	}
	if (strcmp(lowest->decision, "equal") == 0) {
		g->decided = g->equal = true;
		names_text(g->set, sizeof g->set, names, named, " or ");
		g->equal_low = least;
		g->equal_high = most;
		return;
	}
	char list[160], reach[32], take[96] = "";
	names_text(list, sizeof list, names, named, " and ");
	reach_text(reach, sizeof reach, most);
	g->would_take = isfinite(need) && need < 1e4 ? (uint32_t)ceil(need) : 0;
	if (g->would_take > g->processes)
		snprintf(take, sizeof take, "; about %u processes would decide it (a larger BUDGET)",
		         g->would_take);
	snprintf(g->why, sizeof g->why, "%s still racing after %u processes, none told from the "
	                                "lowest (an interval reaching %s)%s%s",
	         list, g->processes, reach, others_left ? "; every other backend left the race" : "",
	         take);
}

/*
 * Whether group g can name its fastest: every other candidate has an interval to the lowest,
 * none is noisy (the CSV's flag: tied, with an interval reaching beyond STATS_NOISY_RATIO), and
 * none spans more than ANSWER_MAX_SPAN. If not, why: for a missing interval or a wide span,
 * the first that fails and how many more do; for a noisy tie, every backend tied with the lowest.
 */
static void decide(struct answer_group *g, bool provisional)
{
	const struct csv_row *lowest = g->lowest;
	if (lowest->decision[0]) {
		decide_race(g);
		return;
	}
	const struct csv_row *first[3] = {NULL, NULL, NULL};
	unsigned count[3] = {0, 0, 0};
	for (uint32_t i = 0; i < g->count; i++) {
		const struct csv_row *x = g->members[i].row;
		if (!x || x == lowest)
			continue;
		int rule = -1;
		if (isnan(x->ratio_low) || isnan(x->ratio_high))
			rule = 0;
		else if (g->members[i].place == ANSWER_TIED &&
		         (x->noisy || x->ratio_high > STATS_NOISY_RATIO))
			rule = 1; /* (a CSV of an older ecsbench flags slower rows noisy by another rule) */
		else if (x->ratio_high > ANSWER_MAX_SPAN * x->ratio_low)
			rule = 2;
		if (rule < 0)
			continue;
		if (!first[rule])
			first[rule] = x;
		count[rule]++;
	}
	g->decided = !count[0] && !count[1] && !count[2];
	if (g->decided)
		return;
	int rule = count[0] ? 0 : count[1] ? 1 : 2;
	const struct csv_row *x = first[rule];
	char more[48] = "", reach[32];
	if (count[rule] > 1)
		snprintf(more, sizeof more, "; %u more like it", count[rule] - 1);
	if (rule == 0)
		snprintf(g->why, sizeof g->why, "%s has no interval to %s, %s%s", x->backend,
		         lowest->backend,
		         provisional && x->processes < 2 ? "one process so far"
		                                         : "too few processes or samples for one",
		         more);
	else if (rule == 1) {
		/* The backends the run cannot tell from the lowest (it and every one tied with it: a
		 * tie with the lowest, not between each two of them), in the order of their names, so
		 * that the list ranks nobody; then whether every other backend of the run is decidedly
		 * slower than the lowest: what a user can act on without a fastest. */
		double most = 1;
		const char *names[ANSWER_NAMED_TIED];
		uint32_t named = 0, tied = 0, others = 0, others_slower = 1;
		for (uint32_t i = 0; i < g->count; i++) {
			const struct answer_member *m = &g->members[i];
			if (!m->row) { /* a backend of the run this group lacks: not slower */
				others_slower = 0;
				continue;
			}
			if (m->row == lowest || m->place == ANSWER_TIED) {
				if (m->row != lowest && m->row->ratio_high > most)
					most = m->row->ratio_high;
				if (named < ANSWER_NAMED_TIED)
					names[named++] = m->row->backend;
				tied++;
			} else {
				others++;
				others_slower &= m->place == ANSWER_SLOWER;
			}
		}
		qsort(names, named, sizeof *names, by_name);
		char list[160] = "";
		size_t at = 0;
		for (uint32_t i = 0; i < named && at < sizeof list; i++)
			at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
			                       i == 0 ? "" : i + 1 == named && named == tied ? " and " : ", ",
			                       names[i]);
		if (tied > named && at < sizeof list)
			snprintf(list + at, sizeof list - at, " and %u more", tied - named);
		reach_text(reach, sizeof reach, most);
		snprintf(g->why, sizeof g->why,
		         "%s, none told from the lowest of them (an interval reaching %s, noisy)%s",
		         list, reach,
		         others && others_slower ? "; every other backend decidedly slower than it" : "");
	} else {
		reach_text(reach, sizeof reach, x->ratio_high / x->ratio_low);
		snprintf(g->why, sizeof g->why, "%s's interval to %s spans %s%s", x->backend,
		         lowest->backend, reach, more);
	}
}

/* Group g of rows like r (csv_same_group): its members, the lowest, the floor, its decision. */
static int group_make(struct answer *a, struct answer_group *g, const struct csv_row *r)
{
	const struct csv_file *f = a->file;
	memset(g, 0, sizeof *g);
	g->members = calloc(f->count + a->backend_count + 1, sizeof *g->members);
	if (!g->members)
		return -1;
	g->frame = f->scenario && strcmp(r->base, "frame") == 0;
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *x = &f->rows[i];
		if (!csv_same_group(x, r))
			continue;
		if (compare_is_floor(x))
			g->floor = x;
		else if (strcmp(x->backend, "harness") == 0)
			g->harness = x;
		if (!is_candidate(x))
			continue;
		g->members[g->count++] = (struct answer_member){.backend = x->backend, .row = x};
		if (strcmp(x->vs_best, "best") == 0 && !g->lowest)
			g->lowest = x;
	}
	/* the CSV's best; in a CSV that names none, the lowest median_ns */
	for (uint32_t i = 0; i < g->count && !g->lowest; i++)
		if (!g->lowest || g->members[i].row->median < g->lowest->median)
			g->lowest = g->members[i].row;
	for (uint32_t i = 0; i < g->count; i++)
		g->members[i].place = place_of(a, g->members[i].row, g->lowest);
	qsort(g->members, g->count, sizeof *g->members, by_ratio);
	/* A backend of the run that the group lacks: "not measured", never left out. */
	for (uint32_t b = 0; b < a->backend_count && !f->scenario; b++) {
		bool has = false;
		for (uint32_t i = 0; i < g->count && !has; i++)
			has = strcmp(g->members[i].backend, a->backends[b]) == 0;
		if (!has)
			g->members[g->count++] =
				(struct answer_member){.backend = a->backends[b], .place = ANSWER_ABSENT};
	}
	decide(g, a->provisional);
	return 0;
}

/* Whether r is a row the answer reads: a scenario's every row; a workload's at its largest T,
 * then its largest N for r's k. */
static bool answered(const struct answer *a, const struct csv_row *r)
{
	if (a->file->scenario)
		return true;
	uint32_t t = largest_threads(a->file, r->workload);
	return r->threads == t && r->entities == largest_entities(a->file, r->workload, r->components, t);
}

/* Whether row i is the first candidate row of its workload (its name with history, or a
 * scenario's phase at its point). */
static bool first_of_name(const struct csv_file *f, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (strcmp(f->rows[j].workload, f->rows[i].workload) == 0 && is_candidate(&f->rows[j]))
			return false;
	return true;
}

/* The groups of one kind of workload, `which`: 0 the headline (lived-in, or no history) or a
 * scenario's whole frame, 1 the others (other histories, a scenario's phases); each workload
 * in the order the file first has it, its k ascending. */
static int add_groups(struct answer *a, int which)
{
	const struct csv_file *f = a->file;
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *r = &f->rows[i];
		bool first_kind = f->scenario ? strcmp(r->base, "frame") == 0 : r->headline;
		if (first_kind != (which == 0) || !is_candidate(r) || !first_of_name(f, i))
			continue;
		for (const struct csv_row *last = NULL;;) {
			const struct csv_row *next = NULL; /* the lowest k above last's */
			for (uint32_t j = i; j < f->count; j++) {
				const struct csv_row *y = &f->rows[j];
				if (strcmp(y->workload, r->workload) == 0 && is_candidate(y) && answered(a, y) &&
				    (!last || y->components > last->components) &&
				    (!next || y->components < next->components))
					next = y;
			}
			if (!next)
				break;
			struct answer_group *g = &a->groups[a->group_count];
			if (group_make(a, g, next))
				return -1;
			a->group_count++;
			last = next;
		}
	}
	return 0;
}

/* The uses of a storage and the workloads that answer them, in the README's order. */
static const struct {
	const char *label, *workloads[2], *figures[2];
	bool memory;
} use_table[] = {
	{"passes over many entities", {"iterate", NULL}, {"iterate.png", NULL}, false},
	{"components that come and go", {"add-remove", NULL}, {"add-remove.png", NULL}, false},
	{"spawning and despawning", {"churn", "create"}, {"churn.png", "create.png"}, false},
	{"lookups by entity", {"get", NULL}, {"get.png", NULL}, false},
	{"many component sets", {"fragmented", NULL}, {"fragmented.png", NULL}, false},
	{"memory", {"create", "iterate"}, {"memory-create.png", "memory-iterate.png"}, true},
	{"the worst frame", {NULL, NULL}, {NULL, NULL}, false},
};
#define USE_COUNT (sizeof use_table / sizeof use_table[0])

/* The group of workload w that a use reads: the headline's (lived-in), else another history's
 * (a run of pristine storage alone: its name says so); k = 2 where the run has it (the default
 * sweep's and the README's), else its first k. */
static const struct answer_group *use_group(const struct answer *a, const char *w)
{
	const struct answer_group *found[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [other][not k 2] */
	for (uint32_t i = 0; i < a->group_count; i++) {
		const struct csv_row *r = a->groups[i].lowest;
		if (strcmp(r->base, w) != 0)
			continue;
		const struct answer_group **slot = &found[!r->headline][r->components != 2];
		if (!*slot)
			*slot = &a->groups[i];
	}
	for (int k = 0; k < 4; k++)
		if (found[k / 2][k % 2])
			return found[k / 2][k % 2];
	return NULL;
}

static int make_uses(struct answer *a)
{
	a->uses = calloc(USE_COUNT, sizeof *a->uses);
	if (!a->uses)
		return -1;
	for (size_t u = 0; u < USE_COUNT && !a->file->scenario; u++) {
		struct answer_use *x = &a->uses[a->use_count++];
		x->label = use_table[u].label;
		x->memory = use_table[u].memory;
		for (int w = 0; w < 2 && use_table[u].workloads[w] && !x->group; w++) {
			x->group = use_group(a, use_table[u].workloads[w]);
			x->workload = use_table[u].workloads[w];
			x->figure = use_table[u].figures[w];
		}
		if (!x->group)
			x->workload = use_table[u].workloads[0];
	}
	return 0;
}

int answer_make(const struct csv_file *f, struct answer *a)
{
	memset(a, 0, sizeof *a);
	a->file = f;
	const char *note = csv_note(f, "provisional after ");
	a->provisional = note != NULL;
	if (note)
		snprintf(a->provisional_note, sizeof a->provisional_note, "%.*s",
		         (int)strcspn(note, ":;"), note);
	a->groups = calloc(f->count + 1, sizeof *a->groups);
	a->backends = calloc(f->count + 1, sizeof *a->backends);
	if (!a->groups || !a->backends) {
		answer_free(a);
		return -1;
	}
	for (uint32_t i = 0; i < f->count; i++) {
		const struct csv_row *r = &f->rows[i];
		bool seen = !is_candidate(r);
		for (uint32_t b = 0; b < a->backend_count && !seen; b++)
			seen = strcmp(a->backends[b], r->backend) == 0;
		if (!seen)
			a->backends[a->backend_count++] = r->backend;
		if (r->threads > a->max_threads)
			a->max_threads = r->threads;
	}
	if (add_groups(a, 0) || add_groups(a, 1) || make_uses(a)) {
		answer_free(a);
		return -1;
	}
	return 0;
}

void answer_free(struct answer *a)
{
	for (uint32_t i = 0; a->groups && i < a->group_count; i++)
		free(a->groups[i].members);
	FREE_AND_NULL(a->groups);
	FREE_AND_NULL(a->backends);
	FREE_AND_NULL(a->uses);
	a->group_count = a->backend_count = a->use_count = 0;
}

void answer_group_name(const struct answer *a, const struct answer_group *g, char *buf,
                       size_t len)
{
	const struct csv_row *r = g->lowest;
	if (!a->file->scenario && largest_threads(a->file, r->workload) > 1)
		snprintf(buf, len, "%s, T = %u", r->workload, r->threads);
	else
		snprintf(buf, len, "%s", r->workload);
}

/* The group of b like g's (the same case), or NULL. */
static const struct answer_group *same_group(const struct answer *b, const struct answer_group *g)
{
	for (uint32_t i = 0; i < b->group_count; i++)
		if (csv_same_group(b->groups[i].lowest, g->lowest))
			return &b->groups[i];
	return NULL;
}

static const struct answer_member *member_of(const struct answer_group *g, const char *backend)
{
	for (uint32_t i = 0; i < g->count; i++)
		if (g->members[i].row && strcmp(g->members[i].backend, backend) == 0)
			return &g->members[i];
	return NULL;
}

int answer_changes(struct answer *a, const struct csv_file *first)
{
	struct answer was;
	if (answer_make(first, &was))
		return -1;
	a->has_changes = true;
	for (uint32_t i = 0; i < a->group_count; i++) {
		const struct answer_group *g = &a->groups[i], *h = same_group(&was, g);
		for (uint32_t k = 0; h && k < g->count; k++) {
			const struct answer_member *now = &g->members[k], *then;
			if (!now->row || !(then = member_of(h, now->backend)))
				continue;
			a->changes_total++;
			a->changed += now->place != then->place;
			a->reversed += (now->place == ANSWER_FASTEST && then->place == ANSWER_SLOWER) ||
			               (now->place == ANSWER_SLOWER && then->place == ANSWER_FASTEST);
		}
	}
	answer_free(&was);
	return 0;
}
