/*
 * scenario_check.c: the checks of a scenario file (scenario_file.c reads it): each value on its
 * own as inih hands it over (syntax, range, list length), stored as written; then
 * scenario_resolve, what spans sections (names that must exist, required keys, requires
 * against excludes, entity totals), and what it derives for an engine (type ids, sorted type
 * lists, counts after scale). scenario_resolve keeps the problem with the smallest line, so
 * the first problem in the file is the one reported whatever the order of the checks.
 *
 * Costs: names are looked up linearly (at most SCENARIO_MAX_COMPONENTS types, a few hundred
 * references: microseconds). Nothing here runs during a measured frame.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_check.h"

static const char *const scenario_keys[] = {"frames",  "warmup",  "seed",
                                            "scale",   "entities", "lookups",
                                            "lookup",  "threads",  "storage", NULL};
static const char *const component_keys[] = {"size", "storage", NULL};
static const char *const kind_keys[] = {"components", "count",    "spawn",
                                        "despawn",    "variants", "batch", NULL};
static const char *const system_keys[] = {"requires", "excludes", "reads",    "writes",
                                          "work",     "despawn",  "add",      "remove",
                                          "parallel", "group",    NULL};
static const char *const effect_keys[] = {"kind",   "component", "add",
                                          "duration", "remove", "batch", NULL};

static const char *const *const section_keys[SECTION_KINDS] = {
	[SECTION_SCENARIO] = scenario_keys, [SECTION_COMPONENT] = component_keys,
	[SECTION_KIND] = kind_keys,         [SECTION_SYSTEM] = system_keys,
	[SECTION_EFFECT] = effect_keys,
};

/* --- values, checked on their own ------------------------------------------------------ */

