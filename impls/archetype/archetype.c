/*
 * archetype.c: the archetype storage of flecs (Varkor's refactor post, its research section):
 * one table per distinct set of component types, an entity in the table of its set. The
 * storage's code and the plain backend, which keeps nothing outside the tables.
 *
 * Layout (impls/archetype/): archetype.h the storage's data (records, tables, edges, systems)
 * and its hooks, each with a default that does nothing; this file the operations, iteration and
 * batches, with every hook left at its default (they compile away: make instr holds its rows),
 * and at its end the plain backend's ops. A variant (hybrid.c) names the hooks it changes,
 * includes this file with ARCH_VARIANT defined (no plain ops of its own then) and defines them
 * after. Why one file and not a header: the file named for the backend holds its code, and a
 * variant is this code with other hooks, not another copy of it.
 *
 * What it stores: per entity index a record (generation with an alive bit, table, row; a dead
 * one links the free list); per table its sorted type set, a column per type and one of
 * handles (each array its own capacity, so a growth that fails half way leaves each whole), a
 * map type -> column (column_of), and its edges: an open-addressing map type -> neighbouring
 * table, both directions in one, growing with the edges used; a map type set -> table (a set's
 * hash is the sum of its types', so a neighbour's is one addition away); per system its types
 * and the tables it matches, with each required type's column there. Table 0 is the empty
 * set. Memory: 12 bytes a record, the rows (4 bytes + the component sizes), a few hundred
 * bytes a table, the create cache's 3.6 KiB.
 *
 * Costs (k = the entity's types, c their bytes, S = systems, T = tables, M = matching tables):
 *   entity_create       O(1) amortised: a free-list pop, a row in the empty table
 *   entity_create_with  O(c + k^2): the types sorted and hashed, the set's table found (or made
 *                       and offered to every system), one row written (k adds would copy it
 *                       through k tables); O(c + k) for a list the create cache holds
 *   entity_destroy      O(c): the row swap-removed, the moved row's record fixed
 *   component_add/remove  O(c) along a cached edge: the row copied to the neighbour, the hole
 *                       filled by the last row; the first move along an edge finds the
 *                       neighbour by hash (O(k)); a new set's table is offered to every system
 *                       (O(S log k))
 *   component_get       O(1): the record (generation, table, row: one load), the type's column
 *                       from column_of (no search), the value; component_get_batch prefetches
 *                       the records ECS_GET_AHEAD handles on and each value
 *   entity_get          O(k): the record once (the handle checked in the load that gives the
 *                       table and the row), then per type its column from column_of and the
 *                       value's address; k = 2 at N = 2^20: 3 misses, the two values after the
 *                       record. A type not found sends the call out of line
 *                       (arch_entity_get_rest): every type again, each status
 *   component_has       O(log k): a binary search of the table's types
 *   system_register     O(T log k), once; a table is matched once, when made
 *   iteration           a batch per non-empty matching table, every column whole
 *   system_iter_split   O(M): the matching tables' rows in order, cut by count
 *   entity_create_batch  O(k^2 + n c): one set lookup, the records and the table grown once,
 *                       the values copied a column at a time; ECS_ERR_FULL from the free list's
 *                       length
 *   component_add/remove_batch  O(n c + T): the checks (repeats by a mark bit in the records,
 *                       whether each has the type asked once per source table), the rows each
 *                       destination gains counted, then the moves; each destination grown once;
 *                       the values copied aside only when they overlap a column the batch moves
 *
 * Fast paths (when each fires; lived-in: whether it fires in storage that has had destroys,
 * interleaved kinds, components removed and added back in no order):
 *   create cache        entity_create_with of a list, as given, that the cache holds (32, 4 a
 *                       set, CLOCK eviction), into a table with room: no sort, no set lookup (a
 *                       list of up to 4 types is its own 64-bit key). Lived-in: yes while the
 *                       lists spawned in rotation fit 4 to a set.
 *   create in one step  the row written in the final table, never the k - 1 on the way. Always.
 *   cached edges        a move along an edge used before: no search, the edge holds the column.
 *                       Lived-in: yes (edges follow the sets, not the order of the moves).
 *   last row            a destroy or move of a table's last row fills no hole. Lived-in: partly.
 *   prefetch ahead      iteration asks for the table, column list and columns 8, 4 and 1
 *                       matches ahead. Lived-in: yes.
 *   packed values       a create batch copies a column with one memmove when stride == size.
 *                       Lived-in: yes (the caller's layout).
 *   one growth a batch  the records and each table a batch fills grow once. Lived-in: yes.
 *   batch edge memo     a batch's entity whose source table is in the memo (16, direct-mapped)
 *                       takes its edge from there. Lived-in: yes while a batch's entities come
 *                       from few tables.
 *   fresh indices       a create batch's indices past the free list get whole records, no link
 *                       followed. Lived-in: partly (once the free list is used up).
 *   one entity's types  entity_get of 1 to 3 types runs straight-line code with the count a
 *                       constant (checks.h: ecs_entity_get_body): one record, then a column a
 *                       type; it fires on every call whose types the entity all has.
 *                       Lived-in: yes (the record and column_of answer in the same loads in
 *                       any table, for any row, recycled or not).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archetype.h"

/* --- the ops -------------------------------------------------------------------------- */

static void arch_destroy(ecs_storage *s)
{
	if (!s)
		return;
	for (uint32_t t = 0; t < s->table_count; t++)
		table_release(s, &s->tables[t]);
	arch_free(s, s->tables, (size_t)s->table_cap * sizeof *s->tables);
	arch_free(s, s->table_slots, (size_t)s->slot_cap * sizeof *s->table_slots);
	for (uint32_t i = 0; i < s->system_count; i++)
		arch_free(s, s->systems[i].matches,
		          (size_t)s->systems[i].match_cap * sizeof *s->systems[i].matches);
	arch_free(s, s->systems, (size_t)s->system_max * sizeof *s->systems);
	arch_free(s, s->records, (size_t)s->record_cap * sizeof *s->records);
	arch_hook_release(s);
	arch_free(s, s->sizes, (size_t)s->component_count * sizeof *s->sizes);
	struct ecs_allocator alloc = s->alloc;
	alloc.free(alloc.ctx, s, sizeof *s);
}

