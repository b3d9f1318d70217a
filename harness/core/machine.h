/*
 * machine.h: what the machine was doing while a run measured, and whether two runs met it in the
 * same state.
 *
 * On a shared or virtual machine the memory system itself changes from one session to the next:
 * another tenant takes the last-level cache, the host's memory is busier, the vCPU runs slower.
 * Such changes move streaming work (a pass over packed columns) and latency-bound work (a chain of
 * dependent lookups) by different factors, so that a ratio between the two (archetype's iterate
 * against sparse's get, a backend's distance to a floor of the other kind) measured in one session
 * does not hold in another, even when each run's intervals are narrow. A run records what it met:
 *
 *   measuring side (machine.c, in build/ecsbench): each measuring process, on the CPU it is pinned
 *     to and before its first row group, takes a fingerprint of the memory system (a streaming
 *     pass and a dependent random walk, fixed sizes, about 70 ms), then watches the CPU over its
 *     pass (steal and busy ticks from /proc/stat, its own CPU time, the other tasks that ran there
 *     from /proc/PID/task/TID/stat, the load average and the run queue). The CSV's header gets the
 *     `# machine` lines (machine_write_header), the samples file a line per process.
 *   comparing side (machine_compare.c, in build/ecsbench-compare): two runs' fingerprints, and
 *     where a run has none (an older CSV) the floor rows both runs have, say whether the streaming
 *     and the random-access figures moved by factors that differ beyond what two runs of one
 *     session show (docs/comparing.md, "Machine state").
 */
#ifndef ECSB_MACHINE_H
#define ECSB_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The fingerprint's fixed sizes: the same in every run, so that two runs' figures compare. */
#define MACHINE_STREAM_ENTITIES (1u << 20) /* Position and Velocity, 8 bytes each: 16 MiB */
#define MACHINE_STREAM_PASSES 7            /* timed, after one untimed */
#define MACHINE_CHASE_LINES (1u << 20)     /* 64-byte lines: 64 MiB */
#define MACHINE_CHASE_BLOCKS 5             /* timed, after one untimed of half as many steps */
#define MACHINE_CHASE_STEPS (1u << 15)     /* steps a block */

/*
 * Two runs' machine states differ when stream over chase (each run's: the geometric mean over its
 * processes) moved by more than this factor either way from one run to the other: beyond what two
 * runs of one session show. Measured here (docs/comparing.md, "Machine state"): over six minutes
 * of our shared machine, a process's log(stream / chase) spread by 0.17 (36 processes of 12 runs),
 * so two runs of 5 processes differ by 0.108 (one standard deviation), and the floor rows of the
 * committed reference runs of one session (iterate's over get's at N = 2^20, 10 pairs of 5 runs)
 * by 0.107; x1.35 is 2.8 of them, a false "differs" in about 1 of 200 such pairs. The floor rows
 * of two runs (an older CSV has no fingerprint) are held to the same limit.
 */
#define MACHINE_SKEW_LIMIT 1.35

/* The floor rows tell the memory system's state only where their working set leaves the caches
 * closest to the core: from 2^18 entities (4 MiB a component array at k = 2). */
#define MACHINE_FLOOR_MIN_ENTITIES (1u << 18)

#define MACHINE_BUSIEST 3 /* the other tasks named per process */
/* /proc/stat's shares need a pass of at least this many of its ticks (USER_HZ, 10 ms) */
#define MACHINE_WATCH_TICKS 20

