#!/bin/sh
# callgrind-pair.sh: callgrind figures per entity of one backend's timed call and of the floor's,
# from one valgrind run of both (docs/performance.md).
#
# Usage: scripts/callgrind-pair.sh BACKEND WORKLOAD N K [PROFILE] [BINARY]
#   defaults: PROFILE A, BINARY build/cachegrind/ecsbench (make build/cachegrind/ecsbench)
#   WORKLOAD may name its history as the figures do ("iterate-pristine"; plain: lived-in)
#   prints two lines, the backend's and the floor's: instructions, D refs (reads + writes),
#   simulated D1 misses and LL data misses, each divided by N.
#
# Method: as scripts/cachegrind.sh (read its header), --reps 1 --warmup 0 --inner 1, the same
# simulated caches, collection switched on around the timed calls only; but with the floor
# (no --no-floor), so both run in the same process. The backend's figures are the inclusive
# cost of the workload's execute function in harness/sweep/workloads.c; the floor's are the run's
# totals minus those. (The floor's own execute in harness/sweep/floor.c is not enough: the value
# copies it inlines from world.h are listed by callgrind_annotate under world.h.)
set -eu
b=$1 w=$2 n=$3 k=$4 p=${5:-A} bin=${6:-build/cachegrind/ecsbench}
# N as build/ecsbench reads it: 64k is 65536, 1M 1048576
case "$n" in *[kK]) n=$((${n%?} * 1024)) ;; *M) n=$((${n%?} * 1048576)) ;; esac
. "$(dirname "$0")/caches.sh"
# shellcheck disable=SC2046
set -- $(split_history "$bin" "$w")
workload=$1 history=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LD_BIND_NOW=1 valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no --I1="$I1" \
	--D1="$D1" --LL="$LL" --callgrind-out-file="$tmp/out" "$bin" --profile "$p" \
	--backends "$b" --workloads "$workload" --history "$history" --entities "$n" \
	--components "$k" --reps 1 --warmup 0 --inner 1 --no-pin --processes 1 \
	--output "$tmp/run.csv" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; exit 1; }
fn=$(echo "$workload" | tr '-' '_')_execute
callgrind_annotate --inclusive=yes "$tmp/out" 2>/dev/null | tr -d ',' | sed 's/([^)]*)//g' |
	awk -v n="$n" -v fn="$fn" -v b="$b" -v w="$w" -v p="$p" '
	/PROGRAM TOTALS/ { t1 = $1; t2 = $2; t3 = $3; t5 = $5; t6 = $6; t8 = $8; t9 = $9 }
	$0 ~ "harness/sweep/workloads.c:" fn " \\[" && !seen {
		b1 = $1; b2 = $2; b3 = $3; b5 = $5; b6 = $6; b8 = $8; b9 = $9; seen = 1
	}
	END {
		f = "%-4s %-10s %-12s instr %7.1f  D refs %6.1f  D1 misses %6.3f  LL misses %6.3f\n"
		printf f, p, b, w, b1 / n, (b2 + b3) / n, (b5 + b6) / n, (b8 + b9) / n
		printf f, p, "floor", w, (t1 - b1) / n, (t2 + t3 - b2 - b3) / n,
			(t5 + t6 - b5 - b6) / n, (t8 + t9 - b8 - b9) / n
	}'
