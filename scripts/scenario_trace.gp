# scenario_trace.gp: a scenario run's per-frame trace (what it shows: scenario_trace.sh, which
# sets these): scripts, out, dir (dir/<participant>.dat "frame,ns,ns where the storage grew or
# NaN,ns where it allocated (a rarely allocating storage) or NaN"), backends and styles (space-separated, colour order), floor (1: dir/floor.dat), ymin,
# ymax (ns), process, processes (how many the run had), name, growth ("backend N, ..."), source.
load scripts . "/styles.gp"
set datafile separator comma
canvas_w = 1200
title_in = sprintf("%s: every frame's time, process %d of %s\ngrowth frames in this process: %s", \
	name, process, processes, growth)
caption_in = sprintf("ringed: a growth frame (the storage asked for a block of 64 KiB or more); triangle: another frame that allocated, for a storage that allocates in fewer than a tenth of its frames (a small new table)\n%s", \
	source)
eval fit_title
canvas_h = int(title_h + 14 + 480 + 2 * lineh(10) + 18 + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
# the plot between the y label and the key, which stands outside it on the right (a backend's
# name, "floor (plain arrays)" its longest entry); fixed, so that the key never moves it
set tmargin at screen sy(title_h + 14)
set bmargin at screen sy(title_h + 14 + 480)
set lmargin at screen sx(84)
set rmargin at screen 1 - sx((20 + 8) * 0.8 * key_fs + edge)
set logscale y
budget = 16.6e6  # ns; the axis is in ms
ytop = ymax * 1.6
if (ymax >= budget / 10 && budget > ytop) { ytop = budget * 1.3 }
set yrange [ymin / 1.3 / 1e6 : ytop / 1e6]
set ylabel "frame time (ms, log scale)"
set xlabel "frame (timed frames of the process, in order; the warm-up frames before them are not shown)"
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set multiplot title title_text font title_font
if (ymax >= budget / 10) {
	set arrow from graph 0, first budget / 1e6 to graph 1, first budget / 1e6 nohead linecolor rgb "#b00000" dashtype (4, 4) linewidth 1.2
	set label "16.6 ms: a 60 Hz frame" at graph 0.01, first budget * 1.08 / 1e6 textcolor rgb "#b00000" font ",9"
}
if (exists("test_no_key")) { unset key }  # (tests/figure_text.sh)
nb = words(backends)
if (!exists("grew")) { grew = " " . backends . " " }
if (!exists("allocated")) { allocated = " " . backends . " " }
# The plot, built as a string: the rings and triangles of a backend only where it has frames to
# mark (a series of none draws nothing, and gnuplot warns); the floor where there is one.
file(i) = dir . "/" . word(backends, i) . ".dat"
cmd = ""
do for [i = 1:nb] {
	cmd = cmd . sprintf(", '%s' using 1:($2 / 1e6) with lines linestyle %d linewidth 1.2 title '%s'", file(i), word(styles, i) + 0, word(backends, i))
	if (strstrt(grew, " " . word(backends, i) . " ") > 0) {
		cmd = cmd . sprintf(", '%s' using 1:($3 / 1e6) with points linecolor rgb '%s' pointtype 6 pointsize 2 linewidth 1.5 notitle", file(i), colour(word(styles, i) + 0))
	}
	if (strstrt(allocated, " " . word(backends, i) . " ") > 0) {
		cmd = cmd . sprintf(", '%s' using 1:($4 / 1e6) with points linecolor rgb '%s' pointtype 8 pointsize 1.6 linewidth 1.5 notitle", file(i), colour(word(styles, i) + 0))
	}
}
if (floor) {
	cmd = cmd . sprintf(", '%s' using 1:($2 / 1e6) with lines linestyle 50 linewidth 1.2 title '%s'", dir . "/floor.dat", floor_title)
}
eval "plot " . cmd[3:*]
eval draw_caption
unset multiplot
