/*
 * advise_rows.c: a step's samples read back, and their statistics (what and why:
 * advise_rows.h). Every statistic is stats.c's; this file only gathers the samples for it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/stats.h"
#include "advise_rows.h"

#define WARNING_PREFIX "# warning: "

/* Splits a CSV line (no quoting: the scenario run writes none) in place. */
static uint32_t split(char *line, char **field, uint32_t max)
{
	uint32_t n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max;) {
		field[n++] = p;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return n;
}

int advise_rows_read(const char *path, struct advise_rows *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	/* First pass: the columns, the participants, the processes and rounds. */
	char *line = NULL;
	size_t cap = 0;
	char *field[ADVISE_MAX_PHASES + 16];
	uint32_t columns = 0, first_phase = 6;
	int rc = -1;
	long data_at = -1;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#') {
			if (strncmp(line, WARNING_PREFIX, strlen(WARNING_PREFIX)) == 0 &&
			    r->warning_count < ADVISE_MAX_WARNINGS) {
				snprintf(r->warning[r->warning_count], ADVISE_WARNING_LEN, "%s",
				         line + strlen(WARNING_PREFIX));
				r->warning[r->warning_count][strcspn(r->warning[r->warning_count], "\n")] = '\0';
				r->warning_count++;
			}
			continue;
		}
		if (!columns) {
			columns = split(line, field, ADVISE_MAX_PHASES + 16);
			if (columns < 8 || strcmp(field[2], "backend") != 0 ||
			    strcmp(field[5], "frame_ns") != 0) {
				snprintf(err, errlen, "%s: not a scenario run's samples file", path);
				goto out;
			}
			r->phases = columns - first_phase - 2; /* allocations, largest_alloc_bytes */
			if (r->phases > ADVISE_MAX_PHASES) {
				snprintf(err, errlen, "%s: more than %d phases", path, ADVISE_MAX_PHASES);
				goto out;
			}
			for (uint32_t ph = 0; ph < r->phases; ph++)
				snprintf(r->phase_name[ph], ADVISE_NAME_SIZE, "%s", field[first_phase + ph]);
			data_at = ftell(f);
			continue;
		}
		if (split(line, field, ADVISE_MAX_PHASES + 16) != columns)
			continue;
		if (advise_rows_find(r, field[2]) < 0) {
			if (r->count == ADVISE_MAX_ROWS) {
				snprintf(err, errlen, "%s: more than %d participants", path, ADVISE_MAX_ROWS);
				goto out;
			}
			snprintf(r->name[r->count++], ADVISE_NAME_SIZE, "%s", field[2]);
		}
		unsigned long p = strtoul(field[3], NULL, 10), q = strtoul(field[4], NULL, 10);
		if (p > r->processes)
			r->processes = (uint32_t)p;
		if (q > r->reps)
			r->reps = (uint32_t)q;
	}
	if (!columns || !r->count || !r->processes || !r->reps) {
		snprintf(err, errlen, "%s: no samples", path);
		goto out;
	}
	size_t per = (size_t)r->processes * r->reps;
	r->frame = malloc((size_t)r->count * per * sizeof *r->frame);
	r->phase = malloc((size_t)r->count * r->phases * per * sizeof *r->phase);
	if (!r->frame || (!r->phase && r->phases)) {
		snprintf(err, errlen, "out of memory reading %s", path);
		goto out;
	}
	for (size_t i = 0; i < (size_t)r->count * per; i++)
		r->frame[i] = NAN;
	for (size_t i = 0; i < (size_t)r->count * r->phases * per; i++)
		r->phase[i] = NAN;
	/* Second pass: the values. */
	if (fseek(f, data_at, SEEK_SET) != 0) {
		snprintf(err, errlen, "%s: cannot read it again", path);
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || split(line, field, ADVISE_MAX_PHASES + 16) != columns)
			continue;
		int i = advise_rows_find(r, field[2]);
		unsigned long p = strtoul(field[3], NULL, 10), q = strtoul(field[4], NULL, 10);
		if (i < 0 || p < 1 || q < 1)
			continue;
		size_t at = (p - 1) * r->reps + (q - 1);
		r->frame[(size_t)i * per + at] = strtod(field[5], NULL);
		for (uint32_t ph = 0; ph < r->phases; ph++)
			r->phase[((size_t)i * r->phases + ph) * per + at] =
				strtod(field[first_phase + ph], NULL);
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	if (rc)
		advise_rows_free(r);
	return rc;
}

