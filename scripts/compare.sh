#!/bin/sh
# compare.sh: what `make compare` runs. Two runs (or two profiles of one run set) in one figure
# per workload, from build/ecsbench-compare's verdicts and the two CSV files.
#
# Usage: scripts/compare.sh [-v] [-p] [-r] [-o DIR] OLD.csv NEW.csv
#   -p  the two files are two profiles of one run set (A against AAA): ecsbench-compare
#       --profiles, which matches rows without the profile; the drift is then the profiles'
#       difference, not the machine's
#   -r  print every row (ecsbench-compare --rows, make compare ROWS=1) instead of the screen
#   -o  where the figures go (default: beside NEW, NEW.csv -> NEW-compare/)
#   -v  show what gnuplot says on stderr
#
# Prints ecsbench-compare's screen (what changed, in about 40 lines) and keeps its full report,
# a line per row and the machine states in full, as DIR/compare.txt, its verdicts as
# DIR/verdicts.csv (NEW-compare/ goes with NEW into previous/ when a run replaces it: make
# bench's --derived); then draws into DIR:
#   <workload>.png  a swept workload (create, iterate, ...): a panel per k; on top time per entity
#                   against N, each backend twice in its own colour (styles.gp), OLD dotted with
#                   hollow points, NEW solid with filled points, each run's 95% interval as its
#                   error bar, the floor (plain arrays) as grey (OLD) and black (NEW) dashed
#                   lines; a large open triangle around a NEW point whose verdict is faster
#                   (pointing down) or slower (up); under it the ratio NEW/OLD per backend with
#                   its interval as a bar, 1.0 drawn and the drift dotted, on a log axis whose tics
#                   follow the range, so that a 3% change reads as clearly as a 3x one;
#   varkor.png      Varkor's fixed-size workloads the same way, a group per workload.
# Each title names whether the two runs met the machine in the same state (ecsbench-compare's
# "Machine state" line, harness/core/machine.h): where it differs, ratios between streaming and
# latency-bound rows do not carry from OLD to NEW.
# Two runs of one scenario (build/ecsbench --scenario): the verdicts alone, a row per backend
# and phase (and point of a sweep), with the drift over all of them; no figure.
# The marks are ecsbench-compare's verdicts: the raw ones, or those with the drift divided out
# where ecsbench-compare says to read those (the machine itself ran more than 5% faster or
# slower) and the two runs name the same CPU and compiler line (otherwise the drift holds the
# change being compared); the title says which. A backend or point that one run lacks is drawn as missing and
# named in its panel, never as zero. DIR/figures.txt lists the figures drawn; the next
# comparison into DIR removes those first, so that figures of two comparisons never mix.
# Costs: ecsbench-compare (a pass over both files) and about a second of gnuplot per figure.
# Exit status: 0; 1 gnuplot missing or failed; 2 bad usage or files ecsbench-compare refuses.
set -eu

usage() {
	echo "usage: scripts/compare.sh [-v] [-p] [-r] [-o DIR] OLD.csv NEW.csv" >&2
	exit 2
}

profiles=0
verbose=0
rows=0
dir=
while getopts pvro:h opt; do
	case "$opt" in
	p) profiles=1 ;;
	r) rows=1 ;;
	v) verbose=1 ;;
	o) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
old=$1
new=$2
prog=compare.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
bin=$top/build/ecsbench
compare_bin=$top/build/ecsbench-compare
for f in "$old" "$new"; do
	[ -f "$f" ] && [ -r "$f" ] || { echo "compare.sh: cannot read '$f'" >&2; exit 2; }
