/*
 * sweep_columns.c: the workload sweep's CSV columns (see sweep_columns.h): the table, and the
 * header and rows printed from it. A table indexed by the column's enum (designated
 * initializers), so that an entry sits under its name whatever the order of the lines here.
 */
#include <inttypes.h>
#include <string.h>

#include "sweep_columns.h"

#define TEXT(n, m) {n, m, SWEEP_TEXT, NULL}
#define WHOLE(n, m) {n, m, SWEEP_WHOLE, NULL}
#define REAL(n, f, m) {n, m, SWEEP_REAL, f}

const struct sweep_column sweep_columns[SWEEP_COLUMNS] = {
	[SWEEP_COL_BACKEND] = TEXT("backend",
	          "the participant: a backend, or floor (the same work over plain arrays)"),
	[SWEEP_COL_PROFILE] = TEXT("profile",
	          "A, AA or AAA: the component types and systems registered"),
	[SWEEP_COL_SYSTEMS] = WHOLE("systems", "systems registered (--systems)"),
	[SWEEP_COL_WORKLOAD] = TEXT("workload", "what the clock times (ecsbench --list)"),
	[SWEEP_COL_HISTORY] = TEXT("history",
	          "what the storage went through before the clock (lived-in, pristine, ...; - for none)"),
	[SWEEP_COL_ENTITIES] = WHOLE("entities", "N, the entities of the workload"),
	[SWEEP_COL_COMPONENTS] = WHOLE("components", "k, the components of each entity"),
	[SWEEP_COL_THREADS] = WHOLE("threads",
	          "T, the threads of parallel-iterate's pass (1 for every other workload)"),
	[SWEEP_COL_COMPONENT_BYTES] = WHOLE("component_bytes",
	          "bytes of Position and Velocity (--component-size)"),
	[SWEEP_COL_PROCESSES] = WHOLE("processes", "processes that measured the row"),
	[SWEEP_COL_REPS] = WHOLE("reps", "its timed samples, in all of them"),
	[SWEEP_COL_INNER] = WHOLE("inner", "runs of the workload per sample"),
	[SWEEP_COL_MEDIAN_NS] = REAL("median_ns", "%.1f",
	          "ns of one run: the geometric mean of the row's levels, one a process"),
	[SWEEP_COL_CI_LOW_NS] = REAL("ci_low_ns", "%.1f",
	          "median_ns's 95% interval across processes, its low end (empty: one process)"),
	[SWEEP_COL_CI_HIGH_NS] = REAL("ci_high_ns", "%.1f", "its high end"),
	[SWEEP_COL_NOISY] = WHOLE("noisy",
	          "1 if the row still races in a group the run could not decide"),
	[SWEEP_COL_PROCESS_SPREAD_PCT] = REAL("process_spread_pct", "%.2f",
	          "standard deviation of the row's log levels across processes, x 100"),
	[SWEEP_COL_MAD_PCT] = REAL("mad_pct", "%.2f",
	          "median absolute deviation of the samples within a process, % of the median"),
	[SWEEP_COL_MIN_NS] = REAL("min_ns", "%.1f", "the fastest sample"),
	[SWEEP_COL_MAX_NS] = REAL("max_ns", "%.1f", "the slowest sample"),
	[SWEEP_COL_NS_PER_ENTITY] = REAL("ns_per_entity", "%.4g",
	          "median_ns per entity (and round; per pass for empty-pass)"),
	[SWEEP_COL_ENTITIES_PER_SEC] = REAL("entities_per_sec", "%.0f",
	          "the inverse of ns_per_entity"),
	[SWEEP_COL_RATIO_TO_FLOOR] = REAL("ratio_to_floor", "%.3f",
	          "median_ns over the floor row's, paired by process"),
	[SWEEP_COL_FLOOR_CI_LOW] = REAL("floor_ci_low", "%.3f",
	          "ratio_to_floor's 95% interval, its low end"),
	[SWEEP_COL_FLOOR_CI_HIGH] = REAL("floor_ci_high", "%.3f", "its high end"),
	[SWEEP_COL_RATIO_TO_BEST] = REAL("ratio_to_best", "%.3f",
	          "the row's time over its group's best's, paired by process"),
	[SWEEP_COL_RATIO_CI_LOW] = REAL("ratio_ci_low", "%.3f",
	          "ratio_to_best's interval at the level ratio_level, its low end"),
	[SWEEP_COL_RATIO_CI_HIGH] = REAL("ratio_ci_high", "%.3f", "its high end"),
	[SWEEP_COL_VS_BEST] = TEXT("vs_best",
	          "best, slower (left the race), equal (decided within 10%) or tied (undecided)"),
	[SWEEP_COL_SPEEDUP] = REAL("speedup", "%.3f",
	          "parallel-iterate: median_ns at T = 1 over median_ns at T"),
	[SWEEP_COL_SPEEDUP_CI_LOW] = REAL("speedup_ci_low", "%.3f",
	          "speedup's 95% interval, its low end"),
	[SWEEP_COL_SPEEDUP_CI_HIGH] = REAL("speedup_ci_high", "%.3f", "its high end"),
	[SWEEP_COL_OFF_CPU_PCT] = REAL("off_cpu_pct", "%.1f",
	          "share of the wall time the measuring thread spent off the CPU"),
	[SWEEP_COL_PEAK_BYTES] = WHOLE("peak_bytes", "the storage's peak bytes, setup included"),
	[SWEEP_COL_LIVE_BYTES] = WHOLE("live_bytes",
	          "the bytes the storage held when the workload ended"),
	[SWEEP_COL_LIVE_BYTES_PER_ENTITY] = REAL("live_bytes_per_entity", "%.1f",
	          "live_bytes over N"),
	[SWEEP_COL_ALLOCATIONS] = WHOLE("allocations",
	          "allocation calls inside the timed region, per run"),
	[SWEEP_COL_REUSE] = REAL("reuse", "%.3f",
	          "round-based workloads: peak after the last round over peak after the first"),
	[SWEEP_COL_CHECKSUM] = {"checksum",
	          "64-bit hash of the state the workload left, equal across backends and the floor",
	          SWEEP_HEX, NULL},
	[SWEEP_COL_RERUN_LOW_NS] = REAL("rerun_low_ns", "%.1f",
	          "where a rerun of the same command puts median_ns, 95% of the time: low end"),
	[SWEEP_COL_RERUN_HIGH_NS] = REAL("rerun_high_ns", "%.1f", "its high end"),
	[SWEEP_COL_RATIO_RERUN_LOW] = REAL("ratio_rerun_low", "%.3f",
	          "the same for ratio_to_best (empty for the best): low end"),
	[SWEEP_COL_RATIO_RERUN_HIGH] = REAL("ratio_rerun_high", "%.3f", "its high end"),
	[SWEEP_COL_RACE] = TEXT("race",
	          "where the row stands in its group's race: in, left, screened, calibration, failed"),
	[SWEEP_COL_RACE_PROCESS] = WHOLE("race_process",
	          "the processes it had when it left (empty while it races)"),
	[SWEEP_COL_RACE_BEHIND] = TEXT("race_behind", "the backend it was behind when it left"),
	[SWEEP_COL_DECISION] = TEXT("decision", "the group's answer: fastest, equal or open"),
	[SWEEP_COL_RATIO_LEVEL] = REAL("ratio_level", "%.6f",
	          "the two-sided level of the row's ratio interval"),
	[SWEEP_COL_INVALID] = TEXT("invalid",
	          "why the row's figure is one the machine cannot produce; empty otherwise"),
};

