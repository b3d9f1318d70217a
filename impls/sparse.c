/*
 * sparse.c: one sparse set per component type (Varkor's refactor post, its new implementation;
 * EnTT's storage), with no groups. The storage is written once in sparse.h, which group.c
 * includes too with owning groups compiled in; its header block lists what sparse stores,
 * what each operation costs and the fast paths.
 *
 * system_group is left NULL: a system here always walks the smallest of its pools and probes
 * the others (ecs_system_group returns 0).
 */
#define SPARSE_GROUPS 0
#include "sparse.h"

const struct ecs_ops ecs_backend_sparse = {
	.version = ECS_INTERFACE_VERSION,
	.name = "sparse",
	.description = "sparse set per component type, paged; systems probe the smallest pool",
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
	.entity_create_batch = sparse_entity_create_batch,
	.component_add_batch = sparse_component_add_batch,
	.component_remove_batch = sparse_component_remove_batch,
};
