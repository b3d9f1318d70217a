/*
 * driver.h: the processes of a run (driver.c): up to P of them, one after the other, each a
 * fresh exec of this program with its own layout that runs one pass (pass.h) over the groups
 * and participants the driver gives it (the race: race.h, and the run's budget); their events
 * come back on a pipe into the collection (collection.h), where each group's race is looked at
 * after every process; progress on stderr.
 */
#ifndef ECSB_DRIVER_H
#define ECSB_DRIVER_H

#include "collection.h"
#include "options.h"
#include "plan.h"

/* What the caller does after each measuring process that may not be the last, with the
 * processes so far in c (c->processes_done): main.c shows the answer so far (--provisional). */
struct driver_after {
	void (*process_done)(void *ctx, const struct collection *c);
	void *ctx;
};

/* Runs the processes (or, with --processes 1, the one pass in this process) into c; after, when
 * not NULL, is told of each process done but the last.
 * Returns 0, or -1 if a process died or the run was stopped (c says nothing complete). */
int driver_run(const struct options *o, struct plan *plan, struct collection *c,
               const struct driver_after *after);
/* The body of a child process: one pass, its events written to fd 3. Returns the exit code. */
int driver_child_main(const struct options *o, struct plan *plan);
/* Kills the measuring process under way, if any: for a signal handler (async-signal-safe). */
void driver_stop(void);
/* Where the run is ("process 1, row group 3 of 65: iterate N=1024 k=2 lived-in, backend
 * sparse (a sample)"), or NULL before its first row group: for a signal handler's message (reads
 * no more than a static text). */
const char *driver_position(void);

#endif
