/*
 * varkor.c: the six performance tests of Varkor's refactor post (Underdisc, "Refactoring an Old
 * ECS", "Test Descriptions"), with the post's constants; --scale multiplies the entity counts
 * (and the Random test's attempts), not the rounds. Each run gets a fresh storage, made before the clock
 * starts, as each of the post's tests got a new Space. Entities have 4 components (Position,
 * Velocity, Mass, Health; Relationship too in the relationship test); "write" means: for each
 * component the entity has, get it and store a new value in it.
 *
 * Every decision comes from a PRNG seeded by --seed and from the harness's own lists, never
 * from a handle's value, so every backend gets the same operations and their checksums agree.
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "world.h"

#define VARKOR_TYPES 4u /* Position, Velocity, Mass, Health */
static const uint32_t varkor_types[VARKOR_TYPES] = {COMP_POSITION, COMP_VELOCITY, COMP_MASS,
                                                     COMP_HEALTH};

enum {
	ADD_WRITE_DELETE_ROUNDS = 300,
	DISTRIBUTED_ROUNDS = 300,
	RELATIONSHIP_ROUNDS = 500,
	RELATIONSHIP_CHILDREN = 10,     /* per root */
	RELATIONSHIP_GRANDCHILDREN = 20, /* per child */
	RELATIONSHIP_TREE = 1 + RELATIONSHIP_CHILDREN * (1 + RELATIONSHIP_GRANDCHILDREN),
	RANDOM_ROUNDS = 10,
	RANDOM_OPERATIONS_PER_ATTEMPT = 2, /* 100,000 operations for 50,000 creation attempts */
};

static int check(struct run *run, int rc, const char *what, uint32_t i)
{
	return rc == ECS_OK ? 0 : bench_fail(run->r, "%s (entity %u) returned %s", what, i,
	                                     ecs_status_name(rc));
}

/* What a round-based test leaves: every handle of its last round dead, system 0 empty. */
static int check_all_dead(struct run *run, struct world *w, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (w->ops->entity_alive(w->s, run->handles[i]))
			return bench_fail(run->r, "entity %u is alive after it was deleted", i);
	if (world_visit_count(w) != 0)
		return bench_fail(run->r, "system 0 still visits entities after all were deleted");
	return 0;
}

static struct world *last_world(struct run *run) { return &run->worlds[run->worlds_open - 1]; }

static void note_reuse(struct run *run, const struct world *w)
{
	world_note_memory(run, w);
	run->r->reuse = (double)w->counter.peak_bytes / (double)run->first_round_peak;
}

/* Create: creates 1,000,000 members. ------------------------------------------------------ */

static int create_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		for (uint32_t i = 0; i < run->c->entities; i++)
			if (check(run, w->ops->entity_create(w->s, &run->handles[i]), "entity_create", i))
				return -1;
	}
	return 0;
}

static int create_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	struct world *w = last_world(run);
	uint32_t alive = 0;
	for (uint32_t i = 0; i < run->c->entities; i++)
		alive += w->ops->entity_alive(w->s, run->handles[i]);
	uint64_t h = world_hash_bytes(CHECKSUM_START, &run->c->entities, sizeof run->c->entities);
	run->r->checksum = world_hash_bytes(h, &alive, sizeof alive);
	return 0;
}

/* Add: creates 500,000 members and adds the same set of 4 components to each. ----------- */

static int add_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++)
		if (world_spawn_adding(&run->worlds[j], run->c->entities, varkor_types, VARKOR_TYPES,
		                       run->c->values, run->handles, run->r))
			return -1;
	return 0;
}

static int add_finish(struct run *run)
{
	if (!run->verify)
		return 0;
	return world_checksum_values(last_world(run), run->c->entities, varkor_types, VARKOR_TYPES,
	                             run->handles, &run->r->checksum, run->r);
}

/* The rounds' deletes (AddWriteDelete's, Distributed's): in a shuffled order drawn once
 * (run->state), the same every round, as a game's entities die in play (rule 'order', state.h);
 * the post says only "deletes all members". The writes, removes and adds before them visit the
 * round's entities in creation order: the order a pass over them hands them out, since the
 * round's entities are the storage's only ones and were appended in that order. */
