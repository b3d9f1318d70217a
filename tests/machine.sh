#!/bin/sh
# machine.sh: what a run records of the machine's state and what the tools make of it
# (harness/core/machine.h). Correctness, never a time: the figures' values are not checked, only that
# they are there, parse, and lead to the right words. Ends with "N passed, N failed".
#   header-*       a small real run's CSV has the `# machine` lines (fingerprint, during the run,
#                  values), every value parses as a number (or nan where not measured), the
#                  fingerprint's are positive; its samples file has a line per process, each with
#                  every key; --processes 1 (measured in the driver itself) has its one line
#   same-run       a CSV compared with itself: the machine states agree (x1.00)
#   older-*        a CSV without the lines (an older ecsbench): "not recorded" in make compare,
#                  --machine and --repeat, never a false "differs" or "agrees" from nothing
#   differ-*       two synthetic CSVs whose fingerprints differ (stream x3, chase x1): make compare
#                  says "Machine state: differs" on its screen (short) and in its full report
#                  (compare.txt), its verdicts.csv carries it for the figures' titles, --machine
#                  exits 1; and none when they agree (stream and chase x3 both: the machine
#                  slower as a whole, its balance kept)
#   floors-*       CSVs without the lines fall back on their floor rows (iterate's and get's at
#                  N >= 2^18): moved apart, "differs"; together, "agrees"; only at small N, nothing
#   repeat-machine ecsbench-compare --repeat names the machine state beside its coverage
#   report-machine make report over two CSVs has the machine-state section, linked from its nav
set -u
cd "$(dirname "$0")/.." || exit 1
bin=${ECSBENCH:-build/ecsbench}
cmp_bin=${ECSBENCH_COMPARE:-build/ecsbench-compare}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   machine/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL machine/$1: $2"; failed=$((failed + 1)); }
check() {
	name=$1 why=$2
	shift 2
	if "$@" >"$tmp/check.out" 2>&1; then ok "$name"; else fail "$name" "$why"; fi
}

run() { # run FILE [ARGS]: a small real run
	f=$1
	shift
	"$bin" --profile A --workloads iterate,get --backends vector,archetype --entities 1024 \
		--components 1 --reps 2 --inner 1 --output "$f" "$@" >"$tmp/run.log" 2>&1
}
if ! run "$tmp/a.csv" --processes 2 || ! run "$tmp/one.csv" --processes 1; then
	fail small-runs "build/ecsbench failed: $(tail -n 3 "$tmp/run.log")"
	echo "$passed passed, $failed failed"
	exit 1
fi

# --- the header lines -----------------------------------------------------------------------
for line in fingerprint "during the run" values; do
	check "header-$(echo "$line" | tr ' ' -)" "no '# machine $line' line in the CSV" \
		grep -q "^# machine $line" "$tmp/a.csv"
done
# values: every word key=number (nan where a figure was not measured)
values_parse() {
	sed -n 's/^# machine values //p' "$1" | awk '
		{ for (i = 1; i <= NF; i++) {
			if ($i !~ /^[a-z_]+=(-?[0-9.]+(e[-+]?[0-9]+)?|-?nan)$/) { print "not key=number: " $i; bad = 1 }
			split($i, kv, "="); v[kv[1]] = kv[2] } }
		END {
			if (NR != 1) { print NR " values lines"; exit 1 }
			split("processes stream_ns stream_low stream_high stream_sd chase_ns chase_low chase_high chase_sd skew_sd steal_pct cpu_steal_pct others_pct load_start load_end running_max fingerprint_ms", need, " ")
			for (i in need) if (!(need[i] in v)) { print "no " need[i]; bad = 1 }
			if (v["stream_ns"] + 0 <= 0 || v["chase_ns"] + 0 <= 0) { print "fingerprint not positive"; bad = 1 }
			exit bad }'
}
check header-values-parse "the values line does not parse: $(values_parse "$tmp/a.csv")" values_parse "$tmp/a.csv"
check header-values-processes "the values line does not count 2 processes" \
	grep -q '^# machine values processes=2 ' "$tmp/a.csv"
# the samples file: a line per process, every key, the process numbers 1 and 2
process_lines() { # process_lines SAMPLES P
	awk -v P="$2" '
		/^# machine process=/ {
			n++
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			split("process cpu stream_ns chase_ns fingerprint_ms seconds steal_pct cpu_steal_pct busy_pct own_pct others_pct load_start load_end running_start running_end busiest", need, " ")
			for (i in need) if (!(need[i] in v)) { print "line " n ": no " need[i]; bad = 1 }
			if (v["process"] != n) { print "line " n " is process " v["process"]; bad = 1 }
			delete v
		}
		END { if (n != P) { print n " process lines, expected " P; bad = 1 } exit bad }' "$1"
}
check header-samples-per-process "$(process_lines "$tmp/a-samples.csv" 2)" process_lines "$tmp/a-samples.csv" 2
check header-csv-no-process-lines "the CSV itself has per-process lines (they belong in the samples file)" \
	sh -c "! grep -q '^# machine process=' '$tmp/a.csv'"
