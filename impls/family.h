/*
 * family.h: the storage of seeds 000 and 003, written once; hash.c, tree.c and vector.c each
 * include it after defining the one thing that differs between them, the index from an entity
 * index to a position (`struct family_index` and the index_* functions declared below). The
 * index is a compile-time parameter: every lookup is a direct (inlinable) call, so what the
 * benchmark shows between the three is the index and nothing else.
 *
 * What it stores:
 *   - per entity index: the generation (with an "alive" bit) and a bitset of the component types
 *     the entity owns, as wide as the profile (component_count bits);
 *   - per component type: a packed array of values and a packed array of their owners, plus an
 *     index entity -> slot; remove swaps the last value into the hole (seed 000's
 *     ComponentContainer);
 *   - per system: its requirement bitset, a packed array of the entities it matches and an index
 *     entity -> position in that array (seed 000's System).
 *
 * Costs (C = component types in the profile, W = C / 64 bitset words, S = registered systems,
 * L = one index lookup: O(1) for vector, expected O(1) for hash, O(log n) for tree):
 *   entity_create   O(1) amortised (free-list pop)
 *   entity_destroy  O(k L) for its k components + O(S (W + L)): every system is asked
 *   component_add   O(L) + O(S (W + L)): every system re-checks the entity (seed 000)
 *   component_remove the same
 *   component_get   O(L), component_has O(1)
 *   iteration       O(L) per required component per entity, through the system's packed list
 */
#ifndef FAMILY_H
#define FAMILY_H

#include <stdlib.h>
#include <string.h>

#include "ecs.h"

#ifndef FAMILY_NAME
#error "define FAMILY_NAME (the backend's name) before including family.h"
#endif

#define FAMILY_NOT_FOUND UINT32_MAX
#define FAMILY_ALIVE 0x80000000u /* in entity_gen[], above the generation bits */

struct family_pool {
	uint32_t size;   /* bytes per value */
	uint32_t count;  /* values stored */
	uint32_t values_cap, owners_cap;
	unsigned char *values;
	ecs_entity *owners;
	struct family_index index; /* entity index -> slot */
};

struct family_system {
	uint32_t type_count;
	uint32_t types[ECS_SYSTEM_MAX_COMPONENTS];
	uint64_t *require; /* bitset, words wide */
	uint32_t count, cap;
	ecs_entity *entities;      /* the entities it matches, packed */
	struct family_index index; /* entity index -> position in entities */
};

struct ecs_storage {
	struct ecs_allocator alloc;
	uint32_t component_count, words;
	uint32_t system_max, system_count;
	struct family_pool *pools;
	struct family_system *systems;
	uint32_t entity_used; /* indices ever handed out */
	uint32_t entity_cap;  /* capacity of the three arrays below */
	uint32_t *entity_gen; /* generation | FAMILY_ALIVE */
	uint64_t *entity_bits; /* entity_cap * words */
	uint32_t *free_indices; /* stack of dead indices */
	uint32_t free_count;
};

/* The index, supplied by the backend (defined after the include). */
static inline void index_init(struct family_index *m);
/* Finds key; on success stores its value in *val. */
static inline bool index_find(const struct family_index *m, uint32_t key, uint32_t *val);
/* Inserts a key that is absent; ECS_OK or ECS_ERR_NO_MEMORY (the index is then unchanged). */
static inline int index_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val);
/* Changes the value of a key that is present. */
static inline void index_assign(struct family_index *m, uint32_t key, uint32_t val);
/* Erases a key that is present; never allocates. */
static inline void index_erase(ecs_storage *s, struct family_index *m, uint32_t key);
/* Frees everything the index holds. */
static inline void index_release(ecs_storage *s, struct family_index *m);

/* Allocation, always through the storage's allocator. */
static inline void *family_malloc(ecs_storage *s, size_t size)
{
	return s->alloc.malloc(s->alloc.ctx, size);
}

static inline void family_free(ecs_storage *s, void *p, size_t size)
{
	if (p)
		s->alloc.free(s->alloc.ctx, p, size);
}

/* Grows *p (an array of *cap elements of elem bytes) geometrically to hold at least need. */
static int family_grow(ecs_storage *s, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return ECS_OK;
	uint64_t new_cap = *cap ? *cap : 16;
	while (new_cap < need)
		new_cap *= 2;
	if (new_cap > UINT32_MAX)
		new_cap = UINT32_MAX;
	void *q = s->alloc.realloc(s->alloc.ctx, *p, (size_t)*cap * elem, (size_t)new_cap * elem);
	if (!q)
		return ECS_ERR_NO_MEMORY;
	*p = q;
	*cap = (uint32_t)new_cap;
	return ECS_OK;
}

