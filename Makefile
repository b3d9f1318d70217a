# ecsbench: `make` builds, `make bench PROFILE=A` measures, `make test` proves correctness.
# User CFLAGS are appended to the project's, never replace them. V=1 shows the commands.

CC ?= gcc
# Optimisation: -O3 and this CPU's own instruction set, so that the floor (the same work over
# plain arrays) is vectorised as wide as the machine allows: it is the limit every backend is
# read against (at -O2 gcc 12 leaves it scalar). What -march=native resolves to is recorded in
# every CSV. AVX-512 is left out: valgrind 3.19 cannot run it, and make cachegrind must profile
# the code make bench times. OPT=-O2 (or any flags) chooses otherwise; docs/method.md shows how
# the ratios move with it.
NATIVE_ARCH := $(shell $(CC) -march=native -Q --help=target 2>/dev/null | \
	awk '$$1 == "-march=" { print $$2; exit }')
NO_AVX512 := $(if $(shell grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo y),-mno-avx512f)
OPT ?= -O3 $(if $(NATIVE_ARCH),-march=native $(NO_AVX512))
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes $(OPT) -g
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS)
LDLIBS := -lm -linih -pthread

# --- The variables a user gives, each named once here -----------------------------------------
# make bench's command line, make help and the check of make's own command line (below) are all
# made from these lists. The workload sweep's, as NAME:option (the build/ecsbench option that
# make bench passes a value that is not empty to):
BENCH_VARS := PROFILE:profile BACKENDS:backends WORKLOADS:workloads ENTITIES:entities \
	COMPONENTS:components PROCESSES:processes REPS:reps WARMUP:warmup SEED:seed \
	SYSTEMS:systems COMPONENT_SIZE:component-size SCALE:scale THREADS:threads HISTORY:history
# A scenario run's (make bench SCENARIO=...; SET='KEY=VALUE ...' is a --set per word):
SCENARIO_VARS := SCENARIO:scenario SWEEP:sweep POINTS:points SPACING:spacing SET:set \
	BACKENDS:backends PROCESSES:processes
# Both runs' OUTPUT, the other targets' and the build's:
OTHER_VARS := OUTPUT PLOTS REFERENCE BACKEND WORKLOAD CSV BASELINE OLD NEW PROFILES \
	REPEAT_WORKLOADS REPEAT_ENTITIES REPEAT_COMPONENTS FUZZ_SECONDS CC OPT CFLAGS V
var_names = $(foreach v,$(1),$(firstword $(subst :, ,$(v))))
KNOWN_VARS := $(sort $(call var_names,$(BENCH_VARS) $(SCENARIO_VARS)) $(OTHER_VARS))
# The sweep's alone, which a scenario run refuses (its types and systems are its file's):
SWEEP_ONLY_VARS := $(filter-out $(call var_names,$(SCENARIO_VARS)),$(call var_names,$(BENCH_VARS)))

# A typo on make's command line (PROFLE=AAA) would run the default for the name misspelt, for
# minutes: a variable given there that no target reads is refused before anything runs, with
# the known name nearest to it (edit distance, then length). Variables from the environment (CI's MAKEFLAGS
# too, whose assignments count as the command line's only when they are in it) are left alone.
command_line_vars := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))
unknown_vars := $(filter-out $(KNOWN_VARS),$(command_line_vars))
nearest_var = $(shell printf '%s\n' $(KNOWN_VARS) | awk -v w='$(1)' ' \
	function lev(a, b,    i, j, m, n, c, d) { m = length(a); n = length(b); \
		for (j = 0; j <= n; j++) d[0, j] = j; \
		for (i = 1; i <= m; i++) { d[i, 0] = i; for (j = 1; j <= n; j++) { \
			c = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1)); \
			if (d[i - 1, j] + 1 < c) c = d[i - 1, j] + 1; if (d[i, j - 1] + 1 < c) c = d[i, j - 1] + 1; \
			d[i, j] = c } } return d[m, n] } \
	{ x = lev(toupper(w), $$0); l = length($$0) - length(w); if (l < 0) l = -l; \
	  if (best == "" || x < bx || (x == bx && l < bl)) { best = $$0; bx = x; bl = l } } END { print best }')
ifneq ($(unknown_vars),)
$(error unknown variable $(firstword $(unknown_vars))=$(value $(firstword $(unknown_vars))) (did you \
	mean $(call nearest_var,$(firstword $(unknown_vars)))?): no target reads it; nothing was run. \
	Known: $(KNOWN_VARS))
