/*
 * machine_compare.c: the comparing side of machine.h, for build/ecsbench-compare: a run's machine
 * state from the `# machine values` line of its CSV, and whether two runs met the machine in
 * states between which ratios of streaming to latency-bound work carry.
 *
 * The question asked of two runs: did the streaming figure and the random-access figure move by
 * the same factor? Their quotient (stream over chase, NEW's over OLD's) is 1 when the memory
 * system kept its balance, whatever it did to absolute times; beyond MACHINE_SKEW_LIMIT either
 * way it moved more than two runs of one session move it (docs/comparing.md, "Machine state"),
 * and a ratio between a row of one kind and a row of the other (archetype's iterate against
 * sparse's get, a backend's distance to a floor of the other kind) measured in one run does not
 * hold in the other. The floor rows ask the same question of any two CSVs, older ones too: the
 * floor of iterate streams, the floor of get reads at random (from N = 2^18, where their working
 * set leaves the caches closest to the core); one session's floors spread as its fingerprints
 * do, and are held to the same limit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "../core/machine.h"
#include "../core/stats.h"

static double value_of_key(const char *line, const char *key)
{
	size_t k = strlen(key);
	for (const char *at = strstr(line, key); at; at = strstr(at + 1, key))
		if ((at == line || at[-1] == ' ') && at[k] == '=') {
			char *end;
			double v = strtod(at + k + 1, &end);
			return end != at + k + 1 ? v : NAN;
		}
	return NAN;
}

int machine_compare_read_state(const char *path, struct machine_state *s)
{
	memset(s, 0, sizeof *s);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[4096];
	while (fgets(line, sizeof line, f) && line[0] == '#') {
		if (strncmp(line, "# machine values ", 17) == 0) {
			const char *v = line + 17;
			double processes = value_of_key(v, "processes");
			s->processes = processes > 0 ? (uint32_t)processes : 0;
			s->stream_ns = value_of_key(v, "stream_ns");
			s->chase_ns = value_of_key(v, "chase_ns");
			s->stream_sd = value_of_key(v, "stream_sd");
			s->chase_sd = value_of_key(v, "chase_sd");
			s->skew_sd = value_of_key(v, "skew_sd");
			s->steal_pct = value_of_key(v, "steal_pct");
			s->cpu_steal_pct = value_of_key(v, "cpu_steal_pct");
			s->others_pct = value_of_key(v, "others_pct");
			s->load_start = value_of_key(v, "load_start");
			s->load_end = value_of_key(v, "load_end");
			s->recorded = true;
		} else if (strncmp(line, "# machine during the run: ", 26) == 0) {
			const char *b = strstr(line, "; the busiest others there: ");
			if (b) {
				b += strlen("; the busiest others there: ");
				size_t n = strcspn(b, ";\n");
				snprintf(s->busiest, sizeof s->busiest, "%.*s", (int)n, b);
			}
		}
	}
	fclose(f);
	return 0;
}

/* Whether a run has a fingerprint to compare (recorded, and measured). */
static bool has_fingerprint(const struct machine_state *s)
{
	return s->recorded && s->stream_ns > 0 && s->chase_ns > 0;
}

/* --- the floors -------------------------------------------------------------------------- */

/* The floor of iterate streams (iterate, iterate-aged, under any history: the floor does not
 * age); the floor of get reads at random. */
static bool streaming(const char *w)
{
	return strncmp(w, "iterate", 7) == 0 && (w[7] == '\0' || w[7] == '-');
}
static bool lookup(const char *w)
{
	return strcmp(w, "get") == 0 || strncmp(w, "get-", 4) == 0;
}

struct floors {
	bool has;
	uint32_t n;                 /* the largest N both kinds have in both runs */
	double stream_old, stream_new, get_old, get_new; /* ns an entity: geometric means */
	uint32_t stream_rows, get_rows;
};

/* The floor rows of one kind at N, matched by k (the floor does not age: its rows under every
 * history, and iterate's and iterate-aged's, are the same code): over the k both files have, the
 * geometric means of each file's rows, ns an entity; returns the rows counted in b. */
static uint32_t floor_means(const struct csv_file *a, const struct csv_file *b, uint32_t n,
                            bool (*kind)(const char *), double *old_mean, double *new_mean)
{
	double so = 0, sn = 0;
	uint32_t ks = 0, rows = 0;
	for (uint32_t k = 1; k <= 8; k++) {
		double lo = 0, ln = 0;
		uint32_t mo = 0, mn = 0;
		for (int which = 0; which < 2; which++) {
			const struct csv_file *f = which ? b : a;
			for (uint32_t i = 0; i < f->count; i++) {
				const struct csv_row *r = &f->rows[i];
				if (strcmp(r->backend, "floor") || r->threads != 1 || r->entities != n ||
				    r->components != k || !kind(r->workload) || r->median <= 0)
					continue;
				if (which) {
					ln += log(r->median / n);
					mn++;
				} else {
					lo += log(r->median / n);
					mo++;
				}
			}
		}
		if (!mo || !mn)
			continue;
		so += lo / mo;
		sn += ln / mn;
		ks++;
		rows += mn;
	}
	if (ks) {
		*old_mean = exp(so / ks);
		*new_mean = exp(sn / ks);
	}
	return rows;
}

