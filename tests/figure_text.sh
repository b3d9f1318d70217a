#!/bin/sh
# figure_text.sh: every kind of figure a default run (make bench PROFILE=A: the time figures,
# the speedup, memory, Varkor and profile figures), a scenario (its bars, its trace, a sweep),
# make compare (a swept workload, Varkor's), make small (the fixed cost), make cachegrind and
# make advise (the search) draw, from the committed reference runs (results/reference/), two
# short scenario runs and a short advisor's search,
# made to carry the longest texts the runs make (a long CPU name, a dirty commit, noisy rows,
# eight backends, one with a long name, 2 processes, long paths) and times of 0 and intervals
# reaching 0 (issue 32 item 9's kin: every log scale over measured values), each figure looked
# at through its pixels (build/png_ink):
#   inside      no ink within 4 pixels of the canvas's edge: no title, label or key cut there
#   key         the figure drawn again without its key (gnuplot's test_no_key): what the key
#               drew covers nothing else (in its bounding box the figure without it is blank)
#   title       the same for the title (test_no_title)
#   caption     the same for the caption under the key (test_no_caption): the method and the run
#   title-lines the title in at most 3 lines once wrapped to the canvas (styles.gp's fit_title
#               writes the count where test_title_file says): what the figure shows, no more
#   quiet       gnuplot said nothing (no warning of an undefined value, a point off a log axis,
#               a file with nothing to draw), and the script exited 0
# and the scenario's bars told which are cut (the bar itself, or its interval alone), and
# make history's figures drawn from a tracked run with zeros.
# A stand-in for gnuplot first in PATH draws each figure (the first of each script four times:
# without key, without title, without caption, whole). Costs: about 30 gnuplot drawings, two scenario runs of a
# second and a search of a few (30 to 50 s on a loaded 2-core machine). Ends with "N passed,
# N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
ink=build/png_ink
tmp=$(mktemp -d)
trap '[ -n "${FIGURE_TEXT_KEEP:-}" ] && echo "kept: $tmp" || rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   figure_text/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL figure_text/$1: $2"; failed=$((failed + 1)); }
[ -x "$ink" ] || { fail png_ink "no $ink (make builds it)"; echo "$passed passed, $failed failed"; exit 1; }
gnuplot=$(command -v gnuplot) || { fail gnuplot "no gnuplot (scripts/deps.sh plots)"; echo "$passed passed, $failed failed"; exit 1; }

# --- the stand-in for gnuplot ------------------------------------------------------------------
# A figure's output is its -e's out='...'. Each drawing is kept as $cap/<n>.png (and <n>-nokey,
# <n>-notitle for the first figure of each script), with its name and arguments in $cap/index.
cap=$tmp/cap
mkdir -p "$cap" "$tmp/bin"
cat >"$tmp/bin/gnuplot" <<EOF
#!/bin/sh
real='$gnuplot' cap='$cap'
EOF
cat >>"$tmp/bin/gnuplot" <<'EOF'
out=$(printf '%s\n' "$@" | sed -n "s/.*[;[:space:]]out='\([^']*\)'.*/\1/p; s/^out='\([^']*\)'.*/\1/p" | head -n 1)
script=
for a in "$@"; do case "$a" in *.gp) script=$(basename "$a") gp=$a ;; esac; done
# A script that sets its output itself (history.sh's): the lines of its multiplot's title, which
# gnuplot does not wrap (one a \n), into $cap/multiplot.title
if [ -z "$out" ] && [ -n "$script" ]; then
	sed -n 's/^set multiplot .* title "\(.*\)"$/\1/p' "$gp" | awk -F'\\\\n' '{ print NF }' >>"$cap/multiplot.title"
fi
[ -n "$out" ] && [ -n "$script" ] || exec "$real" "$@"
n=$(($(wc -l <"$cap/index" 2>/dev/null || echo 0) + 1))
if ! grep -q "	$script	" "$cap/index" 2>/dev/null; then
	"$real" -e "test_no_key = 1" "$@" 2>/dev/null && cp "$out" "$cap/$n-nokey.png"
	"$real" -e "test_no_title = 1" "$@" 2>/dev/null && cp "$out" "$cap/$n-notitle.png"
	"$real" -e "test_no_caption = 1" "$@" 2>/dev/null && cp "$out" "$cap/$n-nocaption.png"
