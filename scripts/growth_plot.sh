#!/bin/sh
# growth_plot.sh: create-unreserved's blocks (harness/sweep/growth.c), from a run's samples file
# (NAME-samples.csv beside NAME.csv): per backend the time per entity of each of the 64 blocks of
# N / 64 entities, in creation order (the median over every process and sample of the block),
# on a log scale; a block ringed where the storage asked for a block of 64 KiB or more in most
# of the samples (growth_blocks); and, dashed in the backend's colour, create's time per entity
# (the same N entities into a storage reserved for N) from the same run, when it has that row.
#
# Usage: scripts/growth_plot.sh [-o PLOTS_DIR] [-n N] [-k K] SAMPLES_CSV
#   -n, -k  the row's N and k (default: the largest N, then the smallest k, of create-unreserved)
#   -o      where the PNG goes (default: the file's folder); its name: NAME-growth-N-kK.png
# Prints the PNG's path. Exit status 2 on bad usage or a file without create-unreserved rows.
set -eu

usage() {
	echo "usage: scripts/growth_plot.sh [-o PLOTS_DIR] [-n N] [-k K] SAMPLES_CSV" >&2
	exit 2
}
plots= n= k=
while getopts o:n:k:h opt; do
	case "$opt" in
	o) plots=$OPTARG ;;
	n) n=$OPTARG ;;
	k) k=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
samples=$1
for v in "$n" "$k"; do
	case $v in *[!0-9]*) echo "growth_plot.sh: -n and -k take whole numbers ('$v')" >&2; exit 2 ;; esac
done
[ -r "$samples" ] || { echo "growth_plot.sh: cannot read $samples" >&2; exit 2; }
grep -q '^backend,.*,ns_per_run,block_ns_per_entity,growth_blocks$' "$samples" ||
	{ echo "growth_plot.sh: $samples is not a samples file with block_ns_per_entity (build/ecsbench --workloads create-unreserved writes NAME-samples.csv)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { echo "growth_plot.sh: gnuplot is not installed (make deps-plots)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/growth_plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The row: the largest N, then the smallest k, unless given.
read -r n k <<ROW
$(grep -v '^#' "$samples" | awk -F, -v n="$n" -v k="$k" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "create-unreserved" && $c["block_ns_per_entity"] != "" {
		N = $c["entities"] + 0; K = $c["components"] + 0
		if (n != "" && N != n + 0) next
		if (k != "" && K != k + 0) next
		if (bn == "" || N > bn || (N == bn && K < bk)) { bn = N; bk = K }
	}
	END { print bn, bk }')
ROW
[ -n "$n" ] || { echo "growth_plot.sh: $samples has no create-unreserved row${n:+ at that N and k}" >&2; exit 2; }
[ -n "$plots" ] || plots=$(dirname "$samples")
mkdir -p "$plots"
name=$(basename "$samples" .csv)
name=${name%-samples}
final="$plots/$name-growth-$n-k$k.png"
out="$final.tmp.$$"
trap 'rm -rf "$tmp" "$out"' EXIT

# Per backend: blocks.dat "block,median ns per entity,the same where most samples grew or NaN";
# create's median ns per entity (ns_per_run / N) into create.
grep -v '^#' "$samples" | awk -F, -v dir="$tmp" -v n="$n" -v k="$k" '
	function median(key, m,    i, j, t, v) {
		for (i = 1; i <= m; i++) v[i] = val[key, i]
		for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j] < v[j - 1]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["entities"] + 0 != n || $c["components"] + 0 != k { next }
	$c["workload"] == "create" { b = $c["backend"]; cm[b]++; val[b, "create", cm[b]] = $c["ns_per_run"] / n; next }
	$c["workload"] == "create-unreserved" && $c["block_ns_per_entity"] != "" {
		b = $c["backend"]
		if (!(b in seen)) { seen[b] = 1; names[++nb] = b }
		samples[b]++
		nblocks = split($c["block_ns_per_entity"], x, ";")
		for (i = 1; i <= nblocks; i++) val[b SUBSEP i, samples[b]] = x[i]
		m = split($c["growth_blocks"], g, ";")
		for (i = 1; i <= m; i++) grew[b, g[i]]++
	}
	END {
		for (j = 1; j <= nb; j++) {
			b = names[j]
			for (i = 1; i <= nblocks; i++) {
				y = median(b SUBSEP i, samples[b])
				mark = (grew[b, i] * 2 > samples[b]) ? sprintf("%.6g", y) : "NaN"
				printf "%d,%.6g,%s\n", i, y, mark > (dir "/" b ".dat")
				# (the axis is a log scale: its range from positive times alone)
				if (y > 0 && (ymin == "" || y < ymin)) ymin = y
				if (y > ymax) ymax = y
			}
			if (cm[b]) {
				y = median(b SUBSEP "create", cm[b])
				printf "%s %.6g\n", b, y > (dir "/create")
				if (y > 0 && (ymin == "" || y < ymin)) ymin = y
			}
		}
		if (ymin == "") { ymin = 1; ymax = 10 }  # no positive time at all: a decade from 1 ns
		if (ymax <= ymin) ymax = ymin * 10
		printf "%.6g %.6g %d\n", ymin, ymax, nblocks > (dir "/range")
	}'
read -r ymin ymax nblocks <"$tmp/range"
listed=$("$top/build/ecsbench" --list 2>/dev/null | awk '/^[a-z]/ { on = $1 == "backends:"; next } on { print $1 }' || true)
backends= styles= creates=
i=0
for b in $listed; do
	i=$((i + 1))
	[ -s "$tmp/$b.dat" ] || continue
	backends="$backends $b"
	styles="$styles $i"
	creates="$creates $(awk -v b="$b" '$1 == b { print $2; f = 1 } END { if (!f) print "NaN" }' "$tmp/create" 2>/dev/null || echo NaN)"
done
[ -n "$backends" ] || { echo "growth_plot.sh: no backend this build knows in $samples" >&2; exit 2; }
header() { sed -n "s/^# $1 //p" "$samples" | head -n 1; }
gp_quote() { printf '%s' "$1" | sed "s/'/''/g"; }
source="run: commit $(header "ecsbench commit"), $(header "date"), $(header "cpu" | cut -d';' -f1); $(header "processes" | sed 's/,.*//') processes"
if ! gnuplot -e "scripts='$top/scripts'; out='$(gp_quote "$out")'; dir='$tmp'; \
	backends='${backends# }'; styles='${styles# }'; creates='${creates# }'; ymin=$ymin; ymax=$ymax; \
	nblocks=$nblocks; n=$n; k=$k; source='$(gp_quote "$source")'" "$top/scripts/growth.gp" 2>"$tmp/err"; then
	cat "$tmp/err" >&2
	echo "growth_plot.sh: gnuplot failed drawing $final" >&2
	exit 1
fi
if ! [ -s "$out" ] || [ "$(tail -c 8 "$out" | od -An -tx1 | tr -d ' \n')" != 49454e44ae426082 ]; then
	echo "growth_plot.sh: cannot write $final (a full disk?); the figure was not replaced" >&2
	exit 1
fi
mv -f "$out" "$final"
echo "$final"
