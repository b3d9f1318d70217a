#!/bin/sh
# flags.sh: how the compiler's flags move the figures. Builds ecsbench three times (-O2; -O3;
# -O3 -march=native, the default), runs the same short sweep with each into OUT/<variant>.csv,
# and prints each backend's ratio_to_floor side by side: the floor is the same work over plain
# arrays, so what the flags do to it and to each backend shows in one table.
#
# Usage: scripts/flags.sh [-o OUT] [-p PROFILE] [-n ENTITIES] [-w WORKLOADS] [-k COMPONENTS]
#                         [-H HISTORIES]
#   defaults: OUT=results/flags, A, 1024,65536,1048576, iterate,fragmented,create,get, 2, lived-in
# Leaves build/ecsbench built with the default flags again.
set -eu

out=results/flags
profile=A
entities=1024,65536,1048576
workloads=iterate,fragmented,create,get
components=2
histories=lived-in
while getopts o:p:n:w:k:H:h opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	p) profile=$OPTARG ;;
	n) entities=$OPTARG ;;
	w) workloads=$OPTARG ;;
	k) components=$OPTARG ;;
	H) histories=$OPTARG ;;
	*) echo "usage: scripts/flags.sh [-o OUT] [-p PROFILE] [-n ENTITIES] [-w WORKLOADS] [-k K] [-H HISTORIES]" >&2
		exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
mkdir -p "$out" build/flags

build() { # build NAME OPT...
	name=$1
	shift
	make -s build/ecsbench OPT="$*" >/dev/null
	cp build/ecsbench "build/flags/ecsbench-$name"
}
build O2 -O2
build O3 -O3
# the Makefile's default: the one it chooses when OPT is not given
make -s build/ecsbench >/dev/null
cp build/ecsbench build/flags/ecsbench-native

for v in O2 O3 native; do
	echo "flags.sh: $v" >&2
	"build/flags/ecsbench-$v" --profile "$profile" --workloads "$workloads" --entities "$entities" \
		--components "$components" --history "$histories" --output "$out/$v.csv"
done

# ratio_to_floor per backend, workload and N, one column per variant
for v in O2 O3 native; do
	grep -v '^#' "$out/$v.csv" | awk -F, -v v="$v" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["ratio_to_floor"] != "" {
			# the workload named with its history, as the figures name it
			w = $c["workload"]; h = $c["history"]
			if (h != "lived-in" && h != "-" && h != "") w = w "-" h
			printf "%s %s %s %s %s %s\n", w, $c["entities"], $c["backend"], v,
				$c["ratio_to_floor"], $c["ns_per_entity"] }'
done | awk '
	{ key = $1 " " $2 " " $3; if (!(key in seen)) { order[++n] = key; seen[key] = 1 }
	  r[key, $4] = $5; t[key, $4] = $6 }
	END {
		printf "| workload | N | backend | -O2 | -O3 | -O3 -march=native |\n"
		printf "| --- | ---: | --- | ---: | ---: | ---: |\n"
		for (i = 1; i <= n; i++) {
			split(order[i], f, " ")
			printf "| %s | %s | %s | %s (%s ns) | %s (%s ns) | %s (%s ns) |\n", f[1], f[2], f[3],
				r[order[i], "O2"], t[order[i], "O2"], r[order[i], "O3"], t[order[i], "O3"],
				r[order[i], "native"], t[order[i], "native"]
		}
	}' | tee "$out/table.md"
echo "(ratio_to_floor, and ns per entity in brackets; written to $out/table.md)" >&2
