#!/bin/sh
# report.sh: make compare's figures and make report's page, on small real runs into a temporary
# folder (never results/ or plots/). Checks what a test can see without looking at a picture:
#   make compare   two runs of profile A: a screen that starts with the runs and what changed
#                  (per backend, the rows called) and ends where every row is, within 40 lines;
#                  every row in NEW-compare/compare.txt, and on the screen with ROWS=1; the
#                  verdicts, a figure per workload both share (swept
#                  and Varkor's) beside NEW in NEW-compare/, gnuplot silent; a second
#                  comparison into the same folder removes the first one's figures; A against
#                  AAA refused without PROFILES=1 (exit 2, nothing drawn), drawn with it, and the
#                  output says the drift is then the profiles' difference; bad input (a file that
#                  does not exist, one that is not an ecsbench CSV, a missing NEW, a bad PROFILES
#                  or ROWS)
#                  gives exit 2 and a message, and no figure folder
#   make report    x-report.html beside OUTPUT=x.csv: every image and link it names exists,
#                  relative to the page (so it opens from the file system wherever the folder
#                  goes), every #anchor exists, nothing it names is on a network, every figure of
#                  the run and of the comparison is on it with a caption, and the three tables
#                  are there, and the run's answer with the CSV's best of each row highlighted;
#                  an OUTPUT that does not exist gives exit 2
#   a full disk    make report's page and make compare's figures: an error (a failing writer
#                  may fail first on a scratch file: exit 1 or 2), the old page or comparison as
#                  it was, no partial file
# Costs: three runs of build/ecsbench of about 0.3 s each (--inner 1), a few seconds of gnuplot.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=build/ecsbench
tmp=$(mktemp -d)
. tests/full_disk.sh
trap 'full_disk_free; rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   report/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL report/$1: $2"; failed=$((failed + 1)); }
check() {
	name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else fail "$name" "$why"; fi
}

# run FILE PROFILE [WORKLOADS]: a small real run
run() {
	"$bin" --profile "$2" --workloads "${3:-iterate,create,varkor-create}" --entities 1024,2048 \
		--components 1,2 --processes 2 --reps 2 --inner 1 --scale 0.01 --output "$1" >"$tmp/run.log" 2>&1
}
mkdir -p "$tmp/runs"
if ! run "$tmp/runs/old.csv" A || ! run "$tmp/runs/new.csv" A || ! run "$tmp/runs/AAA.csv" AAA; then
	fail small-runs "build/ecsbench failed: $(tail -n 3 "$tmp/run.log")"
	echo "$passed passed, $failed failed"
	exit 1
fi

# --- make compare -------------------------------------------------------------------------
make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" >"$tmp/compare.out" 2>"$tmp/compare.err"
rc=$?
cdir=$tmp/runs/new-compare
check compare-runs "exit status $rc: $(tail -n 3 "$tmp/compare.err")" [ "$rc" -eq 0 ]
check compare-prints-verdicts "make compare no longer prints the verdicts" grep -q '^Verdicts: ' "$tmp/compare.out"
# The screen: the two runs first, then per backend, the rows called (or that none is), the
# verdicts, the machine, where every row is; within 40 lines with what compare.sh adds on stderr.
rows=$(grep -v '^#' "$cdir/verdicts.csv" | tail -n +2 | wc -l)
compare_screen() { # the screen's parts in order, where every row is, no row of the full table
	[ "$(cat "$tmp/compare.out" "$tmp/compare.err" | wc -l)" -le 40 ] &&
		awk 'NR == 1 && /^OLD .*old.csv: commit / { a = 1 } NR == 2 && /^NEW .*new.csv: commit .*, the same CPU$/ { b = 1 }
			/^Per backend, NEW\/OLD over its rows/ && !p { p = NR } /^  hash  *[0-9]+  [0-9.]+ / && p && !h { h = NR }
			/^(Rows called faster or slower: |No row is called faster or slower)/ && h && !c { c = NR }
			/^Verdicts: / && c && !v { v = NR } /^Machine state: / && v && !m { m = NR }
			END { exit !(a && b && m) }' "$tmp/compare.out" &&
		sed -n '/^Every row and the machine states in full:/,$p' "$tmp/compare.out" | tr '\n' ' ' | sed 's/  */ /g' |
			grep -q "^Every row and the machine states in full: $cdir/compare.txt (ROWS=1 prints it) *\$" &&
		! grep -q '^hash  *iterate  *1024 ' "$tmp/compare.out"
}
check compare-screen "the screen is not what changed first, or is longer than 40 lines ($(cat "$tmp/compare.out" "$tmp/compare.err" | wc -l)): $(cat "$tmp/compare.out")" \
	compare_screen
