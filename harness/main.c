/*
 * main.c: build/ecsbench. Checks every option before anything runs (cli.c), plans the row
 * groups (plan.c), has them measured in separate processes (driver.c, pass.c), and writes the
 * CSV and its raw samples (report.c) through temporary files renamed at the end, so that an
 * interrupted or failed run never leaves half a file, and a run with no good row never
 * replaces the previous results.
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
#include <unistd.h>

#include "driver.h"
#include "scenario_run.h"

extern volatile pid_t driver_child;
extern char driver_pinning[];
extern const char *driver_malloc_mode;

static char temp_csv[4200], temp_samples[4200];

static void append_text(char *buf, size_t *len, const char *text)
{
	while (*text)
		buf[(*len)++] = *text++;
}

/* Stops the child, removes the temporary files, says so; async-signal-safe. */
static void on_signal(int sig)
{
	if (driver_child > 0)
		kill(driver_child, SIGKILL);
	if (temp_csv[0])
		unlink(temp_csv);
	if (temp_samples[0])
		unlink(temp_samples);
	char msg[256];
	size_t len = 0;
	append_text(msg, &len, "\necsbench: interrupted; nothing was written, the results file "
	                       "was left as it was\n");
	ssize_t ignored = write(STDERR_FILENO, msg, len);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* results/A.csv -> results/A-samples.csv; other names get -samples.csv appended. */
static void samples_path(const char *csv, char *out, size_t len)
{
	size_t n = strlen(csv);
	if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
		snprintf(out, len, "%.*s-samples.csv", (int)(n - 4), csv);
	else
		snprintf(out, len, "%s-samples.csv", csv);
}

static FILE *open_temp(char *temp, size_t len, const char *path)
{
	snprintf(temp, len, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		int err = errno;
		temp[0] = '\0';
		usage_error("cannot write output '%s': %s", path, strerror(err));
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		unlink(temp);
		temp[0] = '\0';
		usage_error("cannot write output '%s': %s", path, strerror(errno));
	}
	return f;
}

static void remove_temps(void)
{
	if (temp_csv[0])
		unlink(temp_csv);
	if (temp_samples[0])
		unlink(temp_samples);
	temp_csv[0] = temp_samples[0] = '\0';
}

static int finish_file(FILE *f, const char *temp, const char *path)
{
	if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0 || rename(temp, path) != 0) {
		fprintf(stderr, "ecsbench: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static unsigned good_rows(const struct collection *c)
{
	unsigned n = 0;
	for (uint32_t g = 0; g < c->plan->count; g++)
		for (uint32_t p = 0; p < c->plan->groups[g].participants; p++) {
			const struct row_data *d = &c->rows[(size_t)g * c->plan->max_participants + p];
			n += !d->failed && d->done[c->processes_done ? c->processes_done - 1 : 0];
		}
	return n;
}

int main(int argc, char **argv)
{
	struct options o;
	options_parse(argc, argv, &o);
	struct plan plan;
	if (plan_make(&o, &plan)) {
		fprintf(stderr, "ecsbench: out of memory\n");
		return 1;
	}
	if (o.child_pass >= 0)
		return child_main(&o, &plan);

	/* The files are opened now, so that an output that cannot be written is found before the
	 * run, not after it. */
	char samples[4200];
	FILE *csv = stdout, *samples_file = NULL;
	if (!o.to_stdout) {
		samples_path(o.output_path, samples, sizeof samples);
		csv = open_temp(temp_csv, sizeof temp_csv, o.output_path);
		samples_file = open_temp(temp_samples, sizeof temp_samples, samples);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);

	struct collection c;
	if (collection_init(&c, &o, &plan)) {
		fprintf(stderr, "ecsbench: out of memory\n");
		remove_temps();
		return 1;
	}
	c.tty = isatty(STDERR_FILENO);
	uint64_t start = now_ns();
	if (drive(&o, &plan, &c)) {
		remove_temps();
		fprintf(stderr, "ecsbench: nothing was written; %s was left as it was\n", o.output);
		return 1;
	}
	unsigned rows = good_rows(&c);
	if (rows == 0) {
		remove_temps();
		fprintf(stderr, "ecsbench: no row ran to its end; %s was left as it was\n", o.output);
		return 1;
	}
	if (o.scenario)
		scenario_report_write(&c, csv, samples_file, driver_pinning, driver_malloc_mode);
	else
		report_write(&c, csv, samples_file, driver_pinning, driver_malloc_mode);
	if (o.to_stdout) {
		if (fflush(stdout) != 0) {
			fprintf(stderr, "ecsbench: cannot write the CSV to standard output: %s\n",
			        strerror(errno));
			return 1;
		}
	} else if (finish_file(csv, temp_csv, o.output_path) ||
	           finish_file(samples_file, temp_samples, samples)) {
		remove_temps();
		return 1;
	}
	temp_csv[0] = temp_samples[0] = '\0';
	fprintf(stderr, "ecsbench: wrote %s: %u rows from %u processes in %.1f s", o.output, rows,
	        c.processes_done, (double)(now_ns() - start) / 1e9);
	if (c.failures || c.mismatches)
		fprintf(stderr, "; %u rows failed, %u checksum mismatches", c.failures, c.mismatches);
	fputc('\n', stderr);
	bool failed = c.failures || c.mismatches;
	collection_free(&c);
	plan_free(&plan);
	return failed ? 1 : 0;
}
