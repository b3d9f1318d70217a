/*
 * advise_state.h: the advisor's record of a search, as plain data: the steps it ran (each a
 * scenario run of its own, in processes of its own), the designs each measured and what it
 * decided, what it left untried and why. advise_run.c fills it step by step; advise_search.c
 * reads the scenario and the steps to choose the next step; advise_report.c only formats it
 * (the steps CSV, the Markdown advice, the terminal's copy).
 */
#ifndef ECSB_ADVISE_STATE_H
#define ECSB_ADVISE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/options.h"
#include "advise_design.h"
#include "advise_rows.h"

enum {
	ADVISE_MAX_DESIGNS = 32, /* designs one step measures */
	ADVISE_MAX_STEPS = 256,
	ADVISE_MAX_NOTES = 96,
	ADVISE_PATH = 4200,
};

enum advise_stage {
	ADVISE_SURVEY,  /* every backend as the file marks it and with no marks, floor, harness */
	ADVISE_SPARSE,  /* a component kept sparse, or not, against the best so far */
	ADVISE_GROUP,   /* a system's owning group, or none, against the best so far */
	ADVISE_CONTEST, /* each backend's best design, together */
	ADVISE_BATCH,   /* a kind's spawns or an effect batched, or not, against the best so far */
	ADVISE_CONFIRM, /* the chosen design and the fastest with no marks, in a fresh run */
};

/* One design measured in one step. */
struct advise_entry {
	char name[ADVISE_NAME_SIZE]; /* its participant: "hybrid:try" */
	struct advise_design design;
	struct advise_centre frame;
	struct advise_ratio vs; /* to the step's reference (the best so far), or to its fastest */
};

struct advise_step {
	uint32_t number; /* 1, 2, ... */
	enum advise_stage stage;
	char what[240]; /* what it tried: "Burning sparse (hybrid)" */
	uint32_t entry_count;
	struct advise_entry entry[ADVISE_MAX_DESIGNS];
	int reference;  /* the entry the others are read against: the best so far; -1: the fastest */
	int fastest;    /* the entry with the lowest frame (stats_group's best) */
	bool kept;      /* a search step: the tried design is the best so far now */
	char decision[240];
	uint32_t processes, frames;
	double seconds, estimate; /* how long it took, and what the advisor expected */
	char csv[ADVISE_PATH + 64]; /* its scenario run's CSV */
};

enum advise_status { ADVISE_RUNNING, ADVISE_DONE, ADVISE_INTERRUPTED, ADVISE_FAILED };

/* How much the storage choice moves the frame, from the survey (advise_search_matter). */
enum advise_verdict { ADVISE_MATTERS, ADVISE_SOME_TIED, ADVISE_HARDLY_MATTERS, ADVISE_ALONE };
struct advise_phase_spread {
	char phase[ADVISE_NAME_SIZE];
	double fastest_ns, slowest_ns; /* among the contenders, each its own median */
	char fastest_name[ADVISE_NAME_SIZE], slowest_name[ADVISE_NAME_SIZE];
	double floor_ns, harness_ns;   /* NaN when the run had none */
	double moves;                  /* (slowest - fastest) / the fastest design's frame */
};
/* The advice's first line, from the survey's verdict and the confirmation's ratio. */
enum advise_headline {
	ADVISE_HEAD_NONE,     /* no survey, or no confirmation yet */
	ADVISE_HEAD_HARDLY,   /* the survey finds most backends within the noise, and the chosen
	                         design wins less than ADVISE_FELT (or nothing decided) */
	ADVISE_HEAD_MARKS,    /* the same survey, but the chosen marks win ADVISE_FELT or more */
	ADVISE_HEAD_MATTERS,  /* the chosen design is decidedly faster, by ADVISE_FELT or more */
	ADVISE_HEAD_SMALL,    /* decidedly faster, by less */
	ADVISE_HEAD_EITHER,   /* the confirmation cannot tell the two apart */
	ADVISE_HEAD_REVERSED, /* the confirmation finds the other decidedly faster */
};
/* A difference of a tenth of the frame: the line between a gain a game feels and one it does
 * not (stats.h's STATS_NOISY_RATIO draws the same line for a noisy row). */
#define ADVISE_FELT 1.10

struct advise_matter {
	bool known;
	enum advise_verdict verdict;
	enum advise_headline headline;
	uint32_t designs, contenders, backends, tied_backends;
	int fastest;                       /* survey row */
	double fastest_ns, slowest_contender_ns, floor_ns, harness_ns;
	char slowest_name[ADVISE_NAME_SIZE];
	char tied[600];                    /* the tied designs, named */
	char slower[1200];                 /* the others: "hash 1.33x [1.03, 1.72]", ... */
	uint32_t phase_count;
	struct advise_phase_spread phase[ADVISE_MAX_PHASES];
	/* what makes the frame what it is */
	double systems_share;     /* the fastest design's passes, of its frame */
	double passes_vs_floor;   /* the slowest contender's passes against the floor's */
	double world_bytes, cache_bytes; /* the components of the entities at the start; the LLC */
	double changes_share;     /* spawns, despawns and effect adds a frame, of the entities */
};

struct advisor {
	const struct options *o;
	const struct scenario *base; /* the file with --set applied (frames as the steps run) */
	const char *file;
	char name[64];               /* the file's name without folder and .ini */
	char csv[ADVISE_PATH], md[ADVISE_PATH], ini[ADVISE_PATH], steps_dir[ADVISE_PATH];
	uint32_t processes;          /* per search step */
	uint32_t wide_processes;     /* the survey's and the confirmation's */
	const struct ecs_ops *backends[MAX_LIST];
	uint32_t backend_count;
	bool follows_sparse[MAX_LIST], follows_group[MAX_LIST];
	double quick_ns[MAX_LIST];   /* the quick look's frame (advise_search_quick_look) */
	bool surveyed[MAX_LIST];     /* in the survey: within ADVISE_QUICK_CUT in the quick look */
	struct advise_step *steps;
	uint32_t step_count;
	struct advise_rows survey;   /* the survey's samples, for how much it matters */
	bool have_survey;
	int survey_step;             /* its index in steps, or -1 */
	struct advise_design best[MAX_LIST]; /* per backend: its best design so far */
	double survey_ns[MAX_LIST];          /* per backend: its best frame in the survey */
	bool searched[MAX_LIST];             /* per backend: its marks were searched */
	bool improved[MAX_LIST];             /* and a step kept a change */
	struct advise_design leader;         /* the fastest design so far (after the contest) */
	bool have_leader;
	struct advise_design chosen;         /* what the advice says */
	bool have_chosen;
	int confirm_step;                    /* -1: not run */
	struct advise_matter matter;
	uint32_t note_count;                 /* what it did not try, and why */
	char note[ADVISE_MAX_NOTES][600];
	double budget_s;
	uint64_t start_ns;
	double elapsed_s;
	double load;                  /* wall seconds per predicted second (the estimates') */
	enum advise_status status;
	char status_text[ADVISE_PATH + 1024];
	char cpu[160];
	double loadavg_start, loadavg_end;
};

#endif
