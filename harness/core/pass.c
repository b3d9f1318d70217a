/*
 * pass.c: one process's measurement of the row groups the driver gives it (a "pass": plan.work,
 * plan.active), and the setup a measuring process makes first.
 *
 * A group: every participant the process measures is set up (untimed: storages made and
 * filled, in an order drawn for the process); then, in the first process only, one calibration
 * run each, the checksums where every participant has made the same runs (see group_calibrate)
 * and the calibration screen of the race (race.h); then warm-up and timed rounds, each round a
 * sample of every participant still measured in an order drawn for the round, so that a slow
 * stretch of the machine falls on a whole round; in the first process the round screen after
 * each timed round; then the untimed checks. A sample makes the same runs for every
 * participant of the group (INNER_CAP). Everything is reported as events (pass.h); nothing
 * here writes a file.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure.h"
#include "pass.h"
#include "race.h"
#include "rng.h"

/*
 * Pins the process to the CPU it runs on now, so that its samples do not migrate. Not always the
 * same CPU: the scheduler has just placed this fresh process, usually where it found room, so
 * two runs at once (or a run and the machine's other work) do not all crowd one CPU, as pinning
 * to the last CPU did (docs/variation.md). Returns that CPU, or -1 if it is not pinned.
 */
static int pin_to_one_cpu(char *note, size_t len)
{
	cpu_set_t one;
	int cpu = sched_getcpu();
	if (cpu < 0) {
		snprintf(note, len, "not pinned (sched_getcpu: %s)", strerror(errno));
		return -1;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof one, &one) != 0) {
		snprintf(note, len, "not pinned (sched_setaffinity: %s)", strerror(errno));
		return -1;
	}
	snprintf(note, len, "pinned to the cpu it started on, %d", cpu);
	return cpu;
}

/* "1,0" or "31,0-30": the CPUs of a list in its order, runs of consecutive ones as ranges. */
static void cpus_text(const struct cpu_list *c, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < c->count && at < len; i++) {
		uint32_t j = i;
		while (j + 1 < c->count && c->cpu[j + 1] == c->cpu[j] + 1)
			j++;
		int n = j > i + 1 ? snprintf(buf + at, len - at, "%s%u-%u", i ? "," : "", c->cpu[i],
		                             c->cpu[j])
		                  : snprintf(buf + at, len - at, "%s%u", i ? "," : "", c->cpu[i]);
		if (n < 0)
			break;
		at += (size_t)n;
		if (j > i + 1)
			i = j;
	}
}

void pass_process_setup(const struct options *o, struct plan *plan, char *pinning,
                        size_t pinning_len, const char **malloc_mode)
{
	struct cpu_list *cpus = &plan->cpus;
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
	/* The CPUs a threaded row's threads run on: all the process may use, found before it pins
	 * itself to one of them, which then comes first (thread 0 is this thread). */
	parallel_cpus_allowed(cpus);
	snprintf(pinning, pinning_len, "not pinned (--no-pin)");
	int cpu = o->no_pin ? -1 : pin_to_one_cpu(pinning, pinning_len);
	if (cpu >= 0 && cpus->count) {
		parallel_cpus_put_first(cpus, (uint32_t)cpu);
		cpus->pinned = true;
	}
	if (plan->threaded) {
		size_t used = strlen(pinning);
		char list[256];
		cpus_text(cpus, list, sizeof list);
		if (cpus->pinned)
			snprintf(pinning + used, pinning_len - used,
			         "; a parallel row pins its thread t to the t-th of cpus %s (thread 0: "
			         "the measuring thread)",
			         list);
		else
			snprintf(pinning + used, pinning_len - used,
			         "; a parallel row's threads are not pinned either");
	}
	if (o->trace_samples)
		fprintf(stderr, "ecsbench-trace-process %d %ld %u %p %s\n",
		        o->child_pass < 0 ? 1 : o->child_pass + 1, (long)getpid(), o->child_heap_offset,
		        sbrk(0), pinning);
}

/* One sample as --trace-samples shows it on stderr (docs/variation.md reads these lines). */
static void trace_sample(const struct options *o, const struct group *gr, uint32_t pass,
                         uint32_t p, uint32_t s, uint64_t inner, const struct sample_time *t)
{
	fprintf(stderr,
	        "ecsbench-trace %u %s %s %u %u %d %s %" PRIu64 " %" PRIu64 " %" PRIu64
	        " %ld %ld %ld %ld %d %" PRIu64 "\n",
	        pass + 1, plan_participant_name(o, gr, p), gr->workload->name, gr->n, gr->k,
	        s == UINT32_MAX ? -1 : (int)s,
	        s == UINT32_MAX ? "calibration" : s < o->warmup ? "warmup" : "timed", inner, t->wall_ns,
	        t->cpu_ns, t->minflt, t->majflt, t->nvcsw, t->nivcsw, t->cpu, measure_now_ns());
}

/* A sample's time on the clock the run measures with (--clock). A threaded workload's sample is
 * always wall time: the measuring thread's CPU time would leave out the other threads' work and
 * the wait for the slowest of them, which is what a parallel pass costs. */
