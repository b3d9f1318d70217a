# speedup.gp: a threaded workload's speedup against its thread count T, for one profile: a
# panel per k at the largest N the run measured, a line per backend (its time at T = 1 over its
# time at T, the same backend's, with the 95% interval of the log medians paired by process
# as error bars; by process and round in a CSV of an older ecsbench: note says which), the floor (plain arrays cut the same way) as the dashed reference line, and
# the ideal speedup T as a dotted grey line. At each T the backends and the floor stand side by
# side (a dodge, in the key's order), so that no bar hides another; an interval reaching above
# the axis is cut there and marked with a triangle and its end, so that a cut bar never reads as
# a short one. A backend that a panel lacks is named there as not measured.
# Variables (set by plot.sh with -e): scripts (this folder), dir (the series files
# dir/k<k>-<backend>.dat: "T,speedup,low,high,noisy", sorted by T), out, workload, backends,
# styles (as time.gp), ks (space-separated), have (" k/backend ..." for each series file),
# floor (1: there are k<k>-floor.dat files), tmax (the largest T), ymax (the largest speedup or
# interval end, capped at 2 tmax; the axis ends at 1.1 ymax), cuthave (" k/backend ..." for each
# series with an interval end beyond the axis), n (the entity count of the panels), ts (the measured T,
# space-separated), profile, what (the timed region, from --list), note (samples, bars),
# source (the run: commit, date, cpu), pinning (where the threads ran, from the CSV).
load scripts . "/styles.gp"

nk = words(ks)
np_here = nk
nb = words(backends)
canvas_w = nk > 1 ? 480 * nk + 100 : 1000
title_in = sprintf("%s: speedup against threads, profile %s, N = %s", workload, profile, n)
caption_in = sprintf("%s%s\n%s\n%s", what eq "" ? "" : "timed: " . what . "\n", note, pinning, source)
eval fit_title
# The key: every backend, the floor, the ideal, and the mark of a cut interval where there is one
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with yerrorlines linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
if (floor) {
	key_with = "with yerrorlines linestyle 51"; key_title = floor_title; eval key_add
}
key_with = "with lines linestyle 52"; key_title = "ideal (T)"; eval key_add
if (cuthave ne " ") {
	key_with = "with points pointtype 9 pointsize 1.3 linecolor rgb '#404040'"; key_title = "interval cut at the top (its end)"; eval key_add
}
eval fit_key
# From the top, in pixels: the title, the panels' titles, the panels, their x tics and label,
# the key's strip.
p_top_px = title_h + lineh(10) + 14
p_bottom_px = p_top_px + 380
canvas_h = int(p_bottom_px + 2 * lineh(10) + 18 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out

series(k, b) = sprintf("%s/k%s-%s.dat", dir, k, b)

unset logscale
set xrange [0.5 : tmax + 0.5]
set xtics ()
do for [i = 1:words(ts)] {
	set xtics add (word(ts, i) word(ts, i) + 0)
}
set mxtics 1
ytop = ymax * 1.1
set yrange [0 : ytop]
set ytics autofreq
set mytics 2
set xlabel "threads T (each pinned to a CPU of its own)"
# Side by side at each T: backend j in slot j, the floor in the last; the slots span at most half
# the gap between two thread counts (1 on this axis), at most 0.09 each.
nslots = nb + (floor ? 1 : 0)
slotw = nslots > 1 ? (0.5 / nslots < 0.09 ? 0.5 / nslots : 0.09) : 0
dodge(j) = (j - (nslots + 1) / 2.0) * slotw
# An interval cut by the top of the axis: drawn up to it, then a triangle there and its end,
# written downwards beside the bar (across, the ends of neighbouring bars ran together).
top(v) = v > ytop ? ytop : v
# (the label's format joined, not through sprintf: gnuplot's sprintf cut a result holding "%%"
# a few characters short where the path was long)
cut(j, f, ls) = sprintf(", '%s' using ($1 + %g):($4 > ytop ? ytop : NaN) with points linestyle %s pointtype 9 pointsize 1.3 notitle", f, dodge(j), ls) . \
	", '" . f . "' using ($1 + " . sprintf("%g", dodge(j)) . "):($4 > ytop ? ytop : NaN):(sprintf('%.3g', $4)) with labels rotate by 90 right offset 0.9, -0.9 font ',8' notitle"
# The ideal: T threads, T times as fast.
set style line 52 linecolor rgb "#909090" linewidth 1.5 dashtype (2, 4) pointtype 0

pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(40)
set multiplot title title_text font title_font
set bmargin at screen sy(p_bottom_px)
set tmargin at screen sy(p_top_px)
do for [i = 1:nk] {
	k = word(ks, i)
	set lmargin at screen panel_l(i, nk)
	set rmargin at screen panel_r(i, nk)
	set title sprintf("k = %s component%s per entity", k, k eq "1" ? "" : "s")
	if (i == 1) {
		set ylabel "speedup: time at T = 1 / time at T"
	} else {
		unset ylabel
	}
	cmd = sprintf(", x with lines linestyle 52 notitle")
	if (floor && strstrt(have, sprintf(" %s/floor ", k)) > 0) {
		cmd = cmd . sprintf(", '%s' using ($1 + %g):2:3:(top($4)) with yerrorlines linestyle 51 notitle", \
			series(k, "floor"), dodge(nslots))
		if (strstrt(cuthave, sprintf(" %s/floor ", k)) > 0) {
			cmd = cmd . cut(nslots, series(k, "floor"), "51")
		}
	}
	missing = ""
	do for [j = 1:nb] {
		if (strstrt(have, sprintf(" %s/%s ", k, word(backends, j))) > 0) {
			cmd = cmd . sprintf(", '%s' using ($1 + %g):2:3:(top($4)) with yerrorlines linestyle %s notitle", \
				series(k, word(backends, j)), dodge(j), word(styles, j))
			if (strstrt(cuthave, sprintf(" %s/%s ", k, word(backends, j))) > 0) {
				cmd = cmd . cut(j, series(k, word(backends, j)), word(styles, j))
				}
		} else {
			missing = missing . (missing eq "" ? "" : ", ") . word(backends, j)
		}
	}
	unset label
	if (missing ne "") {
		wrap_in = "not measured: " . missing; eval fit_panel_note
			set label 1 wrap_out at graph 0.03, graph 0.96 left font ",9" textcolor rgb "#606060"
	}
	unset key
	eval "plot " . cmd[3:*]
}
unset label
eval draw_key
eval draw_caption
unset multiplot
