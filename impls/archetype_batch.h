/*
 * archetype_batch.h: archetype.h's batches, included at its end: entity_create_batch (a set's
 * table looked up once, the records and the table grown once, the values copied a column at a
 * time) and component_add_batch / component_remove_batch (the checks, the rows each destination
 * table gains counted, then the moves, each destination grown once). What they cost and when
 * their fast paths fire is in archetype.c's header; a variant's outside types go to its hooks
 * (arch_hook_batch, arch_hook_create_batch_room, arch_hook_create_batch_fill).
 */
#define ARCH_BATCH_SOURCE 0x80000000u /* in a batch's per-table count: a source table */
#define ARCH_BATCH_MEMO 16u /* source tables a batch remembers the edge of (direct-mapped) */

/*
 * A batch's source tables -> the edge of its type from each, so that the passes over the
 * entities search a table's edges once per table, not once per entity and pass (the batch
 * costs no more per entity than its singles). Direct-mapped by table index: entities from
 * many tables only evict each other (a miss searches the edges as a single would), whatever
 * order the game gives them in. An entry whose edge.type is ARCH_NONE: the table was checked
 * (it has, or lacks, the type as the batch requires) but its edge is not made yet.
 */
struct batch_memo {
	uint32_t from[ARCH_BATCH_MEMO]; /* ARCH_NONE: empty */
	struct arch_edge edge[ARCH_BATCH_MEMO];
};

/* batch_edge's miss: the edge searched for, or made, and remembered. */
static __attribute__((noinline)) const struct arch_edge *
batch_edge_miss(ecs_storage *s, struct batch_memo *m, uint32_t from, uint32_t type, bool add,
                int *rc)
{
	uint32_t slot = from & (ARCH_BATCH_MEMO - 1);
	struct arch_edge edge;
	if ((*rc = entity_edge(s, from, type, add, &edge)) != ECS_OK)
		return NULL;
	m->from[slot] = from;
	m->edge[slot] = edge;
	return &m->edge[slot];
}

/* The edge from table `from` (its memo entry), made if need be (batch_check found the
 * entities of `from` can move), or NULL with *rc set if making it failed. */
static inline const struct arch_edge *batch_edge(ecs_storage *s, struct batch_memo *m,
                                                 uint32_t from, uint32_t type, bool add, int *rc)
{
	uint32_t slot = from & (ARCH_BATCH_MEMO - 1);
	if (m->from[slot] == from && m->edge[slot].type != ARCH_NONE)
		return &m->edge[slot];
	return batch_edge_miss(s, m, from, type, add, rc);
}

/* Clears the marks batch_check left (every handle's index below record_used: a dead handle's
 * index may be a live entity's, whose mark is clear already). */
static void batch_unmark(ecs_storage *s, const ecs_entity *entities, uint32_t count)
{
	for (uint32_t j = 0; j < count; j++) {
		uint32_t i = ecs_entity_index(entities[j]);
		if (i < s->record_used)
			s->records[i].gen &= ~ARCH_MARK;
	}
}

/*
 * The checks of a batch over a list of entities, in ecs.h's order: ECS_ERR_INVALID (a repeated
 * handle), ECS_ERR_DEAD_ENTITY, ECS_ERR_BAD_COMPONENT, then (m not NULL: a table type) whether
 * each entity has the type (ECS_ERR_HAS_COMPONENT on an add, ECS_ERR_NO_COMPONENT on a remove),
 * asked once per source table and remembered in m with its edge where one is cached (*unmade:
 * some table has none yet). A repeat among live handles is found in O(count), not by sorting:
 * each live record seen is marked (ARCH_MARK, beside the alive bit) and a second sight finds
 * the mark. The marks are cleared before an error returns; on ECS_OK the caller's pass over
 * the records clears them (batch_move's counting pass, arch_hook_batch's last: one pass over
 * the records fewer, so that a batch costs no more per entity than its singles). Dead handles
 * have no record of their own to mark (their index may be another entity's), and only when two
 * or more are given are they sorted.
 */
