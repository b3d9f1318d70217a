/*
 * scenario_floor.c: the scenario's frames over plain arrays (the floor target of
 * scenario_target.h): per kind a column of 4-byte values per type its entities can have, walked
 * by the same kernel as the backends' batches, no interface call; its checksum must agree with
 * the backends'.
 *
 * Costs: a frame's (scenario_engine.h); 4 bytes a value in the columns, moved on swap-remove.
 */
/* the parts of a frame it has none of (scenario_frame.h) */
#define SCENARIO_TARGET_NO_REMOVE_BATCH
#define SCENARIO_TARGET_NO_DESTROY
#define SCENARIO_TARGET_NO_REMOVE
#include "scenario_frame.h"

/* The floor's work on one matching entity (member pos of kind k). */
static inline __attribute__((always_inline)) uint32_t
floor_one(struct scenario_engine *e, uint32_t s, const struct system_plan *sp,
          const struct kind_state *k, uint32_t pos)
{
	const uint8_t *col = e->system_record_pos +
	                     ((size_t)s * e->kv_count + k->live[pos].kv) * SCENARIO_SYSTEM_MAX_REQUIRED;
	uint32_t acc = ACC_START;
	for (uint32_t r = 0; r < sp->reads; r++)
		acc = acc * 31 + column_of(k, col[sp->read_col[r]])[pos];
	acc = do_work(acc, sp->work);
	for (uint32_t w = 0; w < sp->writes; w++) {
		uint32_t *p = &column_of(k, col[sp->write_col[w]])[pos];
		*p = (*p + acc) & width_mask(sp->write_width[w]);
	}
	return acc;
}

/*
 * The floor's pass: the same work over its columns. A kind whose every variant matches, with no
 * dynamic type to check, is one batch of whole columns for the backends' own kernel
 * (work_columns); a system that requires a dynamic type walks the slots having the rarest of
 * them; any other walks the kinds that can match, entity by entity.
 */
static void pass_floor(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	const struct scenario_system *sys = &e->sc->systems[s];
	uint32_t sum = 0;
	if (sp->need_dynamic) {
		uint32_t d = rarest_dynamic(e, sp->need_dynamic);
		for (uint32_t i = 0; i < e->having_count[d]; i++) {
			const struct kind_state *k = kind_of_slot(e, e->having[d][i]);
			uint32_t pos = e->slots[e->having[d][i]].kind_pos;
			if (member_matches(e, s, sp, &k->live[pos]))
				sum += floor_one(e, s, sp, k, pos);
		}
		e->work_sum += sum;
		return;
	}
	for (uint32_t j = 0; j < sp->kind_count; j++) {
		const struct kind_state *k = &e->kinds[sp->kinds[j]];
		if (!e->kind_all_match[(size_t)s * e->sc->kind_count + sp->kinds[j]] ||
		    sp->exclude_dynamic) {
			for (uint32_t i = 0; i < k->count; i++)
				if (member_matches(e, s, sp, &k->live[i]))
					sum += floor_one(e, s, sp, k, i);
			continue;
		}
		if (!k->count)
			continue;
		const uint8_t *col = e->system_record_pos +
		                     ((size_t)s * e->kv_count + k->kv_first) * SCENARIO_SYSTEM_MAX_REQUIRED;
		struct batch_view view;
		for (uint32_t c = 0; c < sys->required_count; c++) {
			view.base[c] = (unsigned char *)column_of(k, col[c]);
			view.stride[c] = sizeof(uint32_t);
			view.ptrs[c] = NULL;
		}
		sum += work_columns(sp, &view, k->count);
	}
	e->work_sum += sum;
}

/*
 * The floor's pass cut as the backends cut theirs: pass_floor's walk (the slots having the
 * rarest required dynamic type, or the matching kinds one after the other) taken as one
 * sequence of entries, in T contiguous ranges balanced by entries. Where a range starts inside
 * a kind walked as whole columns, its start moves forward (by less than a range) to a
 * cache-line start of the first written column, as the backends' boundaries do, so that two
 * threads do not write one line.
 */
static bool floor_columns(const struct scenario_engine *e, const struct parallel_pass *j,
                          uint32_t kind)
{
	return e->kind_all_match[(size_t)j->s * e->sc->kind_count + kind] && !j->sp->exclude_dynamic;
}

