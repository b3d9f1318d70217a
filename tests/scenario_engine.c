/*
 * scenario_engine.c (tests): the scenario engine (harness/scenario/scenario_engine.c) over every backend,
 * the floor and the harness alone. Every shipped scenario, scaled down, runs a few frames on
 * each participant: the backends and the floor agree on the checksum and on the live entities,
 * and each backend's storage matches the engine exactly (every entity alive with the types the
 * engine says, every system visiting exactly the entities that match). A system that despawns
 * every entity it visits leaves the storage empty and consistent (deferred to the end of its
 * pass). A run is deterministic, and its seed matters. Phase names and the engine's own limits.
 *
 * usage: scenario_engine [SCENARIO_DIR]   (default: scenarios; run from the repository's root)
 * Ends with "N passed, N failed".
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/scenario/scenario.h"
#include "../harness/scenario/scenario_engine.h"
#include "check.h"

static const char *scenario_dir = "scenarios";

static bool parse(struct scenario *sc, const char *text)
{
	char err[300];
	int rc = scenario_parse_string(sc, "test.ini", text, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	return true;
}

static bool set(struct scenario *sc, const char *key, const char *value)
{
	char err[300];
	int rc = scenario_set(sc, key, value, err, sizeof err);
	if (rc != SCENARIO_OK)
		printf("     %s\n", err);
	CHECK_EQ(rc, SCENARIO_OK);
	return true;
}

/* Runs `frames` frames of sc on one participant, its parallel systems on `threads` threads (0:
 * none started: every pass serial); its checksum and live entities. */
static bool run_participant(const struct scenario *sc, const struct ecs_ops *ops,
                            enum scenario_mode mode, uint32_t threads, uint32_t frames,
                            uint64_t *checksum, bool *verified, uint64_t *live)
{
	struct scenario_engine *e;
	char err[300];
	int rc = scenario_engine_open(&e, sc, ops, mode, err, sizeof err);
	if (rc)
		printf("     %s: %s\n", ops ? ops->name : "no storage", err);
	CHECK_EQ(rc, 0);
	if (threads && scenario_engine_threads(e, threads, NULL, err, sizeof err)) {
		printf("     %s: %s\n", ops ? ops->name : "no storage", err);
		scenario_engine_close(e);
		CHECK(false);
	}
	bool ok = true;
	for (uint32_t f = 0; f < frames && ok; f++) {
		/* as the run does around each sample: the threads woken, then resting */
		scenario_engine_wake(e);
		if (scenario_engine_frame(e)) {
			printf("     %s frame %u: %s\n", ops ? ops->name : "no storage", f,
			       scenario_engine_error(e));
			ok = false;
		}
		scenario_engine_rest(e);
	}
	const double *figures = scenario_engine_figures(e);
	for (uint32_t p = 0; p < scenario_engine_phase_count(sc) && ok; p++)
		ok = figures[p] >= 0;
	if (ok && scenario_engine_checksum(e, checksum, verified)) {
		printf("     %s: %s\n", ops ? ops->name : "no storage", scenario_engine_error(e));
		ok = false;
	}
	*live = scenario_engine_live_entities(e);
	scenario_engine_close(e);
	CHECK(ok);
	return true;
}

/* Every backend and the floor agree; the harness runs the same frames with the same entities.
 * Parallel systems on `threads` threads (0: serial). */
static bool all_agree_on(const struct scenario *sc, uint32_t threads, uint32_t frames,
                         uint64_t *checksum_out)
{
	uint64_t want = 0, want_live = 0, checksum, live;
	bool verified;
	TRY(run_participant(sc, NULL, SCENARIO_MODE_FLOOR, threads, frames, &want, &verified,
	                    &want_live));
	CHECK(verified);
	for (size_t b = 0; b < ecs_backend_count; b++) {
		TRY(run_participant(sc, ecs_backends[b], SCENARIO_MODE_STORAGE, threads, frames,
		                    &checksum, &verified, &live));
		CHECK(verified);
		if (checksum != want || live != want_live)
			printf("     %s: checksum %016llx, %llu live; floor %016llx, %llu live\n",
			       ecs_backends[b]->name, (unsigned long long)checksum,
			       (unsigned long long)live, (unsigned long long)want,
			       (unsigned long long)want_live);
		CHECK(checksum == want);
		CHECK_EQ(live, want_live);
	}
	TRY(run_participant(sc, NULL, SCENARIO_MODE_HARNESS, threads, frames, &checksum, &verified,
	                    &live));
	CHECK(!verified);
	CHECK_EQ(live, want_live);
	if (checksum_out)
		*checksum_out = want;
	return true;
}