static bool is_name(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

/* Why `s` is not a valid name, or NULL if it is. */
const char *scenario_name_problem(const char *s)
{
	if (!*s)
		return "a name is missing";
	if (!is_name(s))
		return "names are letters, digits and _, not starting with a digit";
	if (strlen(s) > SCENARIO_NAME_MAX_LEN)
		return "names have at most 31 characters";
	return NULL;
}

static bool parse_whole(const char *v, uint64_t min, uint64_t max, uint64_t *out, char *msg,
                        size_t len)
{
	if (!*v || strspn(v, "0123456789") != strlen(v)) {
		snprintf(msg, len, "not a whole number");
		return false;
	}
	errno = 0;
	unsigned long long x = strtoull(v, NULL, 10);
	if (errno == ERANGE || x < min || x > max) {
		snprintf(msg, len, "out of range (%" PRIu64 "..%" PRIu64 ")", min, max);
		return false;
	}
	*out = x;
	return true;
}

/* A plain decimal: digits with at most one point; no sign, exponent, hex, inf or nan. */
static bool parse_decimal(const char *v, double *out)
{
	size_t digits = strspn(v, "0123456789");
	const char *p = v + digits;
	if (*p == '.') {
		size_t fraction = strspn(p + 1, "0123456789");
		digits += fraction;
		p += 1 + fraction;
	}
	if (digits == 0 || *p)
		return false;
	*out = strtod(v, NULL);
	return isfinite(*out);
}

enum amount_form { AMOUNT_WHOLE_OR_PERCENT, AMOUNT_DECIMAL_OR_PERCENT, AMOUNT_PERCENT };

/* "N" (up to max) or "P%" (0..100), as the form allows. */
static bool parse_amount(const char *v, enum amount_form form, double max,
                         struct scenario_amount *out, char *msg, size_t len)
{
	char number[64];
	size_t n = strlen(v);
	bool percent = n > 0 && v[n - 1] == '%';
	if (percent)
		n--;
	while (n > 0 && isspace((unsigned char)v[n - 1]))
		n--;
	bool ok = n < sizeof number;
	if (ok) {
		memcpy(number, v, n);
		number[n] = '\0';
	}
	double x = 0;
	ok = ok && parse_decimal(number, &x);
	if (ok && form == AMOUNT_WHOLE_OR_PERCENT && !percent && strchr(number, '.'))
		ok = false;
	if (!ok || (form == AMOUNT_PERCENT && !percent)) {
		snprintf(msg, len, "%s",
		         form == AMOUNT_PERCENT ? "not a percentage (e.g. 1.5%)"
		         : form == AMOUNT_WHOLE_OR_PERCENT
		             ? "not a whole number or a percentage (e.g. 1000 or 10%)"
		             : "not a number or a percentage (e.g. 2.5 or 10%)");
		return false;
	}
	if (percent && x > 100) {
		snprintf(msg, len, "above 100%%");
		return false;
	}
	if (!percent && x > max) {
		snprintf(msg, len, "above %.0f", max);
		return false;
	}
	out->value = x;
	out->percent = percent;
	return true;
}

char *scenario_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/*
 * A comma-separated list of names ("Position, Velocity"), into names[0..*count). With shares,
 * each entry is "NAME P%" and its share goes to shares[].
 */
static bool parse_list(const char *v, char (*names)[SCENARIO_NAME_SIZE], double *shares,
                       uint32_t min, uint32_t max, uint32_t *count, char *msg, size_t len)
{
	char copy[256];
	if (strlen(v) >= sizeof copy) {
		snprintf(msg, len, "list too long");
		return false;
	}
	strcpy(copy, v);
	uint32_t n = 0;
	if (*scenario_trim(copy)) {
		char *item = copy;
		for (;;) {
			char *comma = strchr(item, ',');
			if (comma)
				*comma = '\0';
			char *name = scenario_trim(item);
			char *rest = name + strcspn(name, " \t");
			if (shares) {
				if (*rest)
					*rest++ = '\0';
				rest = scenario_trim(rest);
			}
			if (!*name) {
				snprintf(msg, len, "an empty entry in the list");
				return false;
			}
			if (!shares && *rest) {
				snprintf(msg, len, "'%s' is not a name (entries are separated by commas)", name);
				return false;
			}
			const char *why = scenario_name_problem(name);
			if (why) {
				snprintf(msg, len, "'%.40s': %s", name, why);
				return false;
			}
			if (n == max) {
				snprintf(msg, len, "more than %" PRIu32 " entries", max);
				return false;
			}
			for (uint32_t i = 0; i < n; i++)
				if (strcmp(names[i], name) == 0) {
					snprintf(msg, len, "%s listed twice", name);
					return false;
				}
			if (shares) {
				struct scenario_amount a;
				char why_share[96];
				if (!*rest) {
					snprintf(msg, len, "%s needs a share (e.g. %s 1%%)", name, name);
					return false;
				}
				if (!parse_amount(rest, AMOUNT_PERCENT, 0, &a, why_share, sizeof why_share)) {
					snprintf(msg, len, "%s %s: %s", name, rest, why_share);
					return false;
				}
				shares[n] = share_of(a.value);
			}
			strcpy(names[n++], name);
			if (!comma)
				break;
			item = comma + 1;
		}
	}
	if (n < min) {
		snprintf(msg, len, "needs at least %" PRIu32 " name%s", min, min == 1 ? "" : "s");
		return false;
	}
	*count = n;
	return true;
}

static bool parse_one_name(const char *v, char *out, char *msg, size_t len)
{
	const char *why = scenario_name_problem(v);
	if (why) {
		snprintf(msg, len, "%s", why);
		return false;
	}
	strcpy(out, v);
	return true;
}

/* A switch: yes or true, no or false (lower case). */
static bool parse_switch(const char *v, bool *out, char *msg, size_t len)
{
	if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0)
		*out = true;
	else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0)
		*out = false;
	else {
		snprintf(msg, len, "not yes or no (or true or false)");
		return false;
	}
	return true;
}

struct scenario_source *scenario_section_source(struct scenario *sc, enum section_kind section,
                                                uint32_t index)
{
	switch (section) {
	case SECTION_SCENARIO: return &sc->src;
	case SECTION_COMPONENT: return &sc->types[index].src;
	case SECTION_KIND: return &sc->kinds[index].src;
	case SECTION_SYSTEM: return &sc->systems[index].src;
	case SECTION_EFFECT: return &sc->effects[index].src;
	default: return NULL;
	}
}

