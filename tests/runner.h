/*
 * runner.h: the one runner every test program shares (runner.c). A test is begun with its name
 * ("split/sparse/AAA"), checked with check.h's CHECK macros (whose failures runner.c prints:
 * "FAIL NAME: file:line: what"), and ended with its outcome ("ok   NAME", or "FAIL NAME" if
 * nothing said so yet); the program ends with runner_summary's "N passed, N failed", the line
 * tests/run.sh and CI count.
 */
#ifndef ECSB_RUNNER_H
#define ECSB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

/* Begins a test: its name, printf-style, for its lines. */
void runner_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The name of the test under way, for a note or a failure line of its own. */
const char *runner_test(void);
/* Ends it: counts it and prints its line. Returns ok. */
bool runner_end(bool ok);
/* "N passed, N failed"; the exit status: 0 when none failed, 1 otherwise. */
int runner_summary(void);

/* Failures as "NAME: file:line: what" on f, not "FAIL ..." lines on stdout: for a program with
 * a runner of its own (the fuzz target's, libFuzzer, whose log tests/fuzz.sh reads). */
void runner_failures_to(FILE *f, const char *name);

/* A failed check (check.h's macros call it): its line names the test under way. */
void check_failed(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
