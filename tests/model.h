/*
 * model.h: the reference model the conformance suite checks every backend against. It is as
 * simple as it can be (a record per entity ever created, a byte per component type, a copy of
 * each value it holds), keeps the handles the backend gave out, and says what every operation
 * must return. model_check compares the whole state of a storage with it: liveness of every
 * handle ever given out, every component and value of the live ones, and what each system's
 * iteration visits (each matching entity exactly once, with pointers to its values). An entity
 * matches a system when it has every type the system requires and none it excludes.
 */
#ifndef ECSB_MODEL_H
#define ECSB_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../impls/ecs.h"

struct model_entity {
	ecs_entity handle;
	bool alive;
	uint8_t *has;           /* component_count flags, NULL once dead */
	unsigned char **values; /* per type, its value (a block of its size) while the entity has
	                           it, else NULL; the array NULL once dead. A block per value, not
	                           one buffer of every type's size: with types of up to 4 KiB
	                           (ECS_MAX_COMPONENT_SIZE), thousands of live entities would
	                           otherwise hold tens of megabytes the model never reads */
};

struct model {
	uint32_t component_count, system_max, system_count;
	const uint32_t *sizes;
	uint32_t system_types[ECS_MAX_SYSTEMS][ECS_SYSTEM_MAX_COMPONENTS];
	uint32_t system_type_count[ECS_MAX_SYSTEMS];
	uint32_t system_excluded[ECS_MAX_SYSTEMS][ECS_SYSTEM_MAX_EXCLUDED];
	uint32_t system_excluded_count[ECS_MAX_SYSTEMS];
	struct model_entity *entities;
	uint32_t entity_count, entity_cap;
	uint32_t live;
	uint32_t *latest; /* per entity index: number of its newest record + 1, or 0 */
	uint32_t latest_cap;
};

bool model_init(struct model *m, const struct ecs_config *cfg);
void model_free(struct model *m);

/* The record of a handle given out before, or NULL. */
struct model_entity *model_find(struct model *m, ecs_entity e);
bool model_alive(struct model *m, ecs_entity e);

/* What the operation must return, from the model's state. */
int model_expect_add(struct model *m, ecs_entity e, uint32_t type);
int model_expect_remove(struct model *m, ecs_entity e, uint32_t type); /* get too */
int model_expect_create_with(struct model *m, const uint32_t *types, uint32_t count,
                             const void *const *values);
int model_expect_has(struct model *m, ecs_entity e, uint32_t type);
int model_expect_create_batch(struct model *m, const uint32_t *types, uint32_t type_count,
                              const struct ecs_values *values, uint32_t count, bool out_given);
/* entity_get: ECS_ERR_INVALID where the call is (types or out not given, count 0 or over
 * ECS_ENTITY_GET_MAX), else the first type's failure (model_expect_remove of each), else ECS_OK. */
int model_expect_entity_get(struct model *m, ecs_entity e, const uint32_t *types, uint32_t count,
                            bool out_given);
/* component_add_batch (want_has false) or component_remove_batch (want_has true). */
int model_expect_batch(struct model *m, const ecs_entity *entities, uint32_t count, uint32_t type,
                       bool want_has);

/* Apply an operation the backend reported as done. */
bool model_created(struct model *m, ecs_entity e);
void model_destroyed(struct model *m, ecs_entity e);
/* (The model's own allocations are the test program's: if one fails, it says so and aborts.) */
void model_added(struct model *m, ecs_entity e, uint32_t type, const void *value);
void model_removed(struct model *m, ecs_entity e, uint32_t type);
/* What system_register must return for these lists (ECS_ERR_BAD_SYSTEM once full). */
int model_expect_register(struct model *m, const uint32_t *types, uint32_t count,
                          const uint32_t *excluded, uint32_t excluded_count);
void model_system(struct model *m, const uint32_t *types, uint32_t count,
                  const uint32_t *excluded, uint32_t excluded_count);
/* The value of a type the entity has. */
void *model_value(struct model *m, ecs_entity e, uint32_t type);

/* Compares the storage with the model (see above); a failed check prints why. */
bool model_check(struct model *m, const struct ecs_ops *ops, ecs_storage *s);
/* Every system's pass split in `parts` (ecs_system_iter_split): the parts together visit each
 * matching entity exactly once, with the stored values, and nothing else. */
bool model_check_split(struct model *m, const struct ecs_ops *ops, ecs_storage *s,
                       uint32_t parts);

#endif