static uint64_t sample_ns(const struct options *o, const struct group *gr,
                          const struct sample_time *t)
{
	return o->wall_clock || gr->workload->threaded ? t->wall_ns : t->cpu_ns;
}

/* --- one group ---------------------------------------------------------------------------- */

/*
 * A run over SETTLE_RUN_NS takes no warm-up where its memory is touched already: the run
 * allocates nothing (its setup touched what it uses), or its first run is like every other
 * (workload.first_run_alike: creation into a storage whose predecessors died, restored before
 * each sample) and its cold calibration run took no more page faults than a settled sample may
 * (what it allocates, setup had touched and freed). A cold start is a small part of a run this
 * long; a warm-up there costs a run and a restore (tree's create at N = 2^18: 3.2 s and 7.2 s,
 * loaded, before a timed run of 3.5 s). In the first process such a run's calibration run is its
 * warm-up. Not a shorter run, however long its calibration run: a cold run can be far longer
 * than a warm one (iterate at N = 2^18, AAA, in a family's fork: 14 ms of copy-on-write faults
 * against 60 us), and read as long it once left iterate's samples unwarmed in every process.
 */
#define SETTLED_FAULTS 8 /* page faults (32 KiB first touched) a settled sample may take */
/* A run longer than this takes no extra warm-up (warm_until_settled), and no warm-up at all
 * where its memory is touched already (decide_sampling): there the faults are a
 * small part of the run (10,000 faults of about 0.5 us, 5 ms of a second's run), and another
 * warm-up costs a run: tree's churn at N = 2^20, k = 2 took two more of 7.5 and 11.9 s in a
 * process before its timed one of 9.1 s. */
#define SETTLE_RUN_NS 1e9
/*
 * The runs of a sample are the same for the contenders of a group: a sample's first run starts
 * where the participant before it in the round left the caches, the others where the run before
 * left them, so a participant that made fewer runs a sample would be measured colder. With a
 * count of its own, sparse and a copy of it (--twin) at iterate, N = 2^18, AAA, at about 2 ms a
 * run, calibrated to 1 run a sample and the other to 2: the copy 1.31x and 1.24x faster in two
 * runs of ten processes. The count is the fastest backend's (a sample of about
 * SAMPLE_TARGET_NS), for every participant whose run takes at most INNER_CAP times the fastest
 * backend's; one slower than that (who leaves the race first) keeps a count of its own, so that
 * its samples stay short.
 */
#define INNER_CAP 4

struct participant {
	struct bench_case c;
	struct bench_result r;
	struct run *run;
	struct sampling s;
	uint64_t timed_allocations;
	double run_ns; /* one run, from the calibration or a warm sample; 0: not known */
	double cold_ns; /* its calibration run (the first process) */
	long warm_faults;  /* page faults in its last warm-up sample (or calibration run) */
	double warm_run_ns; /* a run of its last warm-up sample (any process) */
	bool inner_changed; /* its last warm-up sample set another inner count */
	bool failed;
	bool absent;        /* not measured in this process (it left the race before it) */
	bool left;          /* left the race in this process: no more samples */
};

static void participant_failed(const struct pass_events *ev, uint32_t g, uint32_t p,
                               struct participant *x)
{
	x->failed = true;
	ev->row(ev->ctx, g, p, &x->r);
}

static uint32_t inner_for(double run_ns, const struct group *g)
{
	double most = g->max_inner ? g->max_inner : MAX_INNER;
	double inner = run_ns > 0 ? ceil(SAMPLE_TARGET_NS / run_ns) : most;
	return inner < 1 ? 1 : inner > most ? (uint32_t)most : (uint32_t)inner;
}

/* Each participant's warm-up, from its calibration run (one cold run): none for a long run whose
 * memory is touched already (above). --inner fixes the runs for all. */
static void decide_sampling(const struct options *o, const struct group *g, struct participant *x,
                            uint64_t calls, long faults)
{
	x->s.warmup = o->warmup;
	x->s.reps = o->reps;
	if (o->inner) {
		x->s.inner = o->inner;
		return;
	}
	x->s.inner = inner_for(x->run_ns, g);
	if (x->run_ns > SETTLE_RUN_NS &&
	    (calls == 0 || (g->workload->first_run_alike && faults <= SETTLED_FAULTS)))
		x->s.warmup = 0;
}

/* Warm-up samples a participant takes in this process: its plan's, but in the first process the
 * calibration run of a run over SETTLE_RUN_NS already was one. Not where the runs per sample are fixed (--inner,
 * a scenario's frames): there every participant must make the same runs, since a workload whose
 * state each run changes (a scenario's frames) is verified at the end. */
static uint32_t warmups_here(const struct options *o, const struct participant *x, bool first)
{
	if (first && o->inner == 0 && x->run_ns > SETTLE_RUN_NS && x->s.warmup > 0)
		return x->s.warmup - 1;
	return x->s.warmup;
}

