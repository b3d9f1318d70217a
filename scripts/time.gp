# time.gp: time per entity against the entity count, for one workload of one profile: a panel
# per k, a line per backend (the CSV's median_ns per entity), error bars (its 95% CI, or min..max:
# note says which), a ring around each noisy row's point (note says what noisy means); for iterate the floor (the same update over plain arrays)
# as a dashed reference line. A backend that a panel lacks is named there as not measured.
# Variables (set by plot.sh with -e): scripts (this folder), dir (the series files
# dir/k<k>-<backend>.dat: "N,ns per entity,bar low,bar high,noisy", sorted by N), out, workload,
# backends (space-separated, in colour order), styles (the line style of each backend, same
# order; a backend keeps its style in every figure), ks (space-separated), have (" k/backend ..."
# for each series file), noisyhave (the same for the series with a noisy row), floor (1: there
# are k<k>-floor.dat files), ymin, ymax (ns per entity over all rows), nmin, nmax (entities),
# profile (the CSV's profile line), what (the timed region, from --list), history (what the
# storages went through: "history lived-in: ..."; may be empty), note (samples, bars, noise),
# source (the run: commit, date, cpu).
load scripts . "/styles.gp"

nk = words(ks)
nb = words(backends)
# Wide enough for the key in two rows of five (eight backends, the floor, the noisy ring), and
# for the title's longest line (the note on samples, bars and noisy rows) over one panel.
canvas_w = nk > 1 ? 480 * nk + 100 : 1150
set terminal pngcairo size canvas_w, 640 font "DejaVu Sans,10" noenhanced
set output out

series(k, b) = sprintf("%s/k%s-%s.dat", dir, k, b)

set logscale x 2
# Whole powers of two on x, a little room either side so the end points are not on the frame.
set xrange [nmin / 1.4 : nmax * 1.4]
# A tic on every power of two, where the points are, labelled 1k, 2k, ... 1M; past eight of them
# a label on every other one only, so that the labels never run together.
e0 = floor(log(nmin) / log(2) + 1e-9)
e1 = ceil(log(nmax) / log(2) - 1e-9)
nlabel(e) = e >= 20 ? sprintf("%gM", 2 ** (e - 20)) : e >= 10 ? sprintf("%gk", 2 ** (e - 10)) : sprintf("%g", 2 ** e)
set xtics ()
do for [e = e0:e1] {
	set xtics add ((e1 - e0 < 8 || (e - e0) % 2 == 0) ? nlabel(e) : "" 2 ** e)
}
set mxtics 1
set yrange [ymin / 1.5 : ymax * 1.5]
# The floor: a dashed line, with a mark at each point where there is one N only (no line).
floorstyle = nmin == nmax ? "linespoints linestyle 51" : "lines linestyle 50"
set xlabel "entities N (log2 scale; 1k = 1024)"

# The panels in one row; under them, a strip with the key, once, with an entry for every
# backend of the figure (and the floor), so that it never covers data and never misses a backend
# that a panel lacks.
key_top = 0.07
pl = nk > 1 ? 0.065 : 0.1
gap = 0.04
if (!exists("history")) history = ""
set multiplot title sprintf("%s: time per entity, profile %s\n%s%s%s\n%s", workload, profile, \
	what eq "" ? "" : "timed: " . what . "\n", history eq "" ? "" : history . "\n", note, \
	source) font ",11"
set bmargin at screen 0.16
set tmargin at screen (0.83 - (what eq "" ? 0 : 0.03) - (history eq "" ? 0 : 0.03))
do for [i = 1:nk] {
	k = word(ks, i)
	set lmargin at screen panel_l(i, nk)
	set rmargin at screen panel_r(i, nk)
	set title sprintf("k = %s component%s per entity", k, k eq "1" ? "" : "s")
	if (i == 1) {
		set ylabel "time per entity (ns, log scale)"
	} else {
		unset ylabel
	}
	# The plot command, built as a string: only the series this panel has (a file per series),
	# the floor first so that the backends draw over it.
	cmd = ""
	if (floor && strstrt(have, sprintf(" %s/floor ", k)) > 0) {
		cmd = cmd . sprintf(", '%s' using 1:2 with %s notitle", series(k, "floor"), floorstyle)
	}
	missing = ""
	do for [j = 1:nb] {
		if (strstrt(have, sprintf(" %s/%s ", k, word(backends, j))) > 0) {
			cmd = cmd . sprintf(", '%s' using 1:2:3:4 with yerrorlines linestyle %s notitle", \
				series(k, word(backends, j)), word(styles, j))
		} else {
			missing = missing . (missing eq "" ? "" : ", ") . word(backends, j)
		}
		if (strstrt(noisyhave, sprintf(" %s/%s ", k, word(backends, j))) > 0) {
			cmd = cmd . sprintf(", '%s' using 1:($5 > 0 ? $2 : NaN) with points linestyle %s %s notitle", \
				series(k, word(backends, j)), word(styles, j), ring)
		}
	}
	unset label
	if (missing ne "") {
		set label 1 "not measured: " . missing at graph 0.03, graph 0.96 left font ",9" textcolor rgb "#606060"
	}
	unset key
	eval "plot " . cmd[3:*]
}
unset label
keycmd = ""
do for [j = 1:nb] {
	keycmd = keycmd . sprintf(", keyentry with yerrorlines linestyle %s title '%s'", word(styles, j), word(backends, j))
}
if (floor) {
	keycmd = keycmd . ", keyentry with " . floorstyle . " title floor_title"
}
if (noisyhave ne " ") {
	keycmd = keycmd . ", keyentry with points linestyle 60 title 'noisy row'"
}
eval draw_key
unset multiplot
