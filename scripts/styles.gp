# styles.gp: what every ecsbench figure shares. Loaded by time.gp, profiles.gp and cache.gp.
# Backend i (its place in the list the driver passes) gets line style i: a colour from the
# Okabe-Ito set (distinct for colour-blind readers), a point shape and a dash pattern, so that
# lines stay apart in greyscale too. Eight styles; a ninth backend reuses the first colour with a
# new shape.
colours = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #7F7F7F"
points = "7 5 9 11 13 15 4 6 8 10 12 14"
dashes = "1 2 4 5 3"  # solid, dashed, dash-dot, dash-dot-dot, dotted
do for [i = 1:12] {
	dash = word(dashes, (i - 1) % 5 + 1) + 0  # a bare "(" after dashtype starts a custom pattern
	set style line i linecolor rgb (word(colours, (i - 1) % 8 + 1)) linewidth 2 \
		pointtype (word(points, i) + 0) pointsize 1.1 dashtype dash
}
set style line 100 linecolor rgb "#d8d8d8" linewidth 1 dashtype 1  # grid
set grid xtics ytics mytics linestyle 100, linestyle 100
set border linewidth 1
set datafile separator comma
set datafile missing "NaN"

# Log y axes: labelled tics at 1, 2 and 5 times each power of ten, so that a range of less than
# a decade or two still reads; minor tics in between.
set logscale y 10
# (Not "set ytics 10": on a log axis that counts decades from wherever the range starts.)
set ytics ()
do for [e = -3:9] {
	set ytics add (sprintf("%g", 10.0 ** e) 10.0 ** e, sprintf("%g", 2 * 10.0 ** e) 2 * 10.0 ** e, \
		sprintf("%g", 5 * 10.0 ** e) 5 * 10.0 ** e)
}
set mytics 10
