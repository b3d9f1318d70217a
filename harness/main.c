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

#define MAX_LIST 64

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
	uint64_t seed;
	const char *output;
	bool list;
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
	       "  --seed S           seed of the component values (default: 1)\n"
	       "  --output PATH      CSV to write (default: results/<profile>.csv)\n"
	       "  --list             list backends, workloads and profiles, and exit\n"
	       "  --help             this text\n\n"
	       "Exit status: 0 ok; 1 a row failed or checksums disagree; 2 bad usage.\n",
	       ECS_MAX_ENTITIES);
}

static void list(void)
{
	printf("backends:\n");
	for (size_t i = 0; i < ecs_backend_count; i++)
		printf("  %-10s %s\n", ecs_backends[i]->name, ecs_backends[i]->description);
	printf("workloads (timed region):\n");
	for (size_t i = 0; i < workload_count; i++)
		printf("  %-10s %s\n", workloads[i].name, workloads[i].timed);
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
static const char *workload_name_at(size_t i) { return workloads[i].name; }
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
			add_workload(o, workloads[i].name);
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
		{0, 0, 0, 0},
	};
	const char *systems = NULL;
	memset(o, 0, sizeof *o);
	o->profile = profile_find("A");
	o->reps = 5;
	o->warmup = 1;
	o->seed = 1;
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

static void write_header(FILE *f, const struct options *o, int argc, char **argv)
{
	char cpu[256], date[64];
	cpu_model(cpu, sizeof cpu);
	time_t t = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	fprintf(f, "# ecsbench commit %s\n", ECSB_COMMIT);
	fprintf(f, "# date %s\n", date);
	fprintf(f, "# cpu %s; %ld online\n", cpu, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "# compiler gcc %s; flags %s\n", __VERSION__, ECSB_CFLAGS);
	fprintf(f, "# profile %s (%u component types, %u systems); systems registered %u\n",
	        o->profile->name, o->profile->component_count, o->profile->system_count, o->systems);
	fprintf(f, "# seed %" PRIu64 "; reps %u; warmup %u\n", o->seed, o->reps, o->warmup);
	fprintf(f, "# command");
	for (int i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f, "\n");
	fprintf(f, "backend,profile,systems,workload,entities,components,reps,inner,median_ns,min_ns,"
	           "max_ns,mad_pct,ns_per_entity,entities_per_sec,peak_bytes,live_bytes,allocations,"
	           "checksum\n");
}

static void write_row(FILE *f, const struct bench_case *c, const struct bench_result *r)
{
	double per_entity = (double)r->median_ns / c->entities;
	fprintf(f, "%s,%s,%u,%s,%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%.3f,%.0f,%" PRIu64
	           ",%" PRIu64 ",%" PRIu64 ",%016" PRIx64 "\n",
	        c->ops->name, c->profile->name, c->systems, c->workload->name, c->entities, c->k,
	        c->reps, r->inner, r->median_ns, r->min_ns, r->max_ns, r->mad_pct, per_entity,
	        r->median_ns ? 1e9 * c->entities / (double)r->median_ns : 0.0, r->peak_bytes,
	        r->live_bytes, r->allocations, r->checksum);
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
	write_header(out, &o, argc, argv);

	bool tty = isatty(STDERR_FILENO);
	uint64_t start = now_ns();
	rows_total = (sig_atomic_t)(o.workload_count * o.component_count * o.entity_count *
	                            o.backend_count);
	int status = 0;
	unsigned mismatches = 0, failures = 0;
	bool progress_shown = false;
	for (size_t wi = 0; wi < o.workload_count; wi++) {
		for (size_t ki = 0; ki < o.component_count; ki++) {
			for (size_t ni = 0; ni < o.entity_count; ni++) {
				const char *first_name = NULL;
				uint64_t first_sum = 0;
				for (size_t bi = 0; bi < o.backend_count; bi++) {
					struct bench_case c = {
						.ops = o.backends[bi],
						.workload = o.workloads[wi],
						.profile = o.profile,
						.systems = o.systems,
						.entities = o.entities[ni],
						.k = o.components[ki],
						.reps = o.reps,
						.warmup = o.warmup,
						.seed = o.seed,
					};
					double elapsed = (double)(now_ns() - start) / 1e9;
					if (elapsed > 2.0) {
						fprintf(stderr, "%secsbench: [%d/%d] %s %s N=%u k=%u (%.0f s so far)%s",
						        tty ? "\r" : "", (int)rows_done + 1, (int)rows_total,
						        c.ops->name, c.workload->name, c.entities, c.k, elapsed,
						        tty ? "\033[K" : "\n");
						progress_shown = true;
					}
					struct bench_result r;
					memset(&r, 0, sizeof r);
					if (c.workload->run(&c, &r) != 0) {
						fprintf(stderr, "%secsbench: %s %s N=%u k=%u failed: %s\n",
						        tty && progress_shown ? "\n" : "", c.ops->name,
						        c.workload->name, c.entities, c.k, r.error);
						failures++;
						status = 1;
					} else {
						write_row(out, &c, &r);
						if (!first_name) {
							first_name = c.ops->name;
							first_sum = r.checksum;
						} else if (r.checksum != first_sum) {
							fprintf(stderr,
							        "%secsbench: checksum mismatch: %s N=%u k=%u: %s "
							        "%016" PRIx64 ", %s %016" PRIx64 "\n",
							        tty && progress_shown ? "\n" : "", c.workload->name,
							        c.entities, c.k, first_name, first_sum, c.ops->name,
							        r.checksum);
							mismatches++;
							status = 1;
						}
					}
					rows_done++;
				}
			}
		}
	}
	if (tty && progress_shown)
		fputc('\n', stderr);
	if (fflush(out) != 0 || fsync(fileno(out)) != 0 || fclose(out) != 0 ||
	    rename(temp_path, o.output) != 0) {
		fprintf(stderr, "ecsbench: cannot write '%s': %s\n", o.output, strerror(errno));
		unlink(temp_path);
		return 1;
	}
	temp_path[0] = '\0';
	fprintf(stderr, "ecsbench: wrote %s: %d rows in %.1f s", o.output,
	        (int)rows_done - (int)failures, (double)(now_ns() - start) / 1e9);
	if (failures || mismatches)
		fprintf(stderr, "; %u rows failed, %u checksum mismatches", failures, mismatches);
	fputc('\n', stderr);
	return status;
}
