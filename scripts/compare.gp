# compare.gp: two runs of one swept workload in one figure (compare.sh draws it). A column per
# k; on top, time per entity against N with each backend twice in its own colour, OLD dotted
# (short dashes, which read as dots at this width: the caption and the key say dotted alike)
# with hollow points and NEW solid with filled points, each with its run's error bars (OLD a
# little left of N, NEW a little right, so that the bars never hide each other), the floor grey
# (OLD) and black (NEW), and a large open triangle around each NEW point whose verdict is faster
# (pointing down: the time went down) or slower (up); under it, NEW/OLD per backend with its 95%
# interval as a bar, the backends a little apart on x (as in the time figures' ratio panels:
# seven shaded bands over each other read as one grey smear), 1.0 drawn solid and the drift (or
# the profiles' median ratio) dotted.
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
np_here = nk
nb = words(backends)
canvas_w = nk > 1 ? 480 * nk + 120 : 1100
title_in = sprintf("%s: OLD against NEW, time per entity, %s", workload, profile)
caption_in = sprintf("%s%s\n%s\n%s\n%s\n%s%s", \
	what eq "" ? "" : "timed: " . what . "\n", oldline, newline, drifttext, note, marktext, \
	flagdiff eq "" ? "" : "\n" . flagdiff)
eval fit_title

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

# The key: each backend, how OLD and NEW are drawn, the floors, the marks, the ratio's bar
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with linespoints linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
key_with = sprintf("with linespoints linecolor rgb '#606060' linewidth 2 %s pointtype 6", oldstyle); key_title = "OLD"; eval key_add
key_with = "with linespoints linecolor rgb '#606060' linewidth 2 pointtype 7 pointsize 1.1"; key_title = "NEW"; eval key_add
key_with = "with lines " . oldfloor; key_title = "floor OLD"; eval key_add
key_with = "with lines linestyle 50"; key_title = "floor NEW (plain arrays)"; eval key_add
key_with = "with points " . fasterkey; key_title = "NEW faster"; eval key_add
key_with = "with points " . slowerkey; key_title = "NEW slower"; eval key_add
key_with = "with yerrorbars linecolor rgb '#606060' pointtype 7 pointsize 0.8"; key_title = "NEW/OLD, 95% interval"; eval key_add
eval fit_key
# From the top, in pixels: the title, the panels' titles, the times, their x tics, NEW/OLD,
# its x tics and label, the key's strip.
t_top_px = title_h + lineh(10) + 14
t_bottom_px = t_top_px + 380
r_top_px = t_bottom_px + lineh(10) + 22
r_bottom_px = r_top_px + 250
canvas_h = int(r_bottom_px + 2 * lineh(10) + 18 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
pl = sx(84)
pr = 1 - sx(edge + 14)
gap = sx(45)
t_top = sy(t_top_px)
t_bottom = sy(t_bottom_px)
r_top = sy(r_top_px)
r_bottom = sy(r_bottom_px)
# the backends' x offsets under the times: j of nb, 0.05 of a doubling apart
rdodge(j) = 2 ** ((j - (nb + 1) / 2.0) * 0.05)
set multiplot title title_text font title_font

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
	missing = (onlyold eq "" ? "" : "not in NEW: " . onlyold . "; ") . (onlynew eq "" ? "" : "not in OLD: " . onlynew . "; ") \
		. (absent eq "" ? "" : "not measured: " . absent)
	if (strlen(missing) > 2 && missing[strlen(missing) - 1:*] eq "; ") { missing = missing[1:strlen(missing) - 2] }
	unset label
	if (missing ne "") {
		wrap_in = missing; eval fit_panel_note
		set label 1 wrap_out at graph 0.03, graph 0.96 left font ",9" textcolor rgb "#606060"
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
	if (has(k, "floor", "ratio")) {
		cmd = cmd . sprintf(", '%s' using 1:2 with lines linestyle 50 notitle", series(k, "floor", "ratio"))
	}
	do for [j = 1:nb] {
		b = word(backends, j)
		if (has(k, b, "ratio")) {
			cmd = cmd . sprintf(", '%s' using ($1 * rdodge(%d)):2 with lines linestyle %s linewidth 1 notitle", series(k, b, "ratio"), j, word(styles, j))
			# (an interval from 0 reaches the bottom of the log axis; one not known is no bar)
			cmd = cmd . sprintf(", '%s' using ($1 * rdodge(%d)):2:($3 > 0 ? $3 : $3 == $3 ? rmin : $2):($4 > 0 ? $4 : $2) with yerrorbars linestyle %s pointsize 0.8 notitle", series(k, b, "ratio"), j, word(styles, j))
		}
	}
	eval "plot " . cmd
	unset label
}
eval draw_key
eval draw_caption
unset multiplot
