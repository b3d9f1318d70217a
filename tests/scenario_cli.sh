#!/bin/sh
# scenario_cli.sh: build/ecsbench --scenario from the outside. A bad scenario file gives exit 2
# and its file:line; a bad --sweep, --set, --points or --spacing, or a workload option that does
# not apply, gives exit 2 and a message naming it; none of them touches the output. A short run
# of every shipped scenario (scaled down) writes a row per backend and phase, with the floor and
# the harness alone, and checksums that agree; a short sweep writes every point; their figures
# are drawn (and on a full disk the figure fails, leaving the old one); the check build finds
# nothing but the frame in the timed regions; make bench takes a scenario file whose name has a
# space and a letter beyond ASCII, into a folder with a space, and keeps its previous CSV and
# figure. Ends with "N passed, N failed".
set -u
bin=${ECSBENCH:-build/ecsbench}
check_bin=${ECSBENCH_CHECK:-build/check/ecsbench}
root=$(pwd)
tmp=$(mktemp -d)
. "$(dirname "$0")/full_disk.sh"
trap 'full_disk_free; rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   scenario-cli/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL scenario-cli/$1: $2"; failed=$((failed + 1)); }

out="$tmp/out.csv"
echo "previous results" > "$out"
want=$(cat "$out")
small="--set scenario.scale=0.01 --set scenario.frames=6 --set scenario.warmup=2"

# bad NAME EXPECTED-TEXT ARGS...: exit 2, one line on stderr containing EXPECTED-TEXT, the output
# untouched and no temporary file beside it.
bad() {
	name=$1 text=$2
	shift 2
	"$bin" --output "$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	lines=$(wc -l <"$tmp/stderr")
	if [ "$rc" -ne 2 ]; then
		fail "$name" "exit status $rc, expected 2: $(cat "$tmp/stderr")"
	elif [ "$lines" -ne 1 ]; then
		fail "$name" "$lines lines on stderr, expected 1: $(cat "$tmp/stderr")"
	elif ! grep -qF -- "$text" "$tmp/stderr"; then
		fail "$name" "message does not say '$text': $(cat "$tmp/stderr")"
	elif [ "$(cat "$out")" != "$want" ] || [ -n "$(ls "$tmp" | grep 'out.csv.tmp')" ]; then
		fail "$name" "the results file was touched"
	else
		ok "$name"
	fi
}

# Bad files: the file, the line, the problem (the reader's own messages, tests/scenario_file.c).
printf '[scenario]\nframes = 10\n[kind soldier]\ncomponents = Postion\ncount = 10\n' > "$tmp/typo.ini"
printf '[scenario]\nframes = ten\n' > "$tmp/frames.ini"
mkdir "$tmp/adir.ini"
bad missing-file "$tmp/none.ini: cannot open" --scenario "$tmp/none.ini"
bad unknown-type "$tmp/typo.ini:4: [kind soldier]: components: unknown type Postion" \
	--scenario "$tmp/typo.ini"
bad bad-number "$tmp/frames.ini:2:" --scenario "$tmp/frames.ini"
bad directory "is a directory" --scenario "$tmp/adir.ini"

# Options that do not apply to a scenario run, and scenario options without --scenario.
shooter=scenarios/shooter.ini
bad workloads-refused "--workloads does not apply to a scenario run" --scenario $shooter \
	--workloads iterate
bad reps-refused "--reps does not apply to a scenario run (the timed samples are its frames: --set scenario.frames=N)" \
	--scenario $shooter --reps 3
bad entities-refused "--entities does not apply" --scenario $shooter --entities 1000
bad seed-refused "--seed does not apply" --scenario $shooter --seed 2
bad scale-refused "--scale does not apply" --scenario $shooter --scale 0.5
bad sweep-alone "--sweep needs --scenario FILE" --sweep scenario.scale=0.1..1
bad set-alone "--set needs --scenario FILE" --set scenario.scale=0.1
bad points-alone "--points needs --sweep KEY=A..B" --scenario $shooter --points 4

