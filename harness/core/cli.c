/*
 * cli.c: build/ecsbench's command line (see cli.h): getopt_long's table, --help and the check
 * that each option given goes with the kind of run asked for, all made from the kinds' tables
 * (struct cli_kind); the options more than one kind takes (the backends, the processes, the
 * output, ...) and the readers they share; --list. What an option means to a kind, and what
 * options mean together, is for the kind to say (sweep_options.c, scenario_run.c, advise_run.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "parallel.h"
#include "run_kind.h"

/* The most distinct options of all kinds together (getopt_long's table is made of them). */
#define CLI_MAX_OPTIONS MAX_OPTIONS
/* getopt_long's code of the i-th option: beyond any character, so that none is taken for '?'. */
#define CLI_CODE_FIRST 256
/* --help's column for an option's text, and the width of its name before it. */
#define HELP_NAME_WIDTH 18
#define HELP_INDENT "                     "
#define HELP_LINE 86

uint32_t cli_cpus_usable(void)
{
	struct cpu_list cpus;
	uint32_t n = parallel_cpus_allowed(&cpus);
	return n ? n : 1;
}

const char *cli_valid_names(const char *(*name_at)(size_t), size_t n)
{
	static char buf[1024];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", name_at(i));
	return buf;
}

size_t cli_name_index(const char *noun, const char *name, const char *(*name_at)(size_t), size_t n,
                      bool all)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name_at(i), name) == 0)
			return i;
	options_usage_error("unknown %s '%s' (valid: %s%s)", noun, name, cli_valid_names(name_at, n),
	                    all ? ", all" : "");
}

/* Equal entries have equal bytes: the lists hold pointers into a table, or counts. */
void cli_list_add(void *list, size_t *count, const void *entry, size_t size, const char *noun,
                  const char *plural, const char *name)
{
	for (size_t i = 0; i < *count; i++)
		if (memcmp((const char *)list + i * size, entry, size) == 0)
			options_usage_error("%s '%s' is listed twice", noun, name);
	if (*count == MAX_LIST)
		options_usage_error("too many %s (at most %d)", plural, MAX_LIST);
	memcpy((char *)list + (*count)++ * size, entry, size);
}

/*
 * Splits a comma list; calls item() on each piece, without the spaces around it ("hash,
 * vector" is hash and vector). An empty piece ("hash,,vector", a leading or trailing comma) is
 * refused, naming the list: it is a typo, never a way to say something.
 */
void cli_each_item(const char *what, const char *arg, void (*item)(struct options *, const char *),
                   struct options *o)
{
	if (!*arg)
		options_usage_error("empty %s list", what);
	char *copy = strdup(arg);
	if (!copy)
		options_usage_error("out of memory");
	size_t position = 1;
	for (char *p = copy;; position++) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		for (char *end = p + strlen(p); end > p && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		if (!*p)
			options_usage_error("%s list '%s' has an empty item (item %zu)", what, arg, position);
		item(o, p);
		if (!comma)
			break;
		p = comma + 1;
	}
	free(copy);
}

double cli_duration(const char *option, const char *text, double lo_s, double hi_s)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	double unit = 1;
	if (end != text && (*end == 's' || *end == 'm' || *end == 'h') && !end[1]) {
		unit = *end == 'm' ? 60 : *end == 'h' ? 3600 : 1;
		end++;
	}
	if (end == text || *end || errno || !(v * unit >= lo_s) || v * unit > hi_s ||
	    text[0] < '0' || text[0] > '9')
		options_usage_error("%s '%s' is not a time from %.0f s to %.0f %s (600, 90s, 10m, 1h)",
		                    option, text, lo_s, hi_s >= 86400 ? hi_s / 86400 : hi_s / 60,
		                    hi_s >= 86400 ? "days" : "min");
	return v * unit;
}