static inline bool family_alive(const ecs_storage *s, ecs_entity e)
{
	uint32_t i = ecs_entity_index(e);
	return i < s->entity_used && s->entity_gen[i] == (ecs_entity_generation(e) | FAMILY_ALIVE);
}

static inline uint64_t *family_bits(const ecs_storage *s, uint32_t index)
{
	return s->entity_bits + (size_t)index * s->words;
}

static inline bool bit_test(const uint64_t *bits, uint32_t t)
{
	return bits[t / 64] >> (t % 64) & 1;
}

static inline bool family_satisfies(const ecs_storage *s, const uint64_t *require,
                                    const uint64_t *bits)
{
	for (uint32_t w = 0; w < s->words; w++)
		if (require[w] & ~bits[w])
			return false;
	return true;
}

/* --- component pools ------------------------------------------------------------------ */

/* Appends a value; on error nothing changed but capacity. */
static int pool_push(ecs_storage *s, struct family_pool *p, ecs_entity e, const void *value)
{
	int rc = family_grow(s, (void **)&p->values, &p->values_cap, p->count + 1, p->size);
	if (rc == ECS_OK)
		rc = family_grow(s, (void **)&p->owners, &p->owners_cap, p->count + 1,
		                 sizeof *p->owners);
	if (rc == ECS_OK)
		rc = index_insert(s, &p->index, ecs_entity_index(e), p->count);
	if (rc != ECS_OK)
		return rc;
	memcpy(p->values + (size_t)p->count * p->size, value, p->size);
	p->owners[p->count++] = e;
	return ECS_OK;
}

/* Swap-removes the value of an entity that has one. */
static void pool_remove(ecs_storage *s, struct family_pool *p, uint32_t index)
{
	uint32_t slot = 0, last = p->count - 1;
	bool found = index_find(&p->index, index, &slot);
	(void)found; /* the bitset said the entity has it: an invariant, checked by the tests */
	if (slot != last) {
		memcpy(p->values + (size_t)slot * p->size, p->values + (size_t)last * p->size,
		       p->size);
		p->owners[slot] = p->owners[last];
		index_assign(&p->index, ecs_entity_index(p->owners[slot]), slot);
	}
	index_erase(s, &p->index, index);
	p->count = last;
}

static void pool_release(ecs_storage *s, struct family_pool *p)
{
	family_free(s, p->values, (size_t)p->values_cap * p->size);
	family_free(s, p->owners, (size_t)p->owners_cap * sizeof *p->owners);
	index_release(s, &p->index);
}

/* --- systems -------------------------------------------------------------------------- */

static int system_add_entity(ecs_storage *s, struct family_system *y, ecs_entity e)
{
	int rc = family_grow(s, (void **)&y->entities, &y->cap, y->count + 1, sizeof *y->entities);
	if (rc == ECS_OK)
		rc = index_insert(s, &y->index, ecs_entity_index(e), y->count);
	if (rc != ECS_OK)
		return rc;
	y->entities[y->count++] = e;
	return ECS_OK;
}

static void system_remove_entity(ecs_storage *s, struct family_system *y, uint32_t index,
                                 uint32_t pos)
{
	uint32_t last = y->count - 1;
	if (pos != last) {
		y->entities[pos] = y->entities[last];
		index_assign(&y->index, ecs_entity_index(y->entities[pos]), pos);
	}
	index_erase(s, &y->index, index);
	y->count = last;
}

static void system_release(ecs_storage *s, struct family_system *y)
{
	family_free(s, y->require, (size_t)s->words * sizeof *y->require);
	family_free(s, y->entities, (size_t)y->cap * sizeof *y->entities);
	index_release(s, &y->index);
}

/*
 * Seed 000's onEntityUpdated, for every system: the entity joins the systems it now satisfies
 * and leaves those it no longer does. Adding can only make systems match and removing can only
 * make them stop matching, so only a join can fail (out of memory); the caller undoes the joins
 * of systems below *failed_at.
 */
