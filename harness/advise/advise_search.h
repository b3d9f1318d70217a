/*
 * advise_search.h: what the advisor may try, in which order, and what the survey says of how
 * much the choice matters (advise_search.c). Plain data in, plain data out; the steps
 * themselves are run by advise_run.c.
 *
 * The space a user chooses in, and how it is searched (docs/scenarios.md, "The advisor"):
 *   - which backends follow which markings: a backend with system_group follows groups; one
 *     whose memory differs when the types that come and go are marked sparse follows the
 *     storage hint (a probe on the scenario scaled down, a few frames, no timing);
 *   - sparse: the component types that come and go (effects' types, systems' adds and
 *     removes), most changes a frame first; the types that never change are not tried (marked
 *     sparse they only make the passes probe);
 *   - group: the systems by their pass's time in the survey, longest first, down to
 *     ADVISE_MIN_SHARE of the frame;
 *   - batch: the kinds that spawn, most spawns first, and the effects, most adds first, while
 *     the phase they change (spawn; add and remove) is at least ADVISE_MIN_SHARE of the frame.
 *
 * Costs: the probe opens each backend's storage twice on the scenario scaled to about
 * ADVISE_PROBE_ENTITIES entities and runs ADVISE_PROBE_FRAMES frames; the rest is linear in
 * the scenario's sections and the survey's participants and phases.
 */
#ifndef ECSB_ADVISE_SEARCH_H
#define ECSB_ADVISE_SEARCH_H

#include <stdint.h>

#include "advise_state.h"

#define ADVISE_MIN_SHARE 0.01  /* a phase below this share of the frame is not searched */
#define ADVISE_REACH 1.5       /* a backend this far behind the fastest is not searched */
#define ADVISE_CONTENDER 2.0   /* a design this far behind is no contender (how much it matters) */
#define ADVISE_PROBE_ENTITIES 2000.0
#define ADVISE_PROBE_FRAMES 3
#define ADVISE_QUICK_FRAMES 3  /* the quick look: frames timed per backend */
#define ADVISE_QUICK_CUT 4.0   /* a backend this far behind in it is left out of the survey */

/* Which of a->backends follow the storage hint and groups (a->follows_*). 0, or -1 with a
 * message. */
int advise_search_probe(struct advisor *a, char *err, size_t errlen);

/*
 * The quick look, before the survey: each backend's storage made at the scenario's full size
 * in this process, ADVISE_QUICK_FRAMES frames timed on the wall clock with no warm-up, the
 * shortest kept (a->quick_ns). A rough figure with no interval, for one decision only: a
 * backend over ADVISE_QUICK_CUT times the fastest is no contender, and the survey leaves it out
 * (a->surveyed), so that a storage ten times slower does not take most of the budget (its
 * frames, warm-up included, cost what they cost). 0, or -1 with a message.
 */
int advise_search_quick_look(struct advisor *a, char *err, size_t errlen);

/* The component types that come and go, most changes a frame first; rate[i]: about how many
 * adds (or removes, for a type only removed) a frame. Their number. */
uint32_t advise_search_sparse_candidates(const struct scenario *sc, uint32_t *types, double *rate);

/* The systems by their pass's median in survey row `row`, longest first, each at least
 * ADVISE_MIN_SHARE of that row's frame (ns[i]: its median). Their number. */
uint32_t advise_search_group_candidates(const struct scenario *sc, const struct advise_rows *r,
                                        int row, uint32_t *systems, double *ns);

/* A candidate of the batch search: a kind (effect false) or an effect. */
struct advise_batch_candidate {
	bool effect;
	uint32_t index;
	double rate; /* spawns, or adds, a frame */
};
/* The kinds that spawn and the effects, as above; phase_share[0]: the spawn phase's share of
 * the frame, [1]: the add and remove phases', of row `row` (NaN: unknown). Their number. */
uint32_t advise_search_batch_candidates(const struct scenario *sc, const struct advise_rows *r,
                                        int row, struct advise_batch_candidate *c,
                                        double phase_share[2]);

/* How much the choice matters, from the survey (a->matter). */
void advise_search_matter(struct advisor *a);

#endif
