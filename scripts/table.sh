#!/bin/sh
# table.sh CSV BASELINE [ENTITIES] [COMPONENTS]: seed 001's table from a CSV that build/ecsbench
# wrote: per workload and backend, the median time of one run, the storage's peak memory, the
# allocation calls of one run, and each one's ratio to the BASELINE backend's, in parentheses
# to its left as the seed prints them; memory reuse (peak after the last round / after the
# first) where the workload has rounds. Swept workloads are shown at ENTITIES (default: the
# largest N in the file) and COMPONENTS (default 2); seed 001's own at their N and k.
# Markdown on stdout.
set -eu
csv=${1:-}
base=${2:-}
if [ -z "$csv" ] || [ -z "$base" ]; then
	echo "usage: table.sh CSV BASELINE [ENTITIES] [COMPONENTS]   (or make table PROFILE=A BASELINE=hash)" >&2
	exit 2
fi
[ -r "$csv" ] || { echo "table.sh: cannot read '$csv'" >&2; exit 2; }
grep -v '^#' "$csv" | tail -n +2 | cut -d, -f1 | grep -qx "$base" ||
	{ echo "table.sh: no rows of backend '$base' in $csv" >&2; exit 2; }
n=${3:-$(grep -v '^#' "$csv" | awk -F, 'NR > 1 && $4 !~ /^varkor/ && $5 > m { m = $5 } END { print m + 0 }')}
k=${4:-2}
echo "From \`$csv\` ($(grep '^# date' "$csv" | sed 's/^# date //'); $(grep '^# cpu' "$csv" | sed 's/^# cpu //' | cut -d';' -f1)), ratios to \`$base\`."
echo "Time: median of one run; memory: the storage's peak; allocations: calls in one run."
echo
grep -v '^#' "$csv" | awk -F, -v base="$base" -v n="$n" -v k="$k" '
function human_time(ns) {
	if (ns >= 1e9) return sprintf("%.2f s", ns / 1e9)
	if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
	if (ns >= 1e3) return sprintf("%.2f us", ns / 1e3)
	return sprintf("%d ns", ns)
}
function human_bytes(b) {
	if (b >= 1048576) return sprintf("%.1f MiB", b / 1048576)
	if (b >= 1024) return sprintf("%.1f KiB", b / 1024)
	return sprintf("%d B", b)
}
function ratio(v, b) { return b > 0 ? sprintf("(%.3f) ", v / b) : "" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$(c["backend"]) == "floor" { next }
{
	w = $(c["workload"])
	if (w !~ /^varkor/ && w != "fragmented" && ($(c["entities"]) != n || $(c["components"]) != k)) next
	if (w == "fragmented" && $(c["entities"]) != n) next
	if (!(w in seen)) { seen[w] = 1; order[++nw] = w; label[w] = w " (N=" $(c["entities"]) ", k=" $(c["components"]) ")" }
	b = $(c["backend"])
	key = w SUBSEP b
	if (!(key in t)) { nb[w]++; bk[w, nb[w]] = b }
	t[key] = $(c["median_ns"]); m[key] = $(c["peak_bytes"]); a[key] = $(c["allocations"]); r[key] = $(c["reuse"])
}
END {
	print "| workload | backend | time | max memory | allocations | reuse |"
	print "| --- | --- | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		for (j = 1; j <= nb[w]; j++) {
			b = bk[w, j]; key = w SUBSEP b; bkey = w SUBSEP base
			isb = (b == base) || !(bkey in t)
			printf "| %s | %s | %s%s | %s%s | %s%d | %s |\n", (j == 1 ? label[w] : ""), b,
				isb ? "" : ratio(t[key], t[bkey]), human_time(t[key]),
				isb ? "" : ratio(m[key], m[bkey]), human_bytes(m[key]),
				isb ? "" : ratio(a[key], a[bkey]), a[key], r[key] == "" ? "" : r[key]
		}
	}
}'