/*
 * More warm-up where the last one was not yet the steady state: a sample that still took page
 * faults (the heap growing into memory no sample had touched: with glibc keeping what is freed,
 * the next sample finds it touched), or whose run count the warm-up just changed (create opens
 * a storage per run). Sparse's create at N = 2^20, k = 2 in a fresh process: the calibration run
 * 10,859 faults, the first warm sample 2,667 (21 ms), the next none (16 ms): with one warm-up
 * the timed sample paid the heap's growth, a cost of the process's history, not of the
 * storage. Not where every participant must make the same runs (--inner, a scenario's frames).
 */
#define MAX_EXTRA_WARMUP 4 /* and none for a run over SETTLE_RUN_NS (above) */

/* One group being measured in this process: its participants and what they share. */
struct group_run {
	const struct options *o;
	const struct plan *plan;
	const struct group *gr;
	const struct bench_runner *rn;
	const struct pass_events *ev;
	const uint32_t *order; /* the participants' order in this process (setup, calibration) */
	uint32_t pass, g, np;
	bool first;            /* the first process: it calibrates and verifies */
	bool verified_early;   /* the checksums were taken after the calibration run */
	struct values values, writes;
	struct participant ps[MAX_LIST + 2]; /* the backends, a floor, the harness alone */
	double *logs;          /* np x (warm-up + timed rounds): this process's samples, log ns per
	                          run (the screen) */
	uint32_t logged;       /* rounds a row of logs holds */
	uint32_t logged_warmup; /* of which warm-up rounds */
	uint32_t rounds;       /* timed rounds in this process */
	struct group_timing time; /* where the group's time went in this process */
};

/* Whether participant p takes samples now: measured in this process, not failed, not left. */
static bool sampled(const struct group_run *m, uint32_t p)
{
	const struct participant *x = &m->ps[p];
	return !x->absent && !x->failed && !x->left;
}

/* Sample s of participant p (a warm-up one while s < o->warmup): false if it failed. */
static bool group_sample(struct group_run *m, uint32_t p, uint32_t s);

/* One round: a sample of every participant still sampled, in an order drawn for the round
 * (seed, process, group, round), so that a slow stretch of the machine falls on a whole round
 * and no participant is always after the same one. */
static void group_round(struct group_run *m, uint32_t s)
{
	uint32_t *turn = rng_permutation(m->o->seed, (uint64_t)(m->pass + 1) << 40 |
	                                                 (uint64_t)m->g << 16 | s, m->np);
	for (uint32_t j = 0; j < m->np; j++) {
		uint32_t p = turn ? turn[j] : m->order[(j + s) % m->np];
		if (sampled(m, p))
			group_sample(m, p, s);
	}
	free(turn);
}

static void warm_until_settled(struct group_run *m)
{
	const struct options *o = m->o;
	if (o->inner || m->gr->same_runs || o->warmup == 0)
		return;
	for (uint32_t j = 0; j < m->np; j++) {
		uint32_t p = m->order[j];
		struct participant *x = &m->ps[p];
		for (uint32_t extra = 0; sampled(m, p) && extra < MAX_EXTRA_WARMUP &&
		                         x->run_ns < SETTLE_RUN_NS && x->warm_run_ns < SETTLE_RUN_NS &&
		                         (x->warm_faults > SETTLED_FAULTS || x->inner_changed);
		     extra++) {
			struct sample_time t;
			m->ev->sample_begin(m->ev->ctx, m->g, p, o->warmup - 1, x->run_ns * x->s.inner);
			uint64_t start = measure_now_ns();
			if (m->rn->sample(x->run, x->s.inner, &t, true)) {
				participant_failed(m->ev, m->g, p, x);
				break;
			}
			m->time.warmup_ns += measure_now_ns() - start;
			if (o->trace_samples)
				trace_sample(o, m->gr, m->pass, p, o->warmup - 1, x->s.inner, &t);
			x->warm_faults = t.minflt;
			x->inner_changed = false;
		}
	}
}

/* Participant p's case in the group m measures now. */
static void group_case(struct group_run *m, uint32_t p)
{
	const struct options *o = m->o;
	const struct group *gr = m->gr;
	struct participant *x = &m->ps[p];
	x->c = (struct bench_case){
			.ops = plan_participant(o, gr, p),
			.workload = gr->workload,
			.profile = o->profile,
			.systems = o->systems,
			.entities = gr->n,
			.k = gr->k,
			.component_size = o->component_size,
			.seed = o->seed,
			.values = &m->values,
			.writes = &m->writes,
			.point = gr->point,
			.history = gr->history,
			.harness = plan_harness_row(gr, p),
			/* the first process checks what setup built, too (history.h) */
			.verify = m->pass == 0,
			.threads = gr->threads,
			.cpus = &m->plan->cpus,
			.slowdown = p < o->backend_count ? o->slowdown[p] : 0,
		};
	x->s = *plan_sampling(m->plan, m->g, p);
}

/* The group's values (unless its workload makes its own); false if out of memory. */
static bool group_values(struct group_run *m)
{
	const struct options *o = m->o;
	const struct group *gr = m->gr;
	return gr->own_values ||
	       (m->rn->values_make(&m->values, gr->n, o->seed, 0, o->component_size) == 0 &&
	        m->rn->values_make(&m->writes, gr->n, o->seed, 1, o->component_size) == 0);
}

