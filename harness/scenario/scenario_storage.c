/*
 * scenario_storage.c: the scenario's frames over a backend, through the interface only (the
 * storage target of scenario_target.h): each operation is the storage's call, a system's pass
 * the batches the storage hands out, and the checks ask the storage what it holds.
 *
 * Costs: a frame's (scenario_engine.h), plus the storage's own calls.
 */
/* the parts of a frame it has none of (scenario_frame.h) */
#define SCENARIO_TARGET_NO_ADOPT
#define SCENARIO_TARGET_NO_MOVE
#define SCENARIO_TARGET_NO_GROW
#include "scenario_frame.h"

static int pass_storage(struct scenario_engine *e, const struct scenario_system *sys,
                        const struct system_plan *sp)
{
	struct ecs_iter it;
	struct ecs_batch b;
	struct batch_view view;
	int rc = e->ops->system_iter_begin(e->s, sp->id, &it);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "system_iter_begin of %s returned %s", sys->name,
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
		return scenario_engine_fail(e, "the pass of %s in %u parts returned %s", j.sys->name,
		                            parallel_pool_threads(e->pool), ecs_status_name(rc));
	e->work_sum += thread_sums_total(e);
	return 0;
}

/*
 * A storage for the scenario: its types with their sizes and markings (`storage = sparse`;
 * no hints at all where there are none, as before them), room reserved for `reserve`
 * entities (0: none), its systems registered (ids into
 * ids[]), and the systems marked `group = yes` asked for their groups, in file order once
 * every system exists (a storage with groups gives a pool to the first system that asks for
 * it and declines the later ones), each answer into grouped[] (1, 0; -1 not asked). *s is
 * NULL, or a storage the caller destroys even on an error. 0, or -1 with a message.
 */
static int make_storage(const struct scenario *sc, const struct ecs_ops *ops,
                        struct ecs_allocator *alloc, const uint32_t *sizes, uint32_t reserve,
                        ecs_storage **s, uint32_t *ids, int8_t *grouped, char *err, size_t errlen)
{
	*s = NULL;
	uint8_t *storage = NULL;
	if (scenario_has_sparse(sc)) {
		storage = calloc(sc->type_count, 1);
		if (!storage) {
			snprintf(err, errlen, "out of memory in the harness");
			return -1;
		}
		for (uint32_t t = 0; t < sc->type_count; t++)
			storage[t] = scenario_storage_hint(sc, t);
	}
	struct ecs_config cfg = {sc->type_count, sc->system_count ? sc->system_count : 1, sizes,
	                         storage};
	int rc = ops->create(&cfg, alloc, s);
	free(storage); /* the storage copies what it needs (ecs.h) */
	if (rc != ECS_OK) {
		*s = NULL;
		snprintf(err, errlen, "%s: create returned %s", ops->name, ecs_status_name(rc));
		return -1;
	}
	rc = reserve ? ecs_reserve(ops, *s, reserve) : ECS_OK;
	if (rc != ECS_OK) {
		snprintf(err, errlen, "%s: reserve returned %s", ops->name, ecs_status_name(rc));
		return -1;
	}
	for (uint32_t i = 0; i < sc->system_count; i++) {
		const struct scenario_system *sys = &sc->systems[i];
		rc = ops->system_register(*s, sys->required, sys->required_count, sys->excluded,
		                          sys->excluded_count, &ids[i]);
		if (rc != ECS_OK) {
			snprintf(err, errlen, "%s: registering system %s returned %s", ops->name, sys->name,
			         ecs_status_name(rc));
			return -1;
		}
	}
	for (uint32_t i = 0; i < sc->system_count; i++) {
		grouped[i] = -1;
		if (!sc->systems[i].group)
			continue;
		rc = ecs_system_group(ops, *s, ids[i]);
		if (rc < 0) {
			snprintf(err, errlen, "%s: system_group of %s returned %s", ops->name,
			         sc->systems[i].name, ecs_status_name(rc));
			return -1;
		}
		grouped[i] = (int8_t)(rc > 0);
	}
	return 0;
}

