/*
 * fuzz.c: a libFuzzer target. The input is decoded into a sequence of interface operations,
 * misuse included (dead, stale, never-created and null handles, component ids out of range,
 * bad system lists, allocation failures), which runs on every backend at once, each beside its
 * own reference model: every operation's result is checked against the model, and the whole
 * state every 64 operations and at the end. Any disagreement aborts, which libFuzzer records.
 *
 *   make fuzz FUZZ_SECONDS=60      run it (clang, -fsanitize=fuzzer,address,undefined)
 *   tests/corpus/                  inputs kept; `make test` replays them (tests/fuzz_replay.c)
 *                                  and fuzzes from them, a fixed seed and number of
 *                                  executions (tests/fuzz.sh)
 *
 * Input: byte 0 picks the number of component types (2..17), byte 1 the number of systems
 * (1..8); then each operation is an opcode byte and up to three argument bytes. Opcodes 0 and 1
 * both create an entity, 1 with components (entity_create_with); 3 and 4 are both component_add,
 * 4 with a value read from the storage itself (op_add_from_some, tests/ops.c). What
 * distinguishes the second of each pair is drawn from the fixture's generator, not read from
 * the input, so the inputs of the corpus kept their operations when these appeared.
 *
 * The batches (interface 5) came the same way, as variants drawn from the generator of the
 * opcodes that read the same bytes: a create with components (1) is now and then a create
 * batch, an add (3) an add batch and a remove (5) a remove batch of the type the input gives,
 * starting with the handle it gives (the rest of the list drawn from the model, with misuse
 * now and then anywhere in it); each natively or, a third of the time, through the wrapper's
 * fallback called directly. A register (9) is followed, half the time, by a group hint on a
 * system drawn from the generator. And the storage hints of the types (table or sparse) are
 * drawn from a hash of the whole input, not from the generator. An input reads the same bytes
 * as before, in the same opcodes; what the generator draws differs, as it did when the pairs
 * appeared.
 *
 * entity_get (interface 7) came the same way: a get (6) is, a quarter of the time, an entity_get
 * of the handle the input gives, its list starting with the type the input gives and the rest
 * drawn from the generator (repeats, types out of range, misuse now and then: no list, no out,
 * a count of 0 or over the limit), natively or, a third of the time, through the fallback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops.h"

struct input {
	const uint8_t *data;
	size_t size, at;
};

static uint8_t byte(struct input *in) { return in->at < in->size ? in->data[in->at++] : 0; }

/* A handle chosen by one byte: one the model knows (alive or not), never-created, or null. */
static ecs_entity pick_handle(struct fixture *f, uint8_t b)
{
	if (b < 200 && f->m.entity_count)
		return f->m.entities[b % f->m.entity_count].handle;
	if (b < 250)
		return ecs_entity_make((uint32_t)b * 16411u % ECS_MAX_ENTITIES, b);
	return ECS_NULL;
}

static uint32_t pick_type(struct fixture *f, uint8_t b)
{
	return b == 255 ? UINT32_MAX : b % (f->m.component_count + 2);
}

/*
 * system_register with whatever list the input gives, and excluded types drawn from the
 * fixture's generator (so that the corpus kept its meaning when exclusions appeared): none half
 * the time, else one to three of any type, out of range or required ones now and then. The
 * expected code comes from the model.
 */
static bool fuzz_register(struct fixture *f, struct input *in)
{
	uint32_t count = byte(in) % 4, types[3], excluded[3], excluded_count = 0;
	for (uint32_t c = 0; c < count; c++)
		types[c] = pick_type(f, byte(in));
	if (below(f, 2)) {
		excluded_count = 1 + below(f, 3);
		for (uint32_t c = 0; c < excluded_count; c++)
			excluded[c] = below(f, f->m.component_count + 1);
	}
	return op_register_excluding(f, types, count, excluded, excluded_count);
}

static bool step(struct fixture *f, struct input *in)
{
	uint8_t op = byte(in) % 12;
	ecs_entity e;
	switch (op) {
	case 0: return f->m.live < 256 ? op_create(f, &e) : true;
	case 1: /* a create too, with components: its list drawn as op_add_from_some's source is */
		if (f->m.live >= 256)
			return true;
		if (below(f, 4) == 0)
			return random_create_batch(f, below(f, 3) == 0);
		return random_create_with(f, 5, &e);
	case 2: return op_destroy(f, pick_handle(f, byte(in)));
	case 3: {
		ecs_entity h = pick_handle(f, byte(in));
		uint32_t t = pick_type(f, byte(in));
		if (below(f, 4) == 0)
			return change_batch_of(f, t, h, true, below(f, 3) == 0);
		return op_add(f, h, t);
	}
	case 4: { /* the same add, with its value from the storage itself */
		ecs_entity h = pick_handle(f, byte(in));
		return op_add_from_some(f, h, pick_type(f, byte(in)));
	}
	case 5: {
		ecs_entity h = pick_handle(f, byte(in));
		uint32_t t = pick_type(f, byte(in));
		if (below(f, 4) == 0)
			return change_batch_of(f, t, h, false, below(f, 3) == 0);
		return op_remove(f, h, t);
	}
	case 6: {
		ecs_entity h = pick_handle(f, byte(in));
		uint32_t t = pick_type(f, byte(in));
		bool write = byte(in) & 1;
		if (below(f, 4) == 0) /* several types of the entity at once, t first */
			return random_entity_get(f, h, t, write);
		return op_get(f, h, t, write);
	}
	case 7: {
		ecs_entity h = pick_handle(f, byte(in));
		return op_has(f, h, pick_type(f, byte(in)));
	}
	case 8: {
		ecs_entity h = pick_handle(f, byte(in));
		CHECK_EQ(f->ops->entity_alive(f->s, h), model_alive(&f->m, h));
		return true;
	}
	case 9:
		TRY(fuzz_register(f, in));
		return below(f, 2) ? op_group(f, below(f, f->m.system_count + 1)) : true;
	case 10: return check_all(f);
	default: /* one of the next few allocations fails */
		f->allow_oom = true;
		f->counter.failures = 0;
		f->counter.fail_at = 1 + byte(in) % 4;
		return true;
	}
}

static bool run(const struct ecs_ops *ops, const uint8_t *data, size_t size)
{
	struct input in = {data, size, 0};
	uint32_t components = 2 + byte(&in) % 16, systems = 1 + byte(&in) % 8;
	struct fixture f;
	uint64_t hint_seed = 1469598103934665603ull; /* FNV-1a of the input */
	for (size_t i = 0; i < size; i++)
		hint_seed = (hint_seed ^ data[i]) * 1099511628211ull;
	TRY(fixture_open_hinted(&f, ops, components, systems, 1, hint_seed));
	bool ok = true;
	for (uint32_t n = 0; ok && in.at < in.size; n++) {
		ok = step(&f, &in);
		if (ok && n % 64 == 63)
			ok = check_all(&f);
	}
	f.counter.fail_at = 0;
	if (ok)
		ok = check_all(&f);
	if (!fixture_close(&f))
		ok = false;
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	runner_failures_to(stderr, "fuzz");
	for (size_t b = 0; b < ecs_backend_count; b++) {
		if (!run(ecs_backends[b], data, size)) {
			fprintf(stderr, "fuzz: backend %s disagrees with the model\n", ecs_backends[b]->name);
			abort();
		}
	}
	return 0;
}
