#!/bin/sh
# run.sh: every test suite, each ending with its own "N passed, N failed" line, then the sum of
# them all as the last line (what CI reads). Exit status 1 if anything failed or a suite crashed.
#   build/conformance        the conformance suite, every backend, every test
#   build/asan/conformance   the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   build/asan/fuzz_replay   the fuzz target over the committed corpus (tests/corpus)
#   tests/fuzz.sh            the fuzz target under libFuzzer (clang, ASan+UBSan): from the
#                            corpus, a fixed seed and number of executions, every backend
#                            beside its model; what it makes goes to build/fuzz/test/
#   valgrind build/conformance   the suite, reduced, under memcheck: no error, no leak
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
#   tests/advise.sh          the advisor (--advise, make advise) on tiny scenarios: bad input, a
#                            known best design found and confirmed, the advised file's checksum,
#                            SIGTERM keeps the steps done, every sanity warning, its figure
#   tests/cli.sh             build/ecsbench's and make's command lines: bad input, a good run,
#                            SIGINT, previous results kept, one run at a time, a full disk
#   tests/tails.sh           the frame-time tails and growth frames of real scenario runs, the
#                            answer's tails, the trace, create-unreserved's blocks and figure
#   tests/figures.sh         the figure and table scripts on synthetic files (gnuplot, no valgrind)
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
set -u
cd "$(dirname "$0")/.." || exit 1
total_passed=0
total_failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() {
	name=$1
	shift
	echo "== $name"
	"$@" >"$log" 2>&1
	rc=$?
	grep -v '^ok ' "$log"
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
# under the sanitizers with 40,000 random operations per random test, not 100,000: seven
# backends and the batches' tests made the full count 70 s of make test (the plain run above
# keeps it)
suite "conformance (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/conformance --ops 40000
suite "fuzz corpus replay (ASan+UBSan)" sh -c 'build/asan/fuzz_replay tests/corpus/*'
suite "fuzz (libFuzzer, fixed seed)" tests/fuzz.sh
# memcheck on a reduced size: profile A, fewer random operations, and not the entity-limit test
# (4 million entities would take minutes under valgrind)
suite "conformance (valgrind memcheck)" valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=all --show-leak-kinds=all build/conformance --ops 3000 -capacity \
	-/AA
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
suite advise tests/advise.sh
suite "tails and growth, end to end" tests/tails.sh
suite figures tests/figures.sh
suite report tests/report.sh
suite stats tests/stats.sh
suite machine tests/machine.sh
suite "valgrind scripts" tests/valgrind_scripts.sh
suite "google benchmark JSON" tests/gbench.sh
suite history tests/history.sh
suite "instruction counts" tests/instr.sh
suite links tests/links.sh

echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
