/*
 * driver.c: the processes of a run. Each measuring process is a fresh exec of this program (a
 * fresh heap, a fresh address-space layout from the kernel's randomisation), with two more
 * changes of layout of its own, drawn from --seed and its number: a heap offset (a block of
 * 0..64 KiB, in 16-byte steps, allocated before anything else, so every array of every storage
 * sits at another offset to pages and cache sets) and 0..4 KiB of padding in its environment
 * (which moves its stack). --layout fixed turns all three off (the kernel's randomisation too,
 * as setarch -R does), to measure what layout does. Samples inside one process agree far
 * better than separate processes do (Mytkowicz et al., "Producing Wrong Data Without Doing
 * Anything Obviously Wrong!", ASPLOS 2009); separate processes are what make an interval
 * honest (stats.h, race.h).
 *
 * The processes run one after the other, and the driver decides before each what it measures
 * (plan.work, plan.active): the first process measures every group with every participant (it
 * calibrates, verifies and screens: race.h); after each process every group it measured has a
 * look at its race (collection_look); the next process measures the groups still open, each
 * with the backends still in its race (and the floor), the answer's rows (group.headline) for
 * as long as the run's budget and --processes allow, the others up to RACE_PLOT_PROCESSES
 * processes, in that order of priority while their cost, measured in the process before, fits
 * in what is left of the budget (the others within PLOT_SHARE of it). A group that is not raced (a scenario's) is measured in every
 * process with every participant, as before.
 *
 * A child reports on a pipe (its fd 3), a line per event (driver_child.c, the child's side);
 * the parent gathers them into the collection and shows the progress. A child that dies ends the run with an error that names
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

#include "cli.h"
#include "driver.h"
#include "driver_child.h"
#include "measure.h"
#include "pass.h"
#include "rng.h"

#define LONG_RUN_NS (3600 * 1e9) /* a first process estimated to take longer says so */

/* Timed rounds of a group in the first process (at least RACE_SCREEN_ROUNDS, for its screen),
 * and at least in every later one. */
#define ROUNDS_FIRST 3u
#define ROUNDS_MIN 3u
/*
 * What a process costs beyond its groups (the exec, the machine's fingerprint, the watch):
 * about half a second on our 2-core machines (0.23 to 0.31 s of fingerprint, the rest the
 * exec and the pipe), until the run has measured its own.
 */
#define PROCESS_OVERHEAD_NS 0.6e9

/*
 * The guess of a run's time before anything is measured, from its plan alone: per participant
 * of a group, a part that does not grow with N (its process's fork, its calibration run, its
 * samples) and a part that grows with the entities its runs go over (N, times a round-based
 * workload's rounds): building its storage through its history, and runs longer than a sample.
 * A raced group's later processes measure only its contenders: LATER_SHARE of the first's
 * cost each. The progress line corrects the guess from what the processes measured.
 */
#define GUESS_PARTICIPANT_NS 12e6
#define GUESS_ENTITY_NS 3e3
/* A run over one entity where --inner fixes the runs per sample (cachegrind's --inner 1, a
 * test's 100000): an operation of a pass or a create, tens of nanoseconds */
#define GUESS_RUN_ENTITY_NS 20
#define LATER_SHARE 0.35
/* What comes after the measuring when the run's figures are derived from it (make bench: a
 * --derived NAME-plots/...): scripts/plot.sh's figures, about 1.5 s a workload (19 s for the
 * 13 workloads of make bench PROFILE=AAA, at 2 or 5 N, on a 2-core EPYC), mostly its shell. */
#define GUESS_FIGURES_WORKLOAD_NS 1.5e9
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

/* Where the run is, for a signal handler's message (driver_position): two texts, the one being
 * written never the one shown, so that a handler that interrupts the writer reads a whole one. */
static char position_text[2][320];
static volatile sig_atomic_t position_shown = -1;

