#!/bin/sh
# fuzz.sh: the fuzz target (tests/fuzz.c: every backend beside its reference model, libFuzzer
# with ASan and UBSan) for a fixed number of executions from a fixed seed, so that make test
# finds what a short `make fuzz` would, and two runs do the same executions. It starts from the
# committed corpus, tests/corpus, which it reads and never writes (checked); what it makes (the
# new inputs, a failing input, its log) goes to build/fuzz/test/, emptied first. The executions
# count the corpus's inputs, each run once, then the mutations.
# FUZZ_RUNS and FUZZ_SEED change the two for a trial. Ends with "N passed, N failed".
set -u
bin=${ECSBENCH_FUZZ:-build/fuzz/fuzz}
runs=${FUZZ_RUNS:-2300}
seed=${FUZZ_SEED:-1}
out=build/fuzz/test
passed=0
failed=0
ok() { echo "ok   fuzz/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL fuzz/$1: $2"; failed=$((failed + 1)); }

# The corpus as one checksum: every file's name and bytes.
corpus_sum() { (cd tests/corpus && find . -type f | LC_ALL=C sort | xargs cat -- | cksum && ls -a) | cksum; }

rm -rf "$out"
mkdir -p "$out/corpus" "$out/artifacts"
before=$(corpus_sum)
start=$(date +%s)
# Two runs with one seed do the same executions only with these: -use_cmp=0 -use_memmem=0,
# as libFuzzer would otherwise feed the operands of the target's comparisons back into its
# mutations, addresses among them, which differ from one process to the next (two runs parted
# after about 2,300 executions); the input is a list of operations picked by byte values modulo
# small counts, where such an operand is of little use. -reload=0, as it would otherwise read
# its output folder again every second, for inputs of other processes, at a time-dependent
# point (two runs parted after about 5,800).
"$bin" -seed="$seed" -runs="$runs" -max_len=512 -timeout=60 -reload=0 -use_cmp=0 -use_memmem=0 \
	-print_final_stats=1 -artifact_prefix="$out/artifacts/" "$out/corpus" tests/corpus \
	>"$out/log" 2>&1
rc=$?
seconds=$(($(date +%s) - start))
done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
name="seed-$seed-runs-$runs"
if [ "$rc" -ne 0 ]; then
	fail "$name" "exit status $rc; the input: $(ls "$out"/artifacts/* 2>/dev/null | tr '\n' ' ')(replay: $bin FILE); the end of $out/log:"
	grep -E '^fuzz: |ERROR: |SUMMARY: ' "$out/log" | head -n 20
elif [ "$done_runs" != "$runs" ]; then
	fail "$name" "$done_runs executions, expected $runs (see $out/log)"
else
	ok "$name"
fi
inited=$(sed -n 's/^#\([0-9]*\)[[:space:]]*INITED.*/\1/p' "$out/log")
echo "note fuzz: ${done_runs:-?} executions from seed $seed in $seconds s (the first ${inited:-?}: an empty input and the corpus's); $(ls "$out/corpus" | wc -l) new inputs in $out/corpus"
if [ "$(corpus_sum)" = "$before" ]; then
	ok corpus-untouched
else
	fail corpus-untouched "the run changed tests/corpus"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
