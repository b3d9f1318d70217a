/*
 * tree.c: seed 000's "comparison with std::map": the family storage (family.h) with a
 * red-black tree from <bsd/sys/tree.h> as the index from entity index to slot, one per component
 * type and one per system. One node per entry, allocated through the storage's allocator as
 * std::map does. Every lookup is O(log n) pointer chases through nodes scattered in memory, so
 * the cost of every operation grows with the number of entities.
 */
#include <stdbool.h>
#include <stdint.h>

#include <bsd/sys/tree.h>

#include "ecs.h"

struct tree_node {
	RB_ENTRY(tree_node) link;
	uint32_t key, value;
};

RB_HEAD(tree_map, tree_node);

struct family_index {
	struct tree_map root;
};

#define FAMILY_NAME tree
#define FAMILY_DESCRIPTION "packed arrays + red-black tree index entity->slot (seed 000, std::map)"
#include "family.h"

static inline int tree_node_compare(const struct tree_node *a, const struct tree_node *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

/* RB_GENERATE_STATIC does not compile with libbsd 0.11.7 (it expands to __unused). */
RB_PROTOTYPE(tree_map, tree_node, link, tree_node_compare)
RB_GENERATE(tree_map, tree_node, link, tree_node_compare)

static inline void index_init(struct family_index *m) { RB_INIT(&m->root); }

static inline struct tree_node *tree_lookup(const struct family_index *m, uint32_t key)
{
	struct tree_node probe = {.key = key};
	return RB_FIND(tree_map, (struct tree_map *)&m->root, &probe);
}

static inline bool index_find(const struct family_index *m, uint32_t key, uint32_t *val)
{
	struct tree_node *n = tree_lookup(m, key);
	if (!n)
		return false;
	*val = n->value;
	return true;
}

static inline int index_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	struct tree_node *n = family_malloc(s, sizeof *n);
	if (!n)
		return ECS_ERR_NO_MEMORY;
	n->key = key;
	n->value = val;
	struct tree_node *dup = RB_INSERT(tree_map, &m->root, n);
	if (dup) { /* the family never inserts a present key; keep the tree as it was anyway */
		family_free(s, n, sizeof *n);
		dup->value = val;
	}
	return ECS_OK;
}

static inline void index_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	tree_lookup(m, key)->value = val;
}

static inline void index_erase(ecs_storage *s, struct family_index *m, uint32_t key)
{
	struct tree_node *n = tree_lookup(m, key);
	RB_REMOVE(tree_map, &m->root, n);
	family_free(s, n, sizeof *n);
}

static inline void index_release(ecs_storage *s, struct family_index *m)
{
	struct tree_node *n, *next;
	for (n = RB_MIN(tree_map, &m->root); n; n = next) {
		next = RB_NEXT(tree_map, &m->root, n);
		RB_REMOVE(tree_map, &m->root, n);
		family_free(s, n, sizeof *n);
	}
}