endif
ifneq ($(SCENARIO),)
ifneq ($(filter $(SWEEP_ONLY_VARS),$(command_line_vars)),)
$(error SCENARIO= runs a scenario, to which $(firstword $(filter $(SWEEP_ONLY_VARS),$(command_line_vars)))= \
	does not apply: its component types, systems, counts and frames are its file's; change them \
	with SET='KEY=VALUE ...' (docs/scenarios.md); nothing was run)
endif
endif

# Paths with spaces (OUTPUT='my results/x.csv'): make's functions split words at spaces, so a
# path goes through them with each space as the unit separator (a byte no path holds), and a
# recipe gives it to the shell quoted.
space := $(subst x,,x x)
unit_sep := $(shell printf '\037')
enc = $(subst $(space),$(unit_sep),$(1))
dec = $(subst $(unit_sep),$(space),$(1))
q = '$(subst ','\'',$(1))'
path_dir = $(call dec,$(patsubst %/,%,$(dir $(call enc,$(1)))))
path_base = $(call dec,$(basename $(call enc,$(1))))
path_name = $(call dec,$(basename $(notdir $(call enc,$(1)))))
same_path = $(filter $(call enc,$(abspath $(call enc,$(1)))),$(call enc,$(abspath $(call enc,$(2)))))

PROFILE ?= A
BACKENDS ?= all
WORKLOADS ?= all
ENTITIES ?= 1024..1048576
COMPONENTS ?= 1,2,3
# Processes, samples and warm-up: the harness's defaults (build/ecsbench --help) unless given.
PROCESSES ?=
REPS ?=
WARMUP ?=
SEED ?= 1
SYSTEMS ?=
COMPONENT_SIZE ?= 8
SCALE ?= 1
# parallel-iterate's thread counts (--threads); empty: 1, 2, 4, ... up to the CPUs, and the CPUs.
THREADS ?=
# What the storages go through before the clock (--history, harness/history.h): lived-in (the
# default, every headline figure's), pristine (the best case), aged, one-hole, alternating.
HISTORY ?= lived-in
# A user's runs write results/ and plots/ (ignored by git). The reference results and figures
# that the README cites live in results/reference/ and plots/reference/, which only REFERENCE=1
# (or `make reference`) writes, so that a user's run never makes the README disagree with them.
REFERENCE ?=
ifneq ($(filter-out 1,$(REFERENCE)),)
$(error REFERENCE=$(REFERENCE): use REFERENCE=1 (write results/reference/, plots/reference/) or leave it out)
endif
# make compare PROFILES=1: OLD and NEW are two profiles of one run set (A against AAA).
PROFILES ?=
ifneq ($(filter-out 1,$(PROFILES)),)
$(error PROFILES=$(PROFILES): use PROFILES=1 (OLD and NEW are two profiles of one run set) or leave it out)
endif
RESULTS_ROOT := $(if $(REFERENCE),results/reference,results)
PLOTS_ROOT := $(if $(REFERENCE),plots/reference,plots)
OUTPUT ?= $(RESULTS_ROOT)/$(PROFILE).csv
# Plots of the default output go to PLOTS_ROOT; those of another OUTPUT=x.csv to x-plots/, drawn
# from the CSV files in x.csv's folder, and its cache figures and profiles go to that folder too,
# so that a trial run never overwrites other results or figures nor mixes with them.
default_output = $(call same_path,$(RESULTS_ROOT)/$(PROFILE).csv,$(OUTPUT))
PLOTS ?= $(if $(default_output),$(PLOTS_ROOT),$(call path_base,$(OUTPUT))-plots)
RESULTS_DIR = $(if $(default_output),$(RESULTS_ROOT),$(call path_dir,$(OUTPUT)))
# make bench SCENARIO=scenarios/shooter.ini [SWEEP=KEY=A..B POINTS=N SPACING=linear
# SET='KEY=VALUE ...' PROCESSES=P]: a scenario run instead of the workloads (harness/scenario_run.h)
# -> RESULTS_ROOT/scenario-NAME[-KEY].csv (or OUTPUT=), and its figure in PLOTS_ROOT (or beside a
# non-default OUTPUT, in x-plots/).
SCENARIO ?=
SWEEP ?=
POINTS ?=
SPACING ?=
SET ?=
PROCESSES ?=
SC_NAME = $(call path_name,$(SCENARIO))
SC_KEY = $(firstword $(subst =, ,$(SWEEP)))
sc_output_given = $(filter command line environment,$(origin OUTPUT))
SC_OUTPUT = $(if $(sc_output_given),$(OUTPUT),$(RESULTS_ROOT)/scenario-$(SC_NAME)$(if $(SWEEP),-$(SC_KEY)).csv)
SC_PLOTS = $(if $(sc_output_given),$(call path_base,$(OUTPUT))-plots,$(PLOTS_ROOT))
# The figure scripts/scenario_plot.sh draws: SC_PLOTS/<the CSV's name>.png
SC_FIGURE = $(SC_PLOTS)/$(call path_name,$(SC_OUTPUT)).png
# make profile: one backend and workload.
BACKEND ?= hash
WORKLOAD ?= iterate

