/*
 * measure.h: marks around the timed region of every workload, for tools that measure it alone.
 * Empty in the normal build. In the callgrind build (make cachegrind / make profile compile with
 * -DECSB_CALLGRIND into build/cachegrind/) they switch callgrind's event collection on and off,
 * so that with --collect-atstart=no its counts (instructions, D refs, cache misses) cover the
 * timed loops and nothing else: not the setup, the value generation or the checksums. Valgrind
 * 3.19's cachegrind has no such requests, hence callgrind with --cache-sim=yes.
 */
#ifndef ECSB_MEASURE_H
#define ECSB_MEASURE_H

#ifdef ECSB_CALLGRIND
#include <valgrind/callgrind.h>
/* START_INSTRUMENTATION does nothing when instrumentation is already on (the default), and lets
 * a run with --instr-atstart=no skip simulating the setup. */
#define MEASURE_BEGIN()                                                                            \
	do {                                                                                           \
		CALLGRIND_START_INSTRUMENTATION;                                                           \
		CALLGRIND_TOGGLE_COLLECT;                                                                  \
	} while (0)
#define MEASURE_END() CALLGRIND_TOGGLE_COLLECT
#else
#define MEASURE_BEGIN() ((void)0)
#define MEASURE_END() ((void)0)
#endif

#endif
