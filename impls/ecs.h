/*
 * ecs.h: the storage interface every ecsbench backend fills, and the only header the harness
 * and the tests include to reach a backend.
 *
 * A backend is one `const struct ecs_ops` (a vtable) listed in `ecs_backends[]` (impls/backends.c).
 * Everything else (the CLI, the CSV, the conformance suite) loops over that table.
 *
 * Entities are generational 32-bit handles:
 *
 *     bits 31..22  generation (10 bits, 1024 values, wraps)
 *     bits 21..0   index      (22 bits)
 *
 * Index ECS_INDEX_MASK is never handed out, so ECS_NULL (all ones) is never a live handle and at
 * most ECS_MAX_ENTITIES = 2^22 - 1 = 4,194,303 entities are alive at once; past that,
 * entity_create fails with ECS_ERR_FULL. Destroying an entity bumps the generation of its index,
 * so the old handle is dead to every operation even after the index is reused (Apichattakul's
 * zombie problem). A stale handle can only alias a live one after its index has been reused 1024 times.
 *
 * Components are plain bytes: type t has the size cfg->component_sizes[t], fixed when the storage
 * is created; values are copied in by component_add and read or written in place through the
 * pointer component_get returns (valid until the next structural change: any add, remove,
 * create or destroy may move values).
 *
 * A value to copy in may point into this storage: `component_add(s, e2, t, p)` with p from
 * `component_get(s, e1, t, &p)` (copying one entity's component to another) is allowed, with p
 * from any live entity and any type of at least t's size. The storage reads the value as it
 * was when the call began, even when the call grows (and so moves) the very block p points
 * into. What the call may not rely on is a pointer that an earlier structural change left
 * dangling.
 *
 * Every allocation goes through the `struct ecs_allocator` given at creation (with sizes, so the
 * harness can count bytes); no backend keeps global state, so storages live side by side.
 *
 * Iteration hands out batches, never one indirect call per entity: system_iter_begin fills an
 * iterator, each system_iter_next call fills `struct ecs_batch` with `count` entity handles and,
 * for each component the system requires (in the order it was registered with), either a
 * contiguous column (`columns[c]`, values `component_sizes[type]` bytes apart) or, where the
 * storage cannot hand out a column, an array of `count` pointers (`pointers[c]`). A batch whose
 * components are all columns may hold any number of entities; one with a pointer array holds at
 * most ECS_BATCH_MAX. The values may be written through (that is what a system does); the
 * storage must not be changed structurally while an iteration is under way.
 *
 * A pass may also be split (system_iter_split) into P disjoint parts that P threads iterate at
 * once, each with its own iterator: the parts together visit exactly what system_iter_begin's
 * iterator visits, each entity in exactly one part. Iterating only reads the storage, so the
 * parts need no lock; each thread writes the values of its own part's batches only.
 */
#ifndef ECS_H
#define ECS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 2: entity_create_with (optional; ecs_entity_create_with falls back when it is NULL).
 * 3: system_register takes excluded types too.
 * 4: system_iter_split (optional; ecs_system_iter_split falls back when it is NULL).
 * 5: ecs_config.component_storage (a storage hint per type), system_group (an owning-group
 *    hint per system) and the batched operations entity_create_batch, component_add_batch and
 *    component_remove_batch, all optional (the wrappers below fall back when they are NULL).
 * 6: component_get_batch (optional; ecs_component_get_batch falls back when it is NULL).
 * 7: entity_get (optional; ecs_entity_get falls back when it is NULL). */
#define ECS_INTERFACE_VERSION 7

typedef uint32_t ecs_entity;

#define ECS_INDEX_BITS 22u
#define ECS_GENERATION_BITS 10u
#define ECS_INDEX_MASK ((1u << ECS_INDEX_BITS) - 1u)
#define ECS_GENERATION_MASK ((1u << ECS_GENERATION_BITS) - 1u)
#define ECS_MAX_ENTITIES ECS_INDEX_MASK /* index ECS_INDEX_MASK is reserved for ECS_NULL */
#define ECS_NULL UINT32_MAX

