/*
 * conformance.c: one suite, run against every backend in ecs_backends[] (a new backend is
 * tested by adding it to the table), through the interface only. Each test is reported as
 * test/backend[/profile]; the run ends with "N passed, N failed".
 *
 * usage: conformance [--ops N] [FILTER]   FILTER: run only tests whose name contains it
 *        ECSB_TEST_OPS=N also sets the random test's operation count (default 100000).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/alloc.h"
#include "check.h"
#include "model.h"

static const char *current_test;

void check_failed(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL %s: %s:%d: ", current_test, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

struct test_profile {
	const char *name;
	uint32_t component_count, system_count;
};

static const struct test_profile profile_a = {"A", 32, 16}, profile_aa = {"AA", 128, 32},
                                 profile_aaa = {"AAA", 512, 64};

static uint64_t random_ops = 100000;

/* --- fixture: a storage, its counting allocator and the model, side by side --------- */

struct fixture {
	const struct ecs_ops *ops;
	ecs_storage *s;
	struct counting_alloc counter;
	struct model m;
	uint32_t *sizes;
	uint64_t rng;
	bool allow_oom;   /* ECS_ERR_NO_MEMORY is accepted when the allocator failed on purpose */
	uint64_t oom_seen; /* operations that failed that way */
};

static uint64_t next_random(struct fixture *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

static uint32_t below(struct fixture *f, uint32_t n) { return (uint32_t)(next_random(f) % n); }

/* Component sizes that vary (1..64 bytes) so that strides are exercised. */
static uint32_t size_of_type(uint32_t t) { return 1 + (t * 7 + 3) % 64; }

static bool fixture_open(struct fixture *f, const struct ecs_ops *ops, uint32_t components,
                         uint32_t systems, uint64_t seed)
{
	memset(f, 0, sizeof *f);
	f->ops = ops;
	f->rng = seed * 2654435761u + 88172645463325252ull;
	f->sizes = malloc(components * sizeof *f->sizes);
	CHECK(f->sizes != NULL);
	for (uint32_t t = 0; t < components; t++)
		f->sizes[t] = size_of_type(t);
	struct ecs_allocator alloc = counting_alloc_init(&f->counter);
	struct ecs_config cfg = {components, systems, f->sizes};
	CHECK(model_init(&f->m, &cfg));
	CHECK_OK(ops->create(&cfg, &alloc, &f->s));
	return true;
}

/* Destroys the storage and checks that every byte came back, with the size it had. */
static bool fixture_close(struct fixture *f)
{
	if (f->s)
		f->ops->destroy(f->s);
	f->s = NULL;
	model_free(&f->m);
	free(f->sizes);
	f->sizes = NULL;
	CHECK_EQ(f->counter.size_errors, 0);
	CHECK_EQ(f->counter.live_bytes, 0);
	return true;
}

static bool injected_oom(struct fixture *f, int rc)
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
static bool op_create(struct fixture *f, ecs_entity *out)
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

static bool op_destroy(struct fixture *f, ecs_entity e)
{
	bool alive = model_alive(&f->m, e);
	CHECK_STATUS(f->ops->entity_destroy(f->s, e), alive ? ECS_OK : ECS_ERR_DEAD_ENTITY);
	if (alive)
		model_destroyed(&f->m, e);
	CHECK(!f->ops->entity_alive(f->s, e));
	return true;
}

static bool op_add(struct fixture *f, ecs_entity e, uint32_t t)
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

static bool op_remove(struct fixture *f, ecs_entity e, uint32_t t)
{
	int want = model_expect_remove(&f->m, e, t);
	CHECK_STATUS(f->ops->component_remove(f->s, e, t), want);
	if (want == ECS_OK)
		model_removed(&f->m, e, t);
	return true;
}

static bool op_get(struct fixture *f, ecs_entity e, uint32_t t, bool write)
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

static bool op_has(struct fixture *f, ecs_entity e, uint32_t t)
{
	CHECK_EQ(f->ops->component_has(f->s, e, t), model_expect_has(&f->m, e, t));
	return true;
}

static bool op_register(struct fixture *f, const uint32_t *types, uint32_t count)
{
	uint32_t id = UINT32_MAX;
	int rc = f->ops->system_register(f->s, types, count, &id);
	if (injected_oom(f, rc))
		return true;
	CHECK_OK(rc);
	CHECK_EQ(id, f->m.system_count);
	model_system(&f->m, types, count);
	return true;
}

static bool check_all(struct fixture *f) { return model_check(&f->m, f->ops, f->s); }

/* A random live handle (or ECS_NULL when none). */
static ecs_entity some_live(struct fixture *f)
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
static ecs_entity some_handle(struct fixture *f)
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
static uint32_t some_type(struct fixture *f)
{
	uint32_t dice = below(f, 100), n = f->m.component_count;
	if (dice < 70)
		return below(f, n < 6 ? n : 6);
	if (dice < 97)
		return below(f, n);
	return dice < 99 ? n + below(f, 3) : UINT32_MAX;
}

/* Systems over the first types, overlapping, plus one on a rare type. */
static bool register_systems(struct fixture *f, uint32_t count)
{
	for (uint32_t y = 0; y < count; y++) {
		uint32_t types[4], n = 1 + y % 3;
		for (uint32_t c = 0; c < n; c++)
			types[c] = (y + c * 2) % 6;
		if (y == count - 1 && f->m.component_count > 7) {
			types[0] = f->m.component_count - 1;
			n = 1;
		}
		TRY(op_register(f, types, n));
	}
	return true;
}

/* One random operation; a few percent are misuse. */
static bool random_op(struct fixture *f, uint32_t max_live)
{
	uint32_t dice = below(f, 100);
	ecs_entity e;
	if (dice < 14 && f->m.live < max_live)
		return op_create(f, &e);
	if (dice < 22)
		return op_destroy(f, some_handle(f));
	if (dice < 50)
		return op_add(f, some_handle(f), some_type(f));
	if (dice < 68)
		return op_remove(f, some_handle(f), some_type(f));
	if (dice < 84)
		return op_get(f, some_handle(f), some_type(f), dice & 1);
	if (dice < 96)
		return op_has(f, some_handle(f), some_type(f));
	e = some_handle(f);
	CHECK_EQ(f->ops->entity_alive(f->s, e), model_alive(&f->m, e));
	return true;
}

/* --- the tests -------------------------------------------------------------------------- */

static bool test_basic(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 1));
	uint32_t pv[] = {0, 1};
	TRY(op_register(&f, pv, 2));
	ecs_entity e[10];
	for (int i = 0; i < 10; i++) {
		TRY(op_create(&f, &e[i]));
		TRY(op_add(&f, e[i], 0));
		if (i % 2)
			TRY(op_add(&f, e[i], 1));
		TRY(op_add(&f, e[i], 5));
	}
	for (int i = 0; i < 10; i++) {
		TRY(op_has(&f, e[i], 1));
		TRY(op_get(&f, e[i], 0, true));
	}
	TRY(check_all(&f));
	TRY(op_remove(&f, e[3], 0));
	TRY(op_destroy(&f, e[4]));
	TRY(op_destroy(&f, e[9]));
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, 2, 2));
	uint32_t c = p->component_count;
	uint32_t types[] = {0, 1};
	TRY(op_register(&f, types, 2));
	ecs_entity a, b, dead;
	TRY(op_create(&f, &a));
	TRY(op_create(&f, &b));
	TRY(op_create(&f, &dead));
	TRY(op_add(&f, a, 0));
	TRY(op_add(&f, a, 1));
	TRY(op_add(&f, dead, 0));
	TRY(op_destroy(&f, dead));
	uint64_t bytes = f.counter.live_bytes;
	ecs_entity never = ecs_entity_make(ECS_MAX_ENTITIES - 5, 0);
	unsigned char v[64] = {0};
	void *ptr;
	uint32_t id;
	struct ecs_iter it;
	ecs_entity handles[] = {dead, never, ECS_NULL, ecs_entity_make(ecs_entity_index(a), 7)};
	for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
		ecs_entity h = handles[i];
		CHECK(!ops->entity_alive(f.s, h));
		CHECK_STATUS(ops->entity_destroy(f.s, h), ECS_ERR_DEAD_ENTITY);
		CHECK_STATUS(ops->component_add(f.s, h, 0, v), ECS_ERR_DEAD_ENTITY);
		CHECK_STATUS(ops->component_remove(f.s, h, 0), ECS_ERR_DEAD_ENTITY);
		CHECK_STATUS(ops->component_get(f.s, h, 0, &ptr), ECS_ERR_DEAD_ENTITY);
		CHECK_STATUS(ops->component_has(f.s, h, 0), ECS_ERR_DEAD_ENTITY);
		/* a dead handle is reported before a bad component */
		CHECK_STATUS(ops->component_add(f.s, h, c, v), ECS_ERR_DEAD_ENTITY);
	}
	/* component ids outside the profile */
	uint32_t bad_types[] = {c, c + 1, UINT32_MAX};
	for (size_t i = 0; i < 3; i++) {
		uint32_t t = bad_types[i];
		CHECK_STATUS(ops->component_add(f.s, a, t, v), ECS_ERR_BAD_COMPONENT);
		CHECK_STATUS(ops->component_remove(f.s, a, t), ECS_ERR_BAD_COMPONENT);
		CHECK_STATUS(ops->component_get(f.s, a, t, &ptr), ECS_ERR_BAD_COMPONENT);
		CHECK_STATUS(ops->component_has(f.s, a, t), ECS_ERR_BAD_COMPONENT);
	}
	/* components the entity lacks, or has */
	CHECK_STATUS(ops->component_remove(f.s, b, 0), ECS_ERR_NO_COMPONENT);
	CHECK_STATUS(ops->component_get(f.s, b, 3, &ptr), ECS_ERR_NO_COMPONENT);
	CHECK_STATUS(ops->component_add(f.s, a, 0, v), ECS_ERR_HAS_COMPONENT);
	/* systems */
	CHECK_STATUS(ops->system_iter_begin(f.s, 1, &it), ECS_ERR_BAD_SYSTEM);
	CHECK_STATUS(ops->system_iter_begin(f.s, UINT32_MAX, &it), ECS_ERR_BAD_SYSTEM);
	uint32_t dup[] = {2, 2}, out_of_range[] = {1, c}, nine[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
	CHECK_STATUS(ops->system_register(f.s, dup, 2, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, out_of_range, 2, &id), ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ops->system_register(f.s, types, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, nine, 9, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, NULL, 1, &id), ECS_ERR_INVALID);
	/* NULL arguments */
	CHECK_STATUS(ops->component_add(f.s, a, 2, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ops->component_get(f.s, a, 0, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ops->entity_create(f.s, NULL), ECS_ERR_INVALID);
	CHECK_EQ(f.counter.live_bytes, bytes); /* nothing allocated or freed by misuse */
	TRY(check_all(&f));
	/* the system table is full after system_count registrations */
	uint32_t three[] = {3};
	TRY(op_register(&f, three, 1));
	CHECK_STATUS(ops->system_register(f.s, three, 1, &id), ECS_ERR_BAD_SYSTEM);
	TRY(check_all(&f));
	/* bad configurations */
	struct ecs_allocator alloc = counting_alloc_init(&(struct counting_alloc){0});
	ecs_storage *s2;
	uint32_t zero_size[2] = {8, 0};
	struct ecs_config bad[] = {
		{0, 1, f.sizes},
		{1, 0, f.sizes},
		{2, 1, zero_size},
		{ECS_MAX_COMPONENT_TYPES + 1, 1, f.sizes},
		{1, 1, NULL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_STATUS(ops->create(&bad[i], &alloc, &s2), ECS_ERR_INVALID);
	return fixture_close(&f);
}

/* Seed 002's zombies: a destroyed entity's index is reused, and its old handle stays dead. */
static bool test_generations(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, 1, 3));
	uint32_t types[] = {0};
	TRY(op_register(&f, types, 1));
	ecs_entity keep, e, again;
	TRY(op_create(&f, &keep));
	TRY(op_add(&f, keep, 0));
	TRY(op_create(&f, &e));
	TRY(op_add(&f, e, 0));
	TRY(op_add(&f, e, 1));
	TRY(op_destroy(&f, e));
	TRY(op_create(&f, &again));
	CHECK_EQ(ecs_entity_index(again), ecs_entity_index(e)); /* the index is reused */
	CHECK(again != e);
	TRY(op_add(&f, again, 0));
	/* the stale handle is dead to every operation, and touches nothing of the new one */
	TRY(op_destroy(&f, e));
	TRY(op_add(&f, e, 2));
	TRY(op_remove(&f, e, 0));
	TRY(op_get(&f, e, 0, false));
	TRY(op_has(&f, e, 0));
	TRY(check_all(&f));
	/* many reuses of one index: every handle of the last 1023 generations stays dead */
	TRY(op_destroy(&f, again));
	ecs_entity old[1100];
	for (int i = 0; i < 1100; i++) {
		ecs_entity x;
		TRY(op_create(&f, &x));
		CHECK_EQ(ecs_entity_index(x), ecs_entity_index(e));
		old[i] = x;
		TRY(op_add(&f, x, 0));
		TRY(op_destroy(&f, x));
	}
	for (int i = 1100 - 1023; i < 1100; i++)
		CHECK(!ops->entity_alive(f.s, old[i]));
	CHECK(!ops->entity_alive(f.s, again));
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* Systems see exactly the matching entities, whatever the order of registration, adds,
 * removes and destroys. */
static bool test_systems(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 4));
	ecs_entity e[300];
	for (int i = 0; i < 300; i++) {
		TRY(op_create(&f, &e[i]));
		for (uint32_t t = 0; t < 4; t++)
			if ((i >> t) & 1)
				TRY(op_add(&f, e[i], t));
	}
	TRY(register_systems(&f, 4)); /* registered after the entities exist */
	TRY(check_all(&f));
	for (int i = 0; i < 300; i += 3)
		TRY(op_remove(&f, e[i], (uint32_t)i % 4));
	for (int i = 1; i < 300; i += 7)
		TRY(op_destroy(&f, e[i]));
	TRY(register_systems(&f, 3));
	for (int i = 0; i < 300; i += 5)
		TRY(op_add(&f, e[i], 4));
	TRY(check_all(&f));
	for (int i = 0; i < 300; i++)
		TRY(op_destroy(&f, e[i]));
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* At least 100,000 random operations (misuse included), checked against the model: the
 * result of every operation, and the whole state every 500 operations and at the end. */
static bool test_random(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 5));
	TRY(register_systems(&f, p->system_count / 2));
	for (uint64_t i = 0; i < random_ops; i++) {
		TRY(random_op(&f, 400));
		if (i % 500 == 499)
			TRY(check_all(&f));
		if (i == random_ops / 2)
			TRY(register_systems(&f, p->system_count - p->system_count / 2));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* Out of memory at every allocation of a scenario: the failing operation reports it and
 * changes nothing, the storage keeps working, and destroy frees every byte. */
static bool oom_scenario(struct fixture *f)
{
	TRY(register_systems(f, 3));
	for (int i = 0; i < 300; i++) {
		TRY(random_op(f, 60));
		if (f->oom_seen && f->counter.failures == 0 && f->counter.fail_at == 0) {
			TRY(check_all(f)); /* right after the failure: nothing changed */
			f->oom_seen = 0;
			f->allow_oom = false;
		}
	}
	TRY(register_systems(f, 2));
	TRY(check_all(f));
	return true;
}

static bool test_alloc_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	/* First count the allocations of the scenario. */
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 6));
	uint64_t before = f.counter.allocations;
	TRY(oom_scenario(&f));
	uint64_t total = f.counter.allocations - before;
	TRY(fixture_close(&f));
	uint64_t failed = 0;
	for (uint64_t n = 1; n <= total; n++) {
		TRY(fixture_open(&f, ops, p->component_count, p->system_count, 6));
		f.allow_oom = true;
		f.counter.fail_at = n;
		TRY(oom_scenario(&f));
		failed += f.counter.failures == 0 && f.counter.fail_at == 0;
		TRY(fixture_close(&f));
	}
	CHECK(failed > 0);
	return true;
}

