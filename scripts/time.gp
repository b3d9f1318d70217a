# time.gp: time per entity against the entity count, for one workload of one profile: a panel
# per k, a line per backend (the CSV's median_ns per entity), error bars (its 95% CI, or min..max:
# note says which), a ring around each noisy row's point (note says what noisy means); for iterate the floor (the same update over plain arrays)
# as a dashed reference line. A backend that a panel lacks is named there as not measured.
# Under each panel (where the CSV has paired ratios), the CSV's verdicts: each backend's time over
# the fastest's at that N (ratio_to_best, so the fastest sits on 1) with its interval (ratio_ci_low
# .. ratio_ci_high) as bars, the backends a little apart on x so that no bar hides another, a
# point hollow where vs_best is tied (its bar holds 1) and filled where it is not: the figure says
# what the CSV says, where the rows' own bars (which hold what the machine did to a process as a
# whole) overlap while the paired comparison tells two backends apart.
# Variables (set by plot.sh with -e): scripts (this folder), dir (the series files
# dir/k<k>-<backend>.dat: "N,ns per entity,bar low,bar high,noisy,ratio_to_best,ratio low,ratio
# high,tied", sorted by N; NaN where a column is missing), out, workload,
# backends (space-separated, in colour order), styles (the line style of each backend, same
# order; a backend keeps its style in every figure), ks (space-separated), have (" k/backend ..."
# for each series file), noisyhave (the same for the series with a noisy row), floor (1: there
# are k<k>-floor.dat files), ymin, ymax (ns per entity over all rows), nmin, nmax (entities),
# ratios (1: draw the ratio panels), ratiohave, tiedhave, solidhave (" k/backend ..." of the
# series with a ratio, with a tied row, with a row not tied), rmin, rmax (the ratio axis),
# rstretch (its scale: y = asinh(log(ratio) / rstretch), stretched near 1 where the verdicts are
# decided), rtics (its tics, a "set ytics" list), rnote, rnote2 (what the ratio panels show),
# profile (the CSV's profile line), what (the timed region, from --list), history (what the
# storages went through: "history lived-in: ..."; may be empty), note (samples, bars, noise),
# source (the run: commit, date, cpu).
load scripts . "/styles.gp"

nk = words(ks)
np_here = nk
nb = words(backends)
# Wide enough for two panels' worth of title over one panel; a panel a k beyond.
canvas_w = nk > 1 ? 480 * nk + 100 : 1150
if (!exists("ratios")) ratios = 0
if (!exists("rnote")) rnote = ""
if (!exists("rnote2")) rnote2 = ""
if (!exists("history")) history = ""
# empty-pass's rows are per pass (its ns_per_entity: harness/sweep/fixed_cost.c)
unit = strstrt(workload, "empty-pass") == 1 ? "pass" : "entity"
# The title: what it shows (the workload, the profile, the storages' history by name); the
# caption: the timed region, the history in full, the bars, the ratio panels, the run.
hist_name = history eq "" ? "" : strstrt(history, ":") > 0 ? history[1:strstrt(history, ":") - 1] : history
title_in = sprintf("%s: time per %s, profile %s%s", workload, unit, profile, hist_name eq "" ? "" : ", " . hist_name)
caption_in = sprintf("%s%s%s\n%s%s", what eq "" ? "" : "timed: " . what . "\n", \
	history eq "" ? "" : history . "\n", note, ratios ? rnote . "\n" . rnote2 . "\n" : "", source)
