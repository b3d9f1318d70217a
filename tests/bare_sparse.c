/*
 * bare_sparse.c: sparse.h with no fields of a variant's own and every hook empty, for
 * build/conformance-bare (tests/bare_backends.c names it "sparse"): the conformance suite on it
 * shows that the storage of pools stands alone, whatever a variant (sparse.c, group.c) puts in
 * its hooks. Never in a build that measures anything.
 */
#include <stdbool.h>
#include <stdint.h>

#pragma GCC diagnostic ignored "-Wunused-parameter" /* every hook ignores its arguments */

#define SPARSE_POOL_FIELDS
#define SPARSE_SYSTEM_FIELDS
#define SPARSE_STORAGE_FIELDS
#include "../impls/sparse.h"

static int groups_create(ecs_storage *s) { return ECS_OK; }
static void groups_release(ecs_storage *s) {}
static void group_added(ecs_storage *s, uint32_t index, uint32_t type) {}
static void group_removing(ecs_storage *s, uint32_t index, uint32_t type) {}
static void group_removed(ecs_storage *s, uint32_t index, uint32_t type) {}
static void group_destroying(ecs_storage *s, uint32_t index) {}
static void group_created(ecs_storage *s, const ecs_entity *handles, uint32_t n,
                          const uint32_t *types, uint32_t count)
{
}
static bool group_iter_split(ecs_storage *s, const struct sparse_system *y, uint32_t system,
                             uint32_t part, uint32_t parts, struct ecs_iter *it)
{
	return false;
}
static bool group_iter_owns(const struct ecs_iter *it) { return false; }
static bool group_iter_next(struct ecs_iter *it, struct ecs_batch *b) { return false; }

const struct ecs_ops ecs_backend_sparse_bare = {
	SPARSE_OPS,
	.name = "sparse",
	.description = "sparse.h with every hook empty (tests/bare_sparse.c)",
};
