#!/bin/sh
# answer.sh: a run's own answer to "which storage for what", from its CSV alone: the answer
# that ends every make bench (on the terminal and as Markdown beside the CSV), that the report
# page shows, and that the README's guide is made of (from the reference run).
#
# Usage: scripts/answer.sh [-o FILE.md] [-b] [-H] [-f FIRST.csv] CSV
#   (default)  the Markdown on stdout
#   -o FILE    also writes it to FILE: to FILE.tmp.PID, checked whole, then renamed, so that a
#              failed write (a full disk) leaves no partial file and the previous one as it was
#   -b         brief, for a terminal: the explanations, and a scenario sweep's per-phase tables,
#              are left out of stdout (FILE keeps them; the output says so)
#   -H         HTML for scripts/report.sh instead of the Markdown (the fastest cells of class
#              "fastest", "no decision" cells of class "nodecision", tied entries of class
#              "tied"); not with -o
#   -f FIRST   the run's first provisional CSV (build/ecsbench --provisional: the rows of its
#              first process; default NAME-provisional.csv beside the CSV, where the run wrote
#              it, if there is one): a line under the table says how many verdicts changed
#              since it (a backend's place in a group: the fastest, tied with it, or slower;
#              reversed: the fastest became slower than another, or one called slower the
#              fastest)
#
# What the answer says is computed by build/ecsbench-compare --answer (harness/compare/answer.c:
# which groups are decided, why not, the summary of the uses a game has, the units); this script
# runs it and lays its records out (harness/compare/answer_report.h) as Markdown or HTML. Every
# figure is the CSV's own: nothing is computed again, so the answer and the CSV never disagree.
# A provisional CSV (the rows of the processes done so far, while the run goes on: a header
# line "# provisional after D of P processes") gets a short block, the summary alone; on a
# terminal each block replaces the one before it.
# Exit status: 0; 1 a failed write; 2 bad usage or a CSV it cannot read (not an ecsbench CSV,
# or one from before paired ratios: no ratio_to_best or vs_best column).
set -u

usage() {
	echo "usage: scripts/answer.sh [-o FILE.md] [-b] [-H] [-f FIRST.csv] CSV" >&2
	exit 2
}
out=
brief=0
html=0
first=
while getopts o:bHf:h opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	f) first=$OPTARG ;;
	b) brief=1 ;;
	H) html=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
[ "$html" = 0 ] || [ -z "$out" ] || usage
csv=$1
[ -f "$csv" ] && [ -r "$csv" ] || { echo "answer.sh: cannot read '$csv'" >&2; exit 2; }
[ -z "$first" ] || [ -r "$first" ] || { echo "answer.sh: cannot read the first provisional CSV '$first'" >&2; exit 2; }
here=$(dirname "$0")
tool=${ECSBENCH_COMPARE:-$here/../build/ecsbench-compare}
[ -x "$tool" ] || { echo "answer.sh: $tool is not built (make build/ecsbench-compare)" >&2; exit 2; }
# Without -f, the run's own first provisional CSV when it has one (NAME-provisional.csv beside
# NAME.csv: build/ecsbench writes it with the CSV and moves it away with it)
case $csv in *.csv) beside=${csv%.csv}-provisional.csv ;; *) beside=$csv-provisional.csv ;; esac
[ -n "$first" ] || [ ! -r "$beside" ] || first=$beside

# Where make draws this CSV's figures (the Makefile's PLOTS and SC_PLOTS): the default output's
# in plots/ (plots/reference/ for the reference's, plots/reference/full/ for the full sweep's),
# another OUTPUT=x.csv's in x-plots/; a run of the workloads' in a folder per profile.
profile=$(grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "profile") c = i; next } c { print $c; exit }')
case $csv in
"results/$profile.csv" | "results/scenario-"*.csv) figures=plots ;;
"results/reference/$profile.csv" | "results/reference/scenario-"*.csv) figures=plots/reference ;;
"results/reference/full/$profile.csv") figures=plots/reference/full ;;
*) figures=${csv%.csv}-plots ;;
esac
[ -z "$profile" ] || figures=$figures/$profile
# A provisional CSV's figures are not drawn yet.
! grep -q '^# provisional after ' "$csv" || figures=

# records BRIEF NOTE: build/ecsbench-compare --answer's records on stdout
records() {
	"$tool" --answer "$csv" ${first:+--first "$first"} --figures "$figures" \
		$([ "$1" = 1 ] && echo --brief) --note "$2"
}

