/*
 * tree.c: the "comparison with std::map" of Vigier's post: the family storage (family.h) with a
 * red-black tree from <bsd/sys/tree.h> as the index from entity index to slot, one per component
 * type and one per system. One node per entry, allocated through the storage's allocator as
 * std::map does. Every lookup (a remove, the assignment of the value that moves into the hole,
 * each component of each entity in iteration) is O(log n) pointer chases through nodes
 * scattered in memory, so those costs grow with the number of entities; an insert beyond
 * either end of the tree is linked there directly (see struct family_index), so creating
 * entities in index order costs the allocation and the rebalancing, not a descent.
 *
 * Fast paths of the index (the family's own are listed in family.h; lived-in as there: holes
 * and recycled indices, kinds interleaved, components removed and added back in no order):
 *   end hint          an insert of a key above the largest (or below the smallest) is linked
 *                     beside that node, with no descent: a fresh entity index given out past
 *                     every other, or the free list giving indices back in decreasing order.
 *                     Lived-in: partly: yes for entities created past the highest index; no for
 *                     recycled indices from the middle of the free list and for components
 *                     added back to older entities (a descent from the root, as std::map's
 *                     insert without a hint).
 *   four in lockstep  family_hook_get_batch descends for four keys at once: whenever a batch needs
 *                     lookups, whatever the order. Lived-in: yes (not a condition on history).
 */
#include <stdbool.h>
#include <stdint.h>

#include <bsd/sys/tree.h>

#include "../ecs.h"

/* The key first: a lookup reads key, left and right, the first 24 bytes of the node. */
struct tree_node {
	uint32_t key, value;
	RB_ENTRY(tree_node) link;
};

RB_HEAD(tree_map, tree_node);

/*
 * The tree and its two extreme nodes, as libstdc++'s _Rb_tree keeps leftmost and rightmost in
 * its header: a key beyond either end is linked there directly (what std::map::emplace_hint
 * does with a hint at an end), instead of a descent along the tree's longest path: a tree
 * filled in key order is right-leaning, 38 levels deep at 2^20 entries for an average depth
 * of 19.5. Entity indices arrive in increasing order as they are first handed out, and in
 * decreasing order as the free list gives them back. Lookups still descend from the root.
 */
struct family_index {
	struct tree_map root;
	struct tree_node *min, *max; /* NULL when empty */
};

#define FAMILY_NAME tree
#define FAMILY_DESCRIPTION "packed arrays + red-black tree index entity->slot (Vigier's post, std::map)"
#include "family.h"

