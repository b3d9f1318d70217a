/*
 * hybrid.c: archetype tables for the table types, and a sparse set per type the config marks
 * sparse (ecs_config.component_storage, ecs_config_sparse), kept outside the tables' keys, as
 * bevy's StorageType::SparseSet and flecs' sparse components: adding or removing a sparse type
 * never moves the entity between tables. Everything of archetype.c holds for the table types
 * (its header block: what it stores, its costs and fast paths); this file is archetype.h with
 * ARCH_SPARSE 1, and with no type marked it behaves as archetype and does its work, plus a
 * test or two per component operation (is any type marked), per iteration batch (the walk) and
 * per entity_destroy (does the entity hold a sparse component), and a mask in the alive test.
 *
 * What it stores besides archetype's:
 *   - per type, whether it is marked sparse (a byte);
 *   - per marked type, a pool: a paged sparse array entity index -> dense slot (pages of 4096
 *     slots, allocated when an index of their range first gets the type), the values packed
 *     and their owners' handles in step; remove swaps the last into the hole;
 *   - the pools that hold a value, as a list (live_pools), and per entity record the number of
 *     sparse components it holds (in the record's generation word, above the generation: the
 *     records stay 12 bytes, as archetype's);
 *   - per system, which of its required and excluded types are sparse (two bytes of bits).
 * A table's key (its type set) holds table types only; a system matches tables on its table
 * types alone.
 *
 * Costs (besides archetype's; k_s = the sparse types an entity or system names, P = pools
 * holding a value):
 *   component_add/remove of a sparse type  O(1) amortised: a dense append or a swap-remove,
 *                     the row stays where it is (no table move, no system told)
 *   component_get/has of a sparse type    O(1): page table, page, value (beside the record,
 *                     which the handle's check reads as for a table type)
 *   entity_destroy    archetype's, plus O(P) probes when the entity holds a sparse component
 *                     (none otherwise: the record's count says so)
 *   entity_create_with  a list with sparse types: O(k) scan, their appends (under the handle the
 *                     entity is about to get), then archetype's way for the table types (its
 *                     create cache included); a list of table types only: archetype's, plus
 *                     the O(k) scan for sparse types when any type is marked
 *   iteration         a system of table types only: archetype's (whole columns). With sparse
 *                     types: pointer batches of at most ECS_BATCH_MAX, either the matching
 *                     tables' rows with k_s probes each (HYB_WALK_TABLES), or the smallest
 *                     required sparse pool's owners, each a record and (per run of owners in
 *                     one table) a match test, and k_s - 1 probes (HYB_WALK_POOL). iter_begin
 *                     drives from the pool when it holds fewer than half the matching tables'
 *                     rows (a driven entity costs more than a walked row, a walk whose probes
 *                     half miss pays mispredicted branches: measured, see hyb_iter_mode in
 *                     archetype.h; O(matching tables) to count them). The driving pool is not
 *                     probed (its slot is where the walk is).
 *                     Each sparse value found is prefetched. The table types' values are
 *                     handed out through pointers too: a batch is one kind or the other for
 *                     every component. A system that requires only table types and excludes
 *                     sparse ones gets columns: runs of rows cut at its excluded entities.
 *   system_iter_split the chosen walk's range cut in even parts: rows of the tables (as
 *                     archetype, cache-line aligned on the first required type when it is a
 *                     table type), or slots of the driving pool
 *   batches           archetype's (archetype.c) for table types; a sparse type's add batch
 *                     grows its pool once, then appends; a create batch appends each sparse
 *                     type's values a pool at a time
 *
 * Fast paths (lived-in: as in archetype.c's block, one that has had destroys, interleaved
 * kinds, components removed and added back in no order):
 *   archetype's       all of them, for the table types. Lived-in: as there.
 *   no sparse held    entity_destroy of an entity holding no sparse component probes no pool
 *                     (the record's count). Lived-in: yes (it follows what the entity holds).
 *   live pools        a destroy probes only the pools that hold a value. Lived-in: yes.
 *   pool drive        a system whose smallest required sparse pool holds under half its
 *                     tables' rows walks that pool, not the rows. Lived-in: yes (by counts, not
 *                     order).
 *   empty exclusions  an excluded sparse pool that holds nothing is not probed. Lived-in:
 *                     partly (where no entity has the excluded type).
 *   tables seen       the pool drive asks whether an owner's table matches (and finds its
 *                     columns) once per table and batch: 8 tables remembered, direct-mapped by
 *                     table index. Lived-in: yes while a system's owners sit in few tables (a
 *                     few kinds); many tables that collide ask again.
 *   prefetch ahead    the pool drive asks for the records 16 owners ahead and the rows of those
 *                     8 ahead (in a table seen): always, not conditional. Lived-in: yes.
 *   exclusion runs    a system of table types that excludes sparse ones walks its tables and
 *                     hands out runs of rows whose entities hold no excluded type as columns,
 *                     cut at each excluded entity (one probe a row and non-empty excluded
 *                     pool). Lived-in: yes (runs are as long as the excluded entities are
 *                     rare, whatever the order; an excluded pool that is empty costs nothing).
 *
 * Why one source with archetype.c (impls/archetype.h, ARCH_SPARSE) and not a copy or a run-time
 * flag: a copy would drift from archetype's fixes and tuning; a run-time flag would put the
 * sparse tests into archetype's own hot paths. The compile-time parameter leaves archetype's
 * code as it was (make instr holds its rows) and gives hybrid the same table code.
 */
#define ARCH_SPARSE 1
#include "archetype.h"

const struct ecs_ops ecs_backend_hybrid = {
	.version = ECS_INTERFACE_VERSION,
	.name = "hybrid",
	.description = "archetype tables + sparse sets for types marked sparse (bevy, flecs)",
	.create = arch_create,
	.destroy = arch_destroy,
	.reserve = arch_reserve,
	.entity_create = arch_entity_create,
	.entity_create_with = arch_entity_create_with,
	.entity_destroy = arch_entity_destroy,
	.entity_alive = arch_entity_alive,
	.component_add = arch_component_add,
	.component_remove = arch_component_remove,
	.component_get = arch_component_get,
	.component_get_batch = arch_component_get_batch,
	.component_has = arch_component_has,
	.system_register = arch_system_register,
	.system_iter_begin = arch_system_iter_begin,
	.system_iter_next = arch_system_iter_next,
	.system_iter_split = arch_system_iter_split,
	.entity_create_batch = arch_entity_create_batch,
	.component_add_batch = arch_component_add_batch,
	.component_remove_batch = arch_component_remove_batch,
};
