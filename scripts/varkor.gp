# varkor.gp: Varkor's fixed-size workloads of one profile, as the table of Varkor's refactor post
# reports them: time of one run, the storage's peak memory and the allocation calls of one run. A panel each,
# stacked; in each a group of bars per workload, a bar per backend, its value written over it.
# A noisy row's time has "noisy" after it; a backend that a workload lacks is written "not
# measured" in its slot, so that an empty slot never reads as zero.
# Variables (set by plot.sh with -e): scripts (this folder), data (rows "group,slot,backend,ms,
# bar low ms,bar high ms,peak bytes,allocations,noisy"), missing (rows "group,slot" of the
# backends a workload lacks; "" if none), out, backends (space-separated, in colour order),
# styles (the line style of each backend, same order), xtics_full, xtics_short (a "set xtics"
# list: the workload of each group, with and without its N, k and rounds), tmin, tmax (ms),
# mmin, mmax (bytes), amin, amax (allocations), profile, note (samples, bars), noisy (how many
# rows are noisy, or ""), source (the run: commit, date, cpu).
load scripts . "/styles.gp"

nb = words(backends)
ng = words(xtics_short) / 2  # '("name" 1, ...)': two words a group
canvas_w = 1200
title_in = sprintf("Varkor's workloads (from Varkor's refactor post; fixed size, not swept over N): profile %s", profile)
caption_in = sprintf("%s\n%s%s", note, (noisy eq "" ? "" : noisy . "\n"), source)
eval fit_title
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with boxes linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
eval fit_key
# From the top, in pixels: the title, then three panels, each under its title and over its tic
# labels (the last's three lines: a workload's N, k and rounds), then the key's strip.
ph_px = 290
ptitle_px = lineh(10) + 14
tics_px = 2 * lineh(10) + 10
p1_top_px = title_h + ptitle_px
p2_top_px = p1_top_px + ph_px + tics_px + ptitle_px
p3_top_px = p2_top_px + ph_px + tics_px + ptitle_px
canvas_h = int(p3_top_px + ph_px + 3 * lineh(10) + 16 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out

bw = 0.84 / nb                                # a bar's slot
xof(g, s) = g + (s - (nb + 1) / 2.0) * bw     # the middle of backend slot s in group g
set boxwidth bw * 0.9 absolute
set style fill solid 0.9 border rgb "#404040"
set xrange [0.5 : ng + 0.5]
set grid noxtics ytics mytics
set xtics scale 0 offset 0, -0.3
unset mxtics
do for [g = 1:ng - 1] {
	set arrow from g + 0.5, graph 0 to g + 0.5, graph 1 nohead linestyle 100
}
# The memory unit: MiB where the middle of the range (geometric) is past 1 MiB, else KiB.
mdiv = sqrt(mmin * mmax) >= 1048576 ? 1048576.0 : 1024.0
munit = mdiv > 1024 ? "MiB" : "KiB"
short(x) = x >= 1e6 ? sprintf("%.3gM", x / 1e6) : x >= 1e4 ? sprintf("%.3gk", x / 1e3) : \
	x >= 1000 ? sprintf("%.0f", x) : sprintf("%.3g", x)

# Rows of panels, top to bottom; the strip under them holds the key.
set lmargin at screen sx(84)
set rmargin at screen 1 - sx(edge + 14)
set multiplot title title_text font title_font

# The bars of one column of data (col, divided by div): a series per backend, in its colour;
# the value written over each bar (fmt, of the row), at the bottom for a zero.
bars(col, div) = sprintf("for [j = 1:nb] '%s' using (xof($1, $2)):(strcol(3) eq word(backends, j) ? column(%d) / %s : NaN) with boxes linestyle (word(styles, j) + 0) notitle", data, col, div)
labels(col, div, fmt) = sprintf("'%s' using (xof($1, $2)):(column(%d) > 0 ? column(%d) / %s : ylo):(%s) with labels rotate by 90 left offset 0, 0.4 font ',8' textcolor rgb '#202020' notitle", data, col, col, div, fmt)
absent = missing eq "" ? "" : sprintf(", '%s' using (xof($1, $2)):(ylo):('not measured') with labels rotate by 90 left offset 0, 0.4 font ',8' textcolor rgb '#808080' notitle", missing)

# 1: time of one run
set tmargin at screen sy(p1_top_px)
set bmargin at screen sy(p1_top_px + ph_px)
set title "time of one run of the whole workload (median, error bars)"
set ylabel "ms per run (log scale)"
ylo = tmin / 2.0
set yrange [ylo : tmax * 6]
ydec = log10((tmax * 6) / ylo)
eval logticks_y
eval "set xtics " . xtics_short
eval "plot " . bars(4, "1") . sprintf(", '%s' using (xof($1, $2)):5:(0):($6 - $5) with vectors heads size screen 0.004, 90 linecolor rgb '#202020' linewidth 1 notitle", data) \
	. ", " . labels(6, "1", "short($4) . ($9 > 0 ? \" noisy\" : \"\")") . absent

# 2: peak memory
set tmargin at screen sy(p2_top_px)
set bmargin at screen sy(p2_top_px + ph_px)
set title "peak memory of the storage (counting allocator)"
set ylabel sprintf("peak %s (log scale)", munit)
ylo = mmin * 1.0 / mdiv / 2
set yrange [ylo : mmax / mdiv * 6]
ydec = log10((mmax / mdiv * 6) / ylo)
eval logticks_y
eval "plot " . bars(7, "mdiv") . ", " . labels(7, "mdiv", "short($7 / mdiv)") . absent

# 3: allocations
set tmargin at screen sy(p3_top_px)
set bmargin at screen sy(p3_top_px + ph_px)
set title "allocation calls in one run"
set ylabel "allocations (log scale)"
ylo = amin / 2.0  # (2.0: amin may be a whole number, and 1 / 2 is 0 in gnuplot)
set yrange [ylo : amax * 6]
ydec = log10((amax * 6) / ylo)
eval logticks_y
eval "set xtics " . xtics_full
eval "plot " . bars(8, "1") . ", " . labels(8, "1", "short($8)") . absent

unset arrow
eval draw_key
eval draw_caption
unset multiplot
