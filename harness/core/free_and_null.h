/*
 * free_and_null.h: FREE_AND_NULL(p), git's idiom: frees what p points to and forgets it. The
 * release functions of the harness's structs (plans, collections, answers, spawn plans) use it,
 * so that a struct released twice (an error path, then its owner's release) frees nothing
 * twice, and a pointer freed is never left behind to be read.
 */
#ifndef ECSB_FREE_AND_NULL_H
#define ECSB_FREE_AND_NULL_H

#include <stdlib.h>

#define FREE_AND_NULL(p) \
	do { \
		free(p); \
		(p) = NULL; \
	} while (0)

#endif