/*
 * Every participant this process measures set up (untimed: storages made and filled), on the
 * group's values; with build, only the part a family shares (rn->build), which each group then
 * adopts; want[p]: whether p is measured (for a family, by any of its members). In an order
 * drawn for each process: a storage built after another lands in a heap the other shaped, and
 * in a fixed order a copy of archetype (--twin) built last was 1.05x faster at iterate, N =
 * 2^18, AAA, in every one of ten processes (0.997x in another ten, each process's own order).
 */
static void group_setup(struct group_run *m, bool build, const bool *want)
{
	bool no_values = !group_values(m);
	uint32_t *turn = rng_permutation(m->o->seed, (uint64_t)(m->pass + 1) << 40 | 0x5e7u << 20 | m->g,
	                                 m->np);
	for (uint32_t j = 0; j < m->np; j++) {
		uint32_t p = turn ? turn[j] : j;
		struct participant *x = &m->ps[p];
		group_case(m, p);
		x->absent = !want[p];
		if (x->absent)
			continue;
		if (m->pass > 0 && x->s.inner == 0 && !build) {
			x->failed = true; /* it failed in the first process, which said so */
			continue;
		}
		if (no_values) {
			bench_fail(&x->r, "out of memory for the values of N=%u", m->gr->n);
			x->failed = true;
		} else {
			x->run = m->rn->open(&x->c, &x->r);
			x->failed = !x->run || (build ? m->rn->build(x->run) : m->rn->setup(x->run));
		}
		if (x->failed && !build)
			participant_failed(m->ev, m->g, p, x);
	}
	free(turn);
}

/* The participants of group g this process measures. */
static void group_want(const struct plan *plan, uint32_t g, bool *want)
{
	for (uint32_t p = 0; p < plan->groups[g].participants; p++)
		want[p] = plan_active(plan, g, p);
}

/*
 * The runs of a sample, the same for the contenders (INNER_CAP): the fastest backend's, from
 * each one's run time so far; a participant more than INNER_CAP times slower keeps its own.
 * Where the runs are fixed (--inner, a scenario's frames) nothing changes.
 */
static void group_inner(struct group_run *m)
{
	if (m->o->inner || m->gr->same_runs)
		return;
	/* a participant's run: the least of its calibration run and its warm-up's, so that one
	 * slow sample does not make a contender keep a count of its own */
	double fastest = 0;
	for (uint32_t p = 0; p < m->np; p++) {
		const struct participant *x = &m->ps[p];
		double run = x->cold_ns > 0 && x->cold_ns < x->run_ns ? x->cold_ns : x->run_ns;
		if (sampled(m, p) && x->c.ops && run > 0 && (fastest == 0 || run < fastest))
			fastest = run;
	}
	for (uint32_t p = 0; p < m->np; p++) {
		struct participant *x = &m->ps[p];
		if (!sampled(m, p))
			continue;
		double run = x->cold_ns > 0 && x->cold_ns < x->run_ns ? x->cold_ns : x->run_ns;
		bool contender = fastest > 0 && run <= INNER_CAP * fastest;
		uint32_t inner = inner_for(contender ? fastest : x->run_ns, m->gr);
		x->inner_changed = x->inner_changed || inner != x->s.inner;
		x->s.inner = inner;
	}
}

/* Participant p leaves the race in this process (race.h): no more samples here or after. */
static void group_left(struct group_run *m, uint32_t p, enum race_state how, uint32_t rounds,
                       int behind)
{
	m->ps[p].left = true;
	if (m->ev->left)
		m->ev->left(m->ev->ctx, m->g, p, how, rounds, behind);
}

/*
 * The calibration screen (race.h): after the calibration runs of the first process, a backend
 * whose run took RACE_CALIBRATION_RATIO times another backend's and at least RACE_CALIBRATION_NS
 * leaves, its calibration run its one sample (a cold one: the CSV says so). A cold run is never
 * faster than a warm one, and no run this long can owe so much to page faults, so the backend
 * it was behind is faster.
 */
static void screen_calibration(struct group_run *m)
{
	if (!m->gr->race || !m->first || m->o->inner)
		return;
	int behind[MAX_LIST + 2];
	for (uint32_t p = 0; p < m->np; p++) {
		const struct participant *x = &m->ps[p];
		behind[p] = -1;
		if (!sampled(m, p) || !x->c.ops || x->run_ns < RACE_CALIBRATION_NS)
			continue;
		for (uint32_t q = 0; q < m->np; q++) {
			const struct participant *y = &m->ps[q];
			if (q != p && sampled(m, q) && y->c.ops && y->run_ns > 0 &&
			    x->run_ns >= RACE_CALIBRATION_RATIO * y->run_ns &&
			    (behind[p] < 0 || y->run_ns < m->ps[behind[p]].run_ns))
				behind[p] = (int)q;
		}
	}
	for (uint32_t p = 0; p < m->np; p++) {
		if (behind[p] < 0)
			continue;
		struct participant *x = &m->ps[p];
		m->ev->sample(m->ev->ctx, m->g, p, 0, x->run_ns, x->run_ns);
		x->s.reps = 1;
		group_left(m, p, RACE_CALIBRATION, 0, behind[p]);
	}
}