/* The rest of arch_create (ECS_CREATE_SHELL): on error, arch_destroy frees what there is. */
static int arch_setup(ecs_storage *s, const struct ecs_config *cfg)
{
	s->free_head = ARCH_NONE;
	for (uint32_t i = 0; i < ARCH_CREATE_SETS; i++) {
		for (uint32_t w = 0; w < ARCH_CREATE_WAYS; w++) {
			s->create_cache[i].key[w] = ARCH_CREATE_NO_KEY;
			s->create_cache[i].entry[w].count = ARCH_CREATE_UNUSED;
		}
	}
	/* The counts are set only once their arrays exist, so arch_destroy frees what there is. */
	uint32_t *sizes = arch_malloc(s, (size_t)cfg->component_count * sizeof *sizes);
	if (!sizes)
		return ECS_ERR_NO_MEMORY;
	memcpy(sizes, cfg->component_sizes, (size_t)cfg->component_count * sizeof *sizes);
	s->sizes = sizes;
	s->component_count = cfg->component_count;
	int rc = arch_hook_setup(s, cfg);
	if (rc != ECS_OK)
		return rc;
	s->systems = arch_malloc(s, (size_t)cfg->system_count * sizeof *s->systems);
	if (!s->systems)
		return ECS_ERR_NO_MEMORY;
	s->system_max = cfg->system_count;
	/* The empty set's table. */
	rc = arch_grow(s, (void **)&s->tables, &s->table_cap, 1, sizeof *s->tables, 8,
	               UINT32_MAX - 1);
	if (rc == ECS_OK)
		rc = table_slots_reserve(s, 1);
	if (rc != ECS_OK)
		return rc;
	s->tables[ARCH_EMPTY_TABLE] = (struct arch_table){.hash = 0};
	s->table_count = 1;
	table_slots_insert(s->table_slots, s->slot_cap, 0, ARCH_EMPTY_TABLE);
	return ECS_OK;
}

ECS_CREATE_SHELL(arch)

/* Room for the records of `entities` entities. Where their rows will be is not known yet (an
 * entity passes through the empty table on its way to its own), so rows are not reserved. */
static int arch_reserve(ecs_storage *s, uint32_t entities)
{
	if (!s)
		return ECS_ERR_INVALID;
	return records_reserve(s, entities < ECS_MAX_ENTITIES ? entities : ECS_MAX_ENTITIES);
}

/* A new entity's index: a fresh one past the last used (its generation 0), or the first of the
 * free list (whose records link through their row field). */
static inline uint32_t record_index_take(ecs_storage *s, bool fresh)
{
	uint32_t index;
	if (fresh) {
		index = s->record_used++;
		s->records[index].gen = 0;
	} else {
		index = s->free_head;
		s->free_head = s->records[index].row;
		s->free_count--;
	}
	return index;
}

/*
 * A new entity's record, alive, at the next row of table `table` (t, with room for it), at the
 * index record_index_take gives. Returns its handle.
 */
static inline ecs_entity record_take(ecs_storage *s, bool fresh, uint32_t table,
                                     struct arch_table *t)
{
	uint32_t index = record_index_take(s, fresh);
	struct arch_record *r = &s->records[index];
	r->gen |= ARCH_ALIVE;
	ecs_entity e = ecs_entity_make(index, r->gen & ECS_GENERATION_MASK);
	r->table = table;
	r->row = t->count++;
	t->entities[r->row] = e;
	return e;
}

static int arch_entity_create(ecs_storage *s, ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	bool fresh = s->free_head == ARCH_NONE;
	if (fresh && s->record_used >= ECS_MAX_ENTITIES)
		return ECS_ERR_FULL;
	int rc = fresh ? records_reserve(s, s->record_used + 1) : ECS_OK;
	struct arch_table *t = &s->tables[ARCH_EMPTY_TABLE];
	if (rc == ECS_OK)
		rc = table_reserve(s, t, t->count + 1);
	if (rc != ECS_OK)
		return rc;
	*out = record_take(s, fresh, ARCH_EMPTY_TABLE, t);
	return ECS_OK;
}

/*
 * A list's key, in its order, and whether every value is given, in one pass. A list of up to
 * ARCH_CREATE_EXACT types is its own key: the count, then 12 bits a type (at most 3 + 48
 * bits), so that equal keys are equal lists and a hit compares one word. A longer list's key
 * is a hash with the top bit set (never an exact key), and a hit compares the lists too.
 * ARCH_CREATE_NO_KEY, which finds no entry: a NULL value, or a type id too large for an exact
 * key (the list is wrong either way, and the whole way says how).
 */
static inline uint64_t create_key(const uint32_t *types, const void *const *values,
                                  uint32_t count)
{
	uint64_t key = count;
	uint32_t high = 0;
	bool missing = false;
	if (count <= ARCH_CREATE_EXACT) {
		for (uint32_t i = 0; i < count; i++) {
			key = key << ARCH_CREATE_TYPE_BITS | types[i];
			high |= types[i];
			missing |= !values[i];
		}
	} else {
		for (uint32_t i = 0; i < count; i++) {
			key = (key ^ types[i]) * 0x9e3779b97f4a7c15ull;
			missing |= !values[i];
		}
		key |= ARCH_CREATE_HASHED;
	}
	return (high >> ARCH_CREATE_TYPE_BITS) || missing ? ARCH_CREATE_NO_KEY : key;
}

static inline struct arch_create_set *create_set(ecs_storage *s, uint64_t key)
{
	return &s->create_cache[(key * 0x9e3779b97f4a7c15ull) >> (64 - ARCH_CREATE_SET_BITS)];
}

/* Whether entry w of the set holds the list of this key (not ARCH_CREATE_NO_KEY). */
static inline bool create_entry_is(const struct arch_create_set *set, uint32_t w, uint64_t key,
                                   const uint32_t *types, uint32_t count)
{
	if (set->key[w] != key)
		return false;
	if (!(key & ARCH_CREATE_HASHED))
		return true;
	const struct arch_create_entry *c = &set->entry[w];
	if (c->count != count)
		return false;
	for (uint32_t i = 0; i < count; i++)
		if (c->types[i] != types[i])
			return false;
	return true;
}

/*
 * Remembers a valid list, as given, with its table and each type's column: given[j] is the
 * list's position of the table's column j. Into the entry that holds the list already (it
 * missed for want of room, not of an entry), else the first the set's clock hand finds not
 * hit since it last passed (clearing the hit marks it passes).
 */
