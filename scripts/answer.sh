#!/bin/sh
# answer.sh: a run's own answer to "which storage for what", from its CSV alone: the decision
# table that ends every make bench (on the terminal and as Markdown beside the CSV), that the
# report page shows, and that the README's guide is made of (from the reference run).
#
# Usage: scripts/answer.sh [-o FILE.md] [-b] [-H] [-f FIRST.csv] CSV
#   (default)  the Markdown on stdout
#   -o FILE    also writes it to FILE: to FILE.tmp.PID, checked whole, then renamed, so that a
#              failed write (a full disk) leaves no partial file and the previous one as it was
#   -b         brief, for a terminal: a scenario sweep's per-phase tables are left out of stdout
#              (FILE keeps them; the output says so)
#   -H         an HTML table for scripts/report.sh instead of the Markdown (the fastest cells
#              of class "fastest", the tied entries of class "tied"); not with -o
#   -f FIRST   the run's first provisional CSV (build/ecsbench --provisional: the rows of its
#              first process; default NAME-provisional.csv beside the CSV, where the run wrote
#              it, if there is one): a line under the table says how many
#              verdicts changed since it. A verdict: a backend's place in a row of the table
#              (the fastest, tied with it, or slower); reversed: the fastest became slower than
#              another, or one called slower became the fastest
#
# A provisional CSV (the rows of the processes done so far, while the run goes on: a header
# line "# provisional after D of P processes") gets a table titled "Provisional answer".
#
# A workload CSV (build/ecsbench): a row per workload and k, at the workload's largest N (a
# threaded workload at its largest T; Varkor's fixed workloads at their own N): the fastest
# backend (vs_best = best: the lowest median_ns), its time, its ratio_to_floor with its interval
# (floor_ci_low, floor_ci_high), then every other backend with its ratio_to_best and interval
# (ratio_ci_low, ratio_ci_high), nearest first, "tied" where vs_best is tied (the interval holds
# 1, or there is none), and "not measured" for a backend of the run that the group lacks. The
# lived-in rows (the headline) come first; a workload run under another history is named with
# it, as every figure names it ("iterate-pristine": scripts/common.sh, normalise), after them.
# A scenario CSV (build/ecsbench --scenario): per sweep point, the frame's fastest backend, its
# frame, the floor's and the harness alone's, and the other backends' ratios; the crossover
# lines of the CSV's header; then the same per phase.
# Every number is the CSV's own: nothing is computed again, so the table and the CSV never
# disagree. Costs: one awk pass over the CSV.
# Exit status: 0; 1 a failed write; 2 bad usage or a CSV it cannot read (not an ecsbench CSV,
# or one from before paired ratios: no ratio_to_best or vs_best column).
set -u

usage() {
	echo "usage: scripts/answer.sh [-o FILE.md] [-b] [-H] [-f FIRST.csv] CSV" >&2
	exit 2
}
out=
brief=0
html=0
first=
while getopts o:bHf:h opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	f) first=$OPTARG ;;
	b) brief=1 ;;
	H) html=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
[ "$html" = 0 ] || [ -z "$out" ] || usage
csv=$1
[ -f "$csv" ] && [ -r "$csv" ] || { echo "answer.sh: cannot read '$csv'" >&2; exit 2; }
[ -z "$first" ] || [ -r "$first" ] || { echo "answer.sh: cannot read the first provisional CSV '$first'" >&2; exit 2; }
# Without -f, the run's own first provisional CSV when it has one (NAME-provisional.csv beside
# NAME.csv: build/ecsbench writes it with the CSV and moves it away with it)
case $csv in *.csv) beside=${csv%.csv}-provisional.csv ;; *) beside=$csv-provisional.csv ;; esac
[ -n "$first" ] || [ ! -r "$beside" ] || first=$beside

