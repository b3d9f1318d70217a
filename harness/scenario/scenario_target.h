/*
 * scenario_target.h: what the scenario engine (scenario_engine.c) and its three targets share:
 * the engine's state (struct scenario_engine), the small helpers every part uses, and the
 * interface a target fills (struct scenario_target). A target is what a participant's frames
 * run on: a storage through the interface (scenario_storage.c), the floor's plain columns
 * (scenario_floor.c), or nothing, the harness alone (scenario_harness.c). The frame itself is
 * written once (scenario_frame.h) and compiled into each target, so that a target's part of an
 * operation is a direct, inlined call, not a test of a mode nor an indirect call per entity.
 * Private to harness/scenario/.
 */
#ifndef ECSB_SCENARIO_TARGET_H
#define ECSB_SCENARIO_TARGET_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/alloc.h"
#include "../core/bench.h"
#include "../core/measure.h"
#include "../core/parallel.h"
#include "../core/rng.h"
#include "../../impls/ecs.h"
#include "scenario.h"

/* Types whose presence changes (effects' and systems' add and remove types) are tracked in a
 * 64-bit mask per entity. */
#define SCENARIO_ENGINE_MAX_DYNAMIC 64

/* The engine's command lists: a system's removes, adds and despawns, and the kind list (a
 * frame's spawns, then its kinds' despawns; an entry per entity, naming its kind). */
enum { CLASS_REMOVE, CLASS_ADD, CLASS_DESPAWN, CLASS_KINDS, CLASS_COUNT };
/* Whose order a list is shuffled in (list_key): with the frame, a different order each. */
enum { LIST_POPULATION, LIST_SPAWN, LIST_DESPAWN, LIST_SYSTEM /* + 3 x system + class */ };
enum { NO_BIT = -1 };
#define SLOT_NONE UINT32_MAX
#define SERIAL_NONE UINT32_MAX
#define KV_MAX_TYPES (SCENARIO_KIND_MAX_TYPES + 1) /* a kind's types and a variant tag */
#define TABLE_BYTES 65536u                          /* a type's value table, at most */
#define CHUNK 64 /* random picks drawn, and their members prefetched, this many at a time */
#define PREFETCH_AHEAD 16 /* a list's entries prefetched this far ahead of their use */
#define MAX_CHANGES (1 + 2 * SCENARIO_SYSTEM_MAX_CHANGES) /* a system's despawn, adds, removes */
#define DECIDE_BLOCK 256 /* entities whose decisions are drawn together (decide_block) */

/* --- the engine's generator: splitmix64, inline ------------------------------------------ */

static inline uint64_t draw(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ull;
	return rng_mix64(*state);
}

/* Uniform in 0..n-1 (n >= 1), without division. */
static inline uint32_t draw_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)((draw(state) >> 32) * n >> 32);
}

/* A share (0..1) as a threshold on 32 random bits: picked when bits < threshold. */
static inline uint64_t share_threshold(double share)
{
	double t = share * 4294967296.0;
	return t <= 0 ? 0 : t >= 4294967296.0 ? 1ull << 32 : (uint64_t)(t + 0.5);
}

/* How many of a fractional rate happen this frame; the fraction carries to the next. */
static inline uint32_t take_rate(double *carry, double rate)
{
	double total = *carry + rate;
	uint32_t n = total > 0 ? (uint32_t)total : 0;
	*carry = total - n;
	return n;
}

/* --- component bytes ----------------------------------------------------------------------- */

static inline __attribute__((always_inline)) uint32_t load_value(const unsigned char *p,
                                                                 uint32_t width)
{
	uint32_t v = 0;
	if (width == 4) {
		memcpy(&v, p, 4);
		return v;
	}
	for (uint32_t b = 0; b < width; b++)
		v |= (uint32_t)p[b] << (8 * b);
	return v;
}

static inline __attribute__((always_inline)) void store_value(unsigned char *p, uint32_t width,
                                                              uint32_t v)
{
	if (width == 4) {
		memcpy(p, &v, 4);
		return;
	}
	for (uint32_t b = 0; b < width; b++)
		p[b] = (unsigned char)(v >> (8 * b));
}

