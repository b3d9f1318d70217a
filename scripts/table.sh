#!/bin/sh
# table.sh CSV BASELINE [ENTITIES] [COMPONENTS]: the table of Varkor's refactor post from a CSV
# that build/ecsbench wrote: per workload and backend, the median time of one run, the storage's peak memory, the
# allocation calls of one run, and each one's ratio to the BASELINE backend's, in parentheses
# to its left as the post prints them; memory reuse (peak after the last round / after the
# first) where the workload has rounds. Markdown on stdout; one pass over the CSV.
#
# Swept workloads are shown at ENTITIES (default, or an empty argument: the largest N of the
# swept rows) and COMPONENTS (default 2); a swept workload measured at one k only (fragmented)
# at that k; Varkor's own (varkor-*) at their N and k. An ENTITIES or COMPONENTS that no
# swept row has is an error that lists the ones the CSV has.
# A threaded workload (parallel-iterate: a row per thread count T) is shown at its largest T,
# which its label names.
# A row the CSV flags noisy (its column noisy is 1; the CSV's `#` lines say what that means)
# has "(noisy)" after its time. A ratio under 0.1 reads 1/x (x times smaller, x to three
# significant digits), not 0.000; a zero reads 0. Columns are found by their header names.
set -eu
csv=${1:-}
base=${2:-}
n=${3:-}
k=${4:-2}
if [ -z "$csv" ] || [ -z "$base" ]; then
	echo "usage: table.sh CSV BASELINE [ENTITIES] [COMPONENTS]   (or make table PROFILE=A BASELINE=hash [CSV=] [ENTITIES=])" >&2
	exit 2
fi
[ -r "$csv" ] || { echo "table.sh: cannot read '$csv'" >&2; exit 2; }
# ENTITIES as build/ecsbench reads it: a whole number, or one with k (x 1024) or M (x 1048576).
unit=1 digits=$n
case "$n" in *[kK]) unit=1024 digits=${n%?} ;; *M) unit=1048576 digits=${n%?} ;; esac
case "$digits" in *[!0-9]* | [kKM]) echo "table.sh: ENTITIES must be one entity count (64k = 65536, 1M = 1048576), not '$n'" >&2; exit 2 ;; esac
[ -z "$n" ] || n=$((digits * unit))
case "$k" in '' | *[!0-9]*) echo "table.sh: COMPONENTS must be one component count, not '$k'" >&2; exit 2 ;; esac

header() { sed -n "s/^# $1 //p" "$csv" | head -n 1; }
noisy_means=$(sed -n 's/^# .*; \(rows [^;]*flagged noisy\).*/\1/p' "$csv" | head -n 1)

grep -v '^#' "$csv" | awk -F, -v base="$base" -v n="$n" -v k="$k" -v file="$csv" \
	-v date="$(header date)" -v cpu="$(header cpu | cut -d';' -f1)" -v commit="$(header 'ecsbench commit')" \
	-v noisy_means="$noisy_means" '