/* Limits of a profile: the harness's AAA profile (512 types, 64 systems) is well inside them. */
#define ECS_MAX_COMPONENT_TYPES 4096u
#define ECS_MAX_SYSTEMS 1024u
#define ECS_MAX_COMPONENT_SIZE 4096u
#define ECS_SYSTEM_MAX_COMPONENTS 8u /* components one system may require */
#define ECS_SYSTEM_MAX_EXCLUDED 8u   /* components one system may exclude */
#define ECS_CREATE_MAX_COMPONENTS 32u /* components one entity_create_with may give */
#define ECS_ENTITY_GET_MAX ECS_CREATE_MAX_COMPONENTS /* types one entity_get may ask */
#define ECS_BATCH_MAX 256u           /* entities in a batch that uses pointer arrays */
#define ECS_SPLIT_MAX 4096u          /* parts one pass may be split into */
#define ECS_CACHE_LINE 64u           /* bytes: part boundaries are aligned to it (see below) */

static inline uint32_t ecs_entity_index(ecs_entity e) { return e & ECS_INDEX_MASK; }
static inline uint32_t ecs_entity_generation(ecs_entity e) { return e >> ECS_INDEX_BITS; }
static inline ecs_entity ecs_entity_make(uint32_t index, uint32_t generation)
{
	return (generation & ECS_GENERATION_MASK) << ECS_INDEX_BITS | (index & ECS_INDEX_MASK);
}

/*
 * Status codes. Every operation that can fail returns one; on any error the storage is left
 * exactly as it was. Where several apply, the first in this order is returned: ECS_ERR_INVALID
 * (NULL storage or pointer argument), ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT,
 * ECS_ERR_HAS_COMPONENT / ECS_ERR_NO_COMPONENT, ECS_ERR_NO_MEMORY.
 */
enum ecs_status {
	ECS_OK = 0,
	ECS_ERR_DEAD_ENTITY = -1,   /* handle was destroyed, never created, or is ECS_NULL */
	ECS_ERR_NO_COMPONENT = -2,  /* remove/get of a component the entity does not have */
	ECS_ERR_HAS_COMPONENT = -3, /* add of a component the entity already has */
	ECS_ERR_BAD_COMPONENT = -4, /* component type id >= the profile's component_count */
	ECS_ERR_BAD_SYSTEM = -5,    /* system id never registered, or system_count exhausted */
	ECS_ERR_NO_MEMORY = -6,     /* the allocator returned NULL */
	ECS_ERR_FULL = -7,          /* ECS_MAX_ENTITIES entities already alive */
	ECS_ERR_INVALID = -8,       /* bad argument: NULL pointer, bad config, empty or repeated
	                               component list, more than ECS_SYSTEM_MAX_COMPONENTS (or
	                               ECS_SYSTEM_MAX_EXCLUDED, ECS_CREATE_MAX_COMPONENTS), a type
	                               both required and excluded */
};

const char *ecs_status_name(int status); /* "ECS_ERR_DEAD_ENTITY", ... */

/*
 * The allocator a storage uses for everything. `realloc` and `free` receive the size the block
 * was allocated with (old_size for realloc), so a counting allocator needs no header per block.
 * realloc with ptr == NULL allocates; a NULL return leaves the old block untouched.
 */
struct ecs_allocator {
	void *(*malloc)(void *ctx, size_t size);
	void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
	void (*free)(void *ctx, void *ptr, size_t size);
	void *ctx;
};

/*
 * How the game means to use a component type, a hint a storage may follow or ignore (bevy's
 * StorageType, flecs' sparse components): a table type lives with its entity from creation on;
 * a sparse type is added and removed often (a status, a tag, a target). A backend of one layout
 * ignores the hints; hybrid keeps sparse types outside its tables, so that adding or removing
 * one never moves the entity's row. No hint changes what any operation returns.
 */
