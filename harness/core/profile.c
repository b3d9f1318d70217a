/*
 * profile.c: the profiles of Vigier's post (bench.h: struct profile), the component types and
 * systems every storage of a run registers, found by name (--profile).
 */
#include <string.h>
#include <strings.h>

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

const struct profile *profile_find_nocase(const char *name)
{
	for (size_t i = 0; i < profile_count; i++)
		if (strcasecmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}
