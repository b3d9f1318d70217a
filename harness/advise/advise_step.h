/*
 * advise_step.h: the advisor's record and steps (advise_step.c), for its loop (advise_run.c).
 */
#ifndef ECSB_ADVISE_STEP_H
#define ECSB_ADVISE_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "advise_state.h"

/* SIGINT, SIGTERM and SIGHUP stop the step under way and are remembered; SIGPIPE ignored. */
void advisor_signals_catch(void);
/* The signal that stopped the advisor, or 0. */
int advisor_stopped(void);

/* What the search knows of the work left, for the estimate it shows. */
struct outlook {
	double left_s; /* the estimates of the steps it still means to run */
};

/* The record (each function's comment is at its definition) */
void advisor_note(struct advisor *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double advisor_loadavg(void);
const struct advise_design *advisor_current_design(const struct advisor *a);
void advisor_publish(struct advisor *a);
void advisor_keep_previous(struct advisor *a);

/* A step */
struct advise_step *advisor_step_begin(struct advisor *a, enum advise_stage stage,
                                       const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int advisor_backend_index(const struct advisor *a, const char *name);
void advisor_effective(const struct advisor *a, struct advise_design *d);
void advisor_step_add(const struct advisor *a, struct advise_step *st, const char *name,
                      const struct advise_design *d);
double advisor_estimate_s(const struct advisor *a, const struct advise_step *st,
                          uint32_t processes, bool floor);
int advisor_step_run(struct advisor *a, struct advise_step *st, uint32_t processes, bool floor,
                     const struct outlook *ol);
void advisor_learn_load(struct advisor *a, const struct advise_step *st, bool floor);
int advisor_step_against_first(struct advisor *a, struct advise_step *st, uint32_t processes,
                               const struct outlook *ol);
void advisor_step_done(struct advisor *a, struct advise_step *st, struct outlook *ol);
bool advisor_fits(const struct advisor *a, double est, double reserve);

#endif
