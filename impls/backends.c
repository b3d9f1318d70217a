/*
 * backends.c: the table of backends, the one place that names them all (what the backends
 * share is in ecs.c, so that none of them depends on this file). To add a backend: one file in
 * impls/ (or a folder of its own, impls/<name>/) that exports a `const struct ecs_ops
 * ecs_backend_<name>`, and one line in each list below. A test build may link its own table
 * instead (tests/bare_backends.c, tests/heavier_backends.c).
 */
#include "ecs.h"

extern const struct ecs_ops ecs_backend_hash;
extern const struct ecs_ops ecs_backend_tree;
extern const struct ecs_ops ecs_backend_vector;
extern const struct ecs_ops ecs_backend_sparse;
extern const struct ecs_ops ecs_backend_group;
extern const struct ecs_ops ecs_backend_archetype;
extern const struct ecs_ops ecs_backend_hybrid;

const struct ecs_ops *const ecs_backends[] = {
	&ecs_backend_hash,
	&ecs_backend_tree,
	&ecs_backend_vector,
	&ecs_backend_sparse,
	&ecs_backend_group,
	&ecs_backend_archetype,
	&ecs_backend_hybrid,
};

const size_t ecs_backend_count = sizeof ecs_backends / sizeof ecs_backends[0];
