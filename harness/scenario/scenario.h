/*
 * scenario.h: a user's game frame, read from a scenario file (format: scenarios/README.md) and
 * resolved into plain structs that an engine runs without parsing anything again: type ids and
 * sizes, per kind its sorted type list and its counts after scale, per system its required,
 * excluded, read and written type ids, per effect its kind, type and rates.
 *
 * Costs: scenario_load reads the file once (linear in its size) and resolves it (names are looked
 * up linearly: at most SCENARIO_MAX_COMPONENTS types times a few hundred references). A struct
 * scenario is about 330 KiB of fixed arrays, no pointers: the caller allocates it (on the heap)
 * and may copy it with memcpy, e.g. once per point of a sweep.
 *
 * Type ids: the [component] sections in file order are 0..component_count-1; the tags that tell a
 * kind's variants apart follow, kind by kind (scenario_kind.variant_tag_first).
 */
#ifndef ECSB_SCENARIO_H
#define ECSB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../impls/ecs.h"

enum {
	SCENARIO_NAME_MAX_LEN = 31, /* characters in a name the user gives */
	SCENARIO_NAME_SIZE = 40,    /* room for a name, or for a variant tag's KIND#V */
	SCENARIO_MAX_COMPONENTS = 256,
	SCENARIO_MAX_TYPES = 1024, /* components plus variant tags */
	SCENARIO_MAX_KINDS = 64,
	SCENARIO_MAX_VARIANTS = 256, /* per kind */
	SCENARIO_KIND_MAX_TYPES = 32,
	SCENARIO_MAX_SYSTEMS = 64,
	SCENARIO_SYSTEM_MAX_REQUIRED = ECS_SYSTEM_MAX_COMPONENTS,
	SCENARIO_SYSTEM_MAX_EXCLUDED = 8,
	SCENARIO_SYSTEM_MAX_CHANGES = 4, /* entries in a system's add list, and in its remove list */
	SCENARIO_MAX_EFFECTS = 64,
	SCENARIO_MAX_LOOKUP_TYPES = 8,
	SCENARIO_MAX_WORK = 64,           /* arithmetic operations per visited entity */
	SCENARIO_MAX_FRAMES = 1000000,    /* frames, warmup and an effect's duration */
	SCENARIO_MAX_LOOKUPS = 100000000, /* lookups per frame, before scale */
	SCENARIO_MAX_KEYS = 10,           /* keys one section may hold */
	SCENARIO_MAX_THREADS = 1024,      /* `threads`: parallel.h's CPU_LIST_MAX */
};
/* Live entities at any frame: the interface's 22-bit entity index. */
#define SCENARIO_MAX_ENTITIES ECS_MAX_ENTITIES
#define SCENARIO_MAX_SCALE 1000.0

enum scenario_status {
	SCENARIO_OK = 0,
	SCENARIO_ERR_INVALID = -1, /* the file, key or value is wrong: the message says where */
	SCENARIO_ERR_IO = -2,      /* the file cannot be opened or read */
	SCENARIO_ERR_NO_MEMORY = -3,
};

/* A number as written: `60` (percent false) or `60%` (value 60, percent true). */
struct scenario_amount {
	double value;
	bool percent;
};

/* Where a section and its keys are in the file (line 0: set by scenario_set, not read). */
struct scenario_source {
	uint32_t line;                        /* the [section] line */
	uint32_t key_line[SCENARIO_MAX_KEYS]; /* indexed like the section's keys */
	uint32_t given;                       /* bit i: key i was given */
};

struct scenario_type {
	char name[SCENARIO_NAME_SIZE]; /* [component NAME], or KIND#V for variant V's tag */
	uint32_t size;                 /* bytes, 1..ECS_MAX_COMPONENT_SIZE; a variant tag has 1 */
	int32_t variant_kind;          /* -1 for a [component]; the kind index for a tag */
	/* `storage`: enum ecs_storage_hint, given to the storage as ecs_config.component_storage
	 * (a tag is ECS_STORAGE_TABLE). A hint: no result depends on it. */
	uint8_t storage;
	struct scenario_source src;
};

