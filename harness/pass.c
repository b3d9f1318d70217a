/*
 * pass.c: one process's measurement of every row group of the run (a "pass"), and the setup a
 * measuring process makes first.
 *
 * A group: every participant is set up (untimed: storages made and filled); then, in the first
 * pass only, one calibration run each picks the inner count (enough runs of the workload in a
 * sample that the fastest backend's sample lasts SAMPLE_TARGET_NS; the same count for all, so
 * that all do the same work and their checksums can agree), which the later passes reuse; then
 * the warm-up and timed samples, interleaved A B C, B C A, ... from an order shuffled for each
 * process, so that a drift of the machine hits every participant alike and no participant is
 * always first; then the untimed checks and checksums. Everything is reported as events
 * (driver.h); nothing here writes a file.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "world.h"

/* Pins the process to the last CPU it may run on, so that its samples do not migrate. */
static void pin_to_one_cpu(char *note, size_t len)
{
	cpu_set_t set, one;
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		snprintf(note, len, "not pinned (sched_getaffinity: %s)", strerror(errno));
		return;
	}
	int cpu = -1;
	for (int i = CPU_SETSIZE - 1; i >= 0 && cpu < 0; i--)
		if (CPU_ISSET(i, &set))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (cpu < 0 || sched_setaffinity(0, sizeof one, &one) != 0)
		snprintf(note, len, "not pinned (sched_setaffinity: %s)", strerror(errno));
	else
		snprintf(note, len, "pinned to cpu %d", cpu);
}

void measuring_process_setup(const struct options *o, char *pinning, size_t pinning_len,
                             const char **malloc_mode)
{
	/* Freed memory stays in the process: glibc would otherwise hand every large block back to
	 * the kernel on free (mmap threshold, trim threshold), and each sample of create or churn
	 * would then pay the kernel's page faults for memory the previous sample already touched,
	 * a cost of the machine, not of the storage, and a noisy one. The first touch is paid in
	 * the warm-up sample. --malloc-default leaves glibc as it is. */
	*malloc_mode = "glibc defaults (--malloc-default)";
	if (!o->malloc_default) {
		bool no_mmap = mallopt(M_MMAP_MAX, 0) == 1;
		bool no_trim = mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
		*malloc_mode = no_mmap && no_trim
		                   ? "glibc, mmap off and trim off (mallopt): freed memory stays in "
		                     "the process and is reused"
		               : no_mmap ? "glibc, mmap off (mallopt); setting the trim threshold failed"
		               : no_trim ? "glibc, trim off (mallopt); turning mmap off failed"
		                         : "glibc; mallopt failed, defaults in effect";
	}
	/* The heap offset the driver chose for this process: every block after it sits that many
	 * bytes further, so that the alignment of the storages' arrays to pages and cache sets
	 * changes from process to process (driver.c). Kept for the life of the process. */
	if (o->child_heap_offset) {
		static void *offset_block;
		offset_block = malloc(o->child_heap_offset);
		if (offset_block)
			memset(offset_block, 0, o->child_heap_offset);
	}
	snprintf(pinning, pinning_len, "not pinned (--no-pin)");
	if (!o->no_pin)
		pin_to_one_cpu(pinning, pinning_len);
	if (o->trace_samples)
		fprintf(stderr, "ecsbench-trace-process %d %ld %u %p %s\n",
		        o->child_pass < 0 ? 1 : o->child_pass + 1, (long)getpid(), o->child_heap_offset,
		        sbrk(0), pinning);
}

/* One sample as --trace-samples shows it on stderr (docs/variation.md reads these lines); the
 * last field is CLOCK_MONOTONIC after the sample, so that processes on other CPUs line up. */
static void trace_sample(const struct options *o, const struct group *gr, uint32_t pass,
                         uint32_t p, uint32_t s, uint64_t inner, uint64_t ns,
                         const struct sample_usage *u)
{
	fprintf(stderr,
	        "ecsbench-trace %u %s %s %u %u %d %s %" PRIu64 " %" PRIu64 " %" PRIu64
	        " %ld %ld %ld %ld %d %" PRIu64 "\n",
	        pass + 1, participant_name(o, gr, p), gr->workload->name, gr->n, gr->k,
	        s == UINT32_MAX ? -1 : (int)s,
	        s == UINT32_MAX ? "calibration" : s < o->warmup ? "warmup" : "timed", inner, ns,
	        u->cpu_ns, u->minflt, u->majflt, u->nvcsw, u->nivcsw, u->cpu, now_ns());
}

/* --- one group ---------------------------------------------------------------------------- */

struct participant {
	struct bench_case c;
	struct bench_result r;
	struct run *run;
	uint64_t timed_allocations;
	double calibration_ns; /* one cold run, or 0 */
	bool failed;
};

static void participant_failed(const struct pass_events *ev, uint32_t g, uint32_t p,
                               struct participant *x)
{
	x->failed = true;
	ev->row(ev->ctx, g, p, &x->r);
}

static uint64_t inner_for(uint64_t fastest_ns)
{
	uint64_t inner = fastest_ns ? (SAMPLE_TARGET_NS + fastest_ns - 1) / fastest_ns : MAX_INNER;
	return inner < 1 ? 1 : inner > MAX_INNER ? MAX_INNER : inner;
}

