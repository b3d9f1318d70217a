/*
 * scenario_run_parts.h: internal to the scenario run, shared by its two files: scenario_run.c
 * (the options, the plan, the workload whose sample is a frame) and scenario_report.c (the
 * scenario CSV, its -samples.csv and the summary on stderr). Not for the rest of the harness:
 * what it sees is scenario_run.h.
 */
#ifndef ECSB_SCENARIO_RUN_PARTS_H
#define ECSB_SCENARIO_RUN_PARTS_H

#include <stdint.h>
#include <stdio.h>

#include "../core/options.h"
#include "scenario.h"

struct collection;

/*
 * --design's participants (scenario_run.c, add_design): each an ops copy under the design's
 * name, the scenario its frames run on, and the text given; the report names them in its header.
 */
struct scenario_design {
	struct ecs_ops ops;
	char name[48];
	struct scenario *sc;
	const char *text; /* as given */
};
extern struct scenario_design scenario_designs[MAX_LIST];
extern uint32_t scenario_design_count;

/* The scenario a participant's frames run on: its design's, or the point's. */
const struct scenario *scenario_design_point(const struct ecs_ops *ops,
                                             const struct scenario *point);

/* The run kind's report_write (run_kind.h): the scenario CSV, the samples, the summary. */
int scenario_report_write(const struct collection *c, FILE *csv, FILE *samples, FILE *json);

#endif
