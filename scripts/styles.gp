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

# --- Layout in pixels: text that fits its canvas ----------------------------------------------
# A figure is laid out from the top in pixels: its title (wrapped to the canvas), the panels,
# their labels, and a strip at the bottom for the key (as many rows as its entries need); the
# canvas is then as tall as all of them, so that no text is cut at an edge, none overlaps
# another and no panel is squeezed by a long title. gnuplot cannot measure a string, so the
# layout counts characters at a width none of our texts exceeds on average (DejaVu Sans in
# pngcairo: 0.69 of its size in points per character over a title line of ours, 0.75 counted) and
# lines at the pitch pngcairo sets them (1.57 of the size). tests/figure_text.sh renders every
# kind of figure at the longest texts the runs make and checks where the ink is.
edge = 10                           # pixels left white at every side of the canvas
charw(fs) = 0.75 * fs               # pixels per character of a font of fs points, at most
lineh(fs) = 1.6 * fs                # pixels per line
chars_in(px, fs) = int((px - 2 * edge) / charw(fs))
# screen units of a pixel position: x from the left, y from the top (sy) or the bottom (sb)
sx(px) = px / (canvas_w + 0.0)
sy(px) = 1 - px / (canvas_h + 0.0)
sb(px) = px / (canvas_h + 0.0)
canvas_w = 800
canvas_h = 600

# eval wrap: wrap_in with every line longer than wrap_n characters broken at a space (after a
# "; " where there is one in the line's second half, so that a clause stays whole), its own
# line breaks kept -> wrap_out and wrap_lines (how many lines). A word longer than a line is cut.
wrap = 'wrap_out = ""; wrap_lines = 0; wrap_rest = wrap_in . "\n"; while (strlen(wrap_rest) > 0) { wrap_at = strstrt(wrap_rest, "\n"); wrap_line = wrap_rest[1:wrap_at - 1]; wrap_rest = wrap_rest[wrap_at + 1:*]; while (strlen(wrap_line) > wrap_n) { wrap_cut = 0; wrap_semi = 0; do for [wrap_i = 2:wrap_n + 1] { if (wrap_line[wrap_i:wrap_i] eq " ") { wrap_cut = wrap_i; if (wrap_line[wrap_i - 1:wrap_i - 1] eq ";" && wrap_i > wrap_n / 2) { wrap_semi = wrap_i } } }; if (wrap_semi > 0) { wrap_cut = wrap_semi }; if (wrap_cut == 0) { wrap_out = wrap_out . wrap_line[1:wrap_n] . "\n"; wrap_line = wrap_line[wrap_n + 1:*] } else { wrap_out = wrap_out . wrap_line[1:wrap_cut - 1] . "\n"; wrap_line = wrap_line[wrap_cut + 1:*] }; wrap_lines = wrap_lines + 1 }; wrap_out = wrap_out . wrap_line . "\n"; wrap_lines = wrap_lines + 1 }; wrap_out = wrap_out[1:strlen(wrap_out) - 1]'
wrap_lines = 0

# eval fit_panel_note: wrap_in (a note at the top left of a panel, font 9) wrapped to the panel's
# width (pl, pr, gap, and the panels' count np_here) -> wrap_out, so that it never runs into
# the next panel
np_here = 1
fit_panel_note = 'wrap_n = int((panel_w(np_here) * canvas_w - 20) / charw(9)); eval wrap'