const char *scenario_section_name(const struct scenario *sc, enum section_kind section,
                                  uint32_t index)
{
	switch (section) {
	case SECTION_COMPONENT: return sc->types[index].name;
	case SECTION_KIND: return sc->kinds[index].name;
	case SECTION_SYSTEM: return sc->systems[index].name;
	case SECTION_EFFECT: return sc->effects[index].name;
	default: return "";
	}
}

/* Checks one value and stores it as written; on a problem, says why in msg. */
/* "internal error: no such key": a key the table of keys has and the switch below does not. */
static bool no_such_key(char *msg, size_t len)
{
	snprintf(msg, len, "internal error: no such key");
	return false;
}

/* A key of [scenario]. */
static bool apply_scenario_key(struct scenario *sc, int key, const char *v, char *msg, size_t len)
{
	uint64_t x;
	switch (key) {
	case SC_FRAMES:
		if (!parse_whole(v, 1, SCENARIO_MAX_FRAMES, &x, msg, len))
			return false;
		sc->frames = (uint32_t)x;
		return true;
	case SC_WARMUP:
		if (!parse_whole(v, 0, SCENARIO_MAX_FRAMES, &x, msg, len))
			return false;
		sc->warmup = (uint32_t)x;
		return true;
	case SC_SEED:
		if (!parse_whole(v, 0, UINT64_MAX, &x, msg, len))
			return false;
		sc->seed = x;
		return true;
	case SC_SCALE: {
		double s;
		if (!parse_decimal(v, &s) || s <= 0 || s > SCENARIO_MAX_SCALE) {
			snprintf(msg, len, "not a number above 0 and at most %g", SCENARIO_MAX_SCALE);
			return false;
		}
		sc->scale = s;
		return true;
	}
	case SC_ENTITIES:
		if (!parse_whole(v, 1, SCENARIO_MAX_ENTITIES, &x, msg, len))
			return false;
		sc->entities = (uint32_t)x;
		return true;
	case SC_LOOKUPS:
		return parse_amount(v, AMOUNT_WHOLE_OR_PERCENT, SCENARIO_MAX_LOOKUPS,
		                    &sc->written.lookups, msg, len);
	case SC_LOOKUP:
		return parse_list(v, sc->written.lookup, NULL, 0, SCENARIO_MAX_LOOKUP_TYPES,
		                  &sc->written.lookup_count, msg, len);
	case SC_THREADS:
		if (strcmp(v, "all") == 0) {
			sc->threads = 0;
			return true;
		}
		if (!parse_whole(v, 1, SCENARIO_MAX_THREADS, &x, msg, len)) {
			snprintf(msg, len, "not a number of threads (1..%u) or all",
			         (unsigned)SCENARIO_MAX_THREADS);
			return false;
		}
		sc->threads = (uint32_t)x;
		return true;
	case SC_STORAGE:
		if (strcmp(v, "marked") != 0 && strcmp(v, "table") != 0) {
			snprintf(msg, len, "not marked or table");
			return false;
		}
		sc->unmarked = strcmp(v, "table") == 0;
		return true;
	}
	return no_such_key(msg, len);
}

/* A key of [kind NAME]. */
static bool apply_kind_key(struct scenario_kind *k, int key, const char *v, char *msg, size_t len)
{
	uint64_t x;
	switch (key) {
	case KIND_COMPONENTS:
		return parse_list(v, k->written.components, NULL, 1, SCENARIO_KIND_MAX_TYPES,
		                  &k->written.component_count, msg, len);
	case KIND_COUNT:
		return parse_amount(v, AMOUNT_WHOLE_OR_PERCENT, SCENARIO_MAX_ENTITIES,
		                    &k->written.count, msg, len);
	case KIND_SPAWN:
		return parse_amount(v, AMOUNT_DECIMAL_OR_PERCENT, SCENARIO_MAX_ENTITIES,
		                    &k->written.spawn, msg, len);
	case KIND_DESPAWN:
		return parse_amount(v, AMOUNT_DECIMAL_OR_PERCENT, SCENARIO_MAX_ENTITIES,
		                    &k->written.despawn, msg, len);
	case KIND_VARIANTS:
		if (!parse_whole(v, 1, SCENARIO_MAX_VARIANTS, &x, msg, len))
			return false;
		k->written.variants = (uint32_t)x;
		return true;
	case KIND_BATCH: return parse_switch(v, &k->batch, msg, len);
	}
	return no_such_key(msg, len);
}

