/*
 * scenario_engine.c: the frames of a scenario, for a storage, the floor or the harness alone
 * (what a frame holds, in which order, and what each mode does: scenario_engine.h).
 *
 * The engine's own state, the same in every participant because every participant makes the
 * same decisions:
 *   per kind    its live entities in parallel arrays: members (16 bytes: the 64-bit mask of the
 *               types that come and go that it has, its slot, its kind-variant) and identities
 *               (8 bytes: serial, handle), so that a walk reads serials alone and a lookup
 *               handles alone; swap-remove keeps them dense; the floor's values in columns;
 *   per slot    8 bytes: the entity's kind-variant and place in its kind's list, so that a
 *               command buffer or an effect's queue, which name entities by slot, find them;
 *   per effect  with a duration, a queue of (slot, serial, frame it ends) in the order they
 *               were added (every entry lasts as long, so the queue is in expiry order);
 *   per system  its storage id, what it reads and writes, the kind-variants it can match, its
 *               changes (share thresholds), and for the types that come and go ("dynamic":
 *               effects' and systems' add and remove types) that a system requires, the list of
 *               slots having each, so that its walk goes through those only.
 *
 * A system's changes are drawn as its pass ends, from the engine's own lists of the entities it
 * matches (decide_changes): the storage's pass hands out its batches to the work alone, and
 * the engine never looks up the entities it hands out (a lookup per visited entity cost rpg's
 * combat pass about as much as its work). The verification checks that the storage visits
 * exactly the entities the engine counts as matching.
 *
 * The order of what a frame does: every list of operations is shuffled before it is applied
 * (shuffle_commands), so that a frame spawns and destroys its kinds mixed and changes entities
 * in no order of their creation, as a game does: a storage's shortcut for the same kind as the
 * last call, or for entities made and destroyed in index order, gets no more help from the
 * harness than a game would give it.
 *
 * The harness must not be what is measured: the random picks (despawns, effects, lookups) are
 * drawn a chunk at a time and what they land on prefetched before it is used, so that the
 * engine's own cache misses overlap instead of adding up; a system's decisions are a vectorised
 * hash over blocks of serials; a frame makes no call but the storage's and the clock's.
 *
 * Values: each type has a table of up to 64 values made at open (fewer for large types); the
 * entity with serial s gets value hash(s, t) of type t's table when it is created or the type
 * is added to it. A system reads and writes the first min(size, 4) bytes of a component as a
 * little-endian unsigned integer (integer arithmetic, so that every loop shape gives the same
 * bits); the floor keeps only those bytes, and rebuilds a whole value from the table for the
 * checksum.
 *
 * Costs per frame: O(1) per spawn, despawn, add, remove, effect pick and lookup beyond the
 * storage's own; per visited entity the system's reads, work and writes; per entity a system
 * with changes matches, one 32-bit multiply per change; per command (a system's change, a spawn,
 * a kind's despawn) one draw and one swap of its list's shuffle (shuffle_commands).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/alloc.h"
#include "../core/bench.h"
#include "../core/measure.h"
#include "../core/parallel.h"
#include "../core/rng.h"
#include "scenario_engine.h"

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
static uint64_t share_threshold(double share)
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

/* What one thread of a parallel pass adds to the work sum, alone on its cache line, so that no
 * thread writes a line another one writes (the sums are added up once the pass is over). */
struct thread_sum {
	_Alignas(ECS_CACHE_LINE) uint32_t sum;
};

struct scenario_engine {
	const struct scenario *sc;
	enum scenario_mode mode;
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
	/* The threads of the systems marked parallel (scenario_engine_threads): NULL, none started
	 * (every pass is the serial one). */
	struct parallel_pool *pool;
	struct thread_sum *thread_sums; /* one per thread of the pool */
	uint32_t phases;
	double figures[SCENARIO_MAX_SYSTEMS + 6];
};

/* --- phases --------------------------------------------------------------------------------- */

uint32_t scenario_engine_phase_count(const struct scenario *sc) { return sc->system_count + 5; }

static uint32_t phase_despawn(const struct scenario *sc) { return sc->system_count + 1; }
static uint32_t phase_add(const struct scenario *sc) { return sc->system_count + 2; }
static uint32_t phase_remove(const struct scenario *sc) { return sc->system_count + 3; }
static uint32_t phase_lookup(const struct scenario *sc) { return sc->system_count + 4; }

void scenario_engine_phase_name(const struct scenario *sc, uint32_t phase, char *buf, size_t len)
{
	if (phase == SCENARIO_PHASE_SPAWN)
		snprintf(buf, len, "spawn");
	else if (phase <= sc->system_count)
		snprintf(buf, len, "system:%s", sc->systems[phase - 1].name);
	else if (phase == phase_despawn(sc))
		snprintf(buf, len, "despawn");
	else if (phase == phase_add(sc))
		snprintf(buf, len, "add");
	else if (phase == phase_remove(sc))
		snprintf(buf, len, "remove");
	else
		snprintf(buf, len, "lookup");
}

/* --- checks before a run ------------------------------------------------------------------ */

static int find_dynamic(const struct scenario *sc, int8_t *bit, uint32_t *count, char *err,
                        size_t errlen)
{
	for (uint32_t t = 0; t < sc->type_count; t++)
		bit[t] = NO_BIT;
	*count = 0;
	uint32_t types[SCENARIO_MAX_EFFECTS + SCENARIO_MAX_SYSTEMS * 2 * SCENARIO_SYSTEM_MAX_CHANGES];
	uint32_t n = 0;
	for (uint32_t i = 0; i < sc->effect_count; i++)
		types[n++] = sc->effects[i].type;
	for (uint32_t i = 0; i < sc->system_count; i++) {
		for (uint32_t j = 0; j < sc->systems[i].add_count; j++)
			types[n++] = sc->systems[i].add[j].type;
		for (uint32_t j = 0; j < sc->systems[i].remove_count; j++)
			types[n++] = sc->systems[i].remove[j].type;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (bit[types[i]] != NO_BIT)
			continue;
		if (*count == SCENARIO_ENGINE_MAX_DYNAMIC) {
			snprintf(err, errlen,
			         "%s: more than %u types are put on and taken off (effects' and systems' "
			         "add and remove types): the engine tracks at most %u",
			         sc->path, SCENARIO_ENGINE_MAX_DYNAMIC, SCENARIO_ENGINE_MAX_DYNAMIC);
			return -1;
		}
		bit[types[i]] = (int8_t)(*count)++;
	}
	return 0;
}

int scenario_engine_check(const struct scenario *sc, char *err, size_t errlen)
{
	int8_t bit[SCENARIO_MAX_TYPES];
	uint32_t count;
	if (find_dynamic(sc, bit, &count, err, errlen))
		return -1;
	/* Serial numbers: every entity ever created, one calibration frame included. */
	double frames = (double)sc->warmup + sc->frames + 1;
	double created = (double)sc->entities_start;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		created += (sc->kinds[k].spawn + 1) * frames;
	if (created >= (double)SERIAL_NONE) {
		snprintf(err, errlen,
		         "%s: about %.0f entities created over the run, more than the engine numbers "
		         "(%u): fewer frames or spawns",
		         sc->path, created, SERIAL_NONE - 1);
		return -1;
	}
	return 0;
}

/* --- memory of the engine ------------------------------------------------------------------- */

