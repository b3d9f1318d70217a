/*
 * sweep_report.c: the workload sweep's CSV (its run kind's report writer, sweep_run.c), from the
 * collection: per row the statistics of its samples across processes (stats.c), its ratios to
 * the floor and to the fastest backend of its group, for a threaded workload its speedup over
 * the same participant at T = 1, and the figures of memory and checksum; and beside it the raw
 * samples, so that any later statistic (make compare, make repeat) can be computed again from
 * the measurements themselves. With --format json, the same rows and samples in google
 * benchmark's JSON (core/gbench.h): an entry per timed sample, then the row's median.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/gbench.h"
#include "../core/report.h"
#include "../core/stats.h"
#include "history.h"
#include "sweep_run.h"

static const char *const columns =
	"backend,profile,systems,workload,history,entities,components,threads,component_bytes,"
	"processes,reps,"
	"inner,median_ns,ci_low_ns,ci_high_ns,noisy,process_spread_pct,mad_pct,min_ns,max_ns,"
	"ns_per_entity,entities_per_sec,ratio_to_floor,floor_ci_low,floor_ci_high,ratio_to_best,"
	"ratio_ci_low,ratio_ci_high,"
	"vs_best,speedup,speedup_ci_low,speedup_ci_high,off_cpu_pct,peak_bytes,live_bytes,"
	"live_bytes_per_entity,allocations,reuse,checksum,rerun_low_ns,rerun_high_ns,"
	"ratio_rerun_low,ratio_rerun_high\n";

struct row_out {
	/* A threaded workload's row: its time at T = 1 over its time at T (the ratio of their
	 * centres), with the 95% interval of samples paired by process (stats_ratio). */
	bool speedup;
	struct stats_ratio speedup_of;
	/* To the floor of its group: the same estimator as ratio_to_best's, one comparison (95%). */
	bool to_floor;
	struct stats_ratio floor_of;
};

static void write_header(FILE *f, const struct collection *c, bool samples)
{
	const struct options *o = c->o;
	report_run_header(f, c, samples);
	fprintf(f, "# profile %s (%u component types, %u systems); systems registered %u\n",
	        o->profile->name, o->profile->component_count, o->profile->system_count, o->systems);
	fprintf(f, "# storage hints: type %u (a status: what add-remove adds and removes, which a "
	           "small system requires and no measured pass walks) sparse, every other type "
	           "table; the hottest pass (the measured one; iterate-shared's: physics) asked to be "
	           "an owning group; a backend that follows neither (all but hybrid and group) "
	           "ignores them\n",
	        (unsigned)PROFILE_SPARSE_TYPE);
	char sampling[200];
	if (o->inner)
		snprintf(sampling, sizeof sampling, "%u runs per sample (--inner)", o->inner);
	else
		snprintf(sampling, sizeof sampling,
		         "samples of about %.1f ms (runs per sample calibrated for each participant, "
		         "once; a run longer than 5 samples is one sample per process)",
		         SAMPLE_TARGET_NS / 1e6);
	fprintf(f, "# processes %u, spread over the run (%s layout); per process %u warm-up and %u "
	           "timed samples; %s\n",
	        o->processes,
	        o->processes == 1           ? "this process's"
	        : o->layout == LAYOUT_FIXED ? "fixed"
	                                    : "random",
	        o->warmup, o->reps, sampling);
	report_stats_header(f, o->processes, "backend", "median_ns");
	fprintf(f, "# ratio_to_floor: median_ns over the floor row's, with its 95%% interval "
	           "(floor_ci_low, floor_ci_high: log process medians paired by process, one "
	           "comparison)\n");
	fprintf(f, "# seed %" PRIu64 "; component size %u; scale %g\n", o->seed, o->component_size,
	        o->scale);
	for (size_t i = 0; i < o->history_count; i++)
		fprintf(f, "# history %s: %s%s\n", o->histories[i]->name, o->histories[i]->description,
		        strcmp(o->histories[i]->name, HISTORY_DEFAULT) == 0 ? " (the headline figures')"
		                                                           : "");
	for (size_t i = 0; i < o->workload_count; i++) {
		if (!o->workloads[i]->threaded)
			continue;
		fprintf(f, "# threads: a threaded workload (%s) has a row per T; speedup is the same "
		           "participant's time at T = 1 over its time at T (median_ns over median_ns), with "
		           "the 95%% interval of log medians paired by process (as ratio_to_best's, "
		           "without its correction: one comparison); ratio_to_floor "
		           "is to the floor at the same T; where threads run: the cpu line\n",
		        o->workloads[i]->name);
		break;
	}
	fprintf(f, "# command");
	for (int i = 0; i < o->argc; i++)
		fprintf(f, " %s", o->argv[i]);
	fprintf(f, "\n");
}