const char *driver_position(void)
{
	int at = position_shown;
	return at < 0 ? NULL : position_text[at];
}

/* --- progress --------------------------------------------------------------------------- */

struct progress {
	struct collection *c;
	const struct plan *plan;
	uint32_t pass, group, participant, sample;
	uint32_t groups_done;   /* in this process */
	uint32_t groups_here;   /* the groups this process measures */
	bool in_sample;
	uint64_t start_ns, pass_start_ns, sample_start_ns, last_shown_ns;
	double sample_estimate_ns;
	/* The estimate of the run's time (run_estimate): the plan's guess of each group's first
	 * process, the first process's pace against it (its groups done: their time over their
	 * guess), and what the later processes will take (the budget's rest, or the plan's guess) */
	double guess_first_ns, guess_later_ns;
	double first_done_guess_ns, first_done_ns; /* of the first process's groups done */
	uint64_t first_end_ns;  /* when the first process ended (0: under way) */
	double calibrated_ns;   /* the first process's calibration estimates of its samples */
	bool long_warned;
	uint64_t overhead_ns;   /* every process's time beyond its groups, so far */
};

/* What the progress is on now into the text driver_position gives: the process, the row group
 * (workload, N, k, history) and, inside a sample, the backend. */
static void position_update(const struct progress *pr)
{
	if (!pr->plan || pr->group >= pr->plan->count)
		return;
	const struct group *g = &pr->plan->groups[pr->group];
	int next = position_shown == 0 ? 1 : 0;
	if (pr->in_sample && pr->participant < g->participants)
		snprintf(position_text[next], sizeof position_text[next],
		         "process %u, row group %u of %u: %s, backend %s (%s)", pr->pass + 1,
		         pr->group + 1, pr->plan->count, g->label,
		         plan_participant_name(pr->c->o, g, pr->participant),
		         pr->sample == UINT32_MAX ? "its calibration run" : "a sample");
	else
		snprintf(position_text[next], sizeof position_text[next],
		         "process %u, row group %u of %u: %s", pr->pass + 1, pr->group + 1,
		         pr->plan->count, g->label);
	position_shown = next;
}

static double group_guess_ns(const struct options *o, const struct group *g);

/* The run's whole time as now estimated, from `now` (since its start). */
static double run_estimate_ns(const struct progress *pr, uint64_t now)
{
	const struct options *o = pr->c->o;
	double elapsed = (double)(now - pr->start_ns), first;
	if (pr->first_end_ns) {
		first = (double)(pr->first_end_ns - pr->start_ns);
	} else {
		/* the groups not yet done at the pace of those done (a tenth of the guess counted as
		 * measured at its own pace, so that the first small groups do not swing it tenfold) */
		double prior = 0.1 * pr->guess_first_ns;
		double pace = (pr->first_done_ns + prior) / (pr->first_done_guess_ns + prior);
		first = pr->first_done_ns + pace * (pr->guess_first_ns - pr->first_done_guess_ns);
		/* a sample of hours, once its calibration run shows it, is not a guess's minutes */
		first = fmax(first, pr->calibrated_ns);
		if (first < elapsed)
			first = elapsed;
	}
	double total = first + pr->guess_later_ns * (first / (pr->guess_first_ns > 0 ? pr->guess_first_ns : first));
	if (o->budget_s > 0 && total > o->budget_s * 1e9)
		total = first > o->budget_s * 1e9 ? first : o->budget_s * 1e9;
	return total > elapsed ? total : elapsed;
}

static void format_duration(char *buf, size_t len, double s)
{
	double whole = round(s);
	if (s < 100)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 6000)
		snprintf(buf, len, "%.0f min %02.0f s", floor(whole / 60), fmod(whole, 60));
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