static void floors_of(const struct csv_file *a, const struct csv_file *b, struct floors *f)
{
	memset(f, 0, sizeof *f);
	if (!a || !b)
		return;
	for (uint32_t i = 0; i < b->count; i++) {
		const struct csv_row *r = &b->rows[i];
		if (strcmp(r->backend, "floor") || r->entities <= f->n || r->threads != 1 ||
		    r->entities < MACHINE_FLOOR_MIN_ENTITIES ||
		    !(streaming(r->workload) || lookup(r->workload)))
			continue;
		double x, y;
		if (floor_means(a, b, r->entities, streaming, &x, &y) &&
		    floor_means(a, b, r->entities, lookup, &x, &y))
			f->n = r->entities;
	}
	if (!f->n)
		return;
	f->stream_rows = floor_means(a, b, f->n, streaming, &f->stream_old, &f->stream_new);
	f->get_rows = floor_means(a, b, f->n, lookup, &f->get_old, &f->get_new);
	f->has = true;
}

/* --- the comparison ---------------------------------------------------------------------- */

static void describe_run(FILE *out, const char *which, const struct machine_state *s)
{
	if (!s->recorded) {
		fprintf(out, "  %s: not recorded (a CSV of an older ecsbench)\n", which);
		return;
	}
	if (has_fingerprint(s))
		fprintf(out, "  %s: stream %.4g ns an entity, chase %.4g ns a step (%u processes)", which,
		        s->stream_ns, s->chase_ns, s->processes);
	else
		fprintf(out, "  %s: no fingerprint (under valgrind, or no memory for it)", which);
	if (!isnan(s->others_pct))
		fprintf(out, "; steal %.1f%%, other work on the measuring CPU %.1f%%%s%s%s", s->steal_pct,
		        s->others_pct, s->busiest[0] ? " (" : "", s->busiest,
		        s->busiest[0] ? ")" : "");
	if (!isnan(s->load_start))
		fprintf(out, "; load average %.2f to %.2f", s->load_start, s->load_end);
	fprintf(out, "\n");
}

/* "x1.23" */
static const char *factor(char *buf, size_t len, double v)
{
	snprintf(buf, len, "x%#.3g", v);
	return buf;
}

/* The two fingerprints' answer (docs/comparing.md, "Machine state"): stream over chase from OLD
 * to NEW, with its 95% interval where both runs have several processes. 1: they differ. */
static int fingerprint_verdict(FILE *out, const struct machine_state *s_old,
                               const struct machine_state *s_new, const char *carry, char *brief,
                               size_t brief_len)
{
	const struct machine_state so = *s_old, sn = *s_new;
	char b1[32], b2[32], b3[32];
	double stream = sn.stream_ns / so.stream_ns, chase = sn.chase_ns / so.chase_ns;
	double skew = stream / chase;
	bool differ = fabs(log(skew)) > log(MACHINE_SKEW_LIMIT);
	char interval[64] = "";
	if (!isnan(so.skew_sd) && !isnan(sn.skew_sd) && so.processes > 1 && sn.processes > 1) {
		double vo = so.skew_sd * so.skew_sd / so.processes,
		       vn = sn.skew_sd * sn.skew_sd / sn.processes, v = vo + vn;
		double df = v > 0 ? v * v / (vo * vo / (so.processes - 1) + vn * vn / (sn.processes - 1))
		                  : 1;
		double half = stats_t975(df < 1 ? 1 : df) * sqrt(v);
		snprintf(interval, sizeof interval, " [%#.3g, %#.3g]", skew * exp(-half),
		         skew * exp(half));
	}
	/* kept its balance but moved as a whole: ratios carry, absolute times do not */
	bool whole = !differ && fabs(log(stream)) > log(MACHINE_SKEW_LIMIT) &&
	             fabs(log(chase)) > log(MACHINE_SKEW_LIMIT) && (stream > 1) == (chase > 1);
	fprintf(out,
	        "Machine state: %s: stream over chase moved %s%s from OLD to NEW (stream %s, chase "
	        "%s), %s the x%.2f either way that two runs of one session show "
	        "(docs/comparing.md, \"Machine state\")%s%s%s\n",
	        differ ? "differs" : "agrees", factor(b1, sizeof b1, skew), interval,
	        factor(b2, sizeof b2, stream), factor(b3, sizeof b3, chase),
	        differ ? "beyond" : "within", MACHINE_SKEW_LIMIT, differ ? ": " : "",
	        differ ? carry : "",
	        whole ? (stream > 1 ? "; the memory system ran slower as a whole: ratios between "
	                              "backends carry, absolute times do not"
	                            : "; the memory system ran faster as a whole: ratios between "
	                              "backends carry, absolute times do not")
	              : "");
	snprintf(brief, brief_len, "machine state %s: stream %s, chase %s (stream/chase %s, limit x%.2f)%s",
	         differ ? "differs" : "agrees", factor(b2, sizeof b2, stream),
	         factor(b3, sizeof b3, chase), factor(b1, sizeof b1, skew), MACHINE_SKEW_LIMIT,
	         differ ? ": streaming-to-lookup ratios do not carry" : "");
	return differ;
}

