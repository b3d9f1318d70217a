/*
 * main.c: build/ecsbench. Reads the command line (cli.c) into the kind of run it asks for, of
 * the table below (run_kind.h: the workload sweep, a scenario run, or the advisor, which
 * drives scenario runs of its own: advise_run.h), which checks its
 * options and makes the plan; takes the output's lock (output.c), has the plan measured in
 * separate processes (driver.c, pass.c, collection.c), and has the kind write the CSV and its
 * raw samples through temporary files renamed at the end (output.c), so that an interrupted or
 * failed run never leaves half a file, a run with no good row never replaces the previous
 * results, and a run that does moves them into previous/ instead of destroying them.
 *
 * Exit status: 0 all rows ran and agree; 1 a row failed, checksums disagree or a process died
 * (rows that ran are still written, so the evidence is kept, unless a process died); 2 bad
 * command line, nothing run or written.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/driver.h"
#include "core/measure.h"
#include "core/output.h"
#include "core/run_kind.h"
#include "core/stats.h"
#include "advise/advise_run.h"
#include "scenario/scenario_run.h"
#include "sweep/sweep_run.h"

/* The kinds of run, in --help's order: the first, the sweep, unless an option given asks for
 * another (of two, the later: the advisor drives scenario runs, and refuses their options). */
static const struct run_kind *const run_kinds[] = {&sweep_run_kind, &scenario_run_kind,
                                                   &advise_run_kind};

static void append_text(char *buf, size_t *len, const char *text)
{
	while (*text)
		buf[(*len)++] = *text++;
}

/* Stops the child, removes the temporary files and the lock, says so and where the run was (the
 * row group, and the backend inside a sample); async-signal-safe. */
static void on_signal(int sig)
{
	driver_stop();
	output_on_signal();
	char msg[640];
	size_t len = 0;
	const char *at = driver_position();
	append_text(msg, &len, "\necsbench: interrupted");
	if (at) {
		append_text(msg, &len, " on ");
		append_text(msg, &len, at);
	} else {
		append_text(msg, &len, " before its first row group");
	}
	append_text(msg, &len, "; nothing was written, the results file was left as it was\n");
	ssize_t ignored = write(STDERR_FILENO, msg, len);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * What an interval of this run can say, where it says little: with one process the intervals are
 * within that process (its samples), with two Student's t has one degree of freedom (12.71 where
 * five processes have 2.78), so that an interval may span decades. Said at the end of the run,
 * as the CSV header and the figures say it.
 */
static void warn_intervals(uint32_t processes)
{
	if (processes == 1)
		fprintf(stderr, "ecsbench: 1 process: every interval is within that process (Student's t "
		                "over its samples) and says nothing of another process; --processes 5 "
		                "(make bench PROCESSES=5) measures across processes\n");
	else if (processes == 2)
		fprintf(stderr, "ecsbench: 2 processes: every interval is Student's t with 1 degree of "
		                "freedom (%.2f standard errors each side, where 5 processes have %.2f), so "
		                "intervals are wide and themselves unsure; --processes 5 or more "
		                "(make bench PROCESSES=5) for intervals to read\n",
		        stats_t975(1), stats_t975(4));
}

/* --provisional: what main hands the driver to show the answer so far. */
struct provisional {
	const struct options *o;
	const struct run_kind *kind;
	struct output *out;
};

/* Runs `cmd "$1" "$2"` through the shell with first and now as $1 and $2, and waits for it. */
static void provisional_command(const char *cmd, const char *first, const char *now)
{
	size_t len = strlen(cmd) + 16;
	char *line = malloc(len);
	if (!line)
		return;
	snprintf(line, len, "%s \"$1\" \"$2\"", cmd);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", line, "sh", first, now, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "ecsbench: --provisional '%s' failed; the run goes on\n", cmd);
	free(line);
}

/* After a process but the last: the rows of the processes done so far, as a CSV of their own
 * (the kind's writer, on a copy of the options whose processes are those done and that says
 * it is provisional), and the command run on the first one and this one. */
