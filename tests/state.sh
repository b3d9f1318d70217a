#!/bin/sh
# state.sh: the state a game is in (harness/sweep/state.h, docs/method.md#the-state-a-game-is-in).
# With the check build (build/check/, which can break a rule where ECSB_BREAK_RULE names it):
# creation under the default history takes recycled indices on every backend (the first
# process's check passes on every row of create, create-batch, create-unreserved and churn);
# each rule broken (creation into an empty storage, add-remove in creation order, the profile's
# other systems over other types, the old sparse mark on Velocity) fails every backend's row
# with a message that names the rule, and the run with status 1; the labelled history
# (pristine) keeps its empty storage without failing. Small runs: N = 256, one process, one
# sample. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=${ECSBENCH_CHECK:-build/check/ecsbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   state/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL state/$1: $2"; failed=$((failed + 1)); }

backends=$("$bin" --list | sed -n '/^backends:/,/^workloads/p' | grep -c '^  ')

# run NAME RULE ARGS...: the check build on small cases, RULE broken ('' for none)
run() {
	name=$1 rule=$2
	shift 2
	ECSB_BREAK_RULE=$rule "$bin" --entities 256 --components 2 --processes 1 --reps 1 \
		--no-pin --output "$tmp/$name.csv" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
}

# Every backend's rows of the workloads listed ran, with no failure.
run recycled '' --workloads create,create-batch,create-unreserved,churn
rc=$?
rows=$(grep -v '^#' "$tmp/recycled.csv" 2>/dev/null | tail -n +2 | grep -vc '^floor,')
if [ "$rc" -eq 0 ] && [ "$rows" -eq $((4 * backends)) ] && ! grep -q 'failed in process' "$tmp/recycled.err"; then
	ok recycled-on-every-backend
else
	fail recycled-on-every-backend "exit $rc, $rows backend rows: $(grep failed "$tmp/recycled.err" | head -n 2)"
fi

# broken NAME RULE TEXT WORKLOAD: exit 1, and every backend's row failed with TEXT and the rule
broken() {
	name=$1 rule=$2 text=$3 workload=$4
	run "$name" "$rule" --workloads "$workload"
	rc=$?
	n=$(grep "failed in process 1: .*$text.*(rule '$rule', docs/method.md#the-state-a-game-is-in)" \
		"$tmp/$name.err" | grep -c " $workload N=256 ")
	if [ "$rc" -eq 1 ] && [ "$n" -eq "$backends" ]; then
		ok "$name"
	else
		fail "$name" "exit $rc, $n of $backends rows failed as expected: $(grep -v '^ecsbench: \[' "$tmp/$name.err" | head -n 3)"
	fi
}
broken created-empty-storage created "0 of 256 created took a recycled index" create
broken ordered-visits order "neighbours one index apart" add-remove
broken unshared-systems shared "shares type 0 with 0 others" iterate
broken sparse-mark-walked marks "type 1 is marked sparse but the measured pass walks it" iterate

# A labelled history keeps its best case: create into an empty storage under pristine.
run pristine created --workloads create --history pristine
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q 'failed in process' "$tmp/pristine.err"; then
	ok pristine-labelled
else
	fail pristine-labelled "exit $rc: $(grep failed "$tmp/pristine.err" | head -n 2)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