static bool all_agree(const struct scenario *sc, uint32_t frames, uint64_t *checksum_out)
{
	return all_agree_on(sc, 0, frames, checksum_out);
}

/* --- the tests ------------------------------------------------------------------------------ */

static char shipped[16][300];
static uint32_t shipped_count;

static bool test_shipped_agree(void)
{
	CHECK(shipped_count >= 4);
	for (uint32_t i = 0; i < shipped_count; i++) {
		struct scenario *sc = malloc(sizeof *sc);
		char err[300];
		CHECK(sc != NULL);
		bool ok = scenario_load(sc, shipped[i], err, sizeof err) == SCENARIO_OK &&
		          set(sc, "scenario.scale", "0.01") && set(sc, "scenario.frames", "12");
		if (!ok)
			printf("     %s: %s\n", shipped[i], err);
		/* the effects' expiry in the frames run: durations down to a few frames */
		for (uint32_t j = 0; ok && j < sc->effect_count; j++)
			if (sc->effects[j].duration > 4) {
				char key[100];
				snprintf(key, sizeof key, "effect.%s.duration", sc->effects[j].name);
				ok = set(sc, key, "4");
			}
		ok = ok && all_agree(sc, 20, NULL);
		if (!ok)
			printf("     in %s\n", shipped[i]);
		free(sc);
		CHECK(ok);
	}
	return true;
}

static const char *const reaper_text =
	"[scenario]\nframes = 3\nwarmup = 0\n"
	"[component Position]\nsize = 8\n[component Velocity]\nsize = 12\n[component Mark]\nsize = 1\n"
	"[kind walker]\ncomponents = Position, Velocity\ncount = 700\nvariants = 3\n"
	"[kind post]\ncomponents = Position\ncount = 300\n"
	"[system move]\nrequires = Position, Velocity\nreads = Velocity\nwrites = Position\nwork = 4\n"
	"[system reaper]\nrequires = Position\nreads = Position\nwork = 1\ndespawn = 100%\n"
	"[system after]\nrequires = Position\nwrites = Position\n";

/* A system that despawns every entity it visits: the despawns wait for the end of its pass
 * (the storage does not change under the iteration), then the storage is empty: no system
 * visits anything, and it takes new entities again. */
static bool test_deferred_despawn(void)
{
	struct scenario sc;
	TRY(parse(&sc, reaper_text));
	for (size_t b = 0; b < ecs_backend_count; b++) {
		const struct ecs_ops *ops = ecs_backends[b];
		struct scenario_engine *e;
		char err[300];
		CHECK_EQ(scenario_engine_open(&e, &sc, ops, SCENARIO_MODE_STORAGE, err, sizeof err), 0);
		CHECK_EQ(scenario_engine_live_entities(e), 1000);
		bool ok = scenario_engine_frame(e) == 0;
		if (!ok)
			printf("     %s: %s\n", ops->name, scenario_engine_error(e));
		ok = ok && scenario_engine_live_entities(e) == 0;
		/* the despawn phase has the reaper's despawns; the after system found nothing */
		const double *figures = scenario_engine_figures(e);
		ok = ok && figures[sc.system_count + 1] > 0;
		uint64_t checksum;
		bool verified;
		ok = ok && scenario_engine_checksum(e, &checksum, &verified) == 0 && verified;
		ecs_storage *s = scenario_engine_storage(e);
		for (uint32_t sys = 0; ok && sys < sc.system_count; sys++) {
			struct ecs_iter it;
			struct ecs_batch batch;
			ok = ops->system_iter_begin(s, scenario_engine_system_id(e, sys), &it) == ECS_OK &&
			     !ops->system_iter_next(&it, &batch);
		}
		/* still usable: a new entity is found by the system that requires its type */
		uint32_t position = 0;
		unsigned char value[8] = {0};
		const void *values[1] = {value};
		ecs_entity h;
		ok = ok && ecs_entity_create_with(ops, s, &position, 1, values, &h) == ECS_OK;
		if (ok) {
			struct ecs_iter it;
			struct ecs_batch batch;
			uint32_t seen = 0;
			ok = ops->system_iter_begin(s, scenario_engine_system_id(e, 1), &it) == ECS_OK;
			while (ok && ops->system_iter_next(&it, &batch))
				seen += batch.count;
			ok = ok && seen == 1;
		}
		if (!ok)
			printf("     %s\n", ops->name);
		scenario_engine_close(e);
		CHECK(ok);
	}
	/* the floor and the harness end empty too, and the checksums of empty storages agree */
	TRY(all_agree(&sc, 2, NULL));
	return true;
}

