/*
 * checks.h: the common case of ecs.h's argument checks, inline, for the backends' hot paths.
 * Internal to impls/: the harness and the tests never include it.
 *
 * ecs_create_types_check (ecs.c) is out of line and returns the first error in ecs.h's
 * order, which takes two passes and early exits. entity_create_with calls it once per entity:
 * at k = 2 that call was 52 instructions of sparse's 379 an entity (callgrind, create,
 * N = 2^17), more than the floor's whole work. Here one pass asks only "is anything wrong"
 * (repeats found as bits seen twice in a 64-bit mask: O(k), no early exit), and only a list
 * that may be wrong goes to the full check for its precise status.
 */
#ifndef ECS_CHECKS_H
#define ECS_CHECKS_H

#include <stdbool.h>
#include <string.h>

#include "ecs.h"

/* A list whose shape is off (more types than ECS_CREATE_MAX_COMPONENTS, or types or values
 * missing): every entity_create_with sends it to its careful path for the precise status. */
static inline bool ecs_create_list_odd(const uint32_t *types, uint32_t count,
                                       const void *const *values)
{
	return count > ECS_CREATE_MAX_COMPONENTS || (count && (!types || !values));
}

/* One type of a one-pass entity_create_with: in range, a value given, not a repeat of the types
 * before it (`seen`: their bits mod 64, so that two types 64 apart look alike too: a false
 * repeat the careful path clears). Marks it seen; false where the one pass must stop. */
static inline bool ecs_create_type_new(uint32_t t, const void *value, uint32_t component_count,
                                       uint64_t *seen)
{
	uint64_t bit = 1ull << (t % 64);
	if (t >= component_count || !value || (*seen & bit))
		return false;
	*seen |= bit;
	return true;
}

/* The index a new entity will take, every backend's: the free list's first (free_head; `none`
 * when it is empty, then *fresh), else the next fresh one (*used: the indices ever handed out).
 * Nothing is taken: ecs_index_take does that once nothing can fail. */
static inline uint32_t ecs_index_peek(uint32_t free_head, uint32_t none, const uint32_t *used,
                                      bool *fresh)
{
	*fresh = free_head == none;
	return *fresh ? *used : free_head; /* used: read only where it is taken */
}

/* Takes the index ecs_index_peek gave: one more used, or off the free list (`next`: the link
 * of its first, which becomes the head). */
static inline void ecs_index_take(bool fresh, uint32_t *used, uint32_t *free_head,
                                  uint32_t *free_count, uint32_t next)
{
	if (fresh) {
		(*used)++;
	} else {
		*free_head = next;
		(*free_count)--;
	}
}

static inline int ecs_create_types_check_fast(const uint32_t *types, uint32_t count,
                                              const void *const *values,
                                              uint32_t component_count)
{
	if (ecs_create_list_odd(types, count, values))
		return ecs_create_types_check(types, count, values, component_count);
	/* A repeat shows as a bit seen twice; two types 64 apart look alike too, and are sent to
	 * the full check, which finds nothing wrong. */
	uint64_t seen = 0;
	bool wrong = false;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t t = types[i];
		uint64_t bit = 1ull << (t % 64);
		wrong |= (seen & bit) != 0;
		wrong |= !values[i];
		wrong |= t >= component_count;
		seen |= bit;
	}
	return __builtin_expect(wrong, 0) ? ecs_create_types_check(types, count, values, component_count)
	                                  : ECS_OK;
}

/* entity_create_with's opening, every backend's: the list checked, then the index the entity
 * will take: the free list's first (*free_head; `none` when it is empty), else the next fresh
 * one (*used, the indices ever handed out), ECS_ERR_FULL past ECS_MAX_ENTITIES. Nothing is
 * taken: the caller takes the index last, once nothing can fail. (Pointers: the storage is read
 * after the list's check, as the code this folds did.) */
static inline int ecs_create_with_open(const uint32_t *types, uint32_t count,
                                       const void *const *values, uint32_t component_count,
                                       const uint32_t *free_head, uint32_t none,
                                       const uint32_t *used, uint32_t *index)
{
	int rc = ecs_create_types_check_fast(types, count, values, component_count);
	if (rc != ECS_OK)
		return rc;
	bool fresh = *free_head == none;
	if (fresh && *used >= ECS_MAX_ENTITIES)
		return ECS_ERR_FULL;
	*index = fresh ? *used : *free_head;
	return ECS_OK;
}