static int batch_check(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
                       struct batch_memo *m, bool add, bool *unmade)
{
	bool repeat = false, wrong = false;
	bool tables = m && type < s->component_count;
	uint32_t dead = 0;
	if (m)
		memset(m->from, 0xff, sizeof m->from);
	for (uint32_t j = 0; j < count; j++) {
		ecs_entity e = entities[j];
		uint32_t i = ecs_entity_index(e);
		uint32_t *gen = i < s->record_used ? &s->records[i].gen : NULL;
		if (gen && ARCH_RECORD_KEY(*gen & ~ARCH_MARK) == (ecs_entity_generation(e) | ARCH_ALIVE)) {
			repeat |= (*gen & ARCH_MARK) != 0;
			*gen |= ARCH_MARK;
			if (!tables)
				continue;
			uint32_t from = s->records[i].table, slot = from & (ARCH_BATCH_MEMO - 1);
			if (m->from[slot] == from)
				continue;
			const struct arch_table *t = &s->tables[from];
			const struct arch_edge *cached = edge_find(t, type);
			bool has = cached ? !cached->add : table_column(t, type) != ARCH_NONE;
			wrong |= has == add;
			*unmade |= !cached;
			m->from[slot] = from;
			m->edge[slot] = cached ? *cached : (struct arch_edge){.type = ARCH_NONE};
		} else {
			dead++;
		}
	}
	int rc = ECS_OK;
	if (repeat || dead) {
		batch_unmark(s, entities, count);
		/* A repeat among the dead handles: the marks cannot see one (only live handles are
		 * marked), a sort of the list can (an error path only). */
		if (repeat || (dead > 1 && ecs_batch_has_repeat(entities, count)))
			return ECS_ERR_INVALID;
		return ECS_ERR_DEAD_ENTITY;
	}
	if (type >= s->component_count)
		rc = ECS_ERR_BAD_COMPONENT;
	else if (wrong)
		rc = add ? ECS_ERR_HAS_COMPONENT : ECS_ERR_NO_COMPONENT;
	if (rc != ECS_OK)
		batch_unmark(s, entities, count);
	return rc;
}

/* Whether [lo, hi) overlaps a column of table t. */
static bool table_overlaps(const struct arch_table *t, uintptr_t lo, uintptr_t hi)
{
	for (uint32_t j = 0; j < t->type_count; j++) {
		uintptr_t at = (uintptr_t)t->columns[j].data;
		if (at && lo < at + (size_t)t->columns[j].cap * t->columns[j].size && at < hi)
			return true;
	}
	return false;
}

/*
 * A batch of adds (values: not NULL) or removes of a table type, after batch_check passed
 * (its marks still set, its memo of source tables' edges filled; unmade: some source table
 * had no edge cached): the missing edges made (neighbour tables found or created), then the
 * rows each destination gains counted per table (the marks cleared on the way), each
 * destination grown once, then the moves. Every return clears the marks. The moves
 * overwrite the sources' rows (the last row fills each hole) and the growth moves the
 * destinations' columns: if the values overlap a column of either, they are copied aside
 * first (through the storage's allocator), so that each is read as it was when the call
 * began. On error nothing has changed but capacities and the tables that exist.
 */
