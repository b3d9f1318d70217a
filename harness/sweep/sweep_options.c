/*
 * sweep_options.c: the workload sweep's options (cli.h: struct cli_kind): what it takes, each
 * with its default as a value (every backend and workload, N = 2^10..2^20, k = 1..3, T up to the
 * CPUs, the lived-in history, the race's processes and rounds), its part of --help, and the
 * readers of the options that are its alone (the workloads, N, k, T, the histories, the profile,
 * --twin). What they mean together is sweep_run.c's to check (sweep_options there).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli.h"
#include "history.h"
#include "sweep_columns.h"
#include "sweep_run.h"
#include "world.h"

static const char *backend_name_at(size_t i) { return ecs_backends[i]->name; }
static const char *profile_name_at(size_t i) { return profiles[i].name; }
static const char *workload_name_at(size_t i) { return workloads[i]->name; }
static const char *history_name_at(size_t i) { return histories[i].name; }

/* Whether the comma list has the item. */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* --- --workloads, --history, --profile --------------------------------------------------------- */

static void add_workload(struct options *o, const char *name)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < workload_count; i++)
			add_workload(o, workloads[i]->name);
		return;
	}
	const struct workload *w =
	    workloads[cli_name_index("workload", name, workload_name_at, workload_count, true)];
	cli_list_add(o->workloads, &o->workload_count, &w, sizeof w, "workload", "workloads", name);
}

static void read_workloads(struct options *o, const struct cli_option *opt, const char *text)
{
	cli_read_list(o, opt, text);
	o->workloads_named = !list_has(text, "all");
}

/* The default: every workload (v->entry NULL), none of them named. */
static void set_workloads(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt, (void)v;
	add_workload(o, "all");
}

static void add_history(struct options *o, const char *name)
{
	const struct history *h =
	    &histories[cli_name_index("history", name, history_name_at, history_count, false)];
	cli_list_add(o->histories, &o->history_count, &h, sizeof h, "history", "histories", name);
}

static void set_history(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	o->histories[0] = v->entry;
	o->history_count = 1;
}

static void show_history(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%s", ((const struct history *)v->entry)->name);
}

static void read_profile(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	if (!(o->profile = profile_find(text))) {
		const struct profile *near = profile_find_nocase(text);
		options_usage_error("unknown profile '%s'%s%s%s (valid: %s)", text,
		                    near ? ": did you mean " : "", near ? near->name : "",
		                    near ? "?" : "", cli_valid_names(profile_name_at, profile_count));
	}
}

static void set_profile(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	o->profile = v->entry;
}

static void show_profile(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%s", ((const struct profile *)v->entry)->name);
}

/* --- --entities, --components, --threads -------------------------------------------------------- */

/*
 * A count as cli_number reads it, or with a suffix k (x 1024) or M (x 1048576), as every axis
 * and title writes entity counts (64k, 1M): 64k is 65536. The number before a suffix is whole.
 */
