/*
 * answer_report.h: a run's answer (answer.h) written for scripts/answer.sh (answer_report.c),
 * which lays it out as Markdown or HTML: a record a line, its fields separated by tabs.
 *
 *   title TEXT       the answer's title
 *   h TEXT           a heading
 *   p TEXT           a paragraph
 *   li TEXT          an item of a list (consecutive items make one list)
 *   table HEADS RIGHT  a table's head (HEADS: the columns' names joined by '|'; RIGHT: the
 *                    numbers of the columns aligned right, from 1, joined by spaces)
 *   row FAST CELLS   a row of it: FAST the number of the cell that names a fastest (0: none),
 *                    then a field per cell
 *   end              the end of the table
 *
 * Every figure is formatted here, in the units a reader reads (ns, or ps below 0.1 ns, an
 * entity; ms, µs or ns for a run or a frame); the script adds nothing but layout.
 */
#ifndef ECSB_ANSWER_REPORT_H
#define ECSB_ANSWER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "answer.h"

struct answer_report_options {
	const char *path;    /* the CSV, as the title names it */
	const char *figures; /* the folder of the run's figures ("plots/A"), or NULL */
	const char *first;   /* the first provisional CSV the changes are counted from, or NULL */
	const char *note;    /* where the full answer is (for brief) */
	bool brief;          /* a terminal's: without what `note` holds */
};

void answer_report_print(FILE *out, const struct answer *a, const struct answer_report_options *o);

/* Three significant digits (123, 12.3, 1.23, 0.123), "-" for NaN: a time as the answer and
 * make compare print it. */
void answer_report_digits(char *buf, size_t len, double x);

#endif
