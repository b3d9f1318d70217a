#!/bin/sh
# instr.sh: the instruction check (scripts/instr.sh, make instr) as make test runs it.
#   baseline     (instr.sh --long alone: make check-long, the long lane; the whole set under
#                callgrind, 115 rows: 51 s, 87 s of CPU, on 2 loaded cores) the committed baseline
#                (tests/instr-baseline.csv) against this build: no row grew by more than the
#                threshold (or, where the baseline was made with another compiler, flags,
#                valgrind, C library or pin of it, the check says it is not comparable and
#                passes: the counts of another build say nothing of a change of ours)
#   heavier      a build whose sparse operations do more (build/heavier/, -DECSB_TEST_HEAVIER)
#                against a baseline of this build made here: the check must fail, name sparse's
#                rows and no other backend's
#   same         two runs of the same build give the same counts (what the check rests on)
#   incomparable a baseline that says another compiler: exit 0, "NOT COMPARABLE"
#   bad input    an unknown workload, a threshold that is no number, a missing baseline: exit 2
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   instr/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL instr/$1: $2"; failed=$((failed + 1)); }

if [ "${1:-}" = --long ]; then
	scripts/instr.sh check >"$tmp/check.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'NOT COMPARABLE' "$tmp/check.txt"; then
		ok "baseline (not comparable here: not checked)"
		sed -n '2,/make instr-baseline/p' "$tmp/check.txt" | sed 's/^/     /'
	elif [ "$rc" -eq 0 ] && grep -q ' 0 grew beyond it' "$tmp/check.txt"; then
		ok baseline
		tail -n 1 "$tmp/check.txt" | sed 's/^/     /'
	else
		fail baseline "exit status $rc: $(grep -E 'GREW|instr.sh' "$tmp/check.txt" | head -n 20)"
	fi
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

# A part of the set, as a baseline of this build, then the heavier build against it.
part="-b sparse,vector -w create,get"
# shellcheck disable=SC2086 # $part: options, split on purpose
if scripts/instr.sh baseline $part -o "$tmp/part.csv" >"$tmp/b.log" 2>&1; then
	scripts/instr.sh check $part -c "$tmp/part.csv" >"$tmp/same.txt" 2>&1
	rc=$?
	rows=$(grep -c ' same$' "$tmp/same.txt")
	if [ "$rc" -eq 0 ] && [ "$rows" -eq 6 ]; then
		ok same
	else
		fail same "exit status $rc, $rows of 6 rows the same: $(head -c 1500 "$tmp/same.txt")"
	fi
	scripts/instr.sh check -x build/heavier/ecsbench $part -c "$tmp/part.csv" >"$tmp/heavy.txt" 2>&1
	rc=$?
	grew=$(grep -c ' GREW$' "$tmp/heavy.txt")
	others=$(grep ' GREW$' "$tmp/heavy.txt" | grep -vc '^sparse ')
	if [ "$rc" -eq 1 ] && [ "$grew" -eq 2 ] && [ "$others" -eq 0 ] && grep -q 'FAIL' "$tmp/heavy.txt"; then
		ok heavier
	else
		fail heavier "exit status $rc (expected 1), $grew rows grew, $others of other backends: $(head -c 1500 "$tmp/heavy.txt")"
	fi
	sed 's/^# identity compiler: gcc [^;]*/# identity compiler: gcc 0.0.1/' "$tmp/part.csv" >"$tmp/other.csv"
	scripts/instr.sh check -b sparse -w get -c "$tmp/other.csv" >"$tmp/other.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'NOT COMPARABLE' "$tmp/other.txt" && grep -q 'gcc 0.0.1' "$tmp/other.txt"; then
		ok incomparable
	else
		fail incomparable "exit status $rc: $(head -c 800 "$tmp/other.txt")"
	fi
else
	fail same "the baseline of a part could not be made: $(tail -n 5 "$tmp/b.log")"
fi

bad() { # bad NAME TEXT ARGS...: exit 2 and TEXT on stderr
	name=$1 text=$2
	shift 2
	scripts/instr.sh "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$text" "$tmp/err"; then
		ok "$name"
	else
		fail "$name" "exit status $rc, stderr: $(head -c 400 "$tmp/err")"
	fi
}
bad unknown-workload "'spin' is not a workload of the set" check -w spin
bad bad-threshold "threshold 'x' is not a percentage" check -t x
bad no-baseline "no baseline '$tmp/none.csv'" check -c "$tmp/none.csv"
bad unknown-mode "Usage" draw

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