static void create_cache_fill(ecs_storage *s, const uint32_t *types, const void *const *values,
                              uint32_t count, uint32_t table, const uint32_t *given)
{
	uint64_t key = create_key(types, values, count);
	if (key == ARCH_CREATE_NO_KEY) /* a valid list whose hash is that: never remembered */
		return;
	struct arch_create_set *set = create_set(s, key);
	uint32_t w;
	for (w = 0; w < ARCH_CREATE_WAYS; w++)
		if (create_entry_is(set, w, key, types, count))
			break;
	while (w == ARCH_CREATE_WAYS) {
		uint32_t at = set->hand;
		set->hand = (uint8_t)((at + 1) % ARCH_CREATE_WAYS);
		if (set->hit[at])
			set->hit[at] = 0;
		else
			w = at;
	}
	struct arch_create_entry *c = &set->entry[w];
	set->key[w] = key;
	set->hit[w] = 1;
	c->table = table;
	c->count = (uint16_t)count;
	for (uint32_t j = 0; j < count; j++) {
		c->types[given[j]] = (uint16_t)types[given[j]];
		c->column[given[j]] = (uint8_t)j;
	}
}

/*
 * entity_create and count adds in one step, as flecs and bevy spawn a bundle: the set's table
 * is looked up by the set's hash (and created if new), and the entity's row is written there
 * once. count adds would move the row through count tables (creating those that do not exist
 * yet), copying it whole each time. The index is taken last, so that on error nothing has
 * changed but capacities and the tables that exist. Remembers the list as given and where it
 * led, for arch_entity_create_with (create_cache_fill).
 */
static int create_with_lookup(ecs_storage *s, const uint32_t *types, uint32_t count,
                              const void *const *values, bool fresh, ecs_entity *out)
{
	int rc;
	/* The set sorted (insertion sort: count is small), its values in step, and for each sorted
	 * position the list's position it came from. */
	uint32_t sorted[ECS_CREATE_MAX_COMPONENTS], given[ECS_CREATE_MAX_COMPONENTS];
	const void *v[ECS_CREATE_MAX_COMPONENTS];
	uint64_t hash = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t j = i;
		for (; j > 0 && sorted[j - 1] > types[i]; j--) {
			sorted[j] = sorted[j - 1];
			given[j] = given[j - 1];
			v[j] = v[j - 1];
		}
		sorted[j] = types[i];
		given[j] = i;
		v[j] = values[i];
		hash += type_hash(types[i]);
	}
	uint32_t to;
	if ((rc = table_of_set(s, hash, sorted, count, &to)) != ECS_OK)
		return rc;
	if (fresh && (rc = records_reserve(s, s->record_used + 1)) != ECS_OK)
		return rc;
	struct arch_table *t = &s->tables[to];
	if (t->count >= t->cap && (rc = table_grow_keeping(s, t, t->count + 1, v, count)) != ECS_OK)
		return rc;
	ecs_entity e = record_take(s, fresh, to, t);
	uint32_t row = t->count - 1;
	for (uint32_t j = 0; j < count; j++) {
		struct arch_column *col = &t->columns[j];
		copy_value(col->data + (size_t)row * col->size, v[j], col->size);
	}
	*out = e;
	create_cache_fill(s, types, values, count, to, given);
	return ECS_OK;
}

/* entity_create_with's careful path: the list checked in ecs.h's order and the index the entity
 * will take found (ecs_create_with_open), then a list with types outside the tables goes the
 * variant's way (arch_hook_create_with), the rest create_with_lookup. */
static __attribute__((noinline)) int create_with_careful(ecs_storage *s, const uint32_t *types,
                                                         uint32_t count,
                                                         const void *const *values,
                                                         ecs_entity *out)
{
	uint32_t index;
	int rc = ecs_create_with_open(types, count, values, s->component_count, &s->free_head,
	                              ARCH_NONE, &s->record_used, &index);
	if (rc != ECS_OK)
		return rc;
	bool fresh = s->free_head == ARCH_NONE;
	if (arch_hook_list_outside(s, types, count))
		return arch_hook_create_with(s, types, count, values, index, fresh, out);
	return create_with_lookup(s, types, count, values, fresh, out);
}


/*
 * Entities come in kinds: a game spawns a few lists of types again and again, interleaved (bevy
 * looks a bundle's archetype up once per bundle type, flecs caches the table of an id list).
 * So each list is remembered, as given, with its table and the column of each type (struct
 * arch_create_set): a list found there is known to be valid (no repeat, every type in range)
 * and needs no sort, set hash or table lookup: its key (O(k)), a compare with the entries of
 * one set, and its values checked. Anything else goes the whole way (create_with_lookup), and
 * is remembered in turn. Tables are never destroyed and a table's columns never move, so what
 * is remembered stays true.
 */
static __attribute__((noinline)) int arch_entity_create_with(ecs_storage *s,
                                                             const uint32_t *types,
                                                             uint32_t count,
                                                             const void *const *values,
                                                             ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	if (ecs_create_list_odd(types, count, values) || arch_hook_list_outside(s, types, count))
		return create_with_careful(s, types, count, values, out);
	uint64_t key = create_key(types, values, count);
	struct arch_create_set *set = create_set(s, key);
	uint32_t w = 0;
	while (w < ARCH_CREATE_WAYS && !create_entry_is(set, w, key, types, count))
		w++;
	if (w == ARCH_CREATE_WAYS) /* ARCH_CREATE_NO_KEY included: no entry has that key */
		return create_with_careful(s, types, count, values, out);
	set->hit[w] = 1;
	const struct arch_create_entry *c = &set->entry[w];
	bool fresh = s->free_head == ARCH_NONE;
	struct arch_table *t = &s->tables[c->table];
	/* record_cap never exceeds ECS_MAX_ENTITIES */
	if ((fresh && s->record_used >= s->record_cap) || t->count >= t->cap)
		return create_with_careful(s, types, count, values, out);
	uint32_t index = record_index_take(s, fresh);
	struct arch_record *r = &s->records[index];
	r->gen |= ARCH_ALIVE;
	ecs_entity e = ecs_entity_make(index, r->gen & ECS_GENERATION_MASK);
	uint32_t row = t->count++;
	r->table = c->table;
	r->row = row;
	t->entities[row] = e;
	*out = e;
	const struct arch_column *columns = t->columns;
	for (uint32_t i = 0; i < count; i++) {
		const struct arch_column *col = &columns[c->column[i]];
		copy_value(col->data + (size_t)row * col->size, values[i], col->size);
	}
	return ECS_OK;
}

