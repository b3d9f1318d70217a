/*
 * cli.h: build/ecsbench's command line (cli.c): every option read into struct options
 * (options.h) and checked before anything runs. Every bad value ends the program with one line
 * naming it and exit status 2, with nothing run and no file touched: lists with an empty or
 * repeated item, numbers out of range, an output that is not a regular file in a writable
 * folder. What an option means to a kind of run is that kind's to check (run_kind.h).
 */
#ifndef ECSB_CLI_H
#define ECSB_CLI_H

#include <stdint.h>

#include "options.h"

/* A table of names that an option resolves and --list shows (the workloads, the histories),
 * supplied by the run kind that owns it, so that the command line needs no kind's room. */
struct cli_names {
	size_t (*count)(void);
	const char *(*name_at)(size_t i);
	const char *(*about_at)(size_t i); /* the line --list shows beside the name */
	const void *(*find)(const char *name); /* NULL: no such name */
};
struct cli_tables {
	const struct cli_names *workloads, *histories;
	const struct cli_names *columns; /* the CSV's, that --columns prints */
};

/* Parses argv into o, names from t; --help, --list and --columns print and exit 0; exits 2 on
 * any bad value. */
void cli_parse(int argc, char **argv, const struct cli_tables *t, struct options *o);
/* Applies a list option as if given on the command line (code: its short code, 'b' backends,
 * 'w' workloads, 'n' entities, 'k' components, 1020 threads, 'H' histories): a kind's
 * defaults. Exits 2 on a bad item. */
void cli_apply_list(struct options *o, int code, const char *text);
/* --twin BACKEND: the backend once more, after the listed ones, under the name BACKEND~2... */
void cli_add_twin(struct options *o, const char *name);
/* A whole unsigned decimal number within [lo, hi], or exit 2 naming it (`what`). */
uint64_t cli_number(const char *what, const char *text, uint64_t lo, uint64_t hi);
/* A time as --budget gives it (600, 90s, 10m, 1h) in seconds, from lo_s to hi_s; a usage error
 * (exit 2) naming `option` otherwise. */
double cli_duration(const char *option, const char *text, double lo_s, double hi_s);
/* Checks that o->output can be written (exits 2 if not). */
void cli_check_output(struct options *o);

#endif
