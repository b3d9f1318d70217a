/*
 * conformance.c: one suite, run against every backend in ecs_backends[] (a new backend is
 * tested by adding it to the table), through the interface only. Each test is reported as
 * test/backend[/profile]; the run ends with "N passed, N failed".
 *
 * usage: conformance [--ops N] [--scale N] [FILTER | -FILTER]...
 *        FILTER: run only tests whose name contains it; -FILTER: skip those.
 *        ECSB_TEST_OPS=N also sets the random test's operation count (default 100000);
 *        ECSB_TEST_SCALE=N (--scale N) runs the large model test N times (default 1: see
 *        "larger scales" below).
 */
#include <stdlib.h>
#include <string.h>

#include "../harness/core/alloc.h"
#include "check.h"
#include "ops.h"


struct test_profile {
	const char *name;
	uint32_t component_count, system_count;
};

static const struct test_profile profile_a = {"A", 32, 16}, profile_aa = {"AA", 128, 32},
                                 profile_aaa = {"AAA", 512, 64};

static uint64_t random_ops = 100000;

/* --- the tests -------------------------------------------------------------------------- */

static bool test_basic(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	CHECK_EQ(ops->version, ECS_INTERFACE_VERSION);
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
	uint32_t bad_dup[] = {c, c}, one[] = {1}, two_three[] = {2, 3}, also_one[] = {3, 1};
	uint32_t twice_four[] = {4, 5, 4}, nine_more[9] = {2, 3, 4, 5, 6, 7, 8, 9, 10};
	CHECK_STATUS(ops->system_register(f.s, dup, 2, NULL, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, out_of_range, 2, NULL, 0, &id),
	             ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ops->system_register(f.s, bad_dup, 2, NULL, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, types, 0, NULL, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, nine, 9, NULL, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, NULL, 1, NULL, 0, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, one, 1, NULL, 0, NULL), ECS_ERR_INVALID);
	/* exclusions: a type both required and excluded, repeated, out of range, too many */
	CHECK_STATUS(ops->system_register(f.s, one, 1, also_one, 2, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, one, 1, twice_four, 3, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, one, 1, out_of_range + 1, 1, &id),
	             ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ops->system_register(f.s, one, 1, bad_dup, 2, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, one, 1, nine_more, ECS_SYSTEM_MAX_EXCLUDED + 1, &id),
	             ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, one, 1, NULL, 2, &id), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_register(f.s, out_of_range, 2, two_three, 2, &id),
	             ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ops->system_register(f.s, two_three, 2, one, 1, NULL), ECS_ERR_INVALID);
	/* NULL arguments */
	CHECK_STATUS(ops->component_add(f.s, a, 2, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ops->component_get(f.s, a, 0, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ops->entity_create(f.s, NULL), ECS_ERR_INVALID);
	CHECK_EQ(f.counter.live_bytes, bytes); /* nothing allocated or freed by misuse */
	TRY(check_all(&f));
	/* the system table is full after system_count registrations */
	uint32_t three[] = {3};
	TRY(op_register(&f, three, 1));
	CHECK_STATUS(ops->system_register(f.s, three, 1, NULL, 0, &id), ECS_ERR_BAD_SYSTEM);
	CHECK_STATUS(ops->system_register(f.s, three, 1, one, 1, &id), ECS_ERR_BAD_SYSTEM);
	CHECK_STATUS(ops->system_register(f.s, three, 1, also_one, 2, &id), ECS_ERR_INVALID);
	TRY(check_all(&f));
	/* bad configurations */
	struct ecs_allocator alloc = counting_alloc_init(&(struct counting_alloc){0});
	ecs_storage *s2;
	uint32_t zero_size[2] = {8, 0};
	uint8_t bad_hint[2] = {ECS_STORAGE_TABLE, ECS_STORAGE_SPARSE + 1};
	struct ecs_config bad[] = {
		{0, 1, f.sizes, NULL},
		{1, 0, f.sizes, NULL},
		{2, 1, zero_size, NULL},
		{ECS_MAX_COMPONENT_TYPES + 1, 1, f.sizes, NULL},
		{1, 1, NULL, NULL},
		{2, 1, f.sizes, bad_hint},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_STATUS(ops->create(&bad[i], &alloc, &s2), ECS_ERR_INVALID);
	return fixture_close(&f);
}

/* Apichattakul's zombies: a destroyed entity's index is reused, and its old handle stays dead. */
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

/*
 * Values that come from the storage itself (ecs.h: "value may point into this storage"):
 * entities get five components, each copied from a component_get pointer: of the same type on
 * an earlier entity (in the family and sparse, the very pool the add grows; in archetype, often
 * a column of the destination table), a larger type's value (any column of the destination
 * table), or the entity's own other component (the source table). 300 entities pass every
 * growth point of the pools, tables and system lists up to 256; then components are removed
 * and added again from the storage, and new entities take the place of destroyed ones.
 */
static bool test_value_from_storage(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 10));
	TRY(register_systems(&f, 4));
	enum { N = 300, K = 5 };
	const uint32_t types[K] = {0, 1, 2, 3, p->component_count - 1};
	uint32_t big = types[0]; /* the largest: its value can stand for any of the others' */
	for (uint32_t c = 1; c < K; c++)
		if (f.sizes[types[c]] > f.sizes[big])
			big = types[c];
	ecs_entity e[N];
	TRY(op_create(&f, &e[0]));
	for (uint32_t c = 0; c < K; c++)
		TRY(op_add(&f, e[0], types[c]));
	for (uint32_t i = 1; i < N; i++) {
		TRY(op_create(&f, &e[i]));
		for (uint32_t c = 0; c < K; c++) {
			/* A rotating order: five chains of intermediate sets, one final set. */
			uint32_t t = types[(c + i) % K];
			switch ((c + i) % 4) {
			case 0: TRY(op_add_from(&f, e[i], t, e[below(&f, i)], t)); break;
			case 1: TRY(op_add_from(&f, e[i], t, e[i - 1], t)); break;
			case 2: TRY(op_add_from(&f, e[i], t, e[below(&f, i)], big)); break;
			default: /* the entity's own component added just before, if large enough */
				TRY(op_add_from(&f, e[i], t, c ? e[i] : e[i - 1], types[(c + i - 1) % K]));
			}
		}
		if (i % 50 == 0)
			TRY(check_all(&f));
	}
	TRY(check_all(&f));
	for (uint32_t i = 0; i < N; i += 2) {
		uint32_t t = types[i % K];
		TRY(op_remove(&f, e[i], t));
		TRY(op_add_from(&f, e[i], t, e[(i + 1) % N], t));
	}
	for (uint32_t i = 0; i < N; i += 3) {
		TRY(op_destroy(&f, e[i]));
		TRY(op_create(&f, &e[i]));
		for (uint32_t c = 0; c < K; c++)
			TRY(op_add_from(&f, e[i], types[c], e[(i + 1) % N], types[c]));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/*
 * The aliasing tests below use one set of types, chosen by size (size_of_type) so that any of
 * them can give its value to the added type: the base set {3, 8, 12, 20} (25, 60, 24 and 16
 * bytes), the added type 10 (10 bytes), which sorts after 3 and 8 and before 12 and 20 (in
 * archetype, a column before and after the added one's), and another set {12, 30} (30: 22
 * bytes) for a table or pools that neither the entity nor its destination use.
 */
enum { ALIAS_ADDED = 10, ALIAS_BASE_COUNT = 4 };
static const uint32_t alias_base[ALIAS_BASE_COUNT] = {3, 8, 12, 20};
static const uint32_t alias_other[2] = {12, 30};

/* n entities with the k types, each created whole before the next: in archetype, rows 0..n-1
 * of the set's table in that order; in the family and sparse, consecutive slots of each pool. */
static bool spawn_set(struct fixture *f, const uint32_t *types, uint32_t k, uint32_t n,
                      ecs_entity *out)
{
	for (uint32_t i = 0; i < n; i++) {
		TRY(op_create(f, &out[i]));
		for (uint32_t c = 0; c < k; c++)
			TRY(op_add(f, out[i], types[c]));
	}
	return true;
}

/* Systems that see the moves: one requires the added type, one excludes it. */
static bool alias_systems(struct fixture *f)
{
	static const uint32_t with_added[] = {8, ALIAS_ADDED}, base[] = {3}, added[] = {ALIAS_ADDED};
	TRY(op_register(f, with_added, 2));
	return op_register_excluding(f, base, 1, added, 1);
}

/*
 * component_add whose value comes from the storage, with the entity at every position of its
 * table (archetype) or pools: the first, middle and last of 5 rows, and the only one. The value
 * is read (component_get) from: the entity's own component of a type below the added one and
 * of one above it; another entity of the same table at its first, middle and last row; an
 * entity of the destination table (which holds the added type too); and one of another table.
 * The destination table is empty, holds 2 rows, or is full (16, so the add grows it). After the
 * add, check_all reads back every component of every entity against the model: the entity,
 * the source, and the neighbours (in archetype, the last row that fills the hole the entity
 * leaves). Then the added type is removed again (the move back) and everything read again.
 * Archetype filled the hole column by column before it read a value of a column before the
 * added one, and stored the last row's value: the case of the entity's own component below the
 * added type, the entity not the last row.
 */
static const char *const alias_source_name[6] = {
	"itself", "the first row", "the middle row", "the last row", "the destination table",
	"another table",
};

static bool add_aliasing_case(const struct ecs_ops *ops, const struct test_profile *p,
                              uint32_t rows, uint32_t row, uint32_t source, uint32_t from_type,
                              uint32_t dst_rows)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 17 + rows + row));
	TRY(alias_systems(&f));
	ecs_entity base[5], full[ALIAS_BASE_COUNT + 1], dst[16], other[2];
	for (uint32_t c = 0; c < ALIAS_BASE_COUNT; c++)
		full[c] = alias_base[c];
	full[ALIAS_BASE_COUNT] = ALIAS_ADDED;
	TRY(spawn_set(&f, alias_base, ALIAS_BASE_COUNT, rows, base));
	TRY(spawn_set(&f, full, ALIAS_BASE_COUNT + 1, dst_rows, dst));
	TRY(spawn_set(&f, alias_other, 2, 2, other));
	/* as alias_source_name: the entity, rows of its table, the last of the destination table
	 * (source 4 needs one), a row of the other table */
	ecs_entity e = base[row];
	const ecs_entity from[6] = {e, base[0], base[rows / 2], base[rows - 1],
	                            dst_rows ? dst[dst_rows - 1] : ECS_NULL, other[1]};
	TRY(op_add_from(&f, e, ALIAS_ADDED, from[source], from_type));
	TRY(check_all(&f));
	TRY(op_remove(&f, e, ALIAS_ADDED));
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_add_aliasing(const struct ecs_ops *ops, const struct test_profile *p)
{
	static const struct {
		uint32_t rows, row;
	} at[] = {{5, 0}, {5, 2}, {5, 4}, {1, 0}}; /* first, middle, last, the only one */
	static const uint32_t dst_rows[] = {0, 2, 16};
	for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
		for (uint32_t source = 0; source < 6; source++) {
			/* the types the source has: the base set, the destination's, the other set */
			uint32_t types[ALIAS_BASE_COUNT + 1], n = 0;
			if (source < 5)
				for (uint32_t c = 0; c < ALIAS_BASE_COUNT; c++)
					types[n++] = alias_base[c];
			if (source == 4)
				types[n++] = ALIAS_ADDED;
			if (source == 5)
				for (uint32_t c = 0; c < 2; c++)
					types[n++] = alias_other[c];
			for (uint32_t k = 0; k < n; k++)
				for (size_t d = 0; d < sizeof dst_rows / sizeof dst_rows[0]; d++) {
					if (source == 4 && dst_rows[d] == 0)
						continue;
					/* else op_add_from would add a random value instead */
					CHECK(size_of_type(types[k]) >= size_of_type(ALIAS_ADDED));
					if (!add_aliasing_case(ops, p, at[a].rows, at[a].row, source, types[k],
					                       dst_rows[d])) {
						printf("     (entity at row %u of %u; value from %s, type %u; %u rows "
						       "in the destination)\n", at[a].row, at[a].rows,
						       alias_source_name[source], types[k], dst_rows[d]);
						return false;
					}
				}
		}
	return true;
}

/* The ops without entity_create_with: ecs_entity_create_with then takes its fallback. */
static struct ecs_ops without_create_with(const struct ecs_ops *ops)
{
	struct ecs_ops plain = *ops;
	plain.entity_create_with = NULL;
	return plain;
}

/*
 * A value for type t from entity `from`: one of its components at least as large as t's (the
 * k-th such, cycling), none of the types in avoid[0..avoid_count); or `fallback` if there is
 * none.
 */
static const void *alias_value(struct fixture *f, ecs_entity from, uint32_t t, uint32_t k,
                               const uint32_t *avoid, uint32_t avoid_count, const void *fallback)
{
	uint32_t fits[ALIAS_BASE_COUNT + 2], n = 0;
	const uint32_t *types[2] = {alias_base, alias_other};
	const uint32_t counts[2] = {ALIAS_BASE_COUNT, 2};
	for (uint32_t set = 0; set < 2; set++)
		for (uint32_t c = 0; c < counts[set]; c++) {
			uint32_t u = types[set][c];
			bool avoided = false;
			for (uint32_t a = 0; a < avoid_count; a++)
				avoided |= avoid[a] == u;
			for (uint32_t j = 0; j < n; j++)
				avoided |= fits[j] == u;
			if (!avoided && f->sizes[u] >= f->sizes[t] &&
			    model_expect_remove(&f->m, from, u) == ECS_OK)
				fits[n++] = u;
		}
	if (n == 0)
		return fallback;
	void *p = NULL;
	if (f->ops->component_get(f->s, from, fits[k % n], &p) != ECS_OK)
		return NULL; /* op_create_with refuses it: the test fails there */
	return p;
}

/*
 * entity_create_with whose values point into the storage: into the table (archetype) or the
 * pools the new entity lands in, at their first, middle and last row, and into another table;
 * each of the value's own type or of another at least as large. 40 entities of one set, so that
 * the table and the pools fill up and grow (at 16 and 32 rows) under the values. The list comes
 * in four orders, each twice in a row (archetype: a lookup, then the remembered list). After
 * each, check_all reads back every component of every entity against the model. Natively the
 * values may be of any type; through the fallback, within its limit (ecs.h): none of a type
 * that the list gives before it.
 */
static bool create_with_aliasing(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 18));
	TRY(alias_systems(&f));
	enum { N = 40 };
	ecs_entity e[N + 1], other[2];
	TRY(spawn_set(&f, alias_base, ALIAS_BASE_COUNT, 1, e));
	TRY(spawn_set(&f, alias_other, 2, 2, other));
	bool fallback = ops->entity_create_with == NULL;
	unsigned char random[64] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
	for (uint32_t n = 1; n <= N; n++) {
		uint32_t types[ALIAS_BASE_COUNT];
		const void *values[ALIAS_BASE_COUNT];
		for (uint32_t c = 0; c < ALIAS_BASE_COUNT; c++)
			types[c] = alias_base[(c + n / 2) % ALIAS_BASE_COUNT];
		for (uint32_t c = 0; c < ALIAS_BASE_COUNT; c++) {
			/* the first, middle or last of the n rows of the set, or the other set */
			uint32_t which = (n + c) % 4;
			ecs_entity from = which == 3 ? other[(n + c) % 2]
			                             : e[which == 0 ? 0 : which == 1 ? (n - 1) / 2 : n - 1];
			values[c] = alias_value(&f, from, types[c], n * 3 + c, types, fallback ? c : 0,
			                        random);
		}
		TRY(op_create_with(&f, types, ALIAS_BASE_COUNT, values, &e[n]));
		TRY(check_all(&f));
	}
	return fixture_close(&f);
}

static bool test_create_with_aliasing(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_create_with(ops);
	TRY(create_with_aliasing(ops, p));
	return create_with_aliasing(&plain, p);
}

/* create_with of the types in `types` (count of them), values from `from` where it has the
 * type, else random. */
static bool create_from(struct fixture *f, const uint32_t *types, uint32_t count,
                        ecs_entity from, ecs_entity *out)
{
	const void *values[ECS_CREATE_MAX_COMPONENTS];
	unsigned char random[ECS_CREATE_MAX_COMPONENTS][64];
	for (uint32_t i = 0; i < count; i++) {
		void *p;
		for (uint32_t b = 0; b < sizeof random[i]; b++)
			random[i][b] = (unsigned char)next_random(f);
		values[i] = random[i];
		if (from != ECS_NULL && model_expect_remove(&f->m, from, types[i]) == ECS_OK) {
			CHECK_OK(f->ops->component_get(f->s, from, types[i], &p));
			values[i] = p;
		}
	}
	return op_create_with(f, types, count, values, out);
}

/*
 * entity_create_with against the model, natively and through the fallback: sets of 0 to 7
 * types in every rotation (so the same set arrives in different orders), with the high types
 * of wide profiles, values random or copied from an entity of the storage (often of the very
 * set, so its table or pools grow under the values); systems registered before and after;
 * destroyed indices reused; all 32 types of profile A at once.
 */
