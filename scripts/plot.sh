#!/bin/sh
# plot.sh: draws the figures of one profile from the CSV files ecsbench and cachegrind.sh wrote.
#
# Usage: scripts/plot.sh [-r RESULTS_DIR] [-o PLOTS_DIR] [-i CSV] PROFILE
#   -r  where the CSV files are (default: results)
#   -o  where the PNG files go (default: plots)
#   -i  the timing CSV of PROFILE (default: RESULTS_DIR/PROFILE.csv)
#
# Draws whatever the data allows, and nothing it does not:
#   PLOTS_DIR/PROFILE/<workload>.png        time per entity against N, a panel per k, a line per
#                                           backend (from the timing CSV);
#   PLOTS_DIR/profiles/<workload>.png       time per entity at the largest N all profiles share,
#                                           x = profile, from whichever RESULTS_DIR/{A,AA,AAA}.csv
#                                           exist (a missing profile or backend is a gap);
#   PLOTS_DIR/PROFILE/cache-<workload>.png  D1 and LLd misses per entity by backend (from
#                                           RESULTS_DIR/cachegrind-PROFILE.csv, if it exists).
# Backends, workloads, entity counts and k come from the files, never from a list in here: a new
# backend shows up in every figure the first time it appears in a CSV.
#
# The gnuplot scripts (scripts/*.gp) read the CSV files themselves, through an awk filter;
# the profile comparison, which joins several files, goes through small files in build/plots/.
set -eu

usage() {
	echo "usage: scripts/plot.sh [-r RESULTS_DIR] [-o PLOTS_DIR] [-i CSV] PROFILE" >&2
	exit 2
}

results=results
plots=plots
csv=
while getopts r:o:i:h opt; do
	case "$opt" in
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
here=$(dirname "$0")
tmp=build/plots
command -v gnuplot >/dev/null 2>&1 || {
	echo "plot.sh: gnuplot is missing (scripts/deps.sh plots installs it)" >&2
	exit 1
}

# The data rows of a CSV: no '#' comments, no header.
rows() { awk '!/^#/ && !/^(backend|date),/ && NF' "$@"; }

# Distinct values of column $1 of the rows on stdin, in order of first appearance.
distinct() { awk -F, -v c="$1" '!seen[$c]++ { print $c }'; }

# A '#' header value of an ecsbench CSV: header FILE KEY -> the rest of the line "# KEY ...".
header() { sed -n "s/^# $2 //p" "$1" | head -n 1; }

gp_quote() { printf "%s" "$1" | sed "s/'/''/g"; } # a gnuplot single-quoted string's body

# A backend keeps its colour in every figure: its place in the backend table of the built
# ecsbench (--list), where that exists, then in the order the CSV files name backends. Each
# figure draws only the backends its data has, in that order, with those styles.
palette=$( ( [ -x build/ecsbench ] && build/ecsbench --list 2>/dev/null |
		awk '/^[a-z]/ { on = $1 == "backends:"; next } on { print $1 }'
	for f in "$csv" "$results"/A.csv "$results"/AA.csv "$results"/AAA.csv; do
		[ -f "$f" ] && rows "$f" | distinct 1
	done
	[ -f "$results/cachegrind-$profile.csv" ] && rows "$results/cachegrind-$profile.csv" | distinct 3
	) | awk 'NF && !seen[$0]++' | tr '\n' ' ')
# in_palette_order NAMES... -> those names, in palette order
in_palette_order() {
	for p in $palette; do
		case " $* " in *" $p "*) printf '%s ' "$p" ;; esac
	done
}
# styles_of NAMES... -> the line style number of each
styles_of() {
	for b in "$@"; do
		echo "$palette" | tr ' ' '\n' | awk -v b="$b" 'NF { i++ } $0 == b { print i; exit }'
	done | tr '\n' ' '
}

drew=0

