/*
 * ops.c: what the conformance suite and the fuzzer share: a fixture (a storage, its counting
 * allocator and the reference model side by side) and one function per interface operation that
 * runs it on the storage, checks the result against the model and applies it to the model.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops.h"

uint64_t next_random(struct fixture *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

uint32_t below(struct fixture *f, uint32_t n) { return (uint32_t)(next_random(f) % n); }

/* Component sizes that vary (1..64 bytes) so that strides are exercised. */
uint32_t size_of_type(uint32_t t) { return 1 + (t * 7 + 3) % 64; }

bool fixture_open(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                  uint32_t systems, uint64_t seed)
{
	return fixture_open_hinted(f, ops, components, systems, seed, seed);
}

static bool fixture_setup(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                          uint32_t systems, uint64_t seed, uint64_t hint_seed,
                          uint32_t (*size_of)(uint32_t), const uint8_t *storage)
{
	memset(f, 0, sizeof *f);
	f->ops = ops;
	f->rng = seed * 2654435761u + 88172645463325252ull;
	f->sizes = malloc(components * sizeof *f->sizes);
	CHECK(f->sizes != NULL);
	for (uint32_t t = 0; t < components; t++)
		f->sizes[t] = size_of(t);
	struct ecs_allocator alloc = counting_alloc_init(&f->counter);
	CHECK(counting_alloc_track(&f->counter) == 0); /* every block's size is checked */
	/* Every type table or sparse at random (ecs.h's hint, which no result may depend on), from
	 * a generator of its own so that the fixture's draws are those they were without hints. */
	f->storage = malloc(components);
	CHECK(f->storage != NULL);
	uint64_t h = hint_seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	for (uint32_t t = 0; t < components; t++) {
		h ^= h << 13;
		h ^= h >> 7;
		h ^= h << 17;
		f->storage[t] = (uint8_t)(h >> 32 & 1 ? ECS_STORAGE_SPARSE : ECS_STORAGE_TABLE);
	}
	if (storage)
		memcpy(f->storage, storage, components);
	struct ecs_config cfg = {components, systems, f->sizes, f->storage};
	CHECK(model_init(&f->m, &cfg));
	CHECK_OK(ops->create(&cfg, &alloc, &f->s));
	return true;
}

bool fixture_open_hinted(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                         uint32_t systems, uint64_t seed, uint64_t hint_seed)
{
	return fixture_setup(f, ops, components, systems, seed, hint_seed, size_of_type, NULL);
}

bool fixture_open_sized(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                        uint32_t systems, uint64_t seed, uint32_t (*size_of)(uint32_t),
                        const uint8_t *storage)
{
	return fixture_setup(f, ops, components, systems, seed, seed, size_of, storage);
}

/* Destroys the storage and checks that every byte came back, with the size it had. */
bool fixture_close(struct fixture *f)
{
	if (f->s)
		f->ops->destroy(f->s);
	f->s = NULL;
	model_free(&f->m);
	free(f->sizes);
	f->sizes = NULL;
	free(f->storage);
	f->storage = NULL;
	uint64_t blocks_left = f->counter.blocks ? f->counter.block_count : 0;
	counting_alloc_release(&f->counter);
	CHECK_EQ(blocks_left, 0);
	CHECK_EQ(f->counter.size_errors, 0);
	CHECK_EQ(f->counter.live_bytes, 0);
	return true;
}

bool injected_oom(struct fixture *f, int rc)
{
	if (rc == ECS_ERR_NO_MEMORY && f->allow_oom && f->counter.failures > 0) {
		f->counter.failures = 0;
		f->oom_seen++;
		return true;
	}
	return false;
}

/* Each op_ runs one operation on the storage, checks its result against the model, and
 * applies it to the model. */
bool op_create(struct fixture *f, ecs_entity *out)
{
	ecs_entity e = ECS_NULL;
	int rc = f->ops->entity_create(f->s, &e);
	if (injected_oom(f, rc)) {
		*out = ECS_NULL;
		return true;
	}
	CHECK_OK(rc);
	CHECK(f->ops->entity_alive(f->s, e));
	TRY(model_created(&f->m, e));
	*out = e;
	return true;
}

/*
 * ecs_entity_create_with (the backend's method, or the fallback when the fixture's ops have
 * none). The values may point into the storage: what they hold is copied before the call.
 * The fallback creates the entity before it can see a bad type, so with it an injected
 * ECS_ERR_NO_MEMORY may come before ECS_ERR_BAD_COMPONENT (ecs.h).
 */
