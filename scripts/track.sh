#!/bin/sh
# track.sh: what `make track` runs. Appends a run's medians and intervals to the history of the
# machine that measured it, keyed by commit and date, with each row's verdict against the run
# tracked before it (build/ecsbench-compare, drift-aware as make compare's: faster, slower,
# same, undecided), so that `make history` (scripts/history.sh) can draw the series.
#
# Usage: scripts/track.sh [-d DIR] CSV
#   DIR  default results/history. The history of a machine is DIR/FINGERPRINT.csv; the runs it
#        holds are kept whole in DIR/FINGERPRINT/ (the CSV and its samples), so that the next run
#        is compared with the last one by its samples, not its medians alone.
# The fingerprint names the machine, not its host (a host name is reused by another machine, and
# one machine has several): the first 12 hex digits of the SHA-256 of its CPU model and count (as
# the CSV's `# cpu` line names them), its caches (/sys/devices/system/cpu/cpu0/cache) and its
# memory in GiB; DIR/FINGERPRINT.csv's first line says it in words. A CSV whose CPU is not this
# machine's is refused: run make track where it was measured.
# A run already in the history (the same CSV) is refused, nothing changed. The history
# is rewritten through a temporary file under its lock (scripts/lock.sh).
# Exit status: 0 appended; 1 a failure (nothing changed); 2 bad usage or a CSV it refuses.
set -eu
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/track.sh [-d DIR] CSV" >&2; exit 2; }
dir=results/history
while getopts d:h opt; do
	case "$opt" in d) dir=$OPTARG ;; *) usage ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
csv=$1
[ -r "$csv" ] || { echo "track.sh: cannot read '$csv': run make bench first (or give CSV=)" >&2; exit 2; }
head_line=$(grep -v '^#' "$csv" | head -n 1)
case "$head_line" in backend,*) ;; *)
	echo "track.sh: '$csv' is not a CSV of the workload sweep (make bench PROFILE=...): no 'backend,' header" >&2; exit 2 ;;
esac
samples=${csv%.csv}-samples.csv
[ -r "$samples" ] || { echo "track.sh: no samples file '$samples' beside '$csv': the comparison with the next run needs it" >&2; exit 2; }
commit=$(sed -n 's/^# ecsbench commit //p' "$csv" | head -n 1)
date=$(sed -n 's/^# date //p' "$csv" | head -n 1)
cpu_line=$(sed -n 's/^# cpu //p' "$csv" | head -n 1)
[ -n "$commit" ] && [ -n "$date" ] && [ -n "$cpu_line" ] ||
	{ echo "track.sh: '$csv' lacks its '# ecsbench commit', '# date' or '# cpu' line" >&2; exit 2; }
model=${cpu_line%%;*}
cpus=$(echo "$cpu_line" | awk -F'; ' '{ print $2 }' | sed 's/ online//')
here=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$here" ] || here=unknown
if [ "$here" != "$model" ]; then
	echo "track.sh: '$csv' was measured on a CPU '$model', this machine's is '$here': run make track on the machine that measured it" >&2
	exit 2
fi
caches=$(for c in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$c/size" ] && printf 'L%s %s %s, ' "$(cat "$c/level")" "$(cat "$c/type")" "$(cat "$c/size")"
done | sed 's/, $//')
memory=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
machine="cpu $model, $cpus CPUs; caches ${caches:-unknown}; memory ${memory:-unknown}"
fp=$(printf '%s' "$machine" | sha256sum | cut -c 1-12)
history=$dir/$fp.csv
mkdir -p "$dir/$fp"

if [ -z "${TRACK_LOCKED:-}" ]; then
	TRACK_LOCKED=1 exec scripts/lock.sh "$history" "make track" "$0" -d "$dir" "$csv"
fi

header="run,commit,date,backend,profile,workload,history,entities,components,threads,median_ns,ci_low_ns,ci_high_ns,ns_per_entity,ratio_to_floor,vs_previous,drift"
if [ -s "$history" ]; then
	[ "$(grep -v '^#' "$history" | head -n 1)" = "$header" ] ||
		{ echo "track.sh: $history has other columns; move it away first" >&2; exit 1; }
