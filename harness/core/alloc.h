/*
 * alloc.h: the counting allocator the harness (and the tests) hand to every storage. It sits on
 * malloc/realloc/free and records allocation calls, frees, live bytes and peak live bytes, in
 * the shape of google benchmark's MemoryManager::Result. Backends pass the size of every block
 * back on realloc and free, so no header per block is needed and the figures are exact.
 *
 * A realloc that moves a block holds the old and the new one at once: the peak counts both.
 *
 * It can be told to fail: with fail_at = n > 0, the n-th allocation call from now (malloc or
 * realloc) returns NULL once; a storage must then report ECS_ERR_NO_MEMORY and lose nothing.
 */
#ifndef ECSB_ALLOC_H
#define ECSB_ALLOC_H

#include <stdint.h>

#include "../../impls/ecs.h"

struct counting_alloc {
	uint64_t allocations; /* malloc and realloc calls that returned a block */
	uint64_t frees;
	uint64_t live_bytes;
	uint64_t peak_bytes;
	uint64_t fail_at;  /* 0: never fail; n: fail the n-th allocation call from now */
	uint64_t failures; /* calls failed on purpose */
	int64_t size_errors; /* frees or reallocs whose size disagreed with the block's */
	/* The largest block asked for since counting_alloc_largest_reset: a malloc's size, or a
	 * realloc's new size when it grows the block (a shrink is no growth). What a scenario
	 * frame's growth events are read from (docs/scenarios.md, "Frame-time tails"). */
	uint64_t largest;
	/* Optional (the tests): every live block and its size, so that a free or realloc of a
	 * block with another size than it was allocated with, or of no block at all, is counted
	 * in size_errors. Set by counting_alloc_track; freed by counting_alloc_release. */
	struct counting_block *blocks;
	uint64_t block_slots, block_count, block_used; /* used: live blocks + tombstones */
};

struct counting_block {
	void *ptr;
	size_t size;
};

/* Starts checking every block (see above). Returns 0, or -1 if out of memory. */
int counting_alloc_track(struct counting_alloc *c);
void counting_alloc_release(struct counting_alloc *c);

/* Zeroes the counters and returns an ecs_allocator that counts into c, with failure injection
 * (fail_at) and, after counting_alloc_track, block tracking: the tests' allocator. */
struct ecs_allocator counting_alloc_init(struct counting_alloc *c);

/* The same counts (allocations, frees, live and peak bytes) and nothing else: no fail_at, no
 * tracking, no size checks. The harness's allocator, so that counting costs a timed region as
 * little as it can. */
struct ecs_allocator counting_alloc_bench(struct counting_alloc *c);

/* Forgets the largest block so far (at the start of a frame). */
void counting_alloc_largest_reset(struct counting_alloc *c);

/* Starts a new peak measurement from the current live bytes. */
void counting_alloc_reset_peak(struct counting_alloc *c);

#endif
