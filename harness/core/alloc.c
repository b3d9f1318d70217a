/* alloc.c: the counting allocator (see alloc.h). */
#include <stdint.h>
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

/* --- block tracking (tests only) ------------------------------------------------------ */

#define TOMBSTONE ((void *)1)

static uint64_t slot_of(const struct counting_alloc *c, const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
	return (h >> 20) & (c->block_slots - 1);
}

static struct counting_block *block_find(struct counting_alloc *c, const void *p)
{
	for (uint64_t i = slot_of(c, p);; i = (i + 1) & (c->block_slots - 1)) {
		if (c->blocks[i].ptr == p)
			return &c->blocks[i];
		if (c->blocks[i].ptr == NULL)
			return NULL;
	}
}

static void block_put(struct counting_alloc *c, void *p, size_t size)
{
	uint64_t i = slot_of(c, p);
	while (c->blocks[i].ptr && c->blocks[i].ptr != TOMBSTONE)
		i = (i + 1) & (c->block_slots - 1);
	if (c->blocks[i].ptr == NULL)
		c->block_used++;
	c->blocks[i] = (struct counting_block){p, size};
	c->block_count++;
}

/* Rebuilds the table without tombstones, four slots per live block or more. */
static void blocks_rehash(struct counting_alloc *c)
{
	struct counting_block *old = c->blocks;
	uint64_t old_slots = c->block_slots, slots = 1024;
	while (slots < c->block_count * 4)
		slots *= 2;
	struct counting_block *fresh = calloc(slots, sizeof *fresh);
	if (!fresh) { /* cannot track any more: stop checking rather than report nonsense */
		counting_alloc_release(c);
		return;
	}
	c->blocks = fresh;
	c->block_slots = slots;
	c->block_count = c->block_used = 0;
	for (uint64_t i = 0; i < old_slots; i++)
		if (old[i].ptr && old[i].ptr != TOMBSTONE)
			block_put(c, old[i].ptr, old[i].size);
	free(old);
}

static void block_insert(struct counting_alloc *c, void *p, size_t size)
{
	if (!c->blocks)
		return;
	if ((c->block_used + 1) * 2 > c->block_slots) {
		blocks_rehash(c);
		if (!c->blocks)
			return;
	}
	block_put(c, p, size);
}

/* Forgets a block, checking the size the storage says it has. */
static void block_remove(struct counting_alloc *c, void *p, size_t size)
{
	if (!c->blocks)
		return;
	struct counting_block *b = block_find(c, p);
	if (!b || b->size != size)
		c->size_errors++;
	if (b) {
		b->ptr = TOMBSTONE;
		c->block_count--;
	}
}

int counting_alloc_track(struct counting_alloc *c)
{
	c->block_slots = 1024;
	c->block_count = c->block_used = 0;
	c->blocks = calloc(c->block_slots, sizeof *c->blocks);
	return c->blocks ? 0 : -1;
}

void counting_alloc_release(struct counting_alloc *c)
{
	free(c->blocks);
	c->blocks = NULL;
	c->block_slots = c->block_count = c->block_used = 0;
}

/* --- the allocator -------------------------------------------------------------------- */

static void grew(struct counting_alloc *c, size_t size)
{
	c->allocations++;
	c->live_bytes += size;
	if (c->live_bytes > c->peak_bytes)
		c->peak_bytes = c->live_bytes;
}

/* A block of `size` asked for where one of `old_size` was (0: a malloc). */
static inline void asked(struct counting_alloc *c, size_t old_size, size_t size)
{
	if (size > old_size && size > c->largest)
		c->largest = size;
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
	if (p) {
		grew(c, size);
		asked(c, 0, size);
		block_insert(c, p, size);
	}
	return p;
}

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	struct counting_alloc *c = ctx;
	if (should_fail(c))
		return NULL;
	/* Look the old block up before realloc: its address means nothing after. */
	struct counting_block *old = ptr && c->blocks ? block_find(c, ptr) : NULL;
	uintptr_t old_address = (uintptr_t)ptr;
	void *p = realloc(ptr, new_size ? new_size : 1);
	if (!p)
		return NULL;
	if (old_address) {
		if (c->blocks) {
			if (!old || old->size != old_size)
				c->size_errors++;
			if (old) {
				old->ptr = TOMBSTONE;
				c->block_count--;
			}
		}
		if ((uintptr_t)p != old_address) { /* moved: both blocks were live during the copy */
			grew(c, new_size);
			shrank(c, old_size);
		} else {
			shrank(c, old_size);
			grew(c, new_size);
		}
	} else {
		grew(c, new_size);
	}
	asked(c, old_address ? old_size : 0, new_size);
	block_insert(c, p, new_size);
	return p;
}

static void counting_free(void *ctx, void *ptr, size_t size)
{
	struct counting_alloc *c = ctx;
	if (!ptr)
		return;
	c->frees++;
	block_remove(c, ptr, size);
	shrank(c, size);
	free(ptr);
}

/* An allocator of the three calls over c, its counts zeroed. */
static struct ecs_allocator allocator_over(struct counting_alloc *c,
                                           void *(*m)(void *, size_t),
                                           void *(*r)(void *, void *, size_t, size_t),
                                           void (*f)(void *, void *, size_t))
{
	memset(c, 0, sizeof *c);
	return (struct ecs_allocator){.malloc = m, .realloc = r, .free = f, .ctx = c};
}

struct ecs_allocator counting_alloc_init(struct counting_alloc *c)
{
	return allocator_over(c, counting_malloc, counting_realloc, counting_free);
}

/*
 * The harness's allocator: the same counts, without failure injection or block tracking, so
 * that a call costs the counting and nothing else (a load of the context, three counters and a
 * compare around glibc's own call). The tests' allocator above spent ~51 instructions a call on
 * the checks (callgrind), about a tenth of hash's create, which allocates per index entry; this
 * one is what every timed region gets.
 */
static void *bench_malloc(void *ctx, size_t size)
{
	void *p = malloc(size ? size : 1);
	if (__builtin_expect(p != NULL, 1)) {
		grew(ctx, size);
		asked(ctx, 0, size);
	}
	return p;
}

static void *bench_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	struct counting_alloc *c = ctx;
	uintptr_t old_address = (uintptr_t)ptr;
	void *p = realloc(ptr, new_size ? new_size : 1);
	if (!p)
		return NULL;
	if (old_address && (uintptr_t)p != old_address) { /* moved: both were live during the copy */
		grew(c, new_size);
		c->live_bytes -= old_size;
	} else {
		c->live_bytes -= old_size;
		grew(c, new_size);
	}
	asked(c, old_address ? old_size : 0, new_size);
	return p;
}

static void bench_free(void *ctx, void *ptr, size_t size)
{
	struct counting_alloc *c = ctx;
	if (!ptr)
		return;
	c->frees++;
	c->live_bytes -= size;
	free(ptr);
}

struct ecs_allocator counting_alloc_bench(struct counting_alloc *c)
{
	return allocator_over(c, bench_malloc, bench_realloc, bench_free);
}

void counting_alloc_largest_reset(struct counting_alloc *c)
{
	c->largest = 0;
}

void counting_alloc_reset_peak(struct counting_alloc *c)
{
	c->peak_bytes = c->live_bytes;
}
