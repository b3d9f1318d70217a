/*
 * report.c: what every CSV of a run shares (report.h): the lines that say where and how it was
 * measured (commit, CPU, compiler, malloc, clock, the machine), the lines that say what its
 * statistics mean, and the formatting of one figure. Formatting only: the statistics are
 * stats.c's, the rows each kind's (sweep_report.c, scenario_report.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "stats.h"

#ifndef ECSB_COMMIT
#define ECSB_COMMIT "unknown"
#endif
#ifndef ECSB_CFLAGS
#define ECSB_CFLAGS "unknown"
#endif
#ifndef ECSB_MARCH
#define ECSB_MARCH "unknown"
#endif

const char *report_commit(void) { return ECSB_COMMIT; }
const char *report_cflags(void) { return ECSB_CFLAGS; }
const char *report_march(void) { return ECSB_MARCH; }

void report_cpu_model(char *buf, size_t len)
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

void report_run_header(FILE *f, const struct collection *c, bool samples)
{
	const struct options *o = c->o;
	char cpu[256], date[64];
	report_cpu_model(cpu, sizeof cpu);
	time_t t = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	fprintf(f, "# ecsbench commit %s\n", ECSB_COMMIT);
	fprintf(f, "# date %s\n", date);
	if (o->provisional_of)
		fprintf(f, "# provisional after %u of %u processes: the rows of the processes done so "
		           "far, while the run went on (its CSV holds the end)\n",
		        o->processes, o->provisional_of);
	fprintf(f, "# cpu %s; %ld online; %s\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), c->pinning);
	fprintf(f, "# compiler gcc %s; flags %s; -march=native is %s\n", __VERSION__, ECSB_CFLAGS,
	        ECSB_MARCH);
	fprintf(f, "# malloc %s\n", c->malloc_mode);
	fprintf(f, "# clock %s%s\n",
	        o->wall_clock ? "wall (CLOCK_MONOTONIC): time the measuring thread spent off the CPU "
	                        "counts (--clock wall)"
	                      : "the measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID): time "
	                        "another process, or the host, took the CPU away does not count; "
	                        "off_cpu_pct says how much that was (never below 0: the CPU "
	                        "clock is read outside the wall clock, so that a sample's CPU time "
	                        "holds part of its two reads of the CPU clock, system calls of about "
	                        "a microsecond, and comes out above its wall time by that much when "
	                        "the thread never left the CPU)",
	        o->wall_clock || !c->plan->threaded
	            ? ""
	            : "; but a threaded row (parallel-iterate, a scenario with a parallel system, "
	              "its phases too) is on the wall clock (CLOCK_MONOTONIC): the measuring "
	              "thread's CPU time would miss the other threads' work and the wait for the "
	              "slowest");
	machine_write_header(f, c->machine, c->processes_done, samples);
}

void report_stats_header(FILE *f, uint32_t processes, const char *participant,
                         const char *centre)
{
	if (processes > 1)
		fprintf(f, "# interval: %s is a row's centre, the geometric mean of its processes' "
		           "medians (exp of the mean of their log medians); ci_low_ns and ci_high_ns its "
		           "95%% confidence interval across processes (Student's t over the same log "
		           "medians, centred on it)%s\n",
		        centre,
		        processes == 2 ? "; with 2 processes t has 1 degree of freedom (12.71 standard "
		                         "errors each side, where 5 processes have 2.78): wide intervals, "
		                         "themselves unsure"
		                       : "");
	else
		fprintf(f, "# interval: %s is a row's centre, the geometric mean of its samples in the "
		           "one process; ci_low_ns and ci_high_ns its 95%% confidence interval within "
		           "that process only (Student's t over the log samples, centred on it: it says "
		           "nothing of other processes)\n",
		        centre);
	fprintf(f, "# comparisons: ratio_to_best is %s over the best's, the best being the %s with "
	           "the lowest %s of its group, so that no ratio is below 1; ratio_ci_low and "
	           "ratio_ci_high: Student's t over the differences of %s, simultaneous 95%% for "
	           "the group, each at 1 - 5%%/(K(K - 1)/2) for a group of K (Bonferroni over every "
	           "pair: the best is chosen from the same samples, so a %s as fast as the best is "
	           "called slower, anywhere in the group, in at most 5%% of runs); "
	           "vs_best: slower when that interval lies above 1, tied otherwise; rows tied with "
	           "the best whose ratio interval reaches beyond %.2f (or that have none) are flagged "
	           "noisy, and the best of a group that has one\n",
	        centre, participant, centre,
	        processes > 1 ? "log medians paired by process" : "log samples paired by round",
	        participant, STATS_NOISY_RATIO);
}

const char *report_figure(char *buf, size_t len, bool has, const char *fmt, double v)
{
	if (!has || isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, v);
	return buf;
}
