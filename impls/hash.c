/*
 * hash.c: the first storage of Vigier's post (part 1, std::unordered_map), in C with uthash.
 *
 * The family storage (family.h) with a uthash table as the index from entity index to slot,
 * one per component type and one per system. Each entry is a node of its own, allocated through
 * the storage's allocator like std::unordered_map's nodes; uthash's bucket array grows by
 * doubling. Lookups are expected O(1) but cost a bucket walk and a pointer chase per node, on
 * every remove (and the assignment of the value that moves into the hole) and, in iteration,
 * once per component per entity; every add allocates and links a node.
 *
 * What that costs, at k = 2 in profile A (the entity is in two component indexes and one
 * system's): live_bytes_per_entity 250 (`ecsbench --backends hash,vector --workloads create
 * --entities 1048576 --components 2 --reps 1 --warmup 0`; vector: 46), which is
 *     34  the family's arrays: generation 2 + bitset 4, two values 8 + their owners 4 each,
 *         the system's entity list 4 (vector spends these too, and 12 in its flat indexes)
 *    216  uthash, three entries of a 56-byte node and a 16-byte bucket (one bucket per entry:
 *         2^20 entries fill 2^20 buckets at the load factor of 1 kept below)
 * and, not counted there, glibc's 8-byte header of each node's 64-byte block: 24 more.
 * std::unordered_map<uint32_t, uint32_t> (libstdc++) spends 16 bytes a node (next pointer, key,
 * value; a 32-byte block) and 8 a bucket: 72 per entity (120 with glibc's blocks) where this
 * spends 216 (240).
 * The difference is uthash's, and cannot be cut further without changing uthash.h:
 *   - the node is the bare UT_hash_handle (see struct hash_node): 56 bytes, of which std's node
 *     has the equivalent of 16 (the chain pointer hh_next, the key in hashv, the value in
 *     keylen); the other 40 are the table pointer every handle carries (tbl), the
 *     insertion-order list (prev, next) that HASH_ITER and HASH_DELETE maintain, the chain's
 *     back pointer (hh_prev), and the key pointer (key, unused here);
 *   - a bucket (UT_hash_bucket) holds a chain count and an expansion multiplier beside its head
 *     pointer: 16 bytes where std's is one pointer. Fewer buckets (a load factor of 2) would
 *     match std's 8 bytes an entry but not its chain lengths, so the policy stays std's.
 * Until commit 6557d24 a node was the handle plus a key and a value: 64 bytes, an 80-byte block
 * (274 bytes per entity, 322 with the headers). The bare handle cut the timed create call of
 * N = 65536 at k = 2 from 1555 to 1546 instructions an entity and its simulated LL misses from
 * 8.1 to 6.9, iterate from 50.8 to 40.7 instructions, get from 169 to 149
 * (scripts/cachegrind.sh -b hash -w create,iterate,churn,get -n 65536 -k 2, both builds).
 *
 * Creating an entity spends 45% of its instructions in the allocator (three malloc calls), 20%
 * in hash_add and 7% zeroing doubled bucket arrays (make profile BACKEND=hash WORKLOAD=create,
 * N = 131072, before the bare handle). Iteration reads the index once per component per
 * batch, and once per component per entity where a pool is out of step with the system's list
 * (fragmented: a bucket and a node per component per entity, 0.82 last-level misses an entity
 * at N = 131072 against vector's 0.18, results/reference/cachegrind-A.csv).
 *
 * The hash of a key is the key itself, as std::hash<uint32_t> is in libstdc++ (the post's
 * std::unordered_map): entity indices are dense small integers, so they spread evenly over the
 * power-of-two buckets, and neighbouring entities land in neighbouring buckets. uthash's default
 * (Jenkins) scatters them instead, which costs a cache miss per lookup even when the keys are
 * visited in order (measured: about 5x slower finds over 65,536 keys in order).
 *
 * Growth. uthash grows its bucket array when one chain reaches HASH_BKT_CAPACITY_THRESH entries
 * (10 by default): with keys in order every chain then reaches 8 or so first, a load factor of 8
 * (measured over 2^20 keys in order: 20 ns a find, against 3.5 ns at one entry per bucket). A
 * lower threshold fixes that for keys in order and is a disaster for scattered ones: a chain of
 * 2 appears (birthday paradox) once a table holds about the square root of its bucket count, so
 * a table of 4,000 scattered entity indices grew to a million buckets, 16 MB, and the fragmented
 * workload of profile AAA took 8.5 GB (up to commit 904081c). So this index grows as
 * std::unordered_map does, by its load factor: the table doubles when it holds more entries
 * than buckets (max_load_factor 1.0), whatever the keys; uthash's own chain trigger is switched
 * off.
 *
 * Fast paths of the index (the family's own are listed in family.h; lived-in as there: holes
 * and recycled indices, kinds interleaved, components removed and added back in no order):
 *   identity hash     neighbouring entity indices sit in neighbouring buckets, so lookups
 *                     of keys in index order walk the bucket array in order (a pristine
 *                     storage's list and pools). Lived-in: partly: a list or pool in no order
 *                     looks its keys up in no order, a bucket and a node missed each, as any
 *                     hash table does; the keys are still spread evenly.
 *   first in chain    hash_lookup stops at the first node whose hash is the key: at a load
 *                     factor of at most 1 most chains hold one node. Lived-in: yes.
 *   kept buckets      the sentinel node keeps a table's buckets when its last entity leaves,
 *                     so a pool or list that empties and fills again (churn) pays no doubling.
 *                     Lived-in: no (a lived-in pool or list seldom empties).
 *   index_get_batch   no branch to skip: one lookup per entity, consecutive or not.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ecs.h"

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

static inline void index_init(struct family_index *m) { m->head = NULL; }

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

static inline uint32_t index_get(const struct family_index *m, uint32_t key)
{
	return hash_lookup(m, key)->hh.keylen;
}

static inline bool index_get_batch(const struct family_index *m, const ecs_entity *entities,
                                   uint32_t n, uint32_t *values)
{
	uint32_t first = index_get(m, ecs_entity_index(entities[0])), apart = 0;
	values[0] = first;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t v = index_get(m, ecs_entity_index(entities[i]));
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

static inline int index_insert(ecs_storage *s, struct family_index *m, uint32_t key, uint32_t val)
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

static inline void index_assign(struct family_index *m, uint32_t key, uint32_t val)
{
	hash_lookup(m, key)->hh.keylen = val;
}

static inline uint32_t index_take(ecs_storage *s, struct family_index *m, uint32_t key)
{
	struct hash_node *n = hash_lookup(m, key);
	uint32_t val = n->hh.keylen;
	HASH_DELETE(hh, m->head, n);
	family_free(s, n, sizeof *n);
	return val;
}

/* Frees the nodes along uthash's list of them, then the table: no bucket is unlinked. */
static inline void index_release(ecs_storage *s, struct family_index *m)
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