# Under valgrind (~50x slower) smaller defaults than make bench's; ENTITIES, COMPONENTS and
# WORKLOADS given on the command line or in the environment win.
comma := ,
default_of = $(if $(filter file,$(origin $(1))),$(2),$($(1)))
CG_ENTITIES = $(call default_of,ENTITIES,16384$(comma)131072)
CG_COMPONENTS = $(call default_of,COMPONENTS,2)
CG_WORKLOADS = $(call default_of,WORKLOADS,create$(comma)iterate$(comma)churn$(comma)add-remove$(comma)get$(comma)fragmented)
# Under valgrind one history a run (the first of HISTORY).
CG_HISTORY = $(firstword $(subst $(comma), ,$(HISTORY)))
PF_ENTITIES = $(call default_of,ENTITIES,131072)
PF_COMPONENTS = $(call default_of,COMPONENTS,2)
# make table: one N (default: the largest in the CSV) and one k.
TB_ENTITIES = $(call default_of,ENTITIES,)
TB_COMPONENTS = $(call default_of,COMPONENTS,2)

ifeq ($(V),1)
Q :=
else
Q := @
endif

COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- impls harness 2>/dev/null || echo -dirty)

IMPL_SRC := $(wildcard impls/*.c)
HARNESS_SRC := harness/main.c $(wildcard harness/core/*.c harness/sweep/*.c harness/scenario/*.c)
TEST_SRC := tests/conformance.c tests/runner.c tests/ops.c tests/model.c harness/core/alloc.c
# The scenario file layer's own test program (it needs no backend).
SCENARIO_TEST_SRC := tests/scenario_file.c tests/runner.c harness/scenario/scenario_file.c
# The scenario engine's test program: every backend, the floor and the harness alone. With the
# harness but its main: a parallel system's pass runs on parallel.c's pool, which comes with the
# parallel-iterate workload and what it needs.
ENGINE_TEST_SRC := tests/scenario_engine.c tests/runner.c $(filter-out harness/main.c,$(HARNESS_SRC))

# Variants: the optimised build, and the sanitizer builds the tests also run: ASan+UBSan, and
# ThreadSanitizer for the parallel pass (gcc's, libtsan; scripts/deps.sh checks for it).
SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
TSAN_FLAGS := -O1 -fsanitize=thread -fno-omit-frame-pointer

objs = $(patsubst %.c,$(1)/%.o,$(2))

FUZZ_SRC := tests/fuzz.c tests/runner.c tests/ops.c tests/model.c harness/core/alloc.c
FUZZ_BIN := build/fuzz/fuzz
FUZZ_SECONDS ?= 60

BIN := build/ecsbench
# The harness with callgrind's collection switched on around the timed call (harness/measure.h).
CG_BIN := build/cachegrind/ecsbench
CG_FLAGS := -DECSB_CALLGRIND
TEST_BIN := build/conformance
ASAN_TEST_BIN := build/asan/conformance
ASAN_REPLAY_BIN := build/asan/fuzz_replay
# The harness with the timed regions checked: nothing that makes values or draws decisions may
# run inside one (harness/measure.h). make test runs every workload with it.
CHECK_BIN := build/check/ecsbench
# make compare and make repeat
COMPARE_BIN := build/ecsbench-compare
COMPARE_SRC := $(wildcard harness/compare/*.c) harness/core/stats.c
CHECK_FLAGS := -DECSB_CHECK_TIMED
SCENARIO_TEST_BIN := build/scenario_file
ASAN_SCENARIO_TEST_BIN := build/asan/scenario_file
ENGINE_TEST_BIN := build/scenario_engine
ASAN_ENGINE_TEST_BIN := build/asan/scenario_engine
# The parallel pass on every backend under ThreadSanitizer (tests/parallel.c, with the harness
# but its main), and the harness itself, for a short parallel-iterate run (tests/run.sh).
TSAN_TEST_BIN := build/tsan/parallel
TSAN_TEST_SRC := tests/parallel.c tests/runner.c tests/ops.c tests/model.c $(filter-out harness/main.c,$(HARNESS_SRC))
TSAN_BIN := build/tsan/ecsbench

.PHONY: all deps deps-fuzz deps-tsan deps-valgrind deps-plots deps-browser bench bench-locked reference plots cachegrind profile table answer \
	compare report repeat scenario-plots test test-browser fuzz fuzz-merge clean help
all: $(BIN) $(TEST_BIN) $(SCENARIO_TEST_BIN) $(ENGINE_TEST_BIN) $(COMPARE_BIN)

deps:
	$(Q)scripts/deps.sh core

# A flags file per variant: changing CFLAGS rebuilds that variant.
build/.flags: FORCE | deps
	$(Q)mkdir -p build
	$(Q)echo '$(ALL_CFLAGS)' | cmp -s - $@ || echo '$(ALL_CFLAGS)' > $@
# The commit is compiled into report.o alone (for the CSV header).
build/.commit: FORCE
	$(Q)mkdir -p build
	$(Q)echo '$(COMMIT)' | cmp -s - $@ || echo '$(COMMIT)' > $@
build/harness/core/report.o build/harness/scenario/scenario_run.o: build/.commit
build/cachegrind/.flags: FORCE | deps deps-valgrind
	$(Q)mkdir -p build/cachegrind
	$(Q)echo '$(ALL_CFLAGS) $(CG_FLAGS) $(COMMIT)' | cmp -s - $@ || echo '$(ALL_CFLAGS) $(CG_FLAGS) $(COMMIT)' > $@
build/check/.flags: FORCE | deps
	$(Q)mkdir -p build/check
	$(Q)echo '$(ALL_CFLAGS) $(CHECK_FLAGS)' | cmp -s - $@ || echo '$(ALL_CFLAGS) $(CHECK_FLAGS)' > $@
build/asan/.flags: FORCE | deps
	$(Q)mkdir -p build/asan
	$(Q)echo '$(ALL_CFLAGS) $(SAN_FLAGS)' | cmp -s - $@ || echo '$(ALL_CFLAGS) $(SAN_FLAGS)' > $@
build/tsan/.flags: FORCE | deps deps-tsan
	$(Q)mkdir -p build/tsan
	$(Q)echo '$(ALL_CFLAGS) $(TSAN_FLAGS)' | cmp -s - $@ || echo '$(ALL_CFLAGS) $(TSAN_FLAGS)' > $@
.PHONY: FORCE
FORCE:

build/%.o: %.c build/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -DECSB_COMMIT='"$(COMMIT)"' -DECSB_CFLAGS='"$(ALL_CFLAGS)"' -DECSB_MARCH='"$(NATIVE_ARCH)"' -MMD -MP -c $< -o $@

build/asan/%.o: %.c build/asan/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (asan)")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c $< -o $@

build/tsan/%.o: %.c build/tsan/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (tsan)")
	$(Q)$(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) -MMD -MP -c $< -o $@

$(TSAN_TEST_BIN): $(call objs,build/tsan,$(TSAN_TEST_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $^ -o $@ $(LDLIBS)

$(TSAN_BIN): $(call objs,build/tsan,$(HARNESS_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $^ -o $@ $(LDLIBS)

build/check/%.o: %.c build/check/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (timed regions checked)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_FLAGS) -MMD -MP -c $< -o $@

$(COMPARE_BIN): $(call objs,build,$(COMPARE_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(CHECK_BIN): $(call objs,build/check,$(HARNESS_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

build/cachegrind/%.o: %.c build/cachegrind/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (callgrind marks)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CG_FLAGS) -DECSB_COMMIT='"$(COMMIT)"' -DECSB_CFLAGS='"$(ALL_CFLAGS)"' -DECSB_MARCH='"$(NATIVE_ARCH)"' -MMD -MP -c $< -o $@

$(CG_BIN): $(call objs,build/cachegrind,$(HARNESS_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(BIN): $(call objs,build,$(HARNESS_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(TEST_BIN): $(call objs,build,$(TEST_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(ASAN_TEST_BIN): $(call objs,build/asan,$(TEST_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $^ -o $@ $(LDLIBS)

$(ASAN_REPLAY_BIN): $(call objs,build/asan,$(FUZZ_SRC) tests/fuzz_replay.c $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $^ -o $@ $(LDLIBS)

$(SCENARIO_TEST_BIN): $(call objs,build,$(SCENARIO_TEST_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(ASAN_SCENARIO_TEST_BIN): $(call objs,build/asan,$(SCENARIO_TEST_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $^ -o $@ $(LDLIBS)

$(ENGINE_TEST_BIN): $(call objs,build,$(ENGINE_TEST_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(ASAN_ENGINE_TEST_BIN): $(call objs,build/asan,$(ENGINE_TEST_SRC) $(IMPL_SRC))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $^ -o $@ $(LDLIBS)

# The fuzzer is built with clang: libFuzzer is clang's.
$(FUZZ_BIN): $(FUZZ_SRC) $(IMPL_SRC) $(wildcard impls/*.h tests/*.h harness/*/*.h) | deps-fuzz
	@mkdir -p build/fuzz
	@$(if $(Q),echo "  CLANG   $@")
	$(Q)clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(FUZZ_SRC) $(IMPL_SRC) -o $@