static bool arch_entity_alive(const ecs_storage *s, ecs_entity e)
{
	return s && arch_alive(s, e);
}

static int arch_entity_destroy(ecs_storage *s, ecs_entity e)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (!arch_alive(s, e))
		return ECS_ERR_DEAD_ENTITY;
	uint32_t index = ecs_entity_index(e);
	struct arch_record *r = &s->records[index];
	table_remove_row(s, &s->tables[r->table], r->row);
	arch_hook_destroy(s, r, index);
	r->gen = (r->gen + 1) & ECS_GENERATION_MASK;
	r->table = ARCH_NONE;
	r->row = s->free_head;
	s->free_head = index;
	s->free_count++;
	return ECS_OK;
}

/* The checks every component operation starts with, in ecs.h's order of precedence (NULL
 * pointer arguments are checked before them). */
ECS_CHECK_SHELL(arch)

/*
 * The edge of `type` from the entity's table, which says whether the entity has the type (a
 * remove-edge) or not (an add-edge) and leads to the table it moves to: with the edge cached
 * (every move after the first along it) no search of the table's types. Without it, the
 * table's types are searched and the neighbour found or made (table_neighbour_uncached).
 * ECS_ERR_HAS_COMPONENT or ECS_ERR_NO_COMPONENT where the entity has or lacks the type, as
 * `add` requires.
 */
static inline int entity_edge(ecs_storage *s, uint32_t table, uint32_t type, bool add,
                              struct arch_edge *out)
{
	const struct arch_edge *edge = edge_find(&s->tables[table], type);
	if (edge) {
		if ((bool)edge->add != add)
			return add ? ECS_ERR_HAS_COMPONENT : ECS_ERR_NO_COMPONENT;
		*out = *edge;
		return ECS_OK;
	}
	bool has = table_column(&s->tables[table], type) != ARCH_NONE;
	if (has == add)
		return add ? ECS_ERR_HAS_COMPONENT : ECS_ERR_NO_COMPONENT;
	return table_neighbour_uncached(s, table, type, add, out);
}

static int arch_component_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	if (!value)
		return ECS_ERR_INVALID;
	int rc = arch_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	if (arch_hook_outside(s, type))
		return arch_hook_add(s, e, type, value);
	struct arch_record *r = &s->records[ecs_entity_index(e)];
	struct arch_edge edge;
	if ((rc = entity_edge(s, r->table, type, true, &edge)) != ECS_OK)
		return rc;
	/* Only the destination grows; the source table and the others keep their columns. */
	struct arch_table *dst = &s->tables[edge.table];
	if (dst->count >= dst->cap && (rc = table_grow_keeping(s, dst, dst->count + 1, &value, 1)))
		return rc;
	entity_move(s, e, r, edge.table, edge.column, value);
	return ECS_OK;
}

static int arch_component_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = arch_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	if (arch_hook_outside(s, type))
		return arch_hook_remove(s, e, type);
	struct arch_record *r = &s->records[ecs_entity_index(e)];
	struct arch_edge edge;
	if ((rc = entity_edge(s, r->table, type, false, &edge)) != ECS_OK)
		return rc;
	if ((rc = table_reserve(s, &s->tables[edge.table], s->tables[edge.table].count + 1)))
		return rc;
	entity_move(s, e, r, edge.table, edge.column, NULL);
	return ECS_OK;
}

/*
 * A lookup: one record (its generation checked in the load that gives the table and the row),
 * the type's column in that table from the table's column_of (table_column_direct), the
 * value at the row; an outside type's value from the variant (arch_hook_value).
 * A failure's status from what the hit path already knows (no second load: a missing component
 * is a common answer).
 */
static inline bool arch_get_live(const ecs_storage *s, ecs_entity e, const void **state)
{
	uint32_t index = ecs_entity_index(e);
	*state = NULL;
	if (index >= s->record_used)
		return false;
	const struct arch_record *r = &s->records[index];
	*state = r;
	return ARCH_RECORD_KEY(r->gen) == (ecs_entity_generation(e) | ARCH_ALIVE);
}

/* The value of `type` (in range) of the live entity e, whose record is `state`, if it has it. */
static inline bool arch_get_value(const ecs_storage *s, const void *state, ecs_entity e,
                                  uint32_t type, void **value)
{
	const struct arch_record *r = state;
	if (arch_hook_outside(s, type))
		return arch_hook_value(s, e, type, value);
	const struct arch_table *t = &s->tables[r->table];
	uint32_t j = table_column_direct(t, type);
	if (j == ARCH_NONE)
		return false;
	const struct arch_column *col = &t->columns[j];
	*value = col->data + (size_t)r->row * col->size;
	return true;
}

/* A batch's read-ahead: the record (what a variant's outside types read next is found only
 * through it). */
static inline void arch_get_ahead(const ecs_storage *s, ecs_entity e, const uint32_t *types,
                                  uint32_t type_count)
{
	(void)types, (void)type_count;
	uint32_t index = ecs_entity_index(e);
	if (index < s->record_used)
		__builtin_prefetch(&s->records[index]);
}

static int arch_component_get(ecs_storage *s, ecs_entity e, uint32_t type, void **out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	const void *state;
	void *value;
	if (!arch_get_live(s, e, &state))
		return ECS_ERR_DEAD_ENTITY;
	if (type >= s->component_count)
		return ECS_ERR_BAD_COMPONENT;
	if (!arch_get_value(s, state, e, type, &value))
		return ECS_ERR_NO_COMPONENT;
	*out = value;
	return ECS_OK;
}

/* The get shells (checks.h: ECS_GET_SHELLS): the record once (the handle checked in the load
 * that gives the table and the row), then per type its column in that table and the value's
 * address; a batch prefetches the records of the handles ECS_GET_AHEAD places on; entity_get's
 * failure goes on out of line. */
ECS_GET_SHELLS(arch, arch_get_ahead, arch_get_live, arch_get_value, arch_get_value, NULL)