static inline uint32_t width_mask(uint32_t width)
{
	return width >= 4 ? UINT32_MAX : (1u << (8 * width)) - 1;
}

/* `work` arithmetic operations on acc: multiply-adds (2 each), and a shift-xor if odd. */
static inline __attribute__((always_inline)) uint32_t do_work(uint32_t acc, uint32_t work)
{
	for (uint32_t j = 0; j < work / 2; j++)
		acc = acc * 0x2545f491u + 0x9e3779b9u;
	if (work & 1)
		acc ^= acc >> 13;
	return acc;
}

#define ACC_START 0x811c9dc5u

/* --- the engine's structures --------------------------------------------------------------- */

struct scenario_target;

struct kind_variant {
	uint32_t kind;
	uint32_t type_count;
	uint32_t types[KV_MAX_TYPES]; /* ascending: what entity_create_with gives */
	uint32_t record_pos[KV_MAX_TYPES]; /* the floor: where each type's value is in a record */
	uint64_t dynamic_initial;          /* dynamic types it is created with */
};

/* An entity in its kind's list (its serial and handle are in kind_state.ids, same place). */
struct member {
	uint64_t dynamic; /* dynamic types it has */
	uint32_t slot, kv;
};

/* A member's serial and handle, packed apart (kind_state.ids). */
struct identity {
	uint32_t serial;
	ecs_entity handle;
};

/* Where a live entity is, by slot (for the command buffers and the effects' queues): its
 * kind-variant and place in its kind's list; 8 bytes, so that many stay in cache. */
struct slot_info {
	uint32_t kind_pos, kv;
};

struct kind_state {
	struct member *live;
	/* The same entities' serials and handles again, packed: what a system's walk and a lookup
	 * read, 8 bytes an entity rather than a member's 24, so that they stay in cache. */
	struct identity *ids;
	/* The floor: a column of 4-byte values per type an entity of the kind may have (its types
	 * in kind-variant order, then the dynamic types), cap apart, in step with live. */
	uint32_t *columns;
	uint32_t count, cap;
	uint32_t kv_first, variants;
	uint32_t next_variant;
	double spawn_carry, despawn_carry;
};

struct command {
	uint32_t slot; /* the entity's (a kind list: unused) */
	uint32_t what; /* the system's change index, or the kind (a kind list) */
};

struct command_list {
	struct command *v;
	uint32_t count, cap;
};

struct system_plan {
	uint32_t id;
	uint32_t reads, writes; /* counts */
	uint32_t read_col[SCENARIO_SYSTEM_MAX_REQUIRED], write_col[SCENARIO_SYSTEM_MAX_REQUIRED];
	uint32_t read_type[SCENARIO_SYSTEM_MAX_REQUIRED], write_type[SCENARIO_SYSTEM_MAX_REQUIRED];
	uint32_t read_width[SCENARIO_SYSTEM_MAX_REQUIRED], write_width[SCENARIO_SYSTEM_MAX_REQUIRED];
	uint32_t work;
	uint64_t need_dynamic, exclude_dynamic; /* dynamic required / excluded types */
	uint32_t kinds[SCENARIO_MAX_KINDS];     /* kinds with a variant that can match */
	uint32_t kind_count;
	bool changes;
	uint64_t key;
	uint64_t despawn_threshold;
	uint32_t adds, removes;
	uint64_t add_threshold[SCENARIO_SYSTEM_MAX_CHANGES], remove_threshold[SCENARIO_SYSTEM_MAX_CHANGES];
	uint32_t add_type[SCENARIO_SYSTEM_MAX_CHANGES], remove_type[SCENARIO_SYSTEM_MAX_CHANGES];
	uint64_t add_bit[SCENARIO_SYSTEM_MAX_CHANGES], remove_bit[SCENARIO_SYSTEM_MAX_CHANGES];
	/* The changes with a share above 0, as decide draws them: the despawn first, if any, then
	 * the adds and removes; each picks an entity when its hash is at most limit. */
	uint32_t change_count;
	uint8_t change_class[MAX_CHANGES], change_index[MAX_CHANGES];
	uint32_t change_limit[MAX_CHANGES];
};