function fail(msg) { print "table.sh: " file ": " msg > "/dev/stderr"; failed = 1; exit 2 }
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
function thousands(x,    s, out) {
	s = sprintf("%.0f", x); out = ""
	while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
	return s out
}
# ratio(v, b) -> "(r) ": 3 significant digits from 0.1 up, 1/x below, 0 for zero, "" without a base.
function ratio(v, b,    r, x, e) {
	if (b <= 0 || v == "") return ""
	r = v / b
	if (r == 0) return "(0) "
	if (r >= 100) return sprintf("(%.0f) ", r)
	if (r >= 10) return sprintf("(%.1f) ", r)
	if (r >= 1) return sprintf("(%.2f) ", r)
	if (r >= 0.1) return sprintf("(%.3f) ", r)
	x = 1 / r
	e = x >= 1000 ? 10 ^ (int(log(x) / log(10)) - 2) : 1
	used_inverse = 1
	return "(1/" thousands(int(x / e + 0.5) * e) ") "
}
function col(name) { return (name in c) ? $(c[name]) : "" }
# the workload named with its history, as the figures name it (scripts/common.sh, normalise)
function named(    w, h) {
	w = col("workload"); h = ("history" in c) ? col("history") : (w ~ /^varkor-/ ? "-" : "pristine")
	return (h == "lived-in" || h == "-" || h == "") ? w : w "-" h
}
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	split("backend workload entities components median_ns peak_bytes allocations", need, " ")
	for (i in need) if (!(need[i] in c)) fail("no column " need[i] " in its header row")
	next
}
col("backend") == "floor" { next }
{
	row[++nr] = $0
	w = named(); b = col("backend")
	if (b == base) has_base = 1
	if (col("threads") + 0 > maxt[w]) maxt[w] = col("threads") + 0
	if (w !~ /^varkor-/) {
		if (col("entities") + 0 > maxn) maxn = col("entities") + 0
		ns[col("entities") + 0] = 1; ks[w, col("components") + 0] = 1; kall[col("components") + 0] = 1
	}
}
function keys(a,    s, x, list, m, i, j, t) {
	m = 0
	for (x in a) list[++m] = x + 0
	for (i = 2; i <= m; i++) for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
	s = ""
	for (i = 1; i <= m; i++) s = s (i > 1 ? ", " : "") list[i]
	return s
}
END {
	if (failed) exit 2
	if (!nr) fail("no data rows")
	if (!has_base) fail("no rows of backend " base)
	if (n == "") n = maxn
	if (maxn && !(n in ns)) fail("no swept rows with N = " n "; it has N = " keys(ns))
	if (maxn && !(k in kall)) fail("no swept rows with k = " k "; it has k = " keys(kall))
	for (i = 1; i <= nr; i++) {
		$0 = row[i]
		w = named()
		if (col("threads") != "" && col("threads") + 0 != maxt[w]) continue
		if (w !~ /^varkor-/) {
			if (col("entities") + 0 != n) continue
			# a workload measured at one k only (fragmented) is shown at that k
			kk = ((w, k) in ks) ? k : col("components") + 0
			if (col("components") + 0 != kk) continue
		}
		if (!(w in seen)) { seen[w] = 1; order[++nw] = w; label[w] = w " (N=" col("entities") ", k=" col("components") (col("speedup") != "" ? ", T=" col("threads") : "") ")" }
		b = col("backend")
		key = w SUBSEP b
		if (!(key in t)) { nb[w]++; bk[w, nb[w]] = b }
		t[key] = col("median_ns"); m[key] = col("peak_bytes"); a[key] = col("allocations"); r[key] = col("reuse")
		noisy[key] = col("noisy") + 0
	}
	printf "From `%s` (%s; %s; ecsbench commit %s), ratios to `%s`.\n", file, date == "" ? "no date" : date,
		cpu == "" ? "cpu not recorded" : cpu, commit == "" ? "?" : commit, base
	printf "Time: median of one run; memory: the storage'"'"'s peak; allocations: calls in one run.\n"
	printf "Swept workloads at N = %s, k = %s unless their label says otherwise; Varkor'"'"'s at their own.\n\n", n, k
	print "| workload | backend | time | max memory | allocations | reuse |"
	print "| --- | --- | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		for (j = 1; j <= nb[w]; j++) {
			b = bk[w, j]; key = w SUBSEP b; bkey = w SUBSEP base
			isb = (b == base) || !(bkey in t)
			if (noisy[key]) any_noisy = 1
			printf "| %s | %s | %s%s%s | %s%s | %s%s | %s |\n", (j == 1 ? label[w] : ""), b,
				isb ? "" : ratio(t[key], t[bkey]), human_time(t[key]), noisy[key] ? " (noisy)" : "",
				isb ? "" : ratio(m[key], m[bkey]), human_bytes(m[key]),
				isb ? "" : ratio(a[key], a[bkey]), a[key], r[key] == "" ? "" : r[key]
		}
	}
	if (any_noisy || used_inverse) print ""
	if (any_noisy) printf "(noisy): %s; read its time and ratio with care.\n",
		noisy_means == "" ? "the CSV flags the row noisy" : "the CSV says " noisy_means
	if (used_inverse) print "(1/x): a ratio under 0.1, x times smaller than the baseline."
}'