static inline int tree_node_compare(const struct tree_node *a, const struct tree_node *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

/* RB_GENERATE_STATIC does not compile with libbsd 0.11.7 (it expands to __unused). */
RB_PROTOTYPE(tree_map, tree_node, link, tree_node_compare)
RB_GENERATE(tree_map, tree_node, link, tree_node_compare)

static inline void family_hook_init(struct family_index *m)
{
	RB_INIT(&m->root);
	m->min = m->max = NULL;
}

/* RB_FIND's descent for a key that is present (the family never asks for another), inlined and
 * without RB_FIND's three-way compare. */
static inline struct tree_node *tree_lookup(const struct family_index *m, uint32_t key)
{
	struct tree_node *n = RB_ROOT(&m->root);
	while (n->key != key)
		n = key < n->key ? RB_LEFT(n, link) : RB_RIGHT(n, link);
	return n;
}

static inline uint32_t family_hook_get(const struct family_index *m, uint32_t key)
{
	return tree_lookup(m, key)->value;
}

/* One level of a descent towards a key that is present: the node itself once it holds the
 * key, else the child on the key's side. */
static inline struct tree_node *tree_step(struct tree_node *n, uint32_t key)
{
	struct tree_node *left = RB_LEFT(n, link), *right = RB_RIGHT(n, link);
	return key == n->key ? n : key < n->key ? left : right;
}

/*
 * Iteration's lookups, four at a time in lockstep: each descent is a chain of dependent loads
 * (key, then child, about 7 cycles a level), and four independent chains advance together in
 * the time of one. The descents visit exactly the nodes single lookups would; a chain that has
 * found its key stays on it while the deepest of the four finishes.
 */
static inline bool family_hook_get_batch(const struct family_index *m, const ecs_entity *entities,
                                   uint32_t n, uint32_t *values)
{
	struct tree_node *root = RB_ROOT(&m->root);
	uint32_t i = 0;
	for (; i + 4 <= n; i += 4) {
		uint32_t k0 = ecs_entity_index(entities[i]);
		uint32_t k1 = ecs_entity_index(entities[i + 1]);
		uint32_t k2 = ecs_entity_index(entities[i + 2]);
		uint32_t k3 = ecs_entity_index(entities[i + 3]);
		struct tree_node *n0 = root, *n1 = root, *n2 = root, *n3 = root;
		while (n0->key != k0 || n1->key != k1 || n2->key != k2 || n3->key != k3) {
			n0 = tree_step(n0, k0);
			n1 = tree_step(n1, k1);
			n2 = tree_step(n2, k2);
			n3 = tree_step(n3, k3);
		}
		values[i] = n0->value;
		values[i + 1] = n1->value;
		values[i + 2] = n2->value;
		values[i + 3] = n3->value;
	}
	for (; i < n; i++)
		values[i] = family_hook_get(m, ecs_entity_index(entities[i]));
	uint32_t apart = 0;
	for (i = 1; i < n; i++)
		apart |= values[i] ^ (values[0] + i);
	return apart == 0;
}

static inline int family_hook_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	struct tree_node *n = family_malloc(s, sizeof *n);
	if (!n)
		return ECS_ERR_NO_MEMORY;
	n->key = key;
	n->value = val;
	if (!m->max) { /* empty */
		RB_SET(n, NULL, link);
		RB_ROOT(&m->root) = n;
		tree_map_RB_INSERT_COLOR(&m->root, n);
		m->min = m->max = n;
	} else if (key > m->max->key) {
		RB_SET(n, m->max, link);
		RB_RIGHT(m->max, link) = n;
		tree_map_RB_INSERT_COLOR(&m->root, n);
		m->max = n;
	} else if (key < m->min->key) {
		RB_SET(n, m->min, link);
		RB_LEFT(m->min, link) = n;
		tree_map_RB_INSERT_COLOR(&m->root, n);
		m->min = n;
	} else {
		struct tree_node *dup = RB_INSERT(tree_map, &m->root, n);
		if (dup) { /* the family never inserts a present key; keep the tree as it was */
			family_free(s, n, sizeof *n);
			dup->value = val;
		}
	}
	return ECS_OK;
}

static inline void family_hook_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	tree_lookup(m, key)->value = val;
}

static inline uint32_t family_hook_take(ecs_storage *s, struct family_index *m, uint32_t key)
{
	struct tree_node *n = tree_lookup(m, key);
	uint32_t val = n->value;
	if (n == m->min)
		m->min = RB_NEXT(tree_map, &m->root, n);
	if (n == m->max)
		m->max = RB_PREV(tree_map, &m->root, n);
	RB_REMOVE(tree_map, &m->root, n);
	family_free(s, n, sizeof *n);
	return val;
}

/* Post-order: every node is freed after its children, without rebalancing the tree. */
static void tree_free_subtree(ecs_storage *s, struct tree_node *n)
{
	while (n) {
		tree_free_subtree(s, RB_LEFT(n, link));
		struct tree_node *right = RB_RIGHT(n, link);
		family_free(s, n, sizeof *n);
		n = right;
	}
}

static inline void family_hook_release(ecs_storage *s, struct family_index *m)
{
	tree_free_subtree(s, RB_ROOT(&m->root));
	family_hook_init(m);
}
