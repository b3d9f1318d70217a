/*
 * plan.h: the row groups of a run and their participants (plan.c), plain data that the kind of
 * run makes once from the options (run_kind.h) and every stage after it reads: the pass measures
 * the groups, the driver spreads them over processes, the collection gathers their rows, the
 * report writes them. A group's participants are the backends (in the options' order), then
 * the floor (the same task over plain arrays) and the harness alone (the same frames with no
 * storage and no work) where the group has them.
 */
#ifndef ECSB_PLAN_H
#define ECSB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "parallel.h"

struct group {
	const struct workload *workload;
	uint32_t n, k;
	uint32_t threads;      /* T: a threaded workload's (--threads), else 1 */
	const struct history *history; /* what its storages go through (history.h); NULL: none */
	uint32_t participants; /* the backends, + the floor, + the harness alone */
	bool floor;            /* participant `backends` is the floor */
	bool harness;          /* the last participant is the harness alone */
	bool own_values;       /* the workload makes its own values: the pass makes none for it */
	bool same_runs;        /* every participant must make the same runs: no extra warm-up */
	uint32_t max_inner;    /* the most runs a sample may hold (its workload's), or 0: MAX_INNER */
	const void *point;     /* the kind's own description of the group (a scenario's point),
	                          handed to each run as bench_case.point; or NULL */
	uint32_t figures;      /* extra figures per sample (a scenario's phases), or 0 */
	/* Groups with the same shares (not NULL), n, k, history and participants build the same
	 * storages: a measuring process builds them once and measures each such group on a copy
	 * (pass.c, "a family"); NULL: the group builds its own. */
	const void *shares;
	/* Its backends race (race.h): a process measures only those still in the race, and the
	 * driver stops measuring the group once it is decided (the sweep's groups); false: every
	 * participant in every process (a scenario's). */
	bool race;
	/* What the answer reads (the largest N of a workload and k, the largest T): measured first
	 * and for as long as the run's budget allows; the others (the figures' smaller N) in the
	 * first RACE_FIRST_LOOK processes. */
	bool headline;
	char label[160];       /* for messages: "iterate N=1024 k=2 lived-in" */
};

/* What one measuring process does with a group: the driver decides it before the process
 * starts (plan.work) from the race so far and the run's budget; the pass follows it. */
struct group_work {
	bool measure;    /* measured in this process */
	uint32_t rounds; /* its timed rounds (0: the options' --reps) */
};

/*
 * How one participant of one group is sampled, decided by the first process (its calibration
 * run) and kept by the others: each sample lasts about SAMPLE_TARGET_NS, `inner` runs of the
 * workload; a participant whose single run is much longer than that takes one timed sample
 * per process, and no warm-up if its run allocates nothing (pass.c).
 */
struct sampling {
	uint32_t inner;  /* 0: not decided yet (the first process calibrates) */
	uint32_t warmup; /* untimed samples first */
	uint32_t reps;   /* timed samples */
};

struct plan {
	struct group *groups;
	uint32_t count;
	uint32_t max_participants;
	struct sampling *sampling; /* count x max_participants */
	struct group_work *work;   /* count: what the process under way does with each group */
	bool *active;              /* count x max_participants: who it measures (race.h) */
	bool threaded;             /* a group runs on several threads (timed on the wall clock) */
	const struct bench_runner *runner; /* how the participants run (bench.h) */
	struct cpu_list cpus;      /* where a threaded row's threads run, as this process found
	                              them (pass_process_setup) */
};

static inline struct sampling *plan_sampling(const struct plan *p, uint32_t g, uint32_t q)
{
	return &p->sampling[(size_t)g * p->max_participants + q];
}

static inline bool plan_active(const struct plan *p, uint32_t g, uint32_t q)
{
	return p->active[(size_t)g * p->max_participants + q];
}

/* count groups of at most max_participants each, zeroed, every group measured with every
 * participant; -1 if out of memory. */
int plan_alloc(struct plan *p, uint32_t count, uint32_t max_participants);
void plan_free(struct plan *p);
/* Participant p of group g: a backend, or NULL for the floor and the harness alone. */
const struct ecs_ops *plan_participant(const struct options *o, const struct group *g,
                                       uint32_t p);
/* "hash", "hash~2" (a --twin), "floor" or "harness". */
const char *plan_participant_name(const struct options *o, const struct group *g, uint32_t p);
/* Whether participant p of g is the harness alone, with no storage. */
bool plan_harness_row(const struct group *g, uint32_t p);

#endif
