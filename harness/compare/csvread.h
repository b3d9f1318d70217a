/*
 * csvread.h: reads what ecsbench writes (csvread.c): a results CSV and its raw samples, for the
 * tools that compare runs (compare.c) and the answer (compare_answer.c). Columns are found by
 * their names in the header row; the '#' lines before it are kept for the reports.
 */
#ifndef ECSB_CSVREAD_H
#define ECSB_CSVREAD_H

#include <stdbool.h>
#include <stdint.h>

struct csv_row {
	/* workload: named with its history as the tools name it ("iterate", "iterate-pristine":
	 * csvread.c, workload_with_history). In a scenario's CSV (build/ecsbench --scenario): profile
	 * is the scenario's name, workload the phase ("frame", "system:move"), with the point of a
	 * sweep ("frame at 0.5%"), entities the entities at the start, components 0. */
	char backend[32], profile[64], workload[64];
	uint32_t entities, components, processes, reps;
	uint32_t threads; /* T of a threaded workload's row; 1 where the file has no such column */
	double median, ci_low, ci_high; /* ci NaN when the file has none */
	bool noisy;
	/* What the answer reads (compare_answer.c); NaN, or "", where the file has none. */
	char base[48];        /* the workload without its history (a scenario: the phase) */
	bool headline;        /* lived-in, or a workload that takes no history */
	double ns_per_entity; /* ns_per_entity as the file states it */
	double bytes_per_entity; /* live_bytes_per_entity */
	double ratio, ratio_low, ratio_high; /* ratio_to_best and its interval */
	char vs_best[8];      /* best, slower, tied, equal */
	/* The race (a file of an ecsbench that races, harness/core/race.h; "" and 0 otherwise):
	 * the row's place (in, left, screened, calibration), the processes it had when it left,
	 * its group's decision (fastest, equal, open) and the level of its ratio's interval. */
	char race[16];
	uint32_t race_process;
	char race_behind[32];
	char decision[12];
	double ratio_level;
	char invalid[200];    /* why its figure is no result (the invalid column), or "" */
	double floor_ratio, floor_low, floor_high; /* ratio_to_floor and its interval */
	/* A scenario's: the point of a sweep, and the frame-time tails p95, p99 and the longest
	 * frame with their intervals; growth_frames, growth_pct and alloc_frames as written. */
	char sweep_key[48], sweep_value[24];
	double tail[3], tail_low[3], tail_high[3];
	char growth[24], growth_pct[16], alloc_frames[24];
	/* The raw samples of the row (from the -samples.csv beside it), processes x reps (a raced
	 * run's: the file's sample_processes x sample_rounds), NaN where missing; NULL when there
	 * is no samples file. */
	double *samples;
};

struct csv_file {
	char path[4096];
	char commit[64], date[32], cpu[160];
	struct csv_row *rows;
	uint32_t count;
	bool has_ci;
	bool has_samples;
	bool has_ratios; /* ratio_to_best and vs_best (an ecsbench from before paired ratios: not) */
	bool scenario; /* a scenario's CSV: a row per participant and phase (see csv_row) */
	/* A raced run's (a race column: harness/core/race.h): its samples are laid out by the run's
	 * process numbers and rounds, sample_processes x sample_rounds a row (the most of the
	 * samples file), NaN where a row has none: a row's processes are not the run's first ones. */
	bool raced;
	uint32_t sample_processes, sample_rounds;
	/* Its '#' lines, without the "# ", in order (the run's header: what it measured, its
	 * warnings, a scenario's crossovers). */
	char **notes;
	uint32_t note_count;
};

/* Reads path (and, with samples, path's -samples.csv). 0, or -1 with the reason in err. */
int csv_read(const char *path, bool samples, struct csv_file *f, char *err, size_t errlen);
void csv_free(struct csv_file *f);
/* The row of f with the same case as r (backend, workload, entities, components, threads), or
 * NULL. */
struct csv_row *csv_find(const struct csv_file *f, const struct csv_row *r);
/* Same case, any backend: for rows of one group. */
bool csv_same_group(const struct csv_row *a, const struct csv_row *b);
/* The first of f's '#' lines that starts with prefix (without "# "), or NULL. */
const char *csv_note(const struct csv_file *f, const char *prefix);

#endif
