/*
 * advise_search.c: the advisor's candidates and its reading of the survey (what and why:
 * advise_search.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/measure.h"
#include "../core/stats.h"
#include "../scenario/scenario_engine.h"
#include "../scenario/scenario_sanity.h"
#include "advise_search.h"

/* A kind's live entities, roughly: at the start, or one frame's spawns for a kind that only
 * lives while the game makes it. */
static double kind_live(const struct scenario_kind *k)
{
	return k->count ? (double)k->count : k->spawn;
}

static bool kind_has(const struct scenario_kind *k, uint32_t t)
{
	for (uint32_t i = 0; i < k->type_count; i++)
		if (k->types[i] == t)
			return true;
	return false;
}

/* The share of kind k that holds type t at steady state: 1 for its own types, an effect's
 * a·d/(1+a·d) or a/(a+r), a half for what a system adds (unknown without running it). */
static double kind_share(const struct scenario *sc, uint32_t k, uint32_t t)
{
	if (kind_has(&sc->kinds[k], t))
		return 1;
	for (uint32_t e = 0; e < sc->effect_count; e++) {
		const struct scenario_effect *eff = &sc->effects[e];
		if (eff->kind != k || eff->type != t)
			continue;
		if (eff->duration)
			return eff->add * eff->duration / (1 + eff->add * eff->duration);
		return eff->add + eff->remove > 0 ? eff->add / (eff->add + eff->remove) : 0;
	}
	for (uint32_t s = 0; s < sc->system_count; s++)
		for (uint32_t i = 0; i < sc->systems[s].add_count; i++)
			if (sc->systems[s].add[i].type == t)
				return 0.5;
	return 0;
}

/* About how many entities system s visits a frame. */
static double system_matched(const struct scenario *sc, uint32_t s)
{
	const struct scenario_system *sys = &sc->systems[s];
	double n = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		double share = 1;
		for (uint32_t i = 0; i < sys->required_count; i++)
			share *= kind_share(sc, k, sys->required[i]);
		for (uint32_t i = 0; i < sys->excluded_count; i++)
			share *= 1 - kind_share(sc, k, sys->excluded[i]);
		n += share * kind_live(&sc->kinds[k]);
	}
	return n;
}

uint32_t advise_search_sparse_candidates(const struct scenario *sc, uint32_t *types, double *rate)
{
	double adds[SCENARIO_MAX_COMPONENTS] = {0}, removes[SCENARIO_MAX_COMPONENTS] = {0};
	bool changes[SCENARIO_MAX_COMPONENTS] = {false};
	for (uint32_t e = 0; e < sc->effect_count; e++) {
		const struct scenario_effect *eff = &sc->effects[e];
		if (eff->type >= sc->component_count)
			continue;
		changes[eff->type] = true;
		adds[eff->type] += eff->add * kind_live(&sc->kinds[eff->kind]);
	}
	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct scenario_system *sys = &sc->systems[s];
		double matched = system_matched(sc, s);
		for (uint32_t i = 0; i < sys->add_count; i++)
			if (sys->add[i].type < sc->component_count) {
				changes[sys->add[i].type] = true;
				adds[sys->add[i].type] += sys->add[i].share * matched;
			}
		for (uint32_t i = 0; i < sys->remove_count; i++)
			if (sys->remove[i].type < sc->component_count) {
				changes[sys->remove[i].type] = true;
				removes[sys->remove[i].type] += sys->remove[i].share * matched;
			}
	}
	uint32_t n = 0;
	for (uint32_t t = 0; t < sc->component_count; t++) {
		if (!changes[t])
			continue;
		double r = adds[t] > 0 ? adds[t] : removes[t];
		uint32_t at = n++;
		while (at > 0 && rate[at - 1] < r) {
			types[at] = types[at - 1];
			rate[at] = rate[at - 1];
			at--;
		}
		types[at] = t;
		rate[at] = r;
	}
	return n;
}

