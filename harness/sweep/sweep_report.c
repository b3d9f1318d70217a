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
#include "../core/race.h"
#include "../core/report.h"
#include "../core/stats.h"
#include "history.h"
#include "sweep_columns.h"
#include "sweep_run.h"

/* A ratio paired by process, with its 95% interval (one comparison). */
struct pair_out {
	bool has, has_interval;
	double ratio, low, high;
};

struct row_out {
	struct race_row race;   /* its figures in its group's race (race.h) */
	struct row_stats spread; /* min, max, the spread within a process (stats.h) */
	/* A threaded workload's row: its time at T = 1 over its time at T, paired by process */
	struct pair_out speedup;
	/* To the floor of its group, paired by process */
	struct pair_out to_floor;
	bool has_rerun, has_ratio_rerun;
	double rerun_low, rerun_high, ratio_rerun_low, ratio_rerun_high;
	char invalid[200]; /* why its figure is no result (invalid_cause), or "" */
};

/* Other work on the machine (every CPU) beyond which a row of T > 1 threads is no result. */
#define QUIET_OTHERS_PCT 10.0

/* Where the run's time went (driver.c, pass.h: struct group_timing), as far as it is known when
 * the CSV is written (the figures come after). */
static void write_time(FILE *f, const struct collection *c)
{
	double timed = 0, restore = 0, build = 0, calibration = 0, other = 0;
	for (uint32_t g = 0; g < c->plan->count; g++) {
		const struct group_timing *t = &c->groups[g].total;
		timed += t->timed_ns;
		restore += t->restore_ns;
		build += t->setup_ns + c->groups[g].build_ns;
		calibration += t->calibration_ns + t->warmup_ns;
		other += t->rounds_ns > t->timed_ns + t->restore_ns ? t->rounds_ns - t->timed_ns - t->restore_ns : 0;
		other += t->finish_ns;
	}
	fprintf(f, "# time: %.0f s measuring: the timed runs %.0f s, restoring the state before each "
	           "sample %.0f s, building the storages %.0f s, calibration and warm-up %.0f s, "
	           "process starts and the machine's fingerprint %.0f s, the rest (checks, the "
	           "harness between samples) %.0f s\n",
	        c->run_ns / 1e9, timed / 1e9, restore / 1e9, build / 1e9, calibration / 1e9,
	        c->process_overhead_ns / 1e9, other / 1e9);
}

/* The processes set aside as busy (collection.h, COLLECTION_BUSY_PCT): "# set aside: 9,10,12"
 * (make compare --repeat sets them aside too), or nothing. */
