#!/bin/sh
# aa.sh: the A/A test of ecsbench's statistics (docs/method.md, "Comparisons inside a run").
#
# Usage: scripts/aa.sh [-c COPIES] [-b BACKENDS] [-p PROCESSES] DIR
#   DIR        a folder for the runs (created if missing; never results/ or plots/)
#   -c COPIES  copies of each backend in a run, 2..16 (default 2: the backend and one twin)
#   -b LIST    backends, one run each (default: hash,tree,vector,sparse,archetype)
#   -p P       processes per run (default: ecsbench's)
#
# Each run measures COPIES copies of one backend (build/ecsbench --twin) and nothing else: the
# same code under different names, so every difference the run calls between them is false.
# Per run and in total: the groups whose best has a copy, and in how many a copy is called
# slower than the best (ecsbench-compare --stats), with the correction for choosing the best
# from the same samples and without it. Small rows (N = 2^10..2^14, every swept workload but
# parallel-iterate): 80 row groups a run.
set -eu
copies=2
backends=hash,tree,vector,sparse,archetype
processes=
usage() {
	echo "usage: scripts/aa.sh [-c COPIES] [-b BACKENDS] [-p PROCESSES] DIR" >&2
	exit 2
}
while getopts c:b:p: opt; do
	case $opt in
	c) copies=$OPTARG ;;
	b) backends=$OPTARG ;;
	p) processes=$OPTARG ;;
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
bin=build/ecsbench
stats=build/ecsbench-compare
[ -x "$bin" ] && [ -x "$stats" ] || { echo "aa.sh: build first (make)" >&2; exit 2; }
groups=0 wrong=0 plain=0
for b in $(echo "$backends" | tr ',' ' '); do
	twins=
	i=1
	while [ "$i" -lt "$copies" ]; do
		twins="$twins --twin $b"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	"$bin" --backends "$b" $twins --no-floor ${processes:+--processes "$processes"} \
		--workloads create,iterate,churn,add-remove,get,fragmented \
		--entities 1024..16384 --components 1,2,3 --output "$dir/aa-$b.csv" 2>"$dir/aa-$b.log"
	line=$("$stats" --stats "$dir/aa-$b.csv" | grep '^# A/A')
	echo "$b: ${line#\# }"
	# "...: G groups whose best has a copy; in F of them ...; without the correction ...: P groups"
	set -- $(echo "$line" | sed 's/.*: \([0-9]*\) groups whose best.* in \([0-9]*\) of them.*at 95%): \([0-9]*\) groups.*/\1 \2 \3/')
	groups=$((groups + $1)) wrong=$((wrong + $2)) plain=$((plain + $3))
done
awk -v g="$groups" -v w="$wrong" -v p="$plain" -v c="$copies" 'BEGIN {
	printf "total, %d copies of each backend: %d groups; a copy called slower than the best in %d (%.1f%%); without the correction, %d (%.1f%%)\n",
		c, g, w, 100 * w / g, p, 100 * p / g }'
