/*
 * main.c: build/ecsbench, the command line. Parses and checks every option before anything is
 * run or written, runs every backend x workload x N x k row (backends innermost, so that a
 * drift of the machine hits them alike), checks that the rows of one workload, N and k agree on
 * their checksum, and writes the CSV through a temporary file renamed at the end, so an
 * interrupted or failed run never leaves half a file in place of the previous one.
 *
 * Exit status: 0 all rows ran and agree; 1 a row failed or checksums disagree (the CSV is still
 * written, so the evidence is kept); 2 bad command line, nothing run or written.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef ECSB_COMMIT
#define ECSB_COMMIT "unknown"
#endif
#ifndef ECSB_CFLAGS
#define ECSB_CFLAGS "unknown"
#endif
#ifndef ECSB_MARCH
#define ECSB_MARCH "unknown"
#endif

#define MAX_LIST 64
#define SAMPLE_TARGET_NS 2000000ull /* a sample lasts about this long (the fastest backend's) */
#define MAX_INNER 100000ull
#define NOISY_MAD_PCT 5.0 /* rows whose samples spread more than this are flagged */

struct options {
	const struct ecs_ops *backends[MAX_LIST];
	size_t backend_count;
	const struct workload *workloads[MAX_LIST];
	size_t workload_count;
	const struct profile *profile;
	uint32_t entities[MAX_LIST];
	size_t entity_count;
	uint32_t components[COMP_MAX_K];
	size_t component_count;
	uint32_t reps, warmup, systems;
	uint32_t inner; /* 0: calibrate */
	uint32_t component_size;
	double scale;
	uint64_t seed;
	const char *output;
	bool list;
	bool no_pin;
	bool no_floor;
	bool malloc_default;
};

static void usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ecsbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(2);
}

static void help(void)
{
	printf("usage: ecsbench [options]\n"
	       "Runs ECS storage backends over workloads and writes one CSV row per\n"
	       "backend x workload x entities x components.\n\n"
	       "  --backends LIST    comma list, or all (default: all)\n"
	       "  --workloads LIST   comma list, or all (default: all)\n"
	       "  --profile P        A, AA or AAA (default: A)\n"
	       "  --entities LIST    comma list of counts 1..%u; A..B is every power of two\n"
	       "                     from A to B (default: 1024..1048576)\n"
	       "  --components LIST  components per entity, each 1..3 (default: 1,2,3)\n"
	       "  --systems S        systems registered, 1..the profile's (default: the profile's;\n"
	       "                     1 is seed 000's one-system setup)\n"
	       "  --reps R           timed samples per row, 1..1000 (default: 5)\n"
	       "  --warmup W         untimed samples first, 0..100 (default: 1)\n"
	       "  --inner I          runs of the workload per sample, 1..%llu (default: calibrated\n"
	       "                     so that the fastest backend's sample lasts %.0f ms)\n"
	       "  --no-floor         no floor row for iterate\n"
	       "  --malloc-default   leave glibc malloc's mmap and trim thresholds as they are\n"
	       "  --component-size B bytes of Position and Velocity, 8..%u (default: 8)\n"
	       "  --scale F          multiplies the entity counts of the workloads that are not\n"
	       "                     swept over N (seed 001's), 0.001..100 (default: 1)\n"
	       "  --seed S           seed of the component values (default: 1)\n"
	       "  --output PATH      CSV to write (default: results/<profile>.csv)\n"
	       "  --no-pin           do not pin the process to one CPU\n"
	       "  --list             list backends, workloads and profiles, and exit\n"
	       "  --help             this text\n\n"
	       "Exit status: 0 ok; 1 a row failed or checksums disagree; 2 bad usage.\n",
	       ECS_MAX_ENTITIES, MAX_INNER, SAMPLE_TARGET_NS / 1e6, ECS_MAX_COMPONENT_SIZE);
}