check compare-rows-kept "new-compare/compare.txt does not hold every row ($rows in verdicts.csv): $(head -n 3 "$cdir/compare.txt" 2>&1)" \
	sh -c "[ \$(grep -c '^[a-z]\{1,\} \{1,\}\(iterate\|create\|varkor-create\) \{1,\}[0-9]\{1,\} \{1,\}[0-9]' '$cdir/compare.txt') -eq $rows ] &&
		grep -q '^hash  *iterate  *1024  *1 ' '$cdir/compare.txt' && grep -q '^Machine state: ' '$cdir/compare.txt'"
make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" ROWS=1 >"$tmp/rows.out" 2>"$tmp/rows.err"
rc=$?
check compare-rows-printed "make compare ROWS=1: exit $rc, or not the kept report: $(diff "$tmp/rows.out" "$cdir/compare.txt" 2>&1 | head -n 4)" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$tmp/rows.out' '$cdir/compare.txt'"
check compare-figures "not every workload has its figure in new-compare/: $(ls "$cdir" 2>&1 | tr '\n' ' ')" \
	test -s "$cdir/iterate.png" -a -s "$cdir/create.png" -a -s "$cdir/varkor.png"
check compare-verdicts-kept "no verdicts.csv with rows beside the figures" \
	sh -c "grep -q '^hash,A,iterate,1024,1,' '$cdir/verdicts.csv'"
check compare-figures-listed "figures.txt does not list the three figures: $(tr '\n' ' ' <"$cdir/figures.txt" 2>&1)" \
	[ "$(sort "$cdir/figures.txt" 2>/dev/null | tr '\n' ' ')" = "create.png iterate.png varkor.png " ]
check compare-not-over-runs "make compare wrote beside OLD or outside NEW-compare/: $(ls "$tmp/runs" | tr '\n' ' ')" \
	[ "$(ls "$tmp/runs" | tr '\n' ' ')" = "AAA-samples.csv AAA.csv new-compare new-samples.csv new.csv old-samples.csv old.csv " ]
scripts/compare.sh -v -o "$tmp/verbose" "$tmp/runs/old.csv" "$tmp/runs/new.csv" >/dev/null 2>"$tmp/verbose.err"
check compare-gnuplot-silent "gnuplot warned: $(grep -i warning "$tmp/verbose.err" | head -n 2)" \
	sh -c "! grep -qi warning '$tmp/verbose.err'"
# A second comparison into the same folder, of iterate alone: the first one's other figures go.
run "$tmp/runs/iter.csv" A iterate
scripts/compare.sh -o "$cdir" "$tmp/runs/old.csv" "$tmp/runs/iter.csv" >/dev/null 2>&1
check compare-removes-stale "after comparing iterate alone the folder holds $(ls "$cdir" | tr '\n' ' ')" \
	sh -c "[ -s '$cdir/iterate.png' ] && [ ! -e '$cdir/create.png' ] && [ ! -e '$cdir/varkor.png' ]"
rm -f "$tmp/runs/iter.csv" "$tmp/runs/iter-samples.csv"
# Put the full comparison back for the report.
make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" >/dev/null 2>&1

# Two profiles: refused without PROFILES=1, drawn with it.
make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/AAA.csv" >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check compare-profiles-refused "A against AAA without PROFILES=1: exit $rc, $(head -n 1 "$tmp/p.err")" \
	sh -c "[ $rc -eq 2 ] && grep -q 'PROFILES=1' '$tmp/p.err' && [ ! -e '$tmp/runs/AAA-compare' ]"