void sweep_columns_write_header(FILE *f)
{
	for (int i = 0; i < SWEEP_COLUMNS; i++)
		fprintf(f, "%s%s", i ? "," : "", sweep_columns[i].name);
	fputc('\n', f);
}

int sweep_columns_write_row(FILE *f, const struct sweep_value v[SWEEP_COLUMNS])
{
	for (int i = 0; i < SWEEP_COLUMNS; i++)
		if (!v[i].set)
			return -1;
	for (int i = 0; i < SWEEP_COLUMNS; i++) {
		const struct sweep_column *c = &sweep_columns[i];
		if (i)
			fputc(',', f);
		switch (c->type) {
		case SWEEP_TEXT: fputs(v[i].text, f); break;
		case SWEEP_WHOLE:
			if (v[i].has)
				fprintf(f, "%" PRIu64, v[i].whole);
			break;
		case SWEEP_HEX: fprintf(f, "%016" PRIx64, v[i].whole); break;
		case SWEEP_REAL:
			if (v[i].has)
				fprintf(f, c->format, v[i].real);
			break;
		}
	}
	fputc('\n', f);
	return 0;
}

int sweep_columns_find(const char *name)
{
	for (int i = 0; i < SWEEP_COLUMNS; i++)
		if (strcmp(sweep_columns[i].name, name) == 0)
			return i;
	return -1;
}
