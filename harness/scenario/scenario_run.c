/*
 * scenario_run.c: a scenario run measured by the harness's driver (what and why:
 * scenario_run.h): the options, the plan's row groups and the workload whose sample is a frame;
 * the scenario CSV is scenario_report.c's (what they share: scenario_run_parts.h).
 *
 * Sweep points: A..B in --points values, geometric (A * (B/A)^(i/(n-1))) by default when A > 0,
 * because the parameters a sweep is for (a share of entities changed per frame, an entity count,
 * a component's size, a number of kinds) act by ratios and a crossover at a small value would
 * otherwise fall in the first interval; linear (--spacing linear, or A = 0) otherwise. When A
 * and B are written as whole numbers the points are rounded to whole numbers (a repeated one is
 * dropped), otherwise to 3 significant digits; a point is given to scenario_set as text,
 * checked as in a file. Or a list of values, KEY=V1,V2,... (make_list_points): any key, e.g.
 * the markings (component.Hit.storage=table,sparse), each value a point.
 *
 * Costs: the options resolve the scenario once per point (a copy of ~330 KiB each, at most 50);
 * the report's: scenario_report.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/plan.h"
#include "../core/report.h"
#include "../core/stats.h"
#include "../sweep/world.h"
#include "scenario_engine.h"
#include "scenario_run.h"
#include "scenario_run_parts.h"
#include "scenario_sanity.h"

#define DEFAULT_POINTS 6u
#define MAX_POINTS 50u
/* The collection keeps every frame of every process: refuse a run whose samples would not fit. */
#define MAX_SAMPLE_BYTES (4ull << 30)

static const struct workload scenario_workload;

/* --- options ---------------------------------------------------------------------------------- */

/*
 * --unmarked B,...: backend B once more, as "B-unmarked", whose storage is made with no storage
 * hint (ecs_config.component_storage NULL: every type a table type), the rest of its ops B's.
 * A participant of its own, so that at every point of any sweep its frame is paired with B's
 * (the file's markings) and with the others'. Its create is one of a fixed set of trampolines,
 * one per place in ecs_backends (ops carry no context); the child processes of the run make the
 * same participants from the same command line.
 */
#define UNMARKED_MAX 16
static struct ecs_ops unmarked_ops[UNMARKED_MAX];
static char unmarked_names[UNMARKED_MAX][48];

static int unmarked_create(size_t i, const struct ecs_config *cfg,
                           const struct ecs_allocator *alloc, ecs_storage **out)
{
	struct ecs_config plain = *cfg;
	plain.component_storage = NULL;
	return ecs_backends[i]->create(&plain, alloc, out);
}

#define UNMARKED_CREATE(i)                                                                     \
	static int unmarked_create_##i(const struct ecs_config *cfg,                               \
	                               const struct ecs_allocator *alloc, ecs_storage **out)       \
	{                                                                                          \
		return unmarked_create(i, cfg, alloc, out);                                            \
	}
UNMARKED_CREATE(0)
UNMARKED_CREATE(1)
UNMARKED_CREATE(2)
UNMARKED_CREATE(3)
UNMARKED_CREATE(4)
UNMARKED_CREATE(5)
UNMARKED_CREATE(6)
UNMARKED_CREATE(7)
UNMARKED_CREATE(8)
UNMARKED_CREATE(9)
UNMARKED_CREATE(10)
UNMARKED_CREATE(11)
UNMARKED_CREATE(12)
UNMARKED_CREATE(13)
UNMARKED_CREATE(14)
UNMARKED_CREATE(15)

static int (*const unmarked_creates[UNMARKED_MAX])(const struct ecs_config *,
                                                   const struct ecs_allocator *, ecs_storage **) = {
	unmarked_create_0,  unmarked_create_1,  unmarked_create_2,  unmarked_create_3,
	unmarked_create_4,  unmarked_create_5,  unmarked_create_6,  unmarked_create_7,
	unmarked_create_8,  unmarked_create_9,  unmarked_create_10, unmarked_create_11,
	unmarked_create_12, unmarked_create_13, unmarked_create_14, unmarked_create_15,
};

