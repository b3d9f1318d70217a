# cache.gp: simulated D1 and LLd misses per entity of one workload's timed call, by backend:
# a panel per k x N, two bars per backend (D1 solid, LLd hatched, both in the backend's colour),
# the value written over each bar.
# Variables (set by plot.sh with -e): scripts (this folder), dir (a file per panel,
# dir/<size>-<k>-<N>.dat: "slot,backend,d1 misses per entity,lld misses per entity", slot = the
# backend's place in backends), size (component bytes), out, workload, backends (space-separated,
# in colour order), styles (the line style of each backend, same order), cases ("k N rounds ..."
# for each panel; rounds > 1: a round-based workload, whose misses are per entity per round),
# ymax (the largest misses per entity), profile, config (the simulated caches).
load scripts . "/styles.gp"

np = words(cases) / 3
nb = words(backends)
set terminal pngcairo size (np > 1 ? (70 * nb + 140) * np + 100 : 70 * nb + 460), 600 \
	font "DejaVu Sans,10" noenhanced
set output out

series(k, n) = sprintf("%s/%s-%s-%s.dat", dir, size, k, n)

unset logscale y
set yrange [0 : (ymax > 0 ? ymax * 1.18 : 1)]  # linear from 0: bar lengths compare
set ytics autofreq
set format y "%g"
set mytics 2
set grid noxtics ytics mytics
set xrange [0.4 : nb + 0.6]
set xtics () scale 0
do for [i = 1:nb] { set xtics add (word(backends, i) i) }
set boxwidth 0.36
set style fill solid 0.9 border rgb "#404040"
d1(j) = sprintf("'%s' using ($1 - 0.19):(strcol(2) eq word(backends, %d) ? $3 : NaN) with boxes linestyle %s fillstyle solid 0.9 border rgb '#404040' notitle", series(k, n), j, word(styles, j))
ll(j) = sprintf("'%s' using ($1 + 0.19):(strcol(2) eq word(backends, %d) ? $4 : NaN) with boxes linestyle %s fillstyle pattern 4 border rgb '#404040' notitle", series(k, n), j, word(styles, j))
# The values over the bars (concatenated: gnuplot's sprintf cuts long strings).
values(f) = "'" . f . "' using ($1 - 0.19):3:(sprintf('%.3g', $3)) with labels offset 0, 0.7 font ',8' notitle, '" \
	. f . "' using ($1 + 0.19):4:(sprintf('%.3g', $4)) with labels offset 0, 0.7 font ',8' notitle"

key_top = 0.07
pl = np > 1 ? 0.07 : 0.12
gap = 0.05
set multiplot title sprintf("%s: simulated cache misses per entity, timed call only, profile %s\ncallgrind --cache-sim=yes; %s (size:ways:line)", \
	workload, profile, config) font ",11"
set bmargin at screen 0.16
set tmargin at screen 0.84
do for [i = 1:np] {
	k = word(cases, 3 * i - 2)
	n = word(cases, 3 * i - 1)
	r = word(cases, 3 * i) + 0
	set lmargin at screen panel_l(i, np)
	set rmargin at screen panel_r(i, np)
	set title sprintf("k = %s, N = %s%s", k, n, r > 1 ? sprintf(" x %d rounds", r) : "")
	if (i == 1) {
		set ylabel sprintf("misses per entity%s (linear)", r > 1 ? " per round" : "")
	} else {
		unset ylabel
	}
	cmd = ""
	do for [j = 1:nb] {
		cmd = cmd . ", " . d1(j) . ", " . ll(j)
	}
	unset key
	eval "plot " . cmd[3:*] . ", " . values(series(k, n))
}
keycmd = ", keyentry with boxes fillcolor rgb '#808080' fillstyle solid 0.9 border rgb '#404040' title 'D1 misses (solid)'" . \
	", keyentry with boxes fillcolor rgb '#808080' fillstyle pattern 4 border rgb '#404040' title 'LLd misses (hatched)'"
eval draw_key
unset multiplot
