/*
 * pool.h: the paged sparse set, one per component type, that sparse (impls/sparse/) keeps for
 * every type and hybrid (impls/archetype/hybrid.c) for the types it keeps outside its tables:
 * a sparse array entity index -> dense slot in pages of SPARSE_PAGE_ENTRIES entries (a page made
 * when an index of its range first gets the type), and the dense values and their owners'
 * handles in one block, in step (remove swaps the last into the hole: EnTT's sparse_set).
 *
 * Costs: find O(1) (the page table, the page, the entry: two dependent loads before the
 * value); append O(1) amortised (a growth doubles the block; a new page 16 KiB); remove O(1)
 * (a swap with the last). Fast path: an entry holds its owner's generation beside the slot
 * (entry_make), so that one load proves the handle alive and holding the value (sparse's
 * lookups read no record on a hit; hybrid's read it anyway, for the tables).
 *
 * A template more than a module: included by a backend once its struct ecs_storage is
 * complete, whose fields alloc (the allocator), pools (a struct sparse_pool per type),
 * live_pools and live_count (the types whose pool holds a value) it uses. A variant may add
 * fields to every pool (SPARSE_POOL_FIELDS, group.c's owner and excluders).
 */
#ifndef ECS_POOL_H
#define ECS_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "ecs.h"

#ifndef SPARSE_POOL_FIELDS
#define SPARSE_POOL_FIELDS
#endif

#define SPARSE_PAGE_BITS 12u
#define SPARSE_PAGE_ENTRIES (1u << SPARSE_PAGE_BITS) /* dense positions per page */
#define SPARSE_PAGE_MASK (SPARSE_PAGE_ENTRIES - 1u)
#define SPARSE_MAX_PAGES ((ECS_MAX_ENTITIES + SPARSE_PAGE_ENTRIES - 1u) / SPARSE_PAGE_ENTRIES)
/* A page entry is the value's dense slot with its owner's generation above it, as in a handle
 * (entry_make): a lookup's one load of the entry then proves both that the handle is alive and
 * that it has the value (entry_match_slot), where the slot alone needed the record beside it. */
#define SPARSE_NO_ENTRY UINT32_MAX     /* page entry of an index the pool holds no value for */
#define SPARSE_ABSENT ECS_INDEX_MASK   /* its slot (entry_slot): never a value's (< MAX_ENTITIES) */
#define SPARSE_MIN_VALUES 16u          /* first dense capacity: a power of two, see pool_grow */
#define SPARSE_MIN_PAGE_TABLE 4u

struct sparse_pool {
	uint32_t size;       /* bytes per value */
	uint32_t count;      /* values held: the length of the dense part */
	uint32_t cap;        /* dense capacity, in values */
	uint32_t page_count; /* entries of pages[] */
	uint32_t **pages;    /* entity index -> entry_make(dense position, owner), SPARSE_NO_ENTRY;
	                      * NULL: page not used */
	unsigned char *values; /* count values, packed: the start of the pool's block */
	ecs_entity *entities;  /* their owners, in step with values, in the same block */
	uint32_t live_pos; /* position in the storage's live_pools while count > 0 */
	SPARSE_POOL_FIELDS /* the variant's */
};

/* --- allocation ------------------------------------------------------------------------ */

ECS_ALLOC_SHELLS(pool)

static inline void *pool_realloc(ecs_storage *s, void *p, size_t old_size, size_t new_size)
{
	return s->alloc.realloc(s->alloc.ctx, p, old_size, new_size);
}

/* The capacity after geometric growth from cap to hold at least need, at most max. */
static uint32_t pool_grown(uint32_t cap, uint32_t need, uint32_t min, uint32_t max)
{
	uint64_t c = cap > min ? cap : min;
	while (c < need)
		c *= 2;
	return c > max ? max : (uint32_t)c;
}

/* --- pools: one sparse set each -------------------------------------------------------- */

/* A page entry: the slot and the owner's generation bits, those of no live handle where
 * absent (SPARSE_NO_ENTRY's slot bits are SPARSE_ABSENT). The generation is written with the
 * slot and changes with it only: an index's owner keeps its values only while alive. */
static inline uint32_t entry_make(uint32_t slot, ecs_entity owner)
{
	return slot | (owner & ~ECS_INDEX_MASK);
}

static inline uint32_t entry_slot(uint32_t entry)
{
	return entry & ECS_INDEX_MASK;
}