static void add_unmarked(struct options *o)
{
	char list[256];
	if (snprintf(list, sizeof list, "%s", o->unmarked) >= (int)sizeof list)
		options_usage_error("--unmarked '%.60s...': the list is too long", o->unmarked);
	for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < ecs_backend_count && strcmp(ecs_backends[i]->name, name) != 0)
			i++;
		if (i == ecs_backend_count || i >= UNMARKED_MAX)
			options_usage_error("--unmarked: unknown backend '%s'", name);
		bool listed = false;
		for (size_t b = 0; b < o->backend_count; b++)
			listed = listed || o->backends[b] == ecs_backends[i];
		if (!listed)
			options_usage_error("--unmarked %s: %s is not among the run's backends (--backends): "
			                    "its unmarked frame is read against its marked one",
			                    name, name);
		if (unmarked_ops[i].create)
			options_usage_error("--unmarked: %s listed twice", name);
		if (o->backend_count == MAX_LIST)
			options_usage_error("too many backends (at most %d)", MAX_LIST);
		unmarked_ops[i] = *ecs_backends[i];
		snprintf(unmarked_names[i], sizeof unmarked_names[i], "%s-unmarked", name);
		unmarked_ops[i].name = unmarked_names[i];
		unmarked_ops[i].create = unmarked_creates[i];
		o->backends[o->backend_count++] = &unmarked_ops[i];
	}
}

/*
 * --design 'BACKEND[:NAME] KEY=VALUE ...': backend B once more as a participant of its own,
 * named B:NAME (or B), whose frames run on the scenario with the KEYs set: a storage design a
 * user can choose, as the marks are (a component's storage, a system's group, a kind's or an
 * effect's batch; [scenario] storage), so that designs are paired frame by frame as backends
 * are, and agree on the checksum as every participant must (a mark changes no result). The
 * advisor (harness/advise/) runs its steps as such runs. Its participant is an ops copy under
 * the design's name; the run's setup finds the design's scenario by that copy (design_point).
 */
struct scenario_design scenario_designs[MAX_LIST];
uint32_t scenario_design_count;

/* The keys a design may set: the markings, which change how a storage lays things out and how
 * many calls a frame makes, never a result. */
static bool design_key_allowed(const char *key)
{
	static const char *const prefixes[] = {"component.", "system.", "kind.", "effect."};
	static const char *const suffixes[] = {".storage", ".group", ".batch", ".batch"};
	if (strcmp(key, "scenario.storage") == 0)
		return true;
	size_t len = strlen(key);
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t p = strlen(prefixes[i]), q = strlen(suffixes[i]);
		if (len > p + q && strncmp(key, prefixes[i], p) == 0 &&
		    strcmp(key + len - q, suffixes[i]) == 0)
			return true;
	}
	return false;
}

static bool participant_named(const struct options *o, const char *name)
{
	for (size_t b = 0; b < o->backend_count; b++)
		if (strcmp(o->backends[b]->name, name) == 0)
			return true;
	return false;
}

static void add_design(struct options *o, const struct scenario *base, const char *text)
{
	char words[2048];
	if (snprintf(words, sizeof words, "%s", text) >= (int)sizeof words)
		options_usage_error("--design '%.60s...': too long", text);
	if (strpbrk(text, "\n\r"))
		options_usage_error("--design: a line break in '%.60s'", text);
	char *save = NULL, *first = strtok_r(words, " \t", &save);
	if (!first)
		options_usage_error("--design '%s': empty (BACKEND[:NAME] KEY=VALUE ...)", text);
	if (scenario_design_count == MAX_LIST || o->backend_count == MAX_LIST)
		options_usage_error("too many backends and designs (at most %d)", MAX_LIST);
	char backend[48];
	size_t blen = strcspn(first, ":");
	if (blen >= sizeof backend || strlen(first) >= sizeof scenario_designs[0].name)
		options_usage_error("--design '%s': the name '%s' is too long", text, first);
	memcpy(backend, first, blen);
	backend[blen] = '\0';
	const struct ecs_ops *ops = NULL;
	for (size_t i = 0; i < ecs_backend_count && !ops; i++)
		if (strcmp(ecs_backends[i]->name, backend) == 0)
			ops = ecs_backends[i];
	if (!ops)
		options_usage_error("--design '%s': unknown backend '%s'", text, backend);
	if (first[blen] == ':' &&
	    (!first[blen + 1] || strspn(first + blen + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
	                                                  "QRSTUVWXYZ0123456789_-+.") !=
	                             strlen(first + blen + 1)))
		options_usage_error("--design '%s': a design's NAME is letters, digits and _-+. (it names "
		                    "a CSV row)",
		                    text);
	if (participant_named(o, first))
		options_usage_error("--design '%s': %s is a participant already", text, first);
	struct scenario *sc = malloc(sizeof *sc);
	if (!sc)
		options_usage_error("out of memory");
	memcpy(sc, base, sizeof *sc);
	for (char *kv = strtok_r(NULL, " \t", &save); kv; kv = strtok_r(NULL, " \t", &save)) {
		char key[128];
		snprintf(key, sizeof key, "%.*s", (int)strcspn(kv, "="), kv);
		if (strchr(kv, '=') && !design_key_allowed(key))
			options_usage_error("--design '%s': %s is not a marking (a design sets "
			                    "component.X.storage, system.X.group, kind.X.batch, "
			                    "effect.X.batch or scenario.storage; --set changes the frame)",
			                    text, key);
		char err[400];
		if (scenario_set_assignment(sc, kv, err, sizeof err) != SCENARIO_OK)
			options_usage_error("--design '%s': %s", text, err);
	}
	scenario_designs[scenario_design_count].ops = *ops;
	snprintf(scenario_designs[scenario_design_count].name, sizeof scenario_designs[0].name, "%s",
	         first);
	scenario_designs[scenario_design_count].ops.name = scenario_designs[scenario_design_count].name;
	scenario_designs[scenario_design_count].sc = sc;
	scenario_designs[scenario_design_count].text = text;
	o->backends[o->backend_count++] = &scenario_designs[scenario_design_count++].ops;
}