struct expiry {
	uint32_t slot, serial, frame;
};

struct effect_state {
	uint64_t bit;
	double add_carry, remove_carry;
	struct expiry *ring;
	uint32_t head, count, cap;
};

/*
 * The batches' scratch (kinds and effects marked `batch`): a batch's entities (their place in
 * their kind's list, handle and serial) and their values packed (a type's values one after the
 * other, as ecs_values with stride = size reads them); for a frame's spawns, the handle each
 * entry of the kind list was given by its kind-variant's batch. Reserved at open for the rates
 * the scenario gives (batch_reserve), so that a frame rarely grows it.
 */
struct batch_scratch {
	uint32_t cap;
	uint32_t *pos, *serials;
	ecs_entity *handles;
	uint32_t listed_cap;
	ecs_entity *listed;
	size_t values_cap;
	unsigned char *values;
};

/* What one thread of a parallel pass adds to the work sum, alone on its cache line, so that no
 * thread writes a line another one writes (the sums are added up once the pass is over). */
struct thread_sum {
	_Alignas(ECS_CACHE_LINE) uint32_t sum;
};

struct scenario_engine {
	const struct scenario *sc;
	const struct scenario_target *target; /* what it runs: a storage, the floor, nothing */
	bool cpu_clock; /* phases in the thread's CPU time, as the frame (--clock cpu) */
	const struct ecs_ops *ops;
	ecs_storage *s;
	struct counting_alloc counter;
	uint64_t own_bytes, own_peak; /* the engine's and the floor's arrays */
	char error[200];

	uint32_t *sizes, *widths;
	int8_t *dynamic_bit; /* per type: its bit, or NO_BIT */
	uint32_t dynamic_count;

	unsigned char **table;
	uint32_t *table_mask;

	struct kind_variant *kvs;
	uint32_t kv_count;
	struct kind_state kinds[SCENARIO_MAX_KINDS];
	uint8_t *kv_match; /* system x kv: statically matches */
	struct system_plan *systems;
	uint8_t *system_record_pos; /* the floor: system x kv x batch column -> its column */
	uint8_t *kind_all_match;    /* system x kind: every variant statically matches */
	struct effect_state effects[SCENARIO_MAX_EFFECTS];
	uint32_t lookup_kinds[SCENARIO_MAX_KINDS], lookup_kind_count;
	uint64_t lookup_bit[SCENARIO_MAX_LOOKUP_TYPES];  /* 0: static */
	uint8_t *lookup_record_pos;                      /* the floor: kv x lookup type -> column */

	/* slots */
	uint32_t slot_cap, slot_high, free_count;
	uint32_t *free_slots;
	struct slot_info *slots;

	uint32_t record_width, kv_max_types; /* the floor: columns per kind, and the first of the
	                                        dynamic types' columns */
	/* Per dynamic type a system with changes requires (the floor: any system), the slots that
	 * have it (and each one's place), so that such a system walks those, not whole kinds. */
	uint64_t tracked;
	uint32_t *having[SCENARIO_ENGINE_MAX_DYNAMIC], *having_pos[SCENARIO_ENGINE_MAX_DYNAMIC];
	uint32_t having_count[SCENARIO_ENGINE_MAX_DYNAMIC], having_cap[SCENARIO_ENGINE_MAX_DYNAMIC];

	uint64_t live;
	uint32_t next_serial;
	uint32_t frame;
	uint64_t rng;
	uint64_t order_seed; /* the lists' orders (list_key) */
	double lookup_carry;
	uint32_t work_sum, lookup_sum; /* what the systems' work and the lookups add up to */
	uint32_t handles_read;         /* keeps the harness's own reads of handles */
	/* a pass's multipliers (decide), one per change of the system */
	uint32_t pass_mul[MAX_CHANGES];

	struct command_list commands[CLASS_COUNT];
	struct batch_scratch batch;
	bool batched_kinds; /* some kind's spawns are batched */
	/* Per system: its answer to ecs_system_group (1 grouped, 0 declined), -1 not asked. */
	int8_t grouped[SCENARIO_MAX_SYSTEMS];
	/* The threads of the systems marked parallel (scenario_engine_threads): NULL, none started
	 * (every pass is the serial one). */
	struct parallel_pool *pool;
	struct thread_sum *thread_sums; /* one per thread of the pool */
	uint32_t phases;
	double figures[SCENARIO_MAX_SYSTEMS + 7]; /* phases, allocations, largest block */
};

