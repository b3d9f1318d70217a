/*
 * scenario_file.c: reads a scenario file (scenarios/README.md) with libinih into struct scenario
 * (scenario.h); scenario_set overrides one key afterwards with the same checks;
 * scenario_write_header prints what was resolved. The checks themselves are scenario_check.c's.
 *
 * Two passes. While inih reads the file, every value is checked on its own (syntax, range, list
 * length) and stored as written, so a bad value is reported at its own line and reading stops
 * there. Then scenario_resolve() checks what spans sections and derives what an engine reads.
 *
 * Debian's libinih passes no line number to the handler. Lines reach inih through our own reader
 * (one call per line), which counts them, so the handler knows its line; the reader also rejects
 * what inih would silently misread: an indented line (inih takes it as the continuation of the
 * previous value), a line longer than inih's buffer (inih would cut it), a NUL byte, text after
 * a section's ']'. inih's own syntax errors come back as the line ini_parse_stream returns.
 *
 * Costs: linear in the file. Nothing here runs during a measured frame.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "scenario.h"
#include "scenario_check.h"

/* A file this long is not a scenario (and an endless fifo must not keep us reading). */
#define MAX_LINES 100000u

static const char *const section_words[SECTION_KINDS] = {
	[SECTION_SCENARIO] = "scenario", [SECTION_COMPONENT] = "component", [SECTION_KIND] = "kind",
	[SECTION_SYSTEM] = "system",     [SECTION_EFFECT] = "effect",
};

static const uint32_t section_limits[SECTION_KINDS] = {
	[SECTION_SCENARIO] = 1,
	[SECTION_COMPONENT] = SCENARIO_MAX_COMPONENTS,
	[SECTION_KIND] = SCENARIO_MAX_KINDS,
	[SECTION_SYSTEM] = SCENARIO_MAX_SYSTEMS,
	[SECTION_EFFECT] = SCENARIO_MAX_EFFECTS,
};

/* --- reading the file through inih ---------------------------------------------------- */

struct parse {
	struct scenario *sc;
	FILE *file;       /* the source: a file, */
	const char *text; /* or text in memory */
	size_t text_pos;
	int read_errno; /* nonzero: reading the file failed */
	uint32_t line;
	enum section_kind section; /* the section the lines now read belong to */
	uint32_t index;
	uint32_t section_line;
	bool section_has_keys;
	char label[SCENARIO_NAME_SIZE + 16]; /* "[kind soldier]", for messages */
	struct problem problem;
};

static int source_getc(struct parse *p)
{
	if (p->file) {
		int c = getc(p->file);
		if (c == EOF && ferror(p->file) && !p->read_errno)
			p->read_errno = errno ? errno : EIO;
		return c;
	}
	if (!p->text[p->text_pos])
		return EOF;
	return (unsigned char)p->text[p->text_pos++];
}

static void check_section_has_keys(struct parse *p)
{
	if (p->section != SECTION_NONE && !p->section_has_keys)
		problem_at(&p->problem, p->section_line, "%s has no keys", p->label);
}

/* A "[word name]" line: checks it and makes it the current section. `t` is at the '['. */
/* A named section ([component NAME], [kind NAME], ...): its entry, or false after the problem. */
static bool start_named_section(struct parse *p, enum section_kind section, const char *word,
                                const char *name, uint32_t *index)
{
	struct scenario *sc = p->sc;
	const char *why = scenario_name_problem(name);
	if (why) {
		problem_at(&p->problem, p->line, "[%s %.40s]: %s", word, name, why);
		return false;
	}
	uint32_t *count = section == SECTION_COMPONENT ? &sc->component_count
	                  : section == SECTION_KIND    ? &sc->kind_count
	                  : section == SECTION_SYSTEM  ? &sc->system_count
	                                               : &sc->effect_count;
	for (uint32_t i = 0; i < *count; i++)
		if (strcmp(scenario_section_name(sc, section, i), name) == 0) {
			problem_at(&p->problem, p->line, "[%s %s] given twice (first at line %" PRIu32 ")",
			           word, name, scenario_section_source(sc, section, i)->line);
			return false;
		}
	if (*count == section_limits[section]) {
		problem_at(&p->problem, p->line, "more than %" PRIu32 " [%s] sections",
		           section_limits[section], word);
		return false;
	}
	uint32_t i = (*count)++;
	switch (section) {
	case SECTION_COMPONENT:
		sc->types[i].variant_kind = -1;
		strcpy(sc->types[i].name, name);
		break;
	case SECTION_KIND:
		sc->kinds[i].written.variants = 1;
		strcpy(sc->kinds[i].name, name);
		break;
	case SECTION_SYSTEM: strcpy(sc->systems[i].name, name); break;
	case SECTION_EFFECT: strcpy(sc->effects[i].name, name); break;
	default: break;
	}
	*index = i;
	return true;
}