/* entity_create_batch's opening, every backend's: the batch checked (ecs_create_batch_check),
 * then how many of its count come from the free list (*recycled: free_count at most) and how
 * many are fresh (*fresh), ECS_ERR_FULL when the fresh ones would pass ECS_MAX_ENTITIES above
 * `used` (the indices ever handed out). ECS_OK: go on; ECS_CREATE_BATCH_EMPTY: a count of 0,
 * nothing to make (the caller returns ECS_OK); else the error to return. Nothing is taken. */
#define ECS_CREATE_BATCH_EMPTY 1
static inline int ecs_create_batch_open(const uint32_t *types, uint32_t type_count,
                                        const struct ecs_values *values, uint32_t count,
                                        const ecs_entity *out, uint32_t component_count,
                                        uint32_t free_count, uint32_t used,
                                        uint32_t *recycled, uint32_t *fresh)
{
	int rc = ecs_create_batch_check(types, type_count, values, count, out, component_count);
	if (rc != ECS_OK)
		return rc;
	if (count == 0)
		return ECS_CREATE_BATCH_EMPTY;
	*recycled = free_count < count ? free_count : count;
	*fresh = count - *recycled;
	return *fresh > ECS_MAX_ENTITIES - used ? ECS_ERR_FULL : ECS_OK;
}

/* memcpy of a component value, with the common sizes known at compile time: a call to memcpy
 * for 8 bytes cost 12 instructions and a call (callgrind), the inline copy one load and one
 * store. Tests, not a switch: a jump table cost 7 instructions a copy. */
static inline void ecs_copy_value(void *dst, const void *src, uint32_t size)
{
	if (size == 8)
		__builtin_memcpy(dst, src, 8);
	else if (size == 4)
		__builtin_memcpy(dst, src, 4);
	else if (size == 16)
		__builtin_memcpy(dst, src, 16);
	else
		__builtin_memcpy(dst, src, size);
}

/*
 * component_get_batch's loop, one for every backend: the checks, then for each handle the
 * state its lookups share read once (`live`: its record; false where the handle is dead), each
 * type's value (`value`, for a type in range; false where the entity lacks it), the value
 * prefetched for the caller, who reads it next; a lookup that failed has its status from what
 * the loop already knows (dead, else the type out of range, else missing: ecs.h's order, and no
 * load again: a missing component is a common answer, not a rare one). A backend whose `value`
 * proves the handle alive with the load that finds the value (sparse.h: the entry holds the
 * owner's generation) reads nothing in `live` (true) and passes `dead`, asked only on a
 * failure, which then costs the liveness load the hit path no longer makes; the others pass
 * NULL. `ahead` prefetches what
 * the lookups of the handle `ahead_by` places on will read first, so that many handles' cache
 * misses overlap. The
 * functions are the backend's static inline ones: a constant pointer to each, so the compiler
 * inlines them here. Found or not is a bool beside the pointer, so that no pointer is tested
 * for NULL on the hit path.
 */
#ifndef ECS_GET_AHEAD
#define ECS_GET_AHEAD 8u /* handles: how far ahead a batch of lookups prefetches */
#endif
/* A lookup's status where it found nothing: dead (`gone`), else the type out of range, else
 * missing (component_get's order). */
static inline int ecs_get_failed(bool gone, uint32_t type, uint32_t component_count)
{
	return gone ? ECS_ERR_DEAD_ENTITY
	            : type >= component_count ? ECS_ERR_BAD_COMPONENT : ECS_ERR_NO_COMPONENT;
}

/* A failed lookup's result stored: out NULL, its status where asked, the first failure kept. */
static inline void ecs_get_fail(void **out, int *status, int failed, int *rc)
{
	*out = NULL;
	if (status)
		*status = failed;
	if (*rc == ECS_OK)
		*rc = failed;
}

