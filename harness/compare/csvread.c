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
#include "../sweep/sweep_columns.h"

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

/* A raced run's samples file: the largest process and round numbers in it (the layout of every
 * row's samples), then back to its start. -1 if it has no such columns. */
static int sample_extent(FILE *in, uint32_t *processes, uint32_t *rounds)
{
	char *line = NULL, *fields[MAX_FIELDS];
	size_t cap = 0;
	int cp = -1, cr = -1;
	*processes = *rounds = 0;
	while (getline(&line, &cap, in) > 0) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int nf = split(line, fields);
		if (cp < 0) {
			cp = column(fields, nf, "process");
			cr = column(fields, nf, "round");
			if (cp < 0 || cr < 0)
				break;
			continue;
		}
		if (nf <= cp || nf <= cr)
			continue;
		uint32_t p = (uint32_t)strtoul(fields[cp], NULL, 10), q = (uint32_t)strtoul(fields[cr], NULL, 10);
		*processes = p > *processes && p < 4096 ? p : *processes;
		*rounds = q > *rounds && q < 4096 ? q : *rounds;
	}
	free(line);
	rewind(in);
	return cp < 0 || cr < 0 ? -1 : 0;
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
	if (f->raced && sample_extent(in, &f->sample_processes, &f->sample_rounds)) {
		fclose(in);
		return errorf(err, errlen, "%s has no column process or round", path);
	}
	for (uint32_t i = 0; i < f->count; i++) {
		struct csv_row *r = &f->rows[i];
		size_t cells = f->raced ? (size_t)f->sample_processes * f->sample_rounds
		                        : (size_t)r->processes * r->reps;
		r->samples = malloc((cells ? cells : 1) * sizeof *r->samples);
		if (!r->samples) {
			fclose(in);
			return errorf(err, errlen, "out of memory");
		}
		for (size_t j = 0; j < cells; j++)
			r->samples[j] = NAN;
	}
	char *line = NULL, *fields[MAX_FIELDS];
	size_t cap = 0;
	int c[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
	bool header = false;
	while (getline(&line, &cap, in) > 0) {
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
					free(line);
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
		uint32_t processes = f->raced ? f->sample_processes : r ? r->processes : 0;
		uint32_t reps = f->raced ? f->sample_rounds : r ? r->reps : 0;
		if (!r || p < 1 || p > processes || q < 1 || q > reps)
			continue;
		r->samples[(p - 1) * reps + (q - 1)] = strtod(fields[c[6]], NULL);
	}
	free(line);
	fclose(in);
	f->has_samples = true;
	return 0;
}

/* The columns csv_read looks for, by their names in the header row: a run of the workloads'
 * (its names are the sweep's table's, harness/sweep/sweep_columns.h), then a scenario's, which
 * names the same figures otherwise (scenario_report.c): the scenario for the profile, the phase
 * for the workload, the frames for the samples per process. The columns up to MEDIAN are
 * required. */
enum { BACKEND, PROFILE, WORKLOAD, ENTITIES, COMPONENTS, MEDIAN, PROCESSES, REPS, LOW, HIGH,
       NOISY, THREADS, HISTORY, SWEEP_VALUE, NS_PER_ENTITY, BYTES_PER_ENTITY, RATIO, RATIO_LOW,
       RATIO_HIGH, VS_BEST, FLOOR_RATIO, FLOOR_LOW, FLOOR_HIGH, SWEEP_KEY, P95, P95_LOW, P95_HIGH,
       P99, P99_LOW, P99_HIGH, MAX_FRAME, MAX_LOW, MAX_HIGH, GROWTH, GROWTH_PCT, ALLOC_FRAMES,
       RACE, RACE_PROCESS, RACE_BEHIND, DECISION, RATIO_LEVEL, INVALID, NCOLS };
/* Each one's column of the sweep's table (NONE: a workload sweep has none) and its name in a
 * scenario's CSV ("": none). */