static void list(void)
{
	printf("backends:\n");
	for (size_t i = 0; i < ecs_backend_count; i++)
		printf("  %-10s %s\n", ecs_backends[i]->name, ecs_backends[i]->description);
	printf("workloads (timed region):\n");
	for (size_t i = 0; i < workload_count; i++)
		printf("  %-24s %s\n", workloads[i]->name, workloads[i]->timed);
	printf("profiles:\n");
	for (size_t i = 0; i < profile_count; i++)
		printf("  %-10s %u component types, %u systems\n", profiles[i].name,
		       profiles[i].component_count, profiles[i].system_count);
}

/* "hash, tree, vector" */
static char *valid_names(const char *(*name_at)(size_t), size_t n)
{
	static char buf[512];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", name_at(i));
	return buf;
}

static const char *backend_name_at(size_t i) { return ecs_backends[i]->name; }
static const char *workload_name_at(size_t i) { return workloads[i]->name; }
static const char *profile_name_at(size_t i) { return profiles[i].name; }

/* Splits a comma list in place; calls item() on each non-empty piece. */
static void each_item(const char *what, const char *arg, void (*item)(struct options *, const char *),
                      struct options *o)
{
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		usage_error("out of memory");
	if (!*copy)
		usage_error("empty %s list", what);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		item(o, tok);
	free(copy);
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
		usage_error("unknown backend '%s' (valid: %s, all)", name,
		            valid_names(backend_name_at, ecs_backend_count));
	for (size_t i = 0; i < o->backend_count; i++)
		if (o->backends[i] == b)
			return;
	o->backends[o->backend_count++] = b;
}

static void add_workload(struct options *o, const char *name)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < workload_count; i++)
			add_workload(o, workloads[i]->name);
		return;
	}
	const struct workload *w = workload_find(name);
	if (!w)
		usage_error("unknown workload '%s' (valid: %s, all)", name,
		            valid_names(workload_name_at, workload_count));
	for (size_t i = 0; i < o->workload_count; i++)
		if (o->workloads[i] == w)
			return;
	if (o->workload_count < MAX_LIST)
		o->workloads[o->workload_count++] = w;
}