static void *own_alloc(struct scenario_engine *e, size_t n)
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
static bool own_grow(struct scenario_engine *e, void **p, size_t size, size_t old_n,
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

static int engine_fail(struct scenario_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int engine_fail(struct scenario_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->error, sizeof e->error, fmt, ap);
	va_end(ap);
	return -1;
}

const char *scenario_engine_error(const struct scenario_engine *e) { return e->error; }
const double *scenario_engine_figures(const struct scenario_engine *e) { return e->figures; }
ecs_storage *scenario_engine_storage(const struct scenario_engine *e) { return e->s; }
uint32_t scenario_engine_system_id(const struct scenario_engine *e, uint32_t system)
{
	return e->systems[system].id;
}
uint64_t scenario_engine_live_entities(const struct scenario_engine *e) { return e->live; }
uint32_t scenario_engine_frames_run(const struct scenario_engine *e) { return e->frame; }

void scenario_engine_memory(const struct scenario_engine *e, uint64_t *peak, uint64_t *live)
{
	if (e->mode == SCENARIO_MODE_STORAGE) {
		*peak = e->counter.peak_bytes;
		*live = e->counter.live_bytes;
	} else {
		*peak = e->own_peak;
		*live = e->own_bytes;
	}
}

/* --- values ----------------------------------------------------------------------------------- */

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

static int make_tables(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	e->table = own_alloc(e, sc->type_count * sizeof *e->table);
	e->table_mask = own_alloc(e, sc->type_count * sizeof *e->table_mask);
	if (!e->table || !e->table_mask)
		return -1;
	for (uint32_t t = 0; t < sc->type_count; t++) {
		uint32_t n = 64;
		while (n > 4 && (size_t)n * e->sizes[t] > TABLE_BYTES)
			n /= 2;
		e->table_mask[t] = n - 1;
		e->table[t] = own_alloc(e, (size_t)n * e->sizes[t]);
		if (!e->table[t])
			return -1;
		uint64_t state = rng_mix64(sc->seed ^ rng_mix64(0x7a61u + t));
		for (size_t b = 0; b < (size_t)n * e->sizes[t]; b++)
			e->table[t][b] = (unsigned char)(draw(&state) >> 56);
	}
	return 0;
}

/* --- slots and kind lists ------------------------------------------------------------------ */

static bool grow_slots(struct scenario_engine *e)
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

static bool reserve_slots(struct scenario_engine *e, uint64_t n)
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

static bool grow_kind(struct scenario_engine *e, struct kind_state *k, uint32_t at_least)
{
	uint32_t cap = k->cap ? k->cap : 16;
	while (cap < at_least)
		cap *= 2;
	if (cap == k->cap)
		return true;
	if (!own_grow(e, (void **)&k->live, sizeof *k->live, k->cap, cap) ||
	    !own_grow(e, (void **)&k->ids, sizeof *k->ids, k->cap, cap))
		return false;
	if (e->mode == SCENARIO_MODE_FLOOR) {
		uint32_t *columns = own_alloc(e, (size_t)e->record_width * cap * sizeof *columns);
		if (!columns)
			return false;
		for (uint32_t c = 0; c < e->record_width && k->columns; c++)
			memcpy(columns + (size_t)c * cap, k->columns + (size_t)c * k->cap,
			       k->count * sizeof *columns);
		free(k->columns);
		e->own_bytes -= (size_t)e->record_width * k->cap * sizeof *columns;
		k->columns = columns;
	}
	k->cap = cap;
	return true;
}


/* --- structural operations, the same bookkeeping in every mode ---------------------------- */

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

/* The lists of slots having each tracked type, kept as bits come and go. */
static bool having_add(struct scenario_engine *e, uint64_t bits, uint32_t slot)
{
	for (bits &= e->tracked; bits; bits &= bits - 1) {
		uint32_t d = (uint32_t)__builtin_ctzll(bits);
		if (e->having_count[d] == e->having_cap[d]) {
			uint32_t cap = e->having_cap[d] ? e->having_cap[d] * 2 : 64;
			if (!own_grow(e, (void **)&e->having[d], sizeof *e->having[d], e->having_cap[d], cap))
				return false;
			e->having_cap[d] = cap;
		}
		e->having_pos[d][slot] = e->having_count[d];
		e->having[d][e->having_count[d]++] = slot;
	}
	return true;
}

static void having_remove(struct scenario_engine *e, uint64_t bits, uint32_t slot)
{
	for (bits &= e->tracked; bits; bits &= bits - 1) {
		uint32_t d = (uint32_t)__builtin_ctzll(bits);
		uint32_t at = e->having_pos[d][slot], last = e->having[d][--e->having_count[d]];
		e->having[d][at] = last;
		e->having_pos[d][last] = at;
	}
}

static int spawn_one(struct scenario_engine *e, uint32_t kind)
{
	struct kind_state *k = &e->kinds[kind];
	uint32_t kv = k->kv_first + k->next_variant, slot;
	const struct kind_variant *v = &e->kvs[kv];
	if (k->count == k->cap && !grow_kind(e, k, k->count + 1))
		return engine_fail(e, "out of memory in the harness");
	if (!take_slot(e, &slot))
		return engine_fail(e, "out of memory in the harness (slots)");
	uint32_t serial = e->next_serial;
	ecs_entity h = ECS_NULL;
	if (e->mode == SCENARIO_MODE_STORAGE) {
		const void *values[KV_MAX_TYPES];
		for (uint32_t j = 0; j < v->type_count; j++)
			values[j] = value_of_entity(e, v->types[j], serial);
		int rc = ecs_entity_create_with(e->ops, e->s, v->types, v->type_count, values, &h);
		if (rc != ECS_OK) {
			e->free_slots[e->free_count++] = slot;
			return engine_fail(e, "creating an entity of kind %s returned %s",
			                   e->sc->kinds[kind].name, ecs_status_name(rc));
		}
	} else if (e->mode == SCENARIO_MODE_FLOOR) {
		for (uint32_t j = 0; j < v->type_count; j++) {
			uint32_t t = v->types[j];
			column_of(k, v->record_pos[j])[k->count] =
				load_value(value_of_entity(e, t, serial), e->widths[t]);
		}
	}
	e->next_serial++;
	k->next_variant = k->next_variant + 1 == k->variants ? 0 : k->next_variant + 1;
	e->slots[slot] = (struct slot_info){k->count, kv};

	k->ids[k->count] = (struct identity){serial, h};
	k->live[k->count++] = (struct member){v->dynamic_initial, slot, kv};
	e->live++;
	if (!having_add(e, v->dynamic_initial, slot))
		return engine_fail(e, "out of memory in the harness");
	return 0;
}

/* Destroys member `pos` of kind k. */
static int kill_at(struct scenario_engine *e, struct kind_state *k, uint32_t pos)
{
	struct member m = k->live[pos];
	if (e->mode == SCENARIO_MODE_STORAGE) {
		int rc = e->ops->entity_destroy(e->s, k->ids[pos].handle);
		if (rc != ECS_OK)
			return engine_fail(e, "destroying entity #%u returned %s", k->ids[pos].serial,
			                   ecs_status_name(rc));
	}
	struct member last = k->live[--k->count];
	if (pos != k->count) {
		k->live[pos] = last;
		k->ids[pos] = k->ids[k->count];
		e->slots[last.slot].kind_pos = pos;
		for (uint32_t c = 0; e->mode == SCENARIO_MODE_FLOOR && c < e->record_width; c++)
			column_of(k, c)[pos] = column_of(k, c)[k->count];
	}
	having_remove(e, m.dynamic, m.slot);
	e->free_slots[e->free_count++] = m.slot;
	e->live--;
	return 0;
}

static int kill_slot(struct scenario_engine *e, uint32_t slot)
{
	const struct slot_info *si = &e->slots[slot];
	return kill_at(e, &e->kinds[e->kvs[si->kv].kind], si->kind_pos);
}

/* Adds a type to member pos of kind k. */
static int add_type_at(struct scenario_engine *e, struct kind_state *k, uint32_t pos, uint32_t type,
                       uint64_t bit)
{
	struct identity id = k->ids[pos];
	uint32_t slot = k->live[pos].slot;
	if (e->mode == SCENARIO_MODE_STORAGE) {
		int rc = e->ops->component_add(e->s, id.handle, type, value_of_entity(e, type, id.serial));
		if (rc != ECS_OK)
			return engine_fail(e, "adding %s to entity #%u returned %s",
			                   e->sc->types[type].name, id.serial, ecs_status_name(rc));
	} else if (e->mode == SCENARIO_MODE_FLOOR) {
		column_of(k, e->kv_max_types + (uint32_t)e->dynamic_bit[type])[pos] =
			load_value(value_of_entity(e, type, id.serial), e->widths[type]);
	}
	k->live[pos].dynamic |= bit;
	if (!having_add(e, bit, slot))
		return engine_fail(e, "out of memory in the harness");
	return 0;
}

static int remove_type_at(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                          uint32_t type, uint64_t bit)
{
	uint32_t slot = k->live[pos].slot;
	if (e->mode == SCENARIO_MODE_STORAGE) {
		int rc = e->ops->component_remove(e->s, k->ids[pos].handle, type);
		if (rc != ECS_OK)
			return engine_fail(e, "removing %s from entity #%u returned %s",
			                   e->sc->types[type].name, k->ids[pos].serial, ecs_status_name(rc));
	}
	k->live[pos].dynamic &= ~bit;
	having_remove(e, bit, slot);
	return 0;
}

static int add_type(struct scenario_engine *e, uint32_t slot, uint32_t type, uint64_t bit)
{
	return add_type_at(e, kind_of_slot(e, slot), e->slots[slot].kind_pos, type, bit);
}

static int remove_type(struct scenario_engine *e, uint32_t slot, uint32_t type, uint64_t bit)
{
	return remove_type_at(e, kind_of_slot(e, slot), e->slots[slot].kind_pos, type, bit);
}

/* --- command buffers ------------------------------------------------------------------------ */

static inline bool push_command(struct scenario_engine *e, struct command_list *l, uint32_t what,
                                uint32_t slot)
{
	if (l->count == l->cap) {
		uint32_t cap = l->cap * 2;
		if (!own_grow(e, (void **)&l->v, sizeof *l->v, l->cap, cap))
			return false;
		l->cap = cap;
	}
	l->v[l->count++] = (struct command){slot, what};
	return true;
}

/*
 * The order a list is applied in: every list of operations the engine applies (the population
 * made at open, a frame's spawns, its kinds' despawns, a system's removes, adds and despawns)
 * is shuffled first, with draws from `key` (list_key: the seed, the list and the frame), a
 * Fisher-Yates shuffle, one draw and one swap of 8 bytes per command. The lists are built in
 * the same order by every participant (the engine's own lists, the same in all), so every
 * participant applies them in the same order; and that order is neither the entities'
 * creation nor kind after kind, nor the walk that built it: a game spawns bullets, sparks and
 * enemies as its events come, and destroys what dies when it dies. Commands on one entity
 * (a system's adds of two types) commute, so their order changes nothing but the storage's
 * layout.
 */
static void shuffle_commands(struct command_list *l, uint64_t key)
{
	uint64_t state = key;
	for (uint32_t i = l->count; i > 1; i--) {
		uint32_t j = draw_below(&state, i);
		struct command x = l->v[i - 1];
		l->v[i - 1] = l->v[j];
		l->v[j] = x;
	}
}

/* The key of a list's order this frame (shuffle_commands). */
static uint64_t list_key(const struct scenario_engine *e, uint32_t list)
{
	return rng_mix64(e->order_seed ^ ((uint64_t)e->frame << 16 | list));
}

/*
 * A kind list: n[k] entries naming kind k for each kind, shuffled (a weighted shuffle: every
 * interleaving of the kinds' entries alike likely), so that a frame spawns (or destroys) its
 * kinds mixed, as a game does, not one kind's block after another's. A list of one kind is not
 * shuffled: any order of its entries is the same list.
 */
static bool kind_list_make(struct scenario_engine *e, struct command_list *l, const uint32_t *n,
                           uint64_t key)
{
	uint32_t kinds = 0;
	l->count = 0;
	for (uint32_t k = 0; k < e->sc->kind_count; k++) {
		kinds += n[k] > 0;
		for (uint32_t j = 0; j < n[k]; j++)
			if (!push_command(e, l, k, 0))
				return false;
	}
	if (kinds > 1)
		shuffle_commands(l, key);
	return true;
}

/*
 * What system sp decides for an entity this frame, keyed by its serial. Each change of the
 * system draws from the serial alone with a multiply-shift hash, serial * a mod 2^32 for an odd
 * a drawn per system, frame and change (e->pass_mul), compared against the share: a 2-universal
 * family (Dietzfelbinger et al., 1997), one 32-bit multiply per change, so that decisions cost
 * little, vectorise (decide_block), and do not depend on any order of visit. The result is a
 * mask, bit c for change c. An add to an entity that has the type already, or a remove from one
 * that lacks it, is dropped when the buffer is applied (apply_commands), where the entity's
 * record is read anyway; deciding reads nothing but the serial.
 */
static inline uint32_t decide_mask(const struct scenario_engine *e, const struct system_plan *sp,
                                   uint32_t serial)
{
	uint32_t mask = 0;
	for (uint32_t c = 0; c < sp->change_count; c++)
		mask |= (uint32_t)(serial * e->pass_mul[c] <= sp->change_limit[c]) << c;
	return mask;
}

/* The commands of a picked entity: its despawn alone if that was drawn, else its adds and
 * removes. */
static bool push_picked(struct scenario_engine *e, const struct system_plan *sp, uint32_t mask,
                        uint32_t slot)
{
	for (; mask; mask &= mask - 1) {
		uint32_t c = (uint32_t)__builtin_ctz(mask);
		uint32_t class = sp->change_class[c], j = sp->change_index[c];
		if (!push_command(e, &e->commands[class], j, slot))
			return false;
		if (class == CLASS_DESPAWN)
			return true;
	}
	return true;
}

static inline __attribute__((always_inline)) bool
decide(struct scenario_engine *e, const struct system_plan *sp, const uint32_t *slot_at,
       uint32_t serial)
{
	uint32_t mask = decide_mask(e, sp, serial);
	return !mask || push_picked(e, sp, mask, *slot_at);
}

/* The decisions of a whole kind's members, DECIDE_BLOCK at a time: the serials gathered, every
 * change's hash and comparison over the block (loops the compiler vectorises), then the picked
 * few pushed. The same decisions as decide's. */
static bool decide_block(struct scenario_engine *e, const struct system_plan *sp,
                         const struct kind_state *k)
{
	uint32_t serial[DECIDE_BLOCK];
	uint16_t mask[DECIDE_BLOCK];
	for (uint32_t base = 0; base < k->count; base += DECIDE_BLOCK) {
		uint32_t n = k->count - base < DECIDE_BLOCK ? k->count - base : DECIDE_BLOCK;
		const struct identity *ids = k->ids + base;
		for (uint32_t i = 0; i < n; i++) {
			serial[i] = ids[i].serial;
			mask[i] = 0;
		}
		for (uint32_t c = 0; c < sp->change_count; c++) {
			uint32_t a = e->pass_mul[c], limit = sp->change_limit[c];
			for (uint32_t i = 0; i < n; i++)
				mask[i] |= (uint16_t)((uint16_t)(serial[i] * a <= limit) << c);
		}
		for (uint32_t i = 0; i < n; i++)
			if (mask[i] && !push_picked(e, sp, mask[i], k->live[base + i].slot))
				return false;
	}
	return true;
}

/* --- the systems' work ---------------------------------------------------------------------- */

/* Where component c of entity i of a batch is: its column, or its pointer array. */
struct batch_view {
	unsigned char *base[SCENARIO_SYSTEM_MAX_REQUIRED];
	size_t stride[SCENARIO_SYSTEM_MAX_REQUIRED];
	void **ptrs[SCENARIO_SYSTEM_MAX_REQUIRED];
};

static inline __attribute__((always_inline)) unsigned char *
at(const struct batch_view *v, uint32_t c, uint32_t i, bool all_columns)
{
	if (all_columns || !v->ptrs[c])
		return v->base[c] + (size_t)i * v->stride[c];
	return v->ptrs[c][i];
}

/* The pass over one batch; the shape (whole columns or not) fixed at compile time. */
static inline __attribute__((always_inline)) uint32_t
work_batch(const struct system_plan *sp, const struct batch_view *v, uint32_t n, bool all_columns)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t acc = ACC_START;
		for (uint32_t r = 0; r < sp->reads; r++)
			acc = acc * 31 + load_value(at(v, sp->read_col[r], i, all_columns), sp->read_width[r]);
		acc = do_work(acc, sp->work);
		for (uint32_t w = 0; w < sp->writes; w++) {
			unsigned char *p = at(v, sp->write_col[w], i, all_columns);
			store_value(p, sp->write_width[w], load_value(p, sp->write_width[w]) + acc);
		}
		sum += acc;
	}
	return sum;
}