# --set and --sweep: bad keys, values and ranges, each point checked before the run.
bad set-not-pair "--set 'scale' is not KEY=VALUE" --scenario $shooter --set scale
bad set-unknown-kind "no [kind ghost] in scenarios/shooter.ini" --scenario $shooter \
	--set kind.ghost.count=5
bad set-bad-value "kind.bullet.count = -5" --scenario $shooter --set kind.bullet.count=-5
bad sweep-not-pair "--sweep 'frames' is not KEY=A..B" --scenario $shooter --sweep frames
bad sweep-no-range "the range must be A..B" --scenario $shooter --sweep kind.bullet.count=500
bad sweep-empty "the range is empty (A..B needs A < B)" --scenario $shooter \
	--sweep kind.bullet.count=500..100
bad sweep-mixed "both bounds or neither must be percentages" --scenario $shooter \
	--sweep effect.frozen.add=1..5%
bad sweep-unknown-key "unknown key 'speed'" --scenario $shooter --sweep kind.bullet.speed=1..2
bad sweep-unknown-section "unknown section 'kinds'" --scenario $shooter \
	--sweep kinds.bullet.count=1..2
bad sweep-out-of-range "effect.frozen.add = 150%" --scenario $shooter \
	--sweep effect.frozen.add=50%..150% --points 3
bad sweep-frames "the frames, warm-up and seed are the same at every point" --scenario $shooter \
	--sweep scenario.frames=10..20
bad sweep-points "--points '1' is not a number of points in 2..50" --scenario $shooter \
	--sweep kind.bullet.count=100..200 --points 1
bad sweep-spacing "unknown spacing 'log'" --scenario $shooter \
	--sweep kind.bullet.count=100..200 --spacing log
bad sweep-geometric-zero "--spacing geometric needs A > 0" --scenario $shooter \
	--sweep effect.frozen.add=0%..1% --spacing geometric
bad sweep-too-many "entities alive after" --scenario $shooter \
	--sweep kind.bullet.spawn=500..40000 --points 2
# A list of values (KEY=V1,V2,...): each one checked, at least two, none twice, no --points.
cross=scenarios/crossover.ini
bad sweep-list-bad-value "component.Marked.storage = dense: not table or sparse" --scenario $cross \
	--sweep component.Marked.storage=table,dense
bad sweep-list-twice "sparse listed twice" --scenario $cross \
	--sweep component.Marked.storage=sparse,table,sparse
bad sweep-list-empty "an empty value in the list" --scenario $cross \
	--sweep component.Marked.storage=table,
bad sweep-list-points "a list of values is its own points (no --points)" --scenario $cross \
	--sweep component.Marked.storage=table,sparse --points 3
bad sweep-list-frames "the frames, warm-up and seed are the same at every point" --scenario $cross \
	--sweep scenario.seed=1,2
bad set-storage-bad "component.Marked.storage = Sparse: not table or sparse" --scenario $cross \
	--set component.Marked.storage=Sparse
bad set-group-bad "system.move.group = 2: not yes or no" --scenario $cross --set system.move.group=2
bad unmarked-alone "--unmarked needs --scenario FILE" --unmarked sparse
bad unmarked-unknown "--unmarked: unknown backend 'sparce'" --scenario $cross --unmarked sparce
bad unmarked-not-run "--unmarked sparse: sparse is not among the run's backends" --scenario $cross \
	--backends archetype --unmarked sparse
bad unmarked-twice "--unmarked: sparse listed twice" --scenario $cross --unmarked sparse,sparse

