#!/bin/sh
# report.sh: one HTML page with everything a run produced (what `make report` runs): per CSV its
# run, three tables and every figure with its caption; then the profiles side by side and the
# comparisons made beside it (make compare). The page is self-contained (its style inline, no
# font, script or image from elsewhere) and names every image and link relative to itself, so
# that it opens from the file system, with no server and no network, wherever the folder goes
# with its figures.
#
# Usage: scripts/report.sh -o PAGE.html [-p PLOTS_DIR] CSV...
#   -o  the page to write (written to PAGE.html.tmp, then renamed)
#   -p  where plot.sh drew the figures (default: plots): PLOTS_DIR/<profile>/*.png for each CSV's
#       profile, PLOTS_DIR/profiles/*.png once
#
# The tables, per CSV:
#   the answer    scripts/answer.sh -H CSV: its summary (a line per use), then per workload and
#                 k at the largest N the fastest backend (highlighted; "no decision" where the
#                 run cannot name one), its distance to the floor, every other backend's paired
#                 ratio to it with its interval, tied where the interval holds 1
#   at a glance   ns per entity (median_ns, its 95% interval under it) per backend and
#                 workload, at the largest N each workload measured, k = 2 (or the one k a
#                 workload has); a backend not measured there is "not measured", never blank
#   Varkor's      scripts/table.sh CSV hash (time, peak memory, allocations; ratios to hash)
#   performance   per workload, at its largest N, each k: time per entity with its interval,
#                 ratio_to_floor, ratio_to_best with its interval and vs_best (the best row of
#                 each group highlighted); every N in a folded table under it
# Over several CSVs, a section says whether each run met the machine in the first one's state
# (build/ecsbench-compare --machine, harness/core/machine.h), and each comparison shows make compare's
# "Machine state" lines beside its runs.
# A figure older than its CSV says so in its caption (make plots draws it again). A figure the
# page would name but that does not exist is left out and listed as missing. An inline script
# marks an image that the browser could not load (make test-browser reads that mark).
# Costs: one awk pass over each CSV per table, table.sh and answer.sh once per CSV; no gnuplot.
# Exit status: 0; 2 bad usage or a CSV that cannot be read.
set -eu

usage() {
	echo "usage: scripts/report.sh -o PAGE.html [-p PLOTS_DIR] CSV..." >&2
	exit 2
}
out=
plots=plots
while getopts o:p:h opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	p) plots=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$out" ] && [ $# -ge 1 ] || usage
prog=report.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
bin=$top/build/ecsbench
compare_bin=$top/build/ecsbench-compare
verbose=0
for csv in "$@"; do
	[ -f "$csv" ] && [ -r "$csv" ] || { echo "report.sh: cannot read '$csv'" >&2; exit 2; }
done
outdir=$(dirname "$out")
[ -d "$outdir" ] || { echo "report.sh: no folder $outdir for $out" >&2; exit 2; }
mkdir -p "$top/build/plots"
tmp=$(mktemp -d "$top/build/plots/report.XXXXXX")
trap 'rm -rf "$tmp" "$out.tmp"' EXIT
trap 'exit 1' HUP INT TERM

. "$here/common.sh"

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }
escs() { printf '%s' "$1" | esc; }
# rel PATH -> PATH relative to the page's folder (what the page names)
rel() { realpath -m --relative-to="$outdir" "$1"; }
workload_order=$(listed workloads | tr '\n' ' ')