check header-one-process "$(process_lines "$tmp/one-samples.csv" 1)" process_lines "$tmp/one-samples.csv" 1
check header-one-process-values "--processes 1: the values line does not parse: $(values_parse "$tmp/one.csv")" \
	values_parse "$tmp/one.csv"

"$cmp_bin" --machine "$tmp/a.csv" "$tmp/a.csv" >"$tmp/self.out" 2>&1
rc=$?
check same-run "a run against itself: exit $rc, $(head -n 1 "$tmp/self.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Machine state: agrees: stream over chase moved x1.00' '$tmp/self.out'"

# --- a CSV without the lines ------------------------------------------------------------------
strip() { grep -v '^# machine' "$1" >"$2"; grep -v '^# machine' "${1%.csv}-samples.csv" >"${2%.csv}-samples.csv"; }
strip "$tmp/a.csv" "$tmp/older.csv"
"$cmp_bin" --machine "$tmp/older.csv" "$tmp/a.csv" >"$tmp/older.out" 2>&1
rc=$?
check older-machine "an older OLD: exit $rc, $(head -n 1 "$tmp/older.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Machine state: not recorded in OLD' '$tmp/older.out' && grep -q '^  OLD: not recorded' '$tmp/older.out'"
"$cmp_bin" --machine "$tmp/a.csv" "$tmp/older.csv" >"$tmp/older2.out" 2>&1
check older-new "an older NEW: $(head -n 1 "$tmp/older2.out")" grep -q '^Machine state: not recorded in NEW' "$tmp/older2.out"
make -s --no-print-directory compare OLD="$tmp/older.csv" NEW="$tmp/a.csv" >"$tmp/older-compare.out" 2>"$tmp/older-compare.err"
rc=$?
check older-compare "make compare with an older OLD: exit $rc, $(grep -A 1 '^Machine' "$tmp/older-compare.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Machine state: not recorded in OLD' '$tmp/older-compare.out' && grep -q '^Verdicts: ' '$tmp/older-compare.out' &&
		grep -q '^  other work on the measuring CPU: OLD not recorded, NEW ' '$tmp/older-compare.out' &&
		grep -q '^Machine state: not recorded in OLD' '$tmp/a-compare/compare.txt' && grep -q '^  OLD: not recorded' '$tmp/a-compare/compare.txt'"
check older-compare-title "verdicts.csv does not carry 'not recorded' for the figures" \
	grep -q '^# machine machine state not recorded in OLD' "$tmp/a-compare/verdicts.csv"
"$cmp_bin" --repeat "$tmp/older.csv" "$tmp/older.csv" >"$tmp/older-repeat.out" 2>&1
check older-repeat "--repeat of two older CSVs: $(head -n 3 "$tmp/older-repeat.out")" \
	grep -q '^Machine state: not recorded in either run' "$tmp/older-repeat.out"

# --- synthetic fingerprints -------------------------------------------------------------------
# with_fingerprint SRC DST STREAM CHASE: SRC's run with its fingerprint set to these values (one
# process-to-process spread kept), so that the comparison of two files is known in advance.
with_fingerprint() {
	awk -v s="$3" -v c="$4" '
		/^# machine values / {
			for (i = 4; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "stream_ns") $i = "stream_ns=" s
				else if (kv[1] == "chase_ns") $i = "chase_ns=" c
				else if (kv[1] ~ /_sd$/) $i = kv[1] "=0.05"
				else if (kv[1] == "processes") $i = "processes=5"
			}
		}
		{ print }' "$1" >"$2"
	cp "${1%.csv}-samples.csv" "${2%.csv}-samples.csv"
}
mkdir -p "$tmp/syn"
with_fingerprint "$tmp/a.csv" "$tmp/syn/old.csv" 0.3 150
with_fingerprint "$tmp/a.csv" "$tmp/syn/differ.csv" 0.9 150
with_fingerprint "$tmp/a.csv" "$tmp/syn/slower.csv" 0.9 450
make -s --no-print-directory compare OLD="$tmp/syn/old.csv" NEW="$tmp/syn/differ.csv" >"$tmp/differ.out" 2>"$tmp/differ.err"
rc=$?
check differ-compare "make compare, stream x3 and chase x1: exit $rc, $(grep -A 1 '^Machine' "$tmp/differ.out")" \
	sh -c "[ $rc -eq 0 ] && tr '\n' ' ' <'$tmp/differ.out' | sed 's/  */ /g' |
			grep -q 'Machine state: differs: stream x3.00, chase x1.00 (stream/chase x3.00, limit x1.35): streaming-to-lookup ratios do not carry' &&
		grep -q '^Machine state: differs: stream over chase moved x3.00 .* (stream x3.00, chase x1.00)' '$tmp/syn/differ-compare/compare.txt' &&
		grep -q 'cannot be carried' '$tmp/syn/differ-compare/compare.txt'"
