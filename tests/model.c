/* model.c: the reference model (see model.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"

bool model_init(struct model *m, const struct ecs_config *cfg)
{
	memset(m, 0, sizeof *m);
	m->component_count = cfg->component_count;
	m->system_max = cfg->system_count;
	m->sizes = cfg->component_sizes;
	return true;
}

/* Frees what a record holds while it is alive. */
static void record_free(struct model *m, struct model_entity *r)
{
	if (r->values)
		for (uint32_t t = 0; t < m->component_count; t++)
			free(r->values[t]);
	free(r->values);
	free(r->has);
	r->values = NULL;
	r->has = NULL;
}

void model_free(struct model *m)
{
	for (uint32_t i = 0; i < m->entity_count; i++)
		record_free(m, &m->entities[i]);
	free(m->entities);
	free(m->latest);
	memset(m, 0, sizeof *m);
}

struct model_entity *model_find(struct model *m, ecs_entity e)
{
	uint32_t i = ecs_entity_index(e);
	if (e == ECS_NULL || i >= m->latest_cap || m->latest[i] == 0)
		return NULL;
	struct model_entity *r = &m->entities[m->latest[i] - 1];
	return r->handle == e ? r : NULL;
}

bool model_alive(struct model *m, ecs_entity e)
{
	struct model_entity *r = model_find(m, e);
	return r && r->alive;
}

int model_expect_add(struct model *m, ecs_entity e, uint32_t type)
{
	struct model_entity *r = model_find(m, e);
	if (!r || !r->alive)
		return ECS_ERR_DEAD_ENTITY;
	if (type >= m->component_count)
		return ECS_ERR_BAD_COMPONENT;
	return r->has[type] ? ECS_ERR_HAS_COMPONENT : ECS_OK;
}

int model_expect_remove(struct model *m, ecs_entity e, uint32_t type)
{
	struct model_entity *r = model_find(m, e);
	if (!r || !r->alive)
		return ECS_ERR_DEAD_ENTITY;
	if (type >= m->component_count)
		return ECS_ERR_BAD_COMPONENT;
	return r->has[type] ? ECS_OK : ECS_ERR_NO_COMPONENT;
}

/* Written out from ecs.h, not taken from ecs_entity_get_check, which is under test too. */
int model_expect_entity_get(struct model *m, ecs_entity e, const uint32_t *types, uint32_t count,
                            bool out_given)
{
	if (!types || !out_given || count == 0 || count > ECS_ENTITY_GET_MAX)
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < count; i++) {
		int want = model_expect_remove(m, e, types[i]);
		if (want != ECS_OK)
			return want;
	}
	return ECS_OK;
}

/* ecs.h's order: ECS_ERR_INVALID, ECS_ERR_BAD_COMPONENT, ECS_ERR_FULL. Written out here
 * rather than taken from ecs_create_types_check, which is under test too. */
int model_expect_create_with(struct model *m, const uint32_t *types, uint32_t count,
                             const void *const *values)
{
	if (count > ECS_CREATE_MAX_COMPONENTS || (count > 0 && (!types || !values)))
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < count; i++) {
		if (!values[i])
			return ECS_ERR_INVALID;
		for (uint32_t j = i + 1; j < count; j++)
			if (types[i] == types[j])
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < count; i++)
		if (types[i] >= m->component_count)
			return ECS_ERR_BAD_COMPONENT;
	return m->live >= ECS_MAX_ENTITIES ? ECS_ERR_FULL : ECS_OK;
}

/* entity_create_batch (ecs.h): ECS_ERR_INVALID, ECS_ERR_BAD_COMPONENT (before count is looked
 * at), then ECS_ERR_FULL (fewer than count indices left). */
int model_expect_create_batch(struct model *m, const uint32_t *types, uint32_t type_count,
                              const struct ecs_values *values, uint32_t count, bool out_given)
{
	if ((count > 0 && !out_given) || type_count > ECS_CREATE_MAX_COMPONENTS ||
	    (type_count > 0 && (!types || !values)))
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < type_count; i++) {
		if (!values[i].data)
			return ECS_ERR_INVALID;
		for (uint32_t j = i + 1; j < type_count; j++)
			if (types[i] == types[j])
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < type_count; i++)
		if (types[i] >= m->component_count)
			return ECS_ERR_BAD_COMPONENT;
	return count > ECS_MAX_ENTITIES - m->live ? ECS_ERR_FULL : ECS_OK;
}

