/*
 * plan.c: the row groups of a run (plan.h), as plain data: their storage, and who each
 * participant of a group is. Which groups a run has, and in what order, is the kind of run's
 * (run_kind.h: sweep_run.c, scenario_run.c); which of them a process measures, and with which
 * participants, the driver decides before it starts (plan.work, plan.active: the race).
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "free_and_null.h"

int plan_alloc(struct plan *p, uint32_t count, uint32_t max_participants)
{
	memset(p, 0, sizeof *p);
	p->groups = calloc(count ? count : 1, sizeof *p->groups);
	size_t cells = (size_t)(count ? count : 1) * max_participants;
	p->sampling = calloc(cells, sizeof *p->sampling);
	p->work = calloc(count ? count : 1, sizeof *p->work);
	p->active = malloc(cells * sizeof *p->active + 1);
	if (!p->groups || !p->sampling || !p->work || !p->active) {
		plan_free(p);
		return -1;
	}
	p->count = count;
	p->max_participants = max_participants;
	for (uint32_t g = 0; g < count; g++)
		p->work[g].measure = true;
	for (size_t i = 0; i < cells; i++)
		p->active[i] = true;
	return 0;
}

void plan_free(struct plan *p)
{
	FREE_AND_NULL(p->groups);
	FREE_AND_NULL(p->sampling);
	FREE_AND_NULL(p->work);
	FREE_AND_NULL(p->active);
	p->count = 0;
}

const struct ecs_ops *plan_participant(const struct options *o, const struct group *g, uint32_t p)
{
	(void)g;
	return p < o->backend_count ? o->backends[p] : NULL;
}

const char *plan_participant_name(const struct options *o, const struct group *g, uint32_t p)
{
	const struct ecs_ops *ops = plan_participant(o, g, p);
	if (ops && o->copy_name[p][0])
		return o->copy_name[p];
	return ops ? ops->name : plan_harness_row(g, p) ? "harness" : "floor";
}

bool plan_harness_row(const struct group *g, uint32_t p)
{
	return g->harness && p + 1 == g->participants;
}
