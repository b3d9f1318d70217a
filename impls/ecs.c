/*
 * ecs.c: the interface's out-of-line helpers (ecs.h) that every backend and the harness call:
 * the status names, the argument checks each backend's operations make first, and the
 * fallbacks that run an optional operation through the required ones. It names no backend
 * (the list of them is impls/backends.c), so no backend depends on the file that lists it.
 */
#include <stdlib.h>
#include <string.h>

#include "ecs.h"

const char *ecs_status_name(int status)
{
	switch (status) {
	case ECS_OK: return "ECS_OK";
	case ECS_ERR_DEAD_ENTITY: return "ECS_ERR_DEAD_ENTITY";
	case ECS_ERR_NO_COMPONENT: return "ECS_ERR_NO_COMPONENT";
	case ECS_ERR_HAS_COMPONENT: return "ECS_ERR_HAS_COMPONENT";
	case ECS_ERR_BAD_COMPONENT: return "ECS_ERR_BAD_COMPONENT";
	case ECS_ERR_BAD_SYSTEM: return "ECS_ERR_BAD_SYSTEM";
	case ECS_ERR_NO_MEMORY: return "ECS_ERR_NO_MEMORY";
	case ECS_ERR_FULL: return "ECS_ERR_FULL";
	case ECS_ERR_INVALID: return "ECS_ERR_INVALID";
	default: return status > 0 ? "(positive: not a status)" : "(unknown status)";
	}
}

int ecs_config_check(const struct ecs_config *cfg)
{
	if (!cfg || !cfg->component_sizes || cfg->component_count == 0 ||
	    cfg->component_count > ECS_MAX_COMPONENT_TYPES || cfg->system_count == 0 ||
	    cfg->system_count > ECS_MAX_SYSTEMS)
		return ECS_ERR_INVALID;
	for (uint32_t t = 0; t < cfg->component_count; t++)
		if (cfg->component_sizes[t] == 0 || cfg->component_sizes[t] > ECS_MAX_COMPONENT_SIZE ||
		    (cfg->component_storage && cfg->component_storage[t] > ECS_STORAGE_SPARSE))
			return ECS_ERR_INVALID;
	return ECS_OK;
}

int ecs_system_types_check(const uint32_t *types, uint32_t count, const uint32_t *excluded,
                           uint32_t excluded_count, uint32_t component_count)
{
	if (!types || count == 0 || count > ECS_SYSTEM_MAX_COMPONENTS ||
	    (excluded_count && !excluded) || excluded_count > ECS_SYSTEM_MAX_EXCLUDED)
		return ECS_ERR_INVALID;
	/* Both lists as one: a repeat within either, or a type in both, is the same mistake. */
	uint32_t n = count + excluded_count;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = i < count ? types[i] : excluded[i - count];
		for (uint32_t j = 0; j < i; j++)
			if ((j < count ? types[j] : excluded[j - count]) == t)
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < n; i++)
		if ((i < count ? types[i] : excluded[i - count]) >= component_count)
			return ECS_ERR_BAD_COMPONENT;
	return ECS_OK;
}

int ecs_create_types_check(const uint32_t *types, uint32_t count, const void *const *values,
                           uint32_t component_count)
{
	if (count > ECS_CREATE_MAX_COMPONENTS || (count && (!types || !values)))
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < count; i++) {
		if (!values[i])
			return ECS_ERR_INVALID;
		for (uint32_t j = 0; j < i; j++)
			if (types[j] == types[i])
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < count; i++)
		if (types[i] >= component_count)
			return ECS_ERR_BAD_COMPONENT;
	return ECS_OK;
}