struct scenario_kind {
	char name[SCENARIO_NAME_SIZE];
	uint32_t type_count;
	uint32_t types[SCENARIO_KIND_MAX_TYPES]; /* ascending type ids, without the variant tag */
	uint32_t variants;                       /* 1..SCENARIO_MAX_VARIANTS distinct sets */
	/* Variant v in 1..variants-1 also has the 1-byte tag type variant_tag_first + v - 1;
	 * variant 0 has the plain set, so variants = 1 is the kind as written. */
	uint32_t variant_tag_first;
	uint32_t count;        /* alive before the first frame, after scale */
	double spawn, despawn; /* entities per frame, after scale; fractions carry to later frames */
	bool lookup_match;     /* it has every lookup type */
	/* `batch`: a frame's spawns of the kind made in one entity_create_batch per variant, before
	 * the other kinds' (which stay interleaved), instead of one entity_create_with each. */
	bool batch;
	struct {
		char components[SCENARIO_KIND_MAX_TYPES][SCENARIO_NAME_SIZE];
		uint32_t component_count;
		struct scenario_amount count, spawn, despawn;
		uint32_t variants;
	} written;
	struct scenario_source src;
};

/* A structural change a system makes to a share of the entities it visits. */
struct scenario_change {
	uint32_t type;
	double share; /* 0..1 */
};

struct scenario_system {
	char name[SCENARIO_NAME_SIZE];
	uint32_t required_count; /* 1..SCENARIO_SYSTEM_MAX_REQUIRED, in the order written */
	uint32_t required[SCENARIO_SYSTEM_MAX_REQUIRED];
	uint32_t excluded_count;
	uint32_t excluded[SCENARIO_SYSTEM_MAX_EXCLUDED];
	uint32_t read_count, write_count; /* subsets of required, disjoint */
	uint32_t read[SCENARIO_SYSTEM_MAX_REQUIRED], write[SCENARIO_SYSTEM_MAX_REQUIRED];
	uint32_t read_mask, write_mask; /* bit i: required[i] (batch column i) is read / written */
	uint32_t work;                  /* arithmetic operations per visited entity */
	/* Its pass split across the scenario's threads (parallel_system_pass); what it changes
	 * afterwards stays serial. */
	bool parallel;
	/* `group`: after registration the storage is asked to keep the system's entities packed
	 * (ecs_system_group, an owning group); a hint, that storages without groups decline. */
	bool group;
	/* Applied after the system's pass (a command buffer), on random visited entities: */
	double despawn; /* share despawned */
	uint32_t add_count, remove_count;
	struct scenario_change add[SCENARIO_SYSTEM_MAX_CHANGES];    /* entities having it: skipped */
	struct scenario_change remove[SCENARIO_SYSTEM_MAX_CHANGES]; /* entities lacking it: skipped */
	struct {
		char requires[SCENARIO_SYSTEM_MAX_REQUIRED][SCENARIO_NAME_SIZE];
		char excludes[SCENARIO_SYSTEM_MAX_EXCLUDED][SCENARIO_NAME_SIZE];
		char reads[SCENARIO_SYSTEM_MAX_REQUIRED][SCENARIO_NAME_SIZE];
		char writes[SCENARIO_SYSTEM_MAX_REQUIRED][SCENARIO_NAME_SIZE];
		char add[SCENARIO_SYSTEM_MAX_CHANGES][SCENARIO_NAME_SIZE];
		char remove[SCENARIO_SYSTEM_MAX_CHANGES][SCENARIO_NAME_SIZE];
		uint32_t requires_count, excludes_count, reads_count, writes_count;
		uint32_t add_count, remove_count;
		double add_share[SCENARIO_SYSTEM_MAX_CHANGES], remove_share[SCENARIO_SYSTEM_MAX_CHANGES];
		uint32_t work;
		double despawn;
		bool parallel;
	} written;
	struct scenario_source src;
};

/* A component put on a kind's entities and taken off again: a status effect, a buff, a tag. */
struct scenario_effect {
	char name[SCENARIO_NAME_SIZE];
	uint32_t kind, type;
	double add;        /* per frame: this share of the kind's live entities is picked, and those
	                      without the type get it (0..1) */
	uint32_t duration; /* frames until it is removed again; 0: `remove` instead */
	double remove;     /* per frame: this share of the entities that have it lose it (0..1) */
	/* `batch`: a frame's adds of the effect in one component_add_batch, its removes in one
	 * component_remove_batch, instead of one call each. */
	bool batch;
	struct {
		char kind[SCENARIO_NAME_SIZE], component[SCENARIO_NAME_SIZE];
		double add, remove;
		uint32_t duration;
	} written;
	struct scenario_source src;
};

struct scenario {
	char path[256]; /* the file as named to scenario_load (for messages and the CSV header) */
	uint32_t lines; /* lines read */

