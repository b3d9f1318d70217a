/*
 * driver.c: the processes of a run. Every row group is measured in P separate processes, one
 * after the other: process 1 measures every group (and calibrates their inner counts), then
 * process 2 every group again, and so on, so that the P processes of one group are spread over
 * the whole run and meet the machine in different states. Each is a fresh exec of this program
 * (a fresh heap, a fresh address-space layout from the kernel's randomisation), with two more
 * changes of layout of its own, drawn from --seed and its number: a heap offset (a block of
 * 0..64 KiB, in 16-byte steps, allocated before anything else, so every array of every storage
 * sits at another offset to pages and cache sets) and 0..4 KiB of padding in its environment
 * (which moves its stack). --layout fixed turns all three off (the kernel's randomisation too,
 * as setarch -R does), to measure what layout does. Samples inside one process agree far
 * better than separate processes do (Mytkowicz et al., "Producing Wrong Data Without Doing
 * Anything Obviously Wrong!", ASPLOS 2009); separate processes are what make the interval of a
 * row honest (stats.h).
 *
 * A child reports on a pipe (its fd 3), a line per event; the parent gathers them into the
 * collection and shows the progress. A child that dies ends the run with an error that names
 * the row it was measuring; nothing is written (main.c keeps the previous CSV).
 *
 * --processes 1 measures in this process, with no child (what the valgrind scripts run).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"
#include "measure.h"
#include "pass.h"
#include "rng.h"

#define CHILD_FD 3
#define LONG_RUN_NS (3600 * 1e9) /* a run estimated to take longer says so */

/*
 * The guess of a run's time before anything is measured, from its plan alone: per participant
 * of a group, a part that does not grow with N (its process's fork, its calibration run, its
 * samples of about SAMPLE_TARGET_NS each) and a part that grows with the entities its runs go
 * over (N, times a round-based workload's rounds): building its storage through its history,
 * and runs longer than a sample. The constants: the first process of a default `make bench
 * PROFILE=A` on our 2-core Xeon timed row group by row group while make test ran beside it (664
 * s; 57 million entity rounds over its participants), scaled to the 7 minutes the same process
 * took in a run with less beside it. A row group can differ from the guess several times over
 * either way (churn and fragmented at 2^18 took 2.4 to 3.6 times theirs, the storage iterate,
 * get and parallel-iterate share less than half); the progress line corrects it from the pace
 * of the row groups measured. Later processes take the sampling the first one decided and
 * verify nothing: about LATER_PROCESS_SHARE of its time.
 */
#define GUESS_PARTICIPANT_NS 30e6
#define GUESS_ENTITY_NS 7e3
/* A run over one entity where --inner fixes the runs per sample (cachegrind's --inner 1, a
 * test's 100000): an operation of a pass or a create, tens of nanoseconds */
#define GUESS_RUN_ENTITY_NS 20
#define LATER_PROCESS_SHARE 0.7
#define GUESS_SHOWN_NS (30 * 1e9) /* a run guessed shorter starts without a word */
#define GUESS_PAUSE_NS (15 * 60 * 1e9) /* longer, on a terminal: a pause to think again */
#define GUESS_PAUSE_S 5

/* The measuring process under way, for driver_stop (a signal handler's: hence not in a struct
 * that the handler would have to be given). */
static volatile pid_t running_child;

void driver_stop(void)
{
	if (running_child > 0)
		kill(running_child, SIGKILL);
}

/* --- progress --------------------------------------------------------------------------- */

struct progress {
	struct collection *c;
	const struct plan *plan;
	uint32_t pass, group, participant, sample;
	uint32_t groups_done; /* in this process: the family order (pass.c) is not the plan's */
	bool in_sample;
	uint64_t start_ns, pass_start_ns, sample_start_ns, last_shown_ns;
	double sample_estimate_ns;
	double pass_ns;             /* how long the last process took (the first calibrates and
	                               checks: the later ones take less) */
	double first_pass_estimate; /* sum of the groups' estimates seen in the first process */
	bool long_warned;
	double guess_total;    /* the guesses of every group of the plan (group_guess_ns) */
	double guess_done;     /* of the groups this process has finished (the first process) */
	double done_ns;        /* when it finished the last of them, since the process started */
	uint64_t group_start_ns;   /* when the group under way began */
	double group_estimate_ns;  /* its samples' time from its calibration runs (0: not yet) */
};

