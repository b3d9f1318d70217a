/*
 * vector.c: the storage of Vigier's part 2 ("replacing unordered_map with vector"): the family
 * storage (family.h) with a flat array indexed by entity index as the index to slot, one per
 * component type and one per system. A lookup is one array read. Unlike that post's code, which
 * grows every component's and system's vector on every entity creation (and so blows up with
 * profile AAA's 512 types and 64 systems), an array is grown only when a key beyond its end is
 * inserted, geometrically: component types and systems that no entity uses cost nothing, and one
 * that is used costs 4 bytes per entity index up to the highest one it has seen.
 *
 * Absent keys are not marked: the family never looks one up (the entity's bitset says whether
 * it has a component, and so whether a system manages it), so a grown array is not filled, and
 * its new pages are first touched by the entities that use them.
 *
 * Fast paths of the index (the family's own are listed in family.h; lived-in as there: holes
 * and recycled indices, kinds interleaved, components removed and added back in no order):
 *   consecutive check family_hook_get_batch tests four slots to a branch and stores nothing but the
 *                     first while the batch's slots are consecutive. Fires where a pool holds
 *                     the batch's entities at consecutive slots. Lived-in: no (slots in no
 *                     order: the first group of four out of step leaves the loop, and its slots
 *                     are read a second time).
 *   erase             family_hook_take reads the slot and erases nothing (an absent key is never
 *                     looked up): always, not a condition on history.
 *   read-ahead        vector_prefetch: a batched lookup (family.h, family_get_ahead) prefetches
 *                     each type's slot with the handle's generation and bitset, ECS_GET_AHEAD
 *                     handles on. Always, in a batch.
 *
 * A checked lookup (N = 2^20, k = 2: 6 misses an entity): the generation (ours: the handle's
 * check) and the bitset (the family's: the index cannot say a key is absent) once an entity,
 * then the slot and the value a component (the strategy's two dependent loads). A batch has all
 * but the values prefetched ahead, so that none of them waits on another. entity_get reads the
 * generation and the bitset once for its types (the two loads side by side, neither waiting on
 * the other), then each type's slot, whose address is the handle's and needs no load before
 * it: the longest chain is two misses (slot, value), as sparse's (entry, value).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../ecs.h"

struct family_index {
	uint32_t *slots; /* meaningful where the key is present */
	uint32_t cap;
};

#define FAMILY_NAME vector
#define FAMILY_DESCRIPTION "packed arrays + flat array index entity->slot (Vigier's part 2, vector)"
#define family_hook_prefetch vector_prefetch /* the one hook with a default that vector changes */
#include "family.h"

static inline void family_hook_init(struct family_index *m)
{
	m->slots = NULL;
	m->cap = 0;
}

static inline uint32_t family_hook_get(const struct family_index *m, uint32_t key)
{
	return m->slots[key];
}

/* The common case, consecutive slots, stores nothing but values[0] (see family.h), and is
 * checked four entities to a branch (N = 2^20: 1.38 -> 1.11 ns an entity); where a group of
 * four is out of step its four slots are read again, one at a time. */
static inline bool family_hook_get_batch(const struct family_index *m, const ecs_entity *entities,
                                   uint32_t n, uint32_t *values)
{
	const uint32_t *slots = m->slots;
	uint32_t first = slots[ecs_entity_index(entities[0])], i = 1, v = first;
	values[0] = first;
	/* Four at a time, one branch for the four. */
	for (; i + 4 <= n; i += 4) {
		uint32_t apart = (slots[ecs_entity_index(entities[i])] ^ (first + i)) |
		                 (slots[ecs_entity_index(entities[i + 1])] ^ (first + i + 1)) |
		                 (slots[ecs_entity_index(entities[i + 2])] ^ (first + i + 2)) |
		                 (slots[ecs_entity_index(entities[i + 3])] ^ (first + i + 3));
		if (apart)
			break;
	}
	for (; i < n; i++) {
		v = slots[ecs_entity_index(entities[i])];
		if (v != first + i)
			break;
	}
	if (i == n)
		return true;
	for (uint32_t j = 1; j < i; j++)
		values[j] = first + j;
	values[i] = v;
	for (i++; i < n; i++)
		values[i] = slots[ecs_entity_index(entities[i])];
	return false;
}

static inline int family_hook_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	int rc = family_grow(s, (void **)&m->slots, &m->cap, key + 1, sizeof *m->slots);
	if (rc != ECS_OK)
		return rc;
	m->slots[key] = val;
	return ECS_OK;
}

static inline void family_hook_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	m->slots[key] = val;
}

static inline uint32_t family_hook_take(ecs_storage *s, struct family_index *m, uint32_t key)
{
	(void)s;
	return m->slots[key];
}

/* The slot's address is the key's: a batch's lookups have their slot misses prefetched with the
 * generation's and the bitset's instead of waiting on them. */
static inline void vector_prefetch(const struct family_index *m, uint32_t key)
{
	if (key < m->cap)
		__builtin_prefetch(&m->slots[key]);
}

static inline void family_hook_release(ecs_storage *s, struct family_index *m)
{
	family_free(s, m->slots, (size_t)m->cap * sizeof *m->slots);
	family_hook_init(m);
}