static void run_group(const struct options *o, const struct plan *plan, uint32_t pass, uint32_t g,
                      const uint32_t *order, const struct pass_events *ev)
{
	const struct group *gr = &plan->groups[g];
	uint32_t np = gr->participants;
	struct values values, writes;
	struct sample_usage usage;
	struct participant ps[MAX_LIST + 1];
	memset(ps, 0, sizeof ps);
	memset(&writes, 0, sizeof writes);
	ev->group_begin(ev->ctx, g);
	bool no_values = values_make(&values, gr->n, o->seed, 0, o->component_size) ||
	                 values_make(&writes, gr->n, o->seed, 1, o->component_size);
	for (uint32_t p = 0; p < np; p++) {
		struct participant *x = &ps[p];
		x->c = (struct bench_case){
			.ops = plan_participant(o, gr, p),
			.workload = gr->workload,
			.profile = o->profile,
			.systems = o->systems,
			.entities = gr->n,
			.k = gr->k,
			.component_size = o->component_size,
			.seed = o->seed,
			.values = &values,
			.writes = &writes,
		};
		x->r.reps = o->reps;
		if (no_values) {
			fail(&x->r, "out of memory for the values of N=%u", gr->n);
			participant_failed(ev, g, p, x);
			continue;
		}
		x->run = run_new(&x->c, &x->r);
		if (!x->run || run_setup(x->run))
			participant_failed(ev, g, p, x);
	}

	/* The inner count: calibrated in the first pass (or given), the same in every later one.
	 * One cold run each also gives the estimate of the group's time; with --inner and no
	 * warm-up (the valgrind scripts' exactly-one-timed-call) there is none. */
	uint64_t inner = plan->inner[g] ? plan->inner[g] : o->inner;
	bool calibrate = plan->inner[g] == 0 && (o->inner == 0 || o->warmup > 0);
	uint64_t fastest = UINT64_MAX;
	for (uint32_t j = 0; j < np && calibrate; j++) {
		uint32_t p = order[j];
		struct participant *x = &ps[p];
		uint64_t ns, calls;
		if (x->failed)
			continue;
		ev->sample_begin(ev->ctx, g, p, UINT32_MAX, 0);
		if (run_sample(x->run, 1, &ns, &calls, o->trace_samples ? &usage : NULL)) {
			participant_failed(ev, g, p, x);
			continue;
		}
		if (o->trace_samples)
			trace_sample(o, gr, pass, p, UINT32_MAX, 1, ns, &usage);
		x->calibration_ns = (double)ns;
		if ((x->c.ops || np == 1) && ns < fastest)
			fastest = ns;
	}
	if (!inner)
		inner = fastest == UINT64_MAX ? 1 : inner_for(fastest);

	/* When one cold run of the fastest backend already lasts twice the target, a warm run will
	 * still be a whole sample (inner 1), and the calibration run was a sample of that size for
	 * every participant: it counts as the first warm-up sample. */
	uint32_t total = o->warmup + o->reps;
	uint32_t start = calibrate && !o->inner && plan->inner[g] == 0 && fastest != UINT64_MAX &&
	                 fastest >= 2 * SAMPLE_TARGET_NS && o->warmup > 0;
	double estimate = 0;
	for (uint32_t p = 0; p < np; p++)
		estimate += ps[p].calibration_ns * (double)inner * (total - start);
	ev->calibrated(ev->ctx, g, (uint32_t)inner, estimate);

	for (uint32_t s = start; s < total; s++) {
		uint64_t fastest_warm = UINT64_MAX;
		for (uint32_t j = 0; j < np; j++) {
			uint32_t p = order[(j + s) % np];
			struct participant *x = &ps[p];
			uint64_t ns, calls;
			if (x->failed)
				continue;
			ev->sample_begin(ev->ctx, g, p, s, x->calibration_ns * (double)inner);
			if (run_sample(x->run, (uint32_t)inner, &ns, &calls,
			               o->trace_samples ? &usage : NULL)) {
				participant_failed(ev, g, p, x);
				continue;
			}
			if (o->trace_samples)
				trace_sample(o, gr, pass, p, s, inner, ns, &usage);
			if (s >= o->warmup) {
				ev->sample(ev->ctx, g, p, s - o->warmup, (double)ns / (double)inner);
				x->timed_allocations += calls;
			} else if ((x->c.ops || np == 1) && ns / inner < fastest_warm) {
				fastest_warm = ns / inner;
			}
		}
		/* The calibration run was a single cold run; the last warm-up sample, warm and whole,
		 * sets the inner count of the timed samples (all participants alike). */
		if (s + 1 == o->warmup && calibrate && !o->inner && plan->inner[g] == 0 &&
		    fastest_warm != UINT64_MAX) {
			inner = inner_for(fastest_warm);
			ev->calibrated(ev->ctx, g, (uint32_t)inner, 0);
		}
	}

	for (uint32_t p = 0; p < np; p++) {
		struct participant *x = &ps[p];
		if (x->failed)
			continue;
		if (run_finish(x->run)) {
			participant_failed(ev, g, p, x);
			continue;
		}
		x->r.inner = (uint32_t)inner;
		uint64_t runs = (uint64_t)o->reps * inner;
		/* a backend that allocates never shows 0 */
		x->r.allocations = (x->timed_allocations + runs - 1) / runs;
		ev->row(ev->ctx, g, p, &x->r);
	}
	ev->group_end(ev->ctx, g);
	for (uint32_t p = 0; p < np; p++)
		run_free(ps[p].run);
	values_free(&values);
	values_free(&writes);
}

void pass_run(const struct options *o, const struct plan *plan, uint32_t pass,
              const struct pass_events *ev)
{
	for (uint32_t g = 0; g < plan->count; g++) {
		uint32_t np = plan->groups[g].participants;
		/* The order of the participants' samples in this process. */
		uint32_t *order = permutation(o->seed, (uint64_t)(pass + 1) << 32 | g, np);
		uint32_t fallback[MAX_LIST + 1];
		if (!order) {
			for (uint32_t p = 0; p < np; p++)
				fallback[p] = p;
		}
		run_group(o, plan, pass, g, order ? order : fallback, ev);
		free(order);
	}
}
