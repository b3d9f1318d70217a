#!/bin/sh
# columns.sh: the workload sweep's CSV columns come from one table (harness/sweep/sweep_columns.c).
# `build/ecsbench --columns` lists every column once, each with its meaning; docs/csv.md's table
# names exactly those columns in that order (a row of the table may name several, in order); a
# tiny run's header row is those names, and each of its rows has one field per column;
# build/ecsbench-compare reads the run back; --columns with a stray argument or an unknown
# option is refused (exit 2) with one line, as every bad command line is.
# make test runs it (tests/run.sh); alone, from the top, after make build/ecsbench
# build/ecsbench-compare:
#   tests/columns.sh
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=${ECSBENCH:-build/ecsbench}
compare=${ECSBENCH_COMPARE:-build/ecsbench-compare}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   columns/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL columns/$1: $2"; failed=$((failed + 1)); }

# --columns: a line a column, its name then its meaning; no name twice, no meaning missing
if "$bin" --columns >"$tmp/columns.out" 2>"$tmp/columns.err"; then
	awk '{ print $1 }' "$tmp/columns.out" >"$tmp/names"
	count=$(wc -l <"$tmp/names")
	unique=$(sort -u "$tmp/names" | wc -l)
	bare=$(awk 'NF < 2' "$tmp/columns.out" | wc -l)
	if [ "$count" -gt 0 ] && [ "$count" -eq "$unique" ] && [ "$bare" -eq 0 ] && [ ! -s "$tmp/columns.err" ]; then
		ok listed
	else
		fail listed "$count names, $unique distinct, $bare without a meaning: $(head -c 200 "$tmp/columns.err")"
	fi
else
	fail listed "exit status $?: $(head -c 200 "$tmp/columns.err")"
	: >"$tmp/names"
fi

# docs/csv.md: the names in the first cell of each row of its table of columns, in order
awk '/^\| column \| meaning \|/ { table = 1; next }
	table && /^\| ---/ { next }
	table && /^\|/ { split($0, cell, "|"); print cell[2]; next }
	table { exit }' docs/csv.md | grep -o '`[^`]*`' | tr -d '`' >"$tmp/documented"
if [ -s "$tmp/names" ] && cmp -s "$tmp/names" "$tmp/documented"; then
	ok documented-in-order
else
	fail documented-in-order "docs/csv.md's table against --columns (< docs, > the table):
$(diff "$tmp/documented" "$tmp/names" | grep '^[<>]' | head -n 10)"
fi

# A tiny run: its header row is the table's names; every row has a field per column
if "$bin" --profile A --backends sparse --workloads iterate,create --entities 1024 \
	--components 1 --processes 1 --reps 1 --no-pin --output "$tmp/run.csv" \
	>"$tmp/run.out" 2>"$tmp/run.err"; then
	header=$(grep -v '^#' "$tmp/run.csv" | head -n 1)
	want=$(paste -sd, "$tmp/names")
	rows=$(grep -v '^#' "$tmp/run.csv" | tail -n +2 | wc -l)
	short=$(grep -v '^#' "$tmp/run.csv" | tail -n +2 | awk -F, -v n="$count" 'NF != n' | wc -l)
	if [ "$header" = "$want" ] && [ "$rows" -gt 0 ] && [ "$short" -eq 0 ]; then
		ok header-and-rows
	else
		fail header-and-rows "header $([ "$header" = "$want" ] && echo matches || echo differs), $rows rows, $short of them without $count fields"
	fi
	# the reader finds the table's columns by their names (a compare of the run with itself)
	if "$compare" "$tmp/run.csv" "$tmp/run.csv" >"$tmp/compare.out" 2>"$tmp/compare.err"; then
		ok read-back
	else
		fail read-back "exit status $?: $(head -c 300 "$tmp/compare.err")"
	fi
else
	fail header-and-rows "the run failed: $(tail -n 3 "$tmp/run.err")"
fi

# Bad input: a stray argument, or an unknown option beside it, is refused before anything runs
for args in "--columns extra" "--columns --colums"; do
	# shellcheck disable=SC2086 # the words of args are the arguments
	"$bin" $args >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ]; then
		ok "refused: $args"
	else
		fail "refused: $args" "exit status $rc, $(wc -l <"$tmp/bad.err") lines on stderr, $(wc -c <"$tmp/bad.out") bytes on stdout"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
