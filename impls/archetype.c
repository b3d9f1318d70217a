/*
 * archetype.c: the archetype storage of flecs (Varkor's refactor post, its research section):
 * one table per distinct set of component types, an entity in the table of its set. The
 * machinery is archetype.h's; this file supplies its hooks, empty: nothing lives outside the
 * tables.
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
/* Nothing outside the tables: no fields of its own, every hook empty (they compile away). */
#define ARCH_SYSTEM_FIELDS
#define ARCH_STORAGE_FIELDS
#define ARCH_RECORD_SPARE 0u
#include "archetype.h"

static inline int arch_hook_setup(ecs_storage *s, const struct ecs_config *cfg)
{
	(void)s, (void)cfg;
	return ECS_OK;
}
static inline void arch_hook_release(ecs_storage *s) { (void)s; }
static inline bool arch_hook_outside(const ecs_storage *s, uint32_t type)
{
	(void)s, (void)type;
	return false;
}
static inline int arch_hook_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	(void)s, (void)e, (void)type, (void)value;
	return ECS_ERR_BAD_COMPONENT; /* never asked */
}
static inline int arch_hook_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	(void)s, (void)e, (void)type;
	return ECS_ERR_BAD_COMPONENT; /* never asked */
}
static inline int arch_hook_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	(void)s, (void)e, (void)type;
	return ECS_ERR_BAD_COMPONENT; /* never asked */
}
static inline bool arch_hook_value(const ecs_storage *s, ecs_entity e, uint32_t type,
                                   void **value)
{
	(void)s, (void)e, (void)type, (void)value;
	return false;
}
static inline bool arch_hook_list_outside(const ecs_storage *s, const uint32_t *types,
                                          uint32_t count)
{
	(void)s, (void)types, (void)count;
	return false;
}
static inline int arch_hook_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                                        const void *const *values, ecs_entity *out)
{
	(void)s, (void)types, (void)count, (void)values, (void)out;
	return ECS_ERR_BAD_COMPONENT; /* never asked */
}
static inline void arch_hook_destroy(ecs_storage *s, struct arch_record *r, uint32_t index)
{
	(void)s, (void)r, (void)index;
}
static inline void arch_hook_system(const ecs_storage *s, struct arch_system *y)
{
	(void)s, (void)y;
}
static inline bool arch_hook_required_outside(const struct arch_system *y, uint32_t c)
{
	(void)y, (void)c;
	return false;
}
static inline int arch_hook_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                                  uint32_t type, const struct ecs_values *values)
{
	(void)s, (void)entities, (void)count, (void)type, (void)values;
	return ECS_ERR_BAD_COMPONENT; /* never asked */
}
static inline int arch_hook_create_batch_room(ecs_storage *s, const uint32_t *types,
                                              uint32_t type_count, uint32_t count,
                                              uint32_t from_free, const void **base,
                                              uint32_t *spare)
{
	(void)s, (void)types, (void)type_count, (void)count, (void)from_free, (void)base;
	*spare = 0;
	return ECS_OK;
}
static inline void arch_hook_create_batch_fill(ecs_storage *s, const uint32_t *types,
                                               uint32_t type_count,
                                               const struct ecs_values *values,
                                               const void *const *base, const ecs_entity *out,
                                               uint32_t count)
{
	(void)s, (void)types, (void)type_count, (void)values, (void)base, (void)out, (void)count;
}
static inline void arch_hook_iter_setup(const ecs_storage *s, const struct arch_system *y,
                                        uint32_t part, uint32_t parts, struct ecs_iter *it)
{
	(void)s, (void)y, (void)part, (void)parts, (void)it;
}
static inline bool arch_hook_iter_own(const struct ecs_iter *it)
{
	(void)it;
	return false;
}
static inline bool arch_hook_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	(void)it, (void)b;
	return false;
}

const struct ecs_ops ecs_backend_archetype = {
	ARCH_OPS,
	.name = "archetype",
	.description = "table per component set, columns + cached add/remove edges (flecs)",
};