typedef bool (*ecs_get_live_fn)(const ecs_storage *s, ecs_entity e, const void **state);
typedef bool (*ecs_get_value_fn)(const ecs_storage *s, const void *state, ecs_entity e,
                                 uint32_t type, void **value);
typedef void (*ecs_get_ahead_fn)(const ecs_storage *s, ecs_entity e, const uint32_t *types,
                                 uint32_t type_count);
typedef bool (*ecs_get_dead_fn)(const ecs_storage *s, ecs_entity e);

static inline __attribute__((always_inline)) int
ecs_get_batch_loop(const ecs_storage *s, const ecs_entity *entities, uint32_t count,
                   const uint32_t *types, uint32_t type_count, void **out, int *status,
                   uint32_t component_count, uint32_t ahead_by, ecs_get_ahead_fn ahead,
                   ecs_get_live_fn live, ecs_get_value_fn value, ecs_get_dead_fn dead)
{
	int rc = ecs_get_batch_check(s, entities, count, types, type_count, out);
	if (rc != ECS_OK)
		return rc;
	for (uint32_t j = 0, r = 0; j < count; j++) {
		if (j + ahead_by < count)
			ahead(s, entities[j + ahead_by], types, type_count);
		ecs_entity e = entities[j];
		const void *state;
		bool alive = live(s, e, &state);
		for (uint32_t i = 0; i < type_count; i++, r++) {
			uint32_t type = types[i];
			void *v;
			if (alive && type < component_count && value(s, state, e, type, &v)) {
				__builtin_prefetch(v);
				out[r] = v;
				if (status)
					status[r] = ECS_OK;
				continue;
			}
			int failed = ecs_get_failed(dead ? dead(s, e) : !alive, type, component_count);
			out[r] = NULL;
			if (status)
				status[r] = failed;
			if (rc == ECS_OK)
				rc = failed;
		}
	}
	return rc;
}

/*
 * entity_get, one for every backend (the backend checks s and reads its type count; the body
 * checks the rest of the arguments): the handle's state read once (`live`, as in the batch
 * above), then each type's value (`value`) stored as it is found. The hit path is that and
 * nothing else: no status built per type (status[] is filled after the loop, where asked), no
 * NULL test of a pointer (found or not is the bool), no record read where the entry proves the
 * handle (sparse: `live` reads nothing). At the first type not found the call goes on in
 * `rest`, the backend's out-of-line copy of ecs_entity_get_rest (below), reached by a jump with
 * entity_get's own arguments and nothing the hit path worked out: it looks every type up again
 * (the lines are cached by then) and works out each status. None of that is code the hit path
 * carries.
 */
typedef int (*ecs_entity_get_fn)(ecs_storage *s, ecs_entity e, const uint32_t *types,
                                 uint32_t count, void **out, int *status);

static inline __attribute__((always_inline)) int
ecs_entity_get_loop(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
                    void **out, int *status, uint32_t component_count, ecs_get_live_fn live,
                    ecs_get_value_fn value, ecs_entity_get_fn rest)
{
	const void *state;
	if (__builtin_expect(!live(s, e, &state), 0))
		return rest(s, e, types, count, out, status);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t type = types[i];
		void *v;
		if (__builtin_expect(type >= component_count || !value(s, state, e, type, &v), 0))
			return rest(s, e, types, count, out, status);
		out[i] = v;
	}
	if (status)
		for (uint32_t i = 0; i < count; i++)
			status[i] = ECS_OK;
	return ECS_OK;
}

/* The checks, then the loop: one to three types (get<A>, get<A, B>, get<A, B, C>) with the count
 * a constant, so that each is straight-line code with no counter, and fewer values held across
 * it (callgrind, get at N = 1024, k = 2, instructions an entity with the harness's loop: sparse
 * 124 -> 104, archetype 122 -> 109, vector 120 -> 109; data references 47 -> 41, 48 -> 46,
 * 50 -> 48). */
