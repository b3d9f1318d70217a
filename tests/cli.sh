#!/bin/sh
# cli.sh: build/ecsbench from the outside. Bad input must give exit status 2, a one-line message
# that names the bad value, and leave every results file as it was; a good run must write a CSV
# whose rows agree on their checksums; an interrupted run must leave the old CSV in place.
# Ends with "N passed, N failed".
set -u
bin=${ECSBENCH:-build/ecsbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   cli/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL cli/$1: $2"; failed=$((failed + 1)); }

out="$tmp/out.csv"
echo "previous results" > "$out"
want=$(cat "$out")

# bad NAME EXPECTED-TEXT ARGS...: exit 2, one line on stderr containing EXPECTED-TEXT, the
# output file untouched and no temporary file left beside it.
bad() {
	name=$1 text=$2
	shift 2
	"$bin" --output "$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	lines=$(wc -l <"$tmp/stderr")
	if [ "$rc" -ne 2 ]; then
		fail "$name" "exit status $rc, expected 2"
	elif [ "$lines" -ne 1 ]; then
		fail "$name" "$lines lines on stderr, expected 1: $(cat "$tmp/stderr")"
	elif ! grep -qF -- "$text" "$tmp/stderr"; then
		fail "$name" "message does not say '$text': $(cat "$tmp/stderr")"
	elif [ "$(cat "$out")" != "$want" ] || [ -n "$(ls "$tmp" | grep 'out.csv.tmp')" ]; then
		fail "$name" "the results file was touched"
	else
		ok "$name"
	fi
}

bad unknown-backend "unknown backend 'nosuch' (valid: " --backends nosuch
bad unknown-backend-in-list "unknown backend 'x'" --backends hash,x
bad unknown-workload "unknown workload 'spin'" --workloads spin
bad unknown-profile "unknown profile 'B' (valid: A, AA, AAA)" --profile B
bad entities-zero "entity count '0' is out of range" --entities 0
bad entities-negative "entity count '-5' is negative" --entities -5
bad entities-text "entity count 'many' is not a number" --entities many
bad entities-too-many "entity count '4194304' is out of range" --entities 4194304
bad entities-huge "entity count '99999999999999999999999' is out of range" --entities 99999999999999999999999
bad entities-trailing "entity count '12abc' is not a number" --entities 12abc
bad entities-range "entity range '64..8' is empty" --entities 64..8
bad components-zero "component count '0' is out of range (valid: 1..3)" --components 0
bad components-four "component count '4' is out of range (valid: 1..3)" --components 4
bad reps-zero "repetition count '0' is out of range" --reps 0
bad warmup-text "warm-up count 'x' is not a number" --warmup x
bad systems-too-many "system count '17' is out of range (valid: 1..16)" --systems 17
bad seed-negative "seed '-1' is negative" --seed -1
bad scale-zero "scale '0' is out of range (valid: 0.001..100)" --scale 0
bad scale-text "scale 'big' is not a number" --scale big
bad component-size-small "component size '4' is out of range (valid: 8..4096)" --component-size 4
bad inner-zero "inner count '0' is out of range (valid: 1..100000)" --inner 0
bad unknown-option "unknown option '--frobnicate'" --frobnicate
bad missing-value "option '--reps' needs a value" --reps
bad stray-argument "unexpected argument 'extra'" extra
bad output-missing-dir "cannot write output '$tmp/no/such/dir.csv'" --output "$tmp/no/such/dir.csv"
mkdir "$tmp/readonly" && chmod 555 "$tmp/readonly"
if [ "$(id -u)" -ne 0 ]; then
	bad output-unwritable "cannot write output '$tmp/readonly/x.csv'" --output "$tmp/readonly/x.csv"
else # root writes anywhere; a path through a regular file fails for root too
	bad output-unwritable "cannot write output '$out/x.csv'" --output "$out/x.csv"
fi

# A good run: every backend, every workload; each row group (workload, N, k) has every backend
# (and a floor row for iterate), and its rows agree on their checksum.
good="$tmp/good.csv"
if "$bin" --entities 64,256 --components 1,3 --reps 2 --scale 0.005 --output "$good" \
	2>"$tmp/stderr"; then
	backends=$("$bin" --list | sed -n '/^backends:/,/^workloads/p' | grep -c '^  ')
	workloads=$("$bin" --list | sed -n '/^workloads/,/^profiles/p' | grep -c '^  ')
	verdict=$(grep -v '^#' "$good" | awk -F, -v backends="$backends" -v workloads="$workloads" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			g = $c["workload"] "," $c["entities"] "," $c["components"]
			w[$c["workload"]] = 1
			if ($c["backend"] == "floor") floor[g]++; else rows[g]++
			if ((g in sum) && sum[g] != $c["checksum"]) bad++
			sum[g] = $c["checksum"]
		}
		END {
			nw = 0; for (x in w) nw++
			for (g in rows) if (rows[g] != backends) short++
			for (g in rows) if (g ~ /^iterate,/ && floor[g] != 1) nofloor++
			if (nw != workloads) print nw " workloads in the CSV, expected " workloads
			else if (short) print short " row groups without every backend"
			else if (nofloor) print nofloor " iterate groups without their floor row"
			else if (bad) print bad " rows disagree on their checksum"
			else print "ok"
		}')
	if [ "$verdict" = ok ]; then
		ok good-run
	else
		fail good-run "$verdict"
	fi
else
	fail good-run "exit status $?: $(cat "$tmp/stderr")"
fi

# The check build aborts if anything that makes values or draws decisions runs inside a timed
# region (harness/measure.h): every workload, every backend, two samples each.
if build/check/ecsbench --entities 64 --components 1,3 --reps 2 --scale 0.002 \
	--output "$tmp/check.csv" 2>"$tmp/stderr"; then
	ok timed-regions-hold-only-the-operation
else
	fail timed-regions-hold-only-the-operation "$(tail -n 3 "$tmp/stderr")"
fi

# A fixed inner count and no floor: every row has that inner count, and iterate no floor row.
fixed="$tmp/fixed.csv"
if "$bin" --backends hash,sparse --workloads iterate,create --entities 128 --components 2 \
	--reps 1 --warmup 0 --inner 3 --no-floor --output "$fixed" 2>"$tmp/stderr" &&
	[ "$(grep -v '^#' "$fixed" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["inner"] == 3 && $c["backend"] != "floor" { n++ } END { print n + 0 }')" = 4 ] &&
	[ "$(grep -vc '^#' "$fixed")" = 5 ]; then
	ok fixed-inner-no-floor
else
	fail fixed-inner-no-floor "expected 4 rows with inner 3 and no floor: $(cat "$tmp/stderr" "$fixed")"
fi

# --list and --help answer and exit 0.
if "$bin" --list | grep -q '^  hash' && "$bin" --help | grep -q -- '--entities'; then
	ok list-help
else
	fail list-help "--list or --help did not answer"
fi

# Interrupted (SIGINT, then SIGTERM): the previous results file stays as it was, no temporary
# file is left, and the run says what it did not finish.
for sig in INT TERM; do
	"$bin" --backends tree --workloads churn --entities 1048576 --reps 50 --output "$out" \
		2>"$tmp/stderr" &
	pid=$!
	sleep 1
	kill -"$sig" "$pid"
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "interrupted-$sig" "the run finished before it could be interrupted"
	elif [ "$(cat "$out")" != "$want" ] || [ -n "$(ls "$tmp" | grep 'out.csv.tmp')" ]; then
		fail "interrupted-$sig" "the results file was changed or a temporary file was left"
	elif ! grep -q interrupted "$tmp/stderr"; then
		fail "interrupted-$sig" "nothing said what was not finished: $(cat "$tmp/stderr")"
	else
		ok "interrupted-$sig"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
