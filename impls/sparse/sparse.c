/*
 * sparse.c: one sparse set per component type (Varkor's refactor post, its new implementation;
 * EnTT's storage): the storage's code and the plain backend, which has no groups.
 *
 * Layout (impls/sparse/): pool.h (impls/, shared with hybrid) is the paged sparse set;
 * sparse.h the storage's data (records, systems, the variant's fields) and its hooks, each with
 * a default that does nothing; this file the operations, iteration and batches, with every hook
 * left at its default (they compile away: make instr holds its rows), and at its end the plain
 * backend's ops. A variant (group.c) names the hooks it changes, includes this file with
 * SPARSE_VARIANT defined (no plain ops of its own then) and defines them after: EnTT's storage
 * with a mixin, in C. Why one file and not a header: the file named for the backend holds its
 * code, and a variant is this code with other hooks, not another copy of it.
 *
 * system_group is left NULL in the plain backend: a system here always walks the smallest of
 * its pools and probes the others (ecs_system_group returns 0).
 *
 * What it stores: per entity index one 32-bit record, the handle while alive, else the next
 * index of the free list and the generation it comes back with (EnTT's implicit free list);
 * per type a pool: a sparse array entity index -> dense slot and the owner's generation (one
 * 32-bit entry laid out as a handle, entry_make; a probe masks the generation off) in 16 KiB
 * pages (made when an index of their range first gets the type), and the dense values and
 * owners' handles in one block, in step (remove swaps the last into the hole); the pools
 * holding a value, as a list (what entity_destroy probes: no bitset, no per-entity type list);
 * per system its type lists.
 *
 * Costs (k = the entity's or system's types, x its excluded ones, P = pools holding a value):
 *   entity_create       O(1) amortised: a free-list pop, or an append to the records
 *   entity_create_with  O(k) amortised: a dense append a type, one pass when no pool grows
 *   entity_destroy      O(P) probes, O(1) a component removed (swap-remove)
 *   component_add       O(1) amortised: a dense append (a 16 KiB page when its range is new)
 *   component_remove    O(1): a swap-remove; no system is told
 *   component_get       O(1): per component the page's entry and the value, the strategy's two
 *                       dependent loads and all the hit path reads (N = 2^20, k = 2: 4 misses
 *                       an entity, 5 when the record was read beside them): the entry's
 *                       generation checks the handle. A failed lookup reads the record too, to
 *                       tell dead from missing. component_get_batch prefetches the entries
 *                       ECS_GET_AHEAD handles on and each value
 *   entity_get          O(k): per type the page's entry and the value's address, nothing once
 *                       an entity (no record: each entry checks the handle); k = 2 at N = 2^20:
 *                       4 misses, the two entries independent, each value after its entry
 *                       (the caller's read). A type not found sends the call out of line
 *                       (sparse_entity_get_rest): every type again, the record read there
 *   component_has       O(1): the record, then the entry
 *   system_register     O(k): nothing matched now or updated later
 *   iteration           the smallest required pool walked, the other k - 1 and the x non-empty
 *                       excluded pools probed a driven entity (a smaller excluded pool walked
 *                       instead); runs in step in every pool handed out as columns, else
 *                       pointer batches of at most ECS_BATCH_MAX
 *   system_iter_split   O(1) + O(k) probes: a range of the driving pool's slots
 *   batches (M entities)  create: the checks (ECS_ERR_FULL from the free list's length), one
 *                       growth of the records and of each pool, each type's values a column at
 *                       a time; add: one growth, M appends; remove: M swap-removes. Repeats
 *                       are found by marking the records (O(M), no sort but on an error path)
 *
 * Fast paths (when each fires; lived-in: whether it fires in storage that has had destroys,
 * interleaved kinds, components removed and added back in no order):
 *   one-pass create     entity_create_with appends each type in one pass when every pool and
 *                       the records have room and the 64-bit repeat mask sees no false repeat;
 *                       else create_with_careful. Lived-in: yes (room is the rule).
 *   one-type system     a pool's dense part is the batch, whole. Lived-in: yes.
 *   empty exclusions    an excluded pool that holds nothing is not probed. Lived-in: partly.
 *   in-step runs        run_end: entities at consecutive slots of every probed pool found by one
 *                       lookup a pool and a memcmp of the handles, a batch of columns. Lived-in:
 *                       partly (runs given their types in the same order since the last
 *                       swap-remove; short after removes and re-adds in no order).
 *   small exclusions    an excluded pool smaller than the run is walked, not probed. Lived-in:
 *                       yes (by sizes, not order).
 *   2-type walk         walk_one: a system of two types excluding nothing keeps the probed
 *                       pool in registers; the driving pool stays a column up to the first
 *                       entity left out. Lived-in: yes for the loop, partly for the column.
 *   probed column       a probed pool whose slots for a batch happen to be consecutive is a
 *                       column. Lived-in: no.
 *   prefetch            each value a probe finds in a pointer batch: always.
 *   one entity's types  entity_get of 1 to 3 types runs straight-line code with the count a
 *                       constant (checks.h: ecs_entity_get_body), its hit path the entries and
 *                       the values' addresses only; it fires on every call whose types the
 *                       entity all has. Lived-in: yes (the entries hold their owners'
 *                       generations whatever the history; recycled indices, holes and
 *                       reshuffled pools change where they point, not what is read).
 *   destroy             only the pools that hold a value are probed. Lived-in: yes.
 *   packed values       a batch copies a column with one memcpy when stride == size.
 *                       Lived-in: yes (the caller's layout).
 * docs/performance.md has the measurements behind the layout and the in-step runs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sparse.h"

/* --- the ops --------------------------------------------------------------------------- */

static void sparse_destroy(ecs_storage *s)
{
	if (!s)
		return;
	if (s->pools)
		for (uint32_t t = 0; t < s->component_count; t++)
			pool_release(s, &s->pools[t]);
	pool_free(s, s->pools, (size_t)s->component_count * sizeof *s->pools);
	pool_free(s, s->live_pools, (size_t)s->component_count * sizeof *s->live_pools);
	pool_free(s, s->systems, (size_t)s->system_max * sizeof *s->systems);
	pool_free(s, s->records, (size_t)s->entity_cap * sizeof *s->records);
	sparse_hook_release(s);
	struct ecs_allocator alloc = s->alloc;
	alloc.free(alloc.ctx, s, sizeof *s);
}