uint64_t cli_number(const char *what, const char *text, uint64_t lo, uint64_t hi)
{
	const char *p = text;
	while (*p == ' ')
		p++;
	if (*p == '-')
		options_usage_error("%s '%s' is negative (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo, hi);
	if (*p < '0' || *p > '9')
		options_usage_error("%s '%s' is not a number (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		                    hi);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (*end != '\0')
		options_usage_error("%s '%s' is not a number (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		                    hi);
	if (errno == ERANGE || v < lo || v > hi)
		options_usage_error("%s '%s' is out of range (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		                    hi);
	return v;
}


void cli_doublings(const char *noun, const char *item, uint64_t max,
                   uint64_t (*parse)(const char *, const char *, uint64_t, uint64_t),
                   uint64_t *from, uint64_t *to)
{
	char what[32];
	snprintf(what, sizeof what, "%s count", noun);
	const char *dots = strstr(item, "..");
	if (!dots) {
		*from = *to = parse(what, item, 1, max);
		return;
	}
	char first[32];
	size_t len = (size_t)(dots - item);
	if (len >= sizeof first)
		options_usage_error("%s '%s' is not a number or a range A..B", what, item);
	memcpy(first, item, len);
	first[len] = '\0';
	*from = parse(what, first, 1, max);
	*to = parse(what, dots + 2, 1, max);
	if (*from > *to)
		options_usage_error("%s range '%s' is empty (A..B needs A <= B)", noun, item);
}

/* --- the shared readers and writers (cli.h) ---------------------------------------------------- */

#define FIELD(o, opt, type) ((type *)(void *)((char *)(o) + (opt)->field))

void cli_read_flag(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)text;
	*FIELD(o, opt, bool) = true;
}

void cli_read_u32(struct options *o, const struct cli_option *opt, const char *text)
{
	*FIELD(o, opt, uint32_t) = (uint32_t)cli_number(opt->what, text, opt->lo, opt->hi);
}

void cli_read_u64(struct options *o, const struct cli_option *opt, const char *text)
{
	*FIELD(o, opt, uint64_t) = cli_number(opt->what, text, opt->lo, opt->hi);
}

void cli_read_text(struct options *o, const struct cli_option *opt, const char *text)
{
	*FIELD(o, opt, const char *) = text;
}

void cli_read_list(struct options *o, const struct cli_option *opt, const char *text)
{
	*(size_t *)(void *)((char *)o + opt->count) = 0;
	cli_each_item(opt->what, text, opt->item, o);
}

void cli_read_texts(struct options *o, const struct cli_option *opt, const char *text)
{
	size_t *count = (size_t *)(void *)((char *)o + opt->count);
	if (*count == MAX_LIST)
		options_usage_error("too many --%s options (at most %d)", opt->name, MAX_LIST);
	FIELD(o, opt, const char *)[(*count)++] = text;
}

void cli_set_u32(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	*FIELD(o, opt, uint32_t) = (uint32_t)v->number;
}

void cli_set_u64(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	*FIELD(o, opt, uint64_t) = v->number;
}

void cli_show_number(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	snprintf(buf, size, "%" PRIu64, v->number);
}

/* --- the options more than one kind takes -------------------------------------------------------- */

static const char *backend_name_at(size_t i) { return ecs_backends[i]->name; }

static void add_backend(struct options *o, const char *name)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < ecs_backend_count; i++)
			add_backend(o, ecs_backends[i]->name);
		return;
	}
	const struct ecs_ops *b =
	    ecs_backends[cli_name_index("backend", name, backend_name_at, ecs_backend_count, true)];
	cli_list_add(o->backends, &o->backend_count, &b, sizeof b, "backend", "backends", name);
}

/* The default: every backend (v->entry NULL). */
static void set_backends(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt, (void)v;
	add_backend(o, "all");
}

void cli_show_every(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt, (void)v;
	snprintf(buf, size, "all");
}

static void read_output(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	if (!*text)
		options_usage_error("empty output path");
	o->output = text;
}

static void read_derived(struct options *o, const struct cli_option *opt, const char *text)
{
	const char *eq = strrchr(text, '=');
	if (!eq || eq == text || !eq[1] || eq[1] == '/' || strstr(eq + 1, ".."))
		options_usage_error("--derived '%s' is not PATH=NAME (NAME a relative name in the "
		                    "previous result's folder)", text);
	cli_read_texts(o, opt, text);
}

