/*
 * collection.h: every process's samples and rows, gathered as the pass's events arrive
 * (collection.c), with the checks that need them together (the participants of a group agree
 * on their checksum in every process, and a failure in any process fails the row) and each
 * group's race (race.h), looked at after every process that measured the group.
 */
#ifndef ECSB_COLLECTION_H
#define ECSB_COLLECTION_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"
#include "options.h"
#include "pass.h"
#include "plan.h"
#include "race.h"

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

/* What the driver knows of a group across processes: its race (race.h), the processes that
 * measured it, and what they cost (pass.h: struct group_timing). */
struct group_record {
	struct race race;
	uint32_t processes;        /* processes that measured it */
	uint32_t *passes;          /* which (0-based), in order: o->processes of them at most */
	struct group_timing last;  /* in the last process that measured it */
	uint32_t last_measured;    /* participants that process measured */
	struct group_timing total; /* over every process */
	uint64_t build_ns;         /* its share of its family's builds, over every process */
};

struct collection {
	const struct options *o;
	const struct plan *plan;
	struct row_data *rows; /* group-major, plan->max_participants per group */
	struct sampling *sampling; /* as decided by the first process, like plan->sampling */
	struct group_record *groups; /* per group of the plan */
	struct machine_process *machine; /* per process, what it met (machine.h); process 0: none */
	/* Per process: set aside by the race (collection_levels): other work took more than
	 * COLLECTION_BUSY_PCT of the machine's CPUs while it measured (machine.h: others_all_pct) */
	bool *busy;
	unsigned failures, mismatches;
	uint32_t processes_done;
	uint64_t process_overhead_ns; /* every process's time beyond its groups (driver.c) */
	uint64_t run_ns;              /* the processes' time so far, start to end */
	bool tty, progress_shown; /* where messages must start on a fresh line */
	/* How the first measuring process was pinned, and glibc malloc's mode there, for the
	 * CSV's header (pass_process_setup). */
	char pinning[512];
	char malloc_mode[256];
};

int collection_init(struct collection *c, const struct options *o, const struct plan *plan);
void collection_free(struct collection *c);
struct row_data *collection_row(struct collection *c, uint32_t g, uint32_t p);
/* The events of process `pass` go into the collection through these. */
void collection_sample(struct collection *c, uint32_t pass, uint32_t g, uint32_t p,
                       uint32_t round, double ns, double wall_ns);
void collection_add_row(struct collection *c, uint32_t pass, uint32_t g, uint32_t p,
                        const struct bench_result *r);
void collection_group_end(struct collection *c, uint32_t pass, uint32_t g);
void collection_figures(struct collection *c, uint32_t pass, uint32_t g, uint32_t p,
                        uint32_t round, const double *v, uint32_t count);
/* A message on stderr that starts on its own line even while progress is shown. */
void collection_message(struct collection *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Rows that ran to their end in the last process that measured them and did not fail. */
unsigned collection_good_rows(const struct collection *c);

/* Participant p of group g left the race in process `pass` (pass.h: left). */
void collection_left(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, int how,
                     uint32_t rounds, int behind);
/* Where group g's time went in process `pass` (pass.h: timing); the group was measured there. */
void collection_timing(struct collection *c, uint32_t pass, uint32_t g,
                       const struct group_timing *t);
/* The levels of group g's participants in each process that measured it (race.h:
 * race_levels): level[q * participants + p] for its q-th process, of the first `processes` of
 * them; NaN where p was not measured. level holds processes x participants values. */
void collection_levels(const struct collection *c, uint32_t g, uint32_t processes, double *level);
/* Other work on the machine beyond which a process's samples are set aside from the race:
 * another program's memory traffic on the other CPU made create-batch at N = 2^18 three to five
 * times slower and its pairs of backends scatter 0.5x to 1.5x (a process of ours, loaded by a
 * build beside it), where the undisturbed processes of the same run agreed within a few %. A
 * group sets its busy processes aside while they are fewer than half of its own: on a machine
 * busy throughout, nothing is set aside (the CSV says how many were). */
#define COLLECTION_BUSY_PCT 10.0
/* Process `pass` ended: whether other work made it busy (its machine line, machine.h). */
void collection_process_end(struct collection *c, uint32_t pass);
/* Whether group g's race sets process `pass` aside (see COLLECTION_BUSY_PCT). */
bool collection_set_aside(const struct collection *c, uint32_t g, uint32_t pass);

/* A look at group g's race after a process that measured it (race_look; last: it gets no
 * more), failed rows taken out first; true when the race changed. */
bool collection_look(struct collection *c, uint32_t g, bool last);

#endif
