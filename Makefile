# ecsbench: `make` builds, `make bench PROFILE=A` measures, `make test` proves correctness,
# `make help` lists the rest. User CFLAGS are appended to the project's, never replace them.
# V=1 shows the commands.
#
# The shape (redis's src/Makefile, git's Makefile): the variables a run reads are one list,
# RUN_VARS, from which make bench's command line, make help and the check of make's own command
# line are made; the build is one object rule and a two-line rule per program; a variant build
# (sanitizers, the timed-region check, callgrind's marks) is this file made again with VARIANT=,
# into build/VARIANT/, as redis makes `valgrind` and `noopt`; the reference results are make
# bench made again with REFERENCE=1.

# --- Flags --------------------------------------------------------------------------------------
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
# A variant may fix its own (VARIANT_OPT below): the instruction gate's build does, whatever OPT is.
BASE_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
	$(or $($(VARIANT)_OPT),$(OPT)) -g
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS)
LDLIBS := -lm -linih -pthread

# --- The variables a run reads, each written once ------------------------------------------------
# NAME:RUN:DEFAULT. RUN is the kind of run that reads it: the workload sweep, a scenario run
# (make bench SCENARIO=...), or both. make bench gives a value that is not empty to
# build/ecsbench as the option of the same name in lower case, _ as - (ENTITIES=x: --entities
# 'x'), each kind of run in this order; an empty default is the harness's own (build/ecsbench
# --help). make help shows them with their defaults; a scenario run refuses the sweep's own.
# A scenario run's: make bench SCENARIO=scenarios/shooter.ini [SWEEP=KEY=A..B POINTS=N
# SPACING=linear SET='KEY=VALUE ...' UNMARKED=B,...], SET a --set per word
RUN_VARS := SCENARIO:scenario: SWEEP:scenario: POINTS:scenario: SPACING:scenario: SET:scenario: \
	UNMARKED:scenario:
RUN_VARS += PROFILE:sweep:A
RUN_VARS += BACKENDS:both:all
RUN_VARS += WORKLOADS:sweep:all
# The default sweep answers in minutes: every other doubling up to 2^18 and k = 2 (the decision
# table's), its row groups raced within the harness's budget (docs/method.md, "The race"); FULL=1:
# every doubling up to 2^20 and k = 1, 2, 3, as make reference FULL=1 measures
QUICK_ENTITIES := 1024,4096,16384,65536,262144
FULL_COMPONENTS := 1,2,3
RUN_VARS += ENTITIES:sweep:$(if $(FULL),1024..1048576,$(QUICK_ENTITIES))
RUN_VARS += COMPONENTS:sweep:$(if $(FULL),$(FULL_COMPONENTS),2)
# The most processes a row group has, timed rounds a process, warm-up rounds: the harness's
# defaults unless given; the sweep's BUDGET (the measuring time) goes with them (bench-locked)
RUN_VARS += PROCESSES:both: REPS:sweep: WARMUP:sweep:
RUN_VARS += SEED:sweep:1
RUN_VARS += SYSTEMS:sweep:
RUN_VARS += COMPONENT_SIZE:sweep:8
RUN_VARS += SCALE:sweep:1
# parallel-iterate's thread counts; empty: 1, 2, 4, ... up to the CPUs, and the CPUs
RUN_VARS += THREADS:sweep:
# What the storages go through before the clock (harness/sweep/history.h): lived-in (every
# headline figure's), pristine (the best case), aged, one-hole, alternating, churned (lived-in
# after 64 kinds came and went)
RUN_VARS += HISTORY:sweep:lived-in
# FORMAT=json: google benchmark's JSON beside the CSV too (x.json; its compare.py reads it)
RUN_VARS += FORMAT:sweep:
# The other targets' variables, and the build's (VARIANT: make's own, for build/VARIANT/)
OTHER_VARS := OUTPUT PLOTS REFERENCE FULL BACKEND WORKLOAD CSV BASELINE OLD NEW PROFILES ROWS BUDGET \
	REPEAT_WORKLOADS REPEAT_ENTITIES REPEAT_COMPONENTS FUZZ_SECONDS CC OPT CFLAGS V VARIANT \
	HISTORY_DIR HISTORY_N TEST_SCALE

field = $(word $(1),$(subst :, ,$(2)))
# The names that the runs $(1) (sweep, scenario, both) read, in the list's order
vars_read_by = $(foreach v,$(RUN_VARS),$(if $(filter $(1),$(call field,2,$(v))),$(call field,1,$(v))))
sweep_VARS := $(call vars_read_by,sweep both)
scenario_VARS := $(call vars_read_by,scenario both)
$(foreach v,$(RUN_VARS),$(eval $(call field,1,$(v)) ?= $(call field,3,$(v))))
KNOWN_VARS := $(sort $(call vars_read_by,sweep scenario both) $(OTHER_VARS))
# translate: $(1) with each pair of $(2) (FROM TO ...) replaced; option_of: NAME's option
translate = $(if $(2),$(call translate,$(subst $(word 1,$(2)),$(word 2,$(2)),$(1)),$(wordlist 3,$(words $(2)),$(2))),$(1))
option_of = --$(call translate,$(1),A a B b C c D d E e F f G g H h I i J j K k L l M m N n O o P p \
	Q q R r S s T t U u V v W w X x Y y Z z _ -)
# --option 'value' for each of the variables $(1) that is not empty (SET: a --set per word)
run_options = $(foreach v,$(1),$(if $(filter SET,$(v)),$(foreach x,$(SET),--set $(call q,$(x))),$(if \
	$($(v)),$(call option_of,$(v)) $(call q,$($(v))))))

# --- make's own command line, checked before anything runs ----------------------------------------
# A typo (PROFLE=AAA) would run the default for the name misspelt, for minutes: a variable given
# there that no target reads is refused, with the known name nearest to it (edit distance, then
# length). Variables from the environment (CI's MAKEFLAGS too, whose assignments count as the
# command line's only when they are in it) are left alone.
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
# PROFILE: one of the profiles harness/core/profile.c defines, refused before anything runs or
# builds (a run of the binary would refuse it only after the build, among the build's lines);
# a name that differs only in case is named (PROFILE=aaa: did you mean AAA?). The command
# line's alone, as above: one from the environment may be some other program's.
PROFILE_NAMES := $(shell sed -n 's/^[[:space:]]*{"\([A-Za-z0-9]*\)", [0-9]*, [0-9]*},.*/\1/p' harness/core/profile.c)
ifneq ($(and $(PROFILE_NAMES),$(filter command line,$(origin PROFILE))),)
ifeq ($(filter $(PROFILE_NAMES),$(PROFILE)),)
profile_near := $(shell printf '%s\n' $(PROFILE_NAMES) | awk -v p='$(subst ','\'',$(PROFILE))' 'toupper($$0) == toupper(p) { print; exit }')
$(error PROFILE=$(PROFILE): no such profile$(if $(profile_near), (did you mean $(profile_near)?)); \
	the profiles are $(PROFILE_NAMES) (names are upper case); nothing was run)
