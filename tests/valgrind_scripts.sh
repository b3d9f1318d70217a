#!/bin/sh
# valgrind_scripts.sh: the valgrind scripts end to end, on the tiniest real cases, into a
# temporary folder: scripts/cachegrind.sh (make cachegrind) writes a row per case with data
# references and misses counted, the floor's (--floor-alone) among them; scripts/profile.sh (make profile) writes a report naming the
# backend's functions; scripts/callgrind-pair.sh prints the backend's line and the floor's. Each
# runs build/cachegrind/ecsbench under valgrind in one process (a measuring child process would
# run outside valgrind and count nothing). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   valgrind-scripts/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL valgrind-scripts/$1: $2"; failed=$((failed + 1)); }

if scripts/cachegrind.sh -b sparse,archetype -w iterate -n 1024 -k 1 -o "$tmp/cg.csv" \
	>"$tmp/cg.log" 2>&1; then
	rows=$(grep -v '^#' "$tmp/cg.csv" | tail -n +2 | wc -l)
	col=$(grep -v '^#' "$tmp/cg.csv" | head -n 1 | tr ',' '\n' | grep -nx 'd_refs' | cut -d: -f1)
	zero=$(grep -v '^#' "$tmp/cg.csv" | tail -n +2 | awk -F, -v c="${col:-0}" '!($c > 0)' | wc -l)
	floors=$(grep -c ',floor,A,' "$tmp/cg.csv")
	if [ "$rows" -eq 3 ] && [ "$floors" -eq 1 ] && [ -n "$col" ] && [ "$zero" -eq 0 ]; then
		ok cachegrind
	else
		fail cachegrind "$rows rows ($floors of the floor), d_refs column '${col}', $zero rows without data references"
	fi
else
	fail cachegrind "exit status $?: $(grep -v '==' "$tmp/cg.log" | tail -n 5)"
fi

if scripts/profile.sh -b sparse -w iterate -n 1024 -k 1 -o "$tmp/profile.txt" >"$tmp/p.log" 2>&1 &&
	grep -q 'sparse_system_iter_next' "$tmp/profile.txt"; then
	ok profile
else
	fail profile "$(tail -n 5 "$tmp/p.log" "$tmp/profile.txt" 2>&1)"
fi

if scripts/callgrind-pair.sh sparse iterate 1024 1 A >"$tmp/pair.txt" 2>&1 &&
	[ "$(awk '$5 > 0' "$tmp/pair.txt" | wc -l)" -eq 2 ] && grep -q '^A  *floor ' "$tmp/pair.txt"; then
	ok callgrind-pair
else
	fail callgrind-pair "$(head -c 600 "$tmp/pair.txt")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