deps-fuzz:
	$(Q)scripts/deps.sh fuzz
deps-tsan:
	$(Q)scripts/deps.sh tsan
deps-valgrind:
	$(Q)scripts/deps.sh valgrind
deps-plots:
	$(Q)scripts/deps.sh plots
deps-browser:
	$(Q)scripts/deps.sh browser

# Runs the fuzzer for FUZZ_SECONDS, starting from the committed corpus; new inputs go to
# build/fuzz/corpus. `make fuzz-merge` folds the ones that add coverage into tests/corpus.
fuzz: $(FUZZ_BIN)
	@mkdir -p build/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -max_len=512 \
		build/fuzz/corpus tests/corpus
fuzz-merge: $(FUZZ_BIN)
	$(FUZZ_BIN) -merge=1 tests/corpus build/fuzz/corpus

# make bench holds the output's lock (OUTPUT.lock, scripts/lock.sh) for the run and its figures:
# a second run into the same output is refused while it lasts. build/ecsbench keeps a previous
# CSV, its samples and what was made from them (--derived: the figures, the table, a comparison)
# in previous/DATE-NAME/ beside the CSV; make plots then draws the figures of the new CSV alone,
# and a report page of this output is made again.
bench: $(BIN)
	$(Q)scripts/lock.sh $(call q,$(if $(SCENARIO),$(SC_OUTPUT),$(OUTPUT))) 'make bench' \
		$(MAKE) --no-print-directory bench-locked

