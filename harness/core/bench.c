/*
 * bench.c: what every layer that runs a row shares (bench.h): the profiles of Vigier's post,
 * found by name, and a failure written into the row's result.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

const struct profile profiles[] = {
	{"A", 32, 16},
	{"AA", 128, 32},
	{"AAA", 512, 64},
};
const size_t profile_count = sizeof profiles / sizeof profiles[0];

const struct profile *profile_find(const char *name)
{
	for (size_t i = 0; i < profile_count; i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

int bench_fail(struct bench_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	return -1;
}
