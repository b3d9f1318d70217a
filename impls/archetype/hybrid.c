/*
 * hybrid.c: archetype tables for the table types, and a sparse set per type the config marks
 * sparse (ecs_config_sparse), outside the tables' keys, as bevy's StorageType::SparseSet and
 * flecs' sparse components: adding or removing a sparse type never moves the entity between
 * tables. archetype.c's storage with this file's hooks; archetype.c's header holds for the
 * table types. With no type marked it does archetype's work, plus a test or two an operation
 * (is any type marked), a test a destroy and a mask in the alive test.
 *
 * What it stores besides archetype's: per type whether it is marked (a byte); per marked type a
 * pool (a paged sparse array entity index -> dense slot, 4096 slots a page, made when an index
 * of its range first gets the type; the values and their owners packed in step, remove swaps
 * the last into the hole); the pools holding a value (live_pools); per record the number of
 * sparse components held, in the generation word's spare bits (records stay 12 bytes); per
 * system which of its required and excluded types are sparse (two bytes of bits). A system
 * matches tables on its table types alone.
 *
 * Costs (besides archetype's; k_s = the sparse types an entity or system names, P = pools
 * holding a value):
 *   component_add/remove of a sparse type  O(1) amortised: an append or a swap-remove; the row
 *                       stays, no system is told
 *   component_get/has of a sparse type  O(1): the record (the handle's check), then the page
 *                       table, page and value
 *   entity_get          archetype's: the record once, then a table type's column, or a sparse
 *                       type's page entry, for each type
 *   entity_destroy      archetype's, plus O(P) probes when the entity holds a sparse type
 *   entity_create_with  with sparse types: their appends under the handle the entity is about
 *                       to get, then archetype's way (its cache included) for the table types
 *   iteration           a system of table types: archetype's columns. With sparse types: pointer
 *                       batches (ECS_BATCH_MAX), either the matching tables' rows with k_s
 *                       probes each (walk), or the smallest required sparse pool's owners, a
 *                       record and (per run in one table) a match test each, k_s - 1 probes
 *                       (drive), chosen at iter_begin: the drive when the pool holds under half
 *                       the tables' rows (O(matching tables) to count). A system that excludes
 *                       sparse types and requires none gets columns cut at excluded rows
 *   system_iter_split   the chosen walk's range cut in even parts
 *   batches             archetype's for table types; a sparse type's add batch grows its pool
 *                       once, then appends; a create batch fills each sparse pool at once
 *
 * Fast paths (lived-in: as in archetype.c; archetype's all hold for the table types):
 *   no sparse held      a destroy of an entity holding no sparse type probes no pool (the
 *                       record's count). Lived-in: yes.
 *   live pools          a destroy probes only the pools that hold a value. Lived-in: yes.
 *   pool drive          see iteration above. Lived-in: yes (by counts, not order).
 *   empty exclusions    an excluded pool holding nothing is not probed. Lived-in: partly.
 *   tables seen         the drive asks whether an owner's table matches once a table and batch
 *                       (8 remembered, direct-mapped). Lived-in: yes while the owners sit in
 *                       few tables.
 *   prefetch ahead      the drive asks for the records 16 owners ahead and the rows of those 8
 *                       ahead: always.
 *   exclusion runs      runs of rows holding no excluded type handed out as columns. Lived-in:
 *                       yes (as long as the excluded entities are rare).
 *   one entity's types  archetype's entity_get (archetype.c), a sparse type's entry read beside
 *                       the tables' columns. Lived-in: yes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../ecs.h"

/* The sparse components a live entity holds, in arch_record.gen's bits between the generation
 * and archetype.h's ARCH_MARK (0: entity_destroy probes no pool), so that a record stays 12
 * bytes: the records are read at random by every operation. */
#define HYB_HELD_ONE (1u << ECS_GENERATION_BITS)
#define HYB_HELD_MASK (ARCH_MARK - HYB_HELD_ONE)
#define ARCH_RECORD_SPARE HYB_HELD_MASK

/* bit c: types[c] (excluded[c]) is a sparse type, found in its pool, not in the tables */
#define ARCH_SYSTEM_FIELDS uint8_t sparse_required, sparse_excluded;
#define ARCH_STORAGE_FIELDS                                                                        \
	uint8_t *sparse;        /* component_count: 1 for a type the config marks sparse */        \
	uint32_t sparse_count;  /* types marked */                                                 \
	struct sparse_pool *pools; /* component_count, used for the marked types only */           \
	uint32_t *live_pools;   /* marked types whose pool holds a value, unordered */             \
	uint32_t live_count;
