/*
 * bench.c: a failure written into a row's result (bench.h), the one helper every layer that
 * runs a row shares.
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
