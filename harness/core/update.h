/*
 * update.h: the measured system's update over one batch (update.c), Position += Velocity * dt,
 * the work every iterate pass does, on a backend's batches or the floor's plain arrays.
 */
#ifndef ECSB_UPDATE_H
#define ECSB_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

void update_batch(const struct ecs_batch *b, uint32_t k, const size_t size[COMP_MAX_K]);

#endif