/* Two storages live side by side without touching each other. */
static bool test_side_by_side(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture a, b;
	TRY(fixture_open(&a, ops, p->component_count, p->system_count, 7));
	TRY(fixture_open(&b, ops, p->component_count, p->system_count, 8));
	TRY(register_systems(&a, 3));
	TRY(register_systems(&b, 2));
	for (int i = 0; i < 3000; i++) {
		TRY(random_op(&a, 100));
		TRY(random_op(&b, 100));
	}
	TRY(check_all(&a));
	TRY(check_all(&b));
	TRY(fixture_close(&a));
	return fixture_close(&b);
}

/* ECS_MAX_ENTITIES alive at once, then ECS_ERR_FULL, and nothing lost. */
static bool test_capacity(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, 1, 9));
	ecs_entity e = ECS_NULL, first = ECS_NULL;
	for (uint32_t i = 0; i < ECS_MAX_ENTITIES; i++) {
		CHECK_OK(ops->entity_create(f.s, &e));
		if (i == 0)
			first = e;
	}
	CHECK_STATUS(ops->entity_create(f.s, &e), ECS_ERR_FULL);
	CHECK(ops->entity_alive(f.s, e) && ops->entity_alive(f.s, first));
	unsigned char v[64] = {1};
	CHECK_OK(ops->component_add(f.s, e, 0, v));
	CHECK_OK(ops->entity_destroy(f.s, first));
	ecs_entity again;
	CHECK_OK(ops->entity_create(f.s, &again));
	CHECK_EQ(ecs_entity_index(again), ecs_entity_index(first));
	CHECK_STATUS(ops->entity_create(f.s, &e), ECS_ERR_FULL);
	return fixture_close(&f);
}