static void write_busy(FILE *f, const struct collection *c)
{
	uint32_t n = 0;
	for (uint32_t q = 0; q < c->processes_done; q++)
		n += c->busy[q];
	if (!n)
		return;
	fprintf(f, "# set aside: ");
	for (uint32_t q = 0, k = 0; q < c->processes_done; q++)
		if (c->busy[q])
			fprintf(f, "%s%u", k++ ? "," : "", q + 1);
	fprintf(f, " (processes during which other work took over %.0f%% of the machine's CPUs: "
	           "their samples are kept, a race sets them aside while they are fewer than half of "
	           "its group's processes, never a group's first)\n",
	        COLLECTION_BUSY_PCT);
}

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
		         "a sample makes the same runs for every participant of its group, about "
		         "%.1f ms of the fastest backend's (calibrated once)",
		         SAMPLE_TARGET_NS / 1e6);
	char budget[64] = "no budget";
	if (o->budget_s > 0)
		snprintf(budget, sizeof budget, "a budget of %.0f s", o->budget_s);
	fprintf(f, "# processes: up to %u a row group (%s layout; processes done %u), %s; per process "
	           "%u warm-up round%s and up to %u timed rounds, each round a sample of every "
	           "participant still measured, in an order drawn for the round; %s\n",
	        o->processes,
	        o->processes == 1           ? "this process's"
	        : o->layout == LAYOUT_FIXED ? "fixed"
	                                    : "random",
	        c->processes_done, budget, o->warmup, o->warmup == 1 ? "" : "s", o->reps, sampling);
	fprintf(f, "# interval: per process, Tukey's median polish of the log samples (rows by "
	           "rounds) gives each row a level, what a round did to all of them taken out; "
	           "median_ns is the geometric mean of a row's levels over the processes that "
	           "measured it, ci_low_ns and ci_high_ns its 95%% interval across them (Student's t); "
	           "reps: its timed samples in all%s\n",
	        o->processes == 2 ? "; with 2 processes t has 1 degree of freedom (12.71 standard "
	                            "errors each side, where 5 processes have 2.78): wide intervals, "
	                            "themselves unsure"
	                          : "");
	fprintf(f, "# race: looks after a group's %uth process, then each time its processes have "
	           "grown by half again, and after its last; at each, a backend decidedly more than "
	           "%.0f%% slower than another still in the group's race leaves it (race left, "
	           "race_process: the processes it had); the group is decided when one backend is left "
	           "(decision fastest) or every two left are within %.0f%% of each other (equal); "
	           "ratio_to_best is paired by process (the mean log difference over the processes "
	           "both have), its interval (ratio_ci_low, ratio_ci_high) at the level of the look "
	           "the row left at, or the last (ratio_level: two-sided, each comparison): the run's "
	           "5%% spent over the looks as the processes grow (%u at most for the answer's rows, "
	           "the largest N; %u for the others) and split over the comparisons with the best "
	           "(Bonferroni), so that the fastest leaves, or a group is called equal wrongly, in at "
	           "most 5%% of groups; vs_best best, slower (left), equal, or tied (no decision: noisy "
	           "1); in the first process a backend more than %.0fx slower than another in each of "
	           "its first %u rounds or more (race screened, race_process 1), or more than %.0fx "
	           "there and still more than %.0fx in its group's second process (race screened, "
	           "race_process 2), or whose calibration run took %.0fx another's and over %.0f ms "
	           "(race calibration, its one cold run its figure) leaves with no interval "
	           "(docs/method.md, \"The race\")\n",
	        RACE_FIRST_LOOK, 100 * (RACE_MARGIN - 1), 100 * (RACE_EQUAL - 1), o->processes,
	        RACE_PLOT_PROCESSES, RACE_SCREEN_SURE, RACE_SCREEN_ROUNDS, RACE_SCREEN_RATIO,
	        RACE_SCREEN_RATIO, RACE_CALIBRATION_RATIO, RACE_CALIBRATION_NS / 1e6);
	fprintf(f, "# ratio_to_floor: median_ns over the floor row's, paired by process, with its 95%% "
	           "interval (floor_ci_low, floor_ci_high: one comparison)\n");
	fprintf(f, "# invalid: why a row's figure is one the machine cannot produce, kept out of every "
	           "verdict: decidedly faster than its floor (the machine's limit for the task), a "
	           "speedup decidedly beyond its T threads, or T > 1 threads while other work took "
	           "over %.0f%% of the machine's CPUs\n",
	        QUIET_OTHERS_PCT);
	write_time(f, c);
	write_busy(f, c);
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