# eval fit_title: title_in (its lines joined by "\n") wrapped to the canvas's width -> title_text,
# title_lines, title_h (pixels from the top of the canvas to below its last line). Then
# "set multiplot title title_text font title_font" (or "set title" for a single plot).
# A title says what the figure shows, in at most 3 lines (tests/figure_text.sh counts them at the
# longest texts the runs make); how it was made (the method, what the bars and marks are, the
# run: commit, date, machine) is its caption, caption_in, a small text at the bottom of the
# canvas under the key. fit_title wraps it too -> caption_text, caption_lines, caption_h (its
# pixels, 0 for none), which the script adds to canvas_h; eval draw_caption draws it, last.
title_fs = 11
title_font = ",11"
caption_fs = 8
caption_in = ""
# (test_no_title, test_no_caption: the same figure without that text, for tests/figure_text.sh;
# test_title_file: where it writes the title's line count)
fit_title = 'wrap_in = title_in; wrap_n = chars_in(canvas_w, title_fs); eval wrap; title_text = exists("test_no_title") ? "" : wrap_out; title_lines = wrap_lines; title_h = 14 + title_lines * lineh(title_fs); if (exists("test_title_file")) { set print test_title_file append; print title_lines; unset print }; wrap_in = caption_in; wrap_n = chars_in(canvas_w, caption_fs); eval wrap; caption_text = exists("test_no_caption") ? "" : wrap_out; caption_lines = caption_in eq "" ? 0 : wrap_lines; caption_h = caption_lines > 0 ? int(caption_lines * lineh(caption_fs) + 10) : 0'

# The key: eval key_reset, then for each entry key_with ("with lines linestyle 3") and key_title
# set and eval key_add; after the last, eval fit_key -> key_cols, key_rows (as many columns as
# the widest title lets the canvas hold) and key_h (pixels of the strip at the bottom of the
# canvas that holds it: 0 for no entry). A column is as wide as gnuplot makes it, or wider (its
# longest title, the sample and the gaps, at gnuplot's own 0.8 of the size a character), so that
# gnuplot never makes more rows than the strip holds.
key_fs = 10
key_reset = 'keycmd = ""; key_n = 0; key_long = 0'
key_add = 'keycmd = keycmd . ", keyentry " . key_with . " title \"" . key_title . "\""; key_n = key_n + 1; key_long = strlen(key_title) > key_long ? strlen(key_title) : key_long'
fit_key = 'key_colw = (key_long + 9) * 0.8 * key_fs; key_cols = int((canvas_w - 2 * edge - 24) / key_colw); key_cols = key_cols < 1 ? 1 : key_cols > key_n ? key_n : key_cols; key_rows = key_n > 0 ? int((key_n + key_cols - 1) / key_cols) : 0; key_h = key_n > 0 ? 2 * edge + 10 + key_rows * 1.25 * lineh(key_fs) : 0'
eval key_reset

# After the panels of a multiplot: a plot over the strip of key_h pixels above the caption's
# (caption_h: 0 without one) that holds the key alone, keycmd, in key_cols columns (fit_key), so that the
# key covers no data and names every series of the figure once. (test_no_key: the figure
# without its key, for tests/figure_text.sh.)
draw_key = 'if (key_n > 0 && !exists("test_no_key")) { unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale; unset label; unset object; unset arrow; set xrange [0:1]; set yrange [0:1]; set lmargin at screen sx(edge); set rmargin at screen 1 - sx(edge); set bmargin at screen sb(caption_h + edge); set tmargin at screen sb(caption_h + key_h - edge); set key center center horizontal reverse Left samplen 2.5 spacing 1.2 width 0 maxcols key_cols box linestyle 100; eval "plot NaN notitle" . keycmd }'
# After everything else (the key's too): the caption in the strip of caption_h pixels at the
# bottom of the canvas, left-aligned, its first line's top at the strip's top.
draw_caption = 'if (caption_h > 0 && !exists("test_no_caption")) { unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale; unset label; unset object; unset arrow; unset key; set xrange [0:1]; set yrange [0:1]; set lmargin at screen sx(edge); set rmargin at screen 1 - sx(edge); set bmargin at screen 0; set tmargin at screen sb(caption_h); set label 1 caption_text at screen sx(edge), sb(caption_h - 4 - lineh(caption_fs) / 2) left font sprintf(",%d", caption_fs) textcolor rgb "#404040"; plot NaN notitle; unset label 1 }'
