/*
 * cli.h: build/ecsbench's command line (cli.c). Each kind of run owns its options: a table hung
 * from its run_kind (struct cli_kind: the options it takes, each with its default as a value of
 * the option's own type, and what it says of an option it does not take). getopt_long's table,
 * --help and the checks that an option goes with the kind of run asked for are all made from
 * those tables, so that an option is written once, where its kind lives.
 *
 * Every bad value ends the program with one line naming it and exit status 2, with nothing run
 * and no file touched: lists with an empty or repeated item, numbers out of range, an option that
 * the kind of run does not take, an output that is not a regular file in a writable folder.
 * What options mean together is the kind's to check (run_kind.h: options).
 */
#ifndef ECSB_CLI_H
#define ECSB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

struct run_kind;

/* A value of an option, as a default: of the option's own type (its set and show know which). */
union cli_value {
	uint64_t number; /* a count, a size, a seed */
	double real;     /* a factor (--scale) */
	struct {
		uint32_t from, to; /* from, 2 from, 4 from, ... up to to */
	} doublings;
	struct {
		uint32_t n, at[4]; /* these n counts, in order */
	} counts;
	const void *entry; /* an entry of a table of names (a profile, a history); NULL: every one */
};

/* One option of the command line, --NAME [VALUE]. */
struct cli_option {
	const char *name;
	const char *value; /* its value as --help names it ("LIST"); NULL: it takes none */
	/* Its lines in --help, '\n' between them (the generator indents them); NULL: not shown
	 * (the driver's own options, the tests' and the scripts'). */
	const char *help;
	/* Reads text (NULL for an option that takes none) into o, or ends the program with a line
	 * that names the bad value (options_usage_error). */
	void (*read)(struct options *o, const struct cli_option *opt, const char *text);
	/* A comma list's reader of one item, for cli_read_list (what: the list's noun). */
	void (*item)(struct options *o, const char *text);
	/* Writes a default, v, into o; and writes it as --help shows it. NULL: it has none. */
	void (*set)(struct options *o, const struct cli_option *opt, const union cli_value *v);
	void (*show)(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size);
	/* Its default for every kind of run that takes it (NULL: none, or each kind's own). */
	const union cli_value *def;
	/* For the shared readers and writers below: where the value goes in struct options
	 * (offsetof), a repeatable option's count beside it, the value's name in messages, and a
	 * number's range. */
	size_t field, count;
	const char *what;
	uint64_t lo, hi;
};

/* An option as a kind of run takes it; or, option NULL and group set, the takes of a shared
 * list (ending with {0}; no group inside it) in this place. */
struct cli_take {
	const struct cli_option *option;
	const struct cli_take *group;
	const union cli_value *def; /* this kind's default (NULL: the option's own) */
	const char *shown;          /* the default as --help says it, where words say it better */
	const char *help;           /* what it means to this kind, if not the option's own words */
	bool chooses;               /* giving it asks for this kind of run */
};

/* What a kind says of an option it does not take: "--NAME does not apply to NOUN (why)", or,
 * with says, "--NAME says". */
struct cli_refusal {
	const char *name, *why, *says;
};

/* A kind of run as the command line knows it (run_kind.h: cli). */
struct cli_kind {
	const char *noun;    /* "a scenario run" */
	const char *why;     /* why it refuses an option it does not take, unless the refusal says */
	const char *heading; /* its part of --help begins with these lines (NULL: none) */
	const char *also;    /* before the list of options it shares with a kind above it */
	const char *note;    /* its part of --help ends with these lines (NULL: none) */
	const struct cli_take *takes;        /* ends with {0} */
	const struct cli_refusal *refusals;  /* ends with {0} */
};

/* A table of names that --list shows (the workloads, the histories), supplied by the run kind
 * that owns it, so that the command line needs no kind's room. */
struct cli_names {
	size_t (*count)(void);
	const char *(*name_at)(size_t i);
	const char *(*about_at)(size_t i); /* the line --list shows beside the name */
};
struct cli_tables {
	const struct cli_names *workloads, *histories;
	const struct cli_names *columns; /* the CSV's, that --columns prints */
};