enum ecs_storage_hint {
	ECS_STORAGE_TABLE = 0,
	ECS_STORAGE_SPARSE = 1,
};

/* What a storage is created for: the profile's component types and their sizes, and how many
 * systems may be registered. All component types exist from creation on. */
struct ecs_config {
	uint32_t component_count;        /* 1..ECS_MAX_COMPONENT_TYPES */
	uint32_t system_count;           /* 1..ECS_MAX_SYSTEMS */
	const uint32_t *component_sizes; /* component_count sizes, each 1..ECS_MAX_COMPONENT_SIZE */
	/* component_count enum ecs_storage_hint values, or NULL: every type ECS_STORAGE_TABLE.
	 * The storage copies what it needs: the array may go once create returns. */
	const uint8_t *component_storage;
};

/*
 * Values for a batch: entity j's value at data + j * stride (bytes), the type's size read from
 * there. stride 0 gives every entity the same value (EnTT's insert of one value), stride equal
 * to the size reads a packed array (flecs' bulk init). The values may point into this storage,
 * as for component_add: they are read as they were when the call began.
 */
struct ecs_values {
	const void *data;
	size_t stride;
};

struct ecs_batch {
	uint32_t count;
	const ecs_entity *entities;
	void *columns[ECS_SYSTEM_MAX_COMPONENTS];   /* contiguous values, or NULL */
	void **pointers[ECS_SYSTEM_MAX_COMPONENTS]; /* count pointers, where columns[c] is NULL */
};

/* Iterator state, on the caller's stack: an opaque part for the backend and scratch space the
 * backend may fill and hand out in a batch. */
struct ecs_iter {
	void *storage;
	uint64_t state[8];
	ecs_entity entities[ECS_BATCH_MAX];
	void *pointers[ECS_SYSTEM_MAX_COMPONENTS][ECS_BATCH_MAX];
};

typedef struct ecs_storage ecs_storage; /* each backend defines its own */

struct ecs_ops {
	uint32_t version; /* ECS_INTERFACE_VERSION */
	const char *name; /* short, as on the command line and in the CSV */
	const char *description;

	int (*create)(const struct ecs_config *cfg, const struct ecs_allocator *alloc,
	              ecs_storage **out);
	void (*destroy)(ecs_storage *s); /* frees every byte; NULL is ignored */
	/* Optional (NULL: ecs_reserve does nothing): make room for `entities` entities with
	 * their components so that creating them allocates less. */
	int (*reserve)(ecs_storage *s, uint32_t entities);

	int (*entity_create)(ecs_storage *s, ecs_entity *out);
	/* Optional (NULL: ecs_entity_create_with adds one component at a time): creates an entity
	 * with `count` components at once (0..ECS_CREATE_MAX_COMPONENTS distinct types, in any
	 * order; values[i] is types[i]'s value and may point into this storage, as for
	 * component_add; through the fallback, with a limit: see below). types and values may be
	 * NULL when count is 0. Errors: ECS_ERR_INVALID (a NULL pointer, a repeated type, count
	 * over the limit), ECS_ERR_BAD_COMPONENT, ECS_ERR_FULL, ECS_ERR_NO_MEMORY, in that order;
	 * on any error nothing is created. A backend does it in one step where its strategy allows
	 * (archetype: straight into the table of the final set, flecs' and bevy's bundle spawn). */
	int (*entity_create_with)(ecs_storage *s, const uint32_t *types, uint32_t count,
	                          const void *const *values, ecs_entity *out);
	int (*entity_destroy)(ecs_storage *s, ecs_entity e); /* removes all its components */
	bool (*entity_alive)(const ecs_storage *s, ecs_entity e);

	/* value: component_sizes[type] bytes to copy in; may point into this storage (above). */
	int (*component_add)(ecs_storage *s, ecs_entity e, uint32_t type, const void *value);
	int (*component_remove)(ecs_storage *s, ecs_entity e, uint32_t type);
	int (*component_get)(ecs_storage *s, ecs_entity e, uint32_t type, void **out);
	/* 1 if the entity has it, 0 if not, or a negative status. */
	int (*component_has)(const ecs_storage *s, ecs_entity e, uint32_t type);