/* A whole unsigned decimal number within [lo, hi], or exit 2 naming it. */
static uint64_t parse_number(const char *what, const char *text, uint64_t lo, uint64_t hi)
{
	const char *p = text;
	while (*p == ' ')
		p++;
	if (*p == '-')
		usage_error("%s '%s' is negative (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo, hi);
	if (*p < '0' || *p > '9')
		usage_error("%s '%s' is not a number (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		            hi);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (*end != '\0')
		usage_error("%s '%s' is not a number (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		            hi);
	if (errno == ERANGE || v < lo || v > hi)
		usage_error("%s '%s' is out of range (valid: %" PRIu64 "..%" PRIu64 ")", what, text, lo,
		            hi);
	return v;
}

static double parse_scale(const char *text)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE)
		usage_error("scale '%s' is not a number (valid: 0.001..100)", text);
	if (!(v >= 0.001 && v <= 100))
		usage_error("scale '%s' is out of range (valid: 0.001..100)", text);
	return v;
}

static void add_entity_count(struct options *o, uint32_t n)
{
	for (size_t i = 0; i < o->entity_count; i++)
		if (o->entities[i] == n)
			return;
	if (o->entity_count == MAX_LIST)
		usage_error("too many entity counts (at most %d)", MAX_LIST);
	o->entities[o->entity_count++] = n;
}

static void add_entities(struct options *o, const char *item)
{
	const char *dots = strstr(item, "..");
	if (!dots) {
		add_entity_count(o, (uint32_t)parse_number("entity count", item, 1, ECS_MAX_ENTITIES));
		return;
	}
	char from[32];
	size_t len = (size_t)(dots - item);
	if (len >= sizeof from)
		usage_error("entity count '%s' is not a number or a range A..B", item);
	memcpy(from, item, len);
	from[len] = '\0';
	uint64_t a = parse_number("entity count", from, 1, ECS_MAX_ENTITIES);
	uint64_t b = parse_number("entity count", dots + 2, 1, ECS_MAX_ENTITIES);
	if (a > b)
		usage_error("entity range '%s' is empty (A..B needs A <= B)", item);
	for (uint64_t n = a; n <= b; n *= 2)
		add_entity_count(o, (uint32_t)n);
}

static void add_components(struct options *o, const char *item)
{
	uint32_t k = (uint32_t)parse_number("component count", item, 1, COMP_MAX_K);
	for (size_t i = 0; i < o->component_count; i++)
		if (o->components[i] == k)
			return;
	o->components[o->component_count++] = k;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"backends", required_argument, 0, 'b'}, {"workloads", required_argument, 0, 'w'},
		{"profile", required_argument, 0, 'p'},  {"entities", required_argument, 0, 'n'},
		{"components", required_argument, 0, 'k'}, {"systems", required_argument, 0, 'S'},
		{"reps", required_argument, 0, 'r'},     {"warmup", required_argument, 0, 'W'},
		{"seed", required_argument, 0, 's'},     {"output", required_argument, 0, 'o'},
		{"list", no_argument, 0, 'l'},           {"help", no_argument, 0, 'h'},
		{"no-pin", no_argument, 0, 'P'},         {"scale", required_argument, 0, 'x'},
		{"component-size", required_argument, 0, 'z'},
		{"inner", required_argument, 0, 'i'},     {"no-floor", no_argument, 0, 'F'},
		{"malloc-default", no_argument, 0, 'M'},
		{0, 0, 0, 0},
	};
	const char *systems = NULL;
	memset(o, 0, sizeof *o);
	o->profile = profile_find("A");
	o->reps = 5;
	o->warmup = 1;
	o->seed = 1;
	o->scale = 1.0;
	o->component_size = sizeof(struct position);
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b': o->backend_count = 0; each_item("backend", optarg, add_backend, o); break;
		case 'w': o->workload_count = 0; each_item("workload", optarg, add_workload, o); break;
		case 'p':
			if (!(o->profile = profile_find(optarg)))
				usage_error("unknown profile '%s' (valid: %s)", optarg,
				            valid_names(profile_name_at, profile_count));
			break;
		case 'n': o->entity_count = 0; each_item("entity", optarg, add_entities, o); break;
		case 'k': o->component_count = 0; each_item("component", optarg, add_components, o); break;
		case 'S': systems = optarg; break;
		case 'r': o->reps = (uint32_t)parse_number("repetition count", optarg, 1, 1000); break;
		case 'W': o->warmup = (uint32_t)parse_number("warm-up count", optarg, 0, 100); break;
		case 's': o->seed = parse_number("seed", optarg, 0, UINT64_MAX); break;
		case 'o':
			if (!*optarg)
				usage_error("empty output path");
			o->output = optarg;
			break;
		case 'l': o->list = true; break;
		case 'P': o->no_pin = true; break;
		case 'F': o->no_floor = true; break;
		case 'M': o->malloc_default = true; break;
		case 'i': o->inner = (uint32_t)parse_number("inner count", optarg, 1, MAX_INNER); break;
		case 'x': o->scale = parse_scale(optarg); break;
		case 'z':
			o->component_size = (uint32_t)parse_number("component size", optarg,
			                                           sizeof(struct position),
			                                           ECS_MAX_COMPONENT_SIZE);
			break;
		case 'h': help(); exit(0);
		default:
			if (optopt)
				usage_error("option '%s' needs a value", argv[optind - 1]);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->backend_count)
		add_backend(o, "all");
	if (!o->workload_count)
		add_workload(o, "all");
	if (!o->entity_count)
		add_entities(o, "1024..1048576");
	if (!o->component_count)
		each_item("component", "1,2,3", add_components, o);
	o->systems = systems ? (uint32_t)parse_number("system count", systems, 1,
	                                              o->profile->system_count)
	                     : o->profile->system_count;
}

/* --- output --------------------------------------------------------------------------- */

static char temp_path[4096];
static volatile sig_atomic_t rows_done, rows_total;

/* Appends the decimal form of v to buf at *len; async-signal-safe. */
static void append_number(char *buf, size_t *len, long v)
{
	char digits[24];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < (int)sizeof digits);
	while (n > 0)
		buf[(*len)++] = digits[--n];
}

static void append_text(char *buf, size_t *len, const char *text)
{
	while (*text)
		buf[(*len)++] = *text++;
}

