/*
 * family_data.h: the family storage's data (impls/family/family.h has its code and says what
 * it stores, its costs and its fast paths): the entities' generations and bitsets, the pools,
 * the systems, the index a backend supplies (its hooks), and the helpers every part uses.
 */
#ifndef FAMILY_DATA_H
#define FAMILY_DATA_H


#include <stdlib.h>
#include <string.h>

#include "../checks.h"
#include "../ecs.h"

#ifndef FAMILY_NAME
#error "define FAMILY_NAME (the backend's name) before including family.h"
#endif

/*
 * Bitset words are 32 bits, so that profile A's 32 types cost 4 bytes an entity (64-bit words
 * would spend 8, a sixth of vector's footprint at k = 2). Wider profiles only read the words a
 * requirement uses (family_satisfies) and one entity's on destroy. No free stack: see
 * entity_bits.
 */
typedef uint32_t family_word;
#define FAMILY_WORD_BITS 32u

#define FAMILY_ALIVE 0x8000u  /* in entity_gen[], above the 10 generation bits */
#define FAMILY_NO_FREE UINT32_MAX

struct family_pool {
	uint32_t size;   /* bytes per value */
	uint32_t count;  /* values stored */
	uint32_t values_cap, owners_cap;
	unsigned char *values;
	ecs_entity *owners;
	struct family_index index; /* entity index -> slot */
	/* Vigier's part 2, "event management optimization": the systems that require this type and those
	 * that exclude it, the only ones an add or remove of it can make an entity join or leave. */
	uint16_t *systems;
	uint32_t system_count, system_cap;
	uint16_t *excluders;
	uint32_t excluder_count, excluder_cap;
};

struct family_system {
	uint32_t type_count;
	uint32_t types[ECS_SYSTEM_MAX_COMPONENTS];
	/*
	 * The requirement and exclusion bitsets, as the words they touch: at profile AAA a check
	 * reads the one or two words a system needs instead of all 16. An entity matches when
	 * (bits[word_index[k]] & word_mask[k]) == word_want[k] for every k: word_mask holds the
	 * required and the excluded bits of the word, word_want the required ones: one test a word
	 * for both (docs/performance.md: a second loop for the excluded words cost more).
	 */
	uint32_t word_count;
	uint32_t word_index[ECS_SYSTEM_MAX_COMPONENTS + ECS_SYSTEM_MAX_EXCLUDED];
	family_word word_mask[ECS_SYSTEM_MAX_COMPONENTS + ECS_SYSTEM_MAX_EXCLUDED];
	family_word word_want[ECS_SYSTEM_MAX_COMPONENTS + ECS_SYSTEM_MAX_EXCLUDED];
	uint32_t excluded_count;
	uint32_t excluded[ECS_SYSTEM_MAX_EXCLUDED];
	uint32_t anchor; /* its lowest required type: entity_destroy visits it from that type's list */
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
	uint32_t entity_used;  /* indices ever handed out */
	uint32_t gen_cap, bits_cap;
	uint16_t *entity_gen;  /* generation | FAMILY_ALIVE: 11 bits used, so 2 bytes, not 4 */
	/* entity_used rows of `words` words. A dead index's row is all zero but its word 0, which
	 * links it to the next dead index (a free list through memory that is there anyway: no
	 * separate stack of 4 bytes per index). */
	family_word *entity_bits;
	uint32_t free_head;    /* the most recently freed index, or FAMILY_NO_FREE */
	uint32_t free_count;   /* indices on the free list: a batch's ECS_ERR_FULL without a walk */
};

/*
 * The index, supplied by the backend (defined after the include): hooks with no default but
 * the read-ahead's, since the index is what tells the three backends apart. Keys are entity indices.
 * The family knows from the bitset (pools) or the invariant (systems) whether a key is present,
 * so it never asks for one that is absent.
 */