	/* Registers a system requiring `count` distinct types (1..ECS_SYSTEM_MAX_COMPONENTS) and
	 * excluding `excluded_count` others (0..ECS_SYSTEM_MAX_EXCLUDED; excluded may be NULL when
	 * there are none), as EnTT's exclude and flecs' Not: an entity matches when it has every
	 * required type and none of the excluded ones. Ids are given out 0, 1, 2, ... up to
	 * cfg->system_count - 1. Entities that already match are matched from then on. */
	int (*system_register)(ecs_storage *s, const uint32_t *types, uint32_t count,
	                       const uint32_t *excluded, uint32_t excluded_count, uint32_t *out_id);
	int (*system_iter_begin)(ecs_storage *s, uint32_t system, struct ecs_iter *it);
	/* Fills the next batch; returns false when there is none (batch->count is then 0).
	 * A returned batch always has count > 0. */
	bool (*system_iter_next)(struct ecs_iter *it, struct ecs_batch *batch);
	/*
	 * Optional (NULL: see ecs_system_iter_split). Begins an iteration over part `part` of
	 * `parts` (1..ECS_SPLIT_MAX) of the system's pass, read through system_iter_next as any
	 * iteration: the parts are disjoint, together they visit exactly the entities the whole
	 * pass visits, and a batch never spans two parts. Iterators of different parts may be
	 * advanced by different threads at once, and their batches' values written, while nothing
	 * changes the storage structurally. The parts are balanced by entity count as the strategy
	 * allows (each a share of what its split walks: tables and rows, a pool's dense range, the
	 * system's packed list), and where the layout allows, a boundary falls on a cache-line
	 * start (ECS_CACHE_LINE) of the values of the system's first required component, the one a
	 * system conventionally writes, so that two threads never write one line. A part may be
	 * empty (fewer entities than parts). Errors: ECS_ERR_INVALID (NULL storage or iterator,
	 * parts 0 or over ECS_SPLIT_MAX, part >= parts), ECS_ERR_BAD_SYSTEM.
	 */
	int (*system_iter_split)(ecs_storage *s, uint32_t system, uint32_t part, uint32_t parts,
	                         struct ecs_iter *it);

	/*
	 * Optional (NULL: ecs_system_group returns 0): asks the storage to keep the system's
	 * matching entities packed together and in the same order in every pool of its required
	 * types (EnTT's owning group), so that its pass walks whole columns however the storage has
	 * aged, paying swaps on every add and remove that changes the system's matches. A hint:
	 * returns 1 if the storage now does so, 0 if it declines (its strategy has no groups, or a
	 * pool is owned by another group already: a pool can be kept in one order only), or
	 * ECS_ERR_BAD_SYSTEM. May be called once entities exist (they are sorted into the group
	 * then). Nothing a caller can observe through the other operations changes, but the order
	 * in which iteration hands entities out.
	 */
	int (*system_group)(ecs_storage *s, uint32_t system);