static bool create_with_semantics(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 11));
	TRY(register_systems(&f, 3));
	const uint32_t pool[7] = {0, 1, 2, 3, 5, p->component_count - 2, p->component_count - 1};
	enum { N = 200 };
	ecs_entity e[N];
	for (uint32_t i = 0; i < N; i++) {
		uint32_t k = i % 8, types[7];
		for (uint32_t c = 0; c < k; c++)
			types[c] = pool[(c + i / 8) % 7];
		TRY(create_from(&f, types, k, i >= 8 ? e[i - 8] : ECS_NULL, &e[i]));
		CHECK(e[i] != ECS_NULL);
		if (i == N / 2) {
			TRY(register_systems(&f, 2));
			TRY(check_all(&f));
		}
	}
	TRY(check_all(&f));
	for (uint32_t i = 0; i < N; i += 3)
		TRY(op_destroy(&f, e[i]));
	for (uint32_t i = 0; i < N; i += 3) { /* into the destroyed indices */
		uint32_t types[3] = {pool[i % 7], pool[(i + 3) % 7], pool[(i + 5) % 7]};
		TRY(create_from(&f, types, 3, e[(i + 1) % N], &e[i]));
	}
	TRY(check_all(&f));
	if (p->component_count <= ECS_CREATE_MAX_COMPONENTS) {
		uint32_t all[ECS_CREATE_MAX_COMPONENTS];
		for (uint32_t t = 0; t < p->component_count; t++)
			all[t] = p->component_count - 1 - t;
		ecs_entity x;
		TRY(create_from(&f, all, p->component_count, ECS_NULL, &x));
		TRY(create_from(&f, all, p->component_count, x, &x));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_create_with(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_create_with(ops);
	CHECK(ops->entity_create_with != NULL); /* every backend here has its own */
	TRY(create_with_semantics(ops, p));
	return create_with_semantics(&plain, p);
}

/* Misuse of entity_create_with: each error in ecs.h's order, nothing created, no byte
 * allocated or freed (natively), and count 0 with NULL lists is a plain create. */
static bool create_with_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, 2, 12));
	uint32_t c = p->component_count;
	ecs_entity a, out = ECS_NULL;
	TRY(op_create(&f, &a));
	TRY(op_add(&f, a, 0));
	unsigned char v[64] = {7};
	const void *vals[ECS_CREATE_MAX_COMPONENTS + 1];
	uint32_t many[ECS_CREATE_MAX_COMPONENTS + 1];
	for (uint32_t i = 0; i <= ECS_CREATE_MAX_COMPONENTS; i++) {
		vals[i] = v;
		many[i] = i;
	}
	const void *with_null[] = {v, NULL};
	uint32_t ok2[] = {1, 2}, dup[] = {1, 1}, bad[] = {1, c}, bad_dup[] = {c, c},
	         bad_then_dup[] = {c, 2, 2}, max_id[] = {UINT32_MAX};
	uint64_t bytes = f.counter.live_bytes, allocations = f.counter.allocations;
	bool native = ops->entity_create_with != NULL;
	CHECK_STATUS(ecs_entity_create_with(ops, NULL, ok2, 2, vals, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, ok2, 2, vals, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, NULL, 2, vals, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, ok2, 2, NULL, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, ok2, 2, with_null, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, dup, 2, vals, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, bad_dup, 2, vals, &out), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, bad_then_dup, 3, vals, &out),
	             ECS_ERR_INVALID);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, many, ECS_CREATE_MAX_COMPONENTS + 1, vals,
	                                    &out), ECS_ERR_INVALID);
	CHECK_EQ(f.counter.live_bytes, bytes);
	CHECK_EQ(f.counter.allocations, allocations);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, bad, 2, vals, &out), ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ecs_entity_create_with(ops, f.s, max_id, 1, vals, &out),
	             ECS_ERR_BAD_COMPONENT);
	CHECK_EQ(out, ECS_NULL); /* nothing written on error */
	if (native) {
		CHECK_EQ(f.counter.live_bytes, bytes);
		CHECK_EQ(f.counter.allocations, allocations);
	}
	TRY(check_all(&f));
	ecs_entity x;
	TRY(op_create_with(&f, NULL, 0, NULL, &x));
	CHECK(x != ECS_NULL);
	TRY(op_add(&f, x, 1));
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_create_with_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_create_with(ops);
	TRY(create_with_misuse(ops, p));
	return create_with_misuse(&plain, p);
}

/*
 * entity_create_with with kinds interleaved, as a game spawns them: many lists in rotation
 * (more than archetype's create cache holds in one of its sets, so entries are evicted and
 * filled again), the same set in several orders (each order's values must land in their own
 * types), lists of 1 to 8 types (archetype keys up to 4 exactly and hashes longer ones), and
 * misuse of a list that was just created with: a NULL value, and type ids too large that
 * would alias it if the bits of archetype's exact key were not checked.
 */
static bool test_create_with_interleaved(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 23));
	TRY(register_systems(&f, 4));
	enum { LISTS = 48 };
	uint32_t lists[LISTS][8], counts[LISTS];
	for (uint32_t l = 0; l < LISTS; l++) {
		counts[l] = 1 + l % 8;
		for (uint32_t i = 0; i < counts[l]; i++) /* rotations of 0..7, and of the high types */
			lists[l][i] = l % 3 == 2 ? p->component_count - 1 - (i + l / 8) % counts[l]
			                         : (i + l / 8) % counts[l];
	}
	for (uint32_t round = 0; round < 4; round++) {
		for (uint32_t l = 0; l < LISTS; l++) {
			ecs_entity e;
			TRY(create_from(&f, lists[l], counts[l], ECS_NULL, &e));
			if (round == 3 && l % 5 == 0)
				TRY(op_destroy(&f, e)); /* recycled indices for the next */
		}
		TRY(check_all(&f));
	}
	unsigned char v[64] = {9};
	const void *values[2] = {v, v};
	/* alias25: {0, 1} with the count's bit of archetype's exact key (2 << 24) set again */
	uint32_t pair[2] = {0, 1}, alias12[2] = {0, 1 + 4096}, alias25[2] = {0, 1 + (2u << 24)};
	ecs_entity x = ECS_NULL;
	for (uint32_t i = 0; i < 4; i++) { /* a table may be full once: no hit then, but not always */
		TRY(create_from(&f, pair, 2, ECS_NULL, &x));
		values[1] = NULL;
		CHECK_STATUS(ops->entity_create_with(f.s, pair, 2, values, &x), ECS_ERR_INVALID);
		values[1] = v;
		CHECK_STATUS(ops->entity_create_with(f.s, alias12, 2, values, &x), ECS_ERR_BAD_COMPONENT);
		CHECK_STATUS(ops->entity_create_with(f.s, alias25, 2, values, &x), ECS_ERR_BAD_COMPONENT);
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/*
 * Archetype's entity_create_with places the entity straight into the table of its final set:
 * the first entity of a new set of k = 12 types costs that one table (its column list, its k
 * columns, its entity handles and its map of types to columns: k + 3 blocks) and the records,
 * and nothing for the k - 1 intermediate sets that k adds pass through (each a table of its
 * own, with its columns and its edges: about 90 blocks more here, measured below through the
 * fallback). A second entity
 * of the set, with room in the table, allocates nothing: one row written.
 */
static bool test_create_with_direct(const struct ecs_ops *ops, const struct test_profile *p)
{
	enum { K = 12 };
	uint32_t types[K];
	const void *values[K];
	unsigned char v[64] = {3};
	for (uint32_t i = 0; i < K; i++) {
		types[i] = (i * 5) % p->component_count; /* not in order */
		values[i] = v;
	}
	struct ecs_ops plain = without_create_with(ops);
	const struct ecs_ops *variant[2] = {ops, &plain};
	uint64_t blocks[2];
	for (int k = 0; k < 2; k++) {
		struct fixture f;
		TRY(fixture_open(&f, variant[k], p->component_count, p->system_count, 13));
		TRY(register_systems(&f, 3));
		ecs_entity e;
		uint64_t before = f.counter.allocations;
		TRY(op_create_with(&f, types, K, values, &e));
		blocks[k] = f.counter.allocations - before;
		if (k == 0) {
			before = f.counter.allocations;
			TRY(op_create_with(&f, types, K, values, &e));
			CHECK_EQ(f.counter.allocations - before, 0);
		}
		TRY(check_all(&f));
		TRY(fixture_close(&f));
	}
	/* the table (k + 3), the records, the matches of a system or two; no other table */
	CHECK(blocks[0] <= K + 3 + 1 + 2);
	CHECK(blocks[1] >= blocks[0] + 3 * (K - 1)); /* each intermediate table: 3 blocks or more */
	printf("note %s: first entity of a %u-type set: %llu allocations (k adds: %llu)\n",
	       runner_test(), K, (unsigned long long)blocks[0], (unsigned long long)blocks[1]);
	return true;
}

/*
 * What every reserve test runs after its reserve: N entities, most with two or three
 * components (by adds or in one call), a third destroyed and created again (the free list),
 * the handles kept in order.
 */
enum { RESERVE_N = 600 };

static bool reserve_scenario(struct fixture *f, ecs_entity *handles)
{
	static const uint32_t pair[] = {0, 1}, three[] = {2, 1, 0};
	for (uint32_t i = 0; i < RESERVE_N; i++) {
		if (i % 3 == 2) {
			TRY(create_from(f, i % 2 ? pair : three, i % 2 ? 2 : 3, ECS_NULL, &handles[i]));
			continue;
		}
		TRY(op_create(f, &handles[i]));
		TRY(op_add(f, handles[i], 0));
		if (i % 3)
			TRY(op_add(f, handles[i], 1));
	}
	for (uint32_t i = 0; i < RESERVE_N; i += 3)
		TRY(op_destroy(f, handles[i]));
	for (uint32_t i = 0; i < RESERVE_N; i += 3) {
		TRY(op_create(f, &handles[i]));
		TRY(op_add(f, handles[i], 2));
	}
	return check_all(f);
}

/*
 * reserve(N) before N entities changes nothing they can see: the same handles, components and
 * systems as without it, and no more allocation calls. reserve(0) and a reserve below what is
 * used change nothing at all; a NULL storage is ECS_ERR_INVALID.
 */
static bool test_reserve(const struct ecs_ops *ops, const struct test_profile *p)
{
	static ecs_entity handles[3][RESERVE_N];
	const uint32_t reserves[3] = {UINT32_MAX /* none */, RESERVE_N, 0};
	uint64_t allocations[3];
	for (int r = 0; r < 3; r++) {
		struct fixture f;
		TRY(fixture_open(&f, ops, p->component_count, p->system_count, 14));
		TRY(register_systems(&f, 3));
		uint64_t bytes = f.counter.live_bytes, calls = f.counter.allocations;
		if (reserves[r] != UINT32_MAX)
			CHECK_OK(ecs_reserve(ops, f.s, reserves[r]));
		if (reserves[r] == 0) {
			CHECK_EQ(f.counter.live_bytes, bytes);
			CHECK_EQ(f.counter.allocations, calls);
		}
		uint64_t before = f.counter.allocations;
		TRY(reserve_scenario(&f, handles[r]));
		allocations[r] = f.counter.allocations - before;
		bytes = f.counter.live_bytes;
		calls = f.counter.allocations;
		CHECK_OK(ecs_reserve(ops, f.s, RESERVE_N / 2)); /* below what is used */
		CHECK_EQ(f.counter.live_bytes, bytes);
		CHECK_EQ(f.counter.allocations, calls);
		TRY(check_all(&f));
		TRY(fixture_close(&f));
	}
	for (int r = 1; r < 3; r++)
		for (uint32_t i = 0; i < RESERVE_N; i++)
			CHECK_EQ(handles[r][i], handles[0][i]);
	CHECK(allocations[1] <= allocations[0]);
	CHECK_EQ(allocations[2], allocations[0]);
	if (ops->reserve)
		CHECK_STATUS(ops->reserve(NULL, 10), ECS_ERR_INVALID);
	printf("note %s: %llu allocation calls for the scenario, %llu after reserve(%u)\n",
	       runner_test(), (unsigned long long)allocations[0], (unsigned long long)allocations[1],
	       (unsigned)RESERVE_N);
	return true;
}

/* reserve(ECS_MAX_ENTITIES), and beyond (clamped to it): room for the largest storage, which
 * then works as usual and frees it all. */
static bool test_reserve_max(const struct ecs_ops *ops, const struct test_profile *p)
{
	static ecs_entity handles[RESERVE_N];
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 15));
	TRY(register_systems(&f, 3));
	CHECK_OK(ecs_reserve(ops, f.s, ECS_MAX_ENTITIES));
	uint64_t bytes = f.counter.live_bytes;
	CHECK_OK(ecs_reserve(ops, f.s, UINT32_MAX));
	CHECK_EQ(f.counter.live_bytes, bytes); /* nothing more: already room for the most */
	TRY(reserve_scenario(&f, handles));
	return fixture_close(&f);
}

/* reserve with allocation failure at each of its allocations: ECS_ERR_NO_MEMORY, the
 * entities as they were, and the storage goes on working (and frees every byte). */
static bool test_reserve_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	static ecs_entity handles[RESERVE_N];
	uint64_t failed = 0;
	for (uint64_t n = 1;; n++) {
		struct fixture f;
		TRY(fixture_open(&f, ops, p->component_count, p->system_count, 16));
		TRY(register_systems(&f, 2));
		ecs_entity e;
		for (int i = 0; i < 40; i++)
			TRY(random_op(&f, 30));
		TRY(op_create(&f, &e));
		TRY(op_add(&f, e, 1));
		f.counter.fail_at = n;
		int rc = ecs_reserve(ops, f.s, 100000);
		bool done = f.counter.failures == 0;
		f.counter.fail_at = 0;
		if (done) {
			CHECK_OK(rc);
		} else {
			CHECK_STATUS(rc, ECS_ERR_NO_MEMORY);
			failed++;
		}
		TRY(check_all(&f));
		TRY(op_destroy(&f, e));
		TRY(reserve_scenario(&f, handles));
		TRY(fixture_close(&f));
		if (done)
			break;
	}
	CHECK(failed > 0 || !ops->reserve);
	printf("note %s: %llu allocation failure points, each survived\n", runner_test(),
	       (unsigned long long)failed);
	return true;
}

/*
 * Systems that exclude types: an entity matches when it has every required type and
 * none of the excluded ones. Systems with one to three excluded types, some excluding a type in
 * an earlier bitset word than any they require (the profile's last type is in the last word),
 * registered before and after the entities; entities that gain and lose excluded types, one at
 * a time and by create_with, and are destroyed. The model checks every system's iteration.
 */
static bool test_exclusions(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 17));
	const uint32_t last = p->component_count - 1;
	const uint32_t set[7] = {0, 1, 2, 3, 4, 5, last};
	const uint32_t r0[] = {0}, x0[] = {1}, r1[] = {0, 2}, x1[] = {1, 3}, r2[] = {last},
	               x2[] = {0, 4, 5}, r3[] = {2}, x3[] = {last}, r4[] = {3}, x4[] = {2, 5},
	               r5[] = {1, last}, x5[] = {0}, r6[] = {4, 5, 0}, x6[] = {last, 2, 1};
	TRY(op_register_excluding(&f, r0, 1, x0, 1));
	TRY(op_register_excluding(&f, r1, 2, x1, 2));
	TRY(op_register_excluding(&f, r2, 1, x2, 3));
	TRY(op_register_excluding(&f, r3, 1, x3, 1));
	enum { N = 256 };
	ecs_entity e[N];
	for (uint32_t i = 0; i < N; i++) { /* every subset of the seven types, twice */
		TRY(op_create(&f, &e[i]));
		for (uint32_t b = 0; b < 7; b++)
			if ((i >> b) & 1)
				TRY(op_add(&f, e[i], set[b]));
	}
	TRY(check_all(&f));
	/* registered with the entities there */
	TRY(op_register_excluding(&f, r4, 1, x4, 2));
	TRY(op_register_excluding(&f, r5, 2, x5, 1));
	TRY(op_register_excluding(&f, r6, 3, x6, 3));
	TRY(check_all(&f));
	/* gaining and losing excluded types */
	for (uint32_t round = 0; round < 3; round++) {
		for (uint32_t i = round; i < N; i += 2) {
			uint32_t t = set[(i + round) % 7];
			if (model_expect_has(&f.m, e[i], t) == 1)
				TRY(op_remove(&f, e[i], t));
			else
				TRY(op_add(&f, e[i], t));
		}
		TRY(check_all(&f));
	}
	for (uint32_t i = 0; i < N; i += 5)
		TRY(op_destroy(&f, e[i]));
	TRY(check_all(&f));
	for (uint32_t i = 0; i < N; i += 5) { /* created with excluded types from the start */
		uint32_t types[7], k = 0;
		for (uint32_t b = 0; b < 7; b++)
			if (((i * 37) >> b) & 1)
				types[k++] = set[b];
		TRY(create_from(&f, types, k, e[(i + 1) % N], &e[i]));
	}
	TRY(check_all(&f));
	for (uint32_t i = 0; i < N; i++)
		if (i % 3)
			TRY(op_destroy(&f, e[i]));
	TRY(check_all(&f));
	return fixture_close(&f);
}

/*
 * Sparse keeps its column batches when the excluded pools hold none of the run: entities with
 * types 0 and 2 in step, a system requiring them and excluding 1 and 3; 1's pool holds other
 * entities only, 3's none: one batch, all columns. Once some of the run get type 1 the run is
 * cut there, and those entities are skipped.
 */
static bool test_exclusion_columns(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 18));
	const uint32_t required[] = {0, 2}, excluded[] = {1, 3};
	TRY(op_register_excluding(&f, required, 2, excluded, 2));
	ecs_entity e[1000], other;
	for (int i = 0; i < 1000; i++) {
		TRY(op_create(&f, &e[i]));
		TRY(op_add(&f, e[i], 0));
		TRY(op_add(&f, e[i], 2));
	}
	for (int i = 0; i < 3; i++) {
		TRY(op_create(&f, &other));
		TRY(op_add(&f, other, 1));
	}
	struct ecs_iter it;
	struct ecs_batch b;
	CHECK_OK(ops->system_iter_begin(f.s, 0, &it));
	CHECK(ops->system_iter_next(&it, &b));
	CHECK_EQ(b.count, 1000);
	CHECK(b.columns[0] != NULL && b.columns[1] != NULL);
	CHECK(!ops->system_iter_next(&it, &b));
	TRY(op_add(&f, e[600], 1));
	TRY(op_add(&f, e[601], 1));
	CHECK_OK(ops->system_iter_begin(f.s, 0, &it));
	CHECK(ops->system_iter_next(&it, &b));
	CHECK_EQ(b.count, 600);
	CHECK(b.columns[0] != NULL && b.columns[1] != NULL);
	CHECK(ops->system_iter_next(&it, &b));
	CHECK_EQ(b.count, 398);
	CHECK(b.columns[0] != NULL && b.columns[1] != NULL);
	CHECK(!ops->system_iter_next(&it, &b));
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

/* Out of memory while the indexes grow: 150 entities get the same two components (each index
 * and the system's list go past their first capacity and grow several times), then some are
 * destroyed and the rest gain a third. */
