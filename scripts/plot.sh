#!/bin/sh
# plot.sh: draws the figures of one profile from the CSV files ecsbench and cachegrind.sh wrote.
#
# Usage: scripts/plot.sh [-v] [-r RESULTS_DIR] [-o PLOTS_DIR] [-i CSV] PROFILE
#   -r  where the CSV files are (default: results)
#   -o  where the PNG files go (default: plots)
#   -i  the timing CSV of PROFILE (default: RESULTS_DIR/PROFILE.csv)
#   -v  show what gnuplot says on stderr (a normal run shows it only when gnuplot fails)
#
# Draws whatever the data allows, and nothing it does not:
#   PLOTS_DIR/PROFILE/<workload>.png        a workload swept over N (create, iterate, ...): time
#                                           per entity against N, a panel per k, a line per
#                                           backend with error bars; iterate also the floor
#                                           (plain arrays) as a dashed line; a threaded workload
#                                           (parallel-iterate) at its largest thread count T;
#                                           under each panel the CSV's verdicts: each backend's
#                                           ratio_to_best against N with its paired interval,
#                                           hollow where vs_best is tied (time.gp);
#   PLOTS_DIR/PROFILE/<workload>-speedup.png  a threaded workload measured at more than one T:
#                                           its speedup over T = 1 against T, a panel per k at
#                                           its largest N, a line per backend and the floor with
#                                           the speedup's 95% interval, side by side at each T,
#                                           an interval cut by the axis marked with its end, the
#                                           ideal (T) dotted;
#   PLOTS_DIR/PROFILE/varkor.png            Varkor's fixed-size workloads (varkor-*): time per
#                                           run, the storage's peak memory and the allocations of
#                                           one run, a group of bars per workload;
#   PLOTS_DIR/PROFILE/memory-<workload>.png bytes per entity against N of create, iterate and
#                                           fragmented (the workloads whose storage is their own):
#                                           live_bytes_per_entity on top, peak_bytes / N under it,
#                                           a panel per k, a line per backend, the floor dashed;
#   PLOTS_DIR/profiles/<workload>.png       a swept workload's time per entity at the largest N
#                                           the profiles share, x = profile, from CSV for
#                                           PROFILE and whichever of RESULTS_DIR/{A,AA,AAA}.csv
#                                           exist for the others (a profile or backend that was
#                                           not measured is absent; a panel whose N is below
#                                           what a profile measured says so);
#   PLOTS_DIR/PROFILE/cache-<workload>.png  D1 and LLd misses per entity by backend and the floor
#                                           (from RESULTS_DIR/cachegrind-PROFILE.csv, if it exists);
#                                           a backend that a panel lacks is written "not
#                                           measured" in its slot, never drawn as zero.
# Every figure names the runs it draws: the commit and date of each CSV (its `#` lines; the
# cachegrind CSV's date and commit columns), and says when they differ. A point is the CSV's
# median_ns (the geometric mean of the processes' medians; the median of all samples in a CSV of
# an older ecsbench: the title says which). Error bars are its 95% confidence interval where the
# CSV has ci_low_ns and ci_high_ns, min..max otherwise, and the title says which. A row the CSV
# flags noisy (one this run cannot place against the best of its group) gets a ring around its
# point (a "noisy" after its value on a bar), and the title says what noisy means, from the CSV.
# A CSV with one component size gives the names above, whatever the size (the title names a size
# other than 8 bytes); a CSV that mixes sizes gives a figure per size, those of a size other than
# 8 bytes named <name>-<size>B.png.
# Backends, workloads, entity counts and k come from the files, never from a list in here: a new
# backend shows up in every figure the first time it appears in a CSV. A backend keeps its colour
# and point shape in every figure: its place in `build/ecsbench --list` (scripts/styles.gp: eight
# colours and eight shapes, distinct). The `floor` rows of iterate are a reference line, never a
# backend.
#
# Columns are found by their names in the CSV's header row, so that a new column does not move
# anything. The CSV files are read as they are; the rows of each figure go through small files in
# a temporary folder under build/plots/, removed on exit.
set -eu

usage() {
	echo "usage: scripts/plot.sh [-v] [-r RESULTS_DIR] [-o PLOTS_DIR] [-i CSV] PROFILE" >&2
	exit 2
}

results=results
plots=plots
csv=
verbose=0
while getopts r:o:i:vh opt; do
	case "$opt" in
	v) verbose=1 ;;
	r) results=$OPTARG ;;
	o) plots=$OPTARG ;;
	i) csv=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
profile=$1
case "$profile" in
*[!A-Za-z0-9_-]* | '') echo "plot.sh: bad profile name '$profile'" >&2; exit 2 ;;
esac
[ -n "$csv" ] || csv=$results/$profile.csv
prog=plot.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
bin=$top/build/ecsbench
command -v gnuplot >/dev/null 2>&1 || {
	echo "plot.sh: gnuplot is missing (scripts/deps.sh plots installs it)" >&2
	exit 1
}
mkdir -p "$top/build/plots"
tmp=$(mktemp -d "$top/build/plots/run.XXXXXX")
# The figures are drawn into a folder of their own inside PLOTS_DIR (so that moving them into
# place is a rename), each checked whole, and replace the old ones only when all are drawn.
stage=
trap 'rm -rf "$tmp" ${stage:+"$stage"}' EXIT
trap 'exit 1' HUP INT TERM

. "$here/common.sh"
mkdir -p "$plots" && stage=$(mktemp -d "$plots/.plot.XXXXXX") ||
	{ echo "plot.sh: cannot write figures into $plots" >&2; exit 1; }

# The timing files this run reads, normalised: the profile's own, and every profile's for the
# profile comparison.
have_csv=0
if [ -f "$csv" ]; then
	normalise "$csv" >"$tmp/time.csv"
	have_csv=1
fi
# The profile comparison draws PROFILE from CSV (the run just made, whatever its name) and the
# other profiles from RESULTS_DIR/<profile>.csv; csv_of tells which file each came from.
profile_files=
for p in A AA AAA; do
	f=$results/$p.csv
	[ "$p" != "$profile" ] || f=$csv
	if [ -f "$f" ]; then
		normalise "$f" >"$tmp/profile-$p.csv"
		echo "$f" >"$tmp/profile-$p.file"
		profile_files="$profile_files $p"
	fi
