# cache.gp: simulated D1 and LLd misses per entity of one workload's timed call, by backend:
# a panel per k x N, two bars per backend (D1 solid, LLd hatched, both in the backend's colour)
# and for the floor (the same work over plain arrays, grey) after them, the value written over
# each bar; a backend (or the floor) that a panel lacks is written "not measured" in its slot,
# so that an empty slot never reads as zero misses.
# Variables (set by plot.sh with -e): scripts (this folder), dir (a file per panel,
# dir/<size>-<k>-<N>.dat: "slot,backend,d1 misses per entity,lld misses per entity", slot = the
# backend's place in backends, the floor's nb + 1), size (component bytes), out, workload, backends
# (space-separated, in colour order), styles (the line style of each backend, same order), floor
# (1: the CSV has floor rows: a slot after the backends'), cases ("k N rounds ..."
# for each panel; rounds > 1: a round-based workload, whose misses are per entity per round),
# ymax (the largest misses per entity), profile, config (the simulated caches), nruns and
# runtext1..runtext<nruns> (the runs drawn: commit, date; a title line each), source (the CSV),
# and per panel i: have<i> (" backend ... " it has), run<i> (the numbers of its runs).
load scripts . "/styles.gp"

np = words(cases) / 3
nb = words(backends)
if (!exists("floor")) floor = 0
nslots = nb + floor
canvas_w = np > 1 ? (70 * nslots + 140) * np + 100 : 70 * nslots + 460
runs = ""
do for [i = 1:nruns] { runs = runs . "\n" . value(sprintf("runtext%d", i)) }
title_in = sprintf("%s: simulated cache misses per entity, timed call only, profile %s", workload, profile)
# An LLd figure near 0 says the storage fits the simulated last-level cache, not that its layout
# is good: the caption says where it stops fitting (make cachegrind prints it per case).
caption_in = sprintf("callgrind --cache-sim=yes; %s (size:ways:line)\nLLd misses stay near 0 while the storage fits the simulated LL: N x bytes per entity (the run's live_bytes_per_entity) under its size; at 64 B an entity an 8 MiB LL holds N = 131072 (make cachegrind prints each case's N)\n%s%s", \
	config, source, runs)
eval fit_title
eval key_reset
key_with = "with boxes fillcolor rgb '#808080' fillstyle solid 0.9 border rgb '#404040'"; key_title = "D1 misses (solid)"; eval key_add
key_with = "with boxes fillcolor rgb '#808080' fillstyle pattern 4 border rgb '#404040'"; key_title = "LLd misses (hatched)"; eval key_add
eval fit_key
# The panels' titles, wrapped to a panel's width (a panel drawn from several runs names them):
# ptitle<i>, and the most lines of any
pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(50)
ptitle_lines = 1
do for [i = 1:np] {
	r = word(cases, 3 * i) + 0
	wrap_in = sprintf("k = %s, N = %s%s%s", word(cases, 3 * i - 2), word(cases, 3 * i - 1), r > 1 ? sprintf(" x %d rounds", r) : "", \
		nruns > 1 ? sprintf(" (run%s %s)", strstrt(value(sprintf("run%d", i)), ",") ? "s" : "", value(sprintf("run%d", i))) : "")
	wrap_n = int(panel_w(np) * canvas_w / charw(10))
	eval wrap
	eval sprintf("ptitle%d = wrap_out", i)
	ptitle_lines = wrap_lines > ptitle_lines ? wrap_lines : ptitle_lines
}
# From the top, in pixels: the title, the panels' titles, the panels, their tic labels (two
# lines: the floor's), the key's strip.
p_top_px = title_h + ptitle_lines * lineh(10) + 14
p_bottom_px = p_top_px + 340
canvas_h = int(p_bottom_px + 2 * lineh(10) + 16 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out

series(k, n) = sprintf("%s/%s-%s-%s.dat", dir, size, k, n)

unset logscale y
set yrange [0 : (ymax > 0 ? ymax * 1.18 : 1)]  # linear from 0: bar lengths compare
set ytics autofreq
set format y "%g"
set mytics 2
set grid noxtics ytics mytics
set xrange [0.4 : nslots + 0.6]
set xtics () scale 0
do for [i = 1:nb] { set xtics add (word(backends, i) i) }
if (floor) { set xtics add ("floor\n(plain arrays)" nb + 1) }
set boxwidth 0.36
set style fill solid 0.9 border rgb "#404040"
d1(j) = sprintf("'%s' using ($1 - 0.19):(strcol(2) eq word(backends, %d) ? $3 : NaN) with boxes linestyle %s fillstyle solid 0.9 border rgb '#404040' notitle", series(k, n), j, word(styles, j))
ll(j) = sprintf("'%s' using ($1 + 0.19):(strcol(2) eq word(backends, %d) ? $4 : NaN) with boxes linestyle %s fillstyle pattern 4 border rgb '#404040' notitle", series(k, n), j, word(styles, j))
# The floor's: grey, as its line is in every other figure.
d1floor(unused) = sprintf("'%s' using ($1 - 0.19):(strcol(2) eq 'floor' ? $3 : NaN) with boxes linecolor rgb '#707070' fillstyle solid 0.9 border rgb '#404040' notitle", series(k, n))
llfloor(unused) = sprintf("'%s' using ($1 + 0.19):(strcol(2) eq 'floor' ? $4 : NaN) with boxes linecolor rgb '#707070' fillstyle pattern 4 border rgb '#404040' notitle", series(k, n))
# The values over the bars (concatenated: gnuplot's sprintf cuts long strings).
values(f) = "'" . f . "' using ($1 - 0.19):3:(sprintf('%.3g', $3)) with labels offset 0, 0.7 font ',8' notitle, '" \
	. f . "' using ($1 + 0.19):4:(sprintf('%.3g', $4)) with labels offset 0, 0.7 font ',8' notitle"

set multiplot title title_text font title_font
set bmargin at screen sy(p_bottom_px)
set tmargin at screen sy(p_top_px)
do for [i = 1:np] {
	k = word(cases, 3 * i - 2)
	n = word(cases, 3 * i - 1)
	r = word(cases, 3 * i) + 0
	set lmargin at screen panel_l(i, np)
	set rmargin at screen panel_r(i, np)
	set title value(sprintf("ptitle%d", i))
	if (i == 1) {
		set ylabel sprintf("misses per entity%s (linear)", r > 1 ? " per round" : "")
	} else {
		unset ylabel
	}
	cmd = ""
	unset label
	do for [j = 1:nb] {
		if (strstrt(value(sprintf("have%d", i)), " " . word(backends, j) . " ") > 0) {
			cmd = cmd . ", " . d1(j) . ", " . ll(j)
		} else {
			set label j "not measured" at j, graph 0.03 rotate by 90 left font ",9" textcolor rgb "#606060"
		}
	}
	if (floor) {
		if (strstrt(value(sprintf("have%d", i)), " floor ") > 0) {
			cmd = cmd . ", " . d1floor(0) . ", " . llfloor(0)
		} else {
			set label nb + 1 "not measured" at nb + 1, graph 0.03 rotate by 90 left font ",9" textcolor rgb "#606060"
		}
	}
	unset key
	eval "plot " . cmd[3:*] . ", " . values(series(k, n))
	unset label
}
eval draw_key
eval draw_caption
unset multiplot