static bool grow_scenario(struct fixture *f)
{
	static const uint32_t pair[] = {0, 1};
	TRY(op_register(f, pair, 2));
	ecs_entity es[150];
	for (int i = 0; i < 150; i++) {
		if (i % 2) { /* the same two components in one step */
			TRY(create_from(f, pair, 2, i > 2 ? es[i - 2] : ECS_NULL, &es[i]));
			continue;
		}
		TRY(op_create(f, &es[i]));
		if (es[i] == ECS_NULL)
			continue;
		TRY(op_add(f, es[i], 0));
		TRY(op_add(f, es[i], 1));
	}
	for (int i = 0; i < 150; i++)
		if (es[i] != ECS_NULL)
			TRY(i % 3 == 0 ? op_destroy(f, es[i]) : op_add(f, es[i], 2));
	TRY(check_all(f));
	return true;
}

/* Out of memory in entity_create_with: sets in rotating orders (the set of three in every
 * order gets half the entities, past its table's first growth), values from the storage
 * (often the same set's), systems that match, destroyed indices reused. */
static bool create_with_scenario(struct fixture *f)
{
	TRY(register_systems(f, 3));
	const uint32_t pool[3] = {0, 1, f->m.component_count - 1};
	ecs_entity es[50];
	for (uint32_t i = 0; i < 50; i++) {
		uint32_t k = 2 + i % 2, types[3];
		for (uint32_t c = 0; c < k; c++)
			types[c] = pool[(c + i / 2) % 3];
		TRY(create_from(f, types, k, i > 1 ? es[i - 2] : ECS_NULL, &es[i]));
		if (i % 8 == 7 && es[i - 4] != ECS_NULL)
			TRY(op_destroy(f, es[i - 4]));
	}
	for (int i = 0; i < 15; i++) {
		ecs_entity x;
		TRY(random_create_with(f, 6, &x));
	}
	TRY(check_all(f));
	return true;
}

/* Out of memory where exclusions make systems join: removing an excluded type (the entity
 * joins the systems that exclude it), adding a required one, with several systems to join at
 * once so that a failure leaves those joined before it; and registering them. */
static bool exclusion_scenario(struct fixture *f)
{
	static const uint32_t r0[] = {0}, x0[] = {1}, r1[] = {0, 2}, x1[] = {1, 3}, r2[] = {2},
	                      x2[] = {1}, r3[] = {0};
	TRY(op_register_excluding(f, r0, 1, x0, 1));
	TRY(op_register_excluding(f, r1, 2, x1, 2));
	TRY(op_register_excluding(f, r2, 1, x2, 1));
	TRY(op_register_excluding(f, r3, 1, NULL, 0));
	ecs_entity es[40];
	for (int i = 0; i < 40; i++) {
		TRY(op_create(f, &es[i]));
		TRY(op_add(f, es[i], 1));
		TRY(op_add(f, es[i], 3));
		TRY(op_add(f, es[i], 2));
		TRY(op_add(f, es[i], 0));
	}
	for (int i = 0; i < 40; i++) {
		TRY(op_remove(f, es[i], 3));
		TRY(op_remove(f, es[i], 1));
	}
	for (int i = 0; i < 40; i += 2) {
		TRY(op_add(f, es[i], 1));
		TRY(op_destroy(f, es[i + 1]));
	}
	TRY(check_all(f));
	return true;
}

static bool alloc_failure(const struct ecs_ops *ops, const struct test_profile *p,
                          bool (*scenario)(struct fixture *))
{
	/* First count the allocations of the scenario. */
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 6));
	uint64_t before = f.counter.allocations;
	TRY(scenario(&f));
	uint64_t total = f.counter.allocations - before;
	TRY(fixture_close(&f));
	uint64_t failed = 0;
	for (uint64_t n = 1; n <= total; n++) {
		TRY(fixture_open(&f, ops, p->component_count, p->system_count, 6));
		f.allow_oom = true;
		f.counter.fail_at = n;
		TRY(scenario(&f));
		failed += f.counter.failures == 0 && f.counter.fail_at == 0;
		TRY(fixture_close(&f));
	}
	CHECK(failed > 0);
	printf("note %s%s: %llu allocation failure points, each survived\n", runner_test(),
	       ops->entity_create_with ? "" : " (create_with's fallback)", (unsigned long long)failed);
	return true;
}

static bool test_alloc_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	return alloc_failure(ops, p, oom_scenario);
}

static bool test_grow_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	return alloc_failure(ops, p, grow_scenario);
}

static bool test_exclusion_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	return alloc_failure(ops, p, exclusion_scenario);
}

static bool test_create_with_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_create_with(ops);
	TRY(alloc_failure(ops, p, create_with_scenario));
	return alloc_failure(&plain, p, create_with_scenario);
}

/* Creating a storage fails cleanly at each of its allocations. */
static bool test_create_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	uint32_t *sizes = malloc(p->component_count * sizeof *sizes);
	CHECK(sizes != NULL);
	for (uint32_t t = 0; t < p->component_count; t++)
		sizes[t] = size_of_type(t);
	struct ecs_config cfg = {p->component_count, p->system_count, sizes, NULL};
	bool ok = true;
	for (uint64_t n = 1; ok; n++) {
		struct counting_alloc counter;
		struct ecs_allocator alloc = counting_alloc_init(&counter);
		counter.fail_at = n;
		ecs_storage *s = NULL;
		int rc = ops->create(&cfg, &alloc, &s);
		if (rc == ECS_OK) {
			ops->destroy(s);
			ok = counter.live_bytes == 0 && counter.size_errors == 0;
			if (counter.failures == 0) /* created with no failure left to inject: done */
				break;
		} else if (rc != ECS_ERR_NO_MEMORY || counter.live_bytes != 0) {
			check_failed(__FILE__, __LINE__, "create with allocation %llu failing: %s, %llu "
			             "bytes left", (unsigned long long)n, ecs_status_name(rc),
			             (unsigned long long)counter.live_bytes);
			ok = false;
		}
	}
	free(sizes);
	return ok;
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
	/* entity_create_with: full too, after the checks of its lists */
	uint32_t two[] = {0, 1}, bad[] = {0, p->component_count}, dup[] = {1, 1};
	unsigned char value[64] = {2};
	const void *values[] = {value, value};
	ecs_entity none = ECS_NULL;
	CHECK_STATUS(ops->entity_create_with(f.s, two, 2, values, &none), ECS_ERR_FULL);
	CHECK_STATUS(ops->entity_create_with(f.s, NULL, 0, NULL, &none), ECS_ERR_FULL);
	CHECK_STATUS(ops->entity_create_with(f.s, bad, 2, values, &none), ECS_ERR_BAD_COMPONENT);
	CHECK_STATUS(ops->entity_create_with(f.s, dup, 2, values, &none), ECS_ERR_INVALID);
	CHECK_EQ(none, ECS_NULL);
	unsigned char v[64] = {1};
	CHECK_OK(ops->component_add(f.s, e, 0, v));
	CHECK_OK(ops->entity_destroy(f.s, first));
	ecs_entity again;
	CHECK_OK(ops->entity_create(f.s, &again));
	CHECK_EQ(ecs_entity_index(again), ecs_entity_index(first));
	CHECK_STATUS(ops->entity_create(f.s, &e), ECS_ERR_FULL);
	CHECK_OK(ops->entity_destroy(f.s, again));
	CHECK_OK(ops->entity_create_with(f.s, two, 2, values, &again));
	CHECK_EQ(ecs_entity_index(again), ecs_entity_index(first));
	CHECK_EQ(ops->component_has(f.s, again, 1), 1);
	CHECK_STATUS(ops->entity_create_with(f.s, two, 2, values, &e), ECS_ERR_FULL);
	/* entity_create_batch: full for two with one index free, after the checks of its list;
	 * nothing created, so the one index is still there for one */
	CHECK_OK(ops->entity_destroy(f.s, again));
	const struct ecs_values batch_values[] = {{value, 0}, {value, 0}};
	ecs_entity outs[2] = {ECS_NULL, ECS_NULL};
	CHECK_STATUS(ecs_entity_create_batch(ops, f.s, two, 2, batch_values, 2, outs), ECS_ERR_FULL);
	CHECK_STATUS(ecs_entity_create_batch(ops, f.s, bad, 2, batch_values, 2, outs),
	             ECS_ERR_BAD_COMPONENT);
	CHECK_OK(ecs_entity_create_batch(ops, f.s, two, 2, batch_values, 0, outs));
	CHECK_OK(ecs_entity_create_batch(ops, f.s, two, 2, batch_values, 1, outs));
	CHECK_EQ(ecs_entity_index(outs[0]), ecs_entity_index(first));
	CHECK_EQ(ops->component_has(f.s, outs[0], 1), 1);
	CHECK_STATUS(ecs_entity_create_batch(ops, f.s, two, 2, batch_values, 1, outs), ECS_ERR_FULL);
	return fixture_close(&f);
}

/* --- the same content, pristine and lived-in ---------------------------------------------- */

/*
 * Fast paths fire on what a storage's history has made regular: built in index order and
 * never changed (the pristine storage), runs of one kind, pools in step. A lived-in storage
 * has holes and recycled indices (destroys), kinds spawned interleaved with their lists in
 * other orders, components removed and added back in no order, and its slow paths run
 * instead. Here the same logical content (LIVED_N entities of LIVED_KINDS kinds, each value a
 * function of the entity, its type and a version) is built both ways, and the two storages
 * must agree: every system's pass (1, 2 and 3 required types, with and without an excluded
 * type, one registered while entities exist) visits the same entities with the same values,
 * component_has and component_get agree for every entity and type, and a write through each
 * system's batches lands on the entity the batch names, in both.
 */
enum { LIVED_N = 3000, LIVED_KINDS = 6, LIVED_EARLY_SYSTEMS = 7, LIVED_SYSTEMS = 8 };
enum { LIVED_P, LIVED_V, LIVED_M, LIVED_H, LIVED_X, LIVED_LAST = 99 /* the profile's last */ };
#define LIVED_NONE UINT32_MAX

static const struct {
	uint32_t count, types[5];
} lived_kinds[LIVED_KINDS] = {
	{2, {LIVED_P, LIVED_V}},
	{3, {LIVED_P, LIVED_V, LIVED_M}},
	{3, {LIVED_P, LIVED_V, LIVED_X}},
	{3, {LIVED_P, LIVED_M, LIVED_H}},
	{3, {LIVED_V, LIVED_M, LIVED_LAST}},
	{5, {LIVED_P, LIVED_V, LIVED_M, LIVED_H, LIVED_LAST}},
};

/* The systems in order of registration; the last is registered once entities exist. */
static const struct {
	uint32_t count, types[3], excluded_count, excluded[1];
} lived_systems[LIVED_SYSTEMS] = {
	{1, {LIVED_P}, 0, {0}},
	{2, {LIVED_P, LIVED_V}, 0, {0}},
	{3, {LIVED_P, LIVED_V, LIVED_M}, 0, {0}},
	{2, {LIVED_V, LIVED_P}, 1, {LIVED_X}},
	{2, {LIVED_M, LIVED_V}, 0, {0}},
	{3, {LIVED_V, LIVED_M, LIVED_LAST}, 1, {LIVED_X}},
	{1, {LIVED_LAST}, 0, {0}},
	{2, {LIVED_H, LIVED_P}, 0, {0}},
};

struct lived {
	struct fixture f;
	ecs_entity handle[LIVED_N]; /* of each logical entity */
	uint32_t id_of[4 * LIVED_N]; /* entity index -> logical entity, or LIVED_NONE */
};

static uint32_t lived_type(const struct fixture *f, uint32_t t)
{
	return t == LIVED_LAST ? f->m.component_count - 1 : t;
}

static uint32_t lived_kind(uint32_t id) { return (id * 2654435761u >> 16) % LIVED_KINDS; }

static void lived_value(uint32_t id, uint32_t t, uint32_t version, unsigned char *out,
                        uint32_t size)
{
	uint64_t x = ((uint64_t)id << 32 | (uint64_t)t << 8 | version) * 0x9e3779b97f4a7c15ull;
	for (uint32_t b = 0; b < size; b++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ull;
		out[b] = (unsigned char)(x >> 56);
	}
}

static void lived_shuffle(struct fixture *f, uint32_t *a, uint32_t n)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = below(f, i), x = a[i - 1];
		a[i - 1] = a[j];
		a[j] = x;
	}
}

static bool lived_open(struct lived *l, const struct ecs_ops *ops, const struct test_profile *p,
                       uint64_t seed)
{
	TRY(fixture_open(&l->f, ops, p->component_count, p->system_count, seed));
	for (uint32_t i = 0; i < 4 * LIVED_N; i++)
		l->id_of[i] = LIVED_NONE;
	return true;
}

static bool lived_register(struct lived *l, uint32_t y)
{
	uint32_t types[3], excluded[1];
	for (uint32_t c = 0; c < lived_systems[y].count; c++)
		types[c] = lived_type(&l->f, lived_systems[y].types[c]);
	for (uint32_t c = 0; c < lived_systems[y].excluded_count; c++)
		excluded[c] = lived_type(&l->f, lived_systems[y].excluded[c]);
	return op_register_excluding(&l->f, types, lived_systems[y].count, excluded,
	                             lived_systems[y].excluded_count);
}

/* Logical entity id (or junk, id LIVED_NONE: the given types, random values) created with its
 * kind's types in the order given (types: positions into the kind's list). */
static bool lived_create(struct lived *l, uint32_t id, const uint32_t *types, uint32_t count,
                         ecs_entity *out)
{
	unsigned char v[ECS_CREATE_MAX_COMPONENTS][64];
	const void *values[ECS_CREATE_MAX_COMPONENTS];
	for (uint32_t i = 0; i < count; i++) {
		if (id == LIVED_NONE)
			lived_value(LIVED_N + below(&l->f, 1000), types[i], 7, v[i], l->f.sizes[types[i]]);
		else
			lived_value(id, types[i], 0, v[i], l->f.sizes[types[i]]);
		values[i] = v[i];
	}
	TRY(op_create_with(&l->f, types, count, values, out));
	CHECK(*out != ECS_NULL);
	uint32_t index = ecs_entity_index(*out);
	CHECK(index < 4 * LIVED_N);
	l->id_of[index] = id;
	if (id != LIVED_NONE)
		l->handle[id] = *out;
	return true;
}

/* component_add of t with the value `version` of logical entity id. */
static bool lived_add(struct lived *l, uint32_t id, uint32_t t)
{
	unsigned char v[64];
	ecs_entity e = l->handle[id];
	lived_value(id, t, 0, v, l->f.sizes[t]);
	CHECK_STATUS(model_expect_add(&l->f.m, e, t), ECS_OK);
	CHECK_OK(l->f.ops->component_add(l->f.s, e, t, v));
	model_added(&l->f.m, e, t, v);
	return true;
}

static bool lived_destroy(struct lived *l, ecs_entity e)
{
	l->id_of[ecs_entity_index(e)] = LIVED_NONE;
	return op_destroy(&l->f, e);
}

/* The kind's types of logical entity id, rotated by rot, reversed or not. */
static uint32_t lived_list(const struct fixture *f, uint32_t id, uint32_t rot, bool reverse,
                           uint32_t *types)
{
	uint32_t k = lived_kind(id), n = lived_kinds[k].count;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t at = (i + rot) % n;
		types[reverse ? n - 1 - i : i] = lived_type(f, lived_kinds[k].types[at]);
	}
	return n;
}

/* Pristine: created in index order, each kind in a run, with entity_create_with and the kind's
 * list always in the same order; never changed. */
static bool lived_pristine(struct lived *l)
{
	for (uint32_t y = 0; y < LIVED_EARLY_SYSTEMS; y++)
		TRY(lived_register(l, y));
	for (uint32_t k = 0; k < LIVED_KINDS; k++) {
		for (uint32_t id = 0; id < LIVED_N; id++) {
			if (lived_kind(id) != k)
				continue;
			uint32_t types[5], n = lived_list(&l->f, id, 0, false, types);
			ecs_entity e;
			TRY(lived_create(l, id, types, n, &e));
		}
	}
	for (uint32_t y = LIVED_EARLY_SYSTEMS; y < LIVED_SYSTEMS; y++)
		TRY(lived_register(l, y));
	return check_all(&l->f);
}

/* Junk: a random set of 1 to 5 types (the kinds' types and any other of the profile) in a
 * random order: many distinct lists, destroyed later (holes). */
static bool lived_junk(struct lived *l, ecs_entity *junk, uint32_t *junk_count)
{
	uint32_t types[5], n = 1 + below(&l->f, 5);
	for (uint32_t i = 0; i < n; i++) {
		bool again = true;
		while (again) {
			types[i] = below(&l->f, 2) ? below(&l->f, 5) : below(&l->f, l->f.m.component_count);
			again = false;
			for (uint32_t j = 0; j < i; j++)
				again |= types[j] == types[i];
		}
	}
	TRY(lived_create(l, LIVED_NONE, types, n, &junk[(*junk_count)++]));
	return true;
}

/*
 * Lived-in: the same content after a history. The kinds spawned interleaved (the entities in a
 * shuffled order), each list rotated and sometimes reversed, with junk entities of random lists
 * among them; the late system registered then. The junk and a quarter of the entities
 * destroyed in one shuffled sequence, the quarter created again into recycled indices (half
 * through entity_create_with in yet another order, half through entity_create and adds in a
 * shuffled order) among new junk, which is destroyed later (holes at the end). Then on half
 * of each entity's components, remove and add back, each sequence shuffled across entities and
 * types, so that no pool is in index order and the pools of one system are out of step.
 */
