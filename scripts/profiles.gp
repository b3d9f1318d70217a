# profiles.gp: how each backend's time per entity changes from profile A to AA to AAA, for one
# workload: a panel per k (and component size), x = profile, at the largest N that every
# measured profile has.
# Variables (set by plot.sh with -e): scripts (this folder), dir (the series files), out,
# workload, backends (space-separated, in colour order), styles (the line style of each backend,
# same order; a backend keeps its style in every figure), panels ("k size N k size N ..."),
# showsize (1: name the component size in the panel titles), have (" k-size-backend ..." for
# each series file with data), noisyhave (the same for those with a noisy row: ringed), floor
# (1: there are floor series), present (the profiles measured), absent (those not: their slot
# says so, with absentwhy_<profile>, "|" between its lines, so that a figure of one profile never
# reads as a comparison),
# centre (what a point is: "geometric mean of process medians"), ymin, ymax (over all series),
# what (the timed region, from --list), runs (the run of each profile: commit, date; then on a
# line of its own what the intervals of a profile measured in 1 or 2 processes cannot say), bars (what
# the error bars are), pnote<i> (if set: panel i's N is below what a profile measured).
# Series file dir/<k>-<size>-<backend>.dat: one line per profile A, AA, AAA in that order,
# "x,ns_per_entity,bar low,bar high,noisy" with x = 0, 1, 2, or an empty line where that profile
# lacks the row, so that no line is drawn through a profile that was not measured.
load scripts . "/styles.gp"

np = words(panels) / 3
nb = words(backends)
canvas_w = np > 1 ? 440 * np + 100 : 1000
if (!exists("absent")) absent = ""
if (!exists("centre")) centre = "median"
title_in = sprintf("%s: time per entity by profile (profiles measured: %s%s)", \
	workload, present, absent eq "" ? "" : "; not measured: " . absent)
caption_in = sprintf("%s%s; %s; N = the largest entity count every measured profile has\n%s", \
	what eq "" ? "" : "timed: " . what . "\n", centre, bars, runs)
eval fit_title
eval key_reset
do for [j = 1:nb] {
	key_with = sprintf("with yerrorlines linestyle %s", word(styles, j)); key_title = word(backends, j); eval key_add
}
if (floor) {
	key_with = "with linespoints linestyle 51"; key_title = floor_title; eval key_add
}
if (noisyhave ne " ") {
	key_with = "with points linestyle 60"; key_title = "noisy row"; eval key_add
}
eval fit_key
# From the top, in pixels: the title, the panels' titles (two lines where a panel's N is below
# what a profile measured), the panels, their tic labels (three lines a profile), the key.
notes = 0
do for [i = 1:np] { if (exists(sprintf("pnote%d", i))) { notes = 1 } }
p_top_px = title_h + (notes ? 2 : 1) * lineh(10) + 14
p_bottom_px = p_top_px + 380
canvas_h = int(p_bottom_px + 3 * lineh(10) + 16 + key_h + caption_h + edge)
set terminal pngcairo size canvas_w, canvas_h font "DejaVu Sans,10" noenhanced
set output out

series(k, s, b) = sprintf("%s/%s-%s-%s.dat", dir, k, s, b)

# x: every profile, A, AA and AAA, the backends side by side around each (a small dodge, so that
# their bars do not hide one another); a profile not measured keeps its slot, which says so.
px(p) = p eq "A" ? 0 : p eq "AA" ? 1 : 2
lines(s) = strstrt(s, "|") ? s[1:strstrt(s, "|") - 1] . "\n" . lines(s[strstrt(s, "|") + 1:*]) : s  # "a|b" -> two lines
pname(x) = x == 0 ? "A\n32 types\n16 systems" : x == 1 ? "AA\n128 types\n32 systems" : "AAA\n512 types\n64 systems"
set xrange [-0.45 : 2.45]
set xtics () scale 0
do for [x = 0:2] {
	set xtics add (pname(x) x)
}
dodge(j) = (j - (nb + 1) / 2.0) * (nb > 1 ? 0.5 / nb : 0)
set yrange [ymin / 1.5 : ymax * 1.5]  # one range for all panels, so that they compare
ydec = log10(ymax * 1.5 / (ymin / 1.5))
eval logticks_y
unset xlabel  # the tic labels name the profiles
set grid noxtics

pl = sx(82)
pr = 1 - sx(edge + 14)
gap = sx(44)
set multiplot title title_text font title_font
set bmargin at screen sy(p_bottom_px)
set tmargin at screen sy(p_top_px)
do for [i = 1:np] {
	k = word(panels, 3 * i - 2)
	s = word(panels, 3 * i - 1)
	n = word(panels, 3 * i)
	set lmargin at screen panel_l(i, np)
	set rmargin at screen panel_r(i, np)
	set title sprintf("k = %s%s, N = %s%s", k, showsize ? sprintf(", %s-byte components", s) : "", n, \
		exists(sprintf("pnote%d", i)) ? "\n(" . value(sprintf("pnote%d", i)) . ")" : "")
	if (i == 1) {
		set ylabel "time per entity (ns, log scale)"
	} else {
		unset ylabel
	}
	cmd = ""
	if (floor && strstrt(have, sprintf(" %s-%s-floor ", k, s)) > 0) {
		cmd = cmd . sprintf(", '%s' using 1:2 with linespoints linestyle 51 notitle", series(k, s, "floor"))
	}
	do for [j = 1:nb] {
		if (strstrt(have, sprintf(" %s-%s-%s ", k, s, word(backends, j))) > 0) {
			cmd = cmd . sprintf(", '%s' using ($1 + %g):2:3:4 with yerrorlines linestyle %s notitle", \
				series(k, s, word(backends, j)), dodge(j), word(styles, j))
		}
		if (strstrt(noisyhave, sprintf(" %s-%s-%s ", k, s, word(backends, j))) > 0) {
			cmd = cmd . sprintf(", '%s' using ($1 + %g):($5 > 0 ? $2 : NaN) with points linestyle %s %s notitle", \
				series(k, s, word(backends, j)), dodge(j), word(styles, j), ring)
		}
	}
	unset label
	do for [j = 1:words(absent)] {
		set label j sprintf("not measured:\n%s", lines(value("absentwhy_" . word(absent, j)))) \
			at px(word(absent, j)), graph 0.5 center font ",9" textcolor rgb "#606060"
	}
	unset key
	eval "plot " . cmd[3:*]
}
unset label
eval draw_key
eval draw_caption
unset multiplot