/* A row's value of every column (sweep_columns.h), each under its column's name. */
static void row_values(struct sweep_value *v, const struct options *o, const struct group *g,
                       uint32_t p, const struct row_data *d, const struct race *race,
                       const struct row_out *x)
{
	const struct race_row *s = &x->race;
	const struct bench_result *r = &d->result;
	const struct race_member *m = &race->m[p];
	double units = sweep_report_units(g);
	v[SWEEP_COL_BACKEND] = sweep_text(plan_participant_name(o, g, p));
	v[SWEEP_COL_PROFILE] = sweep_text(o->profile->name);
	v[SWEEP_COL_SYSTEMS] = sweep_whole(o->systems);
	v[SWEEP_COL_WORKLOAD] = sweep_text(g->workload->name);
	v[SWEEP_COL_HISTORY] = sweep_text(history_name(g->history));
	v[SWEEP_COL_ENTITIES] = sweep_whole(g->n);
	v[SWEEP_COL_COMPONENTS] = sweep_whole(g->k);
	v[SWEEP_COL_THREADS] = sweep_whole(g->threads);
	v[SWEEP_COL_COMPONENT_BYTES] = sweep_whole(o->component_size);
	v[SWEEP_COL_PROCESSES] = sweep_whole(s->processes);
	v[SWEEP_COL_REPS] = sweep_whole(x->spread.samples);
	v[SWEEP_COL_INNER] = sweep_whole(r->inner);
	v[SWEEP_COL_MEDIAN_NS] = sweep_real(s->centre);
	v[SWEEP_COL_CI_LOW_NS] = sweep_real_if(s->has_interval, s->ci_low);
	v[SWEEP_COL_CI_HIGH_NS] = sweep_real_if(s->has_interval, s->ci_high);
	v[SWEEP_COL_NOISY] = sweep_whole(s->open);
	v[SWEEP_COL_PROCESS_SPREAD_PCT] =
		sweep_real_if(s->has_interval, 100 * s->log_se * sqrt(s->processes));
	v[SWEEP_COL_MAD_PCT] = sweep_real(x->spread.mad_pct);
	v[SWEEP_COL_MIN_NS] = sweep_real(x->spread.min);
	v[SWEEP_COL_MAX_NS] = sweep_real(x->spread.max);
	v[SWEEP_COL_NS_PER_ENTITY] = sweep_real(s->centre / units);
	v[SWEEP_COL_ENTITIES_PER_SEC] = sweep_real(s->centre > 0 ? 1e9 * units / s->centre : 0.0);
	v[SWEEP_COL_RATIO_TO_FLOOR] = sweep_real_if(x->to_floor.has, x->to_floor.ratio);
	v[SWEEP_COL_FLOOR_CI_LOW] = sweep_real_if(x->to_floor.has_interval, x->to_floor.low);
	v[SWEEP_COL_FLOOR_CI_HIGH] = sweep_real_if(x->to_floor.has_interval, x->to_floor.high);
	v[SWEEP_COL_RATIO_TO_BEST] = sweep_real_if(s->has_ratio, s->ratio);
	v[SWEEP_COL_RATIO_CI_LOW] = sweep_real_if(s->has_ratio && s->ratio_interval, s->ratio_low);
	v[SWEEP_COL_RATIO_CI_HIGH] = sweep_real_if(s->has_ratio && s->ratio_interval, s->ratio_high);
	v[SWEEP_COL_VS_BEST] = sweep_text(s->verdict);
	v[SWEEP_COL_SPEEDUP] = sweep_real_if(x->speedup.has, x->speedup.ratio);
	v[SWEEP_COL_SPEEDUP_CI_LOW] = sweep_real_if(x->speedup.has_interval, x->speedup.low);
	v[SWEEP_COL_SPEEDUP_CI_HIGH] = sweep_real_if(x->speedup.has_interval, x->speedup.high);
	v[SWEEP_COL_OFF_CPU_PCT] = sweep_real_if(d->wall_sum > 0, off_cpu_pct(d));
	v[SWEEP_COL_PEAK_BYTES] = sweep_whole(r->peak_bytes);
	v[SWEEP_COL_LIVE_BYTES] = sweep_whole(r->live_bytes);
	v[SWEEP_COL_LIVE_BYTES_PER_ENTITY] = sweep_real((double)r->live_bytes / g->n);
	v[SWEEP_COL_ALLOCATIONS] = sweep_whole(r->allocations);
	v[SWEEP_COL_REUSE] = sweep_real_if(r->reuse > 0, r->reuse);
	v[SWEEP_COL_CHECKSUM] = sweep_whole(r->checksum);
	v[SWEEP_COL_RERUN_LOW_NS] = sweep_real_if(x->has_rerun, x->rerun_low);
	v[SWEEP_COL_RERUN_HIGH_NS] = sweep_real_if(x->has_rerun, x->rerun_high);
	v[SWEEP_COL_RATIO_RERUN_LOW] = sweep_real_if(x->has_ratio_rerun, x->ratio_rerun_low);
	v[SWEEP_COL_RATIO_RERUN_HIGH] = sweep_real_if(x->has_ratio_rerun, x->ratio_rerun_high);
	v[SWEEP_COL_RACE] = sweep_text(m->candidate ? race_state_name(m->state) : "");
	/* the process or look it left at: none while it races, nor for a failed row */
	v[SWEEP_COL_RACE_PROCESS] = sweep_whole_if(m->candidate && m->state != RACE_IN &&
	                                               m->state != RACE_FAILED,
	                                           m->left_at);
	v[SWEEP_COL_RACE_BEHIND] = sweep_text(m->candidate && m->state != RACE_IN && m->behind >= 0
	                                          ? plan_participant_name(o, g, (uint32_t)m->behind)
	                                          : "");
	v[SWEEP_COL_DECISION] = sweep_text(m->candidate ? race_decision_name(race->decision) : "");
	v[SWEEP_COL_RATIO_LEVEL] =
		sweep_real_if(s->has_ratio && s->ratio_interval && !isnan(s->level), s->level);
	v[SWEEP_COL_INVALID] = sweep_text(x->invalid);
}

