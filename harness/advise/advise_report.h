/*
 * advise_report.h: what the advisor writes (advise_report.c), formatted from its record
 * (advise_state.h) and nothing else:
 *   - the steps CSV (advise-NAME.csv): a row per design of every step, its frame with its 95%
 *     interval across processes, its ratio to the step's reference (the best so far) or to the
 *     step's fastest with the interval's level, and the step's decision; header lines as every
 *     CSV of the harness has them ("# ..."), the survey's warnings among them ("# warning: ");
 *   - the advice (advise-NAME.md, and the same text on the terminal): the design, its
 *     confirmed gain, how much the choice matters and why, the warnings, the steps, what was
 *     not tried.
 * Both are rewritten whole after every step (a temporary file renamed), so that an interrupted
 * search leaves what it found.
 */
#ifndef ECSB_ADVISE_REPORT_H
#define ECSB_ADVISE_REPORT_H

#include <stdio.h>

#include "advise_state.h"

/* 0, or -1 with a message on stderr. */
int advise_report_csv(const struct advisor *a, const char *path);
int advise_report_markdown(const struct advisor *a, const char *path);
/* The advice's text to f. */
void advise_report_advice(const struct advisor *a, FILE *f);

#endif