static double group_guess_ns(const struct options *o, const struct group *g)
{
	double rounds = g->workload && g->workload->rounds > 1 ? g->workload->rounds : 1;
	double each = GUESS_PARTICIPANT_NS + GUESS_ENTITY_NS * (double)g->n * rounds;
	/* --inner fixes the runs of every sample, whatever they cost: each of the warm-up and
	 * timed samples is that many runs over the N entities */
	if (o->inner)
		each += (double)(o->warmup + o->reps) * o->inner * GUESS_RUN_ENTITY_NS * (double)g->n * rounds;
	return g->participants * each;
}

/* What is left of a run still in its first process. The groups not begun: their guesses scaled
 * by the pace of those finished (measured time over guessed, with a tenth of the guess counted
 * as measured at its own pace, so that the first small groups, whose fixed costs the guess knows
 * least, do not swing it tenfold); the group under way: its calibration's estimate once it has
 * one (a sample of hours is not a guess's minutes), its scaled guess before; then the later
 * processes, each LATER_PROCESS_SHARE of the first as these make it. */
static double progress_left_first_ns(const struct progress *pr, uint64_t now)
{
	double prior = 0.1 * pr->guess_total;
	double scale = (pr->done_ns + prior) / (pr->guess_done + prior);
	double cur_guess = pr->group < pr->plan->count ? group_guess_ns(pr->c->o, &pr->plan->groups[pr->group]) : 0;
	double in_group = (double)(now - pr->group_start_ns);
	double cur = pr->group_estimate_ns > scale * cur_guess ? pr->group_estimate_ns : scale * cur_guess;
	double cur_left = cur > in_group ? cur - in_group : 0;
	double others_left = scale * (pr->guess_total - pr->guess_done - cur_guess);
	if (others_left < 0)
		others_left = 0;
	double first = pr->done_ns + in_group + cur_left + others_left;
	return cur_left + others_left + first * LATER_PROCESS_SHARE * (pr->c->o->processes - 1);
}

static void format_duration(char *buf, size_t len, double s)
{
	if (s < 100)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 6000)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

static void progress_show(struct progress *pr, bool force)
{
	struct collection *c = pr->c;
	uint64_t now = measure_now_ns();
	double since = (double)(now - pr->last_shown_ns) / 1e9;
	/* On a terminal one line rewritten every second; in a log a line every 10 s. */
	if (!force && since < (c->tty ? 1.0 : 10.0))
		return;
	double elapsed = (double)(now - pr->start_ns) / 1e9;
	if (!force && elapsed < 2.0)
		return;
	pr->last_shown_ns = now;
	const struct group *g = &pr->plan->groups[pr->group < pr->plan->count ? pr->group : 0];
	char row[160], left[64] = "", took[32];
	format_duration(took, sizeof took, elapsed);
	snprintf(row, sizeof row, "%s", g->label);
	if (pr->in_sample && pr->participant < g->participants) {
		/* The participant; its sample or calibration run only where it lasts a second or more
		 * (samples of SAMPLE_TARGET_NS read "0 s of ~0 s") */
		double at_s = (double)(now - pr->sample_start_ns) / 1e9;
		bool calibrating = pr->sample == UINT32_MAX;
		size_t len = strlen(row);
		snprintf(row + len, sizeof row - len, ", %s%s", plan_participant_name(c->o, g, pr->participant),
		         calibrating ? " calibration run" : "");
		if (at_s >= 1 || pr->sample_estimate_ns >= 1e9) {
			char at[32], of[32] = "";
			format_duration(at, sizeof at, at_s);
			if (pr->sample_estimate_ns >= 1e9)
				format_duration(of, sizeof of, pr->sample_estimate_ns / 1e9);
			len = strlen(row);
			snprintf(row + len, sizeof row - len, "%s (%s%s%s)", calibrating ? "" : " sample", at,
			         of[0] ? " of ~" : "", of);
		}
	}
	double pass_elapsed = (double)(now - pr->pass_start_ns);
	double rest = -1;
	if (pr->pass_ns > 0)
		rest = (c->o->processes - pr->pass - 1) * pr->pass_ns +
		       (pr->pass_ns > pass_elapsed ? pr->pass_ns - pass_elapsed : 0);
	else if (pr->guess_total > 0 && !c->o->fork_processes)
		rest = progress_left_first_ns(pr, now);
	if (rest >= 0) {
		char r[32];
		format_duration(r, sizeof r, rest / 1e9);
		snprintf(left, sizeof left, ", about %s left", r);
	}
	fprintf(stderr, "%secsbench: [process %u/%u, row group %u/%u] %s; %s so far%s%s",
	        c->tty ? "\r" : "", pr->pass + 1, c->o->processes,
	        pr->groups_done < pr->plan->count ? pr->groups_done + 1 : pr->plan->count, pr->plan->count, row,
	        took, left, c->tty ? "\033[K" : "\n");
	c->progress_shown = true;
}