static int systems_update(ecs_storage *s, ecs_entity e, uint32_t *failed_at)
{
	uint32_t index = ecs_entity_index(e);
	const uint64_t *bits = family_bits(s, index);
	for (uint32_t i = 0; i < s->system_count; i++) {
		struct family_system *y = &s->systems[i];
		bool satisfied = family_satisfies(s, y->require, bits);
		uint32_t pos;
		bool managed = index_find(&y->index, index, &pos);
		if (satisfied && !managed) {
			int rc = system_add_entity(s, y, e);
			if (rc != ECS_OK) {
				*failed_at = i;
				return rc;
			}
		} else if (!satisfied && managed) {
			system_remove_entity(s, y, index, pos);
		}
	}
	return ECS_OK;
}

/* --- the ops -------------------------------------------------------------------------- */

static void family_destroy(ecs_storage *s)
{
	if (!s)
		return;
	for (uint32_t t = 0; t < s->component_count; t++)
		pool_release(s, &s->pools[t]);
	for (uint32_t i = 0; i < s->system_count; i++)
		system_release(s, &s->systems[i]);
	family_free(s, s->pools, (size_t)s->component_count * sizeof *s->pools);
	family_free(s, s->systems, (size_t)s->system_max * sizeof *s->systems);
	family_free(s, s->entity_gen, (size_t)s->entity_cap * sizeof *s->entity_gen);
	family_free(s, s->entity_bits, (size_t)s->entity_cap * s->words * sizeof *s->entity_bits);
	family_free(s, s->free_indices, (size_t)s->entity_cap * sizeof *s->free_indices);
	struct ecs_allocator alloc = s->alloc;
	alloc.free(alloc.ctx, s, sizeof *s);
}

static int family_create(const struct ecs_config *cfg, const struct ecs_allocator *alloc,
                         ecs_storage **out)
{
	if (!out || !alloc || !alloc->malloc || !alloc->realloc || !alloc->free)
		return ECS_ERR_INVALID;
	int rc = ecs_config_check(cfg);
	if (rc != ECS_OK)
		return rc;
	ecs_storage *s = alloc->malloc(alloc->ctx, sizeof *s);
	if (!s)
		return ECS_ERR_NO_MEMORY;
	memset(s, 0, sizeof *s);
	s->alloc = *alloc;
	s->words = (cfg->component_count + 63) / 64;
	s->system_max = cfg->system_count;
	s->pools = family_malloc(s, (size_t)cfg->component_count * sizeof *s->pools);
	s->systems = family_malloc(s, (size_t)cfg->system_count * sizeof *s->systems);
	if (!s->pools || !s->systems) {
		family_free(s, s->pools, (size_t)cfg->component_count * sizeof *s->pools);
		s->pools = NULL;
		s->component_count = 0;
		family_destroy(s);
		return ECS_ERR_NO_MEMORY;
	}
	s->component_count = cfg->component_count;
	memset(s->pools, 0, (size_t)s->component_count * sizeof *s->pools);
	for (uint32_t t = 0; t < s->component_count; t++) {
		s->pools[t].size = cfg->component_sizes[t];
		index_init(&s->pools[t].index);
	}
	*out = s;
	return ECS_OK;
}

/* Grows the three per-entity arrays together to hold at least need indices. */
static int entities_grow(ecs_storage *s, uint32_t need)
{
	if (need <= s->entity_cap)
		return ECS_OK;
	uint64_t cap = s->entity_cap ? s->entity_cap : 64;
	while (cap < need)
		cap *= 2;
	if (cap > ECS_MAX_ENTITIES)
		cap = ECS_MAX_ENTITIES;
	size_t wbytes = (size_t)s->words * sizeof *s->entity_bits;
	uint32_t *gen = family_malloc(s, cap * sizeof *gen);
	uint64_t *bits = family_malloc(s, cap * wbytes);
	uint32_t *free_indices = family_malloc(s, cap * sizeof *free_indices);
	if (!gen || !bits || !free_indices) {
		family_free(s, gen, cap * sizeof *gen);
		family_free(s, bits, cap * wbytes);
		family_free(s, free_indices, cap * sizeof *free_indices);
		return ECS_ERR_NO_MEMORY;
	}
	if (s->entity_cap) {
		memcpy(gen, s->entity_gen, (size_t)s->entity_used * sizeof *gen);
		memcpy(bits, s->entity_bits, (size_t)s->entity_used * wbytes);
		memcpy(free_indices, s->free_indices, (size_t)s->free_count * sizeof *free_indices);
	}
	memset(bits + (size_t)s->entity_used * s->words, 0, (cap - s->entity_used) * wbytes);
	family_free(s, s->entity_gen, (size_t)s->entity_cap * sizeof *gen);
	family_free(s, s->entity_bits, (size_t)s->entity_cap * wbytes);
	family_free(s, s->free_indices, (size_t)s->entity_cap * sizeof *free_indices);
	s->entity_gen = gen;
	s->entity_bits = bits;
	s->free_indices = free_indices;
	s->entity_cap = (uint32_t)cap;
	return ECS_OK;
}