uint32_t advise_search_group_candidates(const struct scenario *sc, const struct advise_rows *r,
                                        int row, uint32_t *systems, double *ns)
{
	if (row < 0)
		return 0;
	struct advise_centre frame;
	advise_rows_centre(r, advise_rows_frame(r, (uint32_t)row), &frame);
	uint32_t n = 0;
	for (uint32_t s = 0; s < sc->system_count; s++) {
		char phase[ADVISE_NAME_SIZE];
		snprintf(phase, sizeof phase, "system:%s", sc->systems[s].name);
		int ph = advise_rows_phase_index(r, phase);
		if (ph < 0)
			continue;
		struct advise_centre c;
		advise_rows_centre(r, advise_rows_phase(r, (uint32_t)row, (uint32_t)ph), &c);
		if (!(c.ns >= ADVISE_MIN_SHARE * frame.ns))
			continue;
		uint32_t at = n++;
		while (at > 0 && ns[at - 1] < c.ns) {
			systems[at] = systems[at - 1];
			ns[at] = ns[at - 1];
			at--;
		}
		systems[at] = s;
		ns[at] = c.ns;
	}
	return n;
}

/* Survey row `row`'s median in phase ph, or NaN for no row (-1). */
static double row_phase_ns(const struct advise_rows *r, int row, uint32_t ph)
{
	struct advise_centre c;
	if (row < 0)
		return NAN;
	advise_rows_centre(r, advise_rows_phase(r, (uint32_t)row, ph), &c);
	return c.ns;
}

/* A phase's median in survey row `row`, or NaN. */
static double phase_ns(const struct advise_rows *r, int row, const char *name)
{
	int ph = advise_rows_phase_index(r, name);
	return ph < 0 ? NAN : row_phase_ns(r, row, (uint32_t)ph);
}

uint32_t advise_search_batch_candidates(const struct scenario *sc, const struct advise_rows *r,
                                        int row, struct advise_batch_candidate *c,
                                        double phase_share[2])
{
	double frame = NAN;
	if (row >= 0) {
		struct advise_centre f;
		advise_rows_centre(r, advise_rows_frame(r, (uint32_t)row), &f);
		frame = f.ns;
	}
	phase_share[0] = phase_ns(r, row, "spawn") / frame;
	phase_share[1] = (phase_ns(r, row, "add") + phase_ns(r, row, "remove")) / frame;
	uint32_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t first = n;
		uint32_t count = pass ? sc->effect_count : sc->kind_count;
		for (uint32_t i = 0; i < count; i++) {
			double rate = pass ? sc->effects[i].add * kind_live(&sc->kinds[sc->effects[i].kind])
			                   : sc->kinds[i].spawn;
			if (!(rate > 0))
				continue;
			uint32_t at = n++;
			while (at > first && c[at - 1].rate < rate) {
				c[at] = c[at - 1];
				at--;
			}
			c[at].effect = pass;
			c[at].index = i;
			c[at].rate = rate;
		}
	}
	return n;
}

/* --- the probe ------------------------------------------------------------------------------ */

/* The storage's memory after a few frames of sc (scaled down), or -1. */
static int probe_memory(const struct scenario *sc, const struct ecs_ops *ops, uint64_t *peak,
                        uint64_t *live, char *err, size_t errlen)
{
	struct scenario_engine *e;
	if (scenario_engine_open(&e, sc, ops, SCENARIO_MODE_STORAGE, err, errlen))
		return -1;
	for (int f = 0; f < ADVISE_PROBE_FRAMES; f++)
		if (scenario_engine_frame(e)) {
			snprintf(err, errlen, "%s", scenario_engine_error(e));
			scenario_engine_close(e);
			return -1;
		}
	scenario_engine_memory(e, peak, live);
	scenario_engine_close(e);
	return 0;
}

