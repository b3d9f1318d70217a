/*
 * cli.c: build/ecsbench's command line (see cli.h): parsing every option into struct options,
 * the checks of each value that can be made before a run starts, --help and --list. What the
 * options mean together is for the kind of run to check (sweep_run.c, scenario_run.c).
 */
#define _POSIX_C_SOURCE 200809L
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

/* The CPUs this process may run on: the most threads a row may use. */
static uint32_t cpus_usable(void)
{
	struct cpu_list cpus;
	uint32_t n = parallel_cpus_allowed(&cpus);
	return n ? n : 1;
}

static void help(void)
{
	printf("usage: ecsbench [options]\n"
	       "Runs ECS storage backends over workloads and writes one CSV row per\n"
	       "backend x workload x entities x components, with a 95%% confidence interval\n"
	       "of each median measured across separate processes.\n\n"
	       "  --backends LIST    comma list, or all (default: all)\n"
	       "  --workloads LIST   comma list, or all (default: all)\n"
	       "  --profile P        A, AA or AAA (default: A)\n"
	       "  --entities LIST    comma list of counts 1..%u, k = 1024 and M = 1048576 as the\n"
	       "                     figures write them (64k, 1M); A..B is A and its doublings\n"
	       "                     up to B (default: 1024..1048576 = 1k..1M, 2^10, 2^11, .., 2^20)\n"
	       "  --components LIST  components per entity, each 1..3 (default: 1,2,3)\n"
	       "  --history LIST     what each storage goes through before the clock: lived-in\n"
	       "                     (default), pristine, aged, one-hole, alternating (--list)\n"
	       "  --threads LIST     threads of parallel-iterate's pass, each 1..the CPUs this\n"
	       "                     process may run on (%u here); A..B is A and its doublings\n"
	       "                     up to B (default: 1, 2, 4, ... up to the CPUs, and the CPUs)\n"
	       "  --systems S        systems registered, 6..the profile's (default: the profile's):\n"
	       "                     the game's five over Position, an empty one, then the rest\n"
	       "  --processes P      separate processes that measure every row, 1..%u, spread\n"
	       "                     over the run (default: %u); 1 measures in this process\n"
	       "  --reps R           timed samples per row in each process, 1..1000 (default: %u)\n"
	       "  --warmup W         untimed samples first in each process, 0..100 (default: %u)\n"
	       "  --inner I          runs of the workload per sample, 1..%llu, the same for every\n"
	       "                     participant (default: calibrated for each, so that its\n"
	       "                     samples last about %.0f ms)\n"
	       "  --no-floor         no floor row (the same work over plain arrays)\n"
	       "  --malloc-default   leave glibc malloc's mmap and trim thresholds as they are\n"
	       "  --layout MODE      random (default): each process gets a fresh address-space\n"
	       "                     layout, a random heap offset and stack padding; fixed:\n"
	       "                     no randomisation at all (to measure what layout does)\n"
	       "  --clock C          cpu (default): a sample is the measuring thread's CPU time,\n"
	       "                     so time another process took the CPU away is not counted;\n"
	       "                     wall: elapsed time (off_cpu_pct says how far they differ)\n"
	       "  --trace-samples    a line per sample on stderr: wall and CPU time, page faults,\n"
	       "                     context switches, the CPU, the time (docs/variation.md)\n"
	       "  --component-size B bytes of Position and Velocity, 8..%u (default: 8)\n"
	       "  --scale F          multiplies the entity counts of the workloads that are not\n"
	       "                     swept over N (Varkor's), 0.001..100 (default: 1)\n"
	       "  --seed S           seed of the component values and decisions (default: 1)\n"
	       "  --output PATH      CSV to write: a regular file or a new one in a writable\n"
	       "                     folder; - is standard output (default: results/<profile>.csv).\n"
	       "                     A previous PATH is never replaced: it and its samples are\n"
	       "                     moved to previous/DATE-NAME/ beside it (DATE: when it was\n"
	       "                     written). PATH.lock, held for the run, refuses a second run\n"
	       "  --format F         csv (default), or json: also google benchmark's JSON\n"
	       "                     beside the CSV (PATH.json: a sample each, the medians; its\n"
	       "                     compare.py reads it); not with --output -\n"
	       "  --derived PATH=NAME  a file or folder made from the previous output (figures, a\n"
	       "                     table): goes with it into its previous/ folder as NAME\n"
	       "                     (make bench names its figures and table; repeatable)\n"
	       "  --provisional CMD  after each process but the last, write the rows so far to\n"
	       "                     NAME-provisional-now.csv (the first: NAME-provisional.csv,\n"
	       "                     kept) and run the shell command CMD FIRST NOW (make bench\n"
	       "                     shows the answer so far: scripts/answer.sh)\n"
	       "  --no-pin           do not pin the measuring process to one CPU\n"
	       "  --list             list backends, workloads and profiles, and exit\n"
	       "  --columns          list the CSV's columns in order, each with its meaning\n"
	       "                     (docs/csv.md says more), and exit\n"
	       "  --help             this text\n\n"
	       "A scenario run (scenarios/README.md): ns per frame of a game's frame, by phase,\n"
	       "per backend, beside the floor (plain arrays) and the harness alone:\n"
	       "  --scenario FILE    the scenario file; its frames and warmup are the samples\n"
	       "                     (default output: results/scenario-NAME.csv)\n"
	       "  --set KEY=VALUE    overrides a key of the file, e.g. scenario.scale=0.1 or\n"
	       "                     kind.bullet.spawn=800 (repeatable)\n"
	       "  --sweep KEY=A..B   runs the scenario at points from A to B of one key, e.g.\n"
	       "                     effect.burning.add=0.1%%..10%% (results/scenario-NAME-KEY.csv)\n"
	       "  --points N         points of the sweep, 2..50 (default: 6)\n"
	       "  --sweep KEY=V1,V2  runs it at each value of a list, e.g.\n"
	       "                     component.Hit.storage=table,sparse (markings compared)\n"
	       "  --spacing S        geometric (default when A > 0: equal ratios, one scale for\n"
	       "                     rates and counts that span decades) or linear\n"
	       "  --unmarked B,...   each backend B also runs as B-unmarked: every component\n"
	       "                     given to it as a table type (the file's storage = sparse\n"
	       "                     set aside), at every point, paired with B\n"
	       "  --design 'B[:NAME] KEY=VALUE ...'  backend B as a participant of its own\n"
	       "                     (B:NAME), the file's markings changed by the KEYs (each a\n"
	       "                     component's storage, a system's group, a kind's or effect's\n"
	       "                     batch), paired with the rest (repeatable; without --backends\n"
	       "                     the designs are the only backends)\n"
	       "  With --scenario: --backends, --processes, --output, --no-floor, --no-pin,\n"
	       "  --layout, --malloc-default; the workload options are refused. Systems marked\n"
	       "  parallel run on --set scenario.threads=T (default: all the CPUs), not --threads.\n\n"
	       "The advisor (docs/scenarios.md, \"The advisor\"): which storage design is fastest\n"
	       "for a scenario, searched step by step, each a paired run of its own:\n"
	       "  --advise FILE      the scenario file (with --set, --backends, --processes, the\n"
	       "                     processes of each step, default 3); writes\n"
	       "                     results/advise-NAME.csv (its steps), -NAME.md (the advice),\n"
	       "                     NAME-advised.ini (the file with the chosen marks)\n"
	       "  --budget T         the search's time, e.g. 600, 10m, 1h (default: 10m); the\n"
	       "                     steps that do not fit are left untried, and said so\n\n"
	       "Exit status: 0 ok; 1 a row failed, checksums disagree or a process died;\n"
	       "2 bad usage (nothing run, nothing written).\n",
	       ECS_MAX_ENTITIES, cpus_usable(), MAX_PROCESSES, DEFAULT_PROCESSES, DEFAULT_REPS,
	       DEFAULT_WARMUP,
	       MAX_INNER, SAMPLE_TARGET_NS / 1e6, ECS_MAX_COMPONENT_SIZE);
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

/* "hash, tree, vector" */
static char *valid_names(const char *(*name_at)(size_t), size_t n)
{
	static char buf[1024];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", name_at(i));
	return buf;
}

static const char *backend_name_at(size_t i) { return ecs_backends[i]->name; }
static const char *profile_name_at(size_t i) { return profiles[i].name; }

/*
 * Splits a comma list; calls item() on each piece, without the spaces around it ("hash,
 * vector" is hash and vector). An empty piece ("hash,,vector", a leading or trailing comma) is
 * refused, naming the list: it is a typo, never a way to say something.
 */
static void each_item(const char *what, const char *arg, void (*item)(struct options *, const char *),
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

/* Whether the comma list has the item. */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static void add_backend(struct options *o, const char *name)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < ecs_backend_count; i++)
			add_backend(o, ecs_backends[i]->name);
		return;
	}
	const struct ecs_ops *b = ecs_backend_find(name);
	if (!b)
		options_usage_error("unknown backend '%s' (valid: %s, all)", name,
		                    valid_names(backend_name_at, ecs_backend_count));
	for (size_t i = 0; i < o->backend_count; i++)
		if (o->backends[i] == b)
			options_usage_error("backend '%s' is listed twice", name);
	if (o->backend_count == MAX_LIST)
		options_usage_error("too many backends (at most %d)", MAX_LIST);
	o->backends[o->backend_count++] = b;
}