bool op_create_with(struct fixture *f, const uint32_t *types, uint32_t count,
                    const void *const *values, ecs_entity *out)
{
	int want = model_expect_create_with(&f->m, types, count, values);
	unsigned char *expected = NULL;
	uint32_t *offsets = NULL;
	*out = ECS_NULL;
	if (want == ECS_OK && count > 0) {
		offsets = malloc(count * sizeof *offsets);
		uint32_t bytes = 0;
		CHECK(offsets != NULL);
		for (uint32_t i = 0; i < count; i++) {
			offsets[i] = bytes;
			bytes += f->sizes[types[i]];
		}
		expected = malloc(bytes);
		CHECK(expected != NULL);
		for (uint32_t i = 0; i < count; i++)
			memcpy(expected + offsets[i], values[i], f->sizes[types[i]]);
	}
	ecs_entity e = ECS_NULL;
	int rc = ecs_entity_create_with(f->ops, f->s, types, count, values, &e);
	bool ok = true;
	bool fallback = f->ops->entity_create_with == NULL;
	if ((want == ECS_OK || (fallback && want == ECS_ERR_BAD_COMPONENT)) && injected_oom(f, rc))
		goto done;
	if (rc != want) {
		check_failed(__FILE__, __LINE__, "entity_create_with of %u types returned %s, "
		             "expected %s", count, ecs_status_name(rc), ecs_status_name(want));
		ok = false;
		goto done;
	}
	if (want != ECS_OK)
		goto done;
	ok = f->ops->entity_alive(f->s, e) && model_created(&f->m, e);
	if (!ok) {
		check_failed(__FILE__, __LINE__, "entity_create_with gave %08x, not a new live "
		             "handle", e);
		goto done;
	}
	for (uint32_t i = 0; i < count; i++)
		model_added(&f->m, e, types[i], expected + offsets[i]);
	*out = e;
done:
	free(expected);
	free(offsets);
	return ok;
}

/*
 * create_with of a random set of up to `most` types (some_type: misuse now and then), each
 * value random or, half the time, read from a live entity that has the type (a pointer into
 * the storage).
 */
bool random_create_with(struct fixture *f, uint32_t most, ecs_entity *out)
{
	uint32_t count = below(f, most + 1), types[ECS_CREATE_MAX_COMPONENTS];
	const void *values[ECS_CREATE_MAX_COMPONENTS];
	CHECK(count <= ECS_CREATE_MAX_COMPONENTS);
	/* room for `count` values of any type; 64 random bytes drawn at least, as when no type
	 * was larger, so that the small profiles' draws stay what they were (room for all 32
	 * was 128 KiB a call: under ASan a block mapped and unmapped every time, a third of
	 * what the fuzzer spent) */
	unsigned char *random = malloc((size_t)(count ? count : 1) * ECS_MAX_COMPONENT_SIZE);
	CHECK(random != NULL);
	bool ok = true;
	for (uint32_t i = 0; i < count && ok; i++) {
		/* Mostly distinct types: a repeat is misuse, one list in twenty or so. */
		for (uint32_t tries = 0, again = 1; tries < 4 && again; tries++) {
			types[i] = some_type(f);
			again = 0;
			for (uint32_t j = 0; j < i; j++)
				again |= types[j] == types[i];
			again = again && below(f, 20) != 0;
		}
		unsigned char *v = random + (size_t)i * ECS_MAX_COMPONENT_SIZE;
		uint32_t bytes = types[i] < f->m.component_count ? f->sizes[types[i]] : 0;
		for (uint32_t b = 0; b < (bytes > 64 ? bytes : 64); b++)
			v[b] = (unsigned char)next_random(f);
		values[i] = v;
		ecs_entity from = some_live(f);
		void *p;
		if (below(f, 2) && types[i] < f->m.component_count &&
		    model_expect_remove(&f->m, from, types[i]) == ECS_OK) {
			int rc = f->ops->component_get(f->s, from, types[i], &p);
			if (rc != ECS_OK) {
				check_failed(__FILE__, __LINE__, "component_get of a component %08x has "
				             "returned %s", from, ecs_status_name(rc));
				ok = false;
			}
			values[i] = p;
		}
	}
	ok = ok && op_create_with(f, types, count, values, out);
	free(random);
	return ok;
}

bool op_destroy(struct fixture *f, ecs_entity e)
{
	bool alive = model_alive(&f->m, e);
	int rc = f->ops->entity_destroy(f->s, e);
	if (alive && injected_oom(f, rc))
		return true;
	CHECK_STATUS(rc, alive ? ECS_OK : ECS_ERR_DEAD_ENTITY);
	if (alive)
		model_destroyed(&f->m, e);
	CHECK(!f->ops->entity_alive(f->s, e));
	return true;
}