int advise_search_probe(struct advisor *a, char *err, size_t errlen)
{
	const struct scenario *base = a->base;
	uint32_t types[SCENARIO_MAX_COMPONENTS];
	double rate[SCENARIO_MAX_COMPONENTS];
	uint32_t n = advise_search_sparse_candidates(base, types, rate);
	struct scenario *small = malloc(sizeof *small), *marked = malloc(sizeof *marked),
	                *plain = malloc(sizeof *plain);
	int rc = -1;
	if (!small || !marked || !plain) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memcpy(small, base, sizeof *small);
	if (base->entities_start > ADVISE_PROBE_ENTITIES) {
		char scale[32];
		snprintf(scale, sizeof scale, "%.6f",
		         base->scale * ADVISE_PROBE_ENTITIES / (double)base->entities_start);
		char ignored[200];
		if (scenario_set(small, "scenario.scale", scale, ignored, sizeof ignored) != SCENARIO_OK)
			memcpy(small, base, sizeof *small); /* too small to scale: the file as it is */
	}
	struct advise_design dm, dp;
	advise_design_bare(small, "", &dm);
	advise_design_bare(small, "", &dp);
	for (uint32_t i = 0; i < n; i++)
		dm.sparse[types[i]] = 1;
	if (advise_design_apply(small, &dm, marked, err, errlen) ||
	    advise_design_apply(small, &dp, plain, err, errlen))
		goto out;
	for (uint32_t b = 0; b < a->backend_count; b++) {
		const struct ecs_ops *ops = a->backends[b];
		a->follows_group[b] = ops->system_group != NULL;
		a->follows_sparse[b] = false;
		if (!n)
			continue;
		uint64_t pm, lm, pp, lp;
		char why[300];
		if (probe_memory(marked, ops, &pm, &lm, why, sizeof why) ||
		    probe_memory(plain, ops, &pp, &lp, why, sizeof why)) {
			snprintf(err, errlen, "%s on the scenario scaled down: %s", ops->name, why);
			goto out;
		}
		a->follows_sparse[b] = pm != pp || lm != lp;
	}
	rc = 0;
out:
	free(small);
	free(marked);
	free(plain);
	return rc;
}

int advise_search_quick_look(struct advisor *a, char *err, size_t errlen)
{
	double fastest = INFINITY;
	for (uint32_t b = 0; b < a->backend_count; b++) {
		struct scenario_engine *e;
		char why[300];
		if (scenario_engine_open(&e, a->base, a->backends[b], SCENARIO_MODE_STORAGE, why,
		                         sizeof why)) {
			snprintf(err, errlen, "%s: %s", a->backends[b]->name, why);
			return -1;
		}
		double best = INFINITY;
		for (int f = 0; f < ADVISE_QUICK_FRAMES; f++) {
			uint64_t t0 = measure_now_ns();
			if (scenario_engine_frame(e)) {
				snprintf(err, errlen, "%s: %s", a->backends[b]->name, scenario_engine_error(e));
				scenario_engine_close(e);
				return -1;
			}
			double ns = (double)(measure_now_ns() - t0);
			if (ns < best)
				best = ns;
		}
		scenario_engine_close(e);
		a->quick_ns[b] = best;
		if (best < fastest)
			fastest = best;
	}
	for (uint32_t b = 0; b < a->backend_count; b++)
		a->surveyed[b] = a->quick_ns[b] <= ADVISE_QUICK_CUT * fastest;
	return 0;
}

/* --- how much it matters ------------------------------------------------------------------- */

/* The last-level cache's size in bytes, or 0 if the system does not say. */
static double cache_bytes(void)
{
#ifdef _SC_LEVEL3_CACHE_SIZE
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (l3 > 0)
		return (double)l3;
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
	long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	if (l2 > 0)
		return (double)l2;
#endif
	return 0;
}

static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

/* The backend of a survey participant "B" or "B:NAME" (its length). */
static size_t backend_len(const char *name)
{
	return strcspn(name, ":");
}

/* Counts the backend of name (its first bl characters) into seen[*count], unless it is there. */
static void count_backend(char seen[][ADVISE_NAME_SIZE], uint32_t *count, const char *name,
                          size_t bl)
{
	for (uint32_t j = 0; j < *count; j++)
		if (strlen(seen[j]) == bl && strncmp(seen[j], name, bl) == 0)
			return;
	snprintf(seen[(*count)++], ADVISE_NAME_SIZE, "%.*s", (int)bl, name);
}

/* The survey's designs (rows which[0..n), best the fastest, with their centres and ratios to
 * it): the contenders (within ADVISE_CONTENDER, into contender[]) and the slowest of them, the
 * designs tied with the fastest and the others, the backends among them, and the verdict. */
