/*
 * scenario_harness.c: the scenario's frames with no storage and no system work (the harness
 * target of scenario_target.h): the engine alone, its lists, decisions, command buffers and
 * phase clocks, what the engine costs a backend's frame. It computes no checksum.
 *
 * Costs: a frame's (scenario_engine.h) without the storage and the work.
 */
/* the parts of a frame it has none of (scenario_frame.h) */
#define SCENARIO_TARGET_NO_CREATE
#define SCENARIO_TARGET_NO_ADOPT
#define SCENARIO_TARGET_NO_REMOVE_BATCH
#define SCENARIO_TARGET_NO_DESTROY
#define SCENARIO_TARGET_NO_MOVE
#define SCENARIO_TARGET_NO_ADD
#define SCENARIO_TARGET_NO_REMOVE
#define SCENARIO_TARGET_NO_GROW
#define SCENARIO_TARGET_NO_LOOKUP
#define SCENARIO_TARGET_NO_PASS
#include "scenario_frame.h"

/* The harness alone: no work, but the pass's start and end on the pool (what dispatching a
 * parallel pass costs the engine), each thread writing its sum as the real passes do. */
static void harness_part(void *ctx, uint32_t thread, uint32_t threads)
{
	struct scenario_engine *e = ctx;
	(void)threads;
	e->thread_sums[thread].sum = 0;
}

/* --- its part of each operation -------------------------------------------------------- */

/* A batch's values are the harness's work (what a game hands a batch): packed here too. */
static int target_create_batch(struct scenario_engine *e, uint32_t kind,
                               const struct kind_variant *v, uint32_t first, uint32_t n)
{
	(void)kind;
	unsigned char *at = e->batch.values;
	for (uint32_t j = 0; j < v->type_count; j++) {
		pack_values(e, v->types[j], e->batch.serials + first, n, at);
		at += (size_t)n * e->sizes[v->types[j]];
	}
	for (uint32_t j = first; j < first + n; j++)
		e->batch.handles[j] = ECS_NULL;
	return 0;
}

static int target_add_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                            uint32_t n)
{
	(void)k;
	pack_values(e, type, e->batch.serials, n, e->batch.values);
	return 0;
}

static int target_pass_parallel(struct scenario_engine *e, uint32_t s)
{
	(void)s;
	parallel_run(e->pool, harness_part, e);
	return 0;
}

const struct scenario_target scenario_harness_target = {
	SCENARIO_FRAME_TARGET,
};
