# profiles.gp: how each backend's time per entity changes from profile A to AA to AAA, for one
# workload: a panel per k, x = profile, at the largest N that every profile's CSV has.
# Variables (set by plot.sh with -e): scripts (this folder), styles (the line style of each
# backend, same order as backends; a backend keeps its style in every figure), dir (the series files), out,
# workload, backends (space-separated, in colour order), kn ("k N k N ..."), present (the
# profiles that have a CSV), ymin, ymax (over all series).
# Series file dir/<workload>-k<k>-<backend>.dat: one line per profile A, AA, AAA in that order,
# "x,ns_per_entity,min,max", or an empty line where that profile lacks the row, so that no line is
# drawn through a profile that was not measured.
load scripts . "/styles.gp"

np = words(kn) / 2
nb = words(backends)
set terminal pngcairo size (np > 1 ? 430 * np + 90 : 600), 560 font "DejaVu Sans,10" noenhanced
set output out

series(k, b) = sprintf("%s/%s-k%s-%s.dat", dir, workload, k, b)

set xrange [-0.4 : 2.4]
set xtics ("A\n32 types\n16 systems" 0, "AA\n128 types\n32 systems" 1, "AAA\n512 types\n64 systems" 2)
set yrange [ymin / 1.5 : ymax * 1.5]  # one range for all panels, so that they compare
set format y "%g"
unset xlabel  # the tic labels name the profiles
set grid noxtics

set multiplot layout 1, np \
	title sprintf("%s: time per entity by profile (profiles measured: %s)\nmedian, bars min..max; N = the largest entity count every measured profile has", workload, present) font ",11" \
	margins (np > 1 ? 0.08 : 0.14), 0.98, 0.25, 0.86 spacing 0.05, 0
do for [i = 1:np] {
	k = word(kn, 2 * i - 1)
	n = word(kn, 2 * i)
	set title sprintf("k = %s, N = %s", k, n)
	if (i == 1) {
		set ylabel "time per entity (ns, log scale)"
	} else {
		unset ylabel
	}
	if (i == 1) {
		set key at screen 0.5, 0.035 center center horizontal samplen 3 spacing 1.2 \
			width 2 box linestyle 100
		plot for [j = 1:nb] series(k, word(backends, j)) using 1:2:3:4 \
			with yerrorlines linestyle (word(styles, j) + 0) notitle, \
			for [j = 1:nb] keyentry with yerrorlines linestyle (word(styles, j) + 0) title word(backends, j)
	} else {
		unset key
		plot for [j = 1:nb] series(k, word(backends, j)) using 1:2:3:4 \
			with yerrorlines linestyle (word(styles, j) + 0) notitle
	}
}
unset multiplot
