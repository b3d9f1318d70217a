/*
 * archetype.h: the table machinery of archetype.c, written once: one table per set of types, a
 * column per type, records entity -> (table, row), edges between neighbouring tables, the
 * systems' matched tables. archetype.c and hybrid.c each include it after defining what a
 * variant adds (the fields below) and supply the hooks declared after struct ecs_storage, as
 * hash.c, tree.c and vector.c supply family.h's index: archetype.c's are empty and compile
 * away (its code is the tables' alone: make instr holds its rows), hybrid.c's keep the types
 * the config marks sparse in pools outside the tables. Its batches are archetype_batch.h,
 * included near its end. What each backend stores and costs is in the .c files' headers.
 */
#if !defined(ARCH_SYSTEM_FIELDS) || !defined(ARCH_STORAGE_FIELDS) || !defined(ARCH_RECORD_SPARE)
#error "define ARCH_SYSTEM_FIELDS, ARCH_STORAGE_FIELDS, ARCH_RECORD_SPARE before archetype.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "ecs.h"

#define ARCH_NONE UINT32_MAX
#define ARCH_ALIVE 0x80000000u /* in arch_record.gen, above the generation bits */
#define ARCH_MARK 0x40000000u  /* in arch_record.gen during a batch's checks: handle seen */
/* A record's generation word: the generation, ARCH_ALIVE, and the variant's own bits
 * (ARCH_RECORD_SPARE, 0 for none), which the alive test leaves out. */
#define ARCH_RECORD_KEY(gen) ((gen) & ~(uint32_t)(ARCH_RECORD_SPARE))
#define ARCH_EMPTY_TABLE 0u    /* the table of the empty set */
#define ARCH_FIRST_ROWS 16u
#define ARCH_FIRST_RECORDS 64u
#define ARCH_FIRST_EDGES 4u
#define ARCH_FIRST_TABLE_SLOTS 16u

struct arch_column {
	unsigned char *data; /* cap values of size bytes */
	uint32_t type;
	uint32_t size;
	uint32_t cap;
};

/* An edge also says which way it goes and where the type's column is in the table of the two
 * that has it: a move along it copies the columns before that position straight across and
 * those after it one off, with no search of either type list (see entity_move). */
struct arch_edge {
	uint32_t type;   /* ARCH_NONE: free slot */
	uint32_t table;
	uint32_t column; /* the type's column in the larger table of the two */
	uint32_t add;    /* 1: the table with the type (an add-edge), 0: without (remove) */
};

struct arch_table {
	uint64_t hash;        /* of the type set: sum of type_hash() over it */
	uint32_t type_count;  /* columns */
	uint32_t count;       /* rows */
	uint32_t cap;         /* rows every array below holds at least */
	uint32_t entities_cap;
	ecs_entity *entities;
	struct arch_column *columns; /* type_count, sorted by type */
	struct arch_edge *edges;     /* edge_cap slots: 0 or a power of two, at most 3/4 full */
	uint32_t edge_count, edge_cap;
	/* Each type's column, for the types from the table's first to its last:
	 * column_of[type - type_base] for type_base <= type < type_base + type_span, or
	 * ARCH_NO_COLUMN. A lookup by handle (component_get) reads it instead of searching the
	 * table's types, whose branches follow the entity's table, which lookups in a game's
	 * order keep changing (flecs' component record -> table record does the same). */
	uint16_t *column_of;
	uint32_t type_base, type_span;
};
#define ARCH_NO_COLUMN UINT16_MAX

struct arch_record {
	uint32_t gen;   /* generation | ARCH_ALIVE while alive */
	uint32_t table; /* while alive */
	uint32_t row;   /* while alive; while dead, the next index of the free list */
};

/* A table a system matches, with the column of each of the system's types in it. */
struct arch_match {
	uint32_t table;
	uint32_t column[ECS_SYSTEM_MAX_COMPONENTS];
};

