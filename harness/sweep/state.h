/*
 * state.h: the state a game is in (state.c), as rules on what a timed operation's inputs look
 * like, and the checks of them (docs/method.md#the-state-a-game-is-in). A headline figure is
 * measured in that state; a storage built in order, an empty storage or a visit in index order
 * is a best case and runs only under a labelled history (pristine, ...) or variant
 * (get-ordered). The rules:
 *
 *   created  under a lived-in history, creation (create, create-batch, create-unreserved,
 *            churn's rounds) runs into a storage whose earlier entities died in no order a game
 *            would not have: it takes recycled indices from the free list they left, and lands
 *            in tables and pools that have holes and other live entities;
 *   order    under a lived-in history, every list of handles a timed loop visits (add-remove's
 *            and its batches', get's, destroy's, churn's destroys, Varkor's deletes) and the
 *            predecessors' deaths before a creation are in an order a game has (shuffled, as
 *            entities die and are picked in play), never index order nor creation order, either
 *            way;
 *   shared   the measured system shares its pools with other systems of the profile (Position
 *            in most of them, as render, physics and AI passes do) and is not the first
 *            registered; a storage with owning groups is asked to own the hottest only;
 *   marks    a type marked sparse (ecs_config.component_storage) follows the advice the docs
 *            give users: it comes and goes, a small system requires it, and no measured pass
 *            walks it.
 *
 * The profile's rules (shared, marks) are checked whenever world_open registers the profile
 * (world.c: they are rules on the world it opens, so they live with it, and this file stays
 * below world.c and history.c, knowing neither); the others by the first process
 * (run->verify), before its timed samples or, for what only a creation shows (recycled
 * indices), after its first sample. A break fails the row with a
 * message that names the rule, and the run ends with status 1, as a checksum disagreement does.
 *
 * The test build (build/check/, -DECSB_TEST_BREAK_RULES) breaks one rule where the environment
 * names it (ECSB_BREAK_RULE=created, order, shared or marks), so that tests/state.sh can see
 * each check fail; in every other build state_break is false and costs nothing.
 */
#ifndef ECSB_STATE_H
#define ECSB_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/bench.h"

/* Where every message of a broken rule points. */
#define STATE_DOC "docs/method.md#the-state-a-game-is-in"

enum state_rule { STATE_CREATED, STATE_ORDER, STATE_SHARED, STATE_MARKS, STATE_RULES };

#ifdef ECSB_TEST_BREAK_RULES
bool state_break(enum state_rule rule);
#else
static inline bool state_break(enum state_rule rule)
{
	(void)rule;
	return false;
}
#endif

/*
 * order: `visit` (n handles, in the order a timed loop visits them) neither in index order nor in
 * creation order (`created`, m handles in the order they were created), either way: fewer than
 * a quarter of its neighbours one index apart, or one place apart in `created`. `what` names
 * the list in the message. Below STATE_MIN_ENTITIES, nothing to tell.
 */
#define STATE_MIN_ENTITIES 64u
int state_check_order(const ecs_entity *visit, uint32_t n, const ecs_entity *created, uint32_t m,
                      const char *what, struct bench_result *r);
/* The same for a list given as places in `created` (visit i is created[order[i]]). */
int state_check_order_of(const uint32_t *order, uint32_t n, const ecs_entity *created,
                         const char *what, struct bench_result *r);

/*
 * created: of the n entities a creation made (handles in creation order), at least half of the
 * `freed` indices the storage had free (or of n, if fewer) recycled (a later generation than
 * 0); and the storage it ran into had holes and other live entities (from its history's
 * outcome: holes, and `alive` entities alive before the creation), where it held enough of
 * them (STATE_MIN_ENTITIES) that some must have died.
 */
int state_check_created(const ecs_entity *created, uint32_t n, uint32_t freed, uint32_t holes,
                        uint32_t alive, const char *workload, struct bench_result *r);

#endif
