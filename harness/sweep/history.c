/*
 * history.c: the histories a workload's storage goes through before its clock starts, and the
 * spawn plans of the workloads that create entities inside it (see history.h). Nothing here is
 * timed but history_spawn_planned and history_despawn_planned, which read a plan made before the clock.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "../core/free_and_null.h"
#include "../core/measure.h"
#include "state.h"

/* The state lived-in leaves (kinds interleaved, a quarter replaced, half of each pool
 * reshuffled), which churned leaves too, after its waves: one list, so that they stay alike. */
#define LIVED_IN_STATE \
	.kinds = true, .props = true, .turnover = true, .shuffle_eighths = 4, \
	.shuffled_destroy = true, .lived = true

const struct history histories[] = {
	{
		.name = "lived-in",
		.description = "kinds interleaved, a quarter replaced (recycled ids, holes), each pool "
		               "reshuffled on half its entities",
		LIVED_IN_STATE,
		.spawns = true,
	},
	{
		.name = "pristine",
		.description = "best case: one kind created in index order, never changed",
		.spawns = true,
	},
	{
		.name = "aged",
		.description = "every pool aged: each type removed and added back in a random order",
		.shuffle_eighths = 8,
	},
	{
		.name = "one-hole",
		.description = "pristine but for one entity created first and destroyed last",
		.hole = true,
	},
	{
		.name = "churned",
		.description = "lived-in, after 64 other kinds came and went (empty tables and pools "
		               "left behind)",
		LIVED_IN_STATE,
		.waves = 64,
	},
	{
		.name = "alternating",
		.description = "one set, every other entity giving it in reverse order",
		.alternate = true,
		.spawns = true,
	},
};
const size_t history_count = sizeof histories / sizeof histories[0];

const char *history_name(const struct history *h) { return h ? h->name : "-"; }

bool history_lived(const struct bench_case *c) { return c->history && c->history->lived; }

/* The kinds' own types: bullets get one, particles two, props one other (see history.h). */
enum { EXTRA_BULLET = FIRST_OTHER_TYPE, EXTRA_PARTICLE_A, EXTRA_PARTICLE_B, EXTRA_PROP };

/* The value every entity gets for a kind's own type: any bytes will do, the same for all. */
const unsigned char history_extra_value[ECS_MAX_COMPONENT_SIZE] = {1, 2, 3, 4, 5, 6, 7, 8};

/* Entity i's kind (0: S, 1: S + a bullet's type, 2: S + a particle's two), from the seed and i
 * alone, so that an entity created again gets the same kind: half, a quarter, a quarter. */
static uint32_t kind_of(uint64_t seed, uint32_t i)
{
	struct rng g;
	rng_seed(&g, seed, 0x6b696e6400000000ull | i);
	uint32_t d = rng_below(&g, 4);
	return d < 2 ? 0 : d - 1;
}

/* The list of kind `kind` over the set S of k types, reversed or not; returns its length. */
static uint32_t kind_list(uint32_t kind, const uint32_t *set, uint32_t k, bool reversed,
                          uint32_t *types)
{
	static const uint32_t extras[HISTORY_KINDS][2] = {{0, 0}, {EXTRA_BULLET, 0},
	                                                  {EXTRA_PARTICLE_A, EXTRA_PARTICLE_B}};
	uint32_t n = 0;
	for (uint32_t j = 0; j < k; j++)
		types[n++] = set[j];
	for (uint32_t x = 0; x < kind; x++)
		types[n++] = extras[kind][x];
	if (reversed)
		for (uint32_t a = 0, b = n - 1; a < b; a++, b--) {
			uint32_t t = types[a];
			types[a] = types[b];
			types[b] = t;
		}
	return n;
}

/* A prop: S without its last type, and a type of its own. */
static uint32_t prop_list(const uint32_t *set, uint32_t k, uint32_t *types, const void **values)
{
	uint32_t n = 0;
	for (uint32_t j = 0; j + 1 < k; j++)
		types[n++] = set[j];
	types[n++] = EXTRA_PROP;
	for (uint32_t j = 0; j < n; j++)
		values[j] = history_extra_value;
	return n;
}

/* --- spawning inside the clock ------------------------------------------------------------ */

static int out_of_memory(struct bench_result *r) { return bench_fail(r, "out of memory in the harness"); }