/* A run whose estimate reaches an hour says so as soon as the estimate is known. */
static void progress_estimate(struct progress *pr, double estimate_ns)
{
	if (pr->long_warned || estimate_ns < LONG_RUN_NS)
		return;
	pr->long_warned = true;
	char d[32];
	format_duration(d, sizeof d, estimate_ns / 1e9);
	collection_message(pr->c,
	                   "this run will take at least %s (estimated from the calibration runs); "
	                   "Ctrl-C stops it and leaves the previous results as they were",
	                   d);
}

/* --- events into the collection (the parent's side, and --processes 1) ------------------ */

static void on_group_begin(void *ctx, uint32_t g)
{
	struct progress *pr = ctx;
	pr->group = g;
	pr->in_sample = false;
	pr->group_start_ns = measure_now_ns();
	pr->group_estimate_ns = 0;
	progress_show(pr, false);
}

static void on_sampled_as(void *ctx, uint32_t g, uint32_t p, const struct sampling *s)
{
	struct progress *pr = ctx;
	if (g < pr->plan->count && p < pr->plan->groups[g].participants && pr->pass == 0)
		pr->c->sampling[(size_t)g * pr->plan->max_participants + p] = *s;
}

static void on_estimate(void *ctx, uint32_t g, double estimate_ns)
{
	struct progress *pr = ctx;
	if (pr->pass == 0 && estimate_ns > 0) {
		if (g == pr->group)
			pr->group_estimate_ns = estimate_ns;
		pr->first_pass_estimate += estimate_ns;
		progress_estimate(pr, pr->first_pass_estimate * pr->c->o->processes);
	}
}

static void on_sample_begin(void *ctx, uint32_t g, uint32_t p, uint32_t s, double estimate_ns)
{
	struct progress *pr = ctx;
	pr->group = g;
	pr->participant = p;
	pr->sample = s;
	pr->in_sample = true;
	pr->sample_start_ns = measure_now_ns();
	pr->sample_estimate_ns = estimate_ns;
	/* After the first process, a sample is about as long as that row's samples so far. */
	if (estimate_ns <= 0 && g < pr->plan->count && p < pr->plan->groups[g].participants &&
	    pr->pass > 0) {
		const struct row_data *d = collection_row(pr->c, g, p);
		double sum = 0;
		uint32_t n = 0;
		for (uint32_t i = 0; i < pr->pass * pr->c->o->reps; i++)
			if (!isnan(d->samples[i])) {
				sum += d->samples[i];
				n++;
			}
		if (n)
			pr->sample_estimate_ns =
			    sum / n * pr->c->sampling[(size_t)g * pr->plan->max_participants + p].inner;
	}
	progress_show(pr, false);
}

static void on_sample(void *ctx, uint32_t g, uint32_t p, uint32_t round, double ns, double wall)
{
	struct progress *pr = ctx;
	pr->in_sample = false;
	collection_sample(pr->c, pr->pass, g, p, round, ns, wall);
}