/*
 * The round screen (race.h), in the first process after each round from the
 * RACE_SCREEN_ROUNDS-th, its warm-up round counted (the same runs a sample as the timed ones,
 * and a 2x screen needs no more): a backend more than RACE_SCREEN_RATIO slower than another
 * backend in every round so far leaves. `done`: the rounds taken, logs[p * rounds + r] round r's
 * log sample (the warm-up round first).
 */
static void screen_rounds(struct group_run *m, uint32_t done)
{
	if (!m->gr->race || !m->first || done < RACE_SCREEN_ROUNDS || !m->logs)
		return;
	int behind[MAX_LIST + 2];
	double by[MAX_LIST + 2];
	for (uint32_t p = 0; p < m->np; p++) {
		behind[p] = -1;
		if (!sampled(m, p) || !m->ps[p].c.ops)
			continue;
		double best = 0;
		for (uint32_t q = 0; q < m->np; q++) {
			if (q == p || !sampled(m, q) || !m->ps[q].c.ops)
				continue;
			double least = INFINITY;
			uint32_t compared = 0;
			for (uint32_t r = 0; r < done; r++) {
				double d = m->logs[(size_t)p * m->logged + r] - m->logs[(size_t)q * m->logged + r];
				if (isnan(d))
					continue;
				least = fmin(least, d);
				compared++;
			}
			if (compared >= RACE_SCREEN_ROUNDS && least > log(RACE_SCREEN_RATIO) && least > best) {
				best = least;
				behind[p] = (int)q;
			}
		}
		by[p] = best;
	}
	/* Beyond RACE_SCREEN_SURE it leaves; short of it, a suspect stops here and races on in the
	 * group's second process, which confirms it or clears it (race.h) */
	for (uint32_t p = 0; p < m->np; p++)
		if (behind[p] >= 0) {
			m->ps[p].s.reps = done - m->logged_warmup;
			group_left(m, p, by[p] > log(RACE_SCREEN_SURE) ? RACE_SCREENED : RACE_SUSPECT,
			           done - m->logged_warmup, behind[p]);
		}
}

/*
 * The first process calibrates: one cold run each (none with --inner and no warm-up: the
 * valgrind scripts' exactly one timed call). It verifies too: the checksum of a workload
 * whose state changes with every run is taken right after that run, when every participant
 * has made exactly one; the others' at the end, where their state does not depend on how
 * many runs were made. Later processes take the sampling decided here and verify nothing.
 */
static void group_calibrate(struct group_run *m)
{
	const struct options *o = m->o;
	bool calibrate = m->first && (o->inner == 0 || o->warmup > 0);
	for (uint32_t j = 0; j < m->np && m->first; j++) {
		uint32_t p = m->order[j];
		struct participant *x = &m->ps[p];
		struct sample_time t = {0};
		if (!sampled(m, p))
			continue;
		if (calibrate) {
			m->ev->sample_begin(m->ev->ctx, m->g, p, UINT32_MAX, 0);
			if (m->rn->sample(x->run, 1, &t, true)) {
				participant_failed(m->ev, m->g, p, x);
				continue;
			}
			if (o->trace_samples)
				trace_sample(o, m->gr, m->pass, p, UINT32_MAX, 1, &t);
			x->run_ns = x->cold_ns = (double)sample_ns(o, m->gr, &t);
			x->warm_faults = t.minflt;
		}
		decide_sampling(o, m->gr, x, t.allocations, t.minflt);
	}
	if (calibrate && m->gr->workload->count_dependent) {
		m->verified_early = true;
		for (uint32_t p = 0; p < m->np; p++)
			if (sampled(m, p) && m->rn->finish(m->ps[p].run, true))
				participant_failed(m->ev, m->g, p, &m->ps[p]);
	}
	if (calibrate)
		screen_calibration(m);
	if (m->first) {
		group_inner(m);
		double estimate = 0;
		for (uint32_t p = 0; p < m->np; p++)
			if (sampled(m, p))
				estimate += m->ps[p].run_ns * m->ps[p].s.inner *
				            (m->ps[p].s.warmup + m->rounds);
		m->ev->estimate(m->ev->ctx, m->g, estimate);
	}
}