int history_spawn_plan_make(struct spawn_plan *p, const struct history *h, const struct bench_case *c,
                            const uint32_t *set, uint32_t k, const struct values *v, uint64_t stream,
                            struct bench_result *r)
{
	memset(p, 0, sizeof *p);
	p->n = c->entities;
	/* the lists: one per kind, or S and S reversed, or S alone */
	uint32_t kinds = h->kinds ? HISTORY_KINDS : 1;
	p->lists = h->alternate ? 2 : kinds;
	p->k = k;
	p->values = v;
	memcpy(p->set, set, k * sizeof *set);
	for (uint32_t l = 0; l < p->lists; l++) {
		bool reversed = h->alternate && l == 1;
		p->count[l] = kind_list(h->alternate ? 0 : l, set, k, reversed, p->types[l]);
		for (uint32_t j = 0; j < p->count[l]; j++) {
			uint32_t x = 0;
			while (x < k && set[x] != p->types[l][j])
				x++;
			p->slot[l][j] = (uint8_t)x;
		}
	}
	if (p->lists > 1) {
		if (!(p->list = malloc(p->n + 1)))
			return out_of_memory(r);
		for (uint32_t i = 0; i < p->n; i++)
			p->list[i] = (uint8_t)(h->alternate ? i % 2 : kind_of(c->seed, i));
	}
	if (h->shuffled_destroy && !(p->destroy_order = rng_permutation(c->seed, stream, p->n))) {
		history_spawn_plan_free(p);
		return out_of_memory(r);
	}
	return 0;
}

void history_spawn_plan_free(struct spawn_plan *p)
{
	FREE_AND_NULL(p->list);
	FREE_AND_NULL(p->destroy_order);
}

uint32_t history_spawn_plan_kind(const struct spawn_plan *p, uint32_t i)
{
	return p->list && p->lists == HISTORY_KINDS ? p->list[i] : 0;
}

/*
 * One kind, in order: world.c's spawn (value pointers one addition from the last entity's).
 * Several lists: the same, a pointer per type of S moved on by one value an entity, and each
 * entity's list taking its values from them in its own order (one load a value more); the
 * method looked up once, nothing made or decided.
 */
/* Entities [first, first + count) of a plan of several lists: a pointer per type of S moved on
 * by one value an entity, and each entity's list taking its values from them in its own order
 * (one load a value more); the method looked up once, nothing made or decided. Inlined into
 * each caller, so that create's loop (first = 0) is the one it was. */
static inline __attribute__((always_inline)) int
spawn_lists(struct world *w, const struct spawn_plan *p, uint32_t first, uint32_t count,
            ecs_entity *handles, struct bench_result *r)
{
	const struct ecs_ops *ops = w->ops;
	int (*create_with)(ecs_storage *, const uint32_t *, uint32_t, const void *const *,
	                   ecs_entity *) = ops->entity_create_with;
	ecs_storage *s = w->s;
	const uint8_t *list = p->list;
	const unsigned char *at[COMP_MAX_K + 1];
	size_t size[COMP_MAX_K];
	for (uint32_t t = 0; t < p->k; t++) {
		size[t] = p->values->size[p->set[t]];
		at[t] = p->values->data[p->set[t]] + (size_t)first * size[t];
	}
	at[p->k] = history_extra_value;
	for (uint32_t i = first; i < first + count; i++) {
		uint32_t l = list[i], n = p->count[l];
		const void *values[HISTORY_MAX_TYPES];
		for (uint32_t j = 0; j < n; j++)
			values[j] = at[p->slot[l][j]];
		int rc = create_with ? create_with(s, p->types[l], n, values, &handles[i])
		                     : ecs_entity_create_with_fallback(ops, s, p->types[l], n, values,
		                                                       &handles[i]);
		if (rc != ECS_OK)
			return bench_fail(r, "creating entity %u returned %s", i, ecs_status_name(rc));
		for (uint32_t t = 0; t < p->k; t++) {
			at[t] += size[t];
			__asm__("" : : : "memory"); /* a loop of one or two adds, not vectorised */
		}
	}
	return 0;
}

/* One kind, in order: world.c's spawn (value pointers one addition from the last entity's);
 * several lists: spawn_lists. */
int history_spawn_planned(struct world *w, const struct spawn_plan *p, ecs_entity *handles,
                          struct bench_result *r)
{
	if (!p->list)
		return world_spawn(w, p->n, p->types[0], p->count[0], p->values, handles, r);
	return spawn_lists(w, p, 0, p->n, handles, r);
}

int history_spawn_planned_range(struct world *w, const struct spawn_plan *p, uint32_t first,
                                uint32_t count, ecs_entity *handles, struct bench_result *r)
{
	if (p->list)
		return spawn_lists(w, p, first, count, handles, r);
	struct values from = *p->values; /* the plan's values from entity `first` on */
	for (uint32_t t = 0; t < VALUE_TYPES; t++)
		if (from.data[t])
			from.data[t] += (size_t)first * from.size[t];
	from.n -= first;
	return world_spawn(w, count, p->types[0], p->count[0], &from, handles + first, r);
}

/* --- create-batch's plan -------------------------------------------------------------------- */

void history_batch_plan_free(struct batch_plan *b)
{
	free(b->first);
	free(b->count);
	free(b->list);
	free(b->order);
	for (uint32_t t = 0; t < COMP_MAX_K; t++)
		free(b->values[t]);
	memset(b, 0, sizeof *b);
}

