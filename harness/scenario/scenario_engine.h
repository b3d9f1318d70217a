/*
 * scenario_engine.h: runs the frames of a scenario (harness/scenario.h, scenarios/README.md) for
 * one participant of a run: a storage backend, the floor or the harness alone.
 *
 * A frame, in this order (each step a phase, timed on its own):
 *   spawn     every kind's spawns (fractions carry to later frames), the kinds mixed in an
 *             order drawn from the seed (not one kind's block after another's), each entity
 *             created with its components in one call (entity_create_with), a kind's variants
 *             in turn; a kind marked `batch` makes its spawns first instead, one
 *             entity_create_batch per variant, each entity with the serial, variant and place
 *             in the engine's lists the list gives it (so that nothing after depends on it);
 *   systems   in file order: a pass over the batches the storage hands out, reading the read
 *             components, doing `work` arithmetic operations, writing the written ones (the
 *             first 4 bytes, or fewer, of each); as it ends, the despawns, adds and removes the
 *             system asks for, drawn for the entities it matched, go to a command buffer,
 *             applied then (the storage must not change structurally during a pass): removes,
 *             adds, despawns, each list in an order drawn from the seed (not the entities'
 *             creation, nor kind after kind). The pass and the drawing are the system's
 *             phase; what the buffer applies is timed into the despawn, add and remove phases;
 *   despawn   every kind's despawns, the kinds mixed as the spawns are, each on an entity drawn
 *             at random among its kind's live ones;
 *   remove    every effect's removes (those whose duration has run out, or `remove` picks);
 *   add       every effect's adds: a share of the kind's live entities is picked, those without
 *             the type get it; an effect marked `batch` removes, adds in one
 *             component_remove_batch, component_add_batch (the engine's records changed as each
 *             entity is listed, so that a second pick skips it as the one-at-a-time path does);
 *   lookup    component_get of every lookup type on random live entities of the matching kinds.
 *
 * A system marked parallel (scenario_engine_threads) runs its pass alone on T threads, each
 * over its part of the storage's split (or of the floor's walk); its changes are drawn and
 * applied after the pass on the calling thread, as every other phase is. The work sums of the
 * parts are added modulo 2^32, so checksums do not depend on T or on how the pass was cut.
 *
 * Every decision comes from the engine's own lists and its own generator, seeded from the
 * scenario's seed: sequential draws for the kinds' despawns, the effects and the lookups (the
 * same draws in the same order for every participant), and for a system's changes a hash of
 * (seed, system, frame, the entity's serial number), drawn over the engine's list of the
 * entities the system matches, so that what a system does to an entity does not depend on the
 * order in which a storage visits it. Every list of operations (the population made at open, a
 * frame's spawns, its kinds' despawns, a system's removes, adds and despawns) is built alike by
 * every participant and shuffled with draws from (seed, list, frame) before it is applied. An
 * entity is known by its serial number (the order of its creation) and a slot of the engine's.
 * So every participant makes exactly the same operations in the same order, and the values they
 * leave agree.
 *
 * What it runs on, one target each (scenario_target.h; the frame itself is written once, in
 * scenario_frame.h, and compiled into each target):
 *   SCENARIO_MODE_STORAGE  the frames over a backend, through the interface only
 *                          (scenario_storage.c);
 *   SCENARIO_MODE_FLOOR    the same frames over plain arrays: per kind a column of 4-byte
 *                          values per type its entities can have, walked by the same kernel
 *                          as the backends' batches, no interface call; its checksum must
 *                          agree with the backends' (scenario_floor.c);
 *   SCENARIO_MODE_HARNESS  the engine alone (scenario_harness.c): lists, decisions, command
 *                          buffers, phase clocks, with no storage and no system work: the
 *                          engine's part of a backend's frame (the same code, minus the
 *                          storage's calls and the systems' work), its per-frame cost; in a
 *                          backend's frame the storage's own memory traffic may make that part
 *                          a little dearer. It computes no checksum.
 *
 * Costs: a frame is O(spawns + despawns + effect picks + lookups + the entities the systems
 * visit), plus a shuffle of each list of operations (linear). Memory of the engine per
 * participant: about 32 bytes per live entity, plus the floor's columns (4 bytes per type an
 * entity of its kind can have), plus value tables (at most 64 values of each type made at open).
 * Nothing in a frame makes values, calls world.c's generator or allocates, except when a list
 * outgrows what open reserved (the kinds' peaks, computed from the scenario).
 */
#ifndef ECSB_SCENARIO_ENGINE_H
#define ECSB_SCENARIO_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../impls/ecs.h"
#include "scenario.h"

enum scenario_mode {
	SCENARIO_MODE_STORAGE,
	SCENARIO_MODE_FLOOR,
	SCENARIO_MODE_HARNESS,
};

/* Phases of a frame: 0 spawn, 1..S the systems, then despawn, add, remove, lookup. */
enum { SCENARIO_PHASE_SPAWN = 0 };
uint32_t scenario_engine_phase_count(const struct scenario *sc);
/* "spawn", "system:move", "despawn", "add", "remove", "lookup" */
void scenario_engine_phase_name(const struct scenario *sc, uint32_t phase, char *buf, size_t len);
/* Figures a frame leaves: its phase times (ns), then the storage's allocation calls in it,
 * then the largest block the storage asked for in it (bytes; 0 if none): a frame whose largest
 * block is at least SCENARIO_GROWTH_BYTES is a growth frame (a rehash, a regrown column, a new
 * table: docs/scenarios.md, "Frame-time tails"). */
