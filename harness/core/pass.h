/*
 * pass.h: one process's measurement of the row groups the driver gives it (pass.c): setup,
 * calibration, the rounds and the race's screens, the checks. It reports what happens as events and
 * writes no file; in a child process each event becomes a line on a pipe (driver.c).
 */
#ifndef ECSB_PASS_H
#define ECSB_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "plan.h"

/* Where one group's time went in one process (untimed work included): what the run's budget
 * plans with and what the run says of its wall time. */
struct group_timing {
	uint64_t setup_ns;       /* its storages built (a family member: adopted) */
	uint64_t calibration_ns; /* the calibration runs (the first process) */
	uint64_t warmup_ns;      /* the warm-up rounds */
	uint64_t rounds_ns;      /* the timed rounds, their restores included */
	uint64_t timed_ns;       /* of which inside the timed regions (wall clock) */
	uint64_t restore_ns;     /* of which preparing each sample (restoring the state) */
	uint64_t finish_ns;      /* the checks and rows after */
	uint32_t rounds;         /* timed rounds */
};

/* What a pass reports as it goes. */
struct pass_events {
	void *ctx;
	void (*group_begin)(void *ctx, uint32_t g);
	/* How participant p is sampled (the first process, once calibrated). */
	void (*sampled_as)(void *ctx, uint32_t g, uint32_t p, const struct sampling *s);
	/* How long this process will spend on the group's samples from now (the first process,
	 * from the calibration runs). */
	void (*estimate)(void *ctx, uint32_t g, double estimate_ns);
	/* Participant p starts sample s (warm-up ones included); estimate_ns: how long it will
	 * take, or 0. */
	void (*sample_begin)(void *ctx, uint32_t g, uint32_t p, uint32_t s, double estimate_ns);
	/* A timed sample, per run: on the run's clock (--clock), and its wall time. */
	void (*sample)(void *ctx, uint32_t g, uint32_t p, uint32_t round, double ns_per_run,
	               double wall_ns_per_run);
	void (*row)(void *ctx, uint32_t g, uint32_t p, const struct bench_result *r);
	void (*group_end)(void *ctx, uint32_t g);
	/* After a timed sample of a group with figures: the sample's `count` figures. */
	void (*figures)(void *ctx, uint32_t g, uint32_t p, uint32_t round, const double *v,
	                uint32_t count);
	/* Participant p left the race (race.h: RACE_CALIBRATION or RACE_SCREENED) after `rounds`
	 * timed rounds, decidedly slower than participant `behind`. */
	void (*left)(void *ctx, uint32_t g, uint32_t p, int how, uint32_t rounds, int behind);
	/* Where group g's time went in this process, before its group_end. */
	void (*timing)(void *ctx, uint32_t g, const struct group_timing *t);
	/* A family's storages built once for its `count` groups, in `ns`. */
	void (*family_built)(void *ctx, const uint32_t *groups, uint32_t count, uint64_t ns);
};

/* Measures the groups plan->work names, with the participants plan->active names, once in
 * this process, as pass number `pass` of the run. */
void pass_run(const struct options *o, const struct plan *plan, uint32_t pass,
              const struct pass_events *ev);

/* The setup a measuring process makes before its first row: malloc's mode, the heap offset,
 * pinning; plan->cpus: the CPUs its threaded rows run on, found before it pins itself to one.
 * Says how it was pinned in pinning, and the malloc mode in *malloc_mode. */
void pass_process_setup(const struct options *o, struct plan *plan, char *pinning,
                        size_t pinning_len, const char **malloc_mode);

#endif