static void read_provisional(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	if (!*text)
		options_usage_error("--provisional: an empty command");
	o->provisional = text;
}

/* One of two words, into a bool: the first false, the second true. */
static bool read_choice(const char *what, const char *text, const char *no, const char *yes)
{
	if (strcmp(text, no) != 0 && strcmp(text, yes) != 0)
		options_usage_error("unknown %s '%s' (valid: %s, %s)", what, text, no, yes);
	return strcmp(text, yes) == 0;
}

static void read_clock(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	o->wall_clock = read_choice("clock", text, "cpu", "wall");
}

static void read_layout(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	o->layout = read_choice("layout", text, "random", "fixed") ? LAYOUT_FIXED : LAYOUT_RANDOM;
}

static void read_format(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)opt;
	o->format_json = read_choice("format", text, "csv", "json");
}

#define NUMBER(v) (&(const union cli_value){.number = (v)})

const struct cli_option cli_opt_backends = {
	.name = "backends", .value = "LIST", .help = "comma list, or all",
	.read = cli_read_list, .item = add_backend, .set = set_backends, .show = cli_show_every,
	.what = "backend", .count = offsetof(struct options, backend_count),
};
const struct cli_option cli_opt_processes = {
	.name = "processes", .value = "P",
	.help = "separate processes that measure every row, spread over the\n"
	        "run; 1 measures in this process",
	.read = cli_read_u32, .set = cli_set_u32, .show = cli_show_number,
	.def = NUMBER(DEFAULT_PROCESSES),
	.field = offsetof(struct options, processes), .what = "process count",
	.lo = 1, .hi = MAX_PROCESSES,
};
const struct cli_option cli_opt_reps = {
	.name = "reps", .value = "R", .help = "timed samples per row in each process",
	.read = cli_read_u32, .set = cli_set_u32, .show = cli_show_number, .def = NUMBER(DEFAULT_REPS),
	.field = offsetof(struct options, reps), .what = "repetition count", .lo = 1, .hi = 1000,
};
const struct cli_option cli_opt_no_floor = {
	.name = "no-floor", .help = "no floor row (the same work over plain arrays)",
	.read = cli_read_flag, .field = offsetof(struct options, no_floor),
};
const struct cli_option cli_opt_malloc_default = {
	.name = "malloc-default", .help = "leave glibc malloc's mmap and trim thresholds as they are",
	.read = cli_read_flag, .field = offsetof(struct options, malloc_default),
};
const struct cli_option cli_opt_layout = {
	.name = "layout", .value = "MODE",
	.help = "random (default): each process gets a fresh address-space\n"
	        "layout, a random heap offset and stack padding; fixed:\n"
	        "no randomisation at all (to measure what layout does)",
	.read = read_layout,
};
const struct cli_option cli_opt_clock = {
	.name = "clock", .value = "C",
	.help = "cpu (default): a sample is the measuring thread's CPU time,\n"
	        "so time another process took the CPU away is not counted;\n"
	        "wall: elapsed time (off_cpu_pct says how far they differ)",
	.read = read_clock,
};
const struct cli_option cli_opt_trace_samples = {
	.name = "trace-samples",
	.help = "a line per sample on stderr: wall and CPU time, page faults,\n"
	        "context switches, the CPU, the time (docs/variation.md)",
	.read = cli_read_flag, .field = offsetof(struct options, trace_samples),
};
const struct cli_option cli_opt_output = {
	.name = "output", .value = "PATH",
	.help = "CSV to write: a regular file or a new one in a writable\n"
	        "folder; - is standard output. A previous PATH is never\n"
	        "replaced: it and its samples are moved to previous/DATE-NAME/\n"
	        "beside it (DATE: when it was written). PATH.lock, held for\n"
	        "the run, refuses a second run",
	.read = read_output,
};
const struct cli_option cli_opt_format = {
	.name = "format", .value = "F",
	.help = "csv (default), or json: also google benchmark's JSON\n"
	        "beside the CSV (PATH.json: a sample each, the medians; its\n"
	        "compare.py reads it); not with --output -",
	.read = read_format,
};
const struct cli_option cli_opt_derived = {
	.name = "derived", .value = "PATH=NAME",
	.help = "a file or folder made from the previous output (figures, a\n"
	        "table): goes with it into its previous/ folder as NAME\n"
	        "(make bench names its figures and table; repeatable)",
	.read = read_derived, .field = offsetof(struct options, derived),
	.count = offsetof(struct options, derived_count),
};
const struct cli_option cli_opt_provisional = {
	.name = "provisional", .value = "CMD",
	.help = "after each process but the last, write the rows so far to\n"
	        "NAME-provisional-now.csv (the first: NAME-provisional.csv,\n"
	        "kept) and run the shell command CMD FIRST NOW (make bench\n"
	        "shows the answer so far: scripts/answer.sh)",
	.read = read_provisional,
};
const struct cli_option cli_opt_no_pin = {
	.name = "no-pin", .help = "do not pin the measuring process to one CPU",
	.read = cli_read_flag, .field = offsetof(struct options, no_pin),
};
/* A kind's default budget, in seconds. */
static void set_seconds(struct options *o, const struct cli_option *opt, const union cli_value *v)
{
	(void)opt;
	o->budget_s = v->real;
}