int history_batch_plan_make(struct batch_plan *b, const struct spawn_plan *p, struct bench_result *r)
{
	memset(b, 0, sizeof *b);
	uint32_t n = p->n, lists = p->list ? p->lists : 1;
	uint32_t total[2 * HISTORY_KINDS] = {0}, taken[2 * HISTORY_KINDS] = {0};
	uint32_t next[2 * HISTORY_KINDS] = {0}; /* the next plan entity of each list to look at */
	for (uint32_t i = 0; i < n; i++)
		total[p->list ? p->list[i] : 0]++;
	uint32_t most = n / HISTORY_SPAWN_BATCH + lists + 1;
	b->n = n;
	b->first = malloc(most * sizeof *b->first);
	b->count = malloc(most * sizeof *b->count);
	b->list = malloc(most);
	b->order = malloc((size_t)n * sizeof *b->order + 1);
	if (!b->first || !b->count || !b->list || !b->order)
		goto oom;
	for (uint32_t t = 0; t < p->k; t++) {
		b->size[t] = p->values->size[p->set[t]];
		if (!(b->values[t] = malloc((size_t)n * b->size[t] + 1)))
			goto oom;
	}
	for (uint32_t pos = 0; pos < n;) {
		/* the list furthest behind its share: least taken / total, compared as products */
		uint32_t l = UINT32_MAX;
		for (uint32_t x = 0; x < lists; x++)
			if (taken[x] < total[x] &&
			    (l == UINT32_MAX || (uint64_t)taken[x] * total[l] < (uint64_t)taken[l] * total[x]))
				l = x;
		uint32_t count = total[l] - taken[l];
		if (count > HISTORY_SPAWN_BATCH)
			count = HISTORY_SPAWN_BATCH;
		b->first[b->batches] = pos;
		b->count[b->batches] = count;
		b->list[b->batches++] = (uint8_t)l;
		for (uint32_t j = 0; j < count; j++, pos++) {
			uint32_t i = next[l];
			while (p->list && p->list[i] != l)
				i++;
			next[l] = i + 1;
			b->order[pos] = i;
			for (uint32_t t = 0; t < p->k; t++)
				memcpy(b->values[t] + (size_t)pos * b->size[t],
				       p->values->data[p->set[t]] + (size_t)i * b->size[t], b->size[t]);
		}
		taken[l] += count;
	}
	return 0;
oom:
	history_batch_plan_free(b);
	return out_of_memory(r);
}

int history_spawn_batched(struct world *w, const struct spawn_plan *p, const struct batch_plan *b,
                          ecs_entity *handles, struct bench_result *r)
{
	const struct ecs_ops *ops = w->ops;
	ecs_storage *s = w->s;
	for (uint32_t x = 0; x < b->batches; x++) {
		uint32_t l = b->list[x], first = b->first[x], n = p->count[l];
		struct ecs_values v[HISTORY_MAX_TYPES];
		for (uint32_t j = 0; j < n; j++) {
			uint32_t slot = p->slot[l][j];
			if (slot < p->k) {
				v[j].data = b->values[slot] + (size_t)first * b->size[slot];
				v[j].stride = b->size[slot];
			} else {
				v[j].data = history_extra_value;
				v[j].stride = 0;
			}
		}
		int rc = ecs_entity_create_batch(ops, s, p->types[l], n, v, b->count[x], handles + first);
		if (rc != ECS_OK)
			return bench_fail(r, "creating batch %u (%u entities) returned %s", x, b->count[x],
			                  ecs_status_name(rc));
	}
	return 0;
}

/* In a random order the handles are read at random: each is asked for a few entities ahead,
 * so that the harness's own miss does not add to the destroy's. */
#define DESPAWN_AHEAD 16u

int history_despawn_planned(struct world *w, const struct spawn_plan *p, const ecs_entity *handles,
                            struct bench_result *r)
{
	const uint32_t *order = p->destroy_order;
	if (!order)
		return world_despawn(w, p->n, handles, r);
	int (*destroy)(ecs_storage *, ecs_entity) = w->ops->entity_destroy;
	for (uint32_t i = 0; i < p->n; i++) {
		if (i + DESPAWN_AHEAD < p->n)
			__builtin_prefetch(&handles[order[i + DESPAWN_AHEAD]]);
		int rc = destroy(w->s, handles[order[i]]);
		if (rc != ECS_OK)
			return bench_fail(r, "destroying entity %u returned %s", order[i], ecs_status_name(rc));
	}
	return 0;
}

/* --- the storage before the clock --------------------------------------------------------- */

