/*
 * checked_sparse.c: a new backend variant as the project's users would write one, and its test:
 * sparse.c's storage with exactly one hook changed, sparse_hook_added, which checks on every
 * add (component_add, entity_create_with, the batches) the promise the hook is called under:
 * the entity holds the type, its pool's entry and owner naming each other. Everything else is sparse.c's
 * (defaults for the other hooks, no fields of its own). build/conformance-bare runs the whole
 * suite on it as "sparse-checked" (tests/bare_backends.c); a broken promise aborts the run.
 * Never in a build that measures anything.
 */
#include <stdio.h>

#define sparse_hook_added checked_added
#define SPARSE_VARIANT
#include "../impls/sparse/sparse.c"

static void checked_added(ecs_storage *s, uint32_t index, uint32_t type)
{
	const struct sparse_pool *p = &s->pools[type];
	uint32_t slot = pool_find(p, index);
	if (slot >= p->count || ecs_entity_index(p->entities[slot]) != index) {
		fprintf(stderr, "checked_sparse: index %u got type %u but its pool does not hold it\n",
		        index, type);
		abort();
	}
}

const struct ecs_ops ecs_backend_sparse_checked = {
	SPARSE_OPS,
	.name = "sparse-checked",
	.description = "sparse.c with sparse_hook_added checking its promise (tests only)",
};