/* As --budget is written: 10m, 1h, 270s. */
static void show_seconds(const struct cli_option *opt, const union cli_value *v, char *buf, size_t size)
{
	(void)opt;
	double s = v->real;
	if (s >= 3600 && s == 3600 * (uint64_t)(s / 3600))
		snprintf(buf, size, "%gh", s / 3600);
	else if (s >= 60 && s == 60 * (uint64_t)(s / 60))
		snprintf(buf, size, "%gm", s / 60);
	else
		snprintf(buf, size, "%gs", s);
}

/* A time, as given: each kind that takes it reads it with its own range (cli_duration) into
 * budget_s, where its default is. */
const struct cli_option cli_opt_budget = {
	.name = "budget", .value = "T", .help = "the run's time, e.g. 600, 90s, 10m, 1h",
	.read = cli_read_text, .set = set_seconds, .show = show_seconds,
	.field = offsetof(struct options, budget),
};

const struct cli_take cli_measuring_takes[] = {
	{.option = &cli_opt_no_pin},
	{.option = &cli_opt_layout},
	{.option = &cli_opt_malloc_default},
	{.option = &cli_opt_clock},
	{.option = &cli_opt_trace_samples},
	{.option = &cli_opt_format},
	{.option = &cli_opt_derived},
	{0},
};

/* --- the options of every kind: --help, --list and the driver's own ----------------------------- */

static void read_nothing(struct options *o, const struct cli_option *opt, const char *text)
{
	(void)o, (void)opt, (void)text;
}

static void read_child_pass(struct options *o, const struct cli_option *opt, const char *text)
{
	o->child_pass = (int)cli_number(opt->what, text, opt->lo, opt->hi);
}

static const struct cli_option opt_help = {
	.name = "help", .help = "this text", .read = read_nothing,
};
static const struct cli_option opt_list = {
	.name = "list", .help = "list backends, workloads and profiles, and exit",
	.read = cli_read_flag, .field = offsetof(struct options, list),
};
static const struct cli_option opt_columns = {
	.name = "columns",
	.help = "list the CSV's columns in order, each with its meaning\n"
	        "(docs/csv.md says more), and exit",
	.read = read_nothing,
};
/* The driver's own, for its child processes (driver.c); not in --help. */
static const struct cli_option opt_child_pass = {
	.name = "child-pass", .value = "I", .read = read_child_pass,
	.what = "child pass", .lo = 0, .hi = MAX_PROCESSES,
};
static const struct cli_option opt_child_sampling = {
	.name = "child-sampling", .value = "TEXT", .read = cli_read_text,
	.field = offsetof(struct options, child_inner),
};
static const struct cli_option opt_child_heap_offset = {
	.name = "child-heap-offset", .value = "B", .read = cli_read_u32,
	.field = offsetof(struct options, child_heap_offset), .what = "heap offset", .lo = 0,
	.hi = 1u << 20,
};
static const struct cli_option opt_child_work = {
	.name = "child-work", .value = "TEXT", .read = cli_read_text,
	.field = offsetof(struct options, child_work),
};
static const struct cli_take every_kind[] = {
	{.option = &opt_list},
	{.option = &opt_columns},
	{.option = &opt_help},
	{.option = &opt_child_pass},
	{.option = &opt_child_sampling},
	{.option = &opt_child_heap_offset},
	{.option = &opt_child_work},
	{0},
};