/*
 * The share of a row's wall time its thread spent off the CPU, never below 0. The CPU clock is
 * read outside the wall clock (run_sample), so a sample's CPU time also holds part of each of
 * its two reads of the CPU clock, a system call (0.5 to 2 us on our virtual machine, where a
 * read of the wall clock takes 22 ns): a thread that never left the CPU shows about -0.1% of a
 * 2 ms sample (1,744 rows of the reference A and AAA runs, -0.1% to -0.5%): the clocks, not
 * the thread.
 */
static double off_cpu_pct(const struct row_data *d)
{
	double pct = 100 * (d->wall_sum - d->clock_sum) / d->wall_sum;
	return pct > 0 ? pct : 0;
}

/* What ns_per_entity divides a run by: its N entities (times the rounds of a round-based
 * workload, whose run goes over them `rounds` times), or 1 for a workload whose run's cost does
 * not grow with N (empty-pass: ns per pass). */
static double sweep_report_units(const struct group *g)
{
	if (g->workload->per_run)
		return 1;
	return (double)g->n * (g->workload->rounds ? g->workload->rounds : 1);
}

static void write_row(FILE *f, const struct options *o, const struct group *g, uint32_t p,
                      const struct row_data *d, const struct stats_member *m,
                      const struct row_out *x)
{
	const struct row_stats *s = &m->row;
	const struct stats_ratio *b = &m->vs_best, *sp = &x->speedup_of;
	const struct bench_result *r = &d->result;
	double units = sweep_report_units(g);
	const struct stats_ratio *fl = &x->floor_of;
	char lo[32], hi[32], spread[32], floor_ratio[32], rb[32], rl[32], rh[32], reuse[32], off[32];
	char sm[32], sl[32], sh[32], fll[32], flh[32], pl[32], ph[32], rpl[32], rph[32];
	fprintf(f,
	        "%s,%s,%u,%s,%s,%u,%u,%u,%u,%u,%u,%u,%.1f,%s,%s,%d,%s,%.2f,%.1f,%.1f,%.4g,%.0f,%s,%s,%s,%s,%s,"
	        "%s,%s,%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64 ",%s,%016" PRIx64
	        ",%s,%s,%s,%s\n",
	        plan_participant_name(o, g, p), o->profile->name, o->systems, g->workload->name,
	        history_name(g->history), g->n, g->k,
	        g->threads, o->component_size, s->processes, r->reps, r->inner, s->centre,
	        report_figure(lo, sizeof lo, s->has_interval, "%.1f", s->ci_low),
	        report_figure(hi, sizeof hi, s->has_interval, "%.1f", s->ci_high), m->noisy,
	        report_figure(spread, sizeof spread, s->has_spread, "%.2f", s->spread_pct), s->mad_pct,
	        s->min,
	        s->max, s->centre / units, s->centre > 0 ? 1e9 * units / s->centre : 0.0,
	        report_figure(floor_ratio, sizeof floor_ratio, x->to_floor, "%.3f", fl->ratio),
	        report_figure(fll, sizeof fll, x->to_floor && fl->has_interval, "%.3f", fl->low),
	        report_figure(flh, sizeof flh, x->to_floor && fl->has_interval, "%.3f", fl->high),
	        report_figure(rb, sizeof rb, m->has_ratio, "%.3f", b->ratio),
	        report_figure(rl, sizeof rl, m->has_ratio && b->has_interval, "%.3f", b->low),
	        report_figure(rh, sizeof rh, m->has_ratio && b->has_interval, "%.3f", b->high),
	        m->verdict,
	        report_figure(sm, sizeof sm, x->speedup, "%.3f", sp->ratio),
	        report_figure(sl, sizeof sl, x->speedup && sp->has_interval, "%.3f", sp->low),
	        report_figure(sh, sizeof sh, x->speedup && sp->has_interval, "%.3f", sp->high),
	        report_figure(off, sizeof off, d->wall_sum > 0, "%.1f", off_cpu_pct(d)),
	        r->peak_bytes,
	        r->live_bytes, (double)r->live_bytes / g->n, r->allocations,
	        report_figure(reuse, sizeof reuse, r->reuse > 0, "%.3f", r->reuse), r->checksum,
	        report_figure(pl, sizeof pl, s->has_rerun, "%.1f", s->rerun_low),
	        report_figure(ph, sizeof ph, s->has_rerun, "%.1f", s->rerun_high),
	        report_figure(rpl, sizeof rpl, m->has_rerun, "%.3f", m->rerun_low),
	        report_figure(rph, sizeof rph, m->has_rerun, "%.3f", m->rerun_high));
}

