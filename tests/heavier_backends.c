/*
 * heavier_backends.c: build/heavier/ecsbench's table of backends, in place of impls/backends.c
 * (-DECSB_TEST_HEAVIER, which tests/instr.sh runs): sparse's operations each do 16 more
 * additions into a volatile (a load and a store each) before their own work, so that the
 * instruction check (scripts/instr.sh, make instr) has a regression to catch in every
 * workload's timed call. The other backends as they are. Never in a build that measures
 * anything.
 */
#include <stdbool.h>
#include <stdint.h>
#include "../impls/ecs.h"

extern const struct ecs_ops ecs_backend_hash;
extern const struct ecs_ops ecs_backend_tree;
extern const struct ecs_ops ecs_backend_vector;
extern const struct ecs_ops ecs_backend_sparse;
extern const struct ecs_ops ecs_backend_group;
extern const struct ecs_ops ecs_backend_archetype;
extern const struct ecs_ops ecs_backend_hybrid;

static volatile uint32_t heavier_sink;
static void heavier_work(void)
{
	for (uint32_t i = 0; i < 16; i++)
		heavier_sink += i;
}
static int heavier_entity_create(ecs_storage *s, ecs_entity *out)
{
	heavier_work();
	return ecs_backend_sparse.entity_create(s, out);
}
static int heavier_entity_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                                      const void *const *values, ecs_entity *out)
{
	heavier_work();
	return ecs_backend_sparse.entity_create_with(s, types, count, values, out);
}
static int heavier_entity_destroy(ecs_storage *s, ecs_entity e)
{
	heavier_work();
	return ecs_backend_sparse.entity_destroy(s, e);
}
static int heavier_component_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	heavier_work();
	return ecs_backend_sparse.component_add(s, e, type, value);
}
static int heavier_component_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	heavier_work();
	return ecs_backend_sparse.component_remove(s, e, type);
}
static int heavier_component_get(ecs_storage *s, ecs_entity e, uint32_t type, void **out)
{
	heavier_work();
	return ecs_backend_sparse.component_get(s, e, type, out);
}
static int heavier_entity_get(ecs_storage *s, ecs_entity e, const uint32_t *types,
                              uint32_t count, void **out, int *status)
{
	heavier_work();
	return ecs_backend_sparse.entity_get(s, e, types, count, out, status);
}
static bool heavier_system_iter_next(struct ecs_iter *it, struct ecs_batch *batch)
{
	heavier_work();
	return ecs_backend_sparse.system_iter_next(it, batch);
}
static struct ecs_ops heavier_sparse;
/* sparse's ops, some wrapped: filled before main (another file's const object is no constant
 * expression for a static initializer) */
__attribute__((constructor)) static void heavier_init(void)
{
	heavier_sparse = ecs_backend_sparse;
	heavier_sparse.entity_create = heavier_entity_create;
	if (heavier_sparse.entity_create_with)
		heavier_sparse.entity_create_with = heavier_entity_create_with;
	heavier_sparse.entity_destroy = heavier_entity_destroy;
	heavier_sparse.component_add = heavier_component_add;
	heavier_sparse.component_remove = heavier_component_remove;
	heavier_sparse.component_get = heavier_component_get;
	if (heavier_sparse.entity_get)
		heavier_sparse.entity_get = heavier_entity_get;
	heavier_sparse.system_iter_next = heavier_system_iter_next;
}

const struct ecs_ops *const ecs_backends[] = {
	&ecs_backend_hash,
	&ecs_backend_tree,
	&ecs_backend_vector,
	&heavier_sparse,
	&ecs_backend_group,
	&ecs_backend_archetype,
	&ecs_backend_hybrid,
};

const size_t ecs_backend_count = sizeof ecs_backends / sizeof ecs_backends[0];