static int deaths_setup(struct run *run)
{
	if (!(run->state = rng_permutation(run->c->seed, WORKLOADS_VARKOR_DEATHS, run->c->entities)))
		return bench_fail(run->r, "out of memory in the harness");
	return 0;
}

static int deaths_despawn(struct run *run, struct world *w)
{
	const uint32_t *order = run->state;
	int (*destroy)(ecs_storage *, ecs_entity) = w->ops->entity_destroy;
	for (uint32_t i = 0; i < run->c->entities; i++)
		if (check(run, destroy(w->s, run->handles[order[i]]), "entity_destroy", order[i]))
			return -1;
	return 0;
}

/* The first process, after its first sample: the deletes' order (rule 'order'). */
static int deaths_end_sample(struct run *run)
{
	world_fresh_end_sample(run);
	if (!run->verify || run->state_checked)
		return 0;
	run->state_checked = true;
	return state_check_order_of(run->state, run->c->entities, run->handles, "Varkor's deletes",
	                            run->r);
}

/* AddWriteDelete: creates 2,000 members, adds the same 4 components to each, writes values to
 * each member's components, then deletes all members; 300 times on the same storage. ------ */

static int add_write_delete_round(struct run *run, struct world *w)
{
	uint32_t n = run->c->entities;
	if (world_spawn_adding(w, n, varkor_types, VARKOR_TYPES, run->c->values, run->handles, run->r))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (world_write_components(w, run->handles[i], VARKOR_TYPES, run->c->writes, i, run->r))
			return -1;
	return 0;
}

static int add_write_delete_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		for (uint32_t round = 0; round < ADD_WRITE_DELETE_ROUNDS; round++) {
			if (add_write_delete_round(run, w) || deaths_despawn(run, w))
				return -1;
			if (round == 0)
				run->first_round_peak = w->counter.peak_bytes;
		}
	}
	return 0;
}

/* The rounds leave nothing alive; one more round, untimed, is read back before its delete. */
static int add_write_delete_finish(struct run *run)
{
	struct world *w = last_world(run);
	uint32_t n = run->c->entities;
	note_reuse(run, w);
	if (!run->verify)
		return 0;
	if (check_all_dead(run, w, n) || add_write_delete_round(run, w) ||
	    world_checksum_values(w, n, varkor_types, VARKOR_TYPES, run->handles, &run->r->checksum,
	                          run->r))
		return -1;
	return deaths_despawn(run, w);
}

/* DistributedAddWriteRemoveAddDelete: creates 2,000 members, each of which receives one of 4
 * components; they are written to and removed; then a different component is added to each
 * member before the members are deleted; 300 times on the same storage. ------------------- */

static int distributed_round(struct run *run, struct world *w)
{
	const struct ecs_ops *ops = w->ops;
	uint32_t n = run->c->entities;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = i % VARKOR_TYPES;
		int rc = ops->entity_create(w->s, &run->handles[i]);
		if (rc == ECS_OK)
			rc = ops->component_add(w->s, run->handles[i], t, world_value_of(run->c->values, t, i));
		if (check(run, rc, "create and add", i))
			return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (world_write_components(w, run->handles[i], VARKOR_TYPES, run->c->writes, i, run->r))
			return -1;
	for (uint32_t i = 0; i < n; i++)
		if (check(run, ops->component_remove(w->s, run->handles[i], i % VARKOR_TYPES),
		          "component_remove", i))
			return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = (i + 1) % VARKOR_TYPES;
		if (check(run, ops->component_add(w->s, run->handles[i], t, world_value_of(run->c->values, t, i)),
		          "component_add", i))
			return -1;
	}
	return 0;
}

static int distributed_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		for (uint32_t round = 0; round < DISTRIBUTED_ROUNDS; round++) {
			if (distributed_round(run, w) || deaths_despawn(run, w))
				return -1;
			if (round == 0)
				run->first_round_peak = w->counter.peak_bytes;
		}
	}
	return 0;
}

