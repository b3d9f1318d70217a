#!/bin/sh
# race.sh: the proof of the race (docs/method.md, "The race"; issue 41's goals) in runs of the
# default sweep's largest N: twins (a backend registered twice, the same code) are never to be
# named faster than each other, and a backend made slower on purpose (a spin inside its timed
# samples: --twin B:F) is to be called slower.
#
#   scripts/studies/race.sh run DIR [RUNS]   RUNS runs (default 10), each build/ecsbench --profile
#                                            AAA --entities 262144 --components 2 with --twin
#                                            archetype --twin sparse --twin sparse:1.1 --twin
#                                            sparse:1.25, into DIR/run-N.csv, one at a time under
#                                            flock /tmp/bench.lock
#   scripts/studies/race.sh count DIR        the counts, from every DIR/run-*.csv
#
# Counted over the one-thread row groups of every run (parallel-iterate aside): twins called
# different (one of a pair still in the race, the other left or screened: archetype~2 and
# archetype, sparse~2 and sparse); the slowed copies called slower than sparse where sparse is
# still in the race at the end (a copy that left while sparse is in); and the groups decided.
# Extra arguments after the run's count go to build/ecsbench (--budget 10m, say).
set -eu
cd "$(dirname "$0")/../.."
bin=${ECSBENCH:-build/ecsbench}
[ $# -ge 2 ] || { echo "usage: scripts/studies/race.sh run DIR [RUNS [ECSBENCH OPTIONS...]] | count DIR" >&2; exit 2; }
what=$1 dir=$2
shift 2
case $what in
run)
	runs=${1:-10}
	[ $# -eq 0 ] || shift
	mkdir -p "$dir"
	i=1
	while [ "$i" -le "$runs" ]; do
		out=$dir/run-$i.csv
		if [ ! -s "$out" ]; then
			start=$(date +%s)
			flock /tmp/bench.lock "$bin" --profile AAA --entities 262144 --components 2 \
				--twin archetype --twin sparse --twin sparse:1.1 --twin sparse:1.25 "$@" \
				--output "$out" 2>"$dir/run-$i.log" || { echo "race.sh: run $i failed: $(tail -n 2 "$dir/run-$i.log")" >&2; exit 1; }
			echo "race.sh: run $i: $(($(date +%s) - start)) s; $(grep -o 'other work took [0-9.]*% of the measuring CPU[^;]*' "$out" | head -n 1)"
		fi
		i=$((i + 1))
	done
	;;
count)
	for f in "$dir"/run-*.csv; do
		case $f in *-samples.csv) continue ;; esac
		grep -v '^#' "$f" | awk -F, -v run="$f" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["workload"] == "parallel-iterate" || $c["backend"] == "floor" { next }
			{
				g = $c["workload"]
				st[g, $c["backend"]] = $c["race"]; d[g] = $c["decision"]; seen[g] = 1
			}
			END {
				for (g in seen) {
					groups++
					decided += d[g] != "open"
					for (p = 0; p < 2; p++) {
						a = p ? "sparse" : "archetype"; b = a "~2"
						if (!((g, a) in st) || !((g, b) in st)) continue
						pairs++
						if ((st[g, a] == "in") != (st[g, b] == "in")) { different++; print "  twins different: " g " " a " " st[g, a] ", " b " " st[g, b] > "/dev/stderr" }
					}
					if (st[g, "sparse"] == "in") {
						for (q = 0; q < 2; q++) {
							x = q ? "sparse~x1.25" : "sparse~x1.1"
							if (!((g, x) in st)) continue
							tried[q]++
							found[q] += st[g, x] != "in"
						}
					}
				}
				printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", run, groups, decided, pairs, different,
					tried[0], found[0], tried[1], found[1]
			}'
	done | awk -F'\t' '
		{ n++; groups += $2; decided += $3; pairs += $4; diff += $5; t10 += $6; f10 += $7; t25 += $8; f25 += $9 }
		END {
			printf "%d runs: %d of %d one-thread row groups decided; twins called different in %d of %d pairs (%.1f%%)\n",
				n, decided, groups, diff, pairs, pairs ? 100 * diff / pairs : 0
			printf "sparse made 1.10x slower: called slower in %d of %d groups where sparse raced to the end; 1.25x: %d of %d\n",
				f10, t10, f25, t25
		}'
	;;
*)
	echo "usage: scripts/studies/race.sh run DIR [RUNS] | count DIR" >&2
	exit 2
	;;
esac