/* The scenario a participant's frames run on: its design's, or the point's. */
const struct scenario *scenario_design_point(const struct ecs_ops *ops,
                                             const struct scenario *point)
{
	for (uint32_t i = 0; ops && i < scenario_design_count; i++)
		if (ops == &scenario_designs[i].ops)
			return scenario_designs[i].sc;
	return point;
}

static void file_error(const char *err)
{
	fprintf(stderr, "%s\n", err);
	exit(2);
}

/* A sweep bound: digits with at most one '.', and an optional '%'. */
static bool parse_bound(const char *text, size_t len, double *v, bool *percent, bool *whole)
{
	char buf[40];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	*percent = buf[len - 1] == '%';
	if (*percent)
		buf[--len] = '\0';
	size_t digits = strspn(buf, "0123456789"), dots = 0;
	for (const char *p = buf; *p; p++)
		dots += *p == '.';
	if (len == 0 || digits == 0 || dots > 1 || strspn(buf, "0123456789.") != len)
		return false;
	*whole = dots == 0;
	*v = strtod(buf, NULL);
	return true;
}

/* The keys that are the same at every point of a sweep. */
static void sweep_key_check(const char *key)
{
	static const char *const fixed[] = {"scenario.frames", "scenario.warmup", "scenario.seed"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(key, fixed[i]) == 0)
			options_usage_error("--sweep %s: the frames, warm-up and seed are the same at every point "
			                    "(set them with --set %s=N)",
			                    key, key);
}