static uint32_t work_columns(const struct system_plan *sp, const struct batch_view *v, uint32_t n)
{
	return work_batch(sp, v, n, true);
}

static uint32_t work_mixed(const struct system_plan *sp, const struct batch_view *v, uint32_t n)
{
	return work_batch(sp, v, n, false);
}

static int pass_storage(struct scenario_engine *e, const struct scenario_system *sys,
                        const struct system_plan *sp)
{
	struct ecs_iter it;
	struct ecs_batch b;
	struct batch_view view;
	int rc = e->ops->system_iter_begin(e->s, sp->id, &it);
	if (rc != ECS_OK)
		return engine_fail(e, "system_iter_begin of %s returned %s", sys->name,
		                   ecs_status_name(rc));
	uint32_t sum = 0;
	while (e->ops->system_iter_next(&it, &b)) {
		bool all_columns = true;
		for (uint32_t c = 0; c < sys->required_count; c++) {
			view.base[c] = b.columns[c];
			view.stride[c] = e->sizes[sys->required[c]];
			view.ptrs[c] = b.columns[c] ? NULL : b.pointers[c];
			all_columns = all_columns && b.columns[c];
		}
		sum += all_columns ? work_columns(sp, &view, b.count) : work_mixed(sp, &view, b.count);
	}
	e->work_sum += sum;
	return 0;
}

static inline bool member_matches(const struct scenario_engine *e, uint32_t s,
                                  const struct system_plan *sp, const struct member *m)
{
	if (!e->kv_match[(size_t)s * e->kv_count + m->kv])
		return false;
	uint64_t have = m->dynamic;
	return (have & sp->need_dynamic) == sp->need_dynamic && !(have & sp->exclude_dynamic);
}

/* The floor's work on one matching entity (member pos of kind k). */
static inline __attribute__((always_inline)) uint32_t
floor_one(struct scenario_engine *e, uint32_t s, const struct system_plan *sp,
          const struct kind_state *k, uint32_t pos)
{
	const uint8_t *col = e->system_record_pos +
	                     ((size_t)s * e->kv_count + k->live[pos].kv) * SCENARIO_SYSTEM_MAX_REQUIRED;
	uint32_t acc = ACC_START;
	for (uint32_t r = 0; r < sp->reads; r++)
		acc = acc * 31 + column_of(k, col[sp->read_col[r]])[pos];
	acc = do_work(acc, sp->work);
	for (uint32_t w = 0; w < sp->writes; w++) {
		uint32_t *p = &column_of(k, col[sp->write_col[w]])[pos];
		*p = (*p + acc) & width_mask(sp->write_width[w]);
	}
	return acc;
}

/* The slots having the rarest of a system's required dynamic types (the walk of such a system
 * goes through them rather than through whole kinds). */
static uint32_t rarest_dynamic(const struct scenario_engine *e, uint64_t need)
{
	uint32_t best = (uint32_t)__builtin_ctzll(need);
	for (uint64_t bits = need; bits; bits &= bits - 1) {
		uint32_t d = (uint32_t)__builtin_ctzll(bits);
		if (e->having_count[d] < e->having_count[best])
			best = d;
	}
	return best;
}

/*
 * The floor's pass: the same work over its columns. A kind whose every variant matches, with no
 * dynamic type to check, is one batch of whole columns for the backends' own kernel
 * (work_columns); a system that requires a dynamic type walks the slots having the rarest of
 * them; any other walks the kinds that can match, entity by entity.
 */
static void pass_floor(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	const struct scenario_system *sys = &e->sc->systems[s];
	uint32_t sum = 0;
	if (sp->need_dynamic) {
		uint32_t d = rarest_dynamic(e, sp->need_dynamic);
		for (uint32_t i = 0; i < e->having_count[d]; i++) {
			const struct kind_state *k = kind_of_slot(e, e->having[d][i]);
			uint32_t pos = e->slots[e->having[d][i]].kind_pos;
			if (member_matches(e, s, sp, &k->live[pos]))
				sum += floor_one(e, s, sp, k, pos);
		}
		e->work_sum += sum;
		return;
	}
	for (uint32_t j = 0; j < sp->kind_count; j++) {
		const struct kind_state *k = &e->kinds[sp->kinds[j]];
		if (!e->kind_all_match[(size_t)s * e->sc->kind_count + sp->kinds[j]] ||
		    sp->exclude_dynamic) {
			for (uint32_t i = 0; i < k->count; i++)
				if (member_matches(e, s, sp, &k->live[i]))
					sum += floor_one(e, s, sp, k, i);
			continue;
		}
		if (!k->count)
			continue;
		const uint8_t *col = e->system_record_pos +
		                     ((size_t)s * e->kv_count + k->kv_first) * SCENARIO_SYSTEM_MAX_REQUIRED;
		struct batch_view view;
		for (uint32_t c = 0; c < sys->required_count; c++) {
			view.base[c] = (unsigned char *)column_of(k, col[c]);
			view.stride[c] = sizeof(uint32_t);
			view.ptrs[c] = NULL;
		}
		sum += work_columns(sp, &view, k->count);
	}
	e->work_sum += sum;
}

