/* ops.h: the fixture and checked operations shared by the conformance suite and the fuzzer
 * (see ops.c). Every bool function returns false after printing why (check.h). */
#ifndef ECSB_OPS_H
#define ECSB_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../harness/core/alloc.h"
#include "model.h"

struct fixture {
	const struct ecs_ops *ops;
	ecs_storage *s;
	struct counting_alloc counter;
	struct model m;
	uint32_t *sizes;
	uint8_t *storage;  /* the storage hint of each type (random per fixture) */
	uint64_t rng;
	bool allow_oom;    /* ECS_ERR_NO_MEMORY is accepted when the allocator failed on purpose */
	uint64_t oom_seen; /* operations that failed that way */
	uint32_t checks;   /* check_all calls so far (which split, and in how many parts) */
};

uint64_t next_random(struct fixture *f);
uint32_t below(struct fixture *f, uint32_t n);
uint32_t size_of_type(uint32_t t);

bool fixture_open(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                  uint32_t systems, uint64_t seed);
/* fixture_open with the storage hints drawn from hint_seed instead of seed. */
bool fixture_open_hinted(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                         uint32_t systems, uint64_t seed, uint64_t hint_seed);
/* fixture_open with type t of size_of(t) bytes, and the storage hints given (component_count
 * of them), or NULL: drawn from seed. */
bool fixture_open_sized(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                        uint32_t systems, uint64_t seed, uint32_t (*size_of)(uint32_t),
                        const uint8_t *storage);
bool fixture_close(struct fixture *f); /* destroy, then every byte must have come back */
bool injected_oom(struct fixture *f, int rc);

bool op_create(struct fixture *f, ecs_entity *out);
bool op_create_with(struct fixture *f, const uint32_t *types, uint32_t count,
                    const void *const *values, ecs_entity *out);
bool random_create_with(struct fixture *f, uint32_t most, ecs_entity *out);
bool op_destroy(struct fixture *f, ecs_entity e);
bool op_add(struct fixture *f, ecs_entity e, uint32_t t);
bool op_add_from(struct fixture *f, ecs_entity e, uint32_t t, ecs_entity from,
                 uint32_t from_type);
bool op_add_from_some(struct fixture *f, ecs_entity e, uint32_t t);
bool op_add_from_own(struct fixture *f, ecs_entity e, uint32_t t);
bool op_remove(struct fixture *f, ecs_entity e, uint32_t t);
bool op_get(struct fixture *f, ecs_entity e, uint32_t t, bool write);
/* entity_get, checked against the model and component_get (see ops.c); random_entity_get
 * draws the rest of a list that starts with `first`, misuse now and then. */
bool op_entity_get(struct fixture *f, ecs_entity e, const uint32_t *types, uint32_t count,
                   bool give_out, bool give_status, bool write, bool fallback);
bool random_entity_get(struct fixture *f, ecs_entity e, uint32_t first, bool write);
bool op_has(struct fixture *f, ecs_entity e, uint32_t t);
bool op_register(struct fixture *f, const uint32_t *types, uint32_t count);
bool op_register_excluding(struct fixture *f, const uint32_t *types, uint32_t count,
                           const uint32_t *excluded, uint32_t excluded_count);
/* The whole state against the model; and every other call, every system's pass split in 2..16
 * parts, one more each time (model_check_split). */
bool check_all(struct fixture *f);
bool op_group(struct fixture *f, uint32_t system);
bool op_create_batch(struct fixture *f, const uint32_t *types, uint32_t type_count,
                     const struct ecs_values *values, uint32_t count, bool fallback,
                     ecs_entity *out);
bool op_add_batch(struct fixture *f, const ecs_entity *entities, uint32_t count, uint32_t type,
                  const struct ecs_values *values, bool fallback);
bool op_remove_batch(struct fixture *f, const ecs_entity *entities, uint32_t count,
                     uint32_t type, bool fallback);
/* Random batches, misuse and failures half way included (see ops.c). */
bool random_create_batch(struct fixture *f, bool fallback);
bool random_change_batch(struct fixture *f, bool add, bool fallback);
bool change_batch_of(struct fixture *f, uint32_t type, ecs_entity first, bool add,
                     bool fallback);

ecs_entity some_live(struct fixture *f);
ecs_entity some_handle(struct fixture *f);
uint32_t some_type(struct fixture *f);
bool register_systems(struct fixture *f, uint32_t count);
bool random_op(struct fixture *f, uint32_t max_live);

#endif
