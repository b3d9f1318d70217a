/*
 * sweep_columns.h: the columns of the workload sweep's CSV (sweep_columns.c), in their order:
 * each one's name, what it means, and how its value is printed. Everything that names a column
 * comes from this table: the CSV's header row and every row (sweep_report.c fills a value per
 * column, by its name here, and the table prints them in order), the reader
 * (compare/csvread.c, which finds them in a file's header by these names), `ecsbench
 * --columns`, and tests/columns.sh, which holds docs/csv.md to the same names in the same order.
 * A column is added, renamed or moved here alone (and in docs/csv.md, which the test checks);
 * a file written before keeps being read by name.
 *
 * Costs: the table is constant data; a row is one pass over it.
 */
#ifndef ECSB_SWEEP_COLUMNS_H
#define ECSB_SWEEP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The columns, in the CSV's order. */
enum sweep_column_id {
	SWEEP_COL_BACKEND, SWEEP_COL_PROFILE, SWEEP_COL_SYSTEMS, SWEEP_COL_WORKLOAD,
	SWEEP_COL_HISTORY, SWEEP_COL_ENTITIES, SWEEP_COL_COMPONENTS, SWEEP_COL_THREADS,
	SWEEP_COL_COMPONENT_BYTES, SWEEP_COL_PROCESSES, SWEEP_COL_REPS, SWEEP_COL_INNER,
	SWEEP_COL_MEDIAN_NS, SWEEP_COL_CI_LOW_NS, SWEEP_COL_CI_HIGH_NS, SWEEP_COL_NOISY,
	SWEEP_COL_PROCESS_SPREAD_PCT, SWEEP_COL_MAD_PCT, SWEEP_COL_MIN_NS, SWEEP_COL_MAX_NS,
	SWEEP_COL_NS_PER_ENTITY, SWEEP_COL_ENTITIES_PER_SEC, SWEEP_COL_RATIO_TO_FLOOR,
	SWEEP_COL_FLOOR_CI_LOW, SWEEP_COL_FLOOR_CI_HIGH, SWEEP_COL_RATIO_TO_BEST,
	SWEEP_COL_RATIO_CI_LOW, SWEEP_COL_RATIO_CI_HIGH, SWEEP_COL_VS_BEST, SWEEP_COL_SPEEDUP,
	SWEEP_COL_SPEEDUP_CI_LOW, SWEEP_COL_SPEEDUP_CI_HIGH, SWEEP_COL_OFF_CPU_PCT,
	SWEEP_COL_PEAK_BYTES, SWEEP_COL_LIVE_BYTES, SWEEP_COL_LIVE_BYTES_PER_ENTITY,
	SWEEP_COL_ALLOCATIONS, SWEEP_COL_REUSE, SWEEP_COL_CHECKSUM, SWEEP_COL_RERUN_LOW_NS,
	SWEEP_COL_RERUN_HIGH_NS, SWEEP_COL_RATIO_RERUN_LOW, SWEEP_COL_RATIO_RERUN_HIGH,
	SWEEP_COL_RACE, SWEEP_COL_RACE_PROCESS, SWEEP_COL_RACE_BEHIND, SWEEP_COL_DECISION,
	SWEEP_COL_RATIO_LEVEL, SWEEP_COL_INVALID,
	SWEEP_COLUMNS
};

/* How a column's value is printed. */
enum sweep_column_type {
	SWEEP_TEXT,  /* a word or a sentence with no comma, as it is; empty for none */
	SWEEP_WHOLE, /* a whole number in decimal; empty where it does not exist */
	SWEEP_HEX,   /* 64 bits as 16 hexadecimal digits */
	SWEEP_REAL,  /* a real number through printf's `format`; empty where it does not exist */
};

struct sweep_column {
	const char *name;
	const char *meaning; /* one line: what `ecsbench --columns` says (docs/csv.md says more) */
	enum sweep_column_type type;
	const char *format; /* SWEEP_REAL's printf format ("%.1f"); NULL for the others */
};
extern const struct sweep_column sweep_columns[SWEEP_COLUMNS];

/* A row's value of one column, made by the constructors below (set: made at all). */
struct sweep_value {
	bool set, has;
	uint64_t whole;
	double real;
	const char *text;
};
static inline struct sweep_value sweep_text(const char *text)
{
	return (struct sweep_value){.set = true, .has = true, .text = text ? text : ""};
}
static inline struct sweep_value sweep_whole(uint64_t whole)
{
	return (struct sweep_value){.set = true, .has = true, .whole = whole};
}
/* A count that may not exist: empty unless has. */
static inline struct sweep_value sweep_whole_if(bool has, uint64_t whole)
{
	return (struct sweep_value){.set = true, .has = has, .whole = whole};
}
/* A figure that always exists (printed as it is, NaN included). */
static inline struct sweep_value sweep_real(double real)
{
	return (struct sweep_value){.set = true, .has = true, .real = real};
}
/* A figure that may not exist: empty unless has, and empty for NaN. */
static inline struct sweep_value sweep_real_if(bool has, double real)
{
	return (struct sweep_value){.set = true, .has = has && real == real, .real = real};
}

/* The header row: every name in order, joined by commas, and the line end. */
void sweep_columns_write_header(FILE *f);
/* A row: each value printed as its column's type says, joined by commas, and the line end.
 * 0, or -1 (nothing written) when a column has no value: the filler missed it. */
int sweep_columns_write_row(FILE *f, const struct sweep_value v[SWEEP_COLUMNS]);
/* The column named `name`, or -1. */
int sweep_columns_find(const char *name);

#endif