bool op_add(struct fixture *f, ecs_entity e, uint32_t t)
{
	unsigned char value[ECS_MAX_COMPONENT_SIZE];
	uint32_t size = t < f->m.component_count ? f->sizes[t] : 8;
	for (uint32_t i = 0; i < size; i++)
		value[i] = (unsigned char)next_random(f);
	int want = model_expect_add(&f->m, e, t);
	int rc = f->ops->component_add(f->s, e, t, value);
	if (want == ECS_OK && injected_oom(f, rc))
		return true;
	CHECK_STATUS(rc, want);
	if (want == ECS_OK)
		model_added(&f->m, e, t, value);
	return true;
}

/*
 * component_add of t to e with the value component_get gives for `from`'s type `from_type`: a
 * pointer into the storage itself (ecs.h allows it), which the add may move when it grows what
 * holds it. The expected value is copied first: the pointer may not be read after the add.
 * Falls back to op_add's random value when `from` has no such component or its value is
 * smaller than t's.
 */
bool op_add_from(struct fixture *f, ecs_entity e, uint32_t t, ecs_entity from, uint32_t from_type)
{
	void *p = NULL;
	if (t >= f->m.component_count || from_type >= f->m.component_count ||
	    f->sizes[from_type] < f->sizes[t] || model_expect_remove(&f->m, from, from_type) != ECS_OK)
		return op_add(f, e, t);
	CHECK_OK(f->ops->component_get(f->s, from, from_type, &p));
	unsigned char expected[ECS_MAX_COMPONENT_SIZE];
	memcpy(expected, p, f->sizes[t]);
	int want = model_expect_add(&f->m, e, t);
	int rc = f->ops->component_add(f->s, e, t, p);
	if (want == ECS_OK && injected_oom(f, rc))
		return true;
	CHECK_STATUS(rc, want);
	if (want == ECS_OK)
		model_added(&f->m, e, t, expected);
	return true;
}

/*
 * An add whose value is some live entity's component, read through component_get: a pointer
 * into the storage (ecs.h allows it). Mostly a component of the same type, from a random
 * entity; sometimes a larger one of another type: half of those times the entity's own (in
 * archetype, a column of the table it leaves, which the move overwrites), the others from a
 * random entity. The choices are drawn from the fixture's generator, never from the fuzzer's
 * input: the corpus's inputs decode to the same operations as before this kind of add existed
 * (some with other values).
 */
bool op_add_from_some(struct fixture *f, ecs_entity h, uint32_t t)
{
	uint32_t n = f->m.entity_count, types = f->m.component_count;
	bool same_type = below(f, 4) != 0;
	if (t >= types || n == 0)
		return op_add(f, h, t);
	uint32_t start = below(f, n);
	struct model_entity *own = model_find(&f->m, h);
	if (!same_type && start % 2 && own && own->alive)
		for (uint32_t k = 0; k < types; k++) {
			uint32_t u = (start / 2 + k) % types;
			if (own->has[u] && u != t && f->sizes[u] >= f->sizes[t])
				return op_add_from(f, h, t, h, u);
		}
	for (uint32_t k = 0; k < n; k++) {
		struct model_entity *r = &f->m.entities[(start + k) % n];
		if (!r->alive || model_find(&f->m, r->handle) != r)
			continue;
		for (uint32_t u = 0; u < f->m.component_count; u++)
			if (r->has[u] && (same_type ? u == t : u != t && f->sizes[u] >= f->sizes[t]))
				return op_add_from(f, h, t, r->handle, u);
	}
	return op_add(f, h, t);
}

/* An add whose value is the entity's own component of another type, at least as large (one
 * from a random start); op_add's random value where it has none. */
bool op_add_from_own(struct fixture *f, ecs_entity h, uint32_t t)
{
	struct model_entity *r = model_find(&f->m, h);
	uint32_t n = f->m.component_count;
	if (t >= n || !r || !r->alive)
		return op_add(f, h, t);
	for (uint32_t k = 0, start = below(f, n); k < n; k++) {
		uint32_t u = (start + k) % n;
		if (r->has[u] && u != t && f->sizes[u] >= f->sizes[t])
			return op_add_from(f, h, t, h, u);
	}
	return op_add(f, h, t);
}

