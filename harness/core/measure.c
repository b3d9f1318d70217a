/*
 * measure.c: the clocks of the timed region (measure.h), and the check build's guard: what must
 * never run inside a timed region calls UNTIMED_ONLY, which aborts there, naming the culprit.
 * Costs: a clock_gettime each (a vDSO call for the wall clock, a system call for the CPU clock).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "measure.h"

uint64_t measure_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t measure_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef ECSB_CHECK_TIMED
bool measure_timed;

void measure_untimed_only(const char *what)
{
	if (!measure_timed)
		return;
	fprintf(stderr, "ecsbench (check build): %s inside a timed region\n", what);
	abort();
}
#endif
