#!/bin/sh
# profile.sh: where one backend spends the timed phase of one workload, by function: callgrind
# over one ecsbench row, then callgrind_annotate's top functions by inclusive and by self cost,
# in a short text report.
#
# Usage: scripts/profile.sh [-p PROFILE] [-b BACKEND] [-w WORKLOAD] [-n N] [-k K] [-S SYSTEMS]
#                           [-B BYTES] [-s SCALE] [-t TOP] [-o REPORT] [-x BINARY]
#   defaults: -p A -b hash -w iterate -n 131072 -k 2 -B 8 -s 1 -t 12
#             -o results/profile-BACKEND-WORKLOAD.txt -x build/cachegrind/ecsbench
#   BYTES is ecsbench's --component-size; SCALE its --scale, for seed 001's workloads
#   (varkor-*), which run at their own N and k whatever -n and -k say.
#
# Method: as scripts/cachegrind.sh (read its header): the harness built with -DECSB_CALLGRIND
# switches callgrind's collection on around the timed loop only, and callgrind starts with it
# off, so the setup and the checksums are not in the report. The run is --reps 1 --warmup 0
# --inner 1 --no-floor --no-pin: exactly one call of the timed region is counted (no calibration
# or warm-up runs, no floor pass of iterate). The same simulated caches are on, so the report
# also says which functions take the D1 and LLd misses.
# The build is -O2 like the benchmark's: what is inlined is attributed to the source file and
# function it was inlined from (impls/hash.c:family_system_iter_next is the hash lookup
# inlined into the iterator), so the report shows the code that runs, not a -O0 stand-in.
set -eu

. "$(dirname "$0")/caches.sh"

usage() {
	sed -n '6,11p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

profile=A backend=hash workload=iterate n=131072 k=2 systems='' top=12 out='' bytes=8 scale=1
bin=build/cachegrind/ecsbench
while getopts p:b:w:n:k:S:B:s:t:o:x:h opt; do
	case "$opt" in
	p) profile=$OPTARG ;;
	b) backend=$OPTARG ;;
	w) workload=$OPTARG ;;
	n) n=$OPTARG ;;
	k) k=$OPTARG ;;
	S) systems=$OPTARG ;;
	B) bytes=$OPTARG ;;
	s) scale=$OPTARG ;;
	t) top=$OPTARG ;;
	o) out=$OPTARG ;;
	x) bin=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case "$backend$workload" in *,*) echo "profile.sh: one backend and one workload" >&2; exit 2 ;; esac
case "$n$k" in *,* | *..*) echo "profile.sh: one entity count and one k" >&2; exit 2 ;; esac
case "$top" in '' | *[!0-9]*) echo "profile.sh: bad -t '$top'" >&2; exit 2 ;; esac
[ -n "$out" ] || out=results/profile-$backend-$workload.txt
for tool in valgrind callgrind_annotate; do
	command -v $tool >/dev/null 2>&1 || {
		echo "profile.sh: $tool is missing (scripts/deps.sh valgrind installs it)" >&2
		exit 1
	}
done
[ -x "$bin" ] || { echo "profile.sh: no $bin (make build/cachegrind/ecsbench)" >&2; exit 1; }

work=build/cachegrind/profile
mkdir -p "$work" "$(dirname "$out")"
name=$backend-$workload-$n-$k
rm -f "$work/$name".*
set -- "$bin" --profile "$profile" --backends "$backend" --workloads "$workload" --entities "$n" \
	--components "$k" ${systems:+--systems "$systems"} --component-size "$bytes" --scale "$scale" \
	--reps 1 --warmup 0 --inner 1 --no-floor --no-pin --output "$work/$name.csv"
# Bad names and numbers: ecsbench's own message and exit 2, before valgrind starts.
"$@" --list >/dev/null
valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no --I1=$I1 --D1=$D1 --LL=$LL \
	--callgrind-out-file="$work/$name.out" "$@" >"$work/$name.log" 2>&1 || {
	echo "profile.sh: the run failed:" >&2
	cat "$work/$name.log" >&2
	exit 1
}

