/*
 * family.h: the storage of Vigier's two posts, written once; hash.c, tree.c and vector.c each
 * include it after defining the one thing that differs between them, the index from an entity
 * index to a position (`struct family_index` and the family_hook_* functions family_data.h
 * declares): a compile-time parameter, every lookup a direct (inlinable) call, so what the
 * benchmark shows between the three is the index and nothing else.
 *
 * Layout (impls/family/): family_data.h the data (entities, pools, systems) and the index's
 * hooks; family_iter.h the systems' registration and iteration, on the data alone; this file
 * the operations and batches and the ops (FAMILY_OPS). There is no plain family backend to hold
 * them: the family is a header that hash.c, tree.c and vector.c complete with their index, and
 * each of them holds its index's code and fast paths.
 *
 * What it stores: per entity index the generation (with an alive bit) and a bitset of its
 * types (component_count bits in 32-bit words); per type a packed array of values and one of
 * their owners, an index entity -> slot (remove swaps the last into the hole: Vigier's
 * ComponentContainer), and the systems that require or exclude it; per system its bitsets (as
 * the words they touch), a packed list of the entities it matches and an index entity ->
 * position (Vigier's System). A live entity is in a system's list exactly when its bitset
 * satisfies the system, so membership is read from the bitset; the index finds where one leaves.
 *
 * Costs (k = the entity's types, S_t = systems requiring or excluding t, R = words a system's
 * bitsets touch (at most 16), W = the bitset's words, L = one index operation: O(1) vector,
 * expected O(1) hash, O(log n) tree):
 *   entity_create       O(1) amortised (free-list pop)
 *   entity_create_with  O(W + k L + sum of S_t R + L a system joined): the bitset written once,
 *                       each system asked once, from its lowest type's list
 *   entity_destroy      O(W + k L + sum of S_t R + L a system left)
 *   component_add/remove  O(L + S_t R + L a system joined or left): only the systems that
 *                       require or exclude t are asked (Vigier's part 2, event management); a
 *                       remove may fail for want of memory (it can join excluding systems)
 *   component_get       O(L): the generation and the bitset side by side (once an entity), then
 *                       the index's loads and the value a component; component_get_batch
 *                       prefetches the generations, bitsets and (family_hook_prefetch) the index's
 *                       first reads ECS_GET_AHEAD handles on and each value. component_has O(1)
 *   entity_get          O(k L): the generation and the bitset once for all the types, then per
 *                       type its bit, the index's loads and the value's address; a type not
 *                       found sends the call out of line (family_entity_get_rest)
 *   iteration           O(L) a required component an entity through the system's list; O(L) a
 *                       component a run where the list and the pools are in step
 *   system_iter_split   O(L): a range of the system's list
 *   entity_create_batch  the set's bitset and joined systems worked out once, every array grown
 *                       once, ECS_ERR_FULL from the free list's length, the values copied last
 *                       (a memcpy a type when packed); the index inserts a key at a time
 *   add/remove batches  O(M) checks (a spare bit of the generation marks each index: repeats
 *                       without a sort), one growth, then each entity as its single; all that
 *                       can fail for want of memory comes first and is taken back newest first
 *
 * Fast paths (when each fires; lived-in: whether it fires in storage that has had destroys,
 * interleaved kinds, components removed and added back in no order; the index's own are in
 * hash.c, tree.c and vector.c):
 *   one-pass create     entity_create_with pushes each type in one pass when no pool must
 *                       grow; else create_with_careful. Lived-in: yes (room is the rule).
 *   systems of a type   an add or remove asks only the systems that require or exclude the
 *                       type. Lived-in: yes.
 *   no excluders        a type no system excludes pays one test for them. Lived-in: yes.
 *   in-step run         family_in_step: where the list and every pool hold the batch's entities
 *                       in the same order, a lookup a component and a memcmp of the owners (256
 *                       at a time) make a batch of whole columns. Lived-in: partly (stretches
 *                       untouched since a run of creations of one kind); elsewhere it costs a
 *                       lookup a component and a memcmp of up to a chunk a batch.
 *   in-step component   in a pointer batch, a pool holding the batch's entities at consecutive
 *                       slots in the list's order is a column. Lived-in: partly (the type whose
 *                       add made the entities join, where no remove swapped entries since).
 *   consecutive slots   lookups (family_hook_get_batch) that find consecutive slots make a column.
 *                       Lived-in: no.
 *   batch set once      a create batch works out the bitset and the joined systems once and
 *                       grows every array once. Lived-in: yes (a property of the call).
 *   packed values       a batch's values with stride == size: one memcpy a type. Lived-in: yes.
 *   no repeat sort      a batch's repeats are found by marks; only a list already certain to
 *                       fail is sorted. Lived-in: yes.
 *   one entity's types  entity_get of 1 to 3 types runs straight-line code with the count a
 *                       constant (checks.h: ecs_entity_get_body): the generation and the bitset
 *                       once, the index a type; it fires on every call whose types the entity
 *                       all has. Lived-in: yes (a property of the call, not of the order).
 * docs/performance.md has the measurements behind asking only a type's systems and the in-step
 * paths.
 */
#ifndef FAMILY_H
#define FAMILY_H

