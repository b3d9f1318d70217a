/*
 * growth.c: create-unreserved, create's labelled variant without reserve (issue 24, item 2).
 * create tells every fresh storage the N entities coming (ecs_reserve) before the clock, as a
 * game that knows its level's size would; the peers measured side by side with ecsbench do not,
 * and a game whose population grows cannot. Here the storage is told nothing: every column,
 * index, hash table and system list it sizes by the population regrows inside the timed
 * region, as often as its growth policy says.
 *
 * Its timed region creates the same N entities as create's, from the same spawn plan (the same
 * history, values and checksum), in GROWTH_BLOCKS blocks of about N / 64 entities, the clock
 * read between blocks, so that a block in which the storage regrew stands out from the others:
 * the sample's figures are, per block, its time per entity (ns, the wall clock, averaged over
 * the sample's runs) and then the largest block the storage asked for during it (bytes, the
 * largest over the runs: a growth block when it is at least 64 KiB, as a scenario's growth
 * frame). The clock costs 65 reads of CLOCK_MONOTONIC (vDSO, about 20 ns each) a run, inside
 * the timed region: its median_ns is create's plus the growth plus those reads, docs/workloads.md.
 * Under a lived-in history the storage is not empty (rule 'created', state.h): it held N / 2
 * predecessors, built without reserve, that died in a random order, so that the first half of
 * the creations recycle their indices and the second half grow the storage, as a wave larger
 * than the last one does.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "../core/measure.h"
#include "world.h"

struct growth_blocks {
	double ns[GROWTH_BLOCKS];      /* per block: the sum over the sample's runs */
	double largest[GROWTH_BLOCKS]; /* per block: the largest over the sample's runs */
	double figures[2 * GROWTH_BLOCKS];
};

static int unreserved_setup(struct run *run)
{
	if (!(run->state = calloc(1, sizeof(struct growth_blocks))))
		return bench_fail(run->r, "out of memory in the harness");
	return workloads_create_setup(run, false);
}

/* The storages, told nothing of what is coming (after turnover under a lived-in history: half
 * the creations recycle the predecessors' indices, half grow the storage); the blocks' figures
 * zeroed. */
static int unreserved_prepare(struct run *run)
{
	memset(run->state, 0, sizeof(struct growth_blocks));
	return run->turnover ? history_turnover_prepare(run) : world_fresh_prepare(run);
}

static int unreserved_execute(struct run *run)
{
	struct growth_blocks *b = run->state;
	uint32_t n = run->c->entities;
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		ecs_entity *handles = workloads_created(run, j);
		uint64_t t = measure_now_ns();
		for (uint32_t k = 0; k < GROWTH_BLOCKS; k++) {
			uint32_t first = (uint32_t)((uint64_t)n * k / GROWTH_BLOCKS);
			uint32_t end = (uint32_t)((uint64_t)n * (k + 1) / GROWTH_BLOCKS);
			counting_alloc_largest_reset(&w->counter);
			if (history_spawn_planned_range(w, run->spawn, first, end - first, handles, run->r))
				return -1;
			uint64_t now = measure_now_ns();
			b->ns[k] += (double)(now - t);
			if ((double)w->counter.largest > b->largest[k])
				b->largest[k] = (double)w->counter.largest;
			t = now;
		}
	}
	return 0;
}

/* Per block its ns per entity (over the sample's runs), then its largest allocation. */
static const double *unreserved_figures(struct run *run, uint32_t *count)
{
	struct growth_blocks *b = run->state;
	if (!b || !run->inner)
		return NULL;
	uint32_t n = run->c->entities;
	for (uint32_t k = 0; k < GROWTH_BLOCKS; k++) {
		uint32_t first = (uint32_t)((uint64_t)n * k / GROWTH_BLOCKS);
		uint32_t end = (uint32_t)((uint64_t)n * (k + 1) / GROWTH_BLOCKS);
		b->figures[k] = end > first ? b->ns[k] / run->inner / (end - first) : 0;
		b->figures[GROWTH_BLOCKS + k] = b->largest[k];
	}
	*count = 2 * GROWTH_BLOCKS;
	return b->figures;
}

const struct workload workload_create_unreserved = {
	.name = "create-unreserved",
	.timed = "create's N entities into a storage told nothing of them (no reserve; lived-in: "
	         "N / 2 predecessors died), in 64 blocks, the clock read between them",
	.history = WORKLOAD_SPAWNS,
	.figure_count = 2 * GROWTH_BLOCKS,
	.setup = unreserved_setup,
	.prepare = unreserved_prepare,
	.execute = unreserved_execute,
	.end_sample = workloads_create_end_sample,
	.finish = workloads_create_finish,
	.figures = unreserved_figures,
	.floor = &floor_create,
};