static void matter_designs(struct advise_matter *m, const struct advise_rows *r,
                           const uint32_t *which, uint32_t n, int best,
                           const struct advise_centre *centre, const struct advise_ratio *vs,
                           bool *contender)
{
	char seen[ADVISE_MAX_ROWS][ADVISE_NAME_SIZE], tied_seen[ADVISE_MAX_ROWS][ADVISE_NAME_SIZE];
	uint32_t backends = 0, tied_backends = 0;
	m->slowest_contender_ns = m->fastest_ns;
	snprintf(m->slowest_name, sizeof m->slowest_name, "%s", r->name[m->fastest]);
	for (uint32_t i = 0; i < n; i++) {
		const char *name = r->name[which[i]];
		size_t bl = backend_len(name);
		count_backend(seen, &backends, name, bl);
		/* within the noise: its interval holds 1, and it is not far from 1 merely because the
		 * interval is wide (stats.h's noisy rows) */
		bool tied = (int)i == best || (strcmp(advise_ratio_verdict(&vs[i]), "tied") == 0 &&
		                               vs[i].ratio <= STATS_NOISY_RATIO);
		contender[i] = vs[i].ratio <= ADVISE_CONTENDER || (int)i == best;
		if (contender[i]) {
			m->contenders++;
			if (centre[i].ns > m->slowest_contender_ns) {
				m->slowest_contender_ns = centre[i].ns;
				snprintf(m->slowest_name, sizeof m->slowest_name, "%s", name);
			}
		}
		if (tied) {
			append(m->tied, sizeof m->tied, "%s%s", m->tied[0] ? ", " : "", name);
			count_backend(tied_seen, &tied_backends, name, bl);
		} else {
			append(m->slower, sizeof m->slower, "%s%s %.2fx [%.2f, %.2f]%s",
			       m->slower[0] ? ", " : "", name, vs[i].ratio, vs[i].low, vs[i].high,
			       strcmp(advise_ratio_verdict(&vs[i]), "tied") == 0 ? " (undecided)" : "");
		}
	}
	m->backends = backends;
	m->tied_backends = tied_backends;
	/* "hardly matters": at least three backends, and half of those measured, are within the
	 * noise of the fastest; "some tied": two or more */
	m->verdict = backends < 2                                          ? ADVISE_ALONE
	             : tied_backends >= 3 && 2 * tied_backends >= backends ? ADVISE_HARDLY_MATTERS
	             : tied_backends >= 2                                 ? ADVISE_SOME_TIED
	                                                                  : ADVISE_MATTERS;
}

/* By phase: the contenders' spread, beside the floor's and the harness's; and the passes'
 * (the system: phases) share of the fastest frame, and against the floor's. */
static void matter_phases(struct advise_matter *m, const struct advise_rows *r,
                          const uint32_t *which, uint32_t n, const bool *contender, int floor,
                          int harness)
{
	double systems_fastest = 0, systems_floor = 0, systems_slowest = 0;
	for (uint32_t ph = 0; ph < r->phases && m->phase_count < ADVISE_MAX_PHASES; ph++) {
		struct advise_phase_spread *s = &m->phase[m->phase_count++];
		snprintf(s->phase, sizeof s->phase, "%s", r->phase_name[ph]);
		s->fastest_ns = INFINITY;
		s->slowest_ns = -INFINITY;
		for (uint32_t i = 0; i < n; i++) {
			if (!contender[i])
				continue;
			double ns = row_phase_ns(r, (int)which[i], ph);
			if (ns < s->fastest_ns) {
				s->fastest_ns = ns;
				snprintf(s->fastest_name, sizeof s->fastest_name, "%s", r->name[which[i]]);
			}
			if (ns > s->slowest_ns) {
				s->slowest_ns = ns;
				snprintf(s->slowest_name, sizeof s->slowest_name, "%s", r->name[which[i]]);
			}
		}
		s->floor_ns = row_phase_ns(r, floor, ph);
		s->harness_ns = row_phase_ns(r, harness, ph);
		s->moves = (s->slowest_ns - s->fastest_ns) / m->fastest_ns;
		if (strncmp(s->phase, "system:", 7) == 0) {
			systems_fastest += row_phase_ns(r, m->fastest, ph);
			systems_floor += isnan(s->floor_ns) ? 0 : s->floor_ns;
			systems_slowest += s->slowest_ns;
		}
	}
	m->systems_share = systems_fastest / m->fastest_ns;
	m->passes_vs_floor = systems_floor > 0 ? systems_slowest / systems_floor : NAN;
}