/* The hooks this variant changes: all of archetype.h's (hybrid.c keeps its sparse types outside
 * the tables at every step), defined below. */
#define arch_hook_add hybrid_add
#define arch_hook_batch hybrid_batch
#define arch_hook_create_batch_fill hybrid_create_batch_fill
#define arch_hook_create_batch_room hybrid_create_batch_room
#define arch_hook_create_with hybrid_create_with
#define arch_hook_destroy hybrid_destroy
#define arch_hook_has hybrid_has
#define arch_hook_iter_next hybrid_iter_next
#define arch_hook_iter_setup hybrid_iter_setup
#define arch_hook_list_outside hybrid_list_outside
#define arch_hook_outside hybrid_outside
#define arch_hook_release hybrid_release
#define arch_hook_remove hybrid_remove
#define arch_hook_required_outside hybrid_required_outside
#define arch_hook_setup hybrid_setup
#define arch_hook_system hybrid_system
#define arch_hook_value hybrid_value
#define ARCH_VARIANT
#include "archetype.c"
#include "../pool.h"

_Static_assert(ECS_MAX_COMPONENT_TYPES < HYB_HELD_MASK / HYB_HELD_ONE, "a count fits");

/* --- the pools of the sparse types ------------------------------------------------------ */

static inline bool hyb_sparse(const ecs_storage *s, uint32_t type)
{
	return s->sparse_count && s->sparse[type];
}

/* Room in p for index's value, the n values[] moved along if they point into p (pool.h:
 * pool_make_room, which moves them in place when handed the array itself). */
static inline int hyb_pool_room(ecs_storage *s, struct sparse_pool *p, uint32_t index,
                                const void **values, uint32_t n)
{
	const void *const *v = values;
	return pool_has_room(p, index) ? ECS_OK : pool_make_room(s, p, index, &v, n, values);
}

/* Swap-removes index's value from p (which holds it). Never allocates. */
static inline void hyb_remove(ecs_storage *s, struct sparse_pool *p, uint32_t index)
{
	uint32_t *entry = pool_entry(p, index);
	pool_remove(s, p, entry, entry_slot(*entry));
}

/* entity_destroy's part: the entity's values in the pools that hold any (live_pools), the only
 * ones probed. Backwards: a pool that empties is replaced in the list by the last, probed. */
static void hyb_drop_all(ecs_storage *s, uint32_t index)
{
	for (uint32_t j = s->live_count; j-- > 0;) {
		struct sparse_pool *p = &s->pools[s->live_pools[j]];
		if (pool_find(p, index) != SPARSE_ABSENT)
			hyb_remove(s, p, index);
	}
}

static int hybrid_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	uint32_t index = ecs_entity_index(e);
	struct sparse_pool *p = &s->pools[type];
	if (pool_find(p, index) != SPARSE_ABSENT)
		return ECS_ERR_HAS_COMPONENT;
	int rc = hyb_pool_room(s, p, index, &value, 1);
	if (rc != ECS_OK)
		return rc;
	pool_append(s, type, &s->pools[type], e, value);
	s->records[index].gen += HYB_HELD_ONE;
	return ECS_OK;
}

static int hybrid_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	uint32_t index = ecs_entity_index(e);
	struct sparse_pool *p = &s->pools[type];
	if (pool_find(p, index) == SPARSE_ABSENT)
		return ECS_ERR_NO_COMPONENT;
	hyb_remove(s, p, index);
	s->records[index].gen -= HYB_HELD_ONE;
	return ECS_OK;
}

static inline void *hyb_value(const struct sparse_pool *p, uint32_t index)
{
	uint32_t slot = pool_find(p, index);
	return slot == SPARSE_ABSENT ? NULL : pool_value(p, slot);
}

static void hybrid_release(ecs_storage *s)
{
	if (s->pools)
		for (uint32_t t = 0; t < s->component_count; t++)
			pool_release(s, &s->pools[t]);
	arch_free(s, s->pools, (size_t)s->component_count * sizeof *s->pools);
	arch_free(s, s->live_pools, (size_t)s->component_count * sizeof *s->live_pools);
	arch_free(s, s->sparse, s->component_count);
}