#include "family_iter.h"

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
	family_free(s, s->entity_gen, (size_t)s->gen_cap * sizeof *s->entity_gen);
	family_free(s, s->entity_bits, (size_t)s->bits_cap * s->words * sizeof *s->entity_bits);
	struct ecs_allocator alloc = s->alloc;
	alloc.free(alloc.ctx, s, sizeof *s);
}

/* The rest of family_create (ECS_CREATE_SHELL): on error, family_destroy frees what there is. */
static int family_setup(ecs_storage *s, const struct ecs_config *cfg)
{
	s->words = (cfg->component_count + FAMILY_WORD_BITS - 1) / FAMILY_WORD_BITS;
	s->system_max = cfg->system_count;
	s->free_head = FAMILY_NO_FREE;
	s->pools = family_malloc(s, (size_t)cfg->component_count * sizeof *s->pools);
	s->systems = family_malloc(s, (size_t)cfg->system_count * sizeof *s->systems);
	if (!s->pools || !s->systems) {
		family_free(s, s->pools, (size_t)cfg->component_count * sizeof *s->pools);
		s->pools = NULL;
		s->component_count = 0;
		return ECS_ERR_NO_MEMORY;
	}
	s->component_count = cfg->component_count;
	memset(s->pools, 0, (size_t)s->component_count * sizeof *s->pools);
	for (uint32_t t = 0; t < s->component_count; t++) {
		s->pools[t].size = cfg->component_sizes[t];
		family_hook_init(&s->pools[t].index);
	}
	return ECS_OK;
}

ECS_CREATE_SHELL(family)

/*
 * Grows the two per-entity arrays to hold at least need indices, each by realloc, doubling (so
 * whatever is copied adds up to less than the final size). Whether a realloc copies is the
 * allocator's business: glibc moves a block it got from mmap (128 KiB and up, by default) by
 * remapping its pages, but the harness turns mmap off (mallopt M_MMAP_MAX 0, harness/core/pass.c,
 * unless --malloc-default), and then every block is in the heap: realloc extends it in place
 * when it ends the heap, and otherwise copies it. What does hold either way: the new part is
 * not touched here (rows are zeroed as entities take them), so its pages are first touched (on
 * this kind of machine about 2 us a page, when they come from the kernel) by the entities that
 * use them. If the second realloc fails the first keeps its larger capacity, which nothing
 * observes.
 */
static int entities_grow(ecs_storage *s, uint32_t need)
{
	int rc = family_grow(s, (void **)&s->entity_gen, &s->gen_cap, need, sizeof *s->entity_gen);
	if (rc == ECS_OK)
		rc = family_grow(s, (void **)&s->entity_bits, &s->bits_cap, need,
		                 (size_t)s->words * sizeof *s->entity_bits);
	return rc;
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
	uint32_t index = s->free_head;
	if (index != FAMILY_NO_FREE) {
		family_word *bits = family_bits(s, index);
		s->free_head = bits[0];
		s->free_count--;
		bits[0] = 0;
	} else {
		index = s->entity_used;
		if (index >= ECS_MAX_ENTITIES)
			return ECS_ERR_FULL;
		if (index >= s->gen_cap || index >= s->bits_cap) {
			int rc = entities_grow(s, index + 1);
			if (rc != ECS_OK)
				return rc;
		}
		/* The row is zeroed here, not when the array grows: one touch of new memory. */
		memset(family_bits(s, index), 0, (size_t)s->words * sizeof *s->entity_bits);
		s->entity_gen[index] = 0;
		s->entity_used = index + 1;
	}
	uint32_t gen = s->entity_gen[index] | FAMILY_ALIVE;
	s->entity_gen[index] = (uint16_t)gen;
	*out = ecs_entity_make(index, gen);
	return ECS_OK;
}

/*
 * entity_create_with's careful path (see family_entity_create_with). entity_create and count
 * adds in one step: the pools' values are grown first (so that the
 * values, which may point into them, are found again before any is copied), each value is
 * pushed, the bitset is written once, and each system that requires one of the types is asked
 * once (from the list of its lowest type, as entity_destroy does), where count adds would ask
 * it once per add and might join and leave nothing on the way. The index is taken last, so
 * that on error nothing has changed but capacities.
 */