/*
 * A system's changes, as its pass ends: drawn for every entity it matched, from the engine's
 * own lists (each entity's serial read in list order, no lookup of the entities the storage
 * handed out), the same walk for every participant, so that every command buffer is the same
 * (and the verification checks that the storage visited exactly these entities). The same
 * three walks as pass_floor.
 */
static int decide_changes(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	if (sp->need_dynamic) {
		uint32_t d = rarest_dynamic(e, sp->need_dynamic);
		for (uint32_t i = 0; i < e->having_count[d]; i++) {
			const struct kind_state *k = kind_of_slot(e, e->having[d][i]);
			uint32_t pos = e->slots[e->having[d][i]].kind_pos;
			if (member_matches(e, s, sp, &k->live[pos]) &&
			    !decide(e, sp, &k->live[pos].slot, k->ids[pos].serial))
				return engine_fail(e, "out of memory in the harness (commands)");
		}
		return 0;
	}
	for (uint32_t j = 0; j < sp->kind_count; j++) {
		const struct kind_state *k = &e->kinds[sp->kinds[j]];
		if (e->kind_all_match[(size_t)s * e->sc->kind_count + sp->kinds[j]] &&
		    !sp->exclude_dynamic) {
			if (!decide_block(e, sp, k))
				return engine_fail(e, "out of memory in the harness (commands)");
			continue;
		}
		for (uint32_t i = 0; i < k->count; i++)
			if (member_matches(e, s, sp, &k->live[i]) &&
			    !decide(e, sp, &k->live[i].slot, k->ids[i].serial))
				return engine_fail(e, "out of memory in the harness (commands)");
	}
	return 0;
}

/* --- a system marked parallel ------------------------------------------------------------- */

/*
 * Its pass on the pool's T threads, the same work as the serial pass on the same entities, each
 * thread adding up its own share of the work sum (thread_sums): 32-bit sums wrap, and addition
 * modulo 2^32 does not depend on the order, so the checksum is the same whatever T and however
 * the storage cuts its pass. Only the pass runs on the threads: the changes the system asks for
 * are drawn and applied after it, on thread 0, as in a serial frame.
 */
struct parallel_pass {
	struct scenario_engine *e;
	uint32_t s;
	const struct scenario_system *sys;
	const struct system_plan *sp;
	uint32_t total; /* the floor: entries of its walk (see floor_part) */
};

static uint32_t thread_sums_total(const struct scenario_engine *e)
{
	uint32_t sum = 0;
	for (uint32_t t = 0; t < parallel_pool_threads(e->pool); t++)
		sum += e->thread_sums[t].sum;
	return sum;
}

/* A batch the storage hands to one thread: pass_storage's work on it. */
static void storage_visit(void *ctx, uint32_t thread, const struct ecs_batch *b)
{
	const struct parallel_pass *j = ctx;
	const struct scenario_engine *e = j->e;
	struct batch_view view;
	bool all_columns = true;
	for (uint32_t c = 0; c < j->sys->required_count; c++) {
		view.base[c] = b->columns[c];
		view.stride[c] = e->sizes[j->sys->required[c]];
		view.ptrs[c] = b->columns[c] ? NULL : b->pointers[c];
		all_columns = all_columns && b->columns[c];
	}
	e->thread_sums[thread].sum += all_columns ? work_columns(j->sp, &view, b->count)
	                                          : work_mixed(j->sp, &view, b->count);
}

static int pass_storage_parallel(struct scenario_engine *e, uint32_t s)
{
	struct parallel_pass j = {e, s, &e->sc->systems[s], &e->systems[s], 0};
	for (uint32_t t = 0; t < parallel_pool_threads(e->pool); t++)
		e->thread_sums[t].sum = 0;
	uint64_t visited;
	int rc = parallel_system_pass(e->pool, e->ops, e->s, j.sp->id, storage_visit, &j, &visited);
	if (rc != ECS_OK)
		return engine_fail(e, "the pass of %s in %u parts returned %s", j.sys->name,
		                   parallel_pool_threads(e->pool), ecs_status_name(rc));
	e->work_sum += thread_sums_total(e);
	return 0;
}

/*
 * The floor's pass cut as the backends cut theirs: pass_floor's walk (the slots having the
 * rarest required dynamic type, or the matching kinds one after the other) taken as one
 * sequence of entries, in T contiguous ranges balanced by entries. Where a range starts inside
 * a kind walked as whole columns, its start moves forward (by less than a range) to a
 * cache-line start of the first written column, as the backends' boundaries do, so that two
 * threads do not write one line.
 */
static bool floor_columns(const struct scenario_engine *e, const struct parallel_pass *j,
                          uint32_t kind)
{
	return e->kind_all_match[(size_t)j->s * e->sc->kind_count + kind] && !j->sp->exclude_dynamic;
}

static uint32_t floor_bound(const struct parallel_pass *j, uint32_t part, uint32_t parts)
{
	const struct scenario_engine *e = j->e;
	uint32_t at = ecs_split_bound(j->total, part, parts);
	if (part == 0 || part == parts || j->sp->need_dynamic || !j->sp->writes)
		return at;
	uint32_t start = 0;
	for (uint32_t x = 0; x < j->sp->kind_count; x++) {
		const struct kind_state *k = &e->kinds[j->sp->kinds[x]];
		if (at < start + k->count) {
			if (!floor_columns(e, j, j->sp->kinds[x]))
				return at;
			const uint8_t *col = e->system_record_pos + ((size_t)j->s * e->kv_count + k->kv_first) *
			                                                SCENARIO_SYSTEM_MAX_REQUIRED;
			uint32_t off = at - start, limit = j->total / parts;
			if (limit > k->count - off)
				limit = k->count - off;
			return at + ecs_split_align(column_of(k, col[j->sp->write_col[0]]) + off,
			                            sizeof(uint32_t), limit);
		}
		start += k->count;
	}
	return at;
}

static void floor_part(void *ctx, uint32_t thread, uint32_t threads)
{
	const struct parallel_pass *j = ctx;
	struct scenario_engine *e = j->e;
	const struct system_plan *sp = j->sp;
	uint32_t from = floor_bound(j, thread, threads), to = floor_bound(j, thread + 1, threads);
	uint32_t sum = 0;
	if (sp->need_dynamic) {
		uint32_t d = rarest_dynamic(e, sp->need_dynamic);
		for (uint32_t i = from; i < to; i++) {
			const struct kind_state *k = kind_of_slot(e, e->having[d][i]);
			uint32_t pos = e->slots[e->having[d][i]].kind_pos;
			if (member_matches(e, j->s, sp, &k->live[pos]))
				sum += floor_one(e, j->s, sp, k, pos);
		}
		e->thread_sums[thread].sum = sum;
		return;
	}
	uint32_t start = 0;
	for (uint32_t x = 0; x < sp->kind_count && start < to; x++) {
		const struct kind_state *k = &e->kinds[sp->kinds[x]];
		uint32_t lo = from > start ? from - start : 0, hi = to - start;
		if (hi > k->count)
			hi = k->count;
		start += k->count;
		if (lo >= hi)
			continue;
		if (!floor_columns(e, j, sp->kinds[x])) {
			for (uint32_t i = lo; i < hi; i++)
				if (member_matches(e, j->s, sp, &k->live[i]))
					sum += floor_one(e, j->s, sp, k, i);
			continue;
		}
		const uint8_t *col = e->system_record_pos +
		                     ((size_t)j->s * e->kv_count + k->kv_first) * SCENARIO_SYSTEM_MAX_REQUIRED;
		struct batch_view view;
		for (uint32_t c = 0; c < j->sys->required_count; c++) {
			view.base[c] = (unsigned char *)(column_of(k, col[c]) + lo);
			view.stride[c] = sizeof(uint32_t);
			view.ptrs[c] = NULL;
		}
		sum += work_columns(sp, &view, hi - lo);
	}
	e->thread_sums[thread].sum = sum;
}

static void pass_floor_parallel(struct scenario_engine *e, uint32_t s)
{
	struct parallel_pass j = {e, s, &e->sc->systems[s], &e->systems[s], 0};
	if (j.sp->need_dynamic) {
		j.total = e->having_count[rarest_dynamic(e, j.sp->need_dynamic)];
	} else {
		for (uint32_t x = 0; x < j.sp->kind_count; x++)
			j.total += e->kinds[j.sp->kinds[x]].count;
	}
	parallel_run(e->pool, floor_part, &j);
	e->work_sum += thread_sums_total(e);
}

/* The harness alone: no work, but the pass's start and end on the pool (what dispatching a
 * parallel pass costs the engine), each thread writing its sum as the real passes do. */
static void harness_part(void *ctx, uint32_t thread, uint32_t threads)
{
	struct scenario_engine *e = ctx;
	(void)threads;
	e->thread_sums[thread].sum = 0;
}

int scenario_engine_threads(struct scenario_engine *e, uint32_t threads,
                            const struct cpu_list *cpus, char *err, size_t errlen)
{
	if (!scenario_has_parallel(e->sc) || e->pool)
		return 0;
	if (e->mode == SCENARIO_MODE_STORAGE && threads > 1 && !e->ops->system_iter_split) {
		snprintf(err, errlen, "%s has no system_iter_split: a parallel system's pass cannot be "
		                      "split in %u parts", e->ops->name, threads);
		return -1;
	}
	e->thread_sums = aligned_alloc(ECS_CACHE_LINE, (size_t)threads * sizeof *e->thread_sums);
	if (!e->thread_sums) {
		snprintf(err, errlen, "out of memory in the harness");
		return -1;
	}
	memset(e->thread_sums, 0, (size_t)threads * sizeof *e->thread_sums);
	if (parallel_pool_start(&e->pool, threads, cpus, err, errlen)) {
		free(e->thread_sums);
		e->thread_sums = NULL;
		return -1;
	}
	return 0;
}