/* A key of [system NAME]. */
static bool apply_system_key(struct scenario_system *s, int key, const char *v, char *msg,
                             size_t len)
{
	uint64_t x;
	struct scenario_amount a;
	switch (key) {
	case SYSTEM_REQUIRES:
		return parse_list(v, s->written.requires, NULL, 1, SCENARIO_SYSTEM_MAX_REQUIRED,
		                  &s->written.requires_count, msg, len);
	case SYSTEM_EXCLUDES:
		return parse_list(v, s->written.excludes, NULL, 0, SCENARIO_SYSTEM_MAX_EXCLUDED,
		                  &s->written.excludes_count, msg, len);
	case SYSTEM_READS:
		return parse_list(v, s->written.reads, NULL, 0, SCENARIO_SYSTEM_MAX_REQUIRED,
		                  &s->written.reads_count, msg, len);
	case SYSTEM_WRITES:
		return parse_list(v, s->written.writes, NULL, 0, SCENARIO_SYSTEM_MAX_REQUIRED,
		                  &s->written.writes_count, msg, len);
	case SYSTEM_WORK:
		if (!parse_whole(v, 0, SCENARIO_MAX_WORK, &x, msg, len))
			return false;
		s->written.work = (uint32_t)x;
		return true;
	case SYSTEM_DESPAWN:
		if (!parse_amount(v, AMOUNT_PERCENT, 0, &a, msg, len))
			return false;
		s->written.despawn = share_of(a.value);
		return true;
	case SYSTEM_ADD:
		return parse_list(v, s->written.add, s->written.add_share, 0,
		                  SCENARIO_SYSTEM_MAX_CHANGES, &s->written.add_count, msg, len);
	case SYSTEM_REMOVE:
		return parse_list(v, s->written.remove, s->written.remove_share, 0,
		                  SCENARIO_SYSTEM_MAX_CHANGES, &s->written.remove_count, msg, len);
	case SYSTEM_PARALLEL: return parse_switch(v, &s->written.parallel, msg, len);
	case SYSTEM_GROUP: return parse_switch(v, &s->group, msg, len);
	}
	return no_such_key(msg, len);
}

/* A key of [effect NAME]. */
static bool apply_effect_key(struct scenario_effect *e, int key, const char *v, char *msg,
                             size_t len)
{
	uint64_t x;
	struct scenario_amount a;
	switch (key) {
	case EFFECT_KIND: return parse_one_name(v, e->written.kind, msg, len);
	case EFFECT_COMPONENT: return parse_one_name(v, e->written.component, msg, len);
	case EFFECT_ADD:
		if (!parse_amount(v, AMOUNT_PERCENT, 0, &a, msg, len))
			return false;
		e->written.add = share_of(a.value);
		return true;
	case EFFECT_DURATION:
		if (!parse_whole(v, 1, SCENARIO_MAX_FRAMES, &x, msg, len))
			return false;
		e->written.duration = (uint32_t)x;
		return true;
	case EFFECT_REMOVE:
		if (!parse_amount(v, AMOUNT_PERCENT, 0, &a, msg, len))
			return false;
		e->written.remove = share_of(a.value);
		return true;
	case EFFECT_BATCH: return parse_switch(v, &e->batch, msg, len);
	}
	return no_such_key(msg, len);
}

bool scenario_apply_key(struct scenario *sc, enum section_kind section, uint32_t index, int key,
                        const char *v, char *msg, size_t len)
{
	uint64_t x;
	switch (section) {
	case SECTION_SCENARIO: return apply_scenario_key(sc, key, v, msg, len);
	case SECTION_COMPONENT:
		if (key == COMPONENT_STORAGE) {
			if (strcmp(v, "table") == 0)
				sc->types[index].storage = ECS_STORAGE_TABLE;
			else if (strcmp(v, "sparse") == 0)
				sc->types[index].storage = ECS_STORAGE_SPARSE;
			else {
				snprintf(msg, len, "not table or sparse");
				return false;
			}
			return true;
		}
		if (!parse_whole(v, 1, ECS_MAX_COMPONENT_SIZE, &x, msg, len))
			return false;
		sc->types[index].size = (uint32_t)x;
		return true;
	case SECTION_KIND: return apply_kind_key(&sc->kinds[index], key, v, msg, len);
	case SECTION_SYSTEM: return apply_system_key(&sc->systems[index], key, v, msg, len);
	case SECTION_EFFECT: return apply_effect_key(&sc->effects[index], key, v, msg, len);
	default: return no_such_key(msg, len);
	}
}

