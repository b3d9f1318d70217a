/*
 * scenario_frame.h: a frame of the scenario engine (what a frame holds, in which order:
 * scenario_engine.h), written once and compiled into each target (scenario_storage.c,
 * scenario_floor.c, scenario_harness.c), which defines its part of each operation below
 * (target_create, target_destroy, ...) after including this file, all but those it has no part
 * in (SCENARIO_TARGET_NO_..., below). Every list, decision, command
 * buffer and phase clock is here, the same for every target; a target's part is only what it
 * runs on (a storage's call, the floor's column, nothing). The frame is frame_run, the initial
 * population spawn_population; a target hands them to the engine in its struct scenario_target.
 * Included once per target, by those three files alone.
 */
#include "scenario_engine.h"
#include "scenario_target.h"

/* A target need not use every helper of the frame. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

/* --- each target's part of an operation (defined by the file that includes this one) ---------- */

/* Makes entity `serial` of kind-variant v (slot: its slot, given back on failure) into *h. */
static int target_create(struct scenario_engine *e, uint32_t kind, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial, uint32_t slot,
                         ecs_entity *h);
/* Destroys member pos of kind k (before the engine's lists forget it). */
static int target_destroy(struct scenario_engine *e, struct kind_state *k, uint32_t pos);
/* Member `from` of kind k takes place `to` (swap-remove). */
static void target_move(struct scenario_engine *e, struct kind_state *k, uint32_t to,
                        uint32_t from);
/* Adds, removes a type of member pos of kind k (id: its serial and handle). */
static int target_add(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                      uint32_t type, struct identity id);
static int target_remove(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                         uint32_t type);
/* Kind k's lists grow to cap (k->cap: the old capacity). */
static bool target_grow(struct scenario_engine *e, struct kind_state *k, uint32_t cap);
/* Lookup type j (type t) of member `at` of kind k (handle h): its value added to *sum. */
static int target_lookup(struct scenario_engine *e, const struct kind_state *k, uint32_t at,
                         uint32_t j, uint32_t t, ecs_entity h, uint32_t *sum);
/*
 * The batches (kinds and effects marked `batch`). target_create_batch makes the n entities of
 * kind-variant v whose serials are e->batch.serials[first..first+n), their handles into
 * e->batch.handles[first..first+n); each then takes its place in its kind's list through target_adopt, as
 * target_create's entity would. target_add_batch and target_remove_batch add, remove `type`
 * on the n members of kind k at e->batch.pos[0..n) (handles and serials beside them), whose
 * records the engine has already changed.
 */
static int target_create_batch(struct scenario_engine *e, uint32_t kind,
                               const struct kind_variant *v, uint32_t first, uint32_t n);
static void target_adopt(struct scenario_engine *e, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial);
static int target_add_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                            uint32_t n);
static int target_remove_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                               uint32_t n);
/* System s's pass, serial or on the pool's threads. */
static int target_pass(struct scenario_engine *e, uint32_t s, const struct system_plan *sp);
static int target_pass_parallel(struct scenario_engine *e, uint32_t s);

/*
 * The parts a target has none of. A target defines SCENARIO_TARGET_NO_<PART> (CREATE, ADOPT,
 * ...) before it includes this file for each part in which it does nothing, and gets the empty
 * part below (nothing done, success), so that it writes only the parts it plays: the storage
 * calls its backend in all but adopt, move and grow; the floor has no entity to destroy and no
 * column to clear; the harness alone plays only the batches' values and the parallel pass's
 * start.
 */
