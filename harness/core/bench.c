/*
 * bench.c: the one helper every layer that runs a row shares (bench.h): a failure written into
 * the row's result.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bench.h"

int bench_fail(struct bench_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	return -1;
}
