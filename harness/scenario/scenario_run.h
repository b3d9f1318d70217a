/*
 * scenario_run.h: a scenario run (build/ecsbench --scenario FILE [--sweep KEY=A..B or
 * KEY=V1,V2,...]) as a kind
 * of run (run_kind.h), measured by the harness's own driver (driver.h), so that its rows get the
 * same processes, intervals, ratios and checks as every other row. scenario_run.c is the glue
 * (its report, below: scenario_report.c):
 *
 *   options   --scenario, --set, --sweep, --points, --spacing: the file is read and every point
 *             of the sweep resolved and checked before anything runs (exit 2 with file:line or
 *             a message naming the option); the workload options that do not apply are refused;
 *   plan      one row group per point (a lone scenario is one point), whose participants are the
 *             backends, then the floor (the frames over plain arrays) and the harness alone (the
 *             frames with no storage and no work: what the harness costs a frame);
 *   workload  a participant's sample is one frame (inner 1): the warm-up samples are the
 *             scenario's warmup frames, the timed samples its frames, interleaved across the
 *             participants as for every workload; each frame's phase times and allocations go
 *             to the parent as extra per-sample figures (pass_events.figures, a "P" line);
 *   report    its own CSV (default results/scenario-NAME.csv, or scenario-NAME-KEY.csv for a
 *             sweep; the raw figures of every frame in -samples.csv beside it): a row per point,
 *             participant and phase (phase `frame` is the whole frame), with the statistics of
 *             stats.h, the ratio to the fastest backend of that phase, memory, allocations per
 *             frame and the checksum; for a sweep, where each pair of backends crosses.
 */
#ifndef ECSB_SCENARIO_RUN_H
#define ECSB_SCENARIO_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "../core/run_kind.h"
#include "scenario.h"


/* The points of a run: the scenario as given (--set applied), and per point the scenario with
 * the swept key set. */
struct scenario_run {
	struct scenario *base;
	char name[64];         /* the file's name without folder and .ini */
	const char *sweep_key; /* NULL: no sweep, one point */
	uint32_t point_count;
	struct scenario *points;
	char (*values)[32];     /* each point's value as given to scenario_set ("1.5%") */
	double *x;              /* and as a number (1.5) */
	bool geometric, percent;
	/* A sweep over a list (KEY=V1,V2,...): listed; categorical when a value is not a number
	 * (x is then its place in the list, 1, 2, ...). */
	bool listed, categorical;
	struct workload *workloads; /* per point: the scenario workload, named after the point */
};

/* The scenario run's kind (run_kind.h): chosen by --scenario, --set, --sweep, --points,
 * --spacing, --unmarked or --design (its table of options: scenario_cli, scenario_run.c). Its
 * options check them all (exits 2 on any problem, nothing touched) and resolve the points into
 * o->kind_data (a struct scenario_run), the default backends and output, and the sampling
 * (o->reps = frames, o->warmup = warmup frames, o->inner = 1). */
extern const struct run_kind scenario_run_kind;
/* --set KEY=VALUE, repeatable: the advisor's too (it passes them to its steps). */
extern const struct cli_option scenario_opt_set;

#endif
