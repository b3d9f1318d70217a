/*
 * group.c: sparse sets with EnTT's owning groups: sparse.c's storage with this file's hooks.
 * A system made a group (system_group) owns the pools of its required types and keeps the
 * entities that match it at the front [0, len) of every owned pool, in the same order, so that
 * its pass is one batch of whole columns however the storage has aged.
 *
 * What a group stores: per pool the system that owns it (or none) and how many groups exclude
 * its type; per system whether it is a group and its length; the grouped systems' ids. Nothing
 * per entity: a member is an entity whose slot in the first owned pool is below the length.
 *
 * Costs (k = the group's required types, x its excluded ones):
 *   system_group        O(n (k + x)) probes over the smallest owned pool, k swaps a member; 0
 *                       and no change when a pool of the system is owned already
 *   component_add       sparse's, then for an owned type k + x probes and, if it now matches,
 *                       k swaps (values, owners, two entries each) to slot len; for an excluded
 *                       type a probe per excluding group, k swaps per member that leaves
 *   component_remove    for an owned type a member leaves first (k swaps to len - 1), then
 *                       sparse's; for an excluded type it may join after (k + x probes, k swaps)
 *   entity_destroy      a probe per group, k swaps per group it leaves, then sparse's
 *   entity_create_with, entity_create_batch  each group owning one of the types asks once
 *                       whether the set matches (a scan of the list), for the whole batch; k
 *                       swaps a new entity that joins
 *   add and remove batches  entity by entity, as the adds and removes they are
 *   component_get(_batch), entity_get  sparse's: a group moves values within a pool, the entry
 *                       still names the slot
 *   iteration           a group's pass: O(k), one batch of k columns, split on cache-line
 *                       bounds of the first component; any other system walks as sparse's
 *
 * Fast paths (lived-in: as in sparse.c; sparse's lookups, entity_get's included, hold as they
 * are):
 *   group pass          the members are packed at the front in one order: one batch of columns,
 *                       no probe. Lived-in: yes (what the swaps pay for).
 *   no group touched    an add or remove of a type no group owns or excludes pays two tests.
 *                       Lived-in: yes.
 *   in-step non-group   a system all of whose types one group owns finds the members at the
 *                       same slots: sparse's in-step runs hand them out as columns. Lived-in:
 *                       yes for the members, no beyond the group's length.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../ecs.h"

#define SPARSE_NO_GROUP UINT32_MAX /* a pool no group owns */
#define SPARSE_POOL_FIELDS                                                                         \
	uint32_t owner;     /* the system whose group owns the pool, or SPARSE_NO_GROUP */         \
	uint32_t excluders; /* groups that exclude the type */
#define SPARSE_SYSTEM_FIELDS                                                                       \
	bool grouped; /* an owning group: its members at [0, group_len) of every owned pool */     \
	uint32_t group_len;
#define SPARSE_STORAGE_FIELDS                                                                      \
	uint32_t *groups; /* the grouped systems' ids, system_max entries */                       \
	uint32_t group_count;
/* The hooks this variant changes: all of sparse.h's (group.c keeps its groups in step with every
 * change of which entities hold a type), defined below. */
#define sparse_hook_setup groups_create
#define sparse_hook_release groups_release
#define sparse_hook_added group_added
#define sparse_hook_removing group_removing
#define sparse_hook_removed group_removed
#define sparse_hook_destroying group_destroying
#define sparse_hook_created group_created
#define sparse_hook_iter_split group_iter_split
#define sparse_hook_iter_next group_iter_next
#define SPARSE_VARIANT
#include "sparse.c"

/* In the iterator's state: whether the pass is a group's (its slots then the members'). */
enum { ITER_GROUPED = ITER_VARIANT };

/* Swaps slots a and b of pool p: values, owners and the two entries. */
static void pool_swap(struct sparse_pool *p, uint32_t a, uint32_t b)
{
	if (a == b)
		return;
	ecs_entity ea = p->entities[a], eb = p->entities[b];
	p->entities[a] = eb;
	p->entities[b] = ea;
	*pool_entry(p, ecs_entity_index(ea)) = entry_make(b, ea);
	*pool_entry(p, ecs_entity_index(eb)) = entry_make(a, eb);
	unsigned char *x = pool_value(p, a), *y = pool_value(p, b), tmp[64];
	uint32_t size = p->size;
	if (size <= sizeof tmp) {
		ecs_copy_value(tmp, x, size);
		ecs_copy_value(x, y, size);
		ecs_copy_value(y, tmp, size);
		return;
	}
	for (uint32_t off = 0; off < size; off += (uint32_t)sizeof tmp) {
		uint32_t n = size - off < sizeof tmp ? size - off : (uint32_t)sizeof tmp;
		memcpy(tmp, x + off, n);
		memcpy(x + off, y + off, n);
		memcpy(y + off, tmp, n);
	}
}

/* Whether index is a member of group y: its slot in the first owned pool is below the group's
 * length (SPARSE_ABSENT never is). */