struct arch_system {
	uint32_t type_count, excluded_count;
	uint32_t types[ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t excluded[ECS_SYSTEM_MAX_EXCLUDED];
	uint32_t match_count, match_cap;
	struct arch_match *matches;
	ARCH_SYSTEM_FIELDS /* the variant's */
};

/*
 * entity_create_with's cache: type lists as given -> their table and the column of each type
 * there (see arch_entity_create_with). ARCH_CREATE_SETS sets of ARCH_CREATE_WAYS entries, a
 * list's set chosen by a hash of its key (create_key: the list in its order, {0, 1} and
 * {1, 0} are two entries); within a set an entry not hit since the set's clock hand last
 * passed makes room (the CLOCK approximation of least recently used: a hit costs one byte
 * store, not a timestamp). 32 entries, 3.6 KiB inside the storage: no allocation, nothing to
 * free, and a bound whatever the lists a game gives.
 */
#define ARCH_CREATE_SET_BITS 3u
#define ARCH_CREATE_SETS (1u << ARCH_CREATE_SET_BITS)
#define ARCH_CREATE_WAYS 4u
#define ARCH_CREATE_EXACT 4u      /* lists of up to this many types are their own key */
#define ARCH_CREATE_TYPE_BITS 12u /* a type id in an exact key */
#define ARCH_CREATE_HASHED (UINT64_C(1) << 63) /* in the key of a longer list, never an exact */
#define ARCH_CREATE_NO_KEY UINT64_MAX /* of a list that can hit nothing; of an empty entry */
#define ARCH_CREATE_UNUSED UINT16_MAX /* arch_create_entry.count of an empty entry */

_Static_assert(ECS_MAX_COMPONENT_TYPES <= 1u << ARCH_CREATE_TYPE_BITS,
               "a type id fits its place in an exact key, and a cache entry's uint16_t");
_Static_assert(ECS_CREATE_MAX_COMPONENTS <= UINT8_MAX, "a column fits a cache entry's uint8_t");

struct arch_create_entry {
	uint32_t table;
	uint16_t count;                            /* ARCH_CREATE_UNUSED: empty */
	uint16_t types[ECS_CREATE_MAX_COMPONENTS]; /* the list as given */
	uint8_t column[ECS_CREATE_MAX_COMPONENTS]; /* types[i]'s column in the table */
};

struct arch_create_set {
	uint64_t key[ARCH_CREATE_WAYS]; /* create_key of each entry's list */
	uint8_t hit[ARCH_CREATE_WAYS];  /* 1: hit or filled since the hand last passed it */
	uint8_t hand;                   /* the next entry the clock hand looks at */
	struct arch_create_entry entry[ARCH_CREATE_WAYS];
};

struct ecs_storage {
	struct ecs_allocator alloc;
	uint32_t component_count;
	uint32_t *sizes; /* component_count */

	struct arch_record *records;
	uint32_t record_used; /* indices ever handed out */
	uint32_t record_cap;
	uint32_t free_head; /* first dead index, or ARCH_NONE */
	uint32_t free_count; /* indices on the free list: a batch's ECS_ERR_FULL without a walk */

	struct arch_table *tables;
	uint32_t table_count, table_cap;
	uint32_t *table_slots; /* type set -> table: table indices or ARCH_NONE, at most 1/2 full */
	uint32_t slot_cap;     /* a power of two */

	struct arch_system *systems; /* system_max slots */
	uint32_t system_count, system_max;

	/* entity_create_with's lists as given and where they led (struct arch_create_set) */
	struct arch_create_set create_cache[ARCH_CREATE_SETS];
	ARCH_STORAGE_FIELDS /* the variant's */
};

/*
 * The hooks a variant supplies (defined after the include), for the types it keeps outside
 * the tables ("outside types"); archetype.c's have nothing outside and compile away.
 */
/* create and destroy's part: set up (ECS_OK or ECS_ERR_NO_MEMORY; destroy frees what there
 * is) and free what the variant holds. */
static int arch_hook_setup(ecs_storage *s, const struct ecs_config *cfg);
static void arch_hook_release(ecs_storage *s);
/* Whether `type` (in range) lives outside the tables; whether a list (entity_create_with's,
 * checked for NULLs only) names such a type. */
static bool arch_hook_outside(const ecs_storage *s, uint32_t type);
static bool arch_hook_list_outside(const ecs_storage *s, const uint32_t *types, uint32_t count);
/* component_add, component_remove, component_has of a live entity and an outside type;
 * entity_create_with of a list with one. */
static int arch_hook_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value);
static int arch_hook_remove(ecs_storage *s, ecs_entity e, uint32_t type);
static int arch_hook_has(const ecs_storage *s, ecs_entity e, uint32_t type);
/* component_get's (and the batch's): the value of the live entity e's outside type, if it has
 * it. */
static bool arch_hook_value(const ecs_storage *s, ecs_entity e, uint32_t type, void **value);
static int arch_hook_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                                 const void *const *values, ecs_entity *out);
/* entity_destroy's part, before the record is freed. */
static void arch_hook_destroy(ecs_storage *s, struct arch_record *r, uint32_t index);
/* system_register's part: y's variant fields (y's lists set); whether y's required type c is
 * found outside the tables (its match column is then ARCH_NONE). */
static void arch_hook_system(const ecs_storage *s, struct arch_system *y);
static bool arch_hook_required_outside(const struct arch_system *y, uint32_t c);
/* A batch of adds (values not NULL) or removes of an outside type, after batch_check (whose
 * marks it clears). */
static int arch_hook_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                           uint32_t type, const struct ecs_values *values);
/* entity_create_batch's outside types: room for them (ECS_OK or ECS_ERR_NO_MEMORY; the values
 * in base[] moved along with what grows; *spare: bits for each record's ARCH_RECORD_SPARE),
 * then, the records and rows written, their values stored. */
static int arch_hook_create_batch_room(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                       uint32_t count, uint32_t from_free, const void **base,
                                       uint32_t *spare);