static int arch_component_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	int rc = arch_check(s, e, type);
	if (rc != ECS_OK)
		return rc;
	if (arch_hook_outside(s, type))
		return arch_hook_has(s, e, type);
	const struct arch_record *r = &s->records[ecs_entity_index(e)];
	return table_column(&s->tables[r->table], type) != ARCH_NONE;
}

static int arch_system_register_body(ecs_storage *s, const uint32_t *types, uint32_t count,
                                     const uint32_t *excluded, uint32_t excluded_count,
                                     uint32_t *out_id)
{
	struct arch_system y = {.type_count = count, .excluded_count = excluded_count};
	memcpy(y.types, types, count * sizeof *types);
	if (excluded_count)
		memcpy(y.excluded, excluded, excluded_count * sizeof *excluded);
	arch_hook_system(s, &y);
	/* The tables that exist, matched once: counted first so that one allocation holds them. */
	struct arch_match m;
	uint32_t matched = 0;
	for (uint32_t t = 0; t < s->table_count; t++)
		matched += system_matches(&y, &s->tables[t], t, &m);
	int rc = arch_grow(s, (void **)&y.matches, &y.match_cap, matched, sizeof *y.matches, 4,
	                   UINT32_MAX);
	if (rc != ECS_OK)
		return rc;
	for (uint32_t t = 0; t < s->table_count; t++)
		if (system_matches(&y, &s->tables[t], t, &m))
			y.matches[y.match_count++] = m;
	s->systems[s->system_count] = y;
	*out_id = s->system_count++;
	return ECS_OK;
}

/* Iterator state: the system; where the iteration is (a position in the system's matches and
 * the first row of that table still to visit); where it ends (a position in the matches, and
 * the row of that table where it stops: the whole pass ends at the last match + 1, row 0). */
enum { ARCH_ITER_SYSTEM, ARCH_ITER_MATCH, ARCH_ITER_ROW, ARCH_ITER_END_MATCH, ARCH_ITER_END_ROW };

static int arch_system_iter_begin_body(ecs_storage *s, uint32_t system, struct ecs_iter *it)
{
	it->storage = s;
	it->state[ARCH_ITER_SYSTEM] = system;
	it->state[ARCH_ITER_MATCH] = 0;
	it->state[ARCH_ITER_ROW] = 0;
	it->state[ARCH_ITER_END_MATCH] = s->systems[system].match_count;
	it->state[ARCH_ITER_END_ROW] = 0;
	arch_hook_iter_setup(s, &s->systems[system], 0, 1, it);
	return ECS_OK;
}

/*
 * Where the tables a system matches are many and small (fragmented: thousands of tables of a
 * few rows), a batch costs a chain of misses before the system reads a value: the table, its
 * column list, then each column. The batches ahead are asked for in a pipeline, one link of
 * the chain per batch: the table ARCH_PREFETCH_AHEAD matches on, the column list of the one
 * half as far (whose table was asked for then), the columns of the next one (whose list was).
 */
#define ARCH_PREFETCH_AHEAD 8u

static inline void prefetch_ahead(const ecs_storage *s, const struct arch_system *y, uint32_t pos)
{
	const struct arch_match *matches = y->matches;
	if (pos + ARCH_PREFETCH_AHEAD < y->match_count)
		__builtin_prefetch(&s->tables[matches[pos + ARCH_PREFETCH_AHEAD].table]);
	if (pos + ARCH_PREFETCH_AHEAD / 2 < y->match_count) {
		const struct arch_match *m = &matches[pos + ARCH_PREFETCH_AHEAD / 2];
		__builtin_prefetch(&s->tables[m->table].columns[m->column[0]]);
	}
	if (pos + 1 < y->match_count) {
		const struct arch_match *m = &matches[pos + 1];
		const struct arch_table *t = &s->tables[m->table];
		for (uint32_t c = 0; c < y->type_count; c++)
			__builtin_prefetch(t->columns[m->column[c]].data);
	}
}

/*
 * Where part `part` of a split starts: the rows of the system's matching tables, taken in
 * order as one sequence, cut into even shares by entity count (not by table: one large table
 * is shared among threads, many small ones are grouped), each cut moved forward by less than a
 * part to the next row whose value of the system's first component starts a cache line (rows
 * of a table are consecutive, so within a table this always holds). *match and *row: the
 * table (its position in the matches) and the row where the part starts.
 */
static void arch_split_bound(const ecs_storage *s, const struct arch_system *y, uint32_t total,
                             uint32_t part, uint32_t parts, uint32_t *match, uint32_t *row)
{
	uint32_t at = ecs_split_bound(total, part, parts), before = 0;
	*match = y->match_count;
	*row = 0;
	if (part == parts)
		return;
	for (uint32_t pos = 0; pos < y->match_count; pos++) {
		const struct arch_match *m = &y->matches[pos];
		const struct arch_table *t = &s->tables[m->table];
		if (at >= before + t->count) {
			before += t->count;
			continue;
		}
		uint32_t r = at - before;
		if (part > 0 && total / parts >= 2 && !arch_hook_required_outside(y, 0)) {
			const struct arch_column *col = &t->columns[m->column[0]];
			uint32_t d = ecs_split_align(col->data + (size_t)r * col->size, col->size,
			                             total / parts);
			if (r + d <= t->count)
				r += d;
		}
		*match = pos;
		*row = r;
		return;
	}
}

/* The parts' rows of the system's tables (see arch_split_bound): O(matches) to find both ends,
 * nothing per entity. */
static int arch_system_iter_split_body(ecs_storage *s, uint32_t system, uint32_t part,
                                       uint32_t parts, struct ecs_iter *it)
{
	const struct arch_system *y = &s->systems[system];
	uint32_t total = 0, match, row;
	for (uint32_t pos = 0; pos < y->match_count; pos++)
		total += s->tables[y->matches[pos].table].count;
	it->storage = s;
	it->state[ARCH_ITER_SYSTEM] = system;
	arch_split_bound(s, y, total, part, parts, &match, &row);
	it->state[ARCH_ITER_MATCH] = match;
	it->state[ARCH_ITER_ROW] = row;
	arch_split_bound(s, y, total, part + 1, parts, &match, &row);
	it->state[ARCH_ITER_END_MATCH] = match;
	it->state[ARCH_ITER_END_ROW] = row;
	arch_hook_iter_setup(s, y, part, parts, it);
	return ECS_OK;
}

