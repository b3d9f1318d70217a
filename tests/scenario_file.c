/*
 * scenario_file.c (tests): the scenario file layer (harness/scenario/scenario_file.c) from the outside.
 * Every shipped scenario loads and is consistent; small good files resolve to the expected
 * structs; each kind of bad file gives exactly its file:line and message; files on disk (a
 * missing one, a directory, a fifo, CRLF and a byte order mark, a NUL byte) behave; scenario_set
 * applies good overrides and rejects bad ones leaving the scenario as it was; the header lines
 * say what was resolved; random damage to the shipped files never crashes the reader and every
 * error is one "file:line: " line.
 *
 * usage: scenario_file [SCENARIO_DIR]   (default: scenarios; run from the repository's root)
 * Ends with "N passed, N failed". Files go to a folder made with mkdtemp, removed at the end.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness/scenario/scenario.h"
#include "check.h"

static const char *scenario_dir = "scenarios";
static char tmp_dir[64];

#define CHECK_STR(a, b)                                                                    \
	do {                                                                                   \
		const char *check_a_ = (a), *check_b_ = (b);                                       \
		if (strcmp(check_a_, check_b_) != 0) {                                             \
			check_failed(__FILE__, __LINE__, "%s == %s\n     got: %s\n    want: %s", #a,    \
			             #b, check_a_, check_b_);                                          \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

#define CHECK_NEAR(a, b)                                                                   \
	do {                                                                                   \
		double check_a_ = (a), check_b_ = (b);                                             \
		if (!(check_a_ - check_b_ < 1e-9 && check_b_ - check_a_ < 1e-9)) {                 \
			check_failed(__FILE__, __LINE__, "%s == %s (%.12g != %.12g)", #a, #b, check_a_, \
			             check_b_);                                                        \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

static struct scenario *scenario_new(void)
{
	struct scenario *sc = malloc(sizeof *sc);
	if (!sc) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return sc;
}

/* What an engine relies on, whatever the file said. */
static bool check_resolved(const struct scenario *sc)
{
	CHECK(sc->frames >= 1);
	CHECK(sc->scale > 0);
	CHECK(sc->kind_count >= 1);
	CHECK(sc->type_count >= sc->component_count && sc->type_count <= SCENARIO_MAX_TYPES);
	CHECK(sc->entities_peak >= sc->entities_start);
	CHECK(sc->entities_peak <= SCENARIO_MAX_ENTITIES);
	for (uint32_t t = 0; t < sc->type_count; t++) {
		CHECK(sc->types[t].size >= 1 && sc->types[t].size <= ECS_MAX_COMPONENT_SIZE);
		CHECK((sc->types[t].variant_kind < 0) == (t < sc->component_count));
	}
	uint64_t start = 0;
	bool any_lookup_match = false;
	for (uint32_t k = 0; k < sc->kind_count; k++) {
		const struct scenario_kind *kind = &sc->kinds[k];
		CHECK(kind->type_count >= 1 && kind->type_count <= SCENARIO_KIND_MAX_TYPES);
		for (uint32_t i = 0; i < kind->type_count; i++) {
			CHECK(kind->types[i] < sc->component_count);
			if (i)
				CHECK(kind->types[i - 1] < kind->types[i]);
		}
		CHECK(kind->variants >= 1 && kind->variants <= SCENARIO_MAX_VARIANTS);
		if (kind->variants > 1)
			CHECK(kind->variant_tag_first + kind->variants - 1 <= sc->type_count);
		CHECK(kind->spawn >= 0 && kind->despawn >= 0);
		uint64_t split = 0;
		for (uint32_t v = 0; v < kind->variants; v++)
			split += scenario_variant_count(kind, v);
		CHECK_EQ(split, kind->count);
		start += kind->count;
		any_lookup_match = any_lookup_match || kind->lookup_match;
	}
	CHECK_EQ(start, sc->entities_start);
	if (sc->lookup_type_count)
		CHECK(any_lookup_match);
	for (uint32_t i = 0; i < sc->system_count; i++) {
		const struct scenario_system *s = &sc->systems[i];
		CHECK(s->required_count >= 1 && s->required_count <= SCENARIO_SYSTEM_MAX_REQUIRED);
		CHECK((s->read_mask & s->write_mask) == 0);
		CHECK(s->read_mask < 1u << s->required_count && s->write_mask < 1u << s->required_count);
		CHECK_EQ(__builtin_popcount(s->read_mask), s->read_count);
		CHECK_EQ(__builtin_popcount(s->write_mask), s->write_count);
		for (uint32_t j = 0; j < s->excluded_count; j++)
			for (uint32_t r = 0; r < s->required_count; r++)
				CHECK(s->excluded[j] != s->required[r]);
		CHECK(s->work <= SCENARIO_MAX_WORK);
		CHECK(s->despawn >= 0 && s->despawn <= 1);
	}
	for (uint32_t i = 0; i < sc->effect_count; i++) {
		const struct scenario_effect *e = &sc->effects[i];
		CHECK(e->kind < sc->kind_count && e->type < sc->component_count);
		CHECK((e->duration > 0) != (e->remove > 0) || (e->duration == 0 && e->remove == 0));
	}
	return true;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* --- the shipped scenarios ------------------------------------------------------------- */

static bool test_shipped(void)
{
	static const char *const names[] = {"shooter.ini", "rts.ini", "rpg.ini", "particles.ini"};
	struct scenario *sc = scenario_new();
	bool ok = false;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[512], err[512];
		snprintf(path, sizeof path, "%s/%s", scenario_dir, names[i]);
		int rc = scenario_load(sc, path, err, sizeof err);
		if (rc != SCENARIO_OK) {
			check_failed(__FILE__, __LINE__, "%s", err);
			goto out;
		}
		if (!check_resolved(sc))
			goto out;
		/* Sized for a default run over five backends: 1e4..1e6 entities. */
		if (sc->entities_start < 10000 || sc->entities_peak > 1100000) {
			check_failed(__FILE__, __LINE__, "%s: %llu..%llu entities, outside 1e4..1.1e6", path,
			             (unsigned long long)sc->entities_start,
			             (unsigned long long)sc->entities_peak);
			goto out;
		}
		/* and the tiny variant `make test` will run */
		if (scenario_set(sc, "scenario.scale", "0.01", err, sizeof err) != SCENARIO_OK) {
			check_failed(__FILE__, __LINE__, "%s at scale 0.01: %s", path, err);
			goto out;
		}
		if (!check_resolved(sc))
			goto out;
	}
	ok = true;
out:
	free(sc);
	return ok;
}

/* Every *.ini in the folder loads (a new scenario is tested by adding it). */
static bool test_every_ini_loads(void)
{
	DIR *d = opendir(scenario_dir);
	CHECK(d != NULL);
	struct scenario *sc = scenario_new();
	struct dirent *entry;
	int loaded = 0;
	bool ok = true;
	while (ok && (entry = readdir(d))) {
		size_t n = strlen(entry->d_name);
		if (n < 4 || strcmp(entry->d_name + n - 4, ".ini") != 0)
			continue;
		char path[512], err[512];
		snprintf(path, sizeof path, "%s/%s", scenario_dir, entry->d_name);
		if (scenario_load(sc, path, err, sizeof err) != SCENARIO_OK) {
			check_failed(__FILE__, __LINE__, "%s", err);
			ok = false;
		} else {
			ok = check_resolved(sc);
			loaded++;
		}
	}
	closedir(d);
	free(sc);
	CHECK(ok);
	CHECK(loaded >= 4);
	return true;
}

