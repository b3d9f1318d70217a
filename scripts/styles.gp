# styles.gp: what every ecsbench figure shares. Loaded by time.gp, profiles.gp, varkor.gp and
# cache.gp.
# Backend i (its place in `build/ecsbench --list`, which plot.sh passes as `styles`) gets line
# style i: a colour from the Okabe-Ito set (distinct for colour-blind readers) and a point shape,
# so that lines stay apart in greyscale too. The lines are solid: a dashed line is the floor's
# alone (line style 50). Eight colours; a ninth backend reuses the first colour with a new shape.
colours = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #8C564B #332288"
points = "7 5 9 11 13 15 4 6 8 10 12 14"
do for [i = 1:12] {
	set style line i linecolor rgb (word(colours, (i - 1) % 8 + 1)) linewidth 2 \
		pointtype (word(points, i) + 0) pointsize 1.1 dashtype 1
}
# The floor of iterate (the same update over plain arrays): a reference, not a backend.
set style line 50 linecolor rgb "#202020" linewidth 2 dashtype (8, 5) pointtype 0 pointsize 0
# Style 51: the same with a mark at each point, where the points are few (profiles.gp).
set style line 51 linecolor rgb "#202020" linewidth 2 dashtype (8, 5) pointtype 2 pointsize 1.3
floor_title = "floor (plain arrays)"
set style line 100 linecolor rgb "#d8d8d8" linewidth 1 dashtype 1  # grid
set grid xtics ytics mytics linestyle 100, linestyle 100
set border linewidth 1
set datafile separator comma
set datafile missing "NaN"

# A tic label: 0.05, 2, 500, 5000, then 20k, 5M, 1G, so that no label reads 1e+06.
ticlabel(x) = x >= 1e9 ? sprintf("%gG", x / 1e9) : x >= 1e6 ? sprintf("%gM", x / 1e6) : \
	x >= 1e4 ? sprintf("%gk", x / 1e3) : sprintf("%g", x)

# Log y axes: labelled tics at 1, 2 and 5 times each power of ten, so that a range of less than
# a decade or two still reads, or past four decades (ydec, set before `eval logticks_y`) at each
# power of ten only, so that the labels never crowd; minor tics in between. (Not "set ytics 10":
# on a log axis that counts decades from wherever the range starts.)
ydec = 0
logticks_y = 'set logscale y 10; set ytics (); do for [e = -4:10] { set ytics add (ticlabel(10.0 ** e) 10.0 ** e); if (ydec <= 4) { set ytics add (ticlabel(2 * 10.0 ** e) 2 * 10.0 ** e, ticlabel(5 * 10.0 ** e) 5 * 10.0 ** e) } }; set mytics 10'
eval logticks_y

# Panels side by side, placed by hand (so that a strip for the key can follow them): panel i of
# np spans panel_l(i) .. panel_r(i) of the canvas, between the margins pl and pr, gap apart.
panel_w(np) = (pr - pl - (np - 1) * gap) / np
panel_l(i, np) = pl + (i - 1) * (panel_w(np) + gap)
panel_r(i, np) = panel_l(i, np) + panel_w(np)
pl = 0.07
pr = 0.985
gap = 0.04

# After the panels of a multiplot: a plot over the strip from the bottom of the canvas to
# key_top (screen units) that holds the key alone, keycmd (", keyentry ... title ..." entries),
# in one row, so that the key covers no data and names every series of the figure once.
draw_key = 'unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale; unset label; unset object; set xrange [0:1]; set yrange [0:1]; set lmargin at screen 0.01; set rmargin at screen 0.99; set bmargin at screen 0; set tmargin at screen key_top; set key center center horizontal reverse Left samplen 2.5 spacing 1.2 width -3 box linestyle 100; eval "plot NaN notitle" . keycmd'
