#!/bin/sh
# fixed_cost.sh: where a pass's fixed cost stops dominating, per backend, from a run over small
# N (make small: iterate, empty-pass and systems-64 from N = 1 up). For each backend (and the
# floor), from iterate's rows: its per-entity cost c at the largest N of the run (median_ns / N),
# and the N below which a pass costs more than twice c x N (the crossing of median_ns / (c x N)
# with 2, interpolated on log axes between the two measured N around it). Beside it the
# empty pass (a system that matches nothing: empty-pass's median_ns at the smallest N, the fixed
# cost F itself) and F / c, where a pass of cost F + c N crosses 2 c N; and systems-64's time
# over iterate's at the largest N both measured (64 small passes against one).
#
# usage: scripts/fixed_cost.sh [-o FIGURE.png] [-k K] [-H HISTORY] CSV
#   writes the table (markdown) on stdout; with -o, the figure: iterate's pass time over c x N
#   against N per backend, the line at 2, and the empty pass's time per pass against N.
#   K: the components of the rows read (default 2, else the CSV's first); HISTORY: lived-in
#   (default, else the CSV's first).
set -eu
prog=fixed_cost.sh
here=$(dirname "$0")
out= k= hist=
while getopts o:k:H: opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) k=$OPTARG ;;
	H) hist=$OPTARG ;;
	*) echo "usage: $prog [-o FIGURE.png] [-k K] [-H HISTORY] CSV" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $prog [-o FIGURE.png] [-k K] [-H HISTORY] CSV" >&2; exit 2; }
csv=$1
[ -r "$csv" ] || { echo "$prog: cannot read $csv" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fixed_cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# backend,workload,N,median_ns of the chosen k and history, for iterate, empty-pass, systems-64
awk -F, -v OFS=, -v k="$k" -v hist="$hist" -v prog="$prog" -v file="$csv" '
	/^#/ || !NF { next }
	$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	!hdr { next }
	{
		w = $(c["workload"])
		if (w != "iterate" && w != "empty-pass" && w != "systems-64") next
		n++; b[n] = $(c["backend"]); wl[n] = w; e[n] = $(c["entities"]) + 0
		kk[n] = $(c["components"]); h[n] = ("history" in c) ? $(c["history"]) : "pristine"
		m[n] = $(c["median_ns"]) + 0
		if (wl[n] == "iterate") { ks[kk[n]] = 1; hs[h[n]] = 1; if (!firstk) firstk = kk[n]; if (!firsth) firsth = h[n] }
	}
	END {
		if (!firstk) { printf "%s: %s has no iterate rows (make small runs them)\n", prog, file > "/dev/stderr"; exit 2 }
		if (k == "") k = (2 in ks) ? 2 : firstk
		if (hist == "") hist = ("lived-in" in hs) ? "lived-in" : firsth
		if (!(k in ks)) { printf "%s: %s has no iterate rows at k = %s\n", prog, file, k > "/dev/stderr"; exit 2 }
		if (!(hist in hs)) { printf "%s: %s has no iterate rows under %s\n", prog, file, hist > "/dev/stderr"; exit 2 }
		print k, hist > "/dev/stderr"
		for (i = 1; i <= n; i++)
			if ((wl[i] == "systems-64" || kk[i] == k) && h[i] == hist && m[i] > 0)
				print b[i], wl[i], e[i], m[i]
	}' "$csv" >"$tmp/rows" 2>"$tmp/choice" || { cat "$tmp/choice" >&2; exit 2; }
IFS=, read -r k_used hist_used <"$tmp/choice" || true

# The backends in the CSV's order, the floor last.
backends=$(awk -F, '$1 != "floor" && !s[$1]++ { print $1 }' "$tmp/rows")
has_floor=$(awk -F, '$1 == "floor" { print "floor"; exit }' "$tmp/rows")

# Per backend: c, N*, F, F/c, systems-64 ratio; and the figure's series files.
for b in $backends $has_floor; do
	sort -t, -k3,3n "$tmp/rows" | awk -F, -v b="$b" -v dir="$tmp" '
		$1 != b { next }
		$2 == "iterate" { n++; N[n] = $3; T[n] = $4 }
		$2 == "empty-pass" { en++; EN[en] = $3; ET[en] = $4 }
		$2 == "systems-64" { sn++; SN[sn] = $3; ST[sn] = $4 }
		END {
			if (n < 2) { printf "%s,%s,,,,,,,\n", b, n ? N[n] : ""; exit }
			c = T[n] / N[n]
			for (i = 1; i <= n; i++) { r[i] = T[i] / (c * N[i]); print N[i] "," r[i] > (dir "/it-" b ".dat") }
			for (i = 1; i <= en; i++) print EN[i] "," ET[i] > (dir "/ep-" b ".dat")
			# the crossing: the last N (below the largest) where r > 2, and the one after it
			last = 0
			for (i = 1; i < n; i++) if (r[i] > 2) last = i
			if (last == 0) star = "below " N[1]
			else {
				la = log(N[last]); lb = log(N[last + 1]); ra = log(r[last]); rb = log(r[last + 1])
				x = ra == rb ? lb : la + (log(2) - ra) / (rb - ra) * (lb - la)
				star = sprintf("%.0f (%d..%d)", exp(x), N[last], N[last + 1])
			}
			F = en ? ET[1] : ""
			fc = en ? sprintf("%.0f", ET[1] / c) : ""
			# systems-64 against iterate at the largest N both have
			ratio = ""; at = ""
			for (i = sn; i >= 1 && ratio == ""; i--)
				for (j = 1; j <= n; j++) if (N[j] == SN[i]) { ratio = sprintf("%.2f", ST[i] / T[j]); at = N[j] }
			printf "%s,%d,%.3g,%s,%s,%s,%s,%s,%s\n", b, N[n], c, star, F == "" ? "" : sprintf("%.3g", F), en ? EN[1] : "", fc, ratio, at
		}'
done >"$tmp/table"

echo "Fixed cost of a pass (scripts/fixed_cost.sh $csv): k = $k_used, history $hist_used"
echo
echo "| backend | c: iterate's ns per entity at N | N below which a pass costs > 2 c N | empty pass, ns (at N) | F / c | systems-64 / iterate (at N) |"
echo "| --- | --- | --- | --- | --- | --- |"
awk -F, '{ printf "| %s | %s (%s) | %s | %s | %s | %s |\n", $1, $3 == "" ? "-" : $3, $2, $4 == "" ? "-" : $4,
	$5 == "" ? "-" : $5 " (" $6 ")", $7 == "" ? "-" : $7, $8 == "" ? "-" : $8 " (" $9 ")" }' "$tmp/table"
