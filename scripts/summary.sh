#!/bin/sh
# summary.sh CSV [ENTITIES] [COMPONENTS]: a Markdown table of median ns per entity, each with its
# ratio to the floor, one row per backend (and the floor), one column per single-threaded swept
# workload, for one entity count and component count (default: the largest N of the swept
# workloads, k = 2), from a CSV that build/ecsbench wrote. Prints the CSV's environment lines
# first, so the table says where it came from. A workload measured under another history than
# lived-in (the headline figures') gets a column of its own, named with it ("iterate-pristine");
# a CSV from before histories reads as pristine (scripts/common.sh, normalise).
set -eu
csv=${1:?usage: summary.sh CSV [ENTITIES] [COMPONENTS]}
[ -r "$csv" ] || { echo "summary.sh: cannot read '$csv'" >&2; exit 2; }
col() { grep -v '^#' "$csv" | head -n 1 | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
# The default N: the largest of the swept workloads' (the Varkor workloads' fixed counts aside).
n=${2:-$(grep -v '^#' "$csv" | awk -F, -v w="$(col workload)" -v e="$(col entities)" \
	'NR > 1 && $w !~ /^varkor-/ && $e + 0 > m { m = $e + 0 } END { print m + 0 }')}
k=${3:-2}
grep '^# \(date\|cpu\|compiler\|profile\|command\)' "$csv" | sed 's/^# /    /'
echo
# One thread: parallel-iterate has a figure of its own (its speedup against T).
grep -v '^#' "$csv" | awk -F, -v n="$n" -v k="$k" '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["entities"] == n && $col["components"] == k && $col["workload"] !~ /^varkor-/ &&
    $col["workload"] != "parallel-iterate" {
	b = $col["backend"]; w = $col["workload"]
	h = ("history" in col) ? $col["history"] : "pristine"
	if (h != "lived-in" && h != "-" && h != "") w = w "-" h
	if (!(b in seenb)) { seenb[b] = 1; backends[++nb] = b }
	if (!(w in seenw)) { seenw[w] = 1; works[++nw] = w }
	r = ("ratio_to_floor" in col) ? $col["ratio_to_floor"] : ""
	cell[b, w] = sprintf("%.2f", $col["ns_per_entity"]) (r != "" && b != "floor" ? sprintf(" (%.1fx)", r) : "")
}
END {
	if (nb == 0) { print "summary.sh: no rows with entities=" n " and components=" k > "/dev/stderr"; exit 2 }
	printf "ns per entity, N = %d, k = %d (median; in parentheses, the ratio to the floor)\n\n| backend |", n, k
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