int ecs_create_batch_check(const uint32_t *types, uint32_t type_count,
                           const struct ecs_values *values, uint32_t count,
                           const ecs_entity *out, uint32_t component_count)
{
	if ((count && !out) || type_count > ECS_CREATE_MAX_COMPONENTS ||
	    (type_count && (!types || !values)))
		return ECS_ERR_INVALID;
	for (uint32_t i = 0; i < type_count; i++) {
		if (!values[i].data)
			return ECS_ERR_INVALID;
		for (uint32_t j = 0; j < i; j++)
			if (types[j] == types[i])
				return ECS_ERR_INVALID;
	}
	for (uint32_t i = 0; i < type_count && component_count != UINT32_MAX; i++)
		if (types[i] >= component_count)
			return ECS_ERR_BAD_COMPONENT;
	return ECS_OK;
}

int ecs_entity_create_with_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                    const uint32_t *types, uint32_t count,
                                    const void *const *values, ecs_entity *out)
{
	if (!s || !out)
		return ECS_ERR_INVALID;
	int rc = ecs_create_types_check(types, count, values, UINT32_MAX);
	if (rc != ECS_OK)
		return rc;
	ecs_entity e;
	if ((rc = ops->entity_create(s, &e)) != ECS_OK)
		return rc;
	/* Every type is checked before the first add, so that ECS_ERR_BAD_COMPONENT comes before
	 * an add's ECS_ERR_NO_MEMORY. */
	for (uint32_t i = 0; i < count && rc == ECS_OK; i++) {
		int has = ops->component_has(s, e, types[i]);
		rc = has < 0 ? has : ECS_OK;
	}
	/* Each value is read by its own add, after the adds before it, which may have moved a
	 * value of their types: the fallback's limit (ecs.h). It cannot copy the values first: it
	 * does not know their sizes. */
	for (uint32_t i = 0; i < count && rc == ECS_OK; i++)
		rc = ops->component_add(s, e, types[i], values[i]);
	if (rc != ECS_OK) {
		ops->entity_destroy(s, e);
		return rc;
	}
	*out = e;
	return ECS_OK;
}

/* --- the batches' fallbacks (ecs.h) --------------------------------------------------- */

static int entity_compare(const void *a, const void *b)
{
	ecs_entity x = *(const ecs_entity *)a, y = *(const ecs_entity *)b;
	return x < y ? -1 : x > y;
}

/* The checks every batch on a list of entities makes before it changes anything: ECS_ERR_INVALID
 * (a repeated handle), ECS_ERR_DEAD_ENTITY, then whatever component_has says (ECS_ERR_BAD_COMPONENT
 * for a type out of range), then ECS_ERR_HAS_COMPONENT (want_has false) or ECS_ERR_NO_COMPONENT. */
bool ecs_batch_has_repeat(const ecs_entity *entities, uint32_t count)
{
	bool repeat = false;
	ecs_entity *sorted = count > 1 ? malloc((size_t)count * sizeof *sorted) : NULL;
	if (!sorted) {
		for (uint32_t j = 1; j < count && !repeat; j++)
			for (uint32_t i = 0; i < j && !repeat; i++)
				repeat = entities[i] == entities[j];
		return repeat;
	}
	memcpy(sorted, entities, (size_t)count * sizeof *sorted);
	qsort(sorted, count, sizeof *sorted, entity_compare);
	for (uint32_t j = 1; j < count && !repeat; j++)
		repeat = sorted[j] == sorted[j - 1];
	free(sorted);
	return repeat;
}

static int fallback_check(const struct ecs_ops *ops, ecs_storage *s, const ecs_entity *entities,
                          uint32_t count, uint32_t type, bool want_has)
{
	if (ecs_batch_has_repeat(entities, count))
		return ECS_ERR_INVALID;
	for (uint32_t j = 0; j < count; j++)
		if (!ops->entity_alive(s, entities[j]))
			return ECS_ERR_DEAD_ENTITY;
	int wrong = ECS_OK;
	for (uint32_t j = 0; j < count; j++) {
		int has = ops->component_has(s, entities[j], type);
		if (has < 0)
			return has;
		if ((has == 1) != want_has)
			wrong = want_has ? ECS_ERR_NO_COMPONENT : ECS_ERR_HAS_COMPONENT;
	}
	return wrong;
}

