/*
 * options.c: the one way a bad option ends the program (options.h), shared by the parser and by
 * each kind's checks, so that every refusal reads the same and exits 2 before anything runs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "options.h"

void options_usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ecsbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(2);
}