bool op_remove(struct fixture *f, ecs_entity e, uint32_t t)
{
	int want = model_expect_remove(&f->m, e, t);
	int rc = f->ops->component_remove(f->s, e, t);
	if (want == ECS_OK && injected_oom(f, rc))
		return true;
	CHECK_STATUS(rc, want);
	if (want == ECS_OK)
		model_removed(&f->m, e, t);
	return true;
}

bool op_get(struct fixture *f, ecs_entity e, uint32_t t, bool write)
{
	int want = model_expect_remove(&f->m, e, t);
	void *p = NULL;
	CHECK_STATUS(f->ops->component_get(f->s, e, t, &p), want);
	if (want != ECS_OK)
		return true;
	CHECK(memcmp(p, model_value(&f->m, e, t), f->sizes[t]) == 0);
	if (write) { /* the pointer is the stored value: writing through it changes it */
		unsigned char *q = p;
		for (uint32_t i = 0; i < f->sizes[t]; i++)
			q[i] = (unsigned char)next_random(f);
		memcpy(model_value(&f->m, e, t), p, f->sizes[t]);
	}
	return true;
}

/*
 * entity_get of `count` types of e, natively or through ecs.h's fallback called directly, misuse
 * included (types or out not given, count 0 or over ECS_ENTITY_GET_MAX; `types` holds at least
 * min(count, ECS_ENTITY_GET_MAX + 2) types): the call's status, and each type's pointer (that of
 * component_get, with the model's value; NULL where it fails) and status (with status[] given,
 * else nothing written there), the model's; nothing written past count, nor anywhere on
 * ECS_ERR_INVALID. With `write`, the values are written through the pointers, which must be the
 * stored ones (a repeated type's pointer written twice).
 */
bool op_entity_get(struct fixture *f, ecs_entity e, const uint32_t *types, uint32_t count,
                   bool give_out, bool give_status, bool write, bool fallback)
{
	enum { SLOTS = ECS_ENTITY_GET_MAX + 2 };
	void *out[SLOTS];
	int status[SLOTS];
	for (uint32_t i = 0; i < SLOTS; i++) {
		out[i] = &out[i]; /* sentinels: a result must be written, nothing else */
		status[i] = 99;
	}
	void **o = give_out ? out : NULL;
	int *st = give_status ? status : NULL;
	int want = model_expect_entity_get(&f->m, e, types, count, give_out);
	int rc = fallback ? ecs_entity_get_fallback(f->ops, f->s, e, types, count, o, st)
	                  : ecs_entity_get(f->ops, f->s, e, types, count, o, st);
	CHECK_STATUS(rc, want);
	uint32_t written = want == ECS_ERR_INVALID ? 0 : count;
	for (uint32_t i = written; i < SLOTS; i++)
		CHECK(out[i] == &out[i] && status[i] == 99);
	for (uint32_t i = 0; i < written; i++) {
		int got = model_expect_remove(&f->m, e, types[i]);
		CHECK_STATUS(status[i], give_status ? got : 99);
		if (got != ECS_OK) {
			CHECK(out[i] == NULL);
			continue;
		}
		void *p = NULL;
		CHECK_OK(f->ops->component_get(f->s, e, types[i], &p));
		CHECK(out[i] == p);
		CHECK(memcmp(p, model_value(&f->m, e, types[i]), f->sizes[types[i]]) == 0);
	}
	if (!write || want == ECS_ERR_INVALID)
		return true;
	for (uint32_t i = 0; i < written; i++)
		if (out[i]) {
			unsigned char *q = out[i];
			for (uint32_t b = 0; b < f->sizes[types[i]]; b++)
				q[b] = (unsigned char)next_random(f);
		}
	for (uint32_t i = 0; i < written; i++)
		if (out[i])
			memcpy(model_value(&f->m, e, types[i]), out[i], f->sizes[types[i]]);
	return true;
}

/*
 * entity_get of a random list: `first` first, then types some_type draws (repeats and types out
 * of range among them), mostly one to four, now and then up to the limit; misuse now and then
 * (no types, no out, count 0 or over the limit); status[] given half the time; through the
 * fallback a third of the time.
 */
bool random_entity_get(struct fixture *f, ecs_entity e, uint32_t first, bool write)
{
	uint32_t types[ECS_ENTITY_GET_MAX + 2];
	types[0] = first;
	for (uint32_t i = 1; i < ECS_ENTITY_GET_MAX + 2; i++)
		types[i] = some_type(f);
	uint32_t dice = below(f, 100);
	uint32_t count = dice < 85   ? 1 + below(f, 4)
	                 : dice < 95 ? 1 + below(f, ECS_ENTITY_GET_MAX)
	                 : dice < 97 ? 0
	                             : ECS_ENTITY_GET_MAX + 1 + below(f, 2);
	bool give_types = below(f, 64) != 0, give_out = below(f, 64) != 0;
	return op_entity_get(f, e, give_types ? types : NULL, count, give_out, below(f, 2), write,
	                     below(f, 3) == 0);
}

