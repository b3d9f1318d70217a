# growth.gp: create-unreserved's blocks (what it shows: growth_plot.sh, which sets these):
# scripts, out, dir (dir/<backend>.dat "block,ns per entity,the same where it grew or NaN"),
# backends, styles, creates (create's ns per entity per backend, NaN where none), ymin, ymax,
# nblocks, n, k, source.
load scripts . "/styles.gp"
set datafile separator comma
canvas_w = 1200
title_in = sprintf("create-unreserved, N = %d, k = %d: creating into a storage told nothing, in %d blocks", \
	n, k, nblocks)
caption_in = sprintf("ringed: the storage asked for a block of 64 KiB or more in it (most samples)\ndashed: create, the same entities into a storage reserved for N\n%s", \
	source)
eval fit_title
canvas_h = int(title_h + 14 + 480 + 2 * lineh(10) + 18 + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
# the plot between the y label and the key, which stands outside it on the right ("create
# (reserved): " and a backend's name its longest entry); fixed, so that the key never moves it
set tmargin at screen sy(title_h + 14)
set bmargin at screen sy(title_h + 14 + 480)
set lmargin at screen sx(84)
set rmargin at screen 1 - sx((30 + 8) * 0.8 * key_fs + edge)
set logscale y
set yrange [ymin / 1.3 : ymax * 1.5]
set xrange [0.5 : nblocks + 0.5]
set ylabel "time per entity in the block (ns, log scale; median over processes and samples)"
set xlabel sprintf("block of %d entities, in creation order (block b holds entities (b-1)N/%d .. bN/%d)", n / nblocks, nblocks, nblocks)
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set multiplot title title_text font title_font
if (exists("test_no_key")) { unset key }  # (tests/figure_text.sh)
nb = words(backends)
plot for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:2 with linespoints \
		linestyle (word(styles, i) + 0) pointsize 0.6 linewidth 1.3 title word(backends, i), \
	for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:3 with points \
		linecolor rgb colour(word(styles, i) + 0) pointtype 6 pointsize 2 linewidth 1.5 notitle, \
	for [i = 1:nb] (word(creates, i) + 0) with lines linecolor rgb colour(word(styles, i) + 0) \
		dashtype (6, 4) linewidth 1.2 title ("create (reserved): " . word(backends, i))
eval draw_caption
unset multiplot
