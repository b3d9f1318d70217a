# growth.gp: create-unreserved's blocks (what it shows: growth_plot.sh, which sets these):
# scripts, out, dir (dir/<backend>.dat "block,ns per entity,the same where it grew or NaN"),
# backends, styles, creates (create's ns per entity per backend, NaN where none), ymin, ymax,
# nblocks, n, k, source.
load scripts . "/styles.gp"
set datafile separator comma
set terminal pngcairo size 1200, 680 font "DejaVu Sans,10" noenhanced
set output out
set logscale y
set yrange [ymin / 1.3 : ymax * 1.5]
set xrange [0.5 : nblocks + 0.5]
set ylabel "time per entity in the block (ns, log scale; median over processes and samples)"
set xlabel sprintf("block of %d entities, in creation order (block b holds entities (b-1)N/%d .. bN/%d)", n / nblocks, nblocks, nblocks)
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set title sprintf("create-unreserved, N = %d, k = %d: creating into a storage told nothing, in %d blocks\nringed: the storage asked for a block of 64 KiB or more in it (most samples)\ndashed: create, the same entities into a storage reserved for N\n%s", \
	n, k, nblocks, source) font ",11"
nb = words(backends)
plot for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:2 with linespoints \
		linestyle (word(styles, i) + 0) pointsize 0.6 linewidth 1.3 title word(backends, i), \
	for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:3 with points \
		linecolor rgb colour(word(styles, i) + 0) pointtype 6 pointsize 2 linewidth 1.5 notitle, \
	for [i = 1:nb] (word(creates, i) + 0) with lines linecolor rgb colour(word(styles, i) + 0) \
		dashtype (6, 4) linewidth 1.2 title ("create (reserved): " . word(backends, i))