bool op_has(struct fixture *f, ecs_entity e, uint32_t t)
{
	CHECK_EQ(f->ops->component_has(f->s, e, t), model_expect_has(&f->m, e, t));
	return true;
}

/* system_register, misuse included: the expected code comes from the model. */
bool op_register_excluding(struct fixture *f, const uint32_t *types, uint32_t count,
                           const uint32_t *excluded, uint32_t excluded_count)
{
	uint32_t id = UINT32_MAX;
	int want = model_expect_register(&f->m, types, count, excluded, excluded_count);
	int rc = f->ops->system_register(f->s, types, count, excluded, excluded_count, &id);
	if (want == ECS_OK && injected_oom(f, rc))
		return true;
	CHECK_STATUS(rc, want);
	if (want != ECS_OK)
		return true;
	CHECK_EQ(id, f->m.system_count);
	model_system(&f->m, types, count, excluded, excluded_count);
	return true;
}

bool op_register(struct fixture *f, const uint32_t *types, uint32_t count)
{
	return op_register_excluding(f, types, count, NULL, 0);
}

bool check_all(struct fixture *f)
{
	/* Every other check splits the passes (test_split tries every count on its own states):
	 * a split check costs about what the whole check's iteration does. */
	uint32_t n = f->checks++;
	TRY(model_check(&f->m, f->ops, f->s));
	return n % 2 == 1 || model_check_split(&f->m, f->ops, f->s, 2 + n / 2 % 15);
}

/* A random live handle (or ECS_NULL when none). */
ecs_entity some_live(struct fixture *f)
{
	if (f->m.live == 0)
		return ECS_NULL;
	for (;;) {
		struct model_entity *r = &f->m.entities[below(f, f->m.entity_count)];
		if (r->alive)
			return r->handle;
	}
}

/* Any handle: mostly live ones, then dead ones, never-created ones and ECS_NULL. */
ecs_entity some_handle(struct fixture *f)
{
	uint32_t dice = below(f, 100);
	if (f->m.entity_count == 0)
		return dice < 50 ? ECS_NULL : ecs_entity_make(below(f, 100), 0);
	if (dice < 80)
		return some_live(f);
	if (dice < 92)
		return f->m.entities[below(f, f->m.entity_count)].handle;
	if (dice < 97)
		return ecs_entity_make(ECS_MAX_ENTITIES - 1 - below(f, 1000), below(f, 1024));
	return ECS_NULL;
}

/* A component type: mostly the first few (so systems match), sometimes any, rarely out of
 * range. */
uint32_t some_type(struct fixture *f)
{
	uint32_t dice = below(f, 100), n = f->m.component_count;
	if (dice < 70)
		return below(f, n < 6 ? n : 6);
	if (dice < 97)
		return below(f, n);
	return dice < 99 ? n + below(f, 3) : UINT32_MAX;
}

/*
 * Systems over the first types, overlapping, plus one on a rare type. From the second on, every
 * other system excludes one to three types (among the first seven, and the profile's last).
 */
bool register_systems(struct fixture *f, uint32_t count)
{
	for (uint32_t y = 0; y < count; y++) {
		uint32_t types[4], n = 1 + y % 3, excluded[3], x = y % 2 ? 1 + (y / 2) % 3 : 0;
		for (uint32_t c = 0; c < n; c++)
			types[c] = (y + c * 2) % 6;
		if (y == count - 1 && f->m.component_count > 7) {
			types[0] = f->m.component_count - 1;
			n = 1;
		}
		/* the candidates 0..6 and the last type, from y on, that it does not require */
		uint32_t taken = 0, last = f->m.component_count - 1;
		for (uint32_t k = 0; k < 8 && taken < x; k++) {
			uint32_t t = (y + k) % 8 == 7 ? last : (y + k) % 8, clash = t > last;
			for (uint32_t c = 0; c < n; c++)
				clash |= types[c] == t;
			for (uint32_t c = 0; c < taken; c++)
				clash |= excluded[c] == t;
			if (!clash)
				excluded[taken++] = t;
		}
		TRY(op_register_excluding(f, types, n, excluded, taken));
		TRY(op_group(f, below(f, f->m.system_count + 1)));
	}
	return true;
}

