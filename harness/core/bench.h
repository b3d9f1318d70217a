/*
 * bench.h: what the harness's layers share (bench.c, profile.c): the profiles, a row as plain
 * data (struct bench_case in, struct bench_result out), the workload as an ops struct, and the
 * runner through which the pass drives a row's participants (struct bench_runner, implemented
 * by the sweep's workloads.c). The pass measures, stats.c summarises, each kind's report
 * writes.
 */
#ifndef ECSB_BENCH_H
#define ECSB_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../impls/ecs.h"

/* The profiles of Vigier's post. */
struct profile {
	const char *name;
	uint32_t component_count;
	uint32_t system_count;
};

extern const struct profile profiles[];
extern const size_t profile_count;
const struct profile *profile_find(const char *name);
/* The profile whose name is name but for case ("aaa": AAA), or NULL: what a refusal of an
 * unknown name suggests. */
const struct profile *profile_find_nocase(const char *name);

/* The component types a workload uses: k = 1, 2 or 3 of them, ids 0, 1, 2. */
enum { COMP_POSITION = 0, COMP_VELOCITY = 1, COMP_MASS = 2, COMP_MAX_K = 3 };
/* The type every profile marks sparse (ecs_config.component_storage), by the rule the docs give
 * users (docs/scenarios.md: mark sparse what comes and goes and no hot pass walks): a status
 * effect, the one type the workloads add and remove (add-remove's), which a small system
 * requires and no measured pass walks; every other type is a table type. Type 9: after the
 * harness's own (0..4) and the lived-in kinds' (5..8). */
enum { COMP_STATUS = 9, PROFILE_SPARSE_TYPE = COMP_STATUS };

struct position { float x, y; };
struct velocity { float x, y; };
struct mass { float m; };

/* The values the i-th created entity gets for types 0..VALUE_TYPES-1 (world.h), for every
 * backend alike: made once per row group. */
struct values {
	unsigned char *data[4];
	uint32_t size[4];
	uint32_t n;
};


struct workload;
struct cpu_list;
struct history;

/* One row: a participant (a backend, or the floor when ops is NULL) x workload x N x k. */
struct bench_case {
	const struct ecs_ops *ops;
	const struct workload *workload;
	const struct profile *profile;
	uint32_t systems;  /* systems registered: the profile's, or fewer (--systems) */
	uint32_t entities; /* N */
	uint32_t k;        /* components per entity */
	uint32_t component_size; /* bytes of Position and Velocity */
	uint64_t seed;
	const struct values *values; /* N entities' values */
	const struct values *writes; /* the values written over them (Varkor's "write") */
	bool wall_clock;             /* --clock wall: a workload timing parts of a run uses it too */
	const void *point;               /* the run kind's own description of the row (a scenario's
	                                    point: scenario_run.c), or NULL */
	const struct history *history;   /* what the storage went through (history.h), or NULL */
	bool harness;                    /* with no ops: the harness alone, not the floor */
	bool verify;                 /* setup and finish check, finish takes the checksum (the
	                                first process) */
	uint32_t threads;            /* T: threads a threaded workload's pass runs on (else 1) */
	double slowdown;             /* > 1: a test's copy made this much slower (--twin B:F) */
	const struct cpu_list *cpus; /* where they run (parallel.h); NULL: not pinned */
};

/* What one participant's row of one process leaves besides its samples. */
struct bench_result {
	uint32_t inner;       /* workload runs per timed sample (small N is repeated) */
	uint32_t reps;        /* timed samples */
	uint64_t peak_bytes;  /* peak live bytes of the storage */
	uint64_t live_bytes;  /* live bytes of the storage when the workload ends */
	uint64_t allocations; /* allocation calls in the timed region, per run */
	double reuse;         /* peak bytes after the last round / after the first; 0: no rounds */
	uint64_t checksum;
	bool verified;        /* the checksum was computed (the first process only) */
	char error[200];      /* non-empty: the run failed and the numbers mean nothing */
};

/*
 * A workload, in phases, so that the pass can interleave the samples of every backend of a row
 * (A B C A B C ...): setup once (untimed), then per sample prepare (untimed), execute (timed:
 * `inner` runs) and end_sample (untimed checks), then finish (untimed: memory figures, and
 * when run->verify is set the correctness checks and the checksum, which the first process
 * alone computes).
 * Each returns 0, or -1 with the result's error set. NULL phases are skipped.
 */