/*
 * A sample's blocks (create-unreserved, growth.c: figures = GROWTH_BLOCKS times, then as many
 * largest allocations): block_ns_per_entity, the blocks' ns per entity joined by ';', and
 * growth_blocks, the 1-based numbers of the blocks whose largest allocation was at least
 * GROWTH_BYTES, joined by ';'. Both empty for a row without figures.
 */
#define GROWTH_BYTES 65536.0
static void write_blocks(FILE *f, const struct group *g, const struct row_data *d, size_t i)
{
	const double *x = d->figures ? &d->figures[i * g->figures] : NULL;
	if (x && isnan(x[0])) /* a participant without them (the floor) */
		x = NULL;
	uint32_t blocks = g->figures / 2;
	fputc(',', f);
	for (uint32_t k = 0; x && k < blocks; k++)
		fprintf(f, "%s%.1f", k ? ";" : "", x[k]);
	fputc(',', f);
	const char *sep = "";
	for (uint32_t k = 0; x && k < blocks; k++)
		if (x[blocks + k] >= GROWTH_BYTES) {
			fprintf(f, "%s%u", sep, k + 1);
			sep = ";";
		}
	fputc('\n', f);
}

static void write_samples(FILE *f, const struct options *o, const struct group *g, uint32_t p,
                          const struct row_data *d)
{
	for (uint32_t q = 0; q < o->processes; q++)
		for (uint32_t r = 0; r < o->reps; r++) {
			size_t i = (size_t)q * o->reps + r;
			double ns = d->samples[i];
			if (isnan(ns))
				continue;
			fprintf(f, "%s,%s,%s,%s,%u,%u,%u,%u,%u,%.1f", plan_participant_name(o, g, p),
			        o->profile->name, g->workload->name, history_name(g->history), g->n, g->k,
			        g->threads, q + 1, r + 1, ns);
			write_blocks(f, g, d, i);
		}
}

/* The JSON's families (google benchmark's: a benchmark and its instances over its arguments):
 * a participant x workload x history, each with its N x k x T instances in the run's order. */
struct json_state {
	struct json_family {
		uint32_t participant;
		const struct workload *workload;
		const struct history *history;
		uint32_t instances;
	} *families;
	uint32_t count;
	bool first;
};

static uint32_t json_family(struct json_state *st, uint32_t p, const struct group *g)
{
	for (uint32_t i = 0; i < st->count; i++) {
		const struct json_family *fa = &st->families[i];
		if (fa->participant == p && fa->workload == g->workload && fa->history == g->history)
			return i;
	}
	st->families[st->count] = (struct json_family){p, g->workload, g->history, 0};
	return st->count++;
}

/* A row in the JSON: its samples, then its median with the row's figures as counters. */
static void json_row(FILE *f, struct json_state *st, const struct options *o,
                     const struct group *g, uint32_t p, const struct row_data *d,
                     const struct stats_member *m, const struct row_out *x)
{
	const struct row_stats *s = &m->row;
	const struct bench_result *r = &d->result;
	double units = sweep_report_units(g);
	char name[400], threads[32] = "", history[96] = "";
	if (g->workload->threaded)
		snprintf(threads, sizeof threads, "/T:%u", g->threads);
	if (g->history && strcmp(history_name(g->history), HISTORY_DEFAULT) != 0)
		snprintf(history, sizeof history, "/history:%s", history_name(g->history));
	snprintf(name, sizeof name, "%s/%s/%s/N:%u/k:%u%s%s", plan_participant_name(o, g, p),
	         g->workload->name, o->profile->name, g->n, g->k, threads, history);
	uint32_t fi = json_family(st, p, g);
	struct gbench_entry e = {.name = name, .family_index = fi,
	                         .instance_index = st->families[fi].instances++,
	                         .repetitions = s->samples, .threads = g->threads,
	                         .iterations = r->inner};
	double bytes = (double)r->live_bytes / g->n, allocs = (double)r->allocations;
	uint32_t index = 0;
	for (uint32_t q = 0; q < o->processes; q++)
		for (uint32_t k = 0; k < o->reps; k++) {
			double ns = d->samples[(size_t)q * o->reps + k];
			if (isnan(ns))
				continue;
			e.repetition_index = index++;
			e.time_ns = ns;
			e.counter_count = 3;
			e.counters[0] = (struct gbench_counter){"ns_per_entity", ns / units, true};
			e.counters[1] = (struct gbench_counter){"bytes_per_entity", bytes, true};
			e.counters[2] = (struct gbench_counter){"allocations", allocs, true};
			gbench_entry(f, &e, st->first);
			st->first = false;
		}
	e.aggregate = "median";
	e.time_ns = s->centre;
	e.counter_count = 9;
	e.counters[0] = (struct gbench_counter){"ns_per_entity", s->centre / units, true};
	e.counters[3] = (struct gbench_counter){"ci_low_ns", s->ci_low, s->has_interval};
	e.counters[4] = (struct gbench_counter){"ci_high_ns", s->ci_high, s->has_interval};
	e.counters[5] = (struct gbench_counter){"ratio_to_floor", x->floor_of.ratio, x->to_floor};
	e.counters[6] = (struct gbench_counter){"floor_ci_low", x->floor_of.low,
	                                        x->to_floor && x->floor_of.has_interval};
	e.counters[7] = (struct gbench_counter){"floor_ci_high", x->floor_of.high,
	                                        x->to_floor && x->floor_of.has_interval};
	e.counters[8] = (struct gbench_counter){"processes", s->processes, true};
	gbench_entry(f, &e, st->first);
	st->first = false;
}