/* The rest of sparse_create (ECS_CREATE_SHELL): on error, sparse_destroy frees what there is. */
static int sparse_setup(ecs_storage *s, const struct ecs_config *cfg)
{
	s->component_count = cfg->component_count;
	s->system_max = cfg->system_count;
	s->free_head = SPARSE_NO_INDEX;
	/* Everything sized by the profile is allocated here, so that add, remove, destroy and
	 * system_register never fail for want of it. */
	s->pools = pool_malloc(s, (size_t)s->component_count * sizeof *s->pools);
	s->live_pools = pool_malloc(s, (size_t)s->component_count * sizeof *s->live_pools);
	s->systems = pool_malloc(s, (size_t)s->system_max * sizeof *s->systems);
	if (!s->pools || !s->live_pools || !s->systems) {
		if (s->pools)
			memset(s->pools, 0, (size_t)s->component_count * sizeof *s->pools);
		return ECS_ERR_NO_MEMORY;
	}
	memset(s->pools, 0, (size_t)s->component_count * sizeof *s->pools);
	for (uint32_t t = 0; t < s->component_count; t++)
		s->pools[t].size = cfg->component_sizes[t];
	return sparse_hook_setup(s);
}

ECS_CREATE_SHELL(sparse)

static int sparse_reserve(ecs_storage *s, uint32_t entities)
{
	if (!s)
		return ECS_ERR_INVALID;
	return records_grow(s, entities < ECS_MAX_ENTITIES ? entities : ECS_MAX_ENTITIES);
}

static int sparse_entity_create(ecs_storage *s, ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	uint32_t index = s->free_head;
	if (index != SPARSE_NO_INDEX) {
		ecs_entity record = s->records[index];
		s->free_head = ecs_entity_index(record);
		s->free_count--;
		s->records[index] = ecs_entity_make(index, ecs_entity_generation(record));
	} else {
		if (s->entity_used >= ECS_MAX_ENTITIES)
			return ECS_ERR_FULL;
		int rc = records_grow(s, s->entity_used + 1);
		if (rc != ECS_OK)
			return rc;
		index = s->entity_used++;
		s->records[index] = ecs_entity_make(index, 0);
	}
	*out = s->records[index];
	return ECS_OK;
}

/* entity_create_with's end, both paths': the index taken (one more used, or off the free list,
 * whose dead records link through their index), the record written, the hook told. */
static inline int create_with_take(ecs_storage *s, bool fresh, uint32_t index, ecs_entity e,
                                   const uint32_t *types, uint32_t count, ecs_entity *out)
{
	if (fresh) {
		s->entity_used++;
	} else {
		s->free_head = ecs_entity_index(s->records[index]);
		s->free_count--;
	}
	s->records[index] = e;
	sparse_hook_created(s, &e, 1, types, count);
	*out = e;
	return ECS_OK;
}

/*
 * entity_create_with's careful path: every check in ecs.h's order, then room made in every pool
 * (the allocations, and the growths that may move the values given, which may point into the
 * pools), so that once the writes start nothing can fail and nothing has to be undone. The
 * index is taken last.
 */
static __attribute__((noinline)) int create_with_careful(ecs_storage *s, const uint32_t *types,
                                                         uint32_t count,
                                                         const void *const *values,
                                                         ecs_entity *out)
{
	uint32_t index;
	int rc = ecs_create_with_open(types, count, values, s->component_count, &s->free_head,
	                              SPARSE_NO_INDEX, &s->entity_used, &index);
	if (rc != ECS_OK)
		return rc;
	bool fresh = s->free_head == SPARSE_NO_INDEX;
	if (fresh && (rc = records_grow(s, index + 1)) != ECS_OK)
		return rc;
	ecs_entity e = ecs_entity_make(index, fresh ? 0 : ecs_entity_generation(s->records[index]));
	const void *moved[ECS_CREATE_MAX_COMPONENTS];
	const void *const *v = values;
	for (uint32_t i = 0; i < count; i++) {
		struct sparse_pool *p = &s->pools[types[i]];
		if (!pool_has_room(p, index) &&
		    (rc = pool_make_room(s, p, index, &v, count, moved)) != ECS_OK)
			return rc;
	}
	for (uint32_t i = 0; i < count; i++)
		pool_append(s, types[i], &s->pools[types[i]], e, v[i]);
	return create_with_take(s, fresh, index, e, types, count, out);
}

/*
 * entity_create and count adds in one step, in one pass over the types: each is checked (in
 * range, a value given, not a repeat: a bit seen twice in a 64-bit mask, where types 64 apart
 * look alike too) and appended to its pool if the pool has room. Anything else (an error, a
 * pool or page to grow, the records to grow, a false repeat) takes back what was appended,
 * which allocated nothing and moved no value, and goes the careful way. At k = 2 this is half
 * the instructions of checking everything first and then making room (callgrind below).
 * noinline: reached only through the ops table, and without it gcc splits it in two
 * (ipa-split), a second prologue on every call.
 */
static __attribute__((noinline)) int sparse_entity_create_with(ecs_storage *s,
                                                               const uint32_t *types,
                                                               uint32_t count,
                                                               const void *const *values,
                                                               ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	bool fresh;
	uint32_t index = ecs_index_peek(s->free_head, SPARSE_NO_INDEX, &s->entity_used, &fresh);
	/* entity_cap never exceeds ECS_MAX_ENTITIES, so a fresh index below it is not past it. */
	if ((fresh && index >= s->entity_cap) || ecs_create_list_odd(types, count, values))
		return create_with_careful(s, types, count, values, out);
	ecs_entity e = ecs_entity_make(index, fresh ? 0 : ecs_entity_generation(s->records[index]));
	/* In locals: the stores below (a value copied as bytes may alias anything) would otherwise
	 * make the compiler reload them for every type. */
	struct sparse_pool *pools = s->pools;
	uint32_t component_count = s->component_count;
	uint32_t page = index >> SPARSE_PAGE_BITS, at = index & SPARSE_PAGE_MASK, i;
	uint64_t seen = 0;
	for (i = 0; i < count; i++) {
		uint32_t t = types[i];
		const void *value = values[i];
		if (!ecs_create_type_new(t, value, component_count, &seen))
			break;
		struct sparse_pool *p = &pools[t];
		uint32_t slot = p->count, size = p->size;
		if (slot >= p->cap || page >= p->page_count || !p->pages[page])
			break;
		uint32_t *entries = p->pages[page];
		unsigned char *to = p->values + (size_t)slot * size;
		ecs_entity *entities = p->entities;
		p->count = slot + 1;
		entries[at] = entry_make(slot, e);
		entities[slot] = e;
		if (slot == 0) {
			p->live_pos = s->live_count;
			s->live_pools[s->live_count++] = t;
		}
		ecs_copy_value(to, value, size);
	}
	if (__builtin_expect(i < count, 0)) {
		while (i--) {
			struct sparse_pool *p = &s->pools[types[i]];
			pool_remove(s, p, pool_entry(p, index), p->count - 1);
		}
		return create_with_careful(s, types, count, values, out);
	}
	return create_with_take(s, fresh, index, e, types, count, out);
}

