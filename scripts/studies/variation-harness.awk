# variation-harness.awk: the harness experiment of scripts/studies/variation.sh (docs/variation.md): the
# reported command run as a user runs it. Reads the runs' CSVs (named ARM-RUN.csv), then the
# samples.csv of their trace lines (-F,). Per run and N: what the CSV says (vector's and
# archetype's median ns per entity with their 95% intervals across the 5 processes, each one's
# verdict against the best, the rows flagged noisy), beside the archetype/vector ratio of the
# CPU time the same samples took and their wall/CPU. Plain mawk.

function sort_list(a, n,    i, j, x) {
	for (i = 2; i <= n; i++) {
		x = a[i]
		for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
}
function median_of(text,    a, n) {
	n = split(text, a, " ")
	if (n == 0) return ""
	sort_list(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(arr, key, v,    was) { was = (key in arr) ? arr[key] " " : ""; arr[key] = was v }

/^#/ || FILENAME ~ /-samples\.csv$/ { next }
FILENAME ~ /\.csv$/ && FILENAME !~ /samples\.csv$/ {
	if ($1 == "backend") { for (i = 1; i <= NF; i++) c[$i] = i; next }
	name = FILENAME; sub(/.*\//, "", name); sub(/\.csv$/, "", name)
	run = name; sub(/.*-/, "", run); arm = name; sub(/-[0-9]+$/, "", arm)
	key = arm SUBSEP run SUBSEP $c["entities"]
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	b = $c["backend"]; n = $c["entities"]
	per = $c["median_ns"] / n
	cell[key, b] = sprintf("%.1f [%.1f, %.1f]", per, $c["ci_low_ns"] / n, $c["ci_high_ns"] / n)
	med[key, b] = $c["median_ns"]
	verdict[key, b] = $c["vs_best"] ($c["vs_best"] == "best" ? "" : sprintf(" %.2f [%.2f, %.2f]", $c["ratio_to_best"], $c["ratio_ci_low"], $c["ratio_ci_high"]))
	if ($c["noisy"] == 1 && b != "floor") {
		was = (key in noisy) ? noisy[key] ", " : ""
		noisy[key] = was b
	}
	next
}
FNR == 1 { for (i = 1; i <= NF; i++) s[$i] = i; next }
$s["kind"] == "timed" {
	key = $s["arm"] SUBSEP $s["run"] SUBSEP $s["entities"]
	add(cpu, key SUBSEP $s["backend"], $s["cpu_ns"] / $s["inner"])
	wall[key] += $s["wall_ns"]; cput[key] += $s["cpu_ns"]
}
END {
	printf "| arm | run | N | vector ns/entity [95%% CI] | archetype [95%% CI] | archetype/vector | vector against the best | archetype against the best | rows flagged noisy | archetype/vector, CPU time | wall/CPU |\n"
	printf "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |\n"
	for (i = 1; i <= nk; i++) {
		key = keys[i]; split(key, p, SUBSEP)
		ca = median_of(cpu[key SUBSEP "archetype"]); cv = median_of(cpu[key SUBSEP "vector"])
		printf "| %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %.2f |\n", p[1], p[2], p[3],
		       cell[key, "vector"], cell[key, "archetype"], med[key, "archetype"] / med[key, "vector"],
		       verdict[key, "vector"], verdict[key, "archetype"], (key in noisy) ? noisy[key] : "none",
		       cv ? sprintf("%.2f", ca / cv) : "-", cput[key] ? wall[key] / cput[key] : 0
	}
	printf "\n"
}
