# time.gp: time per entity against the entity count, for one workload of one profile: a panel
# per k, a line per backend, error bars from the fastest to the slowest sample.
# Variables (set by plot.sh with -e): scripts (this folder), styles (the line style of each
# backend, same order as backends; a backend keeps its style in every figure), csv, out, workload, backends
# (space-separated, in colour order), ks (space-separated), ymin, ymax (ns per entity over all
# rows), nmin, nmax (entities), profile (the CSV's profile line), note (reps, commit, cpu).
# The rows of one backend and k come from the CSV as it is ('#' lines and the header skipped)
# through an awk filter, sorted by N so that a line never doubles back.
load scripts . "/styles.gp"

nk = words(ks)
nb = words(backends)
set terminal pngcairo size (nk > 1 ? 470 * nk + 90 : 640), 560 font "DejaVu Sans,10" noenhanced
set output out

series(b, k) = sprintf("< awk -F, -v b='%s' -v w='%s' -v k='%s' '!/^#/ && $1 == b && $4 == w && $6 == k' '%s' | sort -t, -k5,5n", b, workload, k, csv)

set logscale x 2
# Whole powers of two on x, a little room either side so the end points are not on the frame.
set xrange [nmin / 1.4 : nmax * 1.4]
# A tic on every power of two, where the points are; past seven of them a label on every other
# one only, so that the labels never run together.
e0 = floor(log(nmin) / log(2) + 1e-9)
e1 = ceil(log(nmax) / log(2) - 1e-9)
set xtics () 
do for [e = e0:e1] {
	set xtics add ((e1 - e0 < 7 || (e - e0) % 2 == 0) ? sprintf("2^%d", e) : "" 2 ** e)
}
set mxtics 1
set yrange [ymin / 1.5 : ymax * 1.5]
set format y "%g"
set xlabel "entities N (log scale)"

set multiplot layout 1, nk \
	title sprintf("%s: time per entity, profile %s\n%s", workload, profile, note) font ",11" \
	margins (nk > 1 ? 0.07 : 0.12), 0.98, 0.2, 0.86 spacing 0.045, 0
do for [i = 1:nk] {
	k = word(ks, i)
	set title sprintf("k = %s component%s per entity", k, k eq "1" ? "" : "s")
	if (i == 1) {
		set ylabel "time per entity (ns, log scale)"
	} else {
		unset ylabel
	}
	# The key lives below the panels, once, with an entry for every backend of the file, so it
	# never covers data and never misses a backend that a panel lacks.
	if (i == 1) {
		set key at screen 0.5, 0.035 center center horizontal samplen 3 spacing 1.2 \
			width 2 box linestyle 100
		plot for [j = 1:nb] series(word(backends, j), k) using 5:13:($10 / $5):($11 / $5) \
			with yerrorlines linestyle (word(styles, j) + 0) notitle, \
			for [j = 1:nb] keyentry with yerrorlines linestyle (word(styles, j) + 0) title word(backends, j)
	} else {
		unset key
		plot for [j = 1:nb] series(word(backends, j), k) using 5:13:($10 / $5):($11 / $5) \
			with yerrorlines linestyle (word(styles, j) + 0) notitle
	}
}
unset multiplot