/* The slot of e's value from index's entry when the entry is e's (e alive and holding the
 * value), else a number >= SPARSE_ABSENT: one XOR and one comparison, no mask. With the
 * generations equal the XOR leaves the slot alone, below SPARSE_ABSENT unless the entry is
 * SPARSE_NO_ENTRY; with them different it leaves a generation bit set above the slot. */
static inline uint32_t entry_match_slot(uint32_t entry, ecs_entity e)
{
	return entry ^ (e & ~ECS_INDEX_MASK);
}


/* The slot of index's value, SPARSE_ABSENT where there is none. */
static inline uint32_t pool_find(const struct sparse_pool *p, uint32_t index)
{
	uint32_t page = index >> SPARSE_PAGE_BITS;
	if (page >= p->page_count || !p->pages[page])
		return SPARSE_ABSENT;
	return entry_slot(p->pages[page][index & SPARSE_PAGE_MASK]);
}

/* The entry of index, or NULL where its page does not exist (no entry: the value is absent). */
static inline uint32_t *pool_find_entry(const struct sparse_pool *p, uint32_t index)
{
	uint32_t page = index >> SPARSE_PAGE_BITS;
	if (page >= p->page_count || !p->pages[page])
		return NULL;
	return &p->pages[page][index & SPARSE_PAGE_MASK];
}

/* The entry of an index whose page exists. */
static inline uint32_t *pool_entry(struct sparse_pool *p, uint32_t index)
{
	return &p->pages[index >> SPARSE_PAGE_BITS][index & SPARSE_PAGE_MASK];
}

static inline unsigned char *pool_value(const struct sparse_pool *p, uint32_t slot)
{
	return p->values + (size_t)slot * p->size;
}

/*
 * One block per pool: cap values, then cap handles. Capacities are powers of two from
 * SPARSE_MIN_VALUES on (need never exceeds ECS_MAX_ENTITIES < 2^22, so no clamp is needed), so
 * the handles' offset cap * size is a multiple of 16 and stays aligned for any value size.
 */
static size_t pool_block_bytes(const struct sparse_pool *p, uint32_t cap)
{
	return (size_t)cap * (p->size + sizeof(ecs_entity));
}

/*
 * Grows the dense part to hold need values. The n values about to be added may point into it
 * (ecs.h allows a value that component_get returned for another entity), and growing moves
 * it: their offsets in the old block are taken before the realloc, and values[i] is set to the
 * same offset in the new one. Only growth pays for that, out of line.
 */
static __attribute__((noinline)) int pool_grow(ecs_storage *s, struct sparse_pool *p,
                                               uint32_t need, const void **values, uint32_t n)
{
	uint32_t cap = pool_grown(p->cap, need, SPARSE_MIN_VALUES, UINT32_MAX);
	size_t offsets[ECS_CREATE_MAX_COMPONENTS], bytes = (size_t)p->cap * p->size;
	for (uint32_t i = 0; i < n; i++) /* SIZE_MAX: outside (wraps if below the block) */
		offsets[i] = p->values ? (uintptr_t)values[i] - (uintptr_t)p->values : SIZE_MAX;
	unsigned char *block = pool_realloc(s, p->values, pool_block_bytes(p, p->cap),
	                                      pool_block_bytes(p, cap));
	if (!block)
		return ECS_ERR_NO_MEMORY;
	for (uint32_t i = 0; i < n; i++)
		if (offsets[i] < bytes)
			values[i] = block + offsets[i];
	/* The handles move up to their new offset; the old and new places may overlap. */
	memmove(block + (size_t)cap * p->size, block + (size_t)p->cap * p->size,
	        (size_t)p->count * sizeof(ecs_entity));
	p->values = block;
	p->entities = (ecs_entity *)(void *)(block + (size_t)cap * p->size);
	p->cap = cap;
	return ECS_OK;
}

static void pool_release_dense(ecs_storage *s, struct sparse_pool *p)
{
	pool_free(s, p->values, pool_block_bytes(p, p->cap));
}

static int pool_grow_page_table(ecs_storage *s, struct sparse_pool *p, uint32_t need)
{
	uint32_t count = pool_grown(p->page_count, need, SPARSE_MIN_PAGE_TABLE, SPARSE_MAX_PAGES);
	uint32_t **pages = pool_realloc(s, p->pages, (size_t)p->page_count * sizeof *pages,
	                                  (size_t)count * sizeof *pages);
	if (!pages)
		return ECS_ERR_NO_MEMORY;
	for (uint32_t i = p->page_count; i < count; i++)
		pages[i] = NULL;
	p->pages = pages;
	p->page_count = count;
	return ECS_OK;
}

