#!/bin/sh
# scenario_plot.sh: the figure of a scenario run (build/ecsbench --scenario, make bench
# SCENARIO=...) from its CSV.
#
# Usage: scripts/scenario_plot.sh [-v] [-o PLOTS_DIR] [-k DATA_DIR] CSV
#   -o  where the PNG goes (default: the CSV's folder); its name is the CSV's, .png
#   -v  show what gnuplot says on stderr (a normal run shows it only when gnuplot fails)
#   -k  keep the data files gnuplot drew from in DATA_DIR (tests/scenario_cli.sh reads them)
#
# A lone scenario: a bar per participant (the backends, then the floor and the harness alone),
# stacked by phase (the medians of each phase's times), with the frame's median and its 95%
# interval marked on top, its 99th-percentile and longest frame (the CSV's p99_ns and
# max_frame_ns, when it has them) as two marks beside it, and each bar's frame written above it;
# a bar far above the others is
# cut at the top of the figure and says its value, so that the fast backends' phases stay
# readable.
# A sweep: two panels against the swept value (log scale when the sweep is geometric; a
# categorical sweep, KEY=table,sparse, a point per value named under it): ns per
# frame, a line per backend with the 95% interval as error bars (the floor and the harness alone
# as dashed references), and each backend's ratio to the fastest backend at that point (up to 5;
# a panel that cuts a line says so), where a crossover is a line reaching 1; the crossovers the
# run found (its "# crossover" lines) are drawn as vertical lines named by the pair, dark where
# decided (both neighbouring points' intervals exclude a tie), light where not.
# A backend keeps its colour and point shape of every other figure (scripts/styles.gp: its place
# in `build/ecsbench --list`); phases take the same palette, in frame order. Columns are found by
# their names in the CSV's header row. The figure names its run (commit, date, cpu).
set -eu

usage() {
	echo "usage: scripts/scenario_plot.sh [-v] [-o PLOTS_DIR] [-k DATA_DIR] CSV" >&2
	exit 2
}

plots=
verbose=0
keep=
while getopts o:k:vh opt; do
	case "$opt" in
	v) verbose=1 ;;
	o) plots=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
csv=$1
[ -r "$csv" ] || { echo "scenario_plot.sh: cannot read $csv" >&2; exit 2; }
grep -q '^scenario,sweep_key,' "$csv" ||
	{ echo "scenario_plot.sh: $csv is not a scenario CSV (build/ecsbench --scenario)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 ||
	{ echo "scenario_plot.sh: gnuplot is not installed (make deps-plots)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$plots" ] || plots=$(dirname "$csv")
mkdir -p "$plots"
final="$plots/$(basename "$csv" .csv).png"
# gnuplot draws beside the figure, which the whole PNG then replaces (a rename): gnuplot does not
# report a failed write, so a full disk would leave a figure cut short.
out="$final.tmp.$$"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scenario_plot.XXXXXX")
trap 'rm -rf "$tmp" "$out"' EXIT

header() { sed -n "s/^# $1 //p" "$csv" | head -n 1; }
gp_quote() { printf '%s' "$1" | sed "s/'/''/g"; }

commit=$(header "ecsbench commit")
date=$(header "date")
cpu=$(header "cpu" | cut -d';' -f1)
processes=$(header "processes" | sed 's/,.*//')
# the processes, and what their intervals cannot say with 1 or 2 (build/ecsbench warns the same)
case $processes in
1) processes="1 process (the intervals are within it: they say nothing of another process)" ;;
2) processes="2 separate processes (t with 1 degree of freedom: intervals wide and themselves unsure)" ;;
'') processes="processes not recorded" ;;
*) processes="$processes separate processes" ;;
esac
scenario_line=$(header "scenario" | sed 's/: .*//')
source="run: commit $commit, $date, $cpu"

# Backends in --list order, then any the CSV names that this build does not know.
listed=$("$top/build/ecsbench" --list 2>/dev/null |
	awk '/^[a-z]/ { on = $1 == "backends:"; next } on { print $1 }' || true)
