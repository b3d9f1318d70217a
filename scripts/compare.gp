# compare.gp: two runs of one swept workload in one figure (compare.sh draws it). A column per
# k; on top, time per entity against N with each backend twice in its own colour, OLD dashed
# with hollow points and NEW solid with filled points, each with its run's error bars (OLD a
# little left of N, NEW a little right, so that the bars never hide each other), the floor grey
# (OLD) and black (NEW), and a large open triangle around each NEW point whose verdict is faster
# (pointing down: the time went down) or slower (up); under it, NEW/OLD per backend with its 95%
# interval shaded, 1.0 drawn solid and the drift (or the profiles' median ratio) dotted.
# Variables (set by compare.sh with -e): scripts (this folder), dir (series files
# dir/<k>-<backend>-old.dat "N,ns per entity,bar low,bar high", -new.dat the same and a mark
# (1 faster, -1 slower, 0), -ratio.dat "N,ratio,low,high"; backend "floor" too), out, workload,
# backends (space-separated, in colour order), styles (the line style of each, styles.gp), ks,
# have (" <k>-<backend>-<old|new|ratio> ..." for each series file), marks (" <k>-<backend>-faster
# ..." and -slower for the series with such a mark), ymin, ymax, nmin, nmax, rmin,
# rmax (the ratio axis), rtics (its tics, a "set ytics" list), drift, driftlabel, profile, what
# (the timed region), oldline, newline (the runs: file, commit, date, cpu), drifttext, flagdiff
# ("" or what differs in the compiler lines), note (what the bars are), marktext (the marks).
load scripts . "/styles.gp"

nk = words(ks)
nb = words(backends)
canvas_w = nk > 1 ? 480 * nk + 120 : 1000
set terminal pngcairo size canvas_w, 1060 font "DejaVu Sans,10" noenhanced
set output out

series(k, b, run) = sprintf("%s/%s-%s-%s.dat", dir, k, b, run)
has(k, b, run) = strstrt(have . marks, sprintf(" %s-%s-%s ", k, b, run)) > 0
# OLD's point: the hollow twin of the backend's filled shape (plus, cross and star have none).
hollow(p) = (p == 5 || p == 7 || p == 9 || p == 11 || p == 13) ? p - 1 : p
dold = 2 ** -0.09
dnew = 2 ** 0.09
oldstyle = "dashtype (5, 4) pointsize 1.0"
# The verdict marks, drawn over everything in near-black so that they read as annotations.
fastermark = "pointtype 10 pointsize 3.0 linewidth 1.6 linecolor rgb '#202020'"
slowermark = "pointtype 8 pointsize 3.0 linewidth 1.6 linecolor rgb '#202020'"
# the same in the key, smaller, so that its rows do not run into each other
fasterkey = "pointtype 10 pointsize 1.8 linewidth 1.6 linecolor rgb '#202020'"
slowerkey = "pointtype 8 pointsize 1.8 linewidth 1.6 linecolor rgb '#202020'"
oldfloor = "linecolor rgb '#a0a0a0' linewidth 2 dashtype (8, 5)"

set logscale x 2
set xrange [nmin / 1.5 : nmax * 1.5]
e0 = floor(log(nmin) / log(2) + 1e-9)
e1 = ceil(log(nmax) / log(2) - 1e-9)
nlabel(e) = e >= 20 ? sprintf("%gM", 2 ** (e - 20)) : e >= 10 ? sprintf("%gk", 2 ** (e - 10)) : sprintf("%g", 2 ** e)
set xtics ()
do for [e = e0:e1] {
	set xtics add ((e1 - e0 < 8 || (e - e0) % 2 == 0) ? nlabel(e) : "" 2 ** e)
}
set mxtics 1

lines = 5 + (what eq "" ? 0 : 1) + (flagdiff eq "" ? 0 : 1)
title_h = 0.022 * lines + 0.02
key_top = 0.075
pl = nk > 1 ? 0.07 : 0.1
gap = 0.045
t_top = 1 - title_h - 0.03
t_bottom = 0.42
r_top = 0.36
r_bottom = 0.15
set multiplot title sprintf("%s: OLD against NEW, time per entity, %s\n%s%s\n%s\n%s\n%s\n%s%s", workload, profile, \
	what eq "" ? "" : "timed: " . what . "\n", oldline, newline, drifttext, note, marktext, \
	flagdiff eq "" ? "" : "\n" . flagdiff) font ",11"