fi
"$real" -e "test_title_file = '$cap/$n.title'" "$@" 2>"$cap/$n.err"
rc=$?
cat "$cap/$n.err" >&2
[ "$rc" -ne 0 ] || cp "$out" "$cap/$n.png"
printf '%s\t%s\t%s\t%s\n' "$n" "$script" "$(basename "$out" | sed 's/\.tmp\.[0-9]*$//')" "$(printf '%s' "$*" | tr '\n\t' '  ')" >>"$cap/index"
exit "$rc"
EOF
chmod +x "$tmp/bin/gnuplot"

# --- the runs, at their longest texts ---------------------------------------------------------
# The committed reference runs (results/reference/, which make reference writes): a default
# run's shape from A.csv (k = 2 alone, so one panel a figure, the narrowest; a few workloads of
# each kind of figure), the shooter scenario and its samples, the crossover sweep. Made longest:
# a long CPU name and its pinning, a dirty commit, a machine of many CPUs, noisy rows here and
# there, and an eighth backend with a long name (a user's own), a copy of another's rows.
longest() { # longest FILE [BACKEND-TO-COPY]
	sed -e 's/^# ecsbench commit .*/# ecsbench commit 0123456789ab-dirty/' \
		-e 's/^# cpu [^;]*;[^;]*;/# cpu Intel(R) Xeon(R) Platinum 8480CL CPU @ 2.00GHz (Sapphire Rapids); 224 online;/' \
		-e 's/^# machine values .*/# machine values processes=5 stream_ns=12.345 stream_low=9.876 stream_high=15.43 chase_ns=1234.5 chase_low=987.6 chase_high=1543.2 steal_pct=12.3 others_pct=88.8/' \
		"$1" | awk -F, -v OFS=, -v copy="${2:-}" '
		/^#/ { print; next }
		$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ if ((NR % 5 == 0) && ("noisy" in c)) $c["noisy"] = 1; print
		  if ($1 == copy) { $1 = "my_own_storage_backend"; print } }'
}
runs=$tmp/runs
mkdir -p "$runs"
ref=results/reference
# the default run's shape: k = 2; iterate (the floor, the ratios), create (its memory figure),
# parallel-iterate (its speedup), Varkor's (their own N and k)
awk -F, '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["workload"] ~ /^varkor-/ || ($c["components"] == 2 && $c["workload"] ~ /^(iterate|create|parallel-iterate)$/ &&
		$c["history"] == "lived-in")' "$ref/A.csv" >"$tmp/A-default.csv"
longest "$tmp/A-default.csv" archetype >"$runs/A.csv"
# the other profiles of the profile figures: the same rows, named AA and AAA
for p in AA AAA; do
	awk -F, -v OFS=, -v p="$p" '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) if ($i == "profile") c = i; print; next }
		{ $c = p; print }' "$runs/A.csv" >"$runs/$p.csv"
done
# NEW for make compare: every backend's time moved (some faster, some slower), the same header
awk -F, -v OFS=, '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ f = (NR % 3 == 0) ? 0.7 : (NR % 3 == 1) ? 1.4 : 1.02
	  $c["median_ns"] *= f; $c["ci_low_ns"] *= f; $c["ci_high_ns"] *= f; $c["ns_per_entity"] *= f; print }' \
	"$runs/A.csv" >"$runs/new-run-with-a-long-name-to-compare.csv"
# a scenario run and a sweep of one, short (a twentieth of the shooter, ten frames; three points
# of the crossover), in 2 processes (whose title says the most about its intervals)
tiny="--set scenario.frames=10 --set scenario.warmup=2 --set scenario.scale=0.05 --processes 2"
# shellcheck disable=SC2086
if ! build/ecsbench --scenario scenarios/shooter.ini $tiny --output "$tmp/shooter.csv" 2>"$tmp/run.log" ||
	! build/ecsbench --scenario scenarios/crossover.ini --sweep effect.mark.add=0.1%..30% --points 3 $tiny \
		--output "$tmp/crossover.csv" 2>"$tmp/run.log"; then
	fail scenario-runs "$(tail -n 3 "$tmp/run.log")"