static bool lived_aged(struct lived *l)
{
	struct fixture *f = &l->f;
	static uint32_t order[LIVED_N], again[LIVED_N];
	static ecs_entity junk[2 * LIVED_N], doomed[3 * LIVED_N];
	static uint32_t pairs[5 * LIVED_N][2], perm[5 * LIVED_N];
	uint32_t junk_count = 0;
	for (uint32_t y = 0; y < LIVED_EARLY_SYSTEMS; y++)
		TRY(lived_register(l, y));
	for (uint32_t id = 0; id < LIVED_N; id++)
		order[id] = id;
	lived_shuffle(f, order, LIVED_N);
	for (uint32_t j = 0; j < LIVED_N; j++) {
		if (below(f, 3) == 0)
			TRY(lived_junk(l, junk, &junk_count));
		uint32_t id = order[j], types[5];
		uint32_t n = lived_list(f, id, below(f, 5), below(f, 2), types);
		ecs_entity e;
		TRY(lived_create(l, id, types, n, &e));
	}
	for (uint32_t y = LIVED_EARLY_SYSTEMS; y < LIVED_SYSTEMS; y++)
		TRY(lived_register(l, y));
	TRY(check_all(f));

	/* destroys: the junk and a quarter of the entities, in one shuffled sequence */
	uint32_t doomed_count = 0, again_count = 0;
	for (uint32_t i = 0; i < junk_count; i++)
		doomed[doomed_count++] = junk[i];
	for (uint32_t id = 0; id < LIVED_N; id++)
		if (below(f, 4) == 0) {
			doomed[doomed_count++] = l->handle[id];
			again[again_count++] = id;
		}
	for (uint32_t i = doomed_count; i > 1; i--) {
		uint32_t j = below(f, i);
		ecs_entity x = doomed[i - 1];
		doomed[i - 1] = doomed[j];
		doomed[j] = x;
	}
	for (uint32_t i = 0; i < doomed_count; i++)
		TRY(lived_destroy(l, doomed[i]));
	junk_count = 0;
	lived_shuffle(f, again, again_count);
	for (uint32_t i = 0; i < again_count; i++) {
		if (below(f, 4) == 0)
			TRY(lived_junk(l, junk, &junk_count));
		uint32_t id = again[i], types[5];
		uint32_t n = lived_list(f, id, below(f, 5), below(f, 2), types);
		ecs_entity e;
		if (i % 2 == 0) {
			TRY(lived_create(l, id, types, n, &e));
			continue;
		}
		TRY(op_create(f, &e));
		CHECK(ecs_entity_index(e) < 4 * LIVED_N);
		l->id_of[ecs_entity_index(e)] = id;
		l->handle[id] = e;
		lived_shuffle(f, types, n);
		for (uint32_t c = 0; c < n; c++)
			TRY(lived_add(l, id, types[c]));
	}
	TRY(check_all(f));

	/* half of every entity's components removed and added back, in no order; the new junk
	 * destroyed among the removes */
	uint32_t pair_count = 0;
	for (uint32_t id = 0; id < LIVED_N; id++) {
		uint32_t types[5], n = lived_list(f, id, 0, false, types);
		for (uint32_t c = 0; c < n; c++)
			if (below(f, 2)) {
				pairs[pair_count][0] = id;
				pairs[pair_count++][1] = types[c];
			}
	}
	for (uint32_t i = 0; i < pair_count; i++)
		perm[i] = i;
	lived_shuffle(f, perm, pair_count);
	for (uint32_t i = 0; i < pair_count; i++) {
		TRY(op_remove(f, l->handle[pairs[perm[i]][0]], pairs[perm[i]][1]));
		if (i % 3 == 0 && junk_count > 0)
			TRY(lived_destroy(l, junk[--junk_count]));
	}
	while (junk_count > 0)
		TRY(lived_destroy(l, junk[--junk_count]));
	lived_shuffle(f, perm, pair_count);
	for (uint32_t i = 0; i < pair_count; i++)
		TRY(lived_add(l, pairs[perm[i]][0], pairs[perm[i]][1]));
	return check_all(f);
}

/* How many batches system y's pass takes, and how many hand out columns only. */
static bool lived_batches(struct lived *l, uint32_t y, uint32_t *batches, uint32_t *columns)
{
	struct ecs_iter it;
	struct ecs_batch b;
	*batches = *columns = 0;
	CHECK_OK(l->f.ops->system_iter_begin(l->f.s, y, &it));
	while (l->f.ops->system_iter_next(&it, &b)) {
		bool all = true;
		for (uint32_t c = 0; c < lived_systems[y].count; c++)
			all &= b.columns[c] != NULL;
		(*batches)++;
		*columns += all;
	}
	return true;
}

/*
 * System y's pass over l: for each logical entity it visits (each once, by its live handle),
 * its values of the system's types, one after the other, into out (LIVED_N rows of `row`
 * bytes), and seen[id] set. With version != 0, each value is first overwritten through the
 * batch with that version of the entity's value (and the model told).
 */
static bool lived_pass(struct lived *l, uint32_t y, uint32_t version, unsigned char *out,
                       uint32_t row, uint8_t *seen)
{
	struct fixture *f = &l->f;
	uint32_t types[3], n = lived_systems[y].count;
	for (uint32_t c = 0; c < n; c++)
		types[c] = lived_type(f, lived_systems[y].types[c]);
	memset(seen, 0, LIVED_N);
	struct ecs_iter it;
	struct ecs_batch b;
	CHECK_OK(f->ops->system_iter_begin(f->s, y, &it));
	while (f->ops->system_iter_next(&it, &b)) {
		for (uint32_t i = 0; i < b.count; i++) {
			uint32_t index = ecs_entity_index(b.entities[i]);
			CHECK(index < 4 * LIVED_N);
			uint32_t id = l->id_of[index];
			CHECK(id != LIVED_NONE);
			CHECK_EQ(l->handle[id], b.entities[i]);
			CHECK_EQ(seen[id], 0);
			seen[id] = 1;
			uint32_t at = 0;
			for (uint32_t c = 0; c < n; c++) {
				uint32_t size = f->sizes[types[c]];
				unsigned char *p = b.columns[c] ? (unsigned char *)b.columns[c] + (size_t)i * size
				                                : b.pointers[c][i];
				if (version) {
					lived_value(id, types[c], version, p, size);
					memcpy(model_value(&f->m, b.entities[i], types[c]), p, size);
				}
				memcpy(out + (size_t)id * row + at, p, size);
				at += size;
			}
		}
	}
	return true;
}

/* The two storages agree: component_has and component_get of every entity and type, and each
 * system's pass (with writes of `version` through the batches, when not 0). */
static bool lived_compare(struct lived *a, struct lived *b, uint32_t version)
{
	struct fixture *fa = &a->f, *fb = &b->f;
	for (uint32_t id = 0; id < LIVED_N; id++) {
		for (uint32_t t = 0; t < fa->m.component_count; t++) {
			int has = fa->ops->component_has(fa->s, a->handle[id], t);
			CHECK_EQ(fb->ops->component_has(fb->s, b->handle[id], t), has);
			if (has != 1)
				continue;
			void *pa, *pb;
			CHECK_OK(fa->ops->component_get(fa->s, a->handle[id], t, &pa));
			CHECK_OK(fb->ops->component_get(fb->s, b->handle[id], t, &pb));
			CHECK(memcmp(pa, pb, fa->sizes[t]) == 0);
		}
	}
	uint32_t row = 3 * 64;
	unsigned char *out[2] = {calloc(LIVED_N, row), calloc(LIVED_N, row)};
	static uint8_t seen[2][LIVED_N];
	bool ok = out[0] && out[1];
	for (uint32_t y = 0; ok && y < LIVED_SYSTEMS; y++) {
		ok = lived_pass(a, y, version ? version + y : 0, out[0], row, seen[0]) &&
		     lived_pass(b, y, version ? version + y : 0, out[1], row, seen[1]);
		if (ok && (memcmp(seen[0], seen[1], LIVED_N) != 0 ||
		           memcmp(out[0], out[1], (size_t)LIVED_N * row) != 0)) {
			check_failed(__FILE__, __LINE__, "system %u: the pristine and the lived-in "
			             "storage differ", y);
			ok = false;
		}
	}
	free(out[0]);
	free(out[1]);
	return ok;
}

static bool test_lived_in(const struct ecs_ops *ops, const struct test_profile *p)
{
	static struct lived a, b;
	TRY(lived_open(&a, ops, p, 21));
	TRY(lived_open(&b, ops, p, 22));
	TRY(lived_pristine(&a));
	TRY(lived_aged(&b));
	TRY(lived_compare(&a, &b, 0));
	uint32_t batches[2][3], columns[2][3];
	for (uint32_t y = 0; y < 3; y++) {
		TRY(lived_batches(&a, y, &batches[0][y], &columns[0][y]));
		TRY(lived_batches(&b, y, &batches[1][y], &columns[1][y]));
	}
	/* a write through each system's batches, the same in both (by logical entity) */
	TRY(lived_compare(&a, &b, 100));
	TRY(check_all(&a.f));
	TRY(check_all(&b.f));
	TRY(lived_compare(&a, &b, 0));
	printf("note %s: batches (all columns) of the systems of 1, 2, 3 types: pristine %u (%u), "
	       "%u (%u), %u (%u); lived-in %u (%u), %u (%u), %u (%u)\n", runner_test(),
	       batches[0][0], columns[0][0], batches[0][1], columns[0][1], batches[0][2],
	       columns[0][2], batches[1][0], columns[1][0], batches[1][1], columns[1][1],
	       batches[1][2], columns[1][2]);
	/* the reference model's random operations on the lived-in storage */
	uint64_t n = random_ops / 10;
	for (uint64_t i = 0; i < n; i++) {
		TRY(random_op(&b.f, LIVED_N + 200));
		if (i % 2000 == 1999)
			TRY(check_all(&b.f));
	}
	TRY(check_all(&b.f));
	TRY(fixture_close(&a.f));
	return fixture_close(&b.f);
}

/* --- splitting a pass (system_iter_split) -------------------------------------------------- */

/* Every system's pass split in 1..16 parts: each matching entity in exactly one part. */
static bool split_every_count(struct fixture *f)
{
	for (uint32_t parts = 1; parts <= 16; parts++)
		TRY(model_check_split(&f->m, f->ops, f->s, parts));
	return true;
}

/*
 * The parts of a split cover every matching entity exactly once, for every part count from 1
 * to 16, in the states where a split is hardest: no entity at all; fewer entities than parts;
 * many tables (archetype) smaller than a part, beside a large one; pools out of step (sparse:
 * pointer batches, which must stay within their part), with holes from removals and destroys;
 * systems that exclude types; and the states random operations leave. Misuse of the split is
 * refused with the interface's codes.
 */
static bool test_split(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 13));
	CHECK(ops->system_iter_split != NULL); /* every backend here has its own */
	static const uint32_t pair[] = {0, 1};
	TRY(op_register(&f, pair, 2));
	TRY(register_systems(&f, 6));
	struct ecs_iter it;
	CHECK_STATUS(ops->system_iter_split(NULL, 0, 0, 1, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_iter_split(f.s, 0, 0, 1, NULL), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_iter_split(f.s, 0, 0, 0, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_iter_split(f.s, 0, 2, 2, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_iter_split(f.s, 0, 0, ECS_SPLIT_MAX + 1, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ops->system_iter_split(f.s, 7, 0, 2, &it), ECS_ERR_BAD_SYSTEM);
	CHECK_STATUS(ops->system_iter_split(f.s, UINT32_MAX, 0, 2, &it), ECS_ERR_BAD_SYSTEM);
	CHECK_OK(ops->system_iter_split(f.s, 0, ECS_SPLIT_MAX - 1, ECS_SPLIT_MAX, &it));
	TRY(split_every_count(&f));
	ecs_entity e[700];
	for (uint32_t i = 0; i < 5; i++) { /* fewer entities than parts */
		TRY(op_create(&f, &e[i]));
		TRY(op_add(&f, e[i], 0));
		TRY(op_add(&f, e[i], 1));
	}
	TRY(split_every_count(&f));
	/* many small tables: Position, Velocity and one of the other types each */
	unsigned char v[3][64] = {{1}, {2}, {3}};
	const void *values[3] = {v[0], v[1], v[2]};
	for (uint32_t i = 0; i < 40; i++) {
		uint32_t types[3] = {0, 1, 6 + i % (p->component_count - 6)};
		ecs_entity x;
		TRY(op_create_with(&f, types, 3, values, &x));
	}
	TRY(split_every_count(&f));
	/* a large table, and pools out of step: Velocity first, Position in the reverse order */
	for (uint32_t i = 0; i < 600; i++) {
		TRY(op_create(&f, &e[i]));
		TRY(op_add(&f, e[i], 1));
	}
	for (uint32_t i = 600; i-- > 0;)
		TRY(op_add(&f, e[i], 0));
	TRY(split_every_count(&f));
	for (uint32_t i = 0; i < 600; i += 7)
		TRY(op_remove(&f, e[i], 0));
	for (uint32_t i = 3; i < 600; i += 11)
		TRY(op_destroy(&f, e[i]));
	for (uint32_t i = 1; i < 600; i += 13)
		TRY(op_add(&f, e[i], 2)); /* excluded by some systems, required by others */
	TRY(split_every_count(&f));
	for (uint32_t i = 0; i < 3000; i++) {
		TRY(random_op(&f, 300));
		if (i % 1000 == 999)
			TRY(split_every_count(&f));
	}
	return fixture_close(&f);
}

/*
 * How a split cuts a storage built in order (N entities created with Position and Velocity,
 * as every iterate workload): for every part count 2..16 the parts are balanced by entity count
 * (each within a cache line's worth of entities of an even share), and every part but the
 * first starts on a cache-line start of the system's first component (Position, which a
 * system writes), so that two threads never write one line. Position's size here is 4 bytes
 * and Velocity's 11 (size_of_type): the bound moves to a line start whatever the stride.
 */
static bool test_split_lines(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 14));
	static const uint32_t pair[] = {0, 1};
	TRY(op_register(&f, pair, 2));
	enum { N = 4000 };
	unsigned char v[2][64] = {{1}, {2}};
	const void *values[2] = {v[0], v[1]};
	for (uint32_t i = 0; i < N; i++) {
		ecs_entity x;
		TRY(op_create_with(&f, pair, 2, values, &x));
	}
	for (uint32_t parts = 2; parts <= 16; parts++) {
		uint32_t total = 0;
		for (uint32_t part = 0; part < parts; part++) {
			struct ecs_iter it;
			struct ecs_batch b;
			CHECK_OK(ops->system_iter_split(f.s, 0, part, parts, &it));
			uint32_t count = 0;
			bool first = true;
			while (ops->system_iter_next(&it, &b)) {
				if (first && part > 0) {
					void *at = b.columns[0] ? b.columns[0] : b.pointers[0][0];
					CHECK_EQ((uintptr_t)at % ECS_CACHE_LINE, 0);
				}
				first = false;
				count += b.count;
			}
			uint32_t share = N / parts;
			CHECK(count + ECS_CACHE_LINE >= share && count <= share + 1 + ECS_CACHE_LINE);
			total += count;
		}
		CHECK_EQ(total, N);
	}
	return fixture_close(&f);
}

/* A backend without system_iter_split: its pass is one part (the wrapper), more are refused. */
static bool test_split_fallback(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = *ops;
	plain.system_iter_split = NULL;
	struct fixture f;
	TRY(fixture_open(&f, &plain, p->component_count, p->system_count, 15));
	TRY(register_systems(&f, 4));
	for (uint32_t i = 0; i < 200; i++)
		TRY(random_op(&f, 100));
	TRY(model_check_split(&f.m, &plain, f.s, 1));
	struct ecs_iter it;
	CHECK_STATUS(ecs_system_iter_split(&plain, f.s, 0, 0, 2, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_system_iter_split(&plain, f.s, 0, 1, 2, &it), ECS_ERR_INVALID);
	CHECK_STATUS(ecs_system_iter_split(&plain, f.s, 99, 0, 1, &it), ECS_ERR_BAD_SYSTEM);
	return fixture_close(&f);
}


/* --- batches ------------------------------------------------------------------------------ */

/* The ops without the batches: the wrappers then take their fallbacks (impls/ecs.c). */
static struct ecs_ops without_batches(const struct ecs_ops *ops)
{
	struct ecs_ops plain = *ops;
	plain.entity_create_batch = NULL;
	plain.component_add_batch = NULL;
	plain.component_remove_batch = NULL;
	return plain;
}

/* Random operations with many batches (misuse and failures half way included), against the
 * model, natively and through the fallbacks. */
static bool batch_random(const struct ecs_ops *ops, const struct test_profile *p, uint64_t seed)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, seed));
	TRY(register_systems(&f, p->system_count / 2));
	uint64_t n = random_ops / 5;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t dice = below(&f, 10);
		if (dice == 0 && f.m.live < 400)
			TRY(random_create_batch(&f, false));
		else if (dice < 3)
			TRY(random_change_batch(&f, dice == 1, false));
		else
			TRY(random_op(&f, 400));
		if (i % 250 == 249)
			TRY(check_all(&f));
		if (i == n / 2)
			TRY(register_systems(&f, p->system_count - p->system_count / 2));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_batch_random(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_batches(ops);
	TRY(batch_random(ops, p, 17));
	return batch_random(&plain, p, 18);
}

/*
 * Batches that fail half way, each checked against the whole model right after: a dead
 * entity, a repeated one, one that already has (or lacks) the type, in the middle of the list;
 * a type out of range; NULL pointers; count 0. Nothing may have changed, and the same batch
 * without the bad entry then succeeds. Systems that require and exclude the type, so that the
 * batch would have joined and left lists on the way.
 */
