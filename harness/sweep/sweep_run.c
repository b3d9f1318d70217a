/*
 * sweep_run.c: the workload sweep as a kind of run (run_kind.h): its options (the backends,
 * workloads, N, k, T and histories asked for, with their defaults, checked together), its plan
 * (a row group per workload x k x N x history x T, whose participants are the backends and the
 * workload's floor), and its CSV (sweep_report.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli.h"
#include "history.h"
#include "sweep_run.h"

bool sweep_workload_takes(const struct workload *w, const struct history *h)
{
	switch (w->history) {
	case WORKLOAD_WORLD: return h != NULL;
	case WORKLOAD_SPAWNS: return h != NULL && h->spawns;
	default: return h == NULL;
	}
}

/* Every workload named in --workloads must have one of the histories asked for (or take none);
 * of "all", those that have none are left out, and at least one must remain. */
static void check_histories(struct options *o, bool named)
{
	size_t kept = 0;
	for (size_t i = 0; i < o->workload_count; i++) {
		const struct workload *w = o->workloads[i];
		bool any = w->history == WORKLOAD_FIXED;
		for (size_t j = 0; j < o->history_count && !any; j++)
			any = sweep_workload_takes(w, o->histories[j]);
		if (any || !named) {
			if (any)
				o->workloads[kept++] = w;
			continue;
		}
		char own[256];
		size_t len = 0;
		own[0] = '\0';
		for (size_t j = 0; j < history_count; j++)
			if (sweep_workload_takes(w, &histories[j]))
				len += (size_t)snprintf(own + len, sizeof own - len, "%s%s", len ? ", " : "",
				                        histories[j].name);
		options_usage_error("workload '%s' has none of the histories asked for (its own: %s)", w->name,
		                    own);
	}
	o->workload_count = kept;
	if (!kept)
		options_usage_error("no workload has the histories asked for");
}

/* A workload that needs more of the profile's systems than --systems registers (every one
 * needs the game's systems, world.h, and the one after them that matches nothing) is refused
 * when named, left out of "all"; so is, from "all", a
 * workload run only when named (struct workload's named_only). An --inner beyond a workload's
 * most runs per sample (destroy's storages, one per run) is refused. */
static void check_workload_needs(struct options *o, bool named)
{
	size_t kept = 0;
	for (size_t i = 0; i < o->workload_count; i++) {
		const struct workload *w = o->workloads[i];
		if (!named && w->named_only)
			continue;
		if (w->max_inner && o->inner > w->max_inner)
			options_usage_error("--inner %u: workload '%s' holds a storage per run, at most %u a "
			                    "sample", o->inner, w->name, w->max_inner);
		uint32_t need = w->min_systems > WORLD_MIN_SYSTEMS ? w->min_systems : WORLD_MIN_SYSTEMS;
		if (need <= o->systems) {
			o->workloads[kept++] = w;
			continue;
		}
		if (named)
			options_usage_error("workload '%s' needs --systems %u or more (the game's %u systems "
			                    "that share Position, and one that matches nothing)", w->name, need,
			                    (unsigned)WORLD_GAME_SYSTEMS);
	}
	o->workload_count = kept;
	if (!kept)
		options_usage_error("no workload can run with --systems %u", o->systems);
}

uint32_t sweep_workload_entities(const struct options *o, const struct workload *w, uint32_t n)
{
	if (!w->fixed_entities)
		return n;
	double units = w->fixed_entities * o->scale + 0.5;
	uint64_t fixed = (units < 1 ? 1 : (uint64_t)units) * (w->unit_entities ? w->unit_entities : 1);
	return fixed > UINT32_MAX ? UINT32_MAX : (uint32_t)fixed;
}

/*
 * Every workload must fit the interface's limit of live entities at the chosen --scale and
 * --entities, found now rather than as ECS_ERR_FULL half way through a run.
 */
static void check_entity_limits(const struct options *o)
{
	for (size_t i = 0; i < o->workload_count; i++) {
		const struct workload *w = o->workloads[i];
		size_t nn = w->fixed_entities ? 1 : o->entity_count;
		for (size_t j = 0; j < nn; j++) {
			uint32_t n = sweep_workload_entities(o, w, o->entities[j]);
			for (size_t h = 0; h < o->history_count; h++) {
				if (!sweep_workload_takes(w, o->histories[h]) && w->history != WORKLOAD_FIXED)
					continue;
				struct bench_case c = {.workload = w, .entities = n, .seed = o->seed,
				                       .history = o->histories[h]};
				uint64_t peak = w->peak_entities ? w->peak_entities(&c) : n;
				if (peak > ECS_MAX_ENTITIES)
				{
					if (w->history == WORKLOAD_FIXED)
						options_usage_error("%s at --scale %g would hold %" PRIu64 " entities at once, "
						                    "more than the interface's %u",
						                    w->name, o->scale, peak, ECS_MAX_ENTITIES);
					options_usage_error("%s under history %s at N = %u would hold %" PRIu64
					                    " entities at once, more than the interface's %u", w->name,
					                    o->histories[h]->name, n, peak, ECS_MAX_ENTITIES);
				}
			}
		}
	}
}

static bool with_floor(const struct options *o, const struct workload *w)
{
	return w->floor != NULL && !o->no_floor;
}

/* The histories workload w is measured under, in --history's order, into hs (if not NULL): those
 * it takes, or one NULL for a workload that takes none. Returns how many. */