	/* [scenario] */
	uint32_t frames, warmup; /* measured frames, and frames run before them */
	uint64_t seed;
	double scale;      /* already applied to every count and absolute rate below */
	uint32_t entities; /* N that `count = P%` is a share of; 0: not given */
	/* Threads a parallel system's pass runs on, 1..SCENARIO_MAX_THREADS; 0 (`all`, the
	 * default): the CPUs the measuring process may use, which the run resolves. */
	uint32_t threads;
	/* `storage = table`: every type given to the storage as a table type, the components'
	 * `storage = sparse` set aside (false, `marked`, the default: as each component says), so
	 * that one sweep compares a file's markings with none (scenario.storage=table,marked). */
	bool unmarked;
	/* Per frame: lookups + lookup_share * live entities, on random live entities of the kinds
	 * with lookup_match, each reading every lookup type. */
	double lookups, lookup_share;
	uint32_t lookup_type_count;
	uint32_t lookup_types[SCENARIO_MAX_LOOKUP_TYPES];
	struct {
		struct scenario_amount lookups;
		char lookup[SCENARIO_MAX_LOOKUP_TYPES][SCENARIO_NAME_SIZE];
		uint32_t lookup_count;
	} written;
	struct scenario_source src;

	/* Entities alive before the first frame, and at most at any frame (spawn and despawn
	 * rates over warmup + frames; system despawns can only lower it). */
	uint64_t entities_start, entities_peak;

	uint32_t component_count; /* [component] sections: type ids 0..component_count-1 */
	uint32_t type_count;      /* plus the variant tags */
	struct scenario_type types[SCENARIO_MAX_TYPES];
	uint32_t kind_count;
	struct scenario_kind kinds[SCENARIO_MAX_KINDS];
	uint32_t system_count; /* frame order: file order */
	struct scenario_system systems[SCENARIO_MAX_SYSTEMS];
	uint32_t effect_count;
	struct scenario_effect effects[SCENARIO_MAX_EFFECTS];
};

/*
 * Reads and resolves a scenario file. On an error, err gets one line "path:line: problem" (or
 * "path: problem" when the file cannot be read), *sc is unspecified, and the status is
 * SCENARIO_ERR_INVALID or SCENARIO_ERR_IO. Never writes a file.
 */
int scenario_load(struct scenario *sc, const char *path, char *err, size_t errlen);

/* The same for text in memory; `name` stands for the path in messages. */
int scenario_parse_string(struct scenario *sc, const char *name, const char *text, char *err,
                          size_t errlen);

/*
 * Overrides one key of a resolved scenario, e.g. ("effect.burning.add", "5%"),
 * ("kind.soldier.count", "20000"), ("component.Sprite.size", "64"), ("scenario.scale", "0.1"):
 * SECTION.NAME.KEY, or scenario.KEY. The value is checked as in a file and the whole scenario
 * resolved again; on an error err gets "KEY = VALUE: problem" and *sc is left as it was.
 */
int scenario_set(struct scenario *sc, const char *key, const char *value, char *err,
                 size_t errlen);

/* The same for "KEY=VALUE" as --set and --design give it; err gets "'TEXT' is not KEY=VALUE
 * (...)" when it is not one. */
int scenario_set_assignment(struct scenario *sc, const char *assignment, char *err,
                            size_t errlen);

/* Prints the resolved scenario as a few lines starting with "# " (for a CSV header).
 * 0, or -1 if writing failed. */
int scenario_write_header(FILE *f, const struct scenario *sc);

/* Whether any system's pass runs on the scenario's threads. */
static inline bool scenario_has_parallel(const struct scenario *sc)
{
	for (uint32_t i = 0; i < sc->system_count; i++)
		if (sc->systems[i].parallel)
			return true;
	return false;
}

/* Type t's storage hint as the storage gets it: its component's `storage`, or table under
 * [scenario] storage = table. */
static inline uint8_t scenario_storage_hint(const struct scenario *sc, uint32_t t)
{
	return sc->unmarked ? (uint8_t)ECS_STORAGE_TABLE : sc->types[t].storage;
}

/* Whether the storage gets any sparse hint (then every type's; the header says which). */
static inline bool scenario_has_sparse(const struct scenario *sc)
{
	for (uint32_t t = 0; t < sc->component_count; t++)
		if (scenario_storage_hint(sc, t) == ECS_STORAGE_SPARSE)
			return true;
	return false;
}

/* Entities of variant v at the start: count split evenly, the first variants take the rest. */
static inline uint32_t scenario_variant_count(const struct scenario_kind *k, uint32_t v)
{
	return k->count / k->variants + (v < k->count % k->variants);
}

#endif
