/*
 * scenario_harness.c: the scenario's frames with no storage and no system work (the harness
 * target of scenario_target.h): the engine alone, its lists, decisions, command buffers and
 * phase clocks, what the engine costs a backend's frame. It computes no checksum.
 *
 * Costs: a frame's (scenario_engine.h) without the storage and the work.
 */
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

static int target_create(struct scenario_engine *e, uint32_t kind, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial, uint32_t slot,
                         ecs_entity *h)
{
	(void)e, (void)kind, (void)k, (void)v, (void)serial, (void)slot, (void)h;
	return 0;
}

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

static void target_adopt(struct scenario_engine *e, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial)
{
	(void)e, (void)k, (void)v, (void)serial;
}

static int target_add_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                            uint32_t n)
{
	(void)k;
	pack_values(e, type, e->batch.serials, n, e->batch.values);
	return 0;
}

static int target_remove_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                               uint32_t n)
{
	(void)e, (void)k, (void)type, (void)n;
	return 0;
}

static int target_destroy(struct scenario_engine *e, struct kind_state *k, uint32_t pos)
{
	(void)e, (void)k, (void)pos;
	return 0;
}

static void target_move(struct scenario_engine *e, struct kind_state *k, uint32_t to,
                        uint32_t from)
{
	(void)e, (void)k, (void)to, (void)from;
}

static int target_add(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                      uint32_t type, struct identity id)
{
	(void)e, (void)k, (void)pos, (void)type, (void)id;
	return 0;
}

static int target_remove(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                         uint32_t type)
{
	(void)e, (void)k, (void)pos, (void)type;
	return 0;
}

static bool target_grow(struct scenario_engine *e, struct kind_state *k, uint32_t cap)
{
	(void)e, (void)k, (void)cap;
	return true;
}

static int target_lookup(struct scenario_engine *e, const struct kind_state *k, uint32_t at,
                         uint32_t j, uint32_t t, ecs_entity h, uint32_t *sum)
{
	(void)e, (void)k, (void)at, (void)j, (void)t, (void)h, (void)sum;
	return 0;
}

static int target_pass(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	(void)e, (void)s, (void)sp;
	return 0;
}

static int target_pass_parallel(struct scenario_engine *e, uint32_t s)
{
	(void)s;
	parallel_run(e->pool, harness_part, e);
	return 0;
}

const struct scenario_target scenario_harness_target = {
	.frame = frame_run,
	.populate = spawn_population,
	.reserve_kind = grow_kind,
};