/* A point's value as scenario_set reads it: no exponent, at most 6 significant digits. */
static void format_point(double x, bool whole, bool percent, char *buf, size_t len)
{
	if (whole) {
		snprintf(buf, len, "%.0f%s", x, percent ? "%" : "");
		return;
	}
	int decimals = x > 0 ? 5 - (int)floor(log10(x)) : 0;
	decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
	snprintf(buf, len, "%.*f", decimals, x);
	if (strchr(buf, '.')) {
		char *end = buf + strlen(buf) - 1;
		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
	if (percent)
		snprintf(buf + strlen(buf), len - strlen(buf), "%%");
}

/*
 * A sweep over a list of values, KEY=V1,V2,... (2..MAX_POINTS of them, in the order given): any
 * key, e.g. component.Marked.storage=table,sparse. When every value is a number (as a range's
 * bounds are written) the points are numeric, x their value, spaced as listed; otherwise they
 * are categorical, x their place in the list (1, 2, ...), and no crossover is interpolated
 * between them.
 */
static void make_list_points(struct options *o, struct scenario_run *run, const char *key,
                             const char *list)
{
	const char *arg = o->sweep;
	if (o->sweep_points || o->sweep_spacing)
		options_usage_error("--sweep %s: a list of values is its own points (no %s)", arg,
		                    o->sweep_points ? "--points" : "--spacing");
	uint32_t most = 1;
	for (const char *c = list; *c; c++)
		most += *c == ',';
	if (most > MAX_POINTS)
		options_usage_error("--sweep '%s': more than %u values", arg, MAX_POINTS);
	run->points = malloc(most * sizeof *run->points);
	run->values = calloc(most, sizeof *run->values);
	run->x = calloc(most, sizeof *run->x);
	if (!run->points || !run->values || !run->x)
		options_usage_error("out of memory");
	run->sweep_key = key;
	run->geometric = false;
	run->listed = true;
	run->categorical = false;
	bool first_percent = false;
	for (const char *at = list;;) {
		const char *comma = strchr(at, ',');
		size_t len = comma ? (size_t)(comma - at) : strlen(at);
		while (len && (*at == ' ' || *at == '\t'))
			at++, len--;
		while (len && (at[len - 1] == ' ' || at[len - 1] == '\t'))
			len--;
		if (!len)
			options_usage_error("--sweep '%s': an empty value in the list", arg);
		if (len >= sizeof run->values[0])
			options_usage_error("--sweep '%s': a value is too long", arg);
		char text[sizeof run->values[0]];
		memcpy(text, at, len);
		text[len] = '\0';
		for (uint32_t i = 0; i < run->point_count; i++)
			if (strcmp(run->values[i], text) == 0)
				options_usage_error("--sweep '%s': %s listed twice", arg, text);
		double v;
		bool percent, whole;
		if (parse_bound(text, len, &v, &percent, &whole)) {
			if (run->point_count == 0)
				first_percent = percent;
			else if (percent != first_percent)
				run->categorical = true; /* 5% beside 5: not one axis */
			run->x[run->point_count] = v;
		} else {
			run->categorical = true;
		}
		struct scenario *sc = &run->points[run->point_count];
		memcpy(sc, run->base, sizeof *sc);
		char err[400];
		if (scenario_set(sc, key, text, err, sizeof err) != SCENARIO_OK)
			options_usage_error("--sweep %s: %s", arg, err);
		snprintf(run->values[run->point_count++], sizeof run->values[0], "%s", text);
		if (!comma)
			break;
		at = comma + 1;
	}
	if (run->point_count < 2)
		options_usage_error("--sweep '%s': a list needs at least 2 values (KEY=V1,V2)", arg);
	run->percent = !run->categorical && first_percent;
	if (run->categorical)
		for (uint32_t i = 0; i < run->point_count; i++)
			run->x[i] = i + 1;
}

static void make_points(struct options *o, struct scenario_run *run)
{
	const char *arg = o->sweep;
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		options_usage_error("--sweep '%s' is not KEY=A..B or KEY=V1,V2,... (e.g. "
		                    "effect.burning.add=0.1%%..10%%, component.Hit.storage=table,sparse)",
		                    arg);
	const char *dots = strstr(eq + 1, "..");
	if (!dots && strchr(eq + 1, ',')) {
		static char list_key[128];
		if ((size_t)(eq - arg) >= sizeof list_key)
			options_usage_error("--sweep '%s': the key is too long", arg);
		memcpy(list_key, arg, (size_t)(eq - arg));
		list_key[eq - arg] = '\0';
		sweep_key_check(list_key);
		make_list_points(o, run, list_key, eq + 1);
		return;
	}
	double a, b;
	bool pa, pb, wa, wb;
	if (!dots || !parse_bound(eq + 1, (size_t)(dots - eq - 1), &a, &pa, &wa) ||
	    !parse_bound(dots + 2, strlen(dots + 2), &b, &pb, &wb))
		options_usage_error("--sweep '%s': the range must be A..B, two numbers (no sign, no exponent), "
		                    "both or neither with %%",
		                    arg);
	if (pa != pb)
		options_usage_error("--sweep '%s': both bounds or neither must be percentages", arg);
	if (!(a < b))
		options_usage_error("--sweep '%s': the range is empty (A..B needs A < B)", arg);
	static char key[128];
	if ((size_t)(eq - arg) >= sizeof key)
		options_usage_error("--sweep '%s': the key is too long", arg);
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	sweep_key_check(key);
	uint32_t n = DEFAULT_POINTS;
	if (o->sweep_points) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(o->sweep_points, &end, 10);
		if (*o->sweep_points < '0' || *o->sweep_points > '9' || *end || errno || v < 2 ||
		    v > MAX_POINTS)
			options_usage_error("--points '%s' is not a number of points in 2..%u", o->sweep_points,
			                    MAX_POINTS);
		n = (uint32_t)v;
	}
	run->geometric = a > 0;
	if (o->sweep_spacing) {
		if (strcmp(o->sweep_spacing, "linear") == 0)
			run->geometric = false;
		else if (strcmp(o->sweep_spacing, "geometric") == 0) {
			if (a <= 0)
				options_usage_error("--spacing geometric needs A > 0 (the sweep starts at 0)");
			run->geometric = true;
		} else
			options_usage_error("unknown spacing '%s' (valid: geometric, linear)", o->sweep_spacing);
	}
	run->sweep_key = key;
	run->percent = pa;
	run->points = malloc(n * sizeof *run->points);
	run->values = calloc(n, sizeof *run->values);
	run->x = calloc(n, sizeof *run->x);
	if (!run->points || !run->values || !run->x)
		options_usage_error("out of memory");
	run->point_count = 0;
	for (uint32_t i = 0; i < n; i++) {
		double f = (double)i / (n - 1);
		double x = run->geometric ? a * pow(b / a, f) : a + (b - a) * f;
		if (wa && wb)
			x = round(x);
		else if (x > 0) /* 3 significant digits: 0.928, not 0.928318 */
			x = round(x * pow(10, 2 - floor(log10(x)))) / pow(10, 2 - floor(log10(x)));
		if (i == 0)
			x = a;
		if (i == n - 1)
			x = b;
		char text[32];
		format_point(x, wa && wb, pa, text, sizeof text);
		if (run->point_count && strcmp(text, run->values[run->point_count - 1]) == 0)
			continue;
		struct scenario *sc = &run->points[run->point_count];
		memcpy(sc, run->base, sizeof *sc);
		char err[400];
		if (scenario_set(sc, key, text, err, sizeof err) != SCENARIO_OK)
			options_usage_error("--sweep %s: %s", arg, err);
		snprintf(run->values[run->point_count], sizeof run->values[0], "%s", text);
		run->x[run->point_count++] = strtod(text, NULL);
	}
}

