/*
 * advise_step.c: the advisor's record and its steps (what and why: advise_run.h; the loop that
 * orders them: advise_run.c). The record: notes, the load, the files rewritten after every step
 * (the steps CSV, the advice, the advised file) and the previous results kept. A step: its
 * designs and its predicted time, the child process that runs it as an ordinary scenario run
 * (stopped by SIGINT, SIGTERM or SIGHUP, which this file catches for the advisor), its samples
 * read back and its figures, and what it teaches the estimate of the next.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/cli.h"
#include "../core/measure.h"
#include "../core/output.h"
#include "../core/report.h"
#include "../scenario/scenario_engine.h"
#include "../scenario/scenario_run.h"
#include "../scenario/scenario_sanity.h"
#include "advise_report.h"
#include "advise_run.h"
#include "advise_search.h"
#include "advise_step.h"

/* The signal that stopped the search (0: none) and the step's process, for the handler: the
 * one thing a handler needs, kept here as driver.c keeps its child's pid. */
static volatile sig_atomic_t stop_signal;
static volatile pid_t step_child;

static void on_signal(int sig)
{
	stop_signal = sig;
	if (step_child > 0)
		kill(step_child, SIGTERM);
}

void advisor_signals_catch(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);
}

int advisor_stopped(void)
{
	return stop_signal;
}

/* --- the record ------------------------------------------------------------------------------ */

void advisor_note(struct advisor *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void advisor_note(struct advisor *a, const char *fmt, ...)
{
	if (a->note_count == ADVISE_MAX_NOTES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->note[a->note_count++], sizeof a->note[0], fmt, ap);
	va_end(ap);
}

static double now_s(const struct advisor *a)
{
	return (double)(measure_now_ns() - a->start_ns) / 1e9;
}

double advisor_loadavg(void)
{
	double v = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = NAN;
		fclose(f);
	}
	return v;
}

/* The design the advised file holds while the search runs: the leader, else the survey's
 * fastest. */
const struct advise_design *advisor_current_design(const struct advisor *a)
{
	if (a->have_chosen)
		return &a->chosen;
	return a->have_leader ? &a->leader : NULL;
}

/* Everything written again: the steps CSV, the advice, the advised file. */
int advisor_backend_index(const struct advisor *a, const char *name);
void advisor_publish(struct advisor *a)
{
	a->elapsed_s = now_s(a);
	advise_report_csv(a, a->csv);
	advise_search_matter(a);
	advise_report_markdown(a, a->md);
	const struct advise_design *d = advisor_current_design(a);
	if (!d)
		return;
	/* the marks the chosen backend acts on are the advisor's; those it ignores stay as the file
	 * had them, for the backends that follow them */
	struct advise_design ini;
	advise_design_of(a->base, d->backend, &ini);
	int b = advisor_backend_index(a, d->backend);
	if (b < 0 || a->follows_sparse[b])
		memcpy(ini.sparse, d->sparse, sizeof ini.sparse);
	if (b < 0 || a->follows_group[b])
		memcpy(ini.group, d->group, sizeof ini.group);
	memcpy(ini.batch_kind, d->batch_kind, sizeof ini.batch_kind);
	memcpy(ini.batch_effect, d->batch_effect, sizeof ini.batch_effect);
	char marks[1000], head[3 * 4096 + 2000], err[400];
	advise_design_marks_text(a->base, d, marks, sizeof marks);
	snprintf(head, sizeof head,
	         "; %s with the storage marks the advisor chose (make advise SCENARIO=%s) for %s: "
	         "%s; the marks %s ignores are as the file had them.\n"
	         "; A scenario file names no backend: make bench BACKENDS=%s,... measures it among "
	         "others. The advice, its steps and their intervals: %s. A mark changes no result.\n",
	         a->file, a->file, d->backend, marks, d->backend, d->backend, a->md);
	/* the search ran the file with its --set: a mark they changed is in the marks above (and
	 * "as the file had them" means as they left it); any other key they changed is not in this
	 * copy, which keeps the file's text, so the header names them for make bench's SET= */
	if (a->o->set_count > 0) {
		size_t len = strlen(head);
		len += (size_t)snprintf(head + len, sizeof head - len,
		                        "; Searched with --set:");
		for (size_t i = 0; i < a->o->set_count && len < sizeof head - 1; i++)
			len += (size_t)snprintf(head + len, sizeof head - len, " %s", a->o->sets[i]);
		if (len < sizeof head - 1)
			snprintf(head + len, sizeof head - len,
			         ". The marks above are the file's with them applied; any other key they set "
			         "is not in this copy: give it to make bench as SET=.\n");
	}
	if (advise_design_write_ini(a->file, a->base, &ini, head, a->ini, err, sizeof err))
		fprintf(stderr, "advise: %s\n", err);
}