/* create's part: the marks copied, and a pool for each marked type (none if nothing is). */
static int hybrid_setup(ecs_storage *s, const struct ecs_config *cfg)
{
	s->sparse = arch_malloc(s, cfg->component_count);
	if (!s->sparse)
		return ECS_ERR_NO_MEMORY;
	for (uint32_t t = 0; t < cfg->component_count; t++) {
		s->sparse[t] = ecs_config_sparse(cfg, t);
		s->sparse_count += s->sparse[t];
	}
	if (!s->sparse_count)
		return ECS_OK;
	s->pools = arch_malloc(s, (size_t)cfg->component_count * sizeof *s->pools);
	s->live_pools = arch_malloc(s, (size_t)cfg->component_count * sizeof *s->live_pools);
	if (!s->pools || !s->live_pools)
		return ECS_ERR_NO_MEMORY;
	for (uint32_t t = 0; t < cfg->component_count; t++)
		s->pools[t] = (struct sparse_pool){.size = cfg->component_sizes[t]};
	return ECS_OK;
}

/*
 * entity_create_with of a list with sparse types (checked, and the index it takes found, by
 * archetype.c's create_with_careful): their values are appended to their pools
 * first, under the handle the entity will get (the index the table part takes: the free
 * list's first, else the next fresh one), then the table types go archetype's way (its create
 * cache included); if that fails (no memory), the appends are taken back. Growing a pool moves
 * the list's values that point into it (hyb_pool_room); the appends write new slots only, so
 * the table part reads its values as they were.
 */
static __attribute__((noinline)) int hybrid_create_with(ecs_storage *s, const uint32_t *types,
                                                        uint32_t count, const void *const *values,
                                                        uint32_t index, bool fresh,
                                                        ecs_entity *out)
{
	int rc;
	ecs_entity e = ecs_entity_make(index, fresh ? 0 : s->records[index].gen);
	const void *v[ECS_CREATE_MAX_COMPONENTS], *tv[ECS_CREATE_MAX_COMPONENTS];
	uint32_t tt[ECS_CREATE_MAX_COMPONENTS], nt = 0, held = 0;
	/* The table part's list may be empty (nothing is read then); gcc cannot tell, and warns of
	 * the arrays passed unwritten: their first entries are set. */
	tt[0] = 0;
	tv[0] = NULL;
	memcpy(v, values, count * sizeof *v);
	for (uint32_t i = 0; i < count; i++)
		if (s->sparse[types[i]] &&
		    (rc = hyb_pool_room(s, &s->pools[types[i]], index, v, count)) != ECS_OK)
			return rc;
	for (uint32_t i = 0; i < count; i++) {
		if (s->sparse[types[i]]) {
			pool_append(s, types[i], &s->pools[types[i]], e, v[i]);
			held++;
		} else {
			tt[nt] = types[i];
			tv[nt++] = v[i];
		}
	}
	if ((rc = arch_entity_create_with(s, tt, nt, tv, out)) != ECS_OK) {
		for (uint32_t i = 0; i < count; i++)
			if (s->sparse[types[i]])
				hyb_remove(s, &s->pools[types[i]], index);
		return rc;
	}
	s->records[index].gen += held * HYB_HELD_ONE;
	return ECS_OK;
}

/* --- batches ------------------------------------------------------------------------------ */

/* A batch of adds (values: not NULL) or removes of a sparse type: every entity checked, the
 * pool grown once and its pages made for the adds, then appends or swap-removes, batch_check's
 * marks cleared on the way (and before any error returns). */
