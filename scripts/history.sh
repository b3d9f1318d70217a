#!/bin/sh
# history.sh: what `make history` runs. Draws a machine's history (scripts/track.sh, make track):
# for each workload a figure, a panel per k, time per entity (log scale) of each backend at one
# N against the tracked runs in order (x: the run, labelled by its commit and date), each point
# with its 95% interval across processes, the floor dashed; a large open triangle around a
# point that make compare's drift-aware verdict called faster than the run before it (pointing
# down) or slower (pointing up). Prints how many of each it marked.
#
# Usage: scripts/history.sh [-d DIR] [-m FINGERPRINT] [-o FOLDER | -p ROOT] [-n N]
#   DIR          the histories (default results/history)
#   FINGERPRINT  the machine (default: the only history in DIR, else the last one written)
#   FOLDER       where the figures go (default ROOT/history/FINGERPRINT/, ROOT plots); workload.png each
#   N            the entity count drawn (default: each workload's largest N in the history)
# Exit status: 0 drawn; 1 gnuplot failed; 2 bad usage or no history.
set -eu
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/history.sh [-d DIR] [-m FINGERPRINT] [-o FOLDER | -p ROOT] [-n N]" >&2; exit 2; }
dir=results/history fp='' out='' n_want='' root=plots
while getopts d:m:o:p:n:h opt; do
	case "$opt" in d) dir=$OPTARG ;; m) fp=$OPTARG ;; o) out=$OPTARG ;; p) root=$OPTARG ;; n) n_want=$OPTARG ;; *) usage ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case "$n_want" in *[!0-9]*) echo "history.sh: N '$n_want' is not a number" >&2; exit 2 ;; esac