static void start_section(struct parse *p, char *t)
{
	struct scenario *sc = p->sc;
	check_section_has_keys(p);
	if (p->problem.found)
		return;
	/* inih ends a section name at ']' or at an inline comment (" ;"). */
	char *end = t + 1;
	while (*end && *end != ']' && !(*end == ';' && isspace((unsigned char)end[-1])))
		end++;
	if (*end != ']') {
		problem_at(&p->problem, p->line, "a section line without its ']'");
		return;
	}
	char *after = end + 1;
	while (isspace((unsigned char)*after))
		after++;
	if (*after && *after != ';') {
		problem_at(&p->problem, p->line, "text after the section's ']' (a comment starts with ;)");
		return;
	}
	*end = '\0';
	char inner[128];
	snprintf(inner, sizeof inner, "%s", t + 1);
	*end = ']';
	char *word = scenario_trim(inner);
	char *name = word + strcspn(word, " \t");
	if (*name)
		*name++ = '\0';
	name = scenario_trim(name);

	enum section_kind section = SECTION_NONE;
	for (int s = SECTION_SCENARIO; s < SECTION_KINDS; s++)
		if (strcmp(word, section_words[s]) == 0)
			section = (enum section_kind)s;
	if (section == SECTION_NONE) {
		problem_at(&p->problem, p->line,
		           "unknown section [%.60s] (sections: [scenario], [component NAME], [kind NAME], "
		           "[system NAME], [effect NAME])",
		           word);
		return;
	}
	if (section == SECTION_SCENARIO) {
		if (*name) {
			problem_at(&p->problem, p->line, "[scenario] takes no name");
			return;
		}
		if (sc->src.line) {
			problem_at(&p->problem, p->line, "[scenario] given twice (first at line %" PRIu32 ")",
			           sc->src.line);
			return;
		}
		sc->src.line = p->line;
		p->section = section;
		p->index = 0;
		snprintf(p->label, sizeof p->label, "[scenario]");
	} else {
		if (!*name) {
			problem_at(&p->problem, p->line, "[%s] needs a name: [%s NAME]", word, word);
			return;
		}
		uint32_t i;
		if (!start_named_section(p, section, word, name, &i))
			return;
		scenario_section_source(sc, section, i)->line = p->line;
		p->section = section;
		p->index = i;
		snprintf(p->label, sizeof p->label, "[%s %s]", word, name);
	}
	p->section_line = p->line;
	p->section_has_keys = false;
}

/* inih's line reader (fgets-like): one line per call, counted; NULL ends the reading. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse *p = stream;
	if (p->problem.found || num < 4)
		return NULL;
	/* Room for the line's characters, its newline and the NUL: a line that fills inih's buffer
	 * without its newline is taken by inih as cut short. */
	int room = num - 2, n = 0, c;
	bool nul = false, too_long = false, any = false;
	while ((c = source_getc(p)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (c == '\0')
			nul = true;
		if (n == room) {
			too_long = true;
			break;
		}
		str[n++] = (char)c;
		if (nul)
			break;
	}
	if (!any) {
		if (!p->read_errno)
			check_section_has_keys(p);
		return NULL;
	}
	p->line++;
	if (nul) {
		problem_at(&p->problem, p->line, "a NUL byte: not a text file");
		return NULL;
	}
	if (too_long) {
		problem_at(&p->problem, p->line, "line longer than %d characters", room);
		return NULL;
	}
	if (p->line > MAX_LINES) {
		problem_at(&p->problem, p->line, "more than %u lines", MAX_LINES);
		return NULL;
	}
	str[n++] = '\n';
	str[n] = '\0';

	char *s = str;
	if (p->line == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
	    (unsigned char)s[2] == 0xBF)
		s += 3; /* a UTF-8 byte order mark, which inih skips too */
	char *t = s;
	while (isspace((unsigned char)*t))
		t++;
	if (!*t || *t == ';' || *t == '#')
		return str; /* blank, or a comment (which may be indented) */
	if (t > s) {
		problem_at(&p->problem, p->line,
		           "an indented line (inih would read it as the continuation of the previous "
		           "value): start it in the first column");
		return NULL;
	}
	if (*t == '[') {
		start_section(p, t);
		if (p->problem.found)
			return NULL;
	} else {
		/* a key, or a line inih refuses: either way the section is not empty, and inih's
		 * complaint about the line is the one to report */
		p->section_has_keys = true;
	}
	return str;
}

