#!/bin/sh
# advise_plot.sh: the figure of an advisor's search (build/ecsbench --advise, make advise) from
# its steps CSV: a row per design tried, step by step from the top, its frame as a ratio to the
# step's reference (the best design so far; in the survey, the contest and the confirmation the
# step's fastest or the chosen design) on a log axis, with its interval as a bar (95%, or the
# survey's Bonferroni level), a line at 1. Colour says what the step made of it: kept (the
# search's new best), not kept, a reference, or a survey's or a contest's design. The title says the
# outcome (the chosen design and the confirmation's ratio); the rows name each design by its
# backend and marks; the axis's label says which reference each kind of step has.
#
# Usage: scripts/advise_plot.sh [-v] [-o PNG] CSV
#   -o  the PNG (default: the CSV's name with .png, beside it)
#   -v  show what gnuplot says on stderr (a normal run shows it only when gnuplot fails)
set -eu

usage() {
	echo "usage: scripts/advise_plot.sh [-v] [-o PNG] CSV" >&2
	exit 2
}

png=
verbose=0
while getopts o:vh opt; do
	case "$opt" in
	v) verbose=1 ;;
	o) png=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
csv=$1
[ -r "$csv" ] || { echo "advise_plot.sh: cannot read $csv" >&2; exit 2; }
grep -q '^step,stage,what,design,' "$csv" ||
	{ echo "advise_plot.sh: $csv is not an advisor's steps CSV (build/ecsbench --advise)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 ||
	{ echo "advise_plot.sh: gnuplot is not installed (make deps-plots)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$png" ] || png="${csv%.csv}.png"
mkdir -p "$(dirname "$png")"
out="$png.tmp.$$"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/advise_plot.XXXXXX")
trap '[ -n "${ADVISE_PLOT_KEEP:-}" ] || rm -rf "$tmp"; rm -f "$out"' EXIT

gp_quote() { printf '%s' "$1" | sed "s/'/''/g"; }
status=$(sed -n 's/^# advise \(.*\)$/\1/p' "$csv" | head -n 1)
cpu=$(sed -n 's/^# cpu \([^;]*\);.*/\1/p' "$csv" | head -n 1)

# rows.dat: y (0 at the top), the ratio, its interval, a style (1 kept, 2 not kept, 3 a
# reference or the fastest, 4 a survey's or contest's design, 5 slower in the confirmation),
# the label. The survey's rows fastest first; a search step shows its tried design only.
grep -v '^#' "$csv" | awk -F, -v dir="$tmp" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		step = $c["step"]; stage = $c["stage"]; v = $c["verdict"]
		search = stage == "sparse" || stage == "group" || stage == "batch"
		if (search && (v == "reference")) next
		n++
		s[n] = step; st[n] = stage; r[n] = $c["ratio"]; lo[n] = $c["ratio_ci_low"]
		hi[n] = $c["ratio_ci_high"]; d[n] = $c["design"]; w[n] = $c["what"]; mk[n] = $c["marks"]
		dec = $c["decision"]
		style[n] = search ? (dec == "kept" ? 1 : 2) : (v == "reference" || v == "fastest") ? 3 \
			: (stage == "confirm" ? 5 : 4)
	}
	END {
		# survey and contest rows: by ratio within their step (the fastest first)
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && s[j] == s[j - 1] && st[j] != "confirm" && r[j] + 0 < r[j - 1] + 0; j--) {
				split(s[j] SUBSEP st[j] SUBSEP r[j] SUBSEP lo[j] SUBSEP hi[j] SUBSEP d[j] SUBSEP w[j] SUBSEP style[j] SUBSEP mk[j], a, SUBSEP)
				s[j] = s[j - 1]; st[j] = st[j - 1]; r[j] = r[j - 1]; lo[j] = lo[j - 1]; hi[j] = hi[j - 1]
				d[j] = d[j - 1]; w[j] = w[j - 1]; style[j] = style[j - 1]; mk[j] = mk[j - 1]
				s[j - 1] = a[1]; st[j - 1] = a[2]; r[j - 1] = a[3]; lo[j - 1] = a[4]; hi[j - 1] = a[5]
				d[j - 1] = a[6]; w[j - 1] = a[7]; style[j - 1] = a[8]; mk[j - 1] = a[9]
			}
		lmin = 1; lmax = 1
		for (i = 1; i <= n; i++) {
			if (lo[i] == "") lo[i] = r[i]
			if (hi[i] == "") hi[i] = r[i]
			if (lo[i] + 0 > 0 && lo[i] + 0 < lmin) lmin = lo[i] + 0
			if (hi[i] + 0 > lmax) lmax = hi[i] + 0
			b = d[i]; sub(/:.*/, "", b)
			if (st[i] == "sparse" || st[i] == "group" || st[i] == "batch") {
				# what was tried, less its parenthesis; the row says the backend
				label = w[i]; sub(/ \(.*$/, "", label); label = label " (" b ")"
			} else {
				# a design of the survey, the contest or the confirmation by what a user chooses
				# (the backend and its marks), not by its name in the run (hybrid:best)
				# (no comma: the rows are comma-separated)
				label = b " (" mk[i] ")"
				if (st[i] == "confirm" && style[i] == 3) label = label ": chosen"
			}
			if (length(label) > 48) label = substr(label, 1, 47) "~"
			printf "%d,%.6g,%.6g,%.6g,%d,%s %s: %s\n", n - i, r[i], lo[i], hi[i], style[i], s[i], st[i], label > (dir "/rows.dat")
		}
		printf "%d\n%.6g\n%.6g\n", n, lmin, lmax > (dir "/range")
	}'