void advise_rows_free(struct advise_rows *r)
{
	free(r->frame);
	free(r->phase);
	r->frame = r->phase = NULL;
	r->count = 0;
}

int advise_rows_find(const struct advise_rows *r, const char *name)
{
	for (uint32_t i = 0; i < r->count; i++)
		if (strcmp(r->name[i], name) == 0)
			return (int)i;
	return -1;
}

int advise_rows_phase_index(const struct advise_rows *r, const char *name)
{
	for (uint32_t ph = 0; ph < r->phases; ph++)
		if (strcmp(r->phase_name[ph], name) == 0)
			return (int)ph;
	return -1;
}

const double *advise_rows_frame(const struct advise_rows *r, uint32_t i)
{
	return r->frame + (size_t)i * r->processes * r->reps;
}

const double *advise_rows_phase(const struct advise_rows *r, uint32_t i, uint32_t ph)
{
	return r->phase + ((size_t)i * r->phases + ph) * r->processes * r->reps;
}

void advise_rows_centre(const struct advise_rows *r, const double *samples,
                        struct advise_centre *out)
{
	struct row_stats s;
	stats_row(samples, r->processes, r->reps, &s);
	out->ns = s.centre;
	out->has_interval = s.has_interval;
	out->low = s.has_interval ? s.ci_low : NAN;
	out->high = s.has_interval ? s.ci_high : NAN;
}

bool advise_rows_ratio(const struct advise_rows *r, const double *x, const double *y,
                       double level, struct advise_ratio *out)
{
	struct stats_ratio q;
	memset(out, 0, sizeof *out);
	out->level = level;
	if (!stats_ratio(x, r->reps, y, r->reps, r->processes, level, &q))
		return false;
	out->ratio = q.ratio;
	out->has_interval = q.has_interval;
	out->low = q.has_interval ? q.low : NAN;
	out->high = q.has_interval ? q.high : NAN;
	return true;
}

const char *advise_ratio_verdict(const struct advise_ratio *q)
{
	if (!q->has_interval)
		return "tied";
	return q->high < 1 ? "faster" : q->low > 1 ? "slower" : "tied";
}

int advise_rows_group(const struct advise_rows *r, const uint32_t *which, uint32_t count,
                      int phase, struct advise_centre *centre, struct advise_ratio *vs_best)
{
	struct stats_member m[ADVISE_MAX_ROWS];
	if (count > ADVISE_MAX_ROWS)
		count = ADVISE_MAX_ROWS;
	memset(m, 0, sizeof m);
	for (uint32_t i = 0; i < count; i++) {
		m[i].samples = phase < 0 ? advise_rows_frame(r, which[i])
		                         : advise_rows_phase(r, which[i], (uint32_t)phase);
		m[i].reps = r->reps;
		m[i].candidate = true;
	}
	int best = stats_group(m, count, r->processes);
	double level = stats_group_level(count);
	for (uint32_t i = 0; i < count; i++) {
		centre[i].ns = m[i].row.centre;
		centre[i].has_interval = m[i].row.has_interval;
		centre[i].low = m[i].row.ci_low;
		centre[i].high = m[i].row.ci_high;
		memset(&vs_best[i], 0, sizeof vs_best[i]);
		vs_best[i].level = level;
		if (!m[i].has_ratio)
			continue;
		vs_best[i].ratio = m[i].vs_best.ratio;
		vs_best[i].has_interval = m[i].vs_best.has_interval;
		vs_best[i].low = m[i].vs_best.low;
		vs_best[i].high = m[i].vs_best.high;
	}
	return best;
}
