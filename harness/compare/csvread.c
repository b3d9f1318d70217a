/*
 * csvread.c: reads ecsbench's results CSV and its samples (see csvread.h). Fields hold no commas
 * or quotes (ecsbench writes none), so a line splits at every comma.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"

#define MAX_FIELDS 64

static int split(char *line, char **fields)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line;; p++) {
		fields[n++] = p;
		p = strchr(p, ',');
		if (!p || n == MAX_FIELDS)
			break;
		*p = '\0';
	}
	return n;
}

static int column(char **names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

static int errorf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static void header_value(const char *line, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	if (strncmp(line, "# ", 2) == 0 && strncmp(line + 2, key, k) == 0 && line[2 + k] == ' ' &&
	    !out[0]) {
		snprintf(out, len, "%s", line + 3 + k);
		out[strcspn(out, "\r\n;")] = '\0';
	}
}

/*
 * A row's workload as the tools name it, with its history (as scripts/common.sh's normalise
 * does): "iterate" under lived-in (the headline figures') and for the workloads that take none
 * ("-"), "iterate-pristine" under pristine, and so on. A file from before histories (no history
 * column: history NULL) was built in order and never changed: its swept rows are pristine.
 */
static void workload_with_history(char *out, size_t len, const char *workload, const char *history)
{
	if (!history)
		history = strncmp(workload, "varkor-", 7) == 0 ? "-" : "pristine";
	if (!*history || strcmp(history, "-") == 0 || strcmp(history, "lived-in") == 0)
		snprintf(out, len, "%s", workload);
	else
		snprintf(out, len, "%s-%s", workload, history);
}

bool csv_same_group(const struct csv_row *a, const struct csv_row *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->entities == b->entities &&
	       a->components == b->components && a->threads == b->threads;
}

struct csv_row *csv_find(const struct csv_file *f, const struct csv_row *r)
{
	for (uint32_t i = 0; i < f->count; i++)
		if (strcmp(f->rows[i].backend, r->backend) == 0 && csv_same_group(&f->rows[i], r))
			return &f->rows[i];
	return NULL;
}