static int hybrid_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                           uint32_t type, const struct ecs_values *values)
{
	struct sparse_pool *p = &s->pools[type];
	bool add = values != NULL;
	int rc = ECS_OK;
	for (uint32_t j = 0; j < count && rc == ECS_OK; j++)
		if ((pool_find(p, ecs_entity_index(entities[j])) != SPARSE_ABSENT) == add)
			rc = add ? ECS_ERR_HAS_COMPONENT : ECS_ERR_NO_COMPONENT;
	const void *data = add ? values->data : NULL;
	if (add && rc == ECS_OK && p->count + count > p->cap)
		rc = pool_grow(s, p, p->count + count, &data, 1);
	for (uint32_t j = 0; add && j < count && rc == ECS_OK; j++)
		rc = hyb_pool_room(s, p, ecs_entity_index(entities[j]), &data, 1);
	if (rc != ECS_OK) {
		batch_unmark(s, entities, count);
		return rc;
	}
	/* batch_check's marks cleared with the held count's change */
	if (!add) {
		for (uint32_t j = 0; j < count; j++) {
			hyb_remove(s, p, ecs_entity_index(entities[j]));
			uint32_t *gen = &s->records[ecs_entity_index(entities[j])].gen;
			*gen = (*gen & ~ARCH_MARK) - HYB_HELD_ONE;
		}
		return ECS_OK;
	}
	for (uint32_t j = 0; j < count; j++) {
		pool_append(s, type, &s->pools[type], entities[j],
		           (const unsigned char *)data + (size_t)j * values->stride);
		uint32_t *gen = &s->records[ecs_entity_index(entities[j])].gen;
		*gen = (*gen & ~ARCH_MARK) + HYB_HELD_ONE;
	}
	return ECS_OK;
}

/* entity_create_batch's sparse types: each pool grown once and the pages of the batch's
 * indices made (the free list's first, then fresh ones), the base[] values moved along. */
static int hybrid_create_batch_room(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                       uint32_t count, uint32_t from_free, const void **base,
                                       uint32_t *spare)
{
	int rc = ECS_OK;
	uint32_t held = 0;
	for (uint32_t i = 0; i < type_count; i++) {
		if (!hyb_sparse(s, types[i]))
			continue;
		held++;
		struct sparse_pool *p = &s->pools[types[i]];
		if (p->count + count > p->cap &&
		    (rc = pool_grow(s, p, p->count + count, base, type_count)) != ECS_OK)
			return rc;
		uint32_t index = s->free_head;
		for (uint32_t j = 0; j < count && rc == ECS_OK; j++) {
			uint32_t at = j < from_free ? index : s->record_used + (j - from_free);
			if (j < from_free)
				index = s->records[index].row;
			const void *const *none = NULL; /* the capacity is there: only a page */
			if (!pool_has_room(p, at))
				rc = pool_make_room(s, p, at, &none, 0, NULL);
		}
		if (rc != ECS_OK)
			return rc;
	}
	*spare = held * HYB_HELD_ONE;
	return ECS_OK;
}

/* entity_create_batch's sparse values, a pool at a time, the records written. */
static void hybrid_create_batch_fill(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                        const struct ecs_values *values, const void *const *base,
                                        const ecs_entity *out, uint32_t count)
{
	for (uint32_t i = 0; i < type_count; i++) {
		if (!hyb_sparse(s, types[i]))
			continue;
		struct sparse_pool *p = &s->pools[types[i]];
		uint32_t first = p->count;
		for (uint32_t j = 0; j < count; j++) {
			*pool_entry(p, ecs_entity_index(out[j])) = entry_make(first + j, out[j]);
			p->entities[first + j] = out[j];
		}
		if (first == 0) {
			p->live_pos = s->live_count;
			s->live_pools[s->live_count++] = types[i];
		}
		p->count += count;
		batch_copy(p->values + (size_t)first * p->size, base[i], values[i].stride, p->size,
		           count);
	}
}

/* --- iteration ---------------------------------------------------------------------------- */

/*
 * Hybrid's passes of a system with sparse types (required or excluded), in pointer batches of
 * at most ECS_BATCH_MAX: the table types' values from the row's columns, the sparse ones from
 * their pools. Two ways, chosen at iter_begin (hyb_iter_mode):
 *   HYB_WALK_TABLES  the matching tables' rows (matched on their table types), each row's
 *                    entity probed in the sparse pools (required: must hold it; excluded: must
 *                    not);
 *   HYB_WALK_POOL    the smallest required sparse pool's slots, each owner's record giving its
 *                    table (whether it matches is asked once per run of owners in one table)
 *                    and row, the other sparse pools probed.
 */
enum { ARCH_ITER_MODE = ARCH_ITER_END_ROW + 1, ARCH_ITER_DRIVER };
enum { HYB_EXACT = 0, HYB_WALK_TABLES = 1, HYB_WALK_POOL = 2 };

