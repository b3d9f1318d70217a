/*
 * bare_archetype.c: archetype.c's storage as a variant that changes nothing: no fields of its
 * own and every hook at archetype.h's default, for build/conformance-bare (tests/bare_backends.c
 * names it "archetype"). The conformance suite on it shows that the table machinery stands
 * alone, whatever a variant (hybrid.c) puts in its hooks, and that a variant is one include.
 * Never in a build that measures anything.
 */
#define ARCH_VARIANT
#include "../impls/archetype/archetype.c"

const struct ecs_ops ecs_backend_archetype_bare = {
	ARCH_OPS,
	.name = "archetype",
	.description = "archetype.c's tables, every hook its default (tests only)",
};
