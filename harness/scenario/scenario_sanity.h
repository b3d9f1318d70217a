/*
 * scenario_sanity.h: what makes a scenario run's verdict mean nothing, said as warnings instead
 * of a silent answer (scenario_sanity.c). A run with a system that no entity can match, an
 * effect that never fires, a frame shorter than the clock can resolve, or a backend faster than
 * the floor or than the harness alone names a "fastest" all the same; these lines say why that
 * name may be noise or a mistake. The scenario run writes each as a CSV header line starting
 * "# warning: " and prints them on stderr at its end; the advisor puts them in its advice.
 *
 * Costs: the file's checks are a fixpoint over the kinds and systems (at most a few passes of
 * kinds x systems x 16 words); the clock's is SANITY_CLOCK_READS reads of it (a few ms where a
 * read is a system call); the frames' are a paired ratio per backend (stats.c).
 */
#ifndef ECSB_SCENARIO_SANITY_H
#define ECSB_SCENARIO_SANITY_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

enum {
	SCENARIO_WARNING_MAX = 64,
	SCENARIO_WARNING_LEN = 480,
	/* A frame is resolved when it lasts at least this many of the clock's steps: then a step
	 * is at most 1% of it. */
	SCENARIO_CLOCK_STEPS = 100,
};

struct scenario_warnings {
	uint32_t count; /* at most SCENARIO_WARNING_MAX; later ones are dropped */
	char line[SCENARIO_WARNING_MAX][SCENARIO_WARNING_LEN]; /* without the "# warning: " */
};

/* The file's own: each system that no entity can ever match (no kind has, nor can be given by
 * an effect or a system's add, all its required types while it may lack every excluded one),
 * each effect that is expected to fire less than once over warmup + frames. `where` prefixes
 * each line ("" or "at KEY=V: "). */
void scenario_sanity_file(const struct scenario *sc, const char *where,
                          struct scenario_warnings *w);

/* The clock the frames were timed on: its smallest step between two reads, and a read's cost. */
struct scenario_clock {
	bool wall; /* CLOCK_MONOTONIC; else the thread's CPU clock */
	double step_ns, read_ns;
};
void scenario_sanity_clock(bool wall, struct scenario_clock *out);

/* One participant's frames at one point: processes x reps samples (ns), NaN where none. */
struct scenario_sanity_row {
	const char *name;
	const double *samples;
	bool backend; /* a storage; else the floor or the harness alone */
	bool harness;
};
/* The frames': the shortest backend frame under SCENARIO_CLOCK_STEPS steps of the
 * clock, and each backend whose frame is decidedly shorter (95% paired interval below 1) than
 * the floor's or the harness alone's. */
void scenario_sanity_frames(const struct scenario_sanity_row *rows, uint32_t count,
                            uint32_t processes, uint32_t reps, const struct scenario_clock *clock,
                            const char *where, struct scenario_warnings *w);

/* "850 ns", "12.3 µs", "4.56 ms", "1.23 s": three significant digits. */
void scenario_sanity_duration(double ns, char *buf, size_t len);

#endif