static uint64_t parse_count(const char *what, const char *text, uint64_t lo, uint64_t hi)
{
	size_t len = strlen(text);
	char last = len ? text[len - 1] : '\0';
	uint64_t unit = last == 'k' || last == 'K' ? 1024 : last == 'M' ? 1048576 : 1;
	if (unit == 1)
		return cli_number(what, text, lo, hi);
	const char *p = text;
	while (*p == ' ')
		p++;
	if (*p == '-')
		options_usage_error("%s '%s' is negative (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo, hi);
	size_t digits = strspn(p, "0123456789");
	if (digits == 0 || p + digits != text + len - 1)
		options_usage_error("%s '%s' is not a number (valid: %" PRIu64 "..%" PRIu64 ", or a whole number "
		                    "of k = 1024 or M = 1048576: 64k, 1M)",
		                    what, text, lo, hi);
	errno = 0;
	unsigned long long v = strtoull(p, NULL, 10);
	if (errno == ERANGE || v > hi / unit || v * unit < lo)
		options_usage_error("%s '%s' is out of range (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		                    hi);
	return v * unit;
}

/* A count (of entities, of threads: the noun) into a list that must not have it yet; item is
 * where the command line gave it. */
static void add_count(uint32_t *list, size_t *count, const char *noun, uint32_t n, const char *item)
{
	for (size_t i = 0; i < *count; i++)
		if (list[i] == n)
			options_usage_error("%s count %u is listed twice (in '%s')", noun, n, item);
	if (*count == MAX_LIST)
		options_usage_error("too many %s counts (at most %d)", noun, MAX_LIST);
	list[(*count)++] = n;
}

/* N, or A..B: A and its doublings up to B, each 1..max (parse reads one), into the list. */
static void add_doublings(uint32_t *list, size_t *count, const char *noun, const char *item,
                          uint64_t max, uint64_t (*parse)(const char *, const char *, uint64_t, uint64_t))
{
	uint64_t a, b;
	cli_doublings(noun, item, max, parse, &a, &b);
	for (uint64_t n = a; n <= b; n *= 2)
		add_count(list, count, noun, (uint32_t)n, item);
}

/* N, or A..B (1024..1048576, or 1k..1M, is every power of two from 2^10 to 2^20). */
static void add_entities(struct options *o, const char *item)
{
	add_doublings(o->entities, &o->entity_count, "entity", item, ECS_MAX_ENTITIES, parse_count);
}

static void set_entities(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	for (uint64_t n = v->doublings.from; n <= v->doublings.to; n *= 2)
		add_count(o->entities, &o->entity_count, "entity", (uint32_t)n, "the default");
}

/* "1024..1048576 = 1k..1M = 2^10..2^20" */
static void show_entities(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	uint32_t a = v->doublings.from, b = v->doublings.to;
	int len = snprintf(buf, size, "%u..%u", a, b);
	if (len < 0 || (size_t)len >= size || a % 1024 || b % 1024 || (a & (a - 1)) || (b & (b - 1)))
		return;
	snprintf(buf + len, size - (size_t)len, " = %u%s..%u%s = 2^%d..2^%d",
	         a >= 1048576 ? a / 1048576 : a / 1024, a >= 1048576 ? "M" : "k",
	         b >= 1048576 ? b / 1048576 : b / 1024, b >= 1048576 ? "M" : "k", __builtin_ctz(a),
	         __builtin_ctz(b));
}

static void add_components(struct options *o, const char *item)
{
	uint32_t k = (uint32_t)cli_number("component count", item, 1, COMP_MAX_K);
	for (size_t i = 0; i < o->component_count; i++)
		if (o->components[i] == k)
			options_usage_error("component count %u is listed twice", k);
	o->components[o->component_count++] = k;
}

static void set_components(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	for (uint32_t i = 0; i < v->counts.n; i++)
		o->components[o->component_count++] = v->counts.at[i];
}

/* "1,2,3" */
static void show_counts(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	size_t len = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < v->counts.n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%u", i ? "," : "", v->counts.at[i]);
}

/* T, or A..B: each at most the CPUs this process may run on (a thread per CPU: more would
 * measure the scheduler). */
static void add_threads(struct options *o, const char *item)
{
	add_doublings(o->threads, &o->thread_count, "thread", item, cli_cpus_usable(), cli_number);
}

/* From, its doublings below the CPUs this process may run on, and the CPUs themselves
 * (v->doublings.to 0: the CPUs). */
static void set_threads(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	uint32_t most = cli_cpus_usable();
	for (uint32_t t = v->doublings.from; t < most && o->thread_count < MAX_LIST - 1; t *= 2)
		o->threads[o->thread_count++] = t;
	o->threads[o->thread_count++] = most;
}

static void show_threads(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%u, %u, %u, ... up to the CPUs, and the CPUs; %u here", v->doublings.from,
	         2 * v->doublings.from, 4 * v->doublings.from, cli_cpus_usable());
}

/* --- the numbers, and --twin --------------------------------------------------------------------- */

static void read_scale(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE)
		options_usage_error("scale '%s' is not a number (valid: 0.001..100)", text);
	if (!(v >= 0.001 && v <= 100))
		options_usage_error("scale '%s' is out of range (valid: 0.001..100)", text);
	o->scale = v;
}

static void set_scale(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	o->scale = v->real;
}

static void show_real(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%g", v->real);
}

/* --inner's 0: calibrated (pass.c) */
static void show_inner(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt, (void)v;
	snprintf(buf, size, "calibrated for each, so that its samples last about %.0f ms",
	         SAMPLE_TARGET_NS / 1e6);
}

/*
 * --twin BACKEND: one more copy of the backend, after the listed ones, named BACKEND~2 (then ~3,
 * ...). Copies of one storage are equal by construction, so every difference a run calls
 * between them is a false one: the A/A test of the statistics (docs/method.md). --twin
 * BACKEND:FACTOR: a copy named BACKEND~xFACTOR made FACTOR times slower (options.h: slowdown):
 * a difference made on purpose, which the run must find.
 */
void sweep_add_twin(struct options *o, const char *spec)
{
	char name[40];
	const char *colon = strchr(spec, ':');
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
	const struct ecs_ops *b =
	    ecs_backends[cli_name_index("backend", name, backend_name_at, ecs_backend_count, false)];
	if (o->backend_count == MAX_LIST)
		options_usage_error("too many backends (at most %d)", MAX_LIST);
	double factor = 1;
	if (colon) {
		char *end;
		factor = strtod(colon + 1, &end);
		if (end == colon + 1 || *end || !(factor >= 1 && factor <= 10))
			options_usage_error("--twin '%s': the factor after ':' is a number from 1 to 10", spec);
	}
	unsigned copies = 1;
	for (size_t i = 0; i < o->backend_count; i++)
		copies += o->backends[i] == b;
	if (factor > 1)
		snprintf(o->copy_name[o->backend_count], sizeof o->copy_name[0], "%s~x%g", b->name, factor);
	else
		snprintf(o->copy_name[o->backend_count], sizeof o->copy_name[0], "%s~%u", b->name, copies);
	o->slowdown[o->backend_count] = factor;
	o->backends[o->backend_count++] = b;
}