/* Structure that comes and goes: effects (by duration and by removal share), system adds and
 * removes of types others require and exclude, variants, lookups of a dynamic type, a tag, a
 * 4096-byte component and a 3-byte one. */
static const char *const churn_text =
	"[scenario]\nframes = 40\nwarmup = 0\nseed = 7\nlookups = 30\nlookup = Position, Hit\n"
	"[component Position]\nsize = 12\n[component Velocity]\nsize = 3\n"
	"[component Big]\nsize = 4096\n[component Hit]\nsize = 4\n[component Burning]\nsize = 8\n"
	"[component Frozen]\nsize = 1\n[component Shield]\nsize = 2\n"
	"[kind unit]\ncomponents = Position, Velocity, Big\ncount = 400\nvariants = 5\n"
	"spawn = 3.5\ndespawn = 2\n"
	"[kind ghost]\ncomponents = Position, Hit\ncount = 50\nspawn = 0.3\n"
	"[system move]\nrequires = Position, Velocity\nexcludes = Frozen\nreads = Velocity\n"
	"writes = Position\nwork = 5\nadd = Hit 10%, Shield 3%\n"
	"[system burn]\nrequires = Big, Burning\nreads = Burning\nwrites = Big\nwork = 2\n"
	"despawn = 5%\nremove = Shield 50%\n"
	"[system hit]\nrequires = Hit, Position\nexcludes = Shield\nreads = Hit\nwrites = Position\n"
	"remove = Hit 60%\n"
	"[effect burning]\nkind = unit\ncomponent = Burning\nadd = 4%\nduration = 6\n"
	"[effect frozen]\nkind = unit\ncomponent = Frozen\nadd = 2%\nremove = 20%\n";

static bool test_churn_agree(void)
{
	struct scenario sc;
	TRY(parse(&sc, churn_text));
	uint64_t a, b;
	TRY(all_agree(&sc, 40, &a));
	/* deterministic: the same again; another seed: another checksum */
	uint64_t live;
	bool verified;
	TRY(run_participant(&sc, ecs_backends[0], SCENARIO_MODE_STORAGE, 0, 40, &b, &verified, &live));
	CHECK(a == b);
	TRY(set(&sc, "scenario.seed", "8"));
	TRY(run_participant(&sc, ecs_backends[0], SCENARIO_MODE_STORAGE, 0, 40, &b, &verified, &live));
	CHECK(a != b);
	return true;
}

/*
 * Systems marked parallel: every backend, the floor and the harness agree at every thread count,
 * with one another and with the same scenario run serially (the same update; the parts' sums
 * added in any order give the same checksum). The churn scenario walks every way the floor can
 * (whole columns, entity by entity, the slots of a dynamic type), with excludes, adds, removes
 * and despawns drawn after the parallel passes.
 */
