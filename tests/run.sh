#!/bin/sh
# run.sh: every test suite, each ending with its own "N passed, N failed" line, then the sum of
# them all as the last line (what CI reads). Exit status 1 if anything failed or a suite crashed.
# run.sh --long: the long lane instead (make check-long, after make test in .ci/run: below).
# The suites run in two lanes at once (below); each one's output is printed whole when it ends,
# with its wall and CPU seconds.
#   build/conformance        the conformance suite, every backend, every test; its large-* tests
#                            (thousands of live entities, batches of thousands, 4 KiB values)
#                            with ECSB_TEST_SCALE=N runs of the model test (make test
#                            TEST_SCALE=N; default 1)
#   build/asan/conformance   the same under AddressSanitizer and UndefinedBehaviorSanitizer,
#                            reduced (fewer random operations; AAA without its slowest tests)
#   build/conformance-bare   the suite on archetype.c's and sparse.c's storage with every hook
#                            at its default (tests/bare_*.c): the shared machinery without its
#                            variants; and on a sparse variant that changes one hook
#                            (tests/checked_sparse.c)
#   build/asan/fuzz_replay   the fuzz target (tests/fuzz.c: every backend beside its model) on
#                            every input of the committed corpus (tests/corpus), under gcc's
#                            AddressSanitizer and UndefinedBehaviorSanitizer, without libFuzzer
#   tests/fuzz.sh            (make check-long) the fuzz target under libFuzzer (clang,
#                            ASan+UBSan): the corpus, then mutations from a fixed seed; what it
#                            makes goes to build/fuzz/test/
#   valgrind build/conformance   the suite, reduced (no large-* tests), under memcheck: no error,
#                            no leak
#   build/scenario_file      scenario files: the shipped ones, good and bad files, overrides
#   build/asan/scenario_file the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   build/tails              the frame-time tails (p95, p99, max across processes) and the
#                            growth frames, on known data and scripted allocations
#   build/race               the race's statistics (median polish, looks, screens) on
#                            synthetic samples with known answers: twins, a made difference
#   build/scenario_engine    the scenario engine: shipped scenarios agree on every backend, the
#                            floor and the harness; deferred despawns; determinism
#   build/asan/scenario_engine  the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   tests/columns.sh         the CSV's columns from one table: --columns, docs/csv.md's table in
#                            the same order, a tiny run's header and rows, read back
#   tests/scenario_cli.sh    build/ecsbench --scenario and --sweep: bad input, short runs of every
#                            shipped scenario whose checksums agree, a sweep, the check build
#   build/tsan/parallel      the parallel pass on every backend under ThreadSanitizer
#   tests/parallel.sh        a short parallel-iterate run of the harness under ThreadSanitizer
#   tests/advise.sh          the advisor (--advise, make advise) on tiny scenarios: bad input, a
#                            known best design found and confirmed, the advised file's checksum,
#                            SIGTERM keeps the steps done, every sanity warning, its figure
#   tests/cli.sh             build/ecsbench's and make's command lines: bad input, a good run,
#                            SIGINT, previous results kept, one run at a time, a full disk
#   tests/tails.sh           the frame-time tails and growth frames of real scenario runs, the
#                            answer's tails, the trace, create-unreserved's blocks and figure
#   tests/figures.sh         the figure and table scripts on synthetic files (gnuplot, no valgrind)
#   tests/figure_text.sh     every kind of figure at the longest texts the runs make: its title,
#                            labels and key inside the canvas, covering nothing (build/png_ink);
#                            every log scale drawn from times of 0 and intervals reaching 0
#   tests/report.sh          make compare's figures and make report's page, on small real runs
#   tests/stats.sh           the statistics: the paired best never beaten, noisy, the A/A test
#                            (--twin), make repeat's coverage over every pair
#   tests/machine.sh         the machine's state a run records (the `# machine` lines, a line
#                            per process) and what make compare, --repeat and the report make
#                            of it: differs, agrees, not recorded, the floor rows instead
#   tests/valgrind_scripts.sh  make cachegrind's and make profile's scripts, and callgrind-pair.sh,
#                            on the tiniest real cases under valgrind
#   tests/gbench.sh          --format json: google benchmark's fields on small runs, and its
#                            compare.py (Debian's libbenchmark-tools) reading two of them
#   tests/state.sh           the state a game is in: creation takes recycled indices on every
#                            backend; each rule broken (the check build) fails its rows
#   tests/history.sh         make track and make history: two runs appended and drawn, a run
#                            made slower marked so, the same run or another CPU's refused
#   tests/instr.sh           the instruction check (make instr): a build with a heavier backend
#                            fails it, not-comparable builds say so (the committed baseline
#                            holds: tests/instr.sh --long, in make check-long)
#   tests/links.sh           every relative link, image and #anchor of the committed Markdown
#   tests/setup.sh           make's preflight: packages checked before anything compiles, apt's
#                            broken states in one line, outputs that cannot be written refused
set -u
cd "$(dirname "$0")/.." || exit 1
# checked before anything runs, not found by the first suite after the build
case ${ECSB_TEST_SCALE:-1} in
[1-9] | [1-5][0-9] | 6[0-4]) ;;
*)
	echo "run.sh: TEST_SCALE (ECSB_TEST_SCALE) '$ECSB_TEST_SCALE' is not a whole number from 1 to 64" >&2
	exit 2
	;;