/*
 * Without a per-entity bitset the entity's components are found by probing the pools; only
 * the pools that hold at least one value are probed (live_pools), so the cost follows the
 * component types in use, not the profile's component_count.
 */
static int sparse_entity_destroy(ecs_storage *s, ecs_entity e)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (!sparse_alive(s, e))
		return ECS_ERR_DEAD_ENTITY;
	uint32_t index = ecs_entity_index(e);
	sparse_hook_destroying(s, index);
	/* Backwards: a pool that empties is replaced in the list by the last one, already probed. */
	for (uint32_t j = s->live_count; j-- > 0;) {
		struct sparse_pool *p = &s->pools[s->live_pools[j]];
		uint32_t *entry = pool_find_entry(p, index);
		if (entry && *entry != SPARSE_NO_ENTRY)
			pool_remove(s, p, entry, entry_slot(*entry));
	}
	s->records[index] = ecs_entity_make(s->free_head, ecs_entity_generation(e) + 1);
	s->free_head = index;
	s->free_count++;
	return ECS_OK;
}

static int sparse_component_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	if (!value)
		return ECS_ERR_INVALID;
	int rc = sparse_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	struct sparse_pool *p = &s->pools[type];
	uint32_t index = ecs_entity_index(e);
	uint32_t *entry = pool_find_entry(p, index);
	if (entry && *entry != SPARSE_NO_ENTRY)
		return ECS_ERR_HAS_COMPONENT;
	if (!entry || p->count >= p->cap) {
		const void *moved[1];
		const void *const *v = &value;
		if ((rc = pool_make_room(s, p, index, &v, 1, moved)) != ECS_OK)
			return rc;
		value = v[0];
	}
	pool_append(s, type, p, e, value);
	sparse_hook_added(s, index, type);
	return ECS_OK;
}

static int sparse_component_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = sparse_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	struct sparse_pool *p = &s->pools[type];
	uint32_t index = ecs_entity_index(e);
	uint32_t *entry = pool_find_entry(p, index);
	if (!entry || *entry == SPARSE_NO_ENTRY)
		return ECS_ERR_NO_COMPONENT;
	sparse_hook_removing(s, index, type);
	pool_remove(s, p, entry, entry_slot(*entry));
	sparse_hook_removed(s, index, type);
	return ECS_OK;
}

/*
 * A lookup: the pool's page table, the page's entry, the value: the strategy's two dependent
 * loads (entry, value) and nothing of ours on the hit path: the entry holds the owner's
 * generation beside the slot (entry_make), so an entry that matches the handle proves both
 * that it is alive and that it has the value. Only a failed lookup reads the record, to tell a
 * dead handle (any age, ECS_NULL) from a missing component (ecs.h's order: dead first).
 */
static inline bool sparse_get_live(const ecs_storage *s, ecs_entity e, const void **state)
{
	(void)s, (void)e;
	*state = NULL;
	return true; /* proved by the entry (sparse_get_value), else asked by sparse_get_dead */
}

static inline bool sparse_get_value(const ecs_storage *s, const void *state, ecs_entity e,
                                    uint32_t type, void **value)
{
	(void)state;
	const struct sparse_pool *p = &s->pools[type];
	uint32_t index = ecs_entity_index(e), page = index >> SPARSE_PAGE_BITS;
	if (page >= p->page_count || !p->pages[page])
		return false;
	uint32_t slot = entry_match_slot(p->pages[page][index & SPARSE_PAGE_MASK], e);
	if (slot >= SPARSE_ABSENT)
		return false;
	*value = pool_value(p, slot);
	return true;
}

/* sparse_get_value for the batch loop (checks.h: ecs_get_batch_loop): the same answer, the
 * handle compared with the entry whole and the slot masked out after (two tests). The batch
 * loop holds a handle, its types and its read-ahead at once, and there the generation bits
 * entry_match_slot takes from each handle needed a register of their own, spilled: 4 more data
 * references an entity in get-batch (callgrind, N = 1024, k = 2), for 2 fewer instructions. */
static inline bool sparse_get_value_in_batch(const ecs_storage *s, const void *state,
                                             ecs_entity e, uint32_t type, void **value)
{
	(void)state;
	const struct sparse_pool *p = &s->pools[type];
	uint32_t index = ecs_entity_index(e), page = index >> SPARSE_PAGE_BITS;
	if (page >= p->page_count || !p->pages[page])
		return false;
	uint32_t entry = p->pages[page][index & SPARSE_PAGE_MASK];
	if (entry == SPARSE_NO_ENTRY || (entry ^ e) > ECS_INDEX_MASK)
		return false;
	*value = pool_value(p, entry_slot(entry));
	return true;
}

/* A batch's read-ahead: each type's entry (the record is read on a failure only). */
static inline void sparse_get_ahead(const ecs_storage *s, ecs_entity e, const uint32_t *types,
                                    uint32_t type_count)
{
	uint32_t index = ecs_entity_index(e), page = index >> SPARSE_PAGE_BITS;
	for (uint32_t i = 0; i < type_count; i++) {
		if (types[i] >= s->component_count)
			continue;
		const struct sparse_pool *p = &s->pools[types[i]];
		if (page < p->page_count && p->pages[page])
			__builtin_prefetch(&p->pages[page][index & SPARSE_PAGE_MASK]);
	}
}

static int sparse_component_get(ecs_storage *s, ecs_entity e, uint32_t type, void **out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	void *value;
	if (type < s->component_count && sparse_get_value(s, NULL, e, type, &value)) {
		*out = value;
		return ECS_OK;
	}
	return ecs_get_failed(sparse_get_dead(s, e), type, s->component_count);
}

/* The get shells (checks.h: ECS_GET_SHELLS): each entry proves its handle alive, and the record
 * is read on a failure only (sparse_get_dead); a batch prefetches the entries of the handles
 * ECS_GET_AHEAD places on, so that their cache misses overlap; entity_get reads nothing once
 * per entity, and a failure goes on out of line. */
ECS_GET_SHELLS(sparse, sparse_get_ahead, sparse_get_live, sparse_get_value,
               sparse_get_value_in_batch, sparse_get_dead)