static inline void family_hook_init(struct family_index *m);
/* The value of a key that is present. */
static inline uint32_t family_hook_get(const struct family_index *m, uint32_t key);
/* family_hook_get for the indices of n entities (1..ECS_BATCH_MAX), all present: what iteration
 * asks, so that an index may overlap the lookups' latencies. Returns whether the values are
 * consecutive (values[0] + i for the i-th), found in the same pass; values[] is then only
 * required to hold values[0], else it holds all n. */
static inline bool family_hook_get_batch(const struct family_index *m, const ecs_entity *entities,
                                   uint32_t n, uint32_t *values);
/* Inserts a key that is absent; ECS_OK or ECS_ERR_NO_MEMORY (the index is then unchanged). */
static inline int family_hook_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val);
/* Changes the value of a key that is present. */
static inline void family_hook_assign(struct family_index *m, uint32_t key, uint32_t val);
/* Erases a key that is present and returns its value (one lookup, not two); never allocates. */
static inline uint32_t family_hook_take(ecs_storage *s, struct family_index *m, uint32_t key);
/* Frees everything the index holds. */
static inline void family_hook_release(ecs_storage *s, struct family_index *m);
/* A batched lookup's read-ahead: prefetches what family_hook_get(m, key) reads first, where that
 * address is known without a load (vector: the slot). The key may be absent: it reads nothing
 * and never faults. By default nothing (hash, tree: the address needs a load); a backend
 * replaces it by naming its function before the include (`#define family_hook_prefetch
 * vector_prefetch`), as sparse's and archetype's variants replace their hooks. */
#ifdef family_hook_prefetch
static inline void family_hook_prefetch(const struct family_index *m, uint32_t key);
#else
#define family_hook_prefetch(m, key) ((void)(m), (void)(key))
#endif

/* Allocation, always through the storage's allocator. */
ECS_ALLOC_SHELLS(family)

/* The slow path of family_grow, out of line so that the common "fits" test stays small. */
static __attribute__((noinline)) int family_grow_slow(ecs_storage *s, void **p, uint32_t *cap,
                                                      uint32_t need, size_t elem)
{
	return ecs_array_grow(&s->alloc, p, cap, need, elem, 16, UINT32_MAX);
}

/* Grows *p (an array of *cap elements of elem bytes) geometrically to hold at least need. */
static inline int family_grow(ecs_storage *s, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (__builtin_expect(need <= *cap, 1))
		return ECS_OK;
	return family_grow_slow(s, p, cap, need, elem);
}

/* Copies one value; the harness's sizes (8 and 4 bytes) get an inlined copy, not a call. */
static inline void family_copy(void *dst, const void *src, uint32_t size)
{
	if (size == 8)
		memcpy(dst, src, 8);
	else if (size == 4)
		memcpy(dst, src, 4);
	else
		memcpy(dst, src, size);
}

static inline bool family_alive(const ecs_storage *s, ecs_entity e)
{
	uint32_t i = ecs_entity_index(e);
	return i < s->entity_used && s->entity_gen[i] == (ecs_entity_generation(e) | FAMILY_ALIVE);
}

static inline family_word *family_bits(const ecs_storage *s, uint32_t index)
{
	return s->entity_bits + (size_t)index * s->words;
}

static inline bool bit_test(const family_word *bits, uint32_t t)
{
	return bits[t / FAMILY_WORD_BITS] >> (t % FAMILY_WORD_BITS) & 1;
}

static inline bool family_satisfies(const struct family_system *y, const family_word *bits)
{
	for (uint32_t w = 0; w < y->word_count; w++)
		if ((bits[y->word_index[w]] & y->word_mask[w]) != y->word_want[w])
			return false;
	return true;
}

/* --- component pools ------------------------------------------------------------------ */

/*
 * Grows a pool's values to hold need. The n values about to be added may point into them (ecs.h
 * allows a value that component_get returned for another entity), and growing moves them: their
 * offsets in the old block are taken before the realloc, and values[i] is set to the same
 * offset in the new one. Only growth pays for that, out of line.
 */