/* component_add_batch (want_has false) and component_remove_batch (true), ecs.h's order over
 * the whole list: ECS_ERR_INVALID (a repeated handle), ECS_ERR_DEAD_ENTITY (any),
 * ECS_ERR_BAD_COMPONENT, then ECS_ERR_HAS_COMPONENT / ECS_ERR_NO_COMPONENT (any). */
static int compare_handles(const void *a, const void *b)
{
	ecs_entity x = *(const ecs_entity *)a, y = *(const ecs_entity *)b;
	return x < y ? -1 : x > y;
}

int model_expect_batch(struct model *m, const ecs_entity *entities, uint32_t count, uint32_t type,
                       bool want_has)
{
	/* a repeat: neighbours in a sorted copy (pairs compared would cost seconds for the
	 * batches of thousands under the sanitizers) */
	if (count > 1) {
		ecs_entity *sorted = malloc(count * sizeof *sorted);
		if (!sorted) {
			check_failed(__FILE__, __LINE__, "the model is out of memory");
			abort();
		}
		memcpy(sorted, entities, count * sizeof *sorted);
		qsort(sorted, count, sizeof *sorted, compare_handles);
		bool repeat = false;
		for (uint32_t j = 1; j < count; j++)
			repeat |= sorted[j] == sorted[j - 1];
		free(sorted);
		if (repeat)
			return ECS_ERR_INVALID;
	}
	for (uint32_t j = 0; j < count; j++)
		if (!model_alive(m, entities[j]))
			return ECS_ERR_DEAD_ENTITY;
	if (type >= m->component_count)
		return ECS_ERR_BAD_COMPONENT;
	for (uint32_t j = 0; j < count; j++)
		if ((model_find(m, entities[j])->has[type] != 0) != want_has)
			return want_has ? ECS_ERR_NO_COMPONENT : ECS_ERR_HAS_COMPONENT;
	return ECS_OK;
}

int model_expect_has(struct model *m, ecs_entity e, uint32_t type)
{
	int rc = model_expect_remove(m, e, type);
	return rc == ECS_OK ? 1 : rc == ECS_ERR_NO_COMPONENT ? 0 : rc;
}

bool model_created(struct model *m, ecs_entity e)
{
	/* A new handle must not be one that is alive. */
	CHECK(e != ECS_NULL);
	CHECK(!model_alive(m, e));
	uint32_t i = ecs_entity_index(e);
	if (i >= m->latest_cap) {
		uint32_t cap = m->latest_cap ? m->latest_cap : 1024;
		while (cap <= i)
			cap *= 2;
		uint32_t *latest = realloc(m->latest, cap * sizeof *latest);
		CHECK(latest != NULL);
		memset(latest + m->latest_cap, 0, (cap - m->latest_cap) * sizeof *latest);
		m->latest = latest;
		m->latest_cap = cap;
	}
	if (m->entity_count == m->entity_cap) {
		uint32_t cap = m->entity_cap ? m->entity_cap * 2 : 256;
		struct model_entity *p = realloc(m->entities, cap * sizeof *p);
		CHECK(p != NULL);
		m->entities = p;
		m->entity_cap = cap;
	}
	struct model_entity *r = &m->entities[m->entity_count++];
	r->handle = e;
	r->alive = true;
	r->has = calloc(m->component_count, 1);
	r->values = calloc(m->component_count, sizeof *r->values);
	CHECK(r->has && r->values);
	m->latest[i] = m->entity_count;
	m->live++;
	return true;
}

void model_destroyed(struct model *m, ecs_entity e)
{
	struct model_entity *r = model_find(m, e);
	r->alive = false;
	record_free(m, r);
	m->live--;
}