/*
 * The output must be a regular file, or a path that does not exist yet, in a folder we can
 * write: the CSV is written beside it and renamed over it, which would replace a device node
 * (as root, /dev/null itself), a fifo or a socket with a regular file. A symlink is followed
 * to its target, which must be the same. Checked now, before anything runs.
 */
void cli_check_output(struct options *o)
{
	if (strcmp(o->output, "-") == 0) {
		if (o->format_json)
			options_usage_error("--format json writes a file beside the CSV: give --output PATH, "
			                    "not standard output");
		o->to_stdout = true;
		snprintf(o->output_path, sizeof o->output_path, "-");
		return;
	}
	if (strlen(o->output) >= sizeof o->output_path - 64)
		options_usage_error("output path '%s' is too long", o->output);
	snprintf(o->output_path, sizeof o->output_path, "%s", o->output);
	struct stat st;
	if (lstat(o->output, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *target = realpath(o->output, NULL);
		if (!target)
			options_usage_error("output '%s' is a symlink to nothing that exists", o->output);
		if (strlen(target) >= sizeof o->output_path - 64)
			options_usage_error("output path '%s' is too long", target);
		snprintf(o->output_path, sizeof o->output_path, "%s", target);
		free(target);
	}
	if (stat(o->output_path, &st) == 0) {
		const char *kind = S_ISDIR(st.st_mode)   ? "a directory"
		                   : S_ISCHR(st.st_mode)  ? "a character device"
		                   : S_ISBLK(st.st_mode)  ? "a block device"
		                   : S_ISFIFO(st.st_mode) ? "a fifo"
		                   : S_ISSOCK(st.st_mode) ? "a socket"
		                   : S_ISREG(st.st_mode)  ? NULL
		                                          : "not a regular file";
		if (kind)
			options_usage_error("output '%s' is %s, not a regular file", o->output, kind);
	} else if (errno != ENOENT) {
		options_usage_error("cannot write output '%s': %s", o->output, strerror(errno));
	}
	/* The folder: it must exist and be writable (the temporary file goes there). */
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", o->output_path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		options_usage_error("cannot write output '%s': %s", o->output, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		options_usage_error("cannot write output '%s': %s is not a directory", o->output, dir);
	if (access(dir, W_OK) != 0)
		options_usage_error("cannot write output '%s': %s", o->output, strerror(errno));
	/* The committed reference results (results/reference/) are written by `make reference`
	 * alone, which says so in the environment; a user's run never replaces them. */
	char *real_dir = realpath(dir, NULL);
	bool reference = real_dir && strstr(real_dir, "/results/reference") &&
	                 strcmp(strstr(real_dir, "/results/reference"), "/results/reference") == 0;
	free(real_dir);
	const char *allowed = getenv("ECSBENCH_REFERENCE");
	if (reference && !(allowed && strcmp(allowed, "1") == 0))
		options_usage_error("output '%s' is in results/reference/, the committed reference results "
		                    "(make reference writes there)",
		                    o->output);
}

static void list(const struct cli_tables *t)
{
	printf("backends:\n");
	for (size_t i = 0; i < ecs_backend_count; i++)
		printf("  %-10s %s\n", ecs_backends[i]->name, ecs_backends[i]->description);
	printf("workloads (timed region):\n");
	for (size_t i = 0; i < t->workloads->count(); i++)
		printf("  %-24s %s\n", t->workloads->name_at(i), t->workloads->about_at(i));
	printf("histories (--history; lived-in is every headline figure's):\n");
	for (size_t i = 0; i < t->histories->count(); i++)
		printf("  %-24s %s\n", t->histories->name_at(i), t->histories->about_at(i));
	printf("profiles:\n");
	for (size_t i = 0; i < profile_count; i++)
		printf("  %-10s %u component types, %u systems\n", profiles[i].name,
		       profiles[i].component_count, profiles[i].system_count);
}


/* --- the kinds' tables: getopt_long's, --help, the choice of kind, refusals, defaults ---------- */

/* A list of takes in order, a group's (cli_take.group) in its place:
 * for (struct take_walk w = {list}; (t = take_next(&w));) */
struct take_walk {
	const struct cli_take *at;
	const struct cli_take *after; /* in a group: where the list goes on after it */
};

static const struct cli_take *take_next(struct take_walk *w)
{
	while (!w->at->option) {
		if (w->at->group && !w->after) {
			w->after = w->at + 1;
			w->at = w->at->group;
		} else if (w->after && !w->at->group) {
			w->at = w->after;
			w->after = NULL;
		} else {
			assert(!w->at->group); /* a group inside a group */
			return NULL;
		}
	}
	return w->at++;
}

/* Every option of every kind, once: getopt_long's table is made of them, in this order. */
struct cli_all {
	const struct cli_option *at[CLI_MAX_OPTIONS];
	size_t n;
};

static bool all_has(const struct cli_all *all, const struct cli_option *opt)
{
	for (size_t i = 0; i < all->n; i++)
		if (all->at[i] == opt)
			return true;
	return false;
}

/* Two options of one name would make getopt_long's answer depend on the order of the tables: a
 * mistake in a table, said at once by every run. */
static void all_add(struct cli_all *all, const struct cli_take *takes)
{
	struct take_walk w = {takes, NULL};
	for (const struct cli_take *t; (t = take_next(&w));) {
		if (all_has(all, t->option))
			continue;
		for (size_t i = 0; i < all->n; i++)
			if (strcmp(all->at[i]->name, t->option->name) == 0) {
				fprintf(stderr, "ecsbench: two options are named --%s\n", t->option->name);
				abort();
			}
		if (all->n == CLI_MAX_OPTIONS) {
			fprintf(stderr, "ecsbench: more than %d options\n", CLI_MAX_OPTIONS);
			abort();
		}
		all->at[all->n++] = t->option;
	}
}

bool cli_given(const struct options *o, const struct cli_option *opt)
{
	for (size_t i = 0; i < o->given_count; i++)
		if (o->given[i] == opt)
			return true;
	return false;
}

/* How kind k takes opt (every kind takes --help, --list and the driver's own); NULL: it does not. */
static const struct cli_take *kind_take(const struct cli_kind *k, const struct cli_option *opt)
{
	struct take_walk w = {k->takes, NULL}, every = {every_kind, NULL};
	const struct cli_take *t;
	while ((t = take_next(&w)) || (t = take_next(&every)))
		if (t->option == opt)
			return t;
	return NULL;
}

/* "(1..64; default: 32)": an option's range (unless range is false, or it has none worth
 * saying) and the default that take gives it, or "". */
static void help_tail(const struct cli_option *opt, const struct cli_take *t, bool range, char *buf,
                      size_t size)
{
	char shown[160] = "";
	const union cli_value *v = t->def ? t->def : opt->def;
	if (t->shown)
		snprintf(shown, sizeof shown, "%s", t->shown);
	else if (v && opt->show)
		opt->show(opt, v, shown, sizeof shown);
	range = range && opt->hi && opt->hi != UINT64_MAX;
	buf[0] = '\0';
	if (range && shown[0])
		snprintf(buf, size, " (%" PRIu64 "..%" PRIu64 "; default: %s)", opt->lo, opt->hi, shown);
	else if (range)
		snprintf(buf, size, " (%" PRIu64 "..%" PRIu64 ")", opt->lo, opt->hi);
	else if (shown[0])
		snprintf(buf, size, " (default: %s)", shown);
}

/* The last line of an option's text and its tail, wrapped at spaces to --help's width. */
static void help_wrap(const char *line, const char *tail)
{
	const size_t width = HELP_LINE - (sizeof HELP_INDENT - 1);
	if (strlen(line) + strlen(tail) > width && strlen(tail) <= width) {
		printf("%s\n" HELP_INDENT "%s\n", line, tail + 1); /* the tail on a line of its own */
		return;
	}
	char text[400];
	snprintf(text, sizeof text, "%s%s", line, tail);
	char *p = text;
	while (strlen(p) > width) {
		char *cut = p + width;
		while (cut > p && *cut != ' ')
			cut--;
		if (cut == p)
			break;
		printf("%.*s\n" HELP_INDENT, (int)(cut - p), p);
		p = cut + 1;
	}
	printf("%s\n", p);
}

/* An option's lines in --help: its name and value, its text, its range and default. */
static void help_option(const struct cli_option *opt, const struct cli_take *t)
{
	char label[64], tail[240];
	snprintf(label, sizeof label, "--%s%s%s", opt->name, opt->value ? " " : "",
	         opt->value ? opt->value : "");
	help_tail(opt, t, true, tail, sizeof tail);
	if (strlen(label) <= HELP_NAME_WIDTH)
		printf("  %-*s ", HELP_NAME_WIDTH, label);
	else
		printf("  %s  ", label);
	const char *line = t->help ? t->help : opt->help;
	for (const char *end; (end = strchr(line, '\n')); line = end + 1)
		printf("%.*s\n" HELP_INDENT, (int)(end - line), line);
	help_wrap(line, tail);
}

/* "  With --scenario, also: --backends, --processes (default: 5), ...": the options a kind takes
 * that a kind above it has shown, with this kind's default where it has its own. */
static void help_also(const struct cli_kind *k, const struct cli_all *shown)
{
	size_t column = (size_t)printf("  %s", k->also);
	const char *sep = " ";
	struct take_walk w = {k->takes, NULL};
	for (const struct cli_take *t; (t = take_next(&w));) {
		if (!t->option->help || t->help || !all_has(shown, t->option))
			continue;
		char item[240], tail[200];
		help_tail(t->option, t, false, tail, sizeof tail);
		int len = snprintf(item, sizeof item, "%s--%s%s", sep, t->option->name, tail);
		if (column + (size_t)len > HELP_LINE) {
			printf("%s\n ", sep[0] == ',' ? "," : "");
			column = 1;
			len = snprintf(item, sizeof item, " --%s%s", t->option->name, tail);
		}
		column += (size_t)printf("%s", item);
		sep = ", ";
	}
	printf("\n");
}

static void help(const struct run_kind *const *kinds, size_t kind_count)
{
	struct cli_all shown = {.n = 0};
	printf("usage: ecsbench [options]\n");
	for (size_t i = 0; i < kind_count; i++) {
		const struct cli_kind *k = kinds[i]->cli;
		if (i)
			printf("\n");
		if (k->heading)
			printf("%s\n", k->heading);
		struct cli_all before = shown;
		struct take_walk w = {k->takes, NULL};
		for (const struct cli_take *t; (t = take_next(&w));)
			if (t->option->help && (t->help || !all_has(&before, t->option)))
				help_option(t->option, t);
		for (const struct cli_take *t = i ? NULL : every_kind; t && t->option; t++)
			if (t->option->help)
				help_option(t->option, t);
		all_add(&shown, k->takes);
		if (i && k->also)
			help_also(k, &before);
		if (k->note)
			printf("%s\n", k->note);
	}
	printf("\nExit status: 0 ok; 1 a row failed, checksums disagree or a process died;\n"
	       "2 bad usage (nothing run, nothing written).\n");
}

/* The kind of run the options given ask for: of two (--advise with --scenario's options), the
 * later in the table, which refuses the other's with a word of its own (the advisor drives
 * scenario runs); none: the first, the default. */
static const struct run_kind *choose(const struct run_kind *const *kinds, size_t kind_count,
                                     const struct options *o)
{
	for (size_t i = kind_count; i-- > 1;) {
		struct take_walk w = {kinds[i]->cli->takes, NULL};
		for (const struct cli_take *t; (t = take_next(&w));)
			if (t->chooses && cli_given(o, t->option))
				return kinds[i];
	}
	return kinds[0];
}

/* The first option given (in the command line's order) that kind k does not take: refused,
 * saying what it says of it. */
static void refuse(const struct run_kind *kind, const struct options *o)
{
	const struct cli_kind *k = kind->cli;
	for (size_t i = 0; i < o->given_count; i++) {
		const char *name = o->given[i]->name;
		if (kind_take(k, o->given[i]))
			continue;
		const struct cli_refusal *r = k->refusals;
		while (r && r->name && strcmp(r->name, name) != 0)
			r++;
		if (r && r->name && r->says)
			options_usage_error("--%s %s", name, r->says);
		const char *why = r && r->name && r->why ? r->why : k->why;
		if (why)
			options_usage_error("--%s does not apply to %s (%s)", name, k->noun, why);
		options_usage_error("--%s does not apply to %s", name, k->noun);
	}
}

/* The defaults of the options not given: the kind's own where it has one, else the option's
 * (which every kind gets, taken or not: the stages below read every field, and a scenario run's
 * driver seeds its layout with --seed's 1). */
static void set_defaults(const struct cli_all *all, const struct cli_kind *k, struct options *o)
{
	for (size_t i = 0; i < all->n; i++) {
		const struct cli_option *opt = all->at[i];
		const struct cli_take *t = kind_take(k, opt);
		const union cli_value *v = t && t->def ? t->def : opt->def;
		if (v && opt->set && !cli_given(o, opt))
			opt->set(o, opt, v);
	}
}

/* Reads every option of the command line with its own reader, in order. */
static void read_all(int argc, char **argv, const struct cli_all *all, struct options *o)
{
	struct option longopts[CLI_MAX_OPTIONS + 1];
	for (size_t i = 0; i < all->n; i++)
		longopts[i] = (struct option){all->at[i]->name,
		                              all->at[i]->value ? required_argument : no_argument, NULL,
		                              CLI_CODE_FIRST + (int)i};
	longopts[all->n] = (struct option){0, 0, 0, 0};
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch < CLI_CODE_FIRST || ch >= CLI_CODE_FIRST + (int)all->n) {
			if (optopt)
				options_usage_error("option '%s' needs a value", argv[optind - 1]);
			options_usage_error("unknown option '%s'", argv[optind - 1]);
		}
		const struct cli_option *opt = all->at[ch - CLI_CODE_FIRST];
		if (!cli_given(o, opt))
			o->given[o->given_count++] = opt;
		opt->read(o, opt, opt->value ? optarg : NULL);
	}
}

const struct run_kind *cli_parse(int argc, char **argv, const struct cli_tables *t,
                                 const struct run_kind *const *kinds, size_t kind_count,
                                 struct options *o)
{
	memset(o, 0, sizeof *o);
	o->argc = argc;
	o->argv = argv;
	o->child_pass = -1; /* not a child of the driver */
	struct cli_all all = {.n = 0};
	for (size_t i = 0; i < kind_count; i++)
		all_add(&all, kinds[i]->cli->takes);
	all_add(&all, every_kind);
	read_all(argc, argv, &all, o);
	if (cli_given(o, &opt_help)) {
		help(kinds, kind_count);
		exit(0);
	}
	if (optind < argc)
		options_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->list) {
		list(t);
		exit(0);
	}
	if (cli_given(o, &opt_columns)) {
		for (size_t i = 0; i < t->columns->count(); i++)
			printf("%-22s %s\n", t->columns->name_at(i), t->columns->about_at(i));
		exit(0);
	}
	const struct run_kind *kind = choose(kinds, kind_count, o);
	refuse(kind, o);
	set_defaults(&all, kind->cli, o);
	return kind;
}