static int open_storage(struct scenario_engine *e, char *err, size_t errlen)
{
	const struct scenario *sc = e->sc;
	struct ecs_allocator alloc = counting_alloc_bench(&e->counter);
	uint32_t ids[SCENARIO_MAX_SYSTEMS];
	if (make_storage(sc, e->ops, &alloc, e->sizes, (uint32_t)sc->entities_peak, &e->s, ids,
	                 e->grouped, err, errlen))
		return -1;
	for (uint32_t s = 0; s < sc->system_count; s++)
		e->systems[s].id = ids[s];
	return 0;
}

int scenario_storage_groups(const struct scenario *sc, const struct ecs_ops *ops,
                            int8_t *grouped, char *err, size_t errlen)
{
	uint32_t *sizes = malloc(sc->type_count * sizeof *sizes);
	if (!sizes) {
		snprintf(err, errlen, "out of memory in the harness");
		return -1;
	}
	for (uint32_t t = 0; t < sc->type_count; t++)
		sizes[t] = sc->types[t].size;
	struct counting_alloc counter;
	memset(&counter, 0, sizeof counter);
	struct ecs_allocator alloc = counting_alloc_bench(&counter);
	uint32_t ids[SCENARIO_MAX_SYSTEMS];
	ecs_storage *s;
	int rc = make_storage(sc, ops, &alloc, sizes, 0, &s, ids, grouped, err, errlen);
	if (s)
		ops->destroy(s);
	free(sizes);
	return rc;
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
		return scenario_engine_fail(e, "out of memory in the harness (checks)");
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
			rc = scenario_engine_fail(e, "system_iter_begin of %s returned %s", sc->systems[s].name,
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
					rc = scenario_engine_fail(e, "system %s visits an entity that does not match it",
					                          sc->systems[s].name);
			}
		}
		if (rc == 0 && got != want)
			rc = scenario_engine_fail(e, "system %s visits %llu entities, %llu match it",
			                          sc->systems[s].name, (unsigned long long)got,
			                          (unsigned long long)want);
	}
	free(slot_of_index);
	return rc;
}

/* --- its part of each operation -------------------------------------------------------- */

static int target_create(struct scenario_engine *e, uint32_t kind, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial, uint32_t slot,
                         ecs_entity *h)
{
	(void)k;
	const void *values[KV_MAX_TYPES];
	for (uint32_t j = 0; j < v->type_count; j++)
		values[j] = value_of_entity(e, v->types[j], serial);
	int rc = ecs_entity_create_with(e->ops, e->s, v->types, v->type_count, values, h);
	if (rc != ECS_OK) {
		e->free_slots[e->free_count++] = slot;
		return scenario_engine_fail(e, "creating an entity of kind %s returned %s",
		                            e->sc->kinds[kind].name, ecs_status_name(rc));
	}
	return 0;
}

static int target_create_batch(struct scenario_engine *e, uint32_t kind,
                               const struct kind_variant *v, uint32_t first, uint32_t n)
{
	struct ecs_values values[KV_MAX_TYPES];
	unsigned char *at = e->batch.values;
	for (uint32_t j = 0; j < v->type_count; j++) {
		pack_values(e, v->types[j], e->batch.serials + first, n, at);
		values[j] = (struct ecs_values){at, e->sizes[v->types[j]]};
		at += (size_t)n * e->sizes[v->types[j]];
	}
	int rc = ecs_entity_create_batch(e->ops, e->s, v->types, v->type_count, values, n,
	                                 e->batch.handles + first);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "creating a batch of %u entities of kind %s returned %s", n,
		                            e->sc->kinds[kind].name, ecs_status_name(rc));
	return 0;
}

static int target_add_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                            uint32_t n)
{
	(void)k;
	pack_values(e, type, e->batch.serials, n, e->batch.values);
	struct ecs_values values = {e->batch.values, e->sizes[type]};
	int rc = ecs_component_add_batch(e->ops, e->s, e->batch.handles, n, type, &values);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "adding %s to a batch of %u entities returned %s",
		                            e->sc->types[type].name, n, ecs_status_name(rc));
	return 0;
}