# Parallel systems: the thread count is the file's (scenario.threads), not --threads; more
# threads than CPUs, or a bad parallel value, refused before anything runs.
par=scenarios/particles-parallel.ini
bad threads-refused "--threads does not apply to a scenario run" --scenario $par --threads 1
bad threads-too-many "threads = $(($(nproc) + 1)): this process may run on $(nproc) CPUs" \
	--scenario $par --set scenario.threads=$(($(nproc) + 1))
bad parallel-bad-value "system.gravity.parallel = on: not yes or no (or true or false)" \
	--scenario $par --set system.gravity.parallel=on

# agree CSV [BACKENDS]: every point of the run has a frame row for every backend (or BACKENDS
# of them), the floor and the harness; the backends and the floor agree on the checksum, and the harness has none.
agree() {
	backends=${2:-$("$bin" --list | sed -n '/^backends:/,/^workloads/p' | grep -c '^  ')}
	grep -v '^#' "$1" | awk -F, -v backends="$backends" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["phase"] != "frame" { phases[$c["sweep_value"]]++; next }
		{
			p = $c["sweep_value"]
			points[p] = 1
			if ($c["backend"] == "harness") { harness[p]++; if ($c["checksum"] != "") bad++; next }
			if ($c["backend"] == "floor") floor[p]++; else rows[p]++
			if ((p in sum) && sum[p] != $c["checksum"]) bad++
			sum[p] = $c["checksum"]
		}
		END {
			for (p in points) {
				if (rows[p] != backends) { print "point " p ": " rows[p] " backend rows"; exit }
				if (floor[p] != 1 || harness[p] != 1) { print "point " p ": no floor or harness row"; exit }
				if (phases[p] == 0) { print "point " p ": no phase rows"; exit }
			}
			if (bad) print bad " rows disagree on their checksum"
			else print "ok"
		}'
}