/* --- the runner ------------------------------------------------------------------------- */

struct test {
	const char *name;
	bool (*run)(const struct ecs_ops *, const struct test_profile *);
	const struct test_profile *profiles[3];
};

static const struct test tests[] = {
	{"basic", test_basic, {&profile_a, &profile_aaa}},
	{"misuse", test_misuse, {&profile_a, &profile_aaa}},
	{"generations", test_generations, {&profile_a}},
	{"systems", test_systems, {&profile_a, &profile_aa, &profile_aaa}},
	{"random", test_random, {&profile_a, &profile_aa, &profile_aaa}},
	{"alloc-failure", test_alloc_failure, {&profile_a}},
	{"side-by-side", test_side_by_side, {&profile_a}},
	{"capacity", test_capacity, {&profile_a}},
};

int main(int argc, char **argv)
{
	const char *filter = NULL, *env = getenv("ECSB_TEST_OPS");
	if (env)
		random_ops = strtoull(env, NULL, 10);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc)
			random_ops = strtoull(argv[++i], NULL, 10);
		else
			filter = argv[i];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	unsigned passed = 0, failed = 0;
	char name[128];
	for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
		for (size_t b = 0; b < ecs_backend_count; b++) {
			for (size_t p = 0; p < 3 && tests[t].profiles[p]; p++) {
				snprintf(name, sizeof name, "%s/%s/%s", tests[t].name, ecs_backends[b]->name,
				         tests[t].profiles[p]->name);
				if (filter && !strstr(name, filter))
					continue;
				current_test = name;
				if (tests[t].run(ecs_backends[b], tests[t].profiles[p])) {
					printf("ok   %s\n", name);
					passed++;
				} else {
					failed++;
				}
			}
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
