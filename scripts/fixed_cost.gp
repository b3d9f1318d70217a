# fixed_cost.gp: the figure of scripts/fixed_cost.sh. Left: iterate's pass time over c x N (c: its
# ns per entity at the run's largest N) against N, a line per backend, the floor dashed, and the
# line at 2: where a backend's line crosses it, below that N a pass costs more than twice its
# per-entity cost times N. Right: one pass of a system that matches nothing (empty-pass), ns per
# pass, against N. Variables (from fixed_cost.sh): dir (it-B.dat "N,ratio", ep-B.dat "N,ns"), out,
# backends, styles (each backend's place in --list), floor ("floor" or empty), k, hist, nmax,
# source, scripts.
load scripts . "/styles.gp"
set terminal pngcairo size 1300, 640 font "DejaVu Sans,10" noenhanced
set output out
nb = words(backends)
set multiplot layout 1, 2 title sprintf("A pass's fixed cost: iterate and an empty pass, k = %s, history %s (%s)", k, hist, source)
set logscale xy 2
set format x "%g"
set key below horizontal maxrows 3 box spacing 1.1
set xlabel "entities N" offset 0, 0.3
set bmargin 9
set ylabel sprintf("iterate: pass time / (c x N), c = ns per entity at N = %s", nmax)
set format y "%g"
set offsets 0, 0, graph 0.06, graph 0.06
set style line 70 linecolor rgb "#B00000" linewidth 1.5 dashtype (3, 3)
set title "iterate: above 2, the pass's fixed cost dominates"
plot for [i = 1:nb] sprintf("%s/it-%s.dat", dir, word(backends, i)) using 1:2 with linespoints linestyle (word(styles, i) + 0) title word(backends, i), \
	(floor ne "" ? sprintf("%s/it-floor.dat", dir) : NaN) using 1:2 with lines linestyle 50 title floor_title, \
	2 with lines linestyle 70 title "pass = 2 c N"
set title "empty-pass: one pass of a system that matches nothing"
set offsets 0, 0, 0, 0
set ylabel "ns per pass"
set logscale y 10
plot for [i = 1:nb] sprintf("%s/ep-%s.dat", dir, word(backends, i)) using 1:2 with linespoints linestyle (word(styles, i) + 0) title word(backends, i), \
	(floor ne "" ? sprintf("%s/ep-floor.dat", dir) : NaN) using 1:2 with lines linestyle 50 title floor_title
unset multiplot