static bool test_parallel_churn_agree(void)
{
	struct scenario sc;
	TRY(parse(&sc, churn_text));
	uint64_t serial, parallel;
	TRY(all_agree(&sc, 40, &serial));
	TRY(set(&sc, "system.move.parallel", "true"));
	TRY(set(&sc, "system.burn.parallel", "true"));
	TRY(set(&sc, "system.hit.parallel", "true"));
	TRY(all_agree(&sc, 40, &parallel)); /* no threads started: the serial passes */
	CHECK(parallel == serial);
	for (uint32_t t = 1; t <= 4; t++) {
		TRY(all_agree_on(&sc, t, 40, &parallel));
		if (parallel != serial)
			printf("     %u threads: %016llx, serial %016llx\n", t,
			       (unsigned long long)parallel, (unsigned long long)serial);
		CHECK(parallel == serial);
	}
	return true;
}

/* The shipped particles-parallel.ini, scaled down, at 1 and 2 threads, against itself with
 * every system serial. */
static bool test_parallel_shipped_agree(void)
{
	char path[300];
	snprintf(path, sizeof path, "%s/particles-parallel.ini", scenario_dir);
	struct scenario *sc = malloc(sizeof *sc);
	CHECK(sc != NULL);
	char err[300];
	bool ok = scenario_load(sc, path, err, sizeof err) == SCENARIO_OK;
	if (!ok)
		printf("     %s\n", err);
	ok = ok && set(sc, "scenario.scale", "0.01") && set(sc, "scenario.frames", "12");
	ok = ok && scenario_has_parallel(sc);
	uint64_t serial = 0, parallel = 0;
	for (uint32_t t = 1; ok && t <= 2; t++) {
		ok = all_agree_on(sc, t, 12, &parallel);
		if (t == 1)
			serial = parallel;
		ok = ok && parallel == serial;
	}
	for (uint32_t s = 0; ok && s < sc->system_count; s++) {
		char key[100];
		snprintf(key, sizeof key, "system.%s.parallel", sc->systems[s].name);
		ok = set(sc, key, "false");
	}
	ok = ok && !scenario_has_parallel(sc) && all_agree_on(sc, 2, 12, &serial) &&
	     serial == parallel;
	free(sc);
	CHECK(ok);
	return true;
}

/* --- the order of spawns and despawns ------------------------------------------------------- */

/*
 * A backend that records what the engine asks of it, in order: each creation (the kind, told
 * by its types) and each destruction (the kind, and the creation number of the entity, the
 * order in which it was made), before passing the call on to a real backend.
 */
enum { LOG_MAX = 1 << 16 };
struct logged {
	bool create;
	uint8_t kind;    /* 0: it has type 1 (a unit's Velocity); 1: not (a spark) */
	uint32_t number; /* its creation number */
};
static const struct ecs_ops *log_inner;
static struct logged log_events[LOG_MAX];
static uint32_t log_count, log_created, log_number_of[LOG_MAX], log_kind_of[LOG_MAX];
static bool log_overflow;

static int log_create_with(ecs_storage *s, const uint32_t *types, uint32_t count,
                           const void *const *values, ecs_entity *out)
{
	int rc = ecs_entity_create_with(log_inner, s, types, count, values, out);
	if (rc != ECS_OK)
		return rc;
	uint8_t kind = 1;
	for (uint32_t i = 0; i < count; i++)
		kind = types[i] == 1 ? 0 : kind;
	uint32_t index = ecs_entity_index(*out);
	if (log_count == LOG_MAX || index >= LOG_MAX) {
		log_overflow = true;
		return rc;
	}
	log_number_of[index] = log_created;
	log_kind_of[index] = kind;
	log_events[log_count++] = (struct logged){true, kind, log_created++};
	return rc;
}

static int log_destroy(ecs_storage *s, ecs_entity e)
{
	uint32_t index = ecs_entity_index(e);
	if (log_count < LOG_MAX && index < LOG_MAX)
		log_events[log_count++] =
			(struct logged){false, (uint8_t)log_kind_of[index], log_number_of[index]};
	else
		log_overflow = true;
	return log_inner->entity_destroy(s, e);
}

/* Runs sc's open and `frames` frames over backend `inner` through the recorder; where each
 * frame's events start in log_events (frame_start[0]: the first frame's; the population is
 * before it). */