endif
endif
# A scenario run refuses the sweep's own variables: its types and systems are its file's.
sweep_only_given := $(filter $(call vars_read_by,sweep),$(command_line_vars))
ifneq ($(SCENARIO),)
ifneq ($(sweep_only_given),)
$(error SCENARIO= runs a scenario, to which $(firstword $(sweep_only_given))= \
	does not apply: its component types, systems, counts and frames are its file's; change them \
	with SET='KEY=VALUE ...' (docs/scenarios.md); nothing was run)
endif
endif
# A user's runs write results/ and plots/ (ignored by git). The reference results and figures
# that the README cites live in results/reference/ and plots/reference/, which only REFERENCE=1
# (or `make reference`) writes, so that a user's run never makes the README disagree with them:
# the default sweep's there (what the README's table shows: a user's make bench prints the
# same rows), the full sweep's (FULL=1) in results/reference/full/ and plots/reference/full/.
REFERENCE ?=
ifneq ($(filter-out 1,$(REFERENCE)),)
$(error REFERENCE=$(REFERENCE): use REFERENCE=1 (write results/reference/, plots/reference/) or leave it out)
endif
# make compare PROFILES=1: OLD and NEW are two profiles of one run set (A against AAA).
PROFILES ?=
ifneq ($(filter-out 1,$(PROFILES)),)
$(error PROFILES=$(PROFILES): use PROFILES=1 (OLD and NEW are two profiles of one run set) or leave it out)
endif
# make compare ROWS=1: every row on the screen, not what changed (NEW-compare/compare.txt keeps them).
ROWS ?=
ifneq ($(filter-out 1,$(ROWS)),)
$(error ROWS=$(ROWS): use ROWS=1 (make compare prints every row) or leave it out)
endif
# VARIANT= is make's own, given when it makes itself again for build/VARIANT/; one from the
# environment is some other program's.
ifneq ($(origin VARIANT),command line)
VARIANT :=
endif

# --- Paths ----------------------------------------------------------------------------------------
# Paths with spaces (OUTPUT='my results/x.csv'): make's functions split words at spaces, so a
# path goes through them with each space as the unit separator (a byte no path holds), and a
# recipe gives it to the shell quoted.
space := $(subst x,,x x)
comma := ,
unit_sep := $(shell printf '\037')
enc = $(subst $(space),$(unit_sep),$(1))
dec = $(subst $(unit_sep),$(space),$(1))
q = '$(subst ','\'',$(1))'
path_dir = $(call dec,$(patsubst %/,%,$(dir $(call enc,$(1)))))
path_name = $(call dec,$(basename $(notdir $(call enc,$(1)))))
# What is made from an output x.csv is named from x (x-plots/, x-answer.md, x-samples.csv); from
# an output not named .csv, from its whole name (OUTPUT=x.txt: x.txt-plots/, x.txt-answer.md), as
# build/ecsbench names its samples file and the scripts their files, and so that x.txt and x.csv
# side by side never share one.
csv_base = $(call dec,$(patsubst %.csv,%,$(call enc,$(1))))
csv_name = $(call dec,$(notdir $(patsubst %.csv,%,$(call enc,$(1)))))
same_path = $(filter $(call enc,$(abspath $(call enc,$(1)))),$(call enc,$(abspath $(call enc,$(2)))))

# (full/: the sweep's outputs only; a scenario's or the cache profiles' stay where they were)
REFERENCE_FULL := $(if $(and $(FULL),$(if $(SCENARIO),,1)),/full)
RESULTS_ROOT := $(if $(REFERENCE),results/reference$(REFERENCE_FULL),results)
PLOTS_ROOT := $(if $(REFERENCE),plots/reference$(REFERENCE_FULL),plots)
OUTPUT ?= $(RESULTS_ROOT)/$(PROFILE).csv
# Plots of the default output go to PLOTS_ROOT; those of another OUTPUT=x.csv to x-plots/, drawn
# from the CSV files in x.csv's folder, and its cache figures and profiles go to that folder too,
# so that a trial run never overwrites other results or figures nor mixes with them.
default_output = $(call same_path,$(RESULTS_ROOT)/$(PROFILE).csv,$(OUTPUT))
PLOTS ?= $(if $(default_output),$(PLOTS_ROOT),$(call csv_base,$(OUTPUT))-plots)
RESULTS_DIR = $(if $(default_output),$(RESULTS_ROOT),$(call path_dir,$(OUTPUT)))
# A scenario run (harness/scenario/scenario_run.h) writes RESULTS_ROOT/scenario-NAME[-KEY].csv
# (or OUTPUT=), and its figure in PLOTS_ROOT (or beside a non-default OUTPUT, in x-plots/).
SC_NAME = $(call path_name,$(SCENARIO))
SC_KEY = $(firstword $(subst =, ,$(SWEEP)))
sc_output_given = $(filter command line environment,$(origin OUTPUT))
SC_OUTPUT = $(if $(sc_output_given),$(OUTPUT),$(RESULTS_ROOT)/scenario-$(SC_NAME)$(if $(SWEEP),-$(SC_KEY)).csv)
SC_PLOTS = $(if $(sc_output_given),$(call csv_base,$(OUTPUT))-plots,$(PLOTS_ROOT))
# The figure scripts/scenario_plot.sh draws: SC_PLOTS/<the CSV's name>.png
SC_FIGURE = $(SC_PLOTS)/$(call csv_name,$(SC_OUTPUT)).png
# Its samples file, and the per-frame trace scripts/scenario_trace.sh draws from it
SC_SAMPLES = $(call csv_base,$(SC_OUTPUT))-samples.csv
SC_TRACE = $(SC_PLOTS)/$(call csv_name,$(SC_OUTPUT))-trace.png
# What make makes from a CSV: its answer, its table (make table; the default CSV's is
# RESULTS_ROOT/table-PROFILE.md) and its report page (make report: RESULTS_ROOT/report.html for
# the default OUTPUT, with every profile's CSV and the figures in PLOTS; x-report.html beside
# OUTPUT=x.csv, with the figures in x-plots/)
answer_of = $(call csv_base,$(1))-answer.md
table_of = $(if $(call same_path,$(RESULTS_ROOT)/$(PROFILE).csv,$(1)),$(RESULTS_ROOT)/table-$(PROFILE).md,$(call csv_base,$(1))-table.md)
REPORT = $(if $(default_output),$(RESULTS_ROOT)/report.html,$(call csv_base,$(OUTPUT))-report.html)

# Under valgrind (~50x slower) smaller defaults than make bench's; ENTITIES, COMPONENTS and
# WORKLOADS given on the command line or in the environment win.
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

