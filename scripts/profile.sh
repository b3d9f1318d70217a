#!/bin/sh
# profile.sh: where one backend spends the timed phase of one workload, by function: callgrind
# over one ecsbench row, then callgrind_annotate's top functions by inclusive and by self cost,
# in a short text report (lines of at most 120 columns) with each figure also per entity
# operation: divided by N x rounds (a round-based workload goes over its N entities `rounds`
# times) x runs, as the CSV's ns_per_entity and cachegrind.sh's *_per_entity count them.
#
# Usage: scripts/profile.sh [-p PROFILE] [-b BACKEND] [-w WORKLOAD] [-n N] [-k K] [-S SYSTEMS]
#                           [-B BYTES] [-s SCALE] [-t TOP] [-o REPORT] [-x BINARY]
#   defaults: -p A -b hash -w iterate -n 131072 -k 2 -B 8 -s 1 -t 12
#             -o results/profile-BACKEND-WORKLOAD.txt -x build/cachegrind/ecsbench
#   BYTES is ecsbench's --component-size; SCALE its --scale, for Varkor's workloads
#   (varkor-*), which run at their own N and k whatever -n and -k say. WORKLOAD may name its
#   history as the figures do ("iterate-pristine"; a plain name: lived-in).
#
# Method: as scripts/cachegrind.sh (read its header): the harness built with -DECSB_CALLGRIND
# switches callgrind's collection on around the timed loop only, and callgrind starts with it
# off, so the setup and the checksums are not in the report. The run is --processes 1 --reps 1
# --warmup 0 --inner 1 --no-floor --no-pin: in the process valgrind runs (a measuring child
# process would run outside it), exactly one call of the timed region is counted (no calibration
# or warm-up runs, no floor pass of iterate). The same simulated caches are on, so the report
# also says which functions take the D1 and LLd misses. The program runs with LD_BIND_NOW=1,
# which binds every library symbol when it loads: with lazy binding, the first call of each
# library function inside the timed call ran the dynamic linker's resolver there
# (_dl_runtime_resolve, _dl_fixup, _dl_lookup_*), which took six of the top twelve rows of a
# short pass (sparse iterate, N = 1024) while being a cost of the first call only.
# The build is -O2 like the benchmark's: what is inlined is attributed to the source file and
# function it was inlined from (impls/family/hash.c:family_system_iter_next is the hash lookup
# inlined into the iterator), so the report shows the code that runs, not a -O0 stand-in.
set -eu

# shellcheck source=scripts/caches.sh
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
# shellcheck disable=SC2046
set -- $(split_history "$bin" "$workload")
set -- "$bin" --profile "$profile" --backends "$backend" --workloads "$1" --history "$2" --entities "$n" \
	--components "$k" ${systems:+--systems "$systems"} --component-size "$bytes" --scale "$scale" \
	--processes 1 --reps 1 --warmup 0 --inner 1 --no-floor --no-pin --output "$work/$name.csv"
# Bad names and numbers: ecsbench's own message and exit 2, before valgrind starts.
"$@" --list >/dev/null
LD_BIND_NOW=1 valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no --I1="$I1" --D1="$D1" --LL="$LL" \
	--callgrind-out-file="$work/$name.out" "$@" >"$work/$name.log" 2>&1 || {
	echo "profile.sh: the run failed:" >&2
	cat "$work/$name.log" >&2
	exit 1
}

# What ran, from the row (columns by name): N and k (a Varkor workload has its own), inner, and
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
ops=$((ran_n * rounds * inner))
[ "$ops" -gt 0 ] || ops=1
root=$(pwd)/
show=Ir,Dr,Dw,D1mr,D1mw,DLmr,DLmw
# The rows of callgrind_annotate's function table as "Ir Dr Dw D1mr D1mw DLmr DLmw name" (its
# percentages and thousands separators dropped, "." read as 0), without the frames that merely
# contain the timed call (libc's start, ld.so, the harness's main, run_group and run_sample:
# 100% always), paths made relative, and each function once (callgrind_annotate can list a
# function under two spellings of its file). Then print_table lays them out.
rows() { # rows ANNOTATE-OPTIONS...
	callgrind_annotate --show=$show --threshold=100 --auto=no "$@" "$work/$name.out" |
		sed "s|$root||g; s| \[[^]]*\]\$||" |
		awk -v top="$top" '
			/file:function$/ { on = 1; next }
			on && /^-+$/ { next }
			on && !NF { exit }
			on && !/\?\?\?:0x|libc-start|libc_start|\(below main\)|ld-linux|^ *\.  |harness\/main\.c:main$|harness\/core\/pass\.c:(pass_run|run_group|run_group_apart)$|harness\/sweep\/workloads\.c:run_sample$/ && !seen[$NF]++ && n++ < top {
				gsub(/\([^)]*\)/, ""); gsub(/,/, "")
				if (NF != 8) next
				for (i = 1; i <= 7; i++) if ($i == ".") $i = 0
				print
			}'
}
# print_table TOTAL_IR: a header and a line per row: Ir, its share of the timed call, then per
# entity operation instructions, D refs (reads + writes), D1 misses and LLd misses, and the
# function. A glibc function (its file a path in glibc's build tree, "./malloc/./malloc/...")
# is named "glibc FUNCTION", and a name that would pass 120 columns loses its start.
# per(X): X per entity operation, four significant digits or so; big(X): 1234567 -> 1,234,567.
formats='
	function per(x,    v) { v = x / ops
		return v >= 1000 ? sprintf("%.0f", v) : v >= 100 ? sprintf("%.1f", v) : v >= 10 ? sprintf("%.2f", v) : v >= 1 ? sprintf("%.3f", v) : sprintf("%.4f", v) }
	function big(x,    s, out) { s = sprintf("%.0f", x); out = ""
		while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
		return s out }'
