/*
 * advise_design.c: storage designs as plain data (what and why: advise_design.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise_design.h"

/* Whether the storage gets component t as sparse in sc as the user gave it. */
static bool base_sparse(const struct scenario *sc, uint32_t t)
{
	return scenario_storage_hint(sc, t) == ECS_STORAGE_SPARSE;
}

void advise_design_of(const struct scenario *sc, const char *backend, struct advise_design *d)
{
	memset(d, 0, sizeof *d);
	snprintf(d->backend, sizeof d->backend, "%s", backend);
	for (uint32_t t = 0; t < sc->component_count; t++)
		d->sparse[t] = base_sparse(sc, t);
	for (uint32_t s = 0; s < sc->system_count; s++)
		d->group[s] = sc->systems[s].group;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		d->batch_kind[k] = sc->kinds[k].batch;
	for (uint32_t e = 0; e < sc->effect_count; e++)
		d->batch_effect[e] = sc->effects[e].batch;
}

void advise_design_bare(const struct scenario *sc, const char *backend, struct advise_design *d)
{
	(void)sc;
	memset(d, 0, sizeof *d);
	snprintf(d->backend, sizeof d->backend, "%s", backend);
}

bool advise_design_same(const struct scenario *sc, const struct advise_design *a,
                        const struct advise_design *b)
{
	/* uint8_t marks: bytes compare as the marks do */
	return strcmp(a->backend, b->backend) == 0 &&
	       memcmp(a->sparse, b->sparse, sc->component_count) == 0 &&
	       memcmp(a->group, b->group, sc->system_count) == 0 &&
	       memcmp(a->batch_kind, b->batch_kind, sc->kind_count) == 0 &&
	       memcmp(a->batch_effect, b->batch_effect, sc->effect_count) == 0;
}

uint32_t advise_design_marks(const struct scenario *sc, const struct advise_design *d)
{
	uint32_t n = 0;
	for (uint32_t t = 0; t < sc->component_count; t++)
		n += d->sparse[t];
	for (uint32_t s = 0; s < sc->system_count; s++)
		n += d->group[s];
	for (uint32_t k = 0; k < sc->kind_count; k++)
		n += d->batch_kind[k];
	for (uint32_t e = 0; e < sc->effect_count; e++)
		n += d->batch_effect[e];
	return n;
}

/* Appends to buf (at *at), keeping track of overflow. */
static void put(char *buf, size_t len, size_t *at, bool *full, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void put(char *buf, size_t len, size_t *at, bool *full, const char *fmt, ...)
{
	if (*full)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *at) {
		*full = true;
		buf[*at] = '\0';
		return;
	}
	*at += (size_t)n;
}

int advise_design_argument(const struct scenario *sc, const struct advise_design *d,
                           const char *name, char *buf, size_t len)
{
	size_t at = 0;
	bool full = false;
	put(buf, len, &at, &full, "%s:%s", d->backend, name);
	/* Under [scenario] storage = table the file's own sparse marks are set aside: a design that
	 * keeps any type sparse turns them back on and says every type's storage. */
	bool any_sparse = false, differs = false;
	for (uint32_t t = 0; t < sc->component_count; t++) {
		any_sparse = any_sparse || d->sparse[t];
		differs = differs || d->sparse[t] != base_sparse(sc, t);
	}
	bool every = sc->unmarked && any_sparse;
	if (every)
		put(buf, len, &at, &full, " scenario.storage=marked");
	for (uint32_t t = 0; differs && t < sc->component_count; t++)
		if (every ? d->sparse[t] != sc->types[t].storage : d->sparse[t] != base_sparse(sc, t))
			put(buf, len, &at, &full, " component.%s.storage=%s", sc->types[t].name,
			    d->sparse[t] ? "sparse" : "table");
	for (uint32_t s = 0; s < sc->system_count; s++)
		if (d->group[s] != sc->systems[s].group)
			put(buf, len, &at, &full, " system.%s.group=%s", sc->systems[s].name,
			    d->group[s] ? "yes" : "no");
	for (uint32_t k = 0; k < sc->kind_count; k++)
		if (d->batch_kind[k] != sc->kinds[k].batch)
			put(buf, len, &at, &full, " kind.%s.batch=%s", sc->kinds[k].name,
			    d->batch_kind[k] ? "yes" : "no");
	for (uint32_t e = 0; e < sc->effect_count; e++)
		if (d->batch_effect[e] != sc->effects[e].batch)
			put(buf, len, &at, &full, " effect.%s.batch=%s", sc->effects[e].name,
			    d->batch_effect[e] ? "yes" : "no");
	return full ? -1 : 0;
}

