/*
 * bare_backends.c: build/conformance-bare's table of backends, in place of impls/backends.c:
 * archetype.c's and sparse.c's storage each with every hook at its default
 * (tests/bare_archetype.c, tests/bare_sparse.c), under the names of the backends whose
 * machinery they are, so that every test of the suite runs on them; and a sparse variant that
 * changes one hook (tests/checked_sparse.c), as a user's new variant would.
 */
#include "../impls/ecs.h"

extern const struct ecs_ops ecs_backend_archetype_bare;
extern const struct ecs_ops ecs_backend_sparse_bare;
extern const struct ecs_ops ecs_backend_sparse_checked;

const struct ecs_ops *const ecs_backends[] = {
	&ecs_backend_archetype_bare,
	&ecs_backend_sparse_bare,
	&ecs_backend_sparse_checked,
};
const size_t ecs_backend_count = sizeof ecs_backends / sizeof ecs_backends[0];