/* Parses argv into o: every option read by its own reader, the kind of run chosen (the first of
 * kinds that an option given asks for; the last kind if none does), every option given checked to
 * be one the kind takes, and the kind's defaults written for those not given. --help, --list
 * and --columns print and exit 0; exits 2 on any bad value. Returns the kind. */
const struct run_kind *cli_parse(int argc, char **argv, const struct cli_tables *t,
                                 const struct run_kind *const *kinds, size_t kind_count,
                                 struct options *o);
/* Whether the command line gave the option. */
bool cli_given(const struct options *o, const struct cli_option *opt);

/* The options more than one kind of run takes, and those the stages below read (cli.c). */
extern const struct cli_option cli_opt_backends, cli_opt_processes, cli_opt_reps, cli_opt_output,
    cli_opt_no_floor, cli_opt_no_pin, cli_opt_layout, cli_opt_malloc_default, cli_opt_clock,
    cli_opt_trace_samples, cli_opt_format, cli_opt_derived, cli_opt_provisional, cli_opt_budget;
/* How a run is measured and written (--no-pin, --layout, ... --derived), as a scenario run and
 * the advisor, whose steps are scenario runs, both take them: a group for a kind's takes. */
extern const struct cli_take cli_measuring_takes[];

/* Shared readers (opt->field, opt->what, opt->lo, opt->hi) and writers of defaults. */
void cli_read_flag(struct options *o, const struct cli_option *opt, const char *text);
void cli_read_u32(struct options *o, const struct cli_option *opt, const char *text);
void cli_read_u64(struct options *o, const struct cli_option *opt, const char *text);
void cli_read_text(struct options *o, const struct cli_option *opt, const char *text);
/* A comma list: emptied (opt->count), then opt->item on each item (cli_each_item; opt->what). */
void cli_read_list(struct options *o, const struct cli_option *opt, const char *text);
/* A repeatable option: each value after the last (opt->count: how many), at most MAX_LIST. */
void cli_read_texts(struct options *o, const struct cli_option *opt, const char *text);
void cli_set_u32(struct options *o, const struct cli_option *opt, const union cli_value *v);
void cli_set_u64(struct options *o, const struct cli_option *opt, const union cli_value *v);
void cli_show_number(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size);
/* "all": a list's default of every name (v->entry NULL). */
void cli_show_every(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size);

/* Splits a comma list; calls item() on each piece, without the spaces around it. An empty list
 * or piece is refused, naming the list (what: "backend"). */
void cli_each_item(const char *what, const char *arg, void (*item)(struct options *, const char *),
                   struct options *o);
/* The index of the one named among a table's n names (name_at); else a usage error naming the
 * valid ones (", all" after them where the list takes all). */
size_t cli_name_index(const char *noun, const char *name, const char *(*name_at)(size_t), size_t n,
                      bool all);
/* Appends *entry (size bytes: a pointer into a table, a count) to a list of *count, at most
 * MAX_LIST; one it has already is a usage error ("history 'NAME' is listed twice", "too many
 * histories"). */
void cli_list_add(void *list, size_t *count, const void *entry, size_t size, const char *noun,
                  const char *plural, const char *name);
/* "hash, tree, vector": the n names, for a message. */
const char *cli_valid_names(const char *(*name_at)(size_t), size_t n);
/* N, or A..B: the counts A, 2A, 4A, ... up to B, each 1..max, into *from and *to (A = B for a
 * single N); parse reads a count (cli_number, or one with suffixes). noun names them in the
 * messages ("entity": "entity count", "entity range"). */
void cli_doublings(const char *noun, const char *item, uint64_t max,
                   uint64_t (*parse)(const char *, const char *, uint64_t, uint64_t),
                   uint64_t *from, uint64_t *to);
/* A whole unsigned decimal number within [lo, hi], or exit 2 naming it (`what`). */
uint64_t cli_number(const char *what, const char *text, uint64_t lo, uint64_t hi);
/* A time as --budget gives it (600, 90s, 10m, 1h) in seconds, from lo_s to hi_s; a usage error
 * (exit 2) naming `option` otherwise. */
double cli_duration(const char *option, const char *text, double lo_s, double hi_s);
/* The CPUs this process may run on: the most threads a row may use. */
uint32_t cli_cpus_usable(void);
/* Checks that o->output can be written (exits 2 if not). */
void cli_check_output(struct options *o);

#endif