static int write_row(FILE *f, const struct options *o, const struct group *g, uint32_t p,
                     const struct row_data *d, const struct race *race, const struct row_out *x)
{
	struct sweep_value v[SWEEP_COLUMNS] = {{0}};
	row_values(v, o, g, p, d, race, x);
	if (sweep_columns_write_row(f, v) == 0)
		return 0;
	for (int i = 0; i < SWEEP_COLUMNS; i++)
		if (!v[i].set)
			fprintf(stderr, "ecsbench: internal error: the CSV's column %s was given no value "
			                "(harness/sweep/sweep_report.c, row_values)\n", sweep_columns[i].name);
	return -1;
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
                     const struct row_out *x)
{
	const struct race_row *s = &x->race;
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
	                         .repetitions = x->spread.samples, .threads = g->threads,
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
	e.counters[5] = (struct gbench_counter){"ratio_to_floor", x->to_floor.ratio, x->to_floor.has};
	e.counters[6] = (struct gbench_counter){"floor_ci_low", x->to_floor.low,
	                                        x->to_floor.has_interval};
	e.counters[7] = (struct gbench_counter){"floor_ci_high", x->to_floor.high,
	                                        x->to_floor.has_interval};
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

/* x / y of two levels paired by process (race.h), with its 95% interval: one comparison. */
static void pair_of(const double *x, const double *y, uint32_t processes, struct pair_out *out)
{
	double sum = 0, sq = 0;
	uint32_t n = 0;
	memset(out, 0, sizeof *out);
	for (uint32_t q = 0; q < processes; q++)
		if (!isnan(x[q]) && !isnan(y[q])) {
			sum += x[q] - y[q];
			n++;
		}
	if (!n)
		return;
	double mean = sum / n;
	out->has = true;
	out->ratio = exp(mean);
	if (n < 2)
		return;
	for (uint32_t q = 0; q < processes; q++)
		if (!isnan(x[q]) && !isnan(y[q]))
			sq += (x[q] - y[q] - mean) * (x[q] - y[q] - mean);
	double half = stats_t975(n - 1) * sqrt(sq / (n - 1) / n);
	out->has_interval = true;
	out->low = exp(mean - half);
	out->high = exp(mean + half);
}

/* Group g's levels (collection_levels), processes x participants; malloc'd, NULL if out of
 * memory. */
static double *levels_of(const struct collection *c, uint32_t g)
{
	const struct group_record *rec = &c->groups[g];
	uint32_t np = c->plan->groups[g].participants;
	double *lv = malloc(((size_t)rec->processes * np + 1) * sizeof *lv);
	if (lv)
		collection_levels(c, g, rec->processes, lv);
	return lv;
}

/* Participant p's levels in group g, by the process of group h that they share: out[q] for
 * h's q-th process, NaN where g was not measured then. */
static void levels_by_pass(const struct collection *c, uint32_t g, const double *lv, uint32_t p,
                           uint32_t h, double *out)
{
	const struct group_record *rg = &c->groups[g], *rh = &c->groups[h];
	uint32_t np = c->plan->groups[g].participants;
	for (uint32_t q = 0; q < rh->processes; q++) {
		out[q] = NAN;
		for (uint32_t k = 0; k < rg->processes; k++)
			if (rg->passes[k] == rh->passes[q])
				out[q] = lv[(size_t)k * np + p];
	}
}

/*
 * Why a row's figure is one the machine cannot produce (docs/method.md, "A figure the machine
 * cannot produce"), into x->invalid ("" if it can): a speedup decidedly beyond its T threads; a
 * backend decidedly faster than its floor, the same work over plain arrays, which is the
 * machine's limit for the task at that N (its stream rate, for a pass); a row of T > 1 threads
 * measured while other work took more than QUIET_OTHERS_PCT of the machine's CPUs.
 */
static void invalid_cause(const struct collection *c, uint32_t gi, uint32_t p, struct row_out *x)
{
	const struct group *g = &c->plan->groups[gi];
	const struct group_record *rec = &c->groups[gi];
	x->invalid[0] = '\0';
	if (g->threads > 1) {
		double busy = 0;
		for (uint32_t q = 0; q < rec->processes; q++) {
			double b = c->machine[rec->passes[q]].others_all_pct;
			busy = b > busy ? b : busy;
		}
		if (busy > QUIET_OTHERS_PCT) {
			snprintf(x->invalid, sizeof x->invalid, "the machine was not quiet for %u threads: "
			         "other work took %.0f%% of its CPUs in a process", g->threads, busy);
			return;
		}
		if (x->speedup.has_interval && x->speedup.low > g->threads) {
			snprintf(x->invalid, sizeof x->invalid, "a speedup of %.2fx [%.2f, %.2f] on %u threads",
			         x->speedup.ratio, x->speedup.low, x->speedup.high, g->threads);
			return;
		}
	}
	if (plan_participant(c->o, g, p) && x->to_floor.has_interval && x->to_floor.high < 1)
		snprintf(x->invalid, sizeof x->invalid, "faster than its floor (the same work over plain "
		         "arrays, the machine's limit) beyond its interval: %.3fx [%.3f, %.3f]",
		         x->to_floor.ratio, x->to_floor.low, x->to_floor.high);
}

/* Group g's rows: their race figures, their ratios to the floor and (threaded) speedups, and
 * their rerun intervals, into out. */
static void group_rows(const struct collection *c, uint32_t gi, const double *lv,
                       struct row_out *out)
{
	const struct options *o = c->o;
	const struct plan *plan = c->plan;
	const struct group *g = &plan->groups[gi];
	const struct group_record *rec = &c->groups[gi];
	const struct row_data *rows = &c->rows[(size_t)gi * plan->max_participants];
	uint32_t np = g->participants, nq = rec->processes;
	struct race_row rr[RACE_MAX_MEMBERS];
	race_figures(&rec->race, lv, nq, rr);
	double mine[MAX_PROCESSES], other[MAX_PROCESSES];
	int floor = -1;
	for (uint32_t p = 0; p < np; p++) {
		memset(&out[p], 0, sizeof out[p]);
		out[p].race = rr[p];
		stats_row(rows[p].samples, o->processes, rows[p].failed ? 0 : o->reps, &out[p].spread);
		if (!rows[p].failed && !plan_participant(o, g, p) && rr[p].processes)
			floor = (int)p;
	}
	int serial = g->workload->threaded ? serial_group(plan, gi) : -1;
	double *serial_lv = serial >= 0 && (uint32_t)serial != gi ? levels_of(c, (uint32_t)serial) : NULL;
	for (uint32_t p = 0; p < np; p++) {
		struct row_out *x = &out[p];
		if (rows[p].failed || !rr[p].processes)
			continue;
		for (uint32_t q = 0; q < nq; q++)
			mine[q] = lv[(size_t)q * np + p];
		if (floor >= 0) {
			for (uint32_t q = 0; q < nq; q++)
				other[q] = lv[(size_t)q * np + (uint32_t)floor];
			pair_of(mine, other, nq, &x->to_floor);
		}
		if (serial >= 0 && (uint32_t)serial == gi) {
			x->speedup = (struct pair_out){true, true, 1, 1, 1};
		} else if (serial_lv && !c->rows[(size_t)serial * plan->max_participants + p].failed) {
			levels_by_pass(c, (uint32_t)serial, serial_lv, p, gi, other);
			pair_of(other, mine, nq, &x->speedup);
		}
		const struct race_row *s = &x->race;
		x->has_rerun = s->has_interval &&
		               stats_rerun(s->centre, s->log_se, s->processes - 1.0, STATS_RERUN_ROW_SD,
		                           &x->rerun_low, &x->rerun_high);
		x->has_ratio_rerun = s->has_ratio && s->ratio_interval && strcmp(s->verdict, "best") &&
		                     stats_rerun(s->ratio, s->ratio_se, s->pairs - 1.0, STATS_RERUN_RATIO_SD,
		                                 &x->ratio_rerun_low, &x->ratio_rerun_high);
		invalid_cause(c, gi, p, x);
	}
	free(serial_lv);
}

int sweep_report_write(const struct collection *c, FILE *csv, FILE *samples, FILE *json)
{
	const struct options *o = c->o;
	const struct plan *plan = c->plan;
	write_header(csv, c, false);
	sweep_columns_write_header(csv);
	if (samples) {
		write_header(samples, c, true);
		fputs("backend,profile,workload,history,entities,components,threads,process,round,"
		      "ns_per_run,block_ns_per_entity,growth_blocks\n",
		      samples);
	}
	uint32_t most = plan->max_participants ? plan->max_participants : 1;
	int written = 0;
	struct row_out *out = calloc(most, sizeof *out);
	struct json_state st = {calloc((size_t)plan->count * most, sizeof *st.families), 0, true};
	if (!out || !st.families) {
		free(out);
		free(st.families);
		return -1;
	}
	if (json)
		gbench_begin(json, c);
	for (uint32_t gi = 0; gi < plan->count && written >= 0; gi++) {
		const struct group *g = &plan->groups[gi];
		const struct row_data *rows = &c->rows[(size_t)gi * plan->max_participants];
		double *lv = levels_of(c, gi);
		if (!lv) {
			written = -1;
			break;
		}
		group_rows(c, gi, lv, out);
		free(lv);
		for (uint32_t p = 0; p < g->participants; p++) {
			if (rows[p].failed || out[p].race.processes == 0)
				continue;
			if (write_row(csv, o, g, p, &rows[p], &c->groups[gi].race, &out[p])) {
				written = -1;
				break;
			}
			written++;
			if (samples)
				write_samples(samples, o, g, p, &rows[p]);
			if (json)
				json_row(json, &st, o, g, p, &rows[p], &out[p]);
		}
	}
	if (json)
		gbench_end(json);
	free(st.families);
	free(out);
	return written;
}
