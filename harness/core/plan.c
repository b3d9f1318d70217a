/*
 * plan.c: the row groups of a run, in the order they are measured: workloads as listed, then k,
 * then N, then the histories the workload takes (history.h), then T for a threaded workload (a
 * workload that is not swept has one group). Every
 * process of the run measures the same groups with the same participants; only the order of
 * the participants' samples changes from process to process (pass.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "driver.h"
#include "../sweep/history.h"
#include "../scenario/scenario_run.h"

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
		if (workload_takes(w, o->histories[i])) {
			if (hs)
				hs[n] = o->histories[i];
			n++;
		}
	return n;
}

int plan_make(const struct options *o, struct plan *p)
{
	if (o->scenario)
		return scenario_plan_make(o, p);
	uint32_t count = 0;
	for (size_t wi = 0; wi < o->workload_count; wi++) {
		const struct workload *w = o->workloads[wi];
		count += (uint32_t)((w->k_fixed ? 1 : o->component_count) *
		                    (w->fixed_entities ? 1 : o->entity_count) *
		                    (w->threaded ? o->thread_count : 1) * workload_histories(o, w, NULL));
	}
	p->groups = calloc(count ? count : 1, sizeof *p->groups);
	p->sampling = calloc((size_t)(count ? count : 1) * (o->backend_count + 1), sizeof *p->sampling);
	if (!p->groups || !p->sampling) {
		plan_free(p);
		return -1;
	}
	p->count = 0;
	p->max_participants = (uint32_t)o->backend_count + 1; /* the backends and a floor */
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
						g->n = workload_entities(o, w, o->entities[ni]);
						g->history = hs[hi];
						g->threads = w->threaded ? o->threads[ti] : 1;
						g->floor = with_floor(o, w);
						g->participants = (uint32_t)o->backend_count + g->floor;
					}
				}
			}
		}
	}
	return 0;
}

void plan_free(struct plan *p)
{
	free(p->groups);
	free(p->sampling);
	p->groups = NULL;
	p->sampling = NULL;
	p->count = 0;
}

const struct ecs_ops *plan_participant(const struct options *o, const struct group *g, uint32_t p)
{
	(void)g;
	return p < o->backend_count ? o->backends[p] : NULL;
}

const char *participant_name(const struct options *o, const struct group *g, uint32_t p)
{
	const struct ecs_ops *ops = plan_participant(o, g, p);
	if (ops && o->copy_name[p][0])
		return o->copy_name[p];
	return ops ? ops->name : plan_harness_row(o, g, p) ? "harness" : "floor";
}

bool plan_harness_row(const struct options *o, const struct group *g, uint32_t p)
{
	return g->scenario && g->floor && p == o->backend_count + 1;
}

const char *group_label(const struct group *g, char *buf, size_t len)
{
	if (g->scenario)
		snprintf(buf, len, "%s (%u entities at the start)", g->workload->name, g->n);
	else {
		int n = snprintf(buf, len, "%s N=%u k=%u", g->workload->name, g->n, g->k);
		if (g->history && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, " %s", g->history->name);
		if (g->workload->threaded && n > 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, " T=%u", g->threads);
	}
	return buf;
}