/* One random operation; a few percent are misuse. */
bool random_op(struct fixture *f, uint32_t max_live)
{
	uint32_t dice = below(f, 100);
	ecs_entity e;
	if (dice < 8 && f->m.live < max_live)
		return op_create(f, &e);
	if (dice < 14 && f->m.live < max_live)
		return random_create_with(f, 4, &e);
	if (dice < 22)
		return op_destroy(f, some_handle(f));
	if (dice < 42)
		return op_add(f, some_handle(f), some_type(f));
	if (dice < 43 && f->m.live < max_live)
		return random_create_batch(f, false);
	/* the value from the storage: at any row of any table or pool, or the entity's own */
	if (dice < 46)
		return op_add_from_some(f, some_handle(f), some_type(f));
	if (dice < 50)
		return op_add_from_own(f, some_handle(f), some_type(f));
	if (dice < 52)
		return random_change_batch(f, dice & 1, false);
	if (dice < 68)
		return op_remove(f, some_handle(f), some_type(f));
	if (dice < 84) { /* a quarter of the lookups ask several types of the entity at once */
		ecs_entity h = some_handle(f);
		uint32_t t = some_type(f);
		if (below(f, 4) == 0)
			return random_entity_get(f, h, t, dice & 1);
		return op_get(f, h, t, dice & 1);
	}
	if (dice < 96)
		return op_has(f, some_handle(f), some_type(f));
	if (dice == 99)
		return op_group(f, below(f, f->m.system_count + 1));
	e = some_handle(f);
	CHECK_EQ(f->ops->entity_alive(f->s, e), model_alive(&f->m, e));
	return true;
}


/* --- groups and batches ----------------------------------------------------------------- */

/*
 * ecs_system_group on a system (or one past the registered ones, misuse): a hint, so 0 or 1
 * and nothing the model sees changes (check_all compares what each pass visits, in any order).
 * It may allocate: an injected failure is ECS_ERR_NO_MEMORY and changes nothing either.
 */
bool op_group(struct fixture *f, uint32_t system)
{
	int rc = ecs_system_group(f->ops, f->s, system);
	if (injected_oom(f, rc))
		return true;
	if (!f->ops->system_group) /* the wrapper: no groups, whatever the system */
		CHECK_EQ(rc, 0);
	else if (system >= f->m.system_count)
		CHECK_STATUS(rc, ECS_ERR_BAD_SYSTEM);
	else
		CHECK(rc == 0 || rc == 1);
	return true;
}

/* The bytes batch values hold for entity j of type t, copied before the call (they may point
 * into the storage, which the call changes). NULL when there is nothing to copy. */
static unsigned char *copy_values(struct fixture *f, const struct ecs_values *v, uint32_t t,
                                  uint32_t count)
{
	uint32_t size = f->sizes[t];
	unsigned char *copy = malloc((size_t)count * size + 1);
	if (copy)
		for (uint32_t j = 0; j < count; j++)
			memcpy(copy + (size_t)j * size, (const unsigned char *)v->data + (size_t)j * v->stride,
			       size);
	return copy;
}

/*
 * entity_create_batch through the fixture's ops (the backend's own, or the wrapper's fallback
 * where it has none) or, with `fallback`, the fallback itself. The fallback creates before it
 * can see a bad type and does not look at the types when count is 0 (ecs.h); on success every
 * handle is new, distinct and alive with the values given; on any error nothing was created
 * (the state is compared at the next check_all, right after a failure in the failure tests).
 */
bool op_create_batch(struct fixture *f, const uint32_t *types, uint32_t type_count,
                     const struct ecs_values *values, uint32_t count, bool fallback,
                     ecs_entity *out)
{
	fallback = fallback || !f->ops->entity_create_batch;
	int want = model_expect_create_batch(&f->m, types, type_count, values, count, out != NULL);
	if (fallback && count == 0 && want == ECS_ERR_BAD_COMPONENT)
		want = ECS_OK;
	unsigned char *expected[ECS_CREATE_MAX_COMPONENTS] = {0};
	bool ok = true;
	if (want == ECS_OK && count > 0)
		for (uint32_t i = 0; i < type_count; i++)
			CHECK((expected[i] = copy_values(f, &values[i], types[i], count)) != NULL);
	int rc = fallback ? ecs_entity_create_batch_fallback(f->ops, f->s, types, type_count, values,
	                                                     count, out)
	                  : ecs_entity_create_batch(f->ops, f->s, types, type_count, values, count,
	                                            out);
	if ((want == ECS_OK || (fallback && want == ECS_ERR_BAD_COMPONENT)) && injected_oom(f, rc))
		goto done;
	if (rc != want) {
		check_failed(__FILE__, __LINE__, "entity_create_batch of %u entities with %u types%s "
		             "returned %s, expected %s", count, type_count, fallback ? " (fallback)" : "",
		             ecs_status_name(rc), ecs_status_name(want));
		ok = false;
		goto done;
	}
	for (uint32_t j = 0; want == ECS_OK && j < count && ok; j++) {
		ok = f->ops->entity_alive(f->s, out[j]) && model_created(&f->m, out[j]);
		if (!ok) {
			check_failed(__FILE__, __LINE__, "entity_create_batch gave %08x (entity %u of %u), "
			             "not a new live handle", out[j], j, count);
			break;
		}
		for (uint32_t i = 0; i < type_count; i++)
			model_added(&f->m, out[j], types[i],
			            expected[i] + (size_t)j * f->sizes[types[i]]);
	}
done:
	for (uint32_t i = 0; i < type_count; i++)
		free(expected[i]);
	return ok;
}

