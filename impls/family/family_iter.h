/*
 * family_iter.h: the family storage's systems: registration (a system's bitsets as the words
 * they touch) and iteration over a system's packed list, with the in-step runs family.h's
 * header describes.
 */
#ifndef FAMILY_ITER_H
#define FAMILY_ITER_H

#include "family_data.h"

/* Adds type t to system y's words, as required (want) or excluded. */
static void family_mask_add(struct family_system *y, uint32_t t, bool want)
{
	uint32_t w = t / FAMILY_WORD_BITS, k = 0;
	family_word bit = (family_word)1 << (t % FAMILY_WORD_BITS);
	while (k < y->word_count && y->word_index[k] != w)
		k++;
	if (k == y->word_count) {
		y->word_index[k] = w;
		y->word_mask[k] = y->word_want[k] = 0;
		y->word_count++;
	}
	y->word_mask[k] |= bit;
	if (want)
		y->word_want[k] |= bit;
}

/* Appends system id to a type's list of requirers or excluders. */
static int family_list_push(ecs_storage *s, uint16_t **list, uint32_t *count, uint32_t *cap,
                            uint32_t id)
{
	int rc = family_grow(s, (void **)list, cap, *count + 1, sizeof **list);
	if (rc == ECS_OK)
		(*list)[(*count)++] = (uint16_t)id;
	return rc;
}

static int family_system_register_body(ecs_storage *s, const uint32_t *types, uint32_t count,
                                       const uint32_t *excluded, uint32_t excluded_count,
                                       uint32_t *out_id)
{
	int rc = ECS_OK;
	uint32_t id = s->system_count;
	struct family_system *y = &s->systems[id];
	memset(y, 0, sizeof *y);
	family_hook_init(&y->index);
	y->type_count = count;
	y->anchor = types[0];
	for (uint32_t c = 0; c < count; c++) {
		y->types[c] = types[c];
		if (types[c] < y->anchor)
			y->anchor = types[c];
		family_mask_add(y, types[c], true);
	}
	y->excluded_count = excluded_count;
	for (uint32_t c = 0; c < excluded_count; c++) {
		y->excluded[c] = excluded[c];
		family_mask_add(y, excluded[c], false);
	}
	/* Into the list of every type it requires, and of every type it excludes. */
	uint32_t c, x = 0;
	for (c = 0; c < count && rc == ECS_OK; c++) {
		struct family_pool *p = &s->pools[types[c]];
		if ((rc = family_list_push(s, &p->systems, &p->system_count, &p->system_cap, id)))
			break;
	}
	for (; x < excluded_count && rc == ECS_OK; x++) {
		struct family_pool *p = &s->pools[excluded[x]];
		if ((rc = family_list_push(s, &p->excluders, &p->excluder_count, &p->excluder_cap, id)))
			break;
	}
	/* Entities that match already. */
	for (uint32_t index = 0; rc == ECS_OK && index < s->entity_used; index++) {
		if (!(s->entity_gen[index] & FAMILY_ALIVE) ||
		    !family_satisfies(y, family_bits(s, index)))
			continue;
		rc = system_add_entity(s, y, ecs_entity_make(index, s->entity_gen[index]));
	}
	if (rc != ECS_OK) { /* out of the lists again (each push was the last), and free it */
		while (c--)
			s->pools[types[c]].system_count--;
		while (x--)
			s->pools[excluded[x]].excluder_count--;
		system_release(s, y);
		return rc;
	}
	*out_id = s->system_count++;
	return ECS_OK;
}

static int family_system_iter_begin_body(ecs_storage *s, uint32_t system,
                                         struct ecs_iter *it)
{
	it->storage = s;
	it->state[0] = system;
	it->state[1] = 0; /* position in the system's entity list */
	it->state[2] = s->systems[system].count; /* where the iteration ends in it */
	return ECS_OK;
}

/*
 * Where part `part` of a split of system y's pass starts in its packed list (see
 * family_system_iter_split): an even share of the list, moved forward (by less than a part)
 * to the next entity whose value of the system's first component starts a cache line, where
 * the entities from the share's start on have their values at consecutive slots of that pool
 * (as after a run of creations); elsewhere the values are scattered and no boundary helps.
 */
static uint32_t family_split_bound(const ecs_storage *s, const struct family_system *y,
                                   uint32_t part, uint32_t parts)
{
	uint32_t at = ecs_split_bound(y->count, part, parts);
	uint32_t limit = ecs_split_limit(y->count, part, parts);
	if (!limit)
		return at;
	const struct family_pool *p = &s->pools[y->types[0]];
	uint32_t slot = family_hook_get(&p->index, ecs_entity_index(y->entities[at]));
	uint32_t d = ecs_split_align(p->values + (size_t)slot * p->size, p->size, limit);
	if (d && family_hook_get(&p->index, ecs_entity_index(y->entities[at + d])) == slot + d)
		return at + d;
	return at;
}

/* A range of the system's packed list, the one order a family pass walks: each part reads its
 * own entities' index entries, so parts share nothing but read-only pools and indexes. */