static bool batch_misuse(const struct ecs_ops *ops, const struct test_profile *p, bool fallback)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 19));
	static const uint32_t r0[] = {0, 1}, r1[] = {2}, x1[] = {1}, r2[] = {0}, x2[] = {2};
	TRY(op_register(&f, r0, 2));
	TRY(op_register_excluding(&f, r1, 1, x1, 1));
	TRY(op_register_excluding(&f, r2, 1, x2, 1));
	TRY(op_group(&f, 0));
	enum { N = 24 };
	ecs_entity es[N], dead, list[N + 1];
	unsigned char values[(N + 1) * 64];
	for (uint32_t b = 0; b < sizeof values; b++)
		values[b] = (unsigned char)(b * 7 + 1);
	const uint32_t two[] = {0, 2}, bad_types[] = {0, p->component_count},
	               dup_types[] = {2, 2};
	struct ecs_values v2[] = {{values, f.sizes[0]}, {values + 8, f.sizes[2]}};
	TRY(op_create_batch(&f, two, 2, v2, N, fallback, es));
	TRY(op_create_batch(&f, two, 2, v2, 1, fallback, &dead));
	TRY(op_destroy(&f, dead));
	TRY(check_all(&f));
	/* create: bad lists, nothing created; count 0 */
	ecs_entity out[N];
	TRY(op_create_batch(&f, bad_types, 2, v2, 3, fallback, out));
	TRY(op_create_batch(&f, dup_types, 2, v2, 3, fallback, out));
	TRY(op_create_batch(&f, two, 2, v2, 3, fallback, NULL));
	TRY(op_create_batch(&f, two, 2, NULL, 3, fallback, out));
	TRY(op_create_batch(&f, two, 2, v2, 0, fallback, out));
	TRY(op_create_batch(&f, NULL, 0, NULL, 0, fallback, NULL));
	TRY(check_all(&f));
	/* add type 1 to the even ones, with a bad entry in the middle of the list each time */
	struct ecs_values packed = {values, f.sizes[1]};
	uint32_t count = 0;
	for (uint32_t i = 0; i < N; i += 2)
		list[count++] = es[i];
	for (uint32_t bad = 0; bad < 4; bad++) {
		ecs_entity saved = list[count / 2];
		list[count / 2] = bad == 0 ? dead : bad == 1 ? list[1] : bad == 2 ? es[3] : ECS_NULL;
		if (bad == 2) /* es[3] has type 1 already: ECS_ERR_HAS_COMPONENT */
			TRY(op_add_batch(&f, &es[3], 1, 1, &packed, fallback));
		TRY(op_add_batch(&f, list, count, 1, &packed, fallback));
		TRY(check_all(&f));
		list[count / 2] = saved;
	}
	TRY(op_add_batch(&f, list, count, p->component_count, &packed, fallback));
	TRY(op_add_batch(&f, list, count, UINT32_MAX, &packed, fallback));
	TRY(op_add_batch(&f, NULL, count, 1, &packed, fallback));
	TRY(op_add_batch(&f, list, count, 1, NULL, fallback));
	TRY(op_add_batch(&f, list, 0, 1, &packed, fallback));
	TRY(op_add_batch(&f, NULL, 0, p->component_count, NULL, fallback));
	TRY(check_all(&f));
	TRY(op_add_batch(&f, list, count, 1, &packed, fallback));
	TRY(check_all(&f));
	/* remove type 1 from them, the same bad entries (now es[1], which lacks it) */
	for (uint32_t bad = 0; bad < 4; bad++) {
		ecs_entity saved = list[count / 2];
		list[count / 2] = bad == 0 ? dead : bad == 1 ? list[1] : bad == 2 ? es[1] : ECS_NULL;
		TRY(op_remove_batch(&f, list, count, 1, fallback));
		TRY(check_all(&f));
		list[count / 2] = saved;
	}
	TRY(op_remove_batch(&f, list, count, p->component_count, fallback));
	TRY(op_remove_batch(&f, NULL, count, 1, fallback));
	TRY(op_remove_batch(&f, list, 0, 1, fallback));
	TRY(op_remove_batch(&f, list, count, 1, fallback));
	TRY(check_all(&f));
	/* The checks come before any allocation: with the next allocation failing, a batch whose
	 * entities would need a table, pool or list to grow, with one entity in the middle that
	 * already has (or lacks) the type, still says ECS_ERR_HAS_COMPONENT (NO_COMPONENT). */
	static const uint32_t four[] = {4}, zero_five[] = {0, 5};
	struct ecs_values v4 = {values, 0}, v05[] = {{values, 0}, {values, 0}};
	ecs_entity x[3];
	TRY(op_create_batch(&f, four, 1, &v4, 1, fallback, &x[0]));
	TRY(op_create_batch(&f, zero_five, 2, v05, 2, fallback, &x[1]));
	ecs_entity mixed[7] = {es[0], es[2], es[4], x[0], es[6], es[8], es[10]};
	f.counter.fail_at = 1;
	TRY(op_add_batch(&f, mixed, 7, 4, &v4, fallback));
	ecs_entity lacking[4] = {x[1], x[2], es[0], es[2]};
	f.counter.fail_at = 1;
	TRY(op_remove_batch(&f, lacking, 4, 5, fallback));
	f.counter.fail_at = 0;
	f.counter.failures = 0;
	TRY(check_all(&f));
	/* remove type 2 from all (they join system 2, which excludes it), add it back */
	TRY(op_remove_batch(&f, es, N, 2, fallback));
	TRY(check_all(&f));
	struct ecs_values one = {values, 0};
	TRY(op_add_batch(&f, es, N, 2, &one, fallback));
	TRY(check_all(&f));
	return fixture_close(&f);
}

static bool test_batch_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_batches(ops);
	TRY(batch_misuse(ops, p, false));
	return batch_misuse(&plain, p, true);
}

/*
 * Values that point into the storage, read as they were when the call began (natively; the
 * fallbacks read each after the operations before it, ecs.h): a batch's values taken from a
 * column a system's pass hands out (stride = size) or one live value for all (stride 0), for
 * batches large enough to grow the pools and tables they point into.
 */
static bool test_batch_aliasing(const struct ecs_ops *ops, const struct test_profile *p)
{
	/* Only a native batch promises it: through a fallback a value is read after the
	 * operations before it, which may have moved it (ecs.h). */
	bool native_create = ops->entity_create_batch != NULL,
	     native_add = ops->component_add_batch != NULL;
	if (!native_create && !native_add) {
		printf("note %s: no native batches (the fallbacks' limit, ecs.h): nothing to test\n",
		       runner_test());
		return true;
	}
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 21));
	static const uint32_t pv[] = {0, 1};
	TRY(op_register(&f, pv, 2));
	enum { N = 300 };
	static ecs_entity es[N], more[N];
	static unsigned char values[N * 64];
	for (uint32_t b = 0; b < sizeof values; b++)
		values[b] = (unsigned char)(b * 13 + 5);
	struct ecs_values v[] = {{values, f.sizes[0]}, {values + 3, f.sizes[1]}};
	TRY(op_create_batch(&f, pv, 2, v, 20, false, es));
	for (uint32_t round = 0; round < 4; round++) {
		/* a column of the pass: the first batch's values of both types */
		struct ecs_iter it;
		struct ecs_batch b;
		CHECK_OK(ops->system_iter_begin(f.s, 0, &it));
		CHECK(ops->system_iter_next(&it, &b));
		if (!b.columns[0] || !b.columns[1])
			continue; /* this layout hands out pointers: nothing packed to read from */
		uint32_t n = b.count;
		struct ecs_values from[] = {{b.columns[0], f.sizes[0]}, {b.columns[1], f.sizes[1]}};
		if (native_create)
			TRY(op_create_batch(&f, pv, 2, from, n, false, more));
		else
			TRY(op_create_batch(&f, pv, 2, v, n, false, more));
		TRY(check_all(&f));
		/* type 2 to those, its values one entity's value of type 0 (at least as large) */
		void *q;
		CHECK_OK(ops->component_get(f.s, more[0], 0, &q));
		if (native_add && f.sizes[0] >= f.sizes[2]) {
			struct ecs_values same = {q, 0};
			TRY(op_add_batch(&f, more, n, 2, &same, false));
		}
		TRY(check_all(&f));
	}
	/* values of type 0 into type 0's own pool as it grows: add type 3 from type 3's column */
	static const uint32_t three[] = {3};
	TRY(op_create_batch(&f, three, 1, v, 4, false, es));
	TRY(op_create_batch(&f, NULL, 0, NULL, N, false, more));
	struct ecs_iter it;
	struct ecs_batch b;
	uint32_t y;
	CHECK_OK(ops->system_register(f.s, three, 1, NULL, 0, &y));
	model_system(&f.m, three, 1, NULL, 0);
	CHECK_OK(ops->system_iter_begin(f.s, y, &it));
	CHECK(ops->system_iter_next(&it, &b));
	if (native_add && b.columns[0]) {
		struct ecs_values col = {b.columns[0], f.sizes[3]};
		TRY(op_add_batch(&f, more, b.count, 3, &col, false));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* Out of memory in batches: sets created in batches (past their first capacity, indices
 * recycled), added and removed in batches, with systems that require and exclude the types. */
static bool batch_scenario(struct fixture *f)
{
	static const uint32_t r0[] = {0, 1}, r1[] = {2}, x1[] = {1}, pair[] = {0, 1};
	TRY(op_register(f, r0, 2));
	TRY(op_register_excluding(f, r1, 1, x1, 1));
	static unsigned char values[40 * 64];
	for (uint32_t b = 0; b < sizeof values; b++)
		values[b] = (unsigned char)b;
	struct ecs_values v[] = {{values, f->sizes[0]}, {values + 1, f->sizes[1]}};
	ecs_entity es[4][20];
	for (uint32_t k = 0; k < 4; k++) {
		for (uint32_t j = 0; j < 20; j++)
			es[k][j] = ECS_NULL;
		TRY(op_create_batch(f, pair, k % 2 ? 2 : 1, v, 20, false, es[k]));
	}
	for (uint32_t j = 0; j < 20; j += 3)
		if (es[1][j] != ECS_NULL)
			TRY(op_destroy(f, es[1][j]));
	TRY(op_create_batch(f, pair, 2, v, 12, false, es[1]));
	for (uint32_t k = 0; k < 4; k++) {
		if (es[k][0] == ECS_NULL || !model_alive(&f->m, es[k][0]))
			continue;
		uint32_t n = 0;
		ecs_entity list[20];
		for (uint32_t j = 0; j < 20; j++)
			if (model_alive(&f->m, es[k][j]) && model_find(&f->m, es[k][j])->has[2] == 0)
				list[n++] = es[k][j];
		struct ecs_values two = {values + 5, f->sizes[2]};
		TRY(op_add_batch(f, list, n, 2, &two, false));
		TRY(op_remove_batch(f, list, n, 1, false));
	}
	TRY(check_all(f));
	return true;
}

static bool test_batch_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct ecs_ops plain = without_batches(ops);
	TRY(alloc_failure(ops, p, batch_scenario));
	return alloc_failure(&plain, p, batch_scenario);
}

/* A group asked for at random, before and after entities exist, on every system: what each
 * pass visits does not change (the order may). */
static bool test_groups(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 23));
	TRY(register_systems(&f, 4));
	for (uint32_t i = 0; i < 3000; i++) {
		TRY(random_op(&f, 300));
		if (i % 100 == 0)
			TRY(op_group(&f, below(&f, f.m.system_count + 1)));
		if (i % 300 == 299)
			TRY(check_all(&f));
		if (i == 1500)
			TRY(register_systems(&f, p->system_count - 4));
	}
	for (uint32_t y = 0; y <= f.m.system_count; y++)
		TRY(op_group(&f, y));
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* --- owning groups (the group backend) ------------------------------------------------- */

/*
 * A grouped system's pass is one batch of whole columns and visits exactly its matching
 * entities (check_all compares every pass with the model), however adds, removes (of owned and
 * excluded types) and destroys have aged the storage; a system over an owned pool is refused
 * (0), one over other pools is grouped too; and system_group may come after the entities.
 */
static bool group_pass_is_columns(struct fixture *f, uint32_t system, uint32_t k)
{
	struct ecs_iter it;
	struct ecs_batch b;
	CHECK_OK(f->ops->system_iter_begin(f->s, system, &it));
	uint32_t batches = 0;
	while (f->ops->system_iter_next(&it, &b)) {
		batches++;
		for (uint32_t c = 0; c < k; c++)
			CHECK(b.columns[c] != NULL);
	}
	CHECK(batches <= 1);
	return true;
}

static bool test_group(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 23));
	ecs_entity e;
	for (uint32_t i = 0; i < 300; i++)
		TRY(random_create_with(&f, 4, &e));
	uint32_t owned[2] = {0, 1}, excluded[1] = {2}, over_owned[2] = {1, 3}, other[2] = {4, 5};
	TRY(op_register_excluding(&f, owned, 2, excluded, 1));   /* system 0 */
	TRY(op_register(&f, over_owned, 2));                    /* system 1 */
	TRY(op_register(&f, other, 2));                         /* system 2 */
	CHECK_STATUS(ecs_system_group(ops, f.s, 0), 1); /* the entities are sorted in */
	CHECK_STATUS(ecs_system_group(ops, f.s, 0), 1);
	CHECK_STATUS(ecs_system_group(ops, f.s, 1), 0); /* pool 1 is system 0's */
	CHECK_STATUS(ecs_system_group(ops, f.s, 2), 1);
	CHECK_STATUS(ecs_system_group(ops, f.s, 99), ECS_ERR_BAD_SYSTEM);
	CHECK_STATUS(ecs_system_group(ops, NULL, 0), ECS_ERR_INVALID);
	TRY(check_all(&f));
	for (uint32_t i = 0; i < 4000; i++) {
		TRY(random_op(&f, 400));
		TRY(group_pass_is_columns(&f, 0, 2));
		TRY(group_pass_is_columns(&f, 2, 2));
		if (i % 200 == 199)
			TRY(check_all(&f));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* --- the runner ------------------------------------------------------------------------- */

struct test {
	const char *name;
	bool (*run)(const struct ecs_ops *, const struct test_profile *);
	const struct test_profile *profiles[3];
	const char *only; /* the one backend a test of a strategy runs on, or NULL: all */
};

/* --- hybrid: component types marked sparse (one block, kept together for merges) --------- */

/* Replaces the fixture's storage with one whose config marks each type sparse with chance
 * 1/`one_in` (random, from the fixture's seed). */
static bool reopen_marked(struct fixture *f, const struct test_profile *p, uint32_t one_in)
{
	f->ops->destroy(f->s);
	f->s = NULL;
	CHECK_EQ(f->counter.live_bytes, 0);
	counting_alloc_release(&f->counter);
	struct ecs_allocator alloc = counting_alloc_init(&f->counter);
	CHECK(counting_alloc_track(&f->counter) == 0);
	uint8_t *marks = malloc(p->component_count);
	CHECK(marks != NULL);
	for (uint32_t t = 0; t < p->component_count; t++)
		marks[t] = below(f, one_in) == 0 ? ECS_STORAGE_SPARSE : ECS_STORAGE_TABLE;
	struct ecs_config cfg = {p->component_count, p->system_count, f->sizes, marks};
	int rc = f->ops->create(&cfg, &alloc, &f->s);
	free(marks);
	CHECK_OK(rc);
	return true;
}

/* The random operations and the model with a third of the types marked sparse: hybrid keeps
 * them in pools, its systems walk tables and probe pools or drive from a pool; every backend
 * must give the same answers whatever the hints. */
static bool test_marked_random(const struct ecs_ops *ops, const struct test_profile *p)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct fixture f;
		TRY(fixture_open(&f, ops, p->component_count, p->system_count, seed + 40));
		TRY(reopen_marked(&f, p, seed == 3 ? 2 : 3));
		TRY(register_systems(&f, p->system_count / 2));
		uint64_t n = random_ops / 5;
		for (uint64_t i = 0; i < n; i++) {
			TRY(random_op(&f, seed == 2 ? 60 : 400));
			if (i % 500 == 499)
				TRY(check_all(&f));
			if (i == n / 2)
				TRY(register_systems(&f, p->system_count - p->system_count / 2));
		}
		TRY(check_all(&f));
		TRY(fixture_close(&f));
	}
	return true;
}

/* hybrid: adding or removing a sparse type leaves the entity's row (its table values stay
 * where they were), and a system of a sparse and a table type sees exactly the entities with
 * both, whichever walk it takes (few holders of the sparse type: the pool; many: the tables). */
static bool test_sparse_stays(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 7));
	f.ops->destroy(f.s);
	f.s = NULL;
	counting_alloc_release(&f.counter);
	struct ecs_allocator alloc = counting_alloc_init(&f.counter);
	CHECK(counting_alloc_track(&f.counter) == 0);
	uint8_t *marks = calloc(p->component_count, 1);
	CHECK(marks != NULL);
	marks[1] = ECS_STORAGE_SPARSE;
	struct ecs_config cfg = {p->component_count, p->system_count, f.sizes, marks};
	int rc = ops->create(&cfg, &alloc, &f.s);
	free(marks);
	CHECK_OK(rc);
	uint32_t both[] = {0, 1};
	TRY(op_register(&f, both, 2));
	ecs_entity e[300];
	for (int i = 0; i < 300; i++) {
		TRY(op_create(&f, &e[i]));
		TRY(op_add(&f, e[i], 0));
	}
	for (int i = 0; i < 20; i++) { /* holders of the sparse type alone */
		ecs_entity x;
		TRY(op_create(&f, &x));
		TRY(op_add(&f, x, 1));
	}
	for (int round = 0; round < 2; round++) {
		/* round 0: 30 in the pool (smaller than the 300 rows), round 1: 310 (larger) */
		for (int i = 0; i < 300; i++) {
			bool want = round == 0 ? i % 30 == 0 : i % 30 != 0;
			void *before, *after;
			CHECK_OK(ops->component_get(f.s, e[i], 0, &before));
			if (want != (ops->component_has(f.s, e[i], 1) == 1))
				TRY(want ? op_add(&f, e[i], 1) : op_remove(&f, e[i], 1));
			CHECK_OK(ops->component_get(f.s, e[i], 0, &after));
			if (strcmp(ops->name, "hybrid") == 0)
				CHECK(before == after);
		}
		TRY(check_all(&f));
	}
	return fixture_close(&f);
}

/* --- larger scales (one block, kept together for merges) ----------------------------------- */

/*
 * The model test and conformance cases at the sizes a game's storage reaches, where the tests
 * above (a few hundred live entities, batches of tens, values of at most 64 bytes) stay below
 * what the backends' structures do at size: thousands of live entities, so that sparse's and
 * hybrid's paged sparse arrays (pages of 4096 indices) are crossed and archetype's tables grow
 * and shrink many times; free lists thousands long, recycled in random order; generations
 * wrapping; batches of thousands over many tables, their handles in random order and their
 * values packed, one for all (stride 0), spaced, or read from the storage itself (a column of a
 * pass, or one stored value); component sizes from 1 byte to ECS_MAX_COMPONENT_SIZE in one
 * profile (L); allocation failures in the middle of large batches. Every test runs on every
 * backend, through the interface only, beside the reference model.
 *
 * What they cost is kept small for make test: 6.8 s of CPU plain and 19.6 s under ASan+UBSan
 * (`build/conformance large-` and `build/asan/conformance large-`, user time, on a shared 2-core
 * Xeon under load), about a tenth of the rest of the suite measured beside them (74.5 s and
 * 211.7 s); every check against the model costs what the state's size does. For a developer who wants more, ECSB_TEST_SCALE=N (make test TEST_SCALE=N, or
 * --scale N) makes N runs of the model test, each from its own seed and each growing to twice
 * the live entities of the one before (6,000, 12,000, ... up to 96,000).
 */