int machine_compare_print(FILE *out, const char *old_name, const char *new_name,
                          const struct csv_file *old_csv, const struct csv_file *new_csv,
                          char *brief, size_t brief_len)
{
	/* out NULL: brief alone */
	char *quiet_text = NULL;
	size_t quiet_len = 0;
	FILE *quiet = out ? NULL : open_memstream(&quiet_text, &quiet_len);
	if (!out && !quiet)
		return -1;
	if (!out)
		out = quiet;
	struct machine_state so, sn;
	machine_compare_read_state(old_name, &so);
	machine_compare_read_state(new_name, &sn);
	struct floors fl;
	floors_of(old_csv, new_csv, &fl);
	char b1[32], b2[32], b3[32];
	const char *carry = "ratios between bandwidth-bound and latency-bound work (a streaming pass "
	                    "against a chain of lookups: iterate against get, archetype against "
	                    "sparse in iterate, a backend's distance to the floor) cannot be carried "
	                    "from one run to the other";
	char dummy[8];
	if (!brief) {
		brief = dummy;
		brief_len = sizeof dummy;
	}
	brief[0] = '\0';
	int verdict = -1;
	/* the floors' own answer, where both runs have them */
	double fl_stream = NAN, fl_get = NAN, fl_skew = NAN;
	bool fl_differ = false;
	if (fl.has) {
		fl_stream = fl.stream_new / fl.stream_old;
		fl_get = fl.get_new / fl.get_old;
		fl_skew = fl_stream / fl_get;
		fl_differ = fabs(log(fl_skew)) > log(MACHINE_SKEW_LIMIT);
	}
	if (has_fingerprint(&so) && has_fingerprint(&sn)) {
		verdict = fingerprint_verdict(out, &so, &sn, carry, brief, brief_len);
	} else {
		const char *missing = !has_fingerprint(&so) && !has_fingerprint(&sn) ? "either run"
		                      : !has_fingerprint(&so)                        ? "OLD"
		                                                                     : "NEW";
		bool older = !so.recorded || !sn.recorded;
		fprintf(out, "Machine state: not recorded in %s (%s)", missing,
		        older ? "a CSV of an older ecsbench" : "no fingerprint was taken");
		if (fl.has) {
			verdict = fl_differ;
			fprintf(out,
			        "; the floor rows both have say it %s: iterate's over get's moved %s, %s the "
			        "x%.2f either way that floor rows of one session show%s%s\n",
			        fl_differ ? "differs" : "agrees", factor(b1, sizeof b1, fl_skew),
			        fl_differ ? "beyond" : "within", MACHINE_SKEW_LIMIT,
			        fl_differ ? ": " : "", fl_differ ? carry : "");
		} else
			fprintf(out, "; nothing tells whether the machine was in the same state\n");
		snprintf(brief, brief_len, "machine state not recorded in %s%s%s%s%s", missing,
		         fl.has ? "; floors: iterate " : "", fl.has ? factor(b1, sizeof b1, fl_stream) : "",
		         fl.has ? ", get " : "", fl.has ? factor(b2, sizeof b2, fl_get) : "");
		/* the floors' own verdict said, not left to the reader's division */
		if (fl.has && fl_differ && strlen(brief) + 60 < brief_len)
			strcat(brief, " (they differ: streaming-to-lookup ratios do not carry)");
		else if (fl.has && !fl_differ && strlen(brief) + 60 < brief_len)
			snprintf(brief + strlen(brief), brief_len - strlen(brief),
			         " (iterate's over get's %s: they agree)", factor(b3, sizeof b3, fl_skew));
	}
	describe_run(out, "OLD", &so);
	describe_run(out, "NEW", &sn);
	if (fl.has)
		fprintf(out,
		        "  The floor rows at N = %u: iterate's %s (%.4g -> %.4g ns an entity, %u row%s), "
		        "get's %s (%.4g -> %.4g, %u row%s): iterate's over get's %s, %s the x%.2f of one "
		        "session's floors\n",
		        fl.n, factor(b1, sizeof b1, fl_stream), fl.stream_old, fl.stream_new,
		        fl.stream_rows, fl.stream_rows == 1 ? "" : "s", factor(b2, sizeof b2, fl_get),
		        fl.get_old, fl.get_new, fl.get_rows, fl.get_rows == 1 ? "" : "s",
		        factor(b3, sizeof b3, fl_skew), fl_differ ? "beyond" : "within",
		        MACHINE_SKEW_LIMIT);
	else
		fprintf(out, "  The floor rows: no N of 2^%d or more (a working set beyond the caches "
		             "closest to the core) at which both runs have the floors of iterate and get\n",
		        __builtin_ctz(MACHINE_FLOOR_MIN_ENTITIES));
	if (quiet) {
		fclose(quiet);
		free(quiet_text);
	}
	return verdict;
}