/*
 * component_add_batch (add true) or component_remove_batch, as op_create_batch: through the
 * fixture's ops or the fallback. Through the fallback, count 0 is ECS_OK whatever the type, and
 * a remove that fails half way for want of memory cannot be undone (ecs.h): the model then
 * takes what the storage says each entity has.
 */
static bool op_change_batch(struct fixture *f, const ecs_entity *entities, uint32_t count,
                            uint32_t type, const struct ecs_values *values, bool add,
                            bool fallback)
{
	fallback = fallback || (add ? !f->ops->component_add_batch : !f->ops->component_remove_batch);
	int want;
	if (count && (!entities || (add && (!values || !values->data))))
		want = ECS_ERR_INVALID;
	else
		want = model_expect_batch(&f->m, entities, count, type, !add);
	if (fallback && count == 0)
		want = ECS_OK;
	unsigned char *expected = NULL;
	if (add && want == ECS_OK && count)
		CHECK((expected = copy_values(f, values, type, count)) != NULL);
	int rc;
	if (add)
		rc = fallback ? ecs_component_add_batch_fallback(f->ops, f->s, entities, count, type,
		                                                 values)
		              : ecs_component_add_batch(f->ops, f->s, entities, count, type, values);
	else
		rc = fallback ? ecs_component_remove_batch_fallback(f->ops, f->s, entities, count, type)
		              : ecs_component_remove_batch(f->ops, f->s, entities, count, type);
	bool ok = true;
	if (want == ECS_OK && injected_oom(f, rc)) {
		if (!add && fallback) /* the removes before the failure stay done */
			for (uint32_t j = 0; j < count; j++)
				if (f->ops->component_has(f->s, entities[j], type) == 0)
					model_removed(&f->m, entities[j], type);
		goto done;
	}
	if (rc != want) {
		check_failed(__FILE__, __LINE__, "component_%s_batch of type %u on %u entities%s "
		             "returned %s, expected %s", add ? "add" : "remove", type, count,
		             fallback ? " (fallback)" : "", ecs_status_name(rc), ecs_status_name(want));
		ok = false;
		goto done;
	}
	for (uint32_t j = 0; want == ECS_OK && j < count; j++) {
		if (add)
			model_added(&f->m, entities[j], type, expected + (size_t)j * f->sizes[type]);
		else
			model_removed(&f->m, entities[j], type);
	}
done:
	free(expected);
	return ok;
}

bool op_add_batch(struct fixture *f, const ecs_entity *entities, uint32_t count, uint32_t type,
                  const struct ecs_values *values, bool fallback)
{
	return op_change_batch(f, entities, count, type, values, true, fallback);
}

bool op_remove_batch(struct fixture *f, const ecs_entity *entities, uint32_t count,
                     uint32_t type, bool fallback)
{
	return op_change_batch(f, entities, count, type, NULL, false, fallback);
}

/*
 * Values for a batch of count entities of type t: random bytes packed (stride = size), one
 * value for all (stride 0) or spaced wider than the size; or, natively (the fallback reads each
 * value after the operations before it, which may move it: ecs.h), one live entity's value of
 * a type at least as large, read through component_get (a pointer into the storage), for all.
 * buffer holds at least count * (size + 8) bytes.
 */