# --option 'value' for NAME:option when NAME is not empty (SET: a --set per word)
opt = $(if $(filter SET:%,$(1)),$(foreach x,$(SET),--set $(call q,$(x))),$(if \
	$($(call var_names,$(1))),--$(lastword $(subst :, ,$(1))) $(call q,$($(call var_names,$(1))))))
# --derived FILE=NAME of what make makes from CSV $(1) (name $(2)): its table and comparison.
derived = --derived $(call q,$(call table_of,$(1))=$(2)-table.md) \
	--derived $(call q,$(call path_base,$(1))-compare=$(2)-compare)
OUT_NAME = $(call path_name,$(OUTPUT))
# Whether this output had a report page, which make bench then makes again for the new CSV (make
# expands a recipe before it runs its first line: this is before the run). The page of another
# OUTPUT=x.csv goes with the previous CSV (its links hold there); the default one, which shows
# every profile, is only made again.
had_report = $(shell test -f $(call q,$(REPORT)) && echo y)
SC_OUT_NAME = $(call path_name,$(SC_OUTPUT))
bench-locked: $(BIN)
ifneq ($(SCENARIO),)
	@mkdir -p $(call q,$(call path_dir,$(SC_OUTPUT)))
	$(if $(REFERENCE),ECSBENCH_REFERENCE=1 )scripts/outlive.sh $(BIN) $(foreach v,$(SCENARIO_VARS),$(call opt,$(v))) \
		--output $(call q,$(SC_OUTPUT)) $(call derived,$(SC_OUTPUT),$(SC_OUT_NAME)) \
		--derived $(call q,$(SC_FIGURE)=$(SC_OUT_NAME)-plots/$(SC_OUT_NAME).png)
	$(Q)$(MAKE) --no-print-directory scenario-plots || \
		echo "make bench: $(SC_OUTPUT) is written; the figure was not drawn (see above)" >&2
	$(Q)scripts/answer.sh -b -o $(call q,$(call answer_of,$(SC_OUTPUT))) $(call q,$(SC_OUTPUT))
else
	@mkdir -p $(call q,$(call path_dir,$(OUTPUT)))
	$(if $(REFERENCE),ECSBENCH_REFERENCE=1 )scripts/outlive.sh $(BIN) $(foreach v,$(BENCH_VARS),$(call opt,$(v))) \
		--output $(call q,$(OUTPUT)) $(call derived,$(OUTPUT),$(OUT_NAME)) \
		--derived $(call q,$(PLOTS)/$(PROFILE)=$(OUT_NAME)-plots/$(PROFILE)) \
		$(if $(default_output),,--derived $(call q,$(REPORT)=$(OUT_NAME)-report.html))
	$(Q)$(MAKE) --no-print-directory plots PLOTS=$(call q,$(PLOTS)) || \
		echo "make bench: $(OUTPUT) is written; the plots were not drawn (see above)" >&2
	$(Q)$(if $(had_report),$(MAKE) --no-print-directory report PLOTS=$(call q,$(PLOTS)),true)
	$(Q)scripts/answer.sh -b -o $(call q,$(call answer_of,$(OUTPUT))) $(call q,$(OUTPUT))
endif

# The figure of a scenario run again from its CSV (the same SCENARIO, SWEEP and OUTPUT).
scenario-plots: | deps-plots
	@test -n '$(SCENARIO)' || { echo "usage: make scenario-plots SCENARIO=file [SWEEP=KEY=A..B] [OUTPUT=x.csv]" >&2; exit 2; }
	$(Q)scripts/scenario_plot.sh -o $(call q,$(SC_PLOTS)) $(call q,$(SC_OUTPUT))