/* What the options given mean together, before the file is read (cli.c has refused those a
 * scenario run does not take: scenario_cli). */
static void refuse_options(const struct options *o)
{
	if (o->format_json)
		options_usage_error("--format json is for the workloads, not a scenario run (a frame's "
		                    "phases have no google benchmark name)");
	if (!o->scenario_file)
		options_usage_error("%s needs --scenario FILE", o->sweep            ? "--sweep"
		                                        : o->set_count      ? "--set"
		                                        : o->sweep_points   ? "--points"
		                                        : o->unmarked       ? "--unmarked"
		                                        : o->design_count   ? "--design"
		                                                            : "--spacing");
	if (o->design_count && o->sweep)
		options_usage_error("--design compares designs at one point, not along a --sweep (a "
		                    "marking's values: --sweep component.X.storage=table,sparse)");
	if ((o->sweep_points || o->sweep_spacing) && !o->sweep)
		options_usage_error("%s needs --sweep KEY=A..B", o->sweep_points ? "--points" : "--spacing");
}

/* The file with --set applied, and its points (one without --sweep). */
static struct scenario_run *load_points(struct options *o)
{
	struct scenario_run *run = calloc(1, sizeof *run);
	if (!run || !(run->base = malloc(sizeof *run->base)))
		options_usage_error("out of memory");
	char err[400];
	if (scenario_load(run->base, o->scenario_file, err, sizeof err) != SCENARIO_OK)
		file_error(err);
	for (size_t i = 0; i < o->set_count; i++)
		if (scenario_set_assignment(run->base, o->sets[i], err, sizeof err) != SCENARIO_OK)
			options_usage_error("--set %s", err);
	const char *slash = strrchr(o->scenario_file, '/');
	snprintf(run->name, sizeof run->name, "%s", slash ? slash + 1 : o->scenario_file);
	size_t len = strlen(run->name);
	if (len > 4 && strcmp(run->name + len - 4, ".ini") == 0)
		run->name[len - 4] = '\0';

	if (o->sweep) {
		make_points(o, run);
	} else {
		run->point_count = 1;
		run->points = run->base;
		run->values = calloc(1, sizeof *run->values);
		run->x = calloc(1, sizeof *run->x);
		if (!run->values || !run->x)
			options_usage_error("out of memory");
	}
	return run;
}