static bool group_sample(struct group_run *m, uint32_t p, uint32_t s)
{
	const struct options *o = m->o;
	struct participant *x = &m->ps[p];
	bool warm = s < o->warmup;
	if (warm && s < o->warmup - warmups_here(o, x, m->first))
		return true;
	struct sample_time t;
	m->ev->sample_begin(m->ev->ctx, m->g, p, s, x->run_ns * x->s.inner);
	uint64_t start = measure_now_ns();
	if (m->rn->sample(x->run, x->s.inner, &t, o->trace_samples || warm)) {
		participant_failed(m->ev, m->g, p, x);
		return false;
	}
	uint64_t spent = measure_now_ns() - start;
	x->warm_faults = warm ? t.minflt : x->warm_faults;
	x->warm_run_ns = warm ? (double)sample_ns(o, m->gr, &t) / x->s.inner : x->warm_run_ns;
	if (o->trace_samples)
		trace_sample(o, m->gr, m->pass, p, s, x->s.inner, &t);
	double ns = (double)sample_ns(o, m->gr, &t) / x->s.inner;
	uint32_t col = warm ? s - (o->warmup - m->logged_warmup) : m->logged_warmup + s - o->warmup;
	if (m->logs && col < m->logged && (!warm || s >= o->warmup - m->logged_warmup))
		m->logs[(size_t)p * m->logged + col] = ns > 0 ? log(ns) : NAN;
	if (warm) {
		m->time.warmup_ns += spent;
		/* The calibration run was a single cold run; the last warm-up sample, warm and whole,
		 * is the run time the sample's runs are decided from (group_inner). */
		if (s + 1 == o->warmup && m->first && !o->inner)
			x->run_ns = (double)sample_ns(o, m->gr, &t) / x->s.inner;
		return true;
	}
	m->time.timed_ns += t.wall_ns;
	m->time.restore_ns += spent > t.wall_ns ? spent - t.wall_ns : 0;
	uint32_t round = s - o->warmup;
	m->ev->sample(m->ev->ctx, m->g, p, round, ns, (double)t.wall_ns / x->s.inner);
	x->timed_allocations += t.allocations;
	uint32_t count;
	const double *figures = m->rn->figures(x->run, &count);
	if (figures && m->ev->figures)
		m->ev->figures(m->ev->ctx, m->g, p, round, figures, count);
	return true;
}

/* The untimed checks and the rows. */
static void group_finish(struct group_run *m)
{
	for (uint32_t p = 0; p < m->np; p++) {
		struct participant *x = &m->ps[p];
		if (x->failed || x->absent)
			continue;
		if (m->rn->finish(x->run, m->first && !m->verified_early)) {
			participant_failed(m->ev, m->g, p, x);
			continue;
		}
		if (m->first)
			m->ev->sampled_as(m->ev->ctx, m->g, p, &x->s);
		x->r.inner = x->s.inner;
		x->r.reps = x->left ? x->s.reps : m->rounds;
		uint64_t runs = (uint64_t)(x->r.reps ? x->r.reps : 1) * x->s.inner;
		/* a backend that allocates never shows 0 */
		x->r.allocations = (x->timed_allocations + runs - 1) / runs;
		m->ev->row(m->ev->ctx, m->g, p, &x->r);
	}
}

/* apart: measured in a process of its own (group_apart, family_member), which ends with the group: what
 * the group made is left to the process's end instead of freed (freeing the nodes of a hash or
 * tree storage of 2^20 entities took 2 to 3 s a group). */
static void group_measure(struct group_run *m, uint64_t setup_start, bool apart);

static void run_group(const struct options *o, const struct plan *plan, uint32_t pass, uint32_t g,
                      const uint32_t *order, const struct pass_events *ev, bool apart)
{
	struct group_run run = {.o = o, .plan = plan, .gr = &plan->groups[g], .rn = plan->runner,
	                        .ev = ev, .order = order, .pass = pass, .g = g,
	                        .np = plan->groups[g].participants, .first = pass == 0};
	bool want[MAX_LIST + 2];
	group_want(plan, g, want);
	ev->group_begin(ev->ctx, g);
	uint64_t setup_start = measure_now_ns();
	group_setup(&run, false, want);
	group_measure(&run, setup_start, apart);
}

/* A set-up group measured: calibration (the first process), the warm-up and timed rounds, the
 * checks, and what the group made freed unless it is measured apart. */