static int batch_move(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
                      const struct ecs_values *values, struct batch_memo *memo, bool unmade)
{
	bool add = values != NULL;
	const struct arch_edge *edge;
	int rc = ECS_OK;
	/* The edges batch_check found no cached one for: made (the neighbour table found or
	 * created), now that no entity can fail its checks. */
	for (uint32_t j = 0; unmade && j < count; j++) {
		if (!batch_edge(s, memo, s->records[ecs_entity_index(entities[j])].table, type, add,
		                &rc)) {
			batch_unmark(s, entities, count);
			return rc;
		}
	}
	uint32_t tables = s->table_count; /* with those the edges made */
	uint32_t *need = arch_malloc(s, (size_t)tables * sizeof *need);
	if (!need) {
		batch_unmark(s, entities, count);
		return ECS_ERR_NO_MEMORY;
	}
	memset(need, 0, (size_t)tables * sizeof *need);
	/* The rows each destination gains; batch_check's marks cleared on the way. */
	for (uint32_t j = 0; j < count; j++) {
		struct arch_record *r = &s->records[ecs_entity_index(entities[j])];
		r->gen &= ~ARCH_MARK;
		edge = batch_edge(s, memo, r->table, type, add, &rc); /* made above: cannot fail now */
		need[edge->table]++;
		need[r->table] |= ARCH_BATCH_SOURCE;
	}
	const unsigned char *data = add ? values->data : NULL;
	size_t stride = add ? values->stride : 0, size = s->sizes[type < s->component_count ? type : 0];
	unsigned char *aside = NULL;
	if (add) {
		uintptr_t lo = (uintptr_t)data, hi = lo + (size_t)(count - 1) * stride + size;
		bool overlaps = false;
		for (uint32_t t = 0; t < tables && !overlaps; t++)
			overlaps = need[t] && table_overlaps(&s->tables[t], lo, hi);
		if (overlaps) {
			if (!(aside = arch_malloc(s, (size_t)count * size))) {
				rc = ECS_ERR_NO_MEMORY;
				goto out;
			}
			for (uint32_t j = 0; j < count; j++)
				memcpy(aside + (size_t)j * size, data + (size_t)j * stride, size);
			data = aside;
			stride = size;
		}
	}
	for (uint32_t t = 0; t < tables && rc == ECS_OK; t++) {
		uint32_t rows = need[t] & ~ARCH_BATCH_SOURCE;
		if (rows)
			rc = table_reserve(s, &s->tables[t], s->tables[t].count + rows);
	}
	for (uint32_t j = 0; j < count && rc == ECS_OK; j++) {
		ecs_entity e = entities[j];
		struct arch_record *r = &s->records[ecs_entity_index(e)];
		edge = batch_edge(s, memo, r->table, type, add, &rc); /* made above: cannot fail */
		entity_move(s, e, r, edge->table, edge->column, add ? data + (size_t)j * stride : NULL);
	}
	arch_free(s, aside, (size_t)count * size);
out:
	arch_free(s, need, (size_t)tables * sizeof *need);
	return rc;
}

/* A batch of adds (values not NULL) or removes of one type: every entity checked, then moved
 * to its new table (batch_move), or, for a type outside the tables, the variant's. Inlined
 * into both, as the code it folds was (batch_check and batch_move keep their two callers). */
static inline __attribute__((always_inline)) int
batch_change(ecs_storage *s, const ecs_entity *entities, uint32_t count, uint32_t type,
             const struct ecs_values *values)
{
	if (!count) /* the type is checked all the same: that does not depend on count */
		return type < s->component_count ? ECS_OK : ECS_ERR_BAD_COMPONENT;
	struct batch_memo memo, *m = &memo;
	bool unmade = false;
	if (type < s->component_count && arch_hook_outside(s, type))
		m = NULL; /* the variant says whether each has it (arch_hook_batch) */
	int rc = batch_check(s, entities, count, type, m, values != NULL, &unmade);
	if (rc != ECS_OK)
		return rc;
	if (!m)
		return arch_hook_batch(s, entities, count, type, values);
	return batch_move(s, entities, count, type, values, m, unmade);
}

static int arch_component_add_batch(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                                    uint32_t type, const struct ecs_values *values)
{
	if (!s || (count && (!entities || !values || !values->data)))
		return ECS_ERR_INVALID;
	return batch_change(s, entities, count, type, values);
}

static int arch_component_remove_batch(ecs_storage *s, const ecs_entity *entities,
                                       uint32_t count, uint32_t type)
{
	if (!s || (count && !entities))
		return ECS_ERR_INVALID;
	return batch_change(s, entities, count, type, NULL);
}

/* Copies count values (stride apart from data) to count packed slots at `to`: one memmove
 * when they are packed already. */
static inline void batch_copy(unsigned char *to, const unsigned char *data, size_t stride,
                              uint32_t size, uint32_t count)
{
	if (stride == size)
		memmove(to, data, (size_t)count * size);
	else
		for (uint32_t j = 0; j < count; j++)
			copy_value(to + (size_t)j * size, data + (size_t)j * stride, size);
}

/*
 * count entities of one set at once: the set's table looked up (or made) once, the records
 * and the table grown once, the values copied a column at a time (one memmove per column when
 * packed), the handles and records written in one loop. Indices come from the free list first
 * (its length counted as it changes, for ECS_ERR_FULL), then fresh ones. Values that point into
 * the table being grown (or a variant's outside storage) are moved along with it
 * (table_grow_keeping, arch_hook_create_batch_room); every value is written to a new row, so
 * none is overwritten before it is read. On error nothing has changed but capacities and the
 * tables that exist.
 */