print_table() {
	awk -v ops="$ops" -v total="$1" "$formats"'
		BEGIN { printf "%15s %6s %10s %10s %9s %9s  %s\n", "Ir", "Ir %", "Ir/entity", "Dref/ent", "D1/ent", "LLd/ent", "file:function" }
		{
			f = $8
			if (f ~ /^\.\//) { sub(/^.*:/, "", f); f = "glibc " f }
			line = sprintf("%15s %6.2f %10s %10s %9s %9s  ", big($1), total > 0 ? 100 * $1 / total : 0,
				per($1), per($2 + $3), per($4 + $5), per($6 + $7))
			if (length(line) + length(f) > 120) f = "..." substr(f, length(f) - (120 - length(line) - 3) + 1)
			print line f
		}'
}
totals=$(callgrind_annotate --show=$show --threshold=100 --auto=no "$work/$name.out" |
	awk '/PROGRAM TOTALS/ { gsub(/\([^)]*\)/, ""); gsub(/,/, ""); for (i = 1; i <= 7; i++) printf "%s ", ($i == "." ? 0 : $i); exit }')
# shellcheck disable=SC2086
set -- $totals
[ $# -eq 7 ] || { echo "profile.sh: no totals in $work/$name.out" >&2; exit 1; }
# A failed write (a full disk) ends the script (set -e) and leaves no partial report.
trap 'rm -f "$out.tmp"' EXIT
trap 'exit 1' HUP INT TERM
{
	echo "# ecsbench profile: $backend $workload, profile $profile, $what${systems:+, $systems systems}"
	echo "# command: scripts/profile.sh -p $profile -b $backend -w $workload -n $n -k $k -B $bytes -s $scale${systems:+ -S $systems}"
	echo "#   (make profile BACKEND=$backend WORKLOAD=$workload PROFILE=$profile, $command${systems:+, SYSTEMS=$systems})"
	echo "# ecsbench commit $commit; $(valgrind --version); callgrind --cache-sim=yes; LD_BIND_NOW=1"
	echo "#   (symbols bound at load, so no dynamic linker in the timed call)"
	echo "# caches (size,assoc,line) I1 $I1, D1 $D1, LL $LL"
	echo "# counts cover the timed call only: $inner run of the workload ($what),"
	echo "#   $ops entity operations (N x rounds x runs): the per-entity figures divide by that"
	echo
	echo "== totals of the timed phase"
	awk -v ops="$ops" -v t="$totals" "$formats"'BEGIN {
		split(t, v, " ")
		split("instructions (Ir)|data reads (Dr)|data writes (Dw)|D1 read misses (D1mr)|D1 write misses (D1mw)|LL data read misses (DLmr)|LL data write misses (DLmw)", what, "|")
		printf "%-28s %15s %12s\n", "event", "total", "per entity"
		for (i = 1; i <= 7; i++) printf "%-28s %15s %12s\n", what[i], big(v[i]), per(v[i])
		printf "%-28s %15s %12s\n", "D refs (Dr + Dw)", big(v[2] + v[3]), per(v[2] + v[3])
		printf "%-28s %15s %12s\n", "D1 misses (D1mr + D1mw)", big(v[4] + v[5]), per(v[4] + v[5])
		printf "%-28s %15s %12s\n", "LLd misses (DLmr + DLmw)", big(v[6] + v[7]), per(v[6] + v[7])
	}'
	echo
	echo "== top $top functions by inclusive cost (the function and everything it calls)"
	rows --inclusive=yes | print_table "$1"
	echo
	echo "== top $top functions by self cost (inlined code counts where its source is)"
	rows --inclusive=no | print_table "$1"
	echo
	echo "Ir %: share of the timed call's instructions; per entity operation: Ir/entity instructions,"
	echo "Dref/ent data reads + writes, D1/ent D1 misses (read + write), LLd/ent LL data misses."
} >"$out.tmp"
mv "$out.tmp" "$out" # a failure half-way leaves the previous report whole
cat "$out"
echo "profile.sh: wrote $out" >&2
