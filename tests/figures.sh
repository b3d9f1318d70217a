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
