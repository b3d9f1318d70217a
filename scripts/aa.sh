#!/bin/sh
# aa.sh: A/A tests of ecsbench's statistics (docs/method.md, "Comparisons inside a run", and
# docs/trust.md, "A rerun"): runs in which every difference called is false.
#
# Usage: scripts/aa.sh [-c COPIES] [-r] [-b BACKENDS] [-p PROCESSES] [-w WORKLOADS]
#                      [-n ENTITIES] [-k COMPONENTS] DIR
#   DIR        a folder for the runs (created if missing; never results/ or plots/)
#   -c COPIES  copies of each backend in a run, 2..16 (default 2: the backend and one twin)
#   -r         across runs instead: the sweep of every backend in -b, run twice
#   -b LIST    backends (default: hash,tree,vector,sparse,archetype); without -r, a run each
#   -p P       processes per run (default: ecsbench's)
#   -w, -n, -k the sweep (default: create,iterate,churn,add-remove,get,fragmented over
#              N = 1024..16384 and k = 1,2,3: 80 row groups a backend; small rows, quick)
#
# Inside a run (the default): each run measures COPIES copies of one backend (build/ecsbench
# --twin) and nothing else, the same code under other names, so every difference the run calls
# between them is false. For each group size K of 2, 5, 7 and COPIES (at most COPIES), the
# first K copies of each run are taken as a run of K (their samples were interleaved alike), and
# ecsbench-compare --stats counts the groups whose best has a copy and those in which a copy is
# called slower than the best: with ecsbench's intervals (simultaneous 95% for the group), with
# each comparison at 95%, and at 1 - 5%/(K - 1) (Bonferroni over the comparisons with the best
# alone, what ecsbench did before). A line per backend and K, then the total per K.
# Across runs (-r): the same sweep twice from scratch, then ecsbench-compare --repeat: how many
# of the second run's estimates fall inside the first run's prediction intervals (its (d) line),
# and how many rows make compare calls different between two runs of one build (its (e)).
set -eu
copies=2
across=0
backends=hash,tree,vector,sparse,archetype
processes=
workloads=create,iterate,churn,add-remove,get,fragmented
entities=1024..16384
components=1,2,3
usage() {
	echo "usage: scripts/aa.sh [-c COPIES] [-r] [-b BACKENDS] [-p PROCESSES] [-w WORKLOADS] [-n ENTITIES] [-k COMPONENTS] DIR" >&2
	exit 2
}
while getopts c:rb:p:w:n:k: opt; do
	case $opt in
	c) copies=$OPTARG ;;
	r) across=1 ;;
	b) backends=$OPTARG ;;
	p) processes=$OPTARG ;;
	w) workloads=$OPTARG ;;
	n) entities=$OPTARG ;;
	k) components=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
dir=$1
case $copies in '' | *[!0-9]*) usage ;; esac
[ "$copies" -ge 2 ] && [ "$copies" -le 16 ] || usage
cd "$(dirname "$0")/.."
case $(mkdir -p "$dir" && cd "$dir" && pwd -P) in
*/results | */results/* | */plots | */plots/*)
	echo "aa.sh: $dir is under results/ or plots/: give a folder of its own" >&2
	exit 2
	;;
esac
bin=${ECSBENCH:-build/ecsbench}
stats=${ECSBENCH_COMPARE:-build/ecsbench-compare}
[ -x "$bin" ] && [ -x "$stats" ] || { echo "aa.sh: build first (make)" >&2; exit 2; }
sweep() { # sweep OUTPUT ARGS...: the sweep into OUTPUT
	out=$1
	shift
	# shellcheck disable=SC2086
	"$bin" "$@" ${processes:+--processes "$processes"} --workloads "$workloads" \
		--entities "$entities" --components "$components" --output "$out" 2>"${out%.csv}.log" ||
		{ echo "aa.sh: the run into $out failed: $(tail -n 3 "${out%.csv}.log")" >&2; exit 1; }
}

if [ "$across" = 1 ]; then
	for i in 1 2; do
		sweep "$dir/rerun-$i.csv" --backends "$backends"
	done
	"$stats" --repeat "$dir/rerun-1.csv" "$dir/rerun-2.csv" | grep '^(\(d\|e\)) \|^    the between-run'
	exit 0
fi

sizes=$(for k in 2 5 7 "$copies"; do [ "$k" -le "$copies" ] && echo "$k"; done | sort -nu | tr '\n' ' ')
: >"$dir/aa-totals"
for b in $(echo "$backends" | tr ',' ' '); do
	twins=
	i=1
	while [ "$i" -lt "$copies" ]; do
		twins="$twins --twin $b"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	sweep "$dir/aa-$b.csv" --backends "$b" $twins --no-floor
	for k in $sizes; do
		# the first k copies: b, b~2, .., b~k (the samples file is read through the CSV's rows)
		part=$dir/aa-$b-K$k.csv
		awk -F, -v b="$b" -v k="$k" '/^#/ || $1 == "backend" { print; next }
			{ n = $1 == b ? 1 : index($1, b "~") == 1 ? substr($1, length(b) + 2) + 0 : 0 }
			n >= 1 && n <= k' "$dir/aa-$b.csv" >"$part"
		ln -sf "aa-$b-samples.csv" "${part%.csv}-samples.csv"
		line=$("$stats" --stats "$part" | grep '^# A/A')
		# "...: G groups whose best has a copy; in F of them ...; at 95%): P groups ...; (ecsbench before): B groups"
		set -- $(echo "$line" | sed 's/.*: \([0-9]*\) groups whose best.* in \([0-9]*\) of them.*at 95%): \([0-9]*\) groups.*before): \([0-9]*\) groups.*/\1 \2 \3 \4/')
		echo "$b, $k copies: $1 groups; a copy called slower than the best in $2; each at 95%: $3; at 1 - 5%/(K - 1) (before): $4"
		echo "$k $1 $2 $3 $4" >>"$dir/aa-totals"
	done
done
awk '{ g[$1] += $2; w[$1] += $3; p[$1] += $4; o[$1] += $5 } END {
	for (k in g) printf "total, %d copies: %d groups; a copy called slower than the best in %d (%.1f%%); each at 95%%: %d (%.1f%%); at 1 - 5%%/(K - 1) (before): %d (%.1f%%)\n",
		k, g[k], w[k], 100 * w[k] / g[k], p[k], 100 * p[k] / g[k], o[k], 100 * o[k] / g[k] }' "$dir/aa-totals" | sort -t, -k2n
