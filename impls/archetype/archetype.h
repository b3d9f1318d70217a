/*
 * archetype.h: the archetype storage's data (impls/archetype/archetype.c has its code and says
 * what it stores, its costs and its fast paths): one table per set of types, a column per type,
 * records entity -> (table, row), edges between neighbouring tables, the systems' matched
 * tables; the hooks through which a variant keeps types outside the tables, each with a default
 * that does nothing. Included by archetype.c only; a variant includes archetype.c.
 */
/* A variant's fields and the record bits it uses (none unless it defines them before the
 * include) */
#ifndef ARCH_SYSTEM_FIELDS
#define ARCH_SYSTEM_FIELDS
#endif
#ifndef ARCH_STORAGE_FIELDS
#define ARCH_STORAGE_FIELDS
#endif
#ifndef ARCH_RECORD_SPARE
#define ARCH_RECORD_SPARE 0u
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../checks.h"
#include "../ecs.h"

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
 * The hooks, for the types a variant keeps outside the tables ("outside types"). Each has a
 * default (nothing is outside) that compiles away: the plain backend, archetype.c, uses them
 * all. A variant replaces one by naming its function before the include (`#define
 * arch_hook_add hybrid_add`) and defining it after: the hook is then declared here under that
 * name, a direct call the compiler inlines.
 */
/* create and destroy's part: set up (ECS_OK or ECS_ERR_NO_MEMORY; destroy frees what there
 * is) and free what the variant holds. */
#ifdef arch_hook_setup
static int arch_hook_setup(ecs_storage *s, const struct ecs_config *cfg);
#else
#define arch_hook_setup(s, cfg) ((void)(s), (void)(cfg), ECS_OK)
#endif
#ifdef arch_hook_release
static void arch_hook_release(ecs_storage *s);
#else
#define arch_hook_release(s) ((void)(s))
#endif
/* Whether `type` (in range) lives outside the tables; whether a list (entity_create_with's,
 * checked for NULLs only) names such a type. */
#ifdef arch_hook_outside
static bool arch_hook_outside(const ecs_storage *s, uint32_t type);
#else
#define arch_hook_outside(s, type) ((void)(s), (void)(type), false)
#endif
#ifdef arch_hook_list_outside
static bool arch_hook_list_outside(const ecs_storage *s, const uint32_t *types, uint32_t count);
#else
#define arch_hook_list_outside(s, types, count) ((void)(s), (void)(types), (void)(count), false)
#endif
/* component_add, component_remove, component_has of a live entity and an outside type;
 * entity_create_with of a list with one. */
#ifdef arch_hook_add
static int arch_hook_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value);
#else
#define arch_hook_add(s, e, type, value)                                                           \
	((void)(s), (void)(e), (void)(type), (void)(value), ECS_ERR_BAD_COMPONENT)
#endif
#ifdef arch_hook_remove
static int arch_hook_remove(ecs_storage *s, ecs_entity e, uint32_t type);
#else
#define arch_hook_remove(s, e, type) ((void)(s), (void)(e), (void)(type), ECS_ERR_BAD_COMPONENT)
#endif
#ifdef arch_hook_has
static int arch_hook_has(const ecs_storage *s, ecs_entity e, uint32_t type);
#else
#define arch_hook_has(s, e, type) ((void)(s), (void)(e), (void)(type), ECS_ERR_BAD_COMPONENT)
#endif
/* component_get's (and the batch's): the value of the live entity e's outside type, if it has
 * it. */
#ifdef arch_hook_value
static bool arch_hook_value(const ecs_storage *s, ecs_entity e, uint32_t type, void **value);
#else
#define arch_hook_value(s, e, type, value)                                                         \
	((void)(s), (void)(e), (void)(type), (void)(value), false)
#endif
#ifdef arch_hook_create_with
static int arch_hook_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                                 const void *const *values, uint32_t index, bool fresh,
                                 ecs_entity *out);
#else
#define arch_hook_create_with(s, types, count, values, index, fresh, out)                          \
	((void)(s), (void)(types), (void)(count), (void)(values), (void)(index), (void)(fresh),      \
	 (void)(out), ECS_ERR_BAD_COMPONENT)
#endif
/* entity_destroy's part, before the record is freed. */
#ifdef arch_hook_destroy
static void arch_hook_destroy(ecs_storage *s, struct arch_record *r, uint32_t index);
#else
#define arch_hook_destroy(s, r, index) ((void)(s), (void)(r), (void)(index))
#endif
/* system_register's part: y's variant fields (y's lists set); whether y's required type c is
 * found outside the tables (its match column is then ARCH_NONE). */