static int arch_entity_create_batch(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                    const struct ecs_values *values, uint32_t count,
                                    ecs_entity *out)
{
	if (!s)
		return ECS_ERR_INVALID;
	int checked = ecs_create_batch_check(types, type_count, values, count, out,
	                                     s->component_count);
	if (checked != ECS_OK)
		return checked;
	if (!count)
		return ECS_OK;
	/* ECS_ERR_FULL from the free list's length, counted as it changes: the list is walked once,
	 * where its indices are taken, not a second time to count them. */
	uint32_t from_free = s->free_count < count ? s->free_count : count;
	uint32_t fresh = count - from_free;
	if (fresh > ECS_MAX_ENTITIES - s->record_used)
		return ECS_ERR_FULL;
	/* The table types sorted (given[j]: their place in the list), the hash of their set. */
	uint32_t sorted[ECS_CREATE_MAX_COMPONENTS], given[ECS_CREATE_MAX_COMPONENTS], n = 0;
	const void *base[ECS_CREATE_MAX_COMPONENTS];
	uint64_t hash = 0;
	for (uint32_t i = 0; i < type_count; i++) {
		base[i] = values[i].data;
		if (arch_hook_outside(s, types[i]))
			continue;
		uint32_t j = n++;
		for (; j > 0 && sorted[j - 1] > types[i]; j--) {
			sorted[j] = sorted[j - 1];
			given[j] = given[j - 1];
		}
		sorted[j] = types[i];
		given[j] = i;
		hash += type_hash(types[i]);
	}
	int rc;
	uint32_t to = table_find_set(s, hash, sorted, n);
	if (to == ARCH_NONE) {
		struct arch_column *columns = arch_malloc(s, (size_t)n * sizeof *columns);
		if (!columns)
			return ECS_ERR_NO_MEMORY;
		for (uint32_t j = 0; j < n; j++)
			columns[j] = (struct arch_column){NULL, sorted[j], s->sizes[sorted[j]], 0};
		if ((rc = table_create(s, columns, n, hash, &to)) != ECS_OK)
			return rc;
	}
	if ((rc = records_reserve(s, s->record_used + fresh)) != ECS_OK)
		return rc;
	struct arch_table *t = &s->tables[to];
	if (t->count + count > t->cap &&
	    (rc = table_grow_keeping(s, t, t->count + count, base, type_count)) != ECS_OK)
		return rc;
	uint32_t alive = ARCH_ALIVE, spare = 0;
	if ((rc = arch_hook_create_batch_room(s, types, type_count, count, from_free, base,
	                                      &spare)) != ECS_OK)
		return rc;
	alive += spare;
	uint32_t row = t->count;
	/* Two loops, not one with a test per entity: the free list's indices (each record's
	 * generation kept, the list followed), then fresh ones, whose records are written whole
	 * (generation 0) with no load of the free list's links. */
	for (uint32_t j = 0; j < from_free; j++) {
		uint32_t index = s->free_head;
		struct arch_record *r = &s->records[index];
		s->free_head = r->row;
		r->gen += alive;
		r->table = to;
		r->row = row + j;
		ecs_entity e = ecs_entity_make(index, r->gen & ECS_GENERATION_MASK);
		t->entities[row + j] = e;
		out[j] = e;
	}
	s->free_count -= from_free;
	struct arch_record *fresh_records = s->records + s->record_used - from_free;
	ecs_entity *fresh_entities = t->entities + row;
	for (uint32_t j = from_free; j < count; j++) {
		fresh_records[j] = (struct arch_record){alive, to, row + j};
		ecs_entity e = ecs_entity_make(s->record_used - from_free + j, 0);
		fresh_entities[j] = e;
		out[j] = e;
	}
	s->record_used += count - from_free;
	t->count += count;
	for (uint32_t j = 0; j < n; j++) {
		struct arch_column *col = &t->columns[j];
		batch_copy(col->data + (size_t)row * col->size, base[given[j]],
		           values[given[j]].stride, col->size, count);
	}
	arch_hook_create_batch_fill(s, types, type_count, values, base, out, count);
	return ECS_OK;
}