/* The answer's rows (headline groups) decided and still racing, and the first racing one. */
static void race_counts(const struct collection *c, uint32_t *decided, uint32_t *racing)
{
	*decided = *racing = 0;
	for (uint32_t g = 0; g < c->plan->count; g++) {
		const struct group *gr = &c->plan->groups[g];
		if (!gr->race || !gr->headline || gr->workload->threaded)
			continue;
		if (c->groups[g].race.decision != RACE_OPEN)
			(*decided)++;
		else
			(*racing)++;
	}
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
	char row[160], took[32], of[80] = "", answer[96] = "";
	format_duration(took, sizeof took, elapsed);
	{
		char b[32];
		double total = run_estimate_ns(pr, now);
		format_duration(b, sizeof b, total / 1e9);
		bool budget = c->o->budget_s > 0 && fabs(total - c->o->budget_s * 1e9) < 0.001 * total;
		snprintf(of, sizeof of, " of about %s%s", b, budget ? " (the budget)" : "");
	}
	uint32_t decided, racing;
	race_counts(c, &decided, &racing);
	if (decided + racing)
		snprintf(answer, sizeof answer, "; the answer's rows: %u decided, %u racing", decided,
		         racing);
	snprintf(row, sizeof row, "%s", g->label);
	if (pr->in_sample && pr->participant < g->participants) {
		/* The participant; its sample or calibration run only where it lasts a second or more */
		double at_s = (double)(now - pr->sample_start_ns) / 1e9;
		bool calibrating = pr->sample == UINT32_MAX;
		size_t len = strlen(row);
		snprintf(row + len, sizeof row - len, ", %s%s", plan_participant_name(c->o, g, pr->participant),
		         calibrating ? " calibration run" : "");
		if (at_s >= 1 || pr->sample_estimate_ns >= 1e9) {
			char at[32], sof[32] = "";
			format_duration(at, sizeof at, at_s);
			if (pr->sample_estimate_ns >= 1e9)
				format_duration(sof, sizeof sof, pr->sample_estimate_ns / 1e9);
			len = strlen(row);
			snprintf(row + len, sizeof row - len, "%s (%s%s%s)", calibrating ? "" : " sample", at,
			         sof[0] ? " of ~" : "", sof);
		}
	}
	fprintf(stderr, "%secsbench: [process %u, row group %u/%u, %s%s%s] %s%s",
	        c->tty ? "\r" : "", pr->pass + 1,
	        pr->groups_done < pr->groups_here ? pr->groups_done + 1 : pr->groups_here,
	        pr->groups_here, took, of, answer, row, c->tty ? "\033[K" : "\n");
	c->progress_shown = true;
}

/* --- events into the collection (the parent's side, and --processes 1) ------------------ */

static void on_group_begin(void *ctx, uint32_t g)
{
	struct progress *pr = ctx;
	pr->group = g;
	pr->in_sample = false;
	position_update(pr);
	progress_show(pr, false);
}

static void on_sampled_as(void *ctx, uint32_t g, uint32_t p, const struct sampling *s)
{
	struct progress *pr = ctx;
	if (g < pr->plan->count && p < pr->plan->groups[g].participants && pr->pass == 0)
		pr->c->sampling[(size_t)g * pr->plan->max_participants + p] = *s;
}

/* A run whose first process alone will take an hour or more says so as soon as its
 * calibration runs show it (their estimates of the samples to come, summed). */
static void on_estimate(void *ctx, uint32_t g, double estimate_ns)
{
	struct progress *pr = ctx;
	(void)g;
	if (pr->pass != 0 || !(estimate_ns > 0))
		return;
	pr->calibrated_ns += estimate_ns;
	if (pr->long_warned || pr->calibrated_ns < LONG_RUN_NS)
		return;
	pr->long_warned = true;
	char d[32];
	format_duration(d, sizeof d, pr->calibrated_ns / 1e9);
	collection_message(pr->c,
	                   "this run will take at least %s (estimated from the calibration runs, "
	                   "whatever the budget: a first process measures every row); Ctrl-C stops it "
	                   "and leaves the previous results as they were",
	                   d);
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
	position_update(pr);
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
		pr->first_done_guess_ns += group_guess_ns(pr->c->o, &pr->plan->groups[g]);
		pr->first_done_ns = (double)(measure_now_ns() - pr->pass_start_ns);
	}
	collection_group_end(pr->c, pr->pass, g);
}