void model_added(struct model *m, ecs_entity e, uint32_t type, const void *value)
{
	struct model_entity *r = model_find(m, e);
	if (!r->values[type] && !(r->values[type] = malloc(m->sizes[type]))) {
		check_failed(__FILE__, __LINE__, "the model is out of memory");
		abort();
	}
	r->has[type] = 1;
	memcpy(r->values[type], value, m->sizes[type]);
}

void model_removed(struct model *m, ecs_entity e, uint32_t type)
{
	struct model_entity *r = model_find(m, e);
	r->has[type] = 0;
	free(r->values[type]);
	r->values[type] = NULL;
}

void *model_value(struct model *m, ecs_entity e, uint32_t type)
{
	return model_find(m, e)->values[type];
}

/* ecs.h's order, written out here rather than taken from ecs_system_types_check (under test
 * too): ECS_ERR_INVALID, ECS_ERR_BAD_COMPONENT, then ECS_ERR_BAD_SYSTEM. */
int model_expect_register(struct model *m, const uint32_t *types, uint32_t count,
                          const uint32_t *excluded, uint32_t excluded_count)
{
	if (!types || count == 0 || count > ECS_SYSTEM_MAX_COMPONENTS ||
	    excluded_count > ECS_SYSTEM_MAX_EXCLUDED || (excluded_count > 0 && !excluded))
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < count; i++) {
		for (uint32_t j = i + 1; j < count; j++)
			if (types[i] == types[j])
				return ECS_ERR_INVALID;
		for (uint32_t j = 0; j < excluded_count; j++)
			if (types[i] == excluded[j])
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < excluded_count; i++)
		for (uint32_t j = i + 1; j < excluded_count; j++)
			if (excluded[i] == excluded[j])
				return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < count; i++)
		if (types[i] >= m->component_count)
			return ECS_ERR_BAD_COMPONENT;
	for (uint32_t i = 0; i < excluded_count; i++)
		if (excluded[i] >= m->component_count)
			return ECS_ERR_BAD_COMPONENT;
	return m->system_count >= m->system_max ? ECS_ERR_BAD_SYSTEM : ECS_OK;
}

void model_system(struct model *m, const uint32_t *types, uint32_t count,
                  const uint32_t *excluded, uint32_t excluded_count)
{
	memcpy(m->system_types[m->system_count], types, count * sizeof *types);
	m->system_type_count[m->system_count] = count;
	if (excluded_count)
		memcpy(m->system_excluded[m->system_count], excluded,
		       excluded_count * sizeof *excluded);
	m->system_excluded_count[m->system_count++] = excluded_count;
}

static bool matches(const struct model *m, const struct model_entity *r, uint32_t system)
{
	if (!r->alive)
		return false;
	for (uint32_t c = 0; c < m->system_type_count[system]; c++)
		if (!r->has[m->system_types[system][c]])
			return false;
	for (uint32_t c = 0; c < m->system_excluded_count[system]; c++)
		if (r->has[m->system_excluded[system][c]])
			return false;
	return true;
}

/*
 * entity_get of one list of a record's types against the model and component_get: up to
 * ECS_ENTITY_GET_MAX - 1 of the profile's types from a start that moves with the record (so that
 * over a storage's records every type is asked, at every place of a list), then one out of
 * range: each pointer the one component_get gave for the type (got[i], read by check_entity's
 * loop; NULL where it fails), each status and the first failure the model's. One list a
 * record, not the whole profile: at AAA (512 types) every type in lists made the whole suite a
 * third slower, each list of an entity's few types going to the hit path's failure.
 */
#define CHECK_GET_LIST (ECS_ENTITY_GET_MAX - 1u)

static uint32_t check_get_start(const struct model *m, const struct model_entity *r)
{
	return (uint32_t)(r - m->entities) * CHECK_GET_LIST % m->component_count;
}

