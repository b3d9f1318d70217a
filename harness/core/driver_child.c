/*
 * driver_child.c: the child's side of a run's processes (driver.c runs them): a measuring
 * process, started with --child-pass, reads the plan's sampling and work from its options, runs
 * its pass watched (driver_watched_pass, which --processes 1 runs in the parent too), and
 * reports each event as a line on its fd 3 (CHILD_FD), which the parent reads back into the
 * collection.
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
/* "L g p how rounds behind": a participant left the race. */
static void child_left(void *ctx, uint32_t g, uint32_t p, int how, uint32_t rounds, int behind)
{
	child_line(ctx, "L %u %u %d %u %d", g, p, how, rounds, behind);
}
/* "W g setup calibration warmup rounds timed restore finish count": where its time went. */
static void child_timing(void *ctx, uint32_t g, const struct group_timing *t)
{
	child_line(ctx, "W %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
	                " %" PRIu64 " %u",
	           g, t->setup_ns, t->calibration_ns, t->warmup_ns, t->rounds_ns, t->timed_ns,
	           t->restore_ns, t->finish_ns, t->rounds);
}
/* "Y ns g1 g2 ...": a family's build. */
static void child_family_built(void *ctx, const uint32_t *groups, uint32_t count, uint64_t ns)
{
	FILE *f = ctx;
	fprintf(f, "Y %" PRIu64, ns);
	for (uint32_t i = 0; i < count; i++)
		fprintf(f, " %u", groups[i]);
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

/* The work the parent gave: per group, "-" (not measured) or "ROUNDS:" and a 0 or 1 per
 * participant (measured), comma separated. */
static int parse_work(const char *text, struct plan *plan)
{
	const char *p = text;
	for (uint32_t g = 0; g < plan->count; g++) {
		struct group_work *w = &plan->work[g];
		uint32_t np = plan->groups[g].participants;
		if (*p == '-') {
			w->measure = false;
			p++;
		} else {
			unsigned rounds;
			int used = 0;
			if (sscanf(p, "%u:%n", &rounds, &used) != 1 || !used)
				return -1;
			p += used;
			w->measure = true;
			w->rounds = rounds;
			for (uint32_t q = 0; q < np; q++, p++) {
				if (*p != '0' && *p != '1')
					return -1;
				plan->active[(size_t)g * plan->max_participants + q] = *p == '1';
			}
		}
		if (*p == ',')
			p++;
		else if (g + 1 < plan->count)
			return -1;
	}
	return *p ? -1 : 0;
}

/* A measuring process's pass, with what the machine was doing (machine.h): the fingerprint
 * first, on the CPU the process was pinned to, then the watch over the pass. */
void driver_watched_pass(const struct options *o, const struct plan *plan, uint32_t pass,
                         const struct pass_events *ev, struct machine_process *m)
{
	memset(m, 0, sizeof *m);
	m->process = pass + 1;
	m->cpu = plan->cpus.pinned && plan->cpus.count ? (int)plan->cpus.cpu[0] : -1;
	machine_fingerprint(m);
	struct machine_watch *w = machine_watch_start(m->cpu);
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
	if (o->child_work && parse_work(o->child_work, plan)) {
		fprintf(stderr, "ecsbench: child process: bad work list\n");
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
		.sampled_as = child_sampled_as,
		.estimate = child_estimate,
		.sample_begin = child_sample_begin,
		.sample = child_sample,
		.row = child_row,
		.group_end = child_group_end,
		.figures = child_figures,
		.left = child_left,
		.timing = child_timing,
		.family_built = child_family_built,
	};
	struct machine_process m;
	char text[600];
	driver_watched_pass(o, plan, (uint32_t)o->child_pass, &ev, &m);
	machine_process_format(text, sizeof text, &m);
	child_line(f, "K %s", text);
	child_line(f, "D");
	return fclose(f) == 0 ? 0 : 1;
}
