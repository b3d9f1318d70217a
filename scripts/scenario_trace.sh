#!/bin/sh
# scenario_trace.sh: the per-frame trace of a scenario run, from its samples file (NAME-samples.csv,
# which build/ecsbench --scenario writes beside NAME.csv): frame time against frame number, a line
# per participant (the backends in their colours, the floor dashed), for one process (the first,
# unless -p), on a log scale; the frames in which a backend's storage grew (its largest allocation
# of the frame was at least 64 KiB: SCENARIO_GROWTH_BYTES, harness/scenario/scenario_engine.h)
# ringed; for a storage that allocates in fewer than a tenth of its frames, the other frames in
# which it allocated (a small new table) marked by a triangle; 16.6 ms (a 60 Hz frame's budget)
# drawn when the frames reach a tenth of it. A sweep's
# samples: the last point (-x VALUE: another).
#
# Usage: scripts/scenario_trace.sh [-v] [-o PLOTS_DIR] [-p PROCESS] [-x SWEEP_VALUE] SAMPLES_CSV
#   -o  where the PNG goes (default: the file's folder); its name: NAME-trace.png
#   -v  show what gnuplot says on stderr
# Prints the PNG's path. Exit status 2 on bad usage or a file it cannot read.
set -eu

usage() {
	echo "usage: scripts/scenario_trace.sh [-v] [-o PLOTS_DIR] [-p PROCESS] [-x SWEEP_VALUE] SAMPLES_CSV" >&2
	exit 2
}
plots=
verbose=0
process=1
point=
while getopts o:p:x:vh opt; do
	case "$opt" in
	v) verbose=1 ;;
	o) plots=$OPTARG ;;
	p) process=$OPTARG ;;
	x) point=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
