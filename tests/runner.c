/*
 * runner.c: the tests' shared runner (runner.h): the test under way, its failures' lines, the
 * counts and the summary line. Output is line buffered and flushed at each failure, so that a
 * test that then crashes (an abort in the fuzz target, a sanitizer's report) has said where.
 */
#include <stdarg.h>
#include <stdio.h>

#include "runner.h"

static char current[160];
static bool reported; /* the test under way has printed a failure */
static unsigned passed, failed;
static FILE *failures_file;
static const char *failures_name;

void runner_begin(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(current, sizeof current, fmt, ap);
	va_end(ap);
	reported = false;
	setvbuf(stdout, NULL, _IOLBF, 0);
}

const char *runner_test(void) { return current; }

bool runner_end(bool ok)
{
	if (ok) {
		printf("ok   %s\n", current);
		passed++;
	} else {
		if (!reported)
			printf("FAIL %s\n", current);
		failed++;
	}
	return ok;
}

int runner_summary(void)
{
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

void runner_failures_to(FILE *f, const char *name)
{
	failures_file = f;
	failures_name = name;
}

void check_failed(const char *file, int line, const char *fmt, ...)
{
	FILE *to = failures_file ? failures_file : stdout;
	va_list ap;
	if (failures_file)
		fprintf(to, "%s: %s:%d: ", failures_name, file, line);
	else
		fprintf(to, "FAIL %s: %s:%d: ", current, file, line);
	va_start(ap, fmt);
	vfprintf(to, fmt, ap);
	va_end(ap);
	fputc('\n', to);
	fflush(to);
	reported = true;
}
