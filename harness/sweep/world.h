/*
 * world.h: what every workload file shares (world.c): deterministic component values, the
 * "world" (a storage with the profile registered and its counting allocator), creating and
 * destroying entities, the system pass, checksums, and the state of one run; and the sweep's
 * tables: every workload (workloads.c), the floors (floor.c), and the runner through which the
 * pass drives a participant (workloads_runner).
 *
 * Component types every workload uses (the rest of the profile is registered too):
 *   0 Position {float x, y}   1 Velocity {float x, y}   (both --component-size bytes, default 8)
 *   2 Mass {float}            3 Health {float hp, armour}
 *   4 Relationship {parent, first child, next sibling, depth} (Varkor's relationships)
 *   9 Status (8 bytes: PROFILE_SPARSE_TYPE, bench.h): what add-remove adds and removes
 * The profile's systems are a game's (world_open, docs/method.md#the-state-a-game-is-in):
 * several passes read Position, registered in an order of the game's, not the measured one
 * first; the rest require pairs of types from FIRST_OTHER_TYPE on, so they match no workload
 * entity but are asked on every add and remove.
 */
#ifndef ECSB_WORLD_H
#define ECSB_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/alloc.h"
#include "../core/bench.h"
#include "../core/measure.h"
#include "../core/rng.h"
#include "../core/update.h"

enum { COMP_HEALTH = 3, COMP_RELATIONSHIP = 4, VALUE_TYPES = 4, FIRST_OTHER_TYPE = 5 };

struct health { float hp, armour; };
struct relationship { ecs_entity parent, first_child, next_sibling; uint32_t depth; };

/* fragmented's entities, one draw each from g: Position and Velocity each with probability
 * 1/2 (first, in that order, when present), and 0..4 more types drawn from the rest of the
 * profile. Returns how many types; fills types[]. */
#define FRAGMENTED_MAX_TYPES 6
uint32_t world_fragmented_types(struct rng *g, uint32_t component_count, uint32_t *types);

/* Size in bytes of component type t in this run (Position and Velocity: --component-size). */
uint32_t world_type_size(const struct bench_case *c, uint32_t t);
/* Fills `size` bytes of a value of type t for entity i at round `round` (zero padded). Never
 * inside a timed region: it costs four mix64 a call; workloads read struct values instead. */
void world_value_fill(uint64_t seed, uint32_t t, uint64_t i, uint64_t round, void *out, uint32_t size);
const void *world_value_of(const struct values *v, uint32_t t, uint32_t i);
/* Copies a value of `size` bytes; the harness's sizes (8 and 4) inline, without a call. */
static inline void world_value_copy(void *dst, const void *src, uint32_t size)
{
	if (size == 8)
		__builtin_memcpy(dst, src, 8);
	else if (size == 4)
		__builtin_memcpy(dst, src, 4);
	else
		__builtin_memcpy(dst, src, size);
}
/*
 * The game's systems, in the order world_open registers them (their ids): a status effect's
 * small pass (the type add-remove moves), render, AI, physics and forces, every one of them
 * over Position. The measured pass is the one over the workload's first k types of Position,
 * Velocity, Mass and Health (k = 1 render, 2 physics, 3 forces, 4 AI): never the first
 * registered, and sharing Position's pool with the other four. The systems after them (from
 * WORLD_GAME_SYSTEMS on) require pairs of other types; the first of them is a pass that matches
 * nothing (empty-pass's).
 */
enum {
	WORLD_STATUS, WORLD_RENDER, WORLD_AI, WORLD_PHYSICS, WORLD_FORCES,
	WORLD_GAME_SYSTEMS,
	WORLD_EMPTY = WORLD_GAME_SYSTEMS,
	WORLD_MIN_SYSTEMS = WORLD_EMPTY + 1, /* --systems below this is refused (sweep_run.c) */
	WORLD_SYSTEM_MAX_TYPES = 4,
};
struct world_system {
	const char *name;
	uint32_t types[WORLD_SYSTEM_MAX_TYPES];
	uint32_t count;
};
extern const struct world_system world_systems[WORLD_GAME_SYSTEMS];

