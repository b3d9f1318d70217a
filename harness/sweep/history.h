/*
 * history.h: what a storage has been through before a workload's clock starts (history.c), and
 * how the workloads that create entities inside their clock spawn them.
 *
 * A game's storage is not built in order and left alone: kinds of entities are spawned
 * interleaved, some die and others take their ids, components come and go in no order. Backends
 * can have fast paths that fire only on a storage built in index order and never changed; a
 * figure measured there is a best case. So every workload that starts from existing entities
 * builds its storage through one procedure, history_build, under a named history, and the
 * workloads that spawn inside their clock (create, churn) spawn as the history says:
 *
 *   lived-in     (the default, and every headline figure) three kinds interleaved: the measured
 *                set S, S with one more type, S with two more (bullets, particles, units), and
 *                N/4 props of a fourth kind that lacks S's last type (the measured system does
 *                not visit them); then a quarter of all entities destroyed in a random order and
 *                the measured ones created again (recycled ids, later generations), half the
 *                props not (dead indices: holes); then, for each type of S, a random half of the
 *                measured entities lose it and get it back, each type its own half and its own
 *                orders. No pool or list is in index order, nor in step with another, by
 *                construction. create and churn spawn the three kinds interleaved, and churn
 *                destroys each round's entities in a random order.
 *   pristine     best case: one kind (S) created in index order, never changed; churn destroys
 *                in creation order.
 *   aged         every pool aged: one kind, then every type of S removed from every entity and
 *                added back in its own random order.
 *   one-hole     pristine, but for one entity of S created first and destroyed once the others
 *                exist.
 *   alternating  two kinds alternating: every other entity gives the same set S in reverse order
 *                (identical work, identical final storage).
 *   churned      lived-in, after 64 other kinds came and went first: waves of N/16 entities,
 *                each of S and one or two types of the rest of the profile, created and all
 *                destroyed (in a random order) before the lived-in storage is built; what they
 *                leave (archetype's empty tables, empty pools, memory not given back) stays.
 *
 * Every decision comes from --seed, so every backend goes through exactly the same operations
 * and the checksums stay comparable; every measured entity keeps the values it was created with.
 */
#ifndef ECSB_HISTORY_H
#define ECSB_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "world.h"

struct history {
	const char *name;
	const char *description; /* one line, for --list and the CSV header */
	bool kinds;        /* three kinds interleaved (else one: S) */
	bool props;        /* N/4 props of a fourth kind, interleaved */
	bool alternate;    /* every other entity gives its list in reverse order */
	bool hole;         /* one entity created first and destroyed after the others */
	bool turnover;     /* a quarter destroyed, the measured ones created again */
	uint32_t shuffle_eighths;  /* of the measured entities that lose each type of S and get it back */
	bool shuffled_destroy;     /* churn: a round's entities destroyed in a random order */
	bool spawns;       /* it changes how create and churn spawn (else it is not theirs) */
	uint32_t waves;    /* kinds that came and went before: waves of N/16 entities each */
	/* The state a game is in (state.h): creation runs after turnover, timed loops visit in a
	 * game's order, and the first process checks both. The others are labelled best cases or
	 * diagnostics: empty reserved storage for creation, visits in creation order. */
	bool lived;
};

extern const struct history histories[];
extern const size_t history_count;
#define HISTORY_DEFAULT "lived-in"
/* "-" for a workload that takes none (c->history NULL). */
const char *history_name(const struct history *h);
/* Whether the case's storage has a lived-in history (struct history's lived), so that the rules
 * of the state a game is in (state.h) hold for it and the first process checks them. */
bool history_lived(const struct bench_case *c);

/* Extra types of the kinds (the profile's types from FIRST_OTHER_TYPE on). */
#define HISTORY_KINDS 3u
#define HISTORY_MAX_TYPES (COMP_MAX_K + 2u)

/*
 * How a workload spawns N entities of the measured set inside its clock: each entity's kind and
 * the order of its list decided before (untimed), the values of S from the row's value table,
 * the kinds' own types from a constant value each.
 */
struct spawn_plan {
	uint32_t n;
	uint8_t *list;   /* per entity: which of the lists below it gives; NULL: list 0 for all */
	uint32_t lists;
	uint32_t types[2 * HISTORY_KINDS][HISTORY_MAX_TYPES];
	uint32_t count[2 * HISTORY_KINDS];
	/* Where the value of the j-th type of list l comes from: slot[l][j] < k, the value table of
	 * S's type set[slot] (entity i's is i values in); k, the kinds' own constant value. */
	uint8_t slot[2 * HISTORY_KINDS][HISTORY_MAX_TYPES];
	uint32_t k, set[COMP_MAX_K];
	const struct values *values;
	uint32_t *destroy_order; /* churn: the order its entities are destroyed in; NULL: creation */
};

