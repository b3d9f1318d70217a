/*
 * bare_sparse.c: sparse.c's storage as a variant that changes nothing: no fields of its own and
 * every hook at sparse.h's default, for build/conformance-bare (tests/bare_backends.c names it
 * "sparse"). The conformance suite on it shows that the storage of pools stands alone,
 * whatever a variant (group.c) puts in its hooks, and that a variant is one include. Never in a
 * build that measures anything.
 */
#define SPARSE_VARIANT
#include "../impls/sparse/sparse.c"

const struct ecs_ops ecs_backend_sparse_bare = {
	SPARSE_OPS,
	.name = "sparse",
	.description = "sparse.c's pools, every hook its default (tests only)",
};
