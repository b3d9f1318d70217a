/*
 * scenario_report.c: a scenario run's report (what and why: scenario_run.h): its CSV (a row per
 * point, participant and phase, with the statistics of stats.h, the ratio to the fastest backend,
 * memory, allocations per frame and the checksum; for a sweep, where each pair of backends
 * crosses), the raw figures of every frame in -samples.csv, the sanity warnings and the summary
 * on stderr. The options, plan and workload are scenario_run.c's (what they share:
 * scenario_run_parts.h).
 *
 * Costs: the report sorts each row's samples (stats.c) once per phase.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/plan.h"
#include "../core/report.h"
#include "../core/stats.h"
#include "../sweep/world.h"
#include "scenario_engine.h"
#include "scenario_run.h"
#include "scenario_run_parts.h"
#include "scenario_sanity.h"

/* --- the report ------------------------------------------------------------------------------ */

/* A row's samples of one phase (-1: the whole frame), process-major, NaN where none. */
static void phase_samples(const struct collection *c, const struct group *g,
                          const struct row_data *d, int phase, double *out)
{
	size_t n = (size_t)c->o->processes * c->o->reps;
	for (size_t i = 0; i < n; i++)
		out[i] = phase < 0   ? d->samples[i]
		         : d->figures ? d->figures[i * g->figures + (uint32_t)phase]
		                      : NAN;
}

static double allocations_per_frame(const struct collection *c, const struct group *g,
                                    const struct row_data *d)
{
	size_t n = (size_t)c->o->processes * c->o->reps, frames = 0;
	double sum = 0;
	uint32_t at = scenario_engine_phase_count(g->point); /* the allocations' figure */
	for (size_t i = 0; d->figures && i < n; i++) {
		double v = d->figures[i * g->figures + at];
		if (!isnan(v)) {
			sum += v;
			frames++;
		}
	}
	return frames ? sum / frames : NAN;
}

static bool row_usable(const struct collection *c, uint32_t gi, uint32_t p)
{
	const struct row_data *d = &c->rows[(size_t)gi * c->plan->max_participants + p];
	return !d->failed && d->done[c->processes_done ? c->processes_done - 1 : 0];
}

/*
 * The order of backends a and b at each point, where it changes along the sweep: "a faster" or
 * "b faster" where the 95% interval of their paired ratio excludes 1, "tied" where it does not;
 * one line listing the points of each, so that a crossover inside the noise reads as such.
 */
static void write_order(FILE *f, const struct collection *c, uint32_t a, uint32_t b,
                        const char *prefix)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	char text[3][1024] = {"", "", ""}; /* a faster, tied, b faster */
	int seen[3] = {0, 0, 0};
	for (uint32_t gi = 0; gi < c->plan->count; gi++) {
		struct stats_ratio q;
		const struct row_data *ra = &c->rows[(size_t)gi * c->plan->max_participants + a];
		const struct row_data *rb = &c->rows[(size_t)gi * c->plan->max_participants + b];
		if (!row_usable(c, gi, a) || !row_usable(c, gi, b) ||
		    !stats_ratio(ra->samples, o->reps, rb->samples, o->reps, o->processes, 0.95, &q))
			continue;
		int d = !q.has_interval ? 1 : q.high < 1 ? 0 : q.low > 1 ? 2 : 1;
		size_t len = strlen(text[d]);
		snprintf(text[d] + len, sizeof text[d] - len, "%s%s", seen[d] ? ", " : "",
		         run->values[gi]);
		seen[d]++;
	}
	if ((seen[0] > 0) + (seen[1] > 0) + (seen[2] > 0) < 2)
		return; /* the same at every point */
	fprintf(f, "%sorder %s %s:", prefix, o->backends[a]->name, o->backends[b]->name);
	const char *what[3] = {o->backends[a]->name, NULL, o->backends[b]->name};
	const char *sep = "";
	for (int d = 0; d < 3; d++)
		if (seen[d]) {
			if (d == 1)
				fprintf(f, "%s tied (95%% interval of the ratio includes 1) at %s", sep, text[d]);
			else
				fprintf(f, "%s %s faster at %s", sep, what[d], text[d]);
			sep = ";";
		}
	fputc('\n', f);
}