#define NONE (-1)
static const struct {
	int sweep;
	const char *scenario;
} column_names[NCOLS] = {
	[BACKEND] = {SWEEP_COL_BACKEND, "backend"}, [PROFILE] = {SWEEP_COL_PROFILE, "scenario"},
	[WORKLOAD] = {SWEEP_COL_WORKLOAD, "phase"}, [ENTITIES] = {SWEEP_COL_ENTITIES, "entities_start"},
	[COMPONENTS] = {SWEEP_COL_COMPONENTS, ""}, [MEDIAN] = {SWEEP_COL_MEDIAN_NS, "median_ns"},
	[PROCESSES] = {SWEEP_COL_PROCESSES, "processes"}, [REPS] = {SWEEP_COL_REPS, "frames"},
	[LOW] = {SWEEP_COL_CI_LOW_NS, "ci_low_ns"}, [HIGH] = {SWEEP_COL_CI_HIGH_NS, "ci_high_ns"},
	[NOISY] = {SWEEP_COL_NOISY, "noisy"}, [THREADS] = {SWEEP_COL_THREADS, ""},
	[HISTORY] = {SWEEP_COL_HISTORY, ""}, [SWEEP_VALUE] = {NONE, "sweep_value"},
	[NS_PER_ENTITY] = {SWEEP_COL_NS_PER_ENTITY, ""},
	[BYTES_PER_ENTITY] = {SWEEP_COL_LIVE_BYTES_PER_ENTITY, ""},
	[RATIO] = {SWEEP_COL_RATIO_TO_BEST, "ratio_to_best"},
	[RATIO_LOW] = {SWEEP_COL_RATIO_CI_LOW, "ratio_ci_low"},
	[RATIO_HIGH] = {SWEEP_COL_RATIO_CI_HIGH, "ratio_ci_high"},
	[VS_BEST] = {SWEEP_COL_VS_BEST, "vs_best"}, [FLOOR_RATIO] = {SWEEP_COL_RATIO_TO_FLOOR, ""},
	[FLOOR_LOW] = {SWEEP_COL_FLOOR_CI_LOW, ""}, [FLOOR_HIGH] = {SWEEP_COL_FLOOR_CI_HIGH, ""},
	[SWEEP_KEY] = {NONE, "sweep_key"}, [P95] = {NONE, "p95_ns"},
	[P95_LOW] = {NONE, "p95_ci_low_ns"}, [P95_HIGH] = {NONE, "p95_ci_high_ns"},
	[P99] = {NONE, "p99_ns"}, [P99_LOW] = {NONE, "p99_ci_low_ns"},
	[P99_HIGH] = {NONE, "p99_ci_high_ns"}, [MAX_FRAME] = {NONE, "max_frame_ns"},
	[MAX_LOW] = {NONE, "max_ci_low_ns"}, [MAX_HIGH] = {NONE, "max_ci_high_ns"},
	[GROWTH] = {NONE, "growth_frames"}, [GROWTH_PCT] = {NONE, "growth_pct"},
	[ALLOC_FRAMES] = {NONE, "alloc_frames"}, [RACE] = {SWEEP_COL_RACE, ""},
	[RACE_PROCESS] = {SWEEP_COL_RACE_PROCESS, ""}, [RACE_BEHIND] = {SWEEP_COL_RACE_BEHIND, ""},
	[DECISION] = {SWEEP_COL_DECISION, ""}, [RATIO_LEVEL] = {SWEEP_COL_RATIO_LEVEL, ""},
	[INVALID] = {SWEEP_COL_INVALID, ""},
};

/* Column i's name in a scenario's CSV or a workload sweep's, "" where that kind has none. */
static const char *column_name(int i, bool scenario)
{
	if (scenario)
		return column_names[i].scenario;
	return column_names[i].sweep == NONE ? "" : sweep_columns[column_names[i].sweep].name;
}