/* --- the options, and the sweep's table ---------------------------------------------------------- */

#define NUMBER(v) (&(const union cli_value){.number = (v)})

static const struct cli_option opt_workloads = {
	.name = "workloads", .value = "LIST", .help = "comma list, or all",
	.read = read_workloads, .item = add_workload, .set = set_workloads, .show = cli_show_every,
	.what = "workload", .count = offsetof(struct options, workload_count),
};
static const struct cli_option opt_profile = {
	.name = "profile", .value = "P", .help = "A, AA or AAA",
	.read = read_profile, .set = set_profile, .show = show_profile,
	.def = &(const union cli_value){.entry = &profiles[0]}, /* A */
};
static const struct cli_option opt_entities = {
	.name = "entities", .value = "LIST",
	.help = "comma list of counts, k = 1024 and M = 1048576 as the\n"
	        "figures write them (64k, 1M); A..B is A and its\n"
	        "doublings up to B",
	.read = cli_read_list, .item = add_entities, .set = set_entities, .show = show_entities,
	.what = "entity", .count = offsetof(struct options, entity_count), .lo = 1,
	.hi = ECS_MAX_ENTITIES,
};
static const struct cli_option opt_components = {
	.name = "components", .value = "LIST", .help = "components per entity, a comma list",
	.read = cli_read_list, .item = add_components, .set = set_components, .show = show_counts,
	.what = "component", .count = offsetof(struct options, component_count), .lo = 1,
	.hi = COMP_MAX_K,
};
static const struct cli_option opt_history = {
	.name = "history", .value = "LIST",
	.help = "what each storage goes through before the clock: lived-in,\n"
	        "pristine, aged, one-hole, alternating; --list says what",
	.read = cli_read_list, .item = add_history, .set = set_history, .show = show_history,
	.what = "history", .count = offsetof(struct options, history_count),
};
static const struct cli_option opt_threads = {
	.name = "threads", .value = "LIST",
	.help = "threads of parallel-iterate's pass, each 1..the CPUs this\n"
	        "process may run on; A..B is A and its doublings up to B",
	.read = cli_read_list, .item = add_threads, .set = set_threads, .show = show_threads,
	.what = "thread", .count = offsetof(struct options, thread_count),
};
static const struct cli_option opt_systems = {
	.name = "systems", .value = "S",
	.help = "systems registered, 6..the profile's: the game's five over\n"
	        "Position, an empty one, then the rest",
	.read = cli_read_text, .field = offsetof(struct options, systems_text),
};
static const struct cli_option opt_warmup = {
	.name = "warmup", .value = "W", .help = "untimed samples first in each process",
	.read = cli_read_u32, .set = cli_set_u32, .show = cli_show_number, .def = NUMBER(DEFAULT_WARMUP),
	.field = offsetof(struct options, warmup), .what = "warm-up count", .lo = 0, .hi = 100,
};
static const struct cli_option opt_inner = {
	.name = "inner", .value = "I",
	.help = "runs of the workload per sample, the same for every\n"
	        "participant",
	.read = cli_read_u32, .set = cli_set_u32, .show = show_inner, .def = NUMBER(0),
	.field = offsetof(struct options, inner), .what = "inner count", .lo = 1, .hi = MAX_INNER,
};
static const struct cli_option opt_component_size = {
	.name = "component-size", .value = "B", .help = "bytes of Position and Velocity",
	.read = cli_read_u32, .set = cli_set_u32, .show = cli_show_number,
	.def = NUMBER(sizeof(struct position)), .field = offsetof(struct options, component_size),
	.what = "component size", .lo = sizeof(struct position), .hi = ECS_MAX_COMPONENT_SIZE,
};
static const struct cli_option opt_scale = {
	.name = "scale", .value = "F",
	.help = "multiplies the entity counts of the workloads that are not\n"
	        "swept over N (Varkor's), 0.001..100",
	.read = read_scale, .set = set_scale, .show = show_real,
	.def = &(const union cli_value){.real = 1.0},
};
static const struct cli_option opt_seed = {
	.name = "seed", .value = "S", .help = "seed of the component values and decisions",
	.read = cli_read_u64, .set = cli_set_u64, .show = cli_show_number, .def = NUMBER(1),
	.field = offsetof(struct options, seed), .what = "seed", .lo = 0, .hi = UINT64_MAX,
};
/* Test-only (docs/method.md, the A/A test); not in --help. */
static const struct cli_option opt_twin = {
	.name = "twin", .value = "BACKEND[:FACTOR]", .read = cli_read_texts,
	.field = offsetof(struct options, twins), .count = offsetof(struct options, twin_count),
};
/* scripts/cachegrind.sh's; not in --help. */
static const struct cli_option opt_floor_alone = {
	.name = "floor-alone", .read = cli_read_flag, .field = offsetof(struct options, floor_alone),
};