	/*
	 * Batches, all optional (NULL: the wrappers below do one at a time). Each is one operation:
	 * on any error nothing is created or changed (through a wrapper's fallback, with the limits
	 * it states). Errors, the first kind that applies anywhere in the batch, in the order of
	 * the status codes: ECS_ERR_INVALID (a NULL pointer while count > 0, a repeated type or
	 * entity, type_count over ECS_CREATE_MAX_COMPONENTS), ECS_ERR_DEAD_ENTITY (any entity),
	 * ECS_ERR_BAD_COMPONENT, ECS_ERR_HAS_COMPONENT / ECS_ERR_NO_COMPONENT (any entity),
	 * ECS_ERR_FULL (fewer than count indices left), ECS_ERR_NO_MEMORY. count 0 does nothing
	 * and returns ECS_OK (after the checks of the arguments that do not depend on count).
	 * A backend does a batch in one step where its strategy allows: archetype and hybrid one
	 * table lookup and one growth per batch, the sparse sets one pool growth per batch.
	 *
	 * entity_create_batch: creates `count` entities, each with the `type_count` types
	 * (0..ECS_CREATE_MAX_COMPONENTS distinct) and values[i]'s j-th value for types[i]; their
	 * handles in out[0..count-1]. types and values may be NULL when type_count is 0.
	 */
	int (*entity_create_batch)(ecs_storage *s, const uint32_t *types, uint32_t type_count,
	                           const struct ecs_values *values, uint32_t count, ecs_entity *out);
	/* Adds `type` to each of count entities (values: entities[j]'s value its j-th). */
	int (*component_add_batch)(ecs_storage *s, const ecs_entity *entities, uint32_t count,
	                           uint32_t type, const struct ecs_values *values);
	/* Removes `type` from each of count entities. */
	int (*component_remove_batch)(ecs_storage *s, const ecs_entity *entities, uint32_t count,
	                              uint32_t type);

	/*
	 * Optional (NULL: ecs_component_get_batch calls component_get for each): the lookups of
	 * `type_count` types (1..ECS_CREATE_MAX_COMPONENTS, repeats allowed) of each of `count`
	 * handles (repeats allowed), as a gather pass of an engine asks them: result r = j *
	 * type_count + i is entities[j]'s value of types[i], out[r] what component_get would give
	 * (NULL where it fails) and, where status is not NULL, status[r] what it would return
	 * (ECS_OK, ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT or ECS_ERR_NO_COMPONENT, every
	 * handle checked). Returns ECS_OK when every lookup found its value, else the first
	 * failure's status (in the order of the results), or ECS_ERR_INVALID (s or types NULL,
	 * type_count 0 or over the limit, entities or out NULL while count > 0), and then nothing
	 * is written; count 0 does nothing else.
	 * Reads only; the pointers are valid as component_get's. Where its strategy allows, a
	 * backend overlaps the lookups' cache misses (one handle's record read once for all its
	 * types; the loads of many handles in flight at once), which one call per lookup through
	 * this table cannot.
	 */
	int (*component_get_batch)(ecs_storage *s, const ecs_entity *entities, uint32_t count,
	                           const uint32_t *types, uint32_t type_count, void **out,
	                           int *status);

	/*
	 * Optional (NULL: ecs_entity_get calls component_get for each type): one entity's values of
	 * `count` types (1..ECS_ENTITY_GET_MAX, repeats allowed) in one call, as EnTT's
	 * get<A, B>(e) and flecs' ecs_get_id a type at a time ask them: out[i] is what
	 * component_get(s, e, types[i]) would give (NULL where it fails) and, where status is not
	 * NULL, status[i] what it would return: ECS_ERR_DEAD_ENTITY for every type of a dead handle,
	 * else ECS_ERR_BAD_COMPONENT for a type out of range, ECS_ERR_NO_COMPONENT for one the
	 * entity lacks, ECS_OK for the others (a missing type fails for itself, not for the rest).
	 * Returns ECS_OK when every type was found, else the first failure's status (in the order of
	 * types), or ECS_ERR_INVALID (s, types or out NULL, count 0 or over ECS_ENTITY_GET_MAX), and
	 * then nothing is written. Reads only; the pointers are valid as component_get's.
	 * What it saves over a component_get a type is the call and what the call repeats: the
	 * handle decoded and checked once, the entity's record (or the storage's pools) found once
	 * for all its types, so that one lookup's few instructions leave the processor room to
	 * overlap its misses with the next lookup's.
	 */
	int (*entity_get)(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
	                  void **out, int *status);
};

/* Thin wrappers for the optional methods, so callers never test for NULL themselves. */
static inline int ecs_reserve(const struct ecs_ops *ops, ecs_storage *s, uint32_t entities)
{
	return ops->reserve ? ops->reserve(s, entities) : ECS_OK;
}