make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/AAA.csv" PROFILES=1 >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check compare-profiles "A against AAA with PROFILES=1: exit $rc, $(tail -n 2 "$tmp/p.err")" \
	sh -c "[ $rc -eq 0 ] && [ -s '$tmp/runs/AAA-compare/iterate.png' ] && [ -s '$tmp/runs/AAA-compare/varkor.png' ]"
check compare-profiles-says-drift "the output does not say the drift is the profiles' difference" \
	sh -c "tr '\n' ' ' <'$tmp/p.out' | sed 's/  */ /g' | grep -q \"Profile AAA: [0-9.]*x A's times in the median row.*: the profile.s cost, not drift\" &&
		grep -q \"the profiles' difference, not the machine's\" '$tmp/runs/AAA-compare/compare.txt' &&
		grep -q '^# profiles OLD A NEW AAA' '$tmp/runs/AAA-compare/verdicts.csv'"
rm -rf "$tmp/runs/AAA-compare"

# Bad input: exit 2, a message, no figure folder.
printf 'not,a,results,file\n1,2,3,4\n' >"$tmp/bad.csv"
bad_compare() { # bad_compare NAME EXPECTED-IN-MESSAGE MAKE-ARGS...
	name=$1 expect=$2
	shift 2
	make -s --no-print-directory compare "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	check "$name" "exit $rc, message '$(head -n 1 "$tmp/bad.err")'" \
		sh -c "[ $rc -eq 2 ] && grep -q '$expect' '$tmp/bad.err' && [ ! -e '$tmp/bad-compare' ] && [ ! -e '$tmp/none-compare' ]"
}
bad_compare compare-missing-file "cannot read" OLD="$tmp/none.csv" NEW="$tmp/runs/new.csv"
bad_compare compare-not-a-csv "not an ecsbench CSV" OLD="$tmp/runs/old.csv" NEW="$tmp/bad.csv"
bad_compare compare-no-new "usage: make compare" OLD="$tmp/runs/old.csv"
bad_compare compare-bad-profiles "PROFILES=yes" OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" PROFILES=yes
bad_compare compare-bad-rows "ROWS=yes" OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" ROWS=yes
# Two runs of one scenario compare as two runs of the workloads do: a verdict per backend and
# phase, the drift over them; a scenario against a run of the workloads, or against another
# scenario, is refused (exit 2).
mkdir -p "$tmp/sc"
scenario_run() { # scenario_run FILE SCENARIO
	"$bin" --scenario "scenarios/$2.ini" --set scenario.scale=0.01 --set scenario.frames=3 \
		--set scenario.warmup=0 --backends sparse,vector --processes 2 --output "$1" 2>"$tmp/sc/run.log"
}
if scenario_run "$tmp/sc/one.csv" shooter && scenario_run "$tmp/sc/two.csv" shooter &&
	scenario_run "$tmp/sc/rts.csv" rts; then
	make -s --no-print-directory compare OLD="$tmp/sc/one.csv" NEW="$tmp/sc/two.csv" >"$tmp/sc/out" 2>"$tmp/sc/err"
	rc=$?
	phases=$(grep -v '^#' "$tmp/sc/one.csv" | awk -F, 'NR > 1' | wc -l)
	kept=$tmp/sc/two-compare/compare.txt
	check compare-scenarios "exit $rc, $(tail -n 2 "$tmp/sc/err"); $(ls "$tmp/sc")" \
		sh -c "[ $rc -eq 0 ] && grep -q '^NEW .*two.csv: commit .*, scenario shooter\$' '$tmp/sc/out' &&
			grep -q '^Compared: the $phases rows both runs measured.' '$tmp/sc/out' && grep -q '^Verdicts: ' '$tmp/sc/out' &&
			grep -q '^Scenario shooter: a row per participant and phase' '$kept' &&
			grep -q '^sparse  *frame  ' '$kept' && grep -q '^vector  *system:move  ' '$kept' &&
			grep -q '^Verdicts with the drift divided out: ' '$kept' &&
			grep -q '^$phases rows compared; 0 only in OLD, 0 only in NEW' '$kept' &&
			grep -q '^sparse,shooter,frame,' '$tmp/sc/two-compare/verdicts.csv'"
	make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/sc/two.csv" >"$tmp/sc/out" 2>"$tmp/sc/err"
	rc=$?
	check compare-scenario-against-workloads "exit $rc: $(cat "$tmp/sc/err")" \
		sh -c "[ $rc -eq 2 ] && grep -q 'is a run of the workloads and .* a scenario.s: their rows measure different things' '$tmp/sc/err'"
	make -s --no-print-directory compare OLD="$tmp/sc/rts.csv" NEW="$tmp/sc/two.csv" >"$tmp/sc/out" 2>"$tmp/sc/err"
	rc=$?
	check compare-two-scenarios "exit $rc: $(cat "$tmp/sc/err")" \
		sh -c "[ $rc -eq 2 ] && grep -q 'is scenario rts and .* scenario shooter' '$tmp/sc/err'"