static void on_figures(void *ctx, uint32_t g, uint32_t p, uint32_t round, const double *v,
                       uint32_t count)
{
	struct progress *pr = ctx;
	collection_figures(pr->c, pr->pass, g, p, round, v, count);
}

static void on_left(void *ctx, uint32_t g, uint32_t p, int how, uint32_t rounds, int behind)
{
	struct progress *pr = ctx;
	collection_left(pr->c, pr->pass, g, p, how, rounds, behind);
}

static void on_timing(void *ctx, uint32_t g, const struct group_timing *t)
{
	struct progress *pr = ctx;
	collection_timing(pr->c, pr->pass, g, t);
}

/* A family's build, shared out among its groups (what each one's next process will cost). */
static void on_family_built(void *ctx, const uint32_t *groups, uint32_t count, uint64_t ns)
{
	struct progress *pr = ctx;
	for (uint32_t i = 0; i < count && count; i++)
		if (groups[i] < pr->plan->count)
			pr->c->groups[groups[i]].build_ns += ns / count;
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
	.left = on_left,
	.timing = on_timing,
	.family_built = on_family_built,
};

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

/* "W g ...": a group's time in this process. */
static int parent_timing(struct progress *pr, const char *line)
{
	unsigned g, rounds;
	struct group_timing t;
	if (sscanf(line, "W %u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	                 " %" SCNu64 " %u",
	           &g, &t.setup_ns, &t.calibration_ns, &t.warmup_ns, &t.rounds_ns, &t.timed_ns,
	           &t.restore_ns, &t.finish_ns, &rounds) != 9)
		return parent_bad_line(pr, line);
	t.rounds = rounds;
	on_timing(pr, g, &t);
	return 0;
}

/* "Y ns g1 g2 ...": a family's build. */
static int parent_family(struct progress *pr, const char *line)
{
	uint64_t ns;
	int n = 0;
	if (sscanf(line, "Y %" SCNu64 "%n", &ns, &n) != 1 || !n)
		return parent_bad_line(pr, line);
	uint32_t groups[MAX_LIST * 4], count = 0;
	const char *at = line + n;
	char *end;
	while (*at && count < sizeof groups / sizeof groups[0]) {
		unsigned long v = strtoul(at, &end, 10);
		if (end == at)
			return parent_bad_line(pr, line);
		groups[count++] = (uint32_t)v;
		at = end;
	}
	on_family_built(pr, groups, count, ns);
	return 0;
}