static __attribute__((noinline)) int create_with_careful(ecs_storage *s, const uint32_t *types,
                                                         uint32_t count,
                                                         const void *const *values,
                                                         ecs_entity *out)
{
	uint32_t index;
	int rc = ecs_create_with_open(types, count, values, s->component_count, &s->free_head,
	                              FAMILY_NO_FREE, &s->entity_used, &index);
	if (rc != ECS_OK)
		return rc;
	bool fresh = s->free_head == FAMILY_NO_FREE;
	if (fresh && (index >= s->gen_cap || index >= s->bits_cap) &&
	    (rc = entities_grow(s, index + 1)) != ECS_OK)
		return rc;
	uint32_t gen = fresh ? 0 : s->entity_gen[index];
	ecs_entity e = ecs_entity_make(index, gen);
	const void *v[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < count; i++)
		v[i] = values[i];
	for (uint32_t i = 0; i < count; i++) {
		struct family_pool *p = &s->pools[types[i]];
		if (p->count >= p->values_cap &&
		    (rc = pool_grow_values(s, p, p->count + 1, v, count)) != ECS_OK)
			return rc;
	}
	uint32_t pushed;
	for (pushed = 0; pushed < count; pushed++)
		if ((rc = pool_push(s, &s->pools[types[pushed]], e, v[pushed])) != ECS_OK)
			break;

	family_word *bits = family_bits(s, index);
	family_word link = fresh ? 0 : bits[0]; /* a dead row's word 0 is the free list's link */
	uint32_t i = 0, j = 0;
	if (rc == ECS_OK) {
		if (fresh)
			memset(bits, 0, (size_t)s->words * sizeof *bits);
		else
			bits[0] = 0;
		for (i = 0; i < count; i++)
			bits[types[i] / FAMILY_WORD_BITS] |= (family_word)1 << (types[i] % FAMILY_WORD_BITS);
		for (i = 0; i < count && rc == ECS_OK; i++) {
			const struct family_pool *p = &s->pools[types[i]];
			for (j = 0; j < p->system_count; j++) {
				struct family_system *y = &s->systems[p->systems[j]];
				if (y->anchor == types[i] && family_satisfies(y, bits) &&
				    (rc = system_add_entity(s, y, e)) != ECS_OK)
					break;
			}
		}
	}
	if (rc != ECS_OK) {
		if (pushed == count) { /* a system could not take it: leave those joined before */
			uint32_t fail_i = i - 1, fail_j = j;
			for (i = 0; i <= fail_i; i++) {
				const struct family_pool *p = &s->pools[types[i]];
				for (j = 0; j < (i == fail_i ? fail_j : p->system_count); j++) {
					struct family_system *y = &s->systems[p->systems[j]];
					if (y->anchor == types[i] && family_satisfies(y, bits))
						system_remove_entity(s, y, index);
				}
			}
			for (i = 0; i < count; i++)
				bits[types[i] / FAMILY_WORD_BITS] = 0;
			bits[0] = link;
		}
		while (pushed--)
			pool_remove(s, &s->pools[types[pushed]], index);
		return rc;
	}
	ecs_index_take(fresh, &s->entity_used, &s->free_head, &s->free_count, link);
	s->entity_gen[index] = (uint16_t)(gen | FAMILY_ALIVE);
	*out = e;
	return ECS_OK;
}

/*
 * entity_create and count adds in one step, in one pass over the types where nothing is
 * unusual: each is checked (in range, a value given, not a repeat: a bit seen twice in a
 * 64-bit mask, where types 64 apart look alike too) and pushed if its pool's values have room
 * (growing them could move a value given, which may point into them); then the bitset is
 * written and the systems asked. Anything else (an error, values to grow, an allocation that
 * fails, a false repeat) takes back what was done and goes the careful way.
 * noinline: reached only through the ops table, and without it gcc splits it in two
 * (ipa-split), a second prologue on every call.
 */
static __attribute__((noinline)) int family_entity_create_with(ecs_storage *s,
                                                               const uint32_t *types,
                                                               uint32_t count,
                                                               const void *const *values,
                                                               ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	bool fresh;
	uint32_t index = ecs_index_peek(s->free_head, FAMILY_NO_FREE, &s->entity_used, &fresh);
	if ((fresh && (index >= ECS_MAX_ENTITIES || index >= s->gen_cap || index >= s->bits_cap)) ||
	    ecs_create_list_odd(types, count, values))
		return create_with_careful(s, types, count, values, out);
	uint32_t gen = fresh ? 0 : s->entity_gen[index];
	ecs_entity e = ecs_entity_make(index, gen);
	struct family_pool *pools = s->pools;
	uint32_t component_count = s->component_count, i;
	uint64_t seen = 0;
	for (i = 0; i < count; i++) {
		uint32_t t = types[i];
		if (!ecs_create_type_new(t, values[i], component_count, &seen))
			break;
		struct family_pool *p = &pools[t];
		if (p->count >= p->values_cap || pool_push(s, p, e, values[i]) != ECS_OK)
			break;
	}
	if (__builtin_expect(i < count, 0)) {
		while (i--)
			pool_remove(s, &pools[types[i]], index);
		return create_with_careful(s, types, count, values, out);
	}
	family_word *bits = family_bits(s, index);
	family_word link = fresh ? 0 : bits[0]; /* a dead row's word 0 is the free list's link */
	bits[0] = 0;
	if (fresh) /* the row is zeroed here, not when the array grows: one touch of new memory */
		for (uint32_t w = 1; w < s->words; w++)
			bits[w] = 0;
	for (i = 0; i < count; i++)
		bits[types[i] / FAMILY_WORD_BITS] |= (family_word)1 << (types[i] % FAMILY_WORD_BITS);
	/* Each system that requires one of the types, once: from the list of its lowest type. */
	uint32_t j = 0;
	int rc = ECS_OK;
	for (i = 0; i < count && rc == ECS_OK; i++) {
		const struct family_pool *p = &pools[types[i]];
		for (j = 0; j < p->system_count; j++) {
			struct family_system *y = &s->systems[p->systems[j]];
			if (y->anchor == types[i] && family_satisfies(y, bits) &&
			    (rc = system_add_entity(s, y, e)) != ECS_OK)
				break;
		}
	}
	if (__builtin_expect(rc != ECS_OK, 0)) {
		/* leave the systems joined before the one that failed (system j of type i - 1) */
		uint32_t fail_i = i - 1, fail_j = j;
		for (i = 0; i <= fail_i; i++) {
			const struct family_pool *p = &pools[types[i]];
			for (j = 0; j < (i == fail_i ? fail_j : p->system_count); j++) {
				struct family_system *y = &s->systems[p->systems[j]];
				if (y->anchor == types[i] && family_satisfies(y, bits))
					system_remove_entity(s, y, index);
			}
		}
		for (i = 0; i < count; i++)
			bits[types[i] / FAMILY_WORD_BITS] = 0;
		bits[0] = link;
		for (i = count; i--;)
			pool_remove(s, &pools[types[i]], index);
		return create_with_careful(s, types, count, values, out);
	}
	ecs_index_take(fresh, &s->entity_used, &s->free_head, &s->free_count, link);
	s->entity_gen[index] = (uint16_t)(gen | FAMILY_ALIVE);
	*out = e;
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
	family_word *bits = family_bits(s, index);
	/*
	 * Only the components the bitset names, and only the systems that require one of them
	 * (Vigier's onEntityRemoved asks every system). A system is visited from the list of its
	 * lowest required type alone, so once; it manages the entity exactly when the bitset
	 * satisfies it, so the bitset stays whole until every system has been asked (an excluded
	 * type may sit in any word, before the anchor's too).
	 */
	for (uint32_t w = 0; w < s->words; w++) {
		for (family_word word = bits[w]; word; word &= word - 1) {
			uint32_t t = w * FAMILY_WORD_BITS + (uint32_t)__builtin_ctz(word);
			struct family_pool *p = &s->pools[t];
			pool_remove(s, p, index);
			for (uint32_t j = 0; j < p->system_count; j++) {
				struct family_system *y = &s->systems[p->systems[j]];
				if (y->anchor == t && family_satisfies(y, bits))
					system_remove_entity(s, y, index);
			}
		}
	}
	bits[0] = s->free_head;
	for (uint32_t w = 1; w < s->words; w++) /* none at profile A: no memset call */
		bits[w] = 0;
	s->free_head = index;
	s->free_count++;
	s->entity_gen[index] = (uint16_t)((s->entity_gen[index] + 1) & ECS_GENERATION_MASK);
	return ECS_OK;
}