int scenario_key_index(enum section_kind section, const char *name)
{
	const char *const *keys = section_keys[section];
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], name) == 0)
			return i;
	return -1;
}

void scenario_key_list(enum section_kind section, char *out, size_t len)
{
	const char *const *keys = section_keys[section];
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; keys[i] && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", keys[i]);
}

/* --- resolving: what spans sections ---------------------------------------------------- */

static bool given(const struct scenario_source *src, int key) { return src->given & 1u << key; }

static int32_t find_component(const struct scenario *sc, const char *name)
{
	for (uint32_t t = 0; t < sc->component_count; t++)
		if (strcmp(sc->types[t].name, name) == 0)
			return (int32_t)t;
	return -1;
}

static int32_t find_kind(const struct scenario *sc, const char *name)
{
	for (uint32_t k = 0; k < sc->kind_count; k++)
		if (strcmp(sc->kinds[k].name, name) == 0)
			return (int32_t)k;
	return -1;
}

/* Names to type ids; false (and a problem at `line`) if one is not a [component]. */
static bool resolve_names(const struct scenario *sc, const char (*names)[SCENARIO_NAME_SIZE],
                          uint32_t n, uint32_t *ids, struct problem *pr, uint32_t line,
                          const char *label, const char *key)
{
	for (uint32_t i = 0; i < n; i++) {
		int32_t t = find_component(sc, names[i]);
		if (t < 0) {
			problem_at(pr, line, "%s: %s: unknown type %s (no [component %s])", label, key,
			           names[i], names[i]);
			return false;
		}
		ids[i] = (uint32_t)t;
	}
	return true;
}

static int32_t index_of(const uint32_t *ids, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == id)
			return (int32_t)i;
	return -1;
}

static void sort_ids(uint32_t *ids, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = ids[i], j = i;
		for (; j > 0 && ids[j - 1] > x; j--)
			ids[j] = ids[j - 1];
		ids[j] = x;
	}
}

static void resolve_kinds(struct scenario *sc, struct problem *pr)
{
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		struct scenario_kind *kind = &sc->kinds[k];
		const struct scenario_source *src = &kind->src;
		char label[SCENARIO_NAME_SIZE + 16];
		snprintf(label, sizeof label, "[kind %s]", kind->name);
		if (!given(src, KIND_COMPONENTS))
			problem_at(pr, src->line, "%s has no components", label);
		if (!given(src, KIND_COUNT))
			problem_at(pr, src->line, "%s has no count", label);
		if (resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])kind->written.components,
		                  kind->written.component_count, kind->types, pr,
		                  src->key_line[KIND_COMPONENTS], label, "components")) {
			kind->type_count = kind->written.component_count;
			sort_ids(kind->types, kind->type_count);
		}
		if (kind->written.count.percent && !sc->entities)
			problem_at(pr, src->key_line[KIND_COUNT],
			           "%s: count = %g%% needs the total: entities = N in [scenario]", label,
			           kind->written.count.value);
		const struct scenario_amount *count = &kind->written.count, *spawn = &kind->written.spawn;
		if (!count->percent && count->value == 0 && spawn->percent && spawn->value > 0)
			problem_at(pr, src->key_line[KIND_SPAWN],
			           "%s: spawn = %g%% is a share of count, which is 0: give spawn as a number "
			           "of entities",
			           label, spawn->value);
		kind->variants = kind->written.variants;
		kind->variant_tag_first = 0;
		if (kind->variants > 1) {
			if (sc->type_count + kind->variants - 1 > SCENARIO_MAX_TYPES) {
				problem_at(pr, src->key_line[KIND_VARIANTS],
				           "%s: variants = %" PRIu32 ": more than %d types with the variant tags",
				           label, kind->variants, SCENARIO_MAX_TYPES);
				continue;
			}
			kind->variant_tag_first = sc->type_count;
			char kind_name[SCENARIO_NAME_MAX_LEN + 1]; /* apart: tag names live in sc too */
			snprintf(kind_name, sizeof kind_name, "%s", kind->name);
			for (uint32_t v = 1; v < kind->variants; v++) {
				struct scenario_type *tag = &sc->types[sc->type_count++];
				memset(tag, 0, sizeof *tag);
				snprintf(tag->name, sizeof tag->name, "%s#%u", kind_name,
				         (unsigned)(v % SCENARIO_MAX_VARIANTS));
				tag->size = 1;
				tag->variant_kind = (int32_t)k;
			}
		}
	}
}

