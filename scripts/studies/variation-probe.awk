# variation-probe.awk: the probe of scripts/studies/variation.sh (docs/variation.md), from its
# samples.csv (-F,): one process on each CPU at the same time, each timing vector's and
# archetype's iterate in turn. Samples are put in one-second bins by the time they ended; per bin
# and CPU the median CPU time per entity of each backend. A bin is slow when vector's median is
# 1.3 times its CPU's fast level (the 10th percentile of its bins) or more. Prints a timeline per
# CPU ('.' fast, 'o' 1.15x to 1.3x, 'X' slow), how often the two CPUs are slow together, and the
# archetype/vector ratio in fast and in slow bins. Plain mawk.

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

FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["kind"] == "timed" {
	cpu = $col["arm"]; be = $col["backend"]
	t = $col["end_ns"] / 1e9
	if (t0 == "" || t < t0) t0 = t
	v = $col["cpu_ns"] / $col["inner"] / $col["entities"]
	n_s++
	T[n_s] = t; C[n_s] = cpu; B[n_s] = be; V[n_s] = v
	wall[cpu] += $col["wall_ns"]; cput[cpu] += $col["cpu_ns"]
	if (!(cpu in cpu_seen)) { cpu_seen[cpu] = 1; cpus[++ncpu] = cpu }
}
END {
	for (i = 1; i <= n_s; i++) {
		b = int(T[i] - t0)
		add(bin, C[i] SUBSEP B[i] SUBSEP b, V[i])
		if (b > last) last = b
	}
	for (ci = 1; ci <= ncpu; ci++) {
		cpu = cpus[ci]; list = ""; m = 0
		for (b = 0; b <= last; b++) {
			key = cpu SUBSEP "vector" SUBSEP b
			if (!(key in bin)) continue
			med[cpu, "vector", b] = median_of(bin[key])
			med[cpu, "archetype", b] = median_of(bin[cpu SUBSEP "archetype" SUBSEP b])
			list = list (list == "" ? "" : " ") med[cpu, "vector", b]; m++
		}
		split(list, a, " "); sort_list(a, m)
		fast[cpu] = a[int(m / 10) + 1]
	}
	printf "Timeline, one character a second (vector's CPU time against its CPU's fast level: '.' under 1.15x, 'o' 1.15x to 1.3x, 'X' 1.3x or more; ' ' no sample)\n\n"
	for (ci = 1; ci <= ncpu; ci++) {
		cpu = cpus[ci]; line = ""
		for (b = 0; b <= last; b++) {
			if (!((cpu, "vector", b) in med)) { line = line " "; continue }
			x = med[cpu, "vector", b] / fast[cpu]
			line = line (x < 1.15 ? "." : x < 1.3 ? "o" : "X")
			slow[cpu, b] = x >= 1.3
		}
		printf "    %s  %s\n", cpu, line
	}
	printf "\n| CPU | seconds | slow seconds | vector fast / slow (ns per entity) | archetype fast / slow | archetype/vector fast / slow | wall/CPU |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
	for (ci = 1; ci <= ncpu; ci++) {
		cpu = cpus[ci]; nb = ns = 0; vf = vs = af = as = rf = rs = ""
		for (b = 0; b <= last; b++) {
			if (!((cpu, "vector", b) in med) || med[cpu, "archetype", b] == "") continue
			nb++
			r = med[cpu, "archetype", b] / med[cpu, "vector", b]
			if (slow[cpu, b]) { ns++; add(S, cpu SUBSEP "v", med[cpu, "vector", b]); add(S, cpu SUBSEP "a", med[cpu, "archetype", b]); add(S, cpu SUBSEP "r", r) }
			else { add(F, cpu SUBSEP "v", med[cpu, "vector", b]); add(F, cpu SUBSEP "a", med[cpu, "archetype", b]); add(F, cpu SUBSEP "r", r) }
		}
		printf "| %s | %d | %d | %.2f / %s | %.3f / %s | %.3f / %s | %.2f |\n", cpu, nb, ns,
		       median_of(F[cpu, "v"]), ns ? sprintf("%.2f", median_of(S[cpu, "v"])) : "-",
		       median_of(F[cpu, "a"]), ns ? sprintf("%.3f", median_of(S[cpu, "a"])) : "-",
		       median_of(F[cpu, "r"]), ns ? sprintf("%.3f", median_of(S[cpu, "r"])) : "-",
		       wall[cpu] / cput[cpu]
	}
	if (ncpu == 2) {
		both = either = n0 = n1 = common = 0
		for (b = 0; b <= last; b++) {
			if (!((cpus[1], "vector", b) in med) || !((cpus[2], "vector", b) in med)) continue
			common++
			s0 = slow[cpus[1], b]; s1 = slow[cpus[2], b]
			if (s0 && s1) both++
			if (s0 || s1) either++
			n0 += s0; n1 += s1
		}
		printf "\nSeconds both CPUs measured: %d; slow on %s: %d, on %s: %d, on both at once: %d", common, cpus[1], n0, cpus[2], n1, both
		if (common) printf " (if independent, about %.1f)", n0 * n1 / common
		printf "\n\n"
	}
}
