/*
 * collection.h: every process's samples and rows, gathered as the pass's events arrive
 * (collection.c), with the checks that need them together: the participants of a group agree
 * on their checksum in every process, and a failure in any process fails the row.
 */
#ifndef ECSB_COLLECTION_H
#define ECSB_COLLECTION_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"
#include "options.h"
#include "plan.h"

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
/* Rows that ran to their end in the last process and did not fail. */
unsigned collection_good_rows(const struct collection *c);

#endif