/*
 * The split of a pass (system_iter_split above). A backend without one cannot be split: its
 * whole pass is one part, so the wrapper begins it for parts == 1 and refuses more parts with
 * ECS_ERR_INVALID (the caller then iterates on one thread, or says why it cannot).
 */
static inline int ecs_system_iter_split(const struct ecs_ops *ops, ecs_storage *s, uint32_t system,
                                        uint32_t part, uint32_t parts, struct ecs_iter *it)
{
	if (ops->system_iter_split)
		return ops->system_iter_split(s, system, part, parts, it);
	if (parts != 1 || part != 0)
		return ECS_ERR_INVALID;
	return ops->system_iter_begin(s, system, it);
}

/*
 * Helpers for a split, shared by the backends and the harness's floor.
 *
 * ecs_split_bound: where part `part` of `parts` starts among `total` items walked in order
 * (part == parts: total), so that the parts' sizes differ by at most one.
 */
static inline uint32_t ecs_split_bound(uint32_t total, uint32_t part, uint32_t parts)
{
	return (uint32_t)((uint64_t)total * part / parts);
}

/*
 * ecs_split_limit: how far ecs_split_align may move part `part`'s bound (its limit): the
 * smallest part's size, or 0 where the bound stays (the pass's ends, or parts of fewer than 2
 * items).
 */
static inline uint32_t ecs_split_limit(uint32_t total, uint32_t part, uint32_t parts)
{
	return part == 0 || part == parts || total / parts < 2 ? 0 : total / parts;
}

/*
 * ecs_split_align: how many items (of `size` bytes, consecutive from `at`) to move a boundary
 * forward so that it falls on a cache-line start: the least d < limit with at + d * size on a
 * line start, or 0 if there is none (then the boundary stays; always at a limit of 0). A caller
 * keeps limit at most the smallest part's size, so that boundaries moved forward stay in order;
 * and it checks that the d items from `at` are really consecutive in memory where that is not
 * certain.
 */
static inline uint32_t ecs_split_align(const void *at, uint32_t size, uint32_t limit)
{
	uintptr_t a = (uintptr_t)at;
	if (limit > ECS_CACHE_LINE)
		limit = ECS_CACHE_LINE; /* the offsets repeat after a line's worth of items */
	for (uint32_t d = 0; d < limit; d++)
		if ((a + (uintptr_t)d * size) % ECS_CACHE_LINE == 0)
			return d;
	return 0;
}

/*
 * entity_create_with's fallback (impls/ecs.c): entity_create, then component_add for each
 * type, and entity_destroy again if an add fails. Two differences from a native method, both
 * because the wrapper cannot know the profile's component count: entity_create's ECS_ERR_FULL
 * or ECS_ERR_NO_MEMORY comes before ECS_ERR_BAD_COMPONENT, and after an error the index it used
 * comes back with the next generation (it was created and destroyed). And a limit on values
 * that point into the storage: the fallback cannot copy them before the first add (it does not
 * know their sizes), so each is read by its own add, after the adds of the types listed before
 * it, which may have moved it. values[i] may therefore point into the storage only at a value
 * of a type not among types[0..i-1]; then it stays where it was as long as an add moves no
 * value of a type the entity lacks after it (the family and sparse grow the added type's pool,
 * archetype the table of the entity's new set). A backend where an add moves other values must
 * provide entity_create_with; every backend here does, and has no such limit.
 */
int ecs_entity_create_with_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                    const uint32_t *types, uint32_t count,
                                    const void *const *values, ecs_entity *out);

static inline int ecs_entity_create_with(const struct ecs_ops *ops, ecs_storage *s,
                                         const uint32_t *types, uint32_t count,
                                         const void *const *values, ecs_entity *out)
{
	if (ops->entity_create_with)
		return ops->entity_create_with(s, types, count, values, out);
	return ecs_entity_create_with_fallback(ops, s, types, count, values, out);
}