static bool run_logged(const struct scenario *sc, const struct ecs_ops *inner, uint32_t frames,
                       uint32_t *frame_start)
{
	static struct ecs_ops ops;
	ops = *inner;
	ops.entity_create_with = log_create_with;
	ops.entity_destroy = log_destroy;
	log_inner = inner;
	log_count = log_created = 0;
	log_overflow = false;
	struct scenario_engine *e;
	char err[300];
	int rc = scenario_engine_open(&e, sc, &ops, SCENARIO_MODE_STORAGE, err, sizeof err);
	if (rc)
		printf("     %s: %s\n", inner->name, err);
	CHECK_EQ(rc, 0);
	bool ok = true;
	for (uint32_t f = 0; f < frames && ok; f++) {
		frame_start[f] = log_count;
		ok = scenario_engine_frame(e) == 0;
	}
	frame_start[frames] = log_count;
	scenario_engine_close(e);
	CHECK(ok);
	CHECK(!log_overflow);
	return true;
}

/* In events from..to of the log of kind `create`: how many there are, how often the kind
 * changes from one to the next, and how often the creation number goes down. */
static void log_runs(uint32_t from, uint32_t to, bool create, uint32_t *count, uint32_t *switches,
                     uint32_t *descents)
{
	*count = *switches = *descents = 0;
	const struct logged *last = NULL;
	for (uint32_t i = from; i < to; i++) {
		const struct logged *x = &log_events[i];
		if (x->create != create)
			continue;
		if (last) {
			*switches += x->kind != last->kind;
			*descents += x->number < last->number;
		}
		last = x;
		(*count)++;
	}
}

static const char *const mixed_text =
	"[scenario]\nframes = 6\nwarmup = 0\nseed = 3\n"
	"[component Position]\nsize = 8\n[component Velocity]\nsize = 8\n[component Spark]\nsize = 4\n"
	"[kind unit]\ncomponents = Position, Velocity\ncount = 600\nspawn = 40\ndespawn = 40\n"
	"[kind spark]\ncomponents = Position, Spark\ncount = 400\nspawn = 60\ndespawn = 60\n"
	"[system move]\nrequires = Position, Velocity\nreads = Velocity\nwrites = Position\n";

/*
 * Two kinds made and destroyed in one frame come mixed, not in two blocks: the population made
 * at open, each frame's spawns and each frame's despawns change kind often (a random mix of
 * 600 and 400 changes about 480 times; blocks, once), and the despawns are not in the order of
 * creation. The order is the same on every backend, the same again on a second run, and
 * another with another seed.
 */
static bool test_spawn_order(void)
{
	struct scenario sc;
	TRY(parse(&sc, mixed_text));
	enum { FRAMES = 6 };
	uint32_t start[FRAMES + 1], count, switches, descents;
	static struct logged first[LOG_MAX];
	uint32_t first_count = 0;
	for (size_t b = 0; b < ecs_backend_count; b++) {
		TRY(run_logged(&sc, ecs_backends[b], FRAMES, start));
		log_runs(0, start[0], true, &count, &switches, &descents);
		CHECK_EQ(count, 1000);
		CHECK(switches >= 300);
		for (uint32_t f = 0; f < FRAMES; f++) {
			log_runs(start[f], start[f + 1], true, &count, &switches, &descents);
			CHECK_EQ(count, 100);
			CHECK(switches >= 25);
			log_runs(start[f], start[f + 1], false, &count, &switches, &descents);
			CHECK_EQ(count, 100);
			CHECK(switches >= 25);
			CHECK(descents >= 25);
		}
		/* every backend is asked the same, in the same order */
		if (b == 0) {
			memcpy(first, log_events, log_count * sizeof *first);
			first_count = log_count;
		}
		CHECK_EQ(log_count, first_count);
		for (uint32_t i = 0; i < log_count; i++)
			CHECK(log_events[i].create == first[i].create && log_events[i].kind == first[i].kind &&
			      log_events[i].number == first[i].number);
	}
	/* the same again, and another order with another seed */
	TRY(run_logged(&sc, ecs_backends[0], FRAMES, start));
	CHECK_EQ(log_count, first_count);
	CHECK(memcmp(log_events, first, log_count * sizeof *first) == 0);
	TRY(set(&sc, "scenario.seed", "4"));
	TRY(run_logged(&sc, ecs_backends[0], FRAMES, start));
	bool same = log_count == first_count;
	for (uint32_t i = 0; same && i < log_count; i++)
		same = log_events[i].kind == first[i].kind && log_events[i].number == first[i].number;
	CHECK(!same);
	return true;
}

