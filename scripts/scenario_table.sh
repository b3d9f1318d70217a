#!/bin/sh
# scenario_table.sh: a scenario run's CSV (build/ecsbench --scenario) as Markdown tables, for a
# note or the README: per point, a row per participant, fastest first (the floor and the harness
# alone last), with its time per frame (median and 95% interval), its ratio to the fastest
# backend (paired by process and frame, with its interval), the phases that take most of its
# frame, its storage's peak memory and its allocations per frame.
#
# Usage: scripts/scenario_table.sh CSV [PHASES]   (PHASES: how many phases to name, default 3)
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/scenario_table.sh CSV [PHASES]" >&2; exit 2; }
csv=$1
top=${2:-3}
[ -r "$csv" ] || { echo "scenario_table.sh: cannot read $csv" >&2; exit 2; }
grep -q '^scenario,sweep_key,' "$csv" ||
	{ echo "scenario_table.sh: $csv is not a scenario CSV (build/ecsbench --scenario)" >&2; exit 2; }
grep -v '^#' "$csv" | awk -F, -v top="$top" '
function ms(ns) { return ns >= 1e6 ? sprintf("%.2f ms", ns / 1e6) : sprintf("%.0f µs", ns / 1e3) }
function mib(b) { return b >= 1048576 ? sprintf("%.1f MiB", b / 1048576) : sprintf("%.0f KiB", b / 1024) }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	p = $c["sweep_value"]; b = $c["backend"]
	if (!(p in seen)) { seen[p] = 1; points[++np] = p; key = $c["sweep_key"] }
	if ($c["phase"] == "frame") {
		n = ++count[p]; who[p, n] = b
		med[p, b] = $c["median_ns"]; lo[p, b] = $c["ci_low_ns"]; hi[p, b] = $c["ci_high_ns"]
		r[p, b] = $c["ratio_to_best"]; rl[p, b] = $c["ratio_ci_low"]; rh[p, b] = $c["ratio_ci_high"]
		peak[p, b] = $c["peak_bytes"]; alloc[p, b] = $c["allocations_per_frame"]
		next
	}
	nph[p, b]++; ph[p, b, nph[p, b]] = $c["phase"]; phv[p, b, nph[p, b]] = $c["median_ns"]
}
END {
	for (k = 1; k <= np; k++) {
		p = points[k]
		if (key != "") printf "\n%s = %s\n\n", key, p
		print "| participant | ns per frame (median) | 95% interval | ratio to the fastest [95%] | most of its frame | peak memory | allocations per frame |"
		print "| --- | --- | --- | --- | --- | --- | --- |"
		# fastest first; the floor and the harness after the backends
		m = 0
		for (i = 1; i <= count[p]; i++) { x = who[p, i]; if (x != "floor" && x != "harness") order[++m] = x }
		for (i = 2; i <= m; i++) for (j = i; j > 1 && med[p, order[j]] + 0 < med[p, order[j - 1]] + 0; j--) {
			t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
		}
		for (i = 1; i <= count[p]; i++) { x = who[p, i]; if (x == "floor" || x == "harness") order[++m] = x }
		for (i = 1; i <= m; i++) {
			x = order[i]
			# its largest phases
			parts = ""
			delete used
			for (t = 1; t <= top; t++) {
				best = 0
				for (j = 1; j <= nph[p, x]; j++) if (!(j in used) && (best == 0 || phv[p, x, j] + 0 > phv[p, x, best] + 0)) best = j
				if (best == 0 || phv[p, x, best] + 0 <= 0) break
				used[best] = 1
				parts = parts (parts == "" ? "" : ", ") sprintf("%s %.0f%%", ph[p, x, best], 100 * phv[p, x, best] / med[p, x])
			}
			ratio = r[p, x] == "" ? "" : sprintf("%.2f [%.2f, %.2f]", r[p, x], rl[p, x], rh[p, x])
			interval = lo[p, x] == "" ? "" : ms(lo[p, x]) " .. " ms(hi[p, x])
			mem = (x == "floor" || x == "harness") ? "(its own arrays) " mib(peak[p, x]) : mib(peak[p, x])
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", x, ms(med[p, x]), interval, ratio, parts, mem, \
				(x == "floor" || x == "harness") ? "" : alloc[p, x]
		}
	}
}'
sed -n 's/^# crossover /crossover: /p' "$csv"