/* One group of the text: "sparse Hit, Haste" (the word before the first name only). */
static void put_name(char *buf, size_t len, size_t *at, bool *full, const char **sep,
                     uint32_t *n, const char *word, const char *name)
{
	if (*n == 0)
		put(buf, len, at, full, "%s%s %s", *sep, word, name);
	else
		put(buf, len, at, full, ", %s", name);
	(*n)++;
	*sep = "; ";
}

void advise_design_marks_text(const struct scenario *sc, const struct advise_design *d, char *buf,
                              size_t len)
{
	size_t at = 0;
	bool full = false;
	buf[0] = '\0';
	const char *sep = "";
	uint32_t n = 0;
	for (uint32_t t = 0; t < sc->component_count; t++)
		if (d->sparse[t])
			put_name(buf, len, &at, &full, &sep, &n, "sparse", sc->types[t].name);
	n = 0;
	for (uint32_t s = 0; s < sc->system_count; s++)
		if (d->group[s])
			put_name(buf, len, &at, &full, &sep, &n, "group", sc->systems[s].name);
	n = 0;
	for (uint32_t k = 0; k < sc->kind_count; k++)
		if (d->batch_kind[k])
			put_name(buf, len, &at, &full, &sep, &n, "batch", sc->kinds[k].name);
	for (uint32_t e = 0; e < sc->effect_count; e++)
		if (d->batch_effect[e])
			put_name(buf, len, &at, &full, &sep, &n, "batch", sc->effects[e].name);
	if (!buf[0])
		snprintf(buf, len, "no marks");
}

int advise_design_apply(const struct scenario *sc, const struct advise_design *d,
                        struct scenario *out, char *err, size_t errlen)
{
	char arg[16384];
	if (advise_design_argument(sc, d, "x", arg, sizeof arg)) {
		snprintf(err, errlen, "the design's markings do not fit in %zu bytes", sizeof arg);
		return -1;
	}
	memcpy(out, sc, sizeof *out);
	char *save = NULL;
	strtok_r(arg, " ", &save); /* the backend and name */
	for (char *kv = strtok_r(NULL, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
		if (scenario_set_assignment(out, kv, err, errlen) != SCENARIO_OK)
			return -1;
	return 0;
}

/* --- the advised copy of the file --------------------------------------------------------- */

enum section_type { SEC_NONE, SEC_SCENARIO, SEC_COMPONENT, SEC_SYSTEM, SEC_KIND, SEC_EFFECT };

/* A section line "[word NAME]" (a comment may follow): its type and NAME. */
static enum section_type section_of(const char *line, char *name, size_t len)
{
	if (line[0] != '[')
		return SEC_NONE;
	static const struct {
		const char *word;
		enum section_type type;
	} words[] = {{"scenario", SEC_SCENARIO}, {"component", SEC_COMPONENT},
	             {"system", SEC_SYSTEM},     {"kind", SEC_KIND},
	             {"effect", SEC_EFFECT}};
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t w = strlen(words[i].word);
		if (strncmp(p, words[i].word, w) != 0 || isalnum((unsigned char)p[w]))
			continue;
		p += w;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t]");
		if (n >= len)
			n = len - 1;
		memcpy(name, p, n);
		name[n] = '\0';
		return words[i].type;
	}
	return SEC_NONE;
}

/* A key line "key = value" or "key: value" in the first column: whether its key is `key`. */
static bool key_is(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return false;
	const char *p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '=' || *p == ':';
}

/* Returns from the function the index of the entry of arr[0..count) named name, if one is. */
#define RETURN_INDEX_NAMED(arr, count, name)                                                     \
	do {                                                                                     \
		for (uint32_t i_ = 0; i_ < (count); i_++)                                        \
			if (strcmp((arr)[i_].name, (name)) == 0)                                 \
				return (int)i_;                                                  \
	} while (0)