static inline __attribute__((always_inline)) int
ecs_entity_get_body(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
                    void **out, int *status, uint32_t component_count, ecs_get_live_fn live,
                    ecs_get_value_fn value, ecs_entity_get_fn rest)
{
	if (__builtin_expect(!types || !out, 0)) /* s: checked by the caller, which read its count */
		return ECS_ERR_INVALID;
	switch (count) {
	case 1:
		return ecs_entity_get_loop(s, e, types, 1, out, status, component_count, live, value,
		                           rest);
	case 2:
		return ecs_entity_get_loop(s, e, types, 2, out, status, component_count, live, value,
		                           rest);
	case 3:
		return ecs_entity_get_loop(s, e, types, 3, out, status, component_count, live, value,
		                           rest);
	default:
		if (count - 1u >= ECS_ENTITY_GET_MAX) /* 0 wraps to the top */
			return ECS_ERR_INVALID;
		return ecs_entity_get_loop(s, e, types, count, out, status, component_count, live,
		                           value, rest);
	}
}

/* The rest of entity_get where a type was not found: every type again, each status as
 * component_get's (dead, else the type out of range, else missing), out[i] NULL where it fails,
 * the first failure returned. `dead`: as in the batch loop above (NULL: `live` says it). */
static inline __attribute__((always_inline)) int
ecs_entity_get_rest(const ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
                    void **out, int *status, uint32_t component_count, ecs_get_live_fn live,
                    ecs_get_value_fn value, ecs_get_dead_fn dead)
{
	const void *state;
	bool alive = live(s, e, &state);
	bool gone = dead ? dead(s, e) : !alive;
	int rc = ECS_OK;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t type = types[i];
		void *v;
		if (!gone && type < component_count && value(s, state, e, type, &v)) {
			out[i] = v;
			if (status)
				status[i] = ECS_OK;
		} else {
			ecs_get_fail(&out[i], status ? &status[i] : NULL,
			             ecs_get_failed(gone, type, component_count), &rc);
		}
	}
	return rc;
}

/*
 * The get shells, written once: PREFIX_component_get_batch, PREFIX_entity_get and its
 * out-of-line rest (PREFIX_entity_get_rest), each the checks and one of the bodies above, made
 * from the backend's static inline lookups: `ahead` (the batch's read-ahead), `live`, `value`,
 * `batch_value` (`value` as the batch loop wants it; most pass `value`) and `dead` (NULL where
 * `live` proves the handle). A macro, so that each lookup is a
 * constant the compiler inlines, as it did when every backend wrote these out. component_get
 * stays each backend's own: made from one body it came out 2 instructions longer in vector's
 * and tree's get-one (make instr: the registers fell otherwise).
 */