done
csv_of() { cat "$tmp/profile-$1.file"; }
cg=$results/cachegrind-$profile.csv
have_cg=0
if [ -f "$cg" ]; then
	# Columns by name. cachegrind.sh keeps one row per case; a file from before it did (rows
	# appended): the last row of each backend x workload x N x k x size is the one that counts.
	# -> backend,workload,entities,components,bytes,d1,lld,caches,rounds,date,commit
	awk -F, -v OFS=, -v file="$cg" '
		/^#/ || !NF { next }
		$1 == "date" {
			delete c
			for (i = 1; i <= NF; i++) c[$i] = i
			m = split("date backend workload entities components d1_misses_per_entity lld_misses_per_entity d1 ll", need, " ")
			for (i = 1; i <= m; i++) if (!(need[i] in c)) {
				printf "plot.sh: %s: no column %s in its header row\n", file, need[i] > "/dev/stderr"; exit 1
			}
			hdr = 1
			next
		}
		!hdr { next }
		{
			b = ("component_bytes" in c) ? $(c["component_bytes"]) : 8
			key = $(c["backend"]) "," $(c["workload"]) "," $(c["entities"]) "," $(c["components"]) "," b
			# entity_ops = N x rounds x inner
			r = ("entity_ops" in c) && ("inner" in c) && $(c["entities"]) * $(c["inner"]) > 0 ? \
				int($(c["entity_ops"]) / ($(c["entities"]) * $(c["inner"])) + 0.5) : 1
			last[key] = key "," $(c["d1_misses_per_entity"]) "," $(c["lld_misses_per_entity"]) ",D1 " $(c["d1"]) "; LL " $(c["ll"]) "," r \
				"," $(c["date"]) "," (("commit" in c) ? $(c["commit"]) : "?")
			if (!(key in order)) { order[key] = ++n; keys[n] = key }
		}
		END { for (i = 1; i <= n; i++) print last[keys[i]] }' "$cg" >"$tmp/cache.csv"
	have_cg=1
fi
if [ "$have_csv" = 0 ] && [ -z "$profile_files" ] && [ "$have_cg" = 0 ]; then
	echo "plot.sh: nothing to draw for profile $profile: none of $csv, $results/{A,AA,AAA}.csv, $cg exists" >&2
	exit 1
fi

# A backend keeps its colour in every figure: its place in the backend table of the built
# ecsbench (--list), then in the order the CSV files name backends. Each figure draws only the
# backends its data has, in that order, with those styles.
palette=$( (listed backends
	cat "$tmp"/time.csv "$tmp"/profile-*.csv 2>/dev/null | distinct 1
	[ "$have_cg" = 0 ] || distinct 1 <"$tmp/cache.csv"
	) | awk 'NF && $0 != "floor" && !seen[$0]++' | tr '\n' ' ')
# suffix SIZE SIZES -> "" or "-<size>B": the file name part of a component size (see above)
suffix() {
	if [ "$1" = 8 ] || [ "$(echo "$2" | wc -w)" -le 1 ]; then echo ""; else echo "-$1B"; fi
}
# sizetext SIZE -> "" or the words that name a component size other than 8 bytes
sizetext() { [ "$1" = 8 ] || echo "; Position and Velocity $1 bytes"; }

drew=0
# wrote FIGURE: a figure drawn into the stage; gnuplot does not report a failed write (a full
# disk cuts the PNG short and it still exits 0), so the file itself is checked.
wrote() {
	png_whole "$1" || {
		echo "plot.sh: cannot write $plots/${1#"$stage"/}: gnuplot left $(wc -c <"$1" 2>/dev/null || echo no) bytes," \
			"not a whole PNG (a full disk?); no figure was replaced" >&2
		exit 1
	}
	drew=$((drew + 1))
}

