/*
 * sparse.h: the sparse storage's data (impls/sparse/sparse.c has its code and says what it
 * stores, its costs and its fast paths): the records, the systems, a variant's fields, and the
 * hooks through which a variant keeps its own order, each with a default that does nothing.
 * Included by sparse.c only; a variant includes sparse.c.
 */
/* A variant's fields (none unless it defines them before the include; SPARSE_POOL_FIELDS: pool.h) */
#ifndef SPARSE_SYSTEM_FIELDS
#define SPARSE_SYSTEM_FIELDS
#endif
#ifndef SPARSE_STORAGE_FIELDS
#define SPARSE_STORAGE_FIELDS
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../checks.h"
#include "../ecs.h"

#define SPARSE_NO_INDEX ECS_INDEX_MASK /* end of the free list (never a valid index) */
#define SPARSE_MIN_RECORDS 64u
/* A run of entities in step in every pool at least this long is handed out as columns at once;
 * a shorter one becomes the start of a pointer batch of up to ECS_BATCH_MAX entities. */
#define SPARSE_COLUMN_RUN (ECS_BATCH_MAX / 4u)
#define SPARSE_COMPARE_CHUNK 256u /* handles compared at once when extending such a run */


struct sparse_system {
	uint32_t type_count, excluded_count;
	uint32_t types[ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t excluded[ECS_SYSTEM_MAX_EXCLUDED];
	SPARSE_SYSTEM_FIELDS /* the variant's */
};

struct ecs_storage {
	struct ecs_allocator alloc;
	uint32_t component_count;
	uint32_t system_max, system_count;
	struct sparse_pool *pools;
	struct sparse_system *systems;
	uint32_t *live_pools; /* ids of the pools holding at least one value, unordered */
	uint32_t live_count;
	/* Per entity index: its handle while alive; once destroyed, the next free index and the
	 * generation the index will be handed out with (EnTT's implicit free list). */
	ecs_entity *records;
	uint32_t entity_used; /* indices ever handed out */
	uint32_t entity_cap;
	uint32_t free_head; /* last destroyed index, or SPARSE_NO_INDEX */
	uint32_t free_count; /* indices on the free list: a batch's ECS_ERR_FULL without a walk */
	SPARSE_STORAGE_FIELDS /* the variant's */
};

#include "../pool.h"

/*
 * The hooks, called where the storage changes which entities hold a type, so that a variant
 * can keep its own order (group.c: owning groups). Each has a default that does nothing and
 * compiles away (the plain backend, sparse.c, uses them all). A variant replaces one by naming
 * its function before the include (`#define sparse_hook_added group_added`) and defining it
 * after: the hook is then declared here under that name, a direct call the compiler inlines.
 */
/* create's part (ECS_OK or ECS_ERR_NO_MEMORY; destroy then frees what there is), destroy's. */
#ifdef sparse_hook_setup
static int sparse_hook_setup(ecs_storage *s);
#else
#define sparse_hook_setup(s) ((void)(s), ECS_OK)
#endif
#ifdef sparse_hook_release
static void sparse_hook_release(ecs_storage *s);
#else
#define sparse_hook_release(s) ((void)(s))
#endif
/* After index got type (appended to its pool; a batch calls it once its appends are done). */
#ifdef sparse_hook_added
static void sparse_hook_added(ecs_storage *s, uint32_t index, uint32_t type);
#else
#define sparse_hook_added(s, index, type) ((void)(s), (void)(index), (void)(type))
#endif
/* Before index loses type (its swap-remove), and after. */
#ifdef sparse_hook_removing
static void sparse_hook_removing(ecs_storage *s, uint32_t index, uint32_t type);
#else
#define sparse_hook_removing(s, index, type) ((void)(s), (void)(index), (void)(type))
#endif
#ifdef sparse_hook_removed
static void sparse_hook_removed(ecs_storage *s, uint32_t index, uint32_t type);
#else
#define sparse_hook_removed(s, index, type) ((void)(s), (void)(index), (void)(type))
#endif
/* Before index is destroyed. */
#ifdef sparse_hook_destroying
static void sparse_hook_destroying(ecs_storage *s, uint32_t index);
#else
#define sparse_hook_destroying(s, index) ((void)(s), (void)(index))
#endif
/* After n new entities (handles[]) got the same types, all they have. */
#ifdef sparse_hook_created
static void sparse_hook_created(ecs_storage *s, const ecs_entity *handles, uint32_t n,
                                const uint32_t *types, uint32_t count);
#else
#define sparse_hook_created(s, handles, n, types, count)                                          \
	((void)(s), (void)(handles), (void)(n), (void)(types), (void)(count))
#endif
/* iter_split's part: whether the variant walks system y's pass itself (it then sets up `it`),
 * and that pass's batches (sparse_hook_iter_next: whether `it` is such a pass; then *more is
 * whether a batch came). */
#ifdef sparse_hook_iter_split
static bool sparse_hook_iter_split(ecs_storage *s, const struct sparse_system *y, uint32_t system,
                                   uint32_t part, uint32_t parts, struct ecs_iter *it);
#else
#define sparse_hook_iter_split(s, y, system, part, parts, it)                                     \
	((void)(s), (void)(y), (void)(system), (void)(part), (void)(parts), (void)(it), false)
#endif
#ifdef sparse_hook_iter_next
static bool sparse_hook_iter_next(struct ecs_iter *it, struct ecs_batch *b, bool *more);
#else
#define sparse_hook_iter_next(it, b, more) ((void)(it), (void)(b), (void)(more), false)
#endif

/* --- entities -------------------------------------------------------------------------- */

static inline bool sparse_alive(const ecs_storage *s, ecs_entity e)
{
	uint32_t index = ecs_entity_index(e);
	/* A dead index's record names another index (or SPARSE_NO_INDEX), so it equals no handle
	 * of its own index; ECS_NULL's index is never below entity_used. */
	return index < s->entity_used && s->records[index] == e;
}

/* The records grown to hold need (entity_cap never past ECS_MAX_ENTITIES). */
static int records_grow(ecs_storage *s, uint32_t need)
{
	return ecs_array_grow(&s->alloc, (void **)&s->records, &s->entity_cap, need,
	                      sizeof *s->records, SPARSE_MIN_RECORDS, ECS_MAX_ENTITIES);
}

static bool sparse_entity_alive(const ecs_storage *s, ecs_entity e)
{
	return s && sparse_alive(s, e);
}

/* The checks every component operation starts with. */
ECS_CHECK_SHELL(sparse)

/* A failed lookup's question: whether the handle is dead (its record), or the value missing. */
static inline bool sparse_get_dead(const ecs_storage *s, ecs_entity e)
{
	return !sparse_alive(s, e);
}
