/*
 * advise_run.h: the advisor (build/ecsbench --advise FILE, make advise SCENARIO=FILE) as a kind
 * of run (run_kind.h) that drives runs of another: which storage design is fastest for a
 * user's scenario, and how much the choice matters. advise_run.c is its loop:
 *
 *   options   --advise FILE (with --set, --backends, --processes, --budget, --output): the
 *             file is read and checked before anything runs (exit 2 with file:line);
 *   drive     the search, each step a scenario run of its own (scenario_run.h) in processes of
 *             its own, its designs as participants (--design) whose frames are interleaved and
 *             paired by process: the survey (every backend as marked and with no marks, the
 *             floor, the harness alone), the marks of the backends that follow them (sparse
 *             components, owning groups: advise_search.h), a contest of each backend's best,
 *             the batches, and a confirmation run that the search did not see; within a time
 *             budget, with progress and an estimate; Ctrl-C or SIGTERM keeps the steps done;
 *   report    after every step the steps CSV, the advice and the advised scenario file
 *             (advise_report.h, advise_design.h), the advice on the terminal at the end.
 */
#ifndef ECSB_ADVISE_RUN_H
#define ECSB_ADVISE_RUN_H

#include "../core/run_kind.h"

extern const struct run_kind advise_run_kind;

#endif