# What ran, from the row (columns by name): N and k (a seed 001 workload has its own), inner, and
# the rounds of a round-based workload (ns_per_entity = median_ns / (N x rounds)).
# shellcheck disable=SC2046
set -- $(awk -F, '/^#/ || !NF { next } $1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n = $(c["entities"]); npe = $(c["ns_per_entity"]) + 0
	  r = npe > 0 && n > 0 ? int($(c["median_ns"]) / (npe * n) + 0.5) : 1
	  print n, $(c["components"]), $(c["inner"]), (r < 1 ? 1 : r); exit }' "$work/$name.csv")
[ $# -eq 4 ] || { echo "profile.sh: no row in $work/$name.csv" >&2; cat "$work/$name.log" >&2; exit 1; }
ran_n=$1 ran_k=$2 inner=$3 rounds=$4
what="N=$ran_n, k=$ran_k"
[ "$rounds" -le 1 ] || what="$what, $rounds rounds"
[ "$bytes" = 8 ] || what="$what, $bytes-byte Position and Velocity"
case "$workload" in varkor-*) command="ENTITIES and COMPONENTS not used; scale $scale" ;; *) command="ENTITIES=$n COMPONENTS=$k" ;; esac
commit=$(sed -n 's/^# ecsbench commit //p' "$work/$name.csv")
root=$(pwd)/
show=Ir,Dr,Dw,D1mr,D1mw,DLmr,DLmw
# The function table of callgrind_annotate: its header line, then the top rows, without the
# frames that merely contain the timed call (libc's start, ld.so, the harness's main, run_group
# and run_sample: 100% always), paths made relative, and each function once (callgrind_annotate
# can list a function under two spellings of its file).
table() { # table ANNOTATE-OPTIONS...
	callgrind_annotate --show=$show --threshold=100 --auto=no "$@" "$work/$name.out" |
		sed "s|$root||g; s| \[[^]]*\]\$||" |
		awk -v top="$top" '
			/file:function$/ { print; on = 1; next }
			on && /^-+$/ { next }
			on && !NF { exit }
			on && !/\?\?\?:0x|libc-start|libc_start|\(below main\)|ld-linux|^ *\.  |harness\/main\.c:(main|run_group)$|harness\/workloads\.c:run_sample$/ && !seen[$NF]++ && n++ < top'
}
{
	echo "# ecsbench profile: $backend $workload, profile $profile, $what${systems:+, $systems systems}"
	echo "# command: scripts/profile.sh -p $profile -b $backend -w $workload -n $n -k $k -B $bytes -s $scale${systems:+ -S $systems}"
	echo "#   (make profile BACKEND=$backend WORKLOAD=$workload PROFILE=$profile, $command${systems:+, SYSTEMS=$systems})"
	echo "# ecsbench commit $commit; $(valgrind --version); callgrind --cache-sim=yes,"
	echo "#   caches (size,assoc,line) I1 $I1, D1 $D1, LL $LL"
	echo "# counts cover the timed call only: $inner run of the workload ($what)"
	echo "# Ir instructions, Dr/Dw data reads/writes, D1mr/D1mw D1 read/write misses,"
	echo "#   DLmr/DLmw LL data read/write misses"
	echo
	echo "== totals of the timed phase"
	callgrind_annotate --show=$show --threshold=100 --auto=no "$work/$name.out" |
		awk '/^Ir / && !head { print; head = 1 } /PROGRAM TOTALS/ { print; exit }'
	echo
	echo "== top $top functions by inclusive cost (the function and everything it calls)"
	table --inclusive=yes
	echo
	echo "== top $top functions by self cost (inlined code counts where its source is)"
	table --inclusive=no
} >"$out.tmp"
mv "$out.tmp" "$out" # a failure half-way leaves the previous report whole
cat "$out"
echo "profile.sh: wrote $out" >&2
