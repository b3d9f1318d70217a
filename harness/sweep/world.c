/*
 * world.c: what the workloads share (see world.h). Nothing here is timed by itself: the
 * workloads call these inside or outside their timed regions as their descriptions say.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/measure.h"
#include "state.h"
#include "world.h"

/* --- deterministic values ------------------------------------------------------------- */

static float unit_float(uint64_t seed, uint64_t i, uint64_t field)
{
	uint64_t bits = rng_mix64(seed ^ rng_mix64(i * 8 + field + 0x9e3779b97f4a7c15ull));
	return (float)(bits >> 40) * (1.0f / 16777216.0f); /* [0, 1) */
}

uint32_t world_type_size(const struct bench_case *c, uint32_t t)
{
	switch (t) {
	case COMP_POSITION:
	case COMP_VELOCITY: return c->component_size;
	case COMP_MASS: return sizeof(struct mass);
	case COMP_HEALTH: return sizeof(struct health);
	case COMP_RELATIONSHIP: return sizeof(struct relationship);
	default: return 8;
	}
}

void world_value_fill(uint64_t seed, uint32_t t, uint64_t i, uint64_t round, void *out, uint32_t size)
{
	UNTIMED_ONLY("value_fill (making a value)");
	float f[2];
	uint64_t key = i + round * 0x100000000ull;
	switch (t) {
	case COMP_POSITION:
		f[0] = unit_float(seed, key, 0) * 1000.0f;
		f[1] = unit_float(seed, key, 1) * 1000.0f;
		break;
	case COMP_VELOCITY:
		f[0] = unit_float(seed, key, 2) - 0.5f;
		f[1] = unit_float(seed, key, 3) - 0.5f;
		break;
	case COMP_MASS: f[0] = f[1] = 0.5f + unit_float(seed, key, 4); break;
	default:
		f[0] = unit_float(seed, key, 5 + t) * 100.0f;
		f[1] = unit_float(seed, key, 6 + t);
		break;
	}
	memset(out, 0, size);
	memcpy(out, f, size < sizeof f ? size : sizeof f);
}

int world_values_make(struct values *v, uint32_t n, uint64_t seed, uint64_t round,
                      uint32_t component_size)
{
	memset(v, 0, sizeof *v);
	struct bench_case c = {.component_size = component_size};
	v->n = n;
	for (uint32_t t = 0; t < VALUE_TYPES; t++) {
		v->size[t] = world_type_size(&c, t);
		/* Cache-line aligned: the floor's arrays are these, and the floor is the best case. */
		size_t bytes = ((size_t)n * v->size[t] + 64) & ~(size_t)63;
		v->data[t] = aligned_alloc(64, bytes);
		if (!v->data[t])
			return -1;
		for (uint32_t i = 0; i < n; i++)
			world_value_fill(seed, t, i, round, v->data[t] + (size_t)i * v->size[t], v->size[t]);
	}
	return 0;
}

void world_values_free(struct values *v)
{
	for (uint32_t t = 0; t < VALUE_TYPES; t++)
		free(v->data[t]);
	memset(v, 0, sizeof *v);
}

const void *world_value_of(const struct values *v, uint32_t t, uint32_t i)
{
	return v->data[t] + (size_t)i * v->size[t];
}

uint32_t world_fragmented_types(struct rng *g, uint32_t component_count, uint32_t *types)
{
	uint32_t others = component_count - COMP_VELOCITY - 1;
	uint64_t bits = rng_next(g);
	uint32_t n = 0, extra = rng_below(g, 5);
	if (bits & 1)
		types[n++] = COMP_POSITION;
	if (bits & 2)
		types[n++] = COMP_VELOCITY;
	for (uint32_t x = 0; x < extra; x++) {
		uint32_t t = COMP_VELOCITY + 1 + rng_below(g, others);
		bool dup = false;
		for (uint32_t y = 0; y < n; y++)
			dup = dup || types[y] == t;
		if (!dup)
			types[n++] = t;
	}
	return n;
}

/* --- the world ------------------------------------------------------------------------ */

void world_close(struct world *w)
{
	if (w->s)
		w->ops->destroy(w->s);
	w->s = NULL;
	free(w->sizes);
	w->sizes = NULL;
}

/* The game's systems (world.h), in the order they are registered: a status effect's pass, then
 * render, AI, physics and forces, so that the measured one is never the first and shares
 * Position's pool with four others (rule 'shared', state.h). */
