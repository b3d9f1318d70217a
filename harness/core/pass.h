/*
 * pass.h: one process's measurement of every row group of the plan (pass.c): setup,
 * calibration, the interleaved samples, the checks. It reports what happens as events and
 * writes no file; in a child process each event becomes a line on a pipe (driver.c).
 */
#ifndef ECSB_PASS_H
#define ECSB_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "plan.h"

/* What a pass reports as it goes. */
struct pass_events {
	void *ctx;
	void (*group_begin)(void *ctx, uint32_t g);
	/* --fork-processes: the events that follow are process `pass`'s. */
	void (*pass_begin)(void *ctx, uint32_t pass);
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
};

/* Measures every group once in this process, as pass number `pass` of the run. */
void pass_run(const struct options *o, const struct plan *plan, uint32_t pass,
              const struct pass_events *ev);

/* --fork-processes: every process of the run, as forks of one build of each group (pass.c). */
void pass_run_all(const struct options *o, const struct plan *plan, const struct pass_events *ev);

/* The setup a measuring process makes before its first row: malloc's mode, the heap offset,
 * pinning; plan->cpus: the CPUs its threaded rows run on, found before it pins itself to one.
 * Says how it was pinned in pinning, and the malloc mode in *malloc_mode. */
void pass_process_setup(const struct options *o, struct plan *plan, char *pinning,
                        size_t pinning_len, const char **malloc_mode);

#endif