/*
 * Where each pair of backends changes order along the sweep: between two neighbouring points
 * where the paired ratio of their frames crosses 1, at the value where its logarithm,
 * interpolated in the sweep's spacing, is 0. "decided" when the 95% interval of the ratio
 * excludes 1 at both points, on opposite sides.
 */
static void write_crossovers(FILE *f, const struct collection *c, const char *prefix)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	/* between two categories there is no value to interpolate: the order lines alone */
	for (uint32_t a = 0; run->categorical && a < o->backend_count; a++)
		for (uint32_t b = a + 1; b < o->backend_count; b++)
			write_order(f, c, a, b, prefix);
	for (uint32_t a = 0; !run->categorical && a < o->backend_count; a++)
		for (uint32_t b = a + 1; b < o->backend_count; b++) {
			bool have = false;
			double lr_prev = 0, lo_prev = 0, hi_prev = 0, x_prev = 0;
			for (uint32_t gi = 0; gi < c->plan->count; gi++) {
				struct stats_ratio q;
				const struct row_data *ra = &c->rows[(size_t)gi * c->plan->max_participants + a];
				const struct row_data *rb = &c->rows[(size_t)gi * c->plan->max_participants + b];
				if (!row_usable(c, gi, a) || !row_usable(c, gi, b) ||
				    !stats_ratio(ra->samples, o->reps, rb->samples, o->reps, o->processes, 0.95,
				                 &q) ||
				    !(q.ratio > 0)) {
					have = false;
					continue;
				}
				/* no interval: a tie at that end, never a decided side */
				double lo = q.has_interval ? q.low : 0, hi = q.has_interval ? q.high : INFINITY;
				double lr = log(q.ratio), x = run->x[gi];
				if (have && (lr_prev < 0) != (lr < 0) && lr != lr_prev) {
					double t = lr_prev / (lr_prev - lr);
					double at = run->geometric ? exp(log(x_prev) + t * (log(x) - log(x_prev)))
					                           : x_prev + t * (x - x_prev);
					bool decided = (hi_prev < 1 && lo > 1) || (lo_prev > 1 && hi < 1);
					const char *below = lr_prev < 0 ? o->backends[a]->name : o->backends[b]->name;
					const char *above = lr_prev < 0 ? o->backends[b]->name : o->backends[a]->name;
					char at_text[32];
					snprintf(at_text, sizeof at_text, "%.3g%s", at, run->percent ? "%" : "");
					fprintf(f, "%scrossover %s %s: %s = %s (between %s and %s): %s is faster "
					           "below, %s above; %s\n",
					        prefix, o->backends[a]->name, o->backends[b]->name, run->sweep_key,
					        at_text, run->values[gi - 1], run->values[gi], below, above,
					        decided ? "decided (the 95% intervals of the ratio exclude 1 on "
					                  "both sides)"
					                : "not decided (an interval at one end includes 1)");
				}
				have = true;
				lr_prev = lr;
				lo_prev = lo;
				hi_prev = hi;
				x_prev = x;
			}
			write_order(f, c, a, b, prefix);
		}
}

/*
 * Which systems marked `group = yes` each backend grouped (1) or declined (0: it has no groups,
 * or a pool of the system's is another group's), asked in a storage made for the point as a
 * participant's is, with no entity (scenario_storage_groups); a line per point that has such
 * systems (one for a lone scenario). A backend that fails here has failed its rows already.
 */