static int distributed_finish(struct run *run)
{
	struct world *w = last_world(run);
	uint32_t n = run->c->entities;
	note_reuse(run, w);
	if (!run->verify)
		return 0;
	if (check_all_dead(run, w, n) || distributed_round(run, w) ||
	    world_checksum_values(w, n, varkor_types, VARKOR_TYPES, run->handles, &run->r->checksum,
	                          run->r))
		return -1;
	return deaths_despawn(run, w);
}

/* RelationshipAddWriteDelete: creates 10 members with 2 components, 10 children on each with a
 * different component, and 20 children on each child with another; the links are held in a
 * Relationship component (parent, first child, next sibling). All components are written,
 * then the roots are deleted, each taking its descendants with it; 500 times. ------------- */

static int relationship_create(struct run *run, struct world *w, uint32_t i, ecs_entity parent,
                               uint32_t type, uint32_t depth)
{
	const struct ecs_ops *ops = w->ops;
	ecs_entity *e = &run->handles[i];
	struct relationship link = {parent, ECS_NULL, ECS_NULL, depth};
	int rc = ops->entity_create(w->s, e);
	if (rc == ECS_OK && parent != ECS_NULL) {
		struct relationship *p;
		rc = ops->component_get(w->s, parent, COMP_RELATIONSHIP, (void **)&p);
		if (rc == ECS_OK) {
			link.next_sibling = p->first_child;
			p->first_child = *e;
		}
	}
	if (rc == ECS_OK)
		rc = ops->component_add(w->s, *e, type, world_value_of(run->c->values, type, i));
	if (rc == ECS_OK && depth == 0) /* roots have two components */
		rc = ops->component_add(w->s, *e, COMP_VELOCITY,
		                        world_value_of(run->c->values, COMP_VELOCITY, i));
	if (rc == ECS_OK)
		rc = ops->component_add(w->s, *e, COMP_RELATIONSHIP, &link);
	return check(run, rc, "creating a member of the hierarchy", i);
}

static int relationship_round(struct run *run, struct world *w)
{
	uint32_t i = 0, roots = run->c->entities / RELATIONSHIP_TREE;
	for (uint32_t r = 0; r < roots; r++) {
		uint32_t root = i;
		if (relationship_create(run, w, i++, ECS_NULL, COMP_POSITION, 0))
			return -1;
		for (uint32_t c = 0; c < RELATIONSHIP_CHILDREN; c++) {
			uint32_t child = i;
			if (relationship_create(run, w, i++, run->handles[root], COMP_MASS, 1))
				return -1;
			for (uint32_t g = 0; g < RELATIONSHIP_GRANDCHILDREN; g++)
				if (relationship_create(run, w, i++, run->handles[child], COMP_HEALTH, 2))
					return -1;
		}
	}
	for (uint32_t x = 0; x < i; x++)
		if (world_write_components(w, run->handles[x], VARKOR_TYPES, run->c->writes, x, run->r))
			return -1;
	return 0;
}

/* Deletes an entity and, first, its descendants, found through the Relationship links. */
static int relationship_delete(struct run *run, struct world *w, ecs_entity e)
{
	struct relationship *link;
	int rc = w->ops->component_get(w->s, e, COMP_RELATIONSHIP, (void **)&link);
	if (rc != ECS_OK)
		return bench_fail(run->r, "reading a Relationship returned %s", ecs_status_name(rc));
	for (ecs_entity child = link->first_child; child != ECS_NULL;) {
		struct relationship *c;
		rc = w->ops->component_get(w->s, child, COMP_RELATIONSHIP, (void **)&c);
		if (rc != ECS_OK)
			return bench_fail(run->r, "reading a Relationship returned %s", ecs_status_name(rc));
		ecs_entity next = c->next_sibling;
		if (relationship_delete(run, w, child))
			return -1;
		child = next;
	}
	rc = w->ops->entity_destroy(w->s, e);
	return rc == ECS_OK ? 0 : bench_fail(run->r, "entity_destroy returned %s", ecs_status_name(rc));
}

static int relationship_delete_roots(struct run *run, struct world *w)
{
	uint32_t roots = run->c->entities / RELATIONSHIP_TREE;
	for (uint32_t r = 0; r < roots; r++)
		if (relationship_delete(run, w, run->handles[r * RELATIONSHIP_TREE]))
			return -1;
	return 0;
}

