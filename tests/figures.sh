#!/bin/sh
# figures.sh: the scripts that turn results into figures and tables, on small synthetic files in
# a temporary folder (never results/ or plots/), without valgrind. Checks what a test can see
# without looking at a picture:
#   cachegrind.sh  a case measured again replaces its row, other cases stay, and the CSV as it
#                  was is kept in previous/ (valgrind replaced by a stand-in that runs
#                  build/ecsbench natively and writes callgrind's totals); a run while another
#                  holds the CSV's lock is refused
#   table.sh       ENTITIES chosen and checked, tiny ratios as 1/x (never "(0.000)"), noisy rows
#                  marked; make table with CSV= and ENTITIES= writes beside that CSV, and on a
#                  full disk fails and leaves no table
#   plot.sh        a CSV where a backend lacks a panel, with and without the confidence-interval
#                  columns, and a cache CSV where a backend lacks a panel: exit 0, the figures
#                  written, and gnuplot says nothing (-v shows its warnings); a threaded
#                  workload (a row per T): its speedup figure, its time figure at its largest
#                  T, and table.sh's row at that T; a figure folder holds exactly the figures of
#                  the CSV drawn from (one of a workload the CSV lost goes); on a full disk
#                  plot.sh fails, leaves no partial PNG and the old figures as they were
#   answer.sh      the decision table on a CSV with known answers: the fastest at the largest N
#                  of each k, its floor ratio, the others nearest first, tied, slower, not
#                  measured; histories after the headline; a threaded workload at its largest T;
#                  Varkor's at their own N; the HTML's fastest cell; a CSV without paired ratios
#                  refused; -o writes what stdout shows, and on a full disk fails and leaves the
#                  old file; a scenario's frames per point, its phases, its crossover, brief
#   plot.sh        the ratio panels under the time figures where the CSV has paired ratios
#                  (gnuplot silent), none where it has not
#   styles.gp      eight distinct colours and point shapes (no two colours alike in CIELAB), the
#                  first 64 styles all distinct pairs, and the floor a dashed line
# Costs: about a second of gnuplot and a few short runs of build/ecsbench. Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=build/ecsbench
tmp=$(mktemp -d)
. tests/full_disk.sh
trap 'full_disk_free; rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   figures/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL figures/$1: $2"; failed=$((failed + 1)); }
# check NAME WHY COMMAND...: ok when COMMAND succeeds, else fail with WHY.
check() {
	name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else fail "$name" "$why"; fi
}