else
	fail compare-scenarios "build/ecsbench --scenario failed: $(tail -n 3 "$tmp/sc/run.log")"
fi
# A lived-in run against a pristine one: no row pairs; the refusal says what each file holds
# and how to pair them (exit 2, nothing drawn)
if "$bin" --profile A --workloads iterate,create --history pristine --entities 1024 --components 1 \
	--processes 2 --reps 2 --inner 1 --output "$tmp/runs/pristine.csv" >"$tmp/run.log" 2>&1; then
	make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/pristine.csv" >"$tmp/pr.out" 2>"$tmp/pr.err"
	rc=$?
	check compare-no-common-says-why "exit $rc: $(cat "$tmp/pr.err")" \
		sh -c "[ $rc -eq 2 ] && grep -q 'have no row in common' '$tmp/pr.err' &&
			grep -q '^  OLD .*old.csv: profile A, [0-9]* rows; histories: lived-in, .*; workloads: iterate, create, varkor-create; N ' '$tmp/pr.err' &&
			grep -q '^  NEW .*pristine.csv: profile A, [0-9]* rows; histories: pristine; workloads: iterate, create; N 1024..1024; k 1\$' '$tmp/pr.err' &&
			grep -q 'to pair them: ' '$tmp/pr.err' && [ ! -d '$tmp/runs/pristine-compare' ]"
else
	fail compare-no-common-says-why "build/ecsbench failed: $(tail -n 3 "$tmp/run.log")"
fi
build/ecsbench-compare --profiles "$tmp/runs/old.csv" >/dev/null 2>"$tmp/bad.err"
rc=$?
check compare-bin-usage "ecsbench-compare --profiles with one file: exit $rc" \
	sh -c "[ $rc -eq 2 ] && grep -q usage '$tmp/bad.err'"

# --- make repeat's report ------------------------------------------------------------------
# Run 2 is run 1 with hash's samples of iterate N=1024 k=1 replaced by vector's times 0.5 or 2,
# against the side hash was on in run 1: that pair swaps, and run 2 calls it (an interval of
# zero width), so the report must count the swap and name it.
mkdir -p "$tmp/rep"
cp "$tmp/runs/old.csv" "$tmp/rep/one.csv"
cp "$tmp/runs/old-samples.csv" "$tmp/rep/one-samples.csv"
cp "$tmp/runs/old.csv" "$tmp/rep/two.csv"
awk -F, -v OFS=, '
	FNR == 1 && NR == 1 { }
	/^#/ || /^backend,/ { if (NR == FNR) next; print; next }
	NR == FNR { if ($3 == "iterate" && $5 == 1024 && $6 == 1) { k = $8 "," $9; if ($1 == "hash") h[k] = $10; if ($1 == "vector") v[k] = $10 } next }
	$3 == "iterate" && $5 == 1024 && $6 == 1 && $1 == "hash" {
		if (!decided) { hs = 0; vs = 0; for (x in h) { hs += log(h[x]); vs += log(v[x]) } f = hs > vs ? 0.5 : 2; decided = 1 }
		$10 = v[$8 "," $9] * f }
	{ print }' "$tmp/rep/one-samples.csv" "$tmp/rep/one-samples.csv" >"$tmp/rep/two-samples.csv"