/*
 * A target: its frame (scenario_frame.h compiled with its part of each operation), and its part
 * of what happens outside the frames. NULL where a target has nothing to do.
 */
struct scenario_target {
	/* One frame; the population made at open. 0, or -1 with the error set. */
	int (*frame)(struct scenario_engine *e);
	int (*populate)(struct scenario_engine *e);
	/* Room for at_least members of kind k (at open: the kind's peak); false if out of memory. */
	bool (*reserve_kind)(struct scenario_engine *e, struct kind_state *k, uint32_t at_least);
	/* Makes the storage and registers the systems (a storage target alone; with it, open
	 * requires a backend). */
	int (*open)(struct scenario_engine *e, char *err, size_t errlen);
	/* Whether a parallel pass can be split in `threads` parts (-1 with err set if not). */
	int (*threads_check)(const struct scenario_engine *e, uint32_t threads, char *err,
	                     size_t errlen);
	/* Peak and live bytes of what it measures; NULL: the engine's own arrays (own_bytes). */
	void (*memory)(const struct scenario_engine *e, uint64_t *peak, uint64_t *live);
	/* The checksum's reads: the entity is alive (NULL: nothing to ask), and type t's value of
	 * member pos of kind `kind` into value (has: the engine says it has t). NULL read_value:
	 * no checksum (the harness alone). After them, verify (NULL: nothing more to check). */
	int (*alive)(struct scenario_engine *e, ecs_entity handle, uint32_t serial);
	int (*read_value)(struct scenario_engine *e, uint32_t kind, uint32_t pos, uint32_t type,
	                  bool has, unsigned char *value);
	int (*verify)(struct scenario_engine *e);
	/* It keeps the values in its own columns (the floor): records of where each type's column
	 * is, and every system's dynamic types tracked, for its walks. */
	bool own_columns;
};

extern const struct scenario_target scenario_storage_target, scenario_floor_target,
	scenario_harness_target;

/* Writes the engine's error (printf-style); returns -1. */
static inline int scenario_engine_fail(struct scenario_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int scenario_engine_fail(struct scenario_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->error, sizeof e->error, fmt, ap);
	va_end(ap);
	return -1;
}

/* --- phases, memory, values, slots ----------------------------------------------------------- */

static inline uint32_t phase_despawn(const struct scenario *sc) { return sc->system_count + 1; }
static inline uint32_t phase_add(const struct scenario *sc) { return sc->system_count + 2; }
static inline uint32_t phase_remove(const struct scenario *sc) { return sc->system_count + 3; }
static inline uint32_t phase_lookup(const struct scenario *sc) { return sc->system_count + 4; }

static inline void *own_alloc(struct scenario_engine *e, size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (p) {
		e->own_bytes += n;
		if (e->own_bytes > e->own_peak)
			e->own_peak = e->own_bytes;
	}
	return p;
}

/* Grows *p from old_n to new_n elements of `size` bytes (zeroed); false if out of memory. */
static inline bool own_grow(struct scenario_engine *e, void **p, size_t size, size_t old_n,
                     size_t new_n)
{
	void *q = realloc(*p, size * new_n);
	if (!q)
		return false;
	memset((char *)q + size * old_n, 0, size * (new_n - old_n));
	*p = q;
	e->own_bytes += size * (new_n - old_n);
	if (e->own_bytes > e->own_peak)
		e->own_peak = e->own_bytes;
	return true;
}

static inline uint32_t value_index(uint32_t serial, uint32_t type)
{
	return (uint32_t)(((uint64_t)(serial ^ type * 0x85ebca77u) * 0x9e3779b1u) >> 24);
}

static inline const unsigned char *value_of_entity(const struct scenario_engine *e,
                                                   uint32_t type, uint32_t serial)
{
	return e->table[type] + (size_t)(value_index(serial, type) & e->table_mask[type]) *
	                            e->sizes[type];
}