# --- cachegrind.sh: replacement -----------------------------------------------------------
# The stand-in: skips valgrind's options, runs the program, writes an output file with the
# events and totals lines that cachegrind.sh reads (Ir = $FAKE_IR, so that runs differ).
cat >"$tmp/valgrind" <<'EOF'
#!/bin/sh
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--callgrind-out-file=*) out=${1#*=} ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
"$@" || exit $?
printf 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: %s 400 200 0 30 10 0 3 1\n' "${FAKE_IR:-1000}" >"$out"
EOF
chmod +x "$tmp/valgrind"
cg=$tmp/cg/cachegrind-A.csv
cg_run() { # cg_run IR BACKENDS WORKLOADS
	FAKE_IR=$1 scripts/cachegrind.sh -x "$bin" -V "$tmp/valgrind" -b "$2" -w "$3" -n 1024 -k 2 -j 1 \
		-o "$cg" >"$tmp/cg.log" 2>&1
}
cases() { awk -F, -v b="$1" -v w="$2" '$3 == b && $6 == w' "$cg" | wc -l; }
instructions() { awk -F, -v b="$1" -v w="$2" '$3 == b && $6 == w { print $12 }' "$cg"; }
if ! cg_run 111 hash,sparse iterate; then
	fail cachegrind-first-run "exit status $?: $(tail -n 5 "$tmp/cg.log")"
elif ! cg_run 222 hash iterate,create; then
	fail cachegrind-second-run "exit status $?: $(tail -n 5 "$tmp/cg.log")"
else
	check cachegrind-replaces "hash iterate has $(cases hash iterate) rows after two runs" \
		[ "$(cases hash iterate)" -eq 1 ]
	check cachegrind-replaces-with-new "hash iterate's row has Ir $(instructions hash iterate), not the second run's 222" \
		[ "$(instructions hash iterate)" = 222 ]
	check cachegrind-keeps-others "sparse iterate's row (first run only) is gone or changed" \
		[ "$(instructions sparse iterate)" = 111 ]
	check cachegrind-adds-new-case "hash create was not added" [ "$(cases hash create)" -eq 1 ]
	# The floor: a case of its own per workload, N and k (--floor-alone), replaced like the
	# backends'; and a line of progress as each case ends (the second run had four).
	check cachegrind-floor "no one floor row per workload: iterate $(cases floor iterate), create $(cases floor create)" \
		sh -c "[ $(cases floor iterate) -eq 1 ] && [ $(cases floor create) -eq 1 ] && [ '$(instructions floor iterate)' = 222 ]"
	check cachegrind-progress "no progress line per case: $(grep 'cases done' "$tmp/cg.log" | tr '\n' '|')" \
		sh -c "[ \$(grep -c '^cachegrind.sh: [1-4] of 4 cases done (' '$tmp/cg.log') -eq 4 ] &&
			grep -q '^cachegrind.sh: [1-4] of 4 cases done (floor create N=1024 k=2); ' '$tmp/cg.log'"
	check cachegrind-one-header "the header row is there $(grep -c '^date,' "$cg") times" \
		[ "$(grep -c '^date,' "$cg")" -eq 1 ]
	check cachegrind-no-temporary "a temporary file is left beside the CSV" \
		[ "$(find "$tmp/cg" -name '*.tmp*' -o -name '*.lock' | wc -l)" -eq 0 ]
	kept=$(ls "$tmp/cg/previous/"*-cachegrind-A/cachegrind-A.csv 2>/dev/null)
	check cachegrind-keeps-previous "the CSV as it was before the run that replaced a row is not in previous/: $(ls -R "$tmp/cg")" \
		sh -c "[ -n '$kept' ] && [ \"\$(awk -F, '\$3 == \"hash\" && \$6 == \"iterate\" { print \$12 }' '$kept')\" = 111 ] &&
			grep -q 'the previous .*cachegrind-A.csv is kept in .*/previous/' '$tmp/cg.log'"
	scripts/lock.sh "$cg" "a test" sleep 30 2>/dev/null &
	holder=$!
	for _ in $(seq 100); do [ -e "$cg.lock" ] && break; sleep 0.1; done
	cg_run 333 hash iterate
	rc=$?
	check cachegrind-one-run-at-a-time "a run while another holds the CSV: exit $rc, $(tail -n 2 "$tmp/cg.log")" \
		sh -c "[ $rc -eq 2 ] && grep -q 'another run is writing $cg (pid $holder, since .*: a test)' '$tmp/cg.log' &&
			[ \"\$(awk -F, '\$3 == \"hash\" && \$6 == \"iterate\" { print \$12 }' '$cg')\" = 222 ]"
	pkill -P "$holder" sleep 2>/dev/null
	{ wait "$holder"; } 2>/dev/null
fi

# --- a synthetic timing CSV ---------------------------------------------------------------
# timing_csv FILE CI: eight backends (the five built ones and three made up), iterate and create
# at N = 1024..4096 and k = 1, 2; "gamma" lacks k = 2 (a backend missing from a panel); two rows
# noisy; vector allocates almost nothing next to hash (a ratio of about 1/20000). CI=1 adds the
# coming columns processes, ci_low_ns, ci_high_ns.
timing_csv() {
	awk -v ci="$2" 'BEGIN {
		print "# ecsbench commit 0123456789ab"
		print "# date 2026-01-02T03:04:05Z"
		print "# cpu Test CPU; 2 online"
		print "# profile A (32 component types, 16 systems); systems registered 16"
		print "# seed 1; reps 5; warmup 1; rows with mad_pct over 5 are flagged noisy; component size 8; scale 1"
		printf "backend,profile,systems,workload,history,entities,components,component_bytes,reps,inner,median_ns,min_ns,max_ns,mad_pct,noisy,ns_per_entity,peak_bytes,allocations,reuse,checksum%s\n",
			ci ? ",processes,ci_low_ns,ci_high_ns" : ""
		nb = split("hash tree vector sparse archetype alpha beta gamma", b, " ")
		nw = split("create iterate", w, " ")
		for (i = 1; i <= nw; i++) for (k = 1; k <= 2; k++) for (n = 1024; n <= 4096; n *= 2) for (j = 1; j <= nb; j++) {
			if (b[j] == "gamma" && k == 2) continue
			ns = n * (j + k) * (i == 1 ? 10 : 1)
			noisy = (b[j] == "tree" && n == 2048) ? 1 : 0
			allocs = b[j] == "hash" ? 3 * n * 7 : b[j] == "vector" ? 1 : 40
			printf "%s,A,16,%s,lived-in,%d,%d,8,5,1,%d,%d,%d,%.2f,%d,%.3f,%d,%d,,c0ffee%s\n", b[j], w[i], n, k,
				ns, ns * 0.9, ns * 1.2, noisy ? 7.5 : 1.0, noisy, ns / n, 1000 * n * j, allocs,
				ci ? sprintf(",3,%d,%d", ns * 0.95, ns * 1.05) : ""
		}
		print "floor,A,16,iterate,lived-in,1024,1,8,5,1,500,480,520,1.0,0,0.488,0,0,,c0ffee" (ci ? ",3,490,510" : "")
	}' >"$1"
}
timing_csv "$tmp/T.csv" 0
mkdir -p "$tmp/ci"
timing_csv "$tmp/ci/A.csv" 1

# --- summary.sh ---------------------------------------------------------------------------
# The README's at-a-glance table: the largest N by default, a cell per backend and workload,
# the floor's row, and no ratio where the CSV has none (this one has no ratio_to_floor column).
if scripts/summary.sh "$tmp/T.csv" >"$tmp/summary.md" 2>"$tmp/summary.err"; then
	check summary-largest-n "not at N = 4096: $(head -c 300 "$tmp/summary.md")" \
		grep -q 'N = 4096, k = 2' "$tmp/summary.md"
	check summary-cells "hash's row is not 'create, iterate' at N = 4096, k = 2" \
		grep -qF '| hash | 30.00 | 3.00 |' "$tmp/summary.md"
else
	fail summary-runs "exit status $?: $(cat "$tmp/summary.err")"
fi

# --- table.sh -----------------------------------------------------------------------------
if scripts/table.sh "$tmp/T.csv" hash 2048 2 >"$tmp/table.md" 2>"$tmp/table.err"; then
	check table-entities "no row of N=2048 in the table" grep -q 'iterate (N=2048, k=2)' "$tmp/table.md"
	check table-no-zero-ratio "a ratio prints as (0.000): $(grep -F '(0.000)' "$tmp/table.md" | head -n 1)" \
		sh -c "! grep -qF '(0.000)' '$tmp/table.md'"
	check table-tiny-ratio "vector's allocations (1 against hash's 43008) do not read (1/43,000)" \
		grep -q '| vector | .*(1/43,000) 1 |' "$tmp/table.md"
	check table-noisy "tree's noisy row is not marked" grep -q '| tree | .* (noisy) |' "$tmp/table.md"
	check table-noisy-only-noisy "a row that is not noisy is marked" \
		sh -c "! grep '^|.*(noisy)' '$tmp/table.md' | grep -qv '| tree |'"
	check table-noisy-meaning "the table does not say what noisy means" \
		grep -q 'rows with mad_pct over 5' "$tmp/table.md"
else
	fail table-runs "exit status $?: $(cat "$tmp/table.err")"
fi
scripts/table.sh "$tmp/T.csv" hash >"$tmp/table-default.md" 2>&1
check table-default-largest-n "without ENTITIES the table is not at the largest N (4096)" \
	grep -q 'create (N=4096, k=2)' "$tmp/table-default.md"
scripts/table.sh "$tmp/T.csv" hash 3000 >"$tmp/out" 2>"$tmp/err"
rc=$?
check table-absent-n "ENTITIES=3000: exit $rc, message $(cat "$tmp/err")" \
	sh -c "[ $rc -eq 2 ] && grep -q 'no swept rows with N = 3000; it has N = 1024, 2048, 4096' '$tmp/err'"
scripts/table.sh "$tmp/T.csv" hash 1x >"$tmp/out" 2>"$tmp/err"
rc=$?
check table-bad-n "ENTITIES=1x: exit $rc" sh -c "[ $rc -eq 2 ] && grep -q \"not '1x'\" '$tmp/err'"
# ENTITIES as the axes write it: 2k is 2048.
scripts/table.sh "$tmp/T.csv" hash 2k 2 >"$tmp/out" 2>"$tmp/err"
check table-entities-k "ENTITIES=2k is not N = 2048: $(cat "$tmp/err")" cmp -s "$tmp/out" "$tmp/table.md"
make -s --no-print-directory table CSV="$tmp/T.csv" ENTITIES=1024 >"$tmp/make-table.out" 2>&1
rc=$?
check make-table-csv-entities "make table CSV= ENTITIES=: exit $rc, $(tail -n 2 "$tmp/make-table.out")" \
	sh -c "[ $rc -eq 0 ] && grep -q 'iterate (N=1024, k=2)' '$tmp/T-table.md'"
# A full disk: make table fails, and leaves neither a table nor its temporary file (the CSV is a
# link into the full disk, so that the table is written there).
full_disk_make "$tmp/full-table" 0
ln -s "$tmp/T.csv" "$tmp/full-table/T.csv"
on_full_disk make -s --no-print-directory table CSV="$tmp/full-table/T.csv" ENTITIES=1024 >"$tmp/out" 2>"$tmp/err"
rc=$?
check table-full-disk "make table on a full disk ($full_disk_mode): exit $rc, $(cat "$tmp/err"); $(ls "$tmp/full-table")" \
	sh -c "[ $rc -eq 2 ] && grep -q 'T-table.md was not written' '$tmp/err' && [ \"\$(ls '$tmp/full-table')\" = T.csv ]"
full_disk_free

# --- plot.sh ------------------------------------------------------------------------------
# plotted NAME WHY-PREFIX ARGS...: plot.sh -v exits 0, writes the files, and no warning
plotted() {
	name=$1
	shift
	scripts/plot.sh -v "$@" >"$tmp/plot.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit status $rc: $(tail -n 3 "$tmp/plot.log")"
	elif grep -i 'warning' "$tmp/plot.log" >/dev/null; then
		fail "$name" "gnuplot warned: $(grep -i warning "$tmp/plot.log" | head -n 2)"
	else
		ok "$name"
	fi
}
plotted plot-missing-backend -r "$tmp" -i "$tmp/T.csv" -o "$tmp/plots" A
check plot-writes-time-figures "no iterate.png or create.png" \
	test -s "$tmp/plots/A/iterate.png" -a -s "$tmp/plots/A/create.png"
ECSBENCH_GP_TRACE=$tmp/trace-ci plotted plot-ci-columns -r "$tmp/ci" -o "$tmp/ci-plots" A
check plot-ci-writes "no iterate.png from the CSV with CI columns" test -s "$tmp/ci-plots/A/iterate.png"
# The profiles figure keeps a slot for each profile and says why one is missing (here AA and AAA
# have no CSV), so that a figure of profile A alone never reads as a comparison.
check profiles-say-missing "profiles.gp was not told AA and AAA are missing: $(grep '^profiles.gp' "$tmp/trace-ci" | head -n 1 | tr ';' '\n' | grep absent)" \
	sh -c "grep '^profiles.gp' '$tmp/trace-ci' | grep \"absent='AA AAA'\" | grep \"absentwhy_AA='no AA.csv:|make bench|PROFILE=AA'\" |
		grep -q \"absentwhy_AAA='no AAA.csv:|make bench|PROFILE=AAA'\""
# Three processes: no word on the intervals; one or two: every figure says what they cannot say.
check intervals-three-processes "a figure of 3 processes warns: $(grep -o 'the intervals are [^.]*' "$tmp/trace-ci" | head -n 1)" \
	sh -c "! grep -q 'the intervals are' '$tmp/trace-ci'"
for p in 1 2; do
	mkdir -p "$tmp/p$p"
	awk -F, -v OFS=, -v p="$p" '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) if ($i == "processes") c = i; print; next }
		{ $c = p; print }' "$tmp/ci/A.csv" >"$tmp/p$p/A.csv"
	ECSBENCH_GP_TRACE=$tmp/trace-p$p scripts/plot.sh -r "$tmp/p$p" -o "$tmp/p$p/plots" A >"$tmp/plot.log" 2>&1
	want="the intervals are within 1 process and say nothing of another"
	[ "$p" = 1 ] || want="the intervals are of 2 processes: t with 1 degree of freedom, wide and unsure"
	n=$(grep '^time.gp' "$tmp/trace-p$p" | grep -cF "$want")
	check "intervals-$p-process" "the figures of $p process(es) do not say '$want': $n of 2 time figures" \
		sh -c "[ $n -eq 2 ] && grep '^profiles.gp' '$tmp/trace-p$p' | grep -qF 'A: $want'"
done
# The memory figures: create, iterate and fragmented (the workloads whose storage is their own),
# from live_bytes_per_entity and peak_bytes / N, a series per k and backend; none without those
# columns (the CSV above has no live_bytes_per_entity).
mkdir -p "$tmp/mem"
awk -F, -v OFS=, '/^#/ { print; next } $1 == "backend" { print $0, "live_bytes_per_entity"; next }
	{ print $0, $17 / $6 / 2 }' "$tmp/ci/A.csv" >"$tmp/mem/A.csv"
ECSBENCH_GP_TRACE=$tmp/trace-mem plotted plot-memory -r "$tmp/mem" -o "$tmp/mem-plots" A
check plot-memory-figures "not memory-create.png and memory-iterate.png alone: $(ls "$tmp/mem-plots/A" | grep memory | tr '\n' ' ')" \
	sh -c "[ \"\$(ls '$tmp/mem-plots/A' | grep memory | tr '\n' ' ')\" = 'memory-create.png memory-iterate.png ' ] &&
		[ -z \"\$(ls '$tmp/ci-plots/A' | grep memory)\" ]"
check plot-memory-series "memory.gp was not given every k and backend, with the floor: $(grep '^memory.gp' "$tmp/trace-mem" | tr ';' '\n' | grep 'ks=\|floor=\|workload=' | tr '\n' ' ')" \
	sh -c "grep '^memory.gp' '$tmp/trace-mem' | grep \"workload='iterate'\" | grep \"ks='1 2 '\" | grep -q 'floor=1' &&
		grep '^memory.gp' '$tmp/trace-mem' | grep \"workload='create'\" | grep \"backends='hash tree vector sparse archetype alpha beta gamma '\" | grep -q 'floor=0'"

# Histories: a CSV of two gives a figure per workload and history, the lived-in one under the
# workload's name; a CSV from before histories (no history column) reads as pristine.
mkdir -p "$tmp/hist" "$tmp/old"
awk -F, -v OFS=, '/^#/ { print; next } $1 == "backend" { print; next }
	{ print; $5 = "pristine"; $11 = $11 / 3; print }' "$tmp/T.csv" >"$tmp/hist/A.csv"
plotted plot-histories -r "$tmp/hist" -o "$tmp/hist-plots" A
check plot-history-figures "not both iterate.png and iterate-pristine.png: $(ls "$tmp/hist-plots/A" | tr '\n' ' ')" \
	sh -c "test -s '$tmp/hist-plots/A/iterate.png' && test -s '$tmp/hist-plots/A/iterate-pristine.png'"
scripts/summary.sh "$tmp/hist/A.csv" >"$tmp/hist-summary.md" 2>&1
check summary-histories "no column iterate-pristine beside iterate: $(grep -m 1 '^| backend' "$tmp/hist-summary.md")" \
	grep -qF '| backend | create | create-pristine | iterate | iterate-pristine |' "$tmp/hist-summary.md"
awk -F, -v OFS=, '/^#/ { print; next } { $5 = ""; sub(/,,/, ","); print }' "$tmp/T.csv" >"$tmp/old/A.csv"
plotted plot-before-histories -r "$tmp/old" -o "$tmp/old-plots" A
check plot-before-histories-pristine "a CSV without histories did not read as pristine: $(ls "$tmp/old-plots/A" | tr '\n' ' ')" \
	test -s "$tmp/old-plots/A/iterate-pristine.png"
# A cache CSV where only hash was measured at N = 1024, as a short trial leaves it, and the floor
# at 4096 (cachegrind.sh's --floor-alone case): a bar after the backends', "not measured" at 1024.
cgcsv=$tmp/cache/cachegrind-A.csv
mkdir -p "$tmp/cache"
awk 'BEGIN {
	print "date,commit,backend,profile,systems,workload,entities,components,component_bytes,inner,entity_ops,instructions,d_refs,d1_misses,lld_misses,d1_miss_pct,lld_miss_pct,instr_per_entity,d_refs_per_entity,d1_misses_per_entity,lld_misses_per_entity,i1,d1,ll,checksum"
	nb = split("hash tree vector", b, " ")
	for (j = 1; j <= nb; j++)
		printf "2026-01-02T03:04:05Z,0123456789ab,%s,A,16,iterate,4096,2,8,1,4096,1,1,1,1,1,1,1,1,%.2f,%.2f,32768:8:64,32768:8:64,8388608:16:64,c0ffee\n", b[j], j, j / 10
	print "2026-01-03T03:04:05Z,fedcba987654,hash,A,16,iterate,1024,2,8,1,1024,1,1,1,1,1,1,1,1,2.5,0,32768:8:64,32768:8:64,8388608:16:64,c0ffee"
	print "2026-01-02T03:04:05Z,0123456789ab,floor,A,16,iterate,4096,2,8,1,4096,1,1,1,1,1,1,1,1,0.05,0.01,32768:8:64,32768:8:64,8388608:16:64,c0ffee"
}' >"$cgcsv"
ECSBENCH_GP_TRACE=$tmp/trace-cache plotted plot-cache-missing-backend -r "$tmp/cache" -o "$tmp/cache-plots" A
check plot-cache-writes "no cache-iterate.png" test -s "$tmp/cache-plots/A/cache-iterate.png"
check plot-cache-floor "cache.gp was not given the floor: $(grep '^cache.gp' "$tmp/trace-cache" | tr ';' '\n' | grep 'floor\|have' | tr '\n' ' ')" \
	sh -c "grep '^cache.gp' '$tmp/trace-cache' | grep -q \"floor=1; .*have1=' hash '; .*have2=' hash tree vector floor '\""
scripts/plot.sh -r "$tmp/cache" -o "$tmp/cache-plots" A >"$tmp/plot.log" 2>&1
check plot-quiet "a normal run printed more than the files it wrote: $(grep -v '^plot.sh: wrote' "$tmp/plot.log" | head -n 2)" \
	sh -c "! grep -qv '^plot.sh: wrote' '$tmp/plot.log'"

# --- a threaded workload ------------------------------------------------------------------
mkdir -p "$tmp/par"
awk 'BEGIN {
	print "# ecsbench commit 0123456789ab"
	print "# date 2026-01-02T03:04:05Z"
	print "# cpu Test CPU; 4 online; pinned to cpu 3; a parallel row pins its thread t to the t-th of cpus 3,0-2 (thread 0: the measuring thread)"
	print "# profile A (32 component types, 16 systems); systems registered 16"
	print "# processes 3, spread over the run (random layout); per process 1 warm-up and 3 timed samples"
	print "backend,profile,systems,workload,history,entities,components,threads,component_bytes,processes,reps,inner,median_ns,ci_low_ns,ci_high_ns,noisy,min_ns,max_ns,ns_per_entity,ratio_to_floor,speedup,speedup_ci_low,speedup_ci_high,peak_bytes,allocations,checksum"
	nb = split("hash vector archetype floor", b, " ")
	for (k = 1; k <= 2; k++) for (n = 1024; n <= 2048; n *= 2) for (t = 1; t <= 4; t *= 2) for (j = 1; j <= nb; j++) {
		# vector lacks T = 4 at k = 2; a row median is 1000 T + the backend number
		if (b[j] == "vector" && k == 2 && t == 4) continue
		# hash at k = 1, T = 4: an interval far above the axis (which ends at 2 T x 1.1)
		ns = 1000 * t + j; s = t == 1 ? 1 : t * 0.8 / j; hi = b[j] == "hash" && k == 1 && t == 4 ? 20 : s * 1.1
		printf "%s,A,16,parallel-iterate,lived-in,%d,%d,%d,8,3,3,1,%d,%d,%d,0,%d,%d,%.4f,1.0,%.3f,%.3f,%.3f,100,0,c0ffee\n",
			b[j], n, k, t, ns, ns - 1, ns + 1, ns - 1, ns + 1, ns / n, s, s * 0.9, hi
	}
}' >"$tmp/par/A.csv"
ECSBENCH_GP_TRACE=$tmp/trace-par plotted plot-threaded -r "$tmp/par" -o "$tmp/par-plots" A
check plot-speedup-cut-marked "the interval above the axis is not marked: $(grep '^speedup.gp' "$tmp/trace-par" | tr ';' '\n' | grep 'cuthave\|ymax')" \
	sh -c "grep '^speedup.gp' '$tmp/trace-par' | grep -q \"cuthave=' 1/hash '; .*ymax=8;\""