struct run;
struct workload {
	const char *name;
	const char *timed; /* what the timed region holds, for --list and the README */
	/* The floor: the same task over plain arrays, run beside the backends as a row of its own
	 * (floor.c); NULL: none. */
	const struct workload *floor;
	uint32_t fixed_entities; /* not swept over --entities: this many units, times --scale */
	uint32_t unit_entities;  /* entities per unit (0: 1) */
	uint32_t rounds;         /* rounds per run over the N entities (0: 1); ns_per_entity is
	                            per entity per round */
	/* A run's cost does not grow with N (a pass over a system that matches nothing): the CSV's
	 * ns_per_entity and entities_per_sec are per run, not per entity. */
	bool per_run;
	/* The most runs a sample may hold (0: MAX_INNER): a workload that needs a storage of its own
	 * per run keeps them all until the sample ends, so at small N they must fit in memory. */
	uint32_t max_inner;
	/* Systems the workload registers itself, after the profile's (systems-64's 64): the storage
	 * is made with room for them. */
	uint32_t own_systems;
	uint32_t min_systems;    /* profile systems it needs registered (--systems), 0: 1 */
	/* Left out of --workloads all, run when named (the small worlds' workloads and the rows
	 * held against published suites: make small), so that make bench's time stays what the
	 * docs say. */
	bool named_only;
	/* Each run changes the state the checksum reads (a pass moves every Position): the
	 * checksum is taken after the first run, when every participant has made exactly one. */
	bool count_dependent;
	/* Its first run meets what every later one does: setup touched (and freed) the memory a
	 * run allocates, and prepare puts the storage back into the state setup left before each
	 * sample (create after turnover). A run over SETTLE_RUN_NS whose cold calibration run took
	 * no more than SETTLED_FAULTS page faults then needs no warm-up (pass.c). Not
	 * create-unreserved: its first run grows the storage, later ones find it grown. */
	bool first_run_alike;
	bool threaded;           /* swept over --threads: a row per thread count T */
	/* Swept over --history (history.h): WORKLOAD_WORLD builds its storage under each history
	 * before the clock; WORKLOAD_SPAWNS spawns inside it as the history says (only the
	 * histories that change spawning are its own); WORKLOAD_FIXED takes none. */
	enum { WORKLOAD_FIXED, WORKLOAD_WORLD, WORKLOAD_SPAWNS } history;
	bool k_fixed;            /* not swept over --components: */
	uint32_t fixed_components; /* entities have this many */
	/* The hottest system of the workload's storage, the one a storage with owning groups is
	 * asked to own (as a game groups its widest hot pass): the profile's system over the first
	 * grouped_k types of the measured set; 0: the measured system itself. A workload that
	 * measures a pass that cannot own its group (iterate-shared) names another. */
	uint32_t grouped_k;
	/* The most entities alive at once in a run of case c (NULL: c->entities), so that a
	 * --scale the interface cannot hold is refused before the run. */
	uint64_t (*peak_entities)(const struct bench_case *c);
	int (*setup)(struct run *run);
	/* Or, in two parts, for a workload that measures a storage others build the same way:
	 * build (the storage and what every workload sharing it reads: the same types under the
	 * same history draws) and adopt (what this workload adds on it: get's shuffled handles,
	 * parallel-iterate's threads). Workloads with the same `shares` (a tag object: its address
	 * is the key) build the same storage, so that a process builds it once per participant and
	 * measures each of them on a copy (a fork: pass.c). Without setup, the runner's setup is
	 * build then adopt. */
	const void *shares;
	int (*build)(struct run *run);
	int (*adopt)(struct run *run);
	int (*prepare)(struct run *run);
	int (*execute)(struct run *run);
	int (*end_sample)(struct run *run);
	int (*finish)(struct run *run);
	void (*release)(struct run *run); /* frees what setup made beyond struct run's own */
	/* After a timed sample: its extra figures (a scenario frame's phase times), `count` of
	 * them; NULL: none. */
	const double *(*figures)(struct run *run, uint32_t *count);
	/* How many figures `figures` gives for a sweep's row (0: none); a scenario's plan sets its
	 * own from the scenario. */
	uint32_t figure_count;
};

/* What one sample's timed region took, and (with trace) what the process met during it. */
struct sample_time {
	uint64_t wall_ns;     /* CLOCK_MONOTONIC */
	uint64_t cpu_ns;      /* CLOCK_THREAD_CPUTIME_ID: the thread's time on a CPU */
	uint64_t allocations; /* allocation calls inside it */
	long minflt, majflt, nvcsw, nivcsw; /* trace only: page faults, context switches */
	int cpu;                            /* trace only: the CPU it ended on */
};
/*
 * Driving one participant of a row, as the table the pass reaches it through (plan.h:
 * plan->runner), so that the measuring core knows a row's participants only by this interface:
 * workloads.c implements it for every workload, a scenario's included (workloads_runner).
 * open and setup build the participant (untimed); sample times `inner` runs (with trace, it
 * also notes what the process met: struct sample_time); figures gives the last timed sample's
 * extra figures (struct workload's figures) or NULL; finish takes the memory figures and, with
 * verify, the correctness checks and the checksum.
 */
struct bench_runner {
	int (*values_make)(struct values *v, uint32_t n, uint64_t seed, uint64_t round,
	                   uint32_t component_size);
	void (*values_free)(struct values *v);
	struct run *(*open)(const struct bench_case *c, struct bench_result *r);
	int (*setup)(struct run *run);
	/* setup in two parts, for a group that shares its storages (plan.h: group.shares): build
	 * makes the shared part on the case the run was opened with; adopt, on a copy of the
	 * process that built it, makes the run the case its bench_case pointer now describes (the
	 * caller rewrote it: another workload, T, and whether to verify). */
	int (*build)(struct run *run);
	int (*adopt)(struct run *run);
	int (*sample)(struct run *run, uint32_t inner, struct sample_time *t, bool trace);
	const double *(*figures)(struct run *run, uint32_t *count);
	int (*finish)(struct run *run, bool verify);
	void (*free)(struct run *run);
};

/* Writes the error into r (printf-style); returns -1, for `return bench_fail(...)`. */
int bench_fail(struct bench_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