ECS_SYSTEM_SHELLS(arch)

/* A batch of n rows of table t (match m of system y) from `row`: the entities, and the column of
 * each type the system requires. always_inline: as a call's inline candidate gcc kept its
 * operands in memory (archetype fragmented: +2.3% data references, make instr). */
static inline __attribute__((always_inline)) void
table_batch(struct ecs_batch *b, const struct arch_system *y, const struct arch_match *m,
            const struct arch_table *t, uint32_t row, uint32_t n)
{
	b->count = n;
	b->entities = t->entities + row;
	for (uint32_t c = 0; c < ECS_SYSTEM_MAX_COMPONENTS; c++) {
		const struct arch_column *col = c < y->type_count ? &t->columns[m->column[c]] : NULL;
		b->columns[c] = col ? col->data + (size_t)row * col->size : NULL;
		b->pointers[c] = NULL;
	}
}

/* One batch per non-empty matching table: its columns whole (a part's first and last table
 * from its first row, to its last). */
static bool arch_system_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	const ecs_storage *s = it->storage;
	const struct arch_system *y = &s->systems[it->state[ARCH_ITER_SYSTEM]];
	bool more;
	if (arch_hook_iter_next(it, b, &more))
		return more;
	uint32_t end_match = (uint32_t)it->state[ARCH_ITER_END_MATCH];
	uint32_t row = (uint32_t)it->state[ARCH_ITER_ROW];
	for (uint32_t pos = (uint32_t)it->state[ARCH_ITER_MATCH];
	     pos < y->match_count && pos <= end_match; pos++, row = 0) {
		const struct arch_match *m = &y->matches[pos];
		const struct arch_table *t = &s->tables[m->table];
		prefetch_ahead(s, y, pos);
		uint32_t stop = pos == end_match ? (uint32_t)it->state[ARCH_ITER_END_ROW] : t->count;
		if (row >= stop)
			continue;
		table_batch(b, y, m, t, row, stop - row);
		it->state[ARCH_ITER_MATCH] = pos + 1;
		it->state[ARCH_ITER_ROW] = 0;
		return true;
	}
	it->state[ARCH_ITER_MATCH] = y->match_count;
	b->count = 0;
	return false;
}

/* The batches (entity_create_batch, component_add_batch, component_remove_batch). */
/* --- batches (ecs.h: entity_create_batch, component_add_batch, component_remove_batch) --- */

#define ARCH_BATCH_SOURCE 0x80000000u /* in a batch's per-table count: a source table */
#define ARCH_BATCH_MEMO 16u /* source tables a batch remembers the edge of (direct-mapped) */

/*
 * A batch's source tables -> the edge of its type from each, so that the passes over the
 * entities search a table's edges once per table, not once per entity and pass (the batch
 * costs no more per entity than its singles). Direct-mapped by table index: entities from
 * many tables only evict each other (a miss searches the edges as a single would), whatever
 * order the game gives them in. An entry whose edge.type is ARCH_NONE: the table was checked
 * (it has, or lacks, the type as the batch requires) but its edge is not made yet.
 */
struct batch_memo {
	uint32_t from[ARCH_BATCH_MEMO]; /* ARCH_NONE: empty */
	struct arch_edge edge[ARCH_BATCH_MEMO];
};

/* batch_edge's miss: the edge searched for, or made, and remembered. */
static __attribute__((noinline)) const struct arch_edge *
batch_edge_miss(ecs_storage *s, struct batch_memo *m, uint32_t from, uint32_t type, bool add,
                int *rc)
{
	uint32_t slot = from & (ARCH_BATCH_MEMO - 1);
	struct arch_edge edge;
	if ((*rc = entity_edge(s, from, type, add, &edge)) != ECS_OK)
		return NULL;
	m->from[slot] = from;
	m->edge[slot] = edge;
	return &m->edge[slot];
}

/* The edge from table `from` (its memo entry), made if need be (batch_check found the
 * entities of `from` can move), or NULL with *rc set if making it failed. */
static inline const struct arch_edge *batch_edge(ecs_storage *s, struct batch_memo *m,
                                                 uint32_t from, uint32_t type, bool add, int *rc)
{
	uint32_t slot = from & (ARCH_BATCH_MEMO - 1);
	if (m->from[slot] == from && m->edge[slot].type != ARCH_NONE)
		return &m->edge[slot];
	return batch_edge_miss(s, m, from, type, add, rc);
}

/* Clears the marks batch_check left (every handle's index below record_used: a dead handle's
 * index may be a live entity's, whose mark is clear already). */
static void batch_unmark(ecs_storage *s, const ecs_entity *entities, uint32_t count)
{
	for (uint32_t j = 0; j < count; j++) {
		uint32_t i = ecs_entity_index(entities[j]);
		if (i < s->record_used)
			s->records[i].gen &= ~ARCH_MARK;
	}
}

/*
 * The checks of a batch over a list of entities, in ecs.h's order: ECS_ERR_INVALID (a repeated
 * handle), ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT, then (m not NULL: a table type) whether
 * each entity has the type (ECS_ERR_HAS_COMPONENT on an add, ECS_ERR_NO_COMPONENT on a remove),
 * asked once per source table and remembered in m with its edge where one is cached (*unmade:
 * some table has none yet). A repeat among live handles is found in O(count), not by sorting:
 * each live record seen is marked (ARCH_MARK, beside the alive bit) and a second sight finds
 * the mark. The marks are cleared before an error returns; on ECS_OK the caller's pass over
 * the records clears them (batch_move's counting pass, arch_hook_batch's last: one pass over
 * the records fewer, so that a batch costs no more per entity than its singles). Dead handles
 * have no record of their own to mark (their index may be another entity's), and only when two
 * or more are given are they sorted.
 */