static int find_index(const struct scenario *sc, enum section_type type, const char *name)
{
	switch (type) {
	case SEC_COMPONENT: RETURN_INDEX_NAMED(sc->types, sc->component_count, name); break;
	case SEC_SYSTEM: RETURN_INDEX_NAMED(sc->systems, sc->system_count, name); break;
	case SEC_KIND: RETURN_INDEX_NAMED(sc->kinds, sc->kind_count, name); break;
	case SEC_EFFECT: RETURN_INDEX_NAMED(sc->effects, sc->effect_count, name); break;
	default: break;
	}
	return -1;
}

/* The marking line d wants in a section just opened, or NULL. */
static const char *marking_line(const struct advise_design *d, enum section_type type, int index)
{
	if (index < 0)
		return NULL;
	switch (type) {
	case SEC_COMPONENT: return d->sparse[index] ? "storage = sparse" : NULL;
	case SEC_SYSTEM: return d->group[index] ? "group = yes" : NULL;
	case SEC_KIND: return d->batch_kind[index] ? "batch = yes" : NULL;
	case SEC_EFFECT: return d->batch_effect[index] ? "batch = yes" : NULL;
	default: return NULL;
	}
}

/* The key a section type's marking is written with. */
static const char *marking_key(enum section_type type)
{
	switch (type) {
	case SEC_SCENARIO:
	case SEC_COMPONENT: return "storage";
	case SEC_SYSTEM: return "group";
	case SEC_KIND:
	case SEC_EFFECT: return "batch";
	default: return NULL;
	}
}

int advise_design_write_ini(const char *src, const struct scenario *sc,
                            const struct advise_design *d, const char *header, const char *dst,
                            char *err, size_t errlen)
{
	FILE *in = fopen(src, "r");
	if (!in) {
		snprintf(err, errlen, "%s: cannot open: %s", src, strerror(errno));
		return -1;
	}
	char temp[4200];
	snprintf(temp, sizeof temp, "%s.tmp-%ld", dst, (long)getpid());
	FILE *out = fopen(temp, "w");
	if (!out) {
		snprintf(err, errlen, "%s: cannot write: %s", temp, strerror(errno));
		fclose(in);
		return -1;
	}
	/* the header as comment lines within inih's 198 characters: a long path wraps */
	for (const char *h = header; *h;) {
		size_t len = strcspn(h, "\n");
		while (len > 0) {
			size_t take = len;
			if (take > 180) {
				take = 180;
				while (take > 20 && h[take] != ' ')
					take--;
				if (h[take] != ' ')
					take = 180;
			}
			fprintf(out, "%s%.*s\n", h[0] == ';' ? "" : "; ", (int)take, h);
			h += take;
			len -= take;
			while (len > 0 && *h == ' ') {
				h++;
				len--;
			}
		}
		h += h[0] == '\n';
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	enum section_type type = SEC_NONE;
	while ((got = getline(&line, &cap, in)) > 0) {
		char name[SCENARIO_NAME_SIZE];
		enum section_type opened = section_of(line, name, sizeof name);
		if (opened != SEC_NONE) {
			type = opened;
			fputs(line, out);
			if (line[got - 1] != '\n')
				fputc('\n', out);
			const char *mark = marking_line(d, type, find_index(sc, type, name));
			if (mark)
				fprintf(out, "%s            ; advised\n", mark);
			continue;
		}
		/* the section's own marking goes: the advised one (or none) stands in its place */
		const char *key = marking_key(type);
		if (key && key_is(line, key))
			continue;
		fputs(line, out);
	}
	free(line);
	bool read_failed = ferror(in);
	fclose(in);
	if (read_failed || fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0) {
		snprintf(err, errlen, "%s: %s", read_failed ? src : temp,
		         read_failed ? "could not be read" : "could not be written");
		fclose(out);
		unlink(temp);
		return -1;
	}
	if (fclose(out) != 0 || rename(temp, dst) != 0) {
		snprintf(err, errlen, "%s: could not be written: %s", dst, strerror(errno));
		unlink(temp);
		return -1;
	}
	return 0;
}