static void group_measure(struct group_run *m, uint64_t setup_start, bool apart)
{
	const struct options *o = m->o;
	const struct pass_events *ev = m->ev;
	uint32_t pass = m->pass, g = m->g;
	uint32_t rounds = m->plan->work[g].rounds ? m->plan->work[g].rounds : o->reps;
	m->rounds = rounds < o->reps ? rounds : o->reps;
	m->logged_warmup = o->warmup ? 1 : 0; /* the last warm-up round */
	m->logged = m->logged_warmup + m->rounds;
	m->logs = malloc((size_t)m->np * m->logged * sizeof *m->logs + 1);
	for (size_t i = 0; m->logs && i < (size_t)m->np * m->logged; i++)
		m->logs[i] = NAN;
	uint64_t phase_start[5] = {setup_start, measure_now_ns()}; /* setup, calibration, samples,
	                                                              finish, free */
	m->time.setup_ns = phase_start[1] - setup_start;
	group_calibrate(m);

	phase_start[2] = measure_now_ns();
	m->time.calibration_ns = phase_start[2] - phase_start[1];
	/* Warm-up rounds in every process: a first sample there pays the page faults of memory its
	 * run writes first (the floor's create at N = 2^18, AAA: 1,563 faults, 20 ms against a
	 * settled 2.2 ms), which with three timed rounds a process the median polish could not
	 * always outvote. The first process decides the runs of a sample from them. */
	for (uint32_t s = 0; s < o->warmup; s++)
		group_round(m, s);
	if (m->first)
		group_inner(m);
	warm_until_settled(m);
	uint64_t timed_start = measure_now_ns();
	for (uint32_t r = 0; r < m->rounds; r++) {
		group_round(m, o->warmup + r);
		screen_rounds(m, m->logged_warmup + r + 1);
	}
	m->time.rounds = m->rounds;
	m->time.rounds_ns = measure_now_ns() - timed_start;

	phase_start[3] = measure_now_ns();
	group_finish(m);
	phase_start[4] = measure_now_ns();
	m->time.finish_ns = phase_start[4] - phase_start[3];
	if (ev->timing)
		ev->timing(ev->ctx, g, &m->time);
	ev->group_end(ev->ctx, g);
	for (uint32_t p = 0; p < m->np && !apart; p++)
		if (!m->ps[p].absent)
			m->rn->free(m->ps[p].run);
	/* Where a group's time went, for --trace-samples: the harness's own cost, beside the
	 * samples (setup, calibration, finish and freeing are untimed but take the run's time). */
	if (o->trace_samples) {
		uint64_t end = measure_now_ns();
		fprintf(stderr, "ecsbench-trace-group %u %s setup %.3f calibration %.3f samples %.3f "
		                "finish %.3f free %.3f\n",
		        pass + 1, m->gr->label,
		        (phase_start[1] - phase_start[0]) / 1e9, (phase_start[2] - phase_start[1]) / 1e9,
		        (phase_start[3] - phase_start[2]) / 1e9, (phase_start[4] - phase_start[3]) / 1e9,
		        (end - phase_start[4]) / 1e9);
	}
	free(m->logs);
	m->logs = NULL;
	if (!apart) {
		m->rn->values_free(&m->values);
		m->rn->values_free(&m->writes);
	}
}

/*
 * Runs fn(arg) in a fork of this process and waits for it; -1 if no fork could be had (the
 * caller then runs the work here). The fork's events go up the same channel (each line is
 * flushed as written); a fork that dies takes this process with it in the same way, so that
 * the driver names the row; it is killed with this process (the driver kills a process it
 * stops).
 */
static int in_fork(void (*fn)(void *arg), void *arg)
{
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(1);
		fn(arg);
		fflush(NULL);
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			exit(1);
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		exit(WEXITSTATUS(status));
	return 0;
}

/* What a fork measures: group g (the members of a family, from family[0]), in this pass. */
struct fork_job {
	const struct options *o;
	const struct plan *plan;
	const struct pass_events *ev;
	uint32_t pass, g;
	const uint32_t *order;
	const uint32_t *family;
	uint32_t family_count;
	struct group_run *built; /* a family member's fork: the storages its family built */
	bool forked;             /* in_fork found a fork */
};

/*
 * A group measured in a process of its own: a fork of this measuring process, which has made
 * nothing since its setup, so that every group starts from the same heap, whatever the groups
 * before it allocated and freed. Measured in one process, a row's figure depended on its
 * neighbours: with glibc keeping freed memory (pass_process_setup), sparse's create at
 * N = 2^20, k = 2 found the heap grown by the groups before it and paid no page fault, where
 * alone its timed sample paid 2,667 (16 against 22 ms; docs/method.md, "A row and its
 * neighbours").
 */
static void group_apart(void *arg)
{
	const struct fork_job *j = arg;
	run_group(j->o, j->plan, j->pass, j->g, j->order, j->ev, true);
}

/*
 * Group g of a family, on a copy (this fork) of the storages the family's process built: each
 * participant g measures has its case rewritten to g's (workload, T, verify) and adopted, then
 * the group is measured as any other. A participant whose build failed fails in every member,
 * with the build's error; one that g does not measure (it left g's race) is absent.
 */
static void family_member(void *arg)
{
	const struct fork_job *j = arg;
	struct group_run *m = j->built;
	m->pass = j->pass;
	m->first = j->pass == 0;
	m->g = j->g;
	m->gr = &j->plan->groups[j->g];
	m->order = j->order;
	m->ev->group_begin(m->ev->ctx, j->g);
	uint64_t start = measure_now_ns();
	for (uint32_t p = 0; p < m->np; p++) {
		struct participant *x = &m->ps[p];
		bool built = !x->failed && !x->absent;
		group_case(m, p);
		x->absent = !plan_active(j->plan, j->g, p);
		if (x->absent)
			continue;
		if (!built) {
			participant_failed(m->ev, j->g, p, x);
		} else if (m->pass > 0 && x->s.inner == 0) {
			x->failed = true; /* it failed in the first process, which said so */
		} else if (m->rn->adopt(x->run)) {
			participant_failed(m->ev, j->g, p, x);
		}
	}
	group_measure(m, start, true);
}

/* The order of group g's participants' samples in this process (the fallback when out of
 * memory: in turn). Free it with order_free. */
static uint32_t *order_make(const struct options *o, uint32_t pass, uint32_t g, uint32_t np,
                            uint32_t *fallback)
{
	uint32_t *order = rng_permutation(o->seed, (uint64_t)(pass + 1) << 32 | g, np);
	if (order)
		return order;
	for (uint32_t p = 0; p < np; p++)
		fallback[p] = p;
	return fallback;
}