/* The checks every component operation starts with. */
ECS_CHECK_SHELL(family)

/*
 * The systems that exclude `type`, when the entity at bits (which has the type) gains it: it
 * leaves those it satisfied without it. Never fails. Out of line, as excluders_join: most
 * types are excluded by no system, and the adds and removes of those pay a test and nothing
 * more (inline, the two cost 3 instructions more an add: callgrind, vector create N = 16384,
 * k = 2, 425.4 against 419.4 an entity, 405.4 before exclusions existed).
 */
static __attribute__((noinline)) void excluders_leave(ecs_storage *s,
                                                      const struct family_pool *p,
                                                      family_word *bits, uint32_t type,
                                                      uint32_t index)
{
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	bits[type / FAMILY_WORD_BITS] &= ~mask;
	for (uint32_t j = 0; j < p->excluder_count; j++) {
		struct family_system *y = &s->systems[p->excluders[j]];
		if (family_satisfies(y, bits))
			system_remove_entity(s, y, index);
	}
	bits[type / FAMILY_WORD_BITS] |= mask;
}

/*
 * The systems that exclude `type`, when entity e (bits: it has the type) is to lose it: it
 * joins those it satisfies without it. On error (out of memory) it leaves those joined again:
 * nothing has changed.
 */
static __attribute__((noinline)) int excluders_join(ecs_storage *s, const struct family_pool *p,
                                                    family_word *bits, uint32_t type,
                                                    ecs_entity e)
{
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	int rc = ECS_OK;
	uint32_t j;
	bits[type / FAMILY_WORD_BITS] &= ~mask;
	for (j = 0; j < p->excluder_count; j++) {
		struct family_system *y = &s->systems[p->excluders[j]];
		if (family_satisfies(y, bits) && (rc = system_add_entity(s, y, e)) != ECS_OK)
			break;
	}
	if (rc != ECS_OK) {
		while (j--) {
			struct family_system *y = &s->systems[p->excluders[j]];
			if (family_satisfies(y, bits))
				system_remove_entity(s, y, ecs_entity_index(e));
		}
	}
	bits[type / FAMILY_WORD_BITS] |= mask;
	return rc;
}