static void on_row(void *ctx, uint32_t g, uint32_t p, const struct bench_result *r)
{
	struct progress *pr = ctx;
	pr->in_sample = false;
	collection_add_row(pr->c, pr->pass, g, p, r);
}

static void on_group_end(void *ctx, uint32_t g)
{
	struct progress *pr = ctx;
	pr->in_sample = false;
	pr->groups_done++;
	if (pr->pass == 0 && g < pr->plan->count) {
		pr->guess_done += group_guess_ns(pr->c->o, &pr->plan->groups[g]);
		pr->done_ns = (double)(measure_now_ns() - pr->pass_start_ns);
	}
	collection_group_end(pr->c, pr->pass, g);
}

static void on_figures(void *ctx, uint32_t g, uint32_t p, uint32_t round, const double *v,
                       uint32_t count)
{
	struct progress *pr = ctx;
	collection_figures(pr->c, pr->pass, g, p, round, v, count);
}

static const struct pass_events collect_events = {
	.group_begin = on_group_begin,
	.sampled_as = on_sampled_as,
	.estimate = on_estimate,
	.sample_begin = on_sample_begin,
	.sample = on_sample,
	.row = on_row,
	.group_end = on_group_end,
	.figures = on_figures,
};

/* --- the child's side: events as lines on fd 3 ----------------------------------------- */