/* The owning-group hint (system_group above): 0 where the backend has no groups. */
static inline int ecs_system_group(const struct ecs_ops *ops, ecs_storage *s, uint32_t system)
{
	if (!s)
		return ECS_ERR_INVALID;
	return ops->system_group ? ops->system_group(s, system) : 0;
}

/*
 * The batches' fallbacks (impls/ecs.c), one entity at a time through the single
 * operations, after checking the whole batch first (repeats: ecs_batch_has_repeat, below;
 * liveness; has). What they cannot promise, as entity_create_with's fallback: after an error, the indices created
 * come back with their next generation (created, then destroyed); an add that fails half way
 * is undone by removing the adds before it; a remove that fails half way (only a backend whose
 * remove allocates) cannot be undone, for the fallback does not know the values' sizes; and
 * values that point into the storage are read entity by entity, after the operations on the
 * entities before, which may have moved them (a native batch reads them as they were when the
 * call began). A backend whose remove allocates must provide component_remove_batch; every
 * backend here provides all three.
 */
int ecs_entity_create_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const uint32_t *types, uint32_t type_count,
                                     const struct ecs_values *values, uint32_t count,
                                     ecs_entity *out);
int ecs_component_add_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const ecs_entity *entities, uint32_t count, uint32_t type,
                                     const struct ecs_values *values);
int ecs_component_remove_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                        const ecs_entity *entities, uint32_t count,
                                        uint32_t type);

static inline int ecs_entity_create_batch(const struct ecs_ops *ops, ecs_storage *s,
                                          const uint32_t *types, uint32_t type_count,
                                          const struct ecs_values *values, uint32_t count,
                                          ecs_entity *out)
{
	if (ops->entity_create_batch)
		return ops->entity_create_batch(s, types, type_count, values, count, out);
	return ecs_entity_create_batch_fallback(ops, s, types, type_count, values, count, out);
}

static inline int ecs_component_add_batch(const struct ecs_ops *ops, ecs_storage *s,
                                          const ecs_entity *entities, uint32_t count,
                                          uint32_t type, const struct ecs_values *values)
{
	if (ops->component_add_batch)
		return ops->component_add_batch(s, entities, count, type, values);
	return ecs_component_add_batch_fallback(ops, s, entities, count, type, values);
}

static inline int ecs_component_remove_batch(const struct ecs_ops *ops, ecs_storage *s,
                                             const ecs_entity *entities, uint32_t count,
                                             uint32_t type)
{
	if (ops->component_remove_batch)
		return ops->component_remove_batch(s, entities, count, type);
	return ecs_component_remove_batch_fallback(ops, s, entities, count, type);
}

/* component_get_batch's fallback (impls/backends.c): its checks, then component_get for each
 * lookup, in the order of the results. Nothing it cannot promise. */
int ecs_component_get_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const ecs_entity *entities, uint32_t count,
                                     const uint32_t *types, uint32_t type_count, void **out,
                                     int *status);

static inline int ecs_component_get_batch(const struct ecs_ops *ops, ecs_storage *s,
                                          const ecs_entity *entities, uint32_t count,
                                          const uint32_t *types, uint32_t type_count, void **out,
                                          int *status)
{
	if (ops->component_get_batch)
		return ops->component_get_batch(s, entities, count, types, type_count, out, status);
	return ecs_component_get_batch_fallback(ops, s, entities, count, types, type_count, out,
	                                        status);
}

/* entity_get's fallback (impls/ecs.c): its checks, then component_get for each type, in order.
 * Nothing it cannot promise. */
int ecs_entity_get_fallback(const struct ecs_ops *ops, ecs_storage *s, ecs_entity e,
                            const uint32_t *types, uint32_t count, void **out, int *status);

static inline int ecs_entity_get(const struct ecs_ops *ops, ecs_storage *s, ecs_entity e,
                                 const uint32_t *types, uint32_t count, void **out, int *status)
{
	if (ops->entity_get)
		return ops->entity_get(s, e, types, count, out, status);
	return ecs_entity_get_fallback(ops, s, e, types, count, out, status);
}

