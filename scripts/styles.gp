# styles.gp: what every ecsbench figure shares. Loaded by time.gp, profiles.gp, varkor.gp and
# cache.gp.
# Backend i (its place in `build/ecsbench --list`, which plot.sh passes as `styles`) gets line
# style i: colour(i) and point(i). Eight colours, chosen so that no two are alike (the Okabe-Ito
# blue, vermillion, green, pink and orange, then purple, olive and brown: every pair at least
# 33 apart in CIELAB, as far as vermillion from orange; the Okabe-Ito sky blue read as hash's
# blue), and eight point shapes that differ in outline, not in fill (filled circle, square,
# triangle up, triangle down, diamond, then plus, cross, star), so that the lines stay apart in
# greyscale and for colour-blind readers. A ninth backend and later reuse a colour with another
# shape, so that no two of the first 64 share both. The open circle is no backend's: a ring
# marks a noisy row (style 60). The lines are solid: a dashed line is the floor's alone (50).
colours = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #6A3D9A #999933 #8C564B"
points = "7 5 9 11 13 1 2 3"
colour(i) = word(colours, (i - 1) % 8 + 1)
point(i) = word(points, ((i - 1) + (i - 1) / 8) % 8 + 1) + 0
do for [i = 1:64] {
	set style line i linecolor rgb colour(i) linewidth 2 pointtype point(i) pointsize 1.1 dashtype 1
}
# A noisy row: a ring around its point, in the backend's colour (the key shows it in grey).
ring = "pointtype 6 pointsize 2.4 linewidth 1.2"
set style line 60 linecolor rgb "#606060" linewidth 1.2 pointtype 6 pointsize 2.4
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
# in rows of at most canvas_w / 170 entries (canvas_w: the figure's width in pixels; gnuplot's own
# count lets long names run into the next entry), so that the key covers no data and names every
# series of the figure once.
canvas_w = 800
draw_key = 'unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale; unset label; unset object; set xrange [0:1]; set yrange [0:1]; set lmargin at screen 0.01; set rmargin at screen 0.99; set bmargin at screen 0; set tmargin at screen key_top; set key center center horizontal reverse Left samplen 2.5 spacing 1.2 width 0 maxcols int(canvas_w / 170) box linestyle 100; eval "plot NaN notitle" . keycmd'