static void on_signal(int sig)
{
	if (temp_path[0])
		unlink(temp_path);
	char msg[256];
	size_t len = 0;
	append_text(msg, &len, "\necsbench: interrupted after ");
	append_number(msg, &len, rows_done);
	append_text(msg, &len, " of ");
	append_number(msg, &len, rows_total);
	append_text(msg, &len, " rows; nothing was written, the results file was left as it was\n");
	ssize_t ignored = write(STDERR_FILENO, msg, len);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void cpu_model(char *buf, size_t len)
{
	snprintf(buf, len, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) == 0 && colon) {
			colon += 2;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

static void write_header(FILE *f, const struct options *o, const char *pinning,
                         const char *malloc_mode, int argc, char **argv)
{
	char cpu[256], date[64];
	cpu_model(cpu, sizeof cpu);
	time_t t = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	fprintf(f, "# ecsbench commit %s\n", ECSB_COMMIT);
	fprintf(f, "# date %s\n", date);
	fprintf(f, "# cpu %s; %ld online; %s\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), pinning);
	fprintf(f, "# compiler gcc %s; flags %s; -march=native is %s\n", __VERSION__, ECSB_CFLAGS,
	        ECSB_MARCH);
	fprintf(f, "# malloc %s\n", malloc_mode);
	fprintf(f, "# profile %s (%u component types, %u systems); systems registered %u\n",
	        o->profile->name, o->profile->component_count, o->profile->system_count, o->systems);
	char sampling[64];
	if (o->inner)
		snprintf(sampling, sizeof sampling, "%u runs per sample (--inner)", o->inner);
	else
		snprintf(sampling, sizeof sampling, "samples of about %.1f ms (the fastest backend's)",
		         SAMPLE_TARGET_NS / 1e6);
	fprintf(f, "# seed %" PRIu64 "; reps %u; warmup %u; %s; rows with "
	           "mad_pct over %.0f are flagged noisy; component size %u; scale %g\n",
	        o->seed, o->reps, o->warmup, sampling, NOISY_MAD_PCT, o->component_size,
	        o->scale);
	fprintf(f, "# command");
	for (int i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f, "\n");
	fprintf(f, "backend,profile,systems,workload,entities,components,component_bytes,reps,inner,"
	           "median_ns,min_ns,max_ns,mad_pct,noisy,ns_per_entity,entities_per_sec,"
	           "ratio_to_floor,peak_bytes,live_bytes,live_bytes_per_entity,allocations,reuse,"
	           "checksum\n");
}

static void write_row(FILE *f, const struct bench_case *c, const struct bench_result *r,
                      uint64_t floor_ns)
{
	/* per entity per round: a run of a round-based workload goes over its N entities
	 * `rounds` times */
	double units = (double)c->entities * (c->workload->rounds ? c->workload->rounds : 1);
	double per_entity = (double)r->median_ns / units;
	char ratio[32] = "", reuse[32] = "";
	if (floor_ns)
		snprintf(ratio, sizeof ratio, "%.2f", (double)r->median_ns / (double)floor_ns);
	if (r->reuse > 0)
		snprintf(reuse, sizeof reuse, "%.3f", r->reuse);
	fprintf(f, "%s,%s,%u,%s,%u,%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%d,%.3f,%.0f,"
	           "%s,%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64 ",%s,%016" PRIx64 "\n",
	        c->ops ? c->ops->name : "floor", c->profile->name, c->systems, c->workload->name,
	        c->entities, c->k, c->component_size, r->reps, r->inner, r->median_ns, r->min_ns,
	        r->max_ns, r->mad_pct, r->mad_pct > NOISY_MAD_PCT, per_entity,
	        r->median_ns ? 1e9 * units / (double)r->median_ns : 0.0, ratio, r->peak_bytes,
	        r->live_bytes, (double)r->live_bytes / c->entities, r->allocations, reuse,
	        r->checksum);
}

/* Pins the process to the last CPU it may run on, so that its samples do not migrate. */
static void pin_to_one_cpu(char *note, size_t len)
{
	cpu_set_t set, one;
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		snprintf(note, len, "not pinned (sched_getaffinity: %s)", strerror(errno));
		return;
	}
	int cpu = -1;
	for (int i = CPU_SETSIZE - 1; i >= 0 && cpu < 0; i--)
		if (CPU_ISSET(i, &set))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (cpu < 0 || sched_setaffinity(0, sizeof one, &one) != 0)
		snprintf(note, len, "not pinned (sched_setaffinity: %s)", strerror(errno));
	else
		snprintf(note, len, "pinned to cpu %d", cpu);
}

/* --- a group of rows: every participant of one workload, N and k ---------------------- */

struct participant {
	struct bench_case c;
	struct bench_result r;
	struct run *run;
	uint64_t *samples;
	uint64_t timed_allocations;
	bool failed;
};

struct tally {
	unsigned failures, mismatches;
	bool tty, progress_shown;
};

static void report_failure(struct tally *t, struct participant *p)
{
	fprintf(stderr, "%secsbench: %s %s N=%u k=%u failed: %s\n",
	        t->tty && t->progress_shown ? "\n" : "", p->c.ops ? p->c.ops->name : "floor",
	        p->c.workload->name, p->c.entities, p->c.k, p->r.error);
	p->failed = true;
	t->failures++;
}

static bool with_floor(const struct options *o, const struct workload *w)
{
	return w->floor && !o->no_floor;
}

/*
 * Runs one group: sets every participant up, finds one inner count for all (enough runs that
 * the fastest backend's sample lasts SAMPLE_TARGET_NS; the same for all, so they do the same
 * work and their checksums can agree), then takes the samples interleaved, A B C, B C A, ...,
 * so that a drift of the machine hits every backend alike, and writes the rows.
 */
static void run_group(const struct options *o, const struct workload *w, uint32_t k, uint32_t n,
                      FILE *out, struct tally *t)
{
	struct values values, writes;
	struct participant ps[MAX_LIST + 1];
	size_t np = 0;
	memset(ps, 0, sizeof ps);
	memset(&writes, 0, sizeof writes);
	if (values_make(&values, n, o->seed, 0, o->component_size) ||
	    values_make(&writes, n, o->seed, 1, o->component_size)) {
		fprintf(stderr, "ecsbench: out of memory for N=%u\n", n);
		t->failures++;
		values_free(&values);
		values_free(&writes);
		return;
	}
	for (size_t b = 0; b <= o->backend_count; b++) {
		if (b == o->backend_count && !with_floor(o, w))
			break;
		struct participant *p = &ps[np++];
		p->c = (struct bench_case){
			.ops = b < o->backend_count ? o->backends[b] : NULL,
			.workload = w,
			.profile = o->profile,
			.systems = o->systems,
			.entities = n,
			.k = k,
			.component_size = o->component_size,
			.seed = o->seed,
			.values = &values,
			.writes = &writes,
		};
		p->r.reps = o->reps;
		p->samples = calloc(o->reps, sizeof *p->samples);
		p->run = p->samples ? run_new(&p->c, &p->r) : NULL;
		if (!p->run || run_setup(p->run))
			report_failure(t, p);
	}

	/* One calibration run each; the fastest backend sets the inner count (unless --inner). */
	uint64_t fastest = UINT64_MAX;
	for (size_t i = 0; i < np && !o->inner; i++) {
		struct participant *p = &ps[i];
		uint64_t ns, calls;
		if (p->failed)
			continue;
		if (run_sample(p->run, 1, &ns, &calls)) {
			report_failure(t, p);
			continue;
		}
		if ((p->c.ops || np == 1) && ns < fastest)
			fastest = ns;
	}
	uint64_t inner = fastest ? (SAMPLE_TARGET_NS + fastest - 1) / fastest : MAX_INNER;
	if (inner < 1)
		inner = 1;
	if (inner > MAX_INNER)
		inner = MAX_INNER;
	if (o->inner)
		inner = o->inner;

	/* When one cold run of the fastest backend already lasts twice the target, a warm run will
	 * still be a whole sample (inner 1), and the calibration run was a sample of that size for
	 * every participant: it counts as the first warm-up sample. At large N this saves one run in
	 * seven of every backend. Nearer the target, the warm-up samples run and set inner. */
	uint32_t total = o->warmup + o->reps;
	uint32_t start =
	    !o->inner && fastest != UINT64_MAX && fastest >= 2 * SAMPLE_TARGET_NS && o->warmup > 0;
	for (uint32_t s = start; s < total; s++) {
		uint64_t fastest_warm = UINT64_MAX;
		for (size_t j = 0; j < np; j++) {
			struct participant *p = &ps[(j + s) % np];
			uint64_t ns, calls;
			if (p->failed)
				continue;
			if (run_sample(p->run, (uint32_t)inner, &ns, &calls)) {
				report_failure(t, p);
				continue;
			}
			if (s >= o->warmup) {
				p->samples[s - o->warmup] = ns / inner;
				p->timed_allocations += calls;
			} else if ((p->c.ops || np == 1) && ns / inner < fastest_warm) {
				fastest_warm = ns / inner;
			}
		}
		/* The calibration run was a single cold run; the last warm-up sample, warm and whole,
		 * sets the inner count of the timed samples (all participants alike, as before). */
		if (s + 1 == o->warmup && !o->inner && fastest_warm != UINT64_MAX) {
			inner = fastest_warm ? (SAMPLE_TARGET_NS + fastest_warm - 1) / fastest_warm
			                     : MAX_INNER;
			inner = inner < 1 ? 1 : inner > MAX_INNER ? MAX_INNER : inner;
		}
	}

	uint64_t floor_ns = 0;
	for (size_t i = 0; i < np; i++) {
		struct participant *p = &ps[i];
		if (p->failed)
			continue;
		if (run_finish(p->run)) {
			report_failure(t, p);
			continue;
		}
		p->r.inner = (uint32_t)inner;
		uint64_t runs = (uint64_t)o->reps * inner;
		p->r.allocations = (p->timed_allocations + runs - 1) / runs; /* a backend that
		                                                                allocates never shows 0 */
		stats_summarise(p->samples, o->reps, &p->r);
		if (!p->c.ops)
			floor_ns = p->r.median_ns;
	}
	const struct participant *first = NULL;
	for (size_t i = 0; i < np; i++) {
		struct participant *p = &ps[i];
		if (p->failed)
			continue;
		write_row(out, &p->c, &p->r, with_floor(o, w) ? floor_ns : 0);
		if (!first) {
			first = p;
		} else if (p->r.checksum != first->r.checksum) {
			fprintf(stderr,
			        "%secsbench: checksum mismatch: %s N=%u k=%u: %s %016" PRIx64
			        ", %s %016" PRIx64 "\n",
			        t->tty && t->progress_shown ? "\n" : "", w->name, n, k,
			        first->c.ops ? first->c.ops->name : "floor", first->r.checksum,
			        p->c.ops ? p->c.ops->name : "floor", p->r.checksum);
			t->mismatches++;
		}
	}
	fflush(out);
	for (size_t i = 0; i < np; i++) {
		run_free(ps[i].run);
		free(ps[i].samples);
	}
	values_free(&values);
	values_free(&writes);
}

int main(int argc, char **argv)
{
	struct options o;
	parse_options(argc, argv, &o);
	if (o.list) {
		list();
		return 0;
	}

	char default_output[256];
	if (!o.output) {
		snprintf(default_output, sizeof default_output, "results/%s.csv", o.profile->name);
		o.output = default_output;
	}
	if (snprintf(temp_path, sizeof temp_path, "%s.tmp.%ld", o.output, (long)getpid()) >=
	    (int)sizeof temp_path)
		usage_error("output path '%s' is too long", o.output);
	int fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		int err = errno;
		temp_path[0] = '\0';
		usage_error("cannot write output '%s': %s", o.output, strerror(err));
	}
	FILE *out = fdopen(fd, "w");
	if (!out) {
		unlink(temp_path);
		usage_error("cannot write output '%s': %s", o.output, strerror(errno));
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	/* Freed memory stays in the process: glibc would otherwise hand every large block back to
	 * the kernel on free (mmap threshold, trim threshold), and each sample of create or churn
	 * would then pay the kernel's page faults for memory the previous sample already touched,
	 * a cost of the machine, not of the storage, and a noisy one. The first touch is paid in
	 * the warm-up sample. Recorded in the header; --malloc-default leaves glibc as it is. */
	const char *malloc_mode = "glibc defaults (--malloc-default)";
	if (!o.malloc_default) {
		bool no_mmap = mallopt(M_MMAP_MAX, 0) == 1;
		bool no_trim = mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
		malloc_mode = no_mmap && no_trim ? "glibc, mmap off and trim off (mallopt): freed memory "
		                                   "stays in the process and is reused"
		              : no_mmap ? "glibc, mmap off (mallopt); setting the trim threshold failed"
		              : no_trim ? "glibc, trim off (mallopt); turning mmap off failed"
		                        : "glibc; mallopt failed, defaults in effect";
	}
	char pinning[128] = "not pinned (--no-pin)";
	if (!o.no_pin)
		pin_to_one_cpu(pinning, sizeof pinning);
	write_header(out, &o, pinning, malloc_mode, argc, argv);

	struct tally t = {.tty = isatty(STDERR_FILENO)};
	uint64_t start = now_ns();
	rows_total = 0;
	for (size_t wi = 0; wi < o.workload_count; wi++) {
		const struct workload *w = o.workloads[wi];
		rows_total += (sig_atomic_t)((o.backend_count + with_floor(&o, w)) *
		                             (w->k_fixed ? 1 : o.component_count) *
		                             (w->fixed_entities ? 1 : o.entity_count));
	}
	double last_shown = -1e9;
	for (size_t wi = 0; wi < o.workload_count; wi++) {
		const struct workload *w = o.workloads[wi];
		/* Seed 001's workloads have their own N and k; the others are swept. */
		uint32_t fixed_n = 0;
		if (w->fixed_entities) {
			double units = w->fixed_entities * o.scale + 0.5;
			fixed_n = (units < 1 ? 1 : (uint32_t)units) * (w->unit_entities ? w->unit_entities : 1);
		}
		size_t nk = w->k_fixed ? 1 : o.component_count, nn = fixed_n ? 1 : o.entity_count;
		for (size_t ki = 0; ki < nk; ki++) {
			for (size_t ni = 0; ni < nn; ni++) {
				uint32_t k = w->k_fixed ? w->fixed_components : o.components[ki];
				uint32_t n = fixed_n ? fixed_n : o.entities[ni];
				double elapsed = (double)(now_ns() - start) / 1e9;
				/* On a terminal, one line rewritten in place; in a log, a line every 10 s. */
				if (elapsed > 2.0 && (t.tty || elapsed - last_shown >= 10.0)) {
					last_shown = elapsed;
					fprintf(stderr, "%secsbench: [%d/%d rows] %s N=%u k=%u (%.0f s so far)%s",
					        t.tty ? "\r" : "", (int)rows_done, (int)rows_total, w->name, n, k,
					        elapsed, t.tty ? "\033[K" : "\n");
					t.progress_shown = true;
				}
				run_group(&o, w, k, n, out, &t);
				rows_done += (sig_atomic_t)(o.backend_count + with_floor(&o, w));
			}
		}
	}
	if (t.tty && t.progress_shown)
		fputc('\n', stderr);
	if (fflush(out) != 0 || fsync(fileno(out)) != 0 || fclose(out) != 0 ||
	    rename(temp_path, o.output) != 0) {
		fprintf(stderr, "ecsbench: cannot write '%s': %s\n", o.output, strerror(errno));
		unlink(temp_path);
		return 1;
	}
	temp_path[0] = '\0';
	fprintf(stderr, "ecsbench: wrote %s: %d rows in %.1f s", o.output,
	        (int)rows_done - (int)t.failures, (double)(now_ns() - start) / 1e9);
	if (t.failures || t.mismatches)
		fprintf(stderr, "; %u rows failed, %u checksum mismatches", t.failures, t.mismatches);
	fputc('\n', stderr);
	return t.failures || t.mismatches ? 1 : 0;
}
