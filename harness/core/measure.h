/*
 * measure.h: what the one timed region of the harness is made of (workloads.c's run_sample):
 * its two clocks (measure.c), the compiler barrier that closes it, and the marks around it, for
 * tools that measure it alone. The marks are empty in the normal build. In the callgrind build
 * (make cachegrind / make profile compile with -DECSB_CALLGRIND into build/cachegrind/) they
 * switch callgrind's event collection on and off, so that with --collect-atstart=no its counts
 * (instructions, D refs, cache misses) cover the timed loops and nothing else: not the setup,
 * the value generation or the checksums. Valgrind 3.19's cachegrind has no such requests, hence
 * callgrind with --cache-sim=yes.
 */
#ifndef ECSB_MEASURE_H
#define ECSB_MEASURE_H

#include <stdint.h>

/* CLOCK_MONOTONIC, in ns: the wall clock of samples, progress and durations. */
uint64_t measure_now_ns(void);
/* CLOCK_THREAD_CPUTIME_ID, in ns: the calling thread's time on a CPU (--clock cpu). */
uint64_t measure_cpu_ns(void);

/* google benchmark's ClobberMemory: the compiler must assume all memory was read and written. */
static inline void measure_clobber(void) { __asm__ volatile("" : : : "memory"); }

/*
 * The check build (build/check/, -DECSB_CHECK_TIMED, run by make test) also marks the timed
 * region, and what must never run inside it (making values, drawing random decisions, building
 * permutations) calls UNTIMED_ONLY, which aborts with the name of the culprit if it does: the
 * rule "the timed region holds the operation and nothing else" as a test.
 */
#ifdef ECSB_CHECK_TIMED
#include <stdbool.h>
extern bool measure_timed;
void measure_untimed_only(const char *what);
#define UNTIMED_ONLY(what) measure_untimed_only(what)
#define CHECK_TIMED_BEGIN() (measure_timed = true)
#define CHECK_TIMED_END() (measure_timed = false)
#else
#define UNTIMED_ONLY(what) ((void)0)
#define CHECK_TIMED_BEGIN() ((void)0)
#define CHECK_TIMED_END() ((void)0)
#endif

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
#define MEASURE_BEGIN() CHECK_TIMED_BEGIN()
#define MEASURE_END() CHECK_TIMED_END()
#endif

#endif