/* Moves a previous advice (its CSV, advice, advised file, steps, and --derived files) into
 * previous/DATE-NAME/ beside the CSV, as every run keeps its previous results (output.h). */
void advisor_keep_previous(struct advisor *a)
{
	const char *paths[4 + MAX_LIST] = {a->csv, a->md, a->ini, a->steps_dir};
	size_t count = 4;
	for (size_t i = 0; i < a->o->derived_count; i++) {
		static char derived[MAX_LIST][ADVISE_PATH];
		const char *eq = strrchr(a->o->derived[i], '=');
		snprintf(derived[i], sizeof derived[i], "%.*s", (int)(eq - a->o->derived[i]),
		         a->o->derived[i]);
		paths[count++] = derived[i];
	}
	struct stat st;
	time_t when = 0;
	bool any = false;
	for (size_t i = 0; i < count; i++)
		if (lstat(paths[i], &st) == 0) {
			any = true;
			if (st.st_mtime > when)
				when = st.st_mtime;
		}
	if (!any)
		return;
	char dir[ADVISE_PATH], folder[2 * ADVISE_PATH], stamp[32];
	const char *slash = strrchr(a->csv, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - a->csv) : 1, slash ? a->csv : ".");
	struct tm tm;
	gmtime_r(&when, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ", &tm);
	snprintf(folder, sizeof folder, "%s/previous", dir);
	mkdir(folder, 0777);
	snprintf(folder, sizeof folder, "%s/previous/%s-advise-%s", dir, stamp, a->name);
	if (mkdir(folder, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "advise: cannot keep the previous advice in %s: %s; nothing was run\n",
		        folder, strerror(errno));
		exit(2);
	}
	for (size_t i = 0; i < count; i++) {
		if (lstat(paths[i], &st) != 0)
			continue;
		const char *base = strrchr(paths[i], '/');
		char to[ADVISE_PATH * 3 + 8];
		snprintf(to, sizeof to, "%s/%s", folder, base ? base + 1 : paths[i]);
		if (rename(paths[i], to) != 0) {
			fprintf(stderr, "advise: cannot move %s to %s: %s; nothing was run\n", paths[i], to,
			        strerror(errno));
			exit(2);
		}
	}
	fprintf(stderr, "advise: the previous advice went to %s\n", folder);
}

/* --- a step ----------------------------------------------------------------------------------- */

struct advise_step *advisor_step_begin(struct advisor *a, enum advise_stage stage, const char *fmt,
                                      ...) __attribute__((format(printf, 3, 4)));
struct advise_step *advisor_step_begin(struct advisor *a, enum advise_stage stage, const char *fmt,
                                      ...)
{
	if (a->step_count == ADVISE_MAX_STEPS)
		return NULL;
	struct advise_step *st = &a->steps[a->step_count];
	memset(st, 0, sizeof *st);
	st->number = a->step_count + 1;
	st->stage = stage;
	st->reference = -1;
	st->fastest = -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->what, sizeof st->what, fmt, ap);
	va_end(ap);
	static const char *const stages[] = {"survey", "sparse", "group", "contest", "batch",
	                                     "confirm"};
	snprintf(st->csv, sizeof st->csv, "%s/step-%02u-%s.csv", a->steps_dir, st->number,
	         stages[stage]);
	return st;
}

int advisor_backend_index(const struct advisor *a, const char *name)
{
	for (uint32_t b = 0; b < a->backend_count; b++)
		if (strcmp(a->backends[b]->name, name) == 0)
			return (int)b;
	return -1;
}