/*
 * --twin BACKEND: one more copy of the backend, after the listed ones, named BACKEND~2 (then ~3,
 * ...). Copies of one storage are equal by construction, so every difference a run calls
 * between them is a false one: the A/A test of the statistics (docs/method.md). --twin
 * BACKEND:FACTOR: a copy named BACKEND~xFACTOR made FACTOR times slower (options.h: slowdown):
 * a difference made on purpose, which the run must find.
 */
void cli_add_twin(struct options *o, const char *spec)
{
	char name[40];
	const char *colon = strchr(spec, ':');
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
	const struct ecs_ops *b = ecs_backend_find(name);
	if (!b)
		options_usage_error("unknown backend '%s' (valid: %s)", name,
		                    valid_names(backend_name_at, ecs_backend_count));
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

static void add_workload(struct options *o, const char *name)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < o->names->workloads->count(); i++)
			add_workload(o, o->names->workloads->name_at(i));
		return;
	}
	const struct workload *w = o->names->workloads->find(name);
	if (!w)
		options_usage_error("unknown workload '%s' (valid: %s, all)", name,
		                    valid_names(o->names->workloads->name_at, o->names->workloads->count()));
	for (size_t i = 0; i < o->workload_count; i++)
		if (o->workloads[i] == w)
			options_usage_error("workload '%s' is listed twice", name);
	if (o->workload_count == MAX_LIST)
		options_usage_error("too many workloads (at most %d)", MAX_LIST);
	o->workloads[o->workload_count++] = w;
}