static int family_reserve(ecs_storage *s, uint32_t entities)
{
	if (!s)
		return ECS_ERR_INVALID;
	return entities_grow(s, entities < ECS_MAX_ENTITIES ? entities : ECS_MAX_ENTITIES);
}

static int family_entity_create(ecs_storage *s, ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	uint32_t index;
	if (s->free_count) {
		index = s->free_indices[--s->free_count];
	} else {
		if (s->entity_used >= ECS_MAX_ENTITIES)
			return ECS_ERR_FULL;
		int rc = entities_grow(s, s->entity_used + 1);
		if (rc != ECS_OK)
			return rc;
		index = s->entity_used++;
		s->entity_gen[index] = 0;
	}
	s->entity_gen[index] |= FAMILY_ALIVE;
	*out = ecs_entity_make(index, s->entity_gen[index] & ECS_GENERATION_MASK);
	return ECS_OK;
}

static bool family_entity_alive(const ecs_storage *s, ecs_entity e)
{
	return s && family_alive(s, e);
}

static int family_entity_destroy(ecs_storage *s, ecs_entity e)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (!family_alive(s, e))
		return ECS_ERR_DEAD_ENTITY;
	uint32_t index = ecs_entity_index(e);
	uint64_t *bits = family_bits(s, index);
	/* Only the components the bitset names. */
	for (uint32_t w = 0; w < s->words; w++) {
		for (uint64_t word = bits[w]; word; word &= word - 1)
			pool_remove(s, &s->pools[w * 64 + (uint32_t)__builtin_ctzll(word)], index);
		bits[w] = 0;
	}
	/* Seed 000's onEntityRemoved: every system is asked whether it manages the entity. */
	for (uint32_t i = 0; i < s->system_count; i++) {
		uint32_t pos;
		if (index_find(&s->systems[i].index, index, &pos))
			system_remove_entity(s, &s->systems[i], index, pos);
	}
	s->entity_gen[index] = (s->entity_gen[index] + 1) & ECS_GENERATION_MASK;
	s->free_indices[s->free_count++] = index;
	return ECS_OK;
}

/* The checks every component operation starts with. */
static inline int family_check(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (!family_alive(s, e))
		return ECS_ERR_DEAD_ENTITY;
	if (type >= s->component_count)
		return ECS_ERR_BAD_COMPONENT;
	return ECS_OK;
}

static int family_component_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	if (!value)
		return ECS_ERR_INVALID;
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	uint32_t index = ecs_entity_index(e);
	uint64_t *bits = family_bits(s, index);
	if (bit_test(bits, type))
		return ECS_ERR_HAS_COMPONENT;
	struct family_pool *p = &s->pools[type];
	rc = pool_push(s, p, e, value);
	if (rc != ECS_OK)
		return rc;
	bits[type / 64] |= 1ull << (type % 64);
	uint32_t failed_at = 0;
	rc = systems_update(s, e, &failed_at);
	if (rc != ECS_OK) {
		/* Undo: the systems below failed_at that the new component made match. */
		for (uint32_t i = 0; i < failed_at; i++) {
			struct family_system *y = &s->systems[i];
			uint32_t pos;
			if (bit_test(y->require, type) && index_find(&y->index, index, &pos))
				system_remove_entity(s, y, index, pos);
		}
		bits[type / 64] &= ~(1ull << (type % 64));
		pool_remove(s, p, index);
	}
	return rc;
}

static int family_component_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	uint32_t index = ecs_entity_index(e);
	uint64_t *bits = family_bits(s, index);
	if (!bit_test(bits, type))
		return ECS_ERR_NO_COMPONENT;
	bits[type / 64] &= ~(1ull << (type % 64));
	pool_remove(s, &s->pools[type], index);
	uint32_t unused;
	return systems_update(s, e, &unused); /* only leaves: cannot fail */
}