/*
 * The way: a system of table types only is archetype's exact pass (whole columns). Else, with
 * a required sparse type, the pool drive when the smallest required pool holds fewer than half
 * the matching tables' rows (HYB_DRIVE_SHARE). A driven entity costs more than a walked row
 * (its record and row are reached in the pool's order, at random, where the walk goes down the
 * rows in order), but a walk whose probes find the type on some rows and not others pays a
 * mispredicted branch on many rows. Measured with each way forced: iterate (k = 2, N = 2^16,
 * every row holding the pool's type) drive 20.9 against walk 6.7 ns an entity lived-in;
 * crossover.ini's hurt (Health + Marked, 20,000 units) drive 22.6 against walk 67.4 us a pass
 * with the pool near 9% of the rows (effect.mark.add=4.48%), 121.5 against 135.8 us near 46%
 * (add=30%); the break-even lies near half. A pass split in several parts whose first
 * required type is sparse is driven by that type's pool whatever the counts: its values are
 * what a system writes, and only the drive can cut the parts on their cache lines (in a walk
 * of the tables they are reached in no order, so threads would share lines). O(matching
 * tables).
 */
#define HYB_DRIVE_SHARE 2u

static uint32_t hyb_iter_mode(const ecs_storage *s, const struct arch_system *y, uint32_t parts,
                              uint32_t *driver)
{
	if (!y->sparse_required && !y->sparse_excluded)
		return HYB_EXACT;
	if (parts > 1 && (y->sparse_required & 1)) {
		*driver = y->types[0];
		return HYB_WALK_POOL;
	}
	uint64_t rows = 0;
	for (uint32_t pos = 0; pos < y->match_count; pos++)
		rows += s->tables[y->matches[pos].table].count;
	uint32_t best = UINT32_MAX;
	for (uint32_t c = 0; c < y->type_count; c++)
		if ((y->sparse_required >> c & 1) && s->pools[y->types[c]].count < best) {
			best = s->pools[y->types[c]].count;
			*driver = y->types[c];
		}
	return (uint64_t)best * HYB_DRIVE_SHARE < rows ? HYB_WALK_POOL : HYB_WALK_TABLES;
}

/* The system's sparse pools, found once a batch: the required ones (with their place among
 * the system's types) and the excluded ones that hold anything (an empty one excludes no one). */
struct hyb_probes {
	uint32_t required, excluded;
	uint32_t place[ECS_SYSTEM_MAX_COMPONENTS];
	const struct sparse_pool *pool[ECS_SYSTEM_MAX_COMPONENTS];
	const struct sparse_pool *out[ECS_SYSTEM_MAX_EXCLUDED];
};

static void hyb_probes_find(const ecs_storage *s, const struct arch_system *y, uint32_t driver,
                            struct hyb_probes *q)
{
	q->required = q->excluded = 0;
	for (uint32_t c = 0; c < y->type_count; c++)
		if ((y->sparse_required >> c & 1) && y->types[c] != driver) {
			q->place[q->required] = c;
			q->pool[q->required++] = &s->pools[y->types[c]];
		}
	for (uint32_t c = 0; c < y->excluded_count; c++)
		if ((y->sparse_excluded >> c & 1) && s->pools[y->excluded[c]].count)
			q->out[q->excluded++] = &s->pools[y->excluded[c]];
}

/* Whether the entity of index passes the system's sparse tests; its sparse values into
 * it->pointers[c][n], each prefetched (the pass reads it soon, and its slot is anywhere). */
static inline bool hyb_probe(const struct hyb_probes *q, uint32_t index, struct ecs_iter *it,
                             uint32_t n)
{
	for (uint32_t i = 0; i < q->required; i++) {
		void *value = hyb_value(q->pool[i], index);
		if (!value)
			return false;
		__builtin_prefetch(value);
		it->pointers[q->place[i]][n] = value;
	}
	for (uint32_t i = 0; i < q->excluded; i++)
		if (pool_find(q->out[i], index) != SPARSE_ABSENT)
			return false;
	return true;
}

/* Whether the entity of index holds a type the system excludes (in a non-empty pool). */
static inline bool hyb_excluded(const struct hyb_probes *q, uint32_t index)
{
	for (uint32_t i = 0; i < q->excluded; i++)
		if (pool_find(q->out[i], index) != SPARSE_ABSENT)
			return true;
	return false;
}

