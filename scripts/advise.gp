# advise.gp: the advisor's search as a figure (scripts/advise_plot.sh gives it its data): a row
# per design tried, from the first step at the top, its ratio to the step's reference on a log
# axis with its interval, a line at 1 (as fast as the reference).
# Set by the caller: scripts, out, data (y,ratio,low,high,style,label), rows, lmin, lmax,
# title_file (the title, a line each, unwrapped), caption_file (the caption, the same), label_chars (the longest row label's length),
# have (the styles there are rows of: " 1 3 4 ").
# Laid out with styles.gp's helpers, in pixels from the top: the title (fit_title, wrapped to
# the canvas), the rows, the axis's tics and its three-line label, the key's strip (fit_key,
# draw_key), so that no text is cut at an edge or runs into another (tests/figure_text.sh).
load scripts . "/styles.gp"
label_fs = 9
# the rows' labels left of the plot, as wide as the longest of them; the plot 560 pixels at least
label_px = int(label_chars * charw(label_fs)) + 12
canvas_w = edge + label_px + 620 + edge
canvas_w = canvas_w < 1000 ? 1000 : canvas_w
title_in = system("cat '" . title_file . "'")
if (exists("caption_file")) { caption_in = system("cat '" . caption_file . "'") }
eval fit_title
# styles: kept, not kept, reference or fastest, a survey's or contest's design, the confirmation's other
set style line 91 linecolor rgb "#009E73" pointtype 7 pointsize 1.2 linewidth 2
set style line 92 linecolor rgb "#999999" pointtype 7 pointsize 1.0 linewidth 2
set style line 93 linecolor rgb "#0072B2" pointtype 5 pointsize 1.2 linewidth 2
set style line 94 linecolor rgb "#E69F00" pointtype 9 pointsize 1.0 linewidth 2
set style line 95 linecolor rgb "#D55E00" pointtype 11 pointsize 1.2 linewidth 2
# the key and the series: the styles there are rows of (have: " 1 3 4 "), so that gnuplot
# never draws a series with no point
if (!exists("have")) { have = " 1 2 3 4 5 " }
style_title(i) = i == 1 ? "kept (the new best)" : i == 2 ? "not kept" \
	: i == 3 ? "the step's fastest or reference" : i == 4 ? "survey, contest" \
	: "confirmation: the fastest with no marks"
eval key_reset
do for [i = 1:5] {
	if (strstrt(have, sprintf(" %d ", i)) > 0) {
		key_with = sprintf("with xerrorbars linestyle %d", 90 + i)
		key_title = style_title(i)
		eval key_add
	}
}
eval fit_key
# From the top, in pixels: the title, the rows (19 pixels each), the tics and the axis's label
# (four lines), the key's strip.
p_top_px = title_h + 14
p_bottom_px = p_top_px + 19 * rows + 16
canvas_h = int(p_bottom_px + 4 * lineh(10) + 14 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
set datafile separator comma
set multiplot title title_text font title_font
set tmargin at screen sy(p_top_px)
set bmargin at screen sy(p_bottom_px)
set lmargin at screen sx(edge + label_px)
set rmargin at screen 1 - sx(edge + 14)
unset key
# styles.gp's log y axis is for times; here y is a row
unset logscale y
set ytics ()
unset mytics
set logscale x
set xtics ()
xlo = lmin / 1.05
xhi = lmax * 1.05
if (xlo > 0.95) { xlo = 0.95 }
if (xhi < 1.05) { xhi = 1.05 }
# tics at round ratios, closer where the range is narrow
# (1.1 apart from 1 and 1.2 only where the axis spans less than 3x: beyond, they overlap)
ticks = xhi / xlo < 1.6 ? "0.8 0.85 0.9 0.95 1 1.05 1.1 1.15 1.2 1.3" \
	: xhi / xlo < 3 ? "0.2 0.5 0.8 0.9 1 1.1 1.2 1.5 2 3 5 10 20" : "0.2 0.5 0.8 0.9 1 1.2 1.5 2 3 5 10 20"
do for [t in ticks] { set xtics add (t t + 0) }
set xrange [xlo:xhi]
set yrange [-0.7:rows - 0.3]
# the reference differs by step: the label says which
set xlabel "frame time as a ratio to the step's reference, paired by process (below 1: faster)\n\
the reference: in a search step its backend's best design so far;\n\
in the survey and the contest their fastest; in the confirmation the chosen design"
set ytics scale 0 font ",9"  # label_fs
set grid xtics noytics
set arrow from 1, graph 0 to 1, graph 1 nohead linecolor rgb "#404040" dashtype (6, 4) back
# the rows' labels from an unseen series over every row, then a series per style there is
cmd = "data using 2:1:ytic(6) with points linetype nodraw notitle"
do for [i = 1:5] {
	if (strstrt(have, sprintf(" %d ", i)) > 0) {
		cmd = cmd . sprintf(", '' using ($5 == %d ? $2 : NaN):1:3:4 with xerrorbars linestyle %d notitle", i, 90 + i)
	}
}
eval "plot " . cmd
eval draw_key
eval draw_caption
unset multiplot