static void resolve_systems(struct scenario *sc, struct problem *pr)
{
	for (uint32_t i = 0; i < sc->system_count; i++) {
		struct scenario_system *s = &sc->systems[i];
		const struct scenario_source *src = &s->src;
		char label[SCENARIO_NAME_SIZE + 16];
		snprintf(label, sizeof label, "[system %s]", s->name);
		if (!given(src, SYSTEM_REQUIRES)) {
			problem_at(pr, src->line, "%s has no requires: a system needs at least one type",
			           label);
			continue;
		}
		bool ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.requires,
		                        s->written.requires_count, s->required, pr,
		                        src->key_line[SYSTEM_REQUIRES], label, "requires");
		ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.excludes,
		                   s->written.excludes_count, s->excluded, pr,
		                   src->key_line[SYSTEM_EXCLUDES], label, "excludes") &&
		     ok;
		ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.reads,
		                   s->written.reads_count, s->read, pr, src->key_line[SYSTEM_READS],
		                   label, "reads") &&
		     ok;
		ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.writes,
		                   s->written.writes_count, s->write, pr, src->key_line[SYSTEM_WRITES],
		                   label, "writes") &&
		     ok;
		uint32_t added[SCENARIO_SYSTEM_MAX_CHANGES], removed[SCENARIO_SYSTEM_MAX_CHANGES];
		ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.add,
		                   s->written.add_count, added, pr, src->key_line[SYSTEM_ADD], label,
		                   "add") &&
		     ok;
		ok = resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])s->written.remove,
		                   s->written.remove_count, removed, pr, src->key_line[SYSTEM_REMOVE],
		                   label, "remove") &&
		     ok;
		if (!ok)
			continue;
		s->required_count = s->written.requires_count;
		s->excluded_count = s->written.excludes_count;
		s->read_count = s->written.reads_count;
		s->write_count = s->written.writes_count;
		for (uint32_t j = 0; j < s->excluded_count; j++)
			if (index_of(s->required, s->required_count, s->excluded[j]) >= 0)
				problem_at(pr, src->key_line[SYSTEM_EXCLUDES],
				           "%s: excludes %s, which it also requires", label,
				           sc->types[s->excluded[j]].name);
		s->read_mask = s->write_mask = 0;
		for (uint32_t j = 0; j < s->read_count; j++) {
			int32_t at = index_of(s->required, s->required_count, s->read[j]);
			if (at < 0)
				problem_at(pr, src->key_line[SYSTEM_READS],
				           "%s: reads %s, which it does not require", label,
				           sc->types[s->read[j]].name);
			else
				s->read_mask |= 1u << at;
		}
		for (uint32_t j = 0; j < s->write_count; j++) {
			int32_t at = index_of(s->required, s->required_count, s->write[j]);
			if (at < 0)
				problem_at(pr, src->key_line[SYSTEM_WRITES],
				           "%s: writes %s, which it does not require", label,
				           sc->types[s->write[j]].name);
			else if (s->read_mask & 1u << at)
				problem_at(pr, src->key_line[SYSTEM_WRITES],
				           "%s: %s is in both reads and writes (writes reads it too)", label,
				           sc->types[s->write[j]].name);
			else
				s->write_mask |= 1u << at;
		}
		s->work = s->written.work;
		s->parallel = s->written.parallel;
		s->despawn = s->written.despawn;
		s->add_count = s->written.add_count;
		s->remove_count = s->written.remove_count;
		for (uint32_t j = 0; j < s->add_count; j++) {
			s->add[j] = (struct scenario_change){added[j], s->written.add_share[j]};
			if (index_of(s->required, s->required_count, added[j]) >= 0)
				problem_at(pr, src->key_line[SYSTEM_ADD],
				           "%s: add %s, which every entity it visits has (it requires it)",
				           label, sc->types[added[j]].name);
			if (index_of(removed, s->remove_count, added[j]) >= 0)
				problem_at(pr, src->key_line[SYSTEM_ADD], "%s: both adds and removes %s",
				           label, sc->types[added[j]].name);
		}
		for (uint32_t j = 0; j < s->remove_count; j++) {
			s->remove[j] = (struct scenario_change){removed[j], s->written.remove_share[j]};
			if (index_of(s->excluded, s->excluded_count, removed[j]) >= 0)
				problem_at(pr, src->key_line[SYSTEM_REMOVE],
				           "%s: remove %s, which no entity it visits has (it excludes it)",
				           label, sc->types[removed[j]].name);
		}
	}
}