done
[ -x "$compare_bin" ] || { echo "compare.sh: $compare_bin is not built (make $compare_bin)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || {
	echo "compare.sh: gnuplot is missing (scripts/deps.sh plots installs it)" >&2
	exit 1
}
[ -n "$dir" ] || dir=${new%.csv}-compare
mkdir -p "$top/build/plots"
tmp=$(mktemp -d "$top/build/plots/compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

. "$here/common.sh"

# --- the verdicts -------------------------------------------------------------------------
# The full report (every row) is kept and read below; the screen is printed once the files are
# known to be comparable, and names where the full report will be.
flag=
[ "$profiles" = 0 ] || flag=--profiles
rc=0
"$compare_bin" $flag "$old" "$new" --rows --output "$tmp/verdicts.csv" >"$tmp/compare.txt" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/compare.txt"; exit "$rc"; }
screen() {
	if [ "$rows" = 1 ]; then
		cat "$tmp/compare.txt"
	else
		"$compare_bin" $flag "$old" "$new" --rows-in "$dir/compare.txt (ROWS=1 prints it)" || exit 2
	fi
}

# Two runs of a scenario (ecsbench-compare has checked that both are, of the same one): its
# verdicts per participant and phase, kept in DIR as a run's are; no figure (the scenario's own
# figures, scenario_plot.sh, are one per run).
if grep -q '^scenario,sweep_key,' "$new"; then
	screen
	mkdir -p "$dir"
	stage=$(mktemp -d "$dir/.compare.XXXXXX")
	trap 'rm -rf "$tmp" "$stage"' EXIT
	cp "$tmp/compare.txt" "$tmp/verdicts.csv" "$stage/" && : >"$stage/figures.txt" || exit 1
	if [ -f "$dir/figures.txt" ]; then
		while read -r f; do
			case "$f" in *.png) rm -f "$dir/$f" ;; esac
		done <"$dir/figures.txt"
	fi
	for f in "$stage"/*; do mv -f "$f" "$dir/" || exit 1; done
	echo "compare.sh: a scenario: its verdicts per backend and phase in $dir/verdicts.csv and $dir/compare.txt (no figure)" >&2
	exit 0
fi

# A file that mixes component sizes has two rows per backend, workload, N and k, which
# ecsbench-compare cannot tell apart: its verdicts would pair the wrong rows.
normalise "$old" >"$tmp/old.csv"
normalise "$new" >"$tmp/new.csv"
for f in old new; do
	if [ "$(distinct 6 <"$tmp/$f.csv" | wc -l)" -gt 1 ]; then
		eval "path=\$$f"
		echo "compare.sh: $path mixes component sizes ($(distinct 6 <"$tmp/$f.csv" | tr '\n' ' ')):" \
			"ecsbench-compare pairs rows by backend, workload, N and k only; compare files of one size each" >&2
		exit 2
	fi
done
screen

# Everything is drawn into a folder of its own inside DIR (so that moving it into place is a
# rename), each figure checked whole, and replaces the previous comparison only when all is drawn.
mkdir -p "$dir"
stage=$(mktemp -d "$dir/.compare.XXXXXX")
trap 'rm -rf "$tmp" "$stage"' EXIT
: >"$stage/figures.txt"
cp "$tmp/compare.txt" "$stage/compare.txt"
cp "$tmp/verdicts.csv" "$stage/verdicts.csv"

# --- what the titles say --------------------------------------------------------------------
oprof=$(distinct 2 <"$tmp/old.csv" | head -n 1)
nprof=$(distinct 2 <"$tmp/new.csv" | head -n 1)
# the CPU without the pinning ("AMD EPYC; 2 online; pinned to cpu 1" -> "AMD EPYC, 2 online")
cpu_of() { header "$1" cpu | awk -F'; ' '{ print $1 ($2 == "" ? "" : ", " $2) }'; }
runline() { # runline WHICH CSV PROFILE STYLE
	printf '%s %s (%s): %s; cpu %s' "$1" "$2" "$4" "$(run_of "$2")" "$(cpu_of "$2")"
	[ "$profiles" = 0 ] || printf '; profile %s' "$3"
}
# How each run is drawn, as its figure draws it: the swept figure's lines (OLD's pattern, short
# dashes at width 2, reads dotted, in the plot and in the key alike: compare.gp's oldstyle), the
# fixed-size figure's points alone
oldline=$(runline OLD "$old" "$oprof" "dotted, hollow")
newline=$(runline NEW "$new" "$nprof" "solid, filled")
oldfixed=$(runline OLD "$old" "$oprof" "hollow, left")
newfixed=$(runline NEW "$new" "$nprof" "filled, right")
drift=$(sed -n 's/^# drift \([0-9.e+-]*\) .*/\1/p' "$tmp/verdicts.csv" | head -n 1)
drift3=$(printf '%.3f' "$drift")
driftrows=$(sed -n 's/^# drift [^ ]* (median new\/old over \([0-9]*\) rows).*/\1/p' "$tmp/verdicts.csv" | head -n 1)
floordrift=$(sed -n 's/.*the floor rows alone: \([0-9.]*\)x.*/\1/p' "$tmp/compare.txt" | head -n 1)
if [ "$profiles" = 1 ]; then
	drifttext="$nprof against $oprof: the median row ran at ${drift3}x ($driftrows rows${floordrift:+; the floor rows ${floordrift}x}), the profiles' difference, not the machine's drift"
	driftlabel="median ${nprof}/${oprof}"