in_csv=$(grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["phase"] == "frame" && !seen[$c["backend"]]++ { print $c["backend"] }')
backends=""
styles=""
n=0
for b in $listed; do
	n=$((n + 1))
	echo "$in_csv" | grep -qx "$b" && { backends="$backends $b"; styles="$styles $n"; }
done
for b in $in_csv; do
	case "$b" in floor | harness) continue ;; esac
	echo " $backends " | grep -q " $b " && continue
	n=$((n + 1))
	backends="$backends $b"
	styles="$styles $n"
done
backends=${backends# }
styles=${styles# }

sweep_key=$(grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["sweep_key"]; exit }')

gp() {
	if [ "$verbose" -eq 1 ]; then
		gnuplot "$@"
	elif ! gnuplot "$@" 2>"$tmp/gnuplot.err"; then
		cat "$tmp/gnuplot.err" >&2
		echo "scenario_plot.sh: gnuplot failed drawing $final" >&2
		exit 1
	fi
}

if [ -z "$sweep_key" ]; then
	# Bars: a row per participant (the backends fastest first, then the floor and the harness), a
	# column per phase (medians), in the CSV's phase order; frames.dat: x, the frame's median,
	# interval, where its label goes (above the bar and its interval), the frame in plain units
	# ("1.11 ms", never "1.11e+03"), whether the bar is cut, and how many times the fastest
	# backend's frame it takes, in words ("2.01 times", "fastest").
	grep -v '^#' "$csv" | awk -F, -v dir="$tmp" '
		# ns -> "1.11 ms": three significant digits in the unit that keeps them below 1000
		function plain(ns,   v, u) {
			if (ns >= 999.5e6) { v = ns / 1e9; u = "s" }
			else if (ns >= 999.5e3) { v = ns / 1e6; u = "ms" }
			else if (ns >= 999.5) { v = ns / 1e3; u = "µs" }
			else { v = ns; u = "ns" }
			return sprintf("%.3g %s", v, u)
		}
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			b = $c["backend"]; p = $c["phase"]
			if (p == "frame") {
				if (!(b in frame)) names[++n] = b
				frame[b] = $c["median_ns"]; lo[b] = $c["ci_low_ns"]; hi[b] = $c["ci_high_ns"]
				ratio[b] = $c["ratio_to_best"]; vs[b] = $c["vs_best"]
				p99[b] = ("p99_ns" in c) ? $c["p99_ns"] : ""; longest[b] = ("max_frame_ns" in c) ? $c["max_frame_ns"] : ""
				if (vs[b] == "best") best = b
				next
			}
			if (!(p in seen)) { seen[p] = 1; phases[++np] = p }
			v[b, p] = $c["median_ns"]; stack[b] += $c["median_ns"]
		}
		END {
			m = 0
			for (i = 1; i <= n; i++) if (names[i] != "floor" && names[i] != "harness") order[++m] = names[i]
			for (i = 2; i <= m; i++) for (j = i; j > 1 && frame[order[j]] + 0 < frame[order[j - 1]] + 0; j--) {
				t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
			}
			for (i = 1; i <= n; i++) if (names[i] == "floor" || names[i] == "harness") order[++m] = names[i]
			fastest = frame[order[1]]
			# the scale: bars up to 5 times the fastest backend are drawn whole, with their interval
			top = 0
			for (i = 1; i <= m; i++) {
				b = order[i]
				if (frame[b] > 5 * fastest) continue
				t = hi[b] == "" ? frame[b] : hi[b]
				if (stack[b] > t) t = stack[b]
				if (p99[b] != "" && p99[b] + 0 > t) t = p99[b] + 0
				if (t > top) top = t
			}
			unit = top >= 2e6 ? 1e6 : 1e3
			ymax = top * 1.12
			printf "%s\n", unit == 1e6 ? "ms" : "us" > (dir "/unit")
			printf "%.6g\n", ymax / unit > (dir "/ymax")
			printf "participant" > (dir "/bars.dat")
			for (j = 1; j <= np; j++) printf ",%s", phases[j] > (dir "/bars.dat")
			printf "\n" > (dir "/bars.dat")
			for (i = 1; i <= m; i++) {
				b = order[i]
				printf "%s", b > (dir "/bars.dat")
				for (j = 1; j <= np; j++) printf ",%.6g", v[b, phases[j]] / unit > (dir "/bars.dat")
				printf "\n" > (dir "/bars.dat")
				label = plain(frame[b])
				than = ""
				if (b == "harness" || b == "floor") than = sprintf("%.2f times", frame[b] / fastest)
				else if (vs[b] == "best") than = "fastest"
				else if (ratio[b] != "") than = sprintf("%.2f times", ratio[b])
				l = lo[b] == "" ? frame[b] : lo[b]; h = hi[b] == "" ? frame[b] : hi[b]
				at = h > stack[b] ? h : stack[b]
				# cut: the bar itself reaches above the axis (its label goes inside it, across the
				# top); icut: the bar ends below the top, its interval above (marked where the axis
				# cuts it, its label a little below). Whether a bar is cut is for the axis to say:
				# one left out of the scale (above 5 times the fastest) may still fit under it.
				cut = stack[b] > ymax || frame[b] > ymax
				icut = !cut && at > ymax
				cutb[b] = cut
				ncut += cut; nicut += icut
				printf "%d,%.6g,%.6g,%.6g,%.6g,%s,%d,%s,%d\n", i - 1, frame[b] / unit, l / unit, h / unit, \
					(cut ? ymax * 0.9 : icut ? ymax * 0.8 : at) / unit, label, cut, than, icut > (dir "/frames.dat")
			}
			# tails.dat: x, the p99 and the longest frame (geometric means over processes), NaN
			# where the CSV has none, the bar is cut or the point is off the figure; a longest
			# frame off the figure (of a bar not cut): where its mark goes at the top, and its label
			for (i = 1; i <= m; i++) {
				b = order[i]; cut = cutb[b]
				over = longest[b] != "" && !cut && longest[b] > ymax
				printf "%d,%s,%s,%s,%s\n", i - 1, (p99[b] == "" || cut || p99[b] > ymax) ? "NaN" : sprintf("%.6g", p99[b] / unit), \
					(longest[b] == "" || cut || longest[b] > ymax) ? "NaN" : sprintf("%.6g", longest[b] / unit), \
					over ? sprintf("%.6g", ymax * 0.97 / unit) : "NaN", over ? "longest " plain(longest[b]) : "" > (dir "/tails.dat")
				ntails += p99[b] != ""; nover += over
			}
			printf "%d\n", ntails > (dir "/ntails")
			printf "%d\n", nover > (dir "/nover")
			printf "%d\n", np > (dir "/nphases")
			printf "%d\n", ncut > (dir "/ncut")
			printf "%d\n", nicut > (dir "/nicut")
			# the longest text of the key: the name of a phase, or the longest fixed entry
			keylen = 43
			for (j = 1; j <= np; j++) if (length(phases[j]) > keylen) keylen = length(phases[j])
			printf "%d\n", keylen > (dir "/keylong")
			printf "%s\n", order[1] > (dir "/fastest")
		}'
	unit=$(cat "$tmp/unit")
	gp -e "scripts='$top/scripts'; mode='bars'; out='$(gp_quote "$out")'; dir='$tmp'; \
		unit='$unit'; ymax=$(cat "$tmp/ymax"); nphases=$(cat "$tmp/nphases"); ncut=$(cat "$tmp/ncut"); \
		nicut=$(cat "$tmp/nicut"); keylong=$(cat "$tmp/keylong"); nbars=$(wc -l <"$tmp/frames.dat"); \
		tails=$(cat "$tmp/ntails"); nover=$(cat "$tmp/nover"); \
		fastest='$(cat "$tmp/fastest")'; \
		name='$(gp_quote "$scenario_line")'; processes='$(gp_quote "$processes")'; \
		source='$(gp_quote "$source")'" "$top/scripts/scenario.gp"
else
	# Sweep: per participant a series "x,median,lo,hi,ratio,ratio lo,ratio hi" sorted by x.
	grep -v '^#' "$csv" | awk -F, -v dir="$tmp" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["phase"] == "frame" {
			b = $c["backend"]
			f = dir "/" b ".dat"
			lo = $c["ci_low_ns"] == "" ? $c["median_ns"] : $c["ci_low_ns"]
			hi = $c["ci_high_ns"] == "" ? $c["median_ns"] : $c["ci_high_ns"]
			r = $c["ratio_to_best"] == "" ? "NaN" : $c["ratio_to_best"]
			rl = $c["ratio_ci_low"] == "" ? r : $c["ratio_ci_low"]
			rh = $c["ratio_ci_high"] == "" ? r : $c["ratio_ci_high"]
			print $c["sweep_x"] "," $c["median_ns"] "," lo "," hi "," r "," rl "," rh | ("sort -t, -g -k1 > " f)
			if (xmin == "" || $c["sweep_x"] + 0 < xmin) xmin = $c["sweep_x"] + 0
			if (xmax == "" || $c["sweep_x"] + 0 > xmax) xmax = $c["sweep_x"] + 0
			# the y axis is a log scale: only positive values set its range (a timing of 0, or an
			# interval reaching 0, would make log10(ymax / ymin) undefined)
			if (lo + 0 <= 0) lo = $c["median_ns"]
			if (lo + 0 > 0 && (ymin == "" || lo + 0 < ymin)) ymin = lo + 0
			if (hi + 0 > 0 && (ymax == "" || hi + 0 > ymax)) ymax = hi + 0
			if (r != "NaN" && b != "floor" && b != "harness" && r + 0 > rmax) rmax = r + 0
		}
		END { print xmin, xmax, ymin + 0, ymax + 0, rmax + 0 > (dir "/ranges") }'
	read -r xmin xmax ymin ymax rmax <"$tmp/ranges"
	geometric=0
	grep -q "^# sweep $sweep_key: [0-9]* points, geometric" "$csv" && geometric=1
	# a categorical sweep (KEY=table,sparse): its values, named under their points (x = 1, 2...)
	categories=$(sed -n "s/^# sweep $sweep_key: [0-9]* points, categorical: //p" "$csv" | head -n 1)
	percent=0
	grep -v '^#' "$csv" | awk -F, 'NR == 2 { exit !($3 ~ /%$/) }' && percent=1
	# The crossovers: "x|label|decided" lines.
	sed -n 's/^# crossover \([^ ]*\) \([^:]*\): [^=]*= \([0-9.e+-]*\)%* .*; \(not \)*decided.*/\3|\1 = \2|\4/p' \
		"$csv" | sed 's/|not $/|0/; s/|$/|1/' >"$tmp/crossovers"
	crossings=$(awk -F'|' '{ printf "%s%s", (NR > 1 ? ";" : ""), $0 }' "$tmp/crossovers")
	gp -e "scripts='$top/scripts'; mode='sweep'; out='$(gp_quote "$out")'; dir='$tmp'; \
		backends='$backends'; styles='$styles'; key='$(gp_quote "$sweep_key")'; \
		percent=$percent; geometric=$geometric; xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax; \
		rmax=$rmax; categories='$(gp_quote "$categories")'; \
		crossings='$(gp_quote "$crossings")'; name='$(gp_quote "$scenario_line")'; \
		processes='$(gp_quote "$processes")'; source='$(gp_quote "$source")'; \
		floor=$([ -s "$tmp/floor.dat" ] && echo 1 || echo 0); \
		harness=$([ -s "$tmp/harness.dat" ] && echo 1 || echo 0)" "$top/scripts/scenario.gp"
fi
if ! [ -s "$out" ] || [ "$(tail -c 8 "$out" | od -An -tx1 | tr -d ' \n')" != 49454e44ae426082 ]; then
	echo "scenario_plot.sh: cannot write $final: gnuplot left $(wc -c <"$out" 2>/dev/null || echo no) bytes," \
		"not a whole PNG (a full disk?); the figure was not replaced" >&2
	exit 1
fi
mv -f "$out" "$final"
if [ -n "$keep" ]; then
	mkdir -p "$keep" && cp "$tmp"/* "$keep"/
fi
echo "$final"