/* d as its backend sees it: the marks it does not follow set aside (a backend that ignores the
 * storage hint has no sparse components, one without groups no group), so that two designs
 * that run alike are one, and "no marks" means none that the backend acts on. */
void advisor_effective(const struct advisor *a, struct advise_design *d)
{
	int b = advisor_backend_index(a, d->backend);
	if (b < 0)
		return;
	if (!a->follows_sparse[b])
		memset(d->sparse, 0, sizeof d->sparse);
	if (!a->follows_group[b])
		memset(d->group, 0, sizeof d->group);
}

void advisor_step_add(const struct advisor *a, struct advise_step *st, const char *name,
                     const struct advise_design *d)
{
	if (st->entry_count == ADVISE_MAX_DESIGNS)
		return;
	struct advise_entry *e = &st->entry[st->entry_count++];
	memset(e, 0, sizeof *e);
	snprintf(e->name, sizeof e->name, "%s:%s", d->backend, name);
	e->design = *d;
	advisor_effective(a, &e->design);
}

/* The step's CPU seconds as the survey predicts them: each design's frames, warm-up included,
 * at its backend's survey median (the floor and the harness at theirs). */
static double predicted_s(const struct advisor *a, const struct advise_step *st,
                          uint32_t processes, bool floor)
{
	double frames = (double)a->base->frames + a->base->warmup, ns = 0;
	for (uint32_t i = 0; i < st->entry_count; i++) {
		int b = advisor_backend_index(a, st->entry[i].design.backend);
		ns += b >= 0 && a->survey_ns[b] > 0 ? a->survey_ns[b] : a->matter.fastest_ns;
	}
	if (floor && a->matter.known)
		ns += (isnan(a->matter.floor_ns) ? 0 : a->matter.floor_ns) +
		      (isnan(a->matter.harness_ns) ? 0 : a->matter.harness_ns);
	return processes * frames * ns / 1e9;
}

double advisor_estimate_s(const struct advisor *a, const struct advise_step *st,
                         uint32_t processes, bool floor)
{
	return a->load > 0 ? a->load * predicted_s(a, st, processes, floor) : 0;
}

static void show_progress(const struct advisor *a, const struct advise_step *st, double step_s,
                          const struct outlook *ol, bool tty, bool final)
{
	char at[32], total[64] = "", left[64] = "";
	snprintf(at, sizeof at, "%.0f s", step_s);
	if (st->estimate > 0)
		snprintf(total, sizeof total, " of ~%.0f s", st->estimate);
	double used = now_s(a);
	if (ol && ol->left_s > 0) {
		double rest = ol->left_s - (st->estimate > step_s ? step_s : st->estimate);
		if (rest < 0)
			rest = 0;
		if (rest > a->budget_s - used)
			rest = a->budget_s - used > 0 ? a->budget_s - used : 0;
		snprintf(left, sizeof left, ", about %.1f min left", rest / 60);
	}
	fprintf(stderr, "%sadvise: step %u, %s: %s: %s%s; %.1f of the %.0f min budget used%s%s",
	        tty ? "\r" : "", st->number,
	        (const char *[]){"survey", "sparse", "group", "contest", "batch",
	                         "confirm"}[st->stage],
	        st->what, at, total, used / 60, a->budget_s / 60, left,
	        tty && !final ? "\033[K" : "\n");
}

/* A step's command line: build/ecsbench --scenario with the run's --set, each design as a
 * --design, its processes and output, and the run's own measuring options. */
struct step_command {
	char *argv[64 + 2 * MAX_LIST + 2 * ADVISE_MAX_DESIGNS];
	char *specs[ADVISE_MAX_DESIGNS]; /* the --design arguments, malloc'd */
	char procs[16], frames_set[64];
};