/* Each point's thread count and the engine's checks, for every point before anything runs. */
static void check_points(struct scenario_run *run)
{
	char err[400];
	/* threads = all: the CPUs this process may use; more than those cannot be pinned, and
	 * would measure the scheduler. Checked for every point before anything runs. */
	struct cpu_list cpus;
	uint32_t usable = parallel_cpus_allowed(&cpus);
	if (!usable)
		usable = 1;
	if (!run->base->threads)
		run->base->threads = usable;
	for (uint32_t i = 0; i < run->point_count; i++) {
		struct scenario *sc = &run->points[i];
		if (!sc->threads)
			sc->threads = usable;
		if (sc->threads > usable && scenario_has_parallel(sc))
			options_usage_error("%s%s%sthreads = %u: this process may run on %u CPUs", 
			                    run->sweep_key ? "--sweep: at " : "",
			                    run->sweep_key ? run->values[i] : "", run->sweep_key ? ": " : "",
			                    sc->threads, usable);
	}
	for (uint32_t i = 0; i < run->point_count; i++)
		if (scenario_engine_check(&run->points[i], err, sizeof err))
			options_usage_error("%s%s%s", run->sweep_key ? "--sweep: at " : "",
			                    run->sweep_key ? run->values[i] : "", err);
}

/* The workload of each point, named for the progress and the messages. */
static void name_points(struct scenario_run *run)
{
	run->workloads = calloc(run->point_count, sizeof *run->workloads);
	char(*names)[160] = calloc(run->point_count, sizeof *names);
	if (!run->workloads || !names)
		options_usage_error("out of memory");
	for (uint32_t i = 0; i < run->point_count; i++) {
		run->workloads[i] = scenario_workload;
		/* A frame with a parallel system is timed on the wall clock: the measuring thread's
		 * CPU time would miss the other threads' work and the wait for the slowest. */
		run->workloads[i].threaded = scenario_has_parallel(&run->points[i]);
		if (run->sweep_key)
			snprintf(names[i], sizeof names[i], "%s %s=%s", run->name, run->sweep_key,
			         run->values[i]);
		else
			snprintf(names[i], sizeof names[i], "%s", run->name);
		run->workloads[i].name = names[i];
	}
}

static void scenario_options(struct options *o)
{
	refuse_options(o);
	struct scenario_run *run = load_points(o);
	check_points(run);
	name_points(run);
	if (!o->backend_count && !o->design_count)
		for (size_t i = 0; i < ecs_backend_count && i < MAX_LIST; i++)
			o->backends[o->backend_count++] = ecs_backends[i];
	if (o->unmarked)
		add_unmarked(o);
	for (size_t i = 0; i < o->design_count; i++)
		add_design(o, run->base, o->designs[i]);
	/* A sample is a frame: every process runs the warmup frames, then the timed ones. */
	o->reps = run->base->frames;
	o->warmup = run->base->warmup;
	o->inner = 1;
	double rows = (double)run->point_count * (o->backend_count + 2);
	double bytes = rows * o->processes * o->reps * (scenario_figure_count(run->base) + 1) * 8;
	if (bytes > (double)MAX_SAMPLE_BYTES)
		options_usage_error("%u frames x %u processes x %.0f rows would keep %.1f GiB of samples: fewer "
		                    "frames (--set scenario.frames=N), points or processes",
		                    o->reps, o->processes, rows, bytes / (1u << 30));
	o->kind_data = run;
	if (!o->output) {
		static char output[300];
		snprintf(output, sizeof output, "results/scenario-%s%s%s.csv", run->name,
		         run->sweep_key ? "-" : "", run->sweep_key ? run->sweep_key : "");
		o->output = output;
	}
}

/* --- the plan ------------------------------------------------------------------------------- */

/* One row group per point (a lone scenario is one point): the backends, then the floor and the
 * harness alone (unless --no-floor). */
static int scenario_plan_make(const struct options *o, struct plan *p)
{
	const struct scenario_run *run = o->kind_data;
	uint32_t count = run->point_count;
	if (plan_alloc(p, count, (uint32_t)o->backend_count + 2)) /* the backends, floor, harness */
		return -1;
	p->runner = &workloads_runner;
	for (uint32_t i = 0; i < count; i++) {
		struct group *g = &p->groups[i];
		g->workload = &run->workloads[i];
		g->n = (uint32_t)run->points[i].entities_start;
		g->k = 0;
		g->threads = scenario_has_parallel(&run->points[i]) ? run->points[i].threads : 1;
		g->floor = !o->no_floor;
		g->harness = g->floor;
		g->participants = (uint32_t)o->backend_count + (g->floor ? 2 : 0);
		g->own_values = true;   /* the engine makes its own (scenario_engine.c) */
		g->same_runs = true;    /* a sample is a frame: every participant runs the same frames */
		g->point = &run->points[i];
		g->figures = scenario_figure_count(&run->points[i]);
		snprintf(g->label, sizeof g->label, "%s (%u entities at the start)", g->workload->name,
		         g->n);
		p->threaded |= g->workload->threaded;
	}
	return 0;
}