void scenario_engine_wake(struct scenario_engine *e)
{
	if (e->pool)
		parallel_wake(e->pool);
}

void scenario_engine_rest(struct scenario_engine *e)
{
	if (e->pool)
		parallel_rest(e->pool);
}

/* --- a frame ------------------------------------------------------------------------------ */


/* The clock the run measures frames with: phases on the same one add up to the frame. */
static inline uint64_t engine_now(const struct scenario_engine *e)
{
	return e->cpu_clock ? measure_cpu_ns() : measure_now_ns();
}

void scenario_engine_clock(struct scenario_engine *e, bool cpu) { e->cpu_clock = cpu; }

static inline void lap(struct scenario_engine *e, uint32_t phase, uint64_t *t)
{
	uint64_t now = engine_now(e);
	e->figures[phase] += (double)(now - *t);
	*t = now;
}

/* The entity records a command list will touch, prefetched ahead of its application: the
 * slot's record PREFETCH_AHEAD commands ahead, its member half as far. */
static inline void prefetch_command(struct scenario_engine *e, const struct command_list *l,
                                    uint32_t i)
{
	if (i + PREFETCH_AHEAD < l->count)
		__builtin_prefetch(&e->slots[l->v[i + PREFETCH_AHEAD].slot]);
	if (i + PREFETCH_AHEAD / 2 < l->count)
		__builtin_prefetch(member_of_slot(e, l->v[i + PREFETCH_AHEAD / 2].slot), 1);
}

/* System s's command list of class `class` about to be applied: shuffled (shuffle_commands),
 * and the first PREFETCH_AHEAD records asked for (prefetch_command asks for the rest as the list
 * is applied). */
static void start_commands(struct scenario_engine *e, struct command_list *l, uint32_t s,
                           uint32_t class)
{
	shuffle_commands(l, list_key(e, LIST_SYSTEM + 3 * s + class));
	for (uint32_t i = 0; i < PREFETCH_AHEAD && i < l->count; i++)
		__builtin_prefetch(&e->slots[l->v[i].slot]);
}

static int apply_commands(struct scenario_engine *e, uint32_t s, uint64_t *t)
{
	const struct scenario *sc = e->sc;
	const struct system_plan *sp = &e->systems[s];
	struct command_list *l = &e->commands[CLASS_REMOVE];
	if (l->count) {
		start_commands(e, l, s, CLASS_REMOVE);
		for (uint32_t i = 0; i < l->count; i++) {
			prefetch_command(e, l, i);
			uint32_t j = l->v[i].what, slot = l->v[i].slot;
			if ((member_of_slot(e, slot)->dynamic & sp->remove_bit[j]) &&
			    remove_type(e, slot, sp->remove_type[j], sp->remove_bit[j]))
				return -1;
		}
		l->count = 0;
		lap(e, phase_remove(sc), t);
	}
	l = &e->commands[CLASS_ADD];
	if (l->count) {
		start_commands(e, l, s, CLASS_ADD);
		for (uint32_t i = 0; i < l->count; i++) {
			prefetch_command(e, l, i);
			uint32_t j = l->v[i].what, slot = l->v[i].slot;
			if (!(member_of_slot(e, slot)->dynamic & sp->add_bit[j]) &&
			    add_type(e, slot, sp->add_type[j], sp->add_bit[j]))
				return -1;
		}
		l->count = 0;
		lap(e, phase_add(sc), t);
	}
	l = &e->commands[CLASS_DESPAWN];
	if (l->count) {
		start_commands(e, l, s, CLASS_DESPAWN);
		for (uint32_t i = 0; i < l->count; i++) {
			prefetch_command(e, l, i);
			if (kill_slot(e, l->v[i].slot))
				return -1;
		}
		l->count = 0;
		lap(e, phase_despawn(sc), t);
	}
	return 0;
}

/* The spawns of a kind list, in its order; the free slots they will take prefetched CHUNK
 * ahead. */
static int spawn_listed(struct scenario_engine *e, const struct command_list *l)
{
	for (uint32_t j = 0; j < l->count && j < CHUNK && j < e->free_count; j++)
		__builtin_prefetch(&e->slots[e->free_slots[e->free_count - 1 - j]], 1);
	for (uint32_t i = 0; i < l->count; i++) {
		if (e->free_count > CHUNK && i + CHUNK < l->count)
			__builtin_prefetch(&e->slots[e->free_slots[e->free_count - 1 - CHUNK]], 1);
		if (spawn_one(e, l->v[i].what))
			return -1;
	}
	return 0;
}

/*
 * The despawns of a kind list, in its order: each destroys a member of its kind drawn at
 * random. A chunk's positions are drawn first, each below the count its kind will have when
 * its turn comes (so the draws are those a one-by-one loop would make), and their members and
 * the slot records swap-remove will move into the holes are prefetched; then they are
 * destroyed. An entry whose kind has no one left is skipped.
 */
static int despawn_listed(struct scenario_engine *e, const struct command_list *l)
{
	uint32_t pos[CHUNK], kind[CHUNK], pending[SCENARIO_MAX_KINDS] = {0};
	for (uint32_t base = 0; base < l->count; base += CHUNK) {
		uint32_t end = l->count - base < CHUNK ? l->count : base + CHUNK, m = 0;
		for (uint32_t i = base; i < end; i++) {
			uint32_t kk = l->v[i].what;
			struct kind_state *k = &e->kinds[kk];
			if (pending[kk] == k->count)
				continue;
			uint32_t left = k->count - pending[kk]++;
			pos[m] = draw_below(&e->rng, left);
			kind[m++] = kk;
			__builtin_prefetch(&k->live[pos[m - 1]], 1);
			__builtin_prefetch(&k->ids[pos[m - 1]], 1);
			__builtin_prefetch(&e->slots[k->live[left - 1].slot], 1);
		}
		for (uint32_t i = 0; i < m; i++) {
			if (kill_at(e, &e->kinds[kind[i]], pos[i]))
				return -1;
			pending[kind[i]] = 0;
		}
	}
	return 0;
}

/* n random picks among kind k's members (with replacement), prefetched a chunk at a time;
 * the statements after `at` run with `at` the position of each picked member. */
#define FOR_PICKS(e, k, n, at, ...)                                                          \
	do {                                                                                      \
		uint32_t picks_left_ = (n), pos_[CHUNK];                                              \
		while (picks_left_ && (k)->count) {                                                   \
			uint32_t c_ = picks_left_ < CHUNK ? picks_left_ : CHUNK;                          \
			for (uint32_t i_ = 0; i_ < c_; i_++) {                                            \
				pos_[i_] = draw_below(&(e)->rng, (k)->count);                                 \
				__builtin_prefetch(&(k)->live[pos_[i_]], 1);                                  \
				__builtin_prefetch(&(k)->ids[pos_[i_]]);                                      \
			}                                                                                 \
			for (uint32_t i_ = 0; i_ < c_; i_++) {                                            \
				uint32_t at = pos_[i_];                                                       \
				__VA_ARGS__                                                                   \
			}                                                                                 \
			picks_left_ -= c_;                                                                \
		}                                                                                     \
	} while (0)

static int effects_remove(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *ef = &sc->effects[i];
		struct effect_state *es = &e->effects[i];
		if (ef->duration) {
			/* the queue's head entries' records, prefetched ahead (they expire in order) */
			for (uint32_t j = 0; j < PREFETCH_AHEAD && j < es->count; j++) {
				const struct expiry *x = &es->ring[(es->head + j) % es->cap];
				if (x->frame > e->frame)
					break;
				__builtin_prefetch(&e->slots[x->slot]);
			}
			while (es->count && es->ring[es->head].frame <= e->frame) {
				uint32_t ahead = es->head + PREFETCH_AHEAD;
				const struct expiry *far = &es->ring[ahead >= es->cap ? ahead % es->cap : ahead];
				if (es->count > PREFETCH_AHEAD && far->frame <= e->frame)
					__builtin_prefetch(&e->slots[far->slot]);
				struct expiry x = es->ring[es->head];
				es->head = es->head + 1 == es->cap ? 0 : es->head + 1;
				es->count--;
				/* the entity may be gone (its slot then has another serial or none) */
				if (slot_alive(e, x.slot) &&
				    kind_of_slot(e, x.slot)->ids[e->slots[x.slot].kind_pos].serial == x.serial &&
				    (member_of_slot(e, x.slot)->dynamic & es->bit) &&
				    remove_type(e, x.slot, ef->type, es->bit))
					return -1;
			}
			continue;
		}
		struct kind_state *k = &e->kinds[ef->kind];
		uint32_t n = take_rate(&es->remove_carry, ef->remove * k->count);
		FOR_PICKS(e, k, n, at, {
			if ((k->live[at].dynamic & es->bit) && remove_type_at(e, k, at, ef->type, es->bit))
				return -1;
		});
	}
	return 0;
}

static bool push_expiry(struct scenario_engine *e, struct effect_state *es, struct expiry x)
{
	if (es->count == es->cap) {
		uint32_t cap = es->cap ? es->cap * 2 : 64;
		struct expiry *ring = own_alloc(e, cap * sizeof *ring);
		if (!ring)
			return false;
		for (uint32_t j = 0; j < es->count; j++)
			ring[j] = es->ring[(es->head + j) % es->cap];
		free(es->ring);
		e->own_bytes -= es->cap * sizeof *ring;
		es->ring = ring;
		es->head = 0;
		es->cap = cap;
	}
	uint32_t tail = es->head + es->count;
	es->ring[tail >= es->cap ? tail - es->cap : tail] = x;
	es->count++;
	return true;
}

