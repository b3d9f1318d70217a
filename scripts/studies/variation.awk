# variation.awk: the tables of one experiment of scripts/studies/variation.sh (docs/variation.md), from
# its processes.csv and samples.csv (given in that order, -F,). Per process, the median of its
# timed samples per backend (ns per entity, wall and CPU time); per arm, their geometric mean,
# the spread of the processes (standard deviation of the logs, in %), the archetype/vector ratio
# with a 95% interval across processes (Student's t), the ratio's spread within a process (the
# same round's two samples, which run next to each other) beside its spread across processes;
# and the same ratio taken as the median of the rounds' ratios (paired); then each arm against
# the first (Welch's interval on the logs); then what each arm met: load, preempted samples, page
# faults, steal; then the machine's state: each round classed fast or slow by the floor's CPU
# time in it (the floor is the same plain loop in every process, so it measures the machine, not
# a storage), and every backend in fast and in slow rounds, with the share of their samples that
# had an involuntary context switch and their wall/CPU time. Plain mawk: no asort, small
# insertion sorts.

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
# mean and sd of the logs of a space separated list: sets M, SD, N
function log_stats(text,    a, n, i, s, ss) {
	n = split(text, a, " ")
	s = 0
	for (i = 1; i <= n; i++) s += log(a[i])
	M = n ? s / n : 0
	ss = 0
	for (i = 1; i <= n; i++) ss += (log(a[i]) - M) ^ 2
	SD = n > 1 ? sqrt(ss / (n - 1)) : 0
	N = n
}
function t975(df,    t) {
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
	if (df < 1) return 0
	if (df <= 30) return t[int(df)]
	return 1.96 + 2.4 / df
}
function min_max(text,    a, n, i, lo, hi) {
	n = split(text, a, " ")
	lo = hi = a[1]
	for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
	return sprintf("%.2f-%.2f", lo, hi)
}
function count_below_one(text,    a, n, i, c) {
	n = split(text, a, " ")
	c = 0
	for (i = 1; i <= n; i++) if (a[i] < 1) c++
	return c
}
function add(arr, key, v,    was) { was = (key in arr) ? arr[key] " " : ""; arr[key] = was v }
function pct(sd) { return sprintf("%.1f%%", 100 * sd) }

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }

file == 1 {
	run = $col[1, "run"]; arm = $col[1, "arm"]
	if (!(arm in arm_seen)) { arm_seen[arm] = 1; arms[++narms] = arm }
	add(load1, arm, $col[1, "load1"])
	pinned = $col[1, "pinning"]
	cpu = pinned ~ /cpu 0/ ? 0 : 1
	add(steal, arm, $col[1, "steal" cpu])
	# the other CPU's busy share: the other users' load, beside ours
	other = 1 - cpu
	b = $col[1, "busy" other]; idl = $col[1, "idle" other]
	if (b + idl > 0) add(other_busy, arm, b / (b + idl))
	next
}

{
	run = $col[2, "run"]; arm = $col[2, "arm"]; be = $col[2, "backend"]
	n = $col[2, "entities"]; inner = $col[2, "inner"]
	if ($col[2, "kind"] != "timed") next
	run_arm[run] = arm
	if (!((arm, n) in an_seen)) { an_seen[arm, n] = 1; }
	if (!(n in n_seen)) { n_seen[n] = 1; ns[++nn] = n }
	if (!(be in be_seen)) { be_seen[be] = 1 }
	w = $col[2, "wall_ns"] / inner / n
	c = $col[2, "cpu_ns"] / inner / n
	add(wall, run SUBSEP be SUBSEP n, w)
	add(cput, run SUBSEP be SUBSEP n, c)
	round = $col[2, "sample"]
	rw[run, be, n, round] = w
	rc[run, be, n, round] = c
	rpre[run, be, n, round] = $col[2, "nivcsw"] > 0
	rounds[run, n] = round > rounds[run, n] ? round : rounds[run, n]
	if (!((run, n) in rn_seen)) { rn_seen[run, n] = 1; add(runs_of, arm SUBSEP n, run) }
	samples[arm, n]++
	if ($col[2, "nivcsw"] > 0) preempted[arm, n]++
	faults[arm, n] += $col[2, "minflt"]
	if ($col[2, "minflt"] > 0) faulted[arm, n]++
	wsum[arm, n] += $col[2, "wall_ns"]; csum[arm, n] += $col[2, "cpu_ns"]
	add(inners, arm SUBSEP n, inner)
}