static bool check_entity_get(struct model *m, const struct ecs_ops *ops, ecs_storage *s,
                             struct model_entity *r, void *const *got)
{
	uint32_t types[ECS_ENTITY_GET_MAX], n = m->component_count, count = 0;
	void *out[ECS_ENTITY_GET_MAX];
	int status[ECS_ENTITY_GET_MAX];
	uint32_t start = check_get_start(m, r);
	for (uint32_t t = 0; t < n && count < CHECK_GET_LIST; t++)
		types[count++] = (start + t) % n;
	types[count++] = n; /* out of range */
	int rc = ecs_entity_get(ops, s, r->handle, types, count, out, status), first = ECS_OK;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t t = types[i]; /* the record's answer, as model_expect_remove's */
		int want = !r->alive ? ECS_ERR_DEAD_ENTITY
		           : t >= n  ? ECS_ERR_BAD_COMPONENT
		           : r->has[t] ? ECS_OK
		                       : ECS_ERR_NO_COMPONENT;
		if (first == ECS_OK)
			first = want;
		CHECK_STATUS(status[i], want);
		CHECK(out[i] == (want == ECS_OK ? got[i] : NULL));
	}
	CHECK_STATUS(rc, first);
	return true;
}

static bool check_entity(struct model *m, const struct ecs_ops *ops, ecs_storage *s,
                         struct model_entity *r)
{
	if (model_find(m, r->handle) != r) {
		/* An older record whose handle came round again (generation wrap): the newer one
		 * speaks for the handle. */
		return true;
	}
	void *got[ECS_ENTITY_GET_MAX] = {NULL};
	CHECK_EQ(ops->entity_alive(s, r->handle), r->alive);
	if (!r->alive) {
		CHECK_STATUS(ops->component_has(s, r->handle, 0), ECS_ERR_DEAD_ENTITY);
		return check_entity_get(m, ops, s, r, got);
	}
	uint32_t start = check_get_start(m, r);
	for (uint32_t t = 0; t < m->component_count; t++) {
		CHECK_EQ(ops->component_has(s, r->handle, t), r->has[t]);
		void *p = NULL;
		CHECK_STATUS(ops->component_get(s, r->handle, t, &p),
		             r->has[t] ? ECS_OK : ECS_ERR_NO_COMPONENT);
		if (r->has[t])
			CHECK(memcmp(p, r->values[t], m->sizes[t]) == 0);
		uint32_t at = (t + m->component_count - start) % m->component_count;
		if (at < CHECK_GET_LIST)
			got[at] = p; /* its place in check_entity_get's list */
	}
	return check_entity_get(m, ops, s, r, got);
}

/*
 * Reads one iteration of system y to its end: every batch non-empty, every entity matching and
 * seen for the first time in this check (seen[record] == mark marks those seen; several
 * iterations, the parts of a split, may share one mark), and every value the batch hands out
 * the stored one. *visited counts the entities.
 */
static bool check_iteration(struct model *m, const struct ecs_ops *ops, ecs_storage *s,
                            uint32_t y, struct ecs_iter *it, uint32_t *seen, uint32_t mark,
                            uint32_t *visited)
{
	struct ecs_batch b;
	while (ops->system_iter_next(it, &b)) {
		if (b.count == 0 || !b.entities) {
			check_failed(__FILE__, __LINE__, "system %u: empty batch returned", y);
			return false;
		}
		for (uint32_t i = 0; i < b.count; i++) {
			struct model_entity *r = model_find(m, b.entities[i]);
			uint32_t rec = r ? (uint32_t)(r - m->entities) + 1 : 0;
			if (!r || !matches(m, r, y) || seen[rec] == mark) {
				check_failed(__FILE__, __LINE__, "system %u visits entity %08x: %s", y,
				             b.entities[i],
				             !r || !r->alive    ? "dead or unknown"
				             : !matches(m, r, y) ? "does not match"
				                                 : "twice");
				return false;
			}
			seen[rec] = mark;
			(*visited)++;
			for (uint32_t c = 0; c < m->system_type_count[y]; c++) {
				uint32_t t = m->system_types[y][c];
				void *p = b.columns[c] ? (char *)b.columns[c] + (size_t)i * m->sizes[t]
				                       : (b.pointers[c] ? b.pointers[c][i] : NULL);
				void *q = NULL;
				ops->component_get(s, b.entities[i], t, &q);
				if (!p || p != q || memcmp(p, r->values[t], m->sizes[t])) {
					check_failed(__FILE__, __LINE__,
					             "system %u, entity %08x, component %u: batch value %s", y,
					             b.entities[i], t,
					             !p       ? "missing"
					             : p != q ? "is not the stored one"
					                      : "differs from the model");
					return false;
				}
			}
		}
	}
	if (b.count != 0) {
		check_failed(__FILE__, __LINE__, "system %u: the last batch's count is %u, not 0", y,
		             b.count);
		return false;
	}
	return true;
}

