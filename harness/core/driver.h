/*
 * driver.h: how a run is measured, in layers, each in a file of its own:
 *   plan (plan.c)        the row groups of the run (workload x N x k) and their participants
 *                        (the backends, and the floor where the workload has one);
 *   pass (pass.c)        one process's measurement of every group: setup, calibration, the
 *                        interleaved samples, the checks; it reports what happens as events;
 *   driver (driver.c)    the processes: P of them, one after the other, each a fresh exec of
 *                        this program with its own layout, that run one pass each, so that
 *                        the processes of a group are spread over the whole run; their events
 *                        come back on a pipe; progress on stderr;
 *   collection (collection.c)  every process's samples and rows, as the events arrive;
 *   report (report.c)    the statistics of each row (stats.c) and the CSV files.
 */
#ifndef ECSB_DRIVER_H
#define ECSB_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "machine.h"
#include "parallel.h"

struct group {
	const struct workload *workload;
	uint32_t n, k;
	uint32_t threads;      /* T: a threaded workload's (--threads), else 1 */
	const struct history *history; /* what its storages go through (history.h); NULL: none */
	uint32_t participants; /* backends, + 1 for the floor */
	bool floor;            /* the last participant is the floor (a scenario: the floor and
	                          then the harness alone, scenario_run.h) */
	const struct scenario *scenario; /* a scenario run's point, or NULL */
	uint32_t figures;      /* extra figures per sample (a scenario's phases), or 0 */
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
	struct cpu_list cpus;      /* where a threaded row's threads run, as this process found
	                              them (measuring_process_setup) */
};

static inline struct sampling *plan_sampling(const struct plan *p, uint32_t g, uint32_t q)
{
	return &p->sampling[(size_t)g * p->max_participants + q];
}

int plan_make(const struct options *o, struct plan *p);
void plan_free(struct plan *p);
/* Participant p of group g: a backend, or NULL for the floor. */
const struct ecs_ops *plan_participant(const struct options *o, const struct group *g,
                                       uint32_t p);
const char *participant_name(const struct options *o, const struct group *g, uint32_t p);
/* "iterate N=1024 k=2 lived-in" (and " T=2" after it for a threaded workload's group), or a scenario
 * point's name: for messages. Returns buf. */
const char *group_label(const struct group *g, char *buf, size_t len);
/* A scenario group's last participant: the harness alone, with no storage (scenario_run.h). */
bool plan_harness_row(const struct options *o, const struct group *g, uint32_t p);

/* What a pass reports as it goes; in a child each becomes a line on the pipe (driver.c). */
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
};

/* Measures every group once in this process, as pass number `pass` of the run. */
void pass_run(const struct options *o, const struct plan *plan, uint32_t pass,
              const struct pass_events *ev);

/* --- the collection ------------------------------------------------------------------ */

struct row_data {
	double *samples;     /* processes x reps, ns per run; NaN where none was taken */
	uint64_t *checksums; /* per process, where it took one */
	bool *done;          /* per process: its row arrived */
	bool *verified;      /* per process: it took the checksum */
	double wall_sum, clock_sum; /* over every timed sample: how much time was off the CPU */
	double *figures;     /* processes x reps x the group's figures, NaN where none; or NULL */
	struct bench_result result; /* the last process's figures (peak: the largest) */
	bool failed;
	uint32_t failed_process;
	char error[200];
};

struct collection {
	const struct options *o;
	const struct plan *plan;
	struct row_data *rows; /* group-major, plan->max_participants per group */
	struct sampling *sampling; /* as decided by the first process, like plan->sampling */
	struct machine_process *machine; /* per process, what it met (machine.h); process 0: none */
	unsigned failures, mismatches;
	uint32_t processes_done;
	bool tty, progress_shown; /* where messages must start on a fresh line */
};

int collection_init(struct collection *c, const struct options *o, const struct plan *plan);
void collection_free(struct collection *c);
struct row_data *collection_row(struct collection *c, uint32_t g, uint32_t p);
/* The events of process `pass` go into the collection through these. */
void collect_sample(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, uint32_t round,
                    double ns, double wall_ns);
void collect_row(struct collection *c, uint32_t pass, uint32_t g, uint32_t p,
                 const struct bench_result *r);
void collect_group_end(struct collection *c, uint32_t pass, uint32_t g);
void collect_figures(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, uint32_t round,
                     const double *v, uint32_t count);
/* A message on stderr that starts on its own line even while progress is shown. */
void collection_message(struct collection *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* --- the driver ---------------------------------------------------------------------- */

/* Runs the processes (or, with --processes 1, the one pass in this process) into c.
 * Returns 0, or -1 if a process died or the run was stopped (c says nothing complete). */
int drive(const struct options *o, struct plan *plan, struct collection *c);
/* The body of a child process: one pass, its events written to fd 3. Returns the exit code. */
int child_main(const struct options *o, struct plan *plan);

/* Whether the run has a threaded row: a threaded workload (parallel-iterate), or a scenario
 * with a parallel system (pass.c). Such a row is timed on the wall clock whatever --clock says. */
bool threaded_run(const struct options *o);

/* Process setup a measuring process makes before its first row (pass.c); cpus: the CPUs its
 * threaded rows run on, found before it pins itself to one. */
void measuring_process_setup(const struct options *o, char *pinning, size_t pinning_len,
                             const char **malloc_mode, struct cpu_list *cpus);

/* --- the report ---------------------------------------------------------------------- */

/* The lines every CSV of a run starts with: commit, date, CPU and pinning, compiler and flags,
 * malloc mode, clock, and what the machine was doing (machine.h; with samples, the samples
 * file's: a line per process too). */
void report_run_header(FILE *f, const struct collection *c, const char *pinning,
                       const char *malloc_mode, bool samples);
/* The lines that say what a CSV's statistics are: its centre column (median_ns), interval,
 * ratio_to_best and its interval, vs_best and noisy (stats.h), for `processes` processes and
 * rows of `participant`s. */
void report_stats_header(FILE *f, uint32_t processes, const char *participant,
                         const char *centre);
/* "12.5" (fmt applied to v), or "" for a figure that does not exist (has false, or NaN). */
const char *report_figure(char *buf, size_t len, bool has, const char *fmt, double v);

/* Writes the CSV (and the raw samples beside it): the number of rows the CSV has, or -1 if out of
 * memory. */
int report_write(const struct collection *c, FILE *csv, FILE *samples, const char *pinning,
                 const char *malloc_mode);

#endif