#ifdef SCENARIO_TARGET_NO_CREATE
static int target_create(struct scenario_engine *e, uint32_t kind, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial, uint32_t slot,
                         ecs_entity *h)
{
	(void)e, (void)kind, (void)k, (void)v, (void)serial, (void)slot, (void)h;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_DESTROY
static int target_destroy(struct scenario_engine *e, struct kind_state *k, uint32_t pos)
{
	(void)e, (void)k, (void)pos;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_MOVE
static void target_move(struct scenario_engine *e, struct kind_state *k, uint32_t to,
                        uint32_t from)
{
	(void)e, (void)k, (void)to, (void)from;
}
#endif
#ifdef SCENARIO_TARGET_NO_ADD
static int target_add(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                      uint32_t type, struct identity id)
{
	(void)e, (void)k, (void)pos, (void)type, (void)id;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_REMOVE
static int target_remove(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                         uint32_t type)
{
	(void)e, (void)k, (void)pos, (void)type;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_GROW
static bool target_grow(struct scenario_engine *e, struct kind_state *k, uint32_t cap)
{
	(void)e, (void)k, (void)cap;
	return true;
}
#endif
#ifdef SCENARIO_TARGET_NO_LOOKUP
static int target_lookup(struct scenario_engine *e, const struct kind_state *k, uint32_t at,
                         uint32_t j, uint32_t t, ecs_entity h, uint32_t *sum)
{
	(void)e, (void)k, (void)at, (void)j, (void)t, (void)h, (void)sum;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_ADOPT
static void target_adopt(struct scenario_engine *e, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial)
{
	(void)e, (void)k, (void)v, (void)serial;
}
#endif
#ifdef SCENARIO_TARGET_NO_REMOVE_BATCH
static int target_remove_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                               uint32_t n)
{
	(void)e, (void)k, (void)type, (void)n;
	return 0;
}
#endif
#ifdef SCENARIO_TARGET_NO_PASS
static int target_pass(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	(void)e, (void)s, (void)sp;
	return 0;
}
#endif

/* --- slots, kind lists and the structural operations, the same bookkeeping for every target -- */

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
	if (!target_grow(e, k, cap))
		return false;
	k->cap = cap;
	return true;
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

/* An entity of `kind` (its next variant) with the next serial: made by the target
 * (target_create), or, adopted, made already by its kind-variant's batch, with handle h. */
static inline __attribute__((always_inline)) int spawn_member(struct scenario_engine *e,
                                                             uint32_t kind, bool adopted,
                                                             ecs_entity h)
{
	struct kind_state *k = &e->kinds[kind];
	uint32_t kv = k->kv_first + k->next_variant, slot;
	const struct kind_variant *v = &e->kvs[kv];
	if (k->count == k->cap && !grow_kind(e, k, k->count + 1))
		return scenario_engine_fail(e, "out of memory in the harness");
	if (!take_slot(e, &slot))
		return scenario_engine_fail(e, "out of memory in the harness (slots)");
	uint32_t serial = e->next_serial;
	if (adopted)
		target_adopt(e, k, v, serial);
	else if (target_create(e, kind, k, v, serial, slot, &h))
		return -1;
	e->next_serial++;
	k->next_variant = k->next_variant + 1 == k->variants ? 0 : k->next_variant + 1;
	e->slots[slot] = (struct slot_info){k->count, kv};

	k->ids[k->count] = (struct identity){serial, h};
	k->live[k->count++] = (struct member){v->dynamic_initial, slot, kv};
	e->live++;
	if (!having_add(e, v->dynamic_initial, slot))
		return scenario_engine_fail(e, "out of memory in the harness");
	return 0;
}

static int spawn_one(struct scenario_engine *e, uint32_t kind)
{
	return spawn_member(e, kind, false, ECS_NULL);
}

/* Destroys member `pos` of kind k. */
static int kill_at(struct scenario_engine *e, struct kind_state *k, uint32_t pos)
{
	struct member m = k->live[pos];
	if (target_destroy(e, k, pos))
		return -1;
	struct member last = k->live[--k->count];
	if (pos != k->count) {
		k->live[pos] = last;
		k->ids[pos] = k->ids[k->count];
		e->slots[last.slot].kind_pos = pos;
		target_move(e, k, pos, k->count);
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
	if (target_add(e, k, pos, type, id))
		return -1;
	k->live[pos].dynamic |= bit;
	if (!having_add(e, bit, slot))
		return scenario_engine_fail(e, "out of memory in the harness");
	return 0;
}

static int remove_type_at(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                          uint32_t type, uint64_t bit)
{
	uint32_t slot = k->live[pos].slot;
	if (target_remove(e, k, pos, type))
		return -1;
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

/* --- batches ---------------------------------------------------------------------------- */

/* The values of `type` for serials[0..n), packed at out (n * size bytes): what a game hands a
 * batch, made of the same values the one-at-a-time calls give. */
static void pack_values(struct scenario_engine *e, uint32_t type, const uint32_t *serials,
                        uint32_t n, unsigned char *out)
{
	size_t size = e->sizes[type];
	/* the usual sizes with a copy of known length (no call per value): the harness's part */
	if (size == 4)
		for (uint32_t j = 0; j < n; j++)
			memcpy(out + j * 4, value_of_entity(e, type, serials[j]), 4);
	else if (size == 8)
		for (uint32_t j = 0; j < n; j++)
			memcpy(out + j * 8, value_of_entity(e, type, serials[j]), 8);
	else
		for (uint32_t j = 0; j < n; j++)
			memcpy(out + j * size, value_of_entity(e, type, serials[j]), size);
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

static inline bool member_matches(const struct scenario_engine *e, uint32_t s,
                                  const struct system_plan *sp, const struct member *m)
{
	if (!e->kv_match[(size_t)s * e->kv_count + m->kv])
		return false;
	uint64_t have = m->dynamic;
	return (have & sp->need_dynamic) == sp->need_dynamic && !(have & sp->exclude_dynamic);
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
 * A system's changes, as its pass ends: drawn for every entity it matched, from the engine's
 * own lists (each entity's serial read in list order, no lookup of the entities the storage
 * handed out), the same walk for every participant, so that every command buffer is the same
 * (and the verification checks that the storage visited exactly these entities). The same
 * three walks as the floor's pass (pass_floor, scenario_floor.c).
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
				return scenario_engine_fail(e, "out of memory in the harness (commands)");
		}
		return 0;
	}
	for (uint32_t j = 0; j < sp->kind_count; j++) {
		const struct kind_state *k = &e->kinds[sp->kinds[j]];
		if (e->kind_all_match[(size_t)s * e->sc->kind_count + sp->kinds[j]] &&
		    !sp->exclude_dynamic) {
			if (!decide_block(e, sp, k))
				return scenario_engine_fail(e, "out of memory in the harness (commands)");
			continue;
		}
		for (uint32_t i = 0; i < k->count; i++)
			if (member_matches(e, s, sp, &k->live[i]) &&
			    !decide(e, sp, &k->live[i].slot, k->ids[i].serial))
				return scenario_engine_fail(e, "out of memory in the harness (commands)");
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
	uint32_t total; /* the floor: entries of its walk (floor_part, scenario_floor.c) */
};

static uint32_t thread_sums_total(const struct scenario_engine *e)
{
	uint32_t sum = 0;
	for (uint32_t t = 0; t < parallel_pool_threads(e->pool); t++)
		sum += e->thread_sums[t].sum;
	return sum;
}

/* --- a frame ------------------------------------------------------------------------------ */

/* The clock the run measures frames with: phases on the same one add up to the frame. */
static inline uint64_t engine_now(const struct scenario_engine *e)
{
	return e->cpu_clock ? measure_cpu_ns() : measure_now_ns();
}

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
 * A frame's spawns with batched kinds: the same kind list as spawn_listed's, the same serials,
 * variants and places in the engine's lists, so that every decision after it (and the
 * checksum) is the same as without batches; only the storage's calls differ. Each batched kind
 * first makes its entries of the list in one batch per variant (kind by kind, variants in
 * order), each entry's serial the one its place in the list gives it; then the list is walked
 * in its order, the other kinds' entries each made by target_create, the batched ones adopted
 * with the handle their batch gave them.
 */
static int spawn_listed_batched(struct scenario_engine *e, const struct command_list *l)
{
	const struct scenario *sc = e->sc;
	struct batch_scratch *b = &e->batch;
	if (l->count > b->listed_cap) {
		if (!own_grow(e, (void **)&b->listed, sizeof *b->listed, b->listed_cap, l->count))
			return scenario_engine_fail(e, "out of memory in the harness (batches)");
		b->listed_cap = l->count;
	}
	uint32_t base = e->next_serial;
	for (uint32_t kind = 0; kind < sc->kind_count; kind++) {
		const struct kind_state *k = &e->kinds[kind];
		if (!sc->kinds[kind].batch)
			continue;
		/* its entries by variant (each entry's turn, k->next_variant onwards, gives its
		 * variant), in list order within a variant: counted, then placed, one walk each */
		uint32_t first[SCENARIO_MAX_VARIANTS + 1] = {0}, at[SCENARIO_MAX_VARIANTS];
		uint32_t turn = k->next_variant, total = 0;
		for (uint32_t i = 0; i < l->count; i++)
			if (l->v[i].what == kind) {
				first[turn + 1]++;
				total++;
				turn = turn + 1 == k->variants ? 0 : turn + 1;
			}
		if (!total)
			continue;
		for (uint32_t v = 0; v < k->variants; v++) {
			first[v + 1] += first[v];
			at[v] = first[v];
		}
		if (!batch_reserve(e, total, 0))
			return scenario_engine_fail(e, "out of memory in the harness (batches)");
		turn = k->next_variant;
		for (uint32_t i = 0; i < l->count; i++)
			if (l->v[i].what == kind) {
				b->pos[at[turn]] = i;
				b->serials[at[turn]++] = base + i;
				turn = turn + 1 == k->variants ? 0 : turn + 1;
			}
		for (uint32_t v = 0; v < k->variants; v++) {
			const struct kind_variant *kv = &e->kvs[k->kv_first + v];
			uint32_t n = first[v + 1] - first[v];
			size_t bytes = 0;
			for (uint32_t j = 0; j < kv->type_count; j++)
				bytes += e->sizes[kv->types[j]];
			if (!n)
				continue;
			if (!batch_reserve(e, total, bytes * n))
				return scenario_engine_fail(e, "out of memory in the harness (batches)");
			if (target_create_batch(e, kind, kv, first[v], n))
				return -1;
			for (uint32_t j = first[v]; j < first[v + 1]; j++)
				b->listed[b->pos[j]] = b->handles[j];
		}
	}
	for (uint32_t i = 0; i < l->count; i++) {
		uint32_t kind = l->v[i].what;
		if (spawn_member(e, kind, sc->kinds[kind].batch, b->listed[i]))
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

/* A batched effect's remove, listed: the engine's records changed at once (so that a second
 * pick of the same entity finds it without the type, as the one-at-a-time path does), the
 * storage's in one batch at the end (effects_remove_batched). */
static inline bool batch_list_remove(struct scenario_engine *e, struct kind_state *k,
                                     uint32_t pos, uint64_t bit, uint32_t *n)
{
	if (*n == e->batch.cap && !batch_reserve(e, *n + 1, 0))
		return false;
	e->batch.pos[*n] = pos;
	e->batch.handles[*n] = k->ids[pos].handle;
	e->batch.serials[(*n)++] = k->ids[pos].serial;
	k->live[pos].dynamic &= ~bit;
	having_remove(e, bit, k->live[pos].slot);
	return true;
}

/* effects_remove's work for a batched effect: the same entities in the same order, the
 * storage's removes in one component_remove_batch. */
static int effect_remove_batched(struct scenario_engine *e, const struct scenario_effect *ef,
                                 struct effect_state *es)
{
	struct kind_state *k = &e->kinds[ef->kind];
	uint32_t n = 0;
	if (ef->duration) {
		/* the queue's records prefetched ahead, as effects_remove's one-at-a-time walk does */
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
			if (slot_alive(e, x.slot) &&
			    kind_of_slot(e, x.slot)->ids[e->slots[x.slot].kind_pos].serial == x.serial &&
			    (member_of_slot(e, x.slot)->dynamic & es->bit) &&
			    !batch_list_remove(e, k, e->slots[x.slot].kind_pos, es->bit, &n))
				return scenario_engine_fail(e, "out of memory in the harness (batches)");
		}
	} else {
		uint32_t picks = take_rate(&es->remove_carry, ef->remove * k->count);
		FOR_PICKS(e, k, picks, at, {
			if ((k->live[at].dynamic & es->bit) && !batch_list_remove(e, k, at, es->bit, &n))
				return scenario_engine_fail(e, "out of memory in the harness (batches)");
		});
	}
	return n ? target_remove_batch(e, k, ef->type, n) : 0;
}

static int effects_remove(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *ef = &sc->effects[i];
		struct effect_state *es = &e->effects[i];
		if (ef->batch) {
			if (effect_remove_batched(e, ef, es))
				return -1;
			continue;
		}
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

/* effects_add's work for a batched effect: the same picks, the engine's records changed as
 * each is listed (a second pick of the entity then skips it, as the one-at-a-time path does,
 * and the batch holds no entity twice nor one that has the type: such a batch would fail
 * whole), then the storage's adds in one component_add_batch, values packed. */
static int effect_add_batched(struct scenario_engine *e, const struct scenario_effect *ef,
                              struct effect_state *es)
{
	struct kind_state *k = &e->kinds[ef->kind];
	uint32_t picks = take_rate(&es->add_carry, ef->add * k->count), n = 0;
	FOR_PICKS(e, k, picks, at, {
		if (!(k->live[at].dynamic & es->bit)) {
			if (n == e->batch.cap && !batch_reserve(e, n + 1, 0))
				return scenario_engine_fail(e, "out of memory in the harness (batches)");
			e->batch.pos[n] = at;
			e->batch.handles[n] = k->ids[at].handle;
			e->batch.serials[n++] = k->ids[at].serial;
			k->live[at].dynamic |= es->bit;
			if (!having_add(e, es->bit, k->live[at].slot))
				return scenario_engine_fail(e, "out of memory in the harness");
			if (ef->duration &&
			    !push_expiry(e, es,
			                 (struct expiry){k->live[at].slot, k->ids[at].serial,
			                                 e->frame + ef->duration}))
				return scenario_engine_fail(e, "out of memory in the harness (effects)");
		}
	});
	if (!n)
		return 0;
	if (!batch_reserve(e, n, (size_t)n * e->sizes[ef->type]))
		return scenario_engine_fail(e, "out of memory in the harness (batches)");
	return target_add_batch(e, k, ef->type, n);
}

static int effects_add(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *ef = &sc->effects[i];
		struct effect_state *es = &e->effects[i];
		struct kind_state *k = &e->kinds[ef->kind];
		if (ef->batch) {
			if (effect_add_batched(e, ef, es))
				return -1;
			continue;
		}
		uint32_t n = take_rate(&es->add_carry, ef->add * k->count);
		FOR_PICKS(e, k, n, at, {
			if (!(k->live[at].dynamic & es->bit)) {
				if (add_type_at(e, k, at, ef->type, es->bit))
					return -1;
				if (ef->duration &&
				    !push_expiry(e, es,
				                 (struct expiry){k->live[at].slot, k->ids[at].serial,
				                                 e->frame + ef->duration}))
					return scenario_engine_fail(e, "out of memory in the harness (effects)");
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
				if (target_lookup(e, k, at, j, t, h, &sum))
					return -1;
			}
		}
		n -= c;
	}
	e->lookup_sum += sum;
	e->handles_read += handles_read;
	return 0;
}

static int frame_run(struct scenario_engine *e)
{
	const struct scenario *sc = e->sc;
	for (uint32_t p = 0; p <= e->phases; p++)
		e->figures[p] = 0;
	uint64_t allocations = e->counter.allocations;
	counting_alloc_largest_reset(&e->counter);
	uint64_t t = engine_now(e);

	/* the kinds' spawns, mixed (kind_list_make) */
	struct command_list *kinds = &e->commands[CLASS_KINDS];
	uint32_t n[SCENARIO_MAX_KINDS];
	for (uint32_t k = 0; k < sc->kind_count; k++)
		n[k] = take_rate(&e->kinds[k].spawn_carry, sc->kinds[k].spawn);
	if (!kind_list_make(e, kinds, n, list_key(e, LIST_SPAWN)))
		return scenario_engine_fail(e, "out of memory in the harness (spawns)");
	if (e->batched_kinds ? spawn_listed_batched(e, kinds) : spawn_listed(e, kinds))
		return -1;
	lap(e, SCENARIO_PHASE_SPAWN, &t);

	for (uint32_t s = 0; s < sc->system_count; s++) {
		const struct system_plan *sp = &e->systems[s];
		for (uint32_t c = 0; c < sp->change_count; c++)
			e->pass_mul[c] = (uint32_t)rng_mix64(sp->key ^ ((uint64_t)e->frame << 8 | c)) | 1;
		if (sc->systems[s].parallel && e->pool ? target_pass_parallel(e, s)
		                                       : target_pass(e, s, sp))
			return -1;
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
		return scenario_engine_fail(e, "out of memory in the harness (despawns)");
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
	e->figures[e->phases + 1] = (double)e->counter.largest;
	e->frame++;
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
		scenario_engine_fail(e, "out of memory in the harness (the population)");
	else if (!kind_list_make(e, &l, n, list_key(e, LIST_POPULATION)))
		scenario_engine_fail(e, "out of memory in the harness (the population)");
	else
		rc = spawn_listed(e, &l);
	free(l.v);
	return rc;
}

#pragma GCC diagnostic pop

/* What every target hands the engine from this file, first in its struct scenario_target. */
#define SCENARIO_FRAME_TARGET \
	.frame = frame_run, .populate = spawn_population, .reserve_kind = grow_kind