static uint32_t kinds_list_of(void *ctx, uint32_t i, uint32_t *types, const void **values)
{
	const struct history_kinds_population *kp = ctx;
	const struct history *h = kp->h;
	uint32_t kind = h->kinds ? kind_of(kp->seed, i) : 0;
	uint32_t n = kind_list(kind, kp->set, kp->k, h->alternate && i % 2, types);
	for (uint32_t j = 0; j < n; j++)
		values[j] = types[j] < VALUE_TYPES ? world_value_of(kp->c->values, types[j], i) : history_extra_value;
	return n;
}

void history_kinds_population(struct population *pop, struct history_kinds_population *kp,
                              const struct history *h, const struct bench_case *c, const uint32_t *set,
                              uint32_t k)
{
	*kp = (struct history_kinds_population){.h = h, .c = c, .k = k, .seed = c->seed};
	memcpy(kp->set, set, k * sizeof *set);
	*pop = (struct population){
		.n = c->entities,
		.list_of = kinds_list_of,
		.ctx = kp,
		.aged_count = k,
		.values = c->values,
		.allow_kinds = true,
	};
	memcpy(pop->aged, set, k * sizeof *set);
}

/* Fisher-Yates over v[0..n) with g. */
static void shuffle(struct rng *g, uint32_t *v, uint32_t n)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = rng_below(g, i), t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* An entry of a creation sequence: measured entity i, or prop j with PROP set. */
#define PROP 0x80000000u

struct builder {
	struct world *w;
	const struct population *pop;
	const uint32_t *set; /* props' list comes from it */
	uint32_t k;
	ecs_entity *handles, *props;
	struct bench_result *r;
};

static int create_entry(struct builder *b, uint32_t entry)
{
	uint32_t types[ECS_CREATE_MAX_COMPONENTS];
	const void *values[ECS_CREATE_MAX_COMPONENTS];
	uint32_t n;
	ecs_entity *out;
	if (entry & PROP) {
		n = prop_list(b->set, b->k, types, values);
		out = &b->props[entry & ~PROP];
	} else {
		n = b->pop->list_of(b->pop->ctx, entry, types, values);
		out = &b->handles[entry];
	}
	int rc = ecs_entity_create_with(b->w->ops, b->w->s, types, n, values, out);
	return rc == ECS_OK ? 0 : bench_fail(b->r, "creating entity %u%s returned %s", entry & ~PROP,
	                                     entry & PROP ? " (a prop)" : "", ecs_status_name(rc));
}

static int destroy_entry(struct builder *b, uint32_t entry)
{
	ecs_entity e = entry & PROP ? b->props[entry & ~PROP] : b->handles[entry];
	int rc = b->w->ops->entity_destroy(b->w->s, e);
	return rc == ECS_OK ? 0 : bench_fail(b->r, "destroying entity %u%s returned %s", entry & ~PROP,
	                                     entry & PROP ? " (a prop)" : "", ecs_status_name(rc));
}

/* A quarter of everything destroyed in a random order; then the measured ones and half the
 * props created again, interleaved in another random order. */
static int turnover(struct builder *b, struct rng *g, uint32_t n, uint32_t props,
                    struct history_outcome *out)
{
	uint32_t *dead = malloc(((size_t)n + props) * sizeof *dead + 1);
	if (!dead)
		return out_of_memory(b->r);
	uint32_t count = 0, props_dead = 0;
	for (uint32_t i = 0; i < n; i++)
		if (rng_below(g, 4) == 0)
			dead[count++] = i;
	for (uint32_t j = 0; j < props; j++)
		if (rng_below(g, 4) == 0)
			dead[count++] = PROP | j;
	shuffle(g, dead, count);
	int rc = 0;
	for (uint32_t d = 0; d < count && !rc; d++)
		rc = destroy_entry(b, dead[d]);
	/* every other dead prop stays dead: its index is a hole */
	uint32_t again = 0;
	for (uint32_t d = 0; d < count; d++)
		if (!(dead[d] & PROP) || props_dead++ % 2 == 0)
			dead[again++] = dead[d];
	out->holes = count - again;
	out->destroyed = count;
	shuffle(g, dead, again);
	for (uint32_t d = 0; d < again && !rc; d++)
		rc = create_entry(b, dead[d]);
	free(dead);
	return rc;
}

/* For each aged type, its own random share of the measured entities that have it lose it and
 * get it back (the value they had), each in its own random order. */
