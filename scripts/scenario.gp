# scenario.gp: a scenario run's figure (what it shows: scenario_plot.sh, which sets these).
# Every mode: scripts, out, dir (the data files), name (the scenario file), processes (how many
# processes measured, in words, from the CSV's "# processes" line), source (commit, date, cpu).
# mode 'bars': dir/bars.dat "participant,phase..." (medians, in `unit`), dir/frames.dat
#   "x,frame median,ci low,ci high,label height,frame in plain units,cut (1: the bar is cut at the
#   top),the frame against the fastest's in words,icut (1: the bar ends below the top and its
#   interval above)"; nphases; ymax (the top of the y axis, in unit); ncut, nicut (how many bars,
#   how many intervals alone are cut); nbars; keylong (the key's longest text, in characters);
#   fastest (the fastest backend); dir/tails.dat "x,p99,
#   longest frame, where a longest frame above the figure is marked, its label" (in unit, NaN
#   where none) and tails (how many rows have a p99).
# mode 'sweep': dir/<participant>.dat "x,median,ci low,ci high,ratio,ratio low,ratio high" (ns);
#   backends, styles (space-separated, in colour order); key (the swept key); percent (1: x is
#   a percentage); geometric (1: log x); xmin, xmax, ymin, ymax; rmax (the largest ratio);
#   floor, harness (1: a series file); crossings ("x|label|decided;..." decided 1 or 0);
#   categories: a categorical sweep's values ("table sparse"), x being each one's place (1, 2,
#   ...), written under its point; empty for a numeric sweep.
load scripts . "/styles.gp"
set datafile separator comma

if (mode eq "bars") {
	if (!exists("nicut")) { nicut = 0 }
	if (!exists("keylong")) { keylong = 43 }
	if (!exists("nbars")) { nbars = 9 }
	# Wide enough for a bar slot of 90 pixels each beside the key (outside, right)
	key_px = (keylong + 8) * 0.8 * key_fs
	canvas_w = 84 + 90 * nbars + key_px + 2 * edge
	canvas_w = canvas_w < 1100 ? 1100 : canvas_w
	title_in = sprintf("%s: time per frame by phase, per storage backend, fastest first", name)
	caption_in = sprintf("%s\npoint and bar on top: the frame's median and 95%% interval; over them the frame, and how many times the fastest backend's frame (%s's) it takes%s\n%s", \
		processes, fastest, ncut + nicut > 0 ? "; a bar or interval cut at the top is marked there, its label below the mark" : "", source)
	eval fit_title
	canvas_h = int(title_h + 14 + 520 + lineh(11) + 18 + caption_h + edge)
	set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
	set output out
	unset logscale y
	set ytics auto
	set mytics default
	set grid noxtics ytics
	set yrange [0:ymax]
	set xrange [-0.6:*]
	set style data histograms
	set style histogram rowstacked gap 1
	set boxwidth 0.62 relative
	set ylabel sprintf("time per frame (%s): each phase's median, stacked", unit eq "us" ? "µs" : unit)
	set xtics nomirror scale 0 font ",11"
	# the title over the whole canvas, the plot between the y label and the key
	set multiplot title title_text font title_font
	set tmargin at screen sy(title_h + 14)
	set bmargin at screen sy(title_h + 14 + 520)
	set lmargin at screen sx(84)
	set rmargin at screen 1 - sx(key_px + edge)
	set key outside right top vertical reverse Left samplen 1.5 spacing 1.1 title "phase (in frame order)"
	if (exists("test_no_key")) { unset key }
	# A label over a bar or an interval cut at the top: dark on a white box, readable over any
	# phase's colour (white letters vanished on the light ones)
	set style textbox 1 opaque fillcolor rgb "#ffffff" border lc rgb "#808080" margins 2, 2
	# Phase i: palette colour i, lighter in each further cycle of eight.
	shade(i) = (i - 1) / 8 == 0 ? 0.95 : (i - 1) / 8 == 1 ? 0.55 : 0.3
	# The plot, built as a string: each kind of mark only where a bar has one (a series of none
	# draws nothing, and gnuplot warns)
	if (!exists("nover")) { nover = 0 }
	frames = "'" . dir . "/frames.dat'"
	tailsf = "'" . dir . "/tails.dat'"
	cmd = "for [i = 2:nphases + 1] '" . dir . "/bars.dat' using i:xtic(1) title columnhead(i) linecolor rgb colour(i - 1) fillstyle solid shade(i - 1) border rgb '#505050'"
	if (ncut < nbars) {
		cmd = cmd . ", " . frames . " using 1:($7 > 0 ? NaN : $2):3:4 with yerrorbars linecolor rgb '#000000' pointtype 7 pointsize 0.7 linewidth 1.3 title 'frame (median, 95% interval)'"
	}
	if (ncut + nicut < nbars) {
		cmd = cmd . ", " . frames . " using 1:($7 > 0 || $9 > 0 ? NaN : $5):(strcol(6) . \"\\n\" . strcol(8)) with labels offset 0, 1.5 font ',9' notitle"
	}
	if (nicut > 0) {
		cmd = cmd . ", " . frames . " using 1:($9 > 0 ? $5 : NaN):(strcol(6) . \"\\n\" . strcol(8)) with labels boxed bs 1 font ',9' notitle"
	}
	if (ncut > 0) {
		cmd = cmd . ", " . frames . " using 1:($7 > 0 ? $5 : NaN):(strcol(6) . ', ' . strcol(8)) with labels rotate by 90 right boxed bs 1 font ',9' notitle"
	}
	if (ncut + nicut > 0) {
		cmd = cmd . ", " . frames . " using 1:($7 > 0 || $9 > 0 ? ymax * 0.975 : NaN) with points pointtype 9 pointsize 1.6 linecolor rgb '#000000' title 'bar or interval cut at the top'"
	}
	if (tails > 0) {
		cmd = cmd . ", " . tailsf . " using ($1 + 0.38):2 with points pointtype 3 pointsize 1.3 linewidth 1.5 linecolor rgb '#b00000' title 'p99 frame (per process, geometric mean)'"
		cmd = cmd . ", " . tailsf . " using ($1 + 0.38):3 with points pointtype 8 pointsize 1.3 linewidth 1.5 linecolor rgb '#b00000' title 'longest frame (per process, geometric mean)'"
	}
	if (nover > 0) {
		cmd = cmd . ", " . tailsf . " using ($1 + 0.38):4 with points pointtype 9 pointsize 1.3 linecolor rgb '#b00000' notitle"
		cmd = cmd . ", " . tailsf . " using ($1 + 0.38):4:5 with labels rotate by 90 right offset 1.2, -1 font ',8' textcolor rgb '#b00000' notitle"
	}
	eval "plot " . cmd
	eval draw_caption
	unset multiplot
	exit
}