[ -s "$tmp/rows.dat" ] || { echo "advise_plot.sh: $csv has no step yet" >&2; exit 1; }
rows=$(sed -n 1p "$tmp/range")
lmin=$(sed -n 2p "$tmp/range")
lmax=$(sed -n 3p "$tmp/range")
name=$(basename "$csv" .csv)
# The outcome, from the confirmation's rows (none when the search stopped before it): the chosen
# design, then the other design's ratio to it and the confirmation's decision.
outcome=$(grep -v '^#' "$csv" | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["stage"] != "confirm" { next }
	$c["verdict"] == "reference" {
		b = $c["design"]; sub(/:.*/, "", b); chosen = b " (" $c["marks"] ")"
		dec = $c["decision"]; sub(/ \(.*$/, "", dec); gsub(/\+/, ", ", dec); next
	}
	{ b = $c["design"]; sub(/:.*/, "", b)
	  other = sprintf("%s (%s) takes %.2fx [%.2f,\001%.2f] its frame", b, $c["marks"], $c["ratio"], $c["ratio_ci_low"], $c["ratio_ci_high"]) }
	END { if (chosen != "") printf "chosen: %s\nin a fresh run %s: %s", chosen, other, dec }')
[ -n "$outcome" ] || outcome="no confirmation run (the search stopped before it): the advice names the best design so far"
# The title as lines (advise.gp wraps each to the canvas, styles.gp's fit_title), given to
# gnuplot as a file (its lines hold any character a path can); an interval's two ends kept on
# one line by a no-break space, which the wrapping does not break at. The title: what the
# figure shows and the design chosen; the caption: the fresh run's figures, the search's
# status, the machine.
printf '%s: every design tried, its frame against its step'"'"'s reference\n%s\n' \
	"$name" "$(printf '%s\n' "$outcome" | head -n 1)" | sed 's/\x01/\xc2\xa0/g' > "$tmp/title"
printf '%s\n%s\n%s\n' "$(printf '%s\n' "$outcome" | sed 1d)" "$status" "$cpu" | sed '/^$/d; s/\x01/\xc2\xa0/g' > "$tmp/caption"
label_chars=$(awk -F, '{ n = length($6); if (n > m) m = n } END { print m + 0 }' "$tmp/rows.dat")
have=" $(cut -d, -f5 "$tmp/rows.dat" | sort -u | tr '\n' ' ')"

gp() {
	if [ "$verbose" -eq 1 ]; then
		gnuplot "$@"
	elif ! gnuplot "$@" 2>"$tmp/gnuplot.err"; then
		cat "$tmp/gnuplot.err" >&2
		echo "advise_plot.sh: gnuplot failed drawing $png" >&2
		exit 1
	fi
}
gp -e "scripts='$top/scripts'; out='$(gp_quote "$out")'; data='$tmp/rows.dat'; rows=$rows; \
	lmin=$lmin; lmax=$lmax; title_file='$tmp/title'; caption_file='$tmp/caption'; label_chars=$label_chars; have='$have'" \
	"$top/scripts/advise.gp"
[ -s "$out" ] || { echo "advise_plot.sh: gnuplot wrote no figure" >&2; exit 1; }
mv "$out" "$png"
echo "$png"