static int reshuffle(struct builder *b, struct rng *g, uint32_t eighths,
                     struct history_outcome *out)
{
	const struct population *pop = b->pop;
	const struct ecs_ops *ops = b->w->ops;
	uint32_t *some = malloc((size_t)pop->n * sizeof *some + 1);
	if (!some)
		return out_of_memory(b->r);
	int rc = 0;
	for (uint32_t a = 0; a < pop->aged_count && !rc; a++) {
		uint32_t t = pop->aged[a], count = 0;
		for (uint32_t i = 0; i < pop->n; i++)
			if ((eighths >= 8 || rng_below(g, 8) < eighths) &&
			    ops->component_has(b->w->s, b->handles[i], t) == 1)
				some[count++] = i;
		shuffle(g, some, count);
		for (uint32_t j = 0; j < count && !rc; j++) {
			int s = ops->component_remove(b->w->s, b->handles[some[j]], t);
			if (s != ECS_OK)
				rc = bench_fail(b->r, "removing type %u from entity %u returned %s", t, some[j],
				                ecs_status_name(s));
		}
		shuffle(g, some, count);
		for (uint32_t j = 0; j < count && !rc; j++) {
			int s = ops->component_add(b->w->s, b->handles[some[j]], t,
			                           world_value_of(pop->values, t, some[j]));
			if (s != ECS_OK)
				rc = bench_fail(b->r, "adding type %u to entity %u returned %s", t, some[j],
				                ecs_status_name(s));
		}
		out->reshuffled += count;
	}
	free(some);
	return rc;
}

/*
 * Kinds that came and went: `waves` waves of n/16 entities (at least 1), each wave one kind: the
 * set's types and one or two distinct types drawn from the rest of the profile; every entity of
 * a wave created, then all destroyed in a random order. Their values do not matter (no one
 * reads them): the kinds' constant one.
 */
static int waves(struct builder *b, struct rng *g, const struct bench_case *c, uint32_t count,
                 uint32_t n)
{
	uint32_t size = n / 16 ? n / 16 : 1, others = c->profile->component_count - FIRST_OTHER_TYPE;
	ecs_entity *wave = malloc((size_t)size * sizeof *wave + 1);
	uint32_t *order = malloc((size_t)size * sizeof *order + 1);
	if (!wave || !order || others < 2) {
		free(wave);
		free(order);
		return others < 2 ? bench_fail(b->r, "the profile has too few types for the waves")
		                  : out_of_memory(b->r);
	}
	int rc = 0;
	for (uint32_t v = 0; v < count && !rc; v++) {
		uint32_t types[ECS_CREATE_MAX_COMPONENTS];
		const void *values[ECS_CREATE_MAX_COMPONENTS];
		uint32_t t = 0;
		for (; t < b->k; t++)
			types[t] = b->set[t];
		types[t++] = FIRST_OTHER_TYPE + rng_below(g, others);
		if (rng_below(g, 2)) { /* a second type of its own, another one */
			uint32_t second = FIRST_OTHER_TYPE + rng_below(g, others - 1);
			types[t++] = second >= types[b->k] ? second + 1 : second;
		}
		for (uint32_t j = 0; j < t; j++)
			values[j] = history_extra_value;
		for (uint32_t i = 0; i < size && !rc; i++) {
			int s = ecs_entity_create_with(b->w->ops, b->w->s, types, t, values, &wave[i]);
			if (s != ECS_OK)
				rc = bench_fail(b->r, "creating entity %u of wave %u returned %s", i, v,
				                ecs_status_name(s));
			order[i] = i;
		}
		shuffle(g, order, size);
		for (uint32_t i = 0; i < size && !rc; i++) {
			int s = b->w->ops->entity_destroy(b->w->s, wave[order[i]]);
			if (s != ECS_OK)
				rc = bench_fail(b->r, "destroying entity %u of wave %u returned %s", order[i], v,
				                ecs_status_name(s));
		}
	}
	free(wave);
	free(order);
	return rc;
}

int history_build(struct world *w, const struct history *h, const struct bench_case *c,
                  const struct population *pop, uint64_t stream, ecs_entity *handles,
                  struct history_outcome *out, struct bench_result *r)
{
	UNTIMED_ONLY("history_build (a storage's history)");
	memset(out, 0, sizeof *out);
	const struct history_kinds_population *kp = pop->allow_kinds ? pop->ctx : NULL;
	uint32_t n = pop->n, props = h->props ? n / 4 : 0;
	struct builder b = {w, pop, kp ? kp->set : pop->aged, kp ? kp->k : pop->aged_count, handles,
	                    NULL, r};
	struct rng g;
	rng_seed(&g, c->seed, stream);
	uint32_t *sequence = malloc(((size_t)n + props) * sizeof *sequence + 1);
	b.props = malloc((size_t)props * sizeof *b.props + 1);
	if (!sequence || !b.props) {
		free(sequence);
		free(b.props);
		return out_of_memory(r);
	}
	/* The measured entities in their order, the props among them at random places. */
	for (uint32_t i = 0, j = 0, at = 0; at < n + props; at++)
		sequence[at] = j < props && rng_below(&g, n + props - at) < props - j ? PROP | j++ : i++;
	int rc = h->waves ? waves(&b, &g, c, h->waves, n) : 0;
	ecs_entity hole = ECS_NULL;
	if (h->hole && !rc) {
		uint32_t types[ECS_CREATE_MAX_COMPONENTS];
		const void *values[ECS_CREATE_MAX_COMPONENTS];
		uint32_t count = pop->list_of(pop->ctx, 0, types, values);
		int s = ecs_entity_create_with(w->ops, w->s, types, count, values, &hole);
		if (s != ECS_OK)
			rc = bench_fail(r, "creating the entity that leaves a hole returned %s",
			                ecs_status_name(s));
	}
	for (uint32_t at = 0; at < n + props && !rc; at++)
		rc = create_entry(&b, sequence[at]);
	if (!rc && h->hole) {
		int s = w->ops->entity_destroy(w->s, hole);
		if (s != ECS_OK)
			rc = bench_fail(r, "destroying the entity that leaves a hole returned %s",
			                ecs_status_name(s));
		out->holes = 1;
		out->destroyed = 1;
	}
	if (!rc && h->turnover)
		rc = turnover(&b, &g, n, props, out);
	if (!rc && h->shuffle_eighths)
		rc = reshuffle(&b, &g, h->shuffle_eighths, out);
	for (uint32_t i = 0; i < n && !rc; i++)
		out->recycled += ecs_entity_generation(handles[i]) > 0;
	free(sequence);
	free(b.props);
	return rc;
}