static void child_line(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void child_line(void *ctx, const char *fmt, ...)
{
	FILE *f = ctx;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

static void child_group_begin(void *ctx, uint32_t g) { child_line(ctx, "G %u", g); }
static void child_pass_begin(void *ctx, uint32_t pass) { child_line(ctx, "Q %u", pass); }
static void child_sampled_as(void *ctx, uint32_t g, uint32_t p, const struct sampling *s)
{
	child_line(ctx, "C %u %u %u %u %u", g, p, s->inner, s->warmup, s->reps);
}
static void child_estimate(void *ctx, uint32_t g, double estimate)
{
	child_line(ctx, "T %u %.17g", g, estimate);
}
static void child_sample_begin(void *ctx, uint32_t g, uint32_t p, uint32_t s, double estimate)
{
	child_line(ctx, "B %u %u %u %.17g", g, p, s, estimate);
}
static void child_sample(void *ctx, uint32_t g, uint32_t p, uint32_t round, double ns,
                         double wall)
{
	child_line(ctx, "S %u %u %u %.17g %.17g", g, p, round, ns, wall);
}
static void child_row(void *ctx, uint32_t g, uint32_t p, const struct bench_result *r)
{
	if (r->error[0]) {
		char msg[sizeof r->error];
		snprintf(msg, sizeof msg, "%s", r->error);
		for (char *q = msg; *q; q++)
			if (*q == '\n')
				*q = ' ';
		child_line(ctx, "F %u %u %s", g, p, msg);
		return;
	}
	child_line(ctx, "R %u %u %u %u %d %" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.17g", g,
	           p, r->inner, r->reps, r->verified, r->checksum, r->peak_bytes, r->live_bytes,
	           r->allocations, r->reuse);
}
static void child_group_end(void *ctx, uint32_t g) { child_line(ctx, "E %u", g); }
/* "P g p round count v1 .. vcount": a scenario frame's phase times and allocations. */
static void child_figures(void *ctx, uint32_t g, uint32_t p, uint32_t round, const double *v,
                          uint32_t count)
{
	FILE *f = ctx;
	fprintf(f, "P %u %u %u %u", g, p, round, count);
	for (uint32_t i = 0; i < count; i++)
		fprintf(f, " %.17g", v[i]);
	fputc('\n', f);
	fflush(f);
}

/* The sampling the parent gave: "inner.warmup.reps" per participant of every group (up to the
 * plan's max_participants each), comma separated. */
static int parse_sampling(const char *text, struct plan *plan)
{
	const char *p = text;
	size_t cells = (size_t)plan->count * plan->max_participants;
	for (size_t i = 0; i < cells; i++) {
		struct sampling *s = &plan->sampling[i];
		unsigned inner, warmup, reps;
		int used = 0;
		if (sscanf(p, "%u.%u.%u%n", &inner, &warmup, &reps, &used) != 3 || inner > MAX_INNER)
			return -1;
		*s = (struct sampling){inner, warmup, reps};
		p += used;
		if (*p == ',')
			p++;
	}
	return *p ? -1 : 0;
}

/* A measuring process's pass, with what the machine was doing (machine.h): the fingerprint
 * first, on the CPU the process was pinned to, then the watch over the pass. */
static void watched_pass(const struct options *o, const struct plan *plan, uint32_t pass,
                         const struct pass_events *ev, struct machine_process *m)
{
	memset(m, 0, sizeof *m);
	m->process = pass + 1;
	m->cpu = plan->cpus.pinned && plan->cpus.count ? (int)plan->cpus.cpu[0] : -1;
	machine_fingerprint(m);
	struct machine_watch *w = machine_watch_start(m->cpu);
	if (o->fork_processes && o->child_pass >= 0)
		pass_run_all(o, plan, ev);
	else
		pass_run(o, plan, pass, ev);
	machine_watch_end(w, m);
}

int driver_child_main(const struct options *o, struct plan *plan)
{
	FILE *f = fdopen(CHILD_FD, "w");
	if (!f) {
		fprintf(stderr, "ecsbench: child process: no channel to its parent\n");
		return 2;
	}
	if (o->child_inner && parse_sampling(o->child_inner, plan)) {
		fprintf(stderr, "ecsbench: child process: bad sampling list\n");
		return 2;
	}
	char pinning[512];
	const char *malloc_mode;
	pass_process_setup(o, plan, pinning, sizeof pinning, &malloc_mode);
	child_line(f, "X %s", pinning);
	child_line(f, "M %s", malloc_mode);
	struct pass_events ev = {
		.ctx = f,
		.group_begin = child_group_begin,
		.pass_begin = child_pass_begin,
		.sampled_as = child_sampled_as,
		.estimate = child_estimate,
		.sample_begin = child_sample_begin,
		.sample = child_sample,
		.row = child_row,
		.group_end = child_group_end,
		.figures = child_figures,
	};
	struct machine_process m;
	char text[600];
	watched_pass(o, plan, (uint32_t)o->child_pass, &ev, &m);
	machine_process_format(text, sizeof text, &m);
	child_line(f, "K %s", text);
	child_line(f, "D");
	return fclose(f) == 0 ? 0 : 1;
}

/* --- the parent's side ------------------------------------------------------------------ */

/* A line the parent does not understand: the run cannot trust the process. */
static int parent_bad_line(struct progress *pr, const char *line)
{
	collection_message(pr->c, "process %u sent a line it should not have: '%.60s'", pr->pass + 1,
	                   line);
	return -1;
}

/* "R g p inner reps verified checksum peak live allocations reuse": a row. */
static int parent_row(struct progress *pr, const char *line)
{
	unsigned g, p, inner, reps, verified;
	uint64_t checksum, peak, live, allocations;
	double x;
	struct bench_result r;
	memset(&r, 0, sizeof r);
	if (sscanf(line, "R %u %u %u %u %u %" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %lg", &g,
	           &p, &inner, &reps, &verified, &checksum, &peak, &live, &allocations, &x) != 10)
		return parent_bad_line(pr, line);
	r.inner = inner;
	r.reps = reps;
	r.verified = verified;
	r.checksum = checksum;
	r.peak_bytes = peak;
	r.live_bytes = live;
	r.allocations = allocations;
	r.reuse = x;
	on_row(pr, g, p, &r);
	return 0;
}

/* "P g p round count v1 .. vcount": a sample's figures. */
static int parent_figures(struct progress *pr, const char *line)
{
	double v[128];
	unsigned g, p, s, count;
	int n = 0;
	if (sscanf(line, "P %u %u %u %u%n", &g, &p, &s, &count, &n) != 4 || !n ||
	    count > sizeof v / sizeof v[0])
		return parent_bad_line(pr, line);
	const char *at = line + n;
	char *end;
	unsigned got = 0;
	for (; got < count; got++, at = end) {
		v[got] = strtod(at, &end);
		if (end == at)
			break;
	}
	if (got != count || *at)
		return parent_bad_line(pr, line);
	on_figures(pr, g, p, s, v, count);
	return 0;
}

/* One line of a child: the event it names goes into the collection. */
static int parent_line(struct progress *pr, char *line, bool *done)
{
	unsigned g, p, s;
	double x;
	int n = 0;
	switch (line[0]) {
	case 'X':
		if (pr->pass == 0)
			snprintf(pr->c->pinning, sizeof pr->c->pinning, "%s", line + 2);
		return 0;
	case 'M':
		if (pr->pass == 0)
			snprintf(pr->c->malloc_mode, sizeof pr->c->malloc_mode, "%s", line + 2);
		return 0;
	case 'G':
		if (sscanf(line, "G %u", &g) != 1)
			break;
		on_group_begin(pr, g);
		return 0;
	case 'Q': /* --fork-processes: one child measures every process, in turn */
		if (sscanf(line, "Q %u", &g) != 1 || g >= pr->c->o->processes || !pr->c->o->fork_processes)
			break;
		pr->pass = g;
		return 0;
	case 'C': {
		struct sampling sm;
		if (sscanf(line, "C %u %u %u %u %u", &g, &p, &sm.inner, &sm.warmup, &sm.reps) != 5)
			break;
		on_sampled_as(pr, g, p, &sm);
		return 0;
	}
	case 'T':
		if (sscanf(line, "T %u %lg", &g, &x) != 2)
			break;
		on_estimate(pr, g, x);
		return 0;
	case 'B':
		if (sscanf(line, "B %u %u %u %lg", &g, &p, &s, &x) != 4)
			break;
		on_sample_begin(pr, g, p, s, x);
		return 0;
	case 'S': {
		double wall;
		if (sscanf(line, "S %u %u %u %lg %lg", &g, &p, &s, &x, &wall) != 5)
			break;
		on_sample(pr, g, p, s, x, wall);
		return 0;
	}
	case 'R':
		return parent_row(pr, line);
	case 'F': {
		struct bench_result r;
		memset(&r, 0, sizeof r);
		if (sscanf(line, "F %u %u %n", &g, &p, &n) != 2 || !n)
			break;
		snprintf(r.error, sizeof r.error, "%s", line + n);
		on_row(pr, g, p, &r);
		return 0;
	}
	case 'E':
		if (sscanf(line, "E %u", &g) != 1)
			break;
		on_group_end(pr, g);
		return 0;
	case 'K': {
		struct machine_process m;
		if (machine_process_parse(line + 1, &m))
			break;
		m.process = pr->pass + 1;
		pr->c->machine[pr->pass] = m;
		return 0;
	}
	case 'D':
		*done = true;
		return 0;
	case 'P':
		return parent_figures(pr, line);
	}
	return parent_bad_line(pr, line);
}

/* What the child was doing when it stopped, for the error message. */
static void describe_position(const struct progress *pr, char *buf, size_t len)
{
	const struct group *g = &pr->plan->groups[pr->group < pr->plan->count ? pr->group : 0];
	const char *label = g->label;
	if (pr->in_sample && pr->participant < g->participants)
		snprintf(buf, len, "%s %s (%s)", plan_participant_name(pr->c->o, g, pr->participant), label,
		         pr->sample == UINT32_MAX ? "calibration run" : "a sample");
	else
		snprintf(buf, len, "row group %s", label);
}

/* The command line of child `pass`: this one's, and what makes it a child. */
static char **child_argv(const struct options *o, const struct plan *plan, uint32_t pass,
                         uint32_t heap_offset, char **sampling_text)
{
	size_t cells = (size_t)plan->count * plan->max_participants;
	size_t len = cells * 24 + 1;
	char *text = malloc(len), *at = text;
	char **argv = calloc((size_t)o->argc + 8, sizeof *argv);
	static char pass_text[16], offset_text[16];
	if (!text || !argv) {
		free(text);
		free(argv);
		return NULL;
	}
	text[0] = '\0';
	for (size_t i = 0; i < cells; i++) {
		const struct sampling *s = &plan->sampling[i];
		at += snprintf(at, len - (size_t)(at - text), "%s%u.%u.%u", i ? "," : "", s->inner,
		               s->warmup, s->reps);
	}
	snprintf(pass_text, sizeof pass_text, "%u", pass);
	snprintf(offset_text, sizeof offset_text, "%u", heap_offset);
	int n = 0;
	for (int i = 0; i < o->argc; i++)
		argv[n++] = o->argv[i];
	argv[n++] = "--child-pass";
	argv[n++] = pass_text;
	argv[n++] = "--child-sampling";
	argv[n++] = text;
	argv[n++] = "--child-heap-offset";
	argv[n++] = offset_text;
	argv[n] = NULL;
	*sampling_text = text;
	return argv;
}

/* Forks and execs the child, its channel on CHILD_FD and its stack moved by `padding` bytes of
 * environment; returns its pid, or -1 (errno says why). */
static pid_t start_child(const struct options *o, char **argv, const int fds[2],
                         uint32_t padding)
{
	fflush(stderr);
	pid_t parent = getpid(), pid = fork();
	if (pid != 0)
		return pid;
	/* Killed with the driver, even by SIGKILL, which no handler sees: a measuring process left
	 * running would go on for minutes, holding the CPU and whatever it inherited (make bench's
	 * lock on the output). */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	close(fds[0]);
	if (dup2(fds[1], CHILD_FD) < 0)
		_exit(127);
	if (fds[1] != CHILD_FD)
		close(fds[1]);
	char *pad = malloc(padding + 1);
	if (pad) {
		memset(pad, 'x', padding);
		pad[padding] = '\0';
		setenv("ECSBENCH_STACK_PAD", pad, 1);
	}
	if (o->layout == LAYOUT_FIXED)
		personality(ADDR_NO_RANDOMIZE);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "ecsbench: cannot run /proc/self/exe: %s\n", strerror(errno));
	_exit(127);
}

/* The child's lines, each into the collection as it arrives, until the channel closes; progress
 * every second meanwhile. *done: the child said it finished; *bad: a line made no sense. */
static void read_child(struct progress *pr, int fd, bool *done, bool *bad)
{
	char buf[65536];
	size_t have = 0;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int ready = poll(&pfd, 1, 1000);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0) {
			progress_show(pr, false);
			continue;
		}
		ssize_t got = read(fd, buf + have, sizeof buf - have - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = '\0';
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			if (!*bad && parent_line(pr, line, done))
				*bad = true;
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof buf - 1)
			have = 0; /* a line this long is nonsense: drop it */
	}
}