static int effects_add(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *ef = &sc->effects[i];
		struct effect_state *es = &e->effects[i];
		struct kind_state *k = &e->kinds[ef->kind];
		uint32_t n = take_rate(&es->add_carry, ef->add * k->count);
		FOR_PICKS(e, k, n, at, {
			if (!(k->live[at].dynamic & es->bit)) {
				if (add_type_at(e, k, at, ef->type, es->bit))
					return -1;
				if (ef->duration &&
				    !push_expiry(e, es,
				                 (struct expiry){k->live[at].slot, k->ids[at].serial,
				                                 e->frame + ef->duration}))
					return engine_fail(e, "out of memory in the harness (effects)");
			}
		});
	}
	return 0;
}

static int lookups(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	/* where each lookup kind starts among the matching entities, so that a draw finds its
	 * kind without a branch it would mispredict */
	uint64_t matching = 0;
	uint32_t start[SCENARIO_MAX_KINDS + 1];
	for (uint32_t j = 0; j < e->lookup_kind_count; j++) {
		start[j] = (uint32_t)matching;
		matching += e->kinds[e->lookup_kinds[j]].count;
	}
	double rate = sc->lookups + sc->lookup_share * (double)e->live;
	uint32_t n = take_rate(&e->lookup_carry, rate);
	if (matching == 0 || matching > UINT32_MAX)
		return 0;
	uint32_t sum = 0, handles_read = 0;
	const struct kind_state *picked_kind[CHUNK];
	uint32_t picked_pos[CHUNK];
	bool dynamic = false;
	for (uint32_t j = 0; j < sc->lookup_type_count; j++)
		dynamic = dynamic || e->lookup_bit[j];
	while (n) {
		uint32_t c = n < CHUNK ? n : CHUNK;
		for (uint32_t i = 0; i < c; i++) {
			uint32_t r = draw_below(&e->rng, (uint32_t)matching), j = 0;
			for (uint32_t x = 1; x < e->lookup_kind_count; x++)
				j += r >= start[x];
			picked_kind[i] = &e->kinds[e->lookup_kinds[j]];
			picked_pos[i] = r - start[j];
			__builtin_prefetch(&picked_kind[i]->ids[picked_pos[i]]);
			if (dynamic)
				__builtin_prefetch(&picked_kind[i]->live[picked_pos[i]]);
		}
		for (uint32_t i = 0; i < c; i++) {
			const struct kind_state *k = picked_kind[i];
			uint32_t at = picked_pos[i];
			ecs_entity h = k->ids[at].handle;
			uint64_t have = dynamic ? k->live[at].dynamic : 0;
			handles_read += h; /* the harness alone reads the handle too (what it costs) */
			for (uint32_t j = 0; j < sc->lookup_type_count; j++) {
				uint32_t t = sc->lookup_types[j];
				if (e->lookup_bit[j] && !(have & e->lookup_bit[j]))
					continue; /* a dynamic type it does not have now */
				if (e->mode == SCENARIO_MODE_STORAGE) {
					void *p;
					int rc = e->ops->component_get(e->s, h, t, &p);
					if (rc != ECS_OK)
						return engine_fail(e, "looking up %s of entity #%u returned %s",
						                   sc->types[t].name, k->ids[at].serial, ecs_status_name(rc));
					sum += load_value(p, e->widths[t]);
				} else if (e->mode == SCENARIO_MODE_FLOOR) {
					uint32_t col =
						e->lookup_record_pos[(size_t)k->live[at].kv * sc->lookup_type_count + j];
					sum += column_of(k, col)[at];
				}
			}
		}
		n -= c;
	}
	e->lookup_sum += sum;
	e->handles_read += handles_read;
	return 0;
}

int scenario_engine_frame(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t p = 0; p <= e->phases; p++)
		e->figures[p] = 0;
	uint64_t allocations = e->counter.allocations;
	uint64_t t = engine_now(e);

	/* the kinds' spawns, mixed (kind_list_make) */
	struct command_list *kinds = &e->commands[CLASS_KINDS];
	uint32_t n[SCENARIO_MAX_KINDS];
	for (uint32_t k = 0; k < sc->kind_count; k++)
		n[k] = take_rate(&e->kinds[k].spawn_carry, sc->kinds[k].spawn);
	if (!kind_list_make(e, kinds, n, list_key(e, LIST_SPAWN)))
		return engine_fail(e, "out of memory in the harness (spawns)");
	if (spawn_listed(e, kinds))
		return -1;
	lap(e, SCENARIO_PHASE_SPAWN, &t);

	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct system_plan *sp = &e->systems[s];
		for (uint32_t c = 0; c < sp->change_count; c++)
			e->pass_mul[c] = (uint32_t)rng_mix64(sp->key ^ ((uint64_t)e->frame << 8 | c)) | 1;
		if (sc->systems[s].parallel && e->pool) {
			if (e->mode == SCENARIO_MODE_STORAGE && pass_storage_parallel(e, s))
				return -1;
			if (e->mode == SCENARIO_MODE_FLOOR)
				pass_floor_parallel(e, s);
			if (e->mode == SCENARIO_MODE_HARNESS)
				parallel_run(e->pool, harness_part, e);
		} else {
			if (e->mode == SCENARIO_MODE_STORAGE && pass_storage(e, &sc->systems[s], sp))
				return -1;
			if (e->mode == SCENARIO_MODE_FLOOR)
				pass_floor(e, s, sp);
		}
		if (sp->changes && decide_changes(e, s, sp))
			return -1;
		lap(e, 1 + s, &t);
		if (sp->changes && apply_commands(e, s, &t))
			return -1;
	}

	/* the kinds' despawns, mixed as the spawns */
	for (uint32_t k = 0; k < sc->kind_count; k++)
		n[k] = take_rate(&e->kinds[k].despawn_carry, sc->kinds[k].despawn);
	if (!kind_list_make(e, kinds, n, list_key(e, LIST_DESPAWN)))
		return engine_fail(e, "out of memory in the harness (despawns)");
	if (despawn_listed(e, kinds))
		return -1;
	lap(e, phase_despawn(sc), &t);
	if (effects_remove(e))
		return -1;
	lap(e, phase_remove(sc), &t);
	if (effects_add(e))
		return -1;
	lap(e, phase_add(sc), &t);
	if (lookups(e))
		return -1;
	lap(e, phase_lookup(sc), &t);
	e->figures[e->phases] = (double)(e->counter.allocations - allocations);
	e->frame++;
	return 0;
}

/* --- open and close ------------------------------------------------------------------------- */

static int32_t index_in(const uint32_t *ids, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == id)
			return (int32_t)i;
	return -1;
}

/* Where type t's value is in a floor record of kind-variant kv. */
static uint32_t record_pos(const struct scenario_engine *e, const struct kind_variant *kv,
                           uint32_t t)
{
	if (e->dynamic_bit[t] != NO_BIT)
		return e->kv_max_types + (uint32_t)e->dynamic_bit[t];
	int32_t i = index_in(kv->types, kv->type_count, t);
	return i < 0 ? 0 : (uint32_t)i;
}

static int make_kinds(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	e->kv_count = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		e->kv_count += sc->kinds[k].variants;
	e->kvs = own_alloc(e, e->kv_count * sizeof *e->kvs);
	if (!e->kvs)
		return -1;
	uint32_t at = 0;
	e->kv_max_types = 1;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		const struct scenario_kind *kind = &sc->kinds[k];
		e->kinds[k].kv_first = at;
		e->kinds[k].variants = kind->variants;
		for (uint32_t v = 0; v < kind->variants; v++, at++) {
			struct kind_variant *kv = &e->kvs[at];
			kv->kind = k;
			kv->type_count = kind->type_count;
			memcpy(kv->types, kind->types, kind->type_count * sizeof *kv->types);
			if (v > 0) /* tags follow the components: the list stays ascending */
				kv->types[kv->type_count++] = kind->variant_tag_first + v - 1;
			for (uint32_t j = 0; j < kv->type_count; j++)
				if (e->dynamic_bit[kv->types[j]] != NO_BIT)
					kv->dynamic_initial |= 1ull << e->dynamic_bit[kv->types[j]];
			if (kv->type_count > e->kv_max_types)
				e->kv_max_types = kv->type_count;
		}
	}
	e->record_width = e->kv_max_types + e->dynamic_count;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		/* The kind's most entities at any frame, so that its list rarely grows in a frame. */
		const struct scenario_kind *kind = &sc->kinds[k];
		double frames = (double)sc->warmup + sc->frames + 1;
		double peak = kind->count + frames * (kind->spawn - kind->despawn);
		peak = (peak > kind->count ? peak : kind->count) + kind->spawn + 16;
		if (!grow_kind(e, &e->kinds[k], peak > ECS_MAX_ENTITIES ? ECS_MAX_ENTITIES : (uint32_t)peak))
			return -1;
	}
	for (uint32_t i = 0; i < e->kv_count; i++)
		for (uint32_t j = 0; j < e->kvs[i].type_count; j++)
			e->kvs[i].record_pos[j] = record_pos(e, &e->kvs[i], e->kvs[i].types[j]);
	return 0;
}

static bool kv_has_static(const struct scenario_engine *e, const struct kind_variant *kv,
                          uint32_t t)
{
	return e->dynamic_bit[t] == NO_BIT && index_in(kv->types, kv->type_count, t) >= 0;
}

/* A system's changes (despawn, adds, removes): their thresholds, and the draws that decide them
 * (those with a share above 0; limit: threshold - 1). */
