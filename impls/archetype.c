/*
 * archetype.c: the archetype storage of flecs (Varkor's refactor post, its research section): one
 * table per distinct set of component types, and an entity lives in exactly one table, the one
 * of its set.
 *
 * What it stores:
 *   - per entity index: a record (generation with an "alive" bit, table, row); a dead record's
 *     row links it into the free list of indices, so destroying allocates nothing;
 *   - per table: its type set (sorted), a column per type (structure of arrays: `cap` values
 *     each, contiguous) and the column of entity handles, all `count` rows long; each array has
 *     its own capacity, so growing a table can fail half way and still leave every array whole;
 *   - per table: its edges, a small open-addressing map component id -> neighbouring table.
 *     One map holds both directions: an id the table has leads to the table without it (the
 *     remove-edge), an id it lacks to the table with it (the add-edge). The map grows with the
 *     edges used, never with the profile's component count;
 *   - a map type set -> table (open addressing over table indices; the hash of a set is the sum
 *     of a hash per id, so the hash of a neighbour is one addition away and a neighbour's set
 *     is compared against its base without being built);
 *   - per system: its required and excluded types and the tables it matches (those with every
 *     required type and no excluded one), with the column of each required type in each.
 *     A new table is offered to every system once, when it is created; registering a system
 *     matches the tables that exist once. An exclusion costs nothing after that: a table
 *     matches whole or not at all.
 * Table 0 is the empty set: a new entity lives there until it gets a component.
 *
 * Costs (k = components of the entity, c = their total size in bytes, S = registered systems,
 * T = tables):
 *   entity_create      O(1) amortised (free-list pop, append to the empty table)
 *   entity_create_with O(c + k^2) with the set's table existing: sort the k types, hash them,
 *                      look the set up, write one row; no intermediate table (k adds would
 *                      copy the row k times, through k tables). A new set's table is created
 *                      and offered to every system, as for a move. O(c + k) for a list, as
 *                      given, that the create cache holds (32 lists: no sort, no set lookup)
 *   entity_destroy     O(c): swap-remove its row, fix the record of the row moved into the hole
 *   component_add/remove  O(c) with the edge cached (it says which way it goes and where the
 *                      type's column is): copy the row to the neighbouring table and fill the
 *                      hole with the last row, in one pass. The first move along an edge looks the
 *                      neighbour up by hash (O(k)) and, the first time a set is met, creates its
 *                      table and offers it to every system (O(S log k))
 *   component_get      O(1): the record (the strategy's entity -> (table, row), our generation
 *                      in the same 12 bytes: one load), the type's column in the table
 *                      (column_of, a small array per table: no search, whose branches would
 *                      follow the entity's table), the value: on storage beyond the caches one
 *                      miss per entity and one per component, depending on it (docs/backends.md,
 *                      "Random access"). component_get_batch: the same, the next handles'
 *                      records prefetched (ECS_GET_AHEAD ahead) and each value for the caller
 *   component_has      O(log k): binary search of the entity's table type
 *   system_register    O(T log k), once (k: required and excluded types)
 *   iteration          one batch per non-empty matching table: every column whole, no per-entity
 *                      work in the storage; empty tables are skipped; the tables a few batches
 *                      ahead are prefetched
 *   system_iter_split  O(M) for M matching tables: rows of the tables in order, cut by count
 *   entity_create_batch  O(k^2 + n c) for n entities: one set lookup (or a new table), the
 *                      records and the table grown once, the values copied a column at a time,
 *                      the handles and records written in two loops (the free list's
 *                      indices, then fresh ones written whole); ECS_ERR_FULL from the free
 *                      list's length, counted as it changes (no walk to count it)
 *   component_add_batch / component_remove_batch  O(n c + T): three passes over the entities:
 *                      the checks (alive, repeats by a mark bit in the records, whether each
 *                      has the type, asked once per source table: a 16-entry memo of source
 *                      table -> edge, direct-mapped), the rows each destination table gains
 *                      counted (T counters from the allocator, T = tables; the marks cleared
 *                      in the same pass), then the n moves (a row copied, the hole filled by
 *                      the last row, as one move). Each destination grown once. A fourth pass
 *                      makes the edges only when some source table had none cached. Entities
 *                      are not sorted by table: a move needs only the record; dead handles are
 *                      sorted only when two or more are given (an error).
 *                      The values are copied aside (n values, through the allocator) only when
 *                      they overlap a column of a table the batch changes
 * Memory: the records (12 bytes per entity index ever used), the rows (4 bytes + the component
 * sizes per entity, arrays doubling), a few hundred bytes per table that exists, and O(profile)
 * only once per storage (the sizes and the system slots), and the create cache's 3.6 KiB.
 *
 * Fast paths: each branch that skips work the general path does, when it fires, and whether it
 * fires in a lived-in storage (one that has had destroys: holes and recycled indices; kinds
 * spawned interleaved, their lists given in several orders; components removed and added back
 * in no order):
 *   create cache       entity_create_with of a list, as given, that the cache holds (32
 *                      entries, 4 in each of 8 sets; CLOCK eviction within a set), into a
 *                      table with room (and records with room, for a fresh index): no sort, no
 *                      set hash or lookup, only the key, one set's keys and the values checked.
 *                      Lived-in: yes, while the lists spawned in rotation (each order of a set
 *                      a list of its own) fit 4 to a set; past that, some lists miss and go the
 *                      whole way. A list of up to 4 types is its own 64-bit key (one compare);
 *                      a longer one is hashed and compared type by type: by length only, so
 *                      both fire in a lived-in storage as in a pristine one.
 *   create in one step entity_create_with writes the row into the final set's table, never
 *                      through the k - 1 intermediate ones: always. Lived-in: yes.
 *   cached edges       an add or remove along an edge used before (per table and type): no
 *                      search of the table's types, no set lookup; the edge holds the type's
 *                      column. Lived-in: yes (edges follow the sets, not the order of the moves;
 *                      only the first move along each edge looks it up).
 *   last row           a destroy or a move of a table's last row fills no hole. Lived-in:
 *                      partly (as often as the last row is the one that leaves, pristine or not).
 *   iteration          one batch per matching table, every column whole, whatever the order
 *                      of the rows: the strategy, not a fast path; empty tables are skipped
 *                      (lived-in: yes, tables emptied by moves stay matched).
 *   prefetch ahead     the table, column list and columns of the matches 8, 4 and 1 ahead,
 *                      while there are that many: lived-in: yes (more tables, more of it).
 *   packed values      entity_create_batch copies a column with one memmove when the values
 *                      are packed (stride == size), else value by value. Lived-in: yes (it
 *                      follows the caller's values, not the storage's history).
 *   one growth a batch a batch grows the records, and each table it fills, once. Lived-in: yes.
 *   batch edge memo    a batch's entity whose source table is in the memo (16 entries,
 *                      direct-mapped by table index) takes its edge from there: no search of
 *                      the table's edges. Lived-in: yes while a batch's entities come from at
 *                      most a few tables; entities of tables that collide in the memo evict
 *                      each other and search the edges as a single add or remove does.
 *   fresh indices      entity_create_batch's entities past the free list get their records
 *                      written whole, no link followed. Lived-in: partly (once the free list
 *                      is used up; a storage with holes fills them first, in the other loop).
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
