/*
 * run_kind.h: a kind of run, as the backends are a kind of storage: one const ops struct per
 * kind, in a table that main.c hands the command line (cli.c), which chooses the kind asked for.
 * The workload sweep (sweep_run.c) and the scenario run (scenario_run.c) each supply their
 * options, their plan (whose groups carry their figures: struct group), and their report
 * writer; the stages between (plan, pass, driver, collection) take plain data and never ask
 * which kind they serve.
 */
#ifndef ECSB_RUN_KIND_H
#define ECSB_RUN_KIND_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "collection.h"
#include "options.h"
#include "plan.h"

struct run_kind {
	/* Its options (cli.h): those it takes, with its defaults and whether giving one asks for
	 * this kind; its part of --help; what it says of an option it does not take. */
	const struct cli_kind *cli;
	/* Checks the options together, the kind's defaults written (cli.c), and resolves them (the
	 * kind's own data in o->kind_data, the default output); exits 2 on a bad one, nothing run
	 * or touched. */
	void (*options)(struct options *o);
	/* The row groups, in the order they are measured; -1 if out of memory. */
	int (*plan_make)(const struct options *o, struct plan *p);
	/* The CSV and its raw samples (and with --format json, json: google benchmark's JSON,
	 * gbench.h; NULL otherwise): the number of rows the CSV has, or -1 if out of memory. */
	int (*report_write)(const struct collection *c, FILE *csv, FILE *samples, FILE *json);
	/* Optional: a kind that is a driver of runs of another kind (the advisor: each of its
	 * steps a scenario run in a process of its own) takes over once its options are checked,
	 * instead of the plan, the pass and the report above; returns the exit status. */
	int (*drive)(const struct options *o);
};

#endif
