# common.sh: what the figure scripts share (plot.sh, compare.sh, report.sh source it): reading
# an ecsbench CSV by its column names, the runs it names, and running gnuplot quietly.
# The sourcing script sets prog (its name, for messages), tmp (a scratch folder it removes),
# verbose (1: show what gnuplot says) and bin (build/ecsbench, for --list) before calling these.
gp_quote() { printf "%s" "$1" | sed "s/'/''/g"; } # a gnuplot single-quoted string's body

# Distinct values of column $1 of the comma-separated rows on stdin, in order of first appearance.
distinct() { awk -F, -v c="$1" '!seen[$c]++ { print $c }'; }

# A '#' header value of an ecsbench CSV: header FILE KEY -> the rest of the line "# KEY ...".
header() { sed -n "s/^# $2 //p" "$1" | head -n 1; }

# normalise CSV: the data rows of an ecsbench CSV, columns found by their header names, as
#   1 backend, 2 profile, 3 workload, 4 entities, 5 components, 6 component_bytes,
#   7 ns_per_entity, 8 bar low per entity, 9 bar high per entity, 10 median_ns, 11 bar low ns,
#   12 bar high ns, 13 peak_bytes, 14 allocations, 15 noisy, 16 rounds, 17 threads,
#   18 ratio_to_best, 19 ratio_ci_low, 20 ratio_ci_high, 21 vs_best (empty where the CSV has none)
# A row's workload is named with its history (--history): "iterate" under lived-in (the headline
# figures') and for the workloads that take none (Varkor's: "-"), "iterate-pristine" under
# pristine, and so on; so every figure and table is of one history. A CSV from before histories
# (no history column) was built in order and never changed: its swept rows read as pristine.
# A threaded workload (parallel-iterate: a row per thread count T) keeps the rows of its
# largest T only, so that every figure and table made for all workloads shows one row per
# backend, N and k; its speedup against T has a figure of its own (plot.sh). A CSV without a
# threads column reads as T = 1.
# The bars are ci_low_ns..ci_high_ns (the 95% confidence interval of median_ns) where the CSV
# has them, min_ns..max_ns otherwise (has_ci tells which); a row without a value has no bar.
# ns_per_entity is median_ns / (entities x rounds) (harness/sweep/sweep_report.c): a run of a
# round-based workload goes over its N entities `rounds` times; a workload whose cost is per run
# (empty-pass) writes median_ns itself, and its bars are per run too. Without a rounds column they
# come back from that ratio, and the bars per entity use the same divisor. A CSV of an older
# harness (no component_bytes, noisy) reads as 8-byte components, none noisy.
normalise() {
	awk -F, -v OFS=, -v file="$1" -v prog="$prog" '
		function fail(msg) { printf "%s: %s: %s\n", prog, file, msg > "/dev/stderr"; bad = 1; exit 1 }
		/^#/ || !NF { next }
		# the first reading: the largest T of each workload
		FNR == NR {
			if ($1 == "backend") {
				tc = wc = 0
				for (i = 1; i <= NF; i++) { if ($i == "threads") tc = i; if ($i == "workload") wc = i }
			} else if (tc && wc && $tc + 0 > most[$wc]) most[$wc] = $tc + 0
			next
		}
		$1 == "backend" {
			delete c
			for (i = 1; i <= NF; i++) c[$i] = i
			m = split("backend profile workload entities components median_ns min_ns max_ns ns_per_entity", need, " ")
			for (i = 1; i <= m; i++) if (!(need[i] in c)) fail("no column " need[i] " in its header row")
			lo = ("ci_low_ns" in c) && ("ci_high_ns" in c) ? "ci_low_ns" : "min_ns"
			hi = lo == "ci_low_ns" ? "ci_high_ns" : "max_ns"
			hdr = 1
			next
		}
		!hdr { fail("a data row before the header row") }
		{
			t = ("threads" in c) ? $(c["threads"]) + 0 : 1
			if (("threads" in c) && t != most[$(c["workload"])]) next
			n = $(c["entities"]) + 0; med = $(c["median_ns"]) + 0; npe = $(c["ns_per_entity"]) + 0
			if ("rounds" in c) r = $(c["rounds"]) + 0
			else r = npe > 0 && n > 0 ? int(med / (npe * n) + 0.5) : 1
			if (r < 1) r = 1
			u = n > 0 ? n * r : 1
			# a workload whose ns_per_entity is per run (empty-pass: per pass) divides by 1
			if (npe > 0 && n > 1 && int(med / npe + 0.5) == 1) u = 1
			l = $(c[lo]); h = $(c[hi])
			if (l == "" || h == "") { l = med; h = med }
			w = $(c["workload"])
			hist = ("history" in c) ? $(c["history"]) : w ~ /^varkor-/ ? "-" : "pristine"
			if (hist != "lived-in" && hist != "-" && hist != "") w = w "-" hist
			print $(c["backend"]), $(c["profile"]), w, n, $(c["components"]),
				("component_bytes" in c) ? $(c["component_bytes"]) : 8,
				npe, sprintf("%.6g", l / u), sprintf("%.6g", h / u),
				med, l, h,
				("peak_bytes" in c) ? $(c["peak_bytes"]) : "", ("allocations" in c) ? $(c["allocations"]) : "",
				("noisy" in c) ? $(c["noisy"]) + 0 : 0, r, t,
				("ratio_to_best" in c) ? $(c["ratio_to_best"]) : "", ("ratio_ci_low" in c) ? $(c["ratio_ci_low"]) : "",
				("ratio_ci_high" in c) ? $(c["ratio_ci_high"]) : "", ("vs_best" in c) ? $(c["vs_best"]) : ""
		}
		END { if (!bad && !hdr) fail("no header row (backend,profile,...)") }' "$1" "$1"
}
# has_ci CSV: whether its bars are the 95% confidence interval (see normalise).
has_ci() { grep -v '^#' "$1" | grep -m 1 '^backend,' | tr ',' '\n' | grep -qx ci_high_ns &&
	grep -v '^#' "$1" | grep -m 1 '^backend,' | tr ',' '\n' | grep -qx ci_low_ns; }
