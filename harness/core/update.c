/*
 * update.c: the measured system's update over one batch, Position += Velocity * dt (k = 1:
 * += dt; k = 3: scaled by Mass), the work of `iterate`, `fragmented`, the floor and the
 * machine's fingerprint (machine.c).
 *
 * A backend hands out each of the k components either as a column (contiguous values) or as an
 * array of pointers (struct ecs_batch). Every shape gets its own loop with the shape fixed at
 * compile time: no test of `columns[c]` and no runtime k inside the per-entity loop, so that
 * what a backend pays for its batch shape is the shape itself (a pointer load per component per
 * entity), not the harness's dispatch. The all-column loops take `restrict` pointers, so the
 * compiler may vectorise them without checks for overlap: these are the loops the floor and
 * every backend that hands out whole columns get alike.
 *
 * Cost: O(n) per batch; one switch per batch.
 */
#include <stdbool.h>

#include "update.h"

static const float dt = 1.0f / 60.0f;

/* --- whole columns of the harness's own sizes (8-byte Position and Velocity) ------------- */

static void columns_k1(struct position *restrict p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		p[i].x += dt;
		p[i].y += dt;
	}
}

static void columns_k2(struct position *restrict p, const struct velocity *restrict v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		p[i].x += v[i].x * dt;
		p[i].y += v[i].y * dt;
	}
}

static void columns_k3(struct position *restrict p, const struct velocity *restrict v,
                       const struct mass *restrict m, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		p[i].x += v[i].x * m[i].m * dt;
		p[i].y += v[i].y * m[i].m * dt;
	}
}

/*
 * Any shape, any sizes: component c of entity i is at columns[c] + i * stride[c] for a column,
 * at pointers[c][i] otherwise. Inlined into update_batch with k, the column mask and (for the
 * typed shapes) the strides as constants, so each call site below becomes a loop of its own.
 */
static inline __attribute__((always_inline)) void
update_shape(const struct ecs_batch *b, uint32_t k, unsigned column_mask, size_t p_stride,
             size_t v_stride, size_t m_stride)
{
	uint32_t n = b->count;
	char *pc = b->columns[0];
	const char *vc = b->columns[1], *mc = b->columns[2];
	void **pp = b->pointers[0], **vp = b->pointers[1], **mp = b->pointers[2];
	for (uint32_t i = 0; i < n; i++) {
		struct position *p = (void *)(column_mask & 1 ? pc + i * p_stride : (char *)pp[i]);
		if (k == 1) {
			p->x += dt;
			p->y += dt;
			continue;
		}
		const struct velocity *v =
		    (const void *)(column_mask & 2 ? vc + i * v_stride : (const char *)vp[i]);
		if (k == 2) {
			p->x += v->x * dt;
			p->y += v->y * dt;
			continue;
		}
		const struct mass *m =
		    (const void *)(column_mask & 4 ? mc + i * m_stride : (const char *)mp[i]);
		p->x += v->x * m->m * dt;
		p->y += v->y * m->m * dt;
	}
}

/* Shapes of the harness's own sizes: every stride a constant. */
#define TYPED(k, mask)                                                                             \
	update_shape(b, k, mask, sizeof(struct position), sizeof(struct velocity), sizeof(struct mass))
/* Other sizes (--component-size): the strides come from the run. */
#define SIZED(k, mask) update_shape(b, k, mask, size[0], size[1], size[2])

void update_batch(const struct ecs_batch *b, uint32_t k, const size_t size[COMP_MAX_K])
{
	unsigned mask = 0;
	for (uint32_t c = 0; c < k; c++)
		mask |= (b->columns[c] != NULL) << c;
	bool typed = size[0] == sizeof(struct position) &&
	             (k < 2 || size[1] == sizeof(struct velocity)) &&
	             (k < 3 || size[2] == sizeof(struct mass));
	if (typed) {
		switch (k * 8 + mask) {
		case 1 * 8 + 1: columns_k1(b->columns[0], b->count); return;
		case 2 * 8 + 3: columns_k2(b->columns[0], b->columns[1], b->count); return;
		case 3 * 8 + 7:
			columns_k3(b->columns[0], b->columns[1], b->columns[2], b->count);
			return;
		case 1 * 8 + 0: TYPED(1, 0); return;
		case 2 * 8 + 0: TYPED(2, 0); return;
		case 2 * 8 + 1: TYPED(2, 1); return;
		case 2 * 8 + 2: TYPED(2, 2); return;
		case 3 * 8 + 0: TYPED(3, 0); return;
		case 3 * 8 + 1: TYPED(3, 1); return;
		case 3 * 8 + 2: TYPED(3, 2); return;
		case 3 * 8 + 3: TYPED(3, 3); return;
		case 3 * 8 + 4: TYPED(3, 4); return;
		case 3 * 8 + 5: TYPED(3, 5); return;
		case 3 * 8 + 6: TYPED(3, 6); return;
		}
		return;
	}
	switch (k * 8 + mask) {
	case 1 * 8 + 0: SIZED(1, 0); return;
	case 1 * 8 + 1: SIZED(1, 1); return;
	case 2 * 8 + 0: SIZED(2, 0); return;
	case 2 * 8 + 1: SIZED(2, 1); return;
	case 2 * 8 + 2: SIZED(2, 2); return;
	case 2 * 8 + 3: SIZED(2, 3); return;
	case 3 * 8 + 0: SIZED(3, 0); return;
	case 3 * 8 + 1: SIZED(3, 1); return;
	case 3 * 8 + 2: SIZED(3, 2); return;
	case 3 * 8 + 3: SIZED(3, 3); return;
	case 3 * 8 + 4: SIZED(3, 4); return;
	case 3 * 8 + 5: SIZED(3, 5); return;
	case 3 * 8 + 6: SIZED(3, 6); return;
	case 3 * 8 + 7: SIZED(3, 7); return;
	}
}