if [ -z "$fp" ]; then
	last=$(ls -t "$dir"/*.csv 2>/dev/null | head -n 1)
	[ -n "$last" ] || { echo "history.sh: no history in $dir: make track appends a run to it" >&2; exit 2; }
	fp=$(basename "$last" .csv)
fi
history=$dir/$fp.csv
[ -r "$history" ] || { echo "history.sh: no history '$history' (the machines in $dir: $(ls "$dir" 2>/dev/null | sed -n 's/\.csv$//p' | paste -sd' ' -))" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { echo "history.sh: gnuplot is missing (scripts/deps.sh plots)" >&2; exit 1; }
[ -n "$out" ] || out=$root/history/$fp
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The backends in the order of build/ecsbench --list (their colours in every figure), then any
# other the history names.
order=$(build/ecsbench --list 2>/dev/null | awk '/^[a-z]/ { on = $1 == "backends:" ; next } on { print $1 }' | paste -sd, -)
machine=$(sed -n '1s/^# ecsbench history of machine [0-9a-f]*: //p' "$history")
runs=$(grep -v '^#' "$history" | tail -n +2 | cut -d, -f1 | awk '!seen[$0]++' | wc -l)
total_faster=0 total_slower=0
for w in $(grep -v '^#' "$history" | tail -n +2 | cut -d, -f6 | awk '!seen[$0]++'); do
	case "$w" in parallel-iterate) continue ;; esac # a row per T: not one series
	# One data file per backend x k: run index, ns per entity, its interval, faster, slower
	awk -F, -v w="$w" -v nwant="$n_want" -v tmp="$tmp" -v order="$order" '
		NR == 1 || /^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$(c["workload"]) != w { next }
		{ run = $(c["run"]); if (!(run in idx)) { idx[run] = ++nr; label[nr] = run }
		  k = $(c["components"]); n = $(c["entities"]) + 0
		  if (nwant == "" ? n > big[k] : n == nwant + 0) big[k] = n
		  rows[++m] = $0 }
		END {
			split(order, o, ","); for (i = 1; i in o; i++) rank[o[i]] = i
			for (j = 1; j <= m; j++) {
				split(rows[j], f, ",")
				k = f[c["components"]]; if (f[c["entities"]] + 0 != big[k]) continue
				b = f[c["backend"]]; med = f[c["median_ns"]]; pe = f[c["ns_per_entity"]]
				s = med > 0 ? pe / med : 0
				lo = f[c["ci_low_ns"]] == "" ? pe : f[c["ci_low_ns"]] * s
				hi = f[c["ci_high_ns"]] == "" ? pe : f[c["ci_high_ns"]] * s
				v = f[c["vs_previous"]]
				file = tmp "/" k "-" b ".dat"
				printf "%d,%s,%s,%s,%s,%s\n", idx[f[c["run"]]], pe, lo, hi, (v == "faster" ? pe : "NaN"),
					(v == "slower" ? pe : "NaN") >> file
				if (!((k, b) in seen)) { seen[k, b] = 1; r = (b in rank) ? rank[b] : 20 + ++extra
					print k, b, (b == "floor" ? 0 : r), big[k] > (tmp "/series") }
				if (v == "faster") faster++
				if (v == "slower") slower++
			}
			for (i = 1; i <= nr; i++) { l = label[i] # YYYYMMDDTHHMMSSZ-commit
				printf "%d %s-%s %s\n", i, substr(l, 5, 2), substr(l, 7, 2), substr(l, index(l, "-") + 1, 7) > (tmp "/xtics") }
			print faster + 0, slower + 0 > (tmp "/marks")
		}' "$history"
	[ -s "$tmp/series" ] || continue
	ks=$(cut -d' ' -f1 "$tmp/series" | sort -nu | paste -sd' ' -)
	nk=$(echo "$ks" | wc -w)
	xtics=$(awk '{ printf "%s\"%s\\n%s\" %d", (NR > 1 ? ", " : ""), $2, $3, $1 }' "$tmp/xtics")
	nruns=$(wc -l <"$tmp/xtics")
	# The y axis is a log scale: its range from the positive values alone (a time of 0, or an
	# interval reaching 0, has no place on it; a workload with none at all still draws, a
	# decade either side of 1 ns)
	# shellcheck disable=SC2046
	set -- $(cat "$tmp"/*.dat | awk -F, '{ for (i = 2; i <= 4; i++) if ($i + 0 > 0) {
			if (lo == "" || $i + 0 < lo) lo = $i + 0; if ($i + 0 > hi) hi = $i + 0 } }
		END { if (lo == "") { lo = 0.1; hi = 10 } if (hi <= lo) hi = lo * 10; print lo / 1.5, hi * 1.5 }')
	yrange="$1:$2"
	{
		echo "set terminal pngcairo size $((420 + 520 * nk)),560 font 'sans,10'"
		echo "set output '$out/$w.png'"
		echo "load 'scripts/styles.gp'"
		# (printf: the shell's echo would turn gnuplot's \n into a new line)
		printf '%s\n' "set multiplot layout 1,$nk title \"$w: time per entity across tracked runs, machine $fp\\n{/*0.8 $machine}\\n{/*0.8 bars: 95% interval across processes; open triangle: make compare's verdict against the run before, faster (down) or slower (up)}\""
		echo "set logscale y; set yrange [$yrange]; set format y '%g'; set ylabel 'ns per entity'"
		printf '%s\n' "set xrange [0.5:$nruns.5]; set xtics ($xtics) font ',8'; set xlabel 'tracked run (date, commit)'"
		echo "set key outside bottom center horizontal"
		for k in $ks; do
			n=$(awk -v k="$k" '$1 == k { print $4; exit }' "$tmp/series")
			echo "set title 'k = $k, N = $n'"
			printf 'plot '
			sep=''
			awk -v k="$k" '$1 == k' "$tmp/series" | sort -k3,3n | while read -r _ b r _; do
				f="$tmp/$k-$b.dat"
				if [ "$b" = floor ]; then
					printf "%s'%s' using 1:2:3:4 with yerrorlines linestyle 50 title 'floor (plain arrays)'" "$sep" "$f"
					printf ", '%s' using 1:5 with points linecolor rgb '#202020' pointtype 10 pointsize 3.5 linewidth 2 notitle" "$f"
					printf ", '%s' using 1:6 with points linecolor rgb '#202020' pointtype 8 pointsize 3.5 linewidth 2 notitle" "$f"
				else
					printf "%s'%s' using 1:2:3:4 with yerrorlines linestyle %d title '%s' noenhanced" "$sep" "$f" "$r" "$b"
					printf ", '%s' using 1:5 with points linecolor rgb colour(%d) pointtype 10 pointsize 3.5 linewidth 2 notitle" "$f" "$r"
					printf ", '%s' using 1:6 with points linecolor rgb colour(%d) pointtype 8 pointsize 3.5 linewidth 2 notitle" "$f" "$r"
				fi
				sep=', '
			done
			echo
		done
		echo "unset multiplot"
	} >"$tmp/plot.gp"
	if ! gnuplot "$tmp/plot.gp" 2>"$tmp/gnuplot.err"; then
		echo "history.sh: gnuplot failed on $w: $(grep -v 'warning: Skipping data file with no valid points' "$tmp/gnuplot.err" | head -n 5)" >&2
		exit 1
	fi
	read -r f s <"$tmp/marks"
	total_faster=$((total_faster + f)) total_slower=$((total_slower + s))
	echo "history.sh: $out/$w.png ($f faster, $s slower marked)" >&2
	rm -f "$tmp"/*.dat "$tmp/series" "$tmp/xtics" "$tmp/marks"
done
echo "history.sh: machine $fp, $runs runs; marked $total_faster faster and $total_slower slower in all" >&2