/* cmd for the step; 0, or -1 with the status saying why (step_command_free either way). */
static int step_command_make(struct advisor *a, const struct advise_step *st, uint32_t processes,
                             bool floor, struct step_command *cmd)
{
	const struct options *o = a->o;
	char **argv = cmd->argv;
	int n = 0;
	memset(cmd->specs, 0, sizeof cmd->specs);
	argv[n++] = o->argv[0];
	argv[n++] = "--scenario";
	argv[n++] = (char *)a->file;
	for (size_t i = 0; i < o->set_count; i++) {
		argv[n++] = "--set";
		argv[n++] = (char *)o->sets[i];
	}
	snprintf(cmd->frames_set, sizeof cmd->frames_set, "scenario.frames=%u", a->base->frames);
	argv[n++] = "--set";
	argv[n++] = cmd->frames_set;
	for (uint32_t i = 0; i < st->entry_count; i++) {
		cmd->specs[i] = malloc(16384);
		const char *colon = strchr(st->entry[i].name, ':');
		if (!cmd->specs[i] || advise_design_argument(a->base, &st->entry[i].design, colon + 1,
		                                             cmd->specs[i], 16384)) {
			snprintf(a->status_text, sizeof a->status_text, "step %u: a design too long to pass",
			         st->number);
			return -1;
		}
		argv[n++] = "--design";
		argv[n++] = cmd->specs[i];
	}
	snprintf(cmd->procs, sizeof cmd->procs, "%u", processes);
	argv[n++] = "--processes";
	argv[n++] = cmd->procs;
	argv[n++] = "--output";
	argv[n++] = (char *)st->csv;
	if (!floor)
		argv[n++] = "--no-floor";
	if (o->no_pin)
		argv[n++] = "--no-pin";
	if (o->malloc_default)
		argv[n++] = "--malloc-default";
	if (o->layout == LAYOUT_FIXED) {
		argv[n++] = "--layout";
		argv[n++] = "fixed";
	}
	if (o->wall_clock) {
		argv[n++] = "--clock";
		argv[n++] = "wall";
	}
	argv[n] = NULL;
	return 0;
}

static void step_command_free(struct step_command *cmd)
{
	for (uint32_t i = 0; i < ADVISE_MAX_DESIGNS; i++)
		free(cmd->specs[i]);
}

/* Runs the command as a child (its output into log), showing the step's progress until it ends;
 * st->seconds its time. 0 when it succeeded; 1 interrupted; -1 it could not start or failed
 * (the status says why). */
static int step_child_run(struct advisor *a, struct advise_step *st, char **argv,
                          const char *log, const struct outlook *ol)
{
	bool tty = isatty(STDERR_FILENO);
	show_progress(a, st, 0, ol, tty, false);
	fflush(NULL);
	uint64_t begin = measure_now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execv("/proc/self/exe", argv);
		fprintf(stderr, "advise: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		snprintf(a->status_text, sizeof a->status_text, "step %u: cannot start it: %s",
		         st->number, strerror(errno));
		return -1;
	}
	step_child = pid;
	if (stop_signal) /* a signal before the pid was known */
		kill(pid, SIGTERM);
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (tty)
			show_progress(a, st, (double)(measure_now_ns() - begin) / 1e9, ol, true, false);
		struct timespec pause = {0, 250000000};
		nanosleep(&pause, NULL);
	}
	step_child = 0;
	st->seconds = (double)(measure_now_ns() - begin) / 1e9;
	if (tty)
		fputs("\r\033[K", stderr);
	if (stop_signal)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(a->status_text, sizeof a->status_text,
		         "step %u (%s) failed (exit status %d): its log is %s", st->number, st->what,
		         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), log);
		return -1;
	}
	return 0;
}

/* The step's figures back from its samples: each entry's frame and ratio (a search step's to
 * the best so far, at 95%); the survey's rows kept for how much it matters. 0, or -1 (the
 * status says why). */