const struct world_system world_systems[WORLD_GAME_SYSTEMS] = {
	[WORLD_STATUS] = {"status", {COMP_POSITION, COMP_STATUS}, 2},
	[WORLD_RENDER] = {"render", {COMP_POSITION}, 1},
	[WORLD_AI] = {"ai", {COMP_POSITION, COMP_VELOCITY, COMP_MASS, COMP_HEALTH}, 4},
	[WORLD_PHYSICS] = {"physics", {COMP_POSITION, COMP_VELOCITY}, 2},
	[WORLD_FORCES] = {"forces", {COMP_POSITION, COMP_VELOCITY, COMP_MASS}, 3},
};

/* The game's system over the first k of Position, Velocity, Mass and Health. */
static uint32_t world_system_of(uint32_t k)
{
	static const uint32_t by_k[VALUE_TYPES + 1] = {WORLD_RENDER, WORLD_RENDER, WORLD_PHYSICS,
	                                               WORLD_FORCES, WORLD_AI};
	return by_k[k < 1 ? 1 : k < VALUE_TYPES ? k : VALUE_TYPES];
}

static bool world_requires(const struct world_system *y, uint32_t type)
{
	for (uint32_t j = 0; j < y->count; j++)
		if (y->types[j] == type)
			return true;
	return false;
}

/* The profile's rules of the state a game is in (state.h), on a world world_open has just made:
 * shared (the measured system shares its pools with several others, and is not the first) and
 * marks (the type marked sparse is one a small system requires and no measured pass walks). */
static int world_check_rules(const struct world *w, struct bench_result *r)
{
	const struct world_system *measured = &w->registered[w->measured];
	uint32_t sharing = 0;
	for (uint32_t id = 0; id < w->registered_count; id++)
		if (id != w->measured && world_requires(&w->registered[id], measured->types[0]))
			sharing++;
	if (sharing < 2 || w->measured == 0)
		return bench_fail(r, "the measured system (%u) shares type %u with %u others and comes "
		                  "%s: it must share with several, not first (rule 'shared', " STATE_DOC ")",
		                  w->measured, measured->types[0], sharing,
		                  w->measured == 0 ? "first" : "later");
	const struct world_system *grouped = &w->registered[w->grouped];
	bool required = false;
	for (uint32_t id = 0; id < w->registered_count; id++)
		required = required || world_requires(&w->registered[id], w->sparse_type);
	if (world_requires(measured, w->sparse_type) || world_requires(grouped, w->sparse_type) ||
	    !required)
		return bench_fail(r, "type %u is marked sparse but %s: mark what comes and goes, a small "
		                  "system requires and no measured pass walks (rule 'marks', " STATE_DOC ")",
		                  w->sparse_type,
		                  !required ? "no system requires it"
		                  : world_requires(measured, w->sparse_type) ? "the measured pass walks it"
		                                                              : "the grouped pass walks it");
	return 0;
}