esac
start=$(date +%s)
if [ "${1:-}" = --lane ]; then # one lane of the run below, in its folder
	dir=$2
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	: >"$dir/tally"
fi

# the CPU seconds (user + system) every child of this shell so far has used, from `times` (into
# a file: in a pipe or $(...) it would be a subshell's, without children)
children_cpu() {
	times >"$dir/times.$lane"
	tail -n 1 "$dir/times.$lane" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.1f", t }'
}

# One suite: its output kept until it ends, then printed whole (the other lane's suites never
# cut into it) with its own time, wall and CPU: what make test's minutes go on. Its count goes
# to the tally; a suite that ends without its summary line counts as one failure.
suite() {
	name=$1
	shift
	log=$dir/log.$lane
	wall0=$(date +%s)
	children_cpu >"$dir/cpu0.$lane"
	"$@" >"$log" 2>&1
	rc=$?
	wall=$(($(date +%s) - wall0))
	children_cpu >"$dir/cpu1.$lane"
	cpu=$(awk 'NR == FNR { c0 = $1; next } { printf "%.0f", $1 - c0 }' "$dir/cpu0.$lane" "$dir/cpu1.$lane")
	# the last summary line (a sanitizer's report at exit may follow it)
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	{
		echo "== $name"
		grep -v '^ok ' "$log"
		if [ -z "$p" ]; then
			echo "FAIL $name: exit status $rc without a summary"
			p=0 f=1
		elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "FAIL $name: exit status $rc"
			f=1
		fi
		echo "-- $name: $wall s, $cpu s of CPU"
	} >"$dir/block.$lane"
	flock "$dir/tally" sh -c 'cat "$1" && echo "$2 $3" >>"$4"' sh "$dir/block.$lane" "$p" "$f" \
		"$dir/tally"
}

asan() {
	env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$@"
}