static uint32_t floor_bound(const struct parallel_pass *j, uint32_t part, uint32_t parts)
{
	const struct scenario_engine *e = j->e;
	uint32_t at = ecs_split_bound(j->total, part, parts);
	if (part == 0 || part == parts || j->sp->need_dynamic || !j->sp->writes)
		return at;
	uint32_t start = 0;
	for (uint32_t x = 0; x < j->sp->kind_count; x++) {
		const struct kind_state *k = &e->kinds[j->sp->kinds[x]];
		if (at < start + k->count) {
			if (!floor_columns(e, j, j->sp->kinds[x]))
				return at;
			const uint8_t *col = e->system_record_pos + ((size_t)j->s * e->kv_count + k->kv_first) *
			                                                SCENARIO_SYSTEM_MAX_REQUIRED;
			uint32_t off = at - start, limit = j->total / parts;
			if (limit > k->count - off)
				limit = k->count - off;
			return at + ecs_split_align(column_of(k, col[j->sp->write_col[0]]) + off,
			                            sizeof(uint32_t), limit);
		}
		start += k->count;
	}
	return at;
}

static void floor_part(void *ctx, uint32_t thread, uint32_t threads)
{
	const struct parallel_pass *j = ctx;
	struct scenario_engine *e = j->e;
	const struct system_plan *sp = j->sp;
	uint32_t from = floor_bound(j, thread, threads), to = floor_bound(j, thread + 1, threads);
	uint32_t sum = 0;
	if (sp->need_dynamic) {
		uint32_t d = rarest_dynamic(e, sp->need_dynamic);
		for (uint32_t i = from; i < to; i++) {
			const struct kind_state *k = kind_of_slot(e, e->having[d][i]);
			uint32_t pos = e->slots[e->having[d][i]].kind_pos;
			if (member_matches(e, j->s, sp, &k->live[pos]))
				sum += floor_one(e, j->s, sp, k, pos);
		}
		e->thread_sums[thread].sum = sum;
		return;
	}
	uint32_t start = 0;
	for (uint32_t x = 0; x < sp->kind_count && start < to; x++) {
		const struct kind_state *k = &e->kinds[sp->kinds[x]];
		uint32_t lo = from > start ? from - start : 0, hi = to - start;
		if (hi > k->count)
			hi = k->count;
		start += k->count;
		if (lo >= hi)
			continue;
		if (!floor_columns(e, j, sp->kinds[x])) {
			for (uint32_t i = lo; i < hi; i++)
				if (member_matches(e, j->s, sp, &k->live[i]))
					sum += floor_one(e, j->s, sp, k, i);
			continue;
		}
		const uint8_t *col = e->system_record_pos +
		                     ((size_t)j->s * e->kv_count + k->kv_first) * SCENARIO_SYSTEM_MAX_REQUIRED;
		struct batch_view view;
		for (uint32_t c = 0; c < j->sys->required_count; c++) {
			view.base[c] = (unsigned char *)(column_of(k, col[c]) + lo);
			view.stride[c] = sizeof(uint32_t);
			view.ptrs[c] = NULL;
		}
		sum += work_columns(sp, &view, hi - lo);
	}
	e->thread_sums[thread].sum = sum;
}

static void pass_floor_parallel(struct scenario_engine *e, uint32_t s)
{
	struct parallel_pass j = {e, s, &e->sc->systems[s], &e->systems[s], 0};
	if (j.sp->need_dynamic) {
		j.total = e->having_count[rarest_dynamic(e, j.sp->need_dynamic)];
	} else {
		for (uint32_t x = 0; x < j.sp->kind_count; x++)
			j.total += e->kinds[j.sp->kinds[x]].count;
	}
	parallel_run(e->pool, floor_part, &j);
	e->work_sum += thread_sums_total(e);
}

/* --- its part of each operation -------------------------------------------------------- */

static int target_create(struct scenario_engine *e, uint32_t kind, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial, uint32_t slot,
                         ecs_entity *h)
{
	(void)kind, (void)slot, (void)h;
	target_adopt(e, k, v, serial);
	return 0;
}

/* The floor has no storage to call: a batch's entities take their columns as they are adopted
 * (target_create's writes), a batch's adds are the single adds' writes. */
