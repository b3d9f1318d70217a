#!/bin/sh
# compare.sh OLD.csv NEW.csv: per row (backend, profile, workload, entities, components) found in
# both, the ratio NEW/OLD of the median time, and whether it is larger than the noise: a change
# counts only when it exceeds twice the larger median absolute deviation of the two rows (and 1%).
# Then the repeatability of rows with at least 16384 entities (seed 001's workloads included):
# how many medians are within 5% of each other, as they are (every row, floor included), and
# relative to their row group (each backend row's median over the geometric mean of its group's
# backends, floor left out: backends against each other in the same run, the way the tool means
# results to be read). Ends with the geometric mean of the
# ratios per backend, and per backend and workload.
set -eu
old=${1:-}
new=${2:-}
if [ -z "$old" ] || [ -z "$new" ]; then
	echo "usage: compare.sh OLD.csv NEW.csv   (or make compare OLD=... NEW=...)" >&2
	exit 2
fi
for f in "$old" "$new"; do
	[ -r "$f" ] || { echo "compare.sh: cannot read '$f'" >&2; exit 2; }
done
tmp=$(mktemp "${TMPDIR:-/tmp}/compare.XXXXXX")
trap 'rm -f "$tmp"' EXIT
grep -v '^#' "$old" | sed 's/^/O,/' >"$tmp"
grep -v '^#' "$new" | sed 's/^/N,/' >>"$tmp"
awk -F, '
function key() { return $(c["backend"]) "," $(c["profile"]) "," $(c["workload"]) "," $(c["entities"]) "," $(c["components"]) }
$2 == "backend" { delete c; for (i = 2; i <= NF; i++) c[$i] = i; next }
$1 == "O" { k = key(); om[k] = $(c["median_ns"]); od[k] = $(c["mad_pct"]); next }
$1 == "N" {
	k = key()
	if (!(k in om)) { only_new++; next }
	seen[k] = 1
	nm[k] = $(c["median_ns"]); nd[k] = $(c["mad_pct"])
	order[++n] = k
}
END {
	printf "%-10s %-8s %-22s %9s %2s %14s %14s %7s  %s\n", "backend", "profile", "workload", "entities", "k", "old ns/run", "new ns/run", "ratio", "verdict"
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, f, ",")
		if (om[k] <= 0 || nm[k] <= 0) continue
		r = nm[k] / om[k]
		noise = 2 * (od[k] > nd[k] ? od[k] : nd[k]) / 100
		if (noise < 0.01) noise = 0.01
		verdict = (r > 1 + noise) ? "slower" : (r < 1 / (1 + noise)) ? "faster" : "within noise"
		printf "%-10s %-8s %-22s %9d %2d %14d %14d %7.3f  %s (noise %.1f%%)\n", f[1], f[2], f[3], f[4], f[5], om[k], nm[k], r, verdict, noise * 100
		if (!(f[1] in nb)) border[++nbk] = f[1]
		lb[f[1]] += log(r); nb[f[1]]++
		bw = f[1] " " f[3]
		if (!(bw in nw)) bworder[++nbw] = bw
		lw[bw] += log(r); nw[bw]++
		if (f[4] >= 16384) {
			big++; if (r >= 0.95 && r <= 1 / 0.95) big_ok++
			g = f[2] "," f[3] "," f[4] "," f[5]
			if (f[1] != "floor") { glo[g] += log(om[k]); gln[g] += log(nm[k]); gn[g]++ }
		}
		if (verdict == "slower") slower++; else if (verdict == "faster") faster++; else same++
	}
	for (k in om) if (!(k in seen)) only_old++
	printf "\n%d rows compared: %d faster, %d slower, %d within noise; %d only in OLD, %d only in NEW\n", n, faster, slower, same, only_old, only_new
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, f, ",")
		g = f[2] "," f[3] "," f[4] "," f[5]
		if (f[1] == "floor" || f[4] < 16384 || gn[g] < 2 || om[k] <= 0 || nm[k] <= 0) continue
		rel = (nm[k] / exp(gln[g] / gn[g])) / (om[k] / exp(glo[g] / gn[g]))
		rel_n++; if (rel >= 0.95 && rel <= 1 / 0.95) rel_ok++
	}
	if (big)
		printf "rows with N >= 16384: %d of %d medians within 5%% (%.0f%%); backend rows relative to their row group (over the geometric mean of its backends, floor left out): %d of %d (%.0f%%)\n", big_ok, big, 100 * big_ok / big, rel_ok, rel_n, rel_n ? 100 * rel_ok / rel_n : 0
	printf "\ngeometric mean of NEW/OLD per backend:\n"
	for (i = 1; i <= nbk; i++) { b = border[i]; printf "  %-12s %.3f (%d rows)\n", b, exp(lb[b] / nb[b]), nb[b] }
	printf "per backend and workload:\n"
	for (i = 1; i <= nbw; i++) { b = bworder[i]; printf "  %-30s %.3f (%d rows)\n", b, exp(lw[b] / nw[b]), nw[b] }
}' "$tmp"