static int relationship_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++) {
		struct world *w = &run->worlds[j];
		for (uint32_t round = 0; round < RELATIONSHIP_ROUNDS; round++) {
			if (relationship_round(run, w) || relationship_delete_roots(run, w))
				return -1;
			if (round == 0)
				run->first_round_peak = w->counter.peak_bytes;
		}
	}
	return 0;
}

/* The checksum covers the values and the shape (depth and number of children of each member,
 * in creation order), not the links themselves: handle values may differ between backends. */
static int relationship_finish(struct run *run)
{
	struct world *w = last_world(run);
	uint32_t n = run->c->entities;
	note_reuse(run, w);
	if (!run->verify)
		return 0;
	if (check_all_dead(run, w, n) || relationship_round(run, w) ||
	    world_checksum_values(w, n, varkor_types, VARKOR_TYPES, run->handles, &run->r->checksum,
	                          run->r))
		return -1;
	uint64_t h = run->r->checksum;
	for (uint32_t i = 0; i < n; i++) {
		struct relationship *link, *c;
		if (w->ops->component_get(w->s, run->handles[i], COMP_RELATIONSHIP, (void **)&link))
			return bench_fail(run->r, "member %u lost its Relationship", i);
		uint32_t shape[2] = {link->depth, 0};
		for (ecs_entity x = link->first_child; x != ECS_NULL; x = c->next_sibling) {
			if (w->ops->component_get(w->s, x, COMP_RELATIONSHIP, (void **)&c))
				return bench_fail(run->r, "a child of member %u lost its Relationship", i);
			shape[1]++;
		}
		h = world_hash_bytes(h, shape, sizeof shape);
	}
	run->r->checksum = h;
	return relationship_delete_roots(run, w) || check_all_dead(run, w, n) ? -1 : 0;
}

/* Random: 50,000 attempts to create a member with a random set of components, the chance of
 * creating falling linearly from 1 to 0 (a failed attempt writes to a random member); 100,000
 * random operations (write to a random member, make sure a random member has a random
 * component, try to remove a random component from a random member); 50,000 attempts to
 * delete a random member, the chance rising from 0 to 1 (a failed attempt writes); 10 times
 * on the same storage.
 *
 * Every decision is drawn once, in setup, into a script of operations (4 bytes each, 8 MB at
 * --scale 1): the timed run reads the script and calls the storage, and draws nothing. The
 * members alive are run->handles[0..live), a deleted one replaced by the last; the script
 * names a member by its place there, which evolves the same way on every backend. ---------- */

enum random_kind { RANDOM_CREATE, RANDOM_WRITE, RANDOM_ENSURE, RANDOM_REMOVE, RANDOM_DESTROY };

/* kind in bits 0..2, argument (a type, or the set of types of a new member) in bits 3..6, the
 * member's place in bits 7..31 */
typedef uint32_t random_op;
#define RANDOM_OP(kind, arg, x) ((uint32_t)(kind) | (uint32_t)(arg) << 3 | (uint32_t)(x) << 7)
#define RANDOM_MAX_LIVE ((1u << 25) - 1)

struct random_state {
	random_op *script;
	uint32_t ops;
	uint32_t *serial;  /* the creation number of each member alive, for its values */
	uint32_t live;     /* members alive at the end */
};

/* Draws the whole run's decisions. A write to a random member when none is alive is no
 * operation, as before. */
