/*
 * hash.c: the first storage of Vigier's post (part 1, std::unordered_map), in C with uthash: the
 * family storage (family.h) with a uthash table as the index entity index -> slot, one per
 * component type and one per system.
 *
 * What it stores: a node per entry (the bare UT_hash_handle, 56 bytes, allocated through the
 * storage's allocator as std::unordered_map's nodes) and a bucket array (16 bytes a bucket). The
 * hash of a key is the key (libstdc++'s std::hash<uint32_t>): dense entity indices spread evenly
 * and neighbours share neighbouring buckets. The array doubles when the entries outnumber the
 * buckets (max_load_factor 1.0, std's policy); uthash's own chain-length trigger is off, as it
 * grows without bound on scattered keys. docs/performance.md ("The index's figures") has the
 * bytes an entity against std::unordered_map's and the measurements behind each choice.
 *
 * Costs: lookups expected O(1), a bucket and a node chased each: on every remove (and the move
 * into the hole), and in iteration once per component per entity where a pool is out of step
 * with the system's list; every add allocates and links a node.
 *
 * Fast paths of the index (the family's own are in family.h; lived-in as there):
 *   identity hash     keys looked up in index order walk the buckets in order. Lived-in:
 *                     partly (a pool or list in no order misses a bucket and a node a key).
 *   first in chain    hash_lookup stops at the first node whose hash is the key: most chains
 *                     hold one node at a load factor of at most 1. Lived-in: yes.
 *   kept buckets      a table that empties keeps its buckets (the sentinel node), so churn
 *                     pays no doubling. Lived-in: no (a lived-in pool seldom empties).
 */
#include <stdbool.h>
#include <stdint.h>

#include "../ecs.h"

struct hash_node;
struct family_index {
	struct hash_node *head;
};

#define FAMILY_NAME hash
#define FAMILY_DESCRIPTION "packed arrays + uthash index entity->slot (Vigier's post, unordered_map)"
#include "family.h"

/* uthash allocates through the storage in scope (every macro below runs where `s` is the
 * storage) and reports out of memory instead of exiting. */
#define HASH_NONFATAL_OOM 1
#define uthash_malloc(sz) family_malloc(s, (sz))
#define uthash_free(ptr, sz) family_free(s, (ptr), (sz))
#include <uthash.h>
#undef HASH_BKT_CAPACITY_THRESH /* uthash defines it unconditionally; it is read where used */
#define HASH_BKT_CAPACITY_THRESH (1U << 24) /* never: growth is by load factor, in hash_add */

/*
 * A node is uthash's handle and nothing more: 56 bytes, a 64-byte block in glibc's malloc.
 * The handle already holds the key: the hash is the identity, so hh.hashv is the key (as
 * std::unordered_map<uint32_t, ...> keeps no hash code beside a key it can hash for free).
 * The value lives in hh.keylen, which uthash only reads in HASH_FIND (never used here: see
 * hash_lookup); hh.key, the pointer to a key, is never read and is NULL. A node of handle + key
 * + value took 64 bytes and an 80-byte block.
 */
struct hash_node {
	UT_hash_handle hh;
};

static inline void family_hook_init(struct family_index *m) { m->head = NULL; }

/*
 * uthash's HASH_FIND for a key that is present, without what the identity hash makes useless:
 * it hashes the key (the identity), picks the bucket, and walks its chain comparing hashv alone
 * (equal hashes are equal keys). A lookup that finds its key first in its bucket reads the
 * bucket and bytes 48-55 of the node (keylen = value, hashv = key), one aligned 8-byte word.
 */
static inline struct hash_node *hash_lookup(const struct family_index *m, uint32_t key)
{
	const UT_hash_table *tbl = m->head->hh.tbl;
	UT_hash_handle *hh = tbl->buckets[key & (tbl->num_buckets - 1)].hh_head;
	while (hh->hashv != key)
		hh = hh->hh_next;
	return (struct hash_node *)hh; /* the handle is the node's first (and only) member */
}