static inline void hyb_fill_batch(const struct arch_system *y, struct ecs_iter *it, uint32_t n,
                                  struct ecs_batch *b)
{
	b->count = n;
	b->entities = it->entities;
	for (uint32_t c = 0; c < ECS_SYSTEM_MAX_COMPONENTS; c++) {
		b->columns[c] = NULL;
		b->pointers[c] = c < y->type_count ? it->pointers[c] : NULL;
	}
}

/* A matching table's columns of the system's table types, for the rows' pointers. */
struct hyb_columns {
	uint32_t count;
	uint32_t place[ECS_SYSTEM_MAX_COMPONENTS];
	unsigned char *data[ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t size[ECS_SYSTEM_MAX_COMPONENTS];
};

static inline void hyb_columns_of(const struct arch_system *y, const struct arch_table *t,
                                  const struct arch_match *m, struct hyb_columns *k)
{
	k->count = 0;
	for (uint32_t c = 0; c < y->type_count; c++)
		if (m->column[c] != ARCH_NONE) {
			k->place[k->count] = c;
			k->data[k->count] = t->columns[m->column[c]].data;
			k->size[k->count++] = t->columns[m->column[c]].size;
		}
}

static inline void hyb_columns_put(const struct hyb_columns *k, uint32_t row, struct ecs_iter *it,
                                   uint32_t n)
{
	for (uint32_t i = 0; i < k->count; i++)
		it->pointers[k->place[i]][n] = k->data[i] + (size_t)row * k->size[i];
}

#define HYB_AHEAD 16u /* owners ahead whose records a pool drive prefetches */
#define HYB_TABLES_SEEN 8u /* tables a pool drive remembers in a batch (direct-mapped) */

struct hyb_table_seen {
	uint32_t table; /* ARCH_NONE: empty */
	bool matches;
	struct hyb_columns k;
};

/* A pool drive's batch: the driving pool's owners from the iterator's slot on, each owner's
 * table asked once a batch whether it matches; returns the entities put in the batch. */
static uint32_t hyb_iter_drive(struct ecs_iter *it, const ecs_storage *s,
                               const struct arch_system *y, const struct hyb_probes *q,
                               uint32_t driver)
{
	const struct sparse_pool *p = &s->pools[driver];
	uint32_t place = 0, n = 0;
	while (y->types[place] != driver)
		place++;
	uint32_t slot = (uint32_t)it->state[ARCH_ITER_ROW];
	uint32_t end = (uint32_t)it->state[ARCH_ITER_END_ROW];
	/* Whether an owner's table matches, and its columns, asked once a batch per table:
	 * a pool's owners are of many kinds, interleaved, in no order. */
	struct hyb_table_seen seen[HYB_TABLES_SEEN];
	for (uint32_t i = 0; i < HYB_TABLES_SEEN; i++)
		seen[i].table = ARCH_NONE;
	for (; slot < end && n < ECS_BATCH_MAX; slot++) {
		/* The owners' records and rows are reached in the pool's order, at random: the
		 * records HYB_AHEAD owners on are asked for, and the rows of those half as far
		 * (whose records were asked for then), in a table already seen. */
		if (slot + HYB_AHEAD < end)
			__builtin_prefetch(&s->records[ecs_entity_index(p->entities[slot + HYB_AHEAD])]);
		if (slot + HYB_AHEAD / 2 < end) {
			const struct arch_record *ahead =
			    &s->records[ecs_entity_index(p->entities[slot + HYB_AHEAD / 2])];
			const struct hyb_table_seen *a = &seen[ahead->table % HYB_TABLES_SEEN];
			for (uint32_t i = 0; a->table == ahead->table && i < a->k.count; i++)
				__builtin_prefetch(a->k.data[i] + (size_t)ahead->row * a->k.size[i]);
		}
		ecs_entity e = p->entities[slot];
		uint32_t index = ecs_entity_index(e);
		const struct arch_record *r = &s->records[index];
		struct hyb_table_seen *c = &seen[r->table % HYB_TABLES_SEEN];
		if (c->table != r->table) {
			struct arch_match m;
			c->table = r->table;
			c->matches = system_matches(y, &s->tables[r->table], r->table, &m);
			c->k.count = 0;
			if (c->matches)
				hyb_columns_of(y, &s->tables[r->table], &m, &c->k);
		}
		if (!c->matches || !hyb_probe(q, index, it, n))
			continue;
		it->pointers[place][n] = p->values + (size_t)slot * p->size;
		hyb_columns_put(&c->k, r->row, it, n);
		it->entities[n++] = e;
	}
	it->state[ARCH_ITER_ROW] = slot;
	return n;
}

/* A system of table types that excludes sparse ones: the next run of rows none of whose
 * entities holds an excluded type, as a batch of columns (false: the pass is over). */
static bool hyb_iter_runs(struct ecs_iter *it, struct ecs_batch *b, const ecs_storage *s,
                          const struct arch_system *y, const struct hyb_probes *q)
{
	/* Table types required, sparse ones excluded: runs of rows none of whose entities
	 * holds an excluded type, handed out as columns (as archetype's, cut where an
	 * excluded entity sits), however long. */
	uint32_t end_match = (uint32_t)it->state[ARCH_ITER_END_MATCH];
	uint32_t pos = (uint32_t)it->state[ARCH_ITER_MATCH];
	uint32_t row = (uint32_t)it->state[ARCH_ITER_ROW];
	for (; pos < y->match_count && pos <= end_match; pos++, row = 0) {
		const struct arch_match *m = &y->matches[pos];
		const struct arch_table *t = &s->tables[m->table];
		uint32_t stop = pos == end_match ? (uint32_t)it->state[ARCH_ITER_END_ROW]
		                                 : t->count;
		while (row < stop && hyb_excluded(q, ecs_entity_index(t->entities[row])))
			row++;
		if (row >= stop)
			continue;
		uint32_t run = row + 1;
		while (run < stop && !hyb_excluded(q, ecs_entity_index(t->entities[run])))
			run++;
		table_batch(b, y, m, t, row, run - row);
		it->state[ARCH_ITER_MATCH] = pos;
		it->state[ARCH_ITER_ROW] = run;
		return true;
	}
	it->state[ARCH_ITER_MATCH] = pos;
	it->state[ARCH_ITER_ROW] = 0;
	b->count = 0;
	return false;
}

/* A walk of the matching tables' rows, each probed in the sparse pools; returns the entities
 * put in the batch. */
static uint32_t hyb_iter_walk(struct ecs_iter *it, const ecs_storage *s,
                              const struct arch_system *y, const struct hyb_probes *q)
{
	uint32_t n = 0;
	struct hyb_columns k = {.count = 0};
	uint32_t end_match = (uint32_t)it->state[ARCH_ITER_END_MATCH];
	uint32_t pos = (uint32_t)it->state[ARCH_ITER_MATCH];
	uint32_t row = (uint32_t)it->state[ARCH_ITER_ROW];
	for (; pos < y->match_count && pos <= end_match && n < ECS_BATCH_MAX; pos++, row = 0) {
		const struct arch_match *m = &y->matches[pos];
		const struct arch_table *t = &s->tables[m->table];
		uint32_t stop = pos == end_match ? (uint32_t)it->state[ARCH_ITER_END_ROW]
		                                 : t->count;
		if (row >= stop)
			continue;
		hyb_columns_of(y, t, m, &k);
		const ecs_entity *entities = t->entities;
		for (; row < stop && n < ECS_BATCH_MAX; row++) {
			ecs_entity e = entities[row];
			if (!hyb_probe(q, ecs_entity_index(e), it, n))
				continue;
			hyb_columns_put(&k, row, it, n);
			it->entities[n++] = e;
		}
		if (row < stop)
			break; /* the batch is full: this table goes on from row next time */
	}
	it->state[ARCH_ITER_MATCH] = pos;
	it->state[ARCH_ITER_ROW] = row;
	return n;
}

static bool hybrid_iter_batch(struct ecs_iter *it, struct ecs_batch *b)
{
	const ecs_storage *s = it->storage;
	const struct arch_system *y = &s->systems[it->state[ARCH_ITER_SYSTEM]];
	struct hyb_probes q;
	bool drive = it->state[ARCH_ITER_MODE] == HYB_WALK_POOL;
	uint32_t driver = drive ? (uint32_t)it->state[ARCH_ITER_DRIVER] : ARCH_NONE;
	hyb_probes_find(s, y, driver, &q); /* the driving pool is not probed: its slot is known */
	if (!drive && !q.required)
		return hyb_iter_runs(it, b, s, y, &q);
	uint32_t n = drive ? hyb_iter_drive(it, s, y, &q, driver) : hyb_iter_walk(it, s, y, &q);
	if (!n) {
		b->count = 0;
		return false;
	}
	hyb_fill_batch(y, it, n, b);
	return true;
}

/* Where part `part` of a pool drive starts: an even share of the pool's slots, moved forward
 * (by less than a part) to a cache-line start of its values when the pool is the system's
 * first required type, as archetype's rows (arch_split_bound). */
static uint32_t hyb_split_bound(const ecs_storage *s, const struct arch_system *y,
                                uint32_t driver, uint32_t part, uint32_t parts)
{
	const struct sparse_pool *p = &s->pools[driver];
	uint32_t at = ecs_split_bound(p->count, part, parts);
	if (part > 0 && part < parts && p->count / parts >= 2 && driver == y->types[0]) {
		uint32_t d = ecs_split_align(p->values + (size_t)at * p->size, p->size,
		                             p->count / parts);
		if (at + d <= p->count)
			at += d;
	}
	return at;
}

/* iter_begin's and iter_split's part: the way, and for the pool drive its range of slots. */
static void hybrid_iter_setup(const ecs_storage *s, const struct arch_system *y, uint32_t part,
                                 uint32_t parts, struct ecs_iter *it)
{
	uint32_t driver = 0;
	uint32_t mode = hyb_iter_mode(s, y, parts, &driver);
	it->state[ARCH_ITER_MODE] = mode;
	it->state[ARCH_ITER_DRIVER] = driver;
	if (mode == HYB_WALK_POOL) {
		it->state[ARCH_ITER_ROW] = hyb_split_bound(s, y, driver, part, parts);
		it->state[ARCH_ITER_END_ROW] = hyb_split_bound(s, y, driver, part + 1, parts);
	}
}

/* --- archetype.h's other hooks ------------------------------------------------------------ */

static inline bool hybrid_outside(const ecs_storage *s, uint32_t type)
{
	return hyb_sparse(s, type);
}

static inline bool hybrid_list_outside(const ecs_storage *s, const uint32_t *types,
                                          uint32_t count)
{
	if (s->sparse_count)
		for (uint32_t i = 0; i < count; i++)
			if (types[i] < s->component_count && s->sparse[types[i]])
				return true;
	return false;
}

static inline int hybrid_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	return pool_find(&s->pools[type], ecs_entity_index(e)) != SPARSE_ABSENT;
}