# answer FORMAT BRIEF NOTE [CSV]: the table of CSV ($csv) on stdout (FORMAT md or html; NOTE: the
# file that holds what BRIEF leaves out; FORMAT verdicts: a line per verdict, "row|backend|place",
# place fastest, tied or slower)
answer() {
	awk -F, -v file="${4:-$csv}" -v format="$1" -v brief="$2" -v note="$3" -v changes="$changes" '
	function fail(msg) { printf "answer.sh: %s: %s\n", file, msg > "/dev/stderr"; bad = 3; exit 3 }
	function col(name) { return (name in c) ? $(c[name]) : "" }
	# a ratio: 1.05, 12.3, 150, 1.2e+05 (an interval of two processes can reach that far)
	function num(x) { x += 0; return x < 9.995 ? sprintf("%.2f", x) : x < 99.95 ? sprintf("%.1f", x) : x < 9999.5 ? sprintf("%.0f", x) : sprintf("%.2g", x) }
	# a time: 3 significant digits; ms(): of a run or a frame, in ms, µs or ns
	function t3(x) { x += 0; return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3g", x) }
	function ms(ns) { ns += 0; return ns >= 1e6 ? t3(ns / 1e6) " ms" : ns >= 1e3 ? t3(ns / 1e3) " µs" : t3(ns) " ns" }
	function ratio(r, lo, hi) { return num(r) "x " (lo == "" || hi == "" ? (provisional != "" ? "(no interval yet)" : "(no interval)") : "[" num(lo) ", " num(hi) "]") }
	function entities(n,    e, p) { for (e = 0; e <= 40; e++) { p = 2 ^ e; if (p == n) return "2^" e; if (p > n) break }
		return commas(n) }
	function commas(n,    s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9](,|$)/, ",&", s); return s }
	function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
	# the display width of a Markdown cell (UTF-8: continuation bytes take no room)
	function width(s,    t) { t = s; gsub(/[\200-\277]/, "", t); return length(t) }
	function pad(s, w) { while (width(s) < w) s = s " "; return s }

	# --- the table being built: cells of rows, then printed as Markdown or HTML ----------------
	function table_start(header) { nrow = 0; ncol = split(header, head, "|"); delete right; delete nother }
	function table_right(cols,    n, i, a) { n = split(cols, a, " "); for (i = 1; i <= n; i++) right[a[i]] = 1 }
	function table_row(    i) { nrow++; for (i = 1; i <= ncol; i++) { cell[nrow, i] = ""; fastcell[nrow, i] = 0 } }
	function table_print(    i, j, w, s, line) {
		if (format == "verdicts") return
		if (format == "html") {
			printf "<table class=\"num answer\"><thead><tr>"
			for (j = 1; j <= ncol; j++) printf "<th>%s</th>", esc(head[j])
			print "</tr></thead><tbody>"
			for (i = 1; i <= nrow; i++) {
				printf "<tr>"
				for (j = 1; j <= ncol; j++) printf "<td%s>%s</td>", fastcell[i, j] ? " class=\"fastest\"" : "", cellhtml(i, j)
				print "</tr>"
			}
			print "</tbody></table>"
			return
		}
		# Markdown, aligned for a terminal: every column but the last padded to its widest cell
		for (j = 1; j <= ncol; j++) { w[j] = width(head[j]) < 3 ? 3 : width(head[j]); for (i = 1; i <= nrow; i++) if (width(cellmd(i, j)) > w[j]) w[j] = width(cellmd(i, j)) }
		line = "|"
		for (j = 1; j <= ncol; j++) line = line " " (j < ncol ? pad(head[j], w[j]) : head[j]) " |"
		print line
		line = "|"
		for (j = 1; j <= ncol; j++) { s = ""; while (length(s) < (j < ncol ? w[j] : 3)) s = s "-"; if (j in right) s = substr(s, 2) ":"; line = line " " s " |" }
		print line
		for (i = 1; i <= nrow; i++) {
			line = "|"
			for (j = 1; j <= ncol; j++) line = line " " (j < ncol ? pad(cellmd(i, j), w[j]) : cellmd(i, j)) " |"
			print line
		}
	}
	# a cell as Markdown or HTML; the others of a group are entries (other[i, j, k], and
	# othertied[i, j, k] when tied), joined here
	function cellmd(i, j,    k, s) {
		if (!((i, j) in nother)) return cell[i, j]
		s = ""
		for (k = 1; k <= nother[i, j]; k++) s = s (k > 1 ? ", " : "") other[i, j, k] (othertied[i, j, k] ? " tied" : "")
		return s
	}
	function cellhtml(i, j,    k, s) {
		if (cell[i, j] ~ /^2\^[0-9]+$/) return "2<sup>" substr(cell[i, j], 3) "</sup>"
		if (!((i, j) in nother)) return esc(cell[i, j])
		s = ""
		for (k = 1; k <= nother[i, j]; k++)
			s = s (k > 1 ? ", " : "") esc(other[i, j, k]) (othertied[i, j, k] ? " <span class=\"tied\">tied</span>" : "")
		return s
	}
	function para(s) { if (format == "verdicts") return; if (format == "html") print "<p>" esc(s) "</p>"; else { print s; print "" } }

	# The others of group g (cell i, j): every candidate but the fastest, nearest first; those of
	# the run that the group lacks, "not measured".
	function others(g, fastest, i, j,    m, k, x, t, list, n) {
		m = 0
		for (k = 1; k <= nmember[g]; k++) { x = member[g, k]; if (x != fastest) list[++m] = x }
		for (k = 2; k <= m; k++) for (n = k; n > 1 && rb[g, list[n]] + 0 < rb[g, list[n - 1]] + 0; n--) { t = list[n]; list[n] = list[n - 1]; list[n - 1] = t }
		nother[i, j] = 0
		for (k = 1; k <= m; k++) {
			x = list[k]; n = ++nother[i, j]
			other[i, j, n] = x " " (rb[g, x] == "" ? "(no ratio)" : ratio(rb[g, x], rl[g, x], rh[g, x]))
			othertied[i, j, n] = place(g, x) == "tied"
		}
		for (k = 1; k <= nbackends; k++) {
			x = backends[k]
			if (!((g, x) in med)) { n = ++nother[i, j]; other[i, j, n] = x " not measured"; othertied[i, j, n] = 0 }
		}
	}
	# The fastest of group g: the row the CSV calls best (lowest median_ns where none is).
	function fastest_of(g,    k, x, f) {
		f = ""
		for (k = 1; k <= nmember[g]; k++) { x = member[g, k]; if (vs[g, x] == "best") return x; if (f == "" || med[g, x] + 0 < med[g, f] + 0) f = x }
		return f
	}

	/^#/ {
		sub(/^# /, "")
		if ($0 ~ /^ecsbench commit /) commit = substr($0, 17)
		else if ($0 ~ /^date /) date = substr($0, 6)
		else if ($0 ~ /^cpu /) { cpu = substr($0, 5); sub(/; a parallel row.*/, "", cpu) }
		else if ($0 ~ /^profile /) { profile = substr($0, 9); sub(/; systems registered.*/, "", profile) }
		else if ($0 ~ /^processes /) { processes = $0; sub(/,.*/, "", processes); sub(/^processes /, "", processes) }
		else if ($0 ~ /^crossover /) crossover[++ncross] = $0
		else if ($0 ~ /^scenario /) { scen = substr($0, 10); sub(/:.*/, "", scen) }
		else if ($0 ~ /^provisional after /) { provisional = $0; sub(/:.*/, "", provisional) }
		next
	}
	!NF { next }
	!header {
		if ($1 != "backend" && $1 != "scenario") fail("not an ecsbench CSV (no header row backend,... or scenario,...)")
		for (i = 1; i <= NF; i++) c[$i] = i
		kind = $1 == "scenario" ? "scenario" : "workloads"
		if (!("ratio_to_best" in c) || !("vs_best" in c)) fail("no ratio_to_best or vs_best column: a CSV from before paired ratios; the answer needs them")
		if (!("median_ns" in c) || !("backend" in c)) fail("no median_ns or backend column")
		header = 1
		next
	}
	kind == "workloads" {
		b = col("backend"); w = col("workload")
		h = ("history" in c) ? col("history") : w ~ /^varkor-/ ? "-" : "pristine"
		name = w
		if (h != "lived-in" && h != "-" && h != "") name = w "-" h
		if (!(name in seenname)) { seenname[name] = 1; names[++nnames] = name; headline[name] = h == "lived-in" || h == "-" || h == ""; fixed[name] = w ~ /^varkor-/; perpass[name] = w == "empty-pass" }
		if (b != "floor" && !(b in seenb)) { seenb[b] = 1; backends[++nbackends] = b }
		t = ("threads" in c) ? col("threads") + 0 : 1
		n = col("entities") + 0; k = col("components") + 0
		row[++nrows] = b SUBSEP name SUBSEP t SUBSEP n SUBSEP k
		rmed[nrows] = col("median_ns"); rnpe[nrows] = col("ns_per_entity")
		rrtf[nrows] = col("ratio_to_floor"); rfl[nrows] = col("floor_ci_low"); rfh[nrows] = col("floor_ci_high")
		rrb[nrows] = col("ratio_to_best"); rrl[nrows] = col("ratio_ci_low"); rrh[nrows] = col("ratio_ci_high"); rvs[nrows] = col("vs_best")
		if (t > maxt[name]) maxt[name] = t
		next
	}
	kind == "scenario" {
		b = col("backend"); p = col("sweep_value"); ph = col("phase"); key = col("sweep_key")
		if (scen == "") scen = col("scenario")
		if (!(p in seenp)) { seenp[p] = 1; points[++npoints] = p; pointkey = key }
		if (!((p, ph) in seenph)) { seenph[p, ph] = 1; phases[p, ++nphases[p]] = ph }
		g = p SUBSEP ph
		if (b == "floor" || b == "harness") { side[g, b] = col("median_ns"); next }
		if (!(b in seenb)) { seenb[b] = 1; backends[++nbackends] = b }
		member[g, ++nmember[g]] = b; med[g, b] = col("median_ns")
		rb[g, b] = col("ratio_to_best"); rl[g, b] = col("ratio_ci_low"); rh[g, b] = col("ratio_ci_high"); vs[g, b] = col("vs_best")
		if (ph == "frame" && ("p99_ns" in c)) {
			tails = 1
			for (k = 1; k <= 3; k++) { q = k == 1 ? "p95" : k == 2 ? "p99" : "max"; f = q == "max" ? "max_frame_ns" : q "_ns"
				tv[g, b, q] = col(f); tl[g, b, q] = col(q "_ci_low_ns"); th[g, b, q] = col(q "_ci_high_ns") }
			growth[g, b] = col("growth_frames"); growthpct[g, b] = col("growth_pct"); allocating[g, b] = col("alloc_frames")
		}
		next
	}
	END {
		if (bad) exit bad
		if (!header) fail("no header row (backend,... or scenario,...)")
		run = "Run: commit " (commit == "" ? "?" : commit) ", " (date == "" ? "no date" : date) "; cpu " (cpu == "" ? "?" : cpu) \
			(profile == "" ? "" : "; profile " profile) (processes == "" ? "" : "; " processes " processes") "."
		if (kind == "workloads") workloads_answer(); else scenario_answer()
		if (changes != "" && format != "verdicts") para(changes)
		if (format == "md") print "(scripts/answer.sh " file ")"
	}
	# The title, provisional or not.
	function title(what) {
		if (format != "md") return
		if (provisional != "") { print "## " what " (" provisional "; the run goes on): " file; print "" }
		else { print "## " what ": " file; print "" }
	}
	# The place of backend x in group g beside its fastest: slower or tied, as the CSV calls it;
	# in a provisional CSV, a ratio with no interval yet (a long run: one sample a process) is
	# read from its value: slower beyond 1.10, tied within.
	function place(g, x) {
		if (provisional != "" && rl[g, x] == "" && rb[g, x] != "") return rb[g, x] + 0 > 1.10 ? "slower" : "tied"
		return vs[g, x] == "slower" ? "slower" : "tied"
	}
	# FORMAT verdicts: the place of every backend of group g (row label r): fastest, tied, slower.
	function verdicts(g, r, fb,    k, x) {
		for (k = 1; k <= nmember[g]; k++) {
			x = member[g, k]
			print r "|" x "|" (x == fb ? "fastest" : place(g, x))
		}
	}

	function workloads_answer(    r, f, fb, b, name, t, n, k, g, i, order, no, j, x, hist) {
		# the groups: each name and k at its largest N (and the name at its largest T)
		for (r = 1; r <= nrows; r++) {
			split(row[r], f, SUBSEP); b = f[1]; name = f[2]; t = f[3]; n = f[4]; k = f[5]
			if (t != maxt[name] || b == "floor") continue
			if (n > maxn[name, k]) maxn[name, k] = n
		}
		for (r = 1; r <= nrows; r++) {
			split(row[r], f, SUBSEP); b = f[1]; name = f[2]; t = f[3]; n = f[4]; k = f[5]
			if (t != maxt[name] || n != maxn[name, k]) continue
			g = name SUBSEP k
			if (!(g in ng)) { ng[g] = 1; ks[name] = ks[name] " " k; gn[g] = n }
			if (b == "floor") continue
			member[g, ++nmember[g]] = b; med[g, b] = rmed[r]; npe[g, b] = rnpe[r]
			rtf[g, b] = rrtf[r]; fl[g, b] = rfl[r]; fh[g, b] = rfh[r]
			rb[g, b] = rrb[r]; rl[g, b] = rrl[r]; rh[g, b] = rrh[r]; vs[g, b] = rvs[r]
		}
		# lived-in (and the workloads that take no history) first: the headline; then the others
		no = 0
		for (i = 1; i <= nnames; i++) if (headline[names[i]]) order[++no] = names[i]
		for (i = 1; i <= nnames; i++) if (!headline[names[i]]) { order[++no] = names[i]; hist = 1 }
		title("Which storage for what")
		if (format != "verdicts") para(run)
		para("Per workload, at its largest N and each k" (maxthreads() > 1 ? " (a threaded workload at its largest T)" : "") \
			": the fastest backend, its time, and its time over the floor'"'"'s (the same work over plain arrays: the machine'"'"'s limit) " \
			"with its 95% interval; then every other backend'"'"'s time over the fastest'"'"'s, paired by process, with its interval " \
			"(95%, Bonferroni over the comparisons of its group), nearest first. tied: the interval holds 1, this run cannot " \
			"tell it from the fastest." (hist ? " The storages are lived-in (the headline); a workload named with another history " \
			"(iterate-pristine: built in order and never changed, a best case) is that history'"'"'s, after them." : ""))
		table_start("workload|N|k|fastest|its time|over the floor [95%]|the others, over the fastest [95%, paired]")
		table_right("2 3 5")
		groups = 0
		for (i = 1; i <= no; i++) {
			name = order[i]
			nk = split(ks[name], kk, " ")
			for (j = 2; j <= nk; j++) for (x = j; x > 1 && kk[x] + 0 < kk[x - 1] + 0; x--) { t = kk[x]; kk[x] = kk[x - 1]; kk[x - 1] = t }
			for (j = 1; j <= nk; j++) {
				g = name SUBSEP kk[j]
				if (!nmember[g]) continue
				fb = fastest_of(g)
				if (format == "verdicts") { verdicts(g, name "|" gn[g] "|" kk[j], fb); continue }
				table_row(); groups++
				cell[nrow, 1] = name (maxt[name] > 1 ? ", T = " maxt[name] : "")
				cell[nrow, 2] = entities(gn[g])
				cell[nrow, 3] = kk[j]
				cell[nrow, 4] = fb; fastcell[nrow, 4] = 1
				# empty-pass: its ns_per_entity is per pass (harness/sweep/fixed_cost.c)
				cell[nrow, 5] = fixed[name] ? ms(med[g, fb]) " a run" : t3(npe[g, fb]) (perpass[name] ? " ns a pass" : " ns an entity")
				cell[nrow, 6] = rtf[g, fb] == "" ? "no floor" : ratio(rtf[g, fb], fl[g, fb], fh[g, fb])
				others(g, fb, nrow, 7)
			}
		}
		table_print()
		if (format == "md") print ""
		if (!groups) para("No backend row in this CSV.")
	}
	function maxthreads(    i, m) { m = 1; for (i = 1; i <= nnames; i++) if (maxt[names[i]] > m) m = maxt[names[i]]; return m }

	# a tail: its time and its interval across processes
	function tail(g, x, q) { return tv[g, x, q] == "" ? "-" : ms(tv[g, x, q]) (tl[g, x, q] == "" ? "" : " [" t3ms(tl[g, x, q], tv[g, x, q]) ", " t3ms(th[g, x, q], tv[g, x, q]) "]") }
	# a bound in the unit of the value it goes with
	function t3ms(ns, ref) { ns += 0; ref += 0; return ref >= 1e6 ? t3(ns / 1e6) : ref >= 1e3 ? t3(ns / 1e3) : t3(ns) }
	# The order of the backends of group g by key ("med" or a tail q), into list; their count.
	function order_by(g, q, list,    k, n, m, t) {
		m = 0
		for (k = 1; k <= nmember[g]; k++) list[++m] = member[g, k]
		for (k = 2; k <= m; k++) for (n = k; n > 1 && key_of(g, list[n], q) < key_of(g, list[n - 1], q); n--) { t = list[n]; list[n] = list[n - 1]; list[n - 1] = t }
		return m
	}
	function key_of(g, x, q) { return q == "med" ? med[g, x] + 0 : tv[g, x, q] == "" ? 1e300 : tv[g, x, q] + 0 }
	# The frame-time tails per point: every backend by median, its p95, p99 and maximum frame
	# (per process, then the geometric mean and 95% t interval across processes: the CSV
	# columns), its growth frames; then where the order by p99 is not the order by median, each
	# pair that swaps, and whether their p99 intervals are apart (decided) or overlap.
	function tails_answer(sweep,    i, p, g, m, k, x, j, bymed) {
		if (format == "md") { print "### Frame-time tails"; print "" } else print "<h4>Frame-time tails</h4>"
		para("A game is judged by its worst frames. Per backend, its median frame, then its 95th and 99th percentile and its " \
			"longest frame: each taken per process, then their geometric mean and 95% t interval across processes. " \
			"growth frames: those in which the storage asked for a block of 64 KiB or more (a rehash, a regrown column, a " \
			"large new table), over every process; frames allocating: those in which it allocated at all (where its steady " \
			"frames allocate nothing, a small new table shows there).")
		table_start((sweep ? pointkey "|" : "") "backend|median|p95 [95%]|p99 [95%]|max [95%]|growth frames|frames allocating")
		table_right(sweep ? "3 4 5 6 7 8" : "2 3 4 5 6 7")
		for (i = 1; i <= npoints; i++) {
			p = points[i]; g = p SUBSEP "frame"
			if (!nmember[g]) continue
			m = order_by(g, "med", bymed)
			for (k = 1; k <= m; k++) {
				x = bymed[k]; table_row(); j = 0
				if (sweep) cell[nrow, ++j] = p
				cell[nrow, ++j] = x
				cell[nrow, ++j] = ms(med[g, x])
				cell[nrow, ++j] = tail(g, x, "p95")
				cell[nrow, ++j] = tail(g, x, "p99")
				cell[nrow, ++j] = tail(g, x, "max")
				cell[nrow, ++j] = growth[g, x] == "" ? "-" : growth[g, x] " (" growthpct[g, x] "%)"
				cell[nrow, ++j] = allocating[g, x] == "" ? "-" : allocating[g, x]
			}
		}
		table_print()
		if (format == "md") print ""
		for (i = 1; i <= npoints; i++) {
			p = points[i]; g = p SUBSEP "frame"
			if (!nmember[g]) continue
			para((sweep ? "At " pointkey " = " p ": " : "") tail_order(g, "p99", "p99") " " tail_order(g, "max", "longest frame"))
		}
	}
	# Whether the order of group g by tail q (named what) is its order by median; if not, every
	# pair it swaps, decided where their intervals of q are apart.
	function tail_order(g, q, what,    m, k, n, x, y, s, swaps, bymed, byq, rank) {
		m = order_by(g, "med", bymed); order_by(g, q, byq)
		for (k = 1; k <= m; k++) rank[byq[k]] = k
		swaps = ""
		for (k = 1; k <= m; k++) for (n = k + 1; n <= m; n++) {
			x = bymed[k]; y = bymed[n]
			if (rank[y] > rank[x]) continue
			s = th[g, y, q] != "" && tl[g, x, q] != "" && th[g, y, q] + 0 < tl[g, x, q] + 0
			swaps = swaps (swaps == "" ? "" : "; ") y " before " x " (" (s ? "decided: their intervals are apart" : "within the noise: their intervals overlap") ")"
		}
		s = ""; for (k = 1; k <= m; k++) s = s (k > 1 ? ", " : "") byq[k]
		return swaps == "" ? "The order by " what " (" s ") is the order by median." : \
			"The order by " what " is " s ", not the order by median: " swaps "."
	}

	function scenario_answer(    i, p, g, f, ph, j, sweep, phased) {
		sweep = npoints > 1 || pointkey != ""
		title("Which storage for this game")
		para(run)
		para("Scenario " scen (sweep ? ", swept over " pointkey : "") ": per frame" (sweep ? " at each point" : "") \
			", the fastest backend and its time, the floor'"'"'s (the same frames over plain arrays) and the harness'"'"'s alone; " \
			"then every other backend'"'"'s time over the fastest'"'"'s, paired by process and frame, with its interval (95%, " \
			"Bonferroni over the comparisons of its group), nearest first. tied: the interval holds 1, this run cannot tell it " \
			"from the fastest.")
		table_start((sweep ? pointkey "|" : "") "fastest|its frame|floor|harness alone|the others, over the fastest [95%, paired]")
		table_right(sweep ? "3 4 5" : "2 3 4")
		for (i = 1; i <= npoints; i++) {
			p = points[i]; g = p SUBSEP "frame"
			if (!nmember[g]) continue
			f = fastest_of(g)
			if (format == "verdicts") { verdicts(g, "frame|" p, f); continue }
			table_row(); j = 0
			if (sweep) cell[nrow, ++j] = p
			cell[nrow, ++j] = f; fastcell[nrow, j] = 1
			cell[nrow, ++j] = ms(med[g, f])
			cell[nrow, ++j] = (g, "floor") in side ? ms(side[g, "floor"]) : "-"
			cell[nrow, ++j] = (g, "harness") in side ? ms(side[g, "harness"]) : "-"
			others(g, f, nrow, ++j)
		}
		table_print()
		if (format == "md") print ""
		for (i = 1; i <= ncross; i++) para(crossover[i])
		if (tails && format != "verdicts") tails_answer(sweep)
		if ((brief && npoints > 1) || format == "verdicts") {
			para("By phase, at every point: in " note ".")
			return
		}
		if (format == "md") { print "### By phase"; print "" } else print "<h4>By phase</h4>"
		table_start((sweep ? pointkey "|" : "") "phase|fastest|its time|the others, over the fastest [95%, paired]")
		table_right(sweep ? "4" : "3")
		for (i = 1; i <= npoints; i++) {
			p = points[i]
			for (ph = 1; ph <= nphases[p]; ph++) {
				g = p SUBSEP phases[p, ph]
				if (phases[p, ph] == "frame" || !nmember[g]) continue
				f = fastest_of(g)
				table_row(); j = 0
				if (sweep) cell[nrow, ++j] = p
				cell[nrow, ++j] = phases[p, ph]
				cell[nrow, ++j] = f; fastcell[nrow, j] = 1
				cell[nrow, ++j] = ms(med[g, f])
				others(g, f, nrow, ++j)
			}
		}
		table_print()
		if (format == "md") print ""
	}
	' "${4:-$csv}"
}

# changes FIRST: the line that says how many verdicts changed between FIRST and $csv (empty if
# either has none)
changes_since() {
	{ answer verdicts 0 "" "$1" | sed 's/^/F|/'; answer verdicts 0 "" | sed 's/^/N|/'; } | awk -F'|' -v first="$1" '
	$1 == "F" { key = $2 "|" $3 "|" $4 "|" $5; was[key] = $6; if (!(key in seen)) { seen[key] = 1; keys[++n] = key }; next }
	$1 == "N" { key = $2 "|" $3 "|" $4 "|" $5; now[key] = $6; if (!(key in seen)) { seen[key] = 1; keys[++n] = key } }
	END {
		for (i = 1; i <= n; i++) {
			k = keys[i]
			if (!(k in was) || !(k in now)) continue
			total++
			if (was[k] != now[k]) changed++
			if ((was[k] == "fastest" && now[k] == "slower") || (was[k] == "slower" && now[k] == "fastest")) reversed++
		}
		if (!total) exit
		printf "Since the first provisional answer (%s): %d of %d verdicts changed (%.1f%%), %d reversed (%.1f%%: the fastest became slower than another, or one called slower became the fastest).", \
			first, changed, total, 100 * changed / total, reversed, 100 * reversed / total
	}'
}
changes=
[ -z "$first" ] || [ "$first" = "$csv" ] || changes=$(changes_since "$first")

# answer's status: 0, 3 a CSV it cannot read (exit 2), anything else a failed write (exit 1)
if [ "$html" = 1 ]; then
	answer html 0 ""
	rc=$?
	[ "$rc" -ne 3 ] || exit 2
	[ "$rc" -eq 0 ] || exit 1
	exit 0
fi
if [ -n "$out" ]; then
	dir=$(dirname "$out")
	[ -d "$dir" ] || { echo "answer.sh: no folder $dir for $out" >&2; exit 2; }
	temp=$out.tmp.$$
	trap 'rm -f "$temp"' EXIT
	trap 'exit 1' HUP INT TERM
	answer md 0 "" >"$temp"
	rc=$?
	[ "$rc" -ne 3 ] || exit 2
	# The last line says the table is whole: a write cut short (a full disk) lacks it.
	if [ "$rc" -ne 0 ] || [ "$(tail -n 1 "$temp" 2>/dev/null)" != "(scripts/answer.sh $csv)" ] || ! mv -f "$temp" "$out"; then
		echo "answer.sh: cannot write $out (a full disk?); nothing was replaced" >&2
		exit 1
	fi
fi
answer md "$brief" "${out:-the table without -b}"
rc=$?
[ "$rc" -ne 3 ] || exit 2
[ "$rc" -eq 0 ] || exit 1
[ -z "$out" ] || echo "(written to $out)"