static int family_component_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	if (!value)
		return ECS_ERR_INVALID;
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	uint32_t index = ecs_entity_index(e);
	family_word *bits = family_bits(s, index);
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	if (bits[type / FAMILY_WORD_BITS] & mask)
		return ECS_ERR_HAS_COMPONENT;
	struct family_pool *p = &s->pools[type];
	rc = pool_push(s, p, e, value);
	if (rc != ECS_OK)
		return rc;
	bits[type / FAMILY_WORD_BITS] |= mask;
	/* Vigier's onEntityUpdated, for the systems that require the type alone: the entity did
	 * not satisfy them before (it lacked the type), so it joins those it satisfies now. */
	uint32_t j;
	for (j = 0; j < p->system_count; j++) {
		struct family_system *y = &s->systems[p->systems[j]];
		if (family_satisfies(y, bits) && (rc = system_add_entity(s, y, e)) != ECS_OK)
			break;
	}
	if (rc != ECS_OK) { /* out of memory: leave the systems joined so far, then the pool */
		while (j--) {
			struct family_system *y = &s->systems[p->systems[j]];
			if (family_satisfies(y, bits))
				system_remove_entity(s, y, index);
		}
		bits[type / FAMILY_WORD_BITS] &= ~mask;
		pool_remove(s, p, index);
		return rc;
	}
	/* And those that exclude the type: it leaves the ones it satisfied without it. Leaving
	 * cannot fail, so it comes after the joins, which can. */
	if (__builtin_expect(p->excluder_count != 0, 0))
		excluders_leave(s, p, bits, type, index);
	return ECS_OK;
}

static int family_component_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	uint32_t index = ecs_entity_index(e);
	family_word *bits = family_bits(s, index);
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	if (!(bits[type / FAMILY_WORD_BITS] & mask))
		return ECS_ERR_NO_COMPONENT;
	struct family_pool *p = &s->pools[type];
	/* The systems that exclude the type: it joins those it satisfies without it. Joining can
	 * run out of memory, so it comes first. */
	if (__builtin_expect(p->excluder_count != 0, 0) &&
	    (rc = excluders_join(s, p, bits, type, e)) != ECS_OK)
		return rc;
	/* The systems that require the type and are satisfied now are those it leaves. */
	for (uint32_t j = 0; j < p->system_count; j++) {
		struct family_system *y = &s->systems[p->systems[j]];
		if (family_satisfies(y, bits))
			system_remove_entity(s, y, index);
	}
	bits[type / FAMILY_WORD_BITS] &= ~mask;
	pool_remove(s, p, index);
	return ECS_OK;
}

/*
 * A lookup: the handle's generation and the entity's bitset (ours and the strategy's: two
 * arrays, two loads beside each other, read once per entity whatever the types asked), then the
 * index (the strategy's: vector one load, hash a bucket and a node, tree a descent) and the
 * value. A failure's status from what the hit path already knows (no second load: a missing
 * component is a common answer).
 */
static inline bool family_get_live(const ecs_storage *s, ecs_entity e, const void **state)
{
	*state = NULL;
	if (!family_alive(s, e))
		return false;
	*state = family_bits(s, ecs_entity_index(e));
	return true;
}

static inline bool family_get_value(const ecs_storage *s, const void *state, ecs_entity e,
                                    uint32_t type, void **value)
{
	if (!bit_test(state, type))
		return false;
	const struct family_pool *p = &s->pools[type];
	*value = p->values + (size_t)family_hook_get(&p->index, ecs_entity_index(e)) * p->size;
	return true;
}

/* A batch's read-ahead: the generation, the bitset and, where the index can say where without
 * a load (family_hook_prefetch), each type's first index read, so that the index's miss overlaps
 * the others instead of following them. */
static inline void family_get_ahead(const ecs_storage *s, ecs_entity e, const uint32_t *types,
                                    uint32_t type_count)
{
	uint32_t index = ecs_entity_index(e);
	if (index >= s->entity_used)
		return;
	__builtin_prefetch(&s->entity_gen[index]);
	__builtin_prefetch(family_bits(s, index));
	for (uint32_t i = 0; i < type_count; i++)
		if (types[i] < s->component_count)
			family_hook_prefetch(&s->pools[types[i]].index, index);
}

static int family_component_get(ecs_storage *s, ecs_entity e, uint32_t type, void **out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	const void *state;
	void *value;
	if (!family_get_live(s, e, &state))
		return ECS_ERR_DEAD_ENTITY;
	if (type >= s->component_count)
		return ECS_ERR_BAD_COMPONENT;
	if (!family_get_value(s, state, e, type, &value))
		return ECS_ERR_NO_COMPONENT;
	*out = value;
	return ECS_OK;
}

/* The get shells (checks.h: ECS_GET_SHELLS): the generation and the bitset once for all the
 * handle's types, then per type the index's loads and the value's address; a batch prefetches
 * those of the handles ECS_GET_AHEAD places on; entity_get's failure goes on out of line. */
ECS_GET_SHELLS(family, family_get_ahead, family_get_live, family_get_value, family_get_value,
               NULL)

static int family_component_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = family_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	return bit_test(family_bits(s, ecs_entity_index(e)), type);
}

/* --- batches (ecs.h: entity_create_batch, component_add_batch, component_remove_batch) --- */

/*
 * In entity_gen[], beside FAMILY_ALIVE and the 10 generation bits: "seen in this batch", set on
 * the index of each handle of a batch's list while it is checked, and cleared before the call
 * returns. It finds a repeated handle in one pass over the list, with no allocation and no
 * sorting: a second handle of a marked index is a repeat or (another generation) a dead handle.
 */
#define FAMILY_BATCH_MARK 0x4000u

/*
 * The checks of a batch over a list of entities, before anything changes, in ecs.h's order:
 * ECS_ERR_INVALID (a repeated handle), ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT, then
 * ECS_ERR_HAS_COMPONENT (want_has false) or ECS_ERR_NO_COMPONENT. One pass marks each handle's
 * index (FAMILY_BATCH_MARK) and tests liveness and the type's bit; a second clears the marks.
 */
