#!/bin/sh
# summary.sh CSV [ENTITIES] [COMPONENTS]: a Markdown table of median ns per entity, one row per
# backend, one column per workload, for one entity count and component count (default: the
# largest N in the file, k = 2), from a CSV that build/ecsbench wrote. Prints the CSV's
# environment lines first, so the table says where it came from.
set -eu
csv=${1:?usage: summary.sh CSV [ENTITIES] [COMPONENTS]}
[ -r "$csv" ] || { echo "summary.sh: cannot read '$csv'" >&2; exit 2; }
n=${2:-$(grep -v '^#' "$csv" | tail -n +2 | cut -d, -f5 | sort -n | tail -n 1)}
k=${3:-2}
grep '^# \(date\|cpu\|compiler\|profile\|command\)' "$csv" | sed 's/^# /    /'
echo
grep -v '^#' "$csv" | awk -F, -v n="$n" -v k="$k" '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["entities"] == n && $col["components"] == k {
	b = $col["backend"]; w = $col["workload"]
	if (!(b in seenb)) { seenb[b] = 1; backends[++nb] = b }
	if (!(w in seenw)) { seenw[w] = 1; works[++nw] = w }
	cell[b, w] = sprintf("%.1f", $col["ns_per_entity"])
}
END {
	if (nb == 0) { print "summary.sh: no rows with entities=" n " and components=" k > "/dev/stderr"; exit 2 }
	printf "ns per entity, N = %d, k = %d (median)\n\n| backend |", n, k
	for (j = 1; j <= nw; j++) printf " %s |", works[j]
	printf "\n| --- |"
	for (j = 1; j <= nw; j++) printf " ---: |"
	printf "\n"
	for (i = 1; i <= nb; i++) {
		printf "| %s |", backends[i]
		for (j = 1; j <= nw; j++) printf " %s |", ((backends[i], works[j]) in cell) ? cell[backends[i], works[j]] : "-"
		printf "\n"
	}
}'