static int sparse_component_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = sparse_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	return pool_find(&s->pools[type], ecs_entity_index(e)) != SPARSE_ABSENT;
}

/* A system is its list of types: nothing to match now, nothing to update on add or remove. */
static int sparse_system_register_body(ecs_storage *s, const uint32_t *types, uint32_t count,
                                       const uint32_t *excluded, uint32_t excluded_count,
                                       uint32_t *out_id)
{
	struct sparse_system *y = &s->systems[s->system_count];
	memset(y, 0, sizeof *y);
	y->type_count = count;
	memcpy(y->types, types, count * sizeof *types);
	y->excluded_count = excluded_count;
	if (excluded_count)
		memcpy(y->excluded, excluded, excluded_count * sizeof *excluded);
	*out_id = s->system_count++;
	return ECS_OK;
}

/* Iterator state: the system, which of its components drives the walk, the next dense slot,
 * the slot where the walk stops (the driving pool's count, or a part's end); a variant's own
 * from ITER_VARIANT on. */
enum { ITER_SYSTEM, ITER_DRIVER, ITER_NEXT, ITER_END, ITER_VARIANT };

/* The system's component whose pool drives its walk: the smallest. */
static uint32_t sparse_driver(const ecs_storage *s, const struct sparse_system *y)
{
	uint32_t driver = 0;
	for (uint32_t c = 1; c < y->type_count; c++)
		if (s->pools[y->types[c]].count < s->pools[y->types[driver]].count)
			driver = c;
	return driver;
}

/*
 * Where part `part` of a split starts among the driving pool's dense slots: an even share of
 * them, moved forward (by less than a part) to the next slot whose entity's value of the
 * system's first component starts a cache line, where that pool holds the entities from the
 * share's start on at consecutive slots (always, when it is the driving pool itself).
 */
static uint32_t sparse_split_bound(const ecs_storage *s, const struct sparse_system *y,
                                   uint32_t driver, uint32_t part, uint32_t parts)
{
	const struct sparse_pool *dp = &s->pools[y->types[driver]];
	uint32_t at = ecs_split_bound(dp->count, part, parts);
	uint32_t limit = ecs_split_limit(dp->count, part, parts);
	if (!limit)
		return at;
	const struct sparse_pool *w = &s->pools[y->types[0]];
	uint32_t slot = driver == 0 ? at : pool_find(w, ecs_entity_index(dp->entities[at]));
	if (slot == SPARSE_ABSENT)
		return at;
	uint32_t d = ecs_split_align(pool_value(w, slot), w->size, limit);
	if (d && (driver == 0 || pool_find(w, ecs_entity_index(dp->entities[at + d])) == slot + d))
		return at + d;
	return at;
}

/*
 * A range of the driving pool's dense slots: the walk, its probes and its pointer batches stay
 * inside it, so a batch never spans two parts. Balanced by the driving pool's entities; where
 * the other pools hold only some of them, the matches may be spread unevenly.
 */
static inline int sparse_system_iter_split_body(ecs_storage *s, uint32_t system,
                                                uint32_t part, uint32_t parts, struct ecs_iter *it)
{
	const struct sparse_system *y = &s->systems[system];
	if (sparse_hook_iter_split(s, y, system, part, parts, it))
		return ECS_OK;
	uint32_t driver = sparse_driver(s, y);
	it->storage = s;
	it->state[ITER_SYSTEM] = system;
	it->state[ITER_DRIVER] = driver;
	it->state[ITER_NEXT] = sparse_split_bound(s, y, driver, part, parts);
	it->state[ITER_END] = sparse_split_bound(s, y, driver, part + 1, parts);
	return ECS_OK;
}

/* The whole pass: the one part of one. */
static int sparse_system_iter_begin_body(ecs_storage *s, uint32_t system, struct ecs_iter *it)
{
	return sparse_system_iter_split_body(s, system, 0, 1, it);
}

ECS_SYSTEM_SHELLS(sparse)

/* Looks index up in the m probed pools; false as soon as one lacks it. */
static inline bool probe_all(const struct sparse_pool *const *probe, uint32_t m, uint32_t index,
                             uint32_t *slot)
{
	for (uint32_t j = 0; j < m; j++)
		if ((slot[j] = pool_find(probe[j], index)) == SPARSE_ABSENT)
			return false;
	return true;
}

/*
 * The end of the run from start (which matches, at base[j] in probed pool j): the first dense
 * slot i of the driving pool whose entity is not at base[j] + (i - start) in every probed pool.
 * Comparing the handle arrays a chunk at a time (memcmp) costs a fraction of a load per entity;
 * a chunk that differs is walked entity by entity to find where.
 */
static uint32_t run_end(const struct sparse_pool *dp, const struct sparse_pool *const *probe,
                        const uint32_t *base, uint32_t m, uint32_t start, uint32_t end)
{
	uint32_t i = start + 1;
	while (i < end) {
		uint32_t d = i - start, len = end - i;
		if (len > SPARSE_COMPARE_CHUNK)
			len = SPARSE_COMPARE_CHUNK;
		for (uint32_t j = 0; j < m; j++)
			if (probe[j]->count - (base[j] + d) < len) /* base[j] + d <= count holds */
				len = probe[j]->count - (base[j] + d);
		if (len == 0)
			return i;
		uint32_t j = 0;
		while (j < m && memcmp(dp->entities + i, probe[j]->entities + base[j] + d,
		                       len * sizeof(ecs_entity)) == 0)
			j++;
		if (j == m) {
			i += len;
			continue;
		}
		for (uint32_t stop = i + len; i < stop; i++)
			for (j = 0; j < m; j++)
				if (probe[j]->entities[base[j] + (i - start)] != dp->entities[i])
					return i;
		return i;
	}
	return i;
}

/* A probed pool's fields, in locals for the walk of a pointer batch (iter_walk). */
struct probe_view {
	uint32_t *const *pages;
	uint32_t page_count;
	unsigned char *values;
	size_t size;
	void **out;    /* the batch's pointers of this pool's component */
	uint32_t base; /* the slot of the batch's first entity */
	bool column;   /* whether every slot so far is base + its position in the batch */
};

static inline uint32_t view_find(const struct probe_view *v, uint32_t index)
{
	uint32_t page = index >> SPARSE_PAGE_BITS;
	if (page >= v->page_count || !v->pages[page])
		return SPARSE_ABSENT;
	return entry_slot(v->pages[page][index & SPARSE_PAGE_MASK]);
}