static int family_batch_check(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                              uint32_t type, bool want_has)
{
	uint32_t outside = 0, j;
	bool clash = false, dead = false, wrong = false;
	bool type_ok = type < s->component_count;
	for (j = 0; j < count; j++) {
		ecs_entity e = entities[j];
		uint32_t i = ecs_entity_index(e);
		if (i >= s->entity_used) {
			outside++;
			dead = true;
			continue;
		}
		uint16_t g = s->entity_gen[i];
		if (g & FAMILY_BATCH_MARK) {
			clash = true;
			continue;
		}
		s->entity_gen[i] = (uint16_t)(g | FAMILY_BATCH_MARK);
		if (g != (ecs_entity_generation(e) | FAMILY_ALIVE)) {
			dead = true;
			continue;
		}
		if (type_ok && bit_test(family_bits(s, i), type) != want_has)
			wrong = true;
	}
	for (j = 0; j < count; j++) {
		uint32_t i = ecs_entity_index(entities[j]);
		if (i < s->entity_used)
			s->entity_gen[i] &= (uint16_t)~FAMILY_BATCH_MARK;
	}
	if ((clash || outside > 1) && ecs_batch_has_repeat(entities, count))
		return ECS_ERR_INVALID;
	if (dead || clash) /* two handles of one index: one of them is dead */
		return ECS_ERR_DEAD_ENTITY;
	if (!type_ok)
		return ECS_ERR_BAD_COMPONENT;
	if (wrong)
		return want_has ? ECS_ERR_NO_COMPONENT : ECS_ERR_HAS_COMPONENT;
	return ECS_OK;
}

/* Appends e to a pool whose values and owners have room, without its value (a batch copies the
 * values a column at a time afterwards); on error (the index could not take it) nothing
 * changed. */
static inline int pool_append(ecs_storage *s, struct family_pool *p, ecs_entity e)
{
	uint32_t slot = p->count;
	int rc = family_hook_insert(s, &p->index, ecs_entity_index(e), slot);
	if (rc != ECS_OK)
		return rc;
	p->owners[slot] = e;
	p->count = slot + 1;
	return ECS_OK;
}

/* Copies count values (values->data, values->stride) into a pool from slot `first` on: one
 * memcpy where the values are packed as the pool is (stride == size). */
static void pool_write_values(struct family_pool *p, uint32_t first, const void *data,
                              size_t stride, uint32_t count)
{
	unsigned char *dst = p->values + (size_t)first * p->size;
	const unsigned char *src = data;
	if (stride == p->size) {
		memmove(dst, src, (size_t)count * p->size);
		return;
	}
	for (uint32_t j = 0; j < count; j++)
		family_copy(dst + (size_t)j * p->size, src + (size_t)j * stride, p->size);
}

/*
 * Takes back the last entity a create batch placed (the newest on every list it is on, so each
 * removal pops the end and the lists are as before): out of its systems and pools, and its
 * index back to the free list or past entity_used.
 */
static void batch_unplace(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t type_count,
                          const uint16_t *joins, uint32_t join_count, uint32_t used_before)
{
	uint32_t index = ecs_entity_index(e);
	for (uint32_t k = join_count; k--;)
		system_remove_entity(s, &s->systems[joins[k]], index);
	for (uint32_t i = type_count; i--;)
		pool_remove(s, &s->pools[types[i]], index);
	family_word *bits = family_bits(s, index);
	memset(bits, 0, (size_t)s->words * sizeof *bits);
	if (index >= used_before) {
		s->entity_used = index;
		s->entity_gen[index] = 0;
		return;
	}
	bits[0] = s->free_head;
	s->free_head = index;
	s->free_count++;
	s->entity_gen[index] &= (uint16_t)~FAMILY_ALIVE;
}

#define FAMILY_JOINS_FAILED UINT32_MAX /* family_batch_joins: out of memory */

/* entity_create_batch's set: its bitset (set[]), the systems it joins (each once, from its
 * anchor: joins[], their number returned), each grown to take count more entities. The
 * number is returned, not stored through a pointer: the caller's loop over the entities reads
 * it on every entity, and an address taken would have it read from memory each time. */
static inline uint32_t family_batch_joins(ecs_storage *s, const uint32_t *types,
                                          uint32_t type_count, uint32_t count, family_word *set,
                                          uint16_t *joins)
{
	int rc = ECS_OK;
	uint32_t join_count = 0;
	memset(set, 0, (size_t)s->words * sizeof *set);
	for (uint32_t i = 0; i < type_count; i++)
		set[types[i] / FAMILY_WORD_BITS] |= (family_word)1 << (types[i] % FAMILY_WORD_BITS);
	for (uint32_t i = 0; i < type_count; i++) {
		const struct family_pool *p = &s->pools[types[i]];
		for (uint32_t k = 0; k < p->system_count; k++) {
			struct family_system *y = &s->systems[p->systems[k]];
			if (y->anchor == types[i] && family_satisfies(y, set))
				joins[join_count++] = p->systems[k];
		}
	}
	for (uint32_t k = 0; k < join_count && rc == ECS_OK; k++) {
		struct family_system *y = &s->systems[joins[k]];
		rc = family_grow(s, (void **)&y->entities, &y->cap, y->count + count,
		                 sizeof *y->entities);
	}
	return rc == ECS_OK ? join_count : FAMILY_JOINS_FAILED;
}