# processes_of CSV -> the most processes a row of CSV was measured in (its processes column; 0
# for a CSV without one, of an older ecsbench).
processes_of() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "processes") c = i; next }
		c && $c + 0 > m { m = $c + 0 } END { print m + 0 }'
}
# interval_caveat CSV -> "" or, for a title line of its own, what its 95% intervals cannot say:
# with 1 process they are within that process (its samples) and say nothing of another; with 2,
# Student's t has 1 degree of freedom (12.71 standard errors each side, where 5 processes have
# 2.78), so that an interval can span decades and is itself unsure. (build/ecsbench says the same
# at the end of such a run, and the CSV header too.)
interval_caveat() {
	case $(processes_of "$1") in
	1) echo "the intervals are within 1 process and say nothing of another (PROCESSES=5 to measure across)" ;;
	2) echo "the intervals are of 2 processes: t with 1 degree of freedom, wide and unsure (PROCESSES=5 to read them)" ;;
	esac
}
# gp_line TEXT -> the tail of a gnuplot string expression that puts TEXT on a line of its own
# ("" for no TEXT): note='...'$(gp_line "$caveat")
gp_line() { [ -z "$1" ] || printf " . \"\\\\n\" . '%s'" "$(gp_quote "$1")"; }
# bars_text CSV -> what its error bars are.
bars_text() { if has_ci "$1"; then echo "bars: 95% CI"; else echo "bars: min..max"; fi; }
# centre_text CSV -> what its median_ns is: the geometric mean of the processes' medians in a CSV
# that says so in its `#` lines (docs/method.md), the median of all samples in an older one.
# centre_of CSV SAMPLES -> the words a title gives it, with SAMPLES ("up to 3 samples x 5 ...")
centre_text() {
	if grep -q "^# interval: per process, Tukey's median polish .*median_ns is the geometric mean of a row's levels" "$1"; then
		echo "geometric mean of process levels"
	elif grep -q "^# interval: median_ns is a row's centre, the geometric mean of its processes' medians" "$1"; then
		echo "geometric mean of process medians"
	elif grep -q "^# interval: median_ns is a row's centre, the geometric mean of its samples" "$1"; then
		echo "geometric mean"
	else
		echo "median"
	fi
}
centre_of() {
	c=$(centre_text "$1")
	if [ "$c" = median ]; then echo "median of $2"; else echo "$c ($2)"; fi
}
# run_of CSV -> "commit C, DATE": the run a CSV holds, from its `#` lines.
run_of() {
	c=$(header "$1" "ecsbench commit")
	d=$(header "$1" date)
	echo "commit ${c:-?}, ${d:-no date}"
}
# noisy_means CSV -> what the CSV calls noisy, from its `#` lines ("rows with ... flagged noisy").
noisy_means() {
	sed -n 's/^# .*; \(rows [^;]*\) are flagged noisy.*/\1/p; s/^# .*; \(rows [^;]*\) flagged noisy.*/\1/p' "$1" | head -n 1
}