/* One line of a child: the event it names goes into the collection. */
static int parent_line(struct progress *pr, char *line, bool *done)
{
	unsigned g, p, s;
	double x;
	int n = 0, how, behind;
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
	case 'L':
		if (sscanf(line, "L %u %u %d %u %d", &g, &p, &how, &s, &behind) != 5)
			break;
		on_left(pr, g, p, how, s, behind);
		return 0;
	case 'W':
		return parent_timing(pr, line);
	case 'Y':
		return parent_family(pr, line);
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

/* The plan's sampling and work as the child's options read them (parse_sampling, parse_work);
 * malloc'd, NULL if out of memory. */
static char *sampling_text(const struct plan *plan)
{
	size_t cells = (size_t)plan->count * plan->max_participants;
	size_t len = cells * 24 + 1;
	char *text = malloc(len), *at = text;
	if (!text)
		return NULL;
	text[0] = '\0';
	for (size_t i = 0; i < cells; i++) {
		const struct sampling *s = &plan->sampling[i];
		at += snprintf(at, len - (size_t)(at - text), "%s%u.%u.%u", i ? "," : "", s->inner,
		               s->warmup, s->reps);
	}
	return text;
}

static char *work_text(const struct plan *plan)
{
	size_t len = (size_t)plan->count * (plan->max_participants + 16) + 1;
	char *text = malloc(len), *at = text;
	if (!text)
		return NULL;
	text[0] = '\0';
	for (uint32_t g = 0; g < plan->count; g++) {
		const struct group_work *w = &plan->work[g];
		size_t left = len - (size_t)(at - text);
		if (!w->measure) {
			at += snprintf(at, left, "%s-", g ? "," : "");
			continue;
		}
		at += snprintf(at, left, "%s%u:", g ? "," : "", w->rounds);
		for (uint32_t q = 0; q < plan->groups[g].participants; q++)
			*at++ = plan_active(plan, g, q) ? '1' : '0';
		*at = '\0';
	}
	return text;
}

/* The command line of child `pass`: this one's, and what makes it a child. */
static char **child_argv(const struct options *o, const struct plan *plan, uint32_t pass,
                         uint32_t heap_offset, char **texts)
{
	char **argv = calloc((size_t)o->argc + 12, sizeof *argv);
	static char pass_text[16], offset_text[16];
	texts[0] = sampling_text(plan);
	texts[1] = work_text(plan);
	if (!argv || !texts[0] || !texts[1]) {
		free(texts[0]);
		free(texts[1]);
		free(argv);
		return NULL;
	}
	snprintf(pass_text, sizeof pass_text, "%u", pass);
	snprintf(offset_text, sizeof offset_text, "%u", heap_offset);
	int n = 0;
	for (int i = 0; i < o->argc; i++)
		argv[n++] = o->argv[i];
	argv[n++] = "--child-pass";
	argv[n++] = pass_text;
	argv[n++] = "--child-sampling";
	argv[n++] = texts[0];
	argv[n++] = "--child-work";
	argv[n++] = texts[1];
	argv[n++] = "--child-heap-offset";
	argv[n++] = offset_text;
	argv[n] = NULL;
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
	char *texts[2] = {NULL, NULL};
	char **argv = child_argv(o, plan, pass, heap_offset, texts);
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
	free(texts[0]);
	free(texts[1]);

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

/* --- the schedule --------------------------------------------------------------------------- */

/* The processes group g wants: a group that is not raced, every process of the run; a raced
 * one, RACE_PLOT_PROCESSES (the winner of a decided race too, for an interval of its own), and
 * the answer's rows while their race is open, every process. */
static uint32_t wanted_processes(const struct collection *c, uint32_t g)
{
	const struct group *gr = &c->plan->groups[g];
	if (!gr->race)
		return c->o->processes;
	uint32_t most = gr->headline && c->groups[g].race.decision == RACE_OPEN ? c->o->processes
	                                                                         : RACE_PLOT_PROCESSES;
	return most < c->o->processes ? most : c->o->processes;
}

/* Participants of g the next process would measure: those still in its race. */
static uint32_t measured_next(const struct collection *c, uint32_t g)
{
	uint32_t n = 0;
	for (uint32_t p = 0; p < c->plan->groups[g].participants; p++)
		n += !c->plan->groups[g].race || race_in(&c->groups[g].race, p);
	return n;
}

/* What group g's next process will cost, from its last one: what does not grow with its rounds
 * (building, calibration, warm-up, the checks) as it was, a round as it was for each
 * participant still measured; and its rounds there: as many as make the rounds cost about what
 * the rest does (so that neither dominates a process's time for nothing), at least ROUNDS_MIN. */
static double group_cost(const struct collection *c, uint32_t g, uint32_t *rounds)
{
	const struct group_record *rec = &c->groups[g];
	const struct group_timing *t = &rec->last;
	uint32_t most = c->o->reps;
	double fixed = (double)t->setup_ns + (double)t->warmup_ns + (double)t->finish_ns +
	               (rec->processes ? (double)rec->build_ns / rec->processes : 0);
	double per_round = t->rounds ? (double)t->rounds_ns / t->rounds : 0;
	uint32_t then = rec->last_measured ? rec->last_measured : 1;
	per_round *= (double)measured_next(c, g) / then;
	uint32_t r = most;
	if (c->plan->groups[g].race && per_round > 0 && !cli_given(c->o, &cli_opt_reps)) {
		double want = fixed / per_round;
		r = want < ROUNDS_MIN ? ROUNDS_MIN : want > most ? most : (uint32_t)want;
	}
	if (r > most)
		r = most;
	*rounds = r;
	return fixed + r * per_round;
}

/*
 * The work of process `pass` (> 0) into plan->work and plan->active: the groups that want
 * another process, the answer's open races first, then the rest (the figures' smaller N, the
 * decided races' winners), each while its cost fits in what is left of the budget, the rest
 * within PLOT_SHARE of the budget. Returns the groups it measures.
 */
#define PLOT_SHARE 0.2
static uint32_t schedule(const struct options *o, struct plan *plan, struct collection *c,
                         double left_ns, double overhead_ns, double *plot_spent_ns)
{
	uint32_t count = 0;
	double planned = overhead_ns;
	for (uint32_t g = 0; g < plan->count; g++)
		plan->work[g].measure = false;
	for (int tier = 0; tier < 3; tier++)
		for (uint32_t g = 0; g < plan->count; g++) {
			const struct group *gr = &plan->groups[g];
			struct group_record *rec = &c->groups[g];
			bool open_headline = gr->race && gr->headline && rec->race.decision == RACE_OPEN;
			int my_tier = !gr->race ? 0 : open_headline ? 1 : 2;
			if (my_tier != tier)
				continue;
			if (rec->processes >= wanted_processes(c, g) || measured_next(c, g) == 0)
				continue;
			uint32_t rounds;
			double cost = group_cost(c, g, &rounds);
			if (gr->race && o->budget_s > 0 &&
			    (planned + cost > left_ns ||
			     (tier == 2 && *plot_spent_ns + cost > PLOT_SHARE * o->budget_s * 1e9)))
				continue;
			planned += cost;
			if (tier == 2)
				*plot_spent_ns += cost;
			plan->work[g] = (struct group_work){.measure = true, .rounds = gr->race ? rounds : 0};
			for (uint32_t p = 0; p < gr->participants; p++)
				plan->active[(size_t)g * plan->max_participants + p] =
				    !gr->race || race_in(&rec->race, p);
			count++;
		}
	return count;
}

/* The first process: every group, every participant, ROUNDS_FIRST timed rounds a raced one. */
static void schedule_first(const struct options *o, struct plan *plan)
{
	for (uint32_t g = 0; g < plan->count; g++) {
		bool fewer = ROUNDS_FIRST < o->reps && !cli_given(o, &cli_opt_reps);
		uint32_t rounds = fewer ? ROUNDS_FIRST : o->reps;
		plan->work[g] = (struct group_work){.measure = true,
		                                    .rounds = plan->groups[g].race ? rounds : 0};
		for (uint32_t p = 0; p < plan->groups[g].participants; p++)
			plan->active[(size_t)g * plan->max_participants + p] = true;
	}
}

/* After a process: a look at the race of every group it measured where one is due (race.h);
 * at the end (last), of every group whose last process came after its last look. */
static void look_after(struct collection *c, const struct plan *plan, bool last)
{
	for (uint32_t g = 0; g < plan->count; g++)
		if (plan->groups[g].race && (last || plan->work[g].measure))
			collection_look(c, g, last);
}

/* --- the guess -------------------------------------------------------------------------------- */

static double group_guess_ns(const struct options *o, const struct group *g)
{
	double rounds = g->workload->rounds > 1 ? g->workload->rounds : 1;
	double each = GUESS_PARTICIPANT_NS + GUESS_ENTITY_NS * (double)g->n * rounds;
	/* --inner fixes the runs of every sample, whatever they cost: each of the warm-up and
	 * timed samples is that many runs over the N entities */
	if (o->inner)
		each += (double)(o->warmup + o->reps) * o->inner * GUESS_RUN_ENTITY_NS * (double)g->n * rounds;
	return g->participants * each;
}

/* The run from its plan: the first process (every group, whatever the budget), and the later
 * ones at LATER_SHARE of it for the groups that want them, within the budget's rest. */
static void run_guess(const struct options *o, const struct plan *plan, double *first_ns,
                      double *later_ns)
{
	*first_ns = *later_ns = 0;
	for (uint32_t g = 0; g < plan->count; g++) {
		const struct group *gr = &plan->groups[g];
		double first = group_guess_ns(o, gr);
		uint32_t more = gr->race ? (gr->headline ? o->processes : RACE_PLOT_PROCESSES) : o->processes;
		more = (more < o->processes ? more : o->processes) - 1;
		*first_ns += first + PROCESS_OVERHEAD_NS / plan->count;
		*later_ns += first * (gr->race ? LATER_SHARE : 1) * more;
	}
	if (o->budget_s > 0 && *first_ns + *later_ns > o->budget_s * 1e9)
		*later_ns = o->budget_s * 1e9 > *first_ns ? o->budget_s * 1e9 - *first_ns : 0;
}

/* The time of the figures make bench draws after the run (its --derived NAME-plots/...), or 0. */
static double figures_guess_ns(const struct options *o)
{
	for (size_t i = 0; i < o->derived_count; i++)
		if (strstr(o->derived[i], "-plots/"))
			return GUESS_FIGURES_WORKLOAD_NS * (double)o->workload_count;
	return 0;
}

/* Before the first process: the guess of the run's time, its figures included (a run guessed
 * at less than GUESS_SHOWN_NS says nothing); a long one on a terminal waits GUESS_PAUSE_S, so
 * that Ctrl-C stops it before the machine is busy. */

static void driver_guess(const struct options *o, const struct plan *plan, struct progress *pr)
{
	run_guess(o, plan, &pr->guess_first_ns, &pr->guess_later_ns);
	double measuring = pr->guess_first_ns + pr->guess_later_ns, figures = figures_guess_ns(o);
	double guess = measuring + figures;
	if (guess < GUESS_SHOWN_NS)
		return;
	uint32_t most_n = 0, most_participants = 0;
	for (uint32_t g = 0; g < plan->count; g++) {
		most_n = plan->groups[g].n > most_n ? plan->groups[g].n : most_n;
		if (plan->groups[g].participants > most_participants)
			most_participants = plan->groups[g].participants;
	}
	char d[32];
	format_duration(d, sizeof d, guess / 1e9);
	bool pause = pr->c->tty && guess >= GUESS_PAUSE_NS;
	char wait[32] = "", budget[160] = "";
	if (pause)
		snprintf(wait, sizeof wait, "; starting in %d s", GUESS_PAUSE_S);
	char m[32];
	format_duration(m, sizeof m, measuring / 1e9);
	if (o->budget_s > 0 && fabs(measuring - o->budget_s * 1e9) < 0.001 * measuring)
		snprintf(budget, sizeof budget, " (%s measuring: the budget; BUDGET=, or --budget, for a "
		         "longer, surer run%s)", m, figures > 0 ? "; then its figures" : "");
	else if (figures > 0)
		snprintf(budget, sizeof budget, " (%s measuring, then its figures)", m);
	collection_message(pr->c,
	                   "about %s%s: %u row group%s of up to %u participants, N up to %u, up to %u "
	                   "process%s a group (a first guess from the plan, corrected as rows are "
	                   "measured); Ctrl-C stops it and leaves the previous results as they were%s",
	                   d, budget, plan->count, plan->count == 1 ? "" : "s", most_participants,
	                   most_n, o->processes, o->processes == 1 ? "" : "es", wait);
	if (pause)
		sleep(GUESS_PAUSE_S);
}

/* --- the run -------------------------------------------------------------------------------- */

/* Process `pass` into the collection: a child, or this process with --processes 1. */
static int measure_process(const struct options *o, struct plan *plan, struct progress *pr,
                           uint32_t pass)
{
	pr->pass = pass;
	pr->groups_done = 0;
	pr->groups_here = 0;
	for (uint32_t g = 0; g < plan->count; g++)
		pr->groups_here += plan->work[g].measure;
	pr->in_sample = false;
	pr->pass_start_ns = measure_now_ns();
	if (o->processes > 1)
		return run_child(o, plan, pr, pass);
	const char *malloc_mode;
	pass_process_setup(o, plan, pr->c->pinning, sizeof pr->c->pinning, &malloc_mode);
	snprintf(pr->c->malloc_mode, sizeof pr->c->malloc_mode, "%s", malloc_mode);
	struct pass_events ev = collect_events;
	ev.ctx = pr;
	driver_watched_pass(o, plan, 0, &ev, &pr->c->machine[0]);
	return 0;
}

/* What process `pass` took beyond its groups (its start, the fingerprint, the pipe). */
static uint64_t process_overhead(const struct collection *c, const struct plan *plan, uint32_t pass,
                                 uint64_t took)
{
	uint64_t groups = 0;
	for (uint32_t g = 0; g < plan->count; g++) {
		const struct group_record *rec = &c->groups[g];
		if (!plan->work[g].measure || !rec->processes || rec->passes[rec->processes - 1] != pass)
			continue;
		const struct group_timing *t = &rec->last;
		groups += t->setup_ns + t->calibration_ns + t->warmup_ns + t->rounds_ns + t->finish_ns;
	}
	return took > groups ? took - groups : 0;
}

int driver_run(const struct options *o, struct plan *plan, struct collection *c,
               const struct driver_after *after)
{
	struct progress pr = {.c = c, .plan = plan, .start_ns = measure_now_ns()};
	driver_guess(o, plan, &pr);
	pr.start_ns = measure_now_ns();
	double overhead_ns = PROCESS_OVERHEAD_NS, plot_spent_ns = 0;
	for (uint32_t pass = 0; pass < o->processes; pass++) {
		if (pass == 0) {
			schedule_first(o, plan);
		} else {
			if (pass == 1) /* The later processes sample as the first one decided. */
				memcpy(plan->sampling, c->sampling,
				       (size_t)plan->count * plan->max_participants * sizeof *plan->sampling);
			double left = o->budget_s > 0 ? o->budget_s * 1e9 - (double)(measure_now_ns() - pr.start_ns)
			                              : INFINITY;
			if (!schedule(o, plan, c, left, overhead_ns, &plot_spent_ns))
				break;
		}
		uint64_t began = measure_now_ns();
		if (measure_process(o, plan, &pr, pass))
			return -1;
		uint64_t took = measure_now_ns() - began;
		if (pass == 0)
			pr.first_end_ns = measure_now_ns();
		uint64_t extra = process_overhead(c, plan, pass, took);
		pr.overhead_ns += extra;
		overhead_ns = extra > 0 ? (double)extra : overhead_ns;
		c->process_overhead_ns = pr.overhead_ns;
		c->run_ns = measure_now_ns() - pr.start_ns;
		c->processes_done = pass + 1;
		collection_process_end(c, pass);
		look_after(c, plan, false);
		if (after && pass + 1 < o->processes) {
			if (c->tty && c->progress_shown)
				fputs("\r\033[K", stderr);
			c->progress_shown = false;
			after->process_done(after->ctx, c);
		}
	}
	look_after(c, plan, true);
	if (c->tty && c->progress_shown)
		fputs("\r\033[K", stderr);
	return 0;
}