static inline bool group_member(const ecs_storage *s, const struct sparse_system *y,
                                uint32_t index)
{
	return pool_find(&s->pools[y->types[0]], index) < y->group_len;
}

/* Whether index has every type group y owns and none it excludes. */
static bool group_matches(const ecs_storage *s, const struct sparse_system *y, uint32_t index)
{
	for (uint32_t c = 0; c < y->type_count; c++)
		if (pool_find(&s->pools[y->types[c]], index) == SPARSE_ABSENT)
			return false;
	for (uint32_t c = 0; c < y->excluded_count; c++)
		if (pool_find(&s->pools[y->excluded[c]], index) != SPARSE_ABSENT)
			return false;
	return true;
}

/* A matching entity joins: in every owned pool it swaps with the first non-member. */
static void group_join(ecs_storage *s, struct sparse_system *y, uint32_t index)
{
	uint32_t len = y->group_len;
	for (uint32_t c = 0; c < y->type_count; c++) {
		struct sparse_pool *p = &s->pools[y->types[c]];
		pool_swap(p, entry_slot(*pool_entry(p, index)), len);
	}
	y->group_len = len + 1;
}

/* A member leaves: in every owned pool it swaps with the last member. */
static void group_leave(ecs_storage *s, struct sparse_system *y, uint32_t index)
{
	uint32_t last = --y->group_len;
	for (uint32_t c = 0; c < y->type_count; c++) {
		struct sparse_pool *p = &s->pools[y->types[c]];
		pool_swap(p, entry_slot(*pool_entry(p, index)), last);
	}
}

static bool group_excludes(const struct sparse_system *y, uint32_t type)
{
	for (uint32_t c = 0; c < y->excluded_count; c++)
		if (y->excluded[c] == type)
			return true;
	return false;
}

/* Out of line: only a type some group excludes gets here. */
static __attribute__((noinline)) void group_excluded_changed(ecs_storage *s, uint32_t index,
                                                             uint32_t type, bool added)
{
	for (uint32_t g = 0; g < s->group_count; g++) {
		struct sparse_system *y = &s->systems[s->groups[g]];
		if (!group_excludes(y, type))
			continue;
		if (added && group_member(s, y, index))
			group_leave(s, y, index);
		else if (!added && group_matches(s, y, index))
			group_join(s, y, index);
	}
}

/* The group that owns type's pool, or NULL. */
static inline struct sparse_system *group_owning(ecs_storage *s, uint32_t type)
{
	uint32_t owner = s->pools[type].owner;
	return owner != SPARSE_NO_GROUP ? &s->systems[owner] : NULL;
}

/* After index got type (appended at the end of its pool): it joins the group that owns the
 * pool if it now matches, and leaves those that exclude the type. */
static inline void group_added(ecs_storage *s, uint32_t index, uint32_t type)
{
	struct sparse_system *y = group_owning(s, type);
	if (y && group_matches(s, y, index))
		group_join(s, y, index);
	if (s->pools[type].excluders)
		group_excluded_changed(s, index, type, true);
}

/* Before index loses type: a member of the group that owns the pool leaves it first, so that
 * the swap-remove takes a slot past the members. */
static inline void group_removing(ecs_storage *s, uint32_t index, uint32_t type)
{
	struct sparse_system *y = group_owning(s, type);
	if (y && group_member(s, y, index))
		group_leave(s, y, index);
}

/* After index lost type: it may join the groups that exclude the type. */
static inline void group_removed(ecs_storage *s, uint32_t index, uint32_t type)
{
	if (s->pools[type].excluders)
		group_excluded_changed(s, index, type, false);
}

/* Before index is destroyed: it leaves every group it is in (its removes then never make it
 * join one, as removing an excluded type would). */
static inline void group_destroying(ecs_storage *s, uint32_t index)
{
	for (uint32_t g = 0; g < s->group_count; g++) {
		struct sparse_system *y = &s->systems[s->groups[g]];
		if (group_member(s, y, index))
			group_leave(s, y, index);
	}
}

/* Whether a set of types (a new entity's: all it has) matches group y: a scan of the list, no
 * probe of the pools. */
static bool group_matches_set(const struct sparse_system *y, const uint32_t *types,
                              uint32_t count)
{
	for (uint32_t c = 0; c < y->type_count + y->excluded_count; c++) {
		uint32_t t = c < y->type_count ? y->types[c] : y->excluded[c - y->type_count];
		bool in = false;
		for (uint32_t i = 0; i < count && !in; i++)
			in = types[i] == t;
		if (in != (c < y->type_count))
			return false;
	}
	return true;
}

/* After n new entities (handles[]) got the same types (all they have): they join each group
 * their set matches. A group it matches owns its first type's pool, so each group is asked
 * once, from that type, and the set once for all n (no membership test: a new entity is in no
 * group yet). */
static inline void group_created(ecs_storage *s, const ecs_entity *handles, uint32_t n,
                                 const uint32_t *types, uint32_t count)
{
	if (!s->group_count)
		return;
	for (uint32_t i = 0; i < count; i++) {
		const struct sparse_pool *p = &s->pools[types[i]];
		if (p->owner == SPARSE_NO_GROUP)
			continue;
		struct sparse_system *y = &s->systems[p->owner];
		if (y->types[0] == types[i] && group_matches_set(y, types, count))
			for (uint32_t j = 0; j < n; j++)
				group_join(s, y, ecs_entity_index(handles[j]));
	}
}