/* Column i's field of a line, "" where the file or the line has none. */
static const char *field_of(char **fields, int nf, const int *c, int i)
{
	return c[i] >= 0 && c[i] < nf ? fields[c[i]] : "";
}

/* A number, NaN for an empty field. */
static double number_of(char **fields, int nf, const int *c, int i)
{
	const char *v = field_of(fields, nf, c, i);
	return v[0] ? strtod(v, NULL) : NAN;
}

/* One data line's fields into r; c: each column's position, -1 where the file has none. */
static void parse_row(const struct csv_file *f, struct csv_row *r, char **fields, int nf,
                      const int *c)
{
	memset(r, 0, sizeof *r);
	snprintf(r->backend, sizeof r->backend, "%s", fields[c[BACKEND]]);
	snprintf(r->profile, sizeof r->profile, "%s", fields[c[PROFILE]]);
	const char *history = c[HISTORY] >= 0 && c[HISTORY] < nf ? fields[c[HISTORY]] : NULL;
	snprintf(r->base, sizeof r->base, "%s", fields[c[WORKLOAD]]);
	if (!f->scenario)
		workload_with_history(r->workload, sizeof r->workload, fields[c[WORKLOAD]], history);
	else if (field_of(fields, nf, c, SWEEP_VALUE)[0])
		snprintf(r->workload, sizeof r->workload, "%.30s at %.24s", fields[c[WORKLOAD]],
		         fields[c[SWEEP_VALUE]]);
	else
		snprintf(r->workload, sizeof r->workload, "%s", fields[c[WORKLOAD]]);
	r->headline = f->scenario || strcmp(r->workload, r->base) == 0;
	r->entities = c[ENTITIES] >= 0 ? (uint32_t)strtoul(fields[c[ENTITIES]], NULL, 10) : 0;
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
	r->noisy = strcmp(field_of(fields, nf, c, NOISY), "1") == 0;
	r->threads = c[THREADS] >= 0 && c[THREADS] < nf
	                 ? (uint32_t)strtoul(fields[c[THREADS]], NULL, 10)
	                 : 1;
	r->ns_per_entity = number_of(fields, nf, c, NS_PER_ENTITY);
	r->bytes_per_entity = number_of(fields, nf, c, BYTES_PER_ENTITY);
	r->ratio = number_of(fields, nf, c, RATIO);
	r->ratio_low = number_of(fields, nf, c, RATIO_LOW);
	r->ratio_high = number_of(fields, nf, c, RATIO_HIGH);
	snprintf(r->vs_best, sizeof r->vs_best, "%s", field_of(fields, nf, c, VS_BEST));
	r->floor_ratio = number_of(fields, nf, c, FLOOR_RATIO);
	r->floor_low = number_of(fields, nf, c, FLOOR_LOW);
	r->floor_high = number_of(fields, nf, c, FLOOR_HIGH);
	snprintf(r->sweep_key, sizeof r->sweep_key, "%s", field_of(fields, nf, c, SWEEP_KEY));
	snprintf(r->sweep_value, sizeof r->sweep_value, "%s", field_of(fields, nf, c, SWEEP_VALUE));
	for (int q = 0; q < 3; q++) {
		r->tail[q] = number_of(fields, nf, c, P95 + 3 * q);
		r->tail_low[q] = number_of(fields, nf, c, P95_LOW + 3 * q);
		r->tail_high[q] = number_of(fields, nf, c, P95_HIGH + 3 * q);
	}
	snprintf(r->growth, sizeof r->growth, "%s", field_of(fields, nf, c, GROWTH));
	snprintf(r->growth_pct, sizeof r->growth_pct, "%s", field_of(fields, nf, c, GROWTH_PCT));
	snprintf(r->alloc_frames, sizeof r->alloc_frames, "%s", field_of(fields, nf, c, ALLOC_FRAMES));
	snprintf(r->race, sizeof r->race, "%s", field_of(fields, nf, c, RACE));
	r->race_process = (uint32_t)strtoul(field_of(fields, nf, c, RACE_PROCESS), NULL, 10);
	snprintf(r->race_behind, sizeof r->race_behind, "%s", field_of(fields, nf, c, RACE_BEHIND));
	snprintf(r->decision, sizeof r->decision, "%s", field_of(fields, nf, c, DECISION));
	r->ratio_level = number_of(fields, nf, c, RATIO_LEVEL);
	snprintf(r->invalid, sizeof r->invalid, "%s", field_of(fields, nf, c, INVALID));
}