echo
echo "c: median_ns / N of iterate at the run's largest N. The crossing is where iterate's median_ns"
echo "over c x N falls to 2, interpolated on log axes between the measured N in brackets. F: one"
echo "pass of a system that matches nothing (empty-pass) at the smallest N; a pass of cost F + c N"
echo "costs more than 2 c N below N = F / c."

[ -n "$out" ] || exit 0
command -v gnuplot >/dev/null 2>&1 || { echo "$prog: gnuplot is missing (scripts/deps.sh plots installs it)" >&2; exit 2; }
# Styles in --list order, as every figure's (styles.gp); the floor dashed.
list=$("$here/../build/ecsbench" --list 2>/dev/null | awk '/^backends:/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }')
styles=
for b in $backends; do
	i=$(printf '%s\n' $list | awk -v b="$b" '$1 == b { print NR; exit }')
	styles="$styles ${i:-8}"
done
nmax=$(awk -F, '{ print $2; exit }' "$tmp/table")
# the series files there are (a backend with fewer than two iterate rows above 0 has none)
have=" $(cd "$tmp" && for f in it-*.dat ep-*.dat; do [ ! -s "$f" ] || printf '%s ' "${f%.dat}"; done)"
case "$have" in *" it-"*) ;; *) echo "$prog: no backend has two iterate rows above 0: $out not drawn" >&2; exit 0 ;; esac
gnuplot -e "dir='$tmp'; out='$out'; backends='$backends'; styles='$styles'; floor='$has_floor'; have='$have'; k='$k_used'; hist='$hist_used'; nmax='$nmax'; source='$(basename "$csv")'; scripts='$here'" \
	"$here/fixed_cost.gp" || { echo "$prog: gnuplot failed; $out not drawn" >&2; exit 2; }
echo "(figure: $out)"
