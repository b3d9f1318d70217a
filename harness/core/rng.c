/*
 * rng.c: the deterministic streams (rng.h). Costs: a draw is three shifts, three xors and a
 * multiply; a permutation of n, n draws and n swaps (Fisher-Yates).
 */
#include <stdlib.h>

#include "measure.h"
#include "rng.h"

void rng_seed(struct rng *g, uint64_t seed, uint64_t stream)
{
	g->state = rng_mix64(seed ^ rng_mix64(stream + 0x9e3779b97f4a7c15ull)) | 1;
}

uint64_t rng_next(struct rng *g)
{
	UNTIMED_ONLY("rng_next (a random decision)");
	g->state ^= g->state >> 12;
	g->state ^= g->state << 25;
	g->state ^= g->state >> 27;
	return g->state * 0x2545f4914f6cdd1dull;
}

uint32_t rng_below(struct rng *g, uint32_t n) { return (uint32_t)((rng_next(g) >> 32) * n >> 32); }

double rng_unit(struct rng *g) { return (double)(rng_next(g) >> 11) * (1.0 / 9007199254740992.0); }

uint32_t *rng_permutation(uint64_t seed, uint64_t stream, uint32_t n)
{
	UNTIMED_ONLY("rng_permutation");
	uint32_t *order = malloc((size_t)n * sizeof *order + 1);
	if (!order)
		return NULL;
	struct rng g;
	rng_seed(&g, seed, stream);
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	for (uint32_t i = n; i > 1; i--) { /* Fisher-Yates */
		uint32_t j = rng_below(&g, i), tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
	return order;
}
