/*
 * alloc.h: the counting allocator the harness (and the tests) hand to every storage. It sits on
 * malloc/realloc/free and records allocation calls, frees, live bytes and peak live bytes, in
 * the shape of google benchmark's MemoryManager::Result. Backends pass the size of every block
 * back on realloc and free, so no header per block is needed and the figures are exact.
 *
 * It can be told to fail: with fail_at = n > 0, the n-th allocation call from now (malloc or
 * realloc) returns NULL once; a storage must then report ECS_ERR_NO_MEMORY and lose nothing.
 */
#ifndef ECSB_ALLOC_H
#define ECSB_ALLOC_H

#include <stdint.h>

#include "../impls/ecs.h"

struct counting_alloc {
	uint64_t allocations; /* malloc and realloc calls that returned a block */
	uint64_t frees;
	uint64_t live_bytes;
	uint64_t peak_bytes;
	uint64_t fail_at;  /* 0: never fail; n: fail the n-th allocation call from now */
	uint64_t failures; /* calls failed on purpose */
	int64_t size_errors; /* frees or reallocs whose size disagreed with the live total */
};

/* Zeroes the counters and returns an ecs_allocator that counts into c. */
struct ecs_allocator counting_alloc_init(struct counting_alloc *c);

/* Starts a new peak measurement from the current live bytes. */
void counting_alloc_reset_peak(struct counting_alloc *c);

#endif