enum {
	LARGE_TYPES = 40,
	LARGE_SYSTEMS = 24,
	LARGE_LIVE = 6000,       /* live entities the model test grows to: two sparse pages */
	LARGE_BATCH_MOST = 2500, /* entities in one batch */
	LARGE_ONE_TYPE = 5,      /* one-type systems over the large types: columns to read from */
	/* types of note (large_size) */
	LARGE_4096 = 6,
	LARGE_513 = 9,
	LARGE_2048 = 10,
	LARGE_3000 = 17,
	LARGE_4093 = LARGE_TYPES - 1,
};

static const struct test_profile profile_large = {"L", LARGE_TYPES, LARGE_SYSTEMS};
static uint32_t large_scale = 1;

/* 1 byte to 4 KiB. The types the random operations favour (some_type: 0..5) and most systems
 * use (register_systems: 0..5) are small, so that checking every value costs what thousands
 * of entities' values of a few bytes to 4 KiB cost, not a 4 KiB value on every entity; one of
 * register_systems' systems is over the profile's last type, 4093 bytes. */
static uint32_t large_size(uint32_t t)
{
	static const uint32_t sizes[20] = {12,  24,   8, 1,  100,  2,    ECS_MAX_COMPONENT_SIZE,
	                                   4095, 16, 513, 2048, 4,    33, 1024, 7,   256,
	                                   64,  3000, 1000, 5};
	return t == LARGE_4093 ? ECS_MAX_COMPONENT_SIZE - 3 : sizes[t % 20];
}

/* The types of the one-type systems (their passes hand out the columns values are read from). */
static const uint32_t large_one_type[LARGE_ONE_TYPE] = {LARGE_4096, 7, LARGE_2048, LARGE_3000,
                                                        LARGE_4093};

struct large {
	struct fixture f;
	uint32_t one_type_system[LARGE_ONE_TYPE]; /* the system id of each, or UINT32_MAX */
	/* the random values of a batch, one block per type of it, kept from batch to batch: a
	 * fresh block of megabytes each time is mostly page faults */
	unsigned char *scratch[6];
	size_t scratch_size[6];
	ecs_entity *live; /* large_live's */
	uint32_t live_cap;
	ecs_entity list[LARGE_BATCH_MOST + 1];
	ecs_entity out[4 * LARGE_BATCH_MOST];
};

/* types: LARGE_TYPES, or fewer (the first ones) where a test needs no more; storage: their
 * hints, or NULL: drawn from the seed. */
static bool large_open(struct large *l, const struct ecs_ops *ops, uint32_t types, uint64_t seed,
                       const uint8_t *storage)
{
	TRY(fixture_open_sized(&l->f, ops, types, LARGE_SYSTEMS, seed, large_size, storage));
	for (uint32_t i = 0; i < LARGE_ONE_TYPE; i++)
		l->one_type_system[i] = UINT32_MAX;
	return true;
}

static bool large_close(struct large *l)
{
	free(l->live);
	l->live = NULL;
	l->live_cap = 0;
	for (uint32_t i = 0; i < 6; i++) {
		free(l->scratch[i]);
		l->scratch[i] = NULL;
		l->scratch_size[i] = 0;
	}
	return fixture_close(&l->f);
}

static bool large_register_one_type(struct large *l)
{
	for (uint32_t i = 0; i < LARGE_ONE_TYPE; i++) {
		l->one_type_system[i] = l->f.m.system_count;
		TRY(op_register(&l->f, &large_one_type[i], 1));
	}
	return true;
}

/* Every live handle, in random order in l->live; their number. */
static uint32_t large_live(struct large *l)
{
	struct fixture *f = &l->f;
	uint32_t n = 0;
	if (f->m.live > l->live_cap) {
		ecs_entity *p = realloc(l->live, f->m.live * sizeof *p);
		if (!p) {
			check_failed(__FILE__, __LINE__, "out of memory");
			abort();
		}
		l->live = p;
		l->live_cap = f->m.live;
	}
	for (uint32_t i = 0; i < f->m.entity_count; i++) {
		struct model_entity *r = &f->m.entities[i];
		if (r->alive && model_find(&f->m, r->handle) == r && n < l->live_cap)
			l->live[n++] = r->handle;
	}
	lived_shuffle(f, l->live, n);
	return n;
}

/* bytes random bytes, eight from each step of a generator seeded by the fixture's, a word at
 * a time (megabytes of them per batch: a byte at a time costs seconds under the sanitizers). */
static void large_fill(struct fixture *f, unsigned char *p, size_t bytes)
{
	uint64_t x = next_random(f) | 1;
	for (size_t b = 0; b < bytes; b += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (bytes - b >= 8)
			memcpy(p + b, &x, 8); /* a store, not a call */
		else
			for (size_t i = b; i < bytes; i++)
				p[i] = (unsigned char)(x >> (i - b) * 8);
	}
}

enum large_source {
	LARGE_PACKED,   /* random bytes, stride = size */
	LARGE_ONE,      /* one random value for all: stride 0 */
	LARGE_SPACED,   /* random bytes, stride > size */
	LARGE_COLUMN,   /* a column of a one-type system's pass over a type at least as large */
	LARGE_STORED,   /* one live entity's value of a type at least as large, for all */
	LARGE_SOURCES
};

/*
 * Values of type t for up to *count entities, from `source` (where the storage has no such
 * column or value, random bytes packed instead). A column is as long as the pass's first batch,
 * so *count may come down to it. Random bytes are in l->scratch[slot] (0..5: one for each type
 * of a batch), good until the next call with that slot.
 */
static bool large_values(struct large *l, uint32_t t, enum large_source source, uint32_t *count,
                         struct ecs_values *v, uint32_t slot)
{
	struct fixture *f = &l->f;
	uint32_t size = f->sizes[t];
	/* From the storage: the first batch of a one-type system's pass over a type at least as
	 * large (from a random one on): its column, or its first value for all. */
	bool stored = source == LARGE_STORED;
	for (uint32_t k = 0, at = below(f, LARGE_ONE_TYPE);
	     (stored || source == LARGE_COLUMN) && k < LARGE_ONE_TYPE; k++) {
		uint32_t i = (at + k) % LARGE_ONE_TYPE, u = large_one_type[i];
		struct ecs_iter it;
		struct ecs_batch b;
		if (l->one_type_system[i] == UINT32_MAX || f->sizes[u] < size)
			continue;
		CHECK_OK(f->ops->system_iter_begin(f->s, l->one_type_system[i], &it));
		if (!f->ops->system_iter_next(&it, &b) || (!stored && !b.columns[0]))
			continue;
		v->data = b.columns[0] ? b.columns[0] : b.pointers[0][0];
		v->stride = stored ? 0 : f->sizes[u];
		if (!stored && *count > b.count)
			*count = b.count;
		return true;
	}
	/* else any stored value (a slow search) */
	if (source == LARGE_STORED && f->m.entity_count > 0)
		for (uint32_t k = 0, n = f->m.entity_count, at = below(f, n); k < n; k++) {
			struct model_entity *r = &f->m.entities[(at + k) % n];
			if (!r->alive)
				continue;
			for (uint32_t u = 0; u < f->m.component_count; u++)
				if (r->has[u] && f->sizes[u] >= size) {
					void *p;
					CHECK_OK(f->ops->component_get(f->s, r->handle, u, &p));
					v->data = p;
					v->stride = 0;
					return true;
				}
		}
	v->stride = source == LARGE_ONE ? 0 : source == LARGE_SPACED ? size + 1 + below(f, 9) : size;
	size_t bytes = (size_t)(*count ? *count - 1 : 0) * v->stride + size;
	if (bytes > l->scratch_size[slot]) {
		free(l->scratch[slot]);
		CHECK((l->scratch[slot] = malloc(bytes)) != NULL);
		l->scratch_size[slot] = bytes;
	}
	large_fill(f, l->scratch[slot], bytes);
	v->data = l->scratch[slot];
	return true;
}

/* A type: the first six (the systems' and the random operations') half the time, else any. */
static uint32_t large_type(struct fixture *f)
{
	return below(f, 2) ? below(f, 6) : below(f, LARGE_TYPES);
}

/* A create batch of `count` entities with k distinct random types (0..4: many tables), each
 * type's values from a random source. */
static bool large_create_batch(struct large *l, uint32_t count)
{
	struct fixture *f = &l->f;
	uint32_t k = below(f, 5), types[4];
	struct ecs_values values[4];
	for (uint32_t i = 0; i < k; i++) {
		bool again = true;
		while (again) {
			types[i] = large_type(f);
			again = false;
			for (uint32_t j = 0; j < i; j++)
				again |= types[j] == types[i];
		}
	}
	for (uint32_t i = 0; i < k; i++)
		TRY(large_values(l, types[i], (enum large_source)below(f, LARGE_SOURCES), &count,
		                 &values[i], i));
	return op_create_batch(f, types, k, k ? values : NULL, count, false, l->out);
}

/*
 * An add (or remove) batch of type t over up to `most` live entities that lack (have) it, in
 * random order; with `misuse`, one entry in the middle is wrong (a dead handle, a repeat, one
 * that has (lacks) t), so that the whole batch must fail and change nothing.
 */
static bool large_change_batch(struct large *l, uint32_t t, bool add, uint32_t most, bool misuse)
{
	struct fixture *f = &l->f;
	uint32_t live = large_live(l), count = 0;
	ecs_entity wrong = ECS_NULL;
	most = most < LARGE_BATCH_MOST ? most : LARGE_BATCH_MOST; /* l->list's room */
	for (uint32_t i = 0; i < live; i++) {
		bool has = model_find(&f->m, l->live[i])->has[t] != 0;
		if (has != add && count < most)
			l->list[count++] = l->live[i];
		else if (has == add)
			wrong = l->live[i];
	}
	if (misuse && count > 1) {
		uint32_t at = count / 2 + below(f, count / 2), dice = below(f, 3);
		for (uint32_t i = 0; dice == 0 && i < f->m.entity_count; i++)
			if (!f->m.entities[i].alive)
				wrong = f->m.entities[i].handle;
		if (dice == 1 || wrong == ECS_NULL)
			wrong = l->list[below(f, at)]; /* a repeat */
		l->list[count++] = l->list[at];
		l->list[at] = wrong;
	}
	if (!add)
		return op_remove_batch(f, l->list, count, t, false);
	struct ecs_values v;
	enum large_source source = (enum large_source)below(f, LARGE_SOURCES);
	if (source == LARGE_COLUMN && misuse)
		source = LARGE_STORED; /* the count must stay: the wrong entry is among them */
	TRY(large_values(l, t, source, &count, &v, 0));
	return op_add_batch(f, l->list, count, t, &v, false);
}

/* Destroys one live entity in `one_in`, in a random order (the free list's). */
static bool large_destroy_some(struct large *l, uint32_t one_in)
{
	uint32_t live = large_live(l);
	for (uint32_t i = 0; i < live; i++)
		if (below(&l->f, one_in) == 0)
			TRY(op_destroy(&l->f, l->live[i]));
	return true;
}

/*
 * The model test at scale, round after round: grow to LARGE_LIVE live entities with create
 * batches of hundreds to thousands (many tables; values of every source), add and remove
 * batches of thousands in random order (misuse in the middle now and then), the random
 * operations (misuse included), a group hint at random, then destroy a random share in a
 * random order, so that the free list is thousands long and recycled in no order; once, three
 * indices recycled 1100 times (their generations wrap where the free list gives the latest
 * indices back first). Twice a round, check_all: every value against the model (every type of every live
 * entity, and through every system's pass), liveness of every handle ever given out.
 */
static bool large_model_round(struct large *l, uint32_t round, uint32_t target,
                              uint32_t *wrapped)
{
	struct fixture *f = &l->f;
	while (f->m.live < target) {
		uint32_t room = target - f->m.live;
		uint32_t count = 100 + below(f, LARGE_BATCH_MOST - 100);
		TRY(large_create_batch(l, count < room ? count : room));
	}
	for (uint32_t i = 0; i < 6; i++) {
		uint32_t t = large_type(f);
		TRY(large_change_batch(l, t, i % 2 == 0, 500 + below(f, LARGE_BATCH_MOST - 500),
		                       below(f, 4) == 0));
	}
	for (uint32_t i = 0; i < 300; i++)
		TRY(random_op(f, target + 200));
	TRY(op_group(f, below(f, f->m.system_count + 1)));
	TRY(check_all(f));
	TRY(large_destroy_some(l, 2 + round % 3));
	if (round == 1) {
		/* three created and destroyed (in a random order) 1100 times: where the free list
		 * gives the latest indices back first, the same three, whose generations wrap */
		ecs_entity e[3], previous[3] = {ECS_NULL, ECS_NULL, ECS_NULL};
		for (uint32_t i = 0; i < 1100; i++) {
			for (uint32_t j = 0; j < 3; j++) {
				TRY(op_create(f, &e[j]));
				for (uint32_t k = 0; k < 3; k++)
					*wrapped += previous[k] != ECS_NULL &&
					            ecs_entity_index(e[j]) == ecs_entity_index(previous[k]) &&
					            ecs_entity_generation(e[j]) < ecs_entity_generation(previous[k]);
			}
			lived_shuffle(f, e, 3);
			for (uint32_t j = 0; j < 3; j++)
				TRY(op_destroy(f, previous[j] = e[j]));
		}
	}
	return check_all(f);
}

static bool test_large_model(const struct ecs_ops *ops, const struct test_profile *p)
{
	static struct large l;
	uint32_t wrapped = 0, highest = 0;
	for (uint32_t run = 0; run < large_scale; run++) {
		/* with --scale, runs that grow to twice, four, eight and sixteen times as many */
		uint32_t target = LARGE_LIVE << (run < 4 ? run : 4);
		TRY(large_open(&l, ops, LARGE_TYPES, 61 + run, NULL));
		TRY(register_systems(&l.f, p->system_count - LARGE_ONE_TYPE - 4));
		TRY(op_group(&l.f, 1)); /* {1, 3} excluding 2: owned (group) before any entity */
		TRY(large_register_one_type(&l));
		for (uint32_t round = 0; round < 3; round++) {
			TRY(large_model_round(&l, round, target, &wrapped));
			if (round == 1) /* systems registered while thousands of entities exist */
				TRY(register_systems(&l.f, 4));
		}
		for (uint32_t i = 0; i < l.f.m.entity_count; i++) {
			uint32_t index = ecs_entity_index(l.f.m.entities[i].handle);
			highest = index > highest ? index : highest;
		}
		TRY(large_close(&l));
	}
	printf("note %s: %u run(s), highest index %u, generations wrapped %u times\n",
	       runner_test(), large_scale, highest, wrapped);
	return true;
}

/* The live entity whose index is `index`, or ECS_NULL. */
static ecs_entity large_at_index(struct large *l, uint32_t index)
{
	struct model *m = &l->f.m;
	if (index >= m->latest_cap || m->latest[index] == 0)
		return ECS_NULL;
	struct model_entity *r = &m->entities[m->latest[index] - 1];
	return r->alive ? r->handle : ECS_NULL;
}

/*
 * Page boundaries: sparse's pools (and hybrid's, for the types marked sparse) map an entity
 * index to its dense slot through pages of 4096 indices, each allocated when an index of its
 * range first gets the type, and reached through a page table of 4 pages at first, grown as
 * indices need. 16,500 entities, then components on the entities at the last and first index
 * of each page (4095 and 4096, ... 16383 and 16384), given in an order that allocates the
 * pages out of order, the first past the page table's first size; every other entity
 * destroyed (in a random order), and 6,000 created again in one batch into the recycled
 * indices on every page; components removed from the boundary entities (their pages emptied)
 * and added to all in a batch. Every type table, then every type sparse. The state is checked
 * against the model after each step.
 */
static bool large_pages(const struct ecs_ops *ops, uint8_t hint)
{
	static struct large l;
	struct fixture *f = &l.f;
	uint8_t storage[8]; /* 8 types are enough: checking 16,500 entities costs less */
	memset(storage, hint, sizeof storage);
	TRY(large_open(&l, ops, 8, 71, storage));
	static const uint32_t r0[] = {0, 2}, r1[] = {2}, x1[] = {3}, r2[] = {3}, r3[] = {0, 3};
	TRY(op_register(f, r0, 2));
	TRY(op_register_excluding(f, r1, 1, x1, 1));
	TRY(op_register(f, r2, 1));
	TRY(op_register(f, r3, 2));
	TRY(op_create_batch(f, NULL, 0, NULL, 3000, false, l.out));
	TRY(op_create_batch(f, NULL, 0, NULL, 6500, false, l.out));
	TRY(op_create_batch(f, NULL, 0, NULL, 7000, false, l.out));
	enum { B = 8 };
	static const uint32_t boundary[B] = {16384, 4095, 8192, 12288, 16383, 4096, 12287, 8191};
	ecs_entity at[B];
	uint32_t found = 0;
	for (uint32_t i = 0; i < B; i++) {
		at[i] = large_at_index(&l, boundary[i]);
		if (at[i] == ECS_NULL)
			continue;
		found++;
		TRY(op_add(f, at[i], 0));
		TRY(op_add(f, at[i], 3));
		if (i % 2)
			TRY(op_add(f, at[i], 2));
	}
	if (found < B) /* the interface does not promise which indices come first */
		printf("note %s: %u of the %u boundary indices handed out\n", runner_test(), found, B);
	TRY(check_all(f));
	uint32_t live = large_live(&l);
	for (uint32_t i = 0; i < live; i++) {
		bool keep = false;
		for (uint32_t j = 0; j < B; j++)
			keep |= l.live[i] == at[j];
		if (!keep)
			TRY(op_destroy(f, l.live[i]));
	}
	TRY(check_all(f));
	static const uint32_t two[] = {2, 0};
	struct ecs_values v[2];
	uint32_t count = 6000;
	TRY(large_values(&l, 2, LARGE_PACKED, &count, &v[0], 0));
	TRY(large_values(&l, 0, LARGE_ONE, &count, &v[1], 1));
	TRY(op_create_batch(f, two, 2, v, count, false, l.out));
	TRY(check_all(f));
	for (uint32_t i = 0; i < B; i++)
		if (at[i] != ECS_NULL)
			TRY(op_remove(f, at[i], 3));
	TRY(large_change_batch(&l, 3, true, LARGE_BATCH_MOST, false));
	TRY(large_change_batch(&l, 3, true, LARGE_BATCH_MOST, false));
	TRY(large_change_batch(&l, 0, false, LARGE_BATCH_MOST, false));
	TRY(check_all(f));
	return large_close(&l);
}

