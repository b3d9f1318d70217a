/*
 * scenario_sanity.c: the warnings of a scenario run (what and why: scenario_sanity.h).
 *
 * Which kinds a system can match is decided on the types each kind may ever hold: its own
 * components, what effects put on it, and what the systems that can match it add (a fixpoint:
 * a system's add may let another system match), against the types it always holds (its own
 * components, less those a system removes). A system matches a kind when every required type
 * may be held and no excluded type is always held. The expected firings of an effect are its
 * share times its kind's entities times the frames run: below one, it most likely never fires.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/measure.h"
#include "../core/stats.h"
#include "scenario_sanity.h"

#define SANITY_CLOCK_READS 2000
#define WORDS (SCENARIO_MAX_TYPES / 64)

struct type_set {
	uint64_t w[WORDS];
};

static void set_add(struct type_set *s, uint32_t t) { s->w[t / 64] |= 1ull << (t % 64); }
static void set_del(struct type_set *s, uint32_t t) { s->w[t / 64] &= ~(1ull << (t % 64)); }
static bool set_has(const struct type_set *s, uint32_t t) { return s->w[t / 64] >> (t % 64) & 1; }

static void warn(struct scenario_warnings *w, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(struct scenario_warnings *w, const char *where, const char *fmt, ...)
{
	if (w->count == SCENARIO_WARNING_MAX)
		return;
	char *line = w->line[w->count++];
	int len = snprintf(line, SCENARIO_WARNING_LEN, "%s", where);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line + len, SCENARIO_WARNING_LEN - (size_t)len, fmt, ap);
	va_end(ap);
}

void scenario_sanity_duration(double ns, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
	size_t u = 0;
	while (u + 1 < sizeof units / sizeof units[0] && fabs(ns) < units[u].scale)
		u++;
	double v = ns / units[u].scale;
	snprintf(buf, len, "%.*f %s", fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2, v, units[u].unit);
}

static bool system_matches(const struct scenario_system *s, const struct type_set *may,
                           const struct type_set *always)
{
	for (uint32_t i = 0; i < s->required_count; i++)
		if (!set_has(may, s->required[i]))
			return false;
	for (uint32_t i = 0; i < s->excluded_count; i++)
		if (set_has(always, s->excluded[i]))
			return false;
	return true;
}

static void type_list(const struct scenario *sc, const uint32_t *types, uint32_t n, char *buf,
                      size_t len)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < n; i++) {
		size_t at = strlen(buf);
		snprintf(buf + at, len - at, "%s%s", i ? ", " : "", sc->types[types[i]].name);
	}
}

void scenario_sanity_file(const struct scenario *sc, const char *where,
                          struct scenario_warnings *w)
{
	bool matched[SCENARIO_MAX_SYSTEMS] = {false};
	struct type_set removable = {{0}};
	for (uint32_t s = 0; s < sc->system_count; s++)
		for (uint32_t i = 0; i < sc->systems[s].remove_count; i++)
			set_add(&removable, sc->systems[s].remove[i].type);
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		const struct scenario_kind *kind = &sc->kinds[k];
		if (kind->count == 0 && kind->spawn <= 0)
			continue; /* no entity of it ever lives */
		struct type_set may = {{0}}, always = {{0}};
		for (uint32_t i = 0; i < kind->type_count; i++) {
			set_add(&may, kind->types[i]);
			set_add(&always, kind->types[i]);
		}
		for (uint32_t t = 0; t < sc->type_count; t++)
			if (set_has(&removable, t))
				set_del(&always, t);
		for (uint32_t e = 0; e < sc->effect_count; e++)
			if (sc->effects[e].kind == k && sc->effects[e].add > 0)
				set_add(&may, sc->effects[e].type);
		for (bool grew = true; grew;) {
			grew = false;
			for (uint32_t s = 0; s < sc->system_count; s++) {
				const struct scenario_system *sys = &sc->systems[s];
				if (!system_matches(sys, &may, &always))
					continue;
				matched[s] = true;
				for (uint32_t i = 0; i < sys->add_count; i++)
					if (sys->add[i].share > 0 && !set_has(&may, sys->add[i].type)) {
						set_add(&may, sys->add[i].type);
						grew = true;
					}
			}
		}
	}
	for (uint32_t s = 0; s < sc->system_count; s++) {
		if (matched[s])
			continue;
		const struct scenario_system *sys = &sc->systems[s];
		char req[400], exc[400];
		type_list(sc, sys->required, sys->required_count, req, sizeof req);
		type_list(sc, sys->excluded, sys->excluded_count, exc, sizeof exc);
		warn(w, where,
		     "system %s (%s:%u) matches no entity: no kind has, or is ever given, %s%s%s; its "
		     "pass is empty in every frame, and its phase times only the call",
		     sys->name, sc->path, sys->src.line, req, sys->excluded_count ? " without " : "",
		     sys->excluded_count ? exc : "");
	}
	double frames = (double)sc->warmup + sc->frames;
	for (uint32_t e = 0; e < sc->effect_count; e++) {
		const struct scenario_effect *eff = &sc->effects[e];
		const struct scenario_kind *kind = &sc->kinds[eff->kind];
		/* its kind's live entities: those at the start, or one frame's spawns for a kind that
		 * only exists while the game makes it (a lower bound: they may outlive the frame) */
		double live = kind->count ? (double)kind->count : kind->spawn;
		double expected = eff->add * live * frames;
		if (expected >= 1)
			continue;
		if (live <= 0)
			warn(w, where,
			     "effect %s (%s:%u) never fires: its kind %s has no entities (count 0, no spawn)",
			     eff->name, sc->path, eff->src.line, kind->name);
		else
			warn(w, where,
			     "effect %s (%s:%u) most likely never fires: %g%% a frame of kind %s's about "
			     "%.0f entities is %.2g adds over the run's %.0f frames (warm-up included)",
			     eff->name, sc->path, eff->src.line, eff->add * 100, kind->name, live, expected,
			     frames);
	}
}