# The reference run that the README cites, from committed code only: the benchmark and its
# figures into results/reference/ and plots/reference/, then its table.
reference:
	@case '$(COMMIT)' in *-dirty | unknown*) echo "make reference: impls/ or harness/ differ from \
	the commit (or no git): commit them first, so that the reference names the code it measured" >&2; \
	exit 2 ;; esac
	$(Q)$(MAKE) --no-print-directory bench REFERENCE=1
	$(Q)$(MAKE) --no-print-directory table REFERENCE=1

# Draws PLOTS/$(PROFILE)/*.png and PLOTS/profiles/*.png from the CSV files in RESULTS_DIR.
plots: | deps-plots
	$(Q)scripts/plot.sh -r $(call q,$(RESULTS_DIR)) -i $(call q,$(OUTPUT)) -o $(call q,$(PLOTS)) $(PROFILE)

# Simulated caches over the timed call only -> RESULTS_DIR/cachegrind-$(PROFILE).csv (a case
# measured again replaces its row), then PLOTS/$(PROFILE)/cache-*.png.
cachegrind: $(CG_BIN) | deps-plots
	scripts/cachegrind.sh -p $(PROFILE) -b $(call q,$(BACKENDS)) -w $(call q,$(CG_WORKLOADS)) \
		-n $(call q,$(CG_ENTITIES)) -B $(COMPONENT_SIZE) -s $(SCALE) -H $(call q,$(CG_HISTORY)) \
		-o $(call q,$(RESULTS_DIR)/cachegrind-$(PROFILE).csv) -k $(call q,$(CG_COMPONENTS)) \
		$(if $(SYSTEMS),-S $(SYSTEMS))
	$(Q)scripts/plot.sh -r $(call q,$(RESULTS_DIR)) -i $(call q,$(OUTPUT)) -o $(call q,$(PLOTS)) $(PROFILE)

# Where one backend spends a workload's timed call -> RESULTS_DIR/profile-$(BACKEND)-$(WORKLOAD).txt
profile: $(CG_BIN)
	scripts/profile.sh -p $(PROFILE) -b $(BACKEND) -w $(WORKLOAD) -n $(PF_ENTITIES) \
		-B $(COMPONENT_SIZE) -s $(SCALE) -o $(call q,$(RESULTS_DIR)/profile-$(BACKEND)-$(WORKLOAD).txt) \
		-k $(PF_COMPONENTS) $(if $(SYSTEMS),-S $(SYSTEMS))

# make table reads CSV (default: the profile's in RESULTS_ROOT) and writes its table beside it:
# RESULTS_ROOT/table-$(PROFILE).md for the default CSV, x-table.md for CSV=x.csv.
BASELINE ?= hash
CSV ?= $(RESULTS_ROOT)/$(PROFILE).csv
table_of = $(if $(call same_path,$(RESULTS_ROOT)/$(PROFILE).csv,$(1)),$(RESULTS_ROOT)/table-$(PROFILE).md,$(call path_base,$(1))-table.md)
TABLE = $(call table_of,$(CSV))
# The table is written beside it and renamed: a failed write (a full disk) leaves none.
table:
	@test -r $(call q,$(CSV)) || { echo "make table: cannot read $(CSV); run make bench PROFILE=$(PROFILE) first, or give CSV= (REFERENCE=1: the reference results)" >&2; exit 2; }
	@scripts/table.sh $(call q,$(CSV)) $(call q,$(BASELINE)) $(call q,$(TB_ENTITIES)) $(call q,$(TB_COMPONENTS)) > $(call q,$(TABLE).tmp) || \
		{ rm -f $(call q,$(TABLE).tmp); echo "make table: $(TABLE) was not written" >&2; exit 2; }
	@mv $(call q,$(TABLE).tmp) $(call q,$(TABLE))
	@cat $(call q,$(TABLE))
	@echo "(written to $(TABLE))"

# make answer: a run's own answer (scripts/answer.sh), the table that ends make bench: per
# workload, N and k, the fastest backend and every other's paired ratio to it, on stdout and into
# x-answer.md beside OUTPUT=x.csv (or the SCENARIO's CSV), which build/ecsbench moves into
# previous/ with the CSV when a run replaces it. (Not under the output's lock: make bench, which
# holds it, calls the script itself.)
answer_of = $(call dec,$(patsubst %.csv,%,$(call enc,$(1))))-answer.md
ANSWER_CSV = $(if $(SCENARIO),$(SC_OUTPUT),$(OUTPUT))
answer:
	@test -f $(call q,$(ANSWER_CSV)) || { echo "make answer: no $(ANSWER_CSV): run make bench$(if $(SCENARIO), SCENARIO=$(SCENARIO), PROFILE=$(PROFILE)) first (REFERENCE=1: the reference results)" >&2; exit 2; }
	$(Q)scripts/answer.sh -b -o $(call q,$(call answer_of,$(ANSWER_CSV))) $(call q,$(ANSWER_CSV))