/* inih's handler: one KEY = VALUE of the current section. 0 stops at this line. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
	(void)section; /* read_line keeps the section: inih truncates long section names */
	struct parse *p = user;
	if (p->problem.found)
		return 0;
	if (p->section == SECTION_NONE) {
		problem_at(&p->problem, p->line, "%.40s = %.60s before any section ([scenario] first)",
		           name, value);
		return 0;
	}
	p->section_has_keys = true;
	int key = scenario_key_index(p->section, name);
	if (key < 0) {
		char keys[128];
		scenario_key_list(p->section, keys, sizeof keys);
		problem_at(&p->problem, p->line, "%s: unknown key '%.40s' (keys: %s)", p->label, name,
		           keys);
		return 0;
	}
	struct scenario_source *src = scenario_section_source(p->sc, p->section, p->index);
	if (src->given & 1u << key) {
		problem_at(&p->problem, p->line, "%s: %s given twice (first at line %" PRIu32 ")",
		           p->label, name, src->key_line[key]);
		return 0;
	}
	char why[300];
	if (value[0] == '#' || strstr(value, " #") || strstr(value, "\t#"))
		snprintf(why, sizeof why, "'#' starts a comment only at the start of a line; after a "
		                          "value, use ' ;'");
	else if (scenario_apply_key(p->sc, p->section, p->index, key, value, why, sizeof why)) {
		src->given |= 1u << key;
		src->key_line[key] = p->line;
		return 1;
	}
	problem_at(&p->problem, p->line, "%s: %s = %.80s: %s", p->label, name, value, why);
	return 0;
}

/* --- the public functions ---------------------------------------------------------------- */

static void scenario_defaults(struct scenario *sc, const char *name)
{
	memset(sc, 0, sizeof *sc);
	snprintf(sc->path, sizeof sc->path, "%s", name);
	sc->frames = 300;
	sc->warmup = 30;
	sc->seed = 1;
	sc->scale = 1.0;
}

static int parse_source(struct scenario *sc, struct parse *p, const char *name, char *err,
                        size_t errlen)
{
	p->sc = sc;
	int rc = ini_parse_stream(read_line, p, on_key, p);
	sc->lines = p->line;
	if (p->read_errno) {
		snprintf(err, errlen, "%s: cannot read: %s", name, strerror(p->read_errno));
		return SCENARIO_ERR_IO;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: the INI reader failed (%d)", name, rc);
		return SCENARIO_ERR_IO;
	}
	if (rc > 0 && (!p->problem.found || (uint32_t)rc < p->problem.line))
		problem_at(&p->problem, (uint32_t)rc,
		           "not a [section], a KEY = VALUE line or a ; comment");
	if (!p->problem.found)
		scenario_resolve(sc, &p->problem);
	if (p->problem.found) {
		snprintf(err, errlen, "%s:%" PRIu32 ": %s", name, p->problem.line, p->problem.message);
		return SCENARIO_ERR_INVALID;
	}
	return SCENARIO_OK;
}

int scenario_parse_string(struct scenario *sc, const char *name, const char *text, char *err,
                          size_t errlen)
{
	scenario_defaults(sc, name);
	struct parse p = {.text = text};
	return parse_source(sc, &p, name, err, errlen);
}

int scenario_load(struct scenario *sc, const char *path, char *err, size_t errlen)
{
	scenario_defaults(sc, path);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return SCENARIO_ERR_IO;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		snprintf(err, errlen, "%s: is a directory, not a scenario file", path);
		return SCENARIO_ERR_IO;
	}
	struct parse p = {.file = f};
	int rc = parse_source(sc, &p, path, err, errlen);
	fclose(f);
	return rc;
}

