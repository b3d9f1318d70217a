/*
 * vector.c: seed 003's storage (part 2, "replacing unordered_map with vector"): the family
 * storage (family.h) with a flat array indexed by entity index as the index to slot, one per
 * component type and one per system. A lookup is one array read. Unlike seed 003's code, which
 * grows every component's and system's vector on every entity creation (and so blows up with
 * profile AAA's 512 types and 64 systems), an array is grown only when a key beyond its end is
 * inserted, geometrically: component types and systems that no entity uses cost nothing, and one
 * that is used costs 4 bytes per entity index up to the highest one it has seen.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ecs.h"

struct family_index {
	uint32_t *slots; /* FAMILY_NOT_FOUND where absent */
	uint32_t cap;
};

#define FAMILY_NAME vector
#define FAMILY_DESCRIPTION "packed arrays + flat array index entity->slot (seed 003)"
#include "family.h"

static inline void index_init(struct family_index *m)
{
	m->slots = NULL;
	m->cap = 0;
}

static inline bool index_find(const struct family_index *m, uint32_t key, uint32_t *val)
{
	if (key >= m->cap || m->slots[key] == FAMILY_NOT_FOUND)
		return false;
	*val = m->slots[key];
	return true;
}

static inline int index_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	if (key >= m->cap) {
		uint32_t old = m->cap;
		int rc = family_grow(s, (void **)&m->slots, &m->cap, key + 1, sizeof *m->slots);
		if (rc != ECS_OK)
			return rc;
		memset(m->slots + old, 0xff, (size_t)(m->cap - old) * sizeof *m->slots);
	}
	m->slots[key] = val;
	return ECS_OK;
}

static inline void index_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	m->slots[key] = val;
}

static inline void index_erase(ecs_storage *s, struct family_index *m, uint32_t key)
{
	(void)s;
	m->slots[key] = FAMILY_NOT_FOUND;
}

static inline void index_release(ecs_storage *s, struct family_index *m)
{
	family_free(s, m->slots, (size_t)m->cap * sizeof *m->slots);
	index_init(m);
}