static inline uint32_t scenario_figure_count(const struct scenario *sc)
{
	return scenario_engine_phase_count(sc) + 2;
}
/* 64 KiB: 16 pages. Far above any one entity's block (an index node of hash or tree is tens of
 * bytes, a sparse page 16 KiB), below the smallest column or hash table that regrows past a few
 * thousand entities (16,384 x 4 bytes); and half glibc's initial mmap threshold (128 KiB), above
 * which a block is mapped fresh and its pages faulted in on first touch. */
#define SCENARIO_GROWTH_BYTES 65536.0

/* What the engine needs beyond what the file layer checks (at most 64 types that come and go;
 * serial numbers within 32 bits over warmup + frames + 1). 0, or -1 with a message. */
int scenario_engine_check(const struct scenario *sc, char *err, size_t errlen);

struct scenario_engine;

/*
 * Makes the participant: the storage (ops, for SCENARIO_MODE_STORAGE; NULL otherwise) with the
 * scenario's types and systems, and the entities alive before the first frame, the kinds mixed
 * as a frame's spawns are. sc must outlive
 * the engine. 0, or -1 with a message in err (nothing is left allocated).
 */
/* Phases timed on the thread's CPU clock (cpu) or the wall clock (the default), as the frame. */
void scenario_engine_clock(struct scenario_engine *e, bool cpu);

int scenario_engine_open(struct scenario_engine **out, const struct scenario *sc,
                         const struct ecs_ops *ops, enum scenario_mode mode, char *err,
                         size_t errlen);
void scenario_engine_close(struct scenario_engine *e);

/*
 * The threads of the systems marked parallel: a pool of `threads` (thread 0 being the caller),
 * thread t pinned to cpus->cpu[t] where cpus->pinned (cpus may be NULL: not pinned), started
 * here, outside any frame; nothing if no system is parallel. Until it is called a parallel
 * system runs its serial pass. Each frame then runs such a system's pass on the threads
 * (parallel_system_pass over the storage's system_iter_split; the floor's walk cut in as many
 * ranges; the harness alone, the pass's start and end with no work). 0, or -1 with a message
 * (a backend without system_iter_split for threads > 1, a thread that cannot be started).
 */
struct cpu_list;
int scenario_engine_threads(struct scenario_engine *e, uint32_t threads,
                            const struct cpu_list *cpus, char *err, size_t errlen);
/* Around a sample (untimed): the threads woken before it, put to sleep at once after it, so
 * that they neither pay a wake-up inside it nor spin into another participant's sample. No-ops
 * without threads. */
void scenario_engine_wake(struct scenario_engine *e);
void scenario_engine_rest(struct scenario_engine *e);

/* One frame. 0, or -1 (scenario_engine_error says why; the participant is then done). */
int scenario_engine_frame(struct scenario_engine *e);
const char *scenario_engine_error(const struct scenario_engine *e);
/* The last frame's figures (scenario_figure_count of them). */
const double *scenario_engine_figures(const struct scenario_engine *e);

/*
 * Untimed checks and the checksum: every live entity, in serial order, each type of the
 * scenario it has read back (its bytes) or a marker where it has none, then what the systems'
 * work and the lookups added up to. A storage participant also checks that every entity the
 * engine holds is alive, that it has exactly the types the engine says, and that each system
 * visits exactly the entities that match. 0, or -1 with the error set. The harness mode has no
 * values: it returns 0 and *verified = false.
 */
int scenario_engine_checksum(struct scenario_engine *e, uint64_t *out, bool *verified);

/* Memory: the storage's (counting allocator) for a backend; the floor's and the harness's own
 * arrays for them. */
void scenario_engine_memory(const struct scenario_engine *e, uint64_t *peak, uint64_t *live);
uint64_t scenario_engine_live_entities(const struct scenario_engine *e);
uint32_t scenario_engine_frames_run(const struct scenario_engine *e);

/* A system's answer to ecs_system_group (`group = yes`): 1 the storage grouped it, 0 it
 * declined (a storage without groups, or a pool another group owns), -1 not asked (no `group`,
 * or not a storage participant). */
int scenario_engine_grouped(const struct scenario_engine *e, uint32_t system);

/*
 * The same answers without a run: a storage of ops made for sc as a participant's is (types,
 * markings, systems), asked for the groups, then destroyed; no entity is made (a storage
 * declines a group for the pools other groups own, which entities do not change). grouped
 * gets sc->system_count answers, as scenario_engine_grouped's. 0, or -1 with a message.
 */
int scenario_storage_groups(const struct scenario *sc, const struct ecs_ops *ops,
                            int8_t *grouped, char *err, size_t errlen);

/* For the tests: the storage of a storage participant, and the storage's id of system i. */
ecs_storage *scenario_engine_storage(const struct scenario_engine *e);
uint32_t scenario_engine_system_id(const struct scenario_engine *e, uint32_t system);

#endif
