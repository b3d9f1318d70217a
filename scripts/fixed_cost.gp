# fixed_cost.gp: the figure of scripts/fixed_cost.sh. Left: iterate's pass time over c x N (c: its
# ns per entity at the run's largest N) against N, a line per backend, the floor dashed, and the
# line at 2: where a backend's line crosses it, below that N a pass costs more than twice its
# per-entity cost times N. Right: one pass of a system that matches nothing (empty-pass), ns per
# pass, against N. Variables (from fixed_cost.sh): dir (it-B.dat "N,ratio", ep-B.dat "N,ns"), out,
# backends, styles (each backend's place in --list), floor ("floor" or empty), k, hist, nmax,
# source, scripts.
load scripts . "/styles.gp"
canvas_w = 1300
nb = words(backends)
title_in = sprintf("A pass's fixed cost: iterate and an empty pass, k = %s, history %s", k, hist)
caption_in = source
eval fit_title
set style line 70 linecolor rgb "#B00000" linewidth 1.5 dashtype (3, 3)
eval key_reset
do for [i = 1:nb] {
	key_with = sprintf("with linespoints linestyle %s", word(styles, i)); key_title = word(backends, i); eval key_add
}
if (floor ne "") { key_with = "with lines linestyle 50"; key_title = floor_title; eval key_add }
key_with = "with lines linestyle 70"; key_title = "pass = 2 c N"; eval key_add
eval fit_key
# From the top, in pixels: the title, the panels' titles, the panels, their x tics and label,
# the key's strip.
p_top_px = title_h + 2 * lineh(10) + 14
p_bottom_px = p_top_px + 400
canvas_h = int(p_bottom_px + 2 * lineh(10) + 18 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(90)
set multiplot title title_text font title_font
set tmargin at screen sy(p_top_px)
set bmargin at screen sy(p_bottom_px)
unset key
set logscale xy 2
# x: a tic on every power of two, labelled on every other one (1, 4, 16, ..., 1k, 4k, ... 1M),
# never "1.04858e+06"
nlabel(e) = e >= 20 ? sprintf("%gM", 2 ** (e - 20)) : e >= 10 ? sprintf("%gk", 2 ** (e - 10)) : sprintf("%g", 2 ** e)
set xtics ()
do for [e = 0:26] { set xtics add ((e % 2 == 0 ? nlabel(e) : "") 2 ** e) }
set xlabel "entities N (log2 scale; 1k = 1024)"
set format y "%g"
set lmargin at screen panel_l(1, 2)
set rmargin at screen panel_r(1, 2)
set ylabel "iterate: pass time / (c x N)"
set offsets 0, 0, graph 0.06, graph 0.06
set title sprintf("iterate: above 2, the pass's fixed cost dominates\n(c: ns per entity at N = %s)", nmax)
if (!exists("have")) { have = "" }
# the series files there are (have: " it-hash ep-floor ..."), each in its backend's style
series(p, i) = strstrt(have, sprintf(" %s-%s ", p, word(backends, i))) > 0 ? \
	sprintf(", '%s/%s-%s.dat' using 1:2 with linespoints linestyle %s notitle", dir, p, word(backends, i), word(styles, i)) : ""
floorseries(p) = strstrt(have, sprintf(" %s-floor ", p)) > 0 ? \
	sprintf(", '%s/%s-floor.dat' using 1:2 with lines linestyle 50 notitle", dir, p) : ""
cmd = "2 with lines linestyle 70 notitle"
do for [i = 1:nb] { cmd = cmd . series("it", i) }
cmd = cmd . floorseries("it")
eval "plot " . cmd
set lmargin at screen panel_l(2, 2)
set rmargin at screen panel_r(2, 2)
set title "empty-pass: one pass of a system that matches nothing"
set offsets 0, 0, 0, 0
set ylabel "ns per pass"
set logscale y 10
cmd = ""
do for [i = 1:nb] { cmd = cmd . series("ep", i) }
cmd = cmd . floorseries("ep")
if (cmd eq "") { # no empty-pass rows: the panel says so
	set label 1 "no empty-pass rows" at graph 0.5, graph 0.5 center textcolor rgb "#606060"
	set xrange [1 : 2]
	set yrange [1 : 10]
	cmd = ", 0 notitle"
}
eval "plot " . cmd[3:*]
eval draw_key
eval draw_caption
unset multiplot