static __attribute__((noinline)) int pool_grow_values(ecs_storage *s, struct family_pool *p,
                                                      uint32_t need, const void **values,
                                                      uint32_t n)
{
	size_t offsets[ECS_CREATE_MAX_COMPONENTS], bytes = (size_t)p->values_cap * p->size;
	for (uint32_t i = 0; i < n; i++) /* SIZE_MAX: outside (wraps if below the block) */
		offsets[i] = p->values ? (uintptr_t)values[i] - (uintptr_t)p->values : SIZE_MAX;
	int rc = family_grow_slow(s, (void **)&p->values, &p->values_cap, need, p->size);
	for (uint32_t i = 0; rc == ECS_OK && i < n; i++)
		if (offsets[i] < bytes)
			values[i] = p->values + offsets[i];
	return rc;
}

/* Appends a value; on error nothing changed but capacity. */
static inline int pool_push(ecs_storage *s, struct family_pool *p, ecs_entity e,
                            const void *value)
{
	uint32_t slot = p->count;
	int rc = ECS_OK;
	if (__builtin_expect(slot >= p->values_cap, 0))
		rc = pool_grow_values(s, p, slot + 1, &value, 1);
	if (rc == ECS_OK)
		rc = family_grow(s, (void **)&p->owners, &p->owners_cap, slot + 1,
		                 sizeof *p->owners);
	if (rc == ECS_OK)
		rc = family_hook_insert(s, &p->index, ecs_entity_index(e), slot);
	if (rc != ECS_OK)
		return rc;
	family_copy(p->values + (size_t)slot * p->size, value, p->size);
	p->owners[slot] = e;
	p->count = slot + 1;
	return ECS_OK;
}

/* A swap-remove's move in a packed list of handles (a pool's owners, a system's entities), keyed
 * by m: the last handle to `at`, where the removed one was. */
static inline void packed_move(struct family_index *m, ecs_entity *handles, uint32_t last,
                               uint32_t at)
{
	ecs_entity moved = handles[last];
	handles[at] = moved;
	family_hook_assign(m, ecs_entity_index(moved), at);
}

/* Swap-removes the value of an entity that has one (the bitset said so). */
static inline void pool_remove(ecs_storage *s, struct family_pool *p, uint32_t index)
{
	uint32_t last = p->count - 1;
	uint32_t slot = family_hook_take(s, &p->index, index);
	if (slot != last) {
		family_copy(p->values + (size_t)slot * p->size, p->values + (size_t)last * p->size,
		            p->size);
		packed_move(&p->index, p->owners, last, slot);
	}
	p->count = last;
}

static void pool_release(ecs_storage *s, struct family_pool *p)
{
	family_free(s, p->values, (size_t)p->values_cap * p->size);
	family_free(s, p->owners, (size_t)p->owners_cap * sizeof *p->owners);
	family_free(s, p->systems, (size_t)p->system_cap * sizeof *p->systems);
	family_free(s, p->excluders, (size_t)p->excluder_cap * sizeof *p->excluders);
	family_hook_release(s, &p->index);
}

/* --- systems -------------------------------------------------------------------------- */

static inline int system_add_entity(ecs_storage *s, struct family_system *y, ecs_entity e)
{
	uint32_t pos = y->count;
	int rc = family_grow(s, (void **)&y->entities, &y->cap, pos + 1, sizeof *y->entities);
	if (rc == ECS_OK)
		rc = family_hook_insert(s, &y->index, ecs_entity_index(e), pos);
	if (rc != ECS_OK)
		return rc;
	y->entities[pos] = e;
	y->count = pos + 1;
	return ECS_OK;
}

/* Swap-removes an entity the system manages (its bitset satisfies the requirement). */
static inline void system_remove_entity(ecs_storage *s, struct family_system *y, uint32_t index)
{
	uint32_t last = y->count - 1;
	uint32_t pos = family_hook_take(s, &y->index, index);
	if (pos != last)
		packed_move(&y->index, y->entities, last, pos);
	y->count = last;
}

static void system_release(ecs_storage *s, struct family_system *y)
{
	family_free(s, y->entities, (size_t)y->cap * sizeof *y->entities);
	family_hook_release(s, &y->index);
}

#endif