check plot-speedup-figure "no parallel-iterate-speedup.png" test -s "$tmp/par-plots/A/parallel-iterate-speedup.png"
check plot-threaded-time-figure "no parallel-iterate.png" test -s "$tmp/par-plots/A/parallel-iterate.png"
scripts/table.sh "$tmp/par/A.csv" hash 2048 1 >"$tmp/par-table.md" 2>&1
check table-threaded-largest-t "the table is not at T = 4 (hash 4.00 us): $(grep 'hash' "$tmp/par-table.md")" \
	sh -c "grep -q 'parallel-iterate (N=2048, k=1, T=4) | hash | 4.00 us' '$tmp/par-table.md'"

# --- answer.sh: a run's own answer ---------------------------------------------------------
# A CSV with known answers, in the columns build/ecsbench writes (a subset): create at N = 1024
# (not the largest: left out) and 2048, k = 1 and 2; get under pristine (a line of its own,
# after the lived-in ones); parallel-iterate at T = 1 and 2 (T = 2 only); varkor-add at its own
# N. tree lacks create k = 1 (not measured); sparse is tied with the fastest there.
mkdir -p "$tmp/ans"
cat >"$tmp/ans/A.csv" <<'CSV'
# ecsbench commit 0123456789ab
# date 2026-01-02T03:04:05Z
# cpu Test CPU; 2 online; pinned to the cpu it started on, 1; a parallel row pins its thread t to the t-th of cpus 1,0
# profile A (32 component types, 16 systems); systems registered 16
# processes 5, spread over the run (random layout); per process 1 warm-up and 3 timed samples
backend,profile,systems,workload,history,entities,components,threads,processes,median_ns,ci_low_ns,ci_high_ns,noisy,min_ns,max_ns,ns_per_entity,ratio_to_floor,floor_ci_low,floor_ci_high,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best,peak_bytes,allocations,checksum
hash,A,16,create,lived-in,1024,1,1,5,10240,9000,11000,0,9000,11000,10.0,3.0,2.5,3.5,1.000,1.000,1.000,best,1,1,c0ffee
archetype,A,16,create,lived-in,1024,1,1,5,20480,19000,22000,0,19000,22000,20.0,6.0,5.5,6.5,2.000,1.800,2.200,slower,1,1,c0ffee
floor,A,16,create,lived-in,1024,1,1,5,3413,3300,3500,0,3300,3500,3.333,1.000,1.000,1.000,,,,,1,1,c0ffee
archetype,A,16,create,lived-in,2048,1,1,5,40960,38000,44000,0,38000,44000,20.0,7.000,6.200,7.900,1.000,1.000,1.000,best,1,1,c0ffee
sparse,A,16,create,lived-in,2048,1,1,5,43008,41000,45000,0,41000,45000,21.0,7.35,6.5,8.3,1.050,0.990,1.090,tied,1,1,c0ffee
vector,A,16,create,lived-in,2048,1,1,5,81920,78000,86000,0,78000,86000,40.0,14.0,13.0,15.0,2.000,1.850,2.170,slower,1,1,c0ffee
hash,A,16,create,lived-in,2048,1,1,5,327680,300000,350000,0,300000,350000,160.0,56.0,50.0,62.0,8.000,7.000,9.000,slower,1,1,c0ffee
floor,A,16,create,lived-in,2048,1,1,5,5851,5700,6000,0,5700,6000,2.857,1.000,1.000,1.000,,,,,1,1,c0ffee
archetype,A,16,create,lived-in,2048,2,1,5,61440,58000,65000,0,58000,65000,30.0,5.00,4.50,5.60,1.100,1.040,1.160,slower,1,1,c0ffee
sparse,A,16,create,lived-in,2048,2,1,5,55855,50000,60000,0,50000,60000,27.27,4.55,4.10,5.00,1.000,1.000,1.000,best,1,1,c0ffee
vector,A,16,create,lived-in,2048,2,1,5,58000,50000,66000,0,50000,66000,28.32,4.72,4.0,5.5,1.038,0.950,1.130,tied,1,1,c0ffee
hash,A,16,create,lived-in,2048,2,1,5,300000,280000,320000,0,280000,320000,146.5,24.4,22.0,27.0,5.371,5.000,5.800,slower,1,1,c0ffee
tree,A,16,create,lived-in,2048,2,1,5,400000,380000,420000,0,380000,420000,195.3,32.6,30.0,35.0,7.161,6.500,7.900,slower,1,1,c0ffee
floor,A,16,create,lived-in,2048,2,1,5,12288,12000,12500,0,12000,12500,6.0,1.000,1.000,1.000,,,,,1,1,c0ffee
vector,A,16,get,pristine,2048,2,1,5,321536,300000,340000,0,300000,340000,157.0,9.97,9.0,11.0,1.000,1.000,1.000,best,1,1,c0ffee
sparse,A,16,get,pristine,2048,2,1,5,336648,310000,360000,0,310000,360000,164.4,10.44,9.4,11.6,1.047,1.007,1.089,slower,1,1,c0ffee
floor,A,16,get,pristine,2048,2,1,5,32256,31000,33000,0,31000,33000,15.75,1.000,1.000,1.000,,,,,1,1,c0ffee
hash,A,16,parallel-iterate,lived-in,2048,1,1,5,1024,1000,1050,0,1000,1050,0.5,1.0,0.9,1.1,1.000,1.000,1.000,best,1,1,c0ffee
archetype,A,16,parallel-iterate,lived-in,2048,1,1,5,1100,1000,1200,0,1000,1200,0.537,1.07,0.9,1.2,1.074,1.010,1.140,slower,1,1,c0ffee
floor,A,16,parallel-iterate,lived-in,2048,1,1,5,1024,1000,1050,0,1000,1050,0.5,1.000,1.000,1.000,,,,,1,1,c0ffee
hash,A,16,parallel-iterate,lived-in,2048,1,2,5,800,700,900,0,700,900,0.391,1.30,1.10,1.50,1.333,1.200,1.480,slower,1,1,c0ffee
archetype,A,16,parallel-iterate,lived-in,2048,1,2,5,600,550,650,0,550,650,0.293,0.98,0.90,1.06,1.000,1.000,1.000,best,1,1,c0ffee
floor,A,16,parallel-iterate,lived-in,2048,1,2,5,612,600,625,0,600,625,0.299,1.000,1.000,1.000,,,,,1,1,c0ffee
sparse,A,16,varkor-add,-,5000,4,1,5,500000,480000,520000,0,480000,520000,100.0,,,,1.000,1.000,1.000,best,1,1,c0ffee
vector,A,16,varkor-add,-,5000,4,1,5,710000,650000,770000,0,650000,770000,142.0,,,,1.420,1.030,1.970,slower,1,1,c0ffee
CSV
# the table's rows with their padding squeezed: "| create | 2^11 | 1 | ..."
answer_rows() { grep '^| ' "$1" | tr -s ' '; }
if scripts/answer.sh "$tmp/ans/A.csv" >"$tmp/ans/out.md" 2>"$tmp/ans/err"; then
	answer_rows "$tmp/ans/out.md" >"$tmp/ans/rows"
	check answer-fastest-tied-slower "create, k = 1 is not: archetype at the largest N, its floor ratio, sparse tied, vector and hash slower, tree not measured: $(grep create "$tmp/ans/rows" | head -n 1)" \
		grep -qxF '| create | 2^11 | 1 | archetype | 20.0 ns an entity | 7.00x [6.20, 7.90] | - | sparse 1.05x [0.99, 1.09] tied, vector 2.00x [1.85, 2.17], hash 8.00x [7.00, 9.00], tree not measured |' "$tmp/ans/rows"
	# create, k = 2 is made noisy on purpose: vector tied with sparse, its interval reaching 1.13
	check answer-no-decision "create, k = 2 (vector tied with sparse up to 1.13x) names a fastest or a ratio: $(grep create "$tmp/ans/rows" | tail -n 1)" \
		grep -qxF '| create | 2^11 | 2 | no decision | - | - | - | sparse and vector, none told from the lowest of them (an interval reaching 1.13x, noisy); every other backend decidedly slower than it; re-run with more processes (PROCESSES=9) or on a quieter machine |' "$tmp/ans/rows"
	check answer-largest-n "a row of N = 1024 (not the largest) is in the answer" \
		sh -c "! grep -qF '2^10' '$tmp/ans/rows'"
	check answer-threaded-largest-t "parallel-iterate is not at T = 2, archetype fastest: $(grep parallel "$tmp/ans/rows")" \
		sh -c "[ \"\$(grep -c parallel '$tmp/ans/rows')\" -eq 1 ] &&
			grep -qxF '| parallel-iterate, T = 2 | 2^11 | 1 | archetype | 0.293 ns an entity | 0.98x [0.90, 1.06] | - | hash 1.33x [1.20, 1.48], sparse not measured, vector not measured, tree not measured |' '$tmp/ans/rows'"
	check answer-varkor-own-n "varkor-add is not at its own N with its time of a run: $(grep varkor "$tmp/ans/rows")" \
		grep -qxF '| varkor-add | 5,000 | 4 | sparse | 500 µs a run | no floor | - | vector 1.42x [1.03, 1.97], hash not measured, archetype not measured, tree not measured |' "$tmp/ans/rows"
	check answer-histories "get-pristine is not its own line after the lived-in ones: $(awk -F'|' 'NR > 2 { print $2 }' "$tmp/ans/rows" | tr '\n' ',')" \
		sh -c "[ \"\$(awk -F'|' 'NR > 2 { print \$2 }' '$tmp/ans/rows' | tr -d ' ' | tr '\n' ,)\" = 'create,create,parallel-iterate,T=2,varkor-add,get-pristine,' ] &&
			grep -qxF '| get-pristine | 2^11 | 2 | vector | 157 ns an entity | 9.97x [9.00, 11.0] | - | sparse 1.05x [1.01, 1.09], hash not measured, archetype not measured, tree not measured |' '$tmp/ans/rows'"
	check answer-says-what-it-is "the answer does not name its CSV and run, or say what tied means" \
		sh -c "grep -qF '## Which storage for what: $tmp/ans/A.csv' '$tmp/ans/out.md' &&
			grep -q '^Run: commit 0123456789ab, 2026-01-02T03:04:05Z' '$tmp/ans/out.md' && grep -q 'tied: the interval holds 1' '$tmp/ans/out.md'"