static bool test_large_pages(const struct ecs_ops *ops, const struct test_profile *p)
{
	(void)p;
	TRY(large_pages(ops, ECS_STORAGE_TABLE));
	return large_pages(ops, ECS_STORAGE_SPARSE);
}

/*
 * The batch of system y's pass with a column whose entities hold fewest types (in archetype,
 * a table of the system's type alone, where there is one), or false when no batch has a column.
 */
static bool large_leanest_column(struct large *l, uint32_t y, struct ecs_batch *out)
{
	struct fixture *f = &l->f;
	struct ecs_iter it;
	struct ecs_batch b;
	uint32_t best = UINT32_MAX;
	if (f->ops->system_iter_begin(f->s, y, &it) != ECS_OK)
		return false;
	while (f->ops->system_iter_next(&it, &b)) {
		if (!b.columns[0])
			continue;
		uint32_t most = 0;
		for (uint32_t i = 0; i < b.count; i++) {
			struct model_entity *r = model_find(&f->m, b.entities[i]);
			uint32_t held = 0;
			for (uint32_t t = 0; r && t < f->m.component_count; t++)
				held += r->has[t];
			most = held > most ? held : most;
		}
		if (most < best) {
			best = most;
			*out = b;
		}
	}
	return best != UINT32_MAX;
}

/*
 * Values read from the very rows a batch changes: 600 entities of the 3000-byte type alone;
 * then, from the column of the pass's batch whose entities hold fewest types (archetype: the
 * table of that type alone), as many created again with that type (the create grows the table
 * it reads from), and a type added to that batch's entities, shuffled, the column their values
 * (their rows leave the table, the last rows filling the holes, while the values are read).
 */
static bool large_own_column(struct large *l)
{
	struct fixture *f = &l->f;
	uint32_t y = l->one_type_system[3], u = large_one_type[3], t = LARGE_2048, count = 600;
	struct ecs_values v;
	struct ecs_batch b;
	CHECK(u == LARGE_3000 && y != UINT32_MAX);
	TRY(large_values(l, u, LARGE_PACKED, &count, &v, 0));
	TRY(op_create_batch(f, &u, 1, &v, count, false, l->out));
	if (!large_leanest_column(l, y, &b))
		return true; /* no columns: nothing to read from */
	v.data = b.columns[0];
	v.stride = f->sizes[u];
	TRY(op_create_batch(f, &u, 1, &v, b.count < LARGE_BATCH_MOST ? b.count : LARGE_BATCH_MOST,
	                    false, l->out));
	TRY(check_all(f));
	if (!large_leanest_column(l, y, &b))
		return true;
	count = 0;
	for (uint32_t i = 0; i < b.count && count < LARGE_BATCH_MOST; i++) /* those lacking t */
		if (!model_find(&f->m, b.entities[i])->has[t])
			l->list[count++] = b.entities[i];
	lived_shuffle(f, l->list, count);
	v.data = b.columns[0];
	TRY(op_add_batch(f, l->list, count, t, &v, false));
	return check_all(f);
}

/*
 * Batches of thousands over many tables: 2,200 entities of 64 type sets (each a subset of types
 * 0, 2, 3, 5, 6, 8: tables, or mixes of pools), created set by set in batches in a random
 * order of the sets, a third destroyed in a random order and created again in one batch; then
 * add and remove batches of thousands in random handle order, their values packed, one for
 * all, spaced, a column of a pass, one stored 4 KiB value; the same batches with one wrong
 * entry in the middle (nothing may change); a create batch of thousands whose values are read
 * from a column.
 */
static bool test_large_batch(const struct ecs_ops *ops, const struct test_profile *p)
{
	(void)p;
	static struct large l;
	struct fixture *f = &l.f;
	TRY(large_open(&l, ops, LARGE_TYPES, 73, NULL));
	static const uint32_t r0[] = {0, 2}, r1[] = {9}, x1[] = {3}, r2[] = {1, 9}, r3[] = {5},
	                      x3[] = {0, 9};
	TRY(op_register(f, r0, 2));
	TRY(op_register_excluding(f, r1, 1, x1, 1));
	TRY(op_register(f, r2, 2));
	TRY(op_register_excluding(f, r3, 1, x3, 2));
	TRY(large_register_one_type(&l));
	TRY(op_group(f, below(f, f->m.system_count)));
	static const uint32_t pool[6] = {0, 2, 3, 5, 6, 8};
	uint32_t sets[64];
	for (uint32_t s = 0; s < 64; s++)
		sets[s] = s;
	lived_shuffle(f, sets, 64);
	for (uint32_t s = 0; s < 64; s++) {
		uint32_t types[6], k = 0, count = 25 + below(f, 20);
		struct ecs_values v[6];
		for (uint32_t b = 0; b < 6; b++)
			if (sets[s] >> b & 1)
				types[k++] = pool[b];
		lived_shuffle(f, types, k);
		for (uint32_t i = 0; i < k; i++)
			TRY(large_values(&l, types[i], (enum large_source)(s % 3), &count, &v[i], i));
		TRY(op_create_batch(f, types, k, v, count, false, l.out));
	}
	uint32_t created = f->m.live;
	TRY(large_destroy_some(&l, 3));
	TRY(large_create_batch(&l, created - f->m.live));
	TRY(large_change_batch(&l, LARGE_3000, true, created / 2, false)); /* columns to read */
	TRY(check_all(f));
	/* one source after another, each on thousands of entities; half removed again */
	for (uint32_t source = 0; source < LARGE_SOURCES; source++) {
		uint32_t t = source % 2 ? LARGE_513 : LARGE_4096, count = LARGE_BATCH_MOST;
		uint32_t live = large_live(&l), n = 0;
		for (uint32_t i = 0; i < live && n < count; i++)
			if (!model_find(&f->m, l.live[i])->has[t])
				l.list[n++] = l.live[i];
		struct ecs_values v;
		TRY(large_values(&l, t, (enum large_source)source, &n, &v, 0));
		TRY(op_add_batch(f, l.list, n, t, &v, false));
		TRY(check_all(f));
		TRY(large_change_batch(&l, t, false, n / 2, false));
	}
	/* the same with a wrong entry in the middle, several times over: nothing may change */
	for (uint32_t i = 0; i < 8; i++)
		TRY(large_change_batch(&l, i % 2 ? LARGE_513 : 0, i % 4 < 2, LARGE_BATCH_MOST, true));
	TRY(check_all(f));
	/* thousands created with the values of a column and of one stored value (the table or pool
	 * they come from grows under them) */
	for (uint32_t i = 0; i < 3; i++) {
		static const uint32_t types[3] = {LARGE_4096, LARGE_513, 0};
		struct ecs_values v[3];
		uint32_t count = LARGE_BATCH_MOST;
		TRY(large_values(&l, LARGE_4096, LARGE_COLUMN, &count, &v[0], 0));
		TRY(large_values(&l, LARGE_513, LARGE_COLUMN, &count, &v[1], 1));
		TRY(large_values(&l, 0, LARGE_STORED, &count, &v[2], 2));
		TRY(op_create_batch(f, types, 3, v, count, false, l.out));
	}
	TRY(check_all(f));
	TRY(large_own_column(&l));
	return large_close(&l);
}

/*
 * Components of 4 KiB (ECS_MAX_COMPONENT_SIZE) moving between tables: 600 entities with a
 * 4096-byte and a 4093-byte component, each given and taken another type in a random order
 * (archetype moves the row, both large values with it, to a neighbouring table and back);
 * large values given from the storage: another entity's (its table or pool grows under the
 * value) and the entity's own (in archetype, a column of the table it leaves); batches of them,
 * stride 0 and packed from a column.
 */
static bool test_large_component(const struct ecs_ops *ops, const struct test_profile *p)
{
	(void)p;
	static struct large l;
	struct fixture *f = &l.f;
	enum { N = 600, BIG = LARGE_4096, BIG2 = LARGE_4093 };
	static const uint32_t r0[] = {BIG, 0}, r1[] = {BIG2}, x1[] = {2}, pair[] = {BIG, BIG2};
	TRY(large_open(&l, ops, LARGE_TYPES, 79, NULL));
	TRY(op_register(f, r0, 2));
	TRY(op_register_excluding(f, r1, 1, x1, 1));
	TRY(large_register_one_type(&l));
	static ecs_entity e[N];
	unsigned char *a = malloc(ECS_MAX_COMPONENT_SIZE), *b = malloc(ECS_MAX_COMPONENT_SIZE);
	CHECK(a && b);
	bool ok = true;
	for (uint32_t i = 0; i < N && ok; i++) {
		large_fill(f, a, ECS_MAX_COMPONENT_SIZE);
		large_fill(f, b, ECS_MAX_COMPONENT_SIZE);
		const void *values[2] = {a, b};
		ok = op_create_with(f, pair, 2, values, &e[i]);
	}
	free(a);
	free(b);
	TRY(ok);
	TRY(check_all(f));
	uint32_t order[N];
	for (uint32_t round = 0; round < 4; round++) {
		for (uint32_t i = 0; i < N; i++)
			order[i] = i;
		lived_shuffle(f, order, N);
		uint32_t t = round % 2 ? 2 : 0;
		for (uint32_t i = 0; i < N; i++)
			TRY(op_add(f, e[order[i]], t));
		TRY(check_all(f));
		lived_shuffle(f, order, N);
		for (uint32_t i = 0; i < N; i++) {
			/* BIG2 from the entity's own BIG, or BIG from another's */
			ecs_entity x = e[order[i]], y = e[order[(i + 1) % N]];
			if (i % 3 == 0) {
				TRY(op_remove(f, x, BIG2));
				TRY(op_add_from(f, x, BIG2, x, BIG));
			} else if (i % 3 == 1) {
				TRY(op_remove(f, x, BIG));
				TRY(op_add_from(f, x, BIG, y, BIG));
			}
			TRY(op_remove(f, x, t));
		}
		TRY(check_all(f));
	}
	/* batches of 4 KiB values: BIG2 taken from all, given back from BIG's column; BIG taken
	 * from half and given back with one stored value */
	for (uint32_t source = LARGE_COLUMN; source <= LARGE_STORED; source++) {
		uint32_t t = source == LARGE_COLUMN ? BIG2 : BIG;
		for (uint32_t i = 0; i < N; i++)
			order[i] = i;
		lived_shuffle(f, order, N);
		uint32_t n = source == LARGE_COLUMN ? N : N / 2;
		for (uint32_t i = 0; i < n; i++)
			l.list[i] = e[order[i]];
		TRY(op_remove_batch(f, l.list, n, t, false));
		TRY(check_all(f));
		struct ecs_values v;
		TRY(large_values(&l, t, (enum large_source)source, &n, &v, 0));
		TRY(op_add_batch(f, l.list, n, t, &v, false));
		TRY(check_all(f));
	}
	return large_close(&l);
}

/*
 * One large batch with the allocator failing at its k-th allocation, for k = 1, 2, ... 8, then
 * 16, 32, ... until the batch needs no more: in the middle of a batch of thousands (the family
 * of hash, tree and vector allocates an index node per entity, so a failure there comes after
 * thousands of changes that must be taken back). Each failure must return ECS_ERR_NO_MEMORY and
 * leave everything as it was (the whole state checked against the model); then the batch
 * succeeds. The storage is the same throughout: what a failed batch grew and kept is allowed.
 * kind: 0 create, 1 add, 2 remove. Returns the number of failures survived in *points.
 */
static bool large_failure_sweep(struct large *l, uint32_t kind, uint32_t *points)
{
	struct fixture *f = &l->f;
	static const uint32_t types[3] = {LARGE_4096, LARGE_513, 0};
	for (uint32_t k = 1;; k = k < 8 ? k + 1 : 2 * k) {
		f->allow_oom = true;
		f->oom_seen = 0;
		f->counter.fail_at = k;
		/* the same batch each time: drawn from the generator as it was */
		uint64_t rng = f->rng;
		if (kind == 0) {
			struct ecs_values v[3];
			uint32_t count = 1500;
			TRY(large_values(l, LARGE_4096, LARGE_PACKED, &count, &v[0], 0));
			TRY(large_values(l, LARGE_513, LARGE_STORED, &count, &v[1], 1));
			TRY(large_values(l, 0, LARGE_SPACED, &count, &v[2], 2));
			TRY(op_create_batch(f, types, 3, v, count, false, l->out));
		} else {
			/* type 2's remove makes entities join the system that excludes it */
			TRY(large_change_batch(l, kind == 1 ? LARGE_2048 : 2, kind == 1, 1500, false));
		}
		f->allow_oom = false;
		if (!f->oom_seen) { /* it needed fewer than k allocations: done */
			f->counter.fail_at = 0;
			f->counter.failures = 0;
			break;
		}
		(*points)++;
		f->rng = rng;
		TRY(model_check(&f->m, f->ops, f->s)); /* right after the failure: nothing changed */
	}
	return check_all(f);
}

static bool test_large_batch_failure(const struct ecs_ops *ops, const struct test_profile *p)
{
	(void)p;
	static struct large l;
	struct fixture *f = &l.f;
	TRY(large_open(&l, ops, LARGE_TYPES, 83, NULL));
	TRY(register_systems(f, 6));
	TRY(large_register_one_type(&l));
	static const uint32_t one_two[] = {1, 2};
	TRY(op_register_excluding(f, one_two, 1, one_two + 1, 1));
	while (f->m.live < 1200)
		TRY(large_create_batch(&l, 200 + below(f, 400)));
	/* entities of the system over type 1 but for type 2, which it excludes: the remove batch
	 * makes them join it, its list grow */
	unsigned char value[64];
	large_fill(f, value, sizeof value);
	const struct ecs_values v12[] = {{value, 0}, {value + 32, 0}};
	TRY(op_create_batch(f, one_two, 2, v12, 1000, false, l.out));
	TRY(large_destroy_some(&l, 3)); /* a free list of about 750, in a random order */
	TRY(check_all(f));
	uint32_t points[3] = {0, 0, 0};
	for (uint32_t kind = 0; kind < 3; kind++)
		TRY(large_failure_sweep(&l, kind, &points[kind]));
	printf("note %s: allocation failures survived: create batch %u, add batch %u, remove "
	       "batch %u\n", runner_test(), points[0], points[1], points[2]);
	return large_close(&l);
}

/* --- lookups: every misuse, one at a time and in batches (issue 33) ----------------------- */

static struct ecs_ops without_get_batch(const struct ecs_ops *ops)
{
	struct ecs_ops plain = *ops;
	plain.component_get_batch = NULL;
	return plain;
}

/*
 * A batch of lookups against one component_get a lookup, through `ops` (native, or the
 * fallback): each result's pointer (the same as component_get's, NULL where it fails) and status
 * (the model's), the first failure returned, with status[] given and without.
 */
static bool check_get_batch(struct fixture *f, const struct ecs_ops *ops,
                            const ecs_entity *handles, uint32_t count, const uint32_t *types,
                            uint32_t type_count)
{
	size_t n = (size_t)count * type_count;
	void **out = malloc((n + 1) * sizeof *out);
	int *status = malloc((n + 1) * sizeof *status);
	CHECK(out && status);
	for (int with_status = 0; with_status < 2; with_status++) {
		for (size_t r = 0; r < n; r++) {
			out[r] = &out[r]; /* a sentinel: every result must be written */
			status[r] = 99;
		}
		int rc = ecs_component_get_batch(ops, f->s, handles, count, types, type_count, out,
		                                 with_status ? status : NULL);
		int first = ECS_OK;
		for (uint32_t j = 0, r = 0; j < count; j++)
			for (uint32_t i = 0; i < type_count; i++, r++) {
				int want = model_expect_remove(&f->m, handles[j], types[i]);
				void *p = NULL;
				CHECK_STATUS(f->ops->component_get(f->s, handles[j], types[i], &p), want);
				CHECK(out[r] == (want == ECS_OK ? p : NULL));
				CHECK_EQ(status[r], with_status ? want : 99);
				if (first == ECS_OK)
					first = want;
			}
		CHECK_STATUS(rc, first);
	}
	free(out);
	free(status);
	return true;
}

/*
 * Lookups misused every way, on every backend, one at a time (component_get) and in batches
 * (component_get_batch, natively and through the fallback): dead handles of every age (an index
 * destroyed and not yet reused; one reused five times, each older generation asked; the
 * generation after the live one; an index never handed out; ECS_NULL), a recycled index asked
 * with its old generation, components the entity lacks, types out of range; in a batch, each
 * of those among good lookups, repeats included, longer than the backends' read-ahead; and the
 * batch's argument checks, which write nothing. Nothing is allocated and nothing changes.
 */
