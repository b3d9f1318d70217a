# advise.gp: the advisor's search as a figure (scripts/advise_plot.sh gives it its data): a row
# per design tried, from the first step at the top, its ratio to the step's reference on a log
# axis with its interval, a line at 1 (as fast as the reference).
# Set by the caller: scripts, out, data (y,ratio,low,high,style,label), rows, lmin, lmax, name,
# status, cpu.
load scripts . "/styles.gp"
height = 140 + 19 * rows
set terminal pngcairo size 1000, height font "DejaVu Sans,10" noenhanced
set output out
set datafile separator comma
set title sprintf("%s: every design the search tried, against its step's reference\n%s\n%s", \
	name, status, cpu) font ",11"
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
ticks = xhi / xlo < 1.6 ? "0.8 0.85 0.9 0.95 1 1.05 1.1 1.15 1.2 1.3" : "0.2 0.5 0.8 0.9 1 1.1 1.2 1.5 2 3 5 10 20"
do for [t in ticks] { set xtics add (t t + 0) }
set xrange [xlo:xhi]
set yrange [-0.7:rows - 0.3]
set xlabel "frame time, ratio to the reference (below 1: faster)"
set ytics scale 0 font ",9"
set grid xtics noytics
set lmargin 46
set key outside bottom center horizontal
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
	'' using ($5 == 5 ? $2 : NaN):1:3:4 with xerrorbars linestyle 95 title "confirmation: the other design"