/* --- the workload: a sample is a frame ----------------------------------------------------- */

static int scenario_setup(struct run *run)
{
	const struct bench_case *c = run->c;
	enum scenario_mode mode = c->ops       ? SCENARIO_MODE_STORAGE
	                          : c->harness ? SCENARIO_MODE_HARNESS
	                                       : SCENARIO_MODE_FLOOR;
	struct scenario_engine *e;
	char err[200];
	if (scenario_engine_open(&e, scenario_design_point(c->ops, c->point), c->ops, mode, err,
	                         sizeof err))
		return bench_fail(run->r, "%s", err);
	/* phases on the frame's clock, so that they add up to it (wall for a threaded frame) */
	scenario_engine_clock(e, !c->wall_clock && !c->workload->threaded);
	run->state = e;
	/* the threads of its parallel systems, pinned as parallel-iterate's, before any frame */
	if (scenario_engine_threads(e, c->threads, c->cpus, err, sizeof err))
		return bench_fail(run->r, "%s", err);
	return 0;
}

static int scenario_prepare(struct run *run)
{
	scenario_engine_wake(run->state);
	return 0;
}

static int scenario_end_sample(struct run *run)
{
	scenario_engine_rest(run->state);
	return 0;
}

static int scenario_execute(struct run *run)
{
	struct scenario_engine *e = run->state;
	for (uint32_t j = 0; j < run->inner; j++)
		if (scenario_engine_frame(e))
			return bench_fail(run->r, "frame %u: %s", scenario_engine_frames_run(e),
			                  scenario_engine_error(e));
	return 0;
}

static int scenario_finish(struct run *run)
{
	struct scenario_engine *e = run->state;
	uint64_t peak, live;
	scenario_engine_memory(e, &peak, &live);
	if (peak > run->r->peak_bytes)
		run->r->peak_bytes = peak;
	run->r->live_bytes = live;
	if (!run->verify)
		return 0;
	bool verified;
	if (scenario_engine_checksum(e, &run->r->checksum, &verified))
		return bench_fail(run->r, "after %u frames: %s", scenario_engine_frames_run(e),
		                  scenario_engine_error(e));
	return 0;
}

static void scenario_release(struct run *run)
{
	scenario_engine_close(run->state);
	run->state = NULL;
}

/* A frame's phase times and allocations, after each timed sample. */
static const double *scenario_figures(struct run *run, uint32_t *count)
{
	if (!run->state)
		return NULL;
	*count = scenario_figure_count(run->c->point);
	return scenario_engine_figures(run->state);
}

/* The scenario engine serves every participant alike, backends and floor: the same hooks. */
#define SCENARIO_HOOKS \
	.setup = scenario_setup, .prepare = scenario_prepare, .execute = scenario_execute, \
	.end_sample = scenario_end_sample, .finish = scenario_finish, .release = scenario_release, \
	.figures = scenario_figures

static const struct workload scenario_floor = {
	.name = "scenario",
	.timed = "one frame of the scenario over plain arrays, or the harness alone",
	SCENARIO_HOOKS,
};

static const struct workload scenario_workload = {
	.name = "scenario",
	.timed = "one frame of the scenario: spawns, systems (each with its deferred changes), "
	         "despawns, effects' removes and adds, lookups",
	.floor = &scenario_floor,
	SCENARIO_HOOKS,
};

/* --- the options ----------------------------------------------------------------------------- */

/* --points' default, as --help shows it with its range: make_points reads the text given, and
 * takes DEFAULT_POINTS without it. */
static void show_points(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%" PRIu64, v->number);
}