static void provisional_show(void *ctx, const struct collection *c)
{
	const struct provisional *pv = ctx;
	char now[OUTPUT_PATH_MAX];
	FILE *f = output_provisional(pv->out, c->processes_done == 1, now);
	if (!f)
		return;
	struct options so = *pv->o;
	so.processes = c->processes_done;
	so.provisional_of = pv->o->processes;
	struct collection sc = *c;
	sc.o = &so;
	int written = pv->kind->report_write(&sc, f, NULL, NULL);
	if (fclose(f) != 0 || written < 0) {
		fprintf(stderr, "ecsbench: could not write the provisional CSV %s; the run goes on\n", now);
		return;
	}
	provisional_command(pv->o->provisional, pv->out->temp_provisional, now);
}

int main(int argc, char **argv)
{
	struct options o;
	const struct cli_tables names = {&sweep_workload_names, &sweep_history_names,
	                                 &sweep_column_names};
	const struct run_kind *kind =
	    cli_parse(argc, argv, &names, run_kinds, sizeof run_kinds / sizeof run_kinds[0], &o);
	kind->options(&o);
	if (o.child_pass < 0)
		cli_check_output(&o);
	if (kind->drive)
		return kind->drive(&o);
	struct plan plan;
	if (kind->plan_make(&o, &plan)) {
		fprintf(stderr, "ecsbench: out of memory\n");
		return 1;
	}
	if (o.child_pass >= 0)
		return driver_child_main(&o, &plan);

	/* The lock and the files are taken now, so that a run already writing this output, or an
	 * output that cannot be written, is found before the run, not after it. */
	struct output out = {0};
	FILE *csv = stdout, *samples_file = NULL, *json_file = NULL;
	if (!o.to_stdout) {
		output_lock(&o);
		output_open(&out, &o);
		csv = out.csv;
		samples_file = out.samples_file;
		json_file = out.json_file;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);

	struct collection c;
	if (collection_init(&c, &o, &plan)) {
		fprintf(stderr, "ecsbench: out of memory\n");
		output_discard(&out);
		return 1;
	}
	c.tty = isatty(STDERR_FILENO);
	uint64_t start = measure_now_ns();
	struct provisional pv = {&o, kind, &out};
	struct driver_after after = {provisional_show, &pv};
	if (driver_run(&o, &plan, &c, o.provisional && !o.to_stdout ? &after : NULL)) {
		output_discard(&out);
		fprintf(stderr, "ecsbench: nothing was written; %s was left as it was\n", o.output);
		return 1;
	}
	unsigned rows = collection_good_rows(&c);
	if (rows == 0) {
		output_discard(&out);
		fprintf(stderr, "ecsbench: no row ran to its end; %s was left as it was\n", o.output);
		return 1;
	}
	/* The CSV's own rows, the kind's: a scenario has one per participant and phase of each
	 * point. */
	int written = kind->report_write(&c, csv, samples_file, json_file);
	if (written < 0) {
		output_discard(&out);
		fprintf(stderr, "ecsbench: nothing was written; %s was left as it was\n", o.output);
		return 1;
	}
	if (o.to_stdout) {
		if (ferror(stdout) || fflush(stdout) != 0) {
			fprintf(stderr, "ecsbench: cannot write the CSV to standard output: %s\n",
			        strerror(errno ? errno : EIO));
			return 1;
		}
	} else if (output_commit(&out)) {
		return 1;
	}
	fprintf(stderr, "ecsbench: wrote %s: %d row%s from %u process%s in %.1f s", o.output, written,
	        written == 1 ? "" : "s", c.processes_done, c.processes_done == 1 ? "" : "es",
	        (double)(measure_now_ns() - start) / 1e9);
	if (c.failures || c.mismatches)
		fprintf(stderr, "; %u rows failed, %u checksum mismatches", c.failures, c.mismatches);
	fputc('\n', stderr);
	if (out.kept[0])
		fprintf(stderr, "%s\n", out.kept);
	warn_intervals(c.processes_done);
	bool failed = c.failures || c.mismatches;
	collection_free(&c);
	plan_free(&plan);
	return failed ? 1 : 0;
}