/* Runs child `pass` to its end. 0, or -1 after saying why. */
static int run_child(const struct options *o, struct plan *plan, struct progress *pr,
                     uint32_t pass)
{
	struct collection *c = pr->c;
	/* This process's changes of layout, from the seed and its number. */
	struct rng g;
	rng_seed(&g, o->seed, 0x1a70u + pass);
	uint32_t heap_offset = o->layout == LAYOUT_RANDOM ? 16 * rng_below(&g, 4096) : 0;
	uint32_t padding = o->layout == LAYOUT_RANDOM ? rng_below(&g, 4097) : 0;
	char *inner_text;
	char **argv = child_argv(o, plan, pass, heap_offset, &inner_text);
	int fds[2];
	if (!argv || pipe(fds) != 0) {
		collection_message(c, "cannot start process %u: %s", pass + 1, strerror(errno));
		return -1;
	}
	pid_t pid = start_child(o, argv, fds, padding);
	if (pid < 0) {
		collection_message(c, "cannot start process %u: %s", pass + 1, strerror(errno));
		return -1;
	}
	running_child = pid;
	close(fds[1]);
	free(argv);
	free(inner_text);

	pr->pass = pass;
	pr->groups_done = 0;
	pr->in_sample = false;
	pr->pass_start_ns = measure_now_ns();
	bool done = false, bad = false;
	read_child(pr, fds[0], &done, &bad);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	running_child = 0;
	char where[200];
	describe_position(pr, where, sizeof where);
	if (WIFSIGNALED(status)) {
		collection_message(c, "process %u of %u died measuring %s: killed by signal %d (%s)",
		                   pass + 1, o->processes, where, WTERMSIG(status),
		                   strsignal(WTERMSIG(status)));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !done || bad) {
		collection_message(c, "process %u of %u stopped measuring %s (exit status %d)", pass + 1,
		                   o->processes, where, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

/* Before the first process: the guess of the run's time, from its plan (a run guessed at less
 * than GUESS_SHOWN_NS says nothing); a long one on a terminal waits GUESS_PAUSE_S, so that
 * Ctrl-C stops it before the machine is busy. */
static void driver_guess(const struct options *o, const struct plan *plan, struct progress *pr)
{
	uint32_t most_n = 0, most_participants = 0;
	for (uint32_t g = 0; g < plan->count; g++) {
		pr->guess_total += group_guess_ns(o, &plan->groups[g]);
		most_n = plan->groups[g].n > most_n ? plan->groups[g].n : most_n;
		if (plan->groups[g].participants > most_participants)
			most_participants = plan->groups[g].participants;
	}
	double guess = pr->guess_total * (1 + LATER_PROCESS_SHARE * (o->processes - 1));
	if (guess < GUESS_SHOWN_NS)
		return;
	char d[32];
	format_duration(d, sizeof d, guess / 1e9);
	bool pause = pr->c->tty && guess >= GUESS_PAUSE_NS;
	char wait[32] = "";
	if (pause)
		snprintf(wait, sizeof wait, "; starting in %d s", GUESS_PAUSE_S);
	collection_message(pr->c,
	                   "about %s: %u row group%s of up to %u participants, N up to %u, %u "
	                   "process%s (a first guess from the plan, corrected as rows are measured); "
	                   "Ctrl-C stops it and leaves the previous results as they were%s",
	                   d, plan->count, plan->count == 1 ? "" : "s", most_participants, most_n,
	                   o->processes, o->processes == 1 ? "" : "es", wait);
	if (pause)
		sleep(GUESS_PAUSE_S);
}

int driver_run(const struct options *o, struct plan *plan, struct collection *c,
               const struct driver_after *after)
{
	struct progress pr = {.c = c, .plan = plan, .start_ns = measure_now_ns()};
	driver_guess(o, plan, &pr);
	pr.start_ns = measure_now_ns();
	if (o->processes == 1) {
		const char *malloc_mode;
		pass_process_setup(o, plan, c->pinning, sizeof c->pinning, &malloc_mode);
		snprintf(c->malloc_mode, sizeof c->malloc_mode, "%s", malloc_mode);
		struct pass_events ev = collect_events;
		ev.ctx = &pr;
		pr.pass_start_ns = measure_now_ns();
		watched_pass(o, plan, 0, &ev, &c->machine[0]);
		c->processes_done = 1;
	} else {
		for (uint32_t pass = 0; pass < o->processes; pass++) {
			if (run_child(o, plan, &pr, pass))
				return -1;
			if (o->fork_processes) { /* the one child measured them all */
				for (uint32_t q = 1; q < o->processes; q++) {
					c->machine[q] = c->machine[pr.pass];
					c->machine[q].process = q + 1;
				}
				c->machine[0] = c->machine[1];
				c->machine[0].process = 1;
				c->processes_done = o->processes;
				break;
			}
			if (pass == 0) /* The later processes sample as the first one decided. */
				memcpy(plan->sampling, c->sampling,
				       (size_t)plan->count * plan->max_participants * sizeof *plan->sampling);
			pr.pass_ns = (double)(measure_now_ns() - pr.pass_start_ns);
			if (pass == 0)
				progress_estimate(&pr, pr.pass_ns * o->processes);
			c->processes_done = pass + 1;
			if (after && pass + 1 < o->processes) {
				if (c->tty && c->progress_shown)
					fputs("\r\033[K", stderr);
				c->progress_shown = false;
				after->process_done(after->ctx, c);
			}
		}
	}
	if (c->tty && c->progress_shown)
		fputs("\r\033[K", stderr);
	return 0;
}
