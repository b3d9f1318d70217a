/*
 * advise_design.h: a storage design a user can choose for a scenario, as plain data
 * (advise_design.c): a backend and the scenario's markings (which components are kept sparse,
 * which systems own a group, which kinds' spawns and which effects are batched). A marking
 * changes how a storage lays things out and how many calls a frame makes, never a result, so
 * every design of one scenario computes the same checksum.
 *
 * A design travels to a step's scenario run as a --design argument (scenario_run.c): the
 * backend, a name, and a KEY=VALUE for each marking that differs from the scenario as the user
 * gave it; and to the user as a copy of their scenario file with its markings applied
 * (advise_design_write_ini).
 *
 * Costs: a design is about 450 bytes; every function is linear in the scenario's components,
 * systems, kinds and effects (the file copy: in its lines).
 */
#ifndef ECSB_ADVISE_DESIGN_H
#define ECSB_ADVISE_DESIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../scenario/scenario.h"

struct advise_design {
	char backend[32];                          /* an ecs_ops name */
	uint8_t sparse[SCENARIO_MAX_COMPONENTS];   /* component t kept sparse */
	uint8_t group[SCENARIO_MAX_SYSTEMS];       /* system s owns a group */
	uint8_t batch_kind[SCENARIO_MAX_KINDS];    /* kind k's spawns batched */
	uint8_t batch_effect[SCENARIO_MAX_EFFECTS]; /* effect e's adds and removes batched */
};

/* The design of sc as marked ([scenario] storage = table: no component sparse), on backend. */
void advise_design_of(const struct scenario *sc, const char *backend, struct advise_design *d);
/* No marking at all, on backend. */
void advise_design_bare(const struct scenario *sc, const char *backend, struct advise_design *d);
bool advise_design_same(const struct scenario *sc, const struct advise_design *a,
                        const struct advise_design *b);
/* How many markings it has (sparse components, groups, batches). */
uint32_t advise_design_marks(const struct scenario *sc, const struct advise_design *d);

/* The --design argument: "BACKEND:NAME KEY=VALUE ..." with a KEY for each marking that differs
 * from sc. 0, or -1 if it does not fit in len. */
int advise_design_argument(const struct scenario *sc, const struct advise_design *d,
                           const char *name, char *buf, size_t len);
/* The markings as a user reads them: "sparse Hit, Haste; group combat; batch loot, burning", or
 * "no marks". */
void advise_design_marks_text(const struct scenario *sc, const struct advise_design *d, char *buf,
                              size_t len);
/* sc with d's markings applied (into out, a copy). 0, or -1 with a message. */
int advise_design_apply(const struct scenario *sc, const struct advise_design *d,
                        struct scenario *out, char *err, size_t errlen);

/*
 * The user's scenario file (src, as read) with d's markings applied, written to dst: every line
 * kept as it was (comments too) but the marking keys (`storage` of a [component], `group` of a
 * [system], `batch` of a [kind] or [effect], `storage` of [scenario]), which are written anew
 * where d wants them, after the section's line; `header` (lines starting with "; ") first.
 * Written to a temporary file and renamed. 0, or -1 with a message.
 */
int advise_design_write_ini(const char *src, const struct scenario *sc,
                            const struct advise_design *d, const char *header, const char *dst,
                            char *err, size_t errlen);

#endif