static bool test_lookup_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 31));
	TRY(register_systems(&f, 3));
	uint32_t c = p->component_count;
	enum { GOOD = 40, AGES = 6 };
	ecs_entity good[GOOD], aged[AGES], gone;
	for (uint32_t i = 0; i < GOOD; i++) {
		TRY(op_create(&f, &good[i]));
		TRY(op_add(&f, good[i], i % 3 == 2 ? 5 : 0));
		if (i % 2)
			TRY(op_add(&f, good[i], 1));
	}
	/* One index through AGES lives: each destroy's handle stays dead when the index is reused */
	for (uint32_t g = 0; g < AGES; g++) {
		TRY(op_create(&f, &aged[g]));
		TRY(op_add(&f, aged[g], 0));
		TRY(op_add(&f, aged[g], 1));
		if (g + 1 < AGES)
			TRY(op_destroy(&f, aged[g]));
	}
	ecs_entity live = aged[AGES - 1];
	TRY(op_create(&f, &gone));
	TRY(op_add(&f, gone, 0));
	TRY(op_destroy(&f, gone));
	ecs_entity bad[] = {
		aged[0], aged[1], aged[AGES - 2], /* the index's older generations */
		ecs_entity_make(ecs_entity_index(live), ecs_entity_generation(live) + 1),
		gone, ecs_entity_make(ECS_MAX_ENTITIES - 5, 0), ecs_entity_make(ECS_MAX_ENTITIES - 1, 3),
		ECS_NULL,
	};
	uint32_t types[] = {0, 1, 3, 5, c, c + 1, UINT32_MAX};
	uint64_t allocations = f.counter.allocations, bytes = f.counter.live_bytes;
	/* one at a time */
	ecs_entity everyone[GOOD + AGES + sizeof bad / sizeof bad[0]];
	uint32_t n = 0;
	for (uint32_t i = 0; i < GOOD; i++)
		everyone[n++] = good[i];
	everyone[n++] = live;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		everyone[n++] = bad[i];
	for (uint32_t j = 0; j < n; j++)
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
			TRY(op_get(&f, everyone[j], types[i], false));
	void *ptr = &ptr;
	CHECK_STATUS(ops->component_get(NULL, live, 0, &ptr), ECS_ERR_INVALID);
	CHECK_STATUS(ops->component_get(f.s, live, 0, NULL), ECS_ERR_INVALID);
	CHECK(ptr == &ptr);
	/* in batches: each bad handle (and each bad type) among good lookups */
	struct ecs_ops plain = without_get_batch(ops);
	const struct ecs_ops *variant[2] = {ops, &plain};
	ecs_entity mixed[3 * (GOOD + sizeof bad / sizeof bad[0])];
	uint32_t m = 0;
	for (uint32_t i = 0; i < GOOD; i++) {
		mixed[m++] = good[i];
		if (i < sizeof bad / sizeof bad[0])
			mixed[m++] = bad[i];
		if (i % 7 == 3)
			mixed[m++] = good[i / 2]; /* a repeat */
	}
	uint32_t good_types[] = {0, 1}, with_bad[] = {0, c, 1, 3}, last_bad[] = {1, UINT32_MAX};
	for (int v = 0; v < 2; v++) {
		TRY(check_get_batch(&f, variant[v], good, GOOD, good_types, 1));
		TRY(check_get_batch(&f, variant[v], good, GOOD, good_types, 2));
		TRY(check_get_batch(&f, variant[v], mixed, m, good_types, 2));
		TRY(check_get_batch(&f, variant[v], mixed, m, with_bad, 4));
		TRY(check_get_batch(&f, variant[v], mixed + 1, m - 1, last_bad, 2));
		TRY(check_get_batch(&f, variant[v], bad, sizeof bad / sizeof bad[0], good_types, 2));
		TRY(check_get_batch(&f, variant[v], &live, 1, types, sizeof types / sizeof types[0]));
		/* as many types as the limit, all one type */
		uint32_t many[ECS_CREATE_MAX_COMPONENTS] = {0};
		TRY(check_get_batch(&f, variant[v], good, 3, many, ECS_CREATE_MAX_COMPONENTS));
		/* the arguments: ECS_ERR_INVALID, nothing written */
		void *out[2 * ECS_CREATE_MAX_COMPONENTS] = {&ptr, &ptr};
		int status[2] = {99, 99};
		const struct ecs_ops *o = variant[v];
		CHECK_STATUS(ecs_component_get_batch(o, NULL, good, 1, good_types, 2, out, status),
		             ECS_ERR_INVALID);
		CHECK_STATUS(ecs_component_get_batch(o, f.s, good, 1, NULL, 2, out, status),
		             ECS_ERR_INVALID);
		CHECK_STATUS(ecs_component_get_batch(o, f.s, good, 1, good_types, 0, out, status),
		             ECS_ERR_INVALID);
		CHECK_STATUS(ecs_component_get_batch(o, f.s, good, 1, many,
		                                     ECS_CREATE_MAX_COMPONENTS + 1, out, status),
		             ECS_ERR_INVALID);
		CHECK_STATUS(ecs_component_get_batch(o, f.s, NULL, 1, good_types, 2, out, status),
		             ECS_ERR_INVALID);
		CHECK_STATUS(ecs_component_get_batch(o, f.s, good, 1, good_types, 2, NULL, status),
		             ECS_ERR_INVALID);
		CHECK(out[0] == &ptr && out[1] == &ptr && status[0] == 99 && status[1] == 99);
		/* count 0: nothing to look up, NULL lists allowed */
		CHECK_OK(ecs_component_get_batch(o, f.s, NULL, 0, good_types, 2, NULL, NULL));
	}
	CHECK_EQ(f.counter.allocations, allocations); /* lookups allocate nothing */
	CHECK_EQ(f.counter.live_bytes, bytes);
	TRY(check_all(&f));
	return fixture_close(&f);
}

/*
 * Batches of lookups on a storage with a random history (the random test's operations: holes,
 * recycled indices, kinds, adds and removes in no order, and on hybrid random storage marks):
 * random handles (live, dead, never created, ECS_NULL) and random types (some out of range),
 * each batch against one component_get a lookup, natively and through the fallback.
 */
static bool test_lookup_random(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 32));
	TRY(register_systems(&f, 4));
	struct ecs_ops plain = without_get_batch(ops);
	ecs_entity handles[300];
	uint32_t types[4];
	for (uint32_t round = 0; round < 40; round++) {
		for (uint32_t i = 0; i < 200; i++)
			TRY(random_op(&f, 600));
		uint32_t count = below(&f, 300), type_count = 1 + below(&f, 4);
		for (uint32_t j = 0; j < count; j++)
			handles[j] = some_handle(&f);
		for (uint32_t i = 0; i < type_count; i++)
			types[i] = some_type(&f);
		TRY(check_get_batch(&f, round % 2 ? ops : &plain, handles, count, types, type_count));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

/* --- one entity's types in one call: entity_get (issue 42) ------------------------------- */

static struct ecs_ops without_entity_get(const struct ecs_ops *ops)
{
	struct ecs_ops plain = *ops;
	plain.entity_get = NULL;
	return plain;
}

/*
 * entity_get misused every way, on every backend, natively, through the wrapper's fallback
 * (entity_get NULL) and through the fallback called directly: dead handles of every age (an
 * index destroyed and not yet reused; one reused five times, each older generation asked; the
 * generation after the live one; an index never handed out; ECS_NULL), a recycled index asked
 * with its old generation, each with lists of every length; a missing component and a type out
 * of range at every place of a list among found ones (a failure is that type's, not the
 * others'), repeats, a list as long as the limit; and the arguments: no storage, no list, no
 * out, a count of 0 or over the limit, which write nothing. Nothing is allocated, nothing
 * changes.
 */
static bool test_entity_get_misuse(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 41));
	TRY(register_systems(&f, 3));
	uint32_t c = p->component_count;
	enum { GOOD = 12, AGES = 6 };
	ecs_entity good[GOOD], aged[AGES], gone;
	for (uint32_t i = 0; i < GOOD; i++) {
		TRY(op_create(&f, &good[i]));
		TRY(op_add(&f, good[i], 0));
		TRY(op_add(&f, good[i], 1));
		if (i % 3 == 1)
			TRY(op_add(&f, good[i], 5));
		if (i % 4 == 2)
			TRY(op_remove(&f, good[i], 0));
	}
	for (uint32_t g = 0; g < AGES; g++) { /* one index through AGES lives */
		TRY(op_create(&f, &aged[g]));
		TRY(op_add(&f, aged[g], 0));
		TRY(op_add(&f, aged[g], 1));
		if (g + 1 < AGES)
			TRY(op_destroy(&f, aged[g]));
	}
	ecs_entity live = aged[AGES - 1];
	TRY(op_create(&f, &gone));
	TRY(op_add(&f, gone, 0));
	TRY(op_destroy(&f, gone));
	ecs_entity bad[] = {
		aged[0], aged[1], aged[AGES - 2], /* the recycled index's older generations */
		ecs_entity_make(ecs_entity_index(live), ecs_entity_generation(live) + 1),
		gone, ecs_entity_make(ECS_MAX_ENTITIES - 5, 0), ecs_entity_make(ECS_MAX_ENTITIES - 1, 3),
		ECS_NULL,
	};
	/* lists: found ones, then a missing type (3), one out of range (c, c + 1, UINT32_MAX) at
	 * the front, in the middle and at the end, repeats */
	const uint32_t lists[][5] = {
		{0}, {1}, {0, 1}, {1, 0}, {0, 1, 5}, {3, 0, 1}, {0, 3, 1}, {0, 1, 3}, {c, 0, 1},
		{0, c + 1, 1}, {0, 1, UINT32_MAX}, {0, 0}, {1, 1, 1}, {5, 3, c, 0, 1}, {3}, {c},
	};
	const uint32_t lengths[] = {1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 2, 3, 5, 1, 1};
	uint32_t many[ECS_ENTITY_GET_MAX + 2];
	for (uint32_t i = 0; i < ECS_ENTITY_GET_MAX + 2; i++)
		many[i] = i % 3 == 2 ? c + i : i % 2; /* found, repeated and out of range */
	uint64_t allocations = f.counter.allocations, bytes = f.counter.live_bytes;
	struct ecs_ops plain = without_entity_get(ops);
	const struct ecs_ops *variant[2] = {ops, &plain};
	const struct ecs_ops *own = f.ops;
	for (int v = 0; v < 3; v++) {
		f.ops = variant[v == 1]; /* v 2: the fallback called directly */
		bool direct = v == 2;
		for (uint32_t j = 0; j < GOOD + 1 + sizeof bad / sizeof bad[0]; j++) {
			ecs_entity e = j < GOOD ? good[j] : j == GOOD ? live : bad[j - GOOD - 1];
			for (uint32_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
				for (int give_status = 0; give_status < 2; give_status++)
					TRY(op_entity_get(&f, e, lists[l], lengths[l], true, give_status, j % 2,
					                  direct));
			TRY(op_entity_get(&f, e, many, ECS_ENTITY_GET_MAX, true, true, false, direct));
			/* the arguments: ECS_ERR_INVALID, nothing written */
			TRY(op_entity_get(&f, e, many, 0, true, true, false, direct));
			TRY(op_entity_get(&f, e, many, ECS_ENTITY_GET_MAX + 1, true, true, false, direct));
			TRY(op_entity_get(&f, e, many, UINT32_MAX, true, true, false, direct));
			TRY(op_entity_get(&f, e, NULL, 2, true, true, false, direct));
			TRY(op_entity_get(&f, e, lists[2], 2, false, true, false, direct));
		}
		void *out[2] = {&out[0], &out[1]};
		int status[2] = {99, 99};
		CHECK_STATUS(direct ? ecs_entity_get_fallback(f.ops, NULL, live, lists[2], 2, out, status)
		                    : ecs_entity_get(f.ops, NULL, live, lists[2], 2, out, status),
		             ECS_ERR_INVALID);
		CHECK(out[0] == &out[0] && out[1] == &out[1] && status[0] == 99 && status[1] == 99);
	}
	f.ops = own;
	CHECK_EQ(f.counter.allocations, allocations); /* lookups allocate nothing */
	CHECK_EQ(f.counter.live_bytes, bytes);
	TRY(check_all(&f));
	return fixture_close(&f);
}

/*
 * entity_get on a storage with a random history (the random test's operations: holes, recycled
 * indices, kinds, adds and removes in no order, and on hybrid random storage marks): random
 * handles (live, dead, never created, ECS_NULL) and random lists (repeats, types out of range,
 * lengths up to the limit, misuse now and then), natively and through the fallback, values
 * written through the pointers half the time.
 */
static bool test_entity_get_random(const struct ecs_ops *ops, const struct test_profile *p)
{
	struct fixture f;
	TRY(fixture_open(&f, ops, p->component_count, p->system_count, 42));
	TRY(register_systems(&f, 4));
	for (uint32_t round = 0; round < 40; round++) {
		for (uint32_t i = 0; i < 200; i++)
			TRY(random_op(&f, 600));
		for (uint32_t i = 0; i < 50; i++)
			TRY(random_entity_get(&f, some_handle(&f), some_type(&f), i % 2));
	}
	TRY(check_all(&f));
	return fixture_close(&f);
}

static const struct test tests[] = {
	{"basic", test_basic, {&profile_a, &profile_aaa}, NULL},
	{"misuse", test_misuse, {&profile_a, &profile_aaa}, NULL},
	{"lookup-misuse", test_lookup_misuse, {&profile_a, &profile_aaa}, NULL},
	{"lookup-random", test_lookup_random, {&profile_a, &profile_aaa}, NULL},
	{"entity-get-misuse", test_entity_get_misuse, {&profile_a, &profile_aaa}, NULL},
	{"entity-get-random", test_entity_get_random, {&profile_a, &profile_aaa}, NULL},
	{"generations", test_generations, {&profile_a}, NULL},
	{"systems", test_systems, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"value-from-storage", test_value_from_storage, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"add-aliasing", test_add_aliasing, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"create-with-aliasing", test_create_with_aliasing, {&profile_a, &profile_aa, &profile_aaa},
	 NULL},
	{"exclusions", test_exclusions, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"exclusion-columns", test_exclusion_columns, {&profile_a}, "sparse"},
	{"create-with", test_create_with, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"create-with-misuse", test_create_with_misuse, {&profile_a, &profile_aaa}, NULL},
	{"create-with-interleaved", test_create_with_interleaved, {&profile_a, &profile_aaa}, NULL},
	{"create-with-direct", test_create_with_direct, {&profile_a, &profile_aaa}, "archetype"},
	{"reserve", test_reserve, {&profile_a, &profile_aaa}, NULL},
	{"reserve-max", test_reserve_max, {&profile_a}, NULL},
	{"reserve-failure", test_reserve_failure, {&profile_a, &profile_aaa}, NULL},
	{"random", test_random, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"alloc-failure", test_alloc_failure, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"grow-failure", test_grow_failure, {&profile_a}, NULL},
	{"exclusion-failure", test_exclusion_failure, {&profile_a, &profile_aaa}, NULL},
	{"create-with-failure", test_create_with_failure, {&profile_a, &profile_aaa}, NULL},
	{"create-failure", test_create_failure, {&profile_a, &profile_aaa}, NULL},
	{"side-by-side", test_side_by_side, {&profile_a}, NULL},
	{"capacity", test_capacity, {&profile_a}, NULL},
	{"split", test_split, {&profile_a, &profile_aa, &profile_aaa}, NULL},
	{"split-lines", test_split_lines, {&profile_a, &profile_aaa}, NULL},
	{"split-fallback", test_split_fallback, {&profile_a}, NULL},
	{"lived-in", test_lived_in, {&profile_a, &profile_aaa}, NULL},
	{"marked-random", test_marked_random, {&profile_a, &profile_aaa}, NULL},
	{"sparse-stays", test_sparse_stays, {&profile_a}, NULL},
	{"batch-random", test_batch_random, {&profile_a, &profile_aaa}, NULL},
	{"batch-misuse", test_batch_misuse, {&profile_a, &profile_aaa}, NULL},
	{"batch-aliasing", test_batch_aliasing, {&profile_a, &profile_aaa}, NULL},
	{"batch-failure", test_batch_failure, {&profile_a, &profile_aaa}, NULL},
	{"groups", test_groups, {&profile_a, &profile_aaa}, NULL},
	{"group", test_group, {&profile_a, &profile_aaa}, "group"},
	{"large-model", test_large_model, {&profile_large}, NULL},
	{"large-pages", test_large_pages, {&profile_large}, NULL},
	{"large-batch", test_large_batch, {&profile_large}, NULL},
	{"large-component", test_large_component, {&profile_large}, NULL},
	{"large-batch-failure", test_large_batch_failure, {&profile_large}, NULL},
};

/* The large model test's scale: a whole number from 1 to 64, or a message and false. */
static bool scale_parse(const char *text)
{
	char *end;
	unsigned long n = strtoul(text, &end, 10);
	if (end == text || *end || n < 1 || n > 64 || text[0] == '-') {
		fprintf(stderr, "conformance: scale '%s' is not a whole number from 1 to 64 "
		        "(ECSB_TEST_SCALE, --scale, make test TEST_SCALE=)\n", text);
		return false;
	}
	large_scale = (uint32_t)n;
	return true;
}

int main(int argc, char **argv)
{
	const char *env = getenv("ECSB_TEST_OPS");
	const char *include[32], *exclude[32];
	int includes = 0, excludes = 0;
	if (env)
		random_ops = strtoull(env, NULL, 10);
	if ((env = getenv("ECSB_TEST_SCALE")) && *env && !scale_parse(env))
		return 2;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc)
			random_ops = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
			if (!scale_parse(argv[++i]))
				return 2;
		}
		else if (argv[i][0] == '-' && excludes < 32)
			exclude[excludes++] = argv[i] + 1;
		else if (includes < 32)
			include[includes++] = argv[i];
	}
	char name[128];
	for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
		for (size_t b = 0; b < ecs_backend_count; b++) {
			if (tests[t].only && strcmp(tests[t].only, ecs_backends[b]->name) != 0)
				continue;
			for (size_t p = 0; p < 3 && tests[t].profiles[p]; p++) {
				snprintf(name, sizeof name, "%s/%s/%s", tests[t].name, ecs_backends[b]->name,
				         tests[t].profiles[p]->name);
				bool run = includes == 0;
				for (int i = 0; i < includes; i++)
					run = run || strstr(name, include[i]);
				for (int i = 0; i < excludes; i++)
					run = run && !strstr(name, exclude[i]);
				if (!run)
					continue;
				runner_begin("%s", name);
				runner_end(tests[t].run(ecs_backends[b], tests[t].profiles[p]));
			}
		}
	}
	return runner_summary();
}