else
	drifttext="drift: NEW ran at ${drift3}x OLD's times in the median row ($driftrows rows${floordrift:+; the floor rows ${floordrift}x})"
	driftlabel="drift"
fi
# Which verdicts mark the points. The drift (the median NEW/OLD) is the machine's own change only
# when nothing else differs: ecsbench-compare's advice to read the verdicts without it is taken
# when both runs name the same CPU and the same compiler line. Between two profiles, two CPUs or
# two compilers or flag sets, the median ratio holds the very change being compared (-O2 against
# -O3 slows nearly every row), and dividing it out would mark rows as faster that got slower.
vcol=15
vtext="marked: make compare's verdict, NEW/OLD's 95% interval excludes 1"
if [ "$profiles" = 0 ] && grep -q 'read the verdicts without drift' "$tmp/compare.txt"; then
	if [ "$(cpu_of "$old")" = "$(cpu_of "$new")" ] && [ "$(header "$old" compiler)" = "$(header "$new" compiler)" ]; then
		vcol=16
		vtext="marked: make compare's verdict without drift (the machine moved): NEW/OLD's 95% interval excludes the drift"
	else
		vtext="marked: raw verdict, NEW/OLD's 95% interval excludes 1 (CPU or compiler differ, so the drift holds the change)"
	fi
fi
# What else differs between the runs: the flags (the words one compiler line has and the other
# lacks) and the compiler.
flagdiff=$(awk -v a="$(header "$old" compiler)" -v b="$(header "$new" compiler)" 'BEGIN {
	if (a == b) exit
	na = split(a, x, " "); nb = split(b, y, " ")
	for (i = 1; i <= na; i++) inA[x[i]] = 1
	for (i = 1; i <= nb; i++) inB[y[i]] = 1
	for (i = 1; i <= na; i++) if (!(x[i] in inB) && !seenA[x[i]]++) oa = oa " " x[i]
	for (i = 1; i <= nb; i++) if (!(y[i] in inA) && !seenB[y[i]]++) ob = ob " " y[i]
	printf "compiler lines differ: OLD has%s, NEW has%s", oa == "" ? " nothing more" : oa, ob == "" ? " nothing more" : ob }')
# Whether the two runs met the machine in the same state (ecsbench-compare's "# machine" line: the
# fingerprints, or the floor rows of an older CSV): on the title's optional line, after the flags.
machine=$(sed -n 's/^# machine //p' "$tmp/verdicts.csv" | head -n 1)
[ -z "$machine" ] || flagdiff="${flagdiff:+$flagdiff; }$machine"
bars="bars: each run's 95% CI"
has_ci "$old" && has_ci "$new" || bars="bars: 95% CI where a CSV has it, else min..max"
bars="$bars; under: NEW/OLD, its 95% interval as a bar"
profiletext="profile $nprof"
[ "$profiles" = 0 ] || profiletext="profile $oprof (OLD) against $nprof (NEW)"