/* The world: every entity at the start with its kind's components, against the last-level
 * cache; and the structural changes a frame, of the entities at the start. */
static void matter_world(struct advise_matter *m, const struct scenario *sc)
{
	double bytes = 0, changes = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		double size = 0;
		for (uint32_t i = 0; i < sc->kinds[k].type_count; i++)
			size += sc->types[sc->kinds[k].types[i]].size;
		bytes += size * sc->kinds[k].count;
		changes += sc->kinds[k].spawn + sc->kinds[k].despawn;
	}
	for (uint32_t e = 0; e < sc->effect_count; e++)
		changes += 2 * sc->effects[e].add * kind_live(&sc->kinds[sc->effects[e].kind]);
	m->world_bytes = bytes;
	m->cache_bytes = cache_bytes();
	m->changes_share = sc->entities_start ? changes / (double)sc->entities_start : NAN;
}

/* The advice's first line: the survey's verdict against the confirmation's ratio (the other
 * design's frame over the chosen one's); none without a confirmation. */
static enum advise_headline matter_headline(const struct advisor *a, const struct advise_matter *m)
{
	if (a->confirm_step < 0 || a->steps[a->confirm_step].entry_count < 2)
		return ADVISE_HEAD_NONE;
	const struct advise_step *cs = &a->steps[a->confirm_step];
	const struct advise_ratio *q = &cs->entry[1].vs;
	const char *v = advise_ratio_verdict(q);
	bool marks = advise_design_marks(a->base, &cs->entry[0].design) > 0;
	if (strcmp(v, "faster") == 0)
		return ADVISE_HEAD_REVERSED;
	if (m->verdict == ADVISE_HARDLY_MATTERS)
		return strcmp(v, "slower") == 0 && q->ratio >= ADVISE_FELT && marks ? ADVISE_HEAD_MARKS
		                                                                    : ADVISE_HEAD_HARDLY;
	if (strcmp(v, "tied") == 0)
		return ADVISE_HEAD_EITHER;
	return q->ratio >= ADVISE_FELT ? ADVISE_HEAD_MATTERS : ADVISE_HEAD_SMALL;
}

void advise_search_matter(struct advisor *a)
{
	struct advise_matter *m = &a->matter;
	const struct advise_rows *r = &a->survey;
	memset(m, 0, sizeof *m);
	if (!a->have_survey)
		return;
	uint32_t which[ADVISE_MAX_ROWS], n = 0;
	int floor = advise_rows_find(r, "floor"), harness = advise_rows_find(r, "harness");
	for (uint32_t i = 0; i < r->count; i++)
		if ((int)i != floor && (int)i != harness)
			which[n++] = i;
	struct advise_centre centre[ADVISE_MAX_ROWS];
	struct advise_ratio vs[ADVISE_MAX_ROWS];
	int best = advise_rows_group(r, which, n, -1, centre, vs);
	if (best < 0)
		return;
	m->known = true;
	m->designs = n;
	m->fastest = (int)which[best];
	m->fastest_ns = centre[best].ns;
	struct advise_centre c;
	m->floor_ns = NAN;
	m->harness_ns = NAN;
	if (floor >= 0) {
		advise_rows_centre(r, advise_rows_frame(r, (uint32_t)floor), &c);
		m->floor_ns = c.ns;
	}
	if (harness >= 0) {
		advise_rows_centre(r, advise_rows_frame(r, (uint32_t)harness), &c);
		m->harness_ns = c.ns;
	}
	bool contender[ADVISE_MAX_ROWS] = {false};
	matter_designs(m, r, which, n, best, centre, vs, contender);
	matter_phases(m, r, which, n, contender, floor, harness);
	matter_world(m, a->base);
	m->headline = matter_headline(a, m);
}