#define ECS_GET_SHELLS(prefix, ahead, live, value, batch_value, dead)                              \
	static int prefix##_component_get_batch(ecs_storage *s, const ecs_entity *entities,        \
	                                        uint32_t count, const uint32_t *types,             \
	                                        uint32_t type_count, void **out, int *status)      \
	{                                                                                          \
		return ecs_get_batch_loop(s, entities, count, types, type_count, out, status,      \
		                          s ? s->component_count : 0, ECS_GET_AHEAD, ahead, live,  \
		                          batch_value, dead);                                      \
	}                                                                                          \
	static __attribute__((noinline, cold)) int prefix##_entity_get_rest(                      \
	    ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count, void **out,      \
	    int *status)                                                                           \
	{                                                                                          \
		return ecs_entity_get_rest(s, e, types, count, out, status, s->component_count,    \
		                           live, value, dead);                                     \
	}                                                                                          \
	static int prefix##_entity_get(ecs_storage *s, ecs_entity e, const uint32_t *types,        \
	                               uint32_t count, void **out, int *status)                    \
	{                                                                                          \
		if (__builtin_expect(!s, 0))                                                       \
			return ECS_ERR_INVALID;                                                    \
		return ecs_entity_get_body(s, e, types, count, out, status, s->component_count,    \
		                           live, value, prefix##_entity_get_rest);                 \
	}

/*
 * The entries written once. Every strategy (archetype.c, family.h, sparse.c) opens these ops
 * with the same checks of ecs.h's contract; a shell is that opening, then the strategy's body,
 * which may take its arguments as checked. A macro, expanded in the strategy's file, so that
 * each body is a static function of its own the compiler inlines or calls as before.
 *
 * ECS_ALLOC_SHELLS(prefix): prefix_malloc and prefix_free, through the storage's allocator
 * (prefix_free passes NULL over).
 */
#define ECS_ALLOC_SHELLS(prefix)                                                                   \
	static inline void *prefix##_malloc(ecs_storage *s, size_t size)                           \
	{                                                                                          \
		return s->alloc.malloc(s->alloc.ctx, size);                                        \
	}                                                                                          \
	static inline void prefix##_free(ecs_storage *s, void *p, size_t size)                     \
	{                                                                                          \
		if (p)                                                                             \
			s->alloc.free(s->alloc.ctx, p, size);                                      \
	}

/* Grows *p (an array of *cap elements of elem bytes) geometrically, from `first` elements, to
 * hold at least need (need <= limit), through the storage's allocator. On error *p and *cap are
 * unchanged. */
static inline int ecs_array_grow(const struct ecs_allocator *a, void **p, uint32_t *cap,
                                 uint32_t need, size_t elem, uint32_t first, uint32_t limit)
{
	if (need <= *cap)
		return ECS_OK;
	uint64_t new_cap = *cap ? (uint64_t)*cap * 2 : first;
	while (new_cap < need)
		new_cap *= 2;
	if (new_cap > limit)
		new_cap = limit;
	void *q = a->realloc(a->ctx, *p, (size_t)*cap * elem, (size_t)new_cap * elem);
	if (!q)
		return ECS_ERR_NO_MEMORY;
	*p = q;
	*cap = (uint32_t)new_cap;
	return ECS_OK;
}

/* ECS_CREATE_SHELL(prefix): prefix_create: the arguments and the configuration checked, the
 * storage allocated with the caller's allocator, zeroed and given it, then
 * prefix_setup(s, cfg) builds the rest; where that fails, prefix_destroy(s) frees what it
 * made (so a setup sets each count only once its array exists). */
#define ECS_CREATE_SHELL(prefix)                                                                   \
	static int prefix##_create(const struct ecs_config *cfg, const struct ecs_allocator *alloc, \
	                           ecs_storage **out)                                              \
	{                                                                                          \
		if (!out || !alloc || !alloc->malloc || !alloc->realloc || !alloc->free)           \
			return ECS_ERR_INVALID;                                                    \
		int rc = ecs_config_check(cfg);                                                    \
		if (rc != ECS_OK)                                                                  \
			return rc;                                                                 \
		ecs_storage *s = alloc->malloc(alloc->ctx, sizeof *s);                             \
		if (!s)                                                                            \
			return ECS_ERR_NO_MEMORY;                                                  \
		memset(s, 0, sizeof *s);                                                           \
		s->alloc = *alloc;                                                                 \
		if ((rc = prefix##_setup(s, cfg)) != ECS_OK) {                                     \
			prefix##_destroy(s);                                                       \
			return rc;                                                                 \
		}                                                                                  \
		*out = s;                                                                          \
		return ECS_OK;                                                                     \
	}

/* ECS_CHECK_SHELL(prefix): prefix_check, the checks every operation on one entity's component
 * starts with: a storage, a live handle (prefix_alive), a type in range. */
#define ECS_CHECK_SHELL(prefix)                                                                    \
	static inline int prefix##_check(const ecs_storage *s, ecs_entity e, uint32_t type)        \
	{                                                                                          \
		if (!s)                                                                            \
			return ECS_ERR_INVALID;                                                    \
		if (!prefix##_alive(s, e))                                                         \
			return ECS_ERR_DEAD_ENTITY;                                                \
		if (type >= s->component_count)                                                    \
			return ECS_ERR_BAD_COMPONENT;                                              \
		return ECS_OK;                                                                     \
	}

/* ECS_SYSTEM_SHELLS(prefix): system_register (the lists checked, room for one more system),
 * then prefix_system_register_body(s, types, count, excluded, excluded_count, out_id);
 * system_iter_begin and system_iter_split (a system that exists, a part of at most
 * ECS_SPLIT_MAX), then prefix_system_iter_begin_body(s, system, it) and
 * prefix_system_iter_split_body(s, system, part, parts, it). */
#define ECS_SYSTEM_SHELLS(prefix)                                                                  \
	static int prefix##_system_register(ecs_storage *s, const uint32_t *types, uint32_t count, \
	                                    const uint32_t *excluded, uint32_t excluded_count,     \
	                                    uint32_t *out_id)                                      \
	{                                                                                          \
		if (!s || !out_id)                                                                 \
			return ECS_ERR_INVALID;                                                    \
		int rc = ecs_system_types_check(types, count, excluded, excluded_count,            \
		                                s->component_count);                               \
		if (rc != ECS_OK)                                                                  \
			return rc;                                                                 \
		if (s->system_count >= s->system_max)                                              \
			return ECS_ERR_BAD_SYSTEM;                                                 \
		return prefix##_system_register_body(s, types, count, excluded, excluded_count,    \
		                                     out_id);                                      \
	}                                                                                          \
	static int prefix##_system_iter_begin(ecs_storage *s, uint32_t system, struct ecs_iter *it) \
	{                                                                                          \
		if (!s || !it)                                                                     \
			return ECS_ERR_INVALID;                                                    \
		if (system >= s->system_count)                                                     \
			return ECS_ERR_BAD_SYSTEM;                                                 \
		return prefix##_system_iter_begin_body(s, system, it);                             \
	}                                                                                          \
	static int prefix##_system_iter_split(ecs_storage *s, uint32_t system, uint32_t part,      \
	                                      uint32_t parts, struct ecs_iter *it)                 \
	{                                                                                          \
		if (!s || !it || parts == 0 || parts > ECS_SPLIT_MAX || part >= parts)             \
			return ECS_ERR_INVALID;                                                    \
		if (system >= s->system_count)                                                     \
			return ECS_ERR_BAD_SYSTEM;                                                 \
		return prefix##_system_iter_split_body(s, system, part, parts, it);                \
	}

