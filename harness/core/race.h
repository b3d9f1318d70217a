/*
 * race.h: a row group's race (race.c): which of its backends are still measured, which left
 * and why, and what the group's answer is, decided look by look as processes arrive. Plain
 * data in and out, no I/O: the driver updates a race after each measuring process, the sweep's
 * report writes its figures, and make compare's statistics replay it from a samples file.
 *
 * The model (docs/method.md, "The race"). A process measures a group in rounds; every round
 * takes one sample of each participant still measured, in a fresh random order, so that a slow
 * stretch of the machine falls on a whole round. Per process, Tukey's median polish of the log
 * samples (participants by rounds) gives each participant a level with the rounds' common part
 * taken out: what a round did to everyone cancels, a sample one participant alone lost is
 * outvoted. Levels are compared across processes, the unit that varies (heap and address
 * layout, the machine's state): the paired difference of two participants' levels in each
 * process they share, their mean, and Student's t on (processes in common - 1) degrees of
 * freedom. Rounds within processes: the rounds make each process's level precise, only more
 * processes make the comparison so.
 *
 * The race: looks at the group's processes (after its RACE_FIRST_LOOK-th, then each time the
 * processes have grown by half again: 4, 6, 9, 14, 21, 32, and after the last process it has): a
 * backend leaves when it is decidedly more than RACE_MARGIN slower than another still in the
 * race; the group is decided when one backend is left (the fastest), or when every two of
 * those left are within RACE_EQUAL of each other (equal: either). Each look's intervals are at a
 * level that counts every comparison with the best and every look the run may make: an
 * alpha-spending function (Lan and DeMets), RACE_ALPHA x processes / the most processes the
 * group may have, each look spending what the function grew since the look before, split over
 * the comparisons of the backends in the race after the first process (Bonferroni); so the
 * fastest leaves, or a backend more than RACE_EQUAL slower is called equal, in at most
 * RACE_ALPHA of groups whenever the run stops.
 *
 * Before the looks, in the first process only, a screen takes out the far slower: a backend
 * whose calibration run took RACE_CALIBRATION_RATIO times another's and at least
 * RACE_CALIBRATION_NS, or that was more than RACE_SCREEN_RATIO slower than another in each of
 * its first RACE_SCREEN_ROUNDS rounds or more, the warm-up round counted (a process's layout
 * moves a pair by far less: docs/method.md), leaves the race with the figures it has.
 */
#ifndef ECSB_RACE_H
#define ECSB_RACE_H

#include <stdbool.h>
#include <stdint.h>

#define RACE_ALPHA 0.05
#define RACE_FIRST_LOOK 4u          /* processes before the first look of the answer's rows */
#define RACE_LOOK_GROWTH 1.5        /* the next look when the processes have grown this much */
#define RACE_PLOT_PROCESSES 3u      /* the most a group the answer does not read has: one look */
#define RACE_MARGIN 1.03            /* "slower" means beyond this: twins drift up to ~2% */
#define RACE_EQUAL 1.10             /* "equal": every two within this */
#define RACE_SCREEN_RATIO 2.0
/* Sure in one process: more than this slower in each round. Between RACE_SCREEN_RATIO and it, a
 * backend is a suspect: it stops in the first process, races on in the group's second, and is
 * screened there if its level is still more than RACE_SCREEN_RATIO another's. A slow state of
 * the machine can last a whole first process and land on one backend's work more than
 * another's: in a default run (2026-11-29, AMD EPYC) archetype's create-batch at 2^18 took 4.3x
 * its usual time in the first process, sparse's 1.1x, and archetype, the fastest in every other
 * run, was screened there, 2.15x behind sparse in each round. */
#define RACE_SCREEN_SURE 10.0
#define RACE_SCREEN_ROUNDS 3u
#define RACE_CALIBRATION_RATIO 20.0
#define RACE_CALIBRATION_NS 50e6
#define RACE_MAX_MEMBERS 66u        /* MAX_LIST backends, a floor, the harness alone */

enum race_state {
	RACE_IN,          /* still measured */
	RACE_LEFT,        /* left at a look: decidedly slower than another */
	RACE_SCREENED,    /* screened in the first process's rounds */
	RACE_CALIBRATION, /* screened by its calibration run (one cold run is its figure) */
	RACE_FAILED,      /* its row failed: out of every comparison */
	RACE_SUSPECT,     /* only as the first process reports it: over RACE_SCREEN_RATIO behind,
	                     not RACE_SCREEN_SURE; the member stays in (race_member.suspect) */
};

enum race_decision {
	RACE_OPEN,    /* no decision yet */
	RACE_FASTEST, /* one backend left in the race */
	RACE_EQUAL_SET, /* every two of the race within RACE_EQUAL */
};