else
	fail answer-runs "exit status $?: $(cat "$tmp/ans/err")"
fi
scripts/answer.sh -H "$tmp/ans/A.csv" >"$tmp/ans/out.html" 2>&1
check answer-html-fastest "the HTML table does not mark archetype the fastest of create, k = 1: $(grep -m 1 '<td>create' "$tmp/ans/out.html")" \
	grep -qF '<tr><td>create</td><td>2<sup>11</sup></td><td>1</td><td class="fastest">archetype</td>' "$tmp/ans/out.html"
check answer-html-tied "the HTML table does not mark sparse tied" \
	grep -qF 'sparse 1.05x [0.99, 1.09] <span class="tied">tied</span>' "$tmp/ans/out.html"
check answer-html-no-decision "the HTML table does not mark create, k = 2 as no decision" \
	grep -qF '<td>2</td><td class="nodecision">no decision</td>' "$tmp/ans/out.html"
scripts/answer.sh "$tmp/T.csv" >/dev/null 2>"$tmp/ans/err"
rc=$?
check answer-needs-paired-ratios "a CSV without ratio_to_best: exit $rc, $(cat "$tmp/ans/err")" \
	sh -c "[ $rc -eq 2 ] && grep -q 'no ratio_to_best or vs_best column' '$tmp/ans/err'"