static void resolve_effects(struct scenario *sc, struct problem *pr)
{
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		struct scenario_effect *e = &sc->effects[i];
		const struct scenario_source *src = &e->src;
		char label[SCENARIO_NAME_SIZE + 16];
		snprintf(label, sizeof label, "[effect %s]", e->name);
		static const int required[] = {EFFECT_KIND, EFFECT_COMPONENT, EFFECT_ADD};
		bool complete = true;
		for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
			if (!given(src, required[r])) {
				problem_at(pr, src->line, "%s has no %s", label, effect_keys[required[r]]);
				complete = false;
			}
		if (given(src, EFFECT_DURATION) == given(src, EFFECT_REMOVE)) {
			problem_at(pr, src->line, "%s needs either duration = FRAMES or remove = P%%, not %s",
			           label, given(src, EFFECT_DURATION) ? "both" : "neither");
			complete = false;
		}
		if (!complete)
			continue;
		int32_t k = find_kind(sc, e->written.kind);
		if (k < 0) {
			problem_at(pr, src->key_line[EFFECT_KIND], "%s: unknown kind %s (no [kind %s])",
			           label, e->written.kind, e->written.kind);
			continue;
		}
		int32_t t = find_component(sc, e->written.component);
		if (t < 0) {
			problem_at(pr, src->key_line[EFFECT_COMPONENT],
			           "%s: component: unknown type %s (no [component %s])", label,
			           e->written.component, e->written.component);
			continue;
		}
		const struct scenario_kind *kind = &sc->kinds[k];
		if (index_of(kind->types, kind->type_count, (uint32_t)t) >= 0) {
			problem_at(pr, src->key_line[EFFECT_COMPONENT],
			           "%s: every %s already has %s (it is in its components)", label,
			           kind->name, sc->types[t].name);
			continue;
		}
		e->kind = (uint32_t)k;
		e->type = (uint32_t)t;
		e->add = e->written.add;
		e->duration = given(src, EFFECT_DURATION) ? e->written.duration : 0;
		e->remove = given(src, EFFECT_REMOVE) ? e->written.remove : 0;
		for (uint32_t j = 0; j < i; j++)
			if (sc->effects[j].kind == e->kind && sc->effects[j].type == e->type)
				problem_at(pr, src->line, "%s and [effect %s] both put %s on %s", label,
				           sc->effects[j].name, sc->types[t].name, kind->name);
	}
}

