/*
 * sweep_run.h: the workload sweep, the kind of run that measures every workload over N, k, T and
 * histories (sweep_run.c; its CSV: sweep_report.c).
 */
#ifndef ECSB_SWEEP_RUN_H
#define ECSB_SWEEP_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/cli.h"
#include "../core/run_kind.h"

extern const struct run_kind sweep_run_kind;
/* The names --workloads and --history take, for the command line (cli.h). */
extern const struct cli_names sweep_workload_names, sweep_history_names;

/* The entities of workload w at swept n (or its own fixed count, times --scale). */
uint32_t sweep_workload_entities(const struct options *o, const struct workload *w, uint32_t n);
/* Whether workload w is measured under history h (history.h): a workload that builds its
 * storage, under every history; one that spawns in its clock, under those that change spawning;
 * one that takes none, under none (h NULL: it is run once). */
bool sweep_workload_takes(const struct workload *w, const struct history *h);
/* The sweep's CSV and its samples (sweep_report.c): the rows written, or -1 if out of memory. */
int sweep_report_write(const struct collection *c, FILE *csv, FILE *samples, FILE *json);

#endif