# make compare: ecsbench-compare's verdicts on stdout, then a figure per workload with both runs
# (and NEW/OLD under it) beside NEW: NEW=y.csv -> y-compare/*.png, its verdicts.csv and
# compare.txt. PROFILES=1: OLD and NEW are two profiles of one run set (A against AAA).
compare: $(COMPARE_BIN) | deps-plots
	@test -n "$(OLD)" -a -n "$(NEW)" || { echo "usage: make compare OLD=results/x.csv NEW=results/y.csv [PROFILES=1]" >&2; exit 2; }
	@scripts/compare.sh $(if $(PROFILES),-p) $(call q,$(OLD)) $(call q,$(NEW))

# make report: one page with every figure of a run, its captions and its tables, that opens from
# the file system: results/report.html for the default OUTPUT (every profile's CSV in
# RESULTS_ROOT, the figures in PLOTS), x-report.html beside OUTPUT=x.csv (the figures in x-plots/).
REPORT = $(if $(default_output),$(RESULTS_ROOT)/report.html,$(call path_base,$(OUTPUT))-report.html)
# (quoted for the shell: a path may hold spaces)
REPORT_CSVS = $(if $(default_output),$(foreach f,$(wildcard $(foreach p,A AA AAA,$(RESULTS_ROOT)/$(p).csv)),$(call q,$(f))),$(if \
	$(shell test -f $(call q,$(OUTPUT)) && echo y),$(call q,$(OUTPUT))))
report:
	@$(if $(REPORT_CSVS),true,false) || { echo "make report: no $(OUTPUT): run make bench PROFILE=$(PROFILE)$(if $(default_output),, OUTPUT=$(OUTPUT)) first" >&2; exit 2; }
	$(Q)scripts/report.sh -o $(call q,$(REPORT)) -p $(call q,$(PLOTS)) $(REPORT_CSVS)

# The repeatability check: a reduced but representative sweep of PROFILE, run twice from
# scratch into results/repeat/, then what the second run keeps of the first's conclusions.
REPEAT_WORKLOADS ?= create,iterate,churn,add-remove,get,fragmented,varkor-add-write-delete
REPEAT_ENTITIES ?= 4096,65536,1048576
REPEAT_COMPONENTS ?= 1,2
repeat: $(BIN) $(COMPARE_BIN)
	@mkdir -p results/repeat
	scripts/outlive.sh $(BIN) --profile $(PROFILE) --workloads $(REPEAT_WORKLOADS) --entities $(REPEAT_ENTITIES) \
		--components $(REPEAT_COMPONENTS) --scale 0.25 --seed $(SEED) --output results/repeat/$(PROFILE)-1.csv
	scripts/outlive.sh $(BIN) --profile $(PROFILE) --workloads $(REPEAT_WORKLOADS) --entities $(REPEAT_ENTITIES) \
		--components $(REPEAT_COMPONENTS) --scale 0.25 --seed $(SEED) --output results/repeat/$(PROFILE)-2.csv
	@$(COMPARE_BIN) --repeat results/repeat/$(PROFILE)-1.csv results/repeat/$(PROFILE)-2.csv | \
		tee results/repeat/$(PROFILE)-report.txt

# The fuzzer too (clang and libFuzzer's runtime: deps-fuzz): tests/fuzz.sh runs it for a fixed
# number of executions from a fixed seed.
test: $(BIN) $(TEST_BIN) $(ASAN_TEST_BIN) $(ASAN_REPLAY_BIN) $(CHECK_BIN) $(COMPARE_BIN) $(SCENARIO_TEST_BIN) \
	$(ASAN_SCENARIO_TEST_BIN) $(ENGINE_TEST_BIN) $(ASAN_ENGINE_TEST_BIN) $(TSAN_TEST_BIN) $(TSAN_BIN) \
	$(CG_BIN) $(FUZZ_BIN) | deps-valgrind deps-plots deps-fuzz
	$(Q)tests/run.sh

# The report page in headless Chromium (a small run into a scratch folder): a screenshot, and a
# failure if an image did not load. .ci/run runs it after make test.
test-browser: $(BIN) $(COMPARE_BIN) | deps-plots deps-browser
	$(Q)tests/browser.sh

clean:
	rm -rf build

# "(A= B= ...)" of a list of variables, folded under make help's second column
help_vars = @echo "$(4)($(foreach v,$(filter-out $(2),$(call var_names,$(1))),$(v)=)$(3))$(5)" | \
	fold -s -w 76 | sed 's/^/                      /; s/ *$$//'