# --- Sources, a list per folder -------------------------------------------------------------------
# Found by wildcard, so that a file added, split or renamed in a folder is built without an edit
# here. The harness is main and its rooms, core first; a room this file does not name yet joins
# after them. compare is a program of its own.
IMPL_SRC := $(wildcard impls/*.c impls/*/*.c)
HARNESS_ROOMS := core sweep scenario
HARNESS_ROOMS += $(filter-out $(HARNESS_ROOMS) compare,$(patsubst harness/%/,%,$(wildcard harness/*/)))
HARNESS_SRC := $(wildcard harness/*.c) $(wildcard $(HARNESS_ROOMS:%=harness/%/*.c))
# The harness but its main, for the test programs that drive it themselves
HARNESS_LIB_SRC := $(filter-out %/main.c,$(HARNESS_SRC))
COMPARE_SRC := $(wildcard harness/compare/*.c) harness/core/stats.c harness/core/race.c \
	harness/sweep/sweep_columns.c
# The backends' model and the operations the conformance suite and the fuzzer share
TEST_SRC := tests/runner.c tests/ops.c tests/model.c harness/core/alloc.c
FUZZ_SRC := tests/fuzz.c $(TEST_SRC)
# The sources that compile the commit in (for the CSV header), which a new commit rebuilds
COMMIT_SRC := $(shell grep -l ECSB_COMMIT $(HARNESS_SRC) /dev/null)

# --- Build variants -------------------------------------------------------------------------------
# A variant is this file made again with VARIANT=NAME: its programs in build/NAME/, built with
# NAME_FLAGS after the project's and the user's, once the packages of the groups NAME_DEPS are
# installed (preflight). build/ itself is the optimised build, the one make bench times.
VARIANTS := asan tsan check cachegrind instr heavier
plain_PROGRAMS := ecsbench conformance conformance-bare scenario_file scenario_engine ecsbench-compare tails race
# AddressSanitizer and UndefinedBehaviorSanitizer: the conformance suite, the fuzz target over
# the committed corpus, the scenario tests
asan_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan_PROGRAMS := conformance fuzz_replay scenario_file scenario_engine
# ThreadSanitizer (gcc's libtsan): the parallel pass on every backend, and the harness for a
# short parallel-iterate run
tsan_FLAGS := -O1 -fsanitize=thread -fno-omit-frame-pointer
tsan_PROGRAMS := parallel ecsbench
tsan_DEPS := tsan
# The harness with the timed regions checked: nothing that makes values or draws decisions may
# run inside one (harness/core/measure.h). make test runs every workload with it. It can also
# break one rule of the state a game is in where ECSB_BREAK_RULE names it
# (harness/sweep/state.h), so that tests/state.sh sees each check fail.
check_FLAGS := -DECSB_CHECK_TIMED -DECSB_TEST_BREAK_RULES
check_PROGRAMS := ecsbench
# The harness with callgrind's collection switched on around the timed call (make cachegrind,
# make profile)
cachegrind_FLAGS := -DECSB_CALLGRIND
cachegrind_PROGRAMS := ecsbench
cachegrind_DEPS := valgrind
# The instruction gate's build (make instr, scripts/instr.sh): callgrind's marks, compiled for one
# fixed target instead of -march=native, so that its counts are the same on every x86-64 machine
# that builds and runs it (an AMD EPYC's -march=native and an Intel Xeon's make different code).
# x86-64-v2 (SSE4.2, POPCNT, CMPXCHG16B): every x86-64 CPU since 2009 runs it, and valgrind runs
# all of it. docs/comparing.md says why, and what pins the C library's part (scripts/instr.sh).
INSTR_OPT := -O3 -march=x86-64-v2 -mtune=generic
instr_OPT := $(INSTR_OPT)
instr_FLAGS := -DECSB_CALLGRIND
instr_PROGRAMS := ecsbench
instr_DEPS := valgrind
# The gate's build with sparse's operations made heavier (tests/heavier_backends.c): the regression that
# tests/instr.sh must see the instruction check (make instr) catch. Never measures.
heavier_OPT := $(INSTR_OPT)
heavier_FLAGS := -DECSB_CALLGRIND -DECSB_TEST_HEAVIER
heavier_PROGRAMS := ecsbench
heavier_DEPS := valgrind

ifneq ($(filter-out $(VARIANTS),$(VARIANT)),)
$(error VARIANT=$(VARIANT): make's own, one of $(VARIANTS); make builds build/VARIANT/ itself when a target needs it)
endif
variant := $(or $(VARIANT),plain)
B := build$(if $(VARIANT),/$(VARIANT))
FINAL_CFLAGS = $(ALL_CFLAGS)$(if $(VARIANT), $($(VARIANT)_FLAGS))
# What a CSV's header records (harness/core/report.c)
# (what -march=native resolved to, or that the build does not follow it)
RECORD_FLAGS = -DECSB_COMMIT='"$(COMMIT)"' -DECSB_CFLAGS='"$(FINAL_CFLAGS)"' \
	-DECSB_MARCH='"$(if $(findstring -march=native,$(FINAL_CFLAGS)),$(NATIVE_ARCH),not followed)"'
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- impls harness 2>/dev/null || echo -dirty)

ifeq ($(V),1)
Q :=
else
Q := @
QUIET_CC = @echo '  CC      $<$(if $(VARIANT), ($(VARIANT)))';
QUIET_LD = @echo '  LD      $@';
QUIET_CLANG = @echo '  CLANG   $@';
endif
objs = $(patsubst %.c,$(B)/%.o,$(1))
LINK = $(QUIET_LD)$(CC) $(FINAL_CFLAGS) $^ -o $@ $(LDLIBS)

# The groups of packages scripts/deps.sh installs when missing, beside core (make deps)
DEPS_GROUPS := fuzz tsan valgrind plots browser gbench png

BIN := build/ecsbench
CG_BIN := build/cachegrind/ecsbench
INSTR_BIN := build/instr/ecsbench
COMPARE_BIN := build/ecsbench-compare
FUZZ_BIN := build/fuzz/fuzz
# Every program of every build, and the tests' reader of a figure's pixels: what make test needs
PNG_INK := build/png_ink
ALL_PROGRAMS := $(addprefix build/,$(plain_PROGRAMS)) \
	$(foreach v,$(VARIANTS),$(addprefix build/$(v)/,$($(v)_PROGRAMS))) $(FUZZ_BIN) $(PNG_INK)

.PHONY: all programs deps $(DEPS_GROUPS:%=deps-%) preflight bench \
	bench-locked small fixed-cost reference plots cachegrind profile table answer compare report repeat instr \
	instr-baseline track history \
	scenario-plots advise advise-plots test check-long test-browser fuzz fuzz-merge clean help FORCE
all: $(addprefix $(B)/,$($(variant)_PROGRAMS))
# The goal of make made again for a variant (a recipe, so that it does not say "Nothing to be done")
programs: $(addprefix $(B)/,$($(variant)_PROGRAMS))
	@:

ifeq ($(VARIANT),)
# One make per variant for all of its programs: two at once would write the same objects.
$(foreach v,$(VARIANTS),$(eval $(addprefix build/$(v)/,$($(v)_PROGRAMS)): variant-$(v) ;))
variant-%: FORCE | preflight
	$(Q)$(MAKE) --no-print-directory VARIANT=$* programs
endif

# --- The build: one object rule, a rule per program -----------------------------------------------
$(B)/%.o: %.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(FINAL_CFLAGS) $(RECORD_FLAGS) -MMD -MP -c $< -o $@

# The heavier build links its own table of backends (tests/heavier_backends.c: sparse made
# heavier) in place of impls/backends.c.
ECSBENCH_IMPL_SRC = $(if $(filter heavier,$(VARIANT)),$(filter-out impls/backends.c,$(IMPL_SRC)) \
	tests/heavier_backends.c,$(IMPL_SRC))
$(B)/ecsbench: $(call objs,$(HARNESS_SRC) $(ECSBENCH_IMPL_SRC))
	$(LINK)
# make compare's and make repeat's statistics
$(B)/ecsbench-compare: $(call objs,$(COMPARE_SRC))
	$(LINK)
# The conformance suite: every backend, every test, through the interface
$(B)/conformance: $(call objs,tests/conformance.c $(TEST_SRC) $(IMPL_SRC))
	$(LINK)
# The suite on archetype.c's and sparse.c's storage with every hook at its default
# (tests/bare_*.c) and on a sparse variant that changes one hook (tests/checked_sparse.c), with
# their own table of backends in place of backends.c: the shared machinery stands alone,
# whatever its variants' hooks do, and a new variant is one file.
$(B)/conformance-bare: $(call objs,tests/conformance.c $(TEST_SRC) impls/ecs.c tests/bare_archetype.c \
		tests/bare_sparse.c tests/checked_sparse.c tests/bare_backends.c)
	$(LINK)
# The fuzz target over the committed corpus (tests/corpus), without libFuzzer
$(B)/fuzz_replay: $(call objs,$(FUZZ_SRC) tests/fuzz_replay.c $(IMPL_SRC))
	$(LINK)
# The scenario file layer (it needs no backend)
$(B)/scenario_file: $(call objs,tests/scenario_file.c tests/runner.c harness/scenario/scenario_file.c \
	harness/scenario/scenario_check.c)
	$(LINK)
# The scenario engine: every backend, the floor and the harness alone. With the harness: a
# parallel system's pass runs on parallel.c's pool, which comes with the parallel-iterate
# workload and what it needs.
$(B)/scenario_engine: $(call objs,tests/scenario_engine.c tests/runner.c $(HARNESS_LIB_SRC) $(IMPL_SRC))
	$(LINK)
# The frame-time tails and growth frames on known data (stats.c, alloc.c)
$(B)/tails: $(call objs,tests/tails.c tests/runner.c harness/core/stats.c harness/core/alloc.c)
	$(LINK)
# The race's statistics on synthetic samples with known answers (race.c, stats.c)
$(B)/race: $(call objs,tests/race.c tests/runner.c harness/core/race.c harness/core/stats.c harness/core/rng.c)
	$(LINK)
# The parallel pass on every backend, beside the model
$(B)/parallel: $(call objs,tests/parallel.c tests/runner.c tests/ops.c tests/model.c $(HARNESS_LIB_SRC) $(IMPL_SRC))
	$(LINK)
# Where a figure has ink (tests/figure_text.sh), with libpng (deps-png)
build/png_ink: $(call objs,tests/png_ink.c)
	$(LINK) -lpng

# The fuzzer, built with clang (libFuzzer is clang's) from the sources in one command.
$(FUZZ_BIN): $(FUZZ_SRC) $(IMPL_SRC) $(wildcard impls/*.h impls/*/*.h tests/*.h harness/*/*.h) | preflight
	@mkdir -p build/fuzz
	$(QUIET_CLANG)clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(FUZZ_SRC) $(IMPL_SRC) -o $@

# A flags file per build folder (git's GIT-CFLAGS): a change of compiler or flags (OPT=-O2,
# CFLAGS=...) rebuilds that folder. The commit rebuilds only what compiles it in.
write_if_changed = echo $(call q,$(1)) | cmp -s - $@ || echo $(call q,$(1)) > $@
$(B)/.flags: FORCE | preflight
	$(Q)mkdir -p $(B)
	$(Q)$(call write_if_changed,$(CC) $(FINAL_CFLAGS))
$(B)/.commit: FORCE
	$(Q)mkdir -p $(B)
	$(Q)$(call write_if_changed,$(COMMIT))
$(call objs,$(COMMIT_SRC)): $(B)/.commit
FORCE:

# The packages a target needs, installed when missing (scripts/deps.sh): make deps-GROUP installs
# one group; the targets check theirs in preflight, below.
deps:
	$(Q)$(DEPS_SH) core
$(DEPS_GROUPS:%=deps-%): deps-%:
	$(Q)$(DEPS_SH) $*

# --- preflight: what can be checked before anything is compiled or run ---------------------------
# Every build waits for it (the flags file of each build folder, each variant's make, the fuzzer),
# and so does every target that runs something: first the files the goals write (scripts/lock.sh
# --check: one line, and nothing run, where one cannot be written), then the packages of every
# goal, each group once (scripts/deps.sh: one line with the command that mends apt where apt
# cannot install) (make test used to compile for minutes before it found one missing). The
# make that checked tells the makes it runs (ECSBENCH_PREFLIGHT in their environment), which
# check nothing again; the tests' makes are a user's, and check. DEPS_SH: the package check (a
# test gives a stub).
DEPS_SH ?= scripts/deps.sh
goals := $(or $(MAKECMDGOALS),all)
# The groups each goal needs beside core (a variant's program asked for by its path: its
# variant's, NAME_DEPS)
goal_groups = $(foreach g,$(1),$(eval $(g)_GROUPS := $(2)))
$(call goal_groups,test,valgrind plots fuzz tsan gbench png)
$(call goal_groups,test-browser,plots browser)
$(call goal_groups,check-long,valgrind fuzz)
$(call goal_groups,bench small reference plots scenario-plots fixed-cost compare history,plots)
$(call goal_groups,cachegrind,valgrind plots)
$(call goal_groups,profile instr instr-baseline,valgrind)
$(call goal_groups,fuzz fuzz-merge,fuzz)
PREFLIGHT_GROUPS = core $(sort $(foreach g,$(goals),$($(g)_GROUPS)) \
	$(foreach v,$(VARIANTS),$(if $(filter build/$(v)/%,$(goals)),$($(v)_DEPS))) \
	$(if $(VARIANT),$($(VARIANT)_DEPS)) $(if $(filter $(FUZZ_BIN),$(goals)),fuzz))
# The file each goal writes, where it has one (what is made beside it is named from it: its
# folder is checked with it)
bench_WRITES = $(RUN_OUTPUT)
small_WRITES = $(SM_OUTPUT)
reference_WRITES = $(OUTPUT)
cachegrind_WRITES = $(RESULTS_DIR)/cachegrind-$(PROFILE).csv
profile_WRITES = $(RESULTS_DIR)/profile-$(BACKEND)-$(WORKLOAD).txt
repeat_WRITES = $(REPEAT_DIR)/$(PROFILE)-1.csv
answer_WRITES = $(call answer_of,$(RUN_OUTPUT))
table_WRITES = $(TABLE)
# goal:path, a word each (a path may hold spaces)
PREFLIGHT_WRITES = $(foreach g,$(goals),$(if $($(g)_WRITES),$(g):$(call enc,$($(g)_WRITES))))
write_goal = $(firstword $(subst :, ,$(1)))
write_path = $(call dec,$(patsubst $(call write_goal,$(1)):%,%,$(1)))
preflight_done := $(ECSBENCH_PREFLIGHT)
ifeq ($(preflight_done),)
preflight:
	$(Q)$(DEPS_SH) $(PREFLIGHT_GROUPS)
else
preflight:
	@:
endif
export ECSBENCH_PREFLIGHT := 1

# --- make bench: a run of the workload sweep, or of a scenario (SCENARIO=) --------------------------
# The two kinds as a table: the variables each passes on, its CSV, what build/ecsbench keeps
# with a previous CSV in previous/DATE-NAME/ beside it (--derived FILE=NAME: the table, the
# comparison, the figures, another OUTPUT's report page), and the target that draws its figures.
RUN := $(if $(SCENARIO),scenario,sweep)
sweep_OUTPUT = $(OUTPUT)
scenario_OUTPUT = $(SC_OUTPUT)
RUN_OUTPUT = $($(RUN)_OUTPUT)
RUN_NAME = $(call csv_name,$(RUN_OUTPUT))
sweep_DERIVED = --derived $(call q,$(PLOTS)/$(PROFILE)=$(RUN_NAME)-plots/$(PROFILE)) \
	$(if $(default_output),,--derived $(call q,$(REPORT)=$(RUN_NAME)-report.html))
scenario_DERIVED = --derived $(call q,$(SC_FIGURE)=$(RUN_NAME)-plots/$(RUN_NAME).png) \
	--derived $(call q,$(SC_TRACE)=$(RUN_NAME)-plots/$(RUN_NAME)-trace.png)
RUN_DERIVED = --derived $(call q,$(call table_of,$(RUN_OUTPUT))=$(RUN_NAME)-table.md) \
	--derived $(call q,$(call csv_base,$(RUN_OUTPUT))-compare=$(RUN_NAME)-compare) $($(RUN)_DERIVED)
sweep_FIGURES = plots PLOTS=$(call q,$(PLOTS))
sweep_NOT_DRAWN = the plots were not drawn
scenario_FIGURES = scenario-plots
scenario_NOT_DRAWN = the figure was not drawn
# Whether the sweep's output had a report page, which make bench then makes again for the new
# CSV (make expands a recipe before it runs its first line: this is before the run). The page of
# another OUTPUT=x.csv goes with the previous CSV (its links hold there); the default one, which
# shows every profile, is only made again.
report_again = $(if $(filter sweep,$(RUN)),$(shell test -f $(call q,$(REPORT)) && echo y))

# make bench holds the output's lock (OUTPUT.lock, scripts/lock.sh) for the run and its figures:
# a second run into the same output is refused while it lasts. After each process but the last
# it shows the answer so far, marked provisional (--provisional); the run ends with its answer
# (scripts/answer.sh): per workload, N and k, the fastest backend and every other's paired
# ratio, and how many verdicts changed since the first provisional one.
bench: $(BIN) $(COMPARE_BIN) | preflight
	$(Q)scripts/lock.sh $(call q,$(RUN_OUTPUT)) 'make bench' \
		$(MAKE) --no-print-directory bench-locked
# (The run's own command is not echoed, V=1 shows it: its many --derived words buried the
# one-line error a run refuses bad input with.)
bench-locked: $(BIN) $(COMPARE_BIN)
	@mkdir -p $(call q,$(call path_dir,$(RUN_OUTPUT)))
	$(Q)$(if $(REFERENCE),ECSBENCH_REFERENCE=1 )scripts/outlive.sh $(BIN) $(call run_options,$($(RUN)_VARS)) \
		$(if $(and $(BUDGET),$(filter sweep,$(RUN))),--budget $(call q,$(BUDGET))) \
		--output $(call q,$(RUN_OUTPUT)) $(RUN_DERIVED) --provisional 'scripts/answer.sh -b -f'
	$(Q)start=$$(date +%s); $(MAKE) --no-print-directory $($(RUN)_FIGURES) || \
		echo "make bench: $(RUN_OUTPUT) is written; $($(RUN)_NOT_DRAWN) (see above)" >&2; \
		echo "make bench: the figures took $$(($$(date +%s) - start)) s" >&2
	$(Q)$(if $(report_again),$(MAKE) --no-print-directory report PLOTS=$(call q,$(PLOTS)),true)
	$(Q)scripts/answer.sh -b -o $(call q,$(call answer_of,$(RUN_OUTPUT))) $(call q,$(RUN_OUTPUT))

# make small: the small worlds (docs/workloads.md, "Small worlds and fixed costs"): make bench over
# N = 1, 2, 4, .. 16384 (not the default range) with iterate, the pass's fixed-cost workloads and
# the rows held against published suites, into results/small-PROFILE.csv (OUTPUT=x.csv); then
# scripts/fixed_cost.sh: per backend the N below which a pass costs more than twice its
# per-entity cost times N -> x-fixed-cost.md, and its figure -> x-plots/fixed-cost.png.
SM_ENTITIES = $(call default_of,ENTITIES,1..16384)
SM_COMPONENTS = $(call default_of,COMPONENTS,2)
SM_WORKLOADS = $(call default_of,WORKLOADS,iterate$(comma)empty-pass$(comma)systems-64$(comma)destroy$(comma)get$(comma)get-ordered$(comma)varkor-create$(comma)varkor-add$(comma)varkor-add-write-delete$(comma)varkor-distributed$(comma)varkor-relationship$(comma)varkor-random)
SM_OUTPUT = $(if $(filter command line environment,$(origin OUTPUT)),$(OUTPUT),$(RESULTS_ROOT)/small-$(PROFILE).csv)
small: $(BIN) | preflight
	$(Q)$(MAKE) --no-print-directory bench WORKLOADS=$(call q,$(SM_WORKLOADS)) \
		ENTITIES=$(call q,$(SM_ENTITIES)) COMPONENTS=$(call q,$(SM_COMPONENTS)) OUTPUT=$(call q,$(SM_OUTPUT))
	$(Q)$(MAKE) --no-print-directory fixed-cost OUTPUT=$(call q,$(SM_OUTPUT))
fixed-cost: | preflight
	@test -f $(call q,$(SM_OUTPUT)) || { echo "make fixed-cost: no $(SM_OUTPUT): run make small first" >&2; exit 2; }
	@mkdir -p $(call q,$(call csv_base,$(SM_OUTPUT))-plots)
	$(Q)scripts/fixed_cost.sh -o $(call q,$(call csv_base,$(SM_OUTPUT))-plots/fixed-cost.png) \
		$(call q,$(SM_OUTPUT)) > $(call q,$(call csv_base,$(SM_OUTPUT))-fixed-cost.md)
	@cat $(call q,$(call csv_base,$(SM_OUTPUT))-fixed-cost.md)

# The reference run that the README cites, from committed code only: make bench and make table
# made again with REFERENCE=1 (the default sweep, whose rows the README's table shows; FULL=1
# the full sweep into results/reference/full/), then the README's table and "In short" lines
# made again from it (scripts/readme.sh; the full sweep's are not the README's).
# The user's main job is make bench PROFILE=AAA: the reference is that run unless PROFILE= says
# otherwise (only AAA's writes the README).
REF_PROFILE = $(if $(filter command line,$(origin PROFILE)),$(PROFILE),AAA)
reference: | preflight
	@case '$(COMMIT)' in *-dirty | unknown*) echo "make reference: impls/ or harness/ differ from \
	the commit (or no git): commit them first, so that the reference names the code it measured" >&2; \
	exit 2 ;; esac
	$(Q)$(MAKE) --no-print-directory bench REFERENCE=1 PROFILE=$(REF_PROFILE)
	$(Q)$(MAKE) --no-print-directory table REFERENCE=1 PROFILE=$(REF_PROFILE)
	$(Q)$(if $(FULL),:,$(if $(filter AAA,$(REF_PROFILE)),scripts/readme.sh results/reference/AAA.csv README.md,:))

# --- What make makes from results -----------------------------------------------------------------
# Draws PLOTS/$(PROFILE)/*.png and PLOTS/profiles/*.png from the CSV files in RESULTS_DIR.
plots: | preflight
	$(Q)scripts/plot.sh -r $(call q,$(RESULTS_DIR)) -i $(call q,$(OUTPUT)) -o $(call q,$(PLOTS)) $(PROFILE)

# The figure of a scenario run again from its CSV (the same SCENARIO, SWEEP and OUTPUT).
scenario-plots: | preflight
	@test -n '$(SCENARIO)' || { echo "usage: make scenario-plots SCENARIO=file [SWEEP=KEY=A..B] [OUTPUT=x.csv]" >&2; exit 2; }
	$(Q)scripts/scenario_plot.sh -o $(call q,$(SC_PLOTS)) $(call q,$(SC_OUTPUT))
	$(Q)! test -f $(call q,$(SC_SAMPLES)) || scripts/scenario_trace.sh -o $(call q,$(SC_PLOTS)) $(call q,$(SC_SAMPLES))

# make advise SCENARIO=mine.ini: which storage design is fastest for that frame, and how much it
# matters (harness/advise/advise_run.h): the search's steps -> RESULTS_ROOT/advise-NAME.csv (or
# OUTPUT=x.csv), the advice beside it (.md, also on the terminal), NAME-advised.ini (the file
# with the chosen marks), every step's run in advise-NAME-steps/; then the search's figure ->
# PLOTS_ROOT/advise-NAME.png (x-plots/x.png beside OUTPUT=x.csv). BUDGET=10m (the default),
# PROCESSES=3 per step, BACKENDS=, SET='KEY=VALUE ...'. An interrupted search keeps its steps;
# make advise-plots draws its figure.
ADVISE_OUTPUT = $(if $(sc_output_given),$(OUTPUT),$(RESULTS_ROOT)/advise-$(SC_NAME).csv)
ADVISE_FIGURE = $(SC_PLOTS)/$(call path_name,$(ADVISE_OUTPUT)).png
advise_refused := $(filter SWEEP POINTS SPACING UNMARKED,$(command_line_vars))
advise: $(BIN) | deps-plots
	@test -n '$(SCENARIO)' || { echo "usage: make advise SCENARIO=file [BUDGET=10m] [PROCESSES=3] [BACKENDS=...] [SET='KEY=VALUE ...'] [OUTPUT=x.csv]" >&2; exit 2; }
	@test -z '$(advise_refused)' || { echo "make advise: $(firstword $(advise_refused))= does not apply: the advisor chooses each step's designs itself; nothing was run" >&2; exit 2; }
	@mkdir -p $(call q,$(call path_dir,$(ADVISE_OUTPUT)))
	$(if $(REFERENCE),ECSBENCH_REFERENCE=1 )$(BIN) --advise $(call q,$(SCENARIO)) \
		$(call run_options,BACKENDS PROCESSES SET BUDGET) --output $(call q,$(ADVISE_OUTPUT)) \
		--derived $(call q,$(ADVISE_FIGURE)=$(call path_name,$(ADVISE_OUTPUT)).png)
	$(Q)$(MAKE) --no-print-directory advise-plots
advise-plots: | deps-plots
	@test -n '$(SCENARIO)' || { echo "usage: make advise-plots SCENARIO=file [OUTPUT=x.csv]" >&2; exit 2; }
	$(Q)scripts/advise_plot.sh -o $(call q,$(ADVISE_FIGURE)) $(call q,$(ADVISE_OUTPUT))

# make table reads CSV (default: the profile's in RESULTS_ROOT) and writes its table beside it,
# renamed into place: a failed write (a full disk) leaves none.
BASELINE ?= hash
CSV ?= $(RESULTS_ROOT)/$(PROFILE).csv
TABLE = $(call table_of,$(CSV))
table: | preflight
	@test -r $(call q,$(CSV)) || { echo "make table: cannot read $(CSV); run make bench PROFILE=$(PROFILE) first, or give CSV= (REFERENCE=1: the reference results)" >&2; exit 2; }
	@scripts/table.sh $(call q,$(CSV)) $(call q,$(BASELINE)) $(call q,$(TB_ENTITIES)) $(call q,$(TB_COMPONENTS)) > $(call q,$(TABLE).tmp) || \
		{ rm -f $(call q,$(TABLE).tmp); echo "make table: $(TABLE) was not written" >&2; exit 2; }
	@mv $(call q,$(TABLE).tmp) $(call q,$(TABLE))
	@cat $(call q,$(TABLE))
	@echo "(written to $(TABLE))"

# make answer: the answer that ends make bench again, from OUTPUT=x.csv (or the SCENARIO's CSV)
# into x-answer.md, which build/ecsbench moves into previous/ with the CSV when a run replaces it.
# (Not under the output's lock: make bench, which holds it, calls the script itself.)
answer: $(COMPARE_BIN) | preflight
	@test -f $(call q,$(RUN_OUTPUT)) || { echo "make answer: no $(RUN_OUTPUT): run make bench$(if $(SCENARIO), SCENARIO=$(SCENARIO), PROFILE=$(PROFILE)) first (REFERENCE=1: the reference results)" >&2; exit 2; }
	$(Q)scripts/answer.sh -b -o $(call q,$(call answer_of,$(RUN_OUTPUT))) $(call q,$(RUN_OUTPUT))

# make compare: what changed on stdout (ecsbench-compare's screen; ROWS=1: every row), then a
# figure per workload with both runs (and NEW/OLD under it) beside NEW: NEW=y.csv ->
# y-compare/*.png, its verdicts.csv and compare.txt (every row).
compare: $(COMPARE_BIN) | preflight
	@test -n "$(OLD)" -a -n "$(NEW)" || { echo "usage: make compare OLD=results/x.csv NEW=results/y.csv [PROFILES=1] [ROWS=1]" >&2; exit 2; }
	@scripts/compare.sh $(if $(PROFILES),-p) $(if $(ROWS),-r) $(call q,$(OLD)) $(call q,$(NEW))

# (quoted for the shell: a path may hold spaces)
REPORT_CSVS = $(if $(default_output),$(foreach f,$(wildcard $(foreach p,A AA AAA,$(RESULTS_ROOT)/$(p).csv)),$(call q,$(f))),$(if \
	$(shell test -f $(call q,$(OUTPUT)) && echo y),$(call q,$(OUTPUT))))
report: $(COMPARE_BIN)
	@$(if $(REPORT_CSVS),true,false) || { echo "make report: no $(OUTPUT): run make bench PROFILE=$(PROFILE)$(if $(default_output),, OUTPUT=$(OUTPUT)) first" >&2; exit 2; }
	$(Q)scripts/report.sh -o $(call q,$(REPORT)) -p $(call q,$(PLOTS)) $(REPORT_CSVS)

# --- Runs under valgrind, and the repeatability check -----------------------------------------------
# Simulated caches over the timed call only -> RESULTS_DIR/cachegrind-$(PROFILE).csv (a case
# measured again replaces its row), then PLOTS/$(PROFILE)/cache-*.png.
cachegrind: $(CG_BIN) | preflight
	$(Q)scripts/cachegrind.sh -p $(PROFILE) -b $(call q,$(BACKENDS)) -w $(call q,$(CG_WORKLOADS)) \
		-n $(call q,$(CG_ENTITIES)) -B $(COMPONENT_SIZE) -s $(SCALE) -H $(call q,$(CG_HISTORY)) \
		-o $(call q,$(RESULTS_DIR)/cachegrind-$(PROFILE).csv) -k $(call q,$(CG_COMPONENTS)) \
		$(if $(SYSTEMS),-S $(SYSTEMS))
	$(Q)scripts/plot.sh -r $(call q,$(RESULTS_DIR)) -i $(call q,$(OUTPUT)) -o $(call q,$(PLOTS)) $(PROFILE)

# Where one backend spends a workload's timed call -> RESULTS_DIR/profile-$(BACKEND)-$(WORKLOAD).txt
BACKEND ?= hash
WORKLOAD ?= iterate
profile: $(CG_BIN) | preflight
	$(Q)scripts/profile.sh -p $(PROFILE) -b $(BACKEND) -w $(WORKLOAD) -n $(PF_ENTITIES) \
		-B $(COMPONENT_SIZE) -s $(SCALE) -o $(call q,$(RESULTS_DIR)/profile-$(BACKEND)-$(WORKLOAD).txt) \
		-k $(PF_COMPONENTS) $(if $(SYSTEMS),-S $(SYSTEMS))

# History per machine (scripts/track.sh, scripts/history.sh): make track appends the run of CSV
# (default the profile's, or OUTPUT=) to HISTORY_DIR/FINGERPRINT.csv with each row's verdict
# against the run tracked before; make history draws it -> plots/history/FINGERPRINT/*.png
# (HISTORY_N=N: that entity count, default each workload's largest; PLOTS=DIR: DIR/history/).
HISTORY_DIR ?= results/history
HISTORY_N ?=
track: $(COMPARE_BIN)
	$(Q)scripts/track.sh -d $(call q,$(HISTORY_DIR)) $(call q,$(if $(filter command line,$(origin CSV)),$(CSV),$(OUTPUT)))
history: | preflight
	$(Q)scripts/history.sh -d $(call q,$(HISTORY_DIR)) $(if $(HISTORY_N),-n $(call q,$(HISTORY_N))) \
		$(if $(filter command line,$(origin PLOTS)),-p $(call q,$(PLOTS)))

# Instruction-count regressions (scripts/instr.sh): a fixed set of rows (every backend and the
# floor, every workload but varkor-relationship and parallel-iterate, A, N = 1024, k = 2) under
# callgrind, each timed call alone; make instr prints every row's change against the committed
# baseline (tests/instr-baseline.csv) and fails when one grew by more than 2%; make
# instr-baseline writes that baseline again (commit it with the change it accepts).
instr: $(INSTR_BIN) | preflight
	$(Q)scripts/instr.sh check
instr-baseline: $(INSTR_BIN) | preflight
	$(Q)scripts/instr.sh baseline

# The repeatability check: a reduced but representative sweep of PROFILE, run twice from
# scratch into results/repeat/, then what the second run keeps of the first's conclusions.
# make repeat: make bench's default sweep twice (REPEAT_*: another), and how far the second run
# falls inside the first's intervals (REFERENCE=1: into results/reference/repeat/)
REPEAT_WORKLOADS ?= all
REPEAT_ENTITIES ?= $(QUICK_ENTITIES)
REPEAT_COMPONENTS ?= 2
REPEAT_DIR = $(RESULTS_ROOT)/repeat
repeat_run = $(if $(REFERENCE),ECSBENCH_REFERENCE=1 )scripts/outlive.sh $(BIN) --profile $(PROFILE) \
	--workloads $(REPEAT_WORKLOADS) --entities $(REPEAT_ENTITIES) --components $(REPEAT_COMPONENTS) \
	--scale $(SCALE) --seed $(SEED) --output $(REPEAT_DIR)/$(PROFILE)-$(1).csv
repeat: $(BIN) $(COMPARE_BIN) | preflight
	@mkdir -p $(REPEAT_DIR)
	$(call repeat_run,1)
	$(call repeat_run,2)
	@$(COMPARE_BIN) --repeat $(REPEAT_DIR)/$(PROFILE)-1.csv $(REPEAT_DIR)/$(PROFILE)-2.csv | \
		tee $(REPEAT_DIR)/$(PROFILE)-report.txt

# --- Tests ------------------------------------------------------------------------------------------
# Every program of every build; the fuzzer (clang and libFuzzer's runtime: deps-fuzz) too, which
# make check-long runs (tests/fuzz.sh: a fixed number of executions from a fixed seed), built
# here so that make test finds it broken. TEST_SCALE=N: the conformance suite's large model test
# N times, each run twice as large (tests/conformance.c).
TEST_SCALE ?= 1
ifneq ($(filter test,$(MAKECMDGOALS)),)
ifeq ($(shell case $(call q,$(TEST_SCALE)) in ([1-9] | [1-5][0-9] | 6[0-4]) echo y;; esac),)
$(error TEST_SCALE=$(TEST_SCALE): a whole number from 1 to 64)
endif
endif
# The tests' makes are a user's: none of this make's flags (-j2's job server among them: .ci/run)
test: $(ALL_PROGRAMS) | preflight
	$(Q)env -u ECSBENCH_PREFLIGHT -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ECSB_TEST_SCALE=$(call q,$(TEST_SCALE)) tests/run.sh

# The long lane (tests/run.sh --long), which .ci/run runs after make test and make test-browser:
# what make test cut to fit its ten minutes, at the scales the large-* tests use: libFuzzer from
# two seeds, the whole conformance suite under ASan+UBSan at 100,000 operations and scale 2,
# memcheck with the large-* and allocation-failure tests, the committed instruction baseline
# (make instr's check). Ends with "N passed, N failed";
# docs/running.md says how long it takes.
LONG_PROGRAMS := build/conformance build/asan/conformance $(FUZZ_BIN) $(INSTR_BIN)
check-long: $(LONG_PROGRAMS) | preflight
	$(Q)env -u ECSBENCH_PREFLIGHT -u MAKEFLAGS -u MFLAGS -u MAKELEVEL tests/run.sh --long

# The report page in headless Chromium (a small run into a scratch folder): a screenshot, and a
# failure if an image did not load. .ci/run runs it after make test.
test-browser: $(BIN) $(COMPARE_BIN) | preflight
	$(Q)env -u ECSBENCH_PREFLIGHT tests/browser.sh

FUZZ_SECONDS ?= 60
fuzz: $(FUZZ_BIN)
	@mkdir -p build/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -max_len=512 \
		build/fuzz/corpus tests/corpus
fuzz-merge: $(FUZZ_BIN)
	$(FUZZ_BIN) -merge=1 tests/corpus build/fuzz/corpus

clean:
	rm -rf build

# --- make help -------------------------------------------------------------------------------------
# The run variables come from RUN_VARS with their defaults (empty: the harness's own), five to a
# line under the second column.
help_indent := $(subst x,$(space),xxxxxxxxxxxxxxxxxxxxxx)
define newline


endef
help_lines = $(if $(1),$(newline)$(help_indent)$(wordlist 1,5,$(1))$(call help_lines,$(wordlist 6,$(words $(1)),$(1))))
help_defaults = $(foreach v,$(1),$(v)=$(call field,3,$(filter $(v):%,$(RUN_VARS))))
define HELP
make                  build build/ecsbench and the tests
make bench PROFILE=A  every backend and workload, k=2, N=2^10..2^18 (FULL=1: k=1..3, N=2^10..2^20) -> results/A.csv$(call \
help_lines,($(call help_defaults,$(filter-out PROFILE,$(sweep_VARS))) OUTPUT=))
                      HISTORY=lived-in,pristine: the best case beside (build/ecsbench --list)
                      then draws plots/A/*.png and plots/profiles/*.png; OUTPUT=x.csv: plots in x-plots/
                      and ends with its answer: per workload and k at the largest N, the fastest
                      backend and every other's paired ratio to it -> results/A-answer.md (x-answer.md)
                      A previous CSV is never replaced: it goes with its samples, answer, figures,
                      table and comparison to results/previous/DATE-A/ (the run says where).
                      One run at a time into an OUTPUT: a second is refused (OUTPUT.lock).
make bench SCENARIO=scenarios/shooter.ini   ns per frame by phase, every backend, the floor and
                      the harness alone -> results/scenario-shooter.csv, plots/scenario-shooter.png,
                      and its answer per frame and phase -> results/scenario-shooter-answer.md$(call \
help_lines,($(call help_defaults,$(filter-out SCENARIO,$(scenario_VARS))) OUTPUT=))
                      SWEEP=KEY=A..B POINTS=6 SPACING=linear SET='KEY=VALUE ...'
                      SWEEP=KEY=V1,V2,... a point per value (component.X.storage=table,sparse)
                      UNMARKED=hybrid: hybrid again with no storage hints, paired with the rest
                      SWEEP: results/scenario-NAME-KEY.csv, lines against the swept value;
                      the sweep's own do not apply (refused):$(call \
help_lines,$(addsuffix =,$(call vars_read_by,sweep)))
make advise SCENARIO=mine.ini   which storage design is fastest for that frame, searched
                      step by step (each a paired run), confirmed in a fresh run, and how much
                      the choice matters -> results/advise-mine.md (also on the terminal), its
                      steps results/advise-mine.csv, results/mine-advised.ini (the file with the
                      chosen marks), plots/advise-mine.png (BUDGET=10m PROCESSES=3 BACKENDS=
                      SET= OUTPUT=; make advise-plots: the figure again)
make small PROFILE=A  the small worlds: N = 1..16384 (ENTITIES=), iterate, empty-pass, systems-64,
                      destroy, get, get-ordered -> results/small-A.csv, and per backend the N
                      below which a pass costs over twice its per-entity cost x N
                      -> results/small-A-fixed-cost.md, results/small-A-plots/fixed-cost.png
                      (make fixed-cost: the table and figure again from the CSV)
make plots PROFILE=A  draw the plots again from results/
make cachegrind PROFILE=A   D refs, D1/LLd misses of the timed call under valgrind; prints a
                      table of D1/LLd misses per entity -> results/cachegrind-A.csv (a case
                      measured again replaces its row: the CSV as it was goes to
                      results/previous/DATE-cachegrind-A/), each case's valgrind summary
                      -> results/cachegrind-A-summary.txt,
                      plots/A/cache-*.png (BACKENDS= WORKLOADS= ENTITIES=16384,131072 COMPONENTS=2 SYSTEMS=)
make profile BACKEND=hash WORKLOAD=iterate   top functions of the timed call, per entity too
                      -> results/profile-hash-iterate.txt (ENTITIES=131072 COMPONENTS=2)
make answer PROFILE=A the run's answer again from its CSV -> results/A-answer.md
                      (OUTPUT=x.csv -> x-answer.md; SCENARIO=f.ini: that scenario's; REFERENCE=1)
make table PROFILE=A BASELINE=hash   the table of Varkor's post -> results/table-A.md
                      (CSV=x.csv -> x-table.md; ENTITIES=N, default the largest; COMPONENTS=2)
make compare OLD=a.csv NEW=b.csv   what changed: per backend NEW/OLD's geometric mean, the rows
                      called faster or slower; every row -> b-compare/compare.txt (ROWS=1: printed),
                      and a figure per workload with both runs -> b-compare/*.png
                      (PROFILES=1: two profiles of one run set, e.g. OLD=results/A.csv NEW=results/AAA.csv)
make repeat PROFILE=A a reduced sweep twice from scratch -> results/repeat/: pairs that swap
                      order, coverage of the intervals, rows that agree
make bench FORMAT=json  also google benchmark's JSON beside the CSV -> results/A.json
                      (a sample each, the medians; google benchmark's compare.py reads two)
make track            append the run (results/A.csv, or CSV=x.csv) to this machine's history
                      -> results/history/FINGERPRINT.csv, each row's verdict against the last
make history          draw it -> plots/history/FINGERPRINT/<workload>.png: each backend's
                      series with intervals, faster/slower points marked (HISTORY_N=N)
make instr            instruction and data-reference counts per entity of every backend's timed
                      call under callgrind against tests/instr-baseline.csv; fails on a row
                      grown by more than 2% (make test runs it)
make instr-baseline   measure them again into tests/instr-baseline.csv (commit it with the change)
make report           one page with every figure and table of the run -> results/report.html
                      (OUTPUT=x.csv -> x-report.html); opens from the file system
make test             conformance suite (plain and ASan+UBSan), the fuzz corpus replayed,
                      the parallel pass under ThreadSanitizer, scenario files and engine,
                      command-line and figure tests (TEST_SCALE=N: N runs of the large model
                      test, each twice as large as the one before; default 1)
make check-long       the long lane, after make test in CI: libFuzzer from two fixed seeds, the
                      whole conformance suite under ASan+UBSan at 100,000 operations, memcheck
                      with the large-* and allocation-failure tests, the committed instruction
                      baseline (docs/running.md: how long)
make test-browser     the report page in headless Chromium: every image loads; a screenshot
make fuzz             libFuzzer on every backend for FUZZ_SECONDS (default 60)
make clean            remove build/

A variable make does not know on its command line (PROFLE=AAA) is refused before anything
runs, naming the nearest known one; paths may hold spaces (OUTPUT='my results/x.csv').

Reference results (what the README cites; maintainers only):
  results/reference/ and plots/reference/ are committed; a user's runs never write there.
make reference        make bench PROFILE=AAA and make table into results/reference/, plots/reference/,
                      then the README's table and "In short" lines from it (scripts/readme.sh);
                      FULL=1: the full sweep into results/reference/full/, plots/reference/full/
                      (refuses when impls/ or harness/ differ from the commit)
REFERENCE=1           the same folders for any target: make cachegrind PROFILE=A REFERENCE=1,
                      make profile ... REFERENCE=1, make table REFERENCE=1, make plots REFERENCE=1
endef
help:
	$(info $(HELP))
	@:

# preflight's files, checked as make reads this file (here, where every name they are made from
# is known): a refusal is then one line, with no recipe's error after it
ifeq ($(preflight_done),)
preflight_refusal := $(strip $(foreach w,$(PREFLIGHT_WRITES),$(shell scripts/lock.sh --check \
	$(call q,$(call write_path,$(w))) 'make $(call write_goal,$(w))' 2>&1 >/dev/null)))
ifneq ($(preflight_refusal),)
$(error $(preflight_refusal))
endif
endif

-include $(shell find $(B) -name '*.d' 2>/dev/null)
