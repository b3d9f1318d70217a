/*
 * answer.h: a run's answer to "which storage for what" as plain data (answer.c), from its CSV
 * alone: the row groups it answers, each with its fastest backend or no decision and why, the
 * summary of the uses a game has, and how many verdicts changed since the run's first
 * provisional answer. answer_report.c formats it for scripts/answer.sh, which lays it out
 * (Markdown, HTML); nothing here prints.
 *
 * A group is decided only when its own intervals allow it: every backend has an interval to
 * the lowest, none is noisy (tied, with an interval reaching beyond STATS_NOISY_RATIO), and no
 * interval spans more than ANSWER_MAX_SPAN (a comparison whose processes disagree by that much
 * says nothing). Otherwise no backend is named fastest and no ratio is given: the answer says
 * "no decision" and why (docs/trust.md). The figures are the CSV's own; the answer computes no
 * interval again, so that it and the CSV never disagree.
 *
 * Costs: a pass over the rows per group (linear search of a group's members), fine for the
 * few thousand rows of a run.
 */
#ifndef ECSB_ANSWER_H
#define ECSB_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csvread.h"

/* An interval wider than this (high / low) decides nothing. */
#define ANSWER_MAX_SPAN 10.0

enum answer_place { ANSWER_FASTEST, ANSWER_TIED, ANSWER_SLOWER, ANSWER_ABSENT };
/* A no decision's reason names at most this many of the backends it cannot split. */
#define ANSWER_NAMED_TIED 8

struct answer_member {
	const char *backend;
	const struct csv_row *row; /* NULL: a backend of the run that this group lacks */
	enum answer_place place;   /* beside the group's lowest, as the CSV calls it */
};

struct answer_group {
	const struct csv_row *lowest;   /* the row the CSV calls best (the lowest median_ns) */
	const struct csv_row *floor;    /* NULL where none */
	const struct csv_row *harness;  /* a scenario's harness alone; NULL where none */
	bool decided;
	char why[320];                  /* no decision: why, in a few words */
	/* A raced run's group (its CSV has a decision column: harness/core/race.h): decided as an
	 * equal set (every two within RACE_EQUAL: either), its backends by name and the reach of
	 * their intervals to the lowest; or, open, the processes it would take. */
	bool raced, equal;
	char set[160];                  /* "archetype or hybrid" */
	double equal_low, equal_high;
	uint32_t processes, would_take; /* the lowest's processes; what would decide it (0: ?) */
	bool frame;                     /* a scenario's whole frame (not a phase) */
	struct answer_member *members;  /* the lowest first, then by ratio, then the absent */
	uint32_t count;
};

/* A use of a storage and the workload that answers it (answer.c's table). */
struct answer_use {
	const char *label;    /* "passes over many entities" */
	const char *workload; /* the group that answers it, NULL: none in this run */
	const char *figure;   /* the figure to open, "iterate.png" */
	const struct answer_group *group; /* NULL: not measured in this run */
	bool memory;          /* answered by bytes held an entity, not by time */
};

struct answer {
	const struct csv_file *file;
	bool provisional;             /* the rows of the processes done so far */
	char provisional_note[64];    /* "provisional after D of P processes" */
	struct answer_group *groups;  /* in the answer's order: headline workloads first */
	uint32_t group_count;
	uint32_t max_threads;         /* the largest T of any row (1: no threaded workload) */
	const char **backends;        /* every backend of the run, in order of first appearance */
	uint32_t backend_count;
	struct answer_use *uses;
	uint32_t use_count;
	/* Since the first provisional answer (answer_changes) */
	bool has_changes;
	unsigned changes_total, changed, reversed;
};

/* f's answer: 0, -1 out of memory. f must outlive it. */
int answer_make(const struct csv_file *f, struct answer *a);
void answer_free(struct answer *a);

/* The verdicts of first against those of a (each backend's place in each group both have):
 * a->changes_*. 0, -1 out of memory. */
int answer_changes(struct answer *a, const struct csv_file *first);

/* A group's label as the table names it: "iterate", "parallel-iterate, T = 2" (the largest T
 * of a threaded workload), a scenario's phase with its point. */
void answer_group_name(const struct answer *a, const struct answer_group *g, char *buf,
                       size_t len);

#endif
