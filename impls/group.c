/*
 * group.c: sparse sets with EnTT's owning groups. The storage is sparse's (sparse.h, with this
 * file's hooks): one paged sparse set per component type, the same records, the same
 * batches. What this adds is system_group: a system made a group owns the pools of its
 * required types and keeps the entities that match it (every required type, none of the
 * excluded ones) at the front [0, len) of every owned pool, in the same order, so that its
 * pass is one batch of whole columns however the storage has aged.
 *
 * What a group stores: per pool, the system that owns it (or none) and how many groups exclude
 * its type; per system, whether it is a group and its length; the grouped systems' ids, a list
 * (system_max entries, allocated with the storage). No memory per entity: a member is an entity
 * whose slot in the first owned pool is below the length.
 *
 * Costs (k = the group's required types, x its excluded ones, G = groups):
 *   system_group      O(n (k + x)) probes over the smallest owned pool (n entities), and k swaps
 *                     per member: the matching entities are sorted in. Returns 0, and changes
 *                     nothing, when one of the system's pools is owned already (a pool is kept
 *                     in one order only); 1 when it is a group (again: 1).
 *   component_add     sparse's append, then for an owned type: k + x probes whether the entity
 *                     now matches, and if so k swaps (one per owned pool: values, owners and two
 *                     entries each) to put it at position len; for a type some group excludes,
 *                     a probe per such group and k swaps for each member that leaves.
 *   component_remove  for an owned type, the entity leaves first if it is a member (a probe,
 *                     then k swaps to len - 1), then sparse's swap-remove; for an excluded type
 *                     the entity may join afterwards (k + x probes, k swaps).
 *   entity_destroy    a probe per group (membership: the first owned pool's slot against len)
 *                     and k swaps per group it leaves, then sparse's destroy.
 *   entity_create_with, entity_create_batch: after the appends, each group owning one of the
 *                     types is asked once whether the set matches (a scan of the type list, no
 *                     probe), for the whole batch; then k swaps per new entity if it does.
 *                     (create-batch, lived-in, N = 2^20, k = 2, group's ns per entity over
 *                     sparse's: 1.67 with a probe per entity, 1.36 this way; two runs of
 *                     `ecsbench --backends archetype,sparse,group --workloads create,create-batch
 *                     --entities 65536,1048576 --components 2 --processes 3`, one per build.)
 *   add and remove batches: as the adds and removes they are, entity by entity after the
 *                     appends (before and after the swap-removes).
 *   iteration         a group's pass: O(k) for the whole pass, one batch of k columns and the
 *                     first owned pool's owners; split on cache-line bounds of the first
 *                     component's values, which are consecutive across the members. A system
 *                     that is not a group walks as sparse's do.
 *   component_get, component_get_batch: sparse's, unchanged by groups (a group moves values
 *                     within a pool; the entry still names the slot): at N = 2^20 on lived-in
 *                     storage the record (ours: the handle's check, beside the chain), then per
 *                     component the page's entry and the value (the strategy's two dependent
 *                     loads); docs/backends.md, "Random access".
 * The swaps copy a value each way (a 64-byte buffer; larger values in pieces).
 *
 * Fast paths (sparse.h lists the storage's own; these are the group's), when each fires and
 * whether it fires in a lived-in storage (destroys, recycled ids, interleaved kinds, components
 * removed and re-added in no order):
 *   group pass        the group's members are always packed at the front in the same order:
 *                     the pass is one batch of columns with no probe at all. Lived-in: yes:
 *                     that is what the swaps on add and remove pay for, whatever the history.
 *   no group touched  an add or remove of a type no group owns or excludes pays two tests of
 *                     the pool's fields (owner, excluders). Lived-in: yes (it follows the
 *                     groups, not the history).
 *   in-step non-group a system that is not a group but all of whose types one group owns
 *                     (system_group refused it: its pools are taken) finds the group's members
 *                     at the same slots [0, len) of those pools: sparse's in-step runs
 *                     (run_end) hand them out as columns. Lived-in: yes for the group's members
 *                     (the group keeps them in step), no beyond the group's length.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ecs.h"

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
#include "sparse.h"

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
	*pool_entry(p, ecs_entity_index(ea)) = b;
	*pool_entry(p, ecs_entity_index(eb)) = a;
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
		pool_swap(p, *pool_entry(p, index), len);
	}
	y->group_len = len + 1;
}

/* A member leaves: in every owned pool it swaps with the last member. */
static void group_leave(ecs_storage *s, struct sparse_system *y, uint32_t index)
{
	uint32_t last = --y->group_len;
	for (uint32_t c = 0; c < y->type_count; c++) {
		struct sparse_pool *p = &s->pools[y->types[c]];
		pool_swap(p, *pool_entry(p, index), last);
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

/* After index got type (appended at the end of its pool): it joins the group that owns the
 * pool if it now matches, and leaves those that exclude the type. */
static inline void group_added(ecs_storage *s, uint32_t index, uint32_t type)
{
	const struct sparse_pool *p = &s->pools[type];
	if (p->owner != SPARSE_NO_GROUP) {
		struct sparse_system *y = &s->systems[p->owner];
		if (group_matches(s, y, index))
			group_join(s, y, index);
	}
	if (p->excluders)
		group_excluded_changed(s, index, type, true);
}

/* Before index loses type: a member of the group that owns the pool leaves it first, so that
 * the swap-remove takes a slot past the members. */
static inline void group_removing(ecs_storage *s, uint32_t index, uint32_t type)
{
	const struct sparse_pool *p = &s->pools[type];
	if (p->owner != SPARSE_NO_GROUP) {
		struct sparse_system *y = &s->systems[p->owner];
		if (group_member(s, y, index))
			group_leave(s, y, index);
	}
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
	s->groups = sparse_malloc(s, (size_t)s->system_max * sizeof *s->groups);
	return s->groups ? ECS_OK : ECS_ERR_NO_MEMORY;
}

static void groups_release(ecs_storage *s)
{
	sparse_free(s, s->groups, (size_t)s->system_max * sizeof *s->groups);
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
	uint32_t total = y->group_len, at = ecs_split_bound(total, part, parts);
	if (part == 0 || part == parts || total / parts < 2)
		return at;
	const struct sparse_pool *w = &s->pools[y->types[0]];
	return at + ecs_split_align(pool_value(w, at), w->size, total / parts);
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
static bool group_iter_next(struct ecs_iter *it, struct ecs_batch *b)
{
	ecs_storage *s = it->storage;
	const struct sparse_system *y = &s->systems[it->state[ITER_SYSTEM]];
	uint32_t i = (uint32_t)it->state[ITER_NEXT], end = (uint32_t)it->state[ITER_END];
	b->count = 0;
	for (uint32_t c = 0; c < ECS_SYSTEM_MAX_COMPONENTS; c++) {
		b->columns[c] = NULL;
		b->pointers[c] = NULL;
	}
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

static inline bool group_iter_owns(const struct ecs_iter *it)
{
	return it->state[ITER_GROUPED];
}

const struct ecs_ops ecs_backend_group = {
	SPARSE_OPS,
	.name = "group",
	.description = "sparse sets with EnTT-style owning groups: a grouped system's pools packed "
	               "in step",
	.system_group = sparse_system_group,
};