static int target_remove_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                               uint32_t n)
{
	(void)k;
	int rc = ecs_component_remove_batch(e->ops, e->s, e->batch.handles, n, type);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "removing %s from a batch of %u entities returned %s",
		                            e->sc->types[type].name, n, ecs_status_name(rc));
	return 0;
}

static int target_destroy(struct scenario_engine *e, struct kind_state *k, uint32_t pos)
{
	int rc = e->ops->entity_destroy(e->s, k->ids[pos].handle);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "destroying entity #%u returned %s", k->ids[pos].serial,
		                            ecs_status_name(rc));
	return 0;
}

static int target_add(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                      uint32_t type, struct identity id)
{
	(void)k, (void)pos;
	int rc = e->ops->component_add(e->s, id.handle, type, value_of_entity(e, type, id.serial));
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "adding %s to entity #%u returned %s", e->sc->types[type].name,
		                            id.serial, ecs_status_name(rc));
	return 0;
}

static int target_remove(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                         uint32_t type)
{
	int rc = e->ops->component_remove(e->s, k->ids[pos].handle, type);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "removing %s from entity #%u returned %s",
		                            e->sc->types[type].name, k->ids[pos].serial, ecs_status_name(rc));
	return 0;
}

static int target_lookup(struct scenario_engine *e, const struct kind_state *k, uint32_t at,
                         uint32_t j, uint32_t t, ecs_entity h, uint32_t *sum)
{
	(void)j;
	void *p;
	int rc = e->ops->component_get(e->s, h, t, &p);
	if (rc != ECS_OK)
		return scenario_engine_fail(e, "looking up %s of entity #%u returned %s", e->sc->types[t].name,
		                            k->ids[at].serial, ecs_status_name(rc));
	*sum += load_value(p, e->widths[t]);
	return 0;
}

static int target_pass(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	return pass_storage(e, &e->sc->systems[s], sp);
}

static int target_pass_parallel(struct scenario_engine *e, uint32_t s)
{
	return pass_storage_parallel(e, s);
}

/* --- outside the frames ---------------------------------------------------------------------- */

static int storage_threads_check(const struct scenario_engine *e, uint32_t threads, char *err,
                                 size_t errlen)
{
	if (threads > 1 && !e->ops->system_iter_split) {
		snprintf(err, errlen, "%s has no system_iter_split: a parallel system's pass cannot be "
		                      "split in %u parts", e->ops->name, threads);
		return -1;
	}
	return 0;
}

static void storage_memory(const struct scenario_engine *e, uint64_t *peak, uint64_t *live)
{
	*peak = e->counter.peak_bytes;
	*live = e->counter.live_bytes;
}

static int storage_alive(struct scenario_engine *e, ecs_entity handle, uint32_t serial)
{
	if (!e->ops->entity_alive(e->s, handle))
		return scenario_engine_fail(e, "entity #%u is not alive in the storage", serial);
	return 0;
}

static int storage_read_value(struct scenario_engine *e, uint32_t kind, uint32_t pos,
                              uint32_t type, bool has, unsigned char *value)
{
	const struct kind_state *k = &e->kinds[kind];
	void *p = NULL;
	int got = e->ops->component_get(e->s, k->ids[pos].handle, type, &p);
	if (got != (has ? ECS_OK : ECS_ERR_NO_COMPONENT))
		return scenario_engine_fail(e, "entity #%u, %s: component_get returned %s, expected %s",
		                            k->ids[pos].serial, e->sc->types[type].name, ecs_status_name(got),
		                            has ? "ECS_OK" : "ECS_ERR_NO_COMPONENT");
	if (has)
		memcpy(value, p, e->sizes[type]);
	return 0;
}

const struct scenario_target scenario_storage_target = {
	SCENARIO_FRAME_TARGET,
	.open = open_storage,
	.threads_check = storage_threads_check,
	.memory = storage_memory,
	.alive = storage_alive,
	.read_value = storage_read_value,
	.verify = check_systems,
};