static void write_groups(FILE *f, const struct options *o, const struct scenario_run *run,
                         const char *prefix)
{
	for (uint32_t i = 0; i < run->point_count; i++) {
		const struct scenario *point = &run->points[i];
		bool any = false;
		for (size_t b = 0; b < o->backend_count; b++) {
			const struct scenario *sc = scenario_design_point(o->backends[b], point);
			for (uint32_t s = 0; s < sc->system_count; s++)
				any = any || sc->systems[s].group;
		}
		if (!any)
			continue;
		fprintf(f, "%sgroups", prefix);
		if (run->sweep_key)
			fprintf(f, " at %s=%s", run->sweep_key, run->values[i]);
		fprintf(f, " (group = yes; ecs_system_group: 1 grouped, 0 declined):");
		for (size_t b = 0; b < o->backend_count; b++) {
			const struct scenario *sc = scenario_design_point(o->backends[b], point);
			int8_t grouped[SCENARIO_MAX_SYSTEMS];
			char err[200];
			fprintf(f, "%s %s", b ? ";" : "", o->backends[b]->name);
			if (scenario_storage_groups(sc, o->backends[b], grouped, err, sizeof err)) {
				fprintf(f, " (could not ask)");
				continue;
			}
			for (uint32_t s = 0; s < sc->system_count; s++)
				if (grouped[s] >= 0)
					fprintf(f, " %s %d", sc->systems[s].name, grouped[s]);
		}
		fputc('\n', f);
	}
}

/*
 * The run's warnings (scenario_sanity.h), point by point: the file's own, then its frames'
 * (the clock's resolution, a backend faster than the floor or the harness alone). The clock is
 * read here, in the parent, on the clock the frames were timed on.
 */
static void collect_warnings(const struct collection *c, struct scenario_warnings *w)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	w->count = 0;
	struct scenario_clock clock;
	scenario_sanity_clock(o->wall_clock || c->plan->threaded, &clock);
	for (uint32_t gi = 0; gi < c->plan->count; gi++) {
		const struct group *g = &c->plan->groups[gi];
		char where[160] = "";
		if (run->sweep_key)
			snprintf(where, sizeof where, "at %s=%s: ", run->sweep_key, run->values[gi]);
		scenario_sanity_file(g->point, where, w);
		struct scenario_sanity_row rows[MAX_LIST + 2];
		uint32_t n = 0;
		for (uint32_t p = 0; p < g->participants && n < MAX_LIST + 2; p++) {
			if (!row_usable(c, gi, p))
				continue;
			rows[n].name = plan_participant_name(o, g, p);
			rows[n].samples = c->rows[(size_t)gi * c->plan->max_participants + p].samples;
			rows[n].backend = plan_participant(o, g, p) != NULL;
			rows[n].harness = plan_harness_row(g, p);
			n++;
		}
		scenario_sanity_frames(rows, n, o->processes, o->reps, &clock, where, w);
	}
}

static void write_header(FILE *f, const struct collection *c, bool samples,
                         const struct scenario_warnings *w)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	report_run_header(f, c, samples);
	fprintf(f, "# processes %u, spread over the run (%s layout); per process %u warm-up and %u "
	           "timed frames, a sample being one frame\n",
	        o->processes,
	        o->processes == 1           ? "this process's"
	        : o->layout == LAYOUT_FIXED ? "fixed"
	                                    : "random",
	        o->warmup, o->reps);
	report_stats_header(f, o->processes, "backend in the phase", "median_ns");
	fprintf(f, "# participants: the backends; floor = the same frames over plain arrays (no "
	           "interface call); harness = the engine alone (no storage, no system work): its "
	           "frame bounds what the harness adds to a backend's frame\n");
	fprintf(f, "# phases: spawn, each system's pass (system:NAME), then despawn, add and remove "
	           "(the kinds' and effects' and the systems' deferred changes), lookup; frame = the "
	           "whole frame; ratio_to_best: to the fastest backend in that phase (its lowest "
	           "median_ns), paired by process\n");
	scenario_write_header(f, run->base);
	for (uint32_t i = 0; i < scenario_design_count; i++) {
		const char *keys = scenario_designs[i].text + strspn(scenario_designs[i].text, " \t");
		keys += strcspn(keys, " \t");
		keys += strspn(keys, " \t");
		fprintf(f, "# design %s: %s\n", scenario_designs[i].name,
		        *keys ? keys : "(the file's markings)");
	}
	write_groups(f, o, run, "# ");
	if (run->sweep_key) {
		fprintf(f, "# sweep %s: %u points, %s:", run->sweep_key, run->point_count,
		        run->categorical ? "categorical"
		        : run->listed    ? "listed"
		        : run->geometric ? "geometric"
		                         : "linear");
		for (uint32_t i = 0; i < run->point_count; i++)
			fprintf(f, " %s", run->values[i]);
		fputc('\n', f);
		write_crossovers(f, c, "# ");
	}
	for (uint32_t i = 0; i < w->count; i++)
		fprintf(f, "# warning: %s\n", w->line[i]);
	fprintf(f, "# command");
	for (int i = 0; i < o->argc; i++)
		fprintf(f, " %s", o->argv[i]);
	fputc('\n', f);
}

