#!/bin/sh
# readme.sh: the README's figures, made from a committed run of the default sweep, so that the
# front door shows what `make bench PROFILE=AAA` prints and never drifts from the CSV it names.
#
# Usage: scripts/readme.sh [--check] [CSV [README]]
#   CSV      the run (default results/reference/AAA.csv: make reference)
#   README   the file whose generated blocks are replaced (default README.md)
#   --check  change nothing: exit 1, naming the block, when README's blocks differ from what CSV
#            gives (make test runs it, so that a new reference run comes with its README)
#
# The generated blocks sit between "<!-- readme.sh NAME -->" and "<!-- readme.sh end -->":
#   run      one line: where the figures come from (commit, date, CPU, processes, N, k)
#   table    ns per entity of every backend and the floor, a row per workload at the run's
#            largest N and k = 2 (a workload without k = 2: its smallest k), as the answer reads
#            them: the fastest in bold (every backend of a set decided equal within 10%: all
#            of them), a backend still racing with the lowest of an undecided row in italics,
#            "no decision" where the answer names no fastest; then the bytes an entity each
#            holds after create
#   short    the answer's "In short" lines (build/ecsbench-compare --answer), one per use, each
#            with its figure linked
# Every figure is the CSV's or the answer's own; nothing is measured or computed again here.
# Exit status: 0; 1 a block differs (--check) or README could not be written; 2 bad usage, a
# CSV or README it cannot read, or a block's markers missing.
set -eu
check=0
[ "${1:-}" != --check ] || { check=1; shift; }
case ${1:-} in -*) echo "usage: scripts/readme.sh [--check] [CSV [README]]" >&2; exit 2 ;; esac
csv=${1:-results/reference/AAA.csv}
readme=${2:-README.md}
[ -r "$csv" ] || { echo "readme.sh: cannot read '$csv'" >&2; exit 2; }
[ -r "$readme" ] || { echo "readme.sh: cannot read '$readme'" >&2; exit 2; }
here=$(dirname "$0")
tool=${ECSBENCH_COMPARE:-$here/../build/ecsbench-compare}
[ -x "$tool" ] || { echo "readme.sh: $tool is not built (make build/ecsbench-compare)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The figures the README links: the reference run's (answer.sh's rule: results/reference/AAA.csv
# draws into plots/reference/AAA/).
profile=$(grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "profile") c = i; next } c { print $c; exit }')
csv=${csv#./}
case $csv in
results/reference/full/*) figures=plots/reference/full/$profile ;;
results/reference/*) figures=plots/reference/$profile ;;
results/*) figures=plots/$profile ;;
*) figures=${csv%.csv}-plots/$profile ;;
esac
"$tool" --answer "$csv" --figures "$figures" --brief --note "" >"$tmp/records" ||
	{ echo "readme.sh: build/ecsbench-compare could not read '$csv'" >&2; exit 2; }

# --- run -----------------------------------------------------------------------------------
head_value() { grep "^# $1 " "$csv" | head -n 1 | sed "s/^# $1 //"; }
commit=$(head_value 'ecsbench commit')
date=$(head_value date)
[ -n "$commit" ] && [ -n "$date" ] || { echo "readme.sh: '$csv' has no '# ecsbench commit' or '# date' line: not a CSV of build/ecsbench" >&2; exit 2; }
cpu=$(head_value cpu | sed 's/;.*//')
online=$(head_value cpu | sed -n 's/^[^;]*; \([0-9]*\) online.*/\1/p')
# processes: a raced run's "processes done N" (its groups had up to N), an older run's count
procs=$(grep '^# processes' "$csv" | head -n 1 | sed -n 's/.*processes done \([0-9]*\).*/up to \1/p; s/^# processes \([0-9]*\).*/\1/p')
other=$(grep '^# machine during the run:' "$csv" | sed -n 's/.*other work took \([0-9.]*%\) of the measuring CPU.*/\1/p')
grep -v '^#' "$csv" | awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["workload"] !~ /^varkor-/ && $col["entities"] + 0 > n { n = $col["entities"] + 0 }
END { print n + 0 }' >"$tmp/n"
n=$(cat "$tmp/n")
pow=$(awk -v n="$n" 'BEGIN { p = 0; while (2 ^ p < n) p++; print (2 ^ p == n) ? "2^" p : n }')
{
	printf 'From [%s](%s) (commit `%s`, %s; %s, %s CPUs, other work took %s of the measuring CPU; %s processes), N = %s, lived-in storage; `scripts/readme.sh` writes the table and the "In short" lines from it.\n' \
		"$csv" "$csv" "$commit" "$(echo "$date" | sed 's/T/ /; s/:[0-9]*Z$/ UTC/')" "$cpu" "${online:-?}" "${other:-?}" "$procs" "$pow"
} >"$tmp/run"

# --- table ---------------------------------------------------------------------------------
# decisions: workload<TAB>k<TAB>fastest (a backend, or "no decision") from the answer's rows
awk -F'\t' '$1 == "row" && $3 !~ /^varkor-/ && $3 !~ /, T = / { print $3 "\t" $5 "\t" $6 }' "$tmp/records" >"$tmp/decided"
grep -v '^#' "$csv" | awk -F, -v n="$n" -v decided="$tmp/decided" '
function sig(x) {
	if (x >= 100) return sprintf("%.0f", x)
	if (x >= 10) return sprintf("%.1f", x)
	if (x >= 1) return sprintf("%.2f", x)
	return sprintf("%.3f", x)
}
BEGIN { while ((getline line < decided) > 0) { split(line, d, "\t"); fastest[d[1], d[2] + 0] = d[3] } }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["entities"] == n && $col["workload"] !~ /^varkor-/ && $col["workload"] != "parallel-iterate" {
	w = $col["workload"]; b = $col["backend"]; k = $col["components"] + 0
	if (!(w in seenw)) { seenw[w] = 1; works[++nw] = w; kw[w] = k }
	else if (k == 2 || (kw[w] != 2 && k < kw[w])) kw[w] = k
	if (b != "floor" && !(b in seenb)) { seenb[b] = 1; backends[++nb] = b }
	ns[w, k, b] = $col["ns_per_entity"]; vs[w, k, b] = $col["vs_best"]
	if (w == "create") mem[k, b] = $col["live_bytes_per_entity"]
}
END {
	backends[++nb] = "floor"
	printf "| workload (k) |"
	for (i = 1; i <= nb; i++) printf " %s |", backends[i]
	printf "\n| --- |"
	for (i = 1; i <= nb; i++) printf " ---: |"
	printf "\n"
	for (j = 1; j <= nw; j++) {
		w = works[j]; k = kw[w]; nodec = ((w, k) in fastest) && fastest[w, k] == "no decision"
		printf "| %s (%d)%s |", w, k, nodec ? ", no decision" : ""
		for (i = 1; i <= nb; i++) {
			b = backends[i]
			if (!((w, k, b) in ns)) { printf " - |"; continue }
			c = sig(ns[w, k, b]); v = vs[w, k, b]
			if ((v == "best" || v == "equal") && !nodec) c = "**" c "**"
			else if (v == "tied" || (v == "best" && nodec)) c = "*" c "*"
			printf " %s |", c
		}
		printf "\n"
	}
	printf "| bytes an entity after create |"
	for (i = 1; i <= nb; i++) printf " %s |", ((2, backends[i]) in mem) && backends[i] != "floor" ? sprintf("%.0f", mem[2, backends[i]]) : "-"
	printf "\n"
}' >"$tmp/table"

# --- short ---------------------------------------------------------------------------------
# The answer's "In short" items, the figure after " -> " made a link.
awk -F'\t' '
$1 == "h" { inshort = ($2 == "In short"); next }
$1 == "li" && inshort {
	s = $2; fig = ""
	if (match(s, / -> [^ ]+\.png$/)) { fig = substr(s, RSTART + 4); s = substr(s, 1, RSTART - 1) }
	use = s; sub(/: .*/, "", use); rest = substr(s, length(use) + 3)
	n = split(fig, parts, "/")
	printf "- **%s**: %s%s\n", use, rest, fig != "" ? sprintf(" [%s](%s)", parts[n], fig) : ""
}' "$tmp/records" >"$tmp/short"
[ -s "$tmp/short" ] || { echo "readme.sh: the answer of '$csv' has no \"In short\" lines" >&2; exit 2; }

# --- the blocks into README ----------------------------------------------------------------
status=0
cp "$readme" "$tmp/readme"
for block in run table short; do
	grep -qx "<!-- readme.sh $block -->" "$tmp/readme" ||
		{ echo "readme.sh: $readme has no '<!-- readme.sh $block -->' line" >&2; exit 2; }
	awk -v block="$block" -v body="$tmp/$block" '
	$0 == "<!-- readme.sh " block " -->" { print; while ((getline line < body) > 0) print line; skip = 1; next }
	skip && $0 == "<!-- readme.sh end -->" { skip = 0 }
	!skip { print }
	END { if (skip) exit 2 }' "$tmp/readme" >"$tmp/next" ||
		{ echo "readme.sh: $readme: the '$block' block has no '<!-- readme.sh end -->' after it" >&2; exit 2; }
	if ! cmp -s "$tmp/readme" "$tmp/next"; then
		[ "$check" = 0 ] || { echo "readme.sh: $readme's '$block' block differs from what $csv gives (scripts/readme.sh $csv writes it)" >&2; status=1; }
	fi
	mv "$tmp/next" "$tmp/readme"
done
[ "$check" = 0 ] || exit "$status"
cmp -s "$tmp/readme" "$readme" && exit 0
cp "$tmp/readme" "$readme.tmp.$$" && mv -f "$readme.tmp.$$" "$readme" ||
	{ rm -f "$readme.tmp.$$"; echo "readme.sh: cannot write $readme" >&2; exit 1; }
