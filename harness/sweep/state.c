/*
 * state.c: the checks of the state a game is in (see state.h). Each is untimed and linear in
 * what it looks at (a map from index to place, one pass); the profile's are a few comparisons
 * per system.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/measure.h"
#include "state.h"

#ifdef ECSB_TEST_BREAK_RULES
static const char *const state_rule_names[STATE_RULES] = {"created", "order", "shared", "marks"};

bool state_break(enum state_rule rule)
{
	const char *asked = getenv("ECSB_BREAK_RULE");
	return asked && strcmp(asked, state_rule_names[rule]) == 0;
}
#endif

static int state_out_of_memory(struct bench_result *r)
{
	return bench_fail(r, "out of memory in the harness");
}

/* The neighbours of a visit that are one index apart, and one place apart in creation order
 * (place_of[index]: its place in creation + 1, 0 for none). */
static void state_neighbours(const ecs_entity *visit, const uint32_t *order, uint32_t n,
                             const ecs_entity *created, const uint32_t *place_of,
                             uint32_t *by_index, uint32_t *by_creation)
{
	*by_index = *by_creation = 0;
	for (uint32_t i = 1; i < n; i++) {
		ecs_entity a = visit ? visit[i - 1] : created[order[i - 1]];
		ecs_entity b = visit ? visit[i] : created[order[i]];
		uint32_t x = ecs_entity_index(a), y = ecs_entity_index(b);
		*by_index += x + 1 == y || y + 1 == x;
		uint32_t p = order ? order[i - 1] + 1 : place_of[x], q = order ? order[i] + 1 : place_of[y];
		*by_creation += p && q && (p + 1 == q || q + 1 == p);
	}
}

static int state_order_verdict(uint32_t n, uint32_t by_index, uint32_t by_creation, const char *what,
                               struct bench_result *r)
{
	/* A shuffled list has about 2 of n of each; an ordered one nearly all. */
	if (by_index * 4 > n)
		return bench_fail(r, "%s: %u of %u neighbours one index apart: visits must be in a "
		                  "game's order, not index order (rule 'order', " STATE_DOC ")",
		                  what, by_index, n - 1);
	if (by_creation * 4 > n)
		return bench_fail(r, "%s: %u of %u neighbours created one after the other: visits must "
		                  "be in a game's order, not creation order (rule 'order', " STATE_DOC ")", what, by_creation, n - 1);
	return 0;
}

int state_check_order(const ecs_entity *visit, uint32_t n, const ecs_entity *created, uint32_t m,
                      const char *what, struct bench_result *r)
{
	UNTIMED_ONLY("state_check_order");
	if (n < STATE_MIN_ENTITIES)
		return 0;
	uint32_t indices = 0;
	for (uint32_t i = 0; i < m; i++)
		if (ecs_entity_index(created[i]) + 1 > indices)
			indices = ecs_entity_index(created[i]) + 1;
	for (uint32_t i = 0; i < n; i++)
		if (ecs_entity_index(visit[i]) + 1 > indices)
			indices = ecs_entity_index(visit[i]) + 1;
	uint32_t *place_of = calloc((size_t)indices + 1, sizeof *place_of);
	if (!place_of)
		return state_out_of_memory(r);
	for (uint32_t i = 0; i < m; i++)
		place_of[ecs_entity_index(created[i])] = i + 1;
	uint32_t by_index, by_creation;
	state_neighbours(visit, NULL, n, created, place_of, &by_index, &by_creation);
	free(place_of);
	return state_order_verdict(n, by_index, by_creation, what, r);
}

int state_check_order_of(const uint32_t *order, uint32_t n, const ecs_entity *created,
                         const char *what, struct bench_result *r)
{
	UNTIMED_ONLY("state_check_order_of");
	if (n < STATE_MIN_ENTITIES)
		return 0;
	uint32_t by_index, by_creation;
	state_neighbours(NULL, order, n, created, NULL, &by_index, &by_creation);
	return state_order_verdict(n, by_index, by_creation, what, r);
}

int state_check_created(const ecs_entity *created, uint32_t n, uint32_t freed, uint32_t holes,
                        uint32_t alive, const char *workload, struct bench_result *r)
{
	UNTIMED_ONLY("state_check_created");
	if (n < STATE_MIN_ENTITIES)
		return 0;
	uint32_t recycled = 0;
	for (uint32_t i = 0; i < n; i++)
		recycled += ecs_entity_generation(created[i]) > 0;
	uint32_t want = (freed < n ? freed : n) / 2;
	if (recycled < want || !recycled)
		return bench_fail(r, "%s: %u of %u created took a recycled index (%u free): it must "
		                  "create where earlier entities died (rule 'created', " STATE_DOC ")", workload, recycled, n, freed);
	/* (with fewer props than STATE_MIN_ENTITIES, none of them may have died: nothing to tell) */
	if (holes + alive >= STATE_MIN_ENTITIES && (!holes || !alive))
		return bench_fail(r, "%s: the storage created into had %u holes and %u other live "
		                  "entities, it needs both (rule 'created', " STATE_DOC ")",
		                  workload, holes, alive);
	return 0;
}
