/*
 * gbench.c: google benchmark's JSON (gbench.h). The context block holds what its own reporter
 * writes (date, host, executable, CPUs, MHz, frequency scaling, the caches as the kernel reports
 * them under /sys/devices/system/cpu/cpu0/cache, the load average) and ecsbench's own keys
 * (commit, compiler and flags, the clock, the command), which google benchmark's tools ignore.
 * Every string goes through gbench_string, so that a host name or a path with quotes,
 * backslashes, control characters or bytes that are not UTF-8 still makes valid JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gbench.h"
#include "report.h"

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one. */
static int utf8_length(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
	                                                  : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	/* overlong forms, surrogates and beyond U+10FFFF */
	if ((n == 2 && s[0] < 0xC2) || (n == 3 && s[0] == 0xE0 && s[1] < 0xA0) ||
	    (n == 3 && s[0] == 0xED && s[1] >= 0xA0) || (n == 4 && s[0] == 0xF0 && s[1] < 0x90) ||
	    (n == 4 && (s[0] > 0xF4 || (s[0] == 0xF4 && s[1] >= 0x90))))
		return 0;
	return n;
}

void gbench_string(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	fputc('"', f);
	while (*s) {
		int n = utf8_length(s);
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s < 0x20 || *s == 0x7F)
			fprintf(f, "\\u%04x", *s);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

/* A number, or null where there is none (JSON has no NaN or infinity). */
static void number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

/* The first line of a file, without its newline; "" if it cannot be read. */
static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* How many CPUs a list such as "0-1,4" names. */
static unsigned cpu_count(const char *list)
{
	unsigned n = 0;
	for (const char *p = list; *p;) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		n += b >= a ? (unsigned)(b - a + 1) : 1;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

/* "caches": what cpu0's cache folders say; [] where the kernel says nothing. */
static void write_caches(FILE *f)
{
	fputs("    \"caches\": [", f);
	bool first = true;
	for (int i = 0; i < 16; i++) {
		char dir[96], path[128], type[64], level[16], size[32], shared[256];
		snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		snprintf(path, sizeof path, "%s/type", dir);
		read_line(path, type, sizeof type);
		if (!type[0])
			break;
		snprintf(path, sizeof path, "%s/level", dir);
		read_line(path, level, sizeof level);
		snprintf(path, sizeof path, "%s/size", dir);
		read_line(path, size, sizeof size);
		snprintf(path, sizeof path, "%s/shared_cpu_list", dir);
		read_line(path, shared, sizeof shared);
		char *unit;
		double bytes = strtod(size, &unit);
		bytes *= *unit == 'K' ? 1024.0 : *unit == 'M' ? 1048576.0 : *unit == 'G' ? 1073741824.0 : 1;
		fprintf(f, "%s\n      {\"type\": ", first ? "" : ",");
		gbench_string(f, type);
		fprintf(f, ", \"level\": %d, \"size\": %.0f, \"num_sharing\": %u}", atoi(level), bytes,
		        shared[0] ? cpu_count(shared) : 1);
		first = false;
	}
	fputs(first ? "],\n" : "\n    ],\n", f);
}

/* The first "cpu MHz" of /proc/cpuinfo, 0 if none. */
static double cpu_mhz(void)
{
	double mhz = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	char line[512];
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':')) {
			mhz = strtod(strchr(line, ':') + 1, NULL);
			break;
		}
	fclose(f);
	return mhz;
}

static void key_string(FILE *f, const char *key, const char *value)
{
	fprintf(f, "    \"%s\": ", key);
	gbench_string(f, value);
	fputs(",\n", f);
}

