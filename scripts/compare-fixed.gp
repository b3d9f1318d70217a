# compare-fixed.gp: two runs of Varkor's fixed-size workloads in one figure (compare.sh draws
# it): a group per workload, a slot per backend in its own colour; on top the time of one run,
# OLD (hollow point, left of the slot's middle) and NEW (filled, right), each with its run's
# error bars, a large open triangle around each NEW point whose verdict is faster (pointing down)
# or slower (up); under it NEW/OLD per backend, its 95% interval a shaded box, 1.0 drawn solid and
# the drift (or the profiles' median ratio) dotted. A slot that a run lacks says so in words.
# Variables (set by compare.sh with -e): scripts (this folder), dir (dir/old.dat "group,slot,ms,
# bar low,bar high"; dir/new.dat the same and a mark, 1 faster, -1 slower, 0; dir/ratio.dat
# "group,slot,ratio,low,high"), missing ("" or a file of "group,slot,what"), out, backends,
# styles, oldslots, newslots, ratioslots (" slot ..." each file has), nfaster, nslower (marks),
# xtics (a "set xtics" list: the workload of each group), tmin, tmax (ms), rmin, rmax, rtics,
# drift, driftlabel, profile, oldline, newline, drifttext, flagdiff, note, marktext.
load scripts . "/styles.gp"

nb = words(backends)
ng = words(xtics) / 2  # '("name" 1, ...)': two words a group
canvas_w = 1200
title_in = sprintf("Varkor's workloads (fixed size): OLD against NEW, time of one run, %s", profile)
caption_in = sprintf("%s\n%s\n%s\n%s\n%s%s", \
	oldline, newline, drifttext, note, marktext, flagdiff eq "" ? "" : "\n" . flagdiff)
eval fit_title

hollow(p) = (p == 5 || p == 7 || p == 9 || p == 11 || p == 13) ? p - 1 : p
bw = 0.84 / nb
xof(g, s) = g + (s - (nb + 1) / 2.0) * bw
xold(g, s) = xof(g, s) - bw * 0.2
xnew(g, s) = xof(g, s) + bw * 0.2
inslots(list, j) = strstrt(list, sprintf(" %d ", j)) > 0
fastermark = "pointtype 10 pointsize 3.0 linewidth 1.6 linecolor rgb '#202020'"
slowermark = "pointtype 8 pointsize 3.0 linewidth 1.6 linecolor rgb '#202020'"
# the same in the key, smaller, so that its rows do not run into each other
fasterkey = "pointtype 10 pointsize 1.8 linewidth 1.6 linecolor rgb '#202020'"
slowerkey = "pointtype 8 pointsize 1.8 linewidth 1.6 linecolor rgb '#202020'"

set xrange [0.5 : ng + 0.5]
eval "set xtics " . xtics
set xtics scale 0
unset mxtics
set grid noxtics ytics
do for [g = 1:ng - 1] {
	set arrow from g + 0.5, graph 0 to g + 0.5, graph 1 nohead linestyle 100
}

eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with points linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
key_with = "with points linecolor rgb '#606060' pointtype 6 pointsize 1.0"; key_title = "OLD (left)"; eval key_add
key_with = "with points linecolor rgb '#606060' pointtype 7 pointsize 1.1"; key_title = "NEW (right)"; eval key_add
key_with = "with points " . fasterkey; key_title = "NEW faster"; eval key_add
key_with = "with points " . slowerkey; key_title = "NEW slower"; eval key_add
key_with = "with boxes fillcolor rgb '#606060' fillstyle transparent solid 0.3 noborder"; key_title = "NEW/OLD 95% interval"; eval key_add
eval fit_key
# From the top, in pixels: the title, the first panel's title, the times, their tic labels, NEW/OLD
# and its tic labels, the key's strip.
t_top_px = title_h + lineh(10) + 14
t_bottom_px = t_top_px + 360
r_top_px = t_bottom_px + lineh(10) + 24
r_bottom_px = r_top_px + 240
canvas_h = int(r_bottom_px + lineh(10) + 18 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out
set lmargin at screen sx(84)
set rmargin at screen 1 - sx(edge + 14)
set multiplot title title_text font title_font

# --- time of one run, both runs ---
set tmargin at screen sy(t_top_px)
set bmargin at screen sy(t_bottom_px)
set title "time of one run of the whole workload (median, error bars)"
set ylabel "ms per run (log scale)"
ylo = tmin / 2
set yrange [ylo : tmax * 2]
ydec = log10((tmax * 2) / ylo)
eval logticks_y
cmd = ""
do for [j = 1:nb] {
	s = word(styles, j) + 0
	if (inslots(oldslots, j)) {
		cmd = cmd . sprintf(", '%s/old.dat' using (xold($1, $2)):($2 == %d ? $3 : NaN):($4 > 0 ? $4 : ylo):5 with yerrorbars linestyle %d pointtype %d pointsize 1.0 notitle", dir, j, s, hollow(point(s)))
	}
	if (inslots(newslots, j)) {
		cmd = cmd . sprintf(", '%s/new.dat' using (xnew($1, $2)):($2 == %d ? $3 : NaN):($4 > 0 ? $4 : ylo):5 with yerrorbars linestyle %d notitle", dir, j, s)
	}
}
if (nfaster > 0) {
	cmd = cmd . sprintf(", '%s/new.dat' using (xnew($1, $2)):($6 > 0 ? $3 : NaN) with points %s notitle", dir, fastermark)
}
if (nslower > 0) {
	cmd = cmd . sprintf(", '%s/new.dat' using (xnew($1, $2)):($6 < 0 ? $3 : NaN) with points %s notitle", dir, slowermark)
}
if (missing ne "") {
	cmd = cmd . sprintf(", '%s' using (xof($1, $2)):(ylo):3 with labels rotate by 90 left offset 0, 0.5 font ',8' textcolor rgb '#808080' notitle", missing)
}
unset key
eval "plot " . cmd[3:*]

# --- NEW/OLD ---
set tmargin at screen sy(r_top_px)
set bmargin at screen sy(r_bottom_px)
unset title
set ylabel "NEW / OLD (log scale)"
set yrange [rmin : rmax]
set logscale y 10
eval "set ytics " . rtics
set mytics 1
set label 2 sprintf("dotted: %s %.3fx", driftlabel, drift) at graph 0.008, graph 0.92 left font ",9" textcolor rgb "#404040" front
cmd = sprintf("1 with lines linecolor rgb '#404040' linewidth 1.5 notitle, %.6g with lines linecolor rgb '#404040' linewidth 1.5 dashtype (2, 4) notitle", drift)
do for [j = 1:nb] {
	if (inslots(ratioslots, j)) {
		cmd = cmd . sprintf(", '%s/ratio.dat' using (xof($1, $2)):($2 == %d ? $3 : NaN):(xof($1, $2) - bw * 0.35):(xof($1, $2) + bw * 0.35):($4 > 0 ? $4 : $4 == $4 ? rmin : $3):($5 > 0 ? $5 : $3) with boxxyerror fillcolor rgb '%s' fillstyle transparent solid 0.3 noborder notitle", dir, j, colour(word(styles, j) + 0))
		cmd = cmd . sprintf(", '%s/ratio.dat' using (xof($1, $2)):($2 == %d ? $3 : NaN) with points linestyle %s notitle", dir, j, word(styles, j))
	}
}
eval "plot " . cmd
unset label
unset arrow

eval draw_key
eval draw_caption
unset multiplot