fi
# an advisor's search, short (the crossover as above, two backends, a budget of a minute; a few
# seconds), its texts made longest: a long CPU name and a long path in the title
# shellcheck disable=SC2086
if ! build/ecsbench --advise scenarios/crossover.ini $tiny --backends hybrid,group --budget 1m \
	--output "$tmp/advise-crossover.csv" >/dev/null 2>"$tmp/run.log"; then
	fail advise-run "$(tail -n 3 "$tmp/run.log")"
fi
sed -e 's/^# cpu [^;]*;/# cpu Intel(R) Xeon(R) Platinum 8480CL CPU @ 2.00GHz (Sapphire Rapids) (224 CPUs);/' \
	-e 's|^# advise [^:]*:|# advise /home/a-user-with-a-long-name/games/my-own-engine/scenarios/the-frame-of-my-game.ini:|' \
	"$tmp/advise-crossover.csv" >"$runs/advise-the-frame-of-my-game-with-a-long-name.csv"
longest "$tmp/shooter.csv" archetype >"$runs/scenario-shooter.csv"
awk -F, -v OFS=, '/^#/ { print; next } { print } $3 == "archetype" { $3 = "my_own_storage_backend"; print }' \
	"$tmp/shooter-samples.csv" >"$runs/scenario-shooter-samples.csv"
longest "$tmp/crossover.csv" archetype >"$runs/scenario-crossover-effect.mark.add.csv"
# make small's run: iterate at every N, and an empty pass (iterate's rows, its time not growing
# with N), as make small measures them
awk -F, -v OFS=, '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["workload"] == "iterate" { print; $c["workload"] = "empty-pass"; $c["median_ns"] = 40 + NR % 7; print }' \
	"$runs/A.csv" >"$runs/small-A.csv"
# Times of 0 and intervals reaching 0, in the runs drawn: hash's iterate and every backend's
# varkor-add at 0 outright, every create row's interval from 0, and a speedup's and a ratio's;
# every seventh of the trace's frames at 0
zeroed() {
	awk -F, -v OFS=, '
		/^#/ { print; next }
		$1 == "backend" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{
			w = $c["workload"]; z = (w == "varkor-add" || ($1 == "hash" && w == "iterate"))
			for (x in c) if (x ~ /^(median_ns|min_ns|max_ns|ns_per_entity|ci_low_ns|ci_high_ns|peak_bytes|allocations|live_bytes_per_entity)$/) {
				if (z) $c[x] = 0
				else if (x == "ci_low_ns" && w == "create") $c[x] = 0
			}
			if (("speedup_ci_low" in c) && $c["speedup_ci_low"] != "") $c["speedup_ci_low"] = 0
			if (("ratio_ci_low" in c) && $c["ratio_ci_low"] != "" && w == "create") $c["ratio_ci_low"] = 0
			print
		}' "$1"
}
for f in A AA AAA small-A; do
	zeroed "$runs/$f.csv" >"$tmp/z.csv" && mv "$tmp/z.csv" "$runs/$f.csv"
done
awk -F, -v OFS=, '/^#/ { print; next } !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["frame_ns"] = (NR % 7) ? $c["frame_ns"] : 0; print }' "$runs/scenario-shooter-samples.csv" >"$tmp/z.csv" &&
	mv "$tmp/z.csv" "$runs/scenario-shooter-samples.csv"