static uint32_t workload_histories(const struct options *o, const struct workload *w,
                                   const struct history **hs)
{
	if (w->history == WORKLOAD_FIXED) {
		if (hs)
			hs[0] = NULL;
		return 1;
	}
	uint32_t n = 0;
	for (size_t i = 0; i < o->history_count; i++)
		if (sweep_workload_takes(w, o->histories[i])) {
			if (hs)
				hs[n] = o->histories[i];
			n++;
		}
	return n;
}

/* "iterate N=1024 k=2 lived-in", and " T=2" after it for a threaded workload's group. */
static void group_label(struct group *g)
{
	size_t len = sizeof g->label;
	int n = snprintf(g->label, len, "%s N=%u k=%u", g->workload->name, g->n, g->k);
	if (g->history && n > 0 && (size_t)n < len)
		n += snprintf(g->label + n, len - (size_t)n, " %s", g->history->name);
	if (g->workload->threaded && n > 0 && (size_t)n < len)
		snprintf(g->label + n, len - (size_t)n, " T=%u", g->threads);
}

/* The groups, in the order they are measured: workloads as listed, then k, then N, then the
 * histories the workload takes (history.h), then T for a threaded workload (a workload that is
 * not swept has one group). Every group races (race.h); the answer's rows, a swept workload's
 * at the largest N (and T), are its headline. */
static int sweep_plan_make(const struct options *o, struct plan *p)
{
	uint32_t count = 0;
	for (size_t wi = 0; wi < o->workload_count; wi++) {
		const struct workload *w = o->workloads[wi];
		count += (uint32_t)((w->k_fixed ? 1 : o->component_count) *
		                    (w->fixed_entities ? 1 : o->entity_count) *
		                    (w->threaded ? o->thread_count : 1) * workload_histories(o, w, NULL));
	}
	/* the backends and a floor */
	if (plan_alloc(p, count, (uint32_t)o->backend_count + 1))
		return -1;
	p->count = 0;
	p->runner = &workloads_runner;
	for (size_t wi = 0; wi < o->workload_count; wi++) {
		const struct workload *w = o->workloads[wi];
		size_t nk = w->k_fixed ? 1 : o->component_count, nn = w->fixed_entities ? 1 : o->entity_count;
		size_t nt = w->threaded ? o->thread_count : 1;
		const struct history *hs[MAX_LIST];
		uint32_t nh = workload_histories(o, w, hs);
		for (size_t ki = 0; ki < nk; ki++) {
			for (size_t ni = 0; ni < nn; ni++) {
				for (uint32_t hi = 0; hi < nh; hi++) {
					/* T innermost: the groups a speedup pairs (T against T = 1) are measured
					 * one after the other in every process. */
					for (size_t ti = 0; ti < nt; ti++) {
						struct group *g = &p->groups[p->count++];
						g->workload = w;
						g->k = w->k_fixed ? w->fixed_components : o->components[ki];
						g->n = sweep_workload_entities(o, w, o->entities[ni]);
						g->history = hs[hi];
						g->threads = w->threaded ? o->threads[ti] : 1;
						g->floor = with_floor(o, w);
						g->max_inner = w->max_inner;
						g->figures = w->figure_count;
						g->participants = (uint32_t)o->backend_count + g->floor;
						/* a floor that cannot share its arrays keeps the group apart */
						g->shares = !g->floor || w->floor->build ? w->shares : NULL;
						g->race = true;
						/* every T of a threaded workload: a speedup pairs the largest T
						 * with T = 1 */
						g->headline = !w->fixed_entities && ni + 1 == nn;
						group_label(g);
						p->threaded |= w->threaded;
					}
				}
			}
		}
	}
	return 0;
}


static void sweep_options(struct options *o)
{
	if (o->floor_alone && (cli_given(o, &cli_opt_backends) || o->twin_count || o->no_floor))
		options_usage_error("--floor-alone measures the floor and no backend (no --backends, "
		                    "--twin or --no-floor beside it)");
	if (o->floor_alone)
		o->backend_count = 0; /* not the default's every backend */
	for (size_t i = 0; i < o->twin_count; i++)
		sweep_add_twin(o, o->twins[i]);
	for (size_t i = 0; i < o->workload_count && o->floor_alone; i++)
		if (!o->workloads[i]->floor)
			options_usage_error("--floor-alone: workload '%s' has no floor",
			                    o->workloads[i]->name);
	if (o->budget)
		o->budget_s = cli_duration("--budget", o->budget, SWEEP_MIN_BUDGET_S, 7 * 86400.0);
	check_histories(o, o->workloads_named);
	o->systems = o->systems_text ? (uint32_t)cli_number("system count", o->systems_text, 1,
	                                                    o->profile->system_count)
	                             : o->profile->system_count;
	check_workload_needs(o, o->workloads_named);
	check_entity_limits(o);
	if (o->child_pass >= 0)
		return; /* a child writes no file: its parent checked the output */
	static char default_output[256];
	if (!o->output) {
		snprintf(default_output, sizeof default_output, "results/%s.csv", o->profile->name);
		o->output = default_output;
	}
}

const struct run_kind sweep_run_kind = {
	.cli = &sweep_cli,
	.options = sweep_options,
	.plan_make = sweep_plan_make,
	.report_write = sweep_report_write,
};