uint32_t history_entities(const struct history *h, uint32_t n)
{
	return n + (h->props ? n / 4 : 0) + h->hole;
}

uint64_t history_peak_entities(const struct bench_case *c)
{
	uint64_t most = 0;
	for (size_t i = 0; i < history_count; i++) {
		const struct history *h = c->history ? c->history : &histories[i];
		uint64_t n = history_entities(h, c->entities);
		most = n > most ? n : most;
	}
	return most;
}

/* The checks of what history_build made, as it made it (the workload's own runs may put a
 * storage back in order: add-remove's adds and removes in index order do, in archetype), in the
 * first process. */
static int history_setup_check(struct run *run)
{
	struct history_state *st = run->history;
	if (!run->verify)
		return 0;
	return history_check(&run->world, run->c->history, &st->pop, run->handles, &st->outcome,
	                     run->r);
}

int history_world_of(struct run *run, const struct population *pop, uint64_t stream)
{
	const struct bench_case *c = run->c;
	struct history_state *st = calloc(1, sizeof *st);
	if (!st)
		return out_of_memory(run->r);
	run->history = st;
	st->pop = *pop;
	if (world_open(c, &run->world, run->r) ||
	    world_reserve(&run->world, history_entities(c->history, pop->n), run->r))
		return -1;
	return history_build(&run->world, c->history, c, &st->pop, stream, run->handles,
	                     &st->outcome, run->r) ||
	       history_setup_check(run);
}

int history_world(struct run *run, const uint32_t *set, uint32_t k, uint64_t stream)
{
	const struct bench_case *c = run->c;
	struct history_state *st = calloc(1, sizeof *st);
	if (!st)
		return out_of_memory(run->r);
	run->history = st;
	history_kinds_population(&st->pop, &st->kinds, c->history, c, set, k);
	if (world_open(c, &run->world, run->r) ||
	    world_reserve(&run->world, history_entities(c->history, st->pop.n), run->r))
		return -1;
	return history_build(&run->world, c->history, c, &st->pop, stream, run->handles,
	                     &st->outcome, run->r) ||
	       history_setup_check(run);
}

/* --- the checks --------------------------------------------------------------------------- */

/* Below this many measured entities a history cannot be told from another by these checks. */
#define CHECK_MIN_ENTITIES 64u

/* Of the measured entities that have type t, taken in index order: how many have their value
 * right after the value of the one before (a pool in index order: all). */
static int values_in_index_order(struct world *w, const ecs_entity *handles, uint32_t n,
                                 const uint32_t *by_index, uint32_t indices, uint32_t t,
                                 uint32_t *in_order, uint32_t *pairs, struct bench_result *r)
{
	unsigned char *last = NULL;
	*in_order = *pairs = 0;
	for (uint32_t x = 0; x < indices; x++) {
		if (!by_index[x])
			continue;
		void *p;
		int rc = w->ops->component_get(w->s, handles[by_index[x] - 1], t, &p);
		if (rc == ECS_ERR_NO_COMPONENT)
			continue;
		if (rc != ECS_OK)
			return bench_fail(r, "component_get returned %s", ecs_status_name(rc));
		if (last) {
			(*pairs)++;
			*in_order += (unsigned char *)p == last + w->sizes[t];
		}
		last = p;
	}
	(void)n;
	return 0;
}