/* Room in the batches' scratch for n entities and value_bytes of values; false if out of
 * memory. */
static inline bool batch_reserve(struct scenario_engine *e, uint32_t n, size_t value_bytes)
{
	struct batch_scratch *b = &e->batch;
	if (n > b->cap) {
		uint32_t cap = b->cap ? b->cap : 64;
		while (cap < n)
			cap *= 2;
		if (!own_grow(e, (void **)&b->pos, sizeof *b->pos, b->cap, cap) ||
		    !own_grow(e, (void **)&b->serials, sizeof *b->serials, b->cap, cap) ||
		    !own_grow(e, (void **)&b->handles, sizeof *b->handles, b->cap, cap))
			return false;
		b->cap = cap;
	}
	if (value_bytes > b->values_cap) {
		size_t cap = b->values_cap ? b->values_cap : 4096;
		while (cap < value_bytes)
			cap *= 2;
		if (!own_grow(e, (void **)&b->values, 1, b->values_cap, cap))
			return false;
		b->values_cap = cap;
	}
	return true;
}

static inline bool grow_slots(struct scenario_engine *e)
{
	uint32_t old = e->slot_cap, cap = old ? old * 2 : 64;
	if (cap > ECS_MAX_ENTITIES + 1u)
		cap = ECS_MAX_ENTITIES + 1u;
	if (cap <= old)
		return false;
	bool ok = own_grow(e, (void **)&e->free_slots, sizeof *e->free_slots, old, cap) &&
	          own_grow(e, (void **)&e->slots, sizeof *e->slots, old, cap);

	for (uint32_t d = 0; ok && d < SCENARIO_ENGINE_MAX_DYNAMIC; d++)
		if (e->tracked >> d & 1)
			ok = own_grow(e, (void **)&e->having_pos[d], sizeof *e->having_pos[d], old, cap);
	if (ok)
		e->slot_cap = cap;
	return ok;
}

static inline bool reserve_slots(struct scenario_engine *e, uint64_t n)
{
	while (e->slot_cap < n && e->slot_cap <= ECS_MAX_ENTITIES)
		if (!grow_slots(e))
			return false;
	return true;
}

static inline bool take_slot(struct scenario_engine *e, uint32_t *slot)
{
	if (e->free_count) {
		*slot = e->free_slots[--e->free_count];
		return true;
	}
	if (e->slot_high == e->slot_cap && !grow_slots(e))
		return false;
	*slot = e->slot_high++;
	return true;
}

/* The floor's column c of kind k. */
static inline uint32_t *column_of(const struct kind_state *k, uint32_t c)
{
	return k->columns + (size_t)c * k->cap;
}

static inline struct kind_state *kind_of_slot(struct scenario_engine *e, uint32_t slot)
{
	return &e->kinds[e->kvs[e->slots[slot].kv].kind];
}

static inline struct member *member_of_slot(struct scenario_engine *e, uint32_t slot)
{
	return &kind_of_slot(e, slot)->live[e->slots[slot].kind_pos];
}

/* Whether a slot holds a live entity: a kill leaves the slot's record as it was (one write
 * less), but its place in the kind's list then holds another entity, or lies past the end. */
static inline bool slot_alive(struct scenario_engine *e, uint32_t slot)
{
	const struct slot_info *si = &e->slots[slot];
	const struct kind_state *k = kind_of_slot(e, slot);
	return si->kind_pos < k->count && k->live[si->kind_pos].slot == slot;
}

/* Where id is in ids[0..n), or -1. */
static inline int32_t index_in(const uint32_t *ids, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == id)
			return (int32_t)i;
	return -1;
}

/* Where type t's value is in a floor record of kind-variant kv. */
static inline uint32_t record_pos(const struct scenario_engine *e, const struct kind_variant *kv,
                           uint32_t t)
{
	if (e->dynamic_bit[t] != NO_BIT)
		return e->kv_max_types + (uint32_t)e->dynamic_bit[t];
	int32_t i = index_in(kv->types, kv->type_count, t);
	return i < 0 ? 0 : (uint32_t)i;
}

#endif