#ifdef arch_hook_system
static void arch_hook_system(const ecs_storage *s, struct arch_system *y);
#else
#define arch_hook_system(s, y) ((void)(s), (void)(y))
#endif
#ifdef arch_hook_required_outside
static bool arch_hook_required_outside(const struct arch_system *y, uint32_t c);
#else
#define arch_hook_required_outside(y, c) ((void)(y), (void)(c), false)
#endif
/* A batch of adds (values not NULL) or removes of an outside type, after batch_check (whose
 * marks it clears). */
#ifdef arch_hook_batch
static int arch_hook_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                           uint32_t type, const struct ecs_values *values);
#else
#define arch_hook_batch(s, entities, count, type, values)                                          \
	((void)(s), (void)(entities), (void)(count), (void)(type), (void)(values), ECS_ERR_BAD_COMPONENT)
#endif
/* entity_create_batch's outside types: room for them (ECS_OK or ECS_ERR_NO_MEMORY; the values
 * in base[] moved along with what grows; *spare: bits for each record's ARCH_RECORD_SPARE),
 * then, the records and rows written, their values stored. */
#ifdef arch_hook_create_batch_room
static int arch_hook_create_batch_room(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                       uint32_t count, uint32_t from_free, const void **base,
                                       uint32_t *spare);
#else
#define arch_hook_create_batch_room(s, types, type_count, count, from_free, base, spare)           \
	((void)(s), (void)(types), (void)(type_count), (void)(count), (void)(from_free), (void)(base), (void)(spare), *(spare) = 0, ECS_OK)
#endif
#ifdef arch_hook_create_batch_fill
static void arch_hook_create_batch_fill(ecs_storage *s, const uint32_t *types,
                                        uint32_t type_count, const struct ecs_values *values,
                                        const void *const *base, const ecs_entity *out,
                                        uint32_t count);
#else
#define arch_hook_create_batch_fill(s, types, type_count, values, base, out, count)                \
	((void)(s), (void)(types), (void)(type_count), (void)(values), (void)(base), (void)(out), (void)(count))
#endif
/* iter_begin's and iter_split's part (the tables' state set), and the batches of a pass the
 * variant walks itself (arch_hook_iter_next: whether `it` is such a pass; then *more is whether a
 * batch came). */
#ifdef arch_hook_iter_setup
static void arch_hook_iter_setup(const ecs_storage *s, const struct arch_system *y, uint32_t part,
                                 uint32_t parts, struct ecs_iter *it);
#else
#define arch_hook_iter_setup(s, y, part, parts, it)                                                \
	((void)(s), (void)(y), (void)(part), (void)(parts), (void)(it))
#endif
#ifdef arch_hook_iter_next
static bool arch_hook_iter_next(struct ecs_iter *it, struct ecs_batch *b, bool *more);
#else
#define arch_hook_iter_next(it, b, more) ((void)(it), (void)(b), (void)(more), false)
#endif

/* --- allocation ----------------------------------------------------------------------- */

ECS_ALLOC_SHELLS(arch)

/* Grows *p (an array of *cap elements of elem bytes) geometrically, from `first`, to hold at
 * least need (need <= limit). On error *p and *cap are unchanged. */
static int arch_grow(ecs_storage *s, void **p, uint32_t *cap, uint32_t need, size_t elem,
                     uint32_t first, uint32_t limit)
{
	return ecs_array_grow(&s->alloc, p, cap, need, elem, first, limit);
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

/* The table of the sorted set sorted[0..n) (hash: its set hash) in *to, made if there is none
 * yet (its columns allocated here, taken by table_create). */
static inline int table_of_set(ecs_storage *s, uint64_t hash, const uint32_t *sorted, uint32_t n,
                               uint32_t *to)
{
	*to = table_find_set(s, hash, sorted, n);
	if (*to != ARCH_NONE)
		return ECS_OK;
	struct arch_column *columns = arch_malloc(s, (size_t)n * sizeof *columns);
	if (!columns)
		return ECS_ERR_NO_MEMORY;
	for (uint32_t j = 0; j < n; j++)
		columns[j] = (struct arch_column){NULL, sorted[j], s->sizes[sorted[j]], 0};
	return table_create(s, columns, n, hash, to);
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