END {
	nb = split("vector archetype sparse", bes, " ")
	split("wall cpu", metrics, " ")
	for (mi = 1; mi <= 2; mi++) {
		metric = metrics[mi]
		printf "%s time, ns per entity: geometric mean of the processes' medians (spread across processes)\n\n", metric == "wall" ? "Wall" : "CPU"
		printf "| arm | N | processes | vector | archetype | sparse | archetype/vector [95%% CI] | spread across processes | spread within a process | paired: spread across processes | min-max | archetype faster in |\n"
		printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
		for (k = 1; k <= nn; k++) {
			n = ns[k]
			for (ai = 1; ai <= narms; ai++) {
				arm = arms[ai]
				if (!((arm, n) in an_seen)) continue
				nr = split(runs_of[arm, n], rl, " ")
				line = sprintf("| %s | %d | %d |", arm, n, nr)
				for (bi = 1; bi <= nb; bi++) {
					be = bes[bi]; list = ""
					for (r = 1; r <= nr; r++) {
						key = rl[r] SUBSEP be SUBSEP n
						m = median_of(metric == "wall" ? wall[key] : cput[key])
						if (m != "") { list = list (list == "" ? "" : " ") m; med[metric, rl[r], be, n] = m }
					}
					log_stats(list)
					line = line sprintf(" %.2f (%s) |", exp(M), pct(SD))
					permean[metric, arm, be, n] = M; persd[metric, arm, be, n] = SD; pern[metric, arm, be, n] = N
				}
				ratios = ""; within = ""; paired = ""
				for (r = 1; r <= nr; r++) {
					run = rl[r]
					if (!((metric, run, "archetype", n) in med) || !((metric, run, "vector", n) in med)) continue
					x = med[metric, run, "archetype", n] / med[metric, run, "vector", n]
					ratios = ratios (ratios == "" ? "" : " ") x
					rr = ""
					for (s = 1; s <= rounds[run, n]; s++) {
						if (!((run, "archetype", n, s) in rw)) continue
						y = metric == "wall" ? rw[run, "archetype", n, s] / rw[run, "vector", n, s] \
						                     : rc[run, "archetype", n, s] / rc[run, "vector", n, s]
						rr = rr (rr == "" ? "" : " ") y
					}
					log_stats(rr)
					within = within (within == "" ? "" : " ") SD
					if (rr != "") paired = paired (paired == "" ? "" : " ") median_of(rr)
				}
				log_stats(paired)
				paired_sd = SD
				log_stats(ratios)
				half = N > 1 ? t975(N - 1) * SD / sqrt(N) : 0
				rmean[metric, arm, n] = M; rsd[metric, arm, n] = SD; rn[metric, arm, n] = N
				rlist[metric, arm, n] = ratios
				line = line sprintf(" %.3f [%.3f, %.3f] | %s | %s | %s | %s | %d of %d |", exp(M), exp(M - half),
				                    exp(M + half), pct(SD), pct(median_of(within)), pct(paired_sd),
				                    min_max(ratios), count_below_one(ratios), N)
				print line
			}
		}
		printf "\n"
	}

	if (narms > 1) {
		printf "Each arm against %s (%s's value / %s's; 95%% interval, Welch, on the logs of the processes' values)\n\n", arms[1], "arm", arms[1]
		printf "| arm | N | time | vector | archetype | sparse | archetype/vector |\n| --- | ---: | --- | ---: | ---: | ---: | ---: |\n"
		for (k = 1; k <= nn; k++) {
			n = ns[k]
			for (ai = 2; ai <= narms; ai++) {
				arm = arms[ai]
				if (!((arm, n) in an_seen) || !((arms[1], n) in an_seen)) continue
				for (mi = 1; mi <= 2; mi++) {
					metric = metrics[mi]
					line = sprintf("| %s | %d | %s |", arm, n, metric)
					for (bi = 1; bi <= nb + 1; bi++) {
						if (bi <= nb) {
							be = bes[bi]
							m1 = permean[metric, arm, be, n]; s1 = persd[metric, arm, be, n]; n1 = pern[metric, arm, be, n]
							m0 = permean[metric, arms[1], be, n]; s0 = persd[metric, arms[1], be, n]; n0 = pern[metric, arms[1], be, n]
						} else {
							m1 = rmean[metric, arm, n]; s1 = rsd[metric, arm, n]; n1 = rn[metric, arm, n]
							m0 = rmean[metric, arms[1], n]; s0 = rsd[metric, arms[1], n]; n0 = rn[metric, arms[1], n]
						}
						v1 = s1 * s1 / n1; v0 = s0 * s0 / n0
						se = sqrt(v1 + v0)
						df = (v1 + v0) > 0 ? (v1 + v0) ^ 2 / (v1 * v1 / (n1 - 1) + v0 * v0 / (n0 - 1)) : 30
						h = t975(int(df)) * se
						d = m1 - m0
						mark = (d - h > 0 || d + h < 0) ? " **" : ""
						line = line sprintf(" %.3f [%.3f, %.3f]%s |", exp(d), exp(d - h), exp(d + h), mark)
					}
					print line
				}
			}
		}
		printf "\n** : the interval excludes 1 (the arm changes it).\n\n"
	}

	printf "What each arm met (timed samples): load average at the start, the other CPU's busy share, samples with an involuntary context switch, wall/CPU time, samples with page faults and faults per sample, steal ticks per process, inner counts\n\n"
	printf "| arm | N | load1 | other CPU busy | preempted samples | wall/CPU | faulting samples | faults per sample | steal ticks | inner |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
	for (k = 1; k <= nn; k++) {
		n = ns[k]
		for (ai = 1; ai <= narms; ai++) {
			arm = arms[ai]
			if (!((arm, n) in an_seen)) continue
			nl = split(load1[arm], la, " "); s = 0; for (i = 1; i <= nl; i++) s += la[i]
			no = split(other_busy[arm], oa, " "); so = 0; for (i = 1; i <= no; i++) so += oa[i]
			nst = split(steal[arm], sa, " "); ss = 0; for (i = 1; i <= nst; i++) ss += sa[i]
			ni = split(inners[arm, n], ia, " "); iv = ""
			for (i = 1; i <= ni; i++) if (!((arm, n, ia[i]) in iseen)) { iseen[arm, n, ia[i]] = 1; iv = iv (iv == "" ? "" : ",") ia[i] }
			printf "| %s | %d | %.2f | %.0f%% | %.0f%% | %.2f | %.0f%% | %.0f | %.1f | %s |\n", arm, n, s / nl, 100 * so / (no ? no : 1),
			       100 * preempted[arm, n] / samples[arm, n], wsum[arm, n] / csum[arm, n],
			       100 * faulted[arm, n] / samples[arm, n], faults[arm, n] / samples[arm, n], ss / (nst ? nst : 1), iv
		}
	}
	printf "\nPer-process archetype/vector (CPU time), in the order the processes ran\n\n"
	for (k = 1; k <= nn; k++) {
		n = ns[k]
		for (ai = 1; ai <= narms; ai++) {
			arm = arms[ai]
			if (!((arm, n) in an_seen)) continue
			nr = split(rlist["cpu", arm, n], ra, " "); line = ""
			for (i = 1; i <= nr; i++) line = line sprintf(" %.2f", ra[i])
			printf "- %s, N = %d:%s\n", arm, n, line
		}
	}
	printf "\n"

	# The machine's state, round by round, from the floor's CPU time (all arms together).
	printf "The machine's state: rounds classed by the floor's CPU time in them (fast: under 1.1 times the floor's 10th percentile at that N; slow: 1.2 times or more); geometric means of CPU time per entity\n\n"
	printf "| N | rounds | floor | vector | archetype | sparse | archetype/vector | sparse/vector | preempted samples | wall/CPU |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
	for (k = 1; k <= nn; k++) {
		n = ns[k]; fl = ""; m = 0
		for (key in rc) {
			split(key, p, SUBSEP)
			if (p[2] == "floor" && p[3] == n) { fl = fl (fl == "" ? "" : " ") rc[key]; m++ }
		}
		if (m < 10) continue
		split(fl, fa, " "); sort_list(fa, m)
		level = fa[int(m / 10) + 1]
		delete G; delete GN; delete GP; delete GW; delete GC
		for (key in rc) {
			split(key, p, SUBSEP)
			if (p[2] != "floor" || p[3] != n) continue
			run = p[1]; s = p[4]; x = rc[key] / level
			st = x < 1.1 ? "fast" : x >= 1.2 ? "slow" : ""
			if (st == "" || !((run, "vector", n, s) in rc) || !((run, "archetype", n, s) in rc) || !((run, "sparse", n, s) in rc)) continue
			GN[st]++
			G[st, "floor"] += log(rc[key])
			G[st, "vector"] += log(rc[run, "vector", n, s])
			G[st, "archetype"] += log(rc[run, "archetype", n, s])
			G[st, "sparse"] += log(rc[run, "sparse", n, s])
			split("vector archetype sparse", three, " ")
			for (bi = 1; bi <= 3; bi++) {
				GP[st] += rpre[run, three[bi], n, s]
				GW[st] += rw[run, three[bi], n, s]; GC[st] += rc[run, three[bi], n, s]
			}
		}
		split("fast slow", sts, " ")
		for (si = 1; si <= 2; si++) {
			st = sts[si]
			if (!GN[st]) continue
			printf "| %d | %s: %d | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.0f%% | %.2f |\n", n, st, GN[st], exp(G[st, "floor"] / GN[st]),
			       exp(G[st, "vector"] / GN[st]), exp(G[st, "archetype"] / GN[st]), exp(G[st, "sparse"] / GN[st]),
			       exp((G[st, "archetype"] - G[st, "vector"]) / GN[st]), exp((G[st, "sparse"] - G[st, "vector"]) / GN[st]),
			       100 * GP[st] / (3 * GN[st]), GW[st] / GC[st]
		}
	}
	printf "\n"
}