# Two lanes at once, one a core (CI's machine has two): the programs under the sanitizers,
# valgrind and the fuzzer, and the suites that call no make, in one; the scripts that call make
# (every make they call, one at a time) in the other, about as long as each other. One suite
# after another they took 983 s of CPU (2026-11-27, an Intel Xeon, loaded) and CI 1,360 s in
# all; in these lanes, on the same machine quiet, .ci/run took 568 s with the scripts lane 350 s.
# 2026-11-28 and 29 the lanes grew to 626-648 s (an AMD EPYC, 2 cores: the scripts lane 646 s,
# the fuzzer 224-273 s, cli.sh 263 s), over ten minutes with the build (168 s), so, 2026-11-29:
# the fuzz target made 3x faster (no 128 KiB block mapped per create and no iterator array per
# system under ASan: 81 s for libFuzzer's 2,300 executions alone), cli.sh's check-build run and
# fixed-inner run in 2 processes instead of the default 32 that raced to the 270 s budget (cli.sh
# 263 s to about 112 s alone), the committed instruction baseline (scripts/instr.sh check, 115
# rows under callgrind) moved to the long lane, and the suites that call no make moved here from
# the scripts lane. make test then took 385 s (lanes 372 and 382 s; load 2 to 3.4, others'
# builds beside it) and 553 s with its build: too close to ten minutes, so libFuzzer's run from
# seed 1 (the corpus and 139 mutations, 109 s) moved to the long lane too, and make test replays
# the corpus under gcc's sanitizers (build/asan/fuzz_replay, every input and every check of the
# target, without libFuzzer's bookkeeping). The next clean clone (commit 371aa69, load 1.4 to
# 3.3, others' work beside it): 497 s, the build 160 s, make test: 337 s, the lanes' suites 294 s
# (programs) and 337 s (scripts), 2276 passed, 0 failed.
lane_programs() {
	lane=programs
	# under the sanitizers with 10,000 random operations per random test on profile A and the
	# larger scales, and on AAA (512 types: masks of many words) without its three slowest
	# kinds of test (lived-in, group, the failure tests: 83 s of CPU under ASan); the plain run
	# below runs everything at 20,000
	suite "conformance (ASan+UBSan)" asan build/asan/conformance --ops 10000 -/AA
	suite "conformance AAA (ASan+UBSan)" asan build/asan/conformance --ops 5000 /AAA \
		-lived-in -failure -group
	# the fuzz target on every input of the committed corpus (libFuzzer's runs from it, with
	# mutations: make check-long)
	suite "fuzz corpus replayed (ASan+UBSan)" asan build/asan/fuzz_replay tests/corpus/*
	# archetype.h and sparse.h with every hook empty: the machinery their variants share
	# stands alone (10,000 random operations a random test: the run above has more)
	suite "conformance (archetype and sparse with default hooks, a one-hook variant)" build/conformance-bare --ops 10000
	# memcheck on a reduced size: profile A, fewer random operations, and not the entity-limit
	# test (4 million entities would take minutes under valgrind) nor the larger scales' (ASan's
	# run has them; under valgrind they would take minutes too), nor the allocation-failure tests
	# (55% of its time, 128 s of CPU in all: what they find, a leak or a bad access on an error
	# path, the ASan run's LeakSanitizer finds too; memcheck is here for uninitialised reads)
	suite "conformance (valgrind memcheck)" valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=all --show-leak-kinds=all build/conformance --ops 2000 \
		-capacity -/AA -large -failure
	suite "scenario files (ASan+UBSan)" asan build/asan/scenario_file
	suite "scenario engine (ASan+UBSan)" asan build/asan/scenario_engine
	suite "parallel pass (ThreadSanitizer)" env TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
		build/tsan/parallel
	suite "parallel-iterate (ThreadSanitizer)" tests/parallel.sh
	# 20,000 random operations a random test (100,000 with --ops 100000: 83 s of CPU), without the
	# large-* tests, which the ASan run has (42 s with them, 29 s without, a quiet Xeon)
	suite conformance build/conformance --ops 20000 -large
	suite "scenario files" build/scenario_file
	suite "frame-time tails and growth" build/tails
	suite "the race's statistics" build/race
	suite "scenario engine" build/scenario_engine
	suite "figure text" tests/figure_text.sh
	suite stats tests/stats.sh
	suite "CSV columns" tests/columns.sh
	suite "tails and growth, end to end" tests/tails.sh
	suite "valgrind scripts" tests/valgrind_scripts.sh
	suite "google benchmark JSON" tests/gbench.sh
	suite "state a game is in" tests/state.sh
	suite links tests/links.sh
}

lane_scripts() {
	lane=scripts
	suite advise tests/advise.sh
	suite cli tests/cli.sh
	suite "scenario command line" tests/scenario_cli.sh
	suite figures tests/figures.sh
	suite report tests/report.sh
	suite machine tests/machine.sh
	suite history tests/history.sh
	suite "instruction counts" tests/instr.sh
	suite set-up tests/setup.sh
}

# --- make check-long (`run.sh --long`): the long lane, which .ci/run runs after make test --------
# What make test cut to fit its ten minutes, at the scales the large-* tests use, in two lanes
# (docs/running.md, "The long lane", has what they took):
#   the fuzzer under libFuzzer: 2,300 executions from seed 1 (the corpus's 2,161 inputs and 139
#   mutations, as make test ran it until 2026-11-29; make test now replays the corpus alone,
#   under gcc's sanitizers), then 6,000 from seed 2, so that some 3,800 are mutations;
#   LONG_FUZZ_RUNS and LONG_FUZZ_SEED change the second for a trial
#   memcheck with the large-* tests and the allocation-failure tests at 20,000 random operations
#   (make test's: 2,000, without either), profile A and the large tests' own (AA and AAA, and
#   the 4-million-entity capacity test, would take it past the lane's length under valgrind)
#   the committed instruction baseline (tests/instr.sh --long: scripts/instr.sh check, the
#   whole set under callgrind; make test checks the check itself on a part of the set)
#   in the other lane, the conformance suite under ASan+UBSan whole: every test on every
#   profile (AAA's lived-in, group and failure tests too) at 100,000 random operations a random
#   test (make test's: 10,000, AAA at 5,000 without those three) and the large model test
#   twice, the second to twice the live entities (--scale 2: 6,000 and 12,000); and memcheck
#   as above
# 2026-11-29, an AMD EPYC of 2 cores, load about 2 (others' builds beside it), commit 371aa69:
# make check-long: 359 s, 867 passed, 0 failed; lanes 359 s (seed 1's 2,300 executions 107 s,
# seed 2's 6,000 197 s, 770 s before the fuzz target was made faster, the instruction baseline
# 55 s) and 303 s (ASan+UBSan at scale 2 193 s, memcheck 110 s).
lane_long_fuzz() {
	lane=long_fuzz
	suite "fuzz (libFuzzer, fixed seed)" tests/fuzz.sh
	suite "fuzz, long (libFuzzer, fixed seed)" env FUZZ_RUNS="${LONG_FUZZ_RUNS:-6000}" \
		FUZZ_SEED="${LONG_FUZZ_SEED:-2}" tests/fuzz.sh
	suite "instruction counts, the committed baseline" tests/instr.sh --long
}

lane_long_checks() {
	lane=long_checks
	suite "conformance, whole, scale 2 (ASan+UBSan)" asan build/asan/conformance --ops 100000 \
		--scale 2
	suite "conformance with large-* and failure tests (valgrind memcheck)" valgrind -q \
		--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all --show-leak-kinds=all \
		build/conformance --ops 20000 -capacity -/AA
}

# One lane, as a shell of its own: `run.sh --lane DIR NAME`
if [ "${1:-}" = --lane ]; then
	"lane_$3"
	exit 0
fi
lanes="programs scripts" what="make test"
[ "${1:-}" = --long ] && lanes="long_fuzz long_checks" what="make check-long"
# Each lane a shell started with & (no job control: it would start with SIGINT and SIGQUIT
# ignored), so with their defaults restored: a suite sees the signals a serial run gave it
# (cli.sh's Ctrl-C test), and a Ctrl-C at the terminal stops the lanes with make test.
for l in $lanes; do
	env --default-signal=INT,QUIT sh tests/run.sh --lane "$dir" "$l" &
done
wait
total_passed=$(awk '{ s += $1 } END { print s + 0 }' "$dir/tally")
total_failed=$(awk '{ s += $2 } END { print s + 0 }' "$dir/tally")
echo "$what: $(($(date +%s) - start)) s"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