# a cachegrind CSV: every backend and the floor, two N, two runs of different commits
awk -F, 'BEGIN { OFS = ","
	print "date,commit,backend,profile,systems,workload,entities,components,component_bytes,inner,entity_ops,instructions,d_refs,d1_misses,lld_misses,d1_miss_pct,lld_miss_pct,instr_per_entity,d_refs_per_entity,d1_misses_per_entity,lld_misses_per_entity,i1,d1,ll,checksum"
	nb = split("hash tree vector sparse group archetype hybrid floor", b, " ")
	for (n = 16384; n <= 131072; n *= 8) for (i = 1; i <= nb; i++)
		print (i % 2 ? "2026-11-27T10:00:00Z" : "2026-11-28T11:00:00Z"), (i % 2 ? "0123456789ab-dirty" : "ba9876543210"),
			b[i], "A", 16, "iterate", n, 2, 8, 1, n, 100 * n, 40 * n, 3 * n * i, n * i / 7, 7.5, 2.5, 100, 40,
			3 * i + 0.123, i / 7, "32768 B, 8-way, 64 B lines", "32768 B, 8-way, 64 B lines", "1441792 B, 11-way, 64 B lines", 123 }' \
	>"$runs/cachegrind-A.csv"

# --- draw them all ------------------------------------------------------------------------------
draw() { # draw NAME COMMAND...: run with the stand-in gnuplot, quietly; fail NAME if it fails
	name=$1
	shift
	if PATH="$tmp/bin:$PATH" "$@" >"$tmp/draw.log" 2>&1; then return 0; fi
	fail "$name" "$(tail -n 5 "$tmp/draw.log")"
	return 1
}
draw plot.sh scripts/plot.sh -r "$runs" -i "$runs/A.csv" -o "$tmp/plots" A
draw compare.sh scripts/compare.sh "$runs/A.csv" "$runs/new-run-with-a-long-name-to-compare.csv"
draw scenario_plot.sh scripts/scenario_plot.sh -o "$tmp/plots" "$runs/scenario-shooter.csv"
draw scenario_trace.sh scripts/scenario_trace.sh -o "$tmp/plots" "$runs/scenario-shooter-samples.csv"
draw scenario_plot.sh-sweep scripts/scenario_plot.sh -o "$tmp/plots" "$runs/scenario-crossover-effect.mark.add.csv"
draw advise_plot.sh scripts/advise_plot.sh -o "$tmp/plots/advise.png" "$runs/advise-the-frame-of-my-game-with-a-long-name.csv"
draw fixed_cost.sh sh -c "scripts/fixed_cost.sh -o '$tmp/plots/fixed-cost.png' '$runs/small-A.csv' >/dev/null"

# --- what each drawing shows --------------------------------------------------------------------
margin=4
kinds=
while IFS='	' read -r n script name args; do
	f=$cap/$n.png
	label="$script:$name"
	[ -f "$f" ] || { fail "$label" "not drawn"; continue; }
	# shellcheck disable=SC2046
	set -- $("$ink" "$f")
	w=$1 h=$2 x0=$4 y0=$5 x1=$6 y1=$7
	if [ "$3" -gt 0 ] && [ "$x0" -ge "$margin" ] && [ "$y0" -ge "$margin" ] &&
		[ "$x1" -le $((w - 1 - margin)) ] && [ "$y1" -le $((h - 1 - margin)) ]; then
		ok "inside/$label"
	else
		fail "inside/$label" "${w}x$h, its ink spans x $x0..$x1, y $y0..$y1: text runs to the edge (kept: $f)"
		cp "$f" "/tmp/figure_text-$n.png" 2>/dev/null
	fi
	kinds="$kinds $script"
	if [ -s "$cap/$n.err" ]; then
		fail "quiet/$label" "gnuplot said: $(head -n 3 "$cap/$n.err")"
	else
		ok "quiet/$label"
	fi
	# the title: what the figure shows, in at most 3 lines (the method and the run: the caption)
	lines=$(tail -n 1 "$cap/$n.title" 2>/dev/null)
	if [ -z "$lines" ]; then
		fail "title-lines/$label" "styles.gp's fit_title did not say how many lines the title has"
	elif [ "$lines" -le 3 ]; then
		ok "title-lines/$label"
	else
		fail "title-lines/$label" "a title of $lines lines, at most 3: move how the figure was made to its caption (caption_in)"
	fi
	for part in key title caption; do
		[ -f "$cap/$n-no$part.png" ] || continue
		# shellcheck disable=SC2046
		set -- $("$ink" --diff "$f" "$cap/$n-no$part.png")
		if [ "$3" -eq 0 ]; then
			fail "$part/$label" "the figure without its $part is the same"
			continue
		fi
		# what lies in the part's box (a pixel wider) when the part is not drawn
		# shellcheck disable=SC2046
		set -- $("$ink" "$cap/$n-no$part.png" $(($4 - 1)) $(($5 - 1)) $(($6 + 1)) $(($7 + 1)))
		if [ "$3" -eq 0 ]; then
			ok "$part/$label"
		else
			fail "$part/$label" "its $part's box x $(($4)).., y .. covers $3 pixels of something else"
		fi
	done