void gbench_begin(FILE *f, const struct collection *c)
{
	const struct options *o = c->o;
	char date[64], host[256] = "", governor[64], command[8192] = "";
	time_t t = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S+00:00", gmtime(&t));
	if (gethostname(host, sizeof host - 1) != 0)
		host[0] = '\0';
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", governor, sizeof governor);
	for (int i = 0, n = 0; i < o->argc && n >= 0 && (size_t)n < sizeof command; i++)
		n += snprintf(command + n, sizeof command - (size_t)n, "%s%s", i ? " " : "", o->argv[i]);
	double load[3] = {NAN, NAN, NAN};
	if (getloadavg(load, 3) != 3)
		load[0] = load[1] = load[2] = NAN;
	fputs("{\n  \"context\": {\n", f);
	key_string(f, "date", date);
	key_string(f, "host_name", host);
	key_string(f, "executable", o->argc > 0 ? o->argv[0] : "");
	fprintf(f, "    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": %.0f,\n", sysconf(_SC_NPROCESSORS_ONLN),
	        cpu_mhz());
	fprintf(f, "    \"cpu_scaling_enabled\": %s,\n",
	        governor[0] && strcmp(governor, "performance") != 0 ? "true" : "false");
	write_caches(f);
	fputs("    \"load_avg\": [", f);
	for (int i = 0; i < 3; i++) {
		number(f, load[i]);
		fputs(i < 2 ? ", " : "],\n", f);
	}
	key_string(f, "library_build_type", "release");
	fputs("    \"json_schema_version\": 1,\n", f);
	key_string(f, "ecsbench_commit", report_commit());
	key_string(f, "ecsbench_compiler", "gcc " __VERSION__);
	key_string(f, "ecsbench_cflags", report_cflags());
	key_string(f, "ecsbench_march_native", report_march());
	key_string(f, "ecsbench_clock",
	           o->wall_clock ? "real_time and cpu_time are both the wall clock (--clock wall)"
	                         : "real_time and cpu_time are both the measuring thread's CPU time "
	                           "(a threaded row's: the wall clock), as the CSV's samples");
	key_string(f, "ecsbench_entries",
	           "an iteration per timed sample (its time per run of the workload; iterations: "
	           "runs in the sample), then the row's median aggregate: median_ns, the geometric "
	           "mean of the processes' medians, with its 95% interval across processes "
	           "(ci_low_ns, ci_high_ns)");
	fprintf(f, "    \"ecsbench_processes\": %u,\n", c->processes_done);
	key_string(f, "ecsbench_profile", o->profile ? o->profile->name : "");
	fprintf(f, "    \"ecsbench_command\": ");
	gbench_string(f, command);
	fputs("\n  },\n  \"benchmarks\": [", f);
}

void gbench_entry(FILE *f, const struct gbench_entry *e, bool first)
{
	fprintf(f, "%s\n    {\n      \"name\": ", first ? "" : ",");
	if (e->aggregate) {
		char name[512];
		snprintf(name, sizeof name, "%s_%s", e->name, e->aggregate);
		gbench_string(f, name);
	} else {
		gbench_string(f, e->name);
	}
	fprintf(f, ",\n      \"family_index\": %u,\n      \"per_family_instance_index\": %u,\n",
	        e->family_index, e->instance_index);
	fputs("      \"run_name\": ", f);
	gbench_string(f, e->name);
	fprintf(f, ",\n      \"run_type\": \"%s\",\n", e->aggregate ? "aggregate" : "iteration");
	fprintf(f, "      \"repetitions\": %u,\n", e->repetitions);
	if (e->aggregate) {
		fputs("      \"threads\": ", f);
		fprintf(f, "%u,\n      \"aggregate_name\": ", e->threads);
		gbench_string(f, e->aggregate);
		fputs(",\n      \"aggregate_unit\": \"time\",\n", f);
		fprintf(f, "      \"iterations\": %u,\n", e->repetitions);
	} else {
		fprintf(f, "      \"repetition_index\": %u,\n      \"threads\": %u,\n",
		        e->repetition_index, e->threads);
		fprintf(f, "      \"iterations\": %llu,\n", (unsigned long long)e->iterations);
	}
	fputs("      \"real_time\": ", f);
	number(f, e->time_ns);
	fputs(",\n      \"cpu_time\": ", f);
	number(f, e->time_ns);
	fputs(",\n      \"time_unit\": \"ns\"", f);
	for (uint32_t i = 0; i < e->counter_count; i++) {
		const struct gbench_counter *k = &e->counters[i];
		if (!k->has || !isfinite(k->value))
			continue;
		fputs(",\n      ", f);
		gbench_string(f, k->name);
		fputs(": ", f);
		number(f, k->value);
	}
	fputs("\n    }", f);
}

void gbench_end(FILE *f)
{
	fputs("\n  ]\n}\n", f);
}