/* Where a pointer batch's walk stands. */
struct walk {
	uint32_t i, n; /* the next slot of the driving pool; the entities in the batch */
	bool gap;      /* whether an entity of the driving pool was left out */
	bool column;   /* whether the probed pool's slots are consecutive so far */
};

/*
 * The walk of a pointer batch (iter_walk) with one pool probed and nothing excluded (a system
 * of two types), apart and with the view in scalars, which the compiler does not make of the
 * general walk's arrays: each probed pool's fields and the batch's counters in registers, and
 * the loop before the first entity left out apart from the one after it (iterate-aged,
 * N = 2^17, k = 2: the whole pass, update included, 55.2 -> 38.6 instructions an entity,
 * callgrind).
 */
static __attribute__((noinline)) void walk_one(struct walk *w, uint32_t end, uint32_t start,
                                               const ecs_entity *driving,
                                               unsigned char *driving_values,
                                               size_t driving_size, void **driving_out,
                                               ecs_entity *entities,
                                               const struct probe_view *v)
{
	uint32_t *const *pages = v->pages;
	uint32_t page_count = v->page_count, first = v->base;
	unsigned char *values = v->values;
	size_t size = v->size;
	void **out = v->out;
	uint32_t i = w->i, n = w->n;
	bool gap = w->gap, column = w->column;
	/* Two loops, before and after the first entity left out, each without the other's test. */
	if (!gap) {
		/* i and n go up together: one bound for both */
		uint32_t stop = end - i < ECS_BATCH_MAX - n ? end : i + (ECS_BATCH_MAX - n);
		uint32_t i0 = i - n;
		for (; i < stop; i++) {
			uint32_t index = ecs_entity_index(driving[i]), page = index >> SPARSE_PAGE_BITS;
			if (page >= page_count || !pages[page])
				break;
			uint32_t at = entry_slot(pages[page][index & SPARSE_PAGE_MASK]);
			if (at == SPARSE_ABSENT)
				break;
			unsigned char *value = values + (size_t)at * size;
			__builtin_prefetch(value);
			out[i - i0] = value;
			column &= at == first + (i - i0);
		}
		n = i - i0;
		if (i < end && n < ECS_BATCH_MAX) {
			/* From here on the driving pool's part is no longer consecutive. */
			gap = true;
			memcpy(entities, driving + start, n * sizeof *entities);
			for (uint32_t d = 0; d < n; d++)
				driving_out[d] = driving_values + (start + d) * driving_size;
			i++;
		}
	}
	/*
	 * After the first entity left out, without a branch on whether each entity is in the
	 * probed pool: its pointers are written in any case and the batch grows by one where it
	 * is. Where the pool holds a random half of the driving pool's entities (fragmented) that
	 * branch went the wrong way every other entity: callgrind --branch-sim=yes, fragmented
	 * N = 2^17, k = 2, 33,308 mispredicted conditional branches in the pass, 898 now, for
	 * 3.18 -> 3.63 million instructions.
	 */
	if (gap) {
		for (; i < end && n < ECS_BATCH_MAX; i++) {
			ecs_entity e = driving[i];
			uint32_t index = ecs_entity_index(e), page = index >> SPARSE_PAGE_BITS;
			uint32_t at = SPARSE_ABSENT;
			if (page < page_count && pages[page])
				at = entry_slot(pages[page][index & SPARSE_PAGE_MASK]);
			bool in = at != SPARSE_ABSENT;
			/* the slot, or 0 where absent (a mask, not a choice gcc would make a branch) */
			unsigned char *value = values + (size_t)(at & (0u - (uint32_t)in)) * size;
			__builtin_prefetch(value);
			out[n] = value;
			column &= !in | (at == first + n);
			entities[n] = e;
			driving_out[n] = driving_values + i * driving_size;
			n += in;
		}
	}
	*w = (struct walk){i, n, gap, column};
}

/* Whether index is in none of the x excluded pools. */
static inline bool probe_none(const struct sparse_pool *const *excl, uint32_t x, uint32_t index)
{
	for (uint32_t j = 0; j < x; j++)
		if (pool_find(excl[j], index) != SPARSE_ABSENT)
			return false;
	return true;
}

/*
 * The end of a run from start to stop (slots of the driving pool dp; start's entity is in no
 * excluded pool): the first slot whose entity is in one of the x excluded pools, or stop. An
 * excluded pool smaller than the run is walked instead of probed for each of the run's entities
 * (its entities looked up in dp): the cost is the smaller of the two, and a run that an
 * excluded pool holds none of stays whole, a column batch.
 */
static uint32_t run_end_excluding(const struct sparse_pool *dp,
                                  const struct sparse_pool *const *excl, uint32_t x,
                                  uint32_t start, uint32_t stop)
{
	for (uint32_t j = 0; j < x && stop > start + 1; j++) {
		const struct sparse_pool *p = excl[j];
		if (p->count < stop - start) {
			for (uint32_t k = 0; k < p->count; k++) {
				uint32_t at = pool_find(dp, ecs_entity_index(p->entities[k]));
				if (at != SPARSE_ABSENT && at > start && at < stop)
					stop = at;
			}
		} else {
			for (uint32_t at = start + 1; at < stop; at++)
				if (pool_find(p, ecs_entity_index(dp->entities[at])) != SPARSE_ABSENT)
					stop = at;
		}
	}
	return stop;
}

/* iter_walk's end, the walk stopped at slot i: a batch of n entities handed out, each probed
 * pool's part as a column where its slots came out consecutive (view[j].column), as pointers
 * otherwise; the driving pool's part as a column unless a gap broke it. */
static inline __attribute__((always_inline)) void
batch_publish(struct ecs_iter *it, struct ecs_batch *b, const struct sparse_pool *dp,
              uint32_t driver, uint32_t start, uint32_t i, uint32_t n, bool gap,
              const struct probe_view *view, const struct sparse_pool *const *probe,
              const uint32_t *base, const uint32_t *which, uint32_t m)
{
	bool column[ECS_SYSTEM_MAX_COMPONENTS];
	for (uint32_t j = 0; j < m; j++)
		column[j] = view[j].column;
	it->state[ITER_NEXT] = i;
	b->count = n;
	if (gap) {
		b->entities = it->entities;
		b->pointers[driver] = it->pointers[driver];
	} else {
		b->entities = dp->entities + start;
		b->columns[driver] = pool_value(dp, start);
	}
	for (uint32_t j = 0; j < m; j++) {
		if (column[j])
			b->columns[which[j]] = pool_value(probe[j], base[j]);
		else
			b->pointers[which[j]] = it->pointers[which[j]];
	}
}