static int random_script(struct run *run, struct random_state *st)
{
	uint32_t attempts = run->c->entities, live = 0;
	size_t cap = (size_t)attempts * (2 + RANDOM_OPERATIONS_PER_ATTEMPT) * RANDOM_ROUNDS;
	st->script = malloc(cap * sizeof *st->script + 1);
	if (!st->script)
		return bench_fail(run->r, "out of memory in the harness");
	struct rng g;
	rng_seed(&g, run->c->seed, 3);
	uint32_t n = 0;
#define WRITE_RANDOM()                                                                             	do {                                                                                           		if (live)                                                                                  			st->script[n++] = RANDOM_OP(RANDOM_WRITE, 0, rng_below(&g, live));                    	} while (0)
	for (uint32_t round = 0; round < RANDOM_ROUNDS; round++) {
		for (uint32_t a = 0; a < attempts; a++) {
			if (rng_unit(&g) < 1.0 - (double)a / attempts) {
				uint32_t bits = (uint32_t)rng_next(&g) & ((1u << VARKOR_TYPES) - 1);
				if (live >= RANDOM_MAX_LIVE || live >= ECS_MAX_ENTITIES)
					return bench_fail(run->r, "more than %u members alive: use a smaller --scale",
					                  live);
				st->script[n++] = RANDOM_OP(RANDOM_CREATE, bits, live++);
			} else {
				WRITE_RANDOM();
			}
		}
		for (uint32_t o = 0; o < attempts * RANDOM_OPERATIONS_PER_ATTEMPT; o++) {
			uint32_t what = rng_below(&g, 3), t = rng_below(&g, VARKOR_TYPES);
			if (what == 0 || live == 0) {
				WRITE_RANDOM();
				continue;
			}
			uint32_t x = rng_below(&g, live);
			st->script[n++] = RANDOM_OP(what == 1 ? RANDOM_ENSURE : RANDOM_REMOVE, t, x);
		}
		for (uint32_t a = 0; a < attempts; a++) {
			if (live && rng_unit(&g) < (double)a / attempts) {
				st->script[n++] = RANDOM_OP(RANDOM_DESTROY, 0, rng_below(&g, live));
				live--;
			} else {
				WRITE_RANDOM();
			}
		}
	}
#undef WRITE_RANDOM
	st->ops = n;
	st->live = live;
	return 0;
}

static int random_run(struct run *run, struct world *w, struct random_state *st)
{
	const struct ecs_ops *ops = w->ops;
	const struct values *values = run->c->values, *writes = run->c->writes;
	uint32_t n = values->n, created = 0, live = 0;
	ecs_entity *handles = run->handles;
	uint32_t *serial = st->serial;
	for (uint32_t i = 0; i < st->ops; i++) {
		random_op op = st->script[i];
		uint32_t x = op >> 7, arg = op >> 3 & 15;
		ecs_entity e = handles[x];
		int rc = ECS_OK;
		switch ((enum random_kind)(op & 7)) {
		case RANDOM_CREATE:
			serial[x] = created++ % n;
			live++;
			rc = ops->entity_create(w->s, &handles[x]);
			for (uint32_t t = 0; rc == ECS_OK && t < VARKOR_TYPES; t++)
				if (arg >> t & 1)
					rc = ops->component_add(w->s, handles[x], t, world_value_of(values, t, serial[x]));
			break;
		case RANDOM_WRITE:
			if (world_write_components(w, e, VARKOR_TYPES, writes, serial[x], run->r))
				return -1;
			break;
		case RANDOM_ENSURE:
			rc = ops->component_has(w->s, e, arg);
			if (rc == 0)
				rc = ops->component_add(w->s, e, arg, world_value_of(values, arg, serial[x]));
			break;
		case RANDOM_REMOVE:
			rc = ops->component_remove(w->s, e, arg);
			if (rc == ECS_ERR_NO_COMPONENT)
				rc = ECS_OK;
			break;
		case RANDOM_DESTROY:
			rc = ops->entity_destroy(w->s, e);
			handles[x] = handles[--live];
			serial[x] = serial[live];
			break;
		}
		if (rc < 0)
			return check(run, rc, "a random operation", x);
	}
	return 0;
}

static int random_setup(struct run *run)
{
	struct random_state *st = world_run_state(run, sizeof *st);
	if (!st)
		return -1;
	if (random_script(run, st))
		return -1;
	/* At most every attempt of every round creates a member. */
	size_t cap = (size_t)run->c->entities * RANDOM_ROUNDS + 1;
	ecs_entity *handles = realloc(run->handles, cap * sizeof *handles);
	if (handles)
		run->handles = handles;
	if (!handles || !(st->serial = malloc(cap * sizeof *st->serial)))
		return bench_fail(run->r, "out of memory in the harness");
	return 0;
}