void scenario_sanity_clock(bool wall, struct scenario_clock *out)
{
	uint64_t (*now)(void) = wall ? measure_now_ns : measure_cpu_ns;
	uint64_t start = measure_now_ns(), last = now(), step = UINT64_MAX;
	for (int i = 0; i < SANITY_CLOCK_READS; i++) {
		uint64_t t = now();
		if (t > last && t - last < step)
			step = t - last;
		last = t;
	}
	out->wall = wall;
	out->read_ns = (double)(measure_now_ns() - start) / SANITY_CLOCK_READS;
	out->step_ns = step == UINT64_MAX ? out->read_ns : (double)step;
}

void scenario_sanity_frames(const struct scenario_sanity_row *rows, uint32_t count,
                            uint32_t processes, uint32_t reps, const struct scenario_clock *clock,
                            const char *where, struct scenario_warnings *w)
{
	int floor = -1, harness = -1, shortest = -1;
	double shortest_ns = INFINITY;
	for (uint32_t i = 0; i < count; i++) {
		if (rows[i].harness)
			harness = (int)i;
		else if (!rows[i].backend)
			floor = (int)i;
		if (!rows[i].backend)
			continue; /* the backends' frames are what a verdict reads */
		struct row_stats s;
		stats_row(rows[i].samples, processes, reps, &s);
		if (s.samples && s.centre > 0 && s.centre < shortest_ns) {
			shortest_ns = s.centre;
			shortest = (int)i;
		}
	}
	if (clock && shortest >= 0 && shortest_ns < SCENARIO_CLOCK_STEPS * clock->step_ns) {
		char f[32], st[32], rd[32];
		scenario_sanity_duration(shortest_ns, f, sizeof f);
		scenario_sanity_duration(clock->step_ns, st, sizeof st);
		scenario_sanity_duration(clock->read_ns, rd, sizeof rd);
		warn(w, where,
		     "the frame is shorter than the clock can resolve: %s's takes %s, under %d steps of "
		     "the %s clock (its step %s, a read %s), so a step is more than 1%% of a frame; give "
		     "the frame more to do (scenario.scale, more entities) before reading its ratios",
		     rows[shortest].name, f, SCENARIO_CLOCK_STEPS,
		     clock->wall ? "wall" : "thread's CPU", st, rd);
	}
	const int refs[2] = {floor, harness};
	static const char *const what[2] = {
		"the floor (the same frames over plain arrays): the floor is no bound where a pass "
		"walks only the entities holding a type that comes and goes, which a table storage "
		"keeps apart (docs/scenarios.md); otherwise the storage skips work",
		"the harness alone (the engine with no storage and no system work): a storage cannot do "
		"less than nothing; the frame's work is not being done, or the clock is not resolving it",
	};
	for (int r = 0; r < 2; r++) {
		if (refs[r] < 0)
			continue;
		for (uint32_t i = 0; i < count; i++) {
			struct stats_ratio q;
			if (!rows[i].backend ||
			    !stats_ratio(rows[i].samples, reps, rows[refs[r]].samples, reps, processes, 0.95,
			                 &q) ||
			    !q.has_interval || !(q.high < 1))
				continue;
			warn(w, where,
			     "%s's frame is shorter than %s's: %.3fx [%.3f, %.3f] (95%% interval, paired by "
			     "process) of %s",
			     rows[i].name, rows[refs[r]].name, q.ratio, q.low, q.high, what[r]);
		}
	}
}