static inline uint32_t family_hook_get(const struct family_index *m, uint32_t key)
{
	return hash_lookup(m, key)->hh.keylen;
}

static inline bool family_hook_get_batch(const struct family_index *m, const ecs_entity *entities,
                                   uint32_t n, uint32_t *values)
{
	uint32_t first = family_hook_get(m, ecs_entity_index(entities[0])), apart = 0;
	values[0] = first;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t v = family_hook_get(m, ecs_entity_index(entities[i]));
		values[i] = v;
		apart |= v ^ (first + i);
	}
	return apart == 0;
}

/*
 * The key of a node every table keeps from its first insertion to its release. uthash frees a
 * table with its last entry, so a table that empties (every entity of a churn round destroyed)
 * would start again from 32 buckets and pay every doubling, a walk over all its nodes each, on
 * the next round; std::unordered_map keeps its buckets when emptied, and so does this. The key
 * is no entity index (those are below 2^22) and is not counted in the load factor.
 */
#define HASH_SENTINEL_KEY (UINT32_C(1) << 31)

static inline int hash_add(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	struct hash_node *n = family_malloc(s, sizeof *n);
	if (!n)
		return ECS_ERR_NO_MEMORY;
	/* hashv = the key, keylen = the value, no key pointer (see struct hash_node) */
	HASH_ADD_KEYPTR_BYHASHVALUE(hh, m->head, NULL, val, key, n);
	if (n->hh.tbl == NULL) { /* HASH_NONFATAL_OOM: no table could be made; n is not in */
		family_free(s, n, sizeof *n);
		return ECS_ERR_NO_MEMORY;
	}
	UT_hash_table *tbl = n->hh.tbl;
	/* Load factor over 1, the sentinel not counted (counting it would double a table of
	 * exactly 2^20 entries at its last add, a power-of-two artifact): double the buckets. */
	if (tbl->num_items - 1 > tbl->num_buckets) {
		int oomed = 0;
		HASH_EXPAND_BUCKETS(hh, tbl, oomed);
		if (oomed) { /* the table is as it was: take n out again, the add fails whole */
			HASH_DELETE(hh, m->head, n);
			family_free(s, n, sizeof *n);
			return ECS_ERR_NO_MEMORY;
		}
	}
	return ECS_OK;
}

static inline int family_hook_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
{
	bool fresh = m->head == NULL;
	if (fresh) {
		int rc = hash_add(s, m, HASH_SENTINEL_KEY, 0);
		if (rc != ECS_OK)
			return rc;
	}
	int rc = hash_add(s, m, key, val);
	if (rc != ECS_OK && fresh) { /* leave the index as it was: no table */
		struct hash_node *sentinel = m->head;
		HASH_DELETE(hh, m->head, sentinel); /* the last entry: uthash frees the table */
		family_free(s, sentinel, sizeof *sentinel);
	}
	return rc;
}

static inline void family_hook_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	hash_lookup(m, key)->hh.keylen = val;
}

static inline uint32_t family_hook_take(ecs_storage *s, struct family_index *m, uint32_t key)
{
	struct hash_node *n = hash_lookup(m, key);
	uint32_t val = n->hh.keylen;
	HASH_DELETE(hh, m->head, n);
	family_free(s, n, sizeof *n);
	return val;
}

/* Frees the nodes along uthash's list of them, then the table: no bucket is unlinked. */
static inline void family_hook_release(ecs_storage *s, struct family_index *m)
{
	if (!m->head)
		return;
	UT_hash_table *tbl = m->head->hh.tbl;
	for (struct hash_node *n = m->head, *next; n; n = next) {
		next = n->hh.next;
		family_free(s, n, sizeof *n);
	}
	family_free(s, tbl->buckets, (size_t)tbl->num_buckets * sizeof *tbl->buckets);
	family_free(s, tbl, sizeof *tbl);
	m->head = NULL;
}