build/ecsbench-compare --repeat "$tmp/rep/one.csv" "$tmp/rep/two.csv" >"$tmp/rep/out" 2>&1
rc=$?
check repeat-report "ecsbench-compare --repeat: exit $rc: $(head -c 400 "$tmp/rep/out")" \
	sh -c "[ $rc -eq 0 ] && grep -q '^(a) .* swap order in the other run' '$tmp/rep/out' &&
		grep -q '^(b) coverage: ' '$tmp/rep/out' && grep -q '^(c) ' '$tmp/rep/out'"
check repeat-names-swaps "the swap of hash and vector is not counted and named: $(head -c 600 "$tmp/rep/out")" \
	sh -c "! grep -q ' 0 of them swap order' '$tmp/rep/out' &&
		grep -q '^    iterate N=1024 k=1: hash/vector ' '$tmp/rep/out'"

# --- make report --------------------------------------------------------------------------
make -s --no-print-directory plots PROFILE=A OUTPUT="$tmp/runs/new.csv" >/dev/null 2>"$tmp/plots.err"
check report-plots "make plots OUTPUT= failed: $(tail -n 2 "$tmp/plots.err")" test -s "$tmp/runs/new-plots/A/iterate.png"
make -s --no-print-directory report PROFILE=A OUTPUT="$tmp/runs/new.csv" >"$tmp/report.out" 2>"$tmp/report.err"
rc=$?
page=$tmp/runs/new-report.html
check report-writes "make report OUTPUT=: exit $rc, $(tail -n 2 "$tmp/report.err")" sh -c "[ $rc -eq 0 ] && [ -s '$page' ]"
# Every src and href, as the page names it.
grep -o '\(src\|href\)="[^"]*"' "$page" | sed 's/^[a-z]*="//; s/"$//' >"$tmp/named"
missing=$(grep -v '^#' "$tmp/named" | while read -r f; do
	[ -e "$tmp/runs/$f" ] || echo "$f"
done)
check report-names-exist "the page names files that do not exist: $(echo "$missing" | head -n 3 | tr '\n' ' ')" [ -z "$missing" ]
check report-names-something "the page names fewer than 8 files" [ "$(grep -vc '^#' "$tmp/named")" -ge 8 ]
anchors=$(grep '^#' "$tmp/named" | while read -r a; do
	grep -q "id=\"${a#\#}\"" "$page" || echo "$a"
done)
check report-anchors "links to anchors that are not on the page: $anchors" [ -z "$anchors" ]
check report-relative "the page names an absolute path or a network address: $(grep -E '^(/|[a-z]+:)' "$tmp/named" | head -n 2)" \
	sh -c "! grep -qE '^(/|[a-z]+:)' '$tmp/named'"
check report-no-network "the page loads something from a network" sh -c "! grep -qiE '(src|href)=\"(https?:)?//|@import|url\\(' '$page'"
nfig=$(ls "$tmp/runs/new-plots/A/"*.png "$tmp/runs/new-plots/profiles/"*.png "$tmp/runs/new-compare/"*.png | wc -l)
check report-every-figure "the page shows $(grep -c '<img ' "$page") images, the run and its comparison have $nfig figures" \
	[ "$(grep -c '<img ' "$page")" -eq "$nfig" ]
check report-captions "a figure without a caption" \
	[ "$(grep -c '<figcaption><b>[^<]*</b>: [A-Za-z0-9]' "$page")" -eq "$nfig" ]
check report-posts-named "the page numbers a post a reader cannot look up: $(grep -oiE '.{30}seeds? [0-9]{3}.{10}' "$page" | head -n 2)" \
	sh -c "grep -q \"The table of Varkor's refactor post\" '$page' && ! grep -qiE 'seeds? [0-9]{3}' '$page'"
check report-two-processes "the page of a run of 2 processes does not say what its intervals cannot" \
	grep -q '<b>Read the intervals below with care</b>: the intervals are of 2 processes: t with 1 degree of freedom' "$page"
check report-tables "a table is missing (at a glance, Varkor's, performance)" \
	sh -c "grep -q 'At a glance' '$page' && grep -q '<th>allocations</th>' '$page' && grep -q '<th>ratio to best</th>' '$page'"