/* The group of the same workload, N, k and history as group gi at T = 1 (gi itself if it is), or -1
 * if the run has none. */
static int serial_group(const struct plan *plan, uint32_t gi)
{
	const struct group *g = &plan->groups[gi];
	for (uint32_t i = 0; i < plan->count; i++) {
		const struct group *h = &plan->groups[i];
		if (h->workload == g->workload && h->n == g->n && h->k == g->k &&
		    h->history == g->history && h->threads == 1)
			return (int)i;
	}
	return -1;
}

int sweep_report_write(const struct collection *c, FILE *csv, FILE *samples, FILE *json)
{
	const struct options *o = c->o;
	const struct plan *plan = c->plan;
	write_header(csv, c, false);
	fputs(columns, csv);
	if (samples) {
		write_header(samples, c, true);
		fputs("backend,profile,workload,history,entities,components,threads,process,round,"
		      "ns_per_run,block_ns_per_entity,growth_blocks\n",
		      samples);
	}
	uint32_t most = plan->max_participants ? plan->max_participants : 1;
	int written = 0;
	struct row_out *out = calloc(most, sizeof *out);
	struct stats_member *members = calloc(most, sizeof *members);
	struct json_state st = {calloc((size_t)plan->count * most, sizeof *st.families), 0, true};
	if (!out || !members || !st.families) {
		free(out);
		free(members);
		free(st.families);
		return -1;
	}
	if (json)
		gbench_begin(json, c);
	for (uint32_t gi = 0; gi < plan->count; gi++) {
		const struct group *g = &plan->groups[gi];
		const struct row_data *rows = &c->rows[(size_t)gi * plan->max_participants];
		/* Every participant's samples are processes x o->reps (NaN where a long run took one
		 * sample); a failed one takes no part. */
		for (uint32_t p = 0; p < g->participants; p++) {
			memset(&out[p], 0, sizeof out[p]);
			members[p].samples = rows[p].samples;
			members[p].reps = rows[p].failed ? 0 : o->reps;
			members[p].candidate = plan_participant(o, g, p) != NULL;
		}
		stats_group(members, g->participants, o->processes);
		int floor = -1;
		for (uint32_t p = 0; p < g->participants; p++)
			if (!rows[p].failed && !plan_participant(o, g, p) && members[p].row.samples)
				floor = (int)p;
		for (uint32_t p = 0; p < g->participants && floor >= 0; p++)
			if (!rows[p].failed && members[p].row.samples)
				out[p].to_floor = stats_ratio(rows[p].samples, o->reps, rows[floor].samples,
				                              o->reps, o->processes, 0.95, &out[p].floor_of);
		int serial = g->workload->threaded ? serial_group(plan, gi) : -1;
		for (uint32_t p = 0; p < g->participants && serial >= 0; p++) {
			const struct row_data *one = &c->rows[(size_t)serial * plan->max_participants + p];
			struct row_out *x = &out[p];
			if (rows[p].failed || one->failed || members[p].row.samples == 0)
				continue;
			if ((uint32_t)serial == gi) {
				x->speedup = true;
				x->speedup_of.ratio = x->speedup_of.low = x->speedup_of.high = 1;
				x->speedup_of.has_interval = true;
				continue;
			}
			x->speedup = stats_ratio(one->samples, o->reps, rows[p].samples, o->reps,
			                         o->processes, 0.95, &x->speedup_of);
		}
		for (uint32_t p = 0; p < g->participants; p++) {
			if (rows[p].failed || members[p].row.samples == 0)
				continue;
			write_row(csv, o, g, p, &rows[p], &members[p], &out[p]);
			written++;
			if (samples)
				write_samples(samples, o, g, p, &rows[p]);
			if (json)
				json_row(json, &st, o, g, p, &rows[p], &members[p], &out[p]);
		}
	}
	if (json)
		gbench_end(json);
	free(st.families);
	free(members);
	free(out);
	return written;
}