static int groups_create(ecs_storage *s)
{
	for (uint32_t t = 0; t < s->component_count; t++)
		s->pools[t].owner = SPARSE_NO_GROUP;
	s->groups = pool_malloc(s, (size_t)s->system_max * sizeof *s->groups);
	return s->groups ? ECS_OK : ECS_ERR_NO_MEMORY;
}

static void groups_release(ecs_storage *s)
{
	pool_free(s, s->groups, (size_t)s->system_max * sizeof *s->groups);
}

/*
 * Where part `part` of a group's pass starts among its members [0, group_len): an even share,
 * moved forward (by less than a part) to the next member whose value of the system's first
 * component starts a cache line. The members sit at the same slots of every owned pool, so
 * the values from there on are consecutive.
 */
static uint32_t group_split_bound(const ecs_storage *s, const struct sparse_system *y,
                                  uint32_t part, uint32_t parts)
{
	uint32_t at = ecs_split_bound(y->group_len, part, parts);
	uint32_t limit = ecs_split_limit(y->group_len, part, parts);
	const struct sparse_pool *w = &s->pools[y->types[0]];
	return at + (limit ? ecs_split_align(pool_value(w, at), w->size, limit) : 0);
}

/*
 * Makes system an owning group (ecs.h, system_group) unless a pool of its types is owned
 * already: its pools are marked owned, the pools of its excluded types count one more
 * excluder, and the entities that match are swapped to the front of every owned pool, in
 * one walk of the smallest owned pool: O(n k) probes and a swap per member in each owned pool.
 */
static int sparse_system_group(ecs_storage *s, uint32_t system)
{
	if (!s)
		return ECS_ERR_INVALID;
	if (system >= s->system_count)
		return ECS_ERR_BAD_SYSTEM;
	struct sparse_system *y = &s->systems[system];
	if (y->grouped)
		return 1;
	for (uint32_t c = 0; c < y->type_count; c++)
		if (s->pools[y->types[c]].owner != SPARSE_NO_GROUP)
			return 0;
	for (uint32_t c = 0; c < y->type_count; c++)
		s->pools[y->types[c]].owner = system;
	for (uint32_t c = 0; c < y->excluded_count; c++)
		s->pools[y->excluded[c]].excluders++;
	y->grouped = true;
	y->group_len = 0;
	s->groups[s->group_count++] = system;
	/* A join swaps slot i with group_len <= i, whose entity was walked already and did not
	 * match: the walk goes on from i + 1. */
	const struct sparse_pool *dp = &s->pools[y->types[sparse_driver(s, y)]];
	for (uint32_t i = 0; i < dp->count; i++) {
		uint32_t index = ecs_entity_index(dp->entities[i]);
		if (group_matches(s, y, index))
			group_join(s, y, index);
	}
	return 1;
}

/* A group's pass: its members' slots of the part, whole columns of every owned pool, in one
 * batch. */
static bool group_iter_batch(struct ecs_iter *it, struct ecs_batch *b)
{
	ecs_storage *s = it->storage;
	const struct sparse_system *y = &s->systems[it->state[ITER_SYSTEM]];
	uint32_t i = (uint32_t)it->state[ITER_NEXT], end = (uint32_t)it->state[ITER_END];
	batch_clear(b);
	if (i >= end)
		return false;
	b->count = end - i;
	b->entities = s->pools[y->types[0]].entities + i;
	for (uint32_t c = 0; c < y->type_count; c++)
		b->columns[c] = pool_value(&s->pools[y->types[c]], i);
	it->state[ITER_NEXT] = end;
	return true;
}

/* sparse.h's iteration hooks: a group's pass is its members' slots of the part. */
static inline bool group_iter_split(ecs_storage *s, const struct sparse_system *y,
                                    uint32_t system, uint32_t part, uint32_t parts,
                                    struct ecs_iter *it)
{
	it->state[ITER_GROUPED] = y->grouped;
	if (!y->grouped)
		return false;
	it->storage = s;
	it->state[ITER_SYSTEM] = system;
	it->state[ITER_NEXT] = group_split_bound(s, y, part, parts);
	it->state[ITER_END] = group_split_bound(s, y, part + 1, parts);
	return true;
}

/* A grouped pass (state[ITER_GROUPED]) is the group's to walk: *more, whether a batch came. */
static inline bool group_iter_next(struct ecs_iter *it, struct ecs_batch *b, bool *more)
{
	if (!it->state[ITER_GROUPED])
		return false;
	*more = group_iter_batch(it, b);
	return true;
}

const struct ecs_ops ecs_backend_group = {
	SPARSE_OPS,
	.name = "group",
	.description = "sparse sets with EnTT-style owning groups: a grouped system's pools packed "
	               "in step",
	.system_group = sparse_system_group,
};