static int batch_check(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
                       struct batch_memo *m, bool add, bool *unmade)
{
	bool repeat = false, wrong = false;
	bool tables = m && type < s->component_count;
	uint32_t dead = 0;
	if (m)
		memset(m->from, 0xff, sizeof m->from);
	for (uint32_t j = 0; j < count; j++) {
		ecs_entity e = entities[j];
		uint32_t i = ecs_entity_index(e);
		uint32_t *gen = i < s->record_used ? &s->records[i].gen : NULL;
		if (gen && ARCH_RECORD_KEY(*gen & ~ARCH_MARK) == (ecs_entity_generation(e) | ARCH_ALIVE)) {
			repeat |= (*gen & ARCH_MARK) != 0;
			*gen |= ARCH_MARK;
			if (!tables)
				continue;
			uint32_t from = s->records[i].table, slot = from & (ARCH_BATCH_MEMO - 1);
			if (m->from[slot] == from)
				continue;
			const struct arch_table *t = &s->tables[from];
			const struct arch_edge *cached = edge_find(t, type);
			bool has = cached ? !cached->add : table_column(t, type) != ARCH_NONE;
			wrong |= has == add;
			*unmade |= !cached;
			m->from[slot] = from;
			m->edge[slot] = cached ? *cached : (struct arch_edge){.type = ARCH_NONE};
		} else {
			dead++;
		}
	}
	int rc = ECS_OK;
	if (repeat || dead) {
		batch_unmark(s, entities, count);
		/* A repeat among the dead handles: the marks cannot see one (only live handles are
		 * marked), a sort of the list can (an error path only). */
		if (repeat || (dead > 1 && ecs_batch_has_repeat(entities, count)))
			return ECS_ERR_INVALID;
		return ECS_ERR_DEAD_ENTITY;
	}
	if (type >= s->component_count)
		rc = ECS_ERR_BAD_COMPONENT;
	else if (wrong)
		rc = add ? ECS_ERR_HAS_COMPONENT : ECS_ERR_NO_COMPONENT;
	if (rc != ECS_OK)
		batch_unmark(s, entities, count);
	return rc;
}

/* Whether [lo, hi) overlaps a column of table t. */
static bool table_overlaps(const struct arch_table *t, uintptr_t lo, uintptr_t hi)
{
	for (uint32_t j = 0; j < t->type_count; j++) {
		uintptr_t at = (uintptr_t)t->columns[j].data;
		if (at && lo < at + (size_t)t->columns[j].cap * t->columns[j].size && at < hi)
			return true;
	}
	return false;
}

/*
 * A batch of adds (values: not NULL) or removes of a table type, after batch_check passed
 * (its marks still set, its memo of source tables' edges filled; unmade: some source table
 * had no edge cached): the missing edges made (neighbour tables found or created), then the
 * rows each destination gains counted per table (the marks cleared on the way), each
 * destination grown once, then the moves. Every return clears the marks. The moves
 * overwrite the sources' rows (the last row fills each hole) and the growth moves the
 * destinations' columns: if the values overlap a column of either, they are copied aside
 * first (through the storage's allocator), so that each is read as it was when the call
 * began. On error nothing has changed but capacities and the tables that exist.
 */
static int batch_move(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
                      const struct ecs_values *values, struct batch_memo *memo, bool unmade)
{
	bool add = values != NULL;
	const struct arch_edge *edge;
	int rc = ECS_OK;
	/* The edges batch_check found no cached one for: made (the neighbour table found or
	 * created), now that no entity can fail its checks. */
	for (uint32_t j = 0; unmade && j < count; j++) {
		if (!batch_edge(s, memo, s->records[ecs_entity_index(entities[j])].table, type, add,
		                &rc)) {
			batch_unmark(s, entities, count);
			return rc;
		}
	}
	uint32_t tables = s->table_count; /* with those the edges made */
	uint32_t *need = arch_malloc(s, (size_t)tables * sizeof *need);
	if (!need) {
		batch_unmark(s, entities, count);
		return ECS_ERR_NO_MEMORY;
	}
	memset(need, 0, (size_t)tables * sizeof *need);
	/* The rows each destination gains; batch_check's marks cleared on the way. */
	for (uint32_t j = 0; j < count; j++) {
		struct arch_record *r = &s->records[ecs_entity_index(entities[j])];
		r->gen &= ~ARCH_MARK;
		edge = batch_edge(s, memo, r->table, type, add, &rc); /* made above: cannot fail now */
		need[edge->table]++;
		need[r->table] |= ARCH_BATCH_SOURCE;
	}
	const unsigned char *data = add ? values->data : NULL;
	size_t stride = add ? values->stride : 0, size = s->sizes[type < s->component_count ? type : 0];
	unsigned char *aside = NULL;
	if (add) {
		uintptr_t lo = (uintptr_t)data, hi = lo + (size_t)(count - 1) * stride + size;
		bool overlaps = false;
		for (uint32_t t = 0; t < tables && !overlaps; t++)
			overlaps = need[t] && table_overlaps(&s->tables[t], lo, hi);
		if (overlaps) {
			if (!(aside = arch_malloc(s, (size_t)count * size))) {
				rc = ECS_ERR_NO_MEMORY;
				goto out;
			}
			for (uint32_t j = 0; j < count; j++)
				memcpy(aside + (size_t)j * size, data + (size_t)j * stride, size);
			data = aside;
			stride = size;
		}
	}
	for (uint32_t t = 0; t < tables && rc == ECS_OK; t++) {
		uint32_t rows = need[t] & ~ARCH_BATCH_SOURCE;
		if (rows)
			rc = table_reserve(s, &s->tables[t], s->tables[t].count + rows);
	}
	for (uint32_t j = 0; j < count && rc == ECS_OK; j++) {
		ecs_entity e = entities[j];
		struct arch_record *r = &s->records[ecs_entity_index(e)];
		edge = batch_edge(s, memo, r->table, type, add, &rc); /* made above: cannot fail */
		entity_move(s, e, r, edge->table, edge->column, add ? data + (size_t)j * stride : NULL);
	}
	arch_free(s, aside, (size_t)count * size);
out:
	arch_free(s, need, (size_t)tables * sizeof *need);
	return rc;
}

/* A batch of adds (values not NULL) or removes of one type: every entity checked, then moved
 * to its new table (batch_move), or, for a type outside the tables, the variant's. Inlined
 * into both, as the code it folds was (batch_check and batch_move keep their two callers). */