static void order_free(uint32_t *order, const uint32_t *fallback)
{
	if (order != fallback)
		free(order);
}

/*
 * A family: groups that build the same storages (plan.h: group.shares; iterate, parallel-
 * iterate at each T and get on one N, k and history). This fork of the measuring process
 * builds once the storage of every participant that one of its members measures in this
 * process; each member group is then measured in a fork of its own, on a copy of the storages
 * as they were built (copy on write: what a member changes, another never sees), in an order
 * drawn for each process. What a member adds on the storage (get's shuffled handles,
 * parallel-iterate's threads) it makes in its own fork (adopt).
 */
static void family_build(void *arg)
{
	const struct fork_job *j = arg;
	uint32_t g0 = j->family[0];
	struct group_run built = {.o = j->o, .plan = j->plan, .gr = &j->plan->groups[g0],
	                          .rn = j->plan->runner, .ev = j->ev, .pass = j->pass, .g = g0,
	                          .np = j->plan->groups[g0].participants, .first = j->pass == 0};
	bool want[MAX_LIST + 2] = {false};
	for (uint32_t i = 0; i < j->family_count; i++)
		for (uint32_t p = 0; p < built.np; p++)
			want[p] = want[p] || plan_active(j->plan, j->family[i], p);
	j->ev->group_begin(j->ev->ctx, g0); /* a build that dies is named by its first group */
	uint64_t start = measure_now_ns();
	group_setup(&built, true, want);
	if (j->o->trace_samples)
		fprintf(stderr, "ecsbench-trace-family %u %s build %.3f for %u groups\n", j->pass + 1,
		        built.gr->label, (measure_now_ns() - start) / 1e9, j->family_count);
	if (j->ev->family_built)
		j->ev->family_built(j->ev->ctx, j->family, j->family_count, measure_now_ns() - start);
	uint32_t *turns = rng_permutation(j->o->seed, (uint64_t)(j->pass + 1) << 32 | 0xfa111u << 8,
	                                  j->family_count);
	for (uint32_t i = 0; i < j->family_count; i++) {
		uint32_t g = j->family[turns ? turns[i] : i];
		uint32_t fallback[MAX_LIST + 2];
		uint32_t *order = order_make(j->o, j->pass, g, built.np, fallback);
		struct fork_job member = *j;
		member.g = g;
		member.order = order;
		member.built = &built;
		if (in_fork(family_member, &member)) /* no fork to be had: built anew */
			run_group(j->o, j->plan, j->pass, g, order, j->ev, true);
		order_free(order, fallback);
	}
	free(turns);
}

/* Whether groups a and b build the same storages (plan.h: group.shares). */
static bool pass_same_storages(const struct group *a, const struct group *b)
{
	return a->shares && a->shares == b->shares && a->n == b->n && a->k == b->k &&
	       a->history == b->history && a->participants == b->participants &&
	       a->floor == b->floor && a->harness == b->harness && a->own_values == b->own_values;
}

void pass_run(const struct options *o, const struct plan *plan, uint32_t pass,
              const struct pass_events *ev)
{
	bool *done = calloc(plan->count + 1, sizeof *done);
	uint32_t *family = malloc((plan->count + 1) * sizeof *family);
	for (uint32_t g = 0; g < plan->count; g++) {
		if (!plan->work[g].measure || (done && done[g]))
			continue;
		uint32_t np = plan->groups[g].participants, fallback[MAX_LIST + 2];
		uint32_t *order = order_make(o, pass, g, np, fallback);
		struct fork_job job = {.o = o, .plan = plan, .ev = ev, .pass = pass, .g = g,
		                       .order = order, .family = family, .family_count = 0};
		/* A child of the driver measures each group apart, a family's on one build (out of
		 * memory for the list: each apart); --processes 1 (the valgrind scripts: a fork
		 * would escape the one process valgrind runs) measures them here, in turn. */
		for (uint32_t h = g; done && family && h < plan->count && o->child_pass >= 0; h++)
			if (!done[h] && plan->work[h].measure &&
			    (h == g || pass_same_storages(&plan->groups[g], &plan->groups[h]))) {
				family[job.family_count++] = h;
				done[h] = true;
			}
		if (o->child_pass < 0)
			run_group(o, plan, pass, g, order, ev, false);
		else if (!(job.forked = (job.family_count > 1 ? in_fork(family_build, &job)
		                                              : in_fork(group_apart, &job)) == 0))
			run_group(o, plan, pass, g, order, ev, false); /* no fork to be had */
		order_free(order, fallback);
		/* a family that had no fork: its other members measured here, each built anew */
		for (uint32_t i = 1; i < job.family_count && job.family_count > 1 && !job.forked; i++) {
			uint32_t h = family[i], np_h = plan->groups[h].participants;
			uint32_t *order_h = order_make(o, pass, h, np_h, fallback);
			run_group(o, plan, pass, h, order_h, ev, false);
			order_free(order_h, fallback);
		}
	}
	free(done);
	free(family);
}