# The palette: as in plot.sh, the built ecsbench's backend table first.
palette=$( (listed backends; distinct 1 <"$tmp/old.csv"; distinct 1 <"$tmp/new.csv") |
	awk 'NF && $0 != "floor" && !seen[$0]++' | tr '\n' ' ')

# The marks: "backend,workload,N,k" -> 1 faster, -1 slower, 0 otherwise; the ratio rows. A
# threaded workload (its verdicts' column 17, threads, differs between rows) keeps its largest
# T alone, as the figures' rows do (normalise).
awk -F, '/^#/ || $1 == "backend" { next } $17 + 0 > t[$3] { t[$3] = $17 + 0 } END { for (w in t) print w "," t[w] }' \
	"$tmp/verdicts.csv" >"$tmp/most-threads.csv"
awk -F, -v OFS=, -v c="$vcol" -v most="$tmp/most-threads.csv" '
	BEGIN { while ((getline line < most) > 0) { split(line, x, ","); t[x[1]] = x[2] } }
	/^#/ || $1 == "backend" { next }
	NF >= 17 && ($3 in t) && $17 + 0 != t[$3] { next }
	{ m = $c == "faster" ? 1 : $c == "slower" ? -1 : 0
	  lo = $13; hi = $14; if (lo !~ /^[0-9]/) lo = "NaN"; if (hi !~ /^[0-9]/) hi = "NaN"
	  print $1, $3, $4, $5, $12, lo, hi, m }' "$tmp/verdicts.csv" >"$tmp/ratios.csv"

# log_tics LOW HIGH -> a gnuplot "set ytics (...)" list for a ratio axis from LOW to HIGH: 1 and
# the round ratios inside the range, outwards from 1, each at least a ninth of the axis (in log)
# from the last one kept, so that they never crowd whether the range is 3% or 30x.
log_tics() {
	awk -v lo="$1" -v hi="$2" 'BEGIN {
		n = split("0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.3 0.5 0.67 0.8 0.9 0.95 0.97 0.98 0.99 0.995 1 1.005 1.01 1.02 1.03 1.05 1.1 1.2 1.5 2 3 5 10 20 50 100 200 500 1000", t, " ")
		sep = log(hi / lo) / 9
		s = "\"1\" 1"
		last = 1
		for (i = 1; i <= n; i++) if (t[i] > 1 && t[i] <= hi && log(t[i] / last) >= sep) { s = s sprintf(", \"%s\" %s", t[i], t[i]); last = t[i] }
		last = 1
		for (i = n; i >= 1; i--) if (t[i] < 1 && t[i] >= lo && log(last / t[i]) >= sep) { s = s sprintf(", \"%s\" %s", t[i], t[i]); last = t[i] }
		print "(" s ")"
	}'
}
# ratio_range FILE... -> "low high" of the ratio axis: every ratio and interval in the files
# (columns 2..4), 1 and the drift, with room.
ratio_range() {
	cat "$@" | awk -F, -v drift="$drift" '
		function see(v) { if (v != "NaN" && v + 0 > 0) { if (v + 0 < lo) lo = v + 0; if (v + 0 > hi) hi = v + 0 } }
		BEGIN { lo = 1; hi = 1; see(drift) }
		NF { see($2); see($3); see($4) }
		END {
			if (lo > 0.99) lo = 0.99; if (hi < 1.01) hi = 1.01
			r = exp(0.08 * log(hi / lo)); printf "%g %g\n", lo / r, hi * r
		}'
}

