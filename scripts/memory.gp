# memory.gp: what a stored entity costs in memory against the entity count, for one workload of
# one profile, from the counting allocator (no timing: these figures are exact, and the same in
# every process): a column of panels per k; on top the bytes the storage holds when the workload
# has ended, per entity (the CSV's live_bytes_per_entity), under it its peak bytes over the run,
# setup included, per entity (peak_bytes / N: growth by doubling and moves between tables show
# here). A line per backend; the floor (the same data in plain arrays) dashed. A backend that a
# panel lacks is named there as not measured.
# Variables (set by plot.sh with -e): scripts (this folder), dir (the series files
# dir/k<k>-<backend>.dat: "N,live bytes per entity,peak bytes per entity", sorted by N), out,
# workload, backends (space-separated, in colour order), styles (the line style of each backend,
# same order), ks (space-separated), have (" k/backend ..." for each series file), floor (1:
# there are k<k>-floor.dat files), ymin, ymax (bytes per entity over all rows and both figures),
# nmin, nmax (entities), profile (the CSV's profile line), what (what the storage holds when the
# workload ends), history (what the storages went through; may be empty), source (the run:
# commit, date, cpu).
load scripts . "/styles.gp"

nk = words(ks)
np_here = nk
nb = words(backends)
canvas_w = nk > 1 ? 480 * nk + 100 : 1000
if (!exists("history")) history = ""
hist_name = history eq "" ? "" : strstrt(history, ":") > 0 ? history[1:strstrt(history, ":") - 1] : history
title_in = sprintf("%s: memory per entity, profile %s%s", workload, profile, hist_name eq "" ? "" : ", " . hist_name)
caption_in = sprintf("%s%scounting allocator (every allocation a storage makes goes through it): exact, no interval\n%s", \
	what eq "" ? "" : what . "\n", history eq "" ? "" : history . "\n", source)
eval fit_title
floorstyle = nmin == nmax ? "linespoints linestyle 51" : "lines linestyle 50"
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with linespoints linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
if (floor) {
	key_with = "with " . floorstyle; key_title = floor_title; eval key_add
}
eval fit_key
# From the top, in pixels: the title, then two rows of panels (held, peak), each under its
# panels' titles, the second over its x tics and label, then the key's strip.
ph_px = 290
row1_top_px = title_h + lineh(10) + 14
row2_top_px = row1_top_px + ph_px + 2 * lineh(10) + 20 + lineh(10) + 14
canvas_h = int(row2_top_px + ph_px + 2 * lineh(10) + 18 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out

series(k, b) = sprintf("%s/k%s-%s.dat", dir, k, b)

set logscale x 2
set xrange [nmin / 1.4 : nmax * 1.4]
e0 = floor(log(nmin) / log(2) + 1e-9)
e1 = ceil(log(nmax) / log(2) - 1e-9)
nlabel(e) = e >= 20 ? sprintf("%gM", 2 ** (e - 20)) : e >= 10 ? sprintf("%gk", 2 ** (e - 10)) : sprintf("%g", 2 ** e)
set xtics ()
do for [e = e0:e1] {
	set xtics add ((e1 - e0 < 8 || (e - e0) % 2 == 0) ? nlabel(e) : "" 2 ** e)
}
set mxtics 1
set yrange [ymin / 1.5 : ymax * 1.5]  # one range for every panel, live and peak, so that they compare
ydec = log10(ymax * 1.5 / (ymin / 1.5))
eval logticks_y

pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(40)
set multiplot title title_text font title_font
do for [row = 1:2] {
	col = row == 1 ? 2 : 3
	set tmargin at screen sy(row == 1 ? row1_top_px : row2_top_px)
	set bmargin at screen sy((row == 1 ? row1_top_px : row2_top_px) + ph_px)
	do for [i = 1:nk] {
		k = word(ks, i)
		set lmargin at screen panel_l(i, nk)
		set rmargin at screen panel_r(i, nk)
		set title sprintf("%s, k = %s component%s per entity", \
			row == 1 ? "held when the workload ends" : "peak over the run, setup included", \
			k, k eq "1" ? "" : "s")
		if (i == 1) {
			set ylabel (row == 1 ? "live bytes / N (log scale)" : "peak bytes / N (log scale)")
		} else {
			unset ylabel
		}
		if (row == 2) {
			set xlabel "entities N (log2 scale; 1k = 1024)"
		} else {
			unset xlabel
		}
		cmd = ""
		if (floor && strstrt(have, sprintf(" %s/floor ", k)) > 0) {
			cmd = cmd . sprintf(", '%s' using 1:%d with %s notitle", series(k, "floor"), col, floorstyle)
		}
		missing = ""
		do for [j = 1:nb] {
			if (strstrt(have, sprintf(" %s/%s ", k, word(backends, j))) > 0) {
				cmd = cmd . sprintf(", '%s' using 1:%d with linespoints linestyle %s notitle", \
					series(k, word(backends, j)), col, word(styles, j))
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
}
unset label
eval draw_key
eval draw_caption
unset multiplot