/* A system's despawns (its command buffer) are applied neither in the order of creation nor
 * kind after kind. */
static bool test_system_despawn_order(void)
{
	struct scenario sc;
	TRY(parse(&sc, "[scenario]\nframes = 3\nwarmup = 0\n"
	               "[component Position]\nsize = 8\n[component Velocity]\nsize = 8\n"
	               "[component Spark]\nsize = 4\n"
	               "[kind unit]\ncomponents = Position, Velocity\ncount = 600\n"
	               "[kind spark]\ncomponents = Position, Spark\ncount = 400\n"
	               "[system cull]\nrequires = Position\ndespawn = 10%\n"));
	uint32_t start[4], count, switches, descents;
	for (size_t b = 0; b < ecs_backend_count; b++) {
		TRY(run_logged(&sc, ecs_backends[b], 3, start));
		for (uint32_t f = 0; f < 3; f++) {
			log_runs(start[f], start[f + 1], false, &count, &switches, &descents);
			CHECK(count >= 50);
			CHECK(switches >= count / 5);
			CHECK(descents >= count / 4);
		}
	}
	return true;
}

static bool test_phase_names(void)
{
	struct scenario sc;
	TRY(parse(&sc, reaper_text));
	const char *want[] = {"spawn", "system:move", "system:reaper", "system:after",
	                      "despawn", "add", "remove", "lookup"};
	CHECK_EQ(scenario_engine_phase_count(&sc), 8);
	CHECK_EQ(scenario_figure_count(&sc), 10); /* the phases, the allocations, the largest block */
	for (uint32_t p = 0; p < 8; p++) {
		char name[64];
		scenario_engine_phase_name(&sc, p, name, sizeof name);
		CHECK(strcmp(name, want[p]) == 0);
	}
	return true;
}

/* More than 64 types that come and go: refused with a message, before anything runs. */
static bool test_engine_limits(void)
{
	static char text[40000];
	size_t len = (size_t)snprintf(text, sizeof text,
	                              "[component Position]\nsize = 4\n[kind unit]\n"
	                              "components = Position\ncount = 10\n");
	for (int i = 0; i < 65; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "[component E%d]\nsize = 1\n", i);
	for (int i = 0; i < 61; i++) /* 61 effects and 4 types a system adds: 65 */
		len += (size_t)snprintf(text + len, sizeof text - len,
		                        "[effect e%d]\nkind = unit\ncomponent = E%d\nadd = 1%%\n"
		                        "duration = 2\n",
		                        i, i);
	len += (size_t)snprintf(text + len, sizeof text - len,
	                        "[system s]\nrequires = Position\nadd = E61 1%%, E62 1%%, E63 1%%, "
	                        "E64 1%%\n");
	struct scenario *sc = malloc(sizeof *sc);
	CHECK(sc != NULL);
	bool ok = parse(sc, text);
	char err[300] = "";
	struct scenario_engine *e = NULL;
	ok = ok && scenario_engine_check(sc, err, sizeof err) == -1 && strstr(err, "at most 64") &&
	     scenario_engine_open(&e, sc, ecs_backends[0], SCENARIO_MODE_STORAGE, err, sizeof err) ==
	         -1 &&
	     e == NULL;
	free(sc);
	CHECK(ok);
	/* a mode and a backend that do not go together */
	struct scenario small;
	TRY(parse(&small, reaper_text));
	CHECK_EQ(scenario_engine_open(&e, &small, NULL, SCENARIO_MODE_STORAGE, err, sizeof err), -1);
	CHECK_EQ(scenario_engine_open(&e, &small, ecs_backends[0], SCENARIO_MODE_FLOOR, err,
	                              sizeof err),
	         -1);
	return true;
}