static void plan_changes(struct scenario_engine *e, const struct scenario_system *sys,
                         struct system_plan *sp)
{
	sp->despawn_threshold = share_threshold(sys->despawn);
	sp->adds = sys->add_count;
	sp->removes = sys->remove_count;
	for (uint32_t j = 0; j < sys->add_count; j++) {
		sp->add_type[j] = sys->add[j].type;
		sp->add_bit[j] = 1ull << e->dynamic_bit[sys->add[j].type];
		sp->add_threshold[j] = share_threshold(sys->add[j].share);
	}
	for (uint32_t j = 0; j < sys->remove_count; j++) {
		sp->remove_type[j] = sys->remove[j].type;
		sp->remove_bit[j] = 1ull << e->dynamic_bit[sys->remove[j].type];
		sp->remove_threshold[j] = share_threshold(sys->remove[j].share);
	}
	if (sp->despawn_threshold) {
		sp->change_class[sp->change_count] = CLASS_DESPAWN;
		sp->change_index[sp->change_count] = 0;
		sp->change_limit[sp->change_count++] = (uint32_t)(sp->despawn_threshold - 1);
	}
	for (uint32_t j = 0; j < sys->add_count; j++)
		if (sp->add_threshold[j]) {
			sp->change_class[sp->change_count] = CLASS_ADD;
			sp->change_index[sp->change_count] = (uint8_t)j;
			sp->change_limit[sp->change_count++] = (uint32_t)(sp->add_threshold[j] - 1);
		}
	for (uint32_t j = 0; j < sys->remove_count; j++)
		if (sp->remove_threshold[j]) {
			sp->change_class[sp->change_count] = CLASS_REMOVE;
			sp->change_index[sp->change_count] = (uint8_t)j;
			sp->change_limit[sp->change_count++] = (uint32_t)(sp->remove_threshold[j] - 1);
		}
	sp->changes = sp->change_count > 0;
}

/* Which kinds (and variants) system s matches, and where its columns sit in the floor's
 * records. */
static void match_kinds(struct scenario_engine *e, uint32_t s, const struct scenario_system *sys,
                        struct system_plan *sp)
{
	const struct scenario *sc = e->sc;
	uint32_t cols = sys->required_count;
	for (uint32_t i = 0; i < e->kv_count; i++) {
		const struct kind_variant *kv = &e->kvs[i];
		bool match = true;
		for (uint32_t c = 0; c < cols && match; c++)
			match = e->dynamic_bit[sys->required[c]] != NO_BIT ||
			        kv_has_static(e, kv, sys->required[c]);
		for (uint32_t c = 0; c < sys->excluded_count && match; c++)
			match = !kv_has_static(e, kv, sys->excluded[c]);
		e->kv_match[(size_t)s * e->kv_count + i] = match;
		if (match && index_in(sp->kinds, sp->kind_count, kv->kind) < 0)
			sp->kinds[sp->kind_count++] = kv->kind;
		if (e->system_record_pos)
			for (uint32_t c = 0; c < cols; c++)
				e->system_record_pos[((size_t)s * e->kv_count + i) *
				                         SCENARIO_SYSTEM_MAX_REQUIRED + c] =
					(uint8_t)record_pos(e, kv, sys->required[c]);
	}
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		bool all = true;
		for (uint32_t v = 0; v < e->kinds[k].variants; v++)
			all = all && e->kv_match[(size_t)s * e->kv_count + e->kinds[k].kv_first + v];
		e->kind_all_match[(size_t)s * sc->kind_count + k] = all;
	}
}

static int make_systems(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	uint32_t s_count = sc->system_count ? sc->system_count : 1;
	e->systems = own_alloc(e, s_count * sizeof *e->systems);
	e->kv_match = own_alloc(e, (size_t)s_count * e->kv_count);
	e->kind_all_match = own_alloc(e, (size_t)s_count * (sc->kind_count ? sc->kind_count : 1));
	if (!e->systems || !e->kv_match || !e->kind_all_match)
		return -1;
	if (e->mode == SCENARIO_MODE_FLOOR) {
		e->system_record_pos = own_alloc(e, (size_t)s_count * e->kv_count *
		                                        SCENARIO_SYSTEM_MAX_REQUIRED);
		if (!e->system_record_pos)
			return -1;
	}
	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct scenario_system *sys = &sc->systems[s];
		struct system_plan *sp = &e->systems[s];
		uint32_t cols = sys->required_count;
		for (uint32_t c = 0; c < cols; c++) {
			uint32_t t = sys->required[c];
			if (sys->read_mask & 1u << c) {
				sp->read_col[sp->reads] = c;
				sp->read_type[sp->reads] = t;
				sp->read_width[sp->reads++] = e->widths[t];
			}
			if (sys->write_mask & 1u << c) {
				sp->write_col[sp->writes] = c;
				sp->write_type[sp->writes] = t;
				sp->write_width[sp->writes++] = e->widths[t];
			}
			if (e->dynamic_bit[t] != NO_BIT)
				sp->need_dynamic |= 1ull << e->dynamic_bit[t];
		}
		for (uint32_t c = 0; c < sys->excluded_count; c++)
			if (e->dynamic_bit[sys->excluded[c]] != NO_BIT)
				sp->exclude_dynamic |= 1ull << e->dynamic_bit[sys->excluded[c]];
		sp->work = sys->work;
		sp->key = rng_mix64(sc->seed ^ rng_mix64(0x5157u + s));
		plan_changes(e, sys, sp);
		match_kinds(e, s, sys, sp);
	}
	/* every participant walks the systems with changes (their decisions), the floor all */
	for (uint32_t s = 0; s < sc->system_count; s++)
		if (e->mode == SCENARIO_MODE_FLOOR || e->systems[s].changes)
			e->tracked |= e->systems[s].need_dynamic;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		if (sc->kinds[k].lookup_match)
			e->lookup_kinds[e->lookup_kind_count++] = k;
	for (uint32_t j = 0; j < sc->lookup_type_count; j++) {
		int8_t bit = e->dynamic_bit[sc->lookup_types[j]];
		e->lookup_bit[j] = bit == NO_BIT ? 0 : 1ull << bit;
	}
	if (e->mode == SCENARIO_MODE_FLOOR && sc->lookup_type_count) {
		e->lookup_record_pos = own_alloc(e, (size_t)e->kv_count * sc->lookup_type_count);
		if (!e->lookup_record_pos)
			return -1;
		for (uint32_t i = 0; i < e->kv_count; i++)
			for (uint32_t j = 0; j < sc->lookup_type_count; j++)
				e->lookup_record_pos[(size_t)i * sc->lookup_type_count + j] =
					(uint8_t)record_pos(e, &e->kvs[i], sc->lookup_types[j]);
	}
	return 0;
}

static int open_storage(struct scenario_engine *e, char *err, size_t errlen)
{
	const struct scenario *sc = e->sc;
	struct ecs_allocator alloc = counting_alloc_bench(&e->counter);
	struct ecs_config cfg = {sc->type_count, sc->system_count ? sc->system_count : 1, e->sizes};
	int rc = e->ops->create(&cfg, &alloc, &e->s);
	if (rc != ECS_OK) {
		e->s = NULL;
		snprintf(err, errlen, "%s: create returned %s", e->ops->name, ecs_status_name(rc));
		return -1;
	}
	rc = ecs_reserve(e->ops, e->s, (uint32_t)sc->entities_peak);
	if (rc != ECS_OK) {
		snprintf(err, errlen, "%s: reserve returned %s", e->ops->name, ecs_status_name(rc));
		return -1;
	}
	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct scenario_system *sys = &sc->systems[s];
		rc = e->ops->system_register(e->s, sys->required, sys->required_count, sys->excluded,
		                             sys->excluded_count, &e->systems[s].id);
		if (rc != ECS_OK) {
			snprintf(err, errlen, "%s: registering system %s returned %s", e->ops->name,
			         sys->name, ecs_status_name(rc));
			return -1;
		}
	}
	return 0;
}

/*
 * The entities alive before the first frame, the kinds mixed as a frame's spawns are (one kind
 * list of the whole population), variants in turn within a kind. The list is setup's scratch,
 * sized to the population and freed here, not counted as the engine's memory.
 */
static int spawn_population(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	uint32_t n[SCENARIO_MAX_KINDS];
	uint64_t total = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		total += n[k] = sc->kinds[k].count;
	struct command_list l = {0};
	l.cap = total ? (uint32_t)total : 1;
	l.v = malloc(l.cap * sizeof *l.v);
	int rc = -1;
	if (!l.v)
		engine_fail(e, "out of memory in the harness (the population)");
	else if (!kind_list_make(e, &l, n, list_key(e, LIST_POPULATION)))
		engine_fail(e, "out of memory in the harness (the population)");
	else
		rc = spawn_listed(e, &l);
	free(l.v);
	return rc;
}

