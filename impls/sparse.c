/*
 * sparse.c: one sparse set per component type (Varkor's refactor post, its new implementation;
 * EnTT's storage), with no groups. The storage is written once in sparse.h, which group.c
 * includes too with its owning groups as the hooks; its header block lists what sparse
 * stores, what each operation costs and the fast paths.
 *
 * system_group is left NULL: a system here always walks the smallest of its pools and probes
 * the others (ecs_system_group returns 0).
 */
/* No groups: no fields of its own, every hook empty (they compile away). */
#define SPARSE_POOL_FIELDS
#define SPARSE_SYSTEM_FIELDS
#define SPARSE_STORAGE_FIELDS
#include "sparse.h"

static inline void group_added(ecs_storage *s, uint32_t index, uint32_t type)
{
	(void)s, (void)index, (void)type;
}
static inline void group_removing(ecs_storage *s, uint32_t index, uint32_t type)
{
	(void)s, (void)index, (void)type;
}
static inline void group_removed(ecs_storage *s, uint32_t index, uint32_t type)
{
	(void)s, (void)index, (void)type;
}
static inline void group_destroying(ecs_storage *s, uint32_t index) { (void)s, (void)index; }
static inline void group_created(ecs_storage *s, const ecs_entity *handles, uint32_t n,
                                 const uint32_t *types, uint32_t count)
{
	(void)s, (void)handles, (void)n, (void)types, (void)count;
}
static inline int groups_create(ecs_storage *s)
{
	(void)s;
	return ECS_OK;
}
static inline void groups_release(ecs_storage *s) { (void)s; }
static inline bool group_iter_split(ecs_storage *s, const struct sparse_system *y,
                                    uint32_t system, uint32_t part, uint32_t parts,
                                    struct ecs_iter *it)
{
	(void)s, (void)y, (void)system, (void)part, (void)parts, (void)it;
	return false;
}
static inline bool group_iter_owns(const struct ecs_iter *it)
{
	(void)it;
	return false;
}
static inline bool group_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	(void)it, (void)b;
	return false;
}

const struct ecs_ops ecs_backend_sparse = {
	SPARSE_OPS,
	.name = "sparse",
	.description = "sparse set per component type, paged; systems probe the smallest pool",
};
