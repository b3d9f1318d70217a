#!/bin/sh
# run.sh: every test suite, each ending with its own "N passed, N failed" line, then the sum of
# them all as the last line (what CI reads). Exit status 1 if anything failed or a suite crashed.
#   build/conformance        the conformance suite, every backend, every test; its large-* tests
#                            (thousands of live entities, batches of thousands, 4 KiB values)
#                            with ECSB_TEST_SCALE=N runs of the model test (make test
#                            TEST_SCALE=N; default 1)
#   build/asan/conformance   the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   build/conformance-bare   the suite on archetype.h and sparse.h with every hook empty
#                            (tests/bare_*.c): the shared machinery without its variants
#   build/asan/fuzz_replay   the fuzz target over the committed corpus (tests/corpus)
#   tests/fuzz.sh            the fuzz target under libFuzzer (clang, ASan+UBSan): from the
#                            corpus, a fixed seed and number of executions, every backend
#                            beside its model; what it makes goes to build/fuzz/test/
#   valgrind build/conformance   the suite, reduced (no large-* tests), under memcheck: no error,
#                            no leak
#   build/scenario_file      scenario files: the shipped ones, good and bad files, overrides
#   build/asan/scenario_file the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   build/tails              the frame-time tails (p95, p99, max across processes) and the
#                            growth frames, on known data and scripted allocations
#   build/scenario_engine    the scenario engine: shipped scenarios agree on every backend, the
#                            floor and the harness; deferred despawns; determinism
#   build/asan/scenario_engine  the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   tests/scenario_cli.sh    build/ecsbench --scenario and --sweep: bad input, short runs of every
#                            shipped scenario whose checksums agree, a sweep, the check build
#   build/tsan/parallel      the parallel pass on every backend under ThreadSanitizer
#   tests/parallel.sh        a short parallel-iterate run of the harness under ThreadSanitizer
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
#   tests/history.sh         make track and make history: two runs appended and drawn, a run
#                            made slower marked so, the same run or another CPU's refused
#   tests/instr.sh           the instruction check (make instr): the committed baseline holds,
#                            a build with a heavier backend fails it, not-comparable builds say so
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
total_passed=0
total_failed=0
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log" "$log.times" "$log.cpu0" "$log.cpu1"' EXIT

# the CPU seconds (user + system) every child so far has used, from the shell's `times` (into a
# file: in a pipe or $(...) it would be a subshell's, without children)
children_cpu() {
	times >"$log.times"
	tail -n 1 "$log.times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.1f", t }'
}

# each suite's own time, wall and CPU, after its output: what make test's 10 minutes go on
suite() {
	name=$1
	shift
	echo "== $name"
	wall0=$(date +%s)
	children_cpu >"$log.cpu0"
	"$@" >"$log" 2>&1
	rc=$?
	wall=$(($(date +%s) - wall0))
	children_cpu >"$log.cpu1"
	cpu=$(awk 'NR == FNR { c0 = $1; next } { printf "%.0f", $1 - c0 }' "$log.cpu0" "$log.cpu1")
	grep -v '^ok ' "$log"
	echo "-- $name: $wall s, $cpu s of CPU"
	# the last summary line (a sanitizer's report at exit may follow it)
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then # crashed before its summary: count the suite as one failure
		echo "FAIL $name: exit status $rc without a summary"
		p=0 f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exit status $rc"
		f=1
	fi
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + f))
}

suite conformance build/conformance
# archetype.h and sparse.h with every hook empty: the machinery its variants share stands alone
# (20,000 random operations per random test, not 100,000: the plain run above has them)
suite "conformance (hook-less archetype.h and sparse.h)" build/conformance-bare --ops 20000
# under the sanitizers with 40,000 random operations per random test, not 100,000: seven
# backends and the batches' tests made the full count 70 s of make test (the plain run above
# keeps it)
suite "conformance (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/conformance --ops 40000
suite "fuzz corpus replay (ASan+UBSan)" sh -c 'build/asan/fuzz_replay tests/corpus/*'
suite "fuzz (libFuzzer, fixed seed)" tests/fuzz.sh
# memcheck on a reduced size: profile A, fewer random operations, and not the entity-limit test
# (4 million entities would take minutes under valgrind) nor the larger scales' (ASan's run
# has them; under valgrind they would take minutes too)
suite "conformance (valgrind memcheck)" valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=all --show-leak-kinds=all build/conformance --ops 3000 -capacity \
	-/AA -large
suite "scenario files" build/scenario_file
suite "scenario files (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/scenario_file
suite "frame-time tails and growth" build/tails
suite "scenario engine" build/scenario_engine
suite "scenario engine (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/scenario_engine
suite "parallel pass (ThreadSanitizer)" env TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
	build/tsan/parallel
suite "parallel-iterate (ThreadSanitizer)" tests/parallel.sh
suite cli tests/cli.sh
suite "scenario command line" tests/scenario_cli.sh
suite "tails and growth, end to end" tests/tails.sh
suite figures tests/figures.sh
suite "figure text" tests/figure_text.sh
suite report tests/report.sh
suite stats tests/stats.sh
suite machine tests/machine.sh
suite "valgrind scripts" tests/valgrind_scripts.sh
suite "google benchmark JSON" tests/gbench.sh
suite history tests/history.sh
suite "instruction counts" tests/instr.sh
suite links tests/links.sh
suite set-up tests/setup.sh

echo "make test: $(($(date +%s) - start)) s"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