static inline __attribute__((always_inline)) int
arch_batch_change(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
                  const struct ecs_values *values)
{
	if (!count) /* the type is checked all the same: that does not depend on count */
		return type < s->component_count ? ECS_OK : ECS_ERR_BAD_COMPONENT;
	struct batch_memo memo, *m = &memo;
	bool unmade = false;
	if (type < s->component_count && arch_hook_outside(s, type))
		m = NULL; /* the variant says whether each has it (arch_hook_batch) */
	int rc = batch_check(s, entities, count, type, m, values != NULL, &unmade);
	if (rc != ECS_OK)
		return rc;
	if (!m)
		return arch_hook_batch(s, entities, count, type, values);
	return batch_move(s, entities, count, type, values, m, unmade);
}

ECS_BATCH_SHELLS(arch)

/* Copies count values (stride apart from data) to count packed slots at `to`: one memmove
 * when they are packed already. */
static inline void batch_copy(unsigned char *to, const unsigned char *data, size_t stride,
                              uint32_t size, uint32_t count)
{
	if (stride == size)
		memmove(to, data, (size_t)count * size);
	else
		for (uint32_t j = 0; j < count; j++)
			copy_value(to + (size_t)j * size, data + (size_t)j * stride, size);
}

/*
 * count entities of one set at once: the set's table looked up (or made) once, the records
 * and the table grown once, the values copied a column at a time (one memmove per column when
 * packed), the handles and records written in one loop. Indices come from the free list first
 * (its length counted as it changes, for ECS_ERR_FULL), then fresh ones. Values that point into
 * the table being grown (or a variant's outside storage) are moved along with it
 * (table_grow_keeping, arch_hook_create_batch_room); every value is written to a new row, so
 * none is overwritten before it is read. On error nothing has changed but capacities and the
 * tables that exist.
 */
static inline __attribute__((always_inline)) int
arch_entity_create_batch_body(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                              const struct ecs_values *values, uint32_t count, ecs_entity *out,
                              uint32_t from_free, uint32_t fresh)
{
	/* (ECS_ERR_FULL came from the free list's length, counted as it changes: the list is walked
	 * once, where its indices are taken, not a second time to count them.) */
	/* The table types sorted (given[j]: their place in the list), the hash of their set. */
	uint32_t sorted[ECS_CREATE_MAX_COMPONENTS], given[ECS_CREATE_MAX_COMPONENTS], n = 0;
	const void *base[ECS_CREATE_MAX_COMPONENTS];
	uint64_t hash = 0;
	for (uint32_t i = 0; i < type_count; i++) {
		base[i] = values[i].data;
		if (arch_hook_outside(s, types[i]))
			continue;
		uint32_t j = n++;
		for (; j > 0 && sorted[j - 1] > types[i]; j--) {
			sorted[j] = sorted[j - 1];
			given[j] = given[j - 1];
		}
		sorted[j] = types[i];
		given[j] = i;
		hash += type_hash(types[i]);
	}
	uint32_t to;
	int rc = table_of_set(s, hash, sorted, n, &to);
	if (rc != ECS_OK)
		return rc;
	if ((rc = records_reserve(s, s->record_used + fresh)) != ECS_OK)
		return rc;
	struct arch_table *t = &s->tables[to];
	if (t->count + count > t->cap &&
	    (rc = table_grow_keeping(s, t, t->count + count, base, type_count)) != ECS_OK)
		return rc;
	uint32_t alive = ARCH_ALIVE, spare = 0;
	if ((rc = arch_hook_create_batch_room(s, types, type_count, count, from_free, base,
	                                      &spare)) != ECS_OK)
		return rc;
	alive += spare;
	uint32_t row = t->count;
	/* Two loops, not one with a test per entity: the free list's indices (each record's
	 * generation kept, the list followed), then fresh ones, whose records are written whole
	 * (generation 0) with no load of the free list's links. */
	for (uint32_t j = 0; j < from_free; j++) {
		uint32_t index = s->free_head;
		struct arch_record *r = &s->records[index];
		s->free_head = r->row;
		r->gen += alive;
		r->table = to;
		r->row = row + j;
		ecs_entity e = ecs_entity_make(index, r->gen & ECS_GENERATION_MASK);
		t->entities[row + j] = e;
		out[j] = e;
	}
	s->free_count -= from_free;
	struct arch_record *fresh_records = s->records + s->record_used - from_free;
	ecs_entity *fresh_entities = t->entities + row;
	for (uint32_t j = from_free; j < count; j++) {
		fresh_records[j] = (struct arch_record){alive, to, row + j};
		ecs_entity e = ecs_entity_make(s->record_used - from_free + j, 0);
		fresh_entities[j] = e;
		out[j] = e;
	}
	s->record_used += count - from_free;
	t->count += count;
	for (uint32_t j = 0; j < n; j++) {
		struct arch_column *col = &t->columns[j];
		batch_copy(col->data + (size_t)row * col->size, base[given[j]],
		           values[given[j]].stride, col->size, count);
	}
	arch_hook_create_batch_fill(s, types, type_count, values, base, out, count);
	return ECS_OK;
}

ECS_CREATE_BATCH_SHELL(arch, record_used)

/* A variant's ops table but its name and description: every operation is the machinery's. */
#define ARCH_OPS                                                                                   \
	.version = ECS_INTERFACE_VERSION,                                                          \
	.create = arch_create,                                                                     \
	.destroy = arch_destroy,                                                                   \
	.reserve = arch_reserve,                                                                   \
	.entity_create = arch_entity_create,                                                       \
	.entity_create_with = arch_entity_create_with,                                             \
	.entity_destroy = arch_entity_destroy,                                                     \
	.entity_alive = arch_entity_alive,                                                         \
	.component_add = arch_component_add,                                                       \
	.component_remove = arch_component_remove,                                                 \
	.component_get = arch_component_get,                                                       \
	.component_get_batch = arch_component_get_batch,                                           \
	.entity_get = arch_entity_get,                                                             \
	.component_has = arch_component_has,                                                       \
	.system_register = arch_system_register,                                                   \
	.system_iter_begin = arch_system_iter_begin,                                               \
	.system_iter_next = arch_system_iter_next,                                                 \
	.system_iter_split = arch_system_iter_split,                                               \
	.entity_create_batch = arch_entity_create_batch,                                           \
	.component_add_batch = arch_component_add_batch,                                           \
	.component_remove_batch = arch_component_remove_batch

#ifndef ARCH_VARIANT
const struct ecs_ops ecs_backend_archetype = {
	ARCH_OPS,
	.name = "archetype",
	.description = "table per component set, columns + cached add/remove edges (flecs)",
};
#endif
