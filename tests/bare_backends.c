/*
 * bare_backends.c: build/conformance-bare's table of backends, in place of impls/backends.c:
 * archetype.h and sparse.h each with every hook empty (tests/bare_archetype.c,
 * tests/bare_sparse.c), under the names of the backends whose machinery they are, so that
 * every test of the suite runs on them.
 */
#include <string.h>

#include "../impls/ecs.h"

extern const struct ecs_ops ecs_backend_archetype_bare;
extern const struct ecs_ops ecs_backend_sparse_bare;

const struct ecs_ops *const ecs_backends[] = {
	&ecs_backend_archetype_bare,
	&ecs_backend_sparse_bare,
};
const size_t ecs_backend_count = sizeof ecs_backends / sizeof ecs_backends[0];

const struct ecs_ops *ecs_backend_find(const char *name)
{
	for (size_t i = 0; i < ecs_backend_count; i++)
		if (strcmp(ecs_backends[i]->name, name) == 0)
			return ecs_backends[i];
	return NULL;
}