static int family_component_get(ecs_storage *s, ecs_entity e, uint32_t type, void **out)
{
	if (!out)
		return ECS_ERR_INVALID;
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	uint32_t index = ecs_entity_index(e), slot;
	if (!bit_test(family_bits(s, index), type) || !index_find(&s->pools[type].index, index, &slot))
		return ECS_ERR_NO_COMPONENT;
	*out = s->pools[type].values + (size_t)slot * s->pools[type].size;
	return ECS_OK;
}

static int family_component_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	return bit_test(family_bits(s, ecs_entity_index(e)), type);
}

static int family_system_register(ecs_storage *s, const uint32_t *types, uint32_t count,
                                  uint32_t *out_id)
{
	if (!s || !out_id)
		return ECS_ERR_INVALID;
	int rc = ecs_system_types_check(types, count, s->component_count);
	if (rc != ECS_OK)
		return rc;
	if (s->system_count >= s->system_max)
		return ECS_ERR_BAD_SYSTEM;
	struct family_system *y = &s->systems[s->system_count];
	memset(y, 0, sizeof *y);
	index_init(&y->index);
	y->require = family_malloc(s, (size_t)s->words * sizeof *y->require);
	if (!y->require)
		return ECS_ERR_NO_MEMORY;
	memset(y->require, 0, (size_t)s->words * sizeof *y->require);
	y->type_count = count;
	for (uint32_t c = 0; c < count; c++) {
		y->types[c] = types[c];
		y->require[types[c] / 64] |= 1ull << (types[c] % 64);
	}
	/* Entities that match already. */
	for (uint32_t index = 0; index < s->entity_used; index++) {
		if (!(s->entity_gen[index] & FAMILY_ALIVE) ||
		    !family_satisfies(s, y->require, family_bits(s, index)))
			continue;
		rc = system_add_entity(s, y, ecs_entity_make(index, s->entity_gen[index]));
		if (rc != ECS_OK) {
			system_release(s, y);
			return rc;
		}
	}
	*out_id = s->system_count++;
	return ECS_OK;
}

static int family_system_iter_begin(ecs_storage *s, uint32_t system, struct ecs_iter *it)
{
	if (!s || !it)
		return ECS_ERR_INVALID;
	if (system >= s->system_count)
		return ECS_ERR_BAD_SYSTEM;
	it->storage = s;
	it->state[0] = system;
	it->state[1] = 0; /* position in the system's entity list */
	return ECS_OK;
}

static bool family_system_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	ecs_storage *s = it->storage;
	const struct family_system *y = &s->systems[it->state[0]];
	uint32_t pos = (uint32_t)it->state[1];
	uint32_t n = y->count - pos < ECS_BATCH_MAX ? y->count - pos : ECS_BATCH_MAX;
	b->count = n;
	if (n == 0)
		return false;
	const ecs_entity *entities = y->entities + pos;
	b->entities = entities;
	/* Seed 000's getComponents: one index lookup per component per entity. */
	for (uint32_t c = 0; c < y->type_count; c++) {
		const struct family_pool *p = &s->pools[y->types[c]];
		void **ptrs = it->pointers[c];
		for (uint32_t i = 0; i < n; i++) {
			uint32_t slot = 0;
			index_find(&p->index, ecs_entity_index(entities[i]), &slot);
			ptrs[i] = p->values + (size_t)slot * p->size;
		}
		b->columns[c] = NULL;
		b->pointers[c] = ptrs;
	}
	it->state[1] = pos + n;
	return true;
}

#define FAMILY_CAT2(a, b) a##b
#define FAMILY_CAT(a, b) FAMILY_CAT2(a, b)
#define FAMILY_STR2(a) #a
#define FAMILY_STR(a) FAMILY_STR2(a)

const struct ecs_ops FAMILY_CAT(ecs_backend_, FAMILY_NAME) = {
	.version = ECS_INTERFACE_VERSION,
	.name = FAMILY_STR(FAMILY_NAME),
	.description = FAMILY_DESCRIPTION,
	.create = family_create,
	.destroy = family_destroy,
	.reserve = family_reserve,
	.entity_create = family_entity_create,
	.entity_destroy = family_entity_destroy,
	.entity_alive = family_entity_alive,
	.component_add = family_component_add,
	.component_remove = family_component_remove,
	.component_get = family_component_get,
	.component_has = family_component_has,
	.system_register = family_system_register,
	.system_iter_begin = family_system_iter_begin,
	.system_iter_next = family_system_iter_next,
};

#endif