/* sparse_system_iter_next past its start: the walk from slot i of the driving pool (see
 * there). Inlined into it twice, once with x == 0. */
static inline __attribute__((always_inline)) bool
iter_walk(struct ecs_iter *it, struct ecs_batch *b, const struct sparse_system *y, uint32_t driver,
          uint32_t i, uint32_t end, const struct sparse_pool *const *excl, uint32_t x,
          uint32_t type_count)
{
	ecs_storage *s = it->storage;
	const struct sparse_pool *dp = &s->pools[y->types[driver]];
	const struct sparse_pool *probe[ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t which[ECS_SYSTEM_MAX_COMPONENTS]; /* the system's component of each probed pool */
	uint32_t base[ECS_SYSTEM_MAX_COMPONENTS], slot[ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t m = type_count - 1; /* the driver is one of the system's types */
	for (uint32_t c = 0, j = 0; c < type_count; c++) {
		if (c == driver)
			continue;
		probe[j] = &s->pools[y->types[c]];
		which[j++] = c;
	}
	while (i < end && !(probe_all(probe, m, ecs_entity_index(dp->entities[i]), base) &&
	                    probe_none(excl, x, ecs_entity_index(dp->entities[i]))))
		i++;
	if (i == end) {
		it->state[ITER_NEXT] = end;
		return false;
	}
	uint32_t start = i;
	i = run_end(dp, probe, base, m, start, end);
	if (x)
		i = run_end_excluding(dp, excl, x, start, i);
	uint32_t n = i - start;
	if (i == end || n >= SPARSE_COLUMN_RUN) {
		b->count = n;
		b->entities = dp->entities + start;
		b->columns[driver] = pool_value(dp, start);
		for (uint32_t j = 0; j < m; j++)
			b->columns[which[j]] = pool_value(probe[j], base[j]);
		it->state[ITER_NEXT] = i;
		return true;
	}

	/*
	 * A short run: it starts a pointer batch. The pools' fields are read into locals once: the
	 * pointer stores below (void *, which may alias any pointer) would otherwise make the
	 * compiler reload them for every entity. Each value found is prefetched: the system reads
	 * it only after the walk has gone on for up to ECS_BATCH_MAX entities, time for its line
	 * to arrive where the slots are scattered (a pool whose values came in another order than
	 * the driving pool's: iterate-aged), instead of a miss at a time in the system's loop.
	 * iterate-aged, N = 2^20, k = 2, ratio_to_floor in three alternating single-process runs
	 * of each build: 14.8 27.5 28.9 without the prefetch, 7.5 7.8 9.6 with it.
	 */
	struct probe_view view[ECS_SYSTEM_MAX_COMPONENTS];
	for (uint32_t j = 0; j < m; j++) {
		view[j] = (struct probe_view){probe[j]->pages, probe[j]->page_count, probe[j]->values,
		                              probe[j]->size, it->pointers[which[j]], base[j], true};
		for (uint32_t d = 0; d < n; d++)
			view[j].out[d] = view[j].values + (size_t)(base[j] + d) * view[j].size;
	}
	const ecs_entity *driving = dp->entities;
	unsigned char *driving_values = dp->values;
	size_t driving_size = dp->size;
	void **driving_out = it->pointers[driver];
	bool gap = false;
	if (m == 1 && x == 0) {
		struct walk w = {i, n, gap, true};
		walk_one(&w, end, start, driving, driving_values, driving_size, driving_out,
		         it->entities, &view[0]);
		i = w.i;
		n = w.n;
		gap = w.gap;
		view[0].column = w.column;
	}
	for (; i < end && n < ECS_BATCH_MAX; i++) {
		ecs_entity e = driving[i];
		uint32_t index = ecs_entity_index(e), j = 0;
		while (j < m && (slot[j] = view_find(&view[j], index)) != SPARSE_ABSENT)
			j++;
		if (j < m || !probe_none(excl, x, index)) {
			if (!gap) {
				/* From here on the driving pool's part is no longer consecutive. */
				gap = true;
				memcpy(it->entities, driving + start, n * sizeof *it->entities);
				for (uint32_t d = 0; d < n; d++)
					driving_out[d] = driving_values + (start + d) * driving_size;
			}
			continue;
		}
		for (j = 0; j < m; j++) {
			unsigned char *value = view[j].values + (size_t)slot[j] * view[j].size;
			__builtin_prefetch(value);
			view[j].out[n] = value;
			view[j].column &= slot[j] == view[j].base + n;
		}
		if (gap) {
			it->entities[n] = e;
			driving_out[n] = driving_values + i * driving_size;
		}
		n++;
	}
	batch_publish(it, b, dp, driver, start, i, n, gap, view, probe, base, which, m);
	return true;
}

/* A batch with nothing in it: what an iterator's next hands back before it knows the rows. */
static inline void batch_clear(struct ecs_batch *b)
{
	b->count = 0;
	for (uint32_t c = 0; c < ECS_SYSTEM_MAX_COMPONENTS; c++) {
		b->columns[c] = NULL;
		b->pointers[c] = NULL;
	}
}

/*
 * Walks the driving (smallest) pool's dense entities from where the last batch stopped and
 * probes the other pools for each, and the excluded pools that hold anything (an entity found
 * in one is skipped). Two kinds of batch:
 *   - a run of consecutive dense slots whose entities sit at consecutive slots of every probed
 *     pool too (entities given their components in the same order, the common case): all
 *     columns, any length, found by comparing handle arrays (run_end), with no sparse lookup;
 *   - otherwise up to ECS_BATCH_MAX matching entities with pointer arrays; the driving pool's
 *     values and handles stay a column if no entity of the stretch was filtered out, and a
 *     probed pool's stay a column if its slots happened to be consecutive.
 */
static bool sparse_system_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	bool more;
	if (sparse_hook_iter_next(it, b, &more))
		return more;
	ecs_storage *s = it->storage;
	const struct sparse_system *y = &s->systems[it->state[ITER_SYSTEM]];
	uint32_t driver = (uint32_t)it->state[ITER_DRIVER];
	uint32_t i = (uint32_t)it->state[ITER_NEXT];
	const struct sparse_pool *dp = &s->pools[y->types[driver]];
	uint32_t end = (uint32_t)it->state[ITER_END];
	batch_clear(b);
	if (i >= end)
		return false;
	/* An empty excluded pool excludes nothing: a system whose excluded pools are all empty
	 * costs what it would without them. */
	const struct sparse_pool *excl[ECS_SYSTEM_MAX_EXCLUDED];
	uint32_t x = 0;
	for (uint32_t c = 0; c < y->excluded_count; c++)
		if (s->pools[y->excluded[c]].count)
			excl[x++] = &s->pools[y->excluded[c]];
	if (y->type_count == 1 && x == 0) {
		b->count = end - i;
		b->entities = dp->entities + i;
		b->columns[0] = pool_value(dp, i);
		it->state[ITER_NEXT] = end;
		return true;
	}
	/* x == 0 as a constant: the exclusion tests vanish from the walk (fragmented, N = 16384:
	 * 2 instructions an entity, callgrind). And the common systems' type counts as constants
	 * too, so that the loops over the probed pools unroll (iterate-aged, N = 2^17, k = 2,
	 * before walk_one took that case: 63.7 -> 57.2 instructions an entity). */
	if (x == 0 && y->type_count == 2)
		return iter_walk(it, b, y, driver, i, end, excl, 0, 2);
	if (x == 0 && y->type_count == 3)
		return iter_walk(it, b, y, driver, i, end, excl, 0, 3);
	if (x == 0)
		return iter_walk(it, b, y, driver, i, end, excl, 0, y->type_count);
	return iter_walk(it, b, y, driver, i, end, excl, x, y->type_count);
}

/* --- batches (ecs.h: entity_create_batch, component_add_batch, component_remove_batch) --- */

/*
 * The checks of a batch over a list of entities, before anything changes, in ecs.h's order:
 * ECS_ERR_INVALID (a repeated handle), ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT, then
 * ECS_ERR_HAS_COMPONENT (want_has false) or ECS_ERR_NO_COMPONENT.
 *
 * Repeats in O(count) without allocating: each live handle's record is overwritten with its
 * complement, which no handle of that index equals, so a second occurrence of the handle (or
 * another generation of its index) fails the liveness test. The marking stops at the first
 * handle that fails it and the records marked so far (all distinct live handles) are restored;
 * only then, on that error path, does ecs_batch_has_repeat (impls/ecs.c) sort. A failed
 * record is never restored by value: a dead index's record (the free list) may happen to equal
 * a complement.
 */
static int sparse_batch_check(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                              uint32_t type, bool want_has)
{
	ecs_entity *records = s->records;
	uint32_t used = s->entity_used, j;
	for (j = 0; j < count; j++) {
		ecs_entity e = entities[j];
		uint32_t index = ecs_entity_index(e);
		if (index >= used || records[index] != e)
			break;
		records[index] = ~e;
	}
	for (uint32_t k = 0; k < j; k++)
		records[ecs_entity_index(entities[k])] = entities[k];
	if (j < count)
		return ecs_batch_has_repeat(entities, count) ? ECS_ERR_INVALID : ECS_ERR_DEAD_ENTITY;
	if (type >= s->component_count)
		return ECS_ERR_BAD_COMPONENT;
	const struct sparse_pool *p = &s->pools[type];
	for (j = 0; j < count; j++)
		if ((pool_find(p, ecs_entity_index(entities[j])) != SPARSE_ABSENT) != want_has)
			return want_has ? ECS_ERR_NO_COMPONENT : ECS_ERR_HAS_COMPONENT;
	return ECS_OK;
}

/*
 * Room in pool p for the count indices of handles[] at slots count.. on: one growth of the
 * dense part (the values data[0..n-1] follow it where they point into it, pool_grow), the
 * page table up to the highest page, and the pages not there yet. On error the pool has gained
 * capacity at most.
 */
static int pool_make_room_batch(ecs_storage *s, struct sparse_pool *p, const ecs_entity *handles,
                                uint32_t count, uint32_t max_page, const void **data, uint32_t n)
{
	int rc;
	if ((uint64_t)p->count + count > p->cap &&
	    (rc = pool_grow(s, p, p->count + count, data, n)) != ECS_OK)
		return rc;
	if (max_page >= p->page_count && (rc = pool_grow_page_table(s, p, max_page + 1)) != ECS_OK)
		return rc;
	uint32_t last = UINT32_MAX; /* the page checked last: runs of one page are checked once */
	for (uint32_t j = 0; j < count; j++) {
		uint32_t page = ecs_entity_index(handles[j]) >> SPARSE_PAGE_BITS;
		if (page == last || p->pages[page])
			continue;
		last = page;
		if ((rc = pool_page_new(s, p, page)) != ECS_OK)
			return rc;
	}
	return ECS_OK;
}

/* The highest page among the handles' indices. */
static uint32_t batch_max_page(const ecs_entity *handles, uint32_t count)
{
	uint32_t max = 0;
	for (uint32_t j = 0; j < count; j++) {
		uint32_t page = ecs_entity_index(handles[j]) >> SPARSE_PAGE_BITS;
		max = page > max ? page : max;
	}
	return max;
}

/*
 * Appends count handles and their values (data, stride) to a pool that has room: the entries,
 * the owners, then the values a column at a time, one memmove where they are packed as the
 * pool's (stride == size). Values already held are never written over, so a value that points
 * into the storage reads as it was.
 */
static void pool_append_batch(ecs_storage *s, uint32_t type, struct sparse_pool *p,
                              const ecs_entity *handles, uint32_t count, const void *data,
                              size_t stride)
{
	uint32_t first = p->count, size = p->size;
	for (uint32_t j = 0; j < count; j++)
		*pool_entry(p, ecs_entity_index(handles[j])) = entry_make(first + j, handles[j]);
	memcpy(p->entities + first, handles, (size_t)count * sizeof *handles);
	unsigned char *to = p->values + (size_t)first * size;
	const unsigned char *from = data;
	if (stride == size)
		memmove(to, from, (size_t)count * size);
	else
		for (uint32_t j = 0; j < count; j++)
			ecs_copy_value(to + (size_t)j * size, from + (size_t)j * stride, size);
	if (first == 0 && count) {
		p->live_pos = s->live_count;
		s->live_pools[s->live_count++] = type;
	}
	p->count = first + count;
}

/*
 * Every check first; then the handles the batch will get, in out[] (the free list's indices,
 * walked without taking them, then fresh ones); then one growth of the records and of each
 * pool for the whole batch, and the pages; only then is anything written: the indices taken,
 * each type's owners and values appended a column at a time.
 */
static int sparse_entity_create_batch_body(ecs_storage *s, const uint32_t *types,
                                           uint32_t type_count, const struct ecs_values *values,
                                           uint32_t count, ecs_entity *out, uint32_t recycled,
                                           uint32_t fresh)
{
	/* The handles in out[]: the free list's, walked once without taking them (each record gives
	 * the generation and the next link in one load), then fresh ones. */
	uint32_t used = s->entity_used;
	int rc;
	uint32_t next_free = s->free_head;
	for (uint32_t j = 0; j < recycled; j++) {
		ecs_entity record = s->records[next_free];
		out[j] = ecs_entity_make(next_free, ecs_entity_generation(record));
		next_free = ecs_entity_index(record);
	}
	for (uint32_t j = 0; j < fresh; j++)
		out[recycled + j] = ecs_entity_make(used + j, 0);
	if (fresh && (rc = records_grow(s, used + fresh)) != ECS_OK)
		return rc;
	const void *data[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < type_count; i++)
		data[i] = values[i].data;
	uint32_t max_page = batch_max_page(out, count);
	for (uint32_t i = 0; i < type_count; i++)
		if ((rc = pool_make_room_batch(s, &s->pools[types[i]], out, count, max_page, data,
		                               type_count)) != ECS_OK)
			return rc;
	/* Nothing fails from here on. The free list's indices taken: stores only, the walk above
	 * found where the list goes on. */
	for (uint32_t j = 0; j < recycled; j++)
		s->records[ecs_entity_index(out[j])] = out[j];
	s->free_head = next_free;
	s->free_count -= recycled;
	for (uint32_t j = 0; j < fresh; j++)
		s->records[used + j] = out[recycled + j];
	s->entity_used = used + fresh;
	for (uint32_t i = 0; i < type_count; i++)
		pool_append_batch(s, types[i], &s->pools[types[i]], out, count, data[i],
		                  values[i].stride);
	sparse_hook_created(s, out, count, types, type_count);
	return ECS_OK;
}

ECS_CREATE_BATCH_SHELL(sparse, entity_used)

/*
 * A list of entities may point into the storage (a batch's entities from an iteration are a
 * pool's owners): the appends, removes and a group's swaps would change it while it is read.
 * Such a list (found among the blocks of the pools in use: O(P)) is copied aside first, to
 * *copy (freed by the caller, *bytes long); NULL on failure, else the list to read.
 */
static const ecs_entity *batch_list(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                                    ecs_entity **copy, size_t *bytes)
{
	uintptr_t a = (uintptr_t)entities, z = (uintptr_t)(entities + count);
	*copy = NULL;
	*bytes = (size_t)count * sizeof *entities;
	for (uint32_t j = 0; j < s->live_count; j++) {
		const struct sparse_pool *p = &s->pools[s->live_pools[j]];
		uintptr_t from = (uintptr_t)p->values, to = from + pool_block_bytes(p, p->cap);
		if (a < to && z > from) {
			if (!(*copy = pool_malloc(s, *bytes)))
				return NULL;
			memcpy(*copy, entities, *bytes);
			return *copy;
		}
	}
	return entities;
}

/* One growth of the pool, count appends (then, in the group build, the joins and
 * leaves the type makes). */
static int batch_add(ecs_storage *s, struct sparse_pool *p, const ecs_entity *list,
                     uint32_t count, uint32_t type, const struct ecs_values *values)
{
	const void *data = values->data;
	int rc = pool_make_room_batch(s, p, list, count, batch_max_page(list, count), &data, 1);
	if (rc == ECS_OK) {
		pool_append_batch(s, type, p, list, count, data, values->stride);
		for (uint32_t j = 0; j < count; j++)
			sparse_hook_added(s, ecs_entity_index(list[j]), type);
	}
	return rc;
}

/* Count swap-removes (in the group build, members of the group that owns the
 * pool leave it first; entities may join the groups that exclude the type after). */
static int batch_remove(ecs_storage *s, struct sparse_pool *p, const ecs_entity *list,
                        uint32_t count, uint32_t type)
{
	for (uint32_t j = 0; j < count; j++) {
		uint32_t index = ecs_entity_index(list[j]);
		sparse_hook_removing(s, index, type);
		uint32_t *entry = pool_entry(p, index);
		pool_remove(s, p, entry, entry_slot(*entry));
	}
	for (uint32_t j = 0; j < count; j++)
		sparse_hook_removed(s, ecs_entity_index(list[j]), type);
	return ECS_OK;
}

/* component_add_batch's and component_remove_batch's body (ECS_BATCH_SHELLS; values NULL: the
 * removal): the entities and the type checked, nothing to do at a count of 0, then the add or
 * the removal over the list (batch_list: a copy where the caller's may move under it). */
static int sparse_batch_change(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                               uint32_t type, const struct ecs_values *values)
{
	int rc = sparse_batch_check(s, entities, count, type, !values);
	if (rc != ECS_OK || count == 0)
		return rc;
	ecs_entity *copy;
	size_t bytes;
	const ecs_entity *list = batch_list(s, entities, count, &copy, &bytes);
	if (!list)
		return ECS_ERR_NO_MEMORY;
	struct sparse_pool *p = &s->pools[type];
	rc = values ? batch_add(s, p, list, count, type, values) : batch_remove(s, p, list, count, type);
	pool_free(s, copy, bytes);
	return rc;
}

ECS_BATCH_SHELLS(sparse)

/* A variant's ops table but its name, description and what it adds: every operation is the
 * storage's. */
#define SPARSE_OPS                                                                                 \
	.version = ECS_INTERFACE_VERSION,                                                          \
	.create = sparse_create,                                                                   \
	.destroy = sparse_destroy,                                                                 \
	.reserve = sparse_reserve,                                                                 \
	.entity_create = sparse_entity_create,                                                     \
	.entity_create_with = sparse_entity_create_with,                                           \
	.entity_destroy = sparse_entity_destroy,                                                   \
	.entity_alive = sparse_entity_alive,                                                       \
	.component_add = sparse_component_add,                                                     \
	.component_remove = sparse_component_remove,                                               \
	.component_get = sparse_component_get,                                                     \
	.component_get_batch = sparse_component_get_batch,                                         \
	.entity_get = sparse_entity_get,                                                           \
	.component_has = sparse_component_has,                                                     \
	.system_register = sparse_system_register,                                                 \
	.system_iter_begin = sparse_system_iter_begin,                                             \
	.system_iter_next = sparse_system_iter_next,                                               \
	.system_iter_split = sparse_system_iter_split,                                             \
	.entity_create_batch = sparse_entity_create_batch,                                         \
	.component_add_batch = sparse_component_add_batch,                                         \
	.component_remove_batch = sparse_component_remove_batch

#ifndef SPARSE_VARIANT
const struct ecs_ops ecs_backend_sparse = {
	SPARSE_OPS,
	.name = "sparse",
	.description = "sparse set per component type, paged; systems probe the smallest pool",
};
#endif