/* The spawn plan of history h for n entities of the k types in `set` (values from v). */
int history_spawn_plan_make(struct spawn_plan *p, const struct history *h, const struct bench_case *c,
                            const uint32_t *set, uint32_t k, const struct values *v, uint64_t stream,
                            struct bench_result *r);
void history_spawn_plan_free(struct spawn_plan *p);
/* Creates the plan's n entities (timed: nothing here decides or makes a value). */
int history_spawn_planned(struct world *w, const struct spawn_plan *p, ecs_entity *handles,
                          struct bench_result *r);
/* The same for entities [first, first + count) of the plan alone (their lists, their values),
 * their handles into handles[first..): create-unreserved's blocks (growth.c). */
int history_spawn_planned_range(struct world *w, const struct spawn_plan *p, uint32_t first,
                                uint32_t count, ecs_entity *handles, struct bench_result *r);
/* Destroys them in the plan's order (timed). */
int history_despawn_planned(struct world *w, const struct spawn_plan *p, const ecs_entity *handles,
                            struct bench_result *r);
/* Entity i's kind (0, 1 or 2: how many types of its kind's own beyond S it has), for the floor. */
uint32_t history_spawn_plan_kind(const struct spawn_plan *p, uint32_t i);
/* The value every entity gets for a type of its kind's own. */
extern const unsigned char history_extra_value[ECS_MAX_COMPONENT_SIZE];

/*
 * create-batch's plan: the spawn plan's N entities in batches of one list (kind) each, at most
 * HISTORY_SPAWN_BATCH entities a batch. A game spawns a wave at once (a horde, a particle burst,
 * a section's props): 1024 is such a wave, and many enough entities that what a batch does once
 * (find the table, grow the arrays) is spread thin. The lists are taken batch by batch in the
 * plan's proportions (each next batch from the list furthest behind its share), each list's
 * entities in the plan's order. Entity positions are the order of creation: batch b holds
 * positions [first, first + count), and the values of S for those positions are packed
 * (values[t]: position pos has the value the plan gives entity order[pos]), so that every
 * batch reads each type of S as one packed array (stride = size) and the kinds' own types as
 * one value for all (stride 0). Made before the clock.
 */
#define HISTORY_SPAWN_BATCH 1024u

struct batch_plan {
	uint32_t n, batches;
	uint32_t *first, *count; /* per batch: its first position and how many */
	uint8_t *list;           /* per batch: the spawn plan's list it gives */
	uint32_t *order;         /* per position: the spawn plan's entity */
	unsigned char *values[COMP_MAX_K]; /* per type of S: n values packed in position order */
	uint32_t size[COMP_MAX_K];
};

int history_batch_plan_make(struct batch_plan *b, const struct spawn_plan *p, struct bench_result *r);
void history_batch_plan_free(struct batch_plan *b);
/* Creates the plan's entities batch by batch through ecs_entity_create_batch (timed); handles
 * in position order. */
int history_spawn_batched(struct world *w, const struct spawn_plan *p, const struct batch_plan *b,
                          ecs_entity *handles, struct bench_result *r);

/*
 * The measured entities of a storage history_build makes: n of them, entity i with the types
 * and values list_of gives (untimed); the types `aged` are those the history removes and adds
 * back (the measured system's). Props are the aged types but the last, and a type of their own.
 */
struct population {
	uint32_t n;
	uint32_t (*list_of)(void *ctx, uint32_t i, uint32_t *types, const void **values);
	void *ctx;
	uint32_t aged[HISTORY_MAX_TYPES];
	uint32_t aged_count;
	const struct values *values; /* the values an aged type is added back with */
	bool allow_kinds;            /* list_of follows the kinds (else the population has its own) */
};

/* What history_build did, for the checks. */
struct history_outcome {
	uint32_t recycled; /* measured entities whose handle has a later generation than 0 */
	uint32_t holes;    /* dead indices among the ones handed out */
	uint32_t destroyed, reshuffled;
};

/*
 * The storage under history h: w open (the profile registered), empty. The measured entities'
 * handles go to handles[0..n). Untimed; the decisions from (c->seed, stream).
 */
int history_build(struct world *w, const struct history *h, const struct bench_case *c,
                  const struct population *pop, uint64_t stream, ecs_entity *handles,
                  struct history_outcome *out, struct bench_result *r);

/* The most entities alive at once while history h builds a storage of n measured entities (what
 * a game that knows its level would reserve). */
uint32_t history_entities(const struct history *h, uint32_t n);
/* The same for a case (a workload's peak_entities; the case's history, or the most any has). */
uint64_t history_peak_entities(const struct bench_case *c);