int history_check(struct world *w, const struct history *h, const struct population *pop,
                  const ecs_entity *handles, const struct history_outcome *out,
                  struct bench_result *r)
{
	UNTIMED_ONLY("history_check");
	uint32_t n = pop->n;
	if (n < CHECK_MIN_ENTITIES)
		return 0;
	if (h->turnover && (out->recycled == 0 || out->holes == 0))
		return bench_fail(r, "the %s storage has %u recycled ids and %u holes: it should have both",
		                  h->name, out->recycled, out->holes);
	if (!h->shuffle_eighths)
		return 0;
	/* the measured entities by index: by_index[index] = i + 1, 0 where none */
	uint32_t indices = 0;
	for (uint32_t i = 0; i < n; i++)
		if (ecs_entity_index(handles[i]) + 1 > indices)
			indices = ecs_entity_index(handles[i]) + 1;
	uint32_t *by_index = calloc(indices + 1, sizeof *by_index);
	if (!by_index)
		return out_of_memory(r);
	for (uint32_t i = 0; i < n; i++)
		by_index[ecs_entity_index(handles[i])] = i + 1;
	int rc = 0;
	for (uint32_t a = 0; a < pop->aged_count && !rc; a++) {
		uint32_t in_order, pairs;
		rc = values_in_index_order(w, handles, n, by_index, indices, pop->aged[a], &in_order,
		                           &pairs, r);
		if (!rc && pairs && in_order * 2 > pairs)
			rc = bench_fail(r, "in the %s storage, %u of %u values of type %u follow the value of "
			             "the entity before in index order: the pool is still in order",
			                h->name, in_order, pairs, pop->aged[a]);
	}
	/* the measured system's order, where it visits the measured entities */
	struct ecs_iter it;
	struct ecs_batch batch;
	uint32_t visited = 0, ascending = 0, previous = UINT32_MAX;
	if (!rc && w->ops->system_iter_begin(w->s, w->measured, &it) == ECS_OK) {
		while (w->ops->system_iter_next(&it, &batch))
			for (uint32_t j = 0; j < batch.count; j++) {
				uint32_t x = ecs_entity_index(batch.entities[j]);
				ascending += x == previous + 1;
				previous = x;
				visited++;
			}
		if (visited >= CHECK_MIN_ENTITIES && ascending * 2 > visited)
			rc = bench_fail(r, "in the %s storage, the measured system visits %u of %u entities right after "
			             "the one of the index before: it still walks in index order",
			                h->name, ascending, visited);
	}
	free(by_index);
	return rc;
}

/* --- creation after turnover --------------------------------------------------------------- */

struct turnover {
	uint32_t predecessors;  /* measured entities that lived and died before each creation */
	bool reserve;
	uint32_t *deaths;       /* their order of death, as places in creation; then the order the
	                           created ones die in before the next sample */
	ecs_entity *handles;    /* cap x N: per storage, what its last run created */
	bool *used;             /* per storage: a sample has created into it */
	uint32_t cap;
	struct history_state st; /* the predecessors' population */
	struct history_outcome outcome; /* of the first storage's history (all are alike) */
};

void history_turnover_free(struct turnover *t)
{
	if (!t)
		return;
	free(t->deaths);
	free(t->handles);
	free(t->used);
	free(t);
}

int history_turnover_open(struct run *run, uint32_t predecessors, bool reserve)
{
	const struct bench_case *c = run->c;
	struct turnover *t = calloc(1, sizeof *t);
	if (!t)
		return out_of_memory(run->r);
	run->turnover = t;
	t->predecessors = predecessors < c->entities ? predecessors : c->entities;
	t->reserve = reserve;
	history_kinds_population(&t->st.pop, &t->st.kinds, c->history, c, workloads_sweep_types, c->k);
	t->st.pop.n = t->predecessors;
	if (!(t->deaths = rng_permutation(c->seed, HISTORY_STREAM_DEATHS, c->entities)))
		return out_of_memory(run->r);
	return 0;
}

ecs_entity *history_turnover_handles(const struct run *run, uint32_t j)
{
	return run->turnover->handles + (size_t)j * run->c->entities;
}

/* Destroys `n` entities of `handles` in the order of t->deaths (its places below n). */
static int turnover_deaths(struct world *w, const struct turnover *t, const ecs_entity *handles,
                           uint32_t n, uint32_t all, struct bench_result *r)
{
	for (uint32_t d = 0; d < all; d++) {
		uint32_t i = t->deaths[d];
		if (i >= n)
			continue;
		int rc = w->ops->entity_destroy(w->s, handles[i]);
		if (rc != ECS_OK)
			return bench_fail(r, "destroying entity %u before the creation returned %s", i,
			                  ecs_status_name(rc));
	}
	return 0;
}

/* Whether a creation into the storage grows it: fewer predecessors than creations, and no
 * reserve (create-unreserved: half its creations grow the storage). Then the deaths of what a
 * sample created leave a storage already grown to hold all N, where every later sample would
 * only recycle: such a storage is built again before each sample instead. */