static void arch_hook_create_batch_fill(ecs_storage *s, const uint32_t *types,
                                        uint32_t type_count, const struct ecs_values *values,
                                        const void *const *base, const ecs_entity *out,
                                        uint32_t count);
/* iter_begin's and iter_split's part (the tables' state set), and the batches of a pass the
 * variant walks itself (arch_hook_iter_own). */
static void arch_hook_iter_setup(const ecs_storage *s, const struct arch_system *y, uint32_t part,
                                 uint32_t parts, struct ecs_iter *it);
static bool arch_hook_iter_own(const struct ecs_iter *it);
static bool arch_hook_iter_next(struct ecs_iter *it, struct ecs_batch *b);

/* --- allocation ----------------------------------------------------------------------- */

static inline void *arch_malloc(ecs_storage *s, size_t size)
{
	return s->alloc.malloc(s->alloc.ctx, size);
}

static inline void arch_free(ecs_storage *s, void *p, size_t size)
{
	if (p)
		s->alloc.free(s->alloc.ctx, p, size);
}

/* Grows *p (an array of *cap elements of elem bytes) geometrically, from `first`, to hold at
 * least need (need <= limit). On error *p and *cap are unchanged. */
static int arch_grow(ecs_storage *s, void **p, uint32_t *cap, uint32_t need, size_t elem,
                     uint32_t first, uint32_t limit)
{
	if (need <= *cap)
		return ECS_OK;
	uint64_t new_cap = *cap ? (uint64_t)*cap * 2 : first;
	while (new_cap < need)
		new_cap *= 2;
	if (new_cap > limit)
		new_cap = limit;
	void *q = s->alloc.realloc(s->alloc.ctx, *p, (size_t)*cap * elem, (size_t)new_cap * elem);
	if (!q)
		return ECS_ERR_NO_MEMORY;
	*p = q;
	*cap = (uint32_t)new_cap;
	return ECS_OK;
}

/* A move copies one value per column: ecs_copy_value (checks.h) knows the common sizes. */
#define copy_value ecs_copy_value

/* --- type sets ------------------------------------------------------------------------ */