struct world {
	const struct ecs_ops *ops;
	ecs_storage *s;
	struct counting_alloc counter;
	uint32_t *sizes;
	uint32_t measured; /* the system whose pass the workload measures */
	uint32_t grouped;  /* the hottest, the one a storage with owning groups was asked to own */
	uint32_t sparse_type; /* the one type marked ECS_STORAGE_SPARSE (PROFILE_SPARSE_TYPE) */
	struct world_system registered[WORLD_GAME_SYSTEMS]; /* what world_open registered as them */
	uint32_t registered_count;
};

/* All component types and the profile's systems (world_systems, then pairs of other types);
 * the measured system is the game's over the workload's first k types, the grouped one the
 * workload's grouped_k's (0: the measured one). The rules of the profile (state.h) are
 * checked: a world that breaks them is not opened. */
int world_open(const struct bench_case *c, struct world *w, struct bench_result *r);
void world_close(struct world *w);

/* Creates n entities, each with the types listed (values from v, in creation order), each in
 * one call (entity_create_with: an archetype storage places it in its table at once). */
int world_spawn(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                const struct values *v, ecs_entity *handles, struct bench_result *r);
/* The same, as Varkor's refactor post does it: entity_create, then component_add for each type. */
int world_spawn_adding(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                       const struct values *v, ecs_entity *handles, struct bench_result *r);
/* Tells the storage n entities are coming (ecs_reserve), as a game that knows its level's
 * size would; untimed. */
int world_reserve(struct world *w, uint32_t n, struct bench_result *r);
int world_despawn(struct world *w, uint32_t n, const ecs_entity *handles, struct bench_result *r);
/* Writes value `i` of the write table into every component the entity has among the first
 * `types` types: one component_get each (ECS_ERR_NO_COMPONENT: the entity lacks it) and a
 * plain copy, no value made inside the caller's timed region. */
int world_write_components(struct world *w, ecs_entity e, uint32_t types, const struct values *writes,
                           uint32_t i, struct bench_result *r);

/* One pass of the measured system (Position += Velocity * dt, ...) over k components; returns
 * the number of entities visited, UINT64_MAX if the iteration could not begin. */
uint64_t world_system_pass(struct world *w, uint32_t k);
/* The entities the measured system visits, without touching them. */
uint64_t world_visit_count(struct world *w);

#define CHECKSUM_START 0xcbf29ce484222325ull
uint64_t world_hash_bytes(uint64_t h, const void *p, size_t n);
/* Every value of the listed types of every entity, in creation order, read back through the
 * interface; an entity that lacks one hashes a marker instead. */
int world_checksum_values(struct world *w, uint32_t n, const uint32_t *types, uint32_t ntypes,
                          const ecs_entity *handles, uint64_t *out, struct bench_result *r);

/* One participant (a backend, or the floor) in one row. */
struct run {
	const struct bench_case *c;
	struct bench_result *r;
	ecs_entity *handles;  /* the entities of the last round, in creation order */
	struct world world;   /* workloads on one storage for the whole row */
	struct world *worlds; /* workloads on a fresh storage per run */
	uint32_t worlds_open, worlds_cap;
	uint32_t inner;       /* runs in the sample under way */
	bool verify;          /* setup and finish check, finish takes the checksum (pass.c) */
	uint64_t visited;     /* entities the sample's passes visited */
	uint64_t expected;    /* entities a pass should visit */
	double sum;           /* get: what the reads added up to */
	uint64_t first_round_peak; /* peak bytes after the storage's first round, for reuse */
	ecs_entity *shuffled; /* get: the handles in the shuffled order of access */
	void *state;          /* a workload's own */
	struct history_state *history; /* what its storage went through (history.h) */
	struct spawn_plan *spawn;      /* create, churn: how they spawn (history.h) */
	struct turnover *turnover;     /* create: its storages after their predecessors died */
	bool state_checked;            /* the first sample's checks of the state done (state.h) */
};

/* A workload's own state for the run (run->state): `size` bytes, zeroed, which its release
 * frees. NULL, with the row failed, if out of memory. */