static const struct cli_option opt_scenario = {
	.name = "scenario", .value = "FILE",
	.help = "the scenario file; its frames and warmup are the samples",
	.read = cli_read_text, .field = offsetof(struct options, scenario_file),
};
const struct cli_option scenario_opt_set = {
	.name = "set", .value = "KEY=VALUE",
	.help = "overrides a key of the file, e.g. scenario.scale=0.1 or\n"
	        "kind.bullet.spawn=800 (repeatable)",
	.read = cli_read_texts, .field = offsetof(struct options, sets),
	.count = offsetof(struct options, set_count),
};
static const struct cli_option opt_sweep = {
	.name = "sweep", .value = "KEY=A..B",
	.help = "runs the scenario at points from A to B of one key, e.g.\n"
	        "effect.burning.add=0.1%..10% (results/scenario-NAME-KEY.csv);\n"
	        "KEY=V1,V2,...: at each value of a list, e.g.\n"
	        "component.Hit.storage=table,sparse (markings compared)",
	.read = cli_read_text, .field = offsetof(struct options, sweep),
};
static const struct cli_option opt_points = {
	.name = "points", .value = "N", .help = "points of a sweep from A to B",
	.read = cli_read_text, .show = show_points,
	.def = &(const union cli_value){.number = DEFAULT_POINTS},
	.field = offsetof(struct options, sweep_points), .lo = 2, .hi = MAX_POINTS,
};
static const struct cli_option opt_spacing = {
	.name = "spacing", .value = "S",
	.help = "geometric (default when A > 0: equal ratios, one scale for\n"
	        "rates and counts that span decades) or linear",
	.read = cli_read_text, .field = offsetof(struct options, sweep_spacing),
};
static const struct cli_option opt_unmarked = {
	.name = "unmarked", .value = "B,...",
	.help = "each backend B also runs as B-unmarked: every component\n"
	        "given to it as a table type (the file's storage = sparse\n"
	        "set aside), at every point, paired with B",
	.read = cli_read_text, .field = offsetof(struct options, unmarked),
};
static const struct cli_option opt_design = {
	.name = "design", .value = "'B[:NAME] KEY=VALUE ...'",
	.help = "backend B as a participant of its own\n"
	        "(B:NAME), the file's markings changed by the KEYs (each a\n"
	        "component's storage, a system's group, a kind's or effect's\n"
	        "batch), paired with the rest (repeatable; without --backends\n"
	        "the designs are the only backends)",
	.read = cli_read_texts, .field = offsetof(struct options, designs),
	.count = offsetof(struct options, design_count),
};

static const struct cli_take scenario_takes[] = {
	{.option = &opt_scenario, .chooses = true},
	{.option = &scenario_opt_set, .chooses = true},
	{.option = &opt_sweep, .chooses = true},
	{.option = &opt_points, .chooses = true},
	{.option = &opt_spacing, .chooses = true},
	{.option = &opt_unmarked, .chooses = true},
	{.option = &opt_design, .chooses = true},
	{.option = &cli_opt_backends, .shown = "all, or the designs alone"},
	{.option = &cli_opt_processes},
	{.option = &cli_opt_output, .shown = "results/scenario-NAME.csv"},
	{.option = &cli_opt_no_floor},
	{.group = cli_measuring_takes},
	{.option = &cli_opt_provisional},
	{0},
};

static const struct cli_refusal scenario_refusals[] = {
	{.name = "workloads", .why = "a scenario is the workload"},
	{.name = "profile", .why = "the scenario's [component] sections are its types"},
	{.name = "entities", .why = "use --set kind.NAME.count=N or --set scenario.scale=F"},
	{.name = "components", .why = "a kind's components are in the file"},
	{.name = "systems", .why = "the systems are the file's [system] sections"},
	{.name = "reps", .why = "the timed samples are its frames: --set scenario.frames=N"},
	{.name = "warmup", .why = "the warm-up is its warmup frames: --set scenario.warmup=N"},
	{.name = "inner", .why = "a sample is one frame"},
	{.name = "component-size", .why = "use --set component.NAME.size=B"},
	{.name = "scale", .why = "use --set scenario.scale=F"},
	{.name = "seed", .why = "its decisions follow the file's seed: --set scenario.seed=S"},
	{.name = "history", .why = "a scenario's storage lives through its own frames"},
	{.name = "threads", .why = "its parallel systems run on --set scenario.threads=T; --sweep "
	            "scenario.threads=1..T compares T"},
	{.name = "twin", .says = "is for the workloads, not a scenario run"},
	{.name = "floor-alone", .says = "is for the workloads, not a scenario run"},
	{.name = "budget", .says = "is the advisor's (--advise FILE)"},
	{0},
};

static const struct cli_kind scenario_cli = {
	.noun = "a scenario run",
	.heading = "A scenario run (scenarios/README.md): ns per frame of a game's frame, by phase,\n"
	           "per backend, beside the floor (plain arrays) and the harness alone:",
	.also = "With --scenario, also:",
	.note = "  The workload options are refused. Systems marked parallel run on\n"
	        "  --set scenario.threads=T (default: all the CPUs), not --threads.",
	.takes = scenario_takes,
	.refusals = scenario_refusals,
};

const struct run_kind scenario_run_kind = {
	.cli = &scenario_cli,
	.options = scenario_options,
	.plan_make = scenario_plan_make,
	.report_write = scenario_report_write,
};