# caption FILE KIND [CSV] -> the caption of a figure (KIND: run, profiles or compare; CSV: the
# run's, whose paired ratios a time figure draws under its panels where it has them)
caption() {
	name=$(basename "$1" .png)
	size=
	case "$name" in *-[0-9]*B) size=${name##*-}; size=${size%B}; name=${name%-*} ;; esac
	sizetext=
	[ -z "$size" ] || sizetext=", $size-byte Position and Velocity"
	case "$2:$name" in
	run:varkor) echo "Varkor's workloads, from Varkor's refactor post (fixed size, not swept over N)$sizetext: the time of one run, the storage's peak memory and the allocation calls of one run, a bar per backend." ;;
	run:memory-*) echo "${name#memory-}$sizetext: bytes per entity against the entity count N, from the counting allocator (exact: no interval): on top what the storage holds when the workload ends (live_bytes_per_entity), under it its peak over the run, setup included (peak_bytes / N); a panel per k, a line per backend, the floor (plain arrays) dashed." ;;
	run:cache-*) echo "${name#cache-} under valgrind (make cachegrind)$sizetext: simulated D1 and LLd misses per entity of the timed call, a panel per k and N, two bars per backend." ;;
	run:*-speedup) echo "${name%-speedup}$sizetext: the speedup over T = 1 (the same backend's time at T = 1 over its time at T) against the thread count T, at the largest N, a panel per k, a line per backend and the floor with the speedup's 95% interval; the ideal T dotted." ;;
	run:*)
		what=$(describe "$name")
		threads=
		[ ! -f "$(dirname "$1")/$name-speedup.png" ] || threads=" at its largest thread count T (the speedup figure has every T)"
		history=$(history_text "$name")
		verdicts=
		if [ -n "${3:-}" ] && grep -v '^#' "$3" | grep -m 1 '^backend,' | tr ',' '\n' | grep -qx ratio_to_best; then
			verdicts="; under each panel, each backend's time over the fastest's at that N (ratio_to_best) with its interval paired by process, hollow where the CSV calls it tied with the fastest"
		fi
		echo "$name$sizetext: time per entity against the entity count N$threads, a panel per k, a line per backend, its 95% interval as error bars$verdicts${what:+. Timed: $what}${history:+. The storage's $history}." ;;
	profiles:*) echo "$name: time per entity by profile (A, AA, AAA: more component types and systems registered), at the largest N the profiles share, a panel per k." ;;
	compare:varkor) echo "Varkor's workloads, OLD against NEW: the time of one run of each (OLD hollow, left; NEW filled, right), and NEW/OLD with its 95% interval under it." ;;
	compare:*) echo "$name, OLD against NEW: time per entity (OLD dotted and hollow, NEW solid and filled), points whose verdict is faster or slower marked; NEW/OLD per backend with its 95% interval under it." ;;
	esac
}
# rank FILE -> a sort key: swept workloads in --list order, then Varkor's, then the memory and
# the cache figures, then the rest by name
rank() {
	name=$(basename "$1" .png)
	group=0
	case "$name" in varkor*) group=1 ;; memory-*) group=2; name=${name#memory-} ;; cache-*) group=3; name=${name#cache-} ;; esac
	base=${name%-[0-9]*B}
	base=${base%-speedup}
	# a workload named with its history ("iterate-pristine") goes after its lived-in figure
	i=$(echo "$workload_order" | tr ' ' '\n' | awk -v w="$base" '$0 == w || index(w, $0 "-") == 1 { print NR; exit }')
	printf '%d %03d %s\n' "$group" "${i:-999}" "$(basename "$1")"
}
# figures DIR KIND [CSV] -> the <figure> elements of DIR's PNG files (those of CSV's run: a
# figure older than CSV says so)
figures() {
	ls "$1"/*.png >/dev/null 2>&1 || return 0
	for f in "$1"/*.png; do rank "$f"; done | sort -k1,1n -k2,2n -k3 | while read -r _ _ name; do
		f=$1/$name
		stale=
		if [ -n "${3:-}" ] && [ "$f" -ot "$3" ]; then
			stale=" <em>Drawn before $(escs "$3") was written: make plots draws it again.</em>"
		fi
		printf '<figure><a href="%s"><img src="%s" alt="%s"></a><figcaption><b>%s</b>: %s%s</figcaption></figure>\n' \
			"$(rel "$f" | esc)" "$(rel "$f" | esc)" "$(escs "$name")" "$(escs "$name")" "$(caption "$f" "$2" "${3:-}" | esc)" "$stale"
	done
}

# md_table: the Markdown of table.sh (the table of Varkor's refactor post) as HTML: prose lines as
# paragraphs, `code` as code.
md_table() {
	esc | awk '
		function code(s) { while (match(s, /`[^`]*`/)) s = substr(s, 1, RSTART - 1) "<code>" substr(s, RSTART + 1, RLENGTH - 2) "</code>" substr(s, RSTART + RLENGTH); return s }
		/^\| *---/ { next }
		/^\|/ {
			n = split($0, c, "|")
			if (!intable) { print "<table class=\"num\"><thead><tr>"; tag = "th"; intable = 1 } else tag = "td"
			if (tag == "td" && !body) { print "</tr></thead><tbody>"; body = 1 }
			if (tag == "td") printf "<tr>"
			for (i = 2; i < n; i++) { v = c[i]; gsub(/^ +| +$/, "", v); printf "<%s>%s</%s>", tag, code(v), tag }
			print (tag == "td" ? "</tr>" : "")
			next
		}
		intable { print "</tbody></table>"; intable = 0; body = 0 }
		NF { print "<p>" code($0) "</p>" }
		END { if (intable) print "</tbody></table>" }'
}

# The per-row figures of a CSV, columns by name, as "workload|N|k|backend|ns per entity|low per
# entity|high per entity|ratio_to_floor|ratio_to_best|ratio low|ratio high|vs_best|noisy"; a
# threaded workload's rows (they have a speedup) are named "workload T=<threads>", a column of
# the tables each
rows_of() {
	grep -v '^#' "$1" | awk -F, -v OFS='|' -v file="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			split("backend workload entities components median_ns ns_per_entity", need, " ")
			for (i in need) if (!(need[i] in c)) { print "report.sh: " file ": no column " need[i] > "/dev/stderr"; exit 2 }
			next }
		function col(n) { return (n in c) ? $(c[n]) : "" }
		NF {
			n = col("entities") + 0; med = col("median_ns") + 0; npe = col("ns_per_entity") + 0
			u = npe > 0 ? med / npe : n; if (u <= 0) u = 1
			lo = col("ci_low_ns"); hi = col("ci_high_ns")
			print col("workload") (col("speedup") != "" ? " T=" col("threads") : ""), n,
				col("components"), col("backend"), npe,
				lo == "" ? "" : lo / u, hi == "" ? "" : hi / u, col("ratio_to_floor"), col("ratio_to_best"),
				col("ratio_ci_low"), col("ratio_ci_high"), col("vs_best"), col("noisy") + 0
		}' >"$tmp/rows" || exit 2
}

# glance: the at-a-glance table from $tmp/rows; BACKENDS in palette order
glance() {
	awk -F'|' -v bs="$1" -v re="$fixed_re" '
		function num(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.3g", x) }
		$1 !~ re {
			if (!($1 in seen)) { seen[$1] = 1; w[++nw] = $1 }
			if ($2 + 0 > maxn[$1]) maxn[$1] = $2 + 0
			ks[$1, $3] = 1
			v[$1, $2, $3, $4] = num($5) ($6 == "" ? "" : "<small>" num($6) "&ndash;" num($7) "</small>") ($13 ? " <span class=\"noisy\">noisy</span>" : "")
		}
		END {
			if (!nw) { print "<p>No swept workload in this run.</p>"; exit }
			nb = split(bs, b, " ")
			for (i = 1; i <= nw; i++) k[w[i]] = ((w[i], 2) in ks) ? 2 : ""
			for (i = 1; i <= nw; i++) if (k[w[i]] == "") for (x = 1; x <= 3 && k[w[i]] == ""; x++) if ((w[i], x) in ks) k[w[i]] = x
			print "<table class=\"num\"><thead><tr><th>backend</th>"
			for (i = 1; i <= nw; i++) printf "<th>%s<br><small>N = %d, k = %s</small></th>", w[i], maxn[w[i]], k[w[i]]
			print "</tr></thead><tbody>"
			for (j = 1; j <= nb + 1; j++) {
				bb = j <= nb ? b[j] : "floor"
				any = 0
				for (i = 1; i <= nw; i++) if ((w[i], maxn[w[i]], k[w[i]], bb) in v) any = 1
				if (bb == "floor" && !any) continue
				printf "<tr><th>%s</th>", bb == "floor" ? "floor (plain arrays)" : bb
				for (i = 1; i <= nw; i++) {
					key = w[i] SUBSEP maxn[w[i]] SUBSEP k[w[i]] SUBSEP bb
					printf "<td>%s</td>", (key in v) ? v[key] : "<span class=\"absent\">not measured</span>"
				}
				print "</tr>"
			}
			print "</tbody></table>"
		}' "$tmp/rows"
}

# performance [all]: ratio_to_floor and ratio_to_best per row, at each workload's largest N (all:
# every N)
performance() {
	awk -F'|' -v all="${1:-}" -v re="$fixed_re" '
		function num(x) { return x == "" ? "" : x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.3g", x) }
		{ if ($2 + 0 > maxn[$1]) maxn[$1] = $2 + 0; row[++n] = $0 }
		END {
			print "<table class=\"num\"><thead><tr><th>workload</th><th>N</th><th>k</th><th>backend</th><th>ns per entity</th><th>95% interval</th><th>ratio to floor</th><th>ratio to best</th><th>95% interval</th><th>vs best</th></tr></thead><tbody>"
			for (i = 1; i <= n; i++) {
				split(row[i], f, "|")
				if (!all && f[2] + 0 != maxn[f[1]]) continue
				printf "<tr%s><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
					f[4] == "floor" ? " class=\"floor\"" : f[12] == "best" ? " class=\"best\"" : "", f[1], f[2], f[3], f[4], num(f[5]),
					f[13] ? " <span class=\"noisy\">noisy</span>" : "",
					f[6] == "" ? "" : num(f[6]) "&ndash;" num(f[7]), f[8], f[9],
					f[10] == "" ? "" : f[10] "&ndash;" f[11], f[12]
			}
			print "</tbody></table>"
		}' "$tmp/rows"
}

missing_figures=
page() {
	now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	cat <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ecsbench report</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 14px; margin: 1.5em auto; max-width: 1400px; padding: 0 1em; color: #202020; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; } h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #d8d8d8; padding: 0.2em 0.5em; vertical-align: top; }
thead th { background: #f2f2f2; }
table.num td { text-align: right; } table.num td:first-child { text-align: left; }
td small { display: block; color: #707070; }
tr.floor td { color: #505050; font-style: italic; }
td.fastest, tr.best td { background: #dcefd5; } td.fastest { font-weight: bold; }
.tied { color: #8a5a00; font-size: 0.85em; } td.nodecision { color: #b04000; font-style: italic; }
table.answer td { text-align: left; } table.answer td:not(:last-child) { white-space: nowrap; }
.noisy { color: #b04000; font-size: 0.85em; } .absent { color: #909090; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 12px; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #e0e0e0; }
figcaption { margin-top: 0.3em; max-width: 1100px; }
img.broken { min-width: 300px; min-height: 60px; background: #fee; }
nav a { margin-right: 1em; }
details { margin: 0.5em 0; }
</style>
</head>
EOF
	echo "<body>"
	echo "<h1>ecsbench report</h1>"
	printf '<p>Written by <code>make report</code> (scripts/report.sh) at %s from %s. Every figure links to its full-size image; every number comes from the CSV named with it.</p>\n' \
		"$now" "$(for c in "$@"; do printf '<a href="%s"><code>%s</code></a> ' "$(rel "$c" | esc)" "$(escs "$c")"; done)"
	printf '<nav>'
	i=0
	for csv in "$@"; do
		i=$((i + 1))
		printf '<a href="#run%d">%s</a><a href="#answer%d">its answer</a>' "$i" "$(escs "$(basename "$csv")")" "$i"
	done
	[ ! -d "$plots/profiles" ] || printf '<a href="#profiles">profiles side by side</a>'
	[ $# -lt 2 ] || printf '<a href="#machine">machine state across the runs</a>'
	printf '<a href="#comparisons">comparisons</a></nav>\n'

	i=0
	for csv in "$@"; do
		i=$((i + 1))
		rows_of "$csv"
		profile=$(grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (j = 1; j <= NF; j++) if ($j == "profile") c = j; next } c { print $c; exit }')
		palette=$( (listed backends; cut -d'|' -f4 "$tmp/rows") | awk 'NF && $0 != "floor" && !seen[$0]++' | tr '\n' ' ')
		printf '<h2 id="run%d">Profile %s: <code>%s</code></h2>\n' "$i" "$(escs "${profile:-?}")" "$(escs "$csv")"
		printf '<pre>%s</pre>\n' "$(grep '^#' "$csv" | sed 's/^# //' | esc)"
		caveat=$(interval_caveat "$csv")
		[ -z "$caveat" ] || printf '<p><b>Read the intervals below with care</b>: %s.</p>\n' "$(escs "$caveat")"
		printf '<h3 id="answer%d">The answer: which storage for what</h3>\n' "$i"
		if ! "$here/answer.sh" -H "$csv" 2>"$tmp/answer.err"; then
			printf '<p>No answer: %s</p>\n' "$(esc <"$tmp/answer.err")"
		fi
		echo "<h3>At a glance: ns per entity at the largest N</h3>"
		echo "<p>median_ns per entity (per entity per round for a workload with rounds; the $(escs "$(centre_text "$csv")")), its 95% interval under it; k = 2, or the one k a workload measures. <span class=\"noisy\">noisy</span>: $(escs "$(noisy_means "$csv")")$( [ -n "$(noisy_means "$csv")" ] || echo 'as the CSV flags it').</p>"
		glance "$palette"
		echo "<h3>The table of Varkor's refactor post</h3>"
		if scripts_table=$("$here/table.sh" "$csv" hash '' 2 2>"$tmp/table.err"); then
			printf '%s\n' "$scripts_table" | md_table
		else
			printf '<p>No table: %s</p>\n' "$(esc <"$tmp/table.err")"
		fi
		echo "<h3>Performance: ratios to the floor and to the best backend</h3>"
		echo "<p>At each workload's largest N. <i>ratio to floor</i>: median_ns over the floor's (the same work over plain arrays) in the same run; <i>ratio to best</i>: median_ns over that of the row group's best (the backend with the lowest median_ns, so never below 1), with the interval of the log medians paired by process, simultaneous 95% for its group (Bonferroni over every pair of its K backends, each at 1 &minus; 5%/(K(K &minus; 1)/2): the best is chosen from the same samples; an older CSV's are each at 1 &minus; 5%/(K &minus; 1), as its header says); <i>vs best</i>: slower when that interval lies above 1, tied otherwise.</p>"
		performance
		echo "<details><summary>Every N</summary>"
		performance all
		echo "</details>"
		echo "<h3>Figures</h3>"
		if [ -d "$plots/$profile" ] && ls "$plots/$profile"/*.png >/dev/null 2>&1; then
			figures "$plots/$profile" run "$csv"
		else
			printf '<p>No figures in <code>%s</code>: <code>make plots</code> draws them.</p>\n' "$(escs "$plots/$profile")"
			missing_figures="$missing_figures $plots/$profile"
		fi
	done

	if [ -d "$plots/profiles" ]; then
		echo '<h2 id="profiles">Profiles side by side</h2>'
		figures "$plots/profiles" profiles
	fi

	# Runs drawn side by side (the profiles) are of separate sessions: whether each met the
	# machine in the first one's state (build/ecsbench-compare --machine, harness/core/machine.h).
	if [ $# -ge 2 ]; then
		echo '<h2 id="machine">Machine state across the runs</h2>'
		echo "<p>Each run against $(escs "$1"): whether its streaming and random-access fingerprints (or, for a CSV of an older ecsbench, its floor rows of iterate and get) moved by the same factor. Where they differ, a ratio between streaming and latency-bound rows, and the profiles side by side, cannot be carried from one run to the other (docs/comparing.md, &ldquo;Machine state&rdquo;).</p>"
		first=$1
		shift
		for csv in "$@"; do
			if [ -x "$compare_bin" ]; then
				text=$("$compare_bin" --machine "$first" "$csv" 2>&1) || true
			else
				text="$compare_bin is not built: make $compare_bin"
			fi
			printf '<h3><code>%s</code></h3><pre>%s</pre>\n' "$(escs "$csv")" "$(printf '%s\n' "$text" | esc)"
		done
		set -- "$first" "$@"
	fi

	echo '<h2 id="comparisons">Comparisons</h2>'
	any=0
	for csv in "$@"; do
		cdir=${csv%.csv}-compare
		[ -f "$cdir/figures.txt" ] || continue
		any=1
		printf '<h3>With <code>%s</code> as NEW (<a href="%s">make compare'"'"'s report</a>, <a href="%s">its verdicts</a>)</h3>\n' \
			"$(escs "$csv")" "$(rel "$cdir/compare.txt" | esc)" "$(rel "$cdir/verdicts.csv" | esc)"
		# the runs, and whether they met the machine in the same state (harness/core/machine.h)
		printf '<pre>%s</pre>\n' "$(awk 'NR <= 2 { print; next } /^Machine state/ { m = 1; print; next }
			m && /^  / { print; next } { m = 0 }' "$cdir/compare.txt" | esc)"
		figures "$cdir" compare
	done
	[ "$any" = 1 ] || echo "<p>None: <code>make compare OLD=x.csv NEW=y.csv</code> draws two runs together into <code>y-compare/</code>, which this page then shows.</p>"

	cat <<'EOF'
<script>
// Marks an image the browser could not load, on the page (a reader sees which) and in the
// body's data-images-* attributes (make test-browser reads them).
window.addEventListener("load", function () {
	var imgs = document.images, broken = 0;
	for (var i = 0; i < imgs.length; i++) {
		if (!imgs[i].complete || imgs[i].naturalWidth === 0) {
			broken++;
			imgs[i].className = "broken";
			imgs[i].setAttribute("data-broken", "1");
			imgs[i].alt = "could not load " + imgs[i].getAttribute("src");
		}
	}
	document.body.setAttribute("data-images", String(imgs.length));
	document.body.setAttribute("data-images-broken", String(broken));
});
</script>
</body>
</html>
EOF
}

# Every write checked: a failed one (a full disk) ends the script (set -e) or leaves a page without
# its last line; either way the old page stays and the partial one goes (the trap).
page "$@" >"$out.tmp"
[ "$(tail -n 1 "$out.tmp")" = "</html>" ] ||
	{ echo "report.sh: cannot write $out: the page was cut short (a full disk?); the old one stays" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "report.sh: wrote $out ($(grep -c '<img ' "$out") figures)" >&2
[ -z "$missing_figures" ] || echo "report.sh: no figures in$missing_figures: make plots draws them" >&2