# png_whole FILE: whether FILE is a whole PNG. gnuplot does not report a failed write: on a full
# disk it exits 0 with the PNG cut short (or empty); a PNG ends with its IEND chunk.
png_whole() { [ -s "$1" ] && [ "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ]; }

# gp SCRIPT ARGS: gnuplot -e ARGS SCRIPT. What gnuplot says goes to a log, shown when it fails
# (or with -v): a normal run prints no warnings.
# ECSBENCH_GP_TRACE=FILE appends "SCRIPT<tab>ARGS" of every figure to FILE, for the tests
# (tests/figures.sh reads what a figure was told without looking at the picture).
gp() {
	[ -z "${ECSBENCH_GP_TRACE:-}" ] || printf '%s\t%s\n' "$(basename "$1")" "$2" >>"$ECSBENCH_GP_TRACE"
	if gnuplot -e "$2" "$1" 2>"$tmp/gnuplot.log"; then
		[ "$verbose" = 0 ] || cat "$tmp/gnuplot.log" >&2
	else
		echo "$prog: gnuplot failed on $(basename "$1"):" >&2
		cat "$tmp/gnuplot.log" >&2
		exit 1
	fi
}

# Varkor's workloads run at a fixed size (not swept over N): one group of bars each.
fixed_re='^varkor-'

# The built ecsbench's lists, where it exists: listed backends|workloads -> names in order.
listed() {
	[ -x "$bin" ] || return 0
	"$bin" --list 2>/dev/null | awk -v h="$1" '/^[a-z]/ { on = $1 == h || $1 == h ":"; next } on { print $1 }'
}
# describe WORKLOAD -> what its timed region holds, from --list ("" without the binary); a
# workload named with its history ("iterate-pristine", see normalise) is its workload's.
describe() {
	[ -x "$bin" ] || return 0
	"$bin" --list 2>/dev/null | awk -v w="$1" '
		/^[a-z]/ { on = $1 == "workloads" ? 1 : $1 == "histories" ? 2 : 0; next }
		on == 1 { line = $0; sub(/^ *[^ ]+ +/, "", line); sub(/ \[not in all[^]]*\]$/, "", line); timed[$1] = line }
		on == 2 { hist[$1] = 1 }
		END {
			if (w in timed) { print timed[w]; exit }
			for (h in hist) {
				n = length(w) - length(h) - 1
				if (n > 0 && substr(w, n + 1) == "-" h && (substr(w, 1, n) in timed)) {
					print timed[substr(w, 1, n)]; exit
				}
			}
		}'
}
# history_text WORKLOAD -> "history NAME: what it is" for a workload of the sweep (named as
# normalise names it: no suffix is lived-in), from --list ("" without the binary).
history_text() {
	[ -x "$bin" ] || return 0
	"$bin" --list 2>/dev/null | awk -v w="$1" '
		/^[a-z]/ { on = $1 == "histories" ? 2 : 0; next }
		on == 2 { line = $0; sub(/^ *[^ ]+ +/, "", line); hist[$1] = line }
		END {
			for (h in hist) {
				n = length(w) - length(h) - 1
				if (n > 0 && substr(w, n + 1) == "-" h) { print "history " h ": " hist[h]; exit }
			}
			if ("lived-in" in hist) print "history lived-in: " hist["lived-in"]
		}'
}

# A backend keeps its colour and point shape in every figure (styles.gp): its place in palette,
# a space-separated list the sourcing script builds (the backends of `build/ecsbench --list`,
# then those the CSV files name, floor left out).
# in_palette_order NAMES... -> those names, in palette order
in_palette_order() {
	for p in $palette; do
		case " $* " in *" $p "*) printf '%s ' "$p" ;; esac
	done
}
# styles_of NAMES... -> the line style number of each
styles_of() {
	for b in "$@"; do
		echo "$palette" | tr ' ' '\n' | awk -v b="$b" 'NF { i++ } $0 == b { print i; exit }'
	done | tr '\n' ' '
}

# machine_of CSV -> the run's fingerprint of the memory system, from its `# machine values` line
# (harness/core/machine.h), short enough for a figure's source line: "machine: stream 0.248, chase
# 159 ns" (the CSV's header has the rest: steal, other work on the CPU, load), or "machine state
# not recorded" (a CSV of an older ecsbench).
machine_of() {
	sed -n 's/^# machine values //p' "$1" | head -n 1 | awk '
		{ for (i = 1; i <= NF; i++) { eq = index($i, "="); v[substr($i, 1, eq - 1)] = substr($i, eq + 1) } }
		function has(k) { return (k in v) && v[k] != "" && v[k] !~ /nan/ }
		END {
			if (!NR) print "machine state not recorded"
			else if (has("stream_ns") && has("chase_ns"))
				printf "machine: stream %.3g, chase %.3g ns\n", v["stream_ns"], v["chase_ns"]
			else print "machine: no fingerprint"
		}'
}