# layout FORMAT: the records on stdin as FORMAT (md or html) on stdout
layout() {
	awk -F'\t' -v format="$1" -v file="$csv" '
	function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
	# the display width of a Markdown cell (UTF-8: continuation bytes take no room)
	function width(s,    t) { t = s; gsub(/[\200-\277]/, "", t); return length(t) }
	function pad(s, w) { while (width(s) < w) s = s " "; return s }
	function endlist() { if (inlist) { if (format == "html") print "</ul>"; else print "" } inlist = 0 }
	# an HTML cell: 2^18 as a power, tied entries marked
	function cellhtml(s) {
		if (s ~ /^2\^[0-9]+$/) return "2<sup>" substr(s, 3) "</sup>"
		s = esc(s); gsub(/ tied,/, " <span class=\"tied\">tied</span>,", s); sub(/ tied$/, " <span class=\"tied\">tied</span>", s)
		return s
	}
	function table_print(    i, j, w, s, line, cls) {
		if (format == "html") {
			printf "<table class=\"num answer\"><thead><tr>"
			for (j = 1; j <= ncol; j++) printf "<th>%s</th>", esc(head[j])
			print "</tr></thead><tbody>"
			for (i = 1; i <= nrow; i++) {
				printf "<tr>"
				for (j = 1; j <= ncol; j++) {
					cls = j == fast[i] ? " class=\"fastest\"" : cell[i, j] == "no decision" ? " class=\"nodecision\"" : ""
					printf "<td%s>%s</td>", cls, cellhtml(cell[i, j])
				}
				print "</tr>"
			}
			print "</tbody></table>"
			return
		}
		# Markdown, aligned for a terminal: every column but the last padded to its widest cell
		for (j = 1; j <= ncol; j++) { w[j] = width(head[j]) < 3 ? 3 : width(head[j]); for (i = 1; i <= nrow; i++) if (width(cell[i, j]) > w[j]) w[j] = width(cell[i, j]) }
		line = "|"
		for (j = 1; j <= ncol; j++) line = line " " (j < ncol ? pad(head[j], w[j]) : head[j]) " |"
		print line
		line = "|"
		for (j = 1; j <= ncol; j++) { s = ""; while (length(s) < (j < ncol ? w[j] : 3)) s = s "-"; if (j in right) s = substr(s, 2) ":"; line = line " " s " |" }
		print line
		for (i = 1; i <= nrow; i++) {
			line = "|"
			for (j = 1; j <= ncol; j++) line = line " " (j < ncol ? pad(cell[i, j], w[j]) : cell[i, j]) " |"
			print line
		}
		print ""
	}
	$1 != "li" { endlist() }
	$1 == "title" { if (format == "md") { print "## " $2; print "" } next }
	$1 == "h" { if (format == "html") print "<h4>" esc($2) "</h4>"; else { print "### " $2; print "" } next }
	$1 == "p" { if (format == "html") print "<p>" esc($2) "</p>"; else { print $2; print "" } next }
	$1 == "li" { if (!inlist) { if (format == "html") print "<ul>"; inlist = 1 } if (format == "html") print "<li>" esc($2) "</li>"; else print "- " $2; next }
	$1 == "table" {
		ncol = split($2, head, "|"); nrow = 0; delete right
		n = split($3, r, " "); for (i = 1; i <= n; i++) right[r[i]] = 1
		next
	}
	$1 == "row" { nrow++; fast[nrow] = $2 + 0; for (j = 1; j <= ncol; j++) cell[nrow, j] = $(j + 2); next }
	$1 == "end" { table_print(); next }
	END { endlist(); if (format == "md") print "(scripts/answer.sh " file ")" }
	'
}

# answer FORMAT BRIEF NOTE: the answer as FORMAT on stdout; 3 where the CSV cannot be read
answer() {
	records "$2" "$3" >"$tmpdir/records" || return 3
	layout "$1" <"$tmpdir/records"
}
tmpdir=$(mktemp -d) || exit 1
temp=
trap 'rm -rf "$tmpdir"; [ -z "$temp" ] || rm -f "$temp"' EXIT
trap 'exit 1' HUP INT TERM

if [ "$html" = 1 ]; then
	answer html 0 ""
	rc=$?
	[ "$rc" -ne 3 ] || exit 2
	[ "$rc" -eq 0 ] || exit 1
	exit 0
fi
# A provisional CSV: the short block, which on a terminal replaces the previous one (the run
# gives the first provisional CSV as FIRST and the latest as CSV: the same path the first time).
if grep -q '^# provisional after ' "$csv"; then
	answer md 1 "" >"$tmpdir/block" || exit 2
	if [ -t 1 ]; then
		# a line a row: each cut to the terminal's width, so that the block's height is its
		# count of lines, which the next block moves up over
		cols=$(stty size </dev/tty 2>/dev/null | cut -d' ' -f2)
		case $cols in '' | *[!0-9]*) cols=80 ;; esac
		[ "$cols" -ge 20 ] || cols=80 # a terminal that does not say its size
		sed '$d' "$tmpdir/block" | awk -v cols="$cols" '{
			out = ""; w = 0
			for (i = 1; i <= length($0); i++) {
				ch = substr($0, i, 1)
				if (ch !~ /[\200-\277]/ && ++w >= cols) { out = out "~"; break }
				out = out ch
			}
			print out
		}' >"$tmpdir/cut"
		[ -z "$first" ] || [ "$first" = "$csv" ] || printf '\033[%dA\033[J' "$(wc -l <"$tmpdir/cut")"
		cat "$tmpdir/cut"
	else
		sed '$d' "$tmpdir/block"
	fi
	exit 0
fi
if [ -n "$out" ]; then
	dir=$(dirname "$out")
	[ -d "$dir" ] || { echo "answer.sh: no folder $dir for $out" >&2; exit 2; }
	temp=$out.tmp.$$
	answer md 0 "" >"$temp"
	rc=$?
	[ "$rc" -ne 3 ] || exit 2
	# The last line says the answer is whole: a write cut short (a full disk) lacks it.
	if [ "$rc" -ne 0 ] || [ "$(tail -n 1 "$temp" 2>/dev/null)" != "(scripts/answer.sh $csv)" ] || ! mv -f "$temp" "$out"; then
		echo "answer.sh: cannot write $out (a full disk?); nothing was replaced" >&2
		exit 1
	fi
	temp=
fi
answer md "$brief" "${out:-the answer without -b}"
rc=$?
[ "$rc" -ne 3 ] || exit 2
[ "$rc" -eq 0 ] || exit 1
[ -z "$out" ] || echo "(written to $out)"