int world_open(const struct bench_case *c, struct world *w, struct bench_result *r)
{
	UNTIMED_ONLY("world_open (creating a storage)");
	memset(w, 0, sizeof *w);
	w->ops = c->ops;
	uint32_t types = c->profile->component_count;
	w->sizes = malloc(types * sizeof *w->sizes);
	if (!w->sizes)
		return bench_fail(r, "out of memory in the harness");
	for (uint32_t t = 0; t < types; t++)
		w->sizes[t] = world_type_size(c, t);
	struct ecs_allocator alloc = counting_alloc_bench(&w->counter);
	uint32_t own = c->workload ? c->workload->own_systems : 0;
	/* The profile's storage hints (bench.h: PROFILE_SPARSE_TYPE): the status the workloads add
	 * and remove is sparse, the rest table; the backends with one layout ignore them. */
	uint8_t *hints = calloc(types, 1);
	if (!hints) {
		world_close(w);
		return bench_fail(r, "out of memory in the harness");
	}
	/* (the test build's break of rule 'marks': the old mark, on a type a measured pass walks) */
	w->sparse_type = state_break(STATE_MARKS) ? COMP_VELOCITY : PROFILE_SPARSE_TYPE;
	hints[w->sparse_type] = ECS_STORAGE_SPARSE;
	struct ecs_config cfg = {types, c->systems + own, w->sizes, hints};
	int rc = c->ops->create(&cfg, &alloc, &w->s);
	free(hints);
	if (rc != ECS_OK) {
		w->s = NULL;
		world_close(w);
		return bench_fail(r, "create returned %s", ecs_status_name(rc));
	}
	uint32_t k = c->k, grouped_k = c->workload ? c->workload->grouped_k : 0;
	w->measured = world_system_of(k);
	w->grouped = grouped_k ? world_system_of(grouped_k) : w->measured;
	uint32_t id, others = types - FIRST_OTHER_TYPE;
	/* The game's systems (--systems is at least WORLD_MIN_SYSTEMS: sweep_run.c). The test
	 * build's break of rule 'shared' gives all but the measured one pairs of other types. */
	for (uint32_t j = 0; j < WORLD_GAME_SYSTEMS && j < c->systems; j++) {
		struct world_system y = world_systems[j];
		if (state_break(STATE_SHARED) && j != w->measured)
			y = (struct world_system){y.name, {FIRST_OTHER_TYPE + 2 * j, FIRST_OTHER_TYPE + 2 * j + 1}, 2};
		w->registered[w->registered_count++] = y;
		if (rc == ECS_OK)
			rc = c->ops->system_register(w->s, y.types, y.count, NULL, 0, &id);
	}
	/* The hottest pass asked to own its pools, as a game groups its widest hot pass (EnTT's
	 * group); a hint the backends without groups ignore, and the rest of the game's systems,
	 * which share Position with it, cannot have one. */
	if (rc == ECS_OK && w->grouped < w->registered_count) {
		int grouped = ecs_system_group(c->ops, w->s, w->grouped);
		rc = grouped < 0 ? grouped : ECS_OK;
	}
	for (uint32_t j = WORLD_GAME_SYSTEMS; rc == ECS_OK && j < c->systems; j++) {
		uint32_t q = j - WORLD_GAME_SYSTEMS;
		uint32_t pair[2] = {FIRST_OTHER_TYPE + (2 * q) % others,
		                    FIRST_OTHER_TYPE + (2 * q + 1) % others};
		rc = c->ops->system_register(w->s, pair, 2, NULL, 0, &id);
	}
	if (rc != ECS_OK) {
		world_close(w);
		return bench_fail(r, "system_register returned %s", ecs_status_name(rc));
	}
	if (w->measured >= w->registered_count || world_check_rules(w, r)) {
		if (w->measured >= w->registered_count)
			bench_fail(r, "the measured system is not registered (--systems %u)", c->systems);
		world_close(w);
		return -1;
	}
	return 0;
}

/* Inside create's and churn's timed loops: each entity's value pointers are one addition from
 * the previous ones (value_of, out of line, reloaded the table for each: 8 instructions a value,
 * a third of the floor's whole work per entity), and the method is looked up once. */
int world_spawn(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                const struct values *v, ecs_entity *handles, struct bench_result *r)
{
	const struct ecs_ops *ops = w->ops;
	int (*create_with)(ecs_storage *, const uint32_t *, uint32_t, const void *const *,
	                   ecs_entity *) = ops->entity_create_with;
	ecs_storage *s = w->s;
	const void *values[VALUE_TYPES + 1];
	size_t size[VALUE_TYPES + 1];
	for (uint32_t j = 0; j < ntypes; j++) {
		values[j] = world_value_of(v, types[j], 0);
		size[j] = v->size[types[j]];
	}
	for (uint32_t i = 0; i < n; i++) {
		int rc = create_with ? create_with(s, types, ntypes, values, &handles[i])
		                     : ecs_entity_create_with_fallback(ops, s, types, ntypes, values,
		                                                       &handles[i]);
		if (rc != ECS_OK)
			return bench_fail(r, "creating entity %u returned %s", i, ecs_status_name(rc));
		for (uint32_t j = 0; j < ntypes; j++) {
			values[j] = (const unsigned char *)values[j] + size[j];
			__asm__("" : : : "memory"); /* a loop of one or two adds, not vectorised */
		}
	}
	return 0;
}

int world_spawn_adding(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                       const struct values *v, ecs_entity *handles, struct bench_result *r)
{
	const struct ecs_ops *ops = w->ops;
	for (uint32_t i = 0; i < n; i++) {
		int rc = ops->entity_create(w->s, &handles[i]);
		for (uint32_t j = 0; rc == ECS_OK && j < ntypes; j++)
			rc = ops->component_add(w->s, handles[i], types[j], world_value_of(v, types[j], i));
		if (rc != ECS_OK)
			return bench_fail(r, "creating entity %u returned %s", i, ecs_status_name(rc));
	}
	return 0;
}

int world_reserve(struct world *w, uint32_t n, struct bench_result *r)
{
	int rc = ecs_reserve(w->ops, w->s, n);
	return rc == ECS_OK ? 0 : bench_fail(r, "reserve returned %s", ecs_status_name(rc));
}