static int random_execute(struct run *run)
{
	for (uint32_t j = 0; j < run->inner; j++)
		if (random_run(run, &run->worlds[j], run->state))
			return -1;
	return 0;
}

static int random_finish(struct run *run)
{
	struct random_state *st = run->state;
	struct world *w = last_world(run);
	world_note_memory(run, w);
	if (!run->verify)
		return 0;
	if (world_checksum_values(w, st->live, varkor_types, VARKOR_TYPES, run->handles, &run->r->checksum,
	                          run->r))
		return -1;
	run->r->checksum = world_hash_bytes(run->r->checksum, &st->live, sizeof st->live);
	return 0;
}

static void random_release(struct run *run)
{
	struct random_state *st = run->state;
	if (st) {
		free(st->serial);
		free(st->script);
	}
}

/* --- the workloads -------------------------------------------------------------------- */

const struct workload workload_varkor_create = {
	.name = "varkor-create",
	.named_only = true,
	.timed = "Varkor's Create: create 1,000,000 entities (no components)",
	.fixed_entities = 1000000,
	.k_fixed = true,
	.fixed_components = 0,
	.prepare = world_fresh_prepare,
	.execute = create_execute,
	.end_sample = world_fresh_end_sample,
	.finish = create_finish,
};
const struct workload workload_varkor_add = {
	.name = "varkor-add",
	.named_only = true,
	.timed = "Varkor's Add: create 500,000 entities, add the same 4 components to each",
	.fixed_entities = 500000,
	.k_fixed = true,
	.fixed_components = VARKOR_TYPES,
	.prepare = world_fresh_prepare,
	.execute = add_execute,
	.end_sample = world_fresh_end_sample,
	.finish = add_finish,
};
const struct workload workload_varkor_add_write_delete = {
	.name = "varkor-add-write-delete",
	.named_only = true,
	.timed = "Varkor's AddWriteDelete: 300 rounds of 2,000 entities: create, write, delete",
	.fixed_entities = 2000,
	.rounds = ADD_WRITE_DELETE_ROUNDS,
	.k_fixed = true,
	.fixed_components = VARKOR_TYPES,
	.setup = deaths_setup,
	.prepare = world_fresh_prepare,
	.execute = add_write_delete_execute,
	.end_sample = deaths_end_sample,
	.finish = add_write_delete_finish,
};
const struct workload workload_varkor_distributed = {
	.name = "varkor-distributed",
	.named_only = true,
	.timed = "Varkor's DistributedAddWriteRemoveAddDelete: 300 rounds of 2,000 entities",
	.fixed_entities = 2000,
	.rounds = DISTRIBUTED_ROUNDS,
	.k_fixed = true,
	.fixed_components = 1,
	.setup = deaths_setup,
	.prepare = world_fresh_prepare,
	.execute = distributed_execute,
	.end_sample = deaths_end_sample,
	.finish = distributed_finish,
};
const struct workload workload_varkor_relationship = {
	.name = "varkor-relationship",
	.named_only = true,
	.timed = "Varkor's RelationshipAddWriteDelete: 500 rounds of 10 trees of 211 entities",
	.fixed_entities = 10,
	.unit_entities = RELATIONSHIP_TREE,
	.rounds = RELATIONSHIP_ROUNDS,
	.k_fixed = true,
	.fixed_components = 3,
	.prepare = world_fresh_prepare,
	.execute = relationship_execute,
	.end_sample = world_fresh_end_sample,
	.finish = relationship_finish,
};
const struct workload workload_varkor_random = {
	.name = "varkor-random",
	.named_only = true,
	.timed = "Varkor's Random: 10 rounds of 50,000 creations, 100,000 operations, 50,000 "
	         "deletions",
	.fixed_entities = 50000,
	.rounds = RANDOM_ROUNDS,
	.k_fixed = true,
	.fixed_components = VARKOR_TYPES,
	.setup = random_setup,
	.prepare = world_fresh_prepare,
	.execute = random_execute,
	.end_sample = world_fresh_end_sample,
	.finish = random_finish,
	.release = random_release,
};