/* In --help's order. The race's defaults (race.h, docs/method.md "The race"): up to
 * SWEEP_PROCESSES processes a row group, up to SWEEP_ROUNDS timed rounds a process, within
 * SWEEP_BUDGET_S. */
static const struct cli_take sweep_takes[] = {
	{.option = &cli_opt_backends, .def = &(const union cli_value){.entry = NULL}},
	{.option = &opt_workloads, .def = &(const union cli_value){.entry = NULL}},
	{.option = &opt_profile},
	{.option = &opt_entities, .def = &(const union cli_value){.doublings = {1024, 1048576}}},
	{.option = &opt_components, .def = &(const union cli_value){.counts = {3, {1, 2, 3}}}},
	/* histories[0]: lived-in (HISTORY_DEFAULT), every headline figure's */
	{.option = &opt_history, .def = &(const union cli_value){.entry = &histories[0]}},
	{.option = &opt_threads, .def = &(const union cli_value){.doublings = {1, 0}}},
	{.option = &opt_systems, .shown = "the profile's"},
	{.option = &cli_opt_processes, .def = NUMBER(SWEEP_PROCESSES),
	 .help = "separate processes that measure a row, at most: the race\n"
	         "stops measuring a row once it is decided (docs/method.md);\n"
	         "1 measures in this process"},
	{.option = &cli_opt_reps, .def = NUMBER(SWEEP_ROUNDS),
	 .help = "timed samples per row in each process: given, every process\n"
	         "takes that many; else the race chooses, 3 in the first\n"
	         "process, then as many as cost about the row's build, at most"},
	{.option = &opt_warmup},
	{.option = &opt_inner},
	{.option = &cli_opt_budget, .def = &(const union cli_value){.real = SWEEP_BUDGET_S},
	 .help = "the measuring time, e.g. 600, 90s, 10m, 1h: the answer's\n"
	         "open rows are measured first, and the run stops when the\n"
	         "next process does not fit; the first measures every row"},
	{.option = &cli_opt_no_floor},
	{.option = &cli_opt_malloc_default},
	{.option = &cli_opt_layout},
	{.option = &cli_opt_clock},
	{.option = &cli_opt_trace_samples},
	{.option = &opt_component_size},
	{.option = &opt_scale},
	{.option = &opt_seed},
	{.option = &cli_opt_output, .shown = "results/<profile>.csv"},
	{.option = &cli_opt_format},
	{.option = &cli_opt_derived},
	{.option = &cli_opt_provisional},
	{.option = &cli_opt_no_pin},
	{.option = &opt_twin},
	{.option = &opt_floor_alone},
	{0},
};

const struct cli_kind sweep_cli = {
	.noun = "the workload sweep",
	.why = "a scenario run's: --scenario FILE; the advisor's: --advise FILE",
	.heading = "Runs ECS storage backends over workloads and writes one CSV row per\n"
	           "backend x workload x entities x components, with a 95% confidence interval\n"
	           "of each median measured across separate processes.\n",
	.takes = sweep_takes,
};

/* --- --list's names ------------------------------------------------------------------------------ */

static size_t workloads_count(void) { return workload_count; }
static size_t histories_count(void) { return history_count; }
/* --list's line: the timed region, and for a workload left out of "all" how it is run. */
static const char *workload_about_at(size_t i)
{
	static char line[400];
	if (!workloads[i]->named_only)
		return workloads[i]->timed;
	snprintf(line, sizeof line, "%s [not in all: name it, or make small]", workloads[i]->timed);
	return line;
}
static const char *history_about_at(size_t i) { return histories[i].description; }

const struct cli_names sweep_workload_names = {
	.count = workloads_count,
	.name_at = workload_name_at,
	.about_at = workload_about_at,
};
const struct cli_names sweep_history_names = {
	.count = histories_count,
	.name_at = history_name_at,
	.about_at = history_about_at,
};

static size_t columns_count(void) { return SWEEP_COLUMNS; }
static const char *column_name_at(size_t i) { return sweep_columns[i].name; }
static const char *column_about_at(size_t i) { return sweep_columns[i].meaning; }
const struct cli_names sweep_column_names = {
	.count = columns_count,
	.name_at = column_name_at,
	.about_at = column_about_at,
};