struct race_member {
	bool candidate;        /* a backend (the floor and the harness alone never race) */
	enum race_state state;
	uint32_t left_at;      /* LEFT: the look (the group's processes); SCREENED and CALIBRATION:
	                          the process (1-based) */
	uint32_t left_round;   /* SCREENED: the timed rounds it had when it left */
	int behind;            /* who it was decidedly slower than, or -1 */
	double level;          /* LEFT: the two-sided level of each comparison at that look */
	bool suspect;          /* screened in the first process short of RACE_SCREEN_SURE: in until
	                          the group's second process confirms it or clears it */
};

struct race {
	uint32_t members;
	uint32_t max_processes; /* the most processes a group may be measured in */
	uint32_t looks_done;    /* the group's processes at its last look (0: none yet) */
	double level;           /* the two-sided level of each comparison at that look */
	uint32_t survivors;     /* candidates in the race after the first process (its screens):
	                           the comparisons a look counts; 0 until then */
	enum race_decision decision;
	uint32_t decided_at;    /* the look that decided it (0: open) */
	double equal_high;      /* EQUAL_SET: the widest upper bound between two of the set */
	struct race_member m[RACE_MAX_MEMBERS];
};

/* A race of `members` participants, candidate[i] whether i is a backend; max_processes: the
 * looks it may have (RACE_FIRST_LOOK .. max_processes). */
void race_init(struct race *r, uint32_t members, const bool *candidate, uint32_t max_processes);

/* Participant i left in the first process: by its calibration run or by the round screen
 * (RACE_SCREENED), or was suspected by it (RACE_SUSPECT: it stays in the race, the group's
 * second process to confirm it). */
void race_screened(struct race *r, uint32_t i, enum race_state how, uint32_t process,
                   uint32_t rounds, int behind);

/*
 * The levels of a group's participants per process: level[q * members + i], participant i's
 * log level (race_levels) in the group's q-th process (q < processes), NaN where it was not
 * measured. After the group's `processes`-th process: a look if one is due (race_look_due), or
 * `last` (the group gets no more processes): who leaves, whether it is decided; without a look,
 * only whether one backend is left. Returns true when the race changed.
 */
bool race_look(struct race *r, const double *level, uint32_t processes, bool last);

/* Whether a look is due after the group's `processes`-th process (the schedule above). */
bool race_look_due(const struct race *r, uint32_t processes);

/* The two-sided level of each comparison at a look after `processes` processes, the one before
 * at `before` (what the spending function grew between them, over the survivors'
 * comparisons). */
double race_level(const struct race *r, uint32_t processes, uint32_t before);

/* Participant i's levels over the first `processes` processes (NaN: not measured then): their
 * number; their mean into *mean where there is one, and its standard error into *se where
 * there are two or more (neither written otherwise). */
uint32_t race_level_mean(const double *level, uint32_t members, uint32_t processes, uint32_t i,
                         double *mean, double *se);

/* The mean log difference of i and j over the processes both have among the first `processes`,
 * its standard error and their number. false when they share fewer than two. */
bool race_pair(const double *level, uint32_t members, uint32_t processes, uint32_t i, uint32_t j,
               double *mean, double *se, uint32_t *pairs);

/* One process's levels: median polish of its log samples, y[i * rounds + r] (NaN: none),
 * participants by rounds; level[i] the participant's level (the overall level and its own
 * effect), NaN for one with no sample. */
void race_levels(const double *y, uint32_t members, uint32_t rounds, double *level);

/* A participant's figures at the end of a race (race_figures). */
struct race_row {
	uint32_t processes;   /* processes with a level */
	double log_centre;    /* the mean of its levels */
	double centre;        /* exp(log_centre): the row's median_ns; 0: no level */
	bool has_interval;    /* at least two processes: its 95% interval (Student's t) */
	double ci_low, ci_high, log_se;
	bool has_ratio;       /* a candidate, and the group has a best */
	double ratio;         /* over the best, paired by process: exp(mean log difference) */
	bool ratio_interval;  /* at least two processes in common */
	double ratio_low, ratio_high, ratio_se;
	double level;         /* the two-sided level of that interval (its look's) */
	uint32_t pairs;       /* processes in common with the best */
	const char *verdict;  /* "best", "slower" (it left the race), "equal" (in a set decided
	                         equal), "tied" (in a race still open), or "" (not compared) */
	bool open;            /* in the race of a group with no decision */
};

/*
 * Every participant's figures after the group's `processes` processes (levels as race_look
 * takes them): its centre and 95% interval, and each candidate's ratio to the best (the
 * winner, or the lowest centre among those still in the race), paired over the processes both
 * have, at the level of the look it left at (or the last look, for those still in): computed
 * now, against the final best, not the one it was behind at that look. Returns the best, or -1
 * if no candidate has a level.
 */
int race_figures(const struct race *r, const double *level, uint32_t processes,
                 struct race_row *rows);

/* Whether i is still measured. */
static inline bool race_in(const struct race *r, uint32_t i)
{
	return !r->m[i].candidate || r->m[i].state == RACE_IN;
}

/* The state's name for the CSV: "in", "left", "screened", "calibration", "failed". */
const char *race_state_name(enum race_state s);
const char *race_decision_name(enum race_decision d);

#endif