static bool turnover_grows(const struct turnover *t, uint32_t n)
{
	return !t->reserve && t->predecessors < n;
}

/* A storage under the history whose predecessors lived and died: the test build's break of
 * rule 'created' leaves it empty. */
static int turnover_build(struct run *run, struct world *w, bool first)
{
	const struct bench_case *c = run->c;
	struct turnover *t = run->turnover;
	if (world_open(c, w, run->r))
		return -1;
	if (t->reserve && world_reserve(w, history_entities(c->history, c->entities), run->r))
		return -1;
	if (state_break(STATE_CREATED) || !t->predecessors)
		return 0;
	ecs_entity *pred = malloc((size_t)t->predecessors * sizeof *pred + 1);
	if (!pred)
		return out_of_memory(run->r);
	/* The history but its reshuffles: they reorder the predecessors' entries in their pools,
	 * and every predecessor dies (what a creation lands among is the props, the holes and the
	 * free list; at N = 2^18 the reshuffles were a third of tree's setup). */
	struct history h = *c->history;
	h.shuffle_eighths = 0;
	struct history_outcome out;
	int rc = history_build(w, &h, c, &t->st.pop, HISTORY_STREAM_PREDECESSORS, pred, &out, run->r);
	if (!rc && first && run->verify) {
		uint32_t *order = malloc((size_t)t->predecessors * sizeof *order + 1), m = 0;
		for (uint32_t d = 0; order && d < c->entities; d++)
			if (t->deaths[d] < t->predecessors)
				order[m++] = t->deaths[d];
		rc = order ? state_check_order_of(order, m, pred, "the predecessors' deaths", run->r)
		           : out_of_memory(run->r);
		free(order);
	}
	if (!rc)
		rc = turnover_deaths(w, t, pred, t->predecessors, c->entities, run->r);
	if (first)
		t->outcome = out;
	free(pred);
	return rc;
}

int history_turnover_prepare(struct run *run)
{
	struct turnover *t = run->turnover;
	uint32_t n = run->c->entities, inner = run->inner;
	if (inner > t->cap) {
		/* A storage's allocator holds the address of its world's counter: the worlds cannot
		 * move, so more of them (after calibration) means building them all again. */
		for (uint32_t j = 0; j < run->worlds_open; j++)
			world_close(&run->worlds[j]);
		run->worlds_open = 0;
		struct world *w = realloc(run->worlds, inner * sizeof *w);
		if (w)
			run->worlds = w;
		ecs_entity *h = w ? realloc(t->handles, (size_t)inner * n * sizeof *h + 1) : NULL;
		if (h)
			t->handles = h;
		bool *used = h ? realloc(t->used, inner * sizeof *used) : NULL;
		if (!used)
			return out_of_memory(run->r);
		t->used = used;
		t->cap = run->worlds_cap = inner;
	}
	for (uint32_t j = 0; j < inner; j++) {
		struct world *w = &run->worlds[j];
		if (j >= run->worlds_open) {
			bool first = run->worlds_open == 0;
			if (turnover_build(run, w, first)) {
				if (w->s)
					world_close(w);
				return -1;
			}
			t->used[j] = false;
			run->worlds_open++;
		} else if (t->used[j] && turnover_grows(t, n)) {
			/* what the last sample grew, no death takes back: the storage built again */
			world_close(w);
			if (turnover_build(run, w, false)) {
				world_close(w); /* closed again at the end with the rest: a no-op */
				return -1;
			}
		} else if (t->used[j] &&
		           turnover_deaths(w, t, history_turnover_handles(run, j), n, n, run->r))
			return -1;
		t->used[j] = true;
	}
	return 0;
}

int history_turnover_check(struct run *run, const char *workload)
{
	const struct turnover *t = run->turnover;
	uint32_t props = run->c->history->props ? t->predecessors / 4 : 0;
	uint32_t alive = props - t->outcome.holes;
	return state_check_created(history_turnover_handles(run, run->inner - 1), run->c->entities,
	                           t->predecessors + t->outcome.holes, t->outcome.holes, alive,
	                           workload, run->r);
}

uint32_t *history_turnover_indices(const struct bench_case *c, uint32_t predecessors)
{
	uint32_t n = c->entities;
	uint32_t *deaths = rng_permutation(c->seed, HISTORY_STREAM_DEATHS, n);
	uint32_t *index = deaths ? malloc((size_t)n * sizeof *index + 1) : NULL;
	if (!index) {
		free(deaths);
		return NULL;
	}
	/* the free list: the predecessors pushed in their order of death, popped last first */
	uint32_t top = 0;
	for (uint32_t d = 0; d < n; d++)
		if (deaths[d] < predecessors)
			index[top++] = deaths[d];
	for (uint32_t i = 0; i < n; i++)
		deaths[i] = i < top ? index[top - 1 - i] : i;
	free(index);
	return deaths;
}