int scenario_engine_open(struct scenario_engine **out, const struct scenario *sc,
                         const struct ecs_ops *ops, enum scenario_mode mode, char *err,
                         size_t errlen)
{
	*out = NULL;
	if (scenario_engine_check(sc, err, errlen))
		return -1;
	if ((mode == SCENARIO_MODE_STORAGE) != (ops != NULL)) {
		snprintf(err, errlen, "internal error: a storage participant needs a backend");
		return -1;
	}
	struct scenario_engine *e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory in the harness");
		return -1;
	}
	e->sc = sc;
	e->mode = mode;
	e->ops = ops;
	e->phases = scenario_engine_phase_count(sc);
	e->rng = rng_mix64(sc->seed ^ 0x5ce7a210u);
	e->order_seed = rng_mix64(sc->seed ^ 0x0de7a210u);
	e->sizes = own_alloc(e, sc->type_count * sizeof *e->sizes);
	e->widths = own_alloc(e, sc->type_count * sizeof *e->widths);
	e->dynamic_bit = own_alloc(e, sc->type_count * sizeof *e->dynamic_bit);
	bool ok = e->sizes && e->widths && e->dynamic_bit;
	for (uint32_t t = 0; ok && t < sc->type_count; t++) {
		e->sizes[t] = sc->types[t].size;
		e->widths[t] = e->sizes[t] < 4 ? e->sizes[t] : 4;
	}
	ok = ok && find_dynamic(sc, e->dynamic_bit, &e->dynamic_count, err, errlen) == 0;
	if (!ok)
		goto fail;
	/* the kind list: a frame's spawns and its despawns, at most (rates carry a fraction) */
	double spawns = sc->kind_count, despawns = sc->kind_count;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		spawns += sc->kinds[k].spawn;
		despawns += sc->kinds[k].despawn;
	}
	double most = spawns > despawns ? spawns : despawns;
	for (uint32_t c = 0; c < CLASS_COUNT; c++) {
		struct command_list *l = &e->commands[c];
		l->cap = c == CLASS_KINDS && most > 256 ? (uint32_t)most : 256;
		l->v = own_alloc(e, l->cap * sizeof *l->v);
		ok = ok && l->v;
	}
	for (uint32_t i = 0; i < sc->effect_count; i++)
		e->effects[i].bit = 1ull << e->dynamic_bit[sc->effects[i].type];
	if (!ok || make_tables(e) || make_kinds(e) || make_systems(e) ||
	    !reserve_slots(e, sc->entities_peak + sc->kind_count + 16)) {
		snprintf(err, errlen, "out of memory in the harness");
		goto fail;
	}
	if (mode == SCENARIO_MODE_STORAGE) {
		if (open_storage(e, err, errlen))
			goto fail;
	}
	if (spawn_population(e)) {
		snprintf(err, errlen, "%s", e->error);
		goto fail;
	}
	*out = e;
	return 0;
fail:
	scenario_engine_close(e);
	return -1;
}

void scenario_engine_close(struct scenario_engine *e)
{
	if (!e)
		return;
	/* the threads first: they must not outlive what a pass reads */
	parallel_pool_stop(e->pool);
	free(e->thread_sums);
	if (e->s)
		e->ops->destroy(e->s);
	if (e->table)
		for (uint32_t t = 0; t < e->sc->type_count; t++)
			free(e->table[t]);
	free(e->table);
	free(e->table_mask);
	free(e->sizes);
	free(e->widths);
	free(e->dynamic_bit);
	free(e->kvs);
	for (uint32_t k = 0; k < SCENARIO_MAX_KINDS; k++) {
		free(e->kinds[k].live);
		free(e->kinds[k].columns);
		free(e->kinds[k].ids);
	}
	free(e->kv_match);
	free(e->systems);
	free(e->system_record_pos);
	free(e->kind_all_match);
	for (uint32_t i = 0; i < SCENARIO_MAX_EFFECTS; i++)
		free(e->effects[i].ring);
	free(e->lookup_record_pos);
	for (uint32_t d = 0; d < SCENARIO_ENGINE_MAX_DYNAMIC; d++) {
		free(e->having[d]);
		free(e->having_pos[d]);
	}
	free(e->free_slots);
	free(e->slots);

	for (uint32_t c = 0; c < CLASS_COUNT; c++) {
		free(e->commands[c].v);
	}
	free(e);
}

/* --- checks and checksum ------------------------------------------------------------------- */

static uint64_t hash_update(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull; /* FNV-1a, as world.c's checksums */
	return h;
}

static bool entity_has(const struct scenario_engine *e, const struct member *m, uint32_t t)
{
	if (e->dynamic_bit[t] != NO_BIT)
		return m->dynamic >> e->dynamic_bit[t] & 1;
	return index_in(e->kvs[m->kv].types, e->kvs[m->kv].type_count, t) >= 0;
}

struct ordered {
	uint32_t serial, kind, pos;
};

static int by_serial(const void *a, const void *b)
{
	uint32_t x = ((const struct ordered *)a)->serial, y = ((const struct ordered *)b)->serial;
	return (x > y) - (x < y);
}

/* Each system visits exactly the live entities that match it: the engine's count, and each
 * visited handle one of a matching entity (found through a map from the storage's entity
 * index to the engine's slot, made here from the engine's lists). */
static int check_systems(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	uint32_t cap = 1;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		for (uint32_t i = 0; i < e->kinds[k].count; i++)
			if (ecs_entity_index(e->kinds[k].ids[i].handle) >= cap)
				cap = ecs_entity_index(e->kinds[k].ids[i].handle) + 1;
	uint32_t *slot_of_index = malloc(cap * sizeof *slot_of_index);
	if (!slot_of_index)
		return engine_fail(e, "out of memory in the harness (checks)");
	for (uint32_t i = 0; i < cap; i++)
		slot_of_index[i] = SLOT_NONE;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		for (uint32_t i = 0; i < e->kinds[k].count; i++)
			slot_of_index[ecs_entity_index(e->kinds[k].ids[i].handle)] = e->kinds[k].live[i].slot;
	int rc = 0;
	for (uint32_t s = 0; s < sc->system_count && rc == 0; s++) {
		const struct system_plan *sp = &e->systems[s];
		uint64_t want = 0, got = 0;
		for (uint32_t k = 0; k < sp->kind_count; k++) {
			const struct kind_state *ks = &e->kinds[sp->kinds[k]];
			for (uint32_t i = 0; i < ks->count; i++)
				want += member_matches(e, s, sp, &ks->live[i]);
		}
		struct ecs_iter it;
		struct ecs_batch b;
		int got_rc = e->ops->system_iter_begin(e->s, sp->id, &it);
		if (got_rc != ECS_OK) {
			rc = engine_fail(e, "system_iter_begin of %s returned %s", sc->systems[s].name,
			                 ecs_status_name(got_rc));
			break;
		}
		while (rc == 0 && e->ops->system_iter_next(&it, &b)) {
			got += b.count;
			for (uint32_t i = 0; i < b.count && rc == 0; i++) {
				uint32_t index = ecs_entity_index(b.entities[i]);
				uint32_t slot = index < cap ? slot_of_index[index] : SLOT_NONE;
				const struct member *m = NULL;
				if (slot != SLOT_NONE &&
				    kind_of_slot(e, slot)->ids[e->slots[slot].kind_pos].handle == b.entities[i])
					m = member_of_slot(e, slot);
				if (!m || !member_matches(e, s, sp, m))
					rc = engine_fail(e, "system %s visits an entity that does not match it",
					                 sc->systems[s].name);
			}
		}
		if (rc == 0 && got != want)
			rc = engine_fail(e, "system %s visits %llu entities, %llu match it",
			                 sc->systems[s].name, (unsigned long long)got,
			                 (unsigned long long)want);
	}
	free(slot_of_index);
	return rc;
}

int scenario_engine_checksum(struct scenario_engine *e, uint64_t *out, bool *verified)
{
	const struct scenario *sc = e->sc;
	*verified = false;
	*out = 0;
	if (e->mode == SCENARIO_MODE_HARNESS)
		return 0;
	struct ordered *order = malloc((e->live ? e->live : 1) * sizeof *order);
	unsigned char *value = malloc(ECS_MAX_COMPONENT_SIZE);
	if (!order || !value) {
		free(order);
		free(value);
		return engine_fail(e, "out of memory in the harness (checksum)");
	}
	uint64_t n = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		for (uint32_t i = 0; i < e->kinds[k].count; i++)
			order[n++] = (struct ordered){e->kinds[k].ids[i].serial, k, i};
	qsort(order, n, sizeof *order, by_serial);
	uint64_t h = 0xcbf29ce484222325ull;
	int rc = 0;
	for (uint64_t i = 0; i < n && rc == 0; i++) {
		const struct kind_state *ks = &e->kinds[order[i].kind];
		const struct member *m = &ks->live[order[i].pos];
		const struct slot_info *si = &e->slots[m->slot];
		uint32_t serial = order[i].serial;
		ecs_entity handle = ks->ids[order[i].pos].handle;
		if (si->kv != m->kv || si->kind_pos != order[i].pos || e->kvs[m->kv].kind != order[i].kind) {
			rc = engine_fail(e, "entity #%u: the engine's records disagree", serial);
			break;
		}
		h = hash_update(h, &serial, sizeof serial);
		if (e->mode == SCENARIO_MODE_STORAGE && !e->ops->entity_alive(e->s, handle)) {
			rc = engine_fail(e, "entity #%u is not alive in the storage", serial);
			break;
		}
		for (uint32_t t = 0; t < sc->type_count; t++) {
			bool has = entity_has(e, m, t);
			if (e->mode == SCENARIO_MODE_STORAGE) {
				void *p = NULL;
				int got = e->ops->component_get(e->s, handle, t, &p);
				if (got != (has ? ECS_OK : ECS_ERR_NO_COMPONENT)) {
					rc = engine_fail(e, "entity #%u, %s: component_get returned %s, expected %s",
					                 serial, sc->types[t].name, ecs_status_name(got),
					                 has ? "ECS_OK" : "ECS_ERR_NO_COMPONENT");
					break;
				}
				if (has)
					memcpy(value, p, e->sizes[t]);
			} else if (has) {
				memcpy(value, value_of_entity(e, t, serial), e->sizes[t]);
				uint32_t v = column_of(&e->kinds[order[i].kind],
				                       record_pos(e, &e->kvs[m->kv], t))[order[i].pos];
				store_value(value, e->widths[t], v);
			}
			if (has)
				h = hash_update(h, value, e->sizes[t]);
			else
				h = hash_update(h, "-", 1);
		}
	}
	free(order);
	free(value);
	if (rc == 0 && e->mode == SCENARIO_MODE_STORAGE)
		rc = check_systems(e);
	if (rc)
		return -1;
	h = hash_update(h, &e->work_sum, sizeof e->work_sum);
	h = hash_update(h, &e->lookup_sum, sizeof e->lookup_sum);
	*out = h;
	*verified = true;
	return 0;
}
