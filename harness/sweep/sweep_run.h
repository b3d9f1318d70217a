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

/* The race's defaults for a sweep (docs/method.md, "The race"): the most processes a row
 * group may have (--processes), the most timed rounds a process gives it (--reps), and the
 * run's budget (--budget: make bench's BUDGET, less the figures' time). */
#define SWEEP_PROCESSES 32u
#define SWEEP_ROUNDS 24u
#define SWEEP_BUDGET_S 270.0
#define SWEEP_MIN_BUDGET_S 10.0

extern const struct run_kind sweep_run_kind;
/* Its options (sweep_options.c), and the names --list shows of its workloads and histories. */
extern const struct cli_kind sweep_cli;
/* The CSV's columns (sweep_columns.h) that --columns prints. */
extern const struct cli_names sweep_workload_names, sweep_history_names, sweep_column_names;
/* --twin BACKEND[:FACTOR]: the backend once more, after the listed ones, under the name
 * BACKEND~2... (or BACKEND~xFACTOR, made FACTOR times slower); exits 2 on a bad one. */
void sweep_add_twin(struct options *o, const char *spec);

/* The entities of workload w at swept n (or its own fixed count, times --scale). */
uint32_t sweep_workload_entities(const struct options *o, const struct workload *w, uint32_t n);
/* Whether workload w is measured under history h (history.h): a workload that builds its
 * storage, under every history; one that spawns in its clock, under those that change spawning;
 * one that takes none, under none (h NULL: it is run once). */
bool sweep_workload_takes(const struct workload *w, const struct history *h);
/* The sweep's CSV and its samples (sweep_report.c): the rows written, or -1 if out of memory. */
int sweep_report_write(const struct collection *c, FILE *csv, FILE *samples, FILE *json);

#endif