/* ECS_CREATE_BATCH_SHELL(prefix, used): entity_create_batch's opening (ecs_create_batch_open:
 * the batch checked, ECS_ERR_FULL from the free list's length and s->used, the indices ever
 * handed out), nothing to do at a count of 0, then prefix_entity_create_batch_body(s, types,
 * type_count, values, count, out, recycled, fresh): how many come from the free list, how many
 * are fresh. */
#define ECS_CREATE_BATCH_SHELL(prefix, used)                                                       \
	static int prefix##_entity_create_batch(ecs_storage *s, const uint32_t *types,             \
	                                        uint32_t type_count,                               \
	                                        const struct ecs_values *values, uint32_t count,   \
	                                        ecs_entity *out)                                   \
	{                                                                                          \
		if (!s)                                                                            \
			return ECS_ERR_INVALID;                                                    \
		uint32_t recycled, fresh;                                                          \
		int rc = ecs_create_batch_open(types, type_count, values, count, out,              \
		                               s->component_count, s->free_count, s->used,         \
		                               &recycled, &fresh);                                 \
		if (rc != ECS_OK)                                                                  \
			return rc == ECS_CREATE_BATCH_EMPTY ? ECS_OK : rc;                         \
		return prefix##_entity_create_batch_body(s, types, type_count, values, count, out, \
		                                         recycled, fresh);                         \
	}

/* ECS_BATCH_SHELLS(prefix): component_add_batch and component_remove_batch, their pointers
 * checked, then prefix_batch_change(s, entities, count, type, values), values NULL for the
 * removal: the body checks the entities and the type (every backend's batch check differs). */
#define ECS_BATCH_SHELLS(prefix)                                                                   \
	static int prefix##_component_add_batch(ecs_storage *s, const ecs_entity *entities,        \
	                                        uint32_t count, uint32_t type,                     \
	                                        const struct ecs_values *values)                   \
	{                                                                                          \
		if (!s || (count && (!entities || !values || !values->data)))                      \
			return ECS_ERR_INVALID;                                                    \
		return prefix##_batch_change(s, entities, count, type, values);                    \
	}                                                                                          \
	static int prefix##_component_remove_batch(ecs_storage *s, const ecs_entity *entities,     \
	                                           uint32_t count, uint32_t type)                  \
	{                                                                                          \
		if (!s || (count && !entities))                                                    \
			return ECS_ERR_INVALID;                                                    \
		return prefix##_batch_change(s, entities, count, type, NULL);                      \
	}

#endif