# --- sweep -----------------------------------------------------------------------------------
canvas_w = 1200
nb = words(backends)
if (!exists("categories")) { categories = "" }
title_in = sprintf("%s: time per frame against %s", name, key)
caption_in = sprintf("%s; error bars: 95%% intervals; dotted: where two backends cross\n%s", processes, source)
eval fit_title
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with yerrorlines linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
if (floor) { key_with = "with linespoints linestyle 51"; key_title = "floor (plain arrays)"; eval key_add }
if (harness) { key_with = "with linespoints linestyle 51 dashtype 3 pointtype 6"; key_title = "harness alone"; eval key_add }
eval fit_key
pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(84)
# The panels' titles, wrapped to a panel's width
wrap_n = int(panel_w(2) * canvas_w / charw(10))
wrap_in = "time per frame (median)"; eval wrap; ptitle1 = wrap_out; ptitle_lines = wrap_lines
wrap_in = rmax > 5 ? "ratio to the fastest backend at that point (1 = fastest; above 5: off the panel)" : "ratio to the fastest backend at that point (1 = fastest)"
eval wrap
ptitle2 = wrap_out
ptitle_lines = wrap_lines > ptitle_lines ? wrap_lines : ptitle_lines
p_top_px = title_h + ptitle_lines * lineh(10) + 14
p_bottom_px = p_top_px + 380
canvas_h = int(p_bottom_px + (categories eq "" ? 1 : 2) * lineh(10) + lineh(10) + 22 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
series(b) = sprintf("%s/%s.dat", dir, b)
xunit = percent ? "%" : ""
xformat = percent ? "%g%%" : "%g"
if (categories ne "") {
	# a point per value, named under it; the lines between them only join the points
	unset logscale x
	set xrange [0.5 : words(categories) + 0.5]
	set xtics ()
	do for [i = 1:words(categories)] {
		set xtics add (word(categories, i) i)
	}
} else { if (geometric) {
	set logscale x 10
	set xrange [xmin / 1.25 : xmax * 1.25]
	# tics at 1, 2 and 5 times each power of ten in range, so that a decade or two still reads
	set xtics ()
	do for [ex = floor(log10(xmin)) - 1 : ceil(log10(xmax))] {
		do for [m in "1 2 5"] {
			v = m * 10.0 ** ex
			if (v >= xmin / 1.25 && v <= xmax * 1.25) {
				set xtics add (sprintf("%g%s", v, percent ? "%%" : "") v) # a tic label is a format
			}
		}
	}
} else {
	unset logscale x
	pad = (xmax - xmin) * 0.04
	set xrange [xmin - pad : xmax + pad]
} }
set xlabel sprintf("%s%s%s", key, percent ? " (%)" : "", geometric ? ", log scale" : "")
if (categories eq "") { set format x xformat } else { set format x "%g" }

# Crossovers: a dotted vertical line each, named by the pair, in both panels.
cross_cmds = ""
rest = crossings
ci = 0
while (rest ne "") {
	semi = strstrt(rest, ";")
	item = semi > 0 ? rest[1:semi - 1] : rest
	rest = semi > 0 ? rest[semi + 1:*] : ""
	bar = strstrt(item, "|")
	cx = item[1:bar - 1]
	item = item[bar + 1:*]
	bar = strstrt(item, "|")
	what = item[1:bar - 1]
	decided = item[bar + 1:*] eq "1"
	shade = decided ? "#303030" : "#b0b0b0"
	ci = ci + 1
	cross_cmds = cross_cmds . sprintf("set arrow %d from %s, graph 0 to %s, graph 1 nohead dashtype %d linewidth %.1f linecolor rgb '%s' front; ", \
		100 + ci, cx, cx, decided ? 2 : 3, decided ? 1.5 : 1.0, shade)
	cross_cmds = cross_cmds . sprintf("set label %d '%s at %s%s%s' at %s, graph %.3f rotate by 90 right offset -0.6, 0 font ',8' textcolor rgb '%s' front; ", \
		100 + ci, what, cx, xunit, decided ? "" : " (not decided)", cx, 0.97, shade)
}

set multiplot title title_text font title_font
set bmargin at screen sy(p_bottom_px)
set tmargin at screen sy(p_top_px)
unset key

# Panel 1: ns per frame.
set lmargin at screen panel_l(1, 2)
set rmargin at screen panel_r(1, 2)
set title ptitle1
set ylabel "ns per frame (log scale)"
# a run with no positive time at all (every row 0) still draws: a decade around 1 ns
if (ymax <= 0) { ymax = 10 }
if (ymin <= 0 || ymin > ymax) { ymin = ymax / 10 }
ydec = log10(ymax / ymin) > 4 ? 5 : 0
eval logticks_y
set yrange [ymin / 1.5 : ymax * 1.5]
eval cross_cmds
cmd = ""
if (floor) { cmd = cmd . sprintf(", '%s' using 1:2 with linespoints linestyle 51 notitle", series("floor")) }
if (harness) { cmd = cmd . sprintf(", '%s' using 1:2 with linespoints linestyle 51 dashtype 3 pointtype 6 notitle", series("harness")) }
do for [j = 1:nb] {
	cmd = cmd . sprintf(", '%s' using 1:2:3:4 with yerrorlines linestyle %s notitle", series(word(backends, j)), word(styles, j))
}
eval "plot " . cmd[3:*]

# Panel 2: the ratio to the fastest backend at each point.
set lmargin at screen panel_l(2, 2)
set rmargin at screen panel_r(2, 2)
set ylabel "ratio (log scale)"
set title ptitle2
if (rmax > 5) {
	set yrange [0.9 : 5]
} else { if (rmax > 0) {
	set yrange [0.9 : *]
	set autoscale yfixmax # up to the largest ratio, not to the next tic
} else {
	set yrange [0.9 : 2] # no ratio above 1 (every row tied, or none measured): the axis still stands
} }
set logscale y 10
set ytics (1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)
set mytics 10
cmd = ""
do for [j = 1:nb] {
	cmd = cmd . sprintf(", '%s' using 1:5:6:7 with yerrorlines linestyle %s notitle", series(word(backends, j)), word(styles, j))
}
eval "plot " . cmd[3:*]
unset arrow
unset label

eval draw_key
eval draw_caption
unset multiplot