# A raced run's answer (docs/method.md, "The race"): the rows of a real default run at 2^18
# (create decided equal, get a fastest, create-unreserved open), each kind in its words.
cat >"$tmp/ans/raced.csv" <<'CSV'
# ecsbench commit 0123456789ab
# date 2026-01-02T03:04:05Z
# cpu Test CPU; 2 online; pinned to the cpu it started on, 0
# profile AAA (512 component types, 64 systems); systems registered 64
# processes: up to 32 a row group (random layout; processes done 32), a budget of 270 s; per process 1 warm-up round and up to 24 timed rounds, each round a sample of every participant still measured, in an order drawn for the round; a sample makes the same runs for every participant of its group, about 2.0 ms of the fastest backend's (calibrated once)
# interval: per process, Tukey's median polish of the log samples (rows by rounds) gives each row a level, what a round did to all of them taken out; median_ns is the geometric mean of a row's levels over the processes that measured it, ci_low_ns and ci_high_ns its 95% interval across them (Student's t); reps: its timed samples in all
# race: looks after a group's 4th process, then each time its processes have grown by half again, and after its last; at each, a backend decidedly more than 3% slower than another still in the group's race leaves it (race left, race_process: the processes it had); the group is decided when one backend is left (decision fastest) or every two left are within 10% of each other (equal); ratio_to_best is paired by process (the mean log difference over the processes both have), its interval (ratio_ci_low, ratio_ci_high) at the level of the look the row left at, or the last (ratio_level: two-sided, each comparison): the run's 5% spent over the looks as the processes grow (32 at most for the answer's rows, the largest N; 3 for the others) and split over the comparisons with the best (Bonferroni), so that the fastest leaves, or a group is called equal wrongly, in at most 5% of groups; vs_best best, slower (left), equal, or tied (no decision: noisy 1); in the first process a backend more than 2x slower than another in each of its first 3 rounds or more (race screened) or whose calibration run took 20x another's and over 50 ms (race calibration, its one cold run its figure) leaves with no interval (docs/method.md, "The race")
backend,profile,systems,workload,history,entities,components,threads,component_bytes,processes,reps,inner,median_ns,ci_low_ns,ci_high_ns,noisy,process_spread_pct,mad_pct,min_ns,max_ns,ns_per_entity,entities_per_sec,ratio_to_floor,floor_ci_low,floor_ci_high,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best,speedup,speedup_ci_low,speedup_ci_high,off_cpu_pct,peak_bytes,live_bytes,live_bytes_per_entity,allocations,reuse,checksum,rerun_low_ns,rerun_high_ns,ratio_rerun_low,ratio_rerun_high,race,race_process,race_behind,decision,ratio_level,invalid
hash,AAA,64,create,lived-in,262144,2,1,8,1,1,1,329107956.0,,,0,,0.00,329107956.0,329107956.0,1255,796529,96.692,,,34.851,,,slower,,,,0.0,160454880,159070560,606.8,0,,432217b417aa7bbe,,,,,calibration,1,archetype,equal,,
tree,AAA,64,create,lived-in,262144,2,1,8,1,1,1,1302430091.0,,,0,,0.00,1302430091.0,1302430091.0,4968,201273,382.655,,,137.922,,,slower,,,,0.0,108045200,107056400,408.4,0,,432217b417aa7bbe,,,,,calibration,1,archetype,equal,,
vector,AAA,64,create,lived-in,262144,2,1,8,1,2,1,59767455.9,,,0,,0.53,59351206.0,59985094.0,228,4386066,17.560,,,6.329,,,slower,,,,0.0,68221864,67173288,256.2,0,,432217b417aa7bbe,,,,,screened,2,archetype,equal,,
sparse,AAA,64,create,lived-in,262144,2,1,8,4,22,1,11876860.8,7420977.9,19008252.7,0,29.55,2.42,8600681.0,20755424.0,45.31,22071826,4.866,4.056,5.839,1.678,1.211,2.324,slower,,,,0.0,24151656,22581864,86.1,0,,432217b417aa7bbe,5432806.0,25964450.5,1.267,2.221,left,4,hybrid,equal,0.996875,
group,AAA,64,create,lived-in,262144,2,1,8,1,2,1,24610916.2,,,0,,0.18,24525169.0,24614267.0,93.88,10651534,7.231,,,2.606,,,slower,,,,0.0,24156536,22586744,86.2,0,,432217b417aa7bbe,,,,,screened,2,archetype,equal,,
archetype,AAA,64,create,lived-in,262144,2,1,8,14,99,1,6861774.6,6289815.2,7485744.7,0,15.07,2.11,5618737.0,13236234.0,26.18,38203528,3.110,2.931,3.300,1.000,1.000,1.000,best,,,,0.0,18100626,17052050,65.0,0,,432217b417aa7bbe,4465421.4,10544122.6,,,in,,,equal,,
hybrid,AAA,64,create,lived-in,262144,2,1,8,14,99,1,7229554.1,6545274.9,7985371.6,0,17.22,2.39,5858174.0,15495630.0,27.58,36260051,3.277,3.074,3.493,1.054,1.016,1.093,equal,,,,0.0,18128458,17079882,65.2,0,,432217b417aa7bbe,4679663.2,11168849.2,0.839,1.323,in,,,equal,0.996094,
floor,AAA,64,create,lived-in,262144,2,1,8,14,99,1,2206053.1,2041781.4,2383541.2,0,13.40,1.57,1701121.0,11366351.0,8.415,118829417,1.000,1.000,1.000,,,,,,,,0.0,11796480,11796480,45.0,0,,432217b417aa7bbe,1440964.3,3377370.4,,,,,,,,
hash,AAA,64,create-unreserved,lived-in,262144,2,1,8,1,2,1,161829360.4,,,0,,12.43,144058265.0,184966836.0,617.3,1619879,78.836,,,27.957,,,slower,,,,6.6,153336496,153336496,584.9,1244526,,432217b417aa7bbe,,,,,screened,1,archetype,open,,
tree,AAA,64,create-unreserved,lived-in,262144,2,1,8,1,1,1,612556221.5,,,0,,0.00,628762862.0,628762862.0,2337,427951,298.409,,,105.824,,,slower,,,,0.0,110362896,103222784,393.8,0,,432217b417aa7bbe,,,,,calibration,1,hybrid,open,,
vector,AAA,64,create-unreserved,lived-in,262144,2,1,8,1,2,1,30315768.6,,,0,,0.88,30311245.0,30849690.0,115.6,8647117,14.768,,,5.237,,,slower,,,,0.0,70974376,65731496,250.7,19,,432217b417aa7bbe,,,,,screened,1,archetype,open,,
sparse,AAA,64,create-unreserved,lived-in,262144,2,1,8,4,23,1,8471892.1,7599655.0,9444238.6,0,6.83,3.31,7159845.0,21704412.0,32.32,30942793,4.482,4.194,4.788,1.488,1.325,1.672,slower,,,,0.0,23365224,20795496,79.3,165,,432217b417aa7bbe,5459816.9,13145670.8,1.179,1.879,left,4,archetype,open,0.996875,
group,AAA,64,create-unreserved,lived-in,262144,2,1,8,1,2,1,13979330.7,,,0,,1.78,13851557.0,14354616.0,53.33,18752257,6.810,,,2.415,,,slower,,,,0.0,23370104,20800376,79.3,165,,432217b417aa7bbe,,,,,screened,1,archetype,open,,
archetype,AAA,64,create-unreserved,lived-in,262144,2,1,8,32,226,1,5890407.3,5737369.5,6047527.1,1,7.30,6.04,5124556.0,13776213.0,22.47,44503544,3.262,3.174,3.353,1.000,1.000,1.000,best,,,,0.0,17445266,16396690,62.5,9,,432217b417aa7bbe,3896397.9,8904865.2,,,in,,,open,,
hybrid,AAA,64,create-unreserved,lived-in,262144,2,1,8,32,226,1,6253558.6,6059280.8,6454065.5,1,8.75,6.91,5125327.0,13876175.0,23.86,41919172,3.464,3.355,3.576,1.062,1.008,1.118,tied,,,,0.0,17473098,16424522,62.7,9,,432217b417aa7bbe,4133586.5,9460790.4,0.842,1.338,in,,,open,0.991406,
floor,AAA,64,create-unreserved,lived-in,262144,2,1,8,32,226,1,1805514.3,1783624.9,1827672.4,0,3.38,1.92,1580943.0,2378433.0,6.887,145190761,1.000,1.000,1.000,,,,,,,,0.0,11796480,11796480,45.0,0,,432217b417aa7bbe,1195891.3,2725901.7,,,,,,,,
hash,AAA,64,get,lived-in,262144,2,1,8,1,2,1,41161432.3,,,0,,8.66,39303721.0,46760648.0,157,6368680,43.728,,,7.569,,,slower,,,,0.1,160454880,159060984,606.8,0,,8069fbfc5cd14639,,,,,screened,2,group,fastest,,
tree,AAA,64,get,lived-in,262144,2,1,8,1,1,1,255022431.8,,,0,,0.00,288740515.0,288740515.0,972.8,1027925,270.922,,,46.897,,,slower,,,,0.0,108045200,107049560,408.4,0,,8069fbfc5cd14639,,,,,calibration,1,group,fastest,,
vector,AAA,64,get,lived-in,262144,2,1,8,1,2,1,12406469.9,,,0,,12.55,11390392.0,14658550.0,47.33,21129620,13.180,,,2.281,,,slower,,,,0.0,68221864,67173288,256.2,0,,8069fbfc5cd14639,,,,,screened,2,group,fastest,,
sparse,AAA,64,get,lived-in,262144,2,1,8,14,315,1,5260200.2,4896290.3,5651157.2,0,12.42,7.42,2313689.0,10523222.0,20.07,49835365,6.057,5.791,6.335,1.065,1.035,1.095,slower,,,,0.0,24151656,22581864,86.1,0,,8069fbfc5cd14639,3442759.5,8037072.0,0.849,1.336,left,14,group,fastest,0.997396,
group,AAA,64,get,lived-in,262144,2,1,8,14,315,1,4940372.6,4603539.3,5301851.5,0,12.23,5.65,2292328.0,8430927.0,18.85,53061585,5.689,5.457,5.931,1.000,1.000,1.000,best,,,,0.0,24156536,22586744,86.2,0,,8069fbfc5cd14639,3234603.5,7545679.6,,,in,,,fastest,,
archetype,AAA,64,get,lived-in,262144,2,1,8,4,75,1,6564757.7,5638482.4,7643199.0,0,9.56,3.07,2712218.0,8929417.0,25.04,39932015,7.454,6.975,7.967,1.315,1.185,1.460,slower,,,,0.0,24262714,24000570,91.6,0,,8069fbfc5cd14639,4125984.4,10445033.0,1.045,1.656,left,4,group,fastest,0.997917,
hybrid,AAA,64,get,lived-in,262144,2,1,8,4,75,1,7677314.7,6304726.9,9348725.6,0,12.38,4.31,3091021.0,11027420.0,29.29,34145272,8.718,7.814,9.726,1.538,1.198,1.976,slower,,,,0.0,24290690,24028546,91.7,0,,8069fbfc5cd14639,4670546.2,12619757.6,1.196,1.978,left,4,group,fastest,0.997917,
floor,AAA,64,get,lived-in,262144,2,1,8,14,315,1,868436.4,839920.8,897920.1,0,5.78,5.03,351209.0,1274269.0,3.313,301857445,1.000,1.000,1.000,,,,,,,,0.0,4194304,4194304,16.0,0,,8069fbfc5cd14639,573869.8,1314203.6,,,,,,,,
CSV
if scripts/answer.sh "$tmp/ans/raced.csv" >"$tmp/ans/raced.md" 2>"$tmp/ans/raced.err"; then
	answer_rows "$tmp/ans/raced.md" >"$tmp/ans/raced-rows"
	check answer-raced-equal "create (archetype and hybrid decided equal) is not said as a set equal within 10%: $(grep '^| create ' "$tmp/ans/raced-rows")" \
		grep -qF '| create | 2^18 | 2 | archetype or hybrid | 26.2 ns an entity | 3.11x [2.93, 3.30] | 65 B | archetype or hybrid: equal within 10% [1.00, 1.09]: either, sparse 1.68x [1.21, 2.32] (left after 4 processes, behind hybrid), group 2.61x (no interval) (screened: over 2x slower in the first two processes), vector 6.33x (no interval) (screened: over 2x slower in the first two processes), hash 34.9x (no interval) (screened by its calibration run: over 20x slower), tree 138x (no interval) (screened by its calibration run: over 20x slower) |' "$tmp/ans/raced-rows"
	check answer-raced-fastest "get (group decided fastest) is not said so, with who left when: $(grep '^| get ' "$tmp/ans/raced-rows")" \
		grep -qF '| get | 2^18 | 2 | group | 18.9 ns an entity | 5.69x [5.46, 5.93] | 86 B | sparse 1.06x [1.03, 1.09] (left after 14 processes, behind group), archetype 1.31x [1.19, 1.46] (left after 4 processes, behind group),' "$tmp/ans/raced-rows"
	check answer-raced-open "create-unreserved (open after 32 processes) does not say what is racing and what would decide it: $(grep '^| create-unreserved ' "$tmp/ans/raced-rows")" \
		grep -qxF '| create-unreserved | 2^18 | 2 | no decision | - | - | - | archetype and hybrid still racing after 32 processes, none told from the lowest (an interval reaching 1.12x); every other backend left the race; about 69 processes would decide it (a larger BUDGET) |' "$tmp/ans/raced-rows"
	check answer-raced-short "the In short line of a set decided equal does not say either: $(grep '^- spawning' "$tmp/ans/raced.md")" \
		grep -q '^- spawning and despawning: archetype or hybrid, equal within 10% \[1.00, 1.09\]: either, 26.2 ns an entity; next sparse 1.68x \[1.21, 2.32\]' "$tmp/ans/raced.md"