void *world_run_state(struct run *run, size_t size);

/* Helpers for workloads that take a fresh storage per run (create and Varkor's). */
int world_fresh_prepare(struct run *run);
int world_fresh_end_sample(struct run *run);
void world_note_memory(struct run *run, const struct world *w);

/* The swept workloads' component types, k = 1..3: Position, Velocity, Mass. */
extern const uint32_t workloads_sweep_types[COMP_MAX_K];
/* A pass's checks, shared by iterate and its variants (workloads.c): every entity visited once
 * per run; and the values read back in creation order as the row's checksum. */
int workloads_check_visited(struct run *run);
/* The storage iterate, parallel-iterate and get share (struct workload's shares), and its build. */
extern const char workloads_iterate_world[];
int workloads_iterate_build(struct run *run);
int workloads_iterate_finish(struct run *run);

void world_run_release(struct run *run);

/* Round 0: the values entities are created with; round 1: those written over them. */
int world_values_make(struct values *v, uint32_t n, uint64_t seed, uint64_t round,
                      uint32_t component_size);
void world_values_free(struct values *v);

/* How the pass runs every workload's participants (bench.h), the scenario's too (workloads.c). */
extern const struct bench_runner workloads_runner;

/* Every workload of the sweep, in --list's order (workloads.c). */
extern const struct workload *const workloads[];
extern const size_t workload_count;

/* The order a timed loop visits the N measured entities in (as places in creation order): a
 * shuffle of rng_permutation's `stream` under a lived-in history (rule 'order', state.h),
 * creation order under the others (workloads.c). */
int workloads_visit_order(const struct bench_case *c, uint64_t stream, uint32_t **order,
                          struct bench_result *r);
#define WORKLOADS_ADD_REMOVE_ORDER 3u
#define WORKLOADS_VARKOR_DEATHS 4u /* add-write-delete's and distributed's deletes (varkor.c) */

/* destroy's order of destruction: rng_permutation's stream (get's shuffle is stream 1); and
 * the most storages a sample of it holds (one per run: 1000 storages of N = 1 are about 10 to
 * 40 MB). */
#define WORKLOADS_DESTROY_ORDER 2u
#define WORKLOADS_DESTROY_MAX_INNER 1000u

/* The floors (floor.c). */
extern const struct workload floor_create, floor_create_batch, floor_iterate, floor_churn,
	floor_add_remove, floor_add_remove_batch,
	floor_get, floor_get_one, floor_get_batch, floor_get_ordered, floor_fragmented, floor_parallel_iterate,
	floor_destroy, floor_empty_pass, floor_systems_64;

/* systems-64's systems, each over its own group of the N entities. */
#define WORKLOADS_SYSTEMS 64u

/* A pass's fixed cost (fixed_cost.c): one pass of a system that matches nothing, and 64 systems
 * over N entities split in 64 groups. */
extern const struct workload workload_empty_pass, workload_systems_64;

/* iterate's pass split over threads (parallel.c). */
extern const struct workload workload_parallel_iterate;

/* What create, create-batch and create-unreserved share (workloads.c): how many predecessors
 * died before their creation (0 but under a lived-in history: N, create-unreserved's N / 2, so
 * that half its entities grow the storage); their setup (the spawn plan, the turnover's when
 * it applies; reserved or not); where run j's handles go; the first process's check of what a
 * creation took; the checksum of the last run's creation. */
uint32_t workloads_predecessors(const struct bench_case *c);
int workloads_create_setup(struct run *run, bool reserve);
ecs_entity *workloads_created(const struct run *run, uint32_t j);
int workloads_create_end_sample(struct run *run);
int workloads_create_finish(struct run *run);

/* create without reserve, timed in blocks (growth.c): GROWTH_BLOCKS blocks of about N / 64. */
#define GROWTH_BLOCKS 64u
extern const struct workload workload_create_unreserved;

/* Varkor's workloads (varkor.c). */
extern const struct workload workload_varkor_create, workload_varkor_add,
	workload_varkor_add_write_delete, workload_varkor_distributed, workload_varkor_relationship,
	workload_varkor_random;

#endif
