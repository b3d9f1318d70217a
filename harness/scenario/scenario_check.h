/*
 * scenario_check.h: what scenario_file.c (reading a scenario file through inih, the public
 * functions) and scenario_check.c (each value checked, then what spans sections) share. Internal
 * to these two files; the rest of the program uses scenario.h.
 */
#ifndef ECSB_SCENARIO_CHECK_H
#define ECSB_SCENARIO_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"

enum section_kind {
	SECTION_NONE,
	SECTION_SCENARIO,
	SECTION_COMPONENT,
	SECTION_KIND,
	SECTION_SYSTEM,
	SECTION_EFFECT,
	SECTION_KINDS
};

/* Each section's keys, in the order of their bits in scenario_source.given. */
enum {
	SC_FRAMES,
	SC_WARMUP,
	SC_SEED,
	SC_SCALE,
	SC_ENTITIES,
	SC_LOOKUPS,
	SC_LOOKUP,
	SC_THREADS,
	SC_STORAGE
};
enum { COMPONENT_SIZE, COMPONENT_STORAGE };
enum { KIND_COMPONENTS, KIND_COUNT, KIND_SPAWN, KIND_DESPAWN, KIND_VARIANTS, KIND_BATCH };
enum {
	SYSTEM_REQUIRES,
	SYSTEM_EXCLUDES,
	SYSTEM_READS,
	SYSTEM_WRITES,
	SYSTEM_WORK,
	SYSTEM_DESPAWN,
	SYSTEM_ADD,
	SYSTEM_REMOVE,
	SYSTEM_PARALLEL,
	SYSTEM_GROUP
};
enum { EFFECT_KIND, EFFECT_COMPONENT, EFFECT_ADD, EFFECT_DURATION, EFFECT_REMOVE, EFFECT_BATCH };

/* The first problem found, by line: problem_at keeps the one at the smallest line. */
struct problem {
	bool found;
	uint32_t line;
	char message[400];
};

__attribute__((format(printf, 3, 4))) static inline void problem_at(struct problem *p,
                                                                     uint32_t line,
                                                                     const char *fmt, ...)
{
	if (p->found && p->line <= line)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->message, sizeof p->message, fmt, ap);
	va_end(ap);
	p->found = true;
	p->line = line;
}

static inline double share_of(double percent) { return percent / 100.0; }

/* Each value on its own (scenario_check.c). */
const char *scenario_name_problem(const char *s);
char *scenario_trim(char *s);
struct scenario_source *scenario_section_source(struct scenario *sc, enum section_kind section,
                                                uint32_t index);
const char *scenario_section_name(const struct scenario *sc, enum section_kind section,
                                  uint32_t index);
bool scenario_apply_key(struct scenario *sc, enum section_kind section, uint32_t index, int key,
                        const char *v, char *msg, size_t len);
int scenario_key_index(enum section_kind section, const char *name);
void scenario_key_list(enum section_kind section, char *out, size_t len);

/* What spans sections, and what is derived from it for an engine (scenario_check.c). */
void scenario_resolve(struct scenario *sc, struct problem *pr);

#endif
