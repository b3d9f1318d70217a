/*
 * driver_child.h: what driver.c (the parent's side of a run's processes) and driver_child.c (a
 * measuring process's side) share. Internal to the two; the rest of the program uses driver.h.
 */
#ifndef ECSB_DRIVER_CHILD_H
#define ECSB_DRIVER_CHILD_H

#include <stdint.h>

#include "machine.h"
#include "pass.h"

/* The fd on which a child reports to its parent, a line per event. */
#define CHILD_FD 3

/* A measuring process's pass, with what the machine was doing (machine.h). */
void driver_watched_pass(const struct options *o, const struct plan *plan, uint32_t pass,
                         const struct pass_events *ev, struct machine_process *m);

#endif