static int family_system_iter_split_body(ecs_storage *s, uint32_t system, uint32_t part,
                                         uint32_t parts, struct ecs_iter *it)
{
	const struct family_system *y = &s->systems[system];
	it->storage = s;
	it->state[0] = system;
	it->state[1] = family_split_bound(s, y, part, parts);
	it->state[2] = family_split_bound(s, y, part + 1, parts);
	return ECS_OK;
}

ECS_SYSTEM_SHELLS(family)

/*
 * How many of the system's entities from `pos` up to `end` sit in step in every pool of its types, at
 * consecutive slots from first[c] in pool c: compared as handle arrays (the system's list
 * against each pool's owners), a chunk of ECS_BATCH_MAX at a time, up to the first chunk that
 * differs; 0 if the first does. A slot past a pool's end ends the run.
 */
static uint32_t family_in_step(const ecs_storage *s, const struct family_system *y, uint32_t pos,
                               uint32_t end, const uint32_t *first)
{
	uint32_t run = 0, left = end - pos;
	while (run < left) {
		uint32_t n = left - run < ECS_BATCH_MAX ? left - run : ECS_BATCH_MAX;
		for (uint32_t c = 0; c < y->type_count; c++) {
			const struct family_pool *p = &s->pools[y->types[c]];
			if (first[c] + run + n > p->count ||
			    memcmp(p->owners + first[c] + run, y->entities + pos + run,
			           n * sizeof *p->owners) != 0)
				return run;
		}
		run += n;
	}
	return run;
}

static bool family_system_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	ecs_storage *s = it->storage;
	const struct family_system *y = &s->systems[it->state[0]];
	/* state[1]: the next slot of the list; state[2]: where this pass (or part) ends */
	uint32_t pos = (uint32_t)it->state[1], end = (uint32_t)it->state[2];
	b->count = 0;
	if (pos >= end)
		return false;
	const ecs_entity *entities = y->entities + pos;
	b->entities = entities;
	/*
	 * Entities that joined the system in the order they got each of its components (as after
	 * a run of creations) sit at consecutive slots of every pool, in step with the system's
	 * list: the pools' owner arrays then equal the list. One lookup per component finds where
	 * the run starts in its pool, and comparing the arrays (memcmp, a fraction of an
	 * instruction an entity) how far it goes: the batch is that run, whole columns, however
	 * long (vector, iterate N = 2^17 k = 2: 16.9 -> 3.0 instructions an entity, callgrind).
	 */
	uint32_t first[ECS_SYSTEM_MAX_COMPONENTS];
	for (uint32_t c = 0; c < y->type_count; c++)
		first[c] = family_hook_get(&s->pools[y->types[c]].index, ecs_entity_index(entities[0]));
	uint32_t run = family_in_step(s, y, pos, end, first);
	if (run > 0) {
		b->count = run;
		for (uint32_t c = 0; c < y->type_count; c++) {
			const struct family_pool *p = &s->pools[y->types[c]];
			b->columns[c] = p->values + (size_t)first[c] * p->size;
			b->pointers[c] = NULL;
		}
		it->state[1] = pos + run;
		return true;
	}
	/*
	 * Otherwise Vigier's getComponents: one index lookup per component per entity, for a
	 * batch of up to ECS_BATCH_MAX. Where a component's values for the batch sit at
	 * consecutive slots, it is handed out as a column instead of a pointer per entity: the
	 * system then reads the values as an array.
	 */
	uint32_t n = end - pos < ECS_BATCH_MAX ? end - pos : ECS_BATCH_MAX;
	b->count = n;
	uint32_t slots[ECS_BATCH_MAX];
	for (uint32_t c = 0; c < y->type_count; c++) {
		const struct family_pool *p = &s->pools[y->types[c]];
		unsigned char *values = p->values;
		size_t size = p->size;
		/* In step with the list for this component alone (iterate-aged's Velocity, or in a
		 * lived-in storage the component whose add made the entities join, both in the order
		 * it came): the slot of the first entity is known from above, and a memcmp of the
		 * owners shows it, instead of a lookup per entity at scattered indices. */
		slots[0] = first[c];
		bool consecutive = slots[0] + n <= p->count &&
		                   memcmp(p->owners + slots[0], entities, n * sizeof *entities) == 0;
		if (!consecutive)
			consecutive = family_hook_get_batch(&p->index, entities, n, slots);
		if (consecutive) {
			b->columns[c] = values + (size_t)slots[0] * size;
			b->pointers[c] = NULL;
			continue;
		}
		/* The plain loop, which gcc vectorises and a prefetch would keep scalar (7
		 * instructions more a pointer, callgrind, fragmented). */
		void **ptrs = it->pointers[c];
		for (uint32_t j = 0; j < n; j++)
			ptrs[j] = values + (size_t)slots[j] * size;
		b->columns[c] = NULL;
		b->pointers[c] = ptrs;
	}
	it->state[1] = pos + n;
	return true;
}

#endif