do for [i = 1:nk] {
	k = word(ks, i)
	set lmargin at screen panel_l(i, nk)
	set rmargin at screen panel_r(i, nk)

	# --- time per entity, both runs ---
	set tmargin at screen t_top
	set bmargin at screen t_bottom
	set title sprintf("k = %s component%s per entity", k, k eq "1" ? "" : "s")
	unset logscale y
	set yrange [ymin / 1.5 : ymax * 1.5]
	ydec = log10(ymax * 1.5 / (ymin / 1.5))
	eval logticks_y
	if (i == 1) {
		set ylabel "time per entity (ns, log scale)"
	} else {
		unset ylabel
	}
	unset xlabel
	set format x
	cmd = ""
	if (has(k, "floor", "old")) {
		cmd = cmd . sprintf(", '%s' using ($1 * dold):2 with lines %s notitle", series(k, "floor", "old"), oldfloor)
	}
	if (has(k, "floor", "new")) {
		cmd = cmd . sprintf(", '%s' using ($1 * dnew):2 with lines linestyle 50 notitle", series(k, "floor", "new"))
	}
	onlyold = ""
	onlynew = ""
	absent = ""
	do for [j = 1:nb] {
		b = word(backends, j)
		s = word(styles, j) + 0
		o = has(k, b, "old")
		n = has(k, b, "new")
		if (o) {
			cmd = cmd . sprintf(", '%s' using ($1 * dold):2:3:4 with yerrorlines linestyle %d %s pointtype %d notitle", \
				series(k, b, "old"), s, oldstyle, hollow(point(s)))
		}
		if (n) {
			cmd = cmd . sprintf(", '%s' using ($1 * dnew):2:3:4 with yerrorlines linestyle %d notitle", series(k, b, "new"), s)
		}
		if (o && !n) {
			onlyold = onlyold . (onlyold eq "" ? "" : ", ") . b
		}
		if (n && !o) {
			onlynew = onlynew . (onlynew eq "" ? "" : ", ") . b
		}
		if (!o && !n) {
			absent = absent . (absent eq "" ? "" : ", ") . b
		}
	}
	do for [j = 1:nb] {
		f = series(k, word(backends, j), "new")
		if (has(k, word(backends, j), "faster")) {
			cmd = cmd . sprintf(", '%s' using ($1 * dnew):($5 > 0 ? $2 : NaN) with points %s notitle", f, fastermark)
		}
		if (has(k, word(backends, j), "slower")) {
			cmd = cmd . sprintf(", '%s' using ($1 * dnew):($5 < 0 ? $2 : NaN) with points %s notitle", f, slowermark)
		}
	}
	missing = (onlyold eq "" ? "" : "not in NEW: " . onlyold . "  ") . (onlynew eq "" ? "" : "not in OLD: " . onlynew . "  ") \
		. (absent eq "" ? "" : "not measured: " . absent)
	unset label
	if (missing ne "") {
		set label 1 missing at graph 0.03, graph 0.96 left font ",9" textcolor rgb "#606060"
	}
	unset key
	eval "plot " . cmd[3:*]

	# --- NEW/OLD ---
	unset label
	set tmargin at screen r_top
	set bmargin at screen r_bottom
	unset title
	set yrange [rmin : rmax]
	set logscale y 10
	eval "set ytics " . rtics
	set mytics 1
	set xlabel "entities N (log2 scale; 1k = 1024)"
	if (i == 1) {
		set ylabel "NEW / OLD (log scale)"
	} else {
		unset ylabel
	}
	set label 2 sprintf("dotted: %s %.3fx", driftlabel, drift) at graph 0.015, graph 0.92 left font ",9" textcolor rgb "#404040" front
	cmd = sprintf("1 with lines linecolor rgb '#404040' linewidth 1.5 notitle, %.6g with lines linecolor rgb '#404040' linewidth 1.5 dashtype (2, 4) notitle", drift)
	do for [j = 1:nb] {
		b = word(backends, j)
		if (has(k, b, "ratio")) {
			cmd = cmd . sprintf(", '%s' using 1:3:4 with filledcurves fillcolor rgb '%s' fillstyle transparent solid 0.2 noborder notitle", \
				series(k, b, "ratio"), colour(word(styles, j) + 0))
		}
	}
	if (has(k, "floor", "ratio")) {
		cmd = cmd . sprintf(", '%s' using 1:2 with lines linestyle 50 notitle", series(k, "floor", "ratio"))
	}
	do for [j = 1:nb] {
		b = word(backends, j)
		if (has(k, b, "ratio")) {
			cmd = cmd . sprintf(", '%s' using 1:2 with linespoints linestyle %s notitle", series(k, b, "ratio"), word(styles, j))
		}
	}
	eval "plot " . cmd
	unset label
}
keycmd = ""
do for [j = 1:nb] {
	keycmd = keycmd . sprintf(", keyentry with linespoints linestyle %s title '%s'", word(styles, j), word(backends, j))
}
keycmd = keycmd . sprintf(", keyentry with linespoints linecolor rgb '#606060' linewidth 2 %s pointtype 6 title 'OLD'", oldstyle)
keycmd = keycmd . ", keyentry with linespoints linecolor rgb '#606060' linewidth 2 pointtype 7 pointsize 1.1 title 'NEW'"
keycmd = keycmd . ", keyentry with lines " . oldfloor . " title 'floor OLD'"
keycmd = keycmd . ", keyentry with lines linestyle 50 title 'floor NEW (plain arrays)'"
keycmd = keycmd . ", keyentry with points " . fasterkey . " title 'NEW faster'"
keycmd = keycmd . ", keyentry with points " . slowerkey . " title 'NEW slower'"
keycmd = keycmd . ", keyentry with boxes fillcolor rgb '#606060' fillstyle transparent solid 0.2 noborder title 'NEW/OLD 95% interval'"
eval draw_key
unset multiplot