int world_despawn(struct world *w, uint32_t n, const ecs_entity *handles, struct bench_result *r)
{
	for (uint32_t i = 0; i < n; i++) {
		int rc = w->ops->entity_destroy(w->s, handles[i]);
		if (rc != ECS_OK)
			return bench_fail(r, "destroying entity %u returned %s", i, ecs_status_name(rc));
	}
	return 0;
}

int world_write_components(struct world *w, ecs_entity e, uint32_t types, const struct values *writes,
                           uint32_t i, struct bench_result *r)
{
	for (uint32_t t = 0; t < types; t++) {
		void *p;
		int rc = w->ops->component_get(w->s, e, t, &p);
		if (rc == ECS_ERR_NO_COMPONENT)
			continue;
		if (rc != ECS_OK)
			return bench_fail(r, "component_get returned %s", ecs_status_name(rc));
		world_value_copy(p, world_value_of(writes, t, i), w->sizes[t]);
	}
	return 0;
}

/* --- the system pass (the update itself: update.c) ------------------------------- */

uint64_t world_system_pass(struct world *w, uint32_t k)
{
	const size_t size[COMP_MAX_K] = {w->sizes[0], w->sizes[1], w->sizes[2]};
	struct ecs_iter it;
	struct ecs_batch b;
	uint64_t visited = 0;
	if (w->ops->system_iter_begin(w->s, w->measured, &it) != ECS_OK)
		return UINT64_MAX;
	while (w->ops->system_iter_next(&it, &b)) {
		visited += b.count;
		update_batch(&b, k, size);
	}
	measure_clobber();
	return visited;
}

uint64_t world_visit_count(struct world *w)
{
	struct ecs_iter it;
	struct ecs_batch b;
	uint64_t visited = 0;
	if (w->ops->system_iter_begin(w->s, w->measured, &it) != ECS_OK)
		return UINT64_MAX;
	while (w->ops->system_iter_next(&it, &b))
		visited += b.count;
	return visited;
}

/* --- checksums ------------------------------------------------------------------------ */

uint64_t world_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull; /* FNV-1a */
	return h;
}

int world_checksum_values(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                          const ecs_entity *handles, uint64_t *out, struct bench_result *r)
{
	UNTIMED_ONLY("checksum_values");
	uint64_t h = CHECKSUM_START;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < ntypes; j++) {
			void *p;
			int rc = w->ops->component_get(w->s, handles[i], types[j], &p);
			if (rc == ECS_ERR_NO_COMPONENT) {
				h = world_hash_bytes(h, "-", 1);
				continue;
			}
			if (rc != ECS_OK)
				return bench_fail(r, "reading back entity %u returned %s", i, ecs_status_name(rc));
			h = world_hash_bytes(h, p, w->sizes[types[j]]);
		}
	}
	*out = h;
	return 0;
}

/* --- fresh storages per run ----------------------------------------------------------- */

static void close_worlds(struct run *run)
{
	for (uint32_t j = 0; j < run->worlds_open; j++)
		world_close(&run->worlds[j]);
	run->worlds_open = 0;
}

void *world_run_state(struct run *run, size_t size)
{
	run->state = calloc(1, size);
	if (!run->state)
		bench_fail(run->r, "out of memory in the harness");
	return run->state;
}

int world_fresh_prepare(struct run *run)
{
	close_worlds(run);
	if (run->inner > run->worlds_cap) {
		struct world *w = realloc(run->worlds, run->inner * sizeof *w);
		if (!w)
			return bench_fail(run->r, "out of memory in the harness");
		run->worlds = w;
		run->worlds_cap = run->inner;
	}
	while (run->worlds_open < run->inner) {
		if (world_open(run->c, &run->worlds[run->worlds_open], run->r))
			return -1;
		run->worlds_open++;
	}
	return 0;
}

void world_note_memory(struct run *run, const struct world *w)
{
	if (w->counter.peak_bytes > run->r->peak_bytes)
		run->r->peak_bytes = w->counter.peak_bytes;
	run->r->live_bytes = w->counter.live_bytes;
}

int world_fresh_end_sample(struct run *run)
{
	for (uint32_t j = 0; j < run->worlds_open; j++)
		world_note_memory(run, &run->worlds[j]);
	return 0;
}

/* Frees what a run holds of this file's (workloads.c's run_free calls it, and frees its
 * history's too). */
void world_run_release(struct run *run)
{
	close_worlds(run);
	free(run->worlds);
	world_close(&run->world);
	free(run->shuffled);
	free(run->state);
	free(run->handles);
}