/* Counts after scale, and the entity totals (run once everything else is consistent). */
static void resolve_counts(struct scenario *sc, struct problem *pr)
{
	double share_total = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		struct scenario_kind *kind = &sc->kinds[k];
		const struct scenario_amount *c = &kind->written.count;
		if (c->percent) {
			share_total += c->value;
			if (share_total > 100 + 1e-9) {
				problem_at(pr, kind->src.key_line[KIND_COUNT],
				           "[kind %s]: count = %g%% brings the kinds' shares of entities to "
				           "%g%%, above 100%%",
				           kind->name, c->value, share_total);
				return;
			}
		}
	}
	const double limit = SCENARIO_MAX_ENTITIES;
	const double frames = (double)sc->warmup + sc->frames;
	double start = 0, end = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		struct scenario_kind *kind = &sc->kinds[k];
		const struct scenario_amount *c = &kind->written.count;
		double count = c->percent ? share_of(c->value) * sc->entities * sc->scale
		                          : c->value * sc->scale;
		count = round(count);
		start += count;
		if (start > limit) {
			problem_at(pr, kind->src.key_line[KIND_COUNT],
			           "[kind %s]: %.0f entities alive at the start (scale %g), above the limit "
			           "of %u (the 22-bit entity index)",
			           kind->name, start, sc->scale, SCENARIO_MAX_ENTITIES);
			return;
		}
		kind->count = (uint32_t)count;
		const struct scenario_amount *sp = &kind->written.spawn, *de = &kind->written.despawn;
		kind->spawn = sp->percent ? share_of(sp->value) * kind->count : sp->value * sc->scale;
		kind->despawn = de->percent ? share_of(de->value) * kind->count : de->value * sc->scale;
		/* Live entities change linearly in time, floored at 0: the total's largest value is at
		 * the first frame or the last. */
		double last = count + frames * (kind->spawn - kind->despawn);
		end += ceil(last > 0 ? last : 0);
		if (end > limit) {
			int key = given(&kind->src, KIND_SPAWN) ? KIND_SPAWN : KIND_COUNT;
			problem_at(pr, kind->src.key_line[key],
			           "[kind %s]: %.0f entities alive after %.0f frames (warmup + frames, scale "
			           "%g), above the limit of %u (the 22-bit entity index)",
			           kind->name, end, frames, sc->scale, SCENARIO_MAX_ENTITIES);
			return;
		}
	}
	sc->entities_start = (uint64_t)start;
	sc->entities_peak = (uint64_t)(end > start ? end : start);

	const struct scenario_amount *l = &sc->written.lookups;
	sc->lookups = l->percent ? 0 : l->value * sc->scale;
	sc->lookup_share = l->percent ? share_of(l->value) : 0;
}

void scenario_resolve(struct scenario *sc, struct problem *pr)
{
	sc->type_count = sc->component_count;
	for (uint32_t t = 0; t < sc->component_count; t++)
		if (!given(&sc->types[t].src, COMPONENT_SIZE))
			problem_at(pr, sc->types[t].src.line, "[component %s] has no size",
			           sc->types[t].name);
	if (sc->kind_count == 0)
		problem_at(pr, sc->lines ? sc->lines : 1, "no [kind NAME] section: no entities to run");

	sc->lookup_type_count = 0;
	if (resolve_names(sc, (const char(*)[SCENARIO_NAME_SIZE])sc->written.lookup,
	                  sc->written.lookup_count, sc->lookup_types, pr, sc->src.key_line[SC_LOOKUP],
	                  "[scenario]", "lookup"))
		sc->lookup_type_count = sc->written.lookup_count;
	if (sc->written.lookups.value > 0 && sc->written.lookup_count == 0)
		problem_at(pr, sc->src.key_line[SC_LOOKUPS],
		           "[scenario]: lookups = %g%s needs lookup = TYPE, ... (what each lookup reads)",
		           sc->written.lookups.value, sc->written.lookups.percent ? "%" : "");

	resolve_kinds(sc, pr);
	resolve_systems(sc, pr);
	resolve_effects(sc, pr);
	if (pr->found)
		return;

	bool any_match = sc->lookup_type_count == 0;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		struct scenario_kind *kind = &sc->kinds[k];
		kind->lookup_match = sc->lookup_type_count > 0;
		for (uint32_t i = 0; i < sc->lookup_type_count; i++)
			if (index_of(kind->types, kind->type_count, sc->lookup_types[i]) < 0)
				kind->lookup_match = false;
		any_match = any_match || kind->lookup_match;
	}
	if (!any_match)
		problem_at(pr, sc->src.key_line[SC_LOOKUP],
		           "[scenario]: no kind has every lookup type: lookups would find nothing");
	resolve_counts(sc, pr);
}