static void add_history(struct options *o, const char *name)
{
	const struct history *h = o->names->histories->find(name);
	if (!h)
		options_usage_error("unknown history '%s' (valid: %s)", name,
		                    valid_names(o->names->histories->name_at, o->names->histories->count()));
	for (size_t i = 0; i < o->history_count; i++)
		if (o->histories[i] == h)
			options_usage_error("history '%s' is listed twice", name);
	if (o->history_count == MAX_LIST)
		options_usage_error("too many histories (at most %d)", MAX_LIST);
	o->histories[o->history_count++] = h;
}

/* A whole unsigned decimal number within [lo, hi], or exit 2 naming it. */
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

/*
 * A count as parse_number reads it, or with a suffix k (x 1024) or M (x 1048576), as every axis
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

static double parse_scale(const char *text)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE)
		options_usage_error("scale '%s' is not a number (valid: 0.001..100)", text);
	if (!(v >= 0.001 && v <= 100))
		options_usage_error("scale '%s' is out of range (valid: 0.001..100)", text);
	return v;
}

static void add_entity_count(struct options *o, uint32_t n, const char *item)
{
	for (size_t i = 0; i < o->entity_count; i++)
		if (o->entities[i] == n)
			options_usage_error("entity count %u is listed twice (in '%s')", n, item);
	if (o->entity_count == MAX_LIST)
		options_usage_error("too many entity counts (at most %d)", MAX_LIST);
	o->entities[o->entity_count++] = n;
}

/*
 * N, or A..B: the counts A, 2A, 4A, ... up to B, each 1..max, into *from and *to (A = B for a
 * single N). noun names them in the messages ("entity": "entity count", "entity range");
 * suffixes: a count may be written 64k or 1M (parse_count).
 */