# --- time per entity against N ----------------------------------------------------------
if [ -f "$csv" ]; then
	mkdir -p "$plots/$profile"
	# shellcheck disable=SC2046
	backends=$(in_palette_order $(rows "$csv" | distinct 1))
	# shellcheck disable=SC2086
	styles=$(styles_of $backends)
	commit=$(header "$csv" "ecsbench commit")
	cpu=$(header "$csv" cpu)
	reps=$(header "$csv" seed | sed -n 's/.*reps \([0-9]*\).*/\1/p')
	# "A (32 component types, 16 systems); systems registered 16": name the registered count
	# only where --systems made it differ from the profile's.
	proftext=$(header "$csv" profile | sed 's/^\(.*, \([0-9]*\) systems)\); systems registered \2$/\1/;
		s/; systems registered \([0-9]*\)$/, \1 of them registered/')
	for workload in $(rows "$csv" | distinct 4); do
		ks=$(rows "$csv" | awk -F, -v w="$workload" '$4 == w' | distinct 6 | sort -n | tr '\n' ' ')
		# One y range for all panels, so that the panels compare.
		range=$(rows "$csv" | awk -F, -v w="$workload" '
			$4 == w && $5 > 0 {
				lo = $10 / $5; hi = $11 / $5
				if (n++ == 0 || lo < min) min = lo
				if (hi > max) max = hi
				if ($5 < nmin || nmin == "") nmin = $5
				if ($5 > nmax) nmax = $5
			}
			END { if (min <= 0) min = 0.001; print min, max, nmin, nmax }')
		# shellcheck disable=SC2086
		set -- $range
		out=$plots/$profile/$workload.png
		gnuplot -e "scripts='$here'; csv='$(gp_quote "$csv")'; out='$(gp_quote "$out")'; \
			workload='$workload'; backends='$backends'; styles='$styles'; ks='$ks'; \
			ymin=$1; ymax=$2; nmin=$3; nmax=$4; \
			profile='$(gp_quote "$proftext")'; \
			note='median of ${reps:-?} reps, bars min..max; commit $(gp_quote "$commit"); $(gp_quote "$cpu")'" \
			"$here/time.gp"
		echo "plot.sh: wrote $out" >&2
		drew=$((drew + 1))
	done
elif [ ! -f "$results/cachegrind-$profile.csv" ]; then
	echo "plot.sh: neither $csv nor $results/cachegrind-$profile.csv exists: nothing to draw for $profile" >&2
	exit 1
else
	echo "plot.sh: no $csv; no time plots for $profile" >&2
fi

# --- the profiles side by side ----------------------------------------------------------
profile_files=
for p in A AA AAA; do
	[ -f "$results/$p.csv" ] && profile_files="$profile_files $results/$p.csv"
done
if [ -n "$profile_files" ]; then
	mkdir -p "$plots/profiles" "$tmp/profiles"
	# shellcheck disable=SC2086,SC2046
	all_backends=$(in_palette_order $(rows $profile_files | distinct 1))
	# shellcheck disable=SC2086
	all_styles=$(styles_of $all_backends)
	# shellcheck disable=SC2086
	for workload in $(rows $profile_files | distinct 4); do
		# The k every file has for this workload, and for each such k the largest N that every
		# file has: the comparison is then like for like.
		# shellcheck disable=SC2086
		common=$(for f in $profile_files; do
			rows "$f" | awk -F, -v w="$workload" -v f="$f" '$4 == w { print f, $6, $5 }'
		done | sort -u | awk -v files="$(echo $profile_files | wc -w)" '
			{ count[$2 " " $3]++ }
			END {
				for (kn in count) if (count[kn] == files) {
					split(kn, a, " ")
					if (a[2] + 0 > best[a[1]]) best[a[1]] = a[2] + 0
				}
				for (k in best) print k, best[k]
			}' | sort -n)
		if [ -z "$common" ]; then
			echo "plot.sh: $workload: no k and N common to$profile_files; no profile plot" >&2
			continue
		fi
		rm -f "$tmp/profiles/$workload"-*.dat
		echo "$common" | while read -r k n; do
			for b in $all_backends; do
				# One line per profile in order; a blank line where a profile lacks the row, so
				# that gnuplot breaks the line there instead of drawing through it.
				for p in A AA AAA; do
					f=$results/$p.csv
					[ -f "$f" ] || { echo; continue; }
					rows "$f" | awk -F, -v b="$b" -v w="$workload" -v k="$k" -v n="$n" -v x="$p" '
						$1 == b && $4 == w && $6 == k && $5 == n {
							i = x == "A" ? 0 : x == "AA" ? 1 : 2
							printf "%d,%s,%.6g,%.6g\n", i, $13, $10 / $5, $11 / $5; found = 1
						}
						END { if (!found) print "" }'
				done >"$tmp/profiles/$workload-k$k-$b.dat"
			done
		done
		ksn=$(echo "$common" | tr '\n' ' ')
		out=$plots/profiles/$workload.png
		# shellcheck disable=SC2086
		present=$(for f in $profile_files; do basename "$f" .csv; done | tr '\n' ' ' | sed 's/ $//')
		# shellcheck disable=SC2046
		set -- $(cat "$tmp/profiles/$workload"-*.dat | awk -F, 'NF {
				if (n++ == 0 || $3 < min) min = $3
				if ($4 > max) max = $4
			}
			END { if (min <= 0) min = 0.001; print min, max }')
		gnuplot -e "scripts='$here'; dir='$(gp_quote "$tmp/profiles")'; out='$(gp_quote "$out")'; \
			workload='$workload'; backends='$all_backends'; styles='$all_styles'; kn='$ksn'; \
			present='$present'; ymin=$1; ymax=$2" "$here/profiles.gp"
		echo "plot.sh: wrote $out" >&2
		drew=$((drew + 1))
	done
fi

# --- cache misses per entity --------------------------------------------------------------
cg=$results/cachegrind-$profile.csv
if [ -f "$cg" ]; then
	mkdir -p "$plots/$profile" "$tmp/cache"
	# Appended runs: the last row of each backend x workload x N x k is the one that counts.
	rows "$cg" | awk -F, -v OFS=, '
		{ key = $3 "," $6 "," $7 "," $8; last[key] = $0; if (!(key in order)) { order[key] = ++n; keys[n] = key } }
		END { for (i = 1; i <= n; i++) print last[keys[i]] }' >"$tmp/cache/$profile.csv"
	# shellcheck disable=SC2046
	cgb=$(in_palette_order $(distinct 3 <"$tmp/cache/$profile.csv"))
	for workload in $(distinct 6 <"$tmp/cache/$profile.csv"); do
		cases=$(awk -F, -v w="$workload" '$6 == w { print $8, $7 }' "$tmp/cache/$profile.csv" |
			sort -u -k1,1n -k2,2n | tr '\n' ' ' | sed 's/ $//')
		ymax=$(awk -F, -v w="$workload" '$6 == w && $19 > m { m = $19 } END { print m + 0 }' \
			"$tmp/cache/$profile.csv")
		config=$(awk -F, -v w="$workload" '$6 == w { print "D1 " $22 ", LL " $23 }' \
			"$tmp/cache/$profile.csv" | sort -u | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		out=$plots/$profile/cache-$workload.png
		gnuplot -e "scripts='$here'; csv='$(gp_quote "$tmp/cache/$profile.csv")'; out='$(gp_quote "$out")'; \
			workload='$workload'; backends='$cgb'; cases='$cases'; ymax=$ymax; \
			profile='$profile'; config='$(gp_quote "$config")'" "$here/cache.gp"
		echo "plot.sh: wrote $out" >&2
		drew=$((drew + 1))
	done
fi

[ "$drew" -gt 0 ] || { echo "plot.sh: nothing to draw for profile $profile" >&2; exit 1; }