static const char *const columns =
	"scenario,sweep_key,sweep_value,sweep_x,backend,phase,frames,processes,median_ns,ci_low_ns,"
	"ci_high_ns,noisy,process_spread_pct,mad_pct,min_ns,max_ns,share_of_frame,ratio_to_best,"
	"ratio_ci_low,ratio_ci_high,vs_best,peak_bytes,live_bytes,allocations_per_frame,"
	"entities_start,checksum,p95_ns,p95_ci_low_ns,p95_ci_high_ns,p99_ns,p99_ci_low_ns,"
	"p99_ci_high_ns,max_frame_ns,max_ci_low_ns,max_ci_high_ns,growth_frames,growth_pct,"
	"alloc_frames\n";

/*
 * A row's tails (stats_tail: per process the 95th and 99th percentiles and the maximum of its
 * frames, then their geometric mean and t interval across processes) and, on the frame's row of
 * a backend, its growth frames (those whose largest allocation is at least
 * SCENARIO_GROWTH_BYTES) over every process, their share of its frames, and its frames with any
 * allocation at all (a storage that allocates nothing in a steady frame shows a small new table
 * there, below the threshold). Ends the line.
 */
static void write_tails(FILE *f, const struct collection *c, const struct group *g,
                        const struct row_data *d, const double *v, bool frame_row)
{
	const struct options *o = c->o;
	static const double q[3] = {0.95, 0.99, 1.0};
	for (int i = 0; i < 3; i++) {
		struct stats_tail t;
		char a[32], lo[32], hi[32];
		stats_tail(v, o->processes, o->reps, q[i], &t);
		fprintf(f, ",%s,%s,%s", report_figure(a, sizeof a, t.units > 0, "%.1f", t.value),
		        report_figure(lo, sizeof lo, t.has_interval, "%.1f", t.ci_low),
		        report_figure(hi, sizeof hi, t.has_interval, "%.1f", t.ci_high));
	}
	uint32_t at = scenario_engine_phase_count(g->point); /* allocations, then the largest */
	size_t n = (size_t)o->processes * o->reps, frames = 0;
	uint64_t growth = 0, allocating = 0;
	for (size_t i = 0; frame_row && d->figures && i < n; i++)
		if (!isnan(d->samples[i])) {
			frames++;
			allocating += stats_count_at_least(&d->figures[i * g->figures + at], 1, 1);
			growth += stats_count_at_least(&d->figures[i * g->figures + at + 1], 1,
			                               SCENARIO_GROWTH_BYTES);
		}
	if (frames)
		fprintf(f, ",%" PRIu64 ",%.3f,%" PRIu64 "\n", growth,
		        100.0 * (double)growth / (double)frames, allocating);
	else
		fputs(",,,\n", f);
}

/* The rows of one point: per participant, the frame then each phase; each phase a row group of
 * its own (stats_group), the backends competing for its best. The number of rows, or -1. */
