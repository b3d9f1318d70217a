# cache.gp: simulated D1 and LLd misses per entity of one workload's timed phase, by backend:
# a panel per k x N, two bars per backend, the value written over each bar.
# Variables (set by plot.sh with -e): scripts (this folder), csv (cachegrind rows, one per
# backend x workload x N x k: the latest of results/cachegrind-PROFILE.csv), out, workload,
# backends (space-separated, in colour order), cases ("k N,k N,..."), ymax (the largest D1
# misses per entity), profile, config (the simulated caches).
load scripts . "/styles.gp"

np = words(cases) / 2
nb = words(backends)
set terminal pngcairo size (np > 1 ? (60 * nb + 200) * np + 60 : 60 * nb + 420), 540 \
	font "DejaVu Sans,10" noenhanced
set output out

# Rows of one case: "index,backend,d1_misses_per_entity,lld_misses_per_entity".
series(k, n) = sprintf("< awk -F, -v w='%s' -v k='%s' -v n='%s' -v list='%s' 'BEGIN { m = split(list, b, \" \"); for (i = 1; i <= m; i++) at[b[i]] = i } $6 == w && $8 == k && $7 == n && ($3 in at) { print at[$3] \",\" $3 \",\" $19 \",\" $20 }' '%s'", workload, k, n, backends, csv)

unset logscale y
set yrange [0 : (ymax > 0 ? ymax * 1.2 : 1)]
set ytics autofreq
set format y "%g"
set mytics 2
set grid noxtics ytics mytics
set xrange [0.4 : nb + 0.6]
set xtics () scale 0
do for [i = 1:nb] { set xtics add (word(backends, i) i) }
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.36
d1 = "#0072B2"
lld = "#D55E00"

set multiplot layout 1, np \
	title sprintf("%s: simulated cache misses per entity, timed phase only, profile %s\ncallgrind --cache-sim=yes; %s (size:ways:line)", workload, profile, config) font ",11" \
	margins (np > 1 ? 0.07 : 0.14), 0.98, 0.17, 0.85 spacing 0.05, 0
do for [i = 1:np] {
	k = word(cases, 2 * i - 1)
	n = word(cases, 2 * i)
	set title sprintf("k = %s, N = %s", k, n)
	if (i == 1) {
		set ylabel "misses per entity"
		set key at screen 0.5, 0.04 center center horizontal samplen 2 spacing 1.2 width 2 \
			box linestyle 100
		plot series(k, n) using ($1 - 0.19):3 with boxes fillcolor rgb d1 title "D1 misses", \
			'' using ($1 + 0.19):4 with boxes fillcolor rgb lld title "LLd misses", \
			'' using ($1 - 0.19):3:(sprintf("%.2f", $3)) with labels offset 0, 0.7 font ",9" notitle, \
			'' using ($1 + 0.19):4:(sprintf("%.2f", $4)) with labels offset 0, 0.7 font ",9" notitle
	} else {
		unset ylabel
		unset key
		plot series(k, n) using ($1 - 0.19):3 with boxes fillcolor rgb d1 notitle, \
			'' using ($1 + 0.19):4 with boxes fillcolor rgb lld notitle, \
			'' using ($1 - 0.19):3:(sprintf("%.2f", $3)) with labels offset 0, 0.7 font ",9" notitle, \
			'' using ($1 + 0.19):4:(sprintf("%.2f", $4)) with labels offset 0, 0.7 font ",9" notitle
	}
}
unset multiplot