fi
# The run's key: its date and commit; a second run of that commit within the same second gets
# -2, -3, ...; the very same CSV again is refused.
run=$(echo "$date" | tr -d ':-')-$commit
base=$run i=1
while [ -e "$dir/$fp/$run.csv" ]; do
	if cmp -s "$dir/$fp/$run.csv" "$csv"; then
		echo "track.sh: $csv (commit $commit, $date) is already in $history; nothing changed" >&2
		exit 2
	fi
	i=$((i + 1)) run=$base-$i
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The verdicts against the run tracked last, as make compare chooses them (scripts/compare.sh):
# without the drift where ecsbench-compare says to read those and both runs name the same CPU
# and compiler line, else the raw ones.
previous=$(grep -v '^#' "$history" 2>/dev/null | tail -n +2 | tail -n 1 | cut -d, -f1)
: >"$tmp/verdicts.csv"
drift=
if [ -n "$previous" ] && [ -r "$dir/$fp/$previous.csv" ]; then
	# --rows: the full report, whose lines (not the screen's, which wraps) are read below
	if build/ecsbench-compare "$dir/$fp/$previous.csv" "$csv" --rows --output "$tmp/verdicts.csv" >"$tmp/compare.txt" 2>&1; then
		col=verdict
		if grep -q 'read the verdicts without drift' "$tmp/compare.txt" &&
			[ "$(sed -n 's/^# cpu \([^;]*; [^;]*\).*/\1/p' "$dir/$fp/$previous.csv")" = "$(sed -n 's/^# cpu \([^;]*; [^;]*\).*/\1/p' "$csv")" ] &&
			[ "$(grep '^# compiler' "$dir/$fp/$previous.csv")" = "$(grep '^# compiler' "$csv")" ]; then
			col=verdict_without_drift
		fi
		drift=$(sed -n 's/^# drift \([0-9.e+-]*\) .*/\1/p' "$tmp/verdicts.csv" | head -n 1)
		echo "track.sh: against $previous: $(grep '^Verdicts' "$tmp/compare.txt" | head -n 1) ($col)" >&2
	else
		echo "track.sh: ecsbench-compare could not compare with $previous ($(tail -n 1 "$tmp/compare.txt")): no verdicts this time" >&2
		: >"$tmp/verdicts.csv"
	fi
fi

{
	if [ -s "$history" ]; then cat "$history"; else
		echo "# ecsbench history of machine $fp: $machine"
		echo "# a row per tracked run x CSV row (make track); vs_previous: make compare's verdict against the run tracked before it (first: none before; new: a row it lacks); drift: that comparison's median new/old"
		echo "$header"
	fi
	awk -F, -v run="$run" -v commit="$commit" -v date="$date" -v col="${col:-verdict}" -v drift="$drift" \
		-v have="$([ -s "$tmp/verdicts.csv" ] && echo 1 || echo 0)" -v vfile="$tmp/verdicts.csv" '
		{ file = FILENAME == vfile ? 1 : 2 }
		/^#/ || !NF { next }
		file == 1 && !vh { for (i = 1; i <= NF; i++) v[$i] = i; vh = 1; next }
		file == 1 { verdict[$(v["backend"]) "," $(v["workload"]) "," $(v["entities"]) "," $(v["components"]) "," $(v["threads"])] = $(v[col]); next }
		!ch { for (i = 1; i <= NF; i++) c[$i] = i; ch = 1; next }
		{
			key = $(c["backend"]) "," $(c["workload"]) "," $(c["entities"]) "," $(c["components"]) "," $(c["threads"])
			vs = !have ? "first" : (key in verdict) ? verdict[key] : "new"
			print run "," commit "," date "," $(c["backend"]) "," $(c["profile"]) "," $(c["workload"]) "," \
				$(c["history"]) "," $(c["entities"]) "," $(c["components"]) "," $(c["threads"]) "," \
				$(c["median_ns"]) "," $(c["ci_low_ns"]) "," $(c["ci_high_ns"]) "," $(c["ns_per_entity"]) "," \
				$(c["ratio_to_floor"]) "," vs "," drift
		}' "$tmp/verdicts.csv" "$csv"
} >"$tmp/history.csv"
cp "$csv" "$dir/$fp/$run.csv.tmp" && cp "$samples" "$dir/$fp/$run-samples.csv.tmp" &&
	mv "$dir/$fp/$run.csv.tmp" "$dir/$fp/$run.csv" && mv "$dir/$fp/$run-samples.csv.tmp" "$dir/$fp/$run-samples.csv" &&
	cp "$tmp/history.csv" "$history.tmp.$$" && mv "$history.tmp.$$" "$history" || {
	rm -f "$dir/$fp/$run.csv.tmp" "$dir/$fp/$run-samples.csv.tmp" "$history.tmp.$$"
	echo "track.sh: could not write $history; it was left as it was" >&2
	exit 1
}
rows=$(grep -v '^#' "$csv" | tail -n +2 | grep -c .)
echo "track.sh: appended $rows rows of $csv (commit $commit, $date) to $history (machine $fp: $machine)" >&2