/* Checks entity_get's arguments: ECS_ERR_INVALID (s, types or out NULL, count 0 or over
 * ECS_ENTITY_GET_MAX), else ECS_OK. count 0 wraps to the top in the one comparison. */
static inline int ecs_entity_get_check(const ecs_storage *s, const uint32_t *types,
                                       uint32_t count, void *const *out)
{
	if (!s || !types || !out || count - 1u >= ECS_ENTITY_GET_MAX)
		return ECS_ERR_INVALID;
	return ECS_OK;
}

/* Checks component_get_batch's arguments: ECS_ERR_INVALID (s or types NULL, type_count 0 or
 * over ECS_CREATE_MAX_COMPONENTS, entities or out NULL while count > 0), else ECS_OK. */
static inline int ecs_get_batch_check(const ecs_storage *s, const ecs_entity *entities,
                                      uint32_t count, const uint32_t *types, uint32_t type_count,
                                      void *const *out)
{
	if (!s || !types || type_count == 0 || type_count > ECS_CREATE_MAX_COMPONENTS ||
	    (count && (!entities || !out)))
		return ECS_ERR_INVALID;
	return ECS_OK;
}

/* The backend table (impls/backends.c). */
extern const struct ecs_ops *const ecs_backends[];
extern const size_t ecs_backend_count;
const struct ecs_ops *ecs_backend_find(const char *name); /* NULL if unknown */

/* Checks a config against the limits above (and each storage hint is one of enum
 * ecs_storage_hint); ECS_OK or ECS_ERR_INVALID. Every backend's create calls it first. */
int ecs_config_check(const struct ecs_config *cfg);

/* Checks a system's lists: ECS_ERR_INVALID (types NULL, count not 1..ECS_SYSTEM_MAX_COMPONENTS,
 * excluded NULL while excluded_count > 0, excluded_count over ECS_SYSTEM_MAX_EXCLUDED, a type
 * repeated in either list or in both), then ECS_ERR_BAD_COMPONENT (a type >= component_count),
 * else ECS_OK. */
int ecs_system_types_check(const uint32_t *types, uint32_t count, const uint32_t *excluded,
                           uint32_t excluded_count, uint32_t component_count);

/* Checks entity_create_with's lists: ECS_ERR_INVALID (count over ECS_CREATE_MAX_COMPONENTS,
 * types or values NULL while count > 0, a NULL value, a repeated type), then
 * ECS_ERR_BAD_COMPONENT (a type >= component_count), else ECS_OK. */
int ecs_create_types_check(const uint32_t *types, uint32_t count, const void *const *values,
                           uint32_t component_count);

/* Checks entity_create_batch's arguments (s checked by the caller): ECS_ERR_INVALID (out NULL
 * while count > 0, type_count over ECS_CREATE_MAX_COMPONENTS, types or values NULL while
 * type_count > 0, a NULL values[i].data, a repeated type), then ECS_ERR_BAD_COMPONENT (a type >=
 * component_count; UINT32_MAX: not known, as in the fallback, which finds a bad type by its
 * first create), else ECS_OK: what every backend's batch and the fallback check first. */
int ecs_create_batch_check(const uint32_t *types, uint32_t type_count,
                           const struct ecs_values *values, uint32_t count,
                           const ecs_entity *out, uint32_t component_count);

/* Whether a list of handles holds one handle twice (the batches' ECS_ERR_INVALID): a sorted
 * copy from malloc, not a storage's allocator (a batch asks it on its error path only, which
 * must not fail for want of the memory a caller counts); where even that fails, pairs are
 * compared (quadratic, on that error path only). */
bool ecs_batch_has_repeat(const ecs_entity *entities, uint32_t count);

/* Whether type t is marked sparse in cfg (a checked config): for the backends that follow the
 * hint. */
static inline bool ecs_config_sparse(const struct ecs_config *cfg, uint32_t t)
{
	return cfg->component_storage && cfg->component_storage[t] == ECS_STORAGE_SPARSE;
}

#endif