/* Page `page` of pool p's sparse array made, every entry SPARSE_NO_ENTRY. */
static int pool_page_new(ecs_storage *s, struct sparse_pool *p, uint32_t page)
{
	uint32_t *entries = pool_malloc(s, SPARSE_PAGE_ENTRIES * sizeof *entries);
	if (!entries)
		return ECS_ERR_NO_MEMORY;
	memset(entries, 0xff, SPARSE_PAGE_ENTRIES * sizeof *entries); /* SPARSE_NO_ENTRY */
	p->pages[page] = entries;
	return ECS_OK;
}

/*
 * Makes room in pool p for index's value: dense capacity, the page table, the page. The n
 * values about to be added may point into the dense part, which growing moves: *values points
 * at them, and at the first growth they are copied into moved[] and *values repointed there,
 * with the moved ones found again (pool_grow). Out of line: it runs when a pool's capacity or a
 * page runs out, a few dozen times in a million adds. On error the pools have gained capacity
 * at most.
 */
static __attribute__((noinline)) int pool_make_room(ecs_storage *s, struct sparse_pool *p,
                                                    uint32_t index, const void *const **values,
                                                    uint32_t n, const void **moved)
{
	uint32_t page = index >> SPARSE_PAGE_BITS;
	int rc = ECS_OK;
	if (p->count >= p->cap) {
		if (*values != moved) {
			for (uint32_t i = 0; i < n; i++)
				moved[i] = (*values)[i];
			*values = moved;
		}
		rc = pool_grow(s, p, p->count + 1, moved, n);
	}
	if (rc == ECS_OK && page >= p->page_count)
		rc = pool_grow_page_table(s, p, page + 1);
	if (rc != ECS_OK)
		return rc;
	return p->pages[page] ? ECS_OK : pool_page_new(s, p, page);
}

/* Whether pool p can take index's value without allocating. */
static inline bool pool_has_room(const struct sparse_pool *p, uint32_t index)
{
	uint32_t page = index >> SPARSE_PAGE_BITS;
	return p->count < p->cap && page < p->page_count && p->pages[page];
}

/* Appends e's value to a pool that has room (pool_make_room). Cannot fail. The value is
 * copied last (see pool_remove). */
static inline void pool_append(ecs_storage *s, uint32_t type, struct sparse_pool *p,
                               ecs_entity e, const void *value)
{
	uint32_t slot = p->count++, size = p->size;
	unsigned char *to = p->values + (size_t)slot * size;
	*pool_entry(p, ecs_entity_index(e)) = entry_make(slot, e);
	p->entities[slot] = e;
	if (slot == 0) {
		p->live_pos = s->live_count;
		s->live_pools[s->live_count++] = type;
	}
	ecs_copy_value(to, value, size);
}

/* Swap-removes the value at slot, whose entry (the sparse array's, of the index it belongs
 * to) is *entry (entry_slot(*entry) == slot). Never allocates. The value is copied last, so
 * that a size the copy does not know (a call to memcpy) leaves nothing live across the call:
 * no registers to save on every call for it (6 pushes and pops a remove). */
static inline void pool_remove(ecs_storage *s, struct sparse_pool *p, uint32_t *entry,
                               uint32_t slot)
{
	uint32_t last = --p->count;
	unsigned char *values = p->values;
	uint32_t size = p->size;
	if (slot != last) {
		ecs_entity moved = p->entities[last];
		p->entities[slot] = moved;
		*pool_entry(p, ecs_entity_index(moved)) = entry_make(slot, moved);
	}
	*entry = SPARSE_NO_ENTRY;
	if (last == 0) {
		uint32_t other = s->live_pools[--s->live_count];
		s->live_pools[p->live_pos] = other;
		s->pools[other].live_pos = p->live_pos;
	}
	if (slot != last)
		ecs_copy_value(values + (size_t)slot * size, values + (size_t)last * size, size);
}

static void pool_release(ecs_storage *s, struct sparse_pool *p)
{
	for (uint32_t i = 0; i < p->page_count; i++)
		pool_free(s, p->pages[i], SPARSE_PAGE_ENTRIES * sizeof *p->pages[i]);
	pool_free(s, p->pages, (size_t)p->page_count * sizeof *p->pages);
	pool_release_dense(s, p);
}


#endif
