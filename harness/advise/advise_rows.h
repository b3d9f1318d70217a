/*
 * advise_rows.h: what one step of the advisor measured, read back from its scenario run's
 * samples file (advise_rows.c): every participant's frames and phases, process by process, as
 * the run wrote them (scenario_report.c's -samples.csv), and the run's warnings; and the
 * statistics the advisor reads from them, each one of stats.h's (a row's centre and interval,
 * a paired ratio, a row group's best and its Bonferroni comparisons), as plain data.
 *
 * Costs: reading is linear in the file (a line per participant, process and frame); a ratio
 * sorts each process's rounds (stats.c).
 */
#ifndef ECSB_ADVISE_ROWS_H
#define ECSB_ADVISE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { ADVISE_NAME_SIZE = 48, ADVISE_MAX_ROWS = 72, ADVISE_MAX_PHASES = 80,
       ADVISE_MAX_WARNINGS = 32, ADVISE_WARNING_LEN = 480 };

struct advise_rows {
	uint32_t count, processes, reps, phases;
	char name[ADVISE_MAX_ROWS][ADVISE_NAME_SIZE]; /* the participants: designs, floor, harness */
	char phase_name[ADVISE_MAX_PHASES][ADVISE_NAME_SIZE]; /* spawn, system:NAME, ... */
	double *frame; /* count x processes x reps, NaN where none */
	double *phase; /* count x phases x processes x reps */
	uint32_t warning_count;
	char warning[ADVISE_MAX_WARNINGS][ADVISE_WARNING_LEN]; /* the "# warning: " lines' text */
};

/* Reads a scenario run's samples file. 0, or -1 with a message (r is then empty). */
int advise_rows_read(const char *path, struct advise_rows *r, char *err, size_t errlen);
void advise_rows_free(struct advise_rows *r);
/* The participant named so, or -1. */
int advise_rows_find(const struct advise_rows *r, const char *name);
/* Participant i's frames, or its phase ph's (processes x reps). */
const double *advise_rows_frame(const struct advise_rows *r, uint32_t i);
const double *advise_rows_phase(const struct advise_rows *r, uint32_t i, uint32_t ph);
/* The phase named so, or -1. */
int advise_rows_phase_index(const struct advise_rows *r, const char *name);

/* A row's centre (the CSV's median_ns) and its 95% interval across processes. */
struct advise_centre {
	double ns, low, high;
	bool has_interval;
};
void advise_rows_centre(const struct advise_rows *r, const double *samples,
                        struct advise_centre *out);

/* x / y paired by process (stats_ratio) at two-sided confidence `level`. */
struct advise_ratio {
	double ratio, low, high, level;
	bool has_interval;
};
bool advise_rows_ratio(const struct advise_rows *r, const double *x, const double *y,
                       double level, struct advise_ratio *out);
/* "faster" (the interval below 1), "slower" (above), or "tied" (it holds 1, or there is none). */
const char *advise_ratio_verdict(const struct advise_ratio *q);

/*
 * A row group of the participants `which` (count of them), on the frame (phase -1) or a phase:
 * the best (stats_group: the lowest centre) and each one's ratio to it with the group's
 * Bonferroni interval. Returns the index in `which` of the best, or -1.
 */
int advise_rows_group(const struct advise_rows *r, const uint32_t *which, uint32_t count,
                      int phase, struct advise_centre *centre, struct advise_ratio *vs_best);

#endif