static void parse_doublings(const char *noun, const char *item, uint64_t max, bool suffixes,
                            uint64_t *from, uint64_t *to)
{
	char what[32];
	snprintf(what, sizeof what, "%s count", noun);
	uint64_t (*parse)(const char *, const char *, uint64_t, uint64_t) =
	    suffixes ? parse_count : cli_number;
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

/* N, or A..B (1024..1048576, or 1k..1M, is every power of two from 2^10 to 2^20). */
static void add_entities(struct options *o, const char *item)
{
	uint64_t a, b;
	parse_doublings("entity", item, ECS_MAX_ENTITIES, true, &a, &b);
	for (uint64_t n = a; n <= b; n *= 2)
		add_entity_count(o, (uint32_t)n, item);
}

static void add_thread_count(struct options *o, uint32_t t, const char *item)
{
	for (size_t i = 0; i < o->thread_count; i++)
		if (o->threads[i] == t)
			options_usage_error("thread count %u is listed twice (in '%s')", t, item);
	if (o->thread_count == MAX_LIST)
		options_usage_error("too many thread counts (at most %d)", MAX_LIST);
	o->threads[o->thread_count++] = t;
}

/* T, or A..B: each at most the CPUs this process may run on (a thread per CPU: more would
 * measure the scheduler). */
static void add_threads(struct options *o, const char *item)
{
	uint64_t a, b;
	parse_doublings("thread", item, cpus_usable(), false, &a, &b);
	for (uint64_t t = a; t <= b; t *= 2)
		add_thread_count(o, (uint32_t)t, item);
}

/* The default: 1, 2, 4, ... up to the CPUs, and the CPUs themselves. */
static void default_threads(struct options *o)
{
	uint32_t most = cpus_usable();
	for (uint32_t t = 1; t < most && o->thread_count < MAX_LIST - 1; t *= 2)
		o->threads[o->thread_count++] = t;
	o->threads[o->thread_count++] = most;
}

static void add_components(struct options *o, const char *item)
{
	uint32_t k = (uint32_t)cli_number("component count", item, 1, COMP_MAX_K);
	for (size_t i = 0; i < o->component_count; i++)
		if (o->components[i] == k)
			options_usage_error("component count %u is listed twice", k);
	o->components[o->component_count++] = k;
}

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

static const struct option longopts[] = {
	{"backends", required_argument, 0, 'b'},  {"workloads", required_argument, 0, 'w'},
	{"profile", required_argument, 0, 'p'},   {"entities", required_argument, 0, 'n'},
	{"components", required_argument, 0, 'k'}, {"systems", required_argument, 0, 'S'},
	{"reps", required_argument, 0, 'r'},      {"warmup", required_argument, 0, 'W'},
	{"seed", required_argument, 0, 's'},      {"output", required_argument, 0, 'o'},
	{"list", no_argument, 0, 'l'},            {"help", no_argument, 0, 'h'},
	{"columns", no_argument, 0, 'c'},
	{"no-pin", no_argument, 0, 'P'},          {"scale", required_argument, 0, 'x'},
	{"component-size", required_argument, 0, 'z'},
	{"inner", required_argument, 0, 'i'},     {"no-floor", no_argument, 0, 'F'},
	{"malloc-default", no_argument, 0, 'M'},  {"processes", required_argument, 0, 'j'},
	{"layout", required_argument, 0, 'L'},    {"trace-samples", no_argument, 0, 'T'},
	{"clock", required_argument, 0, 'C'},     {"threads", required_argument, 0, 1020},
	{"history", required_argument, 0, 'H'},
	{"format", required_argument, 0, 1042},
	{"derived", required_argument, 0, 1040}, {"provisional", required_argument, 0, 1041},
	{"scenario", required_argument, 0, 1010}, {"sweep", required_argument, 0, 1011},
	{"points", required_argument, 0, 1012},   {"spacing", required_argument, 0, 1013},
	{"set", required_argument, 0, 1014},      {"unmarked", required_argument, 0, 1015},
	{"design", required_argument, 0, 1016},   {"advise", required_argument, 0, 1017},
	{"budget", required_argument, 0, 1018},
	/* Test-only (docs/method.md, the A/A test); not in --help. */
	{"twin", required_argument, 0, 1030},
	/* scripts/cachegrind.sh's; not in --help. */
	{"floor-alone", no_argument, 0, 1031},
	/* The driver's own, for its child processes (driver.c); not in --help. */
	{"child-pass", required_argument, 0, 1001}, {"child-sampling", required_argument, 0, 1002},
	{"child-heap-offset", required_argument, 0, 1003}, {"child-work", required_argument, 0, 1004},
	{0, 0, 0, 0},
};

/* One option of the command line (ch: its code, optarg its value) into o. */
static void apply_option(struct options *o, int ch, char **argv, bool *help_asked)
{
	switch (ch) {
	case 'b': o->backend_count = 0; each_item("backend", optarg, add_backend, o); break;
	case 'w':
		o->workload_count = 0;
		each_item("workload", optarg, add_workload, o);
		o->workloads_named = !list_has(optarg, "all");
		break;
	case 'p':
		if (!(o->profile = profile_find(optarg))) {
			const struct profile *near = profile_find_nocase(optarg);
			options_usage_error("unknown profile '%s'%s%s%s (valid: %s)", optarg,
			                    near ? ": did you mean " : "", near ? near->name : "",
			                    near ? "?" : "", valid_names(profile_name_at, profile_count));
		}
		break;
	case 'n': o->entity_count = 0; each_item("entity", optarg, add_entities, o); break;
	case 'k': o->component_count = 0; each_item("component", optarg, add_components, o); break;
	case 1020: o->thread_count = 0; each_item("thread", optarg, add_threads, o); break;
	case 'H': o->history_count = 0; each_item("history", optarg, add_history, o); break;
	case 'S': o->systems_text = optarg; break;
	case 'r': o->reps = (uint32_t)cli_number("repetition count", optarg, 1, 1000); break;
	case 'W': o->warmup = (uint32_t)cli_number("warm-up count", optarg, 0, 100); break;
	case 'j':
		o->processes = (uint32_t)cli_number("process count", optarg, 1, MAX_PROCESSES);
		break;
	case 's': o->seed = cli_number("seed", optarg, 0, UINT64_MAX); break;
	case 'o':
		if (!*optarg)
			options_usage_error("empty output path");
		o->output = optarg;
		break;
	case 1040: {
		const char *eq = strrchr(optarg, '=');
		if (!eq || eq == optarg || !eq[1] || eq[1] == '/' || strstr(eq + 1, ".."))
			options_usage_error("--derived '%s' is not PATH=NAME (NAME a relative name in the "
			                    "previous result's folder)", optarg);
		if (o->derived_count == MAX_LIST)
			options_usage_error("too many --derived options (at most %d)", MAX_LIST);
		o->derived[o->derived_count++] = optarg;
		break;
	}
	case 1041:
		if (!*optarg)
			options_usage_error("--provisional: an empty command");
		o->provisional = optarg;
		break;
	case 'l': o->list = true; break;
	case 'c': break; /* o->given['c'] */
	case 'P': o->no_pin = true; break;
	case 'F': o->no_floor = true; break;
	case 'M': o->malloc_default = true; break;
	case 'T': o->trace_samples = true; break;
	case 'C':
		if (strcmp(optarg, "cpu") == 0)
			o->wall_clock = false;
		else if (strcmp(optarg, "wall") == 0)
			o->wall_clock = true;
		else
			options_usage_error("unknown clock '%s' (valid: cpu, wall)", optarg);
		break;
	case 'L':
		if (strcmp(optarg, "random") == 0)
			o->layout = LAYOUT_RANDOM;
		else if (strcmp(optarg, "fixed") == 0)
			o->layout = LAYOUT_FIXED;
		else
			options_usage_error("unknown layout '%s' (valid: random, fixed)", optarg);
		break;
	case 'i': o->inner = (uint32_t)cli_number("inner count", optarg, 1, MAX_INNER); break;
	case 'x': o->scale = parse_scale(optarg); break;
	case 'z':
		o->component_size = (uint32_t)cli_number("component size", optarg,
		                                         sizeof(struct position),
		                                         ECS_MAX_COMPONENT_SIZE);
		break;
	case 1001: o->child_pass = (int)cli_number("child pass", optarg, 0, MAX_PROCESSES); break;
	case 1002: o->child_inner = optarg; break;
	case 1004: o->child_work = optarg; break;
	case 1003:
		o->child_heap_offset = (uint32_t)cli_number("heap offset", optarg, 0, 1u << 20);
		break;
	case 1010: o->scenario_file = optarg; break;
	case 1011: o->sweep = optarg; break;
	case 1012: o->sweep_points = optarg; break;
	case 1013: o->sweep_spacing = optarg; break;
	case 1014:
		if (o->set_count == MAX_LIST)
			options_usage_error("too many --set options (at most %d)", MAX_LIST);
		o->sets[o->set_count++] = optarg;
		break;
	case 1015: o->unmarked = optarg; break;
	case 1016:
		if (o->design_count == MAX_LIST)
			options_usage_error("too many --design options (at most %d)", MAX_LIST);
		o->designs[o->design_count++] = optarg;
		break;
	case 1017: o->advise_file = optarg; break;
	case 1018: o->budget = optarg; break;
	case 1031: o->floor_alone = true; break;
	case 1042:
		if (strcmp(optarg, "json") == 0)
			o->format_json = true;
		else if (strcmp(optarg, "csv") == 0)
			o->format_json = false;
		else
			options_usage_error("unknown format '%s' (valid: csv, json)", optarg);
		break;
	case 1030:
		if (o->twin_count == MAX_LIST)
			options_usage_error("too many --twin options (at most %d)", MAX_LIST);
		o->twins[o->twin_count++] = optarg;
		break;
	case 'h': *help_asked = true; break;
	default:
		if (optopt)
			options_usage_error("option '%s' needs a value", argv[optind - 1]);
		options_usage_error("unknown option '%s'", argv[optind - 1]);
	}
}

void cli_parse(int argc, char **argv, const struct cli_tables *t, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->names = t;
	o->argc = argc;
	o->argv = argv;
	o->profile = profile_find("A");
	o->processes = DEFAULT_PROCESSES;
	o->reps = DEFAULT_REPS;
	o->warmup = DEFAULT_WARMUP;
	o->seed = 1;
	o->scale = 1.0;
	o->component_size = sizeof(struct position);
	o->child_pass = -1;
	opterr = 0;
	int ch;
	bool help_asked = false;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch > 0 && ch < (int)sizeof o->given)
			o->given[ch] = true;
		apply_option(o, ch, argv, &help_asked);
	}
	if (help_asked) {
		help();
		exit(0);
	}
	if (optind < argc)
		options_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->list) {
		list(t);
		exit(0);
	}
	for (size_t i = 0; o->given['c'] && i < t->columns->count(); i++)
		printf("%-22s %s\n", t->columns->name_at(i), t->columns->about_at(i));
	if (o->given['c'])
		exit(0);
}

void cli_apply_list(struct options *o, int code, const char *text)
{
	switch (code) {
	case 'b': each_item("backend", text, add_backend, o); break;
	case 'w': each_item("workload", text, add_workload, o); break;
	case 'n': each_item("entity", text, add_entities, o); break;
	case 'k': each_item("component", text, add_components, o); break;
	case 'H': each_item("history", text, add_history, o); break;
	case 1020:
		if (text)
			each_item("thread", text, add_threads, o);
		else
			default_threads(o);
		break;
	default: options_usage_error("no list option %d", code);
	}
}
