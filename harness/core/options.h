/*
 * options.h: the settings of one run of build/ecsbench, as the command line gave them (cli.c
 * parses them) and as the kind of run resolved them (run_kind.h). Plain data: once main.c has
 * them, nothing changes them, and every stage below (plan, pass, driver, collection, report)
 * reads them through a const pointer.
 */
#ifndef ECSB_OPTIONS_H
#define ECSB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"

struct cli_option;

#define MAX_LIST 64
#define MAX_OPTIONS 64 /* distinct options of every kind of run together (cli.c) */
#define SAMPLE_TARGET_NS 2000000ull /* a sample lasts about this long (the fastest backend's) */
#define MAX_INNER 100000ull
#define MAX_PROCESSES 64u

/* Defaults, chosen by measurement (docs/method.md, "Processes"). */
#define DEFAULT_PROCESSES 5u
#define DEFAULT_REPS 3u
#define DEFAULT_WARMUP 1u

enum layout_mode { LAYOUT_RANDOM, LAYOUT_FIXED };

struct options {
	const struct ecs_ops *backends[MAX_LIST];
	size_t backend_count;
	const struct workload *workloads[MAX_LIST];
	size_t workload_count;
	const struct profile *profile;
	uint32_t entities[MAX_LIST];
	size_t entity_count;
	uint32_t components[COMP_MAX_K];
	size_t component_count;
	uint32_t threads[MAX_LIST]; /* T of a threaded workload (parallel-iterate) */
	size_t thread_count;
	const struct history *histories[MAX_LIST]; /* what the storages go through (history.h) */
	size_t history_count;
	uint32_t reps, warmup, systems;
	uint32_t processes;
	uint32_t inner; /* 0: calibrate */
	uint32_t component_size;
	double scale;
	uint64_t seed;
	const char *output;     /* as given, or the default results/<profile>.csv; "-": stdout */
	char output_path[4096]; /* where the CSV really goes: a symlink resolved */
	bool to_stdout;
	/* --derived PATH=NAME: files made from the output (its figures, its table) that go with a
	 * previous output into previous/DATE-NAME/ when a run replaces it (output.h) */
	const char *derived[MAX_LIST];
	size_t derived_count;
	/* --provisional CMD: after each measuring process but the last, the CSV of the processes
	 * so far is written and CMD run on it (main.c: make bench shows the answer so far) */
	const char *provisional;
	/* Set in the copy of the options a provisional CSV is written with: the run's processes
	 * (processes is then those done); 0 in a run's own CSV. */
	uint32_t provisional_of;
	bool list;
	/* --format json: google benchmark's JSON beside the CSV (PATH.json, gbench.h) */
	bool format_json;
	bool no_pin;
	bool no_floor;
	/* --floor-alone (not in --help): the floor and no backend, for scripts/cachegrind.sh, which
	 * counts the floor's timed call in a process of its own, as it counts each backend's */
	bool floor_alone;
	bool malloc_default;
	bool trace_samples; /* a line per sample on stderr: CPU time, faults, switches */
	bool wall_clock;    /* --clock wall: samples in wall time, not the thread's CPU time */
	/* --twin BACKEND, repeatable (the A/A test, docs/method.md; not in --help): the backend's
	 * ops once more, after the listed backends, under the name copy_name[i] (BACKEND~2,
	 * BACKEND~3, ...); "" for a backend that is not a copy. */
	char copy_name[MAX_LIST][40];
	/* --twin BACKEND:FACTOR (the test of a made difference, docs/method.md "The race"): the copy
	 * made FACTOR times slower, a spin of (FACTOR - 1) times its run's CPU time inside every
	 * timed sample; 0 (or 1) for every other backend. */
	double slowdown[MAX_LIST];
	enum layout_mode layout;
	/* --twin BACKEND as given, applied by the workload sweep's options (sweep_run.c) */
	const char *twins[MAX_LIST];
	size_t twin_count;
	bool workloads_named; /* --workloads names them, not "all" */
	const char *systems_text; /* --systems as given */
	/* A scenario run's options as given (scenario_run.h) */
	const char *scenario_file;
	const char *sweep, *sweep_points, *sweep_spacing;
	const char *sets[MAX_LIST]; /* --set KEY=VALUE, in order */
	const char *unmarked;       /* --unmarked BACKEND,... as given (scenario_run.c) */
	size_t set_count;
	/* --design 'BACKEND[:NAME] KEY=VALUE ...', in order: a participant each (scenario_run.c) */
	const char *designs[MAX_LIST];
	size_t design_count;
	/* The advisor's (harness/advise/advise_run.h): --advise FILE */
	const char *advise_file;
	/* --budget T as given, and in seconds: the kind's default, or T as the kind read it (the
	 * sweep's: the driver measures the answer's open rows while their cost fits in what is left
	 * of it, driver.c; the advisor's: its search); 0: none */
	const char *budget;
	double budget_s;
	/* The options given, each once, in the order first given (cli.h: cli_given) */
	const struct cli_option *given[MAX_OPTIONS];
	size_t given_count;
	/* What the kind of run (run_kind.h) resolved its options to (a scenario run's points),
	 * which only that kind reads; set once, before the plan is made. */
	void *kind_data;
	/* Set only in a child process of the driver (driver.c). */
	int child_pass;              /* -1: not a child */
	const char *child_inner;     /* the sampling of every participant of every group */
	const char *child_work;      /* which groups, participants and rounds it measures */
	uint32_t child_heap_offset;  /* bytes allocated first, to move the heap */
	char **argv;
	int argc;
};

/* Ends the program on a bad option: one line on stderr naming it, exit status 2. For the parser
 * and for each kind's checks of its options. */
void options_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