static int read_samples(struct csv_file *f, char *err, size_t errlen)
{
	char path[4200];
	size_t n = strlen(f->path);
	if (n > 4 && strcmp(f->path + n - 4, ".csv") == 0)
		snprintf(path, sizeof path, "%.*s-samples.csv", (int)(n - 4), f->path);
	else
		snprintf(path, sizeof path, "%s-samples.csv", f->path);
	FILE *in = fopen(path, "r");
	if (!in)
		return errorf(err, errlen, "cannot read %s (the raw samples of %s): %s", path, f->path,
		              strerror(errno));
	for (uint32_t i = 0; i < f->count; i++) {
		struct csv_row *r = &f->rows[i];
		size_t cells = (size_t)r->processes * r->reps;
		r->samples = malloc((cells ? cells : 1) * sizeof *r->samples);
		if (!r->samples) {
			fclose(in);
			return errorf(err, errlen, "out of memory");
		}
		for (size_t j = 0; j < cells; j++)
			r->samples[j] = NAN;
	}
	char line[1024], *fields[MAX_FIELDS];
	int c[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
	bool header = false;
	while (fgets(line, sizeof line, in)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int nf = split(line, fields);
		if (!header) {
			static const char *names[10] = {"backend", "workload", "entities",   "components",
			                                "process", "round",    "ns_per_run", "profile",
			                                "threads", "history"};
			for (int i = 0; i < 10; i++)
				c[i] = column(fields, nf, names[i]);
			for (int i = 0; i < 7; i++)
				if (c[i] < 0) {
					fclose(in);
					return errorf(err, errlen, "%s has no column %s", path, names[i]);
				}
			header = true;
			continue;
		}
		struct csv_row key;
		memset(&key, 0, sizeof key);
		if (nf <= c[6])
			continue;
		snprintf(key.backend, sizeof key.backend, "%s", fields[c[0]]);
		workload_with_history(key.workload, sizeof key.workload, fields[c[1]],
		                      c[9] >= 0 && c[9] < nf ? fields[c[9]] : NULL);
		key.entities = (uint32_t)strtoul(fields[c[2]], NULL, 10);
		key.components = (uint32_t)strtoul(fields[c[3]], NULL, 10);
		key.threads = c[8] >= 0 && c[8] < nf ? (uint32_t)strtoul(fields[c[8]], NULL, 10) : 1;
		struct csv_row *r = csv_find(f, &key);
		unsigned long p = strtoul(fields[c[4]], NULL, 10), q = strtoul(fields[c[5]], NULL, 10);
		if (!r || p < 1 || p > r->processes || q < 1 || q > r->reps)
			continue;
		r->samples[(p - 1) * r->reps + (q - 1)] = strtod(fields[c[6]], NULL);
	}
	fclose(in);
	f->has_samples = true;
	return 0;
}

/* The columns csv_read looks for, by their names in the header row. */
enum { BACKEND, PROFILE, WORKLOAD, ENTITIES, COMPONENTS, MEDIAN, PROCESSES, REPS, LOW, HIGH,
       NOISY, THREADS, HISTORY, SWEEP_VALUE, NCOLS };

/* One data line's fields into r; c: each column's position, -1 where the file has none. */
static void parse_row(const struct csv_file *f, struct csv_row *r, char **fields, int nf,
                      const int *c)
{
	memset(r, 0, sizeof *r);
	snprintf(r->backend, sizeof r->backend, "%s", fields[c[BACKEND]]);
	snprintf(r->profile, sizeof r->profile, "%s", fields[c[PROFILE]]);
	if (!f->scenario)
		workload_with_history(r->workload, sizeof r->workload, fields[c[WORKLOAD]],
		                      c[HISTORY] >= 0 && c[HISTORY] < nf ? fields[c[HISTORY]] : NULL);
	else if (c[SWEEP_VALUE] >= 0 && c[SWEEP_VALUE] < nf && fields[c[SWEEP_VALUE]][0])
		snprintf(r->workload, sizeof r->workload, "%.30s at %.24s", fields[c[WORKLOAD]],
		         fields[c[SWEEP_VALUE]]);
	else
		snprintf(r->workload, sizeof r->workload, "%s", fields[c[WORKLOAD]]);
	r->entities = (uint32_t)strtoul(fields[c[ENTITIES]], NULL, 10);
	r->components = c[COMPONENTS] >= 0 ? (uint32_t)strtoul(fields[c[COMPONENTS]], NULL, 10) : 0;
	r->median = strtod(fields[c[MEDIAN]], NULL);
	r->processes = c[PROCESSES] >= 0 && c[PROCESSES] < nf
	                   ? (uint32_t)strtoul(fields[c[PROCESSES]], NULL, 10)
	                   : 1;
	r->reps = c[REPS] >= 0 && c[REPS] < nf ? (uint32_t)strtoul(fields[c[REPS]], NULL, 10) : 1;
	r->ci_low = r->ci_high = NAN;
	if (f->has_ci && c[HIGH] < nf && fields[c[LOW]][0] && fields[c[HIGH]][0]) {
		r->ci_low = strtod(fields[c[LOW]], NULL);
		r->ci_high = strtod(fields[c[HIGH]], NULL);
	}
	r->noisy = c[NOISY] >= 0 && c[NOISY] < nf && strcmp(fields[c[NOISY]], "1") == 0;
	r->threads = c[THREADS] >= 0 && c[THREADS] < nf
	                 ? (uint32_t)strtoul(fields[c[THREADS]], NULL, 10)
	                 : 1;
}

int csv_read(const char *path, bool samples, struct csv_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	FILE *in = fopen(path, "r");
	if (!in)
		return errorf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	char line[4096], *fields[MAX_FIELDS];
	static const char *names[NCOLS] = {"backend",    "profile",   "workload",  "entities",
	                                   "components", "median_ns", "processes", "reps",
	                                   "ci_low_ns",  "ci_high_ns", "noisy",    "threads",
	                                   "history",    "sweep_value"};
	/* A scenario's CSV names the same figures otherwise (scenario_run.c): the scenario for the
	 * profile, the phase for the workload, the frames for the samples per process. */
	static const char *scenario_names[NCOLS] = {
		"backend",   "scenario",  "phase",     "entities_start", "",      "median_ns", "processes",
		"frames",    "ci_low_ns", "ci_high_ns", "noisy",         "",      "",          "sweep_value"};
	int c[NCOLS];
	bool header = false;
	uint32_t cap = 0;
	while (fgets(line, sizeof line, in)) {
		if (line[0] == '#') {
			header_value(line, "ecsbench commit", f->commit, sizeof f->commit);
			header_value(line, "date", f->date, sizeof f->date);
			header_value(line, "cpu", f->cpu, sizeof f->cpu);
			continue;
		}
		if (line[0] == '\n')
			continue;
		int nf = split(line, fields);
		if (!header) {
			f->scenario = column(fields, nf, "workload") < 0 && column(fields, nf, "scenario") >= 0 &&
			              column(fields, nf, "phase") >= 0;
			for (int i = 0; i < NCOLS; i++)
				c[i] = column(fields, nf, f->scenario ? scenario_names[i] : names[i]);
			for (int i = 0; i <= MEDIAN; i++)
				if (c[i] < 0 && !(f->scenario && i == COMPONENTS)) {
					fclose(in);
					csv_free(f);
					return errorf(err, errlen, "%s has no column %s: not an ecsbench CSV", path,
					              f->scenario ? scenario_names[i] : names[i]);
				}
			f->has_ci = c[LOW] >= 0 && c[HIGH] >= 0 && c[PROCESSES] >= 0;
			header = true;
			continue;
		}
		if (nf <= c[MEDIAN])
			continue;
		if (f->count == cap) {
			cap = cap ? cap * 2 : 256;
			struct csv_row *rows = realloc(f->rows, cap * sizeof *rows);
			if (!rows) {
				fclose(in);
				csv_free(f);
				return errorf(err, errlen, "out of memory");
			}
			f->rows = rows;
		}
		parse_row(f, &f->rows[f->count++], fields, nf, c);
	}
	fclose(in);
	if (!header) {
		csv_free(f);
		return errorf(err, errlen, "%s has no header row: not an ecsbench CSV", path);
	}
	if (samples && f->scenario) {
		csv_free(f);
		return errorf(err, errlen,
		              "%s is a scenario's CSV: this reads the samples of a run of the workloads", path);
	}
	if (samples && read_samples(f, err, errlen)) {
		csv_free(f);
		return -1;
	}
	return 0;
}

void csv_free(struct csv_file *f)
{
	for (uint32_t i = 0; i < f->count; i++)
		free(f->rows[i].samples);
	free(f->rows);
	f->rows = NULL;
	f->count = 0;
}