static int write_group(FILE *f, const struct collection *c, uint32_t gi)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	const struct group *g = &c->plan->groups[gi];
	const struct row_data *rows = &c->rows[(size_t)gi * c->plan->max_participants];
	uint32_t np = g->participants, phases = scenario_engine_phase_count(((const struct scenario *)g->point)) + 1;
	size_t n = (size_t)o->processes * o->reps;
	double *x = malloc((size_t)np * phases * n * sizeof *x);
	struct stats_member *cells = calloc((size_t)np * phases, sizeof *cells);
	struct stats_member *phase_group = calloc(np, sizeof *phase_group);
	if (!x || !cells || !phase_group) {
		free(x);
		free(cells);
		free(phase_group);
		return -1;
	}
	for (uint32_t ph = 0; ph < phases; ph++) {
		for (uint32_t p = 0; p < np; p++) {
			struct stats_member *m = &phase_group[p];
			double *v = x + ((size_t)p * phases + ph) * n;
			memset(m, 0, sizeof *m);
			m->samples = v;
			if (!row_usable(c, gi, p))
				continue; /* no samples: reps 0 */
			phase_samples(c, g, &rows[p], (int)ph - 1, v);
			m->reps = o->reps;
			m->candidate = plan_participant(o, g, p) != NULL;
		}
		stats_group(phase_group, np, o->processes);
		for (uint32_t p = 0; p < np; p++)
			cells[(size_t)p * phases + ph] = phase_group[p];
	}
	free(phase_group);
	int written = 0;
	char x_text[32];
	report_figure(x_text, sizeof x_text, run->sweep_key != NULL, "%.10g", run->x[gi]);
	for (uint32_t p = 0; p < np; p++) {
		if (!row_usable(c, gi, p))
			continue;
		const struct row_data *d = &rows[p];
		double frame = cells[(size_t)p * phases].row.centre;
		double allocations = allocations_per_frame(c, g, d);
		bool harness = plan_harness_row(g, p);
		for (uint32_t ph = 0; ph < phases; ph++) {
			const struct stats_member *cl = &cells[(size_t)p * phases + ph];
			const struct row_stats *s = &cl->row;
			if (!s->samples)
				continue;
			char phase[SCENARIO_NAME_SIZE + 16], lo[32], hi[32], spread[32], share[32], rb[32],
				rl[32], rh[32], alloc[32], checksum[32];
			if (ph == 0)
				snprintf(phase, sizeof phase, "frame");
			else
				scenario_engine_phase_name(((const struct scenario *)g->point), ph - 1, phase, sizeof phase);
			snprintf(checksum, sizeof checksum, "%016" PRIx64, d->result.checksum);
			fprintf(f,
			        "%s,%s,%s,%s,%s,%s,%u,%u,%.1f,%s,%s,%d,%s,%.2f,%.1f,%.1f,%s,%s,%s,%s,%s,"
			        "%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64 ",%s",
			        run->name, run->sweep_key ? run->sweep_key : "", run->values[gi], x_text,
			        plan_participant_name(o, g, p), phase, o->reps, s->processes, s->centre,
			        report_figure(lo, sizeof lo, s->has_interval, "%.1f", s->ci_low),
			        report_figure(hi, sizeof hi, s->has_interval, "%.1f", s->ci_high), cl->noisy,
			        report_figure(spread, sizeof spread, s->has_spread, "%.2f", s->spread_pct),
			        s->mad_pct, s->min, s->max,
			        report_figure(share, sizeof share, frame > 0, "%.4f", s->centre / frame),
			        report_figure(rb, sizeof rb, cl->has_ratio, "%.4f", cl->vs_best.ratio),
			        report_figure(rl, sizeof rl, cl->has_ratio && cl->vs_best.has_interval, "%.4f",
			                      cl->vs_best.low),
			        report_figure(rh, sizeof rh, cl->has_ratio && cl->vs_best.has_interval, "%.4f",
			                      cl->vs_best.high),
			        cl->verdict,
			        d->result.peak_bytes, d->result.live_bytes,
			        report_figure(alloc, sizeof alloc, true, "%.3f", allocations),
			        ((const struct scenario *)g->point)->entities_start, harness ? "" : checksum);
			write_tails(f, c, g, d, cl->samples, ph == 0 && plan_participant(o, g, p) != NULL);
			written++;
		}
	}
	free(x);
	free(cells);
	return written;
}