static void find_shipped(void)
{
	DIR *d = opendir(scenario_dir);
	struct dirent *de;
	while (d && (de = readdir(d)) && shipped_count < 16) {
		size_t n = strlen(de->d_name);
		if (n > 4 && strcmp(de->d_name + n - 4, ".ini") == 0)
			snprintf(shipped[shipped_count++], sizeof shipped[0], "%s/%s", scenario_dir,
			         de->d_name);
	}
	if (d)
		closedir(d);
}

/*
 * The markings change no result: the churn scenario with its changing types marked sparse, its
 * kinds' spawns and its effects' adds and removes batched and its systems grouped gives every
 * backend, the floor and the harness the same checksum and live entities as without them (the
 * same engine records, whatever calls made them); and each marking alone too.
 */
static bool test_markings_agree(void)
{
	struct scenario sc;
	TRY(parse(&sc, churn_text));
	uint64_t plain, marked;
	TRY(all_agree(&sc, 40, &plain));
	static const char *const keys[][2] = {
		{"component.Hit.storage", "sparse"},   {"component.Burning.storage", "sparse"},
		{"component.Frozen.storage", "sparse"}, {"component.Shield.storage", "sparse"},
		{"kind.unit.batch", "yes"},             {"kind.ghost.batch", "yes"},
		{"effect.burning.batch", "yes"},        {"effect.frozen.batch", "yes"},
		{"system.move.group", "yes"},           {"system.hit.group", "yes"},
		{"system.burn.group", "yes"},
	};
	size_t n = sizeof keys / sizeof keys[0];
	for (size_t i = 0; i < n; i++) {
		struct scenario one;
		TRY(parse(&one, churn_text));
		TRY(set(&one, keys[i][0], keys[i][1]));
		TRY(all_agree(&one, 40, &marked));
		if (marked != plain)
			printf("     %s = %s changed the checksum\n", keys[i][0], keys[i][1]);
		CHECK(marked == plain);
		TRY(set(&sc, keys[i][0], keys[i][1]));
	}
	TRY(all_agree(&sc, 40, &marked));
	CHECK(marked == plain);
	return true;
}

/* A counting wrapper: the calls a scenario makes of each kind, passed on to a real backend. */
static const struct ecs_ops *count_inner;
static uint64_t count_create_with, count_create_batch, count_add_batch, count_remove_batch,
	count_batched;

static int count_create_with_fn(ecs_storage *s, const uint32_t *types, uint32_t count,
                                const void *const *values, ecs_entity *out)
{
	count_create_with++;
	return ecs_entity_create_with(count_inner, s, types, count, values, out);
}

static int count_create_batch_fn(ecs_storage *s, const uint32_t *types, uint32_t type_count,
                                 const struct ecs_values *values, uint32_t count, ecs_entity *out)
{
	count_create_batch++;
	count_batched += count;
	return ecs_entity_create_batch(count_inner, s, types, type_count, values, count, out);
}

static int count_add_batch_fn(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                              uint32_t type, const struct ecs_values *values)
{
	count_add_batch++;
	return ecs_component_add_batch(count_inner, s, entities, count, type, values);
}

static int count_remove_batch_fn(ecs_storage *s, const ecs_entity *entities, uint32_t count,
                                 uint32_t type)
{
	count_remove_batch++;
	return ecs_component_remove_batch(count_inner, s, entities, count, type);
}

/*
 * Batched kinds and effects go through the batches, one call per kind-variant or effect a
 * frame at most, and none when nothing is batched (their spawns then one entity_create_with
 * each); grouped systems are asked, the others not (scenario_engine_grouped), and the floor
 * asks nothing.
 */