/*
 * Creation after turnover (rule 'created', state.h): under a lived-in history, a creation runs
 * into a storage built under the history with `predecessors` measured entities of its own set
 * (and the history's props, turnover and reshuffles), after those predecessors died in a random
 * order: the free list holds their indices in no index order, the tables and pools have holes
 * and the props alive. A run's storage is reused from sample to sample: before each sample,
 * untimed, what the last one created dies in the same random order (a wave spawns where the
 * last one died, as churn's rounds do), so that setup costs a destroy per run rather than a
 * storage's whole history. The handles the runs create go to history_turnover_handles.
 */
struct turnover;
/* The plan (untimed, in setup): predecessors (at most c->entities), reserved or not (reserved:
 * for the most entities the storage holds at once). The same draws for every creation
 * workload (HISTORY_STREAM_PREDECESSORS, HISTORY_STREAM_DEATHS). */
int history_turnover_open(struct run *run, uint32_t predecessors, bool reserve);
/* run->worlds[0..run->inner) ready for a sample's creations (prepare). */
int history_turnover_prepare(struct run *run);
/* Where run j of a sample puts the handles of what it creates (N of them). */
ecs_entity *history_turnover_handles(const struct run *run, uint32_t j);
/* The first process's check, after a sample: the last run's creations took recycled indices in
 * a storage with holes (state_check_created); workload names it. */
int history_turnover_check(struct run *run, const char *workload);
void history_turnover_free(struct turnover *t);
/* The indices N creations take in the floor's plain arrays under a lived-in history, as the
 * backends' storages recycle them: the predecessors' indices, popped from a free list they
 * were pushed on in their order of death, then fresh ones; NULL under another history (entity i
 * at index i). */
uint32_t *history_turnover_indices(const struct bench_case *c, uint32_t predecessors);

/* The streams of each workload's decisions: one apiece, so that no two workloads share a draw;
 * parallel-iterate takes iterate's (the same storage), a floor its workload's. */
#define HISTORY_STREAM_ITERATE 0x6974657200ull
#define HISTORY_STREAM_CREATE (HISTORY_STREAM_ITERATE + 1)
#define HISTORY_STREAM_CHURN (HISTORY_STREAM_ITERATE + 2)
/* + 3 was add-remove's own, before add-remove shared iterate's storage */
/* + 4 was get's own, before get shared iterate's storage (workloads_iterate_world) */
#define HISTORY_STREAM_FRAGMENTED (HISTORY_STREAM_ITERATE + 5)
#define HISTORY_STREAM_DESTROY (HISTORY_STREAM_ITERATE + 6)
#define HISTORY_STREAM_SYSTEMS_64 (HISTORY_STREAM_ITERATE + 7)
/* a creation's predecessors (history_turnover_open: create's, create-batch's and
 * create-unreserved's, the same draws): their storage, and their order of death */
#define HISTORY_STREAM_PREDECESSORS (HISTORY_STREAM_ITERATE + 8)
#define HISTORY_STREAM_DEATHS (HISTORY_STREAM_ITERATE + 9)

/* The measured set S of k types: entity i's list under kind-based histories (list_of). */
struct history_kinds_population {
	const struct history *h;
	const struct bench_case *c;
	uint32_t set[COMP_MAX_K];
	uint32_t k;
	uint64_t seed;
};
void history_kinds_population(struct population *pop, struct history_kinds_population *kp,
                              const struct history *h, const struct bench_case *c, const uint32_t *set,
                              uint32_t k);

/*
 * The checks of a lived-in storage, through the interface (run by the first process, untimed):
 * ids recycled and holes present (from the outcome), no type of `aged` with its values in index
 * order (most measured entities' values of the type not right after those of the entity of the
 * next lower index), and system 0 not visiting in index order. 0, or -1 with r's error set.
 */
int history_check(struct world *w, const struct history *h, const struct population *pop,
                  const ecs_entity *handles, const struct history_outcome *out,
                  struct bench_result *r);

/* What a workload keeps of its storage's history (run->history). */
struct history_state {
	struct population pop;
	struct history_kinds_population kinds;
	struct history_outcome outcome;
};

/*
 * A workload's storage under c->history, measured set S (k types): world_open, reserve for the
 * most entities the history holds at once, history_build; the state kept in run->history for
 * history_finish. The workloads that start from existing entities all begin here.
 */
int history_world(struct run *run, const uint32_t *set, uint32_t k, uint64_t stream);
/* The same with a population of the workload's own (fragmented): pop is copied. Both check the
 * storage they built (history_check) where run->verify asks for checks (the first process). */
int history_world_of(struct run *run, const struct population *pop, uint64_t stream);

#endif