/*
 * Every *.ini in the folder turns a population over: some kind both spawns and despawns each
 * frame, so that no shipped scenario runs wholly on storage built in order and never destroyed
 * (the lived-in state a game's storage is in: holes, recycled ids).
 */
static bool test_every_ini_turns_over(void)
{
	DIR *d = opendir(scenario_dir);
	CHECK(d != NULL);
	struct scenario *sc = scenario_new();
	struct dirent *entry;
	int checked = 0;
	bool ok = true;
	while (ok && (entry = readdir(d))) {
		size_t n = strlen(entry->d_name);
		if (n < 4 || strcmp(entry->d_name + n - 4, ".ini") != 0)
			continue;
		char path[512], err[512];
		snprintf(path, sizeof path, "%s/%s", scenario_dir, entry->d_name);
		if (scenario_load(sc, path, err, sizeof err) != SCENARIO_OK) {
			check_failed(__FILE__, __LINE__, "%s", err);
			ok = false;
			break;
		}
		bool turns_over = false;
		for (uint32_t k = 0; k < sc->kind_count; k++)
			turns_over = turns_over || (sc->kinds[k].spawn > 0 && sc->kinds[k].despawn > 0);
		if (!turns_over) {
			check_failed(__FILE__, __LINE__, "%s: no kind both spawns and despawns", path);
			ok = false;
		}
		checked++;
	}
	closedir(d);
	free(sc);
	CHECK(ok);
	CHECK(checked >= 4);
	return true;
}

/* --- a good file, resolved ------------------------------------------------------------- */

static const char good_text[] =
	"; a small scenario\n"                 /* 1 */
	"[scenario]\n"                         /* 2 */
	"entities = 1000\n"                    /* 3 */
	"frames = 10   ; measured\n"           /* 4 */
	"warmup = 2\n"                         /* 5 */
	"seed = 7\n"                           /* 6 */
	"scale = 2\n"                          /* 7 */
	"lookups = 5\n"                        /* 8 */
	"lookup = Position\n"                  /* 9 */
	"\n"                                   /* 10 */
	"[component Position]\n"               /* 11 */
	"size = 8\n"                           /* 12 */
	"[component Velocity]\n"               /* 13 */
	"size = 8\n"                           /* 14 */
	"[component Health]\n"                 /* 15 */
	"size = 4\n"                           /* 16 */
	"[component Burning]\n"                /* 17 */
	"size = 1\n"                           /* 18 */
	"\n"                                   /* 19 */
	"[kind soldier]\n"                     /* 20 */
	"components = Velocity, Position, Health\n" /* 21 */
	"count = 60%\n"                        /* 22 */
	"spawn = 1%\n"                         /* 23 */
	"despawn = 3\n"                        /* 24 */
	"variants = 3\n"                       /* 25 */
	"\n"                                   /* 26 */
	"[kind rock]\n"                        /* 27 */
	"components = Position\n"              /* 28 */
	"count = 100\n"                        /* 29 */
	"\n"                                   /* 30 */
	"[system move]\n"                      /* 31 */
	"requires = Position, Velocity\n"      /* 32 */
	"excludes = Burning\n"                 /* 33 */
	"reads = Velocity\n"                   /* 34 */
	"writes = Position\n"                  /* 35 */
	"work = 4\n"                           /* 36 */
	"despawn = 0.5%\n"                     /* 37 */
	"add = Burning 1%\n"                   /* 38 */
	"\n"                                   /* 39 */
	"[system heal]\n"                      /* 40 */
	"requires = Health\n"                  /* 41 */
	"writes = Health\n"                    /* 42 */
	"remove = Burning 5%, Velocity 2.5%\n" /* 43 */
	"\n"                                   /* 44 */
	"[effect burning]\n"                   /* 45 */
	"kind = soldier\n"                     /* 46 */
	"component = Burning\n"                /* 47 */
	"add = 2%\n"                           /* 48 */
	"duration = 30\n"                      /* 49 */
	"\n"                                   /* 50 */
	"[effect rust]\n"                      /* 51 */
	"kind = rock\n"                        /* 52 */
	"component = Burning\n"                /* 53 */
	"add = 0.5%\n"                         /* 54 */
	"remove = 10%\n";                      /* 55 */

