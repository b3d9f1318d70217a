#!/bin/sh
# indirect.sh: does one indirect call per lookup matter at N = 2^20? (issue 33; the figures of
# docs/backends.md, "Random access"). Builds scripts/studies/indirect.c with the flags of the
# build make bench times (build/.flags) into build/studies/indirect and runs it in PROCESSES separate processes
# (fresh layouts, as the harness's), each ROUNDS rounds of the four variants interleaved
# (indirect.c says what each is). Prints, per variant, the median over the processes of their
# medians, the range over the processes, and the ratio to inline (the floor) from the same
# processes.
#
# Usage: scripts/studies/indirect.sh [N [K [PROCESSES [ROUNDS]]]]   (default 1048576 2 5 15)
# Run it under flock /tmp/bench.lock on a shared machine, as every timed run.
set -eu
cd "$(dirname "$0")/../.."
n=${1:-1048576} k=${2:-2} processes=${3:-5} rounds=${4:-15}
mkdir -p build/studies
make -s build/.flags >/dev/null
opt=$(sed 's/^[^ ]* //' build/.flags)
# shellcheck disable=SC2086 # $opt: flags, split on purpose
${CC:-gcc} -std=c11 -D_GNU_SOURCE -Wall -Wextra $opt -o build/studies/indirect scripts/studies/indirect.c
echo "indirect.sh: N=$n k=$k, $processes processes x $rounds rounds; flags $opt; $(uptime | sed 's/.*load/load/')" >&2
p=1
while [ "$p" -le "$processes" ]; do
	build/studies/indirect "$n" "$k" "$rounds" "$p" | sed "s/^/$p /"
	p=$((p + 1))
done | awk '
	{ t[$2, $1] = $3; sum[$2, $1] = $4; if (!($2 in seen)) { seen[$2] = 1; names[++nv] = $2 } procs[$1] = 1 }
	function median(a, n,    i, j, x) {
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		np = 0; for (p in procs) np++
		printf "%-8s %10s %18s %10s %18s\n", "variant", "ns/entity", "[min-max procs]", "x inline", "[min-max procs]"
		for (v = 1; v <= nv; v++) {
			name = names[v]; n = 0; m = 0
			for (p in procs) { a[++n] = t[name, p]; r[++m] = t[name, p] / t["inline", p]
				if (sum[name, p] != sum["inline", p]) bad = bad " " name "/" p }
			lo = a[1]; hi = a[1]; rlo = r[1]; rhi = r[1]
			for (i = 1; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i]; if (r[i] < rlo) rlo = r[i]; if (r[i] > rhi) rhi = r[i] }
			printf "%-8s %10.2f   [%6.2f-%6.2f] %10.2f   [%5.2f-%5.2f]\n", name, median(a, n), lo, hi, median(r, m), rlo, rhi
		}
		if (bad != "") { print "indirect.sh: sums differ from inline:" bad; exit 1 }
	}'
