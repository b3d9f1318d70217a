# scenario_trace.gp: a scenario run's per-frame trace (what it shows: scenario_trace.sh, which
# sets these): scripts, out, dir (dir/<participant>.dat "frame,ns,ns where the storage grew or
# NaN,ns where it allocated (a rarely allocating storage) or NaN"), backends and styles (space-separated, colour order), floor (1: dir/floor.dat), ymin,
# ymax (ns), process, processes (how many the run had), name, growth ("backend N, ..."), source.
load scripts . "/styles.gp"
set datafile separator comma
set terminal pngcairo size 1200, 680 font "DejaVu Sans,10" noenhanced
set output out
set logscale y
budget = 16.6e6  # ns; the axis is in ms
ytop = ymax * 1.6
if (ymax >= budget / 10 && budget > ytop) { ytop = budget * 1.3 }
set yrange [ymin / 1.3 / 1e6 : ytop / 1e6]
set ylabel "frame time (ms, log scale)"
set xlabel "frame (timed frames of the process, in order; the warm-up frames before them are not shown)"
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set title sprintf("%s: every frame's time, process %d of %s\nringed: a growth frame (the storage asked for a block of 64 KiB or more); triangle: another frame that allocated,\nfor a storage that allocates in fewer than a tenth of its frames (a small new table)\ngrowth frames in this process: %s\n%s", \
	name, process, processes, growth, source) font ",11"
if (ymax >= budget / 10) {
	set arrow from graph 0, first budget / 1e6 to graph 1, first budget / 1e6 nohead linecolor rgb "#b00000" dashtype (4, 4) linewidth 1.2
	set label "16.6 ms: a 60 Hz frame" at graph 0.01, first budget * 1.08 / 1e6 textcolor rgb "#b00000" font ",9"
}
nb = words(backends)
# without a floor the floor's line reads the first backend's file, drawn nowhere (NaN)
floorfile = floor ? dir . "/floor.dat" : dir . "/" . word(backends, 1) . ".dat"
plot for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:($2 / 1e6) with lines \
		linestyle (word(styles, i) + 0) linewidth 1.2 title word(backends, i), \
	for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:($3 / 1e6) with points \
		linecolor rgb colour(word(styles, i) + 0) pointtype 6 pointsize 2 linewidth 1.5 notitle, \
	for [i = 1:nb] dir . "/" . word(backends, i) . ".dat" using 1:($4 / 1e6) with points \
		linecolor rgb colour(word(styles, i) + 0) pointtype 8 pointsize 1.6 linewidth 1.5 notitle, \
	floorfile using 1:(floor ? $2 / 1e6 : NaN) with lines linestyle 50 linewidth 1.2 \
		title (floor ? floor_title : "")