help:
	@echo "make                  build build/ecsbench and the tests"
	@echo "make bench PROFILE=A  every backend, workload, k=1..3, N=2^10..2^20 -> results/A.csv"
	$(call help_vars,$(BENCH_VARS),PROFILE, OUTPUT=)
	@echo "                      HISTORY=lived-in,pristine: the best case beside (build/ecsbench --list)"
	@echo "                      then draws plots/A/*.png and plots/profiles/*.png; OUTPUT=x.csv: plots in x-plots/"
	@echo "                      and ends with its answer: per workload and k at the largest N, the fastest"
	@echo "                      backend and every other's paired ratio to it -> results/A-answer.md (x-answer.md)"
	@echo "                      A previous CSV is never replaced: it goes with its samples, answer, figures,"
	@echo "                      table and comparison to results/previous/DATE-A/ (the run says where)."
	@echo "                      One run at a time into an OUTPUT: a second is refused (OUTPUT.lock)."
	@echo "make bench SCENARIO=scenarios/shooter.ini   ns per frame by phase, every backend, the floor and"
	@echo "                      the harness alone -> results/scenario-shooter.csv, plots/scenario-shooter.png,"
	@echo "                      and its answer per frame and phase -> results/scenario-shooter-answer.md"
	$(call help_vars,$(SCENARIO_VARS),SCENARIO, OUTPUT=)
	@echo "                      SWEEP=KEY=A..B POINTS=6 SPACING=linear SET='KEY=VALUE ...'"
	@echo "                      SWEEP: results/scenario-NAME-KEY.csv, lines against the swept value;"
	$(call help_vars,$(BENCH_VARS),$(call var_names,$(SCENARIO_VARS)),,the sweep's , do not apply (refused))
	@echo "make plots PROFILE=A  draw the plots again from results/"
	@echo "make cachegrind PROFILE=A   D refs, D1/LLd misses of the timed call under valgrind"
	@echo "                      -> results/cachegrind-A.csv (a case measured again replaces its row:"
	@echo "                      the CSV as it was goes to results/previous/DATE-cachegrind-A/),"
	@echo "                      plots/A/cache-*.png (BACKENDS= WORKLOADS= ENTITIES=16384,131072 COMPONENTS=2 SYSTEMS=)"
	@echo "make profile BACKEND=hash WORKLOAD=iterate   top functions of the timed call, per entity too"
	@echo "                      -> results/profile-hash-iterate.txt (ENTITIES=131072 COMPONENTS=2)"
	@echo "make answer PROFILE=A the run's answer again from its CSV -> results/A-answer.md"
	@echo "                      (OUTPUT=x.csv -> x-answer.md; SCENARIO=f.ini: that scenario's; REFERENCE=1)"
	@echo "make table PROFILE=A BASELINE=hash   the table of Varkor's post -> results/table-A.md"
	@echo "                      (CSV=x.csv -> x-table.md; ENTITIES=N, default the largest; COMPONENTS=2)"
	@echo "make compare OLD=a.csv NEW=b.csv   per-row ratio NEW/OLD against the noise, geometric means,"
	@echo "                      and a figure per workload with both runs -> b-compare/*.png"
	@echo "                      (PROFILES=1: two profiles of one run set, e.g. OLD=results/A.csv NEW=results/AAA.csv)"
	@echo "make repeat PROFILE=A a reduced sweep twice from scratch -> results/repeat/: pairs that swap"
	@echo "                      order, coverage of the intervals, rows that agree"
	@echo "make report           one page with every figure and table of the run -> results/report.html"
	@echo "                      (OUTPUT=x.csv -> x-report.html); opens from the file system"
	@echo "make test             conformance suite (plain and ASan+UBSan), the fuzzer from a fixed seed,"
	@echo "                      the parallel pass under ThreadSanitizer, scenario files and engine,"
	@echo "                      command-line and figure tests"
	@echo "make test-browser     the report page in headless Chromium: every image loads; a screenshot"
	@echo "make fuzz             libFuzzer on every backend for FUZZ_SECONDS (default 60)"
	@echo "make clean            remove build/"
	@echo ""
	@echo "A variable make does not know on its command line (PROFLE=AAA) is refused before anything"
	@echo "runs, naming the nearest known one; paths may hold spaces (OUTPUT='my results/x.csv')."
	@echo ""
	@echo "Reference results (what the README cites; maintainers only):"
	@echo "  results/reference/ and plots/reference/ are committed; a user's runs never write there."
	@echo "make reference PROFILE=A   make bench and make table into results/reference/, plots/reference/"
	@echo "                      (refuses when impls/ or harness/ differ from the commit)"
	@echo "REFERENCE=1           the same folders for any target: make cachegrind PROFILE=A REFERENCE=1,"
	@echo "                      make profile ... REFERENCE=1, make table REFERENCE=1, make plots REFERENCE=1"

-include $(shell find build -name '*.d' 2>/dev/null)