if [ "$have_csv" = 1 ]; then
	if [ ! -s "$tmp/time.csv" ]; then
		echo "plot.sh: $csv has no data rows; no time plots for $profile" >&2
	fi
	# (without where a parallel row's threads ran: the speedup figure says that on a line of
	# its own)
	cpu=$(header "$csv" cpu | sed 's/; a parallel row.*//')
	# "# processes P, ...; per process W warm-up and R timed samples; ..." (an older harness:
	# "# seed S; reps R; ...")
	# (a raced run: "... and up to R timed rounds, each round a sample of every participant ...")
	reps=$(header "$csv" processes | sed -n 's/.* and \([0-9]*\) timed samples.*/\1/p')
	raced=$(header "$csv" processes: | sed -n 's/.* and up to \([0-9]*\) timed rounds.*/\1/p')
	[ -n "$reps" ] || reps=$(header "$csv" seed | sed -n 's/.*reps \([0-9]*\).*/\1/p')
	# the samples behind a median: "5 reps", or "5 reps x 3 processes" where the CSV has them
	procs=$(grep -v '^#' "$csv" | awk -F, '$1 == "backend" { for (i = 1; i <= NF; i++) if ($i == "processes") c = i; next }
		c && !seen[$c]++ { s = s (s == "" ? "" : "/") $c } END { print s }')
	if [ -n "$raced" ]; then
		# a race: each row its own count of processes, from 1 (screened) to the group's last
		procs=$(grep -v '^#' "$csv" | awk -F, '$1 == "backend" { for (i = 1; i <= NF; i++) if ($i == "processes") c = i; next }
			c && $c != "" { lo = lo == "" || $c + 0 < lo ? $c + 0 : lo; hi = $c + 0 > hi ? $c + 0 : hi }
			END { if (lo != "") print (lo == hi ? lo : lo " to " hi) }')
		samples="up to $raced rounds${procs:+ x $procs processes}"
	else
		samples="up to ${reps:-?} samples${procs:+ x $procs processes}"
	fi
	bars=$(bars_text "$csv")
	means=$(noisy_means "$csv")
	# the same, short enough for a title line that already says what the bars are
	shortmeans=$(echo "$means" | sed 's/^rows whose interval reaches beyond/interval beyond/;
		s/^rows tied with the best whose ratio interval reaches beyond \([0-9.]*\).*/tied, ratio CI beyond \1/')
	centre=$(centre_text "$csv")
	# how a speedup's samples were paired: by process since the CSV's centre is the log medians'
	paired="samples paired by process and round"
	[ "$centre" = median ] || paired="log medians paired by process"
	# "A (32 component types, 16 systems); systems registered 16": name the registered count
	# only where --systems made it differ from the profile's.
	proftext=$(header "$csv" profile | sed 's/^\(.*, \([0-9]*\) systems)\); systems registered \2$/\1/;
		s/; systems registered \([0-9]*\)$/, \1 of them registered/')
	[ -n "$proftext" ] || proftext=$profile
	# (the pinning in short, to leave room for the machine's fingerprint)
	source="run: $(run_of "$csv"); cpu $(printf '%s' "${cpu:-?}" | sed 's/; pinned to the cpu it started on, /; pinned to cpu /'); $(machine_of "$csv")"
	# what the intervals cannot say with 1 or 2 processes, a title line of its own ("" otherwise)
	caveat=$(interval_caveat "$csv")
fi

# The ratio panels under the time figures (time.gp) stretch their axis near 1, where the
# verdicts are decided: y = asinh(log(ratio) / ratio_stretch), about log(ratio) within a few
# times ratio_stretch of 1 and log(log(ratio)) far from it, so that 1.05 and 1.0 stand as far
# apart as 2 and 10.
ratio_stretch=0.05
# stretched_tics LOW HIGH -> a gnuplot "set ytics (...)" list for such an axis: 1 and the round
# ratios inside the range, outwards from 1, each at least a ninth of the axis from the last kept.
stretched_tics() {
	awk -v lo="$1" -v hi="$2" -v s="$ratio_stretch" '
		function asinh(x) { return log(x + sqrt(x * x + 1)) }
		function y(r) { return asinh(log(r) / s) }
		BEGIN {
			n = split("0.5 0.67 0.8 0.9 0.95 0.98 1 1.02 1.05 1.1 1.2 1.5 2 3 5 10 20 50 100 200 500 1000 2000 5000 10000", t, " ")
			sep = (y(hi) - y(lo)) / 9
			out = "\"1\" 1"
			last = y(1)
			for (i = 1; i <= n; i++) if (t[i] > 1 && t[i] <= hi && y(t[i]) - last >= sep) { out = out sprintf(", \"%s\" %s", t[i], t[i]); last = y(t[i]) }
			last = y(1)
			for (i = n; i >= 1; i--) if (t[i] < 1 && t[i] >= lo && last - y(t[i]) >= sep) { out = out sprintf(", \"%s\" %s", t[i], t[i]); last = y(t[i]) }
			print "(" out ")"
		}'
}

# --- swept workloads: time per entity against N ------------------------------------------
if [ "$have_csv" = 1 ]; then
	for workload in $(awk -F, -v re="$fixed_re" '$3 !~ re' "$tmp/time.csv" | distinct 3); do
		sizes=$(awk -F, -v w="$workload" '$3 == w' "$tmp/time.csv" | distinct 6 | sort -n)
		for size in $sizes; do
			d=$tmp/time/$workload-$size
			mkdir -p "$d" "$stage/$profile"
			awk -F, -v w="$workload" -v s="$size" '$3 == w && $6 == s' "$tmp/time.csv" |
				sort -t, -k4,4n >"$d/rows.csv"
			# A series file per k and backend: N, ns per entity, bar low, bar high, noisy, then the
			# CSV's verdict against the fastest backend at that N: ratio_to_best, its interval, and 1
			# where vs_best is tied (NaN where the CSV has none: the floor, an older CSV) (sorted by
			# N, so that a line never doubles back).
			awk -F, -v d="$d" 'function v(x) { return x == "" ? "NaN" : x }
				{ f = d "/k" $5 "-" $1 ".dat"
				  print $4 "," $7 "," $8 "," $9 "," $15 "," v($18) "," v($19 == "" ? $18 : $19) "," v($20 == "" ? $18 : $20) "," ($21 == "tied" || $21 == "equal" ? 1 : 0) > f }' "$d/rows.csv"
			# shellcheck disable=SC2046
			backends=$(in_palette_order $(distinct 1 <"$d/rows.csv"))
			# shellcheck disable=SC2086
			styles=$(styles_of $backends)
			ks=$(distinct 5 <"$d/rows.csv" | sort -n | tr '\n' ' ')
			have=" $(awk -F, '{ print $5 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			# the series with a noisy row: they get rings (a ring plot of no point would warn)
			noisyhave=" $(awk -F, '$15 == 1 && $1 != "floor" { print $5 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			floor=0
			grep -q '^floor,' "$d/rows.csv" && floor=1
			# One y range for all panels, so that they compare; a little room at both ends.
			# shellcheck disable=SC2046
			set -- $(awk -F, '
				{
					lo = $8 > 0 ? $8 : $7; hi = $9 > $7 ? $9 : $7
					if (lo > 0 && (ymin == "" || lo < ymin)) ymin = lo
					if (hi > ymax) ymax = hi
					if (nmin == "" || $4 < nmin) nmin = $4
					if ($4 > nmax) nmax = $4
				}
				END { if (ymin == "" || ymin <= 0) ymin = 0.001; if (ymax <= ymin) ymax = ymin * 10
					print ymin, ymax, nmin, nmax }' "$d/rows.csv")
			ymin=$1 ymax=$2 nmin=$3 nmax=$4
			# The verdicts under the times: the series with a ratio to the fastest, those with a
			# row tied with it (hollow points) and those with one that is not (filled), so that no
			# plot command draws nothing (gnuplot warns); the ratio axis, one for all panels: every
			# ratio, 1, and the intervals as far as twice the largest ratio and down to 0.9 (with two
			# processes an interval can span 20 decades); a bar beyond is cut at the edge.
			ratiohave=" $(awk -F, '$1 != "floor" && $18 != "" { print $5 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			tiedhave=" $(awk -F, '$1 != "floor" && $18 != "" && ($21 == "tied" || $21 == "equal") { print $5 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			solidhave=" $(awk -F, '$1 != "floor" && $18 != "" && $21 != "tied" && $21 != "equal" { print $5 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			# shellcheck disable=SC2046
			set -- $(awk -F, '$1 != "floor" && $18 != "" {
					if ($18 + 0 > top) top = $18 + 0
					lo[++n] = $19 == "" ? $18 : $19; hi[n] = $20 == "" ? $18 : $20
				}
				END {
					if (!n) { print 0, 0, 0; exit }
					cap = 2 * top; rmax = top; rmin = 1
					for (i = 1; i <= n; i++) {
						h = hi[i] + 0 > cap ? cap : hi[i] + 0; if (h > rmax) rmax = h
						l = lo[i] + 0 < 0.9 ? 0.9 : lo[i] + 0; if (l < rmin) rmin = l
						if (hi[i] + 0 > cap || lo[i] + 0 < 0.9) cut = 1
					}
					if (rmax < 1.1) rmax = 1.1; if (rmin > 0.97) rmin = 0.97
					printf "%g %g %d\n", rmin / 1.01, rmax * 1.6, cut
				}' "$d/rows.csv")
			rmin=$1 rmax=$2 rcut=$3
			ratios=0
			rnote=
			rnote2=
			rtics=
			if [ "$ratiohave" != " " ]; then
				ratios=1
				rnote="under each panel: each backend's time over the fastest's at that N (ratio_to_best), bars its interval paired by process"
				rnote2="filled: left the race, slower (vs_best); hollow: still in it, equal or tied; no bar: screened"
				[ "$rcut" = 0 ] || rnote2="$rnote2; bars cut at the panel's edge"
				rtics=$(stretched_tics "$rmin" "$rmax")
			fi
			noisy=$(awk -F, '$15 == 1 && $1 != "floor"' "$d/rows.csv" | wc -l)
			reptext="$(centre_of "$csv" "$samples"); $bars"
			tmost=$(awk -F, '$17 > t { t = $17 } END { print t + 0 }' "$d/rows.csv")
			title=$workload
			[ "$tmost" -le 1 ] || title="$workload at T = $tmost threads (the largest measured)"
			[ "$noisy" -eq 0 ] ||
				reptext="$reptext; ringed: $noisy of $(grep -vc '^floor,' "$d/rows.csv") rows noisy (${shortmeans:-as the CSV flags them})"
			out=$stage/$profile/$workload$(suffix "$size" "$sizes").png
			gp "$here/time.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
				workload='$title'; backends='$backends'; styles='$styles'; ks='$ks'; \
				have='$have'; noisyhave='$noisyhave'; floor=$floor; ymin=$ymin; ymax=$ymax; nmin=$nmin; nmax=$nmax; \
				ratios=$ratios; ratiohave='$ratiohave'; tiedhave='$tiedhave'; solidhave='$solidhave'; \
				rmin=$rmin; rmax=$rmax; rstretch=$ratio_stretch; rtics='$(gp_quote "$rtics")'; rnote='$(gp_quote "$rnote")'; rnote2='$(gp_quote "$rnote2")'; \
				profile='$(gp_quote "$proftext$(sizetext "$size")")'; \
				what='$(gp_quote "$(describe "$workload")")'; \
				history='$(gp_quote "$(history_text "$workload")")'; \
				note='$(gp_quote "$reptext")'$(gp_line "$caveat"); source='$(gp_quote "$source")'"
			wrote "$out"
		done
	done
fi

# --- threaded workloads: speedup against T ------------------------------------------------
# Rows "workload,N,k,size,T,backend,speedup,low,high,noisy" of the threaded rows, from the CSV's
# own columns (normalise keeps the largest T alone).
if [ "$have_csv" = 1 ] && grep -v '^#' "$csv" | grep -m 1 '^backend,' | tr ',' '\n' | grep -qx speedup; then
	grep -v '^#' "$csv" | awk -F, -v OFS=, '
		$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["speedup"]) != "" {
			print $(c["workload"]), $(c["entities"]), $(c["components"]),
				("component_bytes" in c) ? $(c["component_bytes"]) : 8, $(c["threads"]),
				$(c["backend"]), $(c["speedup"]), $(c["speedup_ci_low"]), $(c["speedup_ci_high"]),
				$(c["noisy"]) + 0
		}' >"$tmp/speedup.csv"
	pinning=$(header "$csv" cpu | sed -n 's/.*; \(a parallel row .*\)/\1/p')
	for workload in $(distinct 1 <"$tmp/speedup.csv"); do
		[ "$(awk -F, -v w="$workload" '$1 == w' "$tmp/speedup.csv" | distinct 5 | wc -l)" -gt 1 ] || continue
		sizes=$(awk -F, -v w="$workload" '$1 == w' "$tmp/speedup.csv" | distinct 4 | sort -n)
		for size in $sizes; do
			d=$tmp/speedup/$workload-$size
			mkdir -p "$d" "$stage/$profile"
			n=$(awk -F, -v w="$workload" -v s="$size" '$1 == w && $4 == s && $2 + 0 > m { m = $2 + 0 } END { print m }' "$tmp/speedup.csv")
			awk -F, -v w="$workload" -v s="$size" -v n="$n" '$1 == w && $4 == s && $2 == n' "$tmp/speedup.csv" |
				sort -t, -k5,5n >"$d/rows.csv"
			awk -F, -v d="$d" '{ print $5 "," $7 "," ($8 == "" ? $7 : $8) "," ($9 == "" ? $7 : $9) "," $10 > (d "/k" $3 "-" $6 ".dat") }' "$d/rows.csv"
			# shellcheck disable=SC2046
			backends=$(in_palette_order $(distinct 6 <"$d/rows.csv"))
			# shellcheck disable=SC2086
			styles=$(styles_of $backends)
			ks=$(distinct 3 <"$d/rows.csv" | sort -n | tr '\n' ' ')
			ts=$(distinct 5 <"$d/rows.csv" | sort -n | tr '\n' ' ')
			have=" $(awk -F, '{ print $3 "/" $6 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			floor=0
			grep -q ',floor,' "$d/rows.csv" && floor=1
			# shellcheck disable=SC2046
			set -- $(awk -F, '{ if ($5 + 0 > t) t = $5 + 0; for (i = 7; i <= 9; i++) if ($i + 0 > y) y = $i + 0 }
				END { if (y > 2 * t) y = 2 * t; if (y < t) y = t; print t, y }' "$d/rows.csv")
			# the series with an interval end beyond the axis (1.1 y): marked where it is cut
			cuthave=" $(awk -F, -v y="$2" '($9 == "" ? $7 : $9) + 0 > 1.1 * y { print $3 "/" $6 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			out=$stage/$profile/$workload-speedup$(suffix "$size" "$sizes").png
			gp "$here/speedup.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
				workload='$workload'; backends='$backends'; styles='$styles'; ks='$ks'; ts='$ts'; \
				have='$have'; cuthave='$cuthave'; floor=$floor; tmax=$1; ymax=$2; n='$n'; \
				profile='$(gp_quote "$proftext$(sizetext "$size")")'; \
				what='$(gp_quote "$(describe "$workload")")'; \
				note='$(gp_quote "$(centre_of "$csv" "$samples"); bars: 95% interval of the speedup ($paired)")'$(gp_line "$caveat"); \
				pinning='$(gp_quote "${pinning:-where the threads ran: not recorded}")'; \
				source='$(gp_quote "$source")'"
			wrote "$out"
		done
	done
fi

# --- Varkor's fixed-size workloads: a group of bars per workload ---------------------------
if [ "$have_csv" = 1 ] && awk -F, -v re="$fixed_re" '$3 ~ re && $1 != "floor" { found = 1; exit } END { exit !found }' "$tmp/time.csv"; then
	sizes=$(awk -F, -v re="$fixed_re" '$3 ~ re' "$tmp/time.csv" | distinct 6 | sort -n)
	for size in $sizes; do
		d=$tmp/varkor-$size
		mkdir -p "$d" "$stage/$profile"
		awk -F, -v re="$fixed_re" -v s="$size" '$3 ~ re && $6 == s && $1 != "floor"' "$tmp/time.csv" >"$d/rows.csv"
		# shellcheck disable=SC2046
		backends=$(in_palette_order $(distinct 1 <"$d/rows.csv"))
		# shellcheck disable=SC2086
		styles=$(styles_of $backends)
		# Workloads in --list order (then the CSV's), each with its N, k and rounds for the label.
		workloads=$( (listed workloads; distinct 3 <"$d/rows.csv") | awk 'NF && !seen[$0]++' |
			while read -r w; do grep -q "^[^,]*,[^,]*,$w," "$d/rows.csv" && echo "$w"; done | tr '\n' ' ')
		# Rows "group,slot,backend,ms,bar low ms,bar high ms,peak,allocations,noisy": group = the
		# workload's place, slot = the backend's place among this figure's backends. missing.csv:
		# "group,slot" of each backend a workload lacks, written "not measured" in its slot.
		awk -F, -v OFS=, -v ws="$workloads" -v bs="$backends" -v d="$d" '
			BEGIN { nw = split(ws, w, " "); for (i = 1; i <= nw; i++) g[w[i]] = i
				nb = split(bs, b, " "); for (i = 1; i <= nb; i++) s[b[i]] = i }
			($3 in g) && ($1 in s) { print g[$3], s[$1], $1, $10 / 1e6, $11 / 1e6, $12 / 1e6, $13, $14, $15; got[g[$3], s[$1]] = 1 }
			END { for (i = 1; i <= nw; i++) for (j = 1; j <= nb; j++) if (!((i, j) in got)) print i, j > (d "/missing.csv") }' \
			"$d/rows.csv" | sort -t, -k1,1n -k2,2n >"$d/bars.csv"
		missing=
		[ ! -s "$d/missing.csv" ] || missing=$d/missing.csv
		nnoisy=$(awk -F, '$9 == 1' "$d/bars.csv" | wc -l)
		vnote="$(centre_of "$csv" "$samples"); $bars"
		vnoisy=
		[ "$nnoisy" -eq 0 ] || vnoisy="\"noisy\" after a value: $nnoisy of $(wc -l <"$d/bars.csv") rows (${means:-as the CSV flags them})"
		# The x tics: the workload of each group, without and with its N, k and rounds, as gnuplot
		# "set xtics" lists.
		xtics_short=$(echo "$workloads" | awk '{ for (i = 1; i <= NF; i++) { n = $i; sub(/^varkor-/, "", n)
			printf "%s\"%s\" %d", (i > 1 ? ", " : "("), n, i } print ")" }')
		xtics_full=$(g=0; for w in $workloads; do
			g=$((g + 1))
			awk -F, -v w="$w" -v g="$g" '$3 == w {
					name = w; sub(/^varkor-/, "", name)
					n = $4 + 0; k = $5 + 0; r = $16 + 0
					printf "%s\"%s\\n%s entit%s, k = %s%s\" %d", (g > 1 ? ", " : "("), name, n,
						(n == 1 ? "y" : "ies"), k, (r > 1 ? sprintf("\\nx %d rounds", r) : ""), g
					exit }' "$d/rows.csv"
			done; echo ")")
		# Ranges of the three panels (log axes): min..max time in ms, peak bytes, allocations.
		# shellcheck disable=SC2046
		set -- $(awk -F, '
			function lo(v, cur) { return v > 0 && (cur == "" || v < cur) ? v : cur }
			{ t0 = lo($5, t0); if ($6 > t1) t1 = $6
			  m0 = lo($7, m0); if ($7 > m1) m1 = $7
			  a0 = lo($8, a0); if ($8 > a1) a1 = $8 }
			END { print (t0 == "" ? 0.001 : t0), (t1 > 0 ? t1 : 1), (m0 == "" ? 1 : m0), (m1 > 0 ? m1 : 1),
				(a0 == "" ? 1 : a0), (a1 > 0 ? a1 : 1) }' "$d/bars.csv")
		out=$stage/$profile/varkor$(suffix "$size" "$sizes").png
		gp "$here/varkor.gp" "scripts='$(gp_quote "$here")'; data='$(gp_quote "$d/bars.csv")'; out='$(gp_quote "$out")'; \
			missing='$(gp_quote "$missing")'; backends='$backends'; styles='$styles'; \
			xtics_short='$(gp_quote "$xtics_short")'; xtics_full='$(gp_quote "$xtics_full")'; \
			tmin=$1; tmax=$2; mmin=$3; mmax=$4; amin=$5; amax=$6; \
			profile='$(gp_quote "$proftext$(sizetext "$size")")'; \
			note='$(gp_quote "$vnote")'$(gp_line "$caveat"); noisy='$(gp_quote "$vnoisy")'; source='$(gp_quote "$source")'"
		wrote "$out"
	done
fi

# --- memory per entity against N -------------------------------------------------------------
# The workloads whose storage is their own, at the end of the workload: create (N entities just
# created), iterate (the storage every pass runs over, after its history: get and
# parallel-iterate hold the same one) and fragmented (random component sets). Not churn (what is
# left after destroying every entity is not a cost per entity) nor add-remove (iterate's storage
# with one more type added and taken away). memory_of WORKLOAD -> what its storage holds.
memory_of() {
	case "$1" in
	create) echo "held at the end: the N entities just created, with their components" ;;
	iterate) echo "held at the end: the N entities every pass runs over (get and parallel-iterate hold the same)" ;;
	fragmented) echo "held at the end: N entities, each with a random set of the profile's component types" ;;
	esac
}
if [ "$have_csv" = 1 ] && grep -v '^#' "$csv" | grep -m 1 '^backend,' | tr ',' '\n' | grep -qx peak_bytes; then
	# Rows "backend,workload,N,k,size,live bytes per entity,peak bytes per entity", the workload
	# named with its history as normalise names it; of the workloads above only.
	grep -v '^#' "$csv" | awk -F, -v OFS=, '
		$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			w = $(c["workload"])
			if (w != "create" && w != "iterate" && w != "fragmented") next
			n = $(c["entities"]) + 0
			if (n <= 0 || $(c["peak_bytes"]) == "") next
			live = ("live_bytes_per_entity" in c) ? $(c["live_bytes_per_entity"]) : \
				("live_bytes" in c) ? $(c["live_bytes"]) / n : ""
			if (live == "") next
			hist = ("history" in c) ? $(c["history"]) : "pristine"
			if (hist != "lived-in" && hist != "-" && hist != "") w = w "-" hist
			print $(c["backend"]), w, n, $(c["components"]), ("component_bytes" in c) ? $(c["component_bytes"]) : 8,
				live, sprintf("%.6g", $(c["peak_bytes"]) / n)
		}' >"$tmp/memory.csv"
	for workload in $(distinct 2 <"$tmp/memory.csv"); do
		sizes=$(awk -F, -v w="$workload" '$2 == w' "$tmp/memory.csv" | distinct 5 | sort -n)
		for size in $sizes; do
			d=$tmp/memory/$workload-$size
			mkdir -p "$d" "$stage/$profile"
			awk -F, -v w="$workload" -v s="$size" '$2 == w && $5 == s' "$tmp/memory.csv" | sort -t, -k3,3n >"$d/rows.csv"
			awk -F, -v d="$d" '{ print $3 "," $6 "," $7 > (d "/k" $4 "-" $1 ".dat") }' "$d/rows.csv"
			# shellcheck disable=SC2046
			backends=$(in_palette_order $(distinct 1 <"$d/rows.csv"))
			# shellcheck disable=SC2086
			styles=$(styles_of $backends)
			ks=$(distinct 4 <"$d/rows.csv" | sort -n | tr '\n' ' ')
			have=" $(awk -F, '{ print $4 "/" $1 }' "$d/rows.csv" | sort -u | tr '\n' ' ')"
			floor=0
			grep -q '^floor,' "$d/rows.csv" && floor=1
			# shellcheck disable=SC2046
			set -- $(awk -F, '
				{ for (i = 6; i <= 7; i++) if ($i > 0) { if (ymin == "" || $i < ymin) ymin = $i; if ($i > ymax) ymax = $i } 
				  if (nmin == "" || $3 < nmin) nmin = $3; if ($3 > nmax) nmax = $3 }
				END { if (ymin == "") ymin = 1; if (ymax <= ymin) ymax = ymin * 10; print ymin, ymax, nmin, nmax }' "$d/rows.csv")
			base=${workload%%-*} # without its history
			out=$stage/$profile/memory-$workload$(suffix "$size" "$sizes").png
			gp "$here/memory.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
				workload='$workload'; backends='$backends'; styles='$styles'; ks='$ks'; have='$have'; \
				floor=$floor; ymin=$1; ymax=$2; nmin=$3; nmax=$4; \
				profile='$(gp_quote "$proftext$(sizetext "$size")")'; \
				what='$(gp_quote "$(memory_of "$base")")'; \
				history='$(gp_quote "$(history_text "$workload")")'; source='$(gp_quote "$source")'"
			wrote "$out"
		done
	done
fi

# --- the profiles side by side ----------------------------------------------------------
if [ -n "$profile_files" ]; then
	for workload in $(for p in $profile_files; do cat "$tmp/profile-$p.csv"; done |
		awk -F, -v re="$fixed_re" '$3 !~ re' | distinct 3); do
		d=$tmp/profiles/$workload
		mkdir -p "$d"
		# The profiles that measured this workload; for each k and size that all of them have,
		# the largest N that all of them have: the comparison is then like for like.
		present=
		for p in $profile_files; do
			awk -F, -v w="$workload" '$3 == w { found = 1; exit } END { exit !found }' \
				"$tmp/profile-$p.csv" && present="$present $p"
		done
		present=${present# }
		common=$(for p in $present; do
			awk -F, -v w="$workload" -v p="$p" '$3 == w { print p, $5, $6, $4 }' "$tmp/profile-$p.csv"
		done | sort -u | awk -v files="$(echo "$present" | wc -w)" '
			{ count[$2 " " $3 " " $4]++ }
			END {
				for (kn in count) if (count[kn] == files) {
					split(kn, a, " ")
					if (a[3] + 0 > best[a[1] " " a[2]]) best[a[1] " " a[2]] = a[3] + 0
				}
				for (ks in best) print ks, best[ks]
			}' | sort -k2,2n -k1,1n)
		if [ -z "$common" ]; then
			echo "plot.sh: $workload: no k and N common to profiles $present; no profile plot" >&2
			continue
		fi
		# Series files <k>-<size>-<backend>.dat: one line per profile A, AA, AAA in that order,
		# "x,ns_per_entity,bar low,bar high,noisy", or an empty line where that profile lacks the
		# row, so that gnuplot breaks the line there instead of drawing through a profile not
		# measured.
		# shellcheck disable=SC2046
		backends=$(in_palette_order $(for p in $present; do
			awk -F, -v w="$workload" '$3 == w' "$tmp/profile-$p.csv"; done | distinct 1))
		# shellcheck disable=SC2086
		styles=$(styles_of $backends)
		floor=0
		echo "$common" | while read -r k size n; do
			for b in $backends floor; do
				x=0
				for p in A AA AAA; do
					f=$tmp/profile-$p.csv
					if [ -f "$f" ]; then
						awk -F, -v b="$b" -v w="$workload" -v k="$k" -v s="$size" -v n="$n" -v x="$x" '
							$1 == b && $3 == w && $5 == k && $6 == s && $4 == n && !found {
								print x "," $7 "," $8 "," $9 "," $15; found = 1
							}
							END { if (!found) print "" }' "$f"
					else
						echo
					fi
					x=$((x + 1))
				done >"$d/$k-$size-$b.dat"
			done
		done
		have=" $(for f in "$d"/*.dat; do grep -q . "$f" && basename "$f" .dat; done | tr '\n' ' ')"
		noisyhave=" $(for f in "$d"/*.dat; do
			case "$f" in *-floor.dat) continue ;; esac
			grep -q ',1$' "$f" && basename "$f" .dat; done | tr '\n' ' ')"
		case "$have" in *-floor\ *) floor=1 ;; esac
		# The panels: "k size N" triples; the sizes in the titles only where a size is not 8 bytes.
		# A panel's note names the profiles that measured beyond its N (its N is the largest that
		# all share, so the comparison never silently stops short of what a run measured).
		panels=$(echo "$common" | tr '\n' ' ')
		allsizes=$(echo "$common" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
		showsize=0
		[ "$allsizes" = "8 " ] || showsize=1
		notes=$(i=0; echo "$common" | while read -r k size n; do
			i=$((i + 1))
			beyond=$(for p in $present; do
				awk -F, -v w="$workload" -v k="$k" -v s="$size" -v n="$n" -v p="$p" '
					$3 == w && $5 == k && $6 == s && $4 + 0 > m { m = $4 + 0 }
					END { if (m > n) printf "%s %d, ", p, m }' "$tmp/profile-$p.csv"
			done)
			[ -z "$beyond" ] || printf "pnote%d='%s'; " "$i" \
				"$(gp_quote "measured up to: ${beyond%, }")"
		done)
		# The runs drawn, one per profile, and whether they are of one commit.
		runs=$(for p in $present; do
			printf '%s: %s %s; ' "$p" "$(header "$(csv_of "$p")" "ecsbench commit")" "$(header "$(csv_of "$p")" date)"
		done)
		runs=${runs%; }
		commits=$(for p in $present; do header "$(csv_of "$p")" "ecsbench commit"; done | sort -u | wc -l)
		if [ "$commits" -gt 1 ]; then
			echo "plot.sh: profiles/$workload.png: runs of $commits different commits ($runs)" >&2
			runs="runs of $commits different commits: $runs"
		else
			runs="runs: $runs"
		fi
		# The profiles' runs are of separate sessions: a run whose machine state differs from the
		# first one's is named (ecsbench-compare --machine, harness/core/machine.h).
		set -- $present
		for p in $present; do
			[ "$p" != "$1" ] && [ -x "$top/build/ecsbench-compare" ] || continue
			m=$("$top/build/ecsbench-compare" --machine "$(csv_of "$1")" "$(csv_of "$p")" --brief 2>/dev/null) || true
			case "$m" in *differs*) runs="$runs; $p against $1: $m" ;; esac
		done
		# Bars: the 95% CI where a profile's CSV has it, min..max otherwise.
		ci=; mm=
		for p in $present; do
			if has_ci "$(csv_of "$p")"; then ci="$ci $p"; else mm="$mm $p"; fi
		done
		if [ -z "$mm" ]; then pbars="bars: 95% CI"
		elif [ -z "$ci" ]; then pbars="bars: min..max"
		else pbars="bars: 95% CI (${ci# }), min..max (${mm# })"; fi
		[ "$noisyhave" = " " ] || pbars="$pbars; ringed: noisy rows"
		# a profile measured in 1 or 2 processes: what its intervals cannot say, a line of its own
		pcaveat=
		for p in $ci; do
			c=$(interval_caveat "$(csv_of "$p")")
			[ -z "$c" ] || pcaveat="${pcaveat:+$pcaveat; }$p: $c"
		done
		# The profiles this figure lacks, each with why (its slot says so, never left empty):
		# absent="AA AAA", absentwhy_AA='...' ("|" between its lines).
		absent=
		absentvars=
		for p in A AA AAA; do
			case " $present " in *" $p "*) continue ;; esac
			absent="$absent $p"
			if [ -f "$tmp/profile-$p.csv" ]; then why="its run|has no|$workload"
			else why="no $p.csv:|make bench|PROFILE=$p"; fi
			absentvars="$absentvars absentwhy_$p='$(gp_quote "$why")';"
		done
		# shellcheck disable=SC2046
		set -- $(cat "$d"/*.dat | awk -F, 'NF {
				lo = $3 > 0 ? $3 : $2; hi = $4 > $2 ? $4 : $2
				if (lo > 0 && (min == "" || lo < min)) min = lo
				if (hi > max) max = hi
			}
			END { if (min == "" || min <= 0) min = 0.001; if (max <= min) max = min * 10; print min, max }')
		mkdir -p "$stage/profiles"
		out=$stage/profiles/$workload.png
		gp "$here/profiles.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; out='$(gp_quote "$out")'; \
			workload='$workload'; backends='$backends'; styles='$styles'; panels='$panels'; \
			showsize=$showsize; have='$have'; noisyhave='$noisyhave'; floor=$floor; present='$present'; \
			absent='${absent# }'; $absentvars centre='$(gp_quote "$(centre_text "$(csv_of "${present%% *}")")")'; \
			ymin=$1; ymax=$2; $notes runs='$(gp_quote "$runs")'$(gp_line "$pcaveat"); bars='$(gp_quote "$pbars")'; \
			what='$(gp_quote "$(describe "$workload")")'"
		wrote "$out"
	done
fi

# --- cache misses per entity --------------------------------------------------------------
if [ "$have_cg" = 1 ]; then
	for workload in $(distinct 2 <"$tmp/cache.csv"); do
		d=$tmp/cache/$workload
		mkdir -p "$d" "$stage/$profile"
		sizes=$(awk -F, -v w="$workload" '$2 == w' "$tmp/cache.csv" | distinct 5 | sort -n)
		for size in $sizes; do
			awk -F, -v w="$workload" -v s="$size" '$2 == w && $5 == s' "$tmp/cache.csv" >"$d/rows-$size.csv"
			# shellcheck disable=SC2046
			backends=$(in_palette_order $(distinct 1 <"$d/rows-$size.csv"))
			# The floor (plain arrays, measured beside the first backend of each case): a bar of its
			# own after the backends', where the CSV has it.
			cfloor=0
			grep -q '^floor,' "$d/rows-$size.csv" && cfloor=1
			# The runs behind the figure (date and commit of each row), numbered by date: one names
			# itself in the title; several are listed there, and each panel says which it draws.
			awk -F, '{ print $10 " " $11 }' "$d/rows-$size.csv" | sort -u >"$d/runs-$size"
			nruns=$(wc -l <"$d/runs-$size")
			# runtext<i>: run i, a title line each
			runvars=$(awk -v q="'" -v n="$nruns" '{ printf "runtext%d=%s%scommit %s, %s%s; ", NR, q,
				(n > 1 ? "run " NR ": " : "run: "), $2, $1, q }' "$d/runs-$size")
			# One file per panel (k, N): "slot,backend,d1 misses per entity,lld misses per entity";
			# cases: "k N rounds" of each panel; per panel i, have<i> (the backends it has: the
			# others are written "not measured") and run<i> (its runs, where there are several).
			cases=$(awk -F, '{ print $4, $3, $9 }' "$d/rows-$size.csv" | sort -u -k1,1n -k2,2n -k3,3n |
				awk '!seen[$1 " " $2]++' | tr '\n' ' ')
			panelvars=
			i=0
			# shellcheck disable=SC2086
			set -- $cases
			while [ $# -ge 3 ]; do
				i=$((i + 1))
				awk -F, -v OFS=, -v k="$1" -v n="$2" -v bs="$backends" '
					BEGIN { nb = split(bs, b, " "); for (i = 1; i <= nb; i++) s[b[i]] = i; s["floor"] = nb + 1 }
					$4 == k && $3 == n && ($1 in s) { print s[$1], $1, $6, $7 }' \
					"$d/rows-$size.csv" | sort -t, -k1,1n >"$d/$size-$1-$2.dat"
				panelhave=" $(cut -d, -f2 "$d/$size-$1-$2.dat" | tr '\n' ' ')"
				panelruns=$(awk -F, -v k="$1" -v n="$2" -v runs="$d/runs-$size" '
					BEGIN { while ((getline line < runs) > 0) id[line] = ++m }
					$4 == k && $3 == n { used[id[$10 " " $11]] = 1 }
					END { for (i = 1; i <= m; i++) if (i in used) s = s (s == "" ? "" : ", ") i; print s }' "$d/rows-$size.csv")
				panelvars="$panelvars have$i='$panelhave'; run$i='$panelruns';"
				shift 3
			done
			ymax=$(awk -F, '$6 > m { m = $6 } $7 > m { m = $7 } END { print m + 0 }' "$d/rows-$size.csv")
			config=$(awk -F, '{ print $8 }' "$d/rows-$size.csv" | sort -u | tr '\n' '|' | sed 's/|$//; s/|/ | /g')
			out=$stage/$profile/cache-$workload$(suffix "$size" "$sizes").png
			# shellcheck disable=SC2086
			gp "$here/cache.gp" "scripts='$(gp_quote "$here")'; dir='$(gp_quote "$d")'; size='$size'; \
				out='$(gp_quote "$out")'; workload='$workload'; backends='$backends'; \
				styles='$(styles_of $backends)'; floor=$cfloor; cases='$cases'; ymax=$ymax; nruns=$nruns; $panelvars \
				$runvars source='$(gp_quote "from $cg")'; \
				profile='$(gp_quote "$profile$(sizetext "$size")")'; config='$(gp_quote "$config")'"
			wrote "$out"
		done
	done
fi

[ "$drew" -gt 0 ] || { echo "plot.sh: nothing to draw for profile $profile (the files hold no rows to plot)" >&2; exit 1; }

# Into place: each figure drawn replaces its old self (a rename), and a figure this run did not
# draw goes (a workload the CSV no longer has, a profile whose CSV is gone): PLOTS_DIR/PROFILE/
# and PLOTS_DIR/profiles/ hold exactly the figures of the files drawn from. (make bench has
# build/ecsbench move the figures of a CSV it replaces into that CSV's previous/ folder first.)
moved=0 folders=
for sub in "$profile" profiles; do
	[ -d "$stage/$sub" ] || [ -d "$plots/$sub" ] || continue
	mkdir -p "$plots/$sub"
	for f in "$plots/$sub"/*.png; do
		[ -e "$f" ] && [ ! -e "$stage/$sub/${f##*/}" ] && rm -f "$f"
	done
	for f in "$stage/$sub"/*.png; do
		[ -e "$f" ] || continue
		mv -f "$f" "$plots/$sub/" || exit 1
		moved=$((moved + 1))
		case "$folders" in *" $plots/$sub/") ;; *) folders="$folders $plots/$sub/" ;; esac
	done
	rmdir "$plots/$sub" 2>/dev/null || true
done
# one line for them all (a run draws dozens)
echo "plot.sh: wrote $moved figure$([ "$moved" = 1 ] || echo s) into${folders}" >&2