points() { case "$1" in 0) echo "no point" ;; 1) echo "1 point" ;; *) echo "$1 points" ;; esac; }
drew=0
# wrote FIGURE: gnuplot does not report a failed write (a full disk cuts the PNG short and it
# still exits 0), so the file itself is checked.
wrote() {
	png_whole "$1" || {
		echo "compare.sh: cannot write $dir/${1##*/}: gnuplot left $(wc -c <"$1" 2>/dev/null || echo no) bytes," \
			"not a whole PNG (a full disk?); the previous comparison (its compare.txt too) stays" >&2
		exit 1
	}
	basename "$1" >>"$stage/figures.txt"
	drew=$((drew + 1))
}

# --- swept workloads ----------------------------------------------------------------------
for workload in $(awk -F, -v re="$fixed_re" '$2 !~ re' "$tmp/ratios.csv" | distinct 2); do
	d=$tmp/w-$workload
	mkdir -p "$d"
	# Series files per k and backend, sorted by N: <k>-<b>-old.dat "N,ns per entity,low,high";
	# <k>-<b>-new.dat the same and the mark; <k>-<b>-ratio.dat "N,ratio,low,high".
	for run in old new; do
		awk -F, -v OFS=, -v w="$workload" '$3 == w' "$tmp/$run.csv" | sort -t, -k4,4n >"$d/$run-rows.csv"
	done
	awk -F, -v d="$d" -v marks="$tmp/ratios.csv" -v w="$workload" '
		BEGIN { while ((getline line < marks) > 0) { split(line, f, ","); if (f[2] == w) m[f[1] "," f[3] "," f[4]] = f[8] } }
		FILENAME ~ /old-rows/ { print $4 "," $7 "," $8 "," $9 > (d "/" $5 "-" $1 "-old.dat") }
		FILENAME ~ /new-rows/ { k = $1 "," $4 "," $5; print $4 "," $7 "," $8 "," $9 "," ((k in m) ? m[k] : 0) > (d "/" $5 "-" $1 "-new.dat") }' \
		"$d/old-rows.csv" "$d/new-rows.csv"
	awk -F, -v w="$workload" '$2 == w' "$tmp/ratios.csv" | sort -t, -k3,3n |
		awk -F, -v d="$d" '{ print $3 "," $5 "," $6 "," $7 > (d "/" $4 "-" $1 "-ratio.dat") }'
	# shellcheck disable=SC2046
	backends=$(in_palette_order $(cat "$d/old-rows.csv" "$d/new-rows.csv" | distinct 1))
	# shellcheck disable=SC2086
	styles=$(styles_of $backends)
	ks=$(cat "$d/old-rows.csv" "$d/new-rows.csv" | distinct 5 | sort -n | tr '\n' ' ')
	# the series with a point to draw: a time or ratio above 0 (the axes are log scales, where a
	# file of zeros draws nothing and gnuplot warns)
	have=" $(cd "$d" && for f in *.dat; do
		awk -F, '$2 + 0 > 0 { f = 1 } END { exit !f }' "$f" && printf '%s ' "${f%.dat}"; done)"
	# a threaded workload: the T its rows have (normalise keeps the largest of each run)
	tmost=$(cat "$d/old-rows.csv" "$d/new-rows.csv" | distinct 17 | sort -n | tr '\n' '/' | sed 's,/$,,')
	title=$workload
	case "$tmost" in '' | 1) ;; *) title="$workload at T = $tmost threads (the largest measured)" ;; esac
	# shellcheck disable=SC2046
	set -- $(cat "$d/old-rows.csv" "$d/new-rows.csv" | awk -F, '
		{
			lo = $8 > 0 ? $8 : $7; hi = $9 > $7 ? $9 : $7
			if (lo > 0 && (ymin == "" || lo < ymin)) ymin = lo
			if (hi > ymax) ymax = hi
			if (nmin == "" || $4 < nmin) nmin = $4
			if ($4 > nmax) nmax = $4
		}
		END { if (ymin == "" || ymin <= 0) ymin = 0.001; if (ymax <= ymin) ymax = ymin * 10
			print ymin, ymax, nmin, nmax }')
	ymin=$1 ymax=$2 nmin=$3 nmax=$4
	# shellcheck disable=SC2046
	set -- $(ratio_range "$d"/*-ratio.dat)
	rmin=$1 rmax=$2
	marked=$(awk -F, '$5 != 0' "$d"/*-new.dat | wc -l)
	# the series with a faster or slower point (a series without one would draw no point and warn)
	marks=" $(for f in "$d"/*-new.dat; do
		awk -F, -v n="$(basename "$f" -new.dat)" '$5 > 0 { f = 1 } $5 < 0 { s = 1 }
			END { if (f) printf "%s-faster ", n; if (s) printf "%s-slower ", n }' "$f"; done)"
	out=$stage/$workload.png
	gp "$here/compare.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
		workload='$title'; backends='$backends'; styles='$styles'; ks='$ks'; have='$have'; \
		marks='$marks'; ymin=$ymin; ymax=$ymax; nmin=$nmin; nmax=$nmax; rmin=$rmin; rmax=$rmax; drift=$drift; \
		rtics='$(gp_quote "$(log_tics "$rmin" "$rmax")")'; driftlabel='$(gp_quote "$driftlabel")'; \
		profile='$(gp_quote "$profiletext")'; what='$(gp_quote "$(describe "$workload")")'; \
		oldline='$(gp_quote "$oldline")'; newline='$(gp_quote "$newline")'; \
		drifttext='$(gp_quote "$drifttext")'; flagdiff='$(gp_quote "$flagdiff")'; \
		note='$(gp_quote "$bars")'; marktext='$(gp_quote "$vtext: $(points "$marked")")'"
	wrote "$out"
done

# --- Varkor's fixed-size workloads: a group per workload -----------------------------------
if awk -F, -v re="$fixed_re" '$2 ~ re { found = 1; exit } END { exit !found }' "$tmp/ratios.csv"; then
	d=$tmp/fixed
	mkdir -p "$d"
	# The workloads both runs have, in --list order (then the verdicts').
	workloads=$( (listed workloads; awk -F, -v re="$fixed_re" '$2 ~ re' "$tmp/ratios.csv" | distinct 2) |
		awk -v re="$fixed_re" 'NF && $0 ~ re && !seen[$0]++' | while read -r w; do
			awk -F, -v w="$w" '$2 == w { found = 1; exit } END { exit !found }' "$tmp/ratios.csv" && echo "$w"
		done | tr '\n' ' ')
	# shellcheck disable=SC2046
	backends=$(in_palette_order $(for run in old new; do
		awk -F, -v ws=" $workloads" '$1 != "floor" && index(ws, " " $3 " ")' "$tmp/$run.csv"; done | distinct 1))
	# shellcheck disable=SC2086
	styles=$(styles_of $backends)
	# Rows per run "group,slot,ms,low ms,high ms[,mark]"; ratio rows "group,slot,ratio,low,high";
	# missing.csv "group,slot,what" where a run lacks a backend.
	awk -F, -v OFS=, -v ws="$workloads" -v bs="$backends" -v d="$d" -v marks="$tmp/ratios.csv" '
		BEGIN { nw = split(ws, w, " "); for (i = 1; i <= nw; i++) g[w[i]] = i
			nb = split(bs, b, " "); for (i = 1; i <= nb; i++) s[b[i]] = i
			while ((getline line < marks) > 0) { split(line, f, ",")
				if ((f[2] in g) && (f[1] in s)) { m[f[1] "," f[2]] = f[8]
					print g[f[2]], s[f[1]], f[5], f[6], f[7] > (d "/ratio.dat") } } }
		FILENAME ~ /old.csv$/ && ($3 in g) && ($1 in s) { print g[$3], s[$1], $10 / 1e6, $11 / 1e6, $12 / 1e6 > (d "/old.dat"); got["old", g[$3], s[$1]] = 1 }
		FILENAME ~ /new.csv$/ && ($3 in g) && ($1 in s) { k = $1 "," $3
			print g[$3], s[$1], $10 / 1e6, $11 / 1e6, $12 / 1e6, ((k in m) ? m[k] : 0) > (d "/new.dat"); got["new", g[$3], s[$1]] = 1 }
		END { for (i = 1; i <= nw; i++) for (j = 1; j <= nb; j++) {
			o = ("old", i, j) in got; n = ("new", i, j) in got
			if (!o || !n) print i, j, (!o && !n ? "not measured" : !o ? "not in OLD" : "not in NEW") > (d "/missing.csv") } }' \
		"$tmp/old.csv" "$tmp/new.csv"
	missing=
	[ ! -s "$d/missing.csv" ] || missing=$d/missing.csv
	xtics=$(echo "$workloads" | awk '{ for (i = 1; i <= NF; i++) { n = $i; sub(/^varkor-/, "", n)
		printf "%s\"%s\" %d", (i > 1 ? ", " : "("), n, i } print ")" }')
	# shellcheck disable=SC2046
	set -- $(cat "$d/old.dat" "$d/new.dat" | awk -F, '
		{ lo = $4 > 0 ? $4 : $3; hi = $5 > $3 ? $5 : $3
		  if (lo > 0 && (t0 == "" || lo < t0)) t0 = lo; if (hi > t1) t1 = hi }
		END { print (t0 == "" ? 0.001 : t0), (t1 > 0 ? t1 : 1) }')
	tmin=$1 tmax=$2
	# shellcheck disable=SC2046
	set -- $(cut -d, -f3- "$d/ratio.dat" | sed 's/^/x,/' | ratio_range)
	rmin=$1 rmax=$2
	touch "$d/old.dat" "$d/new.dat" "$d/ratio.dat"
	marked=$(awk -F, '$6 != 0' "$d/new.dat" | wc -l)
	# the slots of a file with a value above 0 to draw (the axes are log scales: a slot of zeros
	# draws nothing and gnuplot warns)
	slots() { printf ' %s ' "$(awk -F, '$3 + 0 > 0 { print $2 }' "$1" | sort -un | tr '\n' ' ')"; }
	out=$stage/varkor.png
	gp "$here/compare-fixed.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
		missing='$(gp_quote "$missing")'; backends='$backends'; styles='$styles'; \
		oldslots='$(slots "$d/old.dat")'; newslots='$(slots "$d/new.dat")'; ratioslots='$(slots "$d/ratio.dat")'; \
		nfaster=$(awk -F, '$6 > 0' "$d/new.dat" | wc -l); nslower=$(awk -F, '$6 < 0' "$d/new.dat" | wc -l); \
		xtics='$(gp_quote "$xtics")'; tmin=$tmin; tmax=$tmax; rmin=$rmin; rmax=$rmax; drift=$drift; \
		rtics='$(gp_quote "$(log_tics "$rmin" "$rmax")")'; driftlabel='$(gp_quote "$driftlabel")'; \
		profile='$(gp_quote "$profiletext")'; \
		oldline='$(gp_quote "$oldfixed")'; newline='$(gp_quote "$newfixed")'; \
		drifttext='$(gp_quote "$drifttext")'; flagdiff='$(gp_quote "$flagdiff")'; \
		note='$(gp_quote "$bars")'; marktext='$(gp_quote "$vtext: $(points "$marked")")'"
	wrote "$out"
fi

# Into place: the previous comparison's figures go, then this one's files replace theirs (renames).
if [ -f "$dir/figures.txt" ]; then
	while read -r f; do
		case "$f" in *.png) rm -f "$dir/$f" ;; esac
	done <"$dir/figures.txt"
fi
for f in "$stage"/*; do
	mv -f "$f" "$dir/" || exit 1
done
[ "$drew" -gt 0 ] || echo "compare.sh: no workload to draw: the rows in common hold none" >&2
figures=figures
[ "$drew" -ne 1 ] || figures=figure
echo "compare.sh: $drew $figures drawn into $dir/, beside verdicts.csv and compare.txt (every row)" >&2