check differ-figures "the figures' verdicts.csv does not say the states differ" \
	grep -q '^# machine machine state differs: stream x3.00, chase x1.00' "$tmp/syn/differ-compare/verdicts.csv"
"$cmp_bin" --machine "$tmp/syn/old.csv" "$tmp/syn/differ.csv" >"$tmp/differ-machine.out" 2>&1
rc=$?
check differ-exit "--machine on differing states: exit $rc, expected 1" [ "$rc" -eq 1 ]
make -s --no-print-directory compare OLD="$tmp/syn/old.csv" NEW="$tmp/syn/slower.csv" >"$tmp/agree.out" 2>"$tmp/agree.err"
rc=$?
check agree-compare "make compare, stream and chase x3: exit $rc, $(grep '^Machine' "$tmp/agree.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Machine state: agrees: stream x3.00, chase x3.00 (stream/chase x1.00, limit x1.35)' '$tmp/agree.out' &&
		! grep -q 'differs' '$tmp/agree.out' &&
		grep -q '^Machine state: agrees: stream over chase moved x1.00' '$tmp/syn/slower-compare/compare.txt' &&
		! grep -q 'differs' '$tmp/syn/slower-compare/compare.txt'"
check agree-figures "the figures' verdicts.csv does not say the states agree" \
	grep -q '^# machine machine state agrees' "$tmp/syn/slower-compare/verdicts.csv"

# --- the floor rows instead ---------------------------------------------------------------------
# floors FILE ITERATE GET: a CSV of an older ecsbench (no machine lines) whose floor rows of
# iterate and get at N = 2^18 take these ns an entity (and a backend row beside each).
floors() {
	{
		echo "# ecsbench commit fixture"
		echo "backend,profile,workload,entities,components,threads,processes,reps,median_ns,ci_low_ns,ci_high_ns,noisy"
		for w in iterate get; do
			v=$2
			[ "$w" = iterate ] || v=$3
			for b in vector floor; do
				awk -v w="$w" -v b="$b" -v v="$v" 'BEGIN { n = 262144; m = v * n * (b == "floor" ? 1 : 3)
					printf "%s,A,%s,%d,2,1,5,3,%.1f,%.1f,%.1f,0\n", b, w, n, m, m * 0.95, m * 1.05 }'
			done
		done
	} >"$1"
}
floors "$tmp/f-old.csv" 0.5 10
floors "$tmp/f-apart.csv" 0.17 10
floors "$tmp/f-together.csv" 0.55 11
"$cmp_bin" --machine "$tmp/f-old.csv" "$tmp/f-apart.csv" >"$tmp/f1.out" 2>&1
rc=$?
check floors-differ "floors of iterate x0.34 and get x1: exit $rc, $(head -n 1 "$tmp/f1.out")" \
	sh -c "[ $rc -eq 1 ] && grep -q '^Machine state: not recorded in either run .*the floor rows both have say it differs' '$tmp/f1.out'"
"$cmp_bin" --machine "$tmp/f-old.csv" "$tmp/f-together.csv" >"$tmp/f2.out" 2>&1
rc=$?
check floors-agree "floors of iterate and get x1.1 both: exit $rc, $(head -n 1 "$tmp/f2.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q 'the floor rows both have say it agrees' '$tmp/f2.out'"
sed 's/,262144,/,1024,/' "$tmp/f-old.csv" >"$tmp/f-small-old.csv"
sed 's/,262144,/,1024,/' "$tmp/f-apart.csv" >"$tmp/f-small-apart.csv"
"$cmp_bin" --machine "$tmp/f-small-old.csv" "$tmp/f-small-apart.csv" >"$tmp/f3.out" 2>&1
rc=$?
check floors-small "floors at N = 1024 only (in the caches): exit $rc, $(head -n 1 "$tmp/f3.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q 'nothing tells' '$tmp/f3.out'"

# --- --repeat and the report -----------------------------------------------------------------
cp "$tmp/a-samples.csv" "$tmp/a2-samples.csv"
cp "$tmp/a.csv" "$tmp/a2.csv"
"$cmp_bin" --repeat "$tmp/a.csv" "$tmp/a2.csv" >"$tmp/repeat.out" 2>&1
check repeat-machine "--repeat does not name the machine state beside its coverage: $(head -n 3 "$tmp/repeat.out")" \
	sh -c "grep -q '^Machine state: agrees' '$tmp/repeat.out' && grep -q '^(b) coverage' '$tmp/repeat.out'"
scripts/report.sh -o "$tmp/syn/page.html" -p "$tmp/syn/none" "$tmp/syn/old.csv" "$tmp/syn/differ.csv" >"$tmp/report.out" 2>"$tmp/report.err"
rc=$?
check report-machine "make report over two runs: exit $rc, $(tail -n 2 "$tmp/report.err")" \
	sh -c "[ $rc -eq 0 ] && grep -q '<h2 id=\"machine\">' '$tmp/syn/page.html' && grep -q 'href=\"#machine\"' '$tmp/syn/page.html' && grep -q 'Machine state: differs' '$tmp/syn/page.html'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