/* The raw figures: a line per participant, process and frame; the phases as columns. */
static void write_samples(FILE *f, const struct collection *c)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	const struct scenario *sc = run->base;
	fputs("scenario,sweep_value,backend,process,round,frame_ns", f);
	for (uint32_t ph = 0; ph < scenario_engine_phase_count(sc); ph++) {
		char name[SCENARIO_NAME_SIZE + 16];
		scenario_engine_phase_name(sc, ph, name, sizeof name);
		fprintf(f, ",%s", name);
	}
	fputs(",allocations,largest_alloc_bytes\n", f);
	for (uint32_t gi = 0; gi < c->plan->count; gi++) {
		const struct group *g = &c->plan->groups[gi];
		for (uint32_t p = 0; p < g->participants; p++) {
			const struct row_data *d = &c->rows[(size_t)gi * c->plan->max_participants + p];
			if (!row_usable(c, gi, p))
				continue;
			for (uint32_t q = 0; q < o->processes; q++)
				for (uint32_t r = 0; r < o->reps; r++) {
					size_t i = (size_t)q * o->reps + r;
					if (isnan(d->samples[i]))
						continue;
					fprintf(f, "%s,%s,%s,%u,%u,%.0f", run->name, run->values[gi],
					        plan_participant_name(o, g, p), q + 1, r + 1, d->samples[i]);
					for (uint32_t k = 0; k < g->figures; k++)
						fprintf(f, ",%.0f", d->figures ? d->figures[i * g->figures + k] : NAN);
					fputc('\n', f);
				}
		}
	}
}

/* What the run found, on stderr: each point's backends by frame time, and the harness's share. */
static void summary(const struct collection *c)
{
	const struct options *o = c->o;
	const struct scenario_run *run = o->kind_data;
	for (uint32_t gi = 0; gi < c->plan->count; gi++) {
		const struct group *g = &c->plan->groups[gi];
		struct {
			double median;
			uint32_t p;
		} v[MAX_LIST + 2];
		uint32_t n = 0;
		double harness = NAN;
		for (uint32_t p = 0; p < g->participants; p++) {
			if (!row_usable(c, gi, p))
				continue;
			struct row_stats s;
			const struct row_data *d = &c->rows[(size_t)gi * c->plan->max_participants + p];
			stats_row(d->samples, o->processes, o->reps, &s);
			if (!s.samples)
				continue;
			if (plan_harness_row(g, p))
				harness = s.centre;
			else if (plan_participant(o, g, p)) {
				uint32_t at = n++;
				while (at > 0 && v[at - 1].median > s.centre) {
					v[at] = v[at - 1];
					at--;
				}
				v[at].median = s.centre;
				v[at].p = p;
			}
		}
		if (!n)
			continue;
		fprintf(stderr, "ecsbench: %s: ns per frame (median_ns):", g->workload->name);
		for (uint32_t i = 0; i < n; i++)
			fprintf(stderr, "%s %s %.0f", i ? "," : "", plan_participant_name(o, g, v[i].p),
			        v[i].median);
		if (!isnan(harness))
			fprintf(stderr, "; the harness alone: %.0f, %.1f%% of %s's frame", harness,
			        100 * harness / v[0].median, plan_participant_name(o, g, v[0].p));
		fputc('\n', stderr);
	}
	if (run->sweep_key)
		write_crossovers(stderr, c, "ecsbench: ");
}

int scenario_report_write(const struct collection *c, FILE *csv, FILE *samples,
                                 FILE *json)
{
	(void)json; /* --format json is refused for a scenario (refuse_options) */
	static struct scenario_warnings warnings;
	collect_warnings(c, &warnings);
	write_header(csv, c, false, &warnings);
	fputs(columns, csv);
	int written = 0;
	for (uint32_t gi = 0; gi < c->plan->count; gi++) {
		int rows = write_group(csv, c, gi);
		if (rows < 0) {
			fprintf(stderr, "ecsbench: out of memory writing the CSV\n");
			return -1;
		}
		written += rows;
	}
	if (samples) {
		write_header(samples, c, true, &warnings);
		write_samples(samples, c);
	}
	summary(c);
	/* said last, where the run's end is read; a provisional CSV has them in its header */
	for (uint32_t i = 0; !c->o->provisional_of && i < warnings.count; i++)
		fprintf(stderr, "ecsbench: warning: %s\n", warnings.line[i]);
	return written;
}