eval fit_title
# The key: every backend of the figure (and the floor, the ring of a noisy row, a tied point)
floorstyle = nmin == nmax ? "linespoints linestyle 51" : "lines linestyle 50"
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with yerrorlines linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
if (floor) {
	key_with = "with " . floorstyle; key_title = floor_title; eval key_add
}
if (noisyhave ne " ") {
	key_with = "with points linestyle 60"; key_title = "noisy row"; eval key_add
}
if (ratios && tiedhave ne " ") {
	key_with = "with points linecolor rgb '#606060' pointtype 4 pointsize 1.1 linewidth 1.2"; key_title = "tied with the fastest"; eval key_add
}
eval fit_key
# From the top, in pixels: the title, each panel's own title, the time panels, their x tics, the
# ratio panels, their x tics and label, then the key's strip.
ptitle_h = lineh(10) + 14
t_h = ratios ? 330 : 380
r_gap = lineh(10) + 22
r_h = 260
xlab_h = 2 * lineh(10) + 18
t_top_px = title_h + ptitle_h
t_bottom_px = t_top_px + t_h
r_top_px = t_bottom_px + (ratios ? r_gap : 0)
r_bottom_px = r_top_px + (ratios ? r_h : 0)
canvas_h = int(r_bottom_px + xlab_h + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
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
# (The floor: a dashed line, with a mark at each point where there is one N only: floorstyle.)
set xlabel "entities N (log2 scale; 1k = 1024)"

# The panels in one row, between a left margin for the y label and tics and the edge; under
# them, the key's strip, once, with an entry for every backend of the figure (and the floor), so
# that it never covers data and never misses a backend that a panel lacks.
pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(40)
set multiplot title title_text font title_font
t_top = sy(t_top_px)
t_bottom = sy(t_bottom_px)
r_top = sy(r_top_px)
r_bottom = sy(r_bottom_px)
# the backends' x offsets in the ratio panels: j of nb, 0.05 of a doubling apart
dodge(j) = 2 ** ((j - (nb + 1) / 2.0) * 0.05)
hollow(p) = (p == 5 || p == 7 || p == 9 || p == 11 || p == 13) ? p - 1 : p
do for [i = 1:nk] {
	set bmargin at screen t_bottom
	set tmargin at screen t_top
	set yrange [ymin / 1.5 : ymax * 1.5]
	eval logticks_y
	k = word(ks, i)
	set lmargin at screen panel_l(i, nk)
	set rmargin at screen panel_r(i, nk)
	set title sprintf("k = %s component%s per entity", k, k eq "1" ? "" : "s")
	if (i == 1) {
		set ylabel sprintf("time per %s (ns, log scale)", unit)
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
		wrap_in = "not measured: " . missing; eval fit_panel_note
			set label 1 wrap_out at graph 0.03, graph 0.96 left font ",9" textcolor rgb "#606060"
	}
	unset key
	if (ratios) {
		unset xlabel
	} else {
		set xlabel "entities N (log2 scale; 1k = 1024)"
	}
	eval "plot " . cmd[3:*]

	# --- the paired verdicts: each backend's time over the fastest's at that N ---
	if (ratios) {
		unset label
		unset title
		set tmargin at screen r_top
		set bmargin at screen r_bottom
		unset logscale y
		set nonlinear y via asinh(log(y) / rstretch) inverse exp(rstretch * sinh(y))
		set yrange [rmin : rmax]
		eval "set ytics " . rtics
		set mytics 1
		set xlabel "entities N (log2 scale; 1k = 1024)"
		if (i == 1) {
			set ylabel "time over the fastest's (stretched near 1)"
		} else {
			unset ylabel
		}
		cmd = "1 with lines linecolor rgb '#404040' linewidth 1.5 notitle"
		do for [j = 1:nb] {
			b = word(backends, j)
			s = word(styles, j) + 0
			sk = sprintf(" %s/%s ", k, b)
			if (strstrt(ratiohave, sk) > 0) {
				f = series(k, b)
				cmd = cmd . sprintf(", '%s' using ($1 * dodge(%d)):6 with lines linestyle %d linewidth 1 notitle", f, j, s)
				cmd = cmd . sprintf(", '%s' using ($1 * dodge(%d)):6:7:8 with yerrorbars linestyle %d pointsize 0 notitle", f, j, s)
				if (strstrt(solidhave, sk) > 0) {
					cmd = cmd . sprintf(", '%s' using ($1 * dodge(%d)):($9 > 0 ? NaN : $6) with points linestyle %d notitle", f, j, s)
				}
				if (strstrt(tiedhave, sk) > 0) {
					cmd = cmd . sprintf(", '%s' using ($1 * dodge(%d)):($9 > 0 ? $6 : NaN) with points linestyle %d pointtype %d notitle", \
						f, j, s, hollow(point(s)))
				}
			}
		}
		eval "plot " . cmd
		unset label
		unset nonlinear y
	}
}
unset label
eval draw_key
eval draw_caption
unset multiplot