else
	fail answer-raced "answer.sh failed on a raced run: $(cat "$tmp/ans/raced.err")"
fi
# Beside the CSV: written whole, said where; the same as stdout.
scripts/answer.sh -o "$tmp/ans/A-answer.md" "$tmp/ans/A.csv" >"$tmp/ans/out2.md" 2>&1
rc=$?
check answer-written "answer.sh -o: exit $rc, $(ls "$tmp/ans" | tr '\n' ' ')" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(tail -n 1 '$tmp/ans/out2.md')\" = '(written to $tmp/ans/A-answer.md)' ] &&
		head -n -1 '$tmp/ans/out2.md' | cmp -s - '$tmp/ans/A-answer.md' && cmp -s '$tmp/ans/out.md' '$tmp/ans/A-answer.md' &&
		[ -z \"\$(ls '$tmp/ans' | grep tmp)\" ]"
# A full disk: exit 1, the previous answer as it was, no partial file. (The old answer takes
# the 4 kB left on a tmpfs; with a failing writer, an answer of forty workloads is longer.)
awk -F, -v OFS=, '/^#/ || $1 == "backend" { print; next } $4 == "create" { for (i = 1; i <= 40; i++) { $4 = "create" i; print } }' \
	"$tmp/ans/A.csv" >"$tmp/ans/long.csv"
full_disk_make "$tmp/full-answer" 4
echo old >"$tmp/full-answer/A-answer.md"
on_full_disk scripts/answer.sh -o "$tmp/full-answer/A-answer.md" "$tmp/ans/long.csv" >/dev/null 2>"$tmp/ans/err"
rc=$?
check answer-full-disk "exit $rc on a full disk ($full_disk_mode): $(cat "$tmp/ans/err"); $(ls -a "$tmp/full-answer")" \
	sh -c "[ $rc -eq 1 ] && grep -q 'cannot write $tmp/full-answer/A-answer.md' '$tmp/ans/err' &&
		[ \"\$(cat '$tmp/full-answer/A-answer.md')\" = old ] && [ \"\$(ls '$tmp/full-answer')\" = A-answer.md ]"
full_disk_free

# A scenario CSV: two points of a sweep, the frame and one phase; the floor and the harness
# beside; a crossover line in the header. Brief (a terminal's): the per-phase table left out.
cat >"$tmp/ans/sc.csv" <<'CSV'
# ecsbench commit 0123456789ab
# date 2026-01-02T03:04:05Z
# processes 5, spread over the run (random layout); per process 10 warm-up and 100 timed frames, a sample being one frame
# scenario scenarios/crossover.ini: 100 frames after 10 warm-up
# crossover sparse archetype: effect.mark.add = 1% (between 0.5% and 2%): archetype is faster below, sparse above; decided
scenario,sweep_key,sweep_value,sweep_x,backend,phase,frames,processes,median_ns,ci_low_ns,ci_high_ns,noisy,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best
crossover,effect.mark.add,0.5%,0.5,sparse,frame,100,5,520000,500000,540000,0,1.0300,1.0100,1.0500,slower
crossover,effect.mark.add,0.5%,0.5,archetype,frame,100,5,504854,490000,520000,0,1.0000,1.0000,1.0000,best
crossover,effect.mark.add,0.5%,0.5,floor,frame,100,5,400000,390000,410000,0,,,,
crossover,effect.mark.add,0.5%,0.5,harness,frame,100,5,20000,19000,21000,0,,,,
crossover,effect.mark.add,0.5%,0.5,sparse,add,100,5,2000,1900,2100,0,1.0000,1.0000,1.0000,best
crossover,effect.mark.add,0.5%,0.5,archetype,add,100,5,5000,4800,5200,0,2.5000,2.3000,2.7000,slower
crossover,effect.mark.add,2%,2,sparse,frame,100,5,530000,510000,550000,0,1.0000,1.0000,1.0000,best
crossover,effect.mark.add,2%,2,archetype,frame,100,5,540600,520000,560000,0,1.0200,0.9900,1.0500,tied
crossover,effect.mark.add,2%,2,floor,frame,100,5,400000,390000,410000,0,,,,
crossover,effect.mark.add,2%,2,harness,frame,100,5,20000,19000,21000,0,,,,
crossover,effect.mark.add,2%,2,sparse,add,100,5,8000,7600,8400,0,1.0000,1.0000,1.0000,best
crossover,effect.mark.add,2%,2,archetype,add,100,5,20000,19000,21000,0,2.5000,2.3000,2.7000,slower
CSV
scripts/answer.sh "$tmp/ans/sc.csv" >"$tmp/ans/sc.md" 2>"$tmp/ans/err"
answer_rows "$tmp/ans/sc.md" >"$tmp/ans/sc.rows"
check answer-scenario-frames "the frame table is not the fastest per point with the floor, the harness and the other's ratio: $(head -n 4 "$tmp/ans/sc.rows")" \
	sh -c "grep -qxF '| 0.5% | archetype | 505 µs | 400 µs | 20.0 µs | sparse 1.03x [1.01, 1.05] |' '$tmp/ans/sc.rows' &&
		grep -qxF '| 2% | sparse | 530 µs | 400 µs | 20.0 µs | archetype 1.02x [0.99, 1.05] tied |' '$tmp/ans/sc.rows' &&
		grep -q '^crossover sparse archetype: effect.mark.add = 1%' '$tmp/ans/sc.md'"
check answer-scenario-phases "no per-phase rows: $(tail -n 2 "$tmp/ans/sc.rows")" \
	grep -qxF '| 2% | add | sparse | 8.00 µs | archetype 2.50x [2.30, 2.70] |' "$tmp/ans/sc.rows"
scripts/answer.sh -b -o "$tmp/ans/sc-answer.md" "$tmp/ans/sc.csv" >"$tmp/ans/sc-brief.md" 2>&1
check answer-scenario-brief "brief: the per-phase rows are not left out of stdout and kept in the file" \
	sh -c "! grep -qF '| add ' '$tmp/ans/sc-brief.md' && grep -qF 'By phase, at every point: in $tmp/ans/sc-answer.md' '$tmp/ans/sc-brief.md' &&
		grep -qF '| add ' '$tmp/ans/sc-answer.md'"

# A default run of profile AAA as make bench prints its answer (-b): seven backends, every
# workload of --workloads all at N = 2^10 .. 2^18 (k = 2), parallel-iterate at T = 1 and 2,
# Varkor's at their own N, warnings in the header. get's group is made noisy on purpose (tree
# tied with hash, its interval reaching 1.40x); iterate's fastest runs at 0.05 ns an entity.
mkdir -p "$tmp/aaa"
awk 'BEGIN {
	print "# ecsbench commit 0123456789ab"
	print "# date 2026-01-02T03:04:05Z"
	print "# cpu Test CPU; 2 online"
	print "# warning: a system matches no entity: system 63 (Mass, Health)"
	print "# warning: a backend ran faster than the floor: group, iterate at N = 1024"
	print "# profile AAA (512 component types, 64 systems); systems registered 64"
	print "# processes 5, spread over the run (random layout); per process 1 warm-up and 3 timed samples"
	print "# comparisons: ratio_to_best is median_ns over the best, simultaneous 95% for the group"
	print "backend,profile,systems,workload,history,entities,components,threads,processes,median_ns,ci_low_ns,ci_high_ns,noisy,ns_per_entity,ratio_to_floor,floor_ci_low,floor_ci_high,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best,live_bytes_per_entity,checksum"
	nb = split("hash tree vector sparse group archetype hybrid", b, " ")
	nw = split("create create-batch create-unreserved iterate parallel-iterate churn add-remove add-remove-batch get fragmented varkor-create varkor-add varkor-add-write-delete varkor-distributed varkor-relationship varkor-random", w, " ")
	for (i = 1; i <= nw; i++) {
		varkor = w[i] ~ /^varkor-/
		for (n = 1024; n <= 262144; n *= 4) {
			if (varkor && n > 1024) break
			N = varkor ? 50000 : n
			for (t = 1; t <= (w[i] == "parallel-iterate" ? 2 : 1); t++) {
				base = w[i] == "iterate" ? 0.05 : 10 + i
				for (j = 1; j <= nb; j++) {
					r = 1 + (j - 1) * 0.5; lo = r * 0.94; hi = r * 1.06; v = j == 1 ? "best" : "slower"; noisy = 0
					if (j == 1) { lo = hi = 1 }
					if (w[i] == "get" && j <= 2) { noisy = 1; if (j == 2) { r = 1.05; lo = 0.9; hi = 1.4; v = "tied" } }
					m = base * r * N
					printf "%s,AAA,64,%s,%s,%d,2,%d,5,%.1f,%.1f,%.1f,%d,%.4g,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%.1f,c0ffee\n",
						b[j], w[i], varkor ? "-" : "lived-in", N, t, m, m * 0.9, m * 1.1, noisy, m / N, r * 1.5, r * 1.4, r * 1.6, r, lo, hi, v, 40 + 10 * j
				}
				if (!varkor) printf "floor,AAA,64,%s,lived-in,%d,2,%d,5,%.1f,%.1f,%.1f,0,%.4g,1,1,1,,,,,16,c0ffee\n", w[i], N, t, base * N / 1.5, base * N / 1.6, base * N / 1.4, base / 1.5
			}
		}
	}
}' >"$tmp/aaa/AAA.csv"
scripts/answer.sh -b "$tmp/aaa/AAA.csv" >"$tmp/aaa/AAA.md" 2>"$tmp/aaa/err"
rc=$?
check answer-aaa-fits "the answer of a default AAA run is $(wc -l <"$tmp/aaa/AAA.md") lines (exit $rc; at most 80)" \
	sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$tmp/aaa/AAA.md') -le 80 ] && [ \$(grep -c '^| ' '$tmp/aaa/AAA.md') -eq 18 ]"
check answer-aaa-no-decision "get's noisy group names a fastest or a ratio: $(grep '^| get ' "$tmp/aaa/AAA.md"; grep 'lookups' "$tmp/aaa/AAA.md")" \
	sh -c "grep -q '^| get  *| 2^18 *| 2 *| no decision | - ' '$tmp/aaa/AAA.md' && ! grep '^| get ' '$tmp/aaa/AAA.md' | grep -q 'x \\[' &&
		grep -qx -- '- lookups by entity: no decision: hash and tree, none told from the lowest of them (an interval reaching 1.40x, noisy); every other backend decidedly slower than it; .*get.png' '$tmp/aaa/AAA.md'"
# no interval of the answer spans more than 1000x (a decided group's span at most 10x)
check answer-aaa-intervals "an interval beyond 1000x: $(grep -o '\[[0-9.e+]*, [0-9.e+]*\]' "$tmp/aaa/AAA.md" | awk -F'[][, ]+' '$3 > 1000 * $2' | head -n 2)" \
	sh -c "! grep -o '\[[0-9.e+]*, [0-9.e+]*\]' '$tmp/aaa/AAA.md' | awk -F'[][, ]+' '\$3 > 10 * \$2 { bad = 1 } END { exit !bad }'"
check answer-aaa-summary "the summary is not first, a line per use, with the figure to open: $(sed -n '1,20p' "$tmp/aaa/AAA.md" | tr '\n' '/')" \
	sh -c "[ \"\$(grep -n '^### ' '$tmp/aaa/AAA.md' | cut -d: -f2 | tr '\n' /)\" = '### Warnings/### In short/### Per workload/' ] &&
		grep -qx -- '- passes over many entities: hash, 50.0 ps an entity; next tree 1.50x \\[1.41, 1.59\\] (iterate, 2^18, k = 2) -> $tmp/aaa/AAA-plots/AAA/iterate.png' '$tmp/aaa/AAA.md' &&
		grep -qx -- '- memory: hash 50 B an entity; tree 60, vector 70, sparse 80, group 90, archetype 100, hybrid 110 (held after create, 2^18, k = 2) -> $tmp/aaa/AAA-plots/AAA/memory-create.png' '$tmp/aaa/AAA.md' &&
		[ \$(grep -c '^- ' '$tmp/aaa/AAA.md') -eq 9 ]"
check answer-warnings-first "the run's warnings are not first under Warnings: $(sed -n '5,9p' "$tmp/aaa/AAA.md" | tr '\n' '/')" \
	sh -c "sed -n '5,9p' '$tmp/aaa/AAA.md' | tr '\n' / | grep -qxF '### Warnings//- a system matches no entity: system 63 (Mass, Health)/- a backend ran faster than the floor: group, iterate at N = 1024//'"
# The provisional answer: one short block (the summary), no table
sed 's/^# processes 5,/# provisional after 2 of 5 processes: the rows so far\n# processes 2,/' "$tmp/aaa/AAA.csv" >"$tmp/aaa/AAA-now.csv"
scripts/answer.sh -b -f "$tmp/aaa/AAA.csv" "$tmp/aaa/AAA-now.csv" >"$tmp/aaa/AAA-now.md" 2>&1
check answer-provisional-block "the provisional answer is not a short block: $(head -n 3 "$tmp/aaa/AAA-now.md")" \
	sh -c "[ \$(wc -l <'$tmp/aaa/AAA-now.md') -le 14 ] && ! grep -q '^| ' '$tmp/aaa/AAA-now.md' &&
		head -n 1 '$tmp/aaa/AAA-now.md' | grep -qxF '## Which storage for what (provisional after 2 of 5 processes; the run goes on)'"
# A scenario's warnings come first too.
sed 's/^# scenario scenarios\/crossover.ini/# warning: system slow matches no entity\n&/' "$tmp/ans/sc.csv" >"$tmp/ans/sc-w.csv"
scripts/answer.sh "$tmp/ans/sc-w.csv" >"$tmp/ans/sc-w.md" 2>&1
check answer-scenario-warnings "a scenario's warnings are not first: $(grep -n '^###' "$tmp/ans/sc-w.md" | tr '\n' /)" \
	sh -c "grep '^###' '$tmp/ans/sc-w.md' | head -n 1 | grep -qx '### Warnings' && grep -qx -- '- system slow matches no entity' '$tmp/ans/sc-w.md'"

# --- the ratio panels under the time figures --------------------------------------------------
# A CSV with paired ratios gets them (a taller figure: the lower panels), gnuplot silent; one
# without (an older harness) the figure as it was.
png_height() { od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
plotted plot-ratio-panels -r "$tmp/ans" -o "$tmp/ans/plots" A
# (the layout is in pixels, styles.gp: the ratio panels add about 250 pixels under the times)
check plot-ratio-panels-drawn "create.png is $(png_height "$tmp/ans/plots/A/create.png" 2>&1) pixels high, under 850 (no ratio panels?), or a figure is missing: $(ls "$tmp/ans/plots/A" | tr '\n' ' ')" \
	sh -c "[ \"\$(od -An -tu1 -j20 -N4 '$tmp/ans/plots/A/create.png' | awk '{ print \$3 * 256 + \$4 }')\" -ge 850 ] &&
		[ -s '$tmp/ans/plots/A/get-pristine.png' ] && [ -s '$tmp/ans/plots/A/parallel-iterate.png' ]"
check plot-no-ratio-panels "iterate.png of a CSV without paired ratios is $(png_height "$tmp/plots/A/iterate.png" 2>&1) pixels high, over 760 (ratio panels drawn?)" \
	[ "$(png_height "$tmp/plots/A/iterate.png")" -le 760 ]

# --- the palette --------------------------------------------------------------------------
(cd scripts && gnuplot -e "load 'styles.gp'; do for [i = 1:64] { print sprintf('%d %s %d', i, colour(i), point(i)) }") \
	>"$tmp/palette" 2>&1
check palette-eight-colours "the first 8 backends do not get 8 different colours" \
	[ "$(head -n 8 "$tmp/palette" | awk '{ print $2 }' | sort -u | wc -l)" -eq 8 ]
check palette-eight-shapes "the first 8 backends do not get 8 different point shapes" \
	[ "$(head -n 8 "$tmp/palette" | awk '{ print $3 }' | sort -u | wc -l)" -eq 8 ]
check palette-64-pairs "two of the first 64 backends share colour and shape" \
	[ "$(awk '{ print $2, $3 }' "$tmp/palette" | sort -u | wc -l)" -eq 64 ]
check palette-no-ring "a backend's point is the open circle that marks noisy rows" \
	sh -c "! awk '\$3 == 6' '$tmp/palette' | grep -q ."
# No two of the eight colours closer than 30 in CIELAB (CIE76; sRGB, D65): the sky blue that a
# sixth backend got was 26 from hash's blue.
mindist=$(head -n 8 "$tmp/palette" | awk '
	function hex(s) { return index("0123456789abcdef", tolower(substr(s, 1, 1))) * 16 + index("0123456789abcdef", tolower(substr(s, 2, 1))) - 17 }
	function lin(c) { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ^ 2.4 }
	function f(t) { return t > 0.008856 ? t ^ (1 / 3) : 7.787 * t + 16 / 116 }
	{
		r = lin(hex(substr($2, 2, 2))); g = lin(hex(substr($2, 4, 2))); b = lin(hex(substr($2, 6, 2)))
		x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047); y = f(0.2126 * r + 0.7152 * g + 0.0722 * b)
		z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
		L[NR] = 116 * y - 16; A[NR] = 500 * (x - y); B[NR] = 200 * (y - z)
	}
	END {
		m = 1e9
		for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
			d = sqrt((L[i] - L[j]) ^ 2 + (A[i] - A[j]) ^ 2 + (B[i] - B[j]) ^ 2)
			if (d < m) m = d
		}
		printf "%d\n", m
	}')
check palette-colours-apart "two of the eight colours are only $mindist apart in CIELAB" [ "${mindist:-0}" -ge 30 ]
# A figure folder holds exactly the figures of the CSV drawn from: drawn again from a CSV that
# lost a workload, its figure goes from PLOTS/A/ and PLOTS/profiles/.
mkdir -p "$tmp/exact"
cp "$tmp/T.csv" "$tmp/exact/A.csv"
scripts/plot.sh -r "$tmp/exact" -o "$tmp/exact/plots" A >/dev/null 2>&1
awk -F, '$4 != "create"' "$tmp/T.csv" >"$tmp/exact/A.csv"
scripts/plot.sh -r "$tmp/exact" -o "$tmp/exact/plots" A >"$tmp/plot.log" 2>&1
rc=$?
check plot-exact-figures "exit $rc; after create left the CSV, the folders hold $(ls "$tmp/exact/plots/A" "$tmp/exact/plots/profiles" | tr '\n' ' ')" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(ls '$tmp/exact/plots/A' | tr '\n' ' ')\" = 'iterate.png ' ] &&
		[ \"\$(ls '$tmp/exact/plots/profiles' | tr '\n' ' ')\" = 'iterate.png ' ] &&
		[ -z \"\$(ls -A '$tmp/exact/plots' | grep '^\.')\" ]"
# A full disk: plot.sh fails (exit 1) naming the figure, no partial PNG is left, and the old
# figures stay as they were (gnuplot itself exits 0 with a PNG cut short).
full_disk_make "$tmp/full-plots" 16
mkdir -p "$tmp/full-plots/A"
echo old >"$tmp/full-plots/A/iterate.png"
on_full_disk scripts/plot.sh -r "$tmp" -i "$tmp/T.csv" -o "$tmp/full-plots" A >"$tmp/plot.log" 2>&1
rc=$?
check plot-full-disk "exit $rc on a full disk ($full_disk_mode): $(cat "$tmp/plot.log"); $(ls -aR "$tmp/full-plots")" \
	sh -c "[ $rc -eq 1 ] && grep -q 'cannot write $tmp/full-plots/A/.*png: gnuplot left [0-9]* bytes, not a whole PNG' '$tmp/plot.log' &&
		[ \"\$(cat '$tmp/full-plots/A/iterate.png')\" = old ] && [ \"\$(find '$tmp/full-plots' -name '*.png' | wc -l)\" -eq 1 ] &&
		[ -z \"\$(ls -A '$tmp/full-plots' | grep '^\.plot')\" ] && ! grep -q 'plot.sh: wrote' '$tmp/plot.log'"
full_disk_free

# Figure titles, captions, tables and usage texts name the posts, never "seed 001".
check posts-named "a script numbers a post: $(grep -liE 'seeds? [0-9]{3}' scripts/*.gp scripts/*.sh | tr '\n' ' ')" \
	sh -c "! grep -qiE 'seeds? [0-9]{3}' scripts/*.gp scripts/*.sh"
(cd scripts && gnuplot -e "load 'styles.gp'; show style line 50") >"$tmp/floor" 2>&1
check palette-floor-dashed "the floor's line style is not dashed: $(cat "$tmp/floor")" grep -q 'dashtype (' "$tmp/floor"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