samples=$1
case $process in '' | *[!0-9]*) echo "scenario_trace.sh: -p '$process' is not a process number" >&2; exit 2 ;; esac
[ -r "$samples" ] || { echo "scenario_trace.sh: cannot read $samples" >&2; exit 2; }
grep -q '^scenario,sweep_value,backend,process,round,frame_ns,.*,largest_alloc_bytes$' "$samples" ||
	{ echo "scenario_trace.sh: $samples is not a scenario samples file with largest_alloc_bytes (build/ecsbench --scenario writes NAME-samples.csv)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 ||
	{ echo "scenario_trace.sh: gnuplot is not installed (make deps-plots)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$plots" ] || plots=$(dirname "$samples")
mkdir -p "$plots"
name=$(basename "$samples" .csv)
name=${name%-samples}
final="$plots/$name-trace.png"
out="$final.tmp.$$"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scenario_trace.XXXXXX")
trap 'rm -rf "$tmp" "$out"' EXIT

header() { sed -n "s/^# $1 //p" "$samples" | head -n 1; }
gp_quote() { printf '%s' "$1" | sed "s/'/''/g"; }
source="run: commit $(header "ecsbench commit"), $(header "date"), $(header "cpu" | cut -d';' -f1)"
processes=$(header "processes" | sed 's/,.*//')

# Backends in --list order (their colours), then the floor; the harness alone is left out.
listed=$("$top/build/ecsbench" --list 2>/dev/null |
	awk '/^[a-z]/ { on = $1 == "backends:"; next } on { print $1 }' || true)
# Per participant a file "round,frame_ns,growth frame's ns or NaN,allocating frame's ns or NaN"
# (written only for a storage that allocates in fewer than a tenth of its frames); stats: the point drawn, the
# largest frame, how many growth frames each backend has in this process.
grep -v '^#' "$samples" | awk -F, -v dir="$tmp" -v proc="$process" -v want="$point" '
	NR == 1 { n = NF; next }
	{ line[NR] = $0; last = $2; seen[$2] = 1 }
	END {
		if (want == "") want = last
		if (!(want in seen)) { print "no sweep value " want > "/dev/stderr"; exit 3 }
		for (i = 2; i <= NR; i++) {
			split(line[i], f, ",")
			if (f[2] != want || f[4] != proc || f[3] == "harness") continue
			b = f[3]
			if (!(b in has)) { has[b] = 1; names[++m] = b }
			g = f[n] + 0 >= 65536
			growth[b] += g
			frames[b]++; allocs[b] += f[n - 1] + 0 > 0
			row[b, frames[b]] = f[5] "," f[6] "," (g ? f[6] : "NaN") "," (f[n - 1] + 0 > 0 && !g ? f[6] : "NaN")
			# (the axis is a log scale: its range from positive times alone)
			if (f[6] + 0 > ymax) ymax = f[6] + 0
			if (f[6] + 0 > 0 && (ymin == "" || f[6] + 0 < ymin)) ymin = f[6] + 0
		}
		if (!m) { print "no frame of process " proc > "/dev/stderr"; exit 4 }
		# the frames that allocate, marked only for a storage whose frames mostly do not
		for (k = 1; k <= m; k++) {
			b = names[k]; rare = allocs[b] * 10 < frames[b]
			for (i = 1; i <= frames[b]; i++) {
				r = row[b, i]
				if (!rare) sub(/,[^,]*$/, ",NaN", r)
				print r > (dir "/" b ".dat")
			}
		}
		if (ymin == "") { ymin = 1; ymax = 10 }  # no positive frame at all: a decade from 1 ns
		if (ymax <= ymin) ymax = ymin * 10
		printf "%s|%.6g|%.6g\n", want, ymin, ymax > (dir "/range")
		for (k = 1; k <= m; k++) printf "%s %d\n", names[k], growth[names[k]] > (dir "/growth")
	}' || { echo "scenario_trace.sh: $samples: nothing to draw (see above)" >&2; exit 2; }
IFS='|' read -r value ymin ymax <"$tmp/range"
backends=
styles=
growth_text=
n=0
for b in $listed; do
	n=$((n + 1))
	[ -s "$tmp/$b.dat" ] || continue
	backends="$backends $b"
	styles="$styles $n"
	growth_text="$growth_text$(awk -v b="$b" '$1 == b { printf "%s%s %d", sep, b, $2 }' "$tmp/growth"), "
done
growth_text=${growth_text%, }
# the backends with a frame to ring (grew) or mark with a triangle (allocated): a series of
# none would draw nothing and gnuplot warn
# (each "b " from an awk that reads the series: a loop of tests would end the script under set -e)
marked() { for b in $backends; do awk -F, -v c="$1" -v b="$b" '$c != "NaN" { printf "%s ", b; exit }' "$tmp/$b.dat"; done; }
grew=" $(marked 3)"
allocated=" $(marked 4)"
backends=${backends# }
styles=${styles# }
[ -n "$backends" ] || { echo "scenario_trace.sh: $samples: no backend this build knows" >&2; exit 2; }
what="$name"
[ -z "$value" ] || what="$name at $(sed -n 's/^# sweep \([^:]*\):.*/\1/p' "$samples" | head -n 1) = $value"

gp_out=$tmp/gnuplot.err
if ! gnuplot -e "scripts='$top/scripts'; out='$(gp_quote "$out")'; dir='$tmp'; \
	backends='$backends'; styles='$styles'; grew='$grew'; allocated='$allocated'; \
	ymin=$ymin; ymax=$ymax; process=$process; \
	processes='$(gp_quote "$processes")'; name='$(gp_quote "$what")'; \
	growth='$(gp_quote "$growth_text")'; floor=$([ -s "$tmp/floor.dat" ] && echo 1 || echo 0); \
	source='$(gp_quote "$source")'" "$top/scripts/scenario_trace.gp" 2>"$gp_out"; then
	cat "$gp_out" >&2
	echo "scenario_trace.sh: gnuplot failed drawing $final" >&2
	exit 1
fi
[ "$verbose" -eq 0 ] || cat "$gp_out" >&2
if ! [ -s "$out" ] || [ "$(tail -c 8 "$out" | od -An -tx1 | tr -d ' \n')" != 49454e44ae426082 ]; then
	echo "scenario_trace.sh: cannot write $final (a full disk?); the figure was not replaced" >&2
	exit 1
fi
mv -f "$out" "$final"
echo "$final"
