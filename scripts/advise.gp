# advise.gp: the advisor's search as a figure (scripts/advise_plot.sh gives it its data): a row
# per design tried, from the first step at the top, its ratio to the step's reference on a log
# axis with its interval, a line at 1 (as fast as the reference).
# Set by the caller: scripts, out, data (y,ratio,low,high,style,label), rows, lmin, lmax,
# title_file (the title, wrapped, a line each), title_lines.
load scripts . "/styles.gp"
# the rows, the title's lines, and the axis's label and the key below them
height = 180 + 19 * rows + 18 * title_lines
set terminal pngcairo size 1000, height font "DejaVu Sans,10" noenhanced
set output out
set datafile separator comma
set title system("cat '" . title_file . "'") font ",11"
# styles.gp's log y axis is for times; here y is a row
unset logscale y
set ytics ()
unset mytics
set logscale x
set xtics ()
xlo = lmin / 1.05
xhi = lmax * 1.05
if (xlo > 0.95) { xlo = 0.95 }
if (xhi < 1.05) { xhi = 1.05 }
# tics at round ratios, closer where the range is narrow
# (1.1 apart from 1 and 1.2 only where the axis spans less than 3x: beyond, they overlap)
ticks = xhi / xlo < 1.6 ? "0.8 0.85 0.9 0.95 1 1.05 1.1 1.15 1.2 1.3" \
	: xhi / xlo < 3 ? "0.2 0.5 0.8 0.9 1 1.1 1.2 1.5 2 3 5 10 20" : "0.2 0.5 0.8 0.9 1 1.2 1.5 2 3 5 10 20"
do for [t in ticks] { set xtics add (t t + 0) }
set xrange [xlo:xhi]
set yrange [-0.7:rows - 0.3]
# the reference differs by step: the label says which
set xlabel "frame time as a ratio to the step's reference, paired by process (below 1: faster)\n\
the reference: in a search step its backend's best design so far;\n\
in the survey and the contest their fastest; in the confirmation the chosen design"
set ytics scale 0 font ",9"
set grid xtics noytics
set lmargin 46
# the key in the corner below the rows' labels, left of the axis's label (under the plot it
# would have one column only, as wide as the plot is, and run into that label)
set key at screen 0.01, screen 0.01 left bottom vertical Left reverse spacing 1.1 samplen 2
# room below the axis for its three-line label and the key's five rows
set bmargin 7
set arrow from 1, graph 0 to 1, graph 1 nohead linecolor rgb "#404040" dashtype (6, 4) back
# styles: kept, not kept, reference or fastest, a survey's or contest's design, the confirmation's other
set style line 91 linecolor rgb "#009E73" pointtype 7 pointsize 1.2 linewidth 2
set style line 92 linecolor rgb "#999999" pointtype 7 pointsize 1.0 linewidth 2
set style line 93 linecolor rgb "#0072B2" pointtype 5 pointsize 1.2 linewidth 2
set style line 94 linecolor rgb "#E69F00" pointtype 9 pointsize 1.0 linewidth 2
set style line 95 linecolor rgb "#D55E00" pointtype 11 pointsize 1.2 linewidth 2
plot data using ($5 == 1 ? $2 : NaN):1:3:4:ytic(6) with xerrorbars linestyle 91 title "kept (the new best)", \
	'' using ($5 == 2 ? $2 : NaN):1:3:4 with xerrorbars linestyle 92 title "not kept", \
	'' using ($5 == 3 ? $2 : NaN):1:3:4 with xerrorbars linestyle 93 title "the step's fastest or reference", \
	'' using ($5 == 4 ? $2 : NaN):1:3:4 with xerrorbars linestyle 94 title "survey, contest", \
	'' using ($5 == 5 ? $2 : NaN):1:3:4 with xerrorbars linestyle 95 title "confirmation: the fastest with no marks"