static inline bool hybrid_value(const ecs_storage *s, ecs_entity e, uint32_t type,
                                   void **value)
{
	const struct sparse_pool *p = &s->pools[type];
	uint32_t slot = pool_find(p, ecs_entity_index(e));
	if (slot == SPARSE_ABSENT)
		return false;
	*value = p->values + (size_t)slot * p->size;
	return true;
}

static inline void hybrid_destroy(ecs_storage *s, struct arch_record *r, uint32_t index)
{
	if (r->gen & HYB_HELD_MASK)
		hyb_drop_all(s, index);
}

/* A table never holds a sparse type: an excluded one is left to the pools alone. */
static inline void hybrid_system(const ecs_storage *s, struct arch_system *y)
{
	for (uint32_t c = 0; c < y->type_count; c++)
		y->sparse_required |= (uint8_t)(hyb_sparse(s, y->types[c]) << c);
	for (uint32_t c = 0; c < y->excluded_count; c++)
		y->sparse_excluded |= (uint8_t)(hyb_sparse(s, y->excluded[c]) << c);
}

static inline bool hybrid_required_outside(const struct arch_system *y, uint32_t c)
{
	return y->sparse_required >> c & 1;
}

/* A pass that is not exact (state[ARCH_ITER_MODE]) is hybrid's to walk: *more, whether a batch
 * came. */
static inline bool hybrid_iter_next(struct ecs_iter *it, struct ecs_batch *b, bool *more)
{
	if (it->state[ARCH_ITER_MODE] == HYB_EXACT)
		return false;
	*more = hybrid_iter_batch(it, b);
	return true;
}

const struct ecs_ops ecs_backend_hybrid = {
	ARCH_OPS,
	.name = "hybrid",
	.description = "archetype tables + sparse sets for types marked sparse (bevy, flecs)",
};