static bool test_good_file(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	int rc = scenario_parse_string(sc, "good.ini", good_text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	CHECK(check_resolved(sc));
	CHECK_STR(sc->path, "good.ini");
	CHECK_EQ(sc->lines, 55);
	CHECK_EQ(sc->frames, 10);
	CHECK_EQ(sc->warmup, 2);
	CHECK_EQ(sc->seed, 7);
	CHECK_NEAR(sc->scale, 2);
	CHECK_EQ(sc->entities, 1000);
	CHECK_NEAR(sc->lookups, 10); /* 5, scaled */
	CHECK_NEAR(sc->lookup_share, 0);
	CHECK_EQ(sc->lookup_type_count, 1);
	CHECK_EQ(sc->lookup_types[0], 0);

	/* types: the components in file order, then soldier's two variant tags */
	CHECK_EQ(sc->component_count, 4);
	CHECK_EQ(sc->type_count, 6);
	CHECK_STR(sc->types[2].name, "Health");
	CHECK_EQ(sc->types[2].size, 4);
	CHECK_EQ(sc->types[2].variant_kind, -1);
	CHECK_STR(sc->types[4].name, "soldier#1");
	CHECK_STR(sc->types[5].name, "soldier#2");
	CHECK_EQ(sc->types[5].size, 1);
	CHECK_EQ(sc->types[5].variant_kind, 0);

	CHECK_EQ(sc->kind_count, 2);
	const struct scenario_kind *soldier = &sc->kinds[0], *rock = &sc->kinds[1];
	CHECK_STR(soldier->name, "soldier");
	CHECK_EQ(soldier->type_count, 3);
	CHECK_EQ(soldier->types[0], 0); /* sorted by id, not as written */
	CHECK_EQ(soldier->types[1], 1);
	CHECK_EQ(soldier->types[2], 2);
	CHECK_EQ(soldier->count, 1200); /* 60% of 1000, scale 2 */
	CHECK_NEAR(soldier->spawn, 12); /* 1% of the count */
	CHECK_NEAR(soldier->despawn, 6); /* 3, scaled */
	CHECK_EQ(soldier->variants, 3);
	CHECK_EQ(soldier->variant_tag_first, 4);
	CHECK_EQ(scenario_variant_count(soldier, 0), 400);
	CHECK(soldier->lookup_match);
	CHECK_EQ(soldier->src.line, 20);
	CHECK_EQ(soldier->src.key_line[1], 22); /* count */
	CHECK_EQ(rock->count, 200);
	CHECK_EQ(rock->variants, 1);
	CHECK_NEAR(rock->spawn, 0);
	CHECK(rock->lookup_match);

	/* 1400 at the start; soldiers grow by 12 - 6 a frame over 12 frames */
	CHECK_EQ(sc->entities_start, 1400);
	CHECK_EQ(sc->entities_peak, 1472);

	CHECK_EQ(sc->system_count, 2);
	const struct scenario_system *move = &sc->systems[0], *heal = &sc->systems[1];
	CHECK_STR(move->name, "move");
	CHECK_EQ(move->required_count, 2);
	CHECK_EQ(move->required[0], 0); /* in the order written: the batch's column order */
	CHECK_EQ(move->required[1], 1);
	CHECK_EQ(move->excluded_count, 1);
	CHECK_EQ(move->excluded[0], 3);
	CHECK_EQ(move->read_count, 1);
	CHECK_EQ(move->read[0], 1);
	CHECK_EQ(move->read_mask, 2);
	CHECK_EQ(move->write_count, 1);
	CHECK_EQ(move->write[0], 0);
	CHECK_EQ(move->write_mask, 1);
	CHECK_EQ(move->work, 4);
	CHECK_NEAR(move->despawn, 0.005);
	CHECK_EQ(move->add_count, 1);
	CHECK_EQ(move->add[0].type, 3);
	CHECK_NEAR(move->add[0].share, 0.01);
	CHECK_EQ(move->remove_count, 0);
	CHECK_EQ(heal->work, 0);
	CHECK_EQ(heal->read_count, 0);
	CHECK_EQ(heal->write_mask, 1);
	CHECK_EQ(heal->remove_count, 2);
	CHECK_EQ(heal->remove[1].type, 1);
	CHECK_NEAR(heal->remove[1].share, 0.025);

	CHECK_EQ(sc->effect_count, 2);
	CHECK_EQ(sc->effects[0].kind, 0);
	CHECK_EQ(sc->effects[0].type, 3);
	CHECK_NEAR(sc->effects[0].add, 0.02);
	CHECK_EQ(sc->effects[0].duration, 30);
	CHECK_NEAR(sc->effects[0].remove, 0);
	CHECK_EQ(sc->effects[1].kind, 1);
	CHECK_EQ(sc->effects[1].duration, 0);
	CHECK_NEAR(sc->effects[1].remove, 0.1);
	free(sc);
	return true;
}

/* Defaults, and the forms INI allows: no [scenario], "key: value", CRLF, comments anywhere. */
static bool test_defaults_and_forms(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	const char *text = "# hash comment\r\n"
	                   "[component A]\r\n"
	                   "  ; an indented comment\r\n"
	                   "size: 16\r\n"
	                   "[kind k]   ; a comment after a section\r\n"
	                   "components = A\r\n"
	                   "count = 7\r\n"
	                   "spawn = 0.25\r\n"
	                   "[system s]\r\n"
	                   "requires = A\r\n"
	                   "excludes =\r\n";
	int rc = scenario_parse_string(sc, "forms.ini", text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	CHECK(check_resolved(sc));
	CHECK_EQ(sc->frames, 300);
	CHECK_EQ(sc->warmup, 30);
	CHECK_EQ(sc->seed, 1);
	CHECK_NEAR(sc->scale, 1);
	CHECK_NEAR(sc->lookups, 0);
	CHECK_EQ(sc->types[0].size, 16);
	CHECK_EQ(sc->kinds[0].count, 7);
	CHECK_NEAR(sc->kinds[0].spawn, 0.25);
	CHECK_EQ(sc->kinds[0].variants, 1);
	CHECK_EQ(sc->systems[0].excluded_count, 0);
	/* a system's pass is serial unless it says otherwise; threads: all the CPUs */
	CHECK(!sc->systems[0].parallel);
	CHECK(!scenario_has_parallel(sc));
	CHECK_EQ(sc->threads, 0);
	/* 7 + 0.25 a frame over 330 frames: 89.5, rounded up */
	CHECK_EQ(sc->entities_peak, 90);
	free(sc);
	return true;
}

/* The example in scenarios/README.md (its indented block under "## An example") is valid. */
static bool test_readme_example(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/README.md", scenario_dir);
	char *readme = read_all(path);
	CHECK(readme != NULL);
	const char *at = strstr(readme, "\n## An example\n");
	CHECK(at != NULL);
	char *text = malloc(strlen(at) + 1);
	CHECK(text != NULL);
	size_t n = 0;
	at = strchr(at + 1, '\n') + 1;
	while (*at && strncmp(at, "## ", 3) != 0) {
		const char *end = strchr(at, '\n');
		size_t len = end ? (size_t)(end - at) + 1 : strlen(at);
		if (strncmp(at, "    ", 4) == 0) {
			memcpy(text + n, at + 4, len - 4);
			n += len - 4;
		}
		at += len;
	}
	text[n] = '\0';
	struct scenario *sc = scenario_new();
	char err[512];
	int rc = scenario_parse_string(sc, "README example", text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	bool ok = rc == SCENARIO_OK && check_resolved(sc) && sc->kind_count == 2 &&
	          sc->kinds[0].count == 9000 && sc->effect_count == 1;
	free(sc);
	free(text);
	free(readme);
	CHECK(ok);
	return true;
}

/* --- bad files: exactly one "file:line: problem" each ------------------------------------ */

struct bad_case {
	const char *text;
	const char *message; /* after "bad.ini:" */
};

#define COMPONENTS_AB "[component A]\nsize = 4\n[component B]\nsize = 4\n" /* lines 1-4 */
#define KIND_A "[kind k]\ncomponents = A\ncount = 10\n"                      /* 3 lines */

static const struct bad_case bad_cases[] = {
	/* sections */
	{"[comp A]\nsize = 4\n",
	 "1: unknown section [comp] (sections: [scenario], [component NAME], [kind NAME], [system "
	 "NAME], [effect NAME])"},
	{"[scenario main]\nframes = 1\n", "1: [scenario] takes no name"},
	{"[kind]\ncount = 1\n", "1: [kind] needs a name: [kind NAME]"},
	{"[kind 9lives]\ncount = 1\n",
	 "1: [kind 9lives]: names are letters, digits and _, not starting with a digit"},
	{"[kind a_name_that_is_much_too_long_xxx]\ncount = 1\n",
	 "1: [kind a_name_that_is_much_too_long_xxx]: names have at most 31 characters"},
	{COMPONENTS_AB "[component A]\nsize = 8\n", "5: [component A] given twice (first at line 1)"},
	{COMPONENTS_AB KIND_A "[kind k]\ncomponents = B\ncount = 1\n",
	 "8: [kind k] given twice (first at line 5)"},
	{"[scenario]\nframes = 1\n[scenario]\nseed = 2\n",
	 "3: [scenario] given twice (first at line 1)"},
	{COMPONENTS_AB "[kind k\ncomponents = A\n", "5: a section line without its ']'"},
	{COMPONENTS_AB "[kind k] extra\n", "5: text after the section's ']' (a comment starts with ;)"},
	{COMPONENTS_AB "[kind k]\n\n[kind j]\ncomponents = A\ncount = 1\n", "5: [kind k] has no keys"},
	{COMPONENTS_AB KIND_A "[system s]\n", "8: [system s] has no keys"},
	/* lines */
	{"frames = 10\n[scenario]\n", "1: frames = 10 before any section ([scenario] first)"},
	{"[scenario]\nframes 300\n", "2: not a [section], a KEY = VALUE line or a ; comment"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\n  count = 10\n",
	 "7: an indented line (inih would read it as the continuation of the previous value): start "
	 "it in the first column"},
	{"[scenario]\nframes = 10 # ten\n",
	 "2: [scenario]: frames = 10 # ten: '#' starts a comment only at the start of a line; after a "
	 "value, use ' ;'"},
	/* keys */
	{"[component A]\nsize = 4\nsizes = 3\n", "3: [component A]: unknown key 'sizes' (keys: size, storage)"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncolour = red\n",
	 "7: [kind k]: unknown key 'colour' (keys: components, count, spawn, despawn, variants, batch)"},
	{COMPONENTS_AB "[kind k]\ncount = 1\ncount = 2\n",
	 "7: [kind k]: count given twice (first at line 6)"},
	{"[component A]\n", "1: [component A] has no keys"},
	/* values */
	{"[component A]\nsize = 0\n", "2: [component A]: size = 0: out of range (1..4096)"},
	{"[component A]\nsize = 4097\n", "2: [component A]: size = 4097: out of range (1..4096)"},
	{"[component A]\nsize = 8 bytes\n", "2: [component A]: size = 8 bytes: not a whole number"},
	{"[scenario]\nframes = 0\n", "2: [scenario]: frames = 0: out of range (1..1000000)"},
	{"[scenario]\nseed = -1\n", "2: [scenario]: seed = -1: not a whole number"},
	{"[scenario]\nseed = 18446744073709551616\n",
	 "2: [scenario]: seed = 18446744073709551616: out of range (0..18446744073709551615)"},
	{"[scenario]\nscale = 0\n", "2: [scenario]: scale = 0: not a number above 0 and at most 1000"},
	{"[scenario]\nscale = 1e3\n", "2: [scenario]: scale = 1e3: not a number above 0 and at most 1000"},
	{"[scenario]\nscale = nan\n", "2: [scenario]: scale = nan: not a number above 0 and at most 1000"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 1.5\n",
	 "7: [kind k]: count = 1.5: not a whole number or a percentage (e.g. 1000 or 10%)"},
	{COMPONENTS_AB "[kind k]\ncount = 4194304\n", "6: [kind k]: count = 4194304: above 4194303"},
	{COMPONENTS_AB "[kind k]\ncount = 10\nspawn = 101%\n", "7: [kind k]: spawn = 101%: above 100%"},
	{COMPONENTS_AB "[kind k]\ncount = 10\ndespawn = -1\n",
	 "7: [kind k]: despawn = -1: not a number or a percentage (e.g. 2.5 or 10%)"},
	{COMPONENTS_AB "[kind k]\ncount = 10\nvariants = 0\n",
	 "7: [kind k]: variants = 0: out of range (1..256)"},
	{COMPONENTS_AB "[kind k]\ncomponents = A, A\n", "6: [kind k]: components = A, A: A listed twice"},
	{COMPONENTS_AB "[kind k]\ncomponents = A,, B\n",
	 "6: [kind k]: components = A,, B: an empty entry in the list"},
	{COMPONENTS_AB "[kind k]\ncomponents = A B\n",
	 "6: [kind k]: components = A B: 'A B' is not a name (entries are separated by commas)"},
	{COMPONENTS_AB "[kind k]\ncomponents =\n", "6: [kind k]: components = : needs at least 1 name"},
	{COMPONENTS_AB "[system s]\nrequires =\n", "6: [system s]: requires = : needs at least 1 name"},
	{COMPONENTS_AB "[system s]\nrequires = A, B, C, D, E, F, G, H, I\n",
	 "6: [system s]: requires = A, B, C, D, E, F, G, H, I: more than 8 entries"},
	{COMPONENTS_AB "[system s]\nwork = 65\n", "6: [system s]: work = 65: out of range (0..64)"},
	{COMPONENTS_AB "[system s]\nparallel = on\n",
	 "6: [system s]: parallel = on: not yes or no (or true or false)"},
	{COMPONENTS_AB "[system s]\nparallel = 1\n",
	 "6: [system s]: parallel = 1: not yes or no (or true or false)"},
	{COMPONENTS_AB "[system s]\nparallel = True\n",
	 "6: [system s]: parallel = True: not yes or no (or true or false)"},
	{COMPONENTS_AB "[system s]\nparallel =\n",
	 "6: [system s]: parallel = : not yes or no (or true or false)"},
	{COMPONENTS_AB "[system s]\ngroup = Yes\n",
	 "6: [system s]: group = Yes: not yes or no (or true or false)"},
	{COMPONENTS_AB "[system s]\nrequires = A\ngroup = yes\ngroup = no\n",
	 "8: [system s]: group given twice (first at line 7)"},
	{COMPONENTS_AB "[kind k]\ncount = 10\nbatch = 2\n",
	 "7: [kind k]: batch = 2: not yes or no (or true or false)"},
	{COMPONENTS_AB "[effect e]\nbatch = maybe\n",
	 "6: [effect e]: batch = maybe: not yes or no (or true or false)"},
	{COMPONENTS_AB "[component C]\nsize = 4\nstorage = dense\n",
	 "7: [component C]: storage = dense: not table or sparse"},
	{COMPONENTS_AB "[component C]\nstorage = Sparse\nsize = 4\n",
	 "6: [component C]: storage = Sparse: not table or sparse"},
	{COMPONENTS_AB "[component C]\nstorage = sparse\n", "5: [component C] has no size"},
	{COMPONENTS_AB "[system s]\nrequires = A\nparallel = true\nparallel = false\n",
	 "8: [system s]: parallel given twice (first at line 7)"},
	{"[scenario]\nthreads = 0\n",
	 "2: [scenario]: threads = 0: not a number of threads (1..1024) or all"},
	{"[scenario]\nthreads = 1025\n",
	 "2: [scenario]: threads = 1025: not a number of threads (1..1024) or all"},
	{"[scenario]\nthreads = two\n",
	 "2: [scenario]: threads = two: not a number of threads (1..1024) or all"},
	{"[scenario]\nthreads = 2.5\n",
	 "2: [scenario]: threads = 2.5: not a number of threads (1..1024) or all"},
	{COMPONENTS_AB "[system s]\ndespawn = 0.1\n",
	 "6: [system s]: despawn = 0.1: not a percentage (e.g. 1.5%)"},
	{COMPONENTS_AB "[system s]\nadd = B\n", "6: [system s]: add = B: B needs a share (e.g. B 1%)"},
	{COMPONENTS_AB "[system s]\nadd = B 1% C\n",
	 "6: [system s]: add = B 1% C: B 1% C: not a percentage (e.g. 1.5%)"},
	{COMPONENTS_AB "[effect e]\nduration = 0\n",
	 "6: [effect e]: duration = 0: out of range (1..1000000)"},
	{COMPONENTS_AB "[effect e]\nkind = two words\n",
	 "6: [effect e]: kind = two words: names are letters, digits and _, not starting with a digit"},
	/* across sections */
	{"[scenario]\nframes = 3\n", "2: no [kind NAME] section: no entities to run"},
	{COMPONENTS_AB "[kind k]\ncomponents = A, C\ncount = 1\n",
	 "6: [kind k]: components: unknown type C (no [component C])"},
	{COMPONENTS_AB "[kind k]\ncount = 1\n", "5: [kind k] has no components"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\n", "5: [kind k] has no count"},
	{"[component A]\nsize = 4\n[component B]\n" KIND_A, "3: [component B] has no keys"},
	{COMPONENTS_AB KIND_A "[system s]\nwork = 1\n",
	 "8: [system s] has no requires: a system needs at least one type"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nexcludes = B, A\n",
	 "10: [system s]: excludes A, which it also requires"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nreads = B\n",
	 "10: [system s]: reads B, which it does not require"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nwrites = B\n",
	 "10: [system s]: writes B, which it does not require"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nreads = A\nwrites = A\n",
	 "11: [system s]: A is in both reads and writes (writes reads it too)"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nadd = A 1%\n",
	 "10: [system s]: add A, which every entity it visits has (it requires it)"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nexcludes = B\nremove = B 1%\n",
	 "11: [system s]: remove B, which no entity it visits has (it excludes it)"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A\nadd = B 1%\nremove = B 1%\n",
	 "10: [system s]: both adds and removes B"},
	{COMPONENTS_AB KIND_A "[system s]\nrequires = A, Z\n",
	 "9: [system s]: requires: unknown type Z (no [component Z])"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = j\ncomponent = B\nadd = 1%\nduration = 5\n",
	 "9: [effect e]: unknown kind j (no [kind j])"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = k\ncomponent = A\nadd = 1%\nduration = 5\n",
	 "10: [effect e]: every k already has A (it is in its components)"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = k\ncomponent = B\nadd = 1%\n",
	 "8: [effect e] needs either duration = FRAMES or remove = P%, not neither"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = k\ncomponent = B\nadd = 1%\nduration = 5\nremove = 1%\n",
	 "8: [effect e] needs either duration = FRAMES or remove = P%, not both"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = k\ncomponent = B\nremove = 1%\n", "8: [effect e] has no add"},
	{COMPONENTS_AB KIND_A "[effect e]\nkind = k\ncomponent = B\nadd = 1%\nduration = 5\n"
	                      "[effect f]\nkind = k\ncomponent = B\nadd = 2%\nremove = 5%\n",
	 "13: [effect f] and [effect e] both put B on k"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 60%\n",
	 "7: [kind k]: count = 60% needs the total: entities = N in [scenario]"},
	{"[scenario]\nentities = 100\n" COMPONENTS_AB KIND_A
	 "[kind j]\ncomponents = A\ncount = 60%\n[kind i]\ncomponents = B\ncount = 50%\n",
	 "15: [kind i]: count = 50% brings the kinds' shares of entities to 110%, above 100%"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 0\nspawn = 5%\n",
	 "8: [kind k]: spawn = 5% is a share of count, which is 0: give spawn as a number of "
	 "entities"},
	{"[scenario]\nlookups = 10\n" COMPONENTS_AB KIND_A,
	 "2: [scenario]: lookups = 10 needs lookup = TYPE, ... (what each lookup reads)"},
	{"[scenario]\nlookups = 1%\nlookup = A, B\n" COMPONENTS_AB KIND_A,
	 "3: [scenario]: no kind has every lookup type: lookups would find nothing"},
	{"[scenario]\nlookup = Q\n" COMPONENTS_AB KIND_A,
	 "2: [scenario]: lookup: unknown type Q (no [component Q])"},
	/* the entity limit, at the start and at the last frame */
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 3000000\n[kind j]\ncomponents = B\n"
	               "count = 3000000\n",
	 "10: [kind j]: 6000000 entities alive at the start (scale 1), above the limit of 4194303 "
	 "(the 22-bit entity index)"},
	{"[scenario]\nscale = 2\n" COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 3000000\n",
	 "9: [kind k]: 6000000 entities alive at the start (scale 2), above the limit of 4194303 "
	 "(the 22-bit entity index)"},
	{"[scenario]\nframes = 300\nwarmup = 0\n" COMPONENTS_AB
	 "[kind k]\ncomponents = A\ncount = 4000000\nspawn = 1000\n",
	 "11: [kind k]: 4300000 entities alive after 300 frames (warmup + frames, scale 1), above the "
	 "limit of 4194303 (the 22-bit entity index)"},
	/* the first problem in the file wins, whatever the check that finds it */
	{COMPONENTS_AB "[kind k]\ncomponents = Z\ncount = 1\n[system s]\nrequires = A\nreads = B\n",
	 "6: [kind k]: components: unknown type Z (no [component Z])"},
	{COMPONENTS_AB "[kind k]\ncomponents = A\ncount = 1\nbad line\n[kind k]\n",
	 "8: not a [section], a KEY = VALUE line or a ; comment"},
};

static bool test_bad_files(void)
{
	struct scenario *sc = scenario_new();
	bool ok = true;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		char err[512], want[512];
		snprintf(want, sizeof want, "bad.ini:%s", bad_cases[i].message);
		int rc = scenario_parse_string(sc, "bad.ini", bad_cases[i].text, err, sizeof err);
		if (rc != SCENARIO_ERR_INVALID || strcmp(err, want) != 0) {
			printf("FAIL %s: case %zu (status %d)\n     got: %s\n    want: %s\n", runner_test(), i,
			       rc, rc == SCENARIO_OK ? "(no error)" : err, want);
			ok = false;
		}
	}
	free(sc);
	return ok;
}

/* More variant tags than SCENARIO_MAX_TYPES: five kinds of 256 variants. */
static bool test_too_many_variants(void)
{
	char text[2048];
	size_t used = (size_t)snprintf(text, sizeof text, "[component A]\nsize = 4\n");
	for (int k = 0; k < 5; k++)
		used += (size_t)snprintf(text + used, sizeof text - used,
		                         "[kind k%d]\ncomponents = A\ncount = 1\nvariants = 256\n", k);
	struct scenario *sc = scenario_new();
	char err[512];
	CHECK_EQ(scenario_parse_string(sc, "v.ini", text, err, sizeof err), SCENARIO_ERR_INVALID);
	/* 1 + 4 * 255 = 1021 types; the fifth kind's variants line is 22 */
	CHECK_STR(err, "v.ini:22: [kind k4]: variants = 256: more than 1024 types with the variant tags");
	free(sc);
	return true;
}

/* A line longer than inih's buffer would be split by inih: it is refused at its line. */
static bool test_long_line(void)
{
	char text[1024];
	size_t used = (size_t)snprintf(text, sizeof text, "[component A]\nsize = 4\n; ");
	memset(text + used, 'x', 300);
	snprintf(text + used + 300, sizeof text - used - 300, "\n[kind k]\n");
	struct scenario *sc = scenario_new();
	char err[512];
	CHECK_EQ(scenario_parse_string(sc, "long.ini", text, err, sizeof err), SCENARIO_ERR_INVALID);
	CHECK_STR(err, "long.ini:3: line longer than 198 characters");
	/* 198 characters is fine */
	used = (size_t)snprintf(text, sizeof text, "[component A]\nsize = 4\n; ");
	memset(text + used, 'x', 196);
	snprintf(text + used + 196, sizeof text - used - 196, "\n" KIND_A);
	CHECK_EQ(scenario_parse_string(sc, "long.ini", text, err, sizeof err), SCENARIO_OK);
	free(sc);
	return true;
}

/* --- files on disk --------------------------------------------------------------------- */

static bool write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK_EQ(fwrite(data, 1, n, f), n);
	CHECK_EQ(fclose(f), 0);
	return true;
}

static bool test_files(void)
{
	struct scenario *sc = scenario_new(), *from_text = scenario_new();
	char path[256], err[512], want[512];

	snprintf(path, sizeof path, "%s/missing.ini", tmp_dir);
	CHECK_EQ(scenario_load(sc, path, err, sizeof err), SCENARIO_ERR_IO);
	snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
	CHECK_STR(err, want);

	CHECK_EQ(scenario_load(sc, tmp_dir, err, sizeof err), SCENARIO_ERR_IO);
	snprintf(want, sizeof want, "%s: is a directory, not a scenario file", tmp_dir);
	CHECK_STR(err, want);

	/* the good text from disk resolves as from memory */
	snprintf(path, sizeof path, "%s/good.ini", tmp_dir);
	TRY(write_file(path, good_text, strlen(good_text)));
	CHECK_EQ(scenario_load(sc, path, err, sizeof err), SCENARIO_OK);
	CHECK_EQ(scenario_parse_string(from_text, path, good_text, err, sizeof err), SCENARIO_OK);
	CHECK(memcmp(sc, from_text, sizeof *sc) == 0);

	/* a byte order mark and CRLF line ends */
	static const char bom_crlf[] = "\xEF\xBB\xBF[component A]\r\nsize = 4\r\n[kind k]\r\n"
	                               "components = A\r\ncount = 3\r\n";
	snprintf(path, sizeof path, "%s/bom.ini", tmp_dir);
	TRY(write_file(path, bom_crlf, sizeof bom_crlf - 1));
	CHECK_EQ(scenario_load(sc, path, err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->kinds[0].count, 3);

	/* a NUL byte: not a text file */
	static const char nul[] = "[component A]\nsi\0ze = 4\n";
	snprintf(path, sizeof path, "%s/nul.ini", tmp_dir);
	TRY(write_file(path, nul, sizeof nul - 1));
	CHECK_EQ(scenario_load(sc, path, err, sizeof err), SCENARIO_ERR_INVALID);
	snprintf(want, sizeof want, "%s:2: a NUL byte: not a text file", path);
	CHECK_STR(err, want);

	/* the last line without its newline */
	snprintf(path, sizeof path, "%s/nonl.ini", tmp_dir);
	static const char no_newline[] = "[component A]\nsize = 4\n" KIND_A "variants = 2";
	TRY(write_file(path, no_newline, sizeof no_newline - 1));
	CHECK_EQ(scenario_load(sc, path, err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->kinds[0].variants, 2);
	CHECK_EQ(sc->lines, 6);

	/* a fifo: read as it is written */
	snprintf(path, sizeof path, "%s/fifo.ini", tmp_dir);
	CHECK_EQ(mkfifo(path, 0600), 0);
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		FILE *f = fopen(path, "w");
		_exit(f && fputs(good_text, f) >= 0 && fclose(f) == 0 ? 0 : 1);
	}
	int rc = scenario_load(sc, path, err, sizeof err);
	int status;
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(rc, SCENARIO_OK);
	CHECK_EQ(sc->kinds[0].count, 1200);
	free(sc);
	free(from_text);
	return true;
}

/* --- overrides ------------------------------------------------------------------------- */

static bool test_set_good(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	CHECK_EQ(scenario_parse_string(sc, "good.ini", good_text, err, sizeof err), SCENARIO_OK);

	CHECK_EQ(scenario_set(sc, "effect.burning.add", "5%", err, sizeof err), SCENARIO_OK);
	CHECK_NEAR(sc->effects[0].add, 0.05);

	CHECK_EQ(scenario_set(sc, "kind.soldier.count", "500", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->kinds[0].count, 1000); /* scale 2 */
	CHECK_NEAR(sc->kinds[0].spawn, 10); /* 1% of the new count */
	CHECK_EQ(sc->entities_start, 1200);

	CHECK_EQ(scenario_set(sc, "kind.soldier.variants", " 5 ", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->type_count, 8);
	CHECK_STR(sc->types[7].name, "soldier#4");
	CHECK_EQ(sc->kinds[0].variant_tag_first, 4);

	CHECK_EQ(scenario_set(sc, "component.Health.size", "64", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->types[2].size, 64);

	CHECK_EQ(scenario_set(sc, "scenario.scale", "0.5", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->kinds[0].count, 250);
	CHECK_EQ(sc->kinds[1].count, 50);
	CHECK_NEAR(sc->lookups, 2.5);

	/* a key the file did not give */
	CHECK_EQ(scenario_set(sc, "kind.rock.spawn", "4", err, sizeof err), SCENARIO_OK);
	CHECK_NEAR(sc->kinds[1].spawn, 2);

	/* lists, and a change that stays consistent */
	CHECK_EQ(scenario_set(sc, "system.move.requires", "Velocity, Position", err, sizeof err),
	         SCENARIO_OK);
	CHECK_EQ(sc->systems[0].required[0], 1);
	CHECK_EQ(sc->systems[0].read_mask, 1);
	CHECK_EQ(sc->systems[0].write_mask, 2);
	CHECK(check_resolved(sc));

	/* a parallel system, and its threads */
	CHECK(!scenario_has_parallel(sc));
	CHECK_EQ(scenario_set(sc, "system.heal.parallel", "true", err, sizeof err), SCENARIO_OK);
	CHECK(sc->systems[1].parallel && !sc->systems[0].parallel);
	CHECK(scenario_has_parallel(sc));
	CHECK_EQ(scenario_set(sc, "scenario.threads", "3", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->threads, 3);
	CHECK_EQ(scenario_set(sc, "scenario.threads", "all", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->threads, 0);
	CHECK_EQ(scenario_set(sc, "system.heal.parallel", "false", err, sizeof err), SCENARIO_OK);
	CHECK(!scenario_has_parallel(sc));
	free(sc);
	return true;
}

/* parallel = true in a file, with threads, and what the header says of them. */
static bool test_parallel(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	const char *text = "[scenario]\nthreads = 4\n" COMPONENTS_AB KIND_A
	                   "[system a]\nrequires = A\nwrites = A\nparallel = true\n"
	                   "[system b]\nrequires = A\nparallel = false\n"
	                   "[system c]\nrequires = A, B\n";
	int rc = scenario_parse_string(sc, "parallel.ini", text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	CHECK(check_resolved(sc));
	CHECK_EQ(sc->threads, 4);
	CHECK(sc->systems[0].parallel);
	CHECK(!sc->systems[1].parallel);
	CHECK(!sc->systems[2].parallel);
	CHECK(scenario_has_parallel(sc));
	char *header = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&header, &size);
	CHECK(f != NULL);
	CHECK_EQ(scenario_write_header(f, sc), 0);
	CHECK_EQ(fclose(f), 0);
	bool ok = strstr(header, "# threads 4: a parallel system's pass is split across them\n") &&
	          strstr(header, "writes A; work 0; despawn 0%; parallel\n") &&
	          strstr(header, "# system b: requires A; excludes -; reads -; writes -; work 0; "
	                         "despawn 0%\n");
	if (!ok)
		printf("%s", header);
	free(header);
	CHECK(ok);
	free(sc);
	return true;
}

/* The markings: storage, group and batch, in a file and through scenario_set, and the header
 * lines that say them (none where there are none: test_header). */
static bool test_markings(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	const char *text = COMPONENTS_AB "[component T]\nsize = 1\nstorage = sparse\n"
	                   "[component U]\nstorage = table\nsize = 2\n"
	                   "[kind k]\ncomponents = A\ncount = 10\nspawn = 2\nbatch = yes\n"
	                   "[kind j]\ncomponents = A, B\ncount = 10\nbatch = no\n"
	                   "[system a]\nrequires = A\ngroup = yes\n"
	                   "[system b]\nrequires = A, B\ngroup = false\n"
	                   "[effect e]\nkind = k\ncomponent = T\nadd = 1%\nduration = 2\nbatch = true\n"
	                   "[effect f]\nkind = j\ncomponent = U\nadd = 1%\nremove = 5%\n";
	int rc = scenario_parse_string(sc, "markings.ini", text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	CHECK(check_resolved(sc));
	CHECK_EQ(sc->types[0].storage, ECS_STORAGE_TABLE);
	CHECK_EQ(sc->types[2].storage, ECS_STORAGE_SPARSE);
	CHECK_EQ(sc->types[3].storage, ECS_STORAGE_TABLE);
	CHECK(scenario_has_sparse(sc));
	CHECK(sc->kinds[0].batch);
	CHECK(!sc->kinds[1].batch);
	CHECK(sc->systems[0].group);
	CHECK(!sc->systems[1].group);
	CHECK(sc->effects[0].batch);
	CHECK(!sc->effects[1].batch);
	char *header = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&header, &size);
	CHECK(f != NULL);
	CHECK_EQ(scenario_write_header(f, sc), 0);
	CHECK_EQ(fclose(f), 0);
	bool ok = strstr(header, "# storage sparse (ecs_config.component_storage, a hint: a backend "
	                         "of one layout ignores it): T\n") &&
	          strstr(header, "; A; batch (one entity_create_batch per variant a frame)\n") &&
	          strstr(header, "; A B\n") && strstr(header, "despawn 0%; group\n") &&
	          strstr(header, "for 2 frames; batch (its adds, its removes, one call each a frame)\n") &&
	          strstr(header, "lose it per frame\n");
	if (!ok)
		printf("%s", header);
	free(header);
	CHECK(ok);
	/* overrides: each key both ways, and the switch's two spellings */
	/* [scenario] storage = table sets every marking aside, and says so */
	CHECK_EQ(scenario_set(sc, "scenario.storage", "table", err, sizeof err), SCENARIO_OK);
	CHECK(!scenario_has_sparse(sc));
	CHECK_EQ(scenario_storage_hint(sc, 2), ECS_STORAGE_TABLE);
	CHECK_EQ(sc->types[2].storage, ECS_STORAGE_SPARSE);
	f = open_memstream(&header, &size);
	CHECK(f != NULL);
	CHECK_EQ(scenario_write_header(f, sc), 0);
	CHECK_EQ(fclose(f), 0);
	ok = strstr(header, "# storage table for every type ([scenario] storage = table): the sparse "
	                    "markings set aside: T\n") != NULL;
	free(header);
	CHECK(ok);
	CHECK_EQ(scenario_set(sc, "scenario.storage", "marked", err, sizeof err), SCENARIO_OK);
	CHECK(scenario_has_sparse(sc));
	CHECK_EQ(scenario_set(sc, "component.T.storage", "table", err, sizeof err), SCENARIO_OK);
	CHECK(!scenario_has_sparse(sc));
	CHECK_EQ(scenario_set(sc, "component.A.storage", "sparse", err, sizeof err), SCENARIO_OK);
	CHECK_EQ(sc->types[0].storage, ECS_STORAGE_SPARSE);
	CHECK_EQ(scenario_set(sc, "system.b.group", "yes", err, sizeof err), SCENARIO_OK);
	CHECK(sc->systems[1].group);
	CHECK_EQ(scenario_set(sc, "kind.k.batch", "no", err, sizeof err), SCENARIO_OK);
	CHECK(!sc->kinds[0].batch);
	CHECK_EQ(scenario_set(sc, "effect.f.batch", "yes", err, sizeof err), SCENARIO_OK);
	CHECK(sc->effects[1].batch);
	CHECK_EQ(scenario_set(sc, "system.a.parallel", "yes", err, sizeof err), SCENARIO_OK);
	CHECK(sc->systems[0].parallel);
	/* a bad value leaves the scenario as it was */
	CHECK_EQ(scenario_set(sc, "kind.j.batch", "sometimes", err, sizeof err), SCENARIO_ERR_INVALID);
	CHECK(!sc->kinds[1].batch);
	/* the variant tags stay table types */
	CHECK_EQ(scenario_set(sc, "kind.j.variants", "3", err, sizeof err), SCENARIO_OK);
	for (uint32_t t = sc->component_count; t < sc->type_count; t++)
		CHECK_EQ(sc->types[t].storage, ECS_STORAGE_TABLE);
	free(sc);
	return true;
}

struct bad_set {
	const char *key, *value, *message;
};

static const struct bad_set bad_sets[] = {
	{"kind.soldier", "1", "kind.soldier = 1: expected SECTION.NAME.KEY or scenario.KEY"},
	{"kind.soldier.count.x", "1", "kind.soldier.count.x = 1: expected SECTION.NAME.KEY or scenario.KEY"},
	{"scenario", "1", "scenario = 1: expected SECTION.NAME.KEY or scenario.KEY"},
	{"bogus.x.y", "1",
	 "bogus.x.y = 1: unknown section 'bogus' (scenario, component, kind, system, effect)"},
	{"kind.nobody.count", "1", "kind.nobody.count = 1: no [kind nobody] in good.ini"},
	{"kind.soldier.colour", "red",
	 "kind.soldier.colour = red: unknown key 'colour' (keys of [kind]: components, count, spawn, "
	 "despawn, variants, batch)"},
	{"scenario.frame", "1",
	 "scenario.frame = 1: unknown key 'frame' (keys of [scenario]: frames, warmup, seed, scale, "
	 "entities, lookups, lookup, threads, storage)"},
	{"scenario.storage", "sparse", "scenario.storage = sparse: not marked or table"},
	{"system.move.parallel", "maybe",
	 "system.move.parallel = maybe: not yes or no (or true or false)"},
	{"system.move.group", "1", "system.move.group = 1: not yes or no (or true or false)"},
	{"kind.soldier.batch", "all", "kind.soldier.batch = all: not yes or no (or true or false)"},
	{"effect.burning.batch", "", "effect.burning.batch = : not yes or no (or true or false)"},
	{"component.Health.storage", "tables",
	 "component.Health.storage = tables: not table or sparse"},
	{"scenario.threads", "0", "scenario.threads = 0: not a number of threads (1..1024) or all"},
	{"kind.soldier.count", "abc",
	 "kind.soldier.count = abc: not a whole number or a percentage (e.g. 1000 or 10%)"},
	{"effect.burning.add", "150%", "effect.burning.add = 150%: above 100%"},
	{"component.Sprite.size", "8", "component.Sprite.size = 8: no [component Sprite] in good.ini"},
	{"component.Health.size", "5000", "component.Health.size = 5000: out of range (1..4096)"},
	{"scenario.scale", "-1", "scenario.scale = -1: not a number above 0 and at most 1000"},
	/* valid alone, inconsistent with the rest */
	{"system.move.requires", "Health",
	 "system.move.requires = Health: [system move]: reads Velocity, which it does not require"},
	{"effect.burning.component", "Health",
	 "effect.burning.component = Health: [effect burning]: every soldier already has Health (it "
	 "is in its components)"},
	{"effect.burning.remove", "1%",
	 "effect.burning.remove = 1%: [effect burning] needs either duration = FRAMES or remove = P%, "
	 "not both"},
	{"kind.soldier.count", "4194303",
	 "kind.soldier.count = 4194303: [kind soldier]: 8388606 entities alive at the start (scale "
	 "2), above the limit of 4194303 (the 22-bit entity index)"},
	{"scenario.entities", "4194303",
	 "scenario.entities = 4194303: [kind soldier]: 5033164 entities alive at the start (scale "
	 "2), above the limit of 4194303 (the 22-bit entity index)"},
	{"kind.rock.count", "50%",
	 "kind.rock.count = 50%: [kind rock]: count = 50% brings the kinds' shares of entities to "
	 "110%, above 100%"},
	{"kind.soldier.variants", "257", "kind.soldier.variants = 257: out of range (1..256)"},
	{"scenario.lookup", "Burning",
	 "scenario.lookup = Burning: [scenario]: no kind has every lookup type: lookups would find "
	 "nothing"},
};

static bool test_set_bad(void)
{
	struct scenario *sc = scenario_new(), *before = scenario_new();
	char err[512];
	CHECK_EQ(scenario_parse_string(sc, "good.ini", good_text, err, sizeof err), SCENARIO_OK);
	memcpy(before, sc, sizeof *sc);
	bool ok = true;
	for (size_t i = 0; i < sizeof bad_sets / sizeof bad_sets[0]; i++) {
		const struct bad_set *b = &bad_sets[i];
		int rc = scenario_set(sc, b->key, b->value, err, sizeof err);
		if (rc != SCENARIO_ERR_INVALID || strcmp(err, b->message) != 0) {
			printf("FAIL %s: %s = %s (status %d)\n     got: %s\n    want: %s\n", runner_test(),
			       b->key, b->value, rc, rc == SCENARIO_OK ? "(no error)" : err, b->message);
			ok = false;
		}
		if (memcmp(sc, before, sizeof *sc) != 0) {
			printf("FAIL %s: %s = %s changed the scenario\n", runner_test(), b->key, b->value);
			ok = false;
			memcpy(sc, before, sizeof *sc);
		}
	}
	CHECK_EQ(scenario_set(sc, NULL, "1", err, sizeof err), SCENARIO_ERR_INVALID);
	CHECK_EQ(scenario_set(sc, "scenario.seed", NULL, err, sizeof err), SCENARIO_ERR_INVALID);
	CHECK(memcmp(sc, before, sizeof *sc) == 0);
	free(sc);
	free(before);
	return ok;
}

/* --- the CSV header -------------------------------------------------------------------- */

static bool test_header(void)
{
	struct scenario *sc = scenario_new();
	char err[512];
	CHECK_EQ(scenario_parse_string(sc, "good.ini", good_text, err, sizeof err), SCENARIO_OK);
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	CHECK(f != NULL);
	CHECK_EQ(scenario_write_header(f, sc), 0);
	CHECK_EQ(fclose(f), 0);
	static const char *const want[] = {
		"# scenario good.ini: 10 frames after 2 warm-up; seed 7; scale 2; entities 1400 at the "
		"start, at most 1472\n",
		"# types 6 (4 components + 2 variant tags of 1 B): Position 8 B; Velocity 8 B; Health 4 "
		"B; Burning 1 B\n",
		"# lookups per frame: 10 + 0% of live entities; reading Position\n",
		"# kind soldier: 1200 entities; spawn 12, despawn 6 per frame; 3 variants; Position "
		"Velocity Health\n",
		"# system move: requires Position Velocity; excludes Burning; reads Velocity; writes "
		"Position; work 4; despawn 0.5%; add Burning 1%\n",
		"# system heal: requires Health; excludes -; reads -; writes Health; work 0; despawn 0%; "
		"remove Burning 5%, Velocity 2.5%\n",
		"# effect burning: Burning on 2% of soldier per frame, for 30 frames\n",
		"# effect rust: Burning on 0.5% of rock per frame, 10% of those having it lose it per "
		"frame\n",
	};
	bool ok = true;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(text, want[i])) {
			printf("FAIL %s: missing line: %s", runner_test(), want[i]);
			ok = false;
		}
	/* every line a comment */
	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		if (strncmp(line, "# ", 2) != 0) {
			printf("FAIL %s: not a comment line: %.60s\n", runner_test(), line);
			ok = false;
		}
		if (!strchr(line, '\n'))
			break;
	}
	/* no parallel system: no threads line, the header as before; nor markings */
	if (strstr(text, "# threads") || strstr(text, "parallel") || strstr(text, "sparse") ||
	    strstr(text, "batch") || strstr(text, "group")) {
		printf("FAIL %s: a threads line without a parallel system\n", runner_test());
		ok = false;
	}
	if (!ok)
		printf("%s", text);
	free(text);

	/* a newline in the file's name must not end the comment line */
	CHECK_EQ(scenario_parse_string(sc, "odd\nname.ini", good_text, err, sizeof err), SCENARIO_OK);
	f = open_memstream(&text, &size);
	CHECK(f != NULL);
	CHECK_EQ(scenario_write_header(f, sc), 0);
	CHECK_EQ(fclose(f), 0);
	ok = ok && strncmp(text, "# scenario odd?name.ini: ", 25) == 0;
	free(text);
	free(sc);
	return ok;
}

/* --- damaged files: never a crash, always one "file:line: " line -------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t random_below(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % n;
}


static void damage(char *text, size_t cap)
{
	static const char bytes[] = "\n\n[]=;,%# .0123456789aZ_\t-";
	size_t n = strlen(text);
	for (uint32_t edits = 1 + random_below(3); edits; edits--) {
		size_t at = n ? random_below((uint32_t)n) : 0;
		switch (random_below(5)) {
		case 0: /* delete a byte */
			if (n) {
				memmove(text + at, text + at + 1, n - at);
				n--;
			}
			break;
		case 1: /* insert one */
			if (n + 2 < cap) {
				memmove(text + at + 1, text + at, n - at + 1);
				text[at] = bytes[random_below(sizeof bytes - 1)];
				n++;
			}
			break;
		case 2: /* replace one */
			if (n)
				text[at] = bytes[random_below(sizeof bytes - 1)];
			break;
		case 3: { /* delete from here to the end of the line */
			size_t end = at;
			while (end < n && text[end] != '\n')
				end++;
			memmove(text + at, text + end, n - end + 1);
			n -= end - at;
			break;
		}
		default: { /* repeat a stretch */
			size_t len = random_below(80);
			if (at + len <= n && n + len + 1 < cap) {
				memmove(text + at + len, text + at, n - at + 1);
				n += len;
			}
			break;
		}
		}
	}
}

static bool test_damaged_files(void)
{
	static const char *const names[] = {"shooter.ini", "rts.ini", "rpg.ini", "particles.ini"};
	struct scenario *sc = scenario_new();
	size_t cap = 1 << 20;
	char *copy = malloc(cap);
	CHECK(copy != NULL);
	int invalid = 0, valid = 0;
	bool ok = true;
	for (size_t i = 0; ok && i < sizeof names / sizeof names[0]; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", scenario_dir, names[i]);
		char *text = read_all(path);
		CHECK(text != NULL);
		for (int round = 0; ok && round < 2500; round++) {
			snprintf(copy, cap, "%s", text);
			damage(copy, cap);
			char err[512];
			int rc = scenario_parse_string(sc, "d.ini", copy, err, sizeof err);
			if (rc == SCENARIO_OK) {
				valid++;
				ok = check_resolved(sc);
			} else {
				invalid++;
				const char *p = err + 6;
				if (rc != SCENARIO_ERR_INVALID || strncmp(err, "d.ini:", 6) != 0 ||
				    !(*p >= '1' && *p <= '9') || !strstr(p, ": ") || strchr(err, '\n')) {
					printf("FAIL %s: status %d, message: %s\n", runner_test(), rc, err);
					ok = false;
				}
			}
		}
		free(text);
	}
	printf("note damaged-files: %d refused with a file:line message, %d still valid\n", invalid,
	       valid);
	free(copy);
	free(sc);
	return ok;
}

/* --- the runner ------------------------------------------------------------------------ */

static const struct {
	const char *name;
	bool (*run)(void);
} tests[] = {
	{"shipped", test_shipped},
	{"every_ini_loads", test_every_ini_loads},
	{"every_ini_turns_over", test_every_ini_turns_over},
	{"good_file", test_good_file},
	{"defaults_and_forms", test_defaults_and_forms},
	{"readme_example", test_readme_example},
	{"bad_files", test_bad_files},
	{"too_many_variants", test_too_many_variants},
	{"long_line", test_long_line},
	{"files", test_files},
	{"set_good", test_set_good},
	{"set_bad", test_set_bad},
	{"parallel", test_parallel},
	{"markings", test_markings},
	{"header", test_header},
	{"damaged_files", test_damaged_files},
};

static void remove_tmp_dir(void)
{
	DIR *d = opendir(tmp_dir);
	if (!d)
		return;
	struct dirent *entry;
	while ((entry = readdir(d))) {
		if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", tmp_dir, entry->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(tmp_dir);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		scenario_dir = argv[1];
	snprintf(tmp_dir, sizeof tmp_dir, "%s/ecsb-scenario-XXXXXX",
	         getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 32 ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		runner_begin("scenario/%s", tests[i].name);
		runner_end(tests[i].run());
	}
	remove_tmp_dir();
	return runner_summary();
}
