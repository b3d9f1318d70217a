/*
 * indirect.c: does one indirect call per lookup matter when every lookup is a cache miss? The
 * study of issue 33 (docs/backends.md, "Random access"), run by scripts/studies/indirect.sh.
 *
 * The get floor's work (harness/sweep/floor.c: the k values of N entities read from plain
 * arrays in a shuffled order, their first floats added up) done four ways over the same arrays
 * and order, interleaved round by round in one process:
 *   inline   the floor's loop as the harness runs it;
 *   call     each value found by a call through a function pointer with component_get's shape
 *            (storage, handle, type, out; a status returned and tested; the arguments checked),
 *            as the harness reaches a backend through its ops table;
 *   checked  the same call, also comparing a per-entity generation (a 2-byte array, one more
 *            cache miss an entity): what a checked handle adds to the call;
 *   batch    the same lookups, 256 handles a call (a pointer per handle and type, a status per
 *            handle), the values then read by the caller: what a batched lookup leaves of the
 *            call's cost.
 * Prints one line per variant: the median over the rounds of ns per entity (CPU time of this
 * thread, as the harness's default clock), and the sum each computed (all four must agree).
 *
 * Usage: indirect N K ROUNDS SEED
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VALUE_BYTES 8u
#define BATCH 256u
#define MAX_K 3u

struct arrays {
	uint32_t n, k;
	unsigned char *data[MAX_K];
	uint16_t *gen;
};

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* component_get's shape: every argument checked, a status returned. */
static int lookup(void *storage, uint32_t e, uint32_t type, void **out)
{
	const struct arrays *a = storage;
	if (!a || !out)
		return -8;
	if (e >= a->n)
		return -1;
	if (type >= a->k)
		return -4;
	*out = a->data[type] + (size_t)e * VALUE_BYTES;
	return 0;
}

static int lookup_checked(void *storage, uint32_t e, uint32_t type, void **out)
{
	const struct arrays *a = storage;
	if (!a || !out)
		return -8;
	uint32_t index = e & 0x3fffffu;
	if (index >= a->n || a->gen[index] != e >> 22)
		return -1;
	if (type >= a->k)
		return -4;
	*out = a->data[type] + (size_t)index * VALUE_BYTES;
	return 0;
}

static int lookup_batch(void *storage, const uint32_t *e, uint32_t count, uint32_t type,
                        void **out, int *status)
{
	const struct arrays *a = storage;
	if (!a || !out || !status || type >= a->k)
		return -8;
	int rc = 0;
	for (uint32_t j = 0; j < count; j++) {
		uint32_t index = e[j] & 0x3fffffu;
		int ok = index < a->n && a->gen[index] == e[j] >> 22;
		out[j] = ok ? a->data[type] + (size_t)index * VALUE_BYTES : NULL;
		status[j] = ok ? 0 : -1;
		rc |= status[j];
	}
	return rc;
}

/* Through a volatile pointer, so that the compiler can neither inline nor see the callee. */
static int (*volatile get_fn)(void *, uint32_t, uint32_t, void **) = lookup;
static int (*volatile get_checked_fn)(void *, uint32_t, uint32_t, void **) = lookup_checked;
static int (*volatile get_batch_fn)(void *, const uint32_t *, uint32_t, uint32_t, void **,
                                    int *) = lookup_batch;

static double run_inline(const struct arrays *a, const uint32_t *order)
{
	double sum = 0;
	for (uint32_t i = 0; i < a->n; i++)
		for (uint32_t t = 0; t < a->k; t++)
			sum += *(const float *)(const void *)(a->data[t] + (size_t)order[i] * VALUE_BYTES);
	return sum;
}

static double run_call(struct arrays *a, const uint32_t *order, bool checked)
{
	int (*get)(void *, uint32_t, uint32_t, void **) = checked ? get_checked_fn : get_fn;
	double sum = 0;
	for (uint32_t i = 0; i < a->n; i++)
		for (uint32_t t = 0; t < a->k; t++) {
			void *p;
			if (get(a, order[i], t, &p) != 0)
				return -1;
			sum += *(const float *)p;
		}
	return sum;
}

static double run_batch(struct arrays *a, const uint32_t *order)
{
	int (*get)(void *, const uint32_t *, uint32_t, uint32_t, void **, int *) = get_batch_fn;
	void *p[MAX_K][BATCH];
	int status[BATCH];
	double sum = 0;
	for (uint32_t i = 0; i < a->n; i += BATCH) {
		uint32_t m = a->n - i < BATCH ? a->n - i : BATCH;
		for (uint32_t t = 0; t < a->k; t++)
			if (get(a, order + i, m, t, p[t], status) != 0)
				return -1;
		for (uint32_t j = 0; j < m; j++)
			for (uint32_t t = 0; t < a->k; t++)
				sum += *(const float *)p[t][j];
	}
	return sum;
}

static int compare_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: indirect N K ROUNDS SEED\n");
		return 2;
	}
	struct arrays a = {(uint32_t)strtoul(argv[1], NULL, 10), (uint32_t)strtoul(argv[2], NULL, 10),
	                   {NULL}, NULL};
	uint32_t rounds = (uint32_t)strtoul(argv[3], NULL, 10);
	uint64_t x = strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15u + 1;
	if (a.n < 1 || a.n > 0x3fffffu || a.k < 1 || a.k > MAX_K || rounds < 1 || rounds > 1000) {
		fprintf(stderr, "indirect: N 1..4194303, K 1..3, ROUNDS 1..1000\n");
		return 2;
	}
	uint32_t *order = malloc((size_t)a.n * sizeof *order);
	a.gen = calloc(a.n, sizeof *a.gen);
	for (uint32_t t = 0; t < a.k; t++)
		a.data[t] = malloc((size_t)a.n * VALUE_BYTES);
	double *times = malloc((size_t)rounds * 4 * sizeof *times);
	if (!order || !a.gen || !a.data[a.k - 1] || !times) {
		fprintf(stderr, "indirect: out of memory\n");
		return 1;
	}
	for (uint32_t t = 0; t < a.k; t++)
		for (uint32_t i = 0; i < a.n; i++) {
			float v = (float)((i * 7u + t * 3u) % 1000u) / 8.0f;
			memcpy(a.data[t] + (size_t)i * VALUE_BYTES, &v, sizeof v);
		}
	for (uint32_t i = 0; i < a.n; i++)
		order[i] = i;
	for (uint32_t i = a.n - 1; i > 0; i--) { /* Fisher-Yates over xorshift64 */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t j = (uint32_t)(x % (i + 1u)), swap = order[i];
		order[i] = order[j];
		order[j] = swap;
	}
	const char *names[4] = {"inline", "call", "checked", "batch"};
	double sums[4];
	for (uint32_t r = 0; r < rounds + 1; r++) /* round 0: a warm-up, not kept */
		for (uint32_t v = 0; v < 4; v++) {
			double t0 = now_ns();
			double s = v == 0 ? run_inline(&a, order)
			         : v == 3 ? run_batch(&a, order)
			                  : run_call(&a, order, v == 2);
			double t1 = now_ns();
			__asm__ volatile("" : : "g"(&s) : "memory");
			sums[v] = s;
			if (r)
				times[v * rounds + r - 1] = (t1 - t0) / a.n;
		}
	for (uint32_t v = 0; v < 4; v++) {
		qsort(times + v * rounds, rounds, sizeof *times, compare_double);
		printf("%s %.3f %.17g\n", names[v], times[v * rounds + rounds / 2], sums[v]);
	}
	return 0;
}