static inline uint64_t type_hash(uint32_t type)
{
	uint64_t z = (uint64_t)type + 0x9e3779b97f4a7c15ull; /* splitmix64's finaliser */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The column of `type` in t, or ARCH_NONE, from its column_of: one load, no search. */
static inline uint32_t table_column_direct(const struct arch_table *t, uint32_t type)
{
	uint32_t at = type - t->type_base; /* wraps below type_base: not < type_span */
	uint32_t j = at < t->type_span ? t->column_of[at] : ARCH_NO_COLUMN;
	return j == ARCH_NO_COLUMN ? ARCH_NONE : j;
}

/* The column of `type` in t, or ARCH_NONE. */
static inline uint32_t table_column(const struct arch_table *t, uint32_t type)
{
	uint32_t lo = 0, hi = t->type_count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint32_t at = t->columns[mid].type;
		if (at == type)
			return mid;
		if (at < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ARCH_NONE;
}

/* Position where `type` is (remove) or would go (add) in base's sorted type list. */
static uint32_t type_position(const struct arch_table *base, uint32_t type)
{
	uint32_t lo = 0, hi = base->type_count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (base->columns[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The j-th type of base's set with `type` added (add) or removed; pos from type_position. */
static inline uint32_t neighbour_type(const struct arch_table *base, uint32_t type, bool add,
                                      uint32_t pos, uint32_t j)
{
	if (j < pos)
		return base->columns[j].type;
	if (add)
		return j == pos ? type : base->columns[j - 1].type;
	return base->columns[j + 1].type;
}

static bool table_is_neighbour(const struct arch_table *t, uint64_t hash,
                               const struct arch_table *base, uint32_t type, bool add,
                               uint32_t pos)
{
	uint32_t n = add ? base->type_count + 1 : base->type_count - 1;
	if (t->hash != hash || t->type_count != n)
		return false;
	for (uint32_t j = 0; j < n; j++)
		if (t->columns[j].type != neighbour_type(base, type, add, pos, j))
			return false;
	return true;
}

/* --- the map type set -> table -------------------------------------------------------- */

static inline uint32_t slot_of(uint64_t hash, uint32_t cap)
{
	return ((uint32_t)(hash >> 32) ^ (uint32_t)hash) & (cap - 1);
}

/* The table of base's set with `type` added or removed, or ARCH_NONE. */
static uint32_t table_find(const ecs_storage *s, uint64_t hash, const struct arch_table *base,
                           uint32_t type, bool add, uint32_t pos)
{
	uint32_t mask = s->slot_cap - 1;
	for (uint32_t i = slot_of(hash, s->slot_cap);; i = (i + 1) & mask) {
		uint32_t t = s->table_slots[i];
		if (t == ARCH_NONE)
			return ARCH_NONE;
		if (table_is_neighbour(&s->tables[t], hash, base, type, add, pos))
			return t;
	}
}

/* The table of the set of n sorted types, or ARCH_NONE (entity_create_with). */
static uint32_t table_find_set(const ecs_storage *s, uint64_t hash, const uint32_t *types,
                               uint32_t n)
{
	uint32_t mask = s->slot_cap - 1;
	for (uint32_t i = slot_of(hash, s->slot_cap);; i = (i + 1) & mask) {
		uint32_t t = s->table_slots[i];
		if (t == ARCH_NONE)
			return ARCH_NONE;
		const struct arch_table *table = &s->tables[t];
		if (table->hash != hash || table->type_count != n)
			continue;
		uint32_t j = 0;
		while (j < n && table->columns[j].type == types[j])
			j++;
		if (j == n)
			return t;
	}
}

static void table_slots_insert(uint32_t *slots, uint32_t cap, uint64_t hash, uint32_t table)
{
	uint32_t i = slot_of(hash, cap);
	while (slots[i] != ARCH_NONE)
		i = (i + 1) & (cap - 1);
	slots[i] = table;
}

/* Makes room in the map for `tables` tables (at most half full). */
static int table_slots_reserve(ecs_storage *s, uint32_t tables)
{
	if ((uint64_t)tables * 2 <= s->slot_cap)
		return ECS_OK;
	uint64_t cap = s->slot_cap ? (uint64_t)s->slot_cap * 2 : ARCH_FIRST_TABLE_SLOTS;
	while (cap < (uint64_t)tables * 2)
		cap *= 2;
	if (cap > UINT32_MAX / 2 + 1)
		return ECS_ERR_NO_MEMORY;
	uint32_t *slots = arch_malloc(s, cap * sizeof *slots);
	if (!slots)
		return ECS_ERR_NO_MEMORY;
	memset(slots, 0xff, cap * sizeof *slots);
	for (uint32_t t = 0; t < s->table_count; t++)
		table_slots_insert(slots, (uint32_t)cap, s->tables[t].hash, t);
	arch_free(s, s->table_slots, (size_t)s->slot_cap * sizeof *slots);
	s->table_slots = slots;
	s->slot_cap = (uint32_t)cap;
	return ECS_OK;
}

/* --- edges ---------------------------------------------------------------------------- */

static inline uint32_t edge_slot(uint32_t type, uint32_t cap)
{
	return (type * 2654435761u) & (cap - 1);
}

/* The edge of `type` from t, or NULL. */
static inline const struct arch_edge *edge_find(const struct arch_table *t, uint32_t type)
{
	if (!t->edge_cap)
		return NULL;
	uint32_t mask = t->edge_cap - 1;
	for (uint32_t i = edge_slot(type, t->edge_cap);; i = (i + 1) & mask) {
		if (t->edges[i].type == type)
			return &t->edges[i];
		if (t->edges[i].type == ARCH_NONE)
			return NULL;
	}
}

static void edge_put(struct arch_edge *edges, uint32_t cap, struct arch_edge edge)
{
	uint32_t i = edge_slot(edge.type, cap);
	while (edges[i].type != ARCH_NONE)
		i = (i + 1) & (cap - 1);
	edges[i] = edge;
}

/*
 * Caches the edge t --type--> table. The cache is only a shortcut past table_find, so when
 * there is no memory for it the edge is simply not cached: the operation that wanted it does
 * not fail for that, and the next one along the edge tries again.
 */
static void edge_cache(ecs_storage *s, struct arch_table *t, struct arch_edge edge)
{
	if (edge_find(t, edge.type))
		return;
	if ((t->edge_count + 1) * 4 > t->edge_cap * 3) {
		uint32_t cap = t->edge_cap ? t->edge_cap * 2 : ARCH_FIRST_EDGES;
		struct arch_edge *edges = arch_malloc(s, cap * sizeof *edges);
		if (!edges)
			return;
		memset(edges, 0xff, cap * sizeof *edges);
		for (uint32_t i = 0; i < t->edge_cap; i++)
			if (t->edges[i].type != ARCH_NONE)
				edge_put(edges, cap, t->edges[i]);
		arch_free(s, t->edges, (size_t)t->edge_cap * sizeof *edges);
		t->edges = edges;
		t->edge_cap = cap;
	}
	edge_put(t->edges, t->edge_cap, edge);
	t->edge_count++;
}

/* --- tables --------------------------------------------------------------------------- */

/* Whether table t has every type system y requires and none it excludes (the whole table
 * matches or none of it); fills m with the columns if so. */
static bool system_matches(const struct arch_system *y, const struct arch_table *t,
                           uint32_t table, struct arch_match *m)
{
	m->table = table;
	for (uint32_t c = 0; c < y->type_count; c++) {
		if (arch_hook_required_outside(y, c)) { /* found per entity outside the tables */
			m->column[c] = ARCH_NONE;
			continue;
		}
		if ((m->column[c] = table_column(t, y->types[c])) == ARCH_NONE)
			return false;
	}
	for (uint32_t c = 0; c < y->excluded_count; c++)
		if (table_column(t, y->excluded[c]) != ARCH_NONE)
			return false;
	return true;
}

/*
 * Creates the table of a set of n types whose (empty) columns, sorted by type, the caller has
 * allocated, and offers it to every system. Takes the columns over, and frees them on error.
 * Everything it needs is allocated before anything is changed; on error the storage is as it
 * was (but for capacities). The tables may move.
 */
static int table_create(ecs_storage *s, struct arch_column *columns, uint32_t n, uint64_t hash,
                        uint32_t *out)
{
	struct arch_table fresh = {.hash = hash, .type_count = n, .columns = columns};
	int rc = arch_grow(s, (void **)&s->tables, &s->table_cap, s->table_count + 1,
	                   sizeof *s->tables, 8, UINT32_MAX - 1);
	if (rc == ECS_OK)
		rc = table_slots_reserve(s, s->table_count + 1);
	if (rc == ECS_OK && n) { /* the columns are sorted by type */
		fresh.type_base = columns[0].type;
		fresh.type_span = columns[n - 1].type - columns[0].type + 1;
		fresh.column_of = arch_malloc(s, (size_t)fresh.type_span * sizeof *fresh.column_of);
		if (!fresh.column_of)
			rc = ECS_ERR_NO_MEMORY;
		for (uint32_t at = 0; rc == ECS_OK && at < fresh.type_span; at++)
			fresh.column_of[at] = ARCH_NO_COLUMN;
		for (uint32_t j = 0; rc == ECS_OK && j < n; j++)
			fresh.column_of[columns[j].type - fresh.type_base] = (uint16_t)j;
	}
	struct arch_match m;
	for (uint32_t i = 0; rc == ECS_OK && i < s->system_count; i++) {
		struct arch_system *y = &s->systems[i];
		if (system_matches(y, &fresh, 0, &m))
			rc = arch_grow(s, (void **)&y->matches, &y->match_cap, y->match_count + 1,
			               sizeof *y->matches, 4, UINT32_MAX);
	}
	if (rc != ECS_OK) {
		arch_free(s, fresh.column_of, (size_t)fresh.type_span * sizeof *fresh.column_of);
		arch_free(s, columns, (size_t)n * sizeof *columns);
		return rc;
	}
	uint32_t index = s->table_count++;
	s->tables[index] = fresh;
	table_slots_insert(s->table_slots, s->slot_cap, hash, index);
	for (uint32_t i = 0; i < s->system_count; i++) {
		struct arch_system *y = &s->systems[i];
		if (system_matches(y, &fresh, index, &m))
			y->matches[y->match_count++] = m;
	}
	*out = index;
	return ECS_OK;
}

/*
 * Makes room for `need` rows in every array of t. Each array keeps its own capacity, so when
 * one allocation fails the arrays grown before it stay grown (and are freed with their true
 * size) and the rows are untouched.
 */
static int table_grow(ecs_storage *s, struct arch_table *t, uint32_t need)
{
	uint64_t cap = t->cap ? (uint64_t)t->cap * 2 : ARCH_FIRST_ROWS;
	while (cap < need)
		cap *= 2;
	if (cap > ECS_MAX_ENTITIES)
		cap = ECS_MAX_ENTITIES;
	if (t->entities_cap < cap) {
		void *p = s->alloc.realloc(s->alloc.ctx, t->entities,
		                           (size_t)t->entities_cap * sizeof *t->entities,
		                           (size_t)cap * sizeof *t->entities);
		if (!p)
			return ECS_ERR_NO_MEMORY;
		t->entities = p;
		t->entities_cap = (uint32_t)cap;
	}
	for (uint32_t j = 0; j < t->type_count; j++) {
		struct arch_column *col = &t->columns[j];
		if (col->cap >= cap)
			continue;
		void *p = s->alloc.realloc(s->alloc.ctx, col->data, (size_t)col->cap * col->size,
		                           (size_t)cap * col->size);
		if (!p)
			return ECS_ERR_NO_MEMORY;
		col->data = p;
		col->cap = (uint32_t)cap;
	}
	t->cap = (uint32_t)cap;
	return ECS_OK;
}

static inline int table_reserve(ecs_storage *s, struct arch_table *t, uint32_t need)
{
	return need <= t->cap ? ECS_OK : table_grow(s, t, need);
}

/*
 * table_grow for an add (or entity_create_with) whose n values may sit in t's columns (ecs.h
 * allows a value that component_get returned for another entity, and it may live in the very
 * table the entity moves to), which growing moves: each value's column and offset are found
 * before the reallocs and values[i] is set to the same place after. Only growth pays for the
 * search.
 */
static __attribute__((noinline)) int table_grow_keeping(ecs_storage *s, struct arch_table *t,
                                                        uint32_t need, const void **values,
                                                        uint32_t n)
{
	uint32_t column[ECS_CREATE_MAX_COMPONENTS];
	size_t offset[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < n; i++) {
		column[i] = ARCH_NONE;
		for (uint32_t j = 0; j < t->type_count && column[i] == ARCH_NONE; j++) {
			const struct arch_column *col = &t->columns[j];
			/* wraps if below the column */
			offset[i] = (uintptr_t)values[i] - (uintptr_t)col->data;
			if (col->data && offset[i] < (size_t)col->cap * col->size)
				column[i] = j;
		}
	}
	int rc = table_grow(s, t, need);
	for (uint32_t i = 0; rc == ECS_OK && i < n; i++)
		if (column[i] != ARCH_NONE)
			values[i] = t->columns[column[i]].data + offset[i];
	return rc;
}

/* Swap-removes a row: the last row fills the hole and its entity's record follows it. */
static void table_remove_row(ecs_storage *s, struct arch_table *t, uint32_t row)
{
	uint32_t last = --t->count;
	if (row == last)
		return;
	for (uint32_t j = 0; j < t->type_count; j++) {
		struct arch_column *col = &t->columns[j];
		copy_value(col->data + (size_t)row * col->size, col->data + (size_t)last * col->size,
		           col->size);
	}
	ecs_entity moved = t->entities[last];
	t->entities[row] = moved;
	s->records[ecs_entity_index(moved)].row = row;
}

static void table_release(ecs_storage *s, struct arch_table *t)
{
	for (uint32_t j = 0; j < t->type_count; j++)
		arch_free(s, t->columns[j].data, (size_t)t->columns[j].cap * t->columns[j].size);
	arch_free(s, t->columns, (size_t)t->type_count * sizeof *t->columns);
	arch_free(s, t->entities, (size_t)t->entities_cap * sizeof *t->entities);
	arch_free(s, t->edges, (size_t)t->edge_cap * sizeof *t->edges);
	arch_free(s, t->column_of, (size_t)t->type_span * sizeof *t->column_of);
}

/* table_neighbour past a missing edge: by hash (caching the edge both ways), else a new table. */
static __attribute__((noinline)) int table_neighbour_uncached(ecs_storage *s, uint32_t from,
                                                              uint32_t type, bool add,
                                                              struct arch_edge *out)
{
	const struct arch_table *base = &s->tables[from];
	uint32_t pos = type_position(base, type);
	uint64_t hash = add ? base->hash + type_hash(type) : base->hash - type_hash(type);
	uint32_t to = table_find(s, hash, base, type, add, pos);
	if (to == ARCH_NONE) {
		uint32_t n = add ? base->type_count + 1 : base->type_count - 1;
		struct arch_column *columns = NULL;
		if (n && !(columns = arch_malloc(s, (size_t)n * sizeof *columns)))
			return ECS_ERR_NO_MEMORY;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t t = neighbour_type(base, type, add, pos, j);
			columns[j] = (struct arch_column){NULL, t, s->sizes[t], 0};
		}
		base = NULL; /* table_create may move the tables */
		int rc = table_create(s, columns, n, hash, &to);
		if (rc != ECS_OK)
			return rc;
	}
	/* pos is the type's column in the table that has it: `to` for an add, `from` otherwise. */
	*out = (struct arch_edge){type, to, pos, add};
	edge_cache(s, &s->tables[from], *out);
	edge_cache(s, &s->tables[to], (struct arch_edge){type, from, pos, !add});
	return ECS_OK;
}

/*
 * Moves entity e's row to table `to` (which has room) along an edge whose type's column in the
 * larger table is `column`: an add (value: the added type's value) or a remove (value: NULL).
 * The columns before `column` are the same types in both tables, those after it are one apart.
 * Cannot fail.
 */
static void entity_move(ecs_storage *s, ecs_entity e, struct arch_record *r, uint32_t to,
                        uint32_t column, const void *value)
{
	struct arch_table *src = &s->tables[r->table], *dst = &s->tables[to];
	uint32_t src_row = r->row, dst_row = dst->count++, last = --src->count;
	const struct arch_column *from = src->columns;
	struct arch_column *into = dst->columns;
	/* The added value is copied first: it may be one of the source's values (the entity's own
	 * component of another type, ecs.h), which the pass below overwrites when it fills the
	 * hole, and the call must store it as it was when it began. Its slot in the destination is
	 * a new row, which nothing given can point at. */
	if (value)
		copy_value(into[column].data + (size_t)dst_row * into[column].size, value,
		           into[column].size);
	/* One loop over the destination's columns; the source column of j is j before `column`
	 * and one off after it (the added type's was copied above). The source's last row fills
	 * the hole the entity leaves, column by column in the same pass (table_remove_row). */
	uint32_t n = dst->type_count;
	int after = value ? -1 : 1;
	for (uint32_t j = 0; j < n; j++) {
		if (value && j == column)
			continue;
		size_t size = into[j].size;
		unsigned char *at = into[j].data + dst_row * size;
		unsigned char *data = from[j < column ? j : j + after].data;
		copy_value(at, data + src_row * size, (uint32_t)size);
		if (src_row != last)
			copy_value(data + src_row * size, data + last * size, (uint32_t)size);
	}
	if (!value) { /* the removed type's column: its last value fills the hole too */
		size_t size = from[column].size;
		unsigned char *data = from[column].data;
		if (src_row != last)
			copy_value(data + src_row * size, data + last * size, (uint32_t)size);
	}
	dst->entities[dst_row] = e;
	if (src_row != last) {
		ecs_entity moved = src->entities[last];
		src->entities[src_row] = moved;
		s->records[ecs_entity_index(moved)].row = src_row;
	}
	r->table = to;
	r->row = dst_row;
}

/* --- entities ------------------------------------------------------------------------- */

static inline bool arch_alive(const ecs_storage *s, ecs_entity e)
{
	uint32_t i = ecs_entity_index(e);
	return i < s->record_used &&
	       ARCH_RECORD_KEY(s->records[i].gen) == (ecs_entity_generation(e) | ARCH_ALIVE);
}

static int records_reserve(ecs_storage *s, uint32_t need)
{
	return arch_grow(s, (void **)&s->records, &s->record_cap, need, sizeof *s->records,
	                 ARCH_FIRST_RECORDS, ECS_MAX_ENTITIES);
}

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

static int arch_create(const struct ecs_config *cfg, const struct ecs_allocator *alloc,
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
	s->free_head = ARCH_NONE;
	for (uint32_t i = 0; i < ARCH_CREATE_SETS; i++) {
		for (uint32_t w = 0; w < ARCH_CREATE_WAYS; w++) {
			s->create_cache[i].key[w] = ARCH_CREATE_NO_KEY;
			s->create_cache[i].entry[w].count = ARCH_CREATE_UNUSED;
		}
	}
	/* The counts are set only once their arrays exist, so arch_destroy frees what there is. */
	uint32_t *sizes = arch_malloc(s, (size_t)cfg->component_count * sizeof *sizes);
	if (!sizes) {
		arch_destroy(s);
		return ECS_ERR_NO_MEMORY;
	}
	memcpy(sizes, cfg->component_sizes, (size_t)cfg->component_count * sizeof *sizes);
	s->sizes = sizes;
	s->component_count = cfg->component_count;
	if ((rc = arch_hook_setup(s, cfg)) != ECS_OK) {
		arch_destroy(s);
		return rc;
	}
	s->systems = arch_malloc(s, (size_t)cfg->system_count * sizeof *s->systems);
	if (!s->systems) {
		arch_destroy(s);
		return ECS_ERR_NO_MEMORY;
	}
	s->system_max = cfg->system_count;
	/* The empty set's table. */
	rc = arch_grow(s, (void **)&s->tables, &s->table_cap, 1, sizeof *s->tables, 8,
	               UINT32_MAX - 1);
	if (rc == ECS_OK)
		rc = table_slots_reserve(s, 1);
	if (rc != ECS_OK) {
		arch_destroy(s);
		return rc;
	}
	s->tables[ARCH_EMPTY_TABLE] = (struct arch_table){.hash = 0};
	s->table_count = 1;
	table_slots_insert(s->table_slots, s->slot_cap, 0, ARCH_EMPTY_TABLE);
	*out = s;
	return ECS_OK;
}

/* Room for the records of `entities` entities. Where their rows will be is not known yet (an
 * entity passes through the empty table on its way to its own), so rows are not reserved. */
static int arch_reserve(ecs_storage *s, uint32_t entities)
{
	if (!s)
		return ECS_ERR_INVALID;
	return records_reserve(s, entities < ECS_MAX_ENTITIES ? entities : ECS_MAX_ENTITIES);
}

/*
 * A new entity's record, alive, at the next row of table `table` (t, with room for it): a
 * fresh index past the last used, or the first of the free list (whose records link through
 * their row field). Returns its handle.
 */
static inline ecs_entity record_take(ecs_storage *s, bool fresh, uint32_t table,
                                     struct arch_table *t)
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
static __attribute__((noinline)) int create_with_lookup(ecs_storage *s, const uint32_t *types,
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
	uint32_t to = table_find_set(s, hash, sorted, count);
	if (to == ARCH_NONE) {
		struct arch_column *columns = arch_malloc(s, (size_t)count * sizeof *columns);
		if (!columns)
			return ECS_ERR_NO_MEMORY;
		for (uint32_t j = 0; j < count; j++)
			columns[j] = (struct arch_column){NULL, sorted[j], s->sizes[sorted[j]], 0};
		if ((rc = table_create(s, columns, count, hash, &to)) != ECS_OK)
			return rc;
	}
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
	if (count > ECS_CREATE_MAX_COMPONENTS || (count && (!types || !values)))
		return create_with_lookup(s, types, count, values, out);
	if (arch_hook_list_outside(s, types, count))
		return arch_hook_create_with(s, types, count, values, out);
	uint64_t key = create_key(types, values, count);
	struct arch_create_set *set = create_set(s, key);
	uint32_t w = 0;
	while (w < ARCH_CREATE_WAYS && !create_entry_is(set, w, key, types, count))
		w++;
	if (w == ARCH_CREATE_WAYS) /* ARCH_CREATE_NO_KEY included: no entry has that key */
		return create_with_lookup(s, types, count, values, out);
	set->hit[w] = 1;
	const struct arch_create_entry *c = &set->entry[w];
	bool fresh = s->free_head == ARCH_NONE;
	struct arch_table *t = &s->tables[c->table];
	/* record_cap never exceeds ECS_MAX_ENTITIES */
	if ((fresh && s->record_used >= s->record_cap) || t->count >= t->cap)
		return create_with_lookup(s, types, count, values, out);
	uint32_t index;
	if (fresh) {
		index = s->record_used++;
		s->records[index].gen = 0;
	} else {
		index = s->free_head;
		s->free_head = s->records[index].row;
		s->free_count--;
	}
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
static inline int arch_check(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (!arch_alive(s, e))
		return ECS_ERR_DEAD_ENTITY;
	if (type >= s->component_count)
		return ECS_ERR_BAD_COMPONENT;
	return ECS_OK;
}

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

/* Many lookups (checks.h: ecs_get_batch_loop): each record read once for all its types, and
 * the records of the handles ECS_GET_AHEAD places on prefetched, so that their cache misses
 * overlap. */
static int arch_component_get_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                                    const uint32_t *types, uint32_t type_count, void **out,
                                    int *status)
{
	return ecs_get_batch_loop(s, entities, count, types, type_count, out, status,
	                          s ? s->component_count : 0, ECS_GET_AHEAD, arch_get_ahead,
	                          arch_get_live, arch_get_value, NULL);
}

/* entity_get (checks.h: ecs_entity_get_body): the record once (the handle checked in the load
 * that gives the table and the row), then per type its column in that table and the value's
 * address. A failure goes on out of line. */
static __attribute__((noinline, cold)) int
arch_entity_get_rest(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
                     void **out, int *status)
{
	return ecs_entity_get_rest(s, e, types, count, out, status, s->component_count,
	                           arch_get_live, arch_get_value, NULL);
}

static int arch_entity_get(ecs_storage *s, ecs_entity e, const uint32_t *types, uint32_t count,
                           void **out, int *status)
{
	if (__builtin_expect(!s, 0))
		return ECS_ERR_INVALID;
	return ecs_entity_get_body(s, e, types, count, out, status, s->component_count,
	                           arch_get_live, arch_get_value, arch_entity_get_rest);
}

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

static int arch_system_register(ecs_storage *s, const uint32_t *types, uint32_t count,
                                const uint32_t *excluded, uint32_t excluded_count,
                                uint32_t *out_id)
{
	if (!s || !out_id)
		return ECS_ERR_INVALID;
	int rc = ecs_system_types_check(types, count, excluded, excluded_count, s->component_count);
	if (rc != ECS_OK)
		return rc;
	if (s->system_count >= s->system_max)
		return ECS_ERR_BAD_SYSTEM;
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
	rc = arch_grow(s, (void **)&y.matches, &y.match_cap, matched, sizeof *y.matches, 4,
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

static int arch_system_iter_begin(ecs_storage *s, uint32_t system, struct ecs_iter *it)
{
	if (!s || !it)
		return ECS_ERR_INVALID;
	if (system >= s->system_count)
		return ECS_ERR_BAD_SYSTEM;
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
static int arch_system_iter_split(ecs_storage *s, uint32_t system, uint32_t part, uint32_t parts,
                                  struct ecs_iter *it)
{
	if (!s || !it || parts == 0 || parts > ECS_SPLIT_MAX || part >= parts)
		return ECS_ERR_INVALID;
	if (system >= s->system_count)
		return ECS_ERR_BAD_SYSTEM;
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

/* One batch per non-empty matching table: its columns whole (a part's first and last table
 * from its first row, to its last). */
static bool arch_system_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	const ecs_storage *s = it->storage;
	const struct arch_system *y = &s->systems[it->state[ARCH_ITER_SYSTEM]];
	if (arch_hook_iter_own(it))
		return arch_hook_iter_next(it, b);
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
		b->count = stop - row;
		b->entities = t->entities + row;
		for (uint32_t c = 0; c < ECS_SYSTEM_MAX_COMPONENTS; c++) {
			const struct arch_column *col =
			    c < y->type_count ? &t->columns[m->column[c]] : NULL;
			b->columns[c] = col ? col->data + (size_t)row * col->size : NULL;
			b->pointers[c] = NULL;
		}
		it->state[ARCH_ITER_MATCH] = pos + 1;
		it->state[ARCH_ITER_ROW] = 0;
		return true;
	}
	it->state[ARCH_ITER_MATCH] = y->match_count;
	b->count = 0;
	return false;
}

/* The batches (entity_create_batch, component_add_batch, component_remove_batch). */
#include "archetype_batch.h"

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
