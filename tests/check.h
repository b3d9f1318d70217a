/*
 * check.h: the tests' assertions, after libuv's test/task.h: a failed check prints the
 * expression and both values (through the shared runner, runner.h), and returns false from the
 * function it is in, so helpers that return bool stop at the first failure and the test reports
 * it.
 */
#ifndef ECSB_CHECK_H
#define ECSB_CHECK_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "../impls/ecs.h"
#include "runner.h"

#define CHECK(cond)                                                                        \
	do {                                                                                   \
		if (!(cond)) {                                                                     \
			check_failed(__FILE__, __LINE__, "%s", #cond);                                 \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

#define CHECK_EQ(a, b)                                                                     \
	do {                                                                                   \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);                    \
		if (check_a_ != check_b_) {                                                        \
			check_failed(__FILE__, __LINE__, "%s == %s (%lld != %lld)", #a, #b, check_a_,  \
			             check_b_);                                                        \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

/* A status: prints the names of both codes. */
#define CHECK_STATUS(expr, want)                                                           \
	do {                                                                                   \
		int check_got_ = (expr), check_want_ = (want);                                     \
		if (check_got_ != check_want_) {                                                   \
			check_failed(__FILE__, __LINE__, "%s returned %s, expected %s", #expr,         \
			             ecs_status_name(check_got_), ecs_status_name(check_want_));       \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, ECS_OK)

/* Runs a bool helper and passes its failure up. */
#define TRY(expr)                                                                          \
	do {                                                                                   \
		if (!(expr))                                                                       \
			return false;                                                                  \
	} while (0)

#endif