static void batch_values(struct fixture *f, uint32_t t, uint32_t count, bool fallback,
                         unsigned char *buffer, struct ecs_values *v)
{
	uint32_t size = t < f->m.component_count ? f->sizes[t] : 8, dice = below(f, 8);
	for (size_t b = 0; b < (size_t)count * (size + 8) + 8; b++)
		buffer[b] = (unsigned char)next_random(f);
	v->data = buffer;
	v->stride = dice < 4 ? size : dice < 5 ? 0 : size + 1 + below(f, 7);
	if (fallback || dice < 6 || t >= f->m.component_count || f->m.entity_count == 0)
		return;
	for (uint32_t k = 0, n = f->m.entity_count, start = below(f, n); k < n; k++) {
		struct model_entity *r = &f->m.entities[(start + k) % n];
		if (!r->alive || model_find(&f->m, r->handle) != r)
			continue;
		for (uint32_t u = 0; u < f->m.component_count; u++) {
			void *p;
			if (r->has[u] && f->sizes[u] >= size &&
			    f->ops->component_get(f->s, r->handle, u, &p) == ECS_OK) {
				v->data = p;
				v->stride = 0;
				return;
			}
		}
	}
}

#define BATCH_MOST 40u /* entities in a random batch */

/* A random create batch: 0..3 types (some_type: misuse now and then), 0..BATCH_MOST entities,
 * now and then no room for the handles. */
bool random_create_batch(struct fixture *f, bool fallback)
{
	fallback = fallback || !f->ops->entity_create_batch;
	uint32_t type_count = below(f, 4), types[3], count = below(f, 4) ? below(f, 9)
	                                                                 : below(f, BATCH_MOST + 1);
	static unsigned char buffers[3][BATCH_MOST * (ECS_MAX_COMPONENT_SIZE + 8) + 8];
	struct ecs_values values[3];
	for (uint32_t i = 0; i < type_count; i++) {
		types[i] = some_type(f);
		for (uint32_t j = 0; j < i && below(f, 10); j++) /* mostly distinct */
			if (types[j] == types[i])
				types[i] = (types[i] + 1) % (f->m.component_count + 1);
	}
	for (uint32_t i = 0; i < type_count; i++)
		batch_values(f, types[i], count, fallback, buffers[i], &values[i]);
	if (type_count && below(f, 40) == 0)
		values[below(f, type_count)].data = NULL;
	ecs_entity out[BATCH_MOST];
	return op_create_batch(f, types, type_count, type_count ? values : NULL, count, fallback,
	                       below(f, 50) ? out : NULL);
}

/*
 * A random add (add true) or remove batch of one type over up to BATCH_MOST live entities
 * that lack it (or have it), in the model's order from a random start; now and then one entry,
 * anywhere in the list, is misuse: a dead or never-created handle, a repeat, an entity that
 * has (lacks) the type; or the type is out of range. So batches fail half way, and nothing
 * may have changed.
 */
bool random_change_batch(struct fixture *f, bool add, bool fallback)
{
	return change_batch_of(f, some_type(f), ECS_NULL, add, fallback);
}

/* random_change_batch of a given type, `first` (unless ECS_NULL) first in the list whatever it
 * is: the fuzzer's, whose input gives the type and a handle. */
bool change_batch_of(struct fixture *f, uint32_t type, ecs_entity first, bool add, bool fallback)
{
	fallback = fallback || (add ? !f->ops->component_add_batch : !f->ops->component_remove_batch);
	uint32_t most = below(f, 4) ? below(f, 9) : below(f, BATCH_MOST + 1);
	ecs_entity list[BATCH_MOST + 2];
	uint32_t count = 0, n = f->m.entity_count;
	if (first != ECS_NULL)
		list[count++] = first;
	for (uint32_t k = 0, start = n ? below(f, n) : 0; k < n && count < most; k++) {
		struct model_entity *r = &f->m.entities[(start + k) % n];
		if (r->alive && model_find(&f->m, r->handle) == r && r->handle != first &&
		    (type >= f->m.component_count || (r->has[type] != 0) != add))
			list[count++] = r->handle;
	}
	if (below(f, 6) == 0) { /* misuse at a random place */
		uint32_t at = below(f, count + 1), dice = below(f, 4);
		ecs_entity bad = dice == 0 && count ? list[below(f, count)] /* a repeat */
		               : dice == 1 ? some_handle(f) : some_live(f);
		if (bad != ECS_NULL || dice == 1) {
			for (uint32_t j = count; j > at; j--)
				list[j] = list[j - 1];
			list[at] = bad;
			count++;
		}
	}
	if (!add)
		return op_remove_batch(f, list, count, type, fallback);
	static unsigned char buffer[(BATCH_MOST + 2) * (ECS_MAX_COMPONENT_SIZE + 8) + 8];
	struct ecs_values values;
	batch_values(f, type, count, fallback, buffer, &values);
	return op_add_batch(f, list, count, type, &values, fallback);
}