for s in scenarios/*.ini; do
	name=$(basename "$s" .ini)
	csv="$tmp/$name.csv"
	# shellcheck disable=SC2086
	if "$bin" --scenario "$s" $small --processes 2 --output "$csv" 2>"$tmp/stderr"; then
		verdict=$(agree "$csv")
		if [ "$verdict" = ok ] && [ -s "$tmp/$name-samples.csv" ]; then
			ok "run-$name"
		else
			fail "run-$name" "$verdict"
		fi
	else
		fail "run-$name" "exit status $?: $(tail -n 3 "$tmp/stderr")"
	fi
done

# The phases of a frame add up to about the frame (the clock reads between them aside).
if verdict=$(grep -v '^#' "$tmp/shooter.csv" | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["phase"] == "frame" { frame[$c["backend"]] = $c["median_ns"]; next }
	{ sum[$c["backend"]] += $c["median_ns"] }
	END {
		for (b in frame) if (sum[b] < 0.5 * frame[b] || sum[b] > 1.5 * frame[b]) {
			print b ": phases " sum[b] ", frame " frame[b]; exit
		}
		print "ok"
	}') && [ "$verdict" = ok ]; then
	ok phases-add-up
else
	fail phases-add-up "$verdict"
fi

# A short sweep: every point, in order, with the key and value on every row.
sweep="$tmp/sweep.csv"
# shellcheck disable=SC2086
if "$bin" --scenario scenarios/rpg.ini $small --sweep effect.burning.add=0.5%..8% --points 3 \
	--backends archetype,sparse --processes 2 --output "$sweep" 2>"$tmp/stderr"; then
	values=$(grep -v '^#' "$sweep" | awk -F, 'NR > 1 && $6 == "frame" && $5 == "archetype" { printf "%s ", $3 }')
	if [ "$values" = "0.5% 2% 8% " ] && grep -q '^# sweep effect.burning.add: 3 points, geometric' "$sweep" &&
		[ "$(agree "$sweep" 2)" = ok ]; then
		ok sweep-points
	else
		fail sweep-points "points '$values': $(grep '^# sweep' "$sweep")"
	fi
else
	fail sweep-points "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

# A sweep over the markings: a point per value in the order given, named by it (x its place),
# categorical; the markings change no result (one checksum over both points, batched or not);
# the groups each backend granted are in the header.
msweep="$tmp/markings.csv"
# shellcheck disable=SC2086
if "$bin" --scenario $cross $small --set system.hurt.group=yes --set effect.mark.batch=yes \
	--sweep component.Marked.storage=sparse,table --backends archetype,sparse --processes 1 \
	--output "$msweep" 2>"$tmp/stderr"; then
	values=$(grep -v '^#' "$msweep" | awk -F, 'NR > 1 && $6 == "frame" && $5 == "sparse" { printf "%s:%s ", $3, $4 }')
	sums=$(grep -v '^#' "$msweep" | awk -F, 'NR > 1 && $6 == "frame" && $26 != "" { print $26 }' | sort -u | wc -l)
	if [ "$values" = "sparse:1 table:2 " ] && [ "$sums" -eq 1 ] &&
		grep -q '^# sweep component.Marked.storage: 2 points, categorical: sparse table$' "$msweep" &&
		grep -q '^# groups at component.Marked.storage=sparse (group = yes; ecs_system_group: 1 grouped, 0 declined): archetype think 0 hurt 0; sparse think [01] hurt [01]$' "$msweep" &&
		[ "$(agree "$msweep" 2)" = ok ]; then
		ok sweep-markings
	else
		fail sweep-markings "points '$values', $sums checksums: $(grep '^# sweep\|^# groups' "$msweep")"
	fi
else
	fail sweep-markings "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

# --unmarked: a backend once more, named B-unmarked, at every point of a numeric sweep, with the
# same checksum (markings change no result).
usweep="$tmp/unmarked.csv"
# shellcheck disable=SC2086
if "$bin" --scenario $cross $small --sweep effect.mark.add=1%..10% --points 2 \
	--backends archetype,sparse --unmarked sparse --processes 1 --output "$usweep" 2>"$tmp/stderr"; then
	names=$(grep -v '^#' "$usweep" | awk -F, 'NR > 1 && $6 == "frame" && $3 == "1%" { printf "%s ", $5 }')
	if [ "$names" = "archetype sparse sparse-unmarked floor harness " ] && [ "$(agree "$usweep" 3)" = ok ]; then
		ok unmarked
	else
		fail unmarked "participants '$names'"
	fi
else
	fail unmarked "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

# A parallel scenario at every thread count from 1 to the CPUs, as the points of one sweep:
# every point has the same checksum (the same update, whatever the split) as the serial run of
# the same frames (particles.ini, the same file without parallel = true); its rows are on the
# wall clock, which the clock line says, and its phases count nothing twice (no more than the
# frame; on the wall clock of a loaded machine the waits between phases may make the frame far
# longer than its phases, so that side is not a test).
cpus=$(nproc)
tsweep="$tmp/threads.csv"
# shellcheck disable=SC2086
if "$bin" --scenario $par $small --set scenario.threads=1 \
	$([ "$cpus" -gt 1 ] && echo "--sweep scenario.threads=1..$cpus") --processes 1 \
	--output "$tsweep" 2>"$tmp/stderr"; then
	sums=$(grep -v '^#' "$tsweep" | awk -F, 'NR > 1 && $6 == "frame" && $26 != "" { print $26 }' | sort -u)
	serial=$(grep -v '^#' "$tmp/particles.csv" | awk -F, 'NR > 1 && $6 == "frame" && $26 != "" { print $26 }' | sort -u)
	points=$(grep -v '^#' "$tsweep" | awk -F, 'NR > 1 && $6 == "frame" && $5 == "floor"' | wc -l)
	phases=$(grep -v '^#' "$tsweep" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $c["sweep_value"] " " $c["backend"] }
		$c["phase"] == "frame" { frame[k] = $c["median_ns"]; next }
		{ sum[k] += $c["median_ns"] }
		END {
			for (b in frame) if (sum[b] > 1.5 * frame[b]) {
				print b ": phases " sum[b] ", frame " frame[b]; exit
			}
			print "ok"
		}')
	if [ "$(echo "$sums" | wc -l)" -eq 1 ] && [ "$sums" = "$serial" ] && [ "$points" -eq "$cpus" ] &&
		[ "$(agree "$tsweep")" = ok ] && [ "$phases" = ok ] &&
		grep -q '^# clock .*a scenario with a parallel system.* is on the wall clock' "$tsweep" &&
		grep -q '; parallel$' "$tsweep"; then
		ok parallel-threads-agree
	else
		fail parallel-threads-agree "checksums '$sums' (serial '$serial'), $points points, phases $phases: $(grep '^# clock' "$tsweep")"
	fi
else
	fail parallel-threads-agree "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

# A linear sweep from 0 with whole numbers.
if "$bin" --scenario scenarios/shooter.ini --set scenario.scale=0.01 --set scenario.frames=3 \
	--set scenario.warmup=0 --sweep kind.enemy.variants=1..4 --points 4 --backends vector \
	--processes 1 --output "$tmp/linear.csv" 2>"$tmp/stderr" &&
	[ "$(grep -v '^#' "$tmp/linear.csv" | awk -F, 'NR > 1 && $6 == "frame" && $5 == "vector" { printf "%s ", $3 }')" = "1 2 3 4 " ]; then
	ok sweep-linear-whole
else
	fail sweep-linear-whole "$(tail -n 3 "$tmp/stderr"; grep '^# sweep' "$tmp/linear.csv")"
fi

# The figures: stacked bars of a lone scenario, lines of a sweep, each a PNG where asked; a CSV
# that is not a scenario's is refused with exit 2.
if command -v gnuplot >/dev/null 2>&1; then
	if scripts/scenario_plot.sh -o "$tmp/plots" "$tmp/shooter.csv" >/dev/null 2>"$tmp/stderr" &&
		scripts/scenario_plot.sh -o "$tmp/plots" "$sweep" >/dev/null 2>>"$tmp/stderr" &&
		[ -s "$tmp/plots/shooter.png" ] && [ -s "$tmp/plots/sweep.png" ]; then
		ok figures
	else
		fail figures "$(cat "$tmp/stderr")"
	fi
	full_disk_make "$tmp/full" 4
	echo old >"$tmp/full/shooter.png"
	on_full_disk scripts/scenario_plot.sh -o "$tmp/full" "$tmp/shooter.csv" >/dev/null 2>"$tmp/stderr"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "cannot write $tmp/full/shooter.png: gnuplot left" "$tmp/stderr" &&
		[ "$(cat "$tmp/full/shooter.png")" = old ] && [ "$(ls -A "$tmp/full" | grep -v '^\.filler$')" = shooter.png ]; then
		ok figure-full-disk
	else
		fail figure-full-disk "exit status $rc ($full_disk_mode): $(cat "$tmp/stderr"); $(ls -a "$tmp/full")"
	fi
	full_disk_free
	# The labels over the bars in plain units and words: a frame of 1,110,000 ns on an axis of µs
	# reads "1.11 ms" (it read "1.11e+03"), its ratio "3.80 times" (it read "(x3.80)"); a bar
	# cut at the top has its marker in the key. A synthetic CSV: columns are found by name.
	{
		echo "# processes 5, spread over the run (random layout)"
		echo "scenario,sweep_key,backend,phase,median_ns,ci_low_ns,ci_high_ns,ratio_to_best,vs_best"
		for row in archetype,292000,1,best vector,1110000,3.8,slower tree,5000000,17.12,slower \
			floor,150000,, harness,40000,,; do
			set -- $(echo "$row" | tr ',' ' ')
			echo "labels,,$1,frame,$2,$(($2 * 9 / 10)),$(($2 * 11 / 10)),${3:-},${4:-}"
			echo "labels,,$1,system:move,$2,,,,"
		done
	} >"$tmp/labels.csv"
	if scripts/scenario_plot.sh -o "$tmp/plots" -k "$tmp/labels-data" "$tmp/labels.csv" >"$tmp/stdout" 2>"$tmp/stderr" &&
		grep -q '^1,[^,]*,[^,]*,[^,]*,[^,]*,1.11 ms,0,3.80 times,0$' "$tmp/labels-data/frames.dat" &&
		grep -q '^0,[^,]*,[^,]*,[^,]*,[^,]*,292 µs,0,fastest,0$' "$tmp/labels-data/frames.dat" &&
		grep -q '^2,[^,]*,[^,]*,[^,]*,[^,]*,5 ms,1,17.12 times,0$' "$tmp/labels-data/frames.dat" &&
		grep -q '^3,[^,]*,[^,]*,[^,]*,[^,]*,150 µs,0,0.51 times,0$' "$tmp/labels-data/frames.dat" &&
		! grep -q 'e+\|(x' "$tmp/labels-data/frames.dat" && [ "$(cat "$tmp/labels-data/ncut")" = 1 ]; then
		ok figure-labels-plain
	else
		fail figure-labels-plain "$(cat "$tmp/stderr" "$tmp/labels-data/frames.dat" 2>&1)"
	fi
	# A sweep whose timings reach 0 (an interval of a row that took 0 ns, a frame the clock could
	# not resolve) still draws on its log axis: the range comes from the positive values alone.
	{
		echo "# sweep effect.mark.add: 2 points, geometric"
		echo "scenario,sweep_key,sweep_value,sweep_x,backend,phase,median_ns,ci_low_ns,ci_high_ns,ratio_to_best,ratio_ci_low,ratio_ci_high,vs_best"
		echo "zero,effect.mark.add,1%,1,vector,frame,1200,0,2000,1,,,best"
		echo "zero,effect.mark.add,1%,1,harness,frame,0,0,0,,,,"
		echo "zero,effect.mark.add,2%,2,vector,frame,1300,0,2100,1,,,best"
		echo "zero,effect.mark.add,2%,2,harness,frame,0,0,0,,,,"
	} >"$tmp/zero.csv"
	if scripts/scenario_plot.sh -o "$tmp/plots" "$tmp/zero.csv" >/dev/null 2>"$tmp/stderr" &&
		[ -s "$tmp/plots/zero.png" ]; then
		ok figure-log-axis-zero
	else
		fail figure-log-axis-zero "$(cat "$tmp/stderr")"
	fi
	printf 'backend,workload\nhash,iterate\n' > "$tmp/other.csv"
	scripts/scenario_plot.sh -o "$tmp/plots" "$tmp/other.csv" >/dev/null 2>"$tmp/stderr"
	if [ $? -eq 2 ] && grep -q "is not a scenario CSV" "$tmp/stderr"; then
		ok figures-refuse-other-csv
	else
		fail figures-refuse-other-csv "$(cat "$tmp/stderr")"
	fi
fi

# The default output: results/scenario-NAME.csv under the current folder, samples beside it.
mkdir -p "$tmp/cwd/results"
if (cd "$tmp/cwd" && "$root/$bin" --scenario "$root/scenarios/particles.ini" \
	--set scenario.scale=0.001 --set scenario.frames=2 --set scenario.warmup=0 --processes 1 \
	--backends sparse 2>"$tmp/stderr") &&
	[ -s "$tmp/cwd/results/scenario-particles.csv" ] && [ -s "$tmp/cwd/results/scenario-particles-samples.csv" ]; then
	ok default-output
else
	fail default-output "$(ls "$tmp/cwd/results"; tail -n 3 "$tmp/stderr")"
fi
# The run says how many rows its CSV has (a row per participant and phase, not per participant),
# "1 process", and that one process's intervals say nothing of another.
rows=$(grep -v '^#' "$tmp/cwd/results/scenario-particles.csv" | tail -n +2 | wc -l)
if grep -q "^ecsbench: wrote results/scenario-particles.csv: $rows rows from 1 process in " "$tmp/stderr" &&
	[ "$rows" -gt 3 ] && grep -q '^ecsbench: 1 process: every interval is within that process' "$tmp/stderr"; then
	ok wrote-rows-of-the-csv
else
	fail wrote-rows-of-the-csv "the CSV has $rows rows: $(grep 'wrote\|process:' "$tmp/stderr")"
fi

# The check build aborts if anything that makes values or draws decisions the harness's way
# (world.c's generator, value_fill, permutation, world_open) runs inside a frame.
# shellcheck disable=SC2086
if "$check_bin" --scenario scenarios/rpg.ini $small --processes 1 --output "$tmp/check.csv" \
	2>"$tmp/stderr"; then
	ok timed-frames-hold-only-the-frame
else
	fail timed-frames-hold-only-the-frame "$(tail -n 3 "$tmp/stderr")"
fi
# shellcheck disable=SC2086
if "$check_bin" --scenario $par $small --processes 1 --output "$tmp/check-par.csv" \
	2>"$tmp/stderr"; then
	ok timed-parallel-frames-hold-only-the-frame
else
	fail timed-parallel-frames-hold-only-the-frame "$(tail -n 3 "$tmp/stderr")"
fi

# A participant whose frames are long (tree over 200,000 particles: tens of ms a frame, more
# than a long run's threshold) makes as many frames as the others, so that its state, and its
# checksum, agree with theirs: a long run's calibration stands for a warm-up sample only where
# the runs per sample are calibrated, not where a sample is a frame.
if "$bin" --scenario "$root/scenarios/particles.ini" --set scenario.scale=0.2 --set scenario.frames=2 \
	--set scenario.warmup=1 --backends tree --processes 1 --output "$tmp/long.csv" 2>"$tmp/stderr"; then
	ok long-frames-same-frames
else
	fail long-frames-same-frames "$(tail -n 3 "$tmp/stderr")"
fi

# make bench with a scenario file named with a space and a letter beyond ASCII, into a folder with
# a space, twice: its CSV and figure, then the first CSV and figure kept in previous/.
mkdir -p "$tmp/my game"
cp scenarios/particles.ini "$tmp/my game/tür spiel.ini"
res="$tmp/my results/tür spiel.csv"
set -- SCENARIO="$tmp/my game/tür spiel.ini" OUTPUT="$res" BACKENDS='sparse, vector' PROCESSES=1 \
	SET='scenario.scale=0.001 scenario.frames=2 scenario.warmup=0'
make -s --no-print-directory bench "$@" >/dev/null 2>"$tmp/stderr"
first=$?
make -s --no-print-directory bench "$@" >/dev/null 2>>"$tmp/stderr"
second=$?
prev=$(ls -d "$tmp/my results/previous/"*-"tür spiel" 2>/dev/null)
if [ "$first" -ne 0 ] || [ "$second" -ne 0 ]; then
	fail make-scenario-spaces "exit status $first, then $second: $(cat "$tmp/stderr")"
elif ! grep -q '^tür spiel,' "$res" || [ ! -s "$tmp/my results/tür spiel-plots/tür spiel.png" ]; then
	fail make-scenario-spaces "no CSV of the scenario or no figure: $(ls -R "$tmp/my results")"
elif [ -z "$prev" ] || [ ! -s "$prev/tür spiel.csv" ] || [ ! -s "$prev/tür spiel-plots/tür spiel.png" ] ||
	! grep -qF "is kept in $prev/" "$tmp/stderr"; then
	fail make-scenario-spaces "the first run's CSV and figure are not kept: $(ls -R "$tmp/my results")"
else
	ok make-scenario-spaces
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