# The run's answer, the fastest of each row highlighted: the backend the CSV calls best (iterate,
# N = 2048, k = 1), or "no decision" where the run's two processes cannot name one, and a row
# per workload and k (iterate, create: k = 1, 2; varkor-create) so marked; the best rows of the
# performance table highlighted too.
best=$(grep -v '^#' "$tmp/runs/new.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "iterate" && $c["entities"] == 2048 && $c["components"] == 1 && $c["vs_best"] == "best" { print $c["backend"] }')
check report-answer-fastest "the answer does not highlight $best as the fastest of iterate, N = 2048, k = 1: $(grep -o '<tr><td>iterate</td>[^\n]*' "$page" | head -n 1 | cut -c1-200)" \
	sh -c "[ -n '$best' ] && grep -q 'id=\"answer1\"' '$page' &&
		grep -q '<tr><td>iterate</td><td>2<sup>11</sup></td><td>1</td><td class=\"\\(fastest\">$best\\|nodecision\">no decision\\)</td>' '$page' &&
		[ \"\$(grep -o '<td class=\"\\(fastest\\|nodecision\\)\">' '$page' | wc -l)\" -eq 5 ] && grep -q '<tr class=\"best\">' '$page'"
# A backend that lacks a row at the largest N is written "not measured", never left blank.
awk -F, '!/^(#|backend,)/ && $1 == "tree" && $4 == "iterate" && $6 == 2048 { next } { print }' \
	"$tmp/runs/new.csv" >"$tmp/lacking.csv"
scripts/report.sh -o "$tmp/lacking.html" -p "$tmp/runs/new-plots" "$tmp/lacking.csv" 2>/dev/null
check report-not-measured "tree's missing iterate row is not written 'not measured'" \
	sh -c "grep -q '<tr><th>tree</th><td><span class=\"absent\">not measured</span>' '$tmp/lacking.html'"
make -s --no-print-directory report OUTPUT="$tmp/none.csv" >/dev/null 2>"$tmp/report.err"
rc=$?
check report-no-csv "make report with an OUTPUT that does not exist: exit $rc" \
	sh -c "[ $rc -eq 2 ] && grep -q 'run make bench' '$tmp/report.err' && [ ! -e '$tmp/none-report.html' ]"

# A full disk: the page is not replaced by a partial one, and the script says so (exit 1).
full_disk_make "$tmp/full" 4
echo old >"$tmp/full/page.html"
on_full_disk scripts/report.sh -o "$tmp/full/page.html" -p "$tmp/runs/new-plots" "$tmp/runs/new.csv" >/dev/null 2>"$tmp/full.err"
rc=$?
check report-full-disk "exit $rc on a full disk ($full_disk_mode): $(cat "$tmp/full.err"); $(ls -a "$tmp/full")" \
	sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$tmp/full/page.html')\" = old ] && [ \"\$(ls '$tmp/full')\" = page.html ] &&
		! grep -q 'report.sh: wrote' '$tmp/full.err'"
full_disk_free
# ... nor a comparison's figures: the previous comparison stays whole.
full_disk_make "$tmp/full" 16
mkdir -p "$tmp/full/cmp"
echo old >"$tmp/full/cmp/iterate.png"
echo iterate.png >"$tmp/full/cmp/figures.txt"
on_full_disk scripts/compare.sh -o "$tmp/full/cmp" "$tmp/runs/old.csv" "$tmp/runs/new.csv" >/dev/null 2>"$tmp/full.err"
rc=$?
check compare-full-disk "exit $rc on a full disk ($full_disk_mode): $(grep -v '^compare.sh: wrote' "$tmp/full.err" | tail -n 2); $(ls -a "$tmp/full/cmp")" \
	sh -c "[ $rc -ne 0 ] && grep -q 'not a whole PNG\\|No space left on device\\|File too large' '$tmp/full.err' &&
		[ \"\$(cat '$tmp/full/cmp/iterate.png')\" = old ] && [ \"\$(ls -A '$tmp/full/cmp' | tr '\n' ' ')\" = 'figures.txt iterate.png ' ]"
full_disk_free

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