int scenario_set(struct scenario *sc, const char *key, const char *value, char *err,
                 size_t errlen)
{
	char path[128], v[256];
	if (!key || !value || snprintf(path, sizeof path, "%s", key) >= (int)sizeof path ||
	    snprintf(v, sizeof v, "%s", value) >= (int)sizeof v) {
		snprintf(err, errlen, "%.60s = %.60s: key or value missing or too long",
		         key ? key : "(null)", value ? value : "(null)");
		return SCENARIO_ERR_INVALID;
	}
	char *val = scenario_trim(v);
	/* SECTION.NAME.KEY or scenario.KEY: names hold no '.' */
	char *word = path, *name = NULL, *k = strchr(path, '.');
	if (k)
		*k++ = '\0';
	if (k && strcmp(word, "scenario") != 0) {
		name = k;
		k = strchr(k, '.');
		if (k)
			*k++ = '\0';
	}
	if (!k || strchr(k, '.')) {
		snprintf(err, errlen, "%s = %s: expected SECTION.NAME.KEY or scenario.KEY", key, val);
		return SCENARIO_ERR_INVALID;
	}
	enum section_kind section = SECTION_NONE;
	for (int s = SECTION_SCENARIO; s < SECTION_KINDS; s++)
		if (strcmp(word, section_words[s]) == 0)
			section = (enum section_kind)s;
	if (section == SECTION_NONE) {
		snprintf(err, errlen,
		         "%s = %s: unknown section '%s' (scenario, component, kind, system, effect)", key,
		         val, word);
		return SCENARIO_ERR_INVALID;
	}
	uint32_t index = 0;
	if (section != SECTION_SCENARIO) {
		uint32_t count = section == SECTION_COMPONENT ? sc->component_count
		                 : section == SECTION_KIND    ? sc->kind_count
		                 : section == SECTION_SYSTEM  ? sc->system_count
		                                              : sc->effect_count;
		while (index < count && strcmp(scenario_section_name(sc, section, index), name) != 0)
			index++;
		if (index == count) {
			snprintf(err, errlen, "%s = %s: no [%s %s] in %s", key, val, word, name, sc->path);
			return SCENARIO_ERR_INVALID;
		}
	}
	int key_id = scenario_key_index(section, k);
	if (key_id < 0) {
		char keys[128];
		scenario_key_list(section, keys, sizeof keys);
		snprintf(err, errlen, "%s = %s: unknown key '%s' (keys of [%s]: %s)", key, val, k, word,
		         keys);
		return SCENARIO_ERR_INVALID;
	}
	struct scenario *next = malloc(sizeof *next);
	if (!next) {
		snprintf(err, errlen, "%s = %s: out of memory", key, val);
		return SCENARIO_ERR_NO_MEMORY;
	}
	memcpy(next, sc, sizeof *next);
	char why[300];
	struct problem pr = {0};
	if (!scenario_apply_key(next, section, index, key_id, val, why, sizeof why)) {
		snprintf(err, errlen, "%s = %s: %s", key, val, why);
		free(next);
		return SCENARIO_ERR_INVALID;
	}
	struct scenario_source *src = scenario_section_source(next, section, index);
	src->given |= 1u << key_id;
	src->key_line[key_id] = 0; /* a problem it causes comes first */
	scenario_resolve(next, &pr);
	if (pr.found) {
		snprintf(err, errlen, "%s = %s: %s", key, val, pr.message);
		free(next);
		return SCENARIO_ERR_INVALID;
	}
	memcpy(sc, next, sizeof *sc);
	free(next);
	return SCENARIO_OK;
}

int scenario_set_assignment(struct scenario *sc, const char *assignment, char *err,
                            size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	char key[128];
	if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof key) {
		snprintf(err, errlen, "'%s' is not KEY=VALUE (e.g. scenario.scale=0.1)", assignment);
		return SCENARIO_ERR_INVALID;
	}
	memcpy(key, assignment, (size_t)(eq - assignment));
	key[eq - assignment] = '\0';
	return scenario_set(sc, key, eq + 1, err, errlen);
}

static void print_types(FILE *f, const struct scenario *sc, const uint32_t *ids, uint32_t n)
{
	if (n == 0)
		fprintf(f, "-");
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", sc->types[ids[i]].name);
}

static void print_changes(FILE *f, const struct scenario *sc, const char *what,
                          const struct scenario_change *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s %s %g%%", i ? "," : what, sc->types[c[i].type].name, c[i].share * 100);
}

