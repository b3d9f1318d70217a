/*
 * rng.h: the harness's deterministic pseudo-random streams (rng.c): xorshift64* seeded from
 * (seed, stream) through splitmix64's finaliser, so that every decision a run makes (values,
 * orders, kinds, a process's layout) follows from --seed and a stream number of its own, and
 * two runs of one command make the same ones. Never inside a timed region (the check build
 * aborts if a draw is made there: measure.h).
 */
#ifndef ECSB_RNG_H
#define ECSB_RNG_H

#include <stdint.h>

/* splitmix64's finaliser: a bijection that mixes every bit of z into every bit of the result. */
static inline uint64_t rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct rng { uint64_t state; };
void rng_seed(struct rng *g, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *g);
uint32_t rng_below(struct rng *g, uint32_t n); /* uniform in 0..n-1, no division */
double rng_unit(struct rng *g); /* [0, 1) */
/* A permutation of 0..n-1 drawn from (seed, stream), malloc'd; NULL if out of memory. */
uint32_t *rng_permutation(uint64_t seed, uint64_t stream, uint32_t n);

#endif