/*
 * entity_create_batch: every entity of a batch has the same types, so the same bitset and the
 * same systems: both are worked out once. Then one growth of each pool's values and owners, of
 * the per-entity arrays and of each joined system's list, for the whole batch; each entity is
 * then taken from the free list (or past the used ones), given its bitset, and appended to its
 * pools (owners and index) and systems; the values are copied last, a column at a time. The
 * only failures left after the growth are the indexes' insertions (a node each for hash and
 * tree, a geometric growth for vector): the entities placed so far are taken back, newest
 * first, so that every list and the free list are as they were.
 */
static int family_entity_create_batch_body(ecs_storage *s, const uint32_t *types,
                                           uint32_t type_count, const struct ecs_values *values,
                                           uint32_t count, ecs_entity *out, uint32_t recycled,
                                           uint32_t fresh)
{
	/* (ECS_ERR_FULL came from how many come from the free list, counted as it changes: no walk
	 * of its links, which at a large batch would be a miss each. The walk below takes them as
	 * it goes, so their count is not needed here.) */
	(void)recycled;
	int rc;
	const uint32_t used_before = s->entity_used;
	if (fresh && (rc = entities_grow(s, used_before + fresh)) != ECS_OK)
		return rc;
	/* The values may point into the pools that grow: their pointers follow (pool_grow_values). */
	const void *data[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < type_count; i++)
		data[i] = values[i].data;
	for (uint32_t i = 0; i < type_count && rc == ECS_OK; i++) {
		struct family_pool *p = &s->pools[types[i]];
		if (p->count + (uint64_t)count > UINT32_MAX)
			return ECS_ERR_NO_MEMORY;
		uint32_t need = p->count + count;
		if (need > p->values_cap)
			rc = pool_grow_values(s, p, need, data, type_count);
		if (rc == ECS_OK)
			rc = family_grow(s, (void **)&p->owners, &p->owners_cap, need, sizeof *p->owners);
	}
	if (rc != ECS_OK)
		return rc;
	/* The bitset of the batch's set, and the systems it joins. */
	family_word set[ECS_MAX_COMPONENT_TYPES / FAMILY_WORD_BITS];
	uint16_t joins[ECS_MAX_SYSTEMS];
	uint32_t join_count = family_batch_joins(s, types, type_count, count, set, joins);
	if (join_count == FAMILY_JOINS_FAILED)
		return ECS_ERR_NO_MEMORY;
	uint32_t first[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < type_count; i++)
		first[i] = s->pools[types[i]].count;
	uint32_t j;
	for (j = 0; j < count; j++) {
		uint32_t index = s->free_head;
		bool from_free = index != FAMILY_NO_FREE;
		family_word *bits;
		if (from_free) {
			bits = family_bits(s, index);
			s->free_head = bits[0];
			s->free_count--;
		} else {
			index = s->entity_used++;
			s->entity_gen[index] = 0;
			bits = family_bits(s, index);
		}
		memcpy(bits, set, (size_t)s->words * sizeof *bits);
		uint16_t gen = (uint16_t)(s->entity_gen[index] | FAMILY_ALIVE);
		s->entity_gen[index] = gen;
		ecs_entity e = ecs_entity_make(index, gen);
		uint32_t pushed = 0, joined = 0;
		for (; pushed < type_count; pushed++)
			if ((rc = pool_append(s, &s->pools[types[pushed]], e)) != ECS_OK)
				break;
		for (; rc == ECS_OK && joined < join_count; joined++)
			if ((rc = system_add_entity(s, &s->systems[joins[joined]], e)) != ECS_OK)
				break;
		if (rc != ECS_OK) { /* this one as far as it went (its failed step did nothing) */
			batch_unplace(s, e, types, pushed, joins, joined, used_before);
			break;
		}
		out[j] = e;
	}
	if (rc != ECS_OK) {
		while (j--)
			batch_unplace(s, out[j], types, type_count, joins, join_count, used_before);
		return rc;
	}
	for (uint32_t i = 0; i < type_count; i++)
		pool_write_values(&s->pools[types[i]], first[i], data[i], values[i].stride, count);
	return ECS_OK;
}

ECS_CREATE_BATCH_SHELL(family, entity_used)

/*
 * component_add_batch: after the checks, one growth of the pool's values (the values may point
 * into them: the pointer follows) and owners for the whole batch; then each entity is appended
 * to the pool, given the bit, and joins the systems that require the type and that it now
 * satisfies (each may fail for want of memory: then the entities done so far are taken back,
 * newest first). Only once every join has succeeded do the entities leave the systems that
 * exclude the type, which cannot fail; the values are copied last, a column at a time.
 */
