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
# --twin) and nothing else, the same code under other names, raced as any run races its
# backends (docs/method.md, "The race"), so every difference the run calls between them is
# false. A group calls one when a copy left the race (or was screened) while another is still in
# it: the line per backend and the total count those groups.
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
	# per group (workload, N, k, T): a copy left (vs_best slower) while another is still in
	awk -F, -v b="$b" -v k="$copies" '
		/^#/ { next }
		$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			g = $c["workload"] "," $c["entities"] "," $c["components"] "," $c["threads"]
			if (!(g in seen)) { seen[g] = 1; order[++n] = g }
			if ($c["vs_best"] == "slower") out[g]++; else in_[g]++
		}
		END {
			for (i = 1; i <= n; i++) { g = order[i]; called += out[g] > 0 && in_[g] > 0 }
			printf "%s, %d copies: %d groups; a copy called slower than the best in %d\n", b, k, n, called
		}' "$dir/aa-$b.csv" | tee -a "$dir/aa-totals"
done
awk -F'[ ,;]+' '{ for (i = 1; i <= NF; i++) { if ($i == "groups") g += $(i - 1); if ($i == "in") w += $(i + 1) } }
	END { printf "total, %d copies: %d groups; a copy called slower than the best in %d (%.1f%%)\n",
		'"$copies"', g, w, g ? 100 * w / g : 0 }' "$dir/aa-totals"
