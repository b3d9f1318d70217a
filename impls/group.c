/*
 * group.c: sparse sets with EnTT's owning groups. The storage is sparse's (sparse.h, compiled
 * here with SPARSE_GROUPS 1): one paged sparse set per component type, the same records, the
 * same batches. What this adds is system_group: a system made a group owns the pools of its
 * required types and keeps the entities that match it (every required type, none of the
 * excluded ones) at the front [0, len) of every owned pool, in the same order, so that its
 * pass is one batch of whole columns however the storage has aged.
 *
 * What a group stores: per pool, the system that owns it (or none) and how many groups exclude
 * its type; per system, whether it is a group and its length; the grouped systems' ids, a list
 * (system_max entries, allocated with the storage). No memory per entity: a member is an entity
 * whose slot in the first owned pool is below the length.
 *
 * Costs (k = the group's required types, x its excluded ones, G = groups):
 *   system_group      O(n (k + x)) probes over the smallest owned pool (n entities), and k swaps
 *                     per member: the matching entities are sorted in. Returns 0, and changes
 *                     nothing, when one of the system's pools is owned already (a pool is kept
 *                     in one order only); 1 when it is a group (again: 1).
 *   component_add     sparse's append, then for an owned type: k + x probes whether the entity
 *                     now matches, and if so k swaps (one per owned pool: values, owners and two
 *                     entries each) to put it at position len; for a type some group excludes,
 *                     a probe per such group and k swaps for each member that leaves.
 *   component_remove  for an owned type, the entity leaves first if it is a member (a probe,
 *                     then k swaps to len - 1), then sparse's swap-remove; for an excluded type
 *                     the entity may join afterwards (k + x probes, k swaps).
 *   entity_destroy    a probe per group (membership: the first owned pool's slot against len)
 *                     and k swaps per group it leaves, then sparse's destroy.
 *   entity_create_with, entity_create_batch: after the appends, each group owning one of the
 *                     types is asked once whether the set matches (a scan of the type list, no
 *                     probe), for the whole batch; then k swaps per new entity if it does.
 *                     (create-batch, lived-in, N = 2^20, k = 2, group's ns per entity over
 *                     sparse's: 1.67 with a probe per entity, 1.36 this way; two runs of
 *                     `ecsbench --backends archetype,sparse,group --workloads create,create-batch
 *                     --entities 65536,1048576 --components 2 --processes 3`, one per build.)
 *   add and remove batches: as the adds and removes they are, entity by entity after the
 *                     appends (before and after the swap-removes).
 *   iteration         a group's pass: O(k) for the whole pass, one batch of k columns and the
 *                     first owned pool's owners; split on cache-line bounds of the first
 *                     component's values, which are consecutive across the members. A system
 *                     that is not a group walks as sparse's do.
 *   component_get, component_get_batch: sparse's, unchanged by groups (a group moves values
 *                     within a pool; the entry still names the slot): at N = 2^20 on lived-in
 *                     storage the record (ours: the handle's check, beside the chain), then per
 *                     component the page's entry and the value (the strategy's two dependent
 *                     loads); docs/backends.md, "Random access".
 * The swaps copy a value each way (a 64-byte buffer; larger values in pieces).
 *
 * Fast paths (sparse.h lists the storage's own; these are the group's), when each fires and
 * whether it fires in a lived-in storage (destroys, recycled ids, interleaved kinds, components
 * removed and re-added in no order):
 *   group pass        the group's members are always packed at the front in the same order:
 *                     the pass is one batch of columns with no probe at all. Lived-in: yes:
 *                     that is what the swaps on add and remove pay for, whatever the history.
 *   no group touched  an add or remove of a type no group owns or excludes pays two tests of
 *                     the pool's fields (owner, excluders). Lived-in: yes (it follows the
 *                     groups, not the history).
 *   in-step non-group a system that is not a group but all of whose types one group owns
 *                     (system_group refused it: its pools are taken) finds the group's members
 *                     at the same slots [0, len) of those pools: sparse's in-step runs
 *                     (run_end) hand them out as columns. Lived-in: yes for the group's members
 *                     (the group keeps them in step), no beyond the group's length.
 *
 * Why one source with a compile-time switch rather than a copy of sparse.c or a run-time flag:
 * the two backends share every line but the group hooks, so a fix to one is a fix to both;
 * and sparse's build has each hook as an empty inline function, so sparse's code and its
 * instruction counts stay what they were (make instr), and neither pays a test for the other.
 */
#define SPARSE_GROUPS 1
#include "sparse.h"

const struct ecs_ops ecs_backend_group = {
	.version = ECS_INTERFACE_VERSION,
	.name = "group",
	.description = "sparse sets with EnTT-style owning groups: a grouped system's pools packed "
	               "in step",
	.create = sparse_create,
	.destroy = sparse_destroy,
	.reserve = sparse_reserve,
	.entity_create = sparse_entity_create,
	.entity_create_with = sparse_entity_create_with,
	.entity_destroy = sparse_entity_destroy,
	.entity_alive = sparse_entity_alive,
	.component_add = sparse_component_add,
	.component_remove = sparse_component_remove,
	.component_get = sparse_component_get,
	.component_get_batch = sparse_component_get_batch,
	.component_has = sparse_component_has,
	.system_register = sparse_system_register,
	.system_iter_begin = sparse_system_iter_begin,
	.system_iter_next = sparse_system_iter_next,
	.system_iter_split = sparse_system_iter_split,
	.system_group = sparse_system_group,
	.entity_create_batch = sparse_entity_create_batch,
	.component_add_batch = sparse_component_add_batch,
	.component_remove_batch = sparse_component_remove_batch,
};