static int batch_add(ecs_storage *s, struct family_pool *p, const ecs_entity *entities,
                     uint32_t count, uint32_t type, const struct ecs_values *values)
{
	int rc;
	if (p->count + (uint64_t)count > UINT32_MAX)
		return ECS_ERR_NO_MEMORY;
	uint32_t first = p->count, need = first + count;
	const void *data = values->data;
	if (need > p->values_cap && (rc = pool_grow_values(s, p, need, &data, 1)) != ECS_OK)
		return rc;
	if ((rc = family_grow(s, (void **)&p->owners, &p->owners_cap, need, sizeof *p->owners)))
		return rc;
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	uint32_t word = type / FAMILY_WORD_BITS, j, k = 0;
	for (j = 0; j < count; j++) {
		ecs_entity e = entities[j];
		family_word *bits = family_bits(s, ecs_entity_index(e));
		if ((rc = pool_append(s, p, e)) != ECS_OK)
			break;
		bits[word] |= mask;
		for (k = 0; k < p->system_count; k++) {
			struct family_system *y = &s->systems[p->systems[k]];
			if (family_satisfies(y, bits) && (rc = system_add_entity(s, y, e)) != ECS_OK)
				break;
		}
		if (rc != ECS_OK) { /* this one: the systems joined before system k, then the pool */
			uint32_t index = ecs_entity_index(e);
			while (k--) {
				struct family_system *y = &s->systems[p->systems[k]];
				if (family_satisfies(y, bits))
					system_remove_entity(s, y, index);
			}
			bits[word] &= ~mask;
			pool_remove(s, p, index);
			break;
		}
	}
	if (rc != ECS_OK) { /* the ones before, newest first: each is the last on its lists */
		while (j--) {
			uint32_t index = ecs_entity_index(entities[j]);
			family_word *bits = family_bits(s, index);
			for (k = p->system_count; k--;) {
				struct family_system *y = &s->systems[p->systems[k]];
				if (family_satisfies(y, bits))
					system_remove_entity(s, y, index);
			}
			bits[word] &= ~mask;
			pool_remove(s, p, index);
		}
		return rc;
	}
	if (__builtin_expect(p->excluder_count != 0, 0))
		for (j = 0; j < count; j++) {
			uint32_t index = ecs_entity_index(entities[j]);
			excluders_leave(s, p, family_bits(s, index), type, index);
		}
	pool_write_values(p, first, data, values->stride, count);
	return ECS_OK;
}

/*
 * component_remove_batch: after the checks, the entities first join the systems that exclude
 * the type (they satisfy them without it), the one step that can fail for want of memory: then
 * those joined so far are left again, newest first. After that nothing can fail: each entity
 * leaves the systems that require the type and its value is swap-removed from the pool.
 */
static int batch_remove(ecs_storage *s, struct family_pool *p, const ecs_entity *entities,
                        uint32_t count, uint32_t type)
{
	int rc = ECS_OK;
	family_word mask = (family_word)1 << (type % FAMILY_WORD_BITS);
	uint32_t word = type / FAMILY_WORD_BITS, j;
	if (__builtin_expect(p->excluder_count != 0, 0)) {
		for (j = 0; j < count; j++)
			if ((rc = excluders_join(s, p, family_bits(s, ecs_entity_index(entities[j])), type,
			                         entities[j])) != ECS_OK)
				break;
		if (rc != ECS_OK) {
			while (j--) {
				uint32_t index = ecs_entity_index(entities[j]);
				family_word *bits = family_bits(s, index);
				bits[word] &= ~mask;
				for (uint32_t k = p->excluder_count; k--;) {
					struct family_system *y = &s->systems[p->excluders[k]];
					if (family_satisfies(y, bits))
						system_remove_entity(s, y, index);
				}
				bits[word] |= mask;
			}
			return rc;
		}
	}
	for (j = 0; j < count; j++) {
		uint32_t index = ecs_entity_index(entities[j]);
		family_word *bits = family_bits(s, index);
		for (uint32_t k = 0; k < p->system_count; k++) {
			struct family_system *y = &s->systems[p->systems[k]];
			if (family_satisfies(y, bits))
				system_remove_entity(s, y, index);
		}
		bits[word] &= ~mask;
		pool_remove(s, p, index);
	}
	return ECS_OK;
}

/* component_add_batch's and component_remove_batch's body (ECS_BATCH_SHELLS; values NULL: the
 * removal): the entities and the type checked, nothing to do at a count of 0, then the add or
 * the removal. */
static int family_batch_change(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                               uint32_t type, const struct ecs_values *values)
{
	int rc = family_batch_check(s, entities, count, type, !values);
	if (rc != ECS_OK || count == 0)
		return rc;
	struct family_pool *p = &s->pools[type];
	return values ? batch_add(s, p, entities, count, type, values)
	              : batch_remove(s, p, entities, count, type);
}

ECS_BATCH_SHELLS(family)

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
	.entity_create_with = family_entity_create_with,
	.entity_destroy = family_entity_destroy,
	.entity_alive = family_entity_alive,
	.component_add = family_component_add,
	.component_remove = family_component_remove,
	.component_get = family_component_get,
	.component_get_batch = family_component_get_batch,
	.entity_get = family_entity_get,
	.component_has = family_component_has,
	.system_register = family_system_register,
	.system_iter_begin = family_system_iter_begin,
	.system_iter_next = family_system_iter_next,
	.system_iter_split = family_system_iter_split,
	.entity_create_batch = family_entity_create_batch,
	.component_add_batch = family_component_add_batch,
	.component_remove_batch = family_component_remove_batch,
};

#endif