done <"$cap/index"
# every kind drawn (and looked at)
for script in time.gp speedup.gp memory.gp varkor.gp profiles.gp cache.gp compare.gp compare-fixed.gp \
	scenario.gp scenario_trace.gp fixed_cost.gp advise.gp; do
	case " $kinds " in *" $script "*) ok "drawn/$script" ;; *) fail "drawn/$script" "no figure of $script was drawn" ;; esac
done
# the scenario's bars: a cut bar's label boxed; the marks where they belong
args=$(awk -F'\t' '$2 == "scenario.gp" && $4 ~ /mode=.bars./ { print $4; exit }' "$cap/index")
if printf '%s' "$args" | grep -q "ncut=[0-9]*; *nicut=[0-9]*"; then
	ok scenario-cut-marks-told
else
	fail scenario-cut-marks-told "scenario.gp was not told which bars and intervals are cut: $args"
fi

# --- make history, from a tracked run with zeros --------------------------------------------------
zero=$tmp/zero
mkdir -p "$zero"
silent() { # silent NAME COMMAND...: exit 0 and nothing from gnuplot on stderr
	name=$1
	shift
	if ! "$@" >"$tmp/zero.log" 2>&1; then
		fail "zero/$name" "$(tail -n 5 "$tmp/zero.log")"
	elif grep -qi 'warning\|undefined\|error' "$tmp/zero.log"; then
		fail "zero/$name" "gnuplot said: $(grep -i 'warning\|undefined\|error' "$tmp/zero.log" | head -n 3)"
	else
		ok "zero/$name"
	fi
}
# history.sh: two tracked runs, the second with zeros (the largest N, and Varkor's), named as
# this machine's (make track takes a run on the machine that measured it alone)
here=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | sed 's/[\/&]/\\&/g')
largest() {
	awk -F, '/^#/ { print; next } $1 == "backend" { for (i = 1; i <= NF; i++) { if ($i == "workload") w = i; if ($i == "entities") e = i }; print; next }
		$e == 262144 || $w ~ /^varkor/' "$1" | sed "s/^# cpu [^;]*;/# cpu $here;/"
}
if [ -x build/ecsbench-compare ] && largest "$tmp/A-default.csv" >"$zero/h1.csv" && cp "$ref/A-samples.csv" "$zero/h1-samples.csv" &&
	largest "$runs/A.csv" | sed 's/^# date .*/# date 2027-01-01T00:00:00Z/' >"$zero/h2.csv" &&
	cp "$ref/A-samples.csv" "$zero/h2-samples.csv" &&
	scripts/track.sh -d "$zero/history" "$zero/h1.csv" >/dev/null 2>&1 && scripts/track.sh -d "$zero/history" "$zero/h2.csv" >/dev/null 2>&1; then
	silent history.sh env PATH="$tmp/bin:$PATH" scripts/history.sh -d "$zero/history" -p "$zero/plots"
	# its titles: at most 3 lines each, as the other figures' (title-lines above)
	lines=$(sort -n "$cap/multiplot.title" 2>/dev/null | tail -n 1)
	if [ -z "$lines" ]; then
		fail zero/history-title-lines "history.sh drew no multiplot title the stand-in could count"
	elif [ "$lines" -le 3 ]; then
		ok zero/history-title-lines
	else
		fail zero/history-title-lines "a title of $lines lines, at most 3"
	fi
else
	fail zero/history.sh "two runs could not be tracked (make builds build/ecsbench-compare)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
