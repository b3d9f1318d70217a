/*
 * bare_archetype.c: archetype.h with no fields of a variant's own and every hook empty, for
 * build/conformance-bare (tests/bare_backends.c names it "archetype"): the conformance suite on
 * it shows that the table machinery stands alone, whatever a variant (archetype.c, hybrid.c)
 * puts in its hooks. Never in a build that measures anything.
 */
#include <stdbool.h>
#include <stdint.h>

#pragma GCC diagnostic ignored "-Wunused-parameter" /* every hook ignores its arguments */

#define ARCH_SYSTEM_FIELDS
#define ARCH_STORAGE_FIELDS
#define ARCH_RECORD_SPARE 0u
#include "../impls/archetype.h"

static int arch_hook_setup(ecs_storage *s, const struct ecs_config *cfg) { return ECS_OK; }
static void arch_hook_release(ecs_storage *s) {}
static bool arch_hook_outside(const ecs_storage *s, uint32_t type) { return false; }
static bool arch_hook_list_outside(const ecs_storage *s, const uint32_t *types, uint32_t count)
{
	return false;
}
static int arch_hook_add(ecs_storage *s, ecs_entity e, uint32_t type, const void *value)
{
	return ECS_ERR_BAD_COMPONENT;
}
static int arch_hook_remove(ecs_storage *s, ecs_entity e, uint32_t type)
{
	return ECS_ERR_BAD_COMPONENT;
}
static int arch_hook_has(const ecs_storage *s, ecs_entity e, uint32_t type)
{
	return ECS_ERR_BAD_COMPONENT;
}
static bool arch_hook_value(const ecs_storage *s, ecs_entity e, uint32_t type, void **value)
{
	return false;
}
static int arch_hook_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                                 const void *const *values, ecs_entity *out)
{
	return ECS_ERR_BAD_COMPONENT;
}
static void arch_hook_destroy(ecs_storage *s, struct arch_record *r, uint32_t index) {}
static void arch_hook_system(const ecs_storage *s, struct arch_system *y) {}
static bool arch_hook_required_outside(const struct arch_system *y, uint32_t c) { return false; }
static int arch_hook_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                           uint32_t type, const struct ecs_values *values)
{
	return ECS_ERR_BAD_COMPONENT;
}
static int arch_hook_create_batch_room(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                       uint32_t count, uint32_t from_free, const void **base,
                                       uint32_t *spare)
{
	*spare = 0;
	return ECS_OK;
}
static void arch_hook_create_batch_fill(ecs_storage *s, const uint32_t *types,
                                        uint32_t type_count, const struct ecs_values *values,
                                        const void *const *base, const ecs_entity *out,
                                        uint32_t count)
{
}
static void arch_hook_iter_setup(const ecs_storage *s, const struct arch_system *y, uint32_t part,
                                 uint32_t parts, struct ecs_iter *it)
{
}
static bool arch_hook_iter_own(const struct ecs_iter *it) { return false; }
static bool arch_hook_iter_next(struct ecs_iter *it, struct ecs_batch *b) { return false; }

const struct ecs_ops ecs_backend_archetype_bare = {
	ARCH_OPS,
	.name = "archetype",
	.description = "archetype.h with every hook empty (tests/bare_archetype.c)",
};