/* What one measuring process met. NaN (or -1 for cpu) where it could not be measured. */
struct machine_process {
	uint32_t process;       /* 1..P; 0: nothing received */
	int cpu;                /* the CPU it was pinned to; -1: not pinned */
	double stream_ns;       /* ns an entity of the streaming pass (the median of its passes) */
	double chase_ns;        /* ns a step of the dependent walk (the median of its blocks) */
	double fingerprint_ms;  /* what the fingerprint cost, wall time */
	double seconds;         /* its pass, wall time */
	double steal_pct;       /* steal ticks of every CPU over their ticks, during its pass */
	double cpu_steal_pct;   /* the same, of the measuring CPU */
	double busy_pct;        /* the measuring CPU's busy ticks (user to softirq) over its pass */
	double own_pct;         /* this process's CPU time (and its forks') over its pass */
	double others_pct;      /* busy_pct - own_pct, at least 0: other work on the measuring CPU */
	double others_all_pct;  /* every CPU's busy ticks less this process's own CPU time, over
	                           every CPU's ticks: other work on the machine (what a threaded row
	                           needs quiet), at least 0 */
	double load_start, load_end;          /* the 1-minute load average */
	uint32_t running_start, running_end;  /* tasks runnable (procs_running: this one included) */
	/* the busiest other tasks seen on the measuring CPU: "comm:pid:pct,..." (pct of its pass) */
	char busiest[160];
};

/* --- measuring side (machine.c) ------------------------------------------------------------ */

/* The fingerprint: fills stream_ns, chase_ns and fingerprint_ms (NaN where it could not: no
 * memory, or under valgrind, where it would take seconds and mean nothing). Memory from mmap,
 * returned before it ends: the heap the row groups find is not changed. */
void machine_fingerprint(struct machine_process *p);

/* Watching the measuring CPU over a pass: start before the first row group, end after the last. */
struct machine_watch;
struct machine_watch *machine_watch_start(int cpu);
/* Fills p's figures of the pass (all but the fingerprint's) and frees w; w NULL: NaN. */
void machine_watch_end(struct machine_watch *w, struct machine_process *p);

/* A process's figures as one line of key=value words (what a child sends its parent, and what
 * the samples file holds after "# machine "), and back; 0, or -1 if the text is not such a line. */
void machine_process_format(char *buf, size_t len, const struct machine_process *p);
int machine_process_parse(const char *text, struct machine_process *p);

/* The `# machine` lines of a CSV's header: the fingerprint (geometric means over the processes,
 * with their 95% intervals), what the machine did during the run, and one line of key=value words
 * that ecsbench-compare reads (machine_compare_read_state). With per_process (the samples file), a line
 * per process too. p: the processes' figures, count of them (those with process 0 are left out). */
void machine_write_header(FILE *f, const struct machine_process *p, uint32_t count,
                          bool per_process);

/* --- comparing side (machine_compare.c) ---------------------------------------------------- */

/* A run's machine state, from the `# machine values` line of its CSV. */
struct machine_state {
	bool recorded;          /* the CSV has the line */
	uint32_t processes;     /* with a fingerprint */
	double stream_ns, chase_ns;          /* geometric means over them */
	double stream_sd, chase_sd, skew_sd; /* standard deviations of the logs over them (NaN: < 2) */
	double steal_pct, cpu_steal_pct, others_pct;
	double load_start, load_end;
	char busiest[160];
};
/* 0, or -1 if path cannot be read (s then says not recorded). */
int machine_compare_read_state(const char *path, struct machine_state *s);

struct csv_file;
/*
 * Prints what the two runs' machine states say about carrying ratios from one to the other: a
 * first line "Machine state: differs: ...", "Machine state: agrees: ..." or "Machine state: not
 * recorded in OLD ..." (or NEW, or either), then a line for each run and, from the floor rows
 * both runs have (iterate's and get's at the largest N they share), the same question asked of
 * the floors. brief (if not NULL) gets one short line for a figure's title. Returns 1 if they
 * differ (by the fingerprints, or by the floors where a fingerprint is missing), 0 if not, -1 if
 * nothing could tell. out NULL: nothing printed (brief alone).
 */
int machine_compare_print(FILE *out, const char *old_name, const char *new_name,
                          const struct csv_file *old_csv, const struct csv_file *new_csv,
                          char *brief, size_t brief_len);

#endif