static bool test_batches_and_groups_called(void)
{
	struct scenario sc;
	TRY(parse(&sc, churn_text));
	for (size_t b = 0; b < ecs_backend_count; b++) {
		static struct ecs_ops ops;
		ops = *ecs_backends[b];
		ops.entity_create_with = count_create_with_fn;
		ops.entity_create_batch = count_create_batch_fn;
		ops.component_add_batch = count_add_batch_fn;
		ops.component_remove_batch = count_remove_batch_fn;
		count_inner = ecs_backends[b];
		for (int batched = 0; batched < 2; batched++) {
			TRY(set(&sc, "kind.unit.batch", batched ? "yes" : "no"));
			TRY(set(&sc, "effect.burning.batch", batched ? "yes" : "no"));
			TRY(set(&sc, "effect.frozen.batch", batched ? "yes" : "no"));
			TRY(set(&sc, "system.move.group", batched ? "yes" : "no"));
			struct scenario_engine *e;
			char err[300];
			count_create_with = 0;
			int rc = scenario_engine_open(&e, &sc, &ops, SCENARIO_MODE_STORAGE, err, sizeof err);
			if (rc)
				printf("     %s: %s\n", ops.name, err);
			CHECK_EQ(rc, 0);
			uint64_t population = count_create_with;
			count_create_with = count_create_batch = count_add_batch = count_remove_batch = 0;
			count_batched = 0;
			bool ok = true;
			for (uint32_t f = 0; f < 40 && ok; f++)
				ok = scenario_engine_frame(e) == 0;
			int move = scenario_engine_grouped(e, 0), burn = scenario_engine_grouped(e, 1);
			scenario_engine_close(e);
			CHECK(ok);
			CHECK_EQ(population, 450); /* the population: one at a time, batched or not */
			CHECK_EQ(burn, -1);
			if (!batched) {
				CHECK_EQ(count_create_batch + count_add_batch + count_remove_batch, 0);
				/* 3.5 units and 0.3 ghosts a frame (0.3 carried 40 times: 11 or 12) */
				CHECK(count_create_with >= 140 + 11 && count_create_with <= 140 + 12);
				CHECK_EQ(move, -1);
				continue;
			}
			/* units: 5 variants, 3 or 4 a frame; ghosts (not batched) one at a time */
			CHECK_EQ(count_batched, 140);
			CHECK(count_create_batch >= 40 * 3 && count_create_batch <= 40 * 4);
			CHECK(count_create_with >= 11 && count_create_with <= 12);
			CHECK(count_add_batch > 0 && count_add_batch <= 2 * 40);
			CHECK(count_remove_batch > 0 && count_remove_batch <= 2 * 40);
			CHECK(move == 0 || move == 1);
			CHECK_EQ(move, ecs_backends[b]->system_group ? move : 0);
		}
	}
	/* the floor has no storage to ask */
	struct scenario_engine *e;
	char err[300];
	CHECK_EQ(scenario_engine_open(&e, &sc, NULL, SCENARIO_MODE_FLOOR, err, sizeof err), 0);
	CHECK_EQ(scenario_engine_grouped(e, 0), -1);
	scenario_engine_close(e);
	/* the run's header asks the same without entities */
	for (size_t b = 0; b < ecs_backend_count; b++) {
		int8_t grouped[SCENARIO_MAX_SYSTEMS];
		CHECK_EQ(scenario_storage_groups(&sc, ecs_backends[b], grouped, err, sizeof err), 0);
		CHECK(grouped[0] == 0 || grouped[0] == 1);
		CHECK_EQ(grouped[1], -1);
		CHECK_EQ(grouped[2], -1);
	}
	return true;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		scenario_dir = argv[1];
	find_shipped();
	static const struct {
		const char *name;
		bool (*fn)(void);
	} tests[] = {
		{"phase-names", test_phase_names},
		{"engine-limits", test_engine_limits},
		{"deferred-despawn", test_deferred_despawn},
		{"churn-agree", test_churn_agree},
		{"spawn-order", test_spawn_order},
		{"system-despawn-order", test_system_despawn_order},
		{"shipped-agree", test_shipped_agree},
		{"parallel-churn-agree", test_parallel_churn_agree},
		{"parallel-shipped-agree", test_parallel_shipped_agree},
		{"markings-agree", test_markings_agree},
		{"batches-and-groups-called", test_batches_and_groups_called},
	};
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		runner_begin("scenario-engine/%s", tests[i].name);
		runner_end(tests[i].fn());
	}
	return runner_summary();
}
