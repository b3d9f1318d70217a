/*
 * scenario_engine.c: the scenario engine's open, close, checks and checksum, for a storage, the
 * floor or the harness alone (what a frame holds, in which order: scenario_engine.h). A frame is
 * scenario_frame.h's, compiled into each target (scenario_storage.c, scenario_floor.c,
 * scenario_harness.c); the engine reaches a target through its struct scenario_target
 * (scenario_target.h), chosen once at open.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_engine.h"
#include "scenario_target.h"

/* --- phases ---------------------------------------------------------------------------------- */

uint32_t scenario_engine_phase_count(const struct scenario *sc) { return sc->system_count + 5; }

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

/* --- what the engine says ----------------------------------------------------------------- */


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
	if (e->target->memory) {
		e->target->memory(e, peak, live);
		return;
	}
	*peak = e->own_peak;
	*live = e->own_bytes;
}

/* --- values ----------------------------------------------------------------------------------- */

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

/* --- threads and the clock ------------------------------------------------------------------ */

int scenario_engine_threads(struct scenario_engine *e, uint32_t threads,
                            const struct cpu_list *cpus, char *err, size_t errlen)
{
	if (!scenario_has_parallel(e->sc) || e->pool)
		return 0;
	if (e->target->threads_check && e->target->threads_check(e, threads, err, errlen))
		return -1;
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

void scenario_engine_clock(struct scenario_engine *e, bool cpu) { e->cpu_clock = cpu; }


int scenario_engine_frame(struct scenario_engine *e) { return e->target->frame(e); }

/* --- open and close ------------------------------------------------------------------------- */

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
		if (!e->target->reserve_kind(e, &e->kinds[k],
		                             peak > ECS_MAX_ENTITIES ? ECS_MAX_ENTITIES : (uint32_t)peak))
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
	if (e->target->own_columns) {
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
		if (e->target->own_columns || e->systems[s].changes)
			e->tracked |= e->systems[s].need_dynamic;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		if (sc->kinds[k].lookup_match)
			e->lookup_kinds[e->lookup_kind_count++] = k;
	for (uint32_t j = 0; j < sc->lookup_type_count; j++) {
		int8_t bit = e->dynamic_bit[sc->lookup_types[j]];
		e->lookup_bit[j] = bit == NO_BIT ? 0 : 1ull << bit;
	}
	if (e->target->own_columns && sc->lookup_type_count) {
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

/* The batches' scratch for the rates the file gives: a frame's spawns of the batched kinds
 * (their values too), and a batched effect's adds or removes, at most its kind's peak. 0, or
 * -1 if out of memory. */
static int reserve_batches(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	uint32_t n = 0;
	size_t bytes = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		if (!sc->kinds[k].batch)
			continue;
		e->batched_kinds = true;
		uint32_t spawns = (uint32_t)sc->kinds[k].spawn + 1;
		size_t size = 0;
		for (uint32_t j = 0; j < sc->kinds[k].type_count; j++)
			size += e->sizes[sc->kinds[k].types[j]];
		n = spawns > n ? spawns : n;
		bytes = (size + 1) * spawns > bytes ? (size + 1) * spawns : bytes;
	}
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *ef = &sc->effects[i];
		if (!ef->batch)
			continue;
		uint32_t most = e->kinds[ef->kind].cap;
		n = most > n ? most : n;
		bytes = (size_t)most * e->sizes[ef->type] > bytes ? (size_t)most * e->sizes[ef->type]
		                                                  : bytes;
	}
	if (e->batched_kinds) {
		uint32_t listed = e->commands[CLASS_KINDS].cap;
		if (!own_grow(e, (void **)&e->batch.listed, sizeof *e->batch.listed, 0, listed))
			return -1;
		e->batch.listed_cap = listed;
	}
	return n && !batch_reserve(e, n, bytes) ? -1 : 0;
}

int scenario_engine_grouped(const struct scenario_engine *e, uint32_t system)
{
	return system < e->sc->system_count ? e->grouped[system] : -1;
}

int scenario_engine_open(struct scenario_engine **out, const struct scenario *sc,
                         const struct ecs_ops *ops, enum scenario_mode mode, char *err,
                         size_t errlen)
{
	*out = NULL;
	if (scenario_engine_check(sc, err, errlen))
		return -1;
	static const struct scenario_target *const targets[] = {
		[SCENARIO_MODE_STORAGE] = &scenario_storage_target,
		[SCENARIO_MODE_FLOOR] = &scenario_floor_target,
		[SCENARIO_MODE_HARNESS] = &scenario_harness_target,
	};
	const struct scenario_target *target = targets[mode];
	if ((target->open != NULL) != (ops != NULL)) {
		snprintf(err, errlen, "internal error: a storage participant needs a backend");
		return -1;
	}
	struct scenario_engine *e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory in the harness");
		return -1;
	}
	e->sc = sc;
	e->target = target;
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
	for (uint32_t s = 0; s < SCENARIO_MAX_SYSTEMS; s++)
		e->grouped[s] = -1;
	if (!ok || make_tables(e) || make_kinds(e) || make_systems(e) || reserve_batches(e) ||
	    !reserve_slots(e, sc->entities_peak + sc->kind_count + 16)) {
		snprintf(err, errlen, "out of memory in the harness");
		goto fail;
	}
	if (target->open && target->open(e, err, errlen))
		goto fail;
	if (target->populate(e)) {
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
	free(e->batch.pos);
	free(e->batch.serials);
	free(e->batch.handles);
	free(e->batch.listed);
	free(e->batch.values);
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

int scenario_engine_checksum(struct scenario_engine *e, uint64_t *out, bool *verified)
{
	const struct scenario *sc = e->sc;
	*verified = false;
	*out = 0;
	if (!e->target->read_value)
		return 0;
	struct ordered *order = malloc((e->live ? e->live : 1) * sizeof *order);
	unsigned char *value = malloc(ECS_MAX_COMPONENT_SIZE);
	if (!order || !value) {
		free(order);
		free(value);
		return scenario_engine_fail(e, "out of memory in the harness (checksum)");
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
			rc = scenario_engine_fail(e, "entity #%u: the engine's records disagree", serial);
			break;
		}
		h = hash_update(h, &serial, sizeof serial);
		if (e->target->alive && (rc = e->target->alive(e, handle, serial)))
			break;
		for (uint32_t t = 0; t < sc->type_count; t++) {
			bool has = entity_has(e, m, t);
			if ((rc = e->target->read_value(e, order[i].kind, order[i].pos, t, has, value)))
				break;
			if (has)
				h = hash_update(h, value, e->sizes[t]);
			else
				h = hash_update(h, "-", 1);
		}
	}
	free(order);
	free(value);
	if (rc == 0 && e->target->verify)
		rc = e->target->verify(e);
	if (rc)
		return -1;
	h = hash_update(h, &e->work_sum, sizeof e->work_sum);
	h = hash_update(h, &e->lookup_sum, sizeof e->lookup_sum);
	*out = h;
	*verified = true;
	return 0;
}