int scenario_write_header(FILE *f, const struct scenario *sc)
{
	char path[sizeof sc->path];
	snprintf(path, sizeof path, "%s", sc->path);
	for (char *c = path; *c; c++)
		if (iscntrl((unsigned char)*c)) /* a newline in a file name must not end the comment */
			*c = '?';
	fprintf(f, "# scenario %s: %" PRIu32 " frames after %" PRIu32 " warm-up; seed %" PRIu64
	           "; scale %g; entities %" PRIu64 " at the start, at most %" PRIu64 "\n",
	        path, sc->frames, sc->warmup, sc->seed, sc->scale, sc->entities_start,
	        sc->entities_peak);
	/* Only where it matters, so that the header of a scenario without one stays as it was. */
	if (scenario_has_parallel(sc)) {
		if (sc->threads)
			fprintf(f, "# threads %" PRIu32 ": a parallel system's pass is split across them\n",
			        sc->threads);
		else
			fprintf(f, "# threads all (the CPUs the measuring process may use): a parallel "
			           "system's pass is split across them\n");
	}
	fprintf(f, "# types %" PRIu32 " (%" PRIu32 " components + %" PRIu32 " variant tags of 1 B):",
	        sc->type_count, sc->component_count, sc->type_count - sc->component_count);
	for (uint32_t t = 0; t < sc->component_count; t++)
		fprintf(f, " %s %" PRIu32 " B%s", sc->types[t].name, sc->types[t].size,
		        t + 1 < sc->component_count ? ";" : "");
	/* Markings only where given, so that the header of a file without them stays as it was. */
	bool marked = false;
	for (uint32_t t = 0; t < sc->component_count; t++)
		marked = marked || sc->types[t].storage == ECS_STORAGE_SPARSE;
	if (marked && sc->unmarked)
		fprintf(f, "\n# storage table for every type ([scenario] storage = table): the sparse "
		           "markings set aside:");
	else if (marked)
		fprintf(f, "\n# storage sparse (ecs_config.component_storage, a hint: a backend of one "
		           "layout ignores it):");
	for (uint32_t t = 0; marked && t < sc->component_count; t++)
		if (sc->types[t].storage == ECS_STORAGE_SPARSE)
			fprintf(f, " %s", sc->types[t].name);
	fprintf(f, "\n# lookups per frame: %g + %g%% of live entities; reading ", sc->lookups,
	        sc->lookup_share * 100);
	print_types(f, sc, sc->lookup_types, sc->lookup_type_count);
	fprintf(f, "\n");
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		const struct scenario_kind *kind = &sc->kinds[k];
		fprintf(f, "# kind %s: %" PRIu32 " entities; spawn %g, despawn %g per frame; %" PRIu32
		           " variant%s; ",
		        kind->name, kind->count, kind->spawn, kind->despawn, kind->variants,
		        kind->variants == 1 ? "" : "s");
		print_types(f, sc, kind->types, kind->type_count);
		fprintf(f, "%s\n", kind->batch ? "; batch (one entity_create_batch per variant a frame)" : "");
	}
	for (uint32_t i = 0; i < sc->system_count; i++) {
		const struct scenario_system *s = &sc->systems[i];
		fprintf(f, "# system %s: requires ", s->name);
		print_types(f, sc, s->required, s->required_count);
		fprintf(f, "; excludes ");
		print_types(f, sc, s->excluded, s->excluded_count);
		fprintf(f, "; reads ");
		print_types(f, sc, s->read, s->read_count);
		fprintf(f, "; writes ");
		print_types(f, sc, s->write, s->write_count);
		fprintf(f, "; work %" PRIu32 "; despawn %g%%", s->work, s->despawn * 100);
		print_changes(f, sc, "; add", s->add, s->add_count);
		print_changes(f, sc, "; remove", s->remove, s->remove_count);
		if (s->parallel)
			fprintf(f, "; parallel");
		if (s->group)
			fprintf(f, "; group");
		fprintf(f, "\n");
	}
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *e = &sc->effects[i];
		fprintf(f, "# effect %s: %s on %g%% of %s per frame, ", e->name, sc->types[e->type].name,
		        e->add * 100, sc->kinds[e->kind].name);
		if (e->duration)
			fprintf(f, "for %" PRIu32 " frames", e->duration);
		else
			fprintf(f, "%g%% of those having it lose it per frame", e->remove * 100);
		fprintf(f, "%s\n", e->batch ? "; batch (its adds, its removes, one call each a frame)" : "");
	}
	return ferror(f) ? -1 : 0;
}