static int step_figures(struct advisor *a, struct advise_step *st)
{
	char samples[ADVISE_PATH + 16], err[400];
	snprintf(samples, sizeof samples, "%.*s-samples.csv", (int)(strlen(st->csv) - 4), st->csv);
	struct advise_rows rows;
	if (advise_rows_read(samples, &rows, err, sizeof err)) {
		snprintf(a->status_text, sizeof a->status_text, "step %u: %s", st->number, err);
		return -1;
	}
	uint32_t which[ADVISE_MAX_DESIGNS];
	for (uint32_t i = 0; i < st->entry_count; i++) {
		int r = advise_rows_find(&rows, st->entry[i].name);
		if (r < 0) {
			snprintf(a->status_text, sizeof a->status_text, "step %u: no frames of %s in %s",
			         st->number, st->entry[i].name, samples);
			advise_rows_free(&rows);
			return -1;
		}
		which[i] = (uint32_t)r;
	}
	struct advise_centre centre[ADVISE_MAX_DESIGNS];
	struct advise_ratio vs[ADVISE_MAX_DESIGNS];
	st->fastest = advise_rows_group(&rows, which, st->entry_count, -1, centre, vs);
	for (uint32_t i = 0; i < st->entry_count; i++) {
		st->entry[i].frame = centre[i];
		st->entry[i].vs = vs[i];
	}
	if (st->reference >= 0) /* a search step: each design to the best so far, at 95% */
		for (uint32_t i = 0; i < st->entry_count; i++)
			advise_rows_ratio(&rows, advise_rows_frame(&rows, which[i]),
			                  advise_rows_frame(&rows, which[st->reference]), 0.95,
			                  &st->entry[i].vs);
	if (st->stage == ADVISE_SURVEY) {
		a->survey = rows;
		a->have_survey = true;
	} else {
		advise_rows_free(&rows);
	}
	return 0;
}

/* Runs the step's scenario run; fills its entries from its samples. 0; 1 interrupted; -1
 * failed (the status says why). */
int advisor_step_run(struct advisor *a, struct advise_step *st, uint32_t processes, bool floor,
                    const struct outlook *ol)
{
	if (stop_signal)
		return 1;
	st->processes = processes;
	st->frames = a->base->frames;
	st->estimate = advisor_estimate_s(a, st, processes, floor);
	struct step_command cmd;
	int rc = step_command_make(a, st, processes, floor, &cmd);
	if (rc == 0) {
		char log[ADVISE_PATH + 8];
		snprintf(log, sizeof log, "%.*s.log", (int)(strlen(st->csv) - 4), st->csv);
		rc = step_child_run(a, st, cmd.argv, log, ol);
	}
	if (rc == 0)
		rc = step_figures(a, st);
	step_command_free(&cmd);
	return rc;
}

/* Updates the wall-per-predicted ratio with a finished step. */
static double predicted_sum, actual_sum;
void advisor_learn_load(struct advisor *a, const struct advise_step *st, bool floor)
{
	double p = predicted_s(a, st, st->processes, floor);
	if (p > 0) {
		predicted_sum += p;
		actual_sum += st->seconds;
		a->load = actual_sum / predicted_sum;
	}
}

/* Runs a step whose designs are each held against its first (a search step: the best so far;
 * the confirmation: the chosen design), and learns the machine's load from it. 0, its ratios
 * in; 1 interrupted; -1 failed. */
int advisor_step_against_first(struct advisor *a, struct advise_step *st, uint32_t processes,
                              const struct outlook *ol)
{
	st->reference = 0;
	int rc = advisor_step_run(a, st, processes, false, ol);
	if (rc == 0)
		advisor_learn_load(a, st, false);
	return rc;
}

/* A finished step goes into the record, and everything is written again. */
void advisor_step_done(struct advisor *a, struct advise_step *st, struct outlook *ol)
{
	a->step_count++;
	if (ol && st->estimate > 0)
		ol->left_s = ol->left_s > st->estimate ? ol->left_s - st->estimate : 0;
	advisor_publish(a);
	/* straight to stderr: a line built in a buffer first could be cut */
	fprintf(stderr, "advise: step %u, %s: ", st->number, st->what);
	if (st->reference >= 0 && st->entry_count > 1) {
		const struct advise_entry *e = &st->entry[1];
		fprintf(stderr, "%s takes %.3fx [%.3f, %.3f] %s's frame: ", e->name, e->vs.ratio,
		        e->vs.low, e->vs.high, st->entry[0].name);
	}
	fprintf(stderr, "%s (%.0f s)\n", st->decision, st->seconds);
}

/* Whether a step estimated to take est seconds, with `reserve` more kept for what must follow,
 * fits in what is left of the budget. */
bool advisor_fits(const struct advisor *a, double est, double reserve)
{
	return now_s(a) + est + reserve <= a->budget_s;
}