static uint32_t expected_visits(struct model *m, uint32_t y)
{
	uint32_t expected = 0;
	for (uint32_t i = 0; i < m->entity_count; i++)
		expected += matches(m, &m->entities[i], y) &&
		            model_find(m, m->entities[i].handle) == &m->entities[i];
	return expected;
}

bool model_check(struct model *m, const struct ecs_ops *ops, ecs_storage *s)
{
	for (uint32_t i = 0; i < m->entity_count; i++)
		TRY(check_entity(m, ops, s, &m->entities[i]));
	uint32_t *seen = calloc(m->entity_count + 1, sizeof *seen);
	CHECK(seen != NULL);
	bool ok = true;
	for (uint32_t y = 0; ok && y < m->system_count; y++) {
		struct ecs_iter it;
		uint32_t visited = 0, expected = expected_visits(m, y);
		if (ops->system_iter_begin(s, y, &it) != ECS_OK) {
			check_failed(__FILE__, __LINE__, "system_iter_begin(%u) failed", y);
			ok = false;
			break;
		}
		ok = check_iteration(m, ops, s, y, &it, seen, y + 1, &visited);
		if (ok && visited != expected) {
			check_failed(__FILE__, __LINE__, "system %u visited %u entities, expected %u", y,
			             visited, expected);
			ok = false;
		}
	}
	free(seen);
	return ok;
}

bool model_check_split(struct model *m, const struct ecs_ops *ops, ecs_storage *s,
                       uint32_t parts)
{
	uint32_t *seen = calloc(m->entity_count + 1, sizeof *seen);
	CHECK(seen != NULL);
	/* One array of iterators for every system (about 18 KiB each, so up to 300 KiB for 16
	 * parts): allocated per system, under ASan it was mapped, faulted in and unmapped each
	 * time, a third of what the fuzzer spent. Each part's opening fields (what begin must
	 * set) filled with garbage before each system, so that no part reads what the previous
	 * system's iteration left there. */
	struct ecs_iter *its = malloc(parts * sizeof *its);
	if (!its) {
		free(seen);
		check_failed(__FILE__, __LINE__, "out of memory");
		return false;
	}
	bool ok = true;
	for (uint32_t y = 0; ok && y < m->system_count; y++) {
		uint32_t visited = 0, expected = expected_visits(m, y);
		/* The parts' iterators all begun first, then read in turn: a part must not depend on
		 * another part's iteration (as when threads read them at once). */
		for (uint32_t part = 0; part < parts; part++)
			memset(&its[part], 0xbe, offsetof(struct ecs_iter, entities));
		for (uint32_t part = 0; ok && part < parts; part++) {
			int rc = ecs_system_iter_split(ops, s, y, part, parts, &its[part]);
			if (rc != ECS_OK) {
				check_failed(__FILE__, __LINE__, "system_iter_split(%u, part %u of %u) "
				             "returned %s", y, part, parts, ecs_status_name(rc));
				ok = false;
			}
		}
		for (uint32_t q = 0; ok && q < parts; q++) {
			uint32_t part = parts - 1 - q; /* the last first: no part waits for another */
			ok = check_iteration(m, ops, s, y, &its[part], seen, y + 1, &visited);
			if (!ok)
				check_failed(__FILE__, __LINE__, "(in part %u of %u)", part, parts);
		}
		if (ok && visited != expected) {
			check_failed(__FILE__, __LINE__,
			             "system %u split in %u parts visited %u entities, expected %u", y,
			             parts, visited, expected);
			ok = false;
		}
	}
	free(its);
	free(seen);
	return ok;
}