static int target_create_batch(struct scenario_engine *e, uint32_t kind,
                               const struct kind_variant *v, uint32_t first, uint32_t n)
{
	(void)kind, (void)v;
	for (uint32_t j = first; j < first + n; j++)
		e->batch.handles[j] = ECS_NULL;
	return 0;
}

/* What the floor's column of type keeps of entity serial's value. */
static inline uint32_t column_value(const struct scenario_engine *e, uint32_t type,
                                    uint32_t serial)
{
	return load_value(value_of_entity(e, type, serial), e->widths[type]);
}

/* Kind k's column of a type effects add and remove (a dynamic type). */
static inline uint32_t *dynamic_column(const struct scenario_engine *e, const struct kind_state *k,
                                       uint32_t type)
{
	return column_of(k, e->kv_max_types + (uint32_t)e->dynamic_bit[type]);
}

static void target_adopt(struct scenario_engine *e, struct kind_state *k,
                         const struct kind_variant *v, uint32_t serial)
{
	for (uint32_t j = 0; j < v->type_count; j++)
		column_of(k, v->record_pos[j])[k->count] = column_value(e, v->types[j], serial);
}

static int target_add_batch(struct scenario_engine *e, struct kind_state *k, uint32_t type,
                            uint32_t n)
{
	uint32_t *column = dynamic_column(e, k, type);
	for (uint32_t j = 0; j < n; j++)
		column[e->batch.pos[j]] = column_value(e, type, e->batch.serials[j]);
	return 0;
}

static void target_move(struct scenario_engine *e, struct kind_state *k, uint32_t to,
                        uint32_t from)
{
	for (uint32_t c = 0; c < e->record_width; c++)
		column_of(k, c)[to] = column_of(k, c)[from];
}

static int target_add(struct scenario_engine *e, struct kind_state *k, uint32_t pos,
                      uint32_t type, struct identity id)
{
	dynamic_column(e, k, type)[pos] = column_value(e, type, id.serial);
	return 0;
}

/* The columns grow with the kind's lists. */
static bool target_grow(struct scenario_engine *e, struct kind_state *k, uint32_t cap)
{
	uint32_t *columns = own_alloc(e, (size_t)e->record_width * cap * sizeof *columns);
	if (!columns)
		return false;
	for (uint32_t c = 0; c < e->record_width && k->columns; c++)
		memcpy(columns + (size_t)c * cap, k->columns + (size_t)c * k->cap,
		       k->count * sizeof *columns);
	free(k->columns);
	e->own_bytes -= (size_t)e->record_width * k->cap * sizeof *columns;
	k->columns = columns;
	return true;
}

static int target_lookup(struct scenario_engine *e, const struct kind_state *k, uint32_t at,
                         uint32_t j, uint32_t t, ecs_entity h, uint32_t *sum)
{
	(void)t, (void)h;
	uint32_t col = e->lookup_record_pos[(size_t)k->live[at].kv * e->sc->lookup_type_count + j];
	*sum += column_of(k, col)[at];
	return 0;
}

static int target_pass(struct scenario_engine *e, uint32_t s, const struct system_plan *sp)
{
	pass_floor(e, s, sp);
	return 0;
}

static int target_pass_parallel(struct scenario_engine *e, uint32_t s)
{
	pass_floor_parallel(e, s);
	return 0;
}

/* --- outside the frames ---------------------------------------------------------------------- */

/* The checksum's value: the table's, with the bytes the systems keep from the column. */
static int floor_read_value(struct scenario_engine *e, uint32_t kind, uint32_t pos,
                            uint32_t type, bool has, unsigned char *value)
{
	if (!has)
		return 0;
	const struct kind_state *k = &e->kinds[kind];
	const struct member *m = &k->live[pos];
	memcpy(value, value_of_entity(e, type, k->ids[pos].serial), e->sizes[type]);
	uint32_t v = column_of(k, record_pos(e, &e->kvs[m->kv], type))[pos];
	store_value(value, e->widths[type], v);
	return 0;
}

const struct scenario_target scenario_floor_target = {
	SCENARIO_FRAME_TARGET,
	.read_value = floor_read_value,
	.own_columns = true,
};
