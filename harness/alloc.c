/* alloc.c: the counting allocator (see alloc.h). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static int should_fail(struct counting_alloc *c)
{
	if (c->fail_at == 0)
		return 0;
	if (--c->fail_at == 0) {
		c->failures++;
		return 1;
	}
	return 0;
}

static void grew(struct counting_alloc *c, size_t size)
{
	c->allocations++;
	c->live_bytes += size;
	if (c->live_bytes > c->peak_bytes)
		c->peak_bytes = c->live_bytes;
}

static void shrank(struct counting_alloc *c, size_t size)
{
	if (size > c->live_bytes) {
		c->size_errors++;
		c->live_bytes = 0;
	} else {
		c->live_bytes -= size;
	}
}

static void *counting_malloc(void *ctx, size_t size)
{
	struct counting_alloc *c = ctx;
	if (should_fail(c))
		return NULL;
	void *p = malloc(size ? size : 1);
	if (p)
		grew(c, size);
	return p;
}

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	struct counting_alloc *c = ctx;
	if (should_fail(c))
		return NULL;
	void *p = realloc(ptr, new_size ? new_size : 1);
	if (!p)
		return NULL;
	if (ptr)
		shrank(c, old_size);
	grew(c, new_size);
	return p;
}

static void counting_free(void *ctx, void *ptr, size_t size)
{
	struct counting_alloc *c = ctx;
	if (!ptr)
		return;
	c->frees++;
	shrank(c, size);
	free(ptr);
}

struct ecs_allocator counting_alloc_init(struct counting_alloc *c)
{
	memset(c, 0, sizeof *c);
	return (struct ecs_allocator){
		.malloc = counting_malloc,
		.realloc = counting_realloc,
		.free = counting_free,
		.ctx = c,
	};
}

void counting_alloc_reset_peak(struct counting_alloc *c)
{
	c->peak_bytes = c->live_bytes;
}