int ecs_entity_create_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const uint32_t *types, uint32_t type_count,
                                     const struct ecs_values *values, uint32_t count,
                                     ecs_entity *out)
{
	if (!s)
		return ECS_ERR_INVALID;
	/* The profile's component count is not known here: a type out of range is found by the
	 * first entity's create. */
	int rc = ecs_create_batch_check(types, type_count, values, count, out, UINT32_MAX);
	if (rc != ECS_OK)
		return rc;
	const void *value[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t j = 0; j < count; j++) {
		for (uint32_t i = 0; i < type_count; i++)
			value[i] = (const unsigned char *)values[i].data + (size_t)j * values[i].stride;
		rc = ecs_entity_create_with(ops, s, types, type_count, value, &out[j]);
		if (rc != ECS_OK) {
			while (j-- > 0)
				ops->entity_destroy(s, out[j]);
			return rc;
		}
	}
	return ECS_OK;
}

int ecs_component_add_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const ecs_entity *entities, uint32_t count, uint32_t type,
                                     const struct ecs_values *values)
{
	if (!s || (count && (!entities || !values || !values->data)))
		return ECS_ERR_INVALID;
	int rc = fallback_check(ops, s, entities, count, type, false);
	for (uint32_t j = 0; j < count && rc == ECS_OK; j++) {
		rc = ops->component_add(s, entities[j], type,
		                        (const unsigned char *)values->data + (size_t)j * values->stride);
		if (rc != ECS_OK) /* ECS_ERR_NO_MEMORY: undo the adds before it */
			while (j-- > 0)
				ops->component_remove(s, entities[j], type);
	}
	return rc;
}

int ecs_component_remove_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                        const ecs_entity *entities, uint32_t count,
                                        uint32_t type)
{
	if (!s || (count && !entities))
		return ECS_ERR_INVALID;
	int rc = fallback_check(ops, s, entities, count, type, true);
	for (uint32_t j = 0; j < count && rc == ECS_OK; j++)
		rc = ops->component_remove(s, entities[j], type);
	return rc;
}

/* One component_get of the get fallbacks: its value in *out (NULL where it fails), its status in
 * *status (where asked). Returns rc, the first failure so far, or this one's if it is the first. */
static int fallback_get(const struct ecs_ops *ops, ecs_storage *s, ecs_entity e, uint32_t type,
                        void **out, int *status, int rc)
{
	void *p = NULL;
	int got = ops->component_get(s, e, type, &p);
	*out = got == ECS_OK ? p : NULL;
	if (status)
		*status = got;
	return got != ECS_OK && rc == ECS_OK ? got : rc;
}

int ecs_component_get_batch_fallback(const struct ecs_ops *ops, ecs_storage *s,
                                     const ecs_entity *entities, uint32_t count,
                                     const uint32_t *types, uint32_t type_count, void **out,
                                     int *status)
{
	int rc = ecs_get_batch_check(s, entities, count, types, type_count, out);
	if (rc != ECS_OK)
		return rc;
	for (uint32_t j = 0, r = 0; j < count; j++)
		for (uint32_t i = 0; i < type_count; i++, r++)
			rc = fallback_get(ops, s, entities[j], types[i], &out[r],
			                  status ? &status[r] : NULL, rc);
	return rc;
}

int ecs_entity_get_fallback(const struct ecs_ops *ops, ecs_storage *s, ecs_entity e,
                            const uint32_t *types, uint32_t count, void **out, int *status)
{
	int rc = ecs_entity_get_check(s, types, count, out);
	if (rc != ECS_OK)
		return rc;
	for (uint32_t i = 0; i < count; i++)
		rc = fallback_get(ops, s, e, types[i], &out[i], status ? &status[i] : NULL, rc);
	return rc;
}

/* The backend of that name in whichever table the program links (impls/backends.c, or a test
 * build's own). */
const struct ecs_ops *ecs_backend_find(const char *name)
{
	for (size_t i = 0; i < ecs_backend_count; i++)
		if (strcmp(ecs_backends[i]->name, name) == 0)
			return ecs_backends[i];
	return NULL;
}