/* Keeps a '#' line (without "# " and its line end) in f->notes. 0, or -1 out of memory. */
static int keep_note(struct csv_file *f, const char *line)
{
	if (f->note_count % 32 == 0) {
		char **notes = realloc(f->notes, (f->note_count + 32) * sizeof *notes);
		if (!notes)
			return -1;
		f->notes = notes;
	}
	const char *text = line + 1 + (line[1] == ' ');
	size_t len = strcspn(text, "\r\n");
	char *copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, text, len);
	copy[len] = '\0';
	f->notes[f->note_count++] = copy;
	return 0;
}

const char *csv_note(const struct csv_file *f, const char *prefix)
{
	size_t n = strlen(prefix);
	for (uint32_t i = 0; i < f->note_count; i++)
		if (strncmp(f->notes[i], prefix, n) == 0)
			return f->notes[i];
	return NULL;
}

int csv_read(const char *path, bool samples, struct csv_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	FILE *in = fopen(path, "r");
	if (!in)
		return errorf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	char *line = NULL, *fields[MAX_FIELDS];
	size_t line_cap = 0;
	int c[NCOLS];
	bool header = false;
	uint32_t cap = 0;
	while (getline(&line, &line_cap, in) > 0) {
		if (line[0] == '#') {
			if (!header && keep_note(f, line)) {
				fclose(in);
				free(line);
				csv_free(f);
				return errorf(err, errlen, "out of memory");
			}
			header_value(line, "ecsbench commit", f->commit, sizeof f->commit);
			header_value(line, "date", f->date, sizeof f->date);
			header_value(line, "cpu", f->cpu, sizeof f->cpu);
			continue;
		}
		if (line[0] == '\n')
			continue;
		int nf = split(line, fields);
		if (!header) {
			f->scenario = column(fields, nf, column_name(WORKLOAD, false)) < 0 &&
			              column(fields, nf, column_name(PROFILE, true)) >= 0 &&
			              column(fields, nf, column_name(WORKLOAD, true)) >= 0;
			for (int i = 0; i < NCOLS; i++)
				c[i] = column_name(i, f->scenario)[0]
				           ? column(fields, nf, column_name(i, f->scenario))
				           : -1;
			for (int i = 0; i <= MEDIAN; i++)
				if (c[i] < 0 && !(f->scenario && (i == COMPONENTS || i == ENTITIES))) {
					fclose(in);
					free(line);
					csv_free(f);
					return errorf(err, errlen, "%s has no column %s: not an ecsbench CSV", path,
					              column_name(i, f->scenario));
				}
			f->has_ci = c[LOW] >= 0 && c[HIGH] >= 0 && c[PROCESSES] >= 0;
			f->has_ratios = c[RATIO] >= 0 && c[VS_BEST] >= 0;
			f->raced = c[RACE] >= 0;
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
				free(line);
				csv_free(f);
				return errorf(err, errlen, "out of memory");
			}
			f->rows = rows;
		}
		parse_row(f, &f->rows[f->count++], fields, nf, c);
	}
	free(line);
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
	for (uint32_t i = 0; i < f->note_count; i++)
		free(f->notes[i]);
	free(f->notes);
	f->notes = NULL;
	f->note_count = 0;
}
