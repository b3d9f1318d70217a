#!/bin/sh
# tails.sh: the frame-time tails and the growth figures from the outside (issue 24), on short
# real runs; correctness, never a time. Ends with "N passed, N failed".
#   tails-ordered        a scenario CSV's tails: p95 <= p99 <= the longest frame <= max_ns, the
#                        median below p99, every interval around its value; growth_frames on a
#                        backend's frame row alone
#   growth-frames        growth.ini (a population that grows, nothing reserved): every backend has
#                        growth frames, and the samples' largest allocations say which
#   answer-tails         the answer has the tails table and says whether p99's order is the median's
#   trace, trace-refuses the per-frame trace from the samples file; another file refused (exit 2)
#   create-unreserved    the variant's rows beside create's, the same checksum, 64 blocks a sample
#                        for each backend and none for the floor
#   growth-plot, growth-plot-refuses  its figure; a samples file without blocks refused (exit 2)
set -u
bin=${ECSBENCH:-build/ecsbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
# The backends in the table (not a fixed number: adding one must not break these checks).
backends=$("$bin" --list | awk '/^backends:/ { on = 1; next } /^[^ ]/ { on = 0 } on { n++ } END { print n + 0 }')
ok() { echo "ok   tails/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL tails/$1: $2"; failed=$((failed + 1)); }

# growth.ini, 80 timed frames: the population passes 2,048 and 4,096 entities in them.
if ! "$bin" --scenario scenarios/growth.ini --set scenario.frames=80 --processes 2 \
	--output "$tmp/growth.csv" 2>"$tmp/stderr"; then
	fail growth-run "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

verdict=$(grep -v '^#' "$tmp/growth.csv" | awk -F, -v backends="$backends" '
	function bad(why) { if (msg == "") msg = $c["backend"] " " $c["phase"] ": " why }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		m = $c["median_ns"] + 0; p95 = $c["p95_ns"] + 0; p99 = $c["p99_ns"] + 0; top = $c["max_frame_ns"] + 0
		if ($c["p99_ns"] == "" || $c["p95_ns"] == "" || $c["max_frame_ns"] == "") bad("no tails")
		if (p95 > p99 + 0.1 || p99 > top + 0.1 || top > $c["max_ns"] + 0.1) bad("p95 " p95 " p99 " p99 " max " top " max_ns " $c["max_ns"])
		if (m > p99 + 0.1) bad("median " m " above p99 " p99)
		split("p95 p99 max", q, " ")
		for (i = 1; i <= 3; i++) {
			v = $c[q[i] == "max" ? "max_frame_ns" : q[i] "_ns"] + 0
			lo = $c[q[i] "_ci_low_ns"]; hi = $c[q[i] "_ci_high_ns"]
			if (lo == "" || hi == "") bad(q[i] " without an interval from 2 processes")
			else if (lo + 0 > v + 0.1 || hi + 0 < v - 0.1) bad(q[i] " " v " outside [" lo ", " hi "]")
		}
		backend = $c["backend"] != "floor" && $c["backend"] != "harness"
		if (($c["phase"] == "frame" && backend) != ($c["growth_frames"] != "")) bad("growth_frames \"" $c["growth_frames"] "\"")
		if ($c["phase"] == "frame" && backend) { growth[$c["backend"]] = $c["growth_frames"] + 0; n++ }
	}
	END {
		if (msg != "") { print msg; exit }
		if (n != backends) { print n " backends with growth_frames, expected " backends; exit }
		for (b in growth) if (growth[b] < 1 || growth[b] > 160) { print b " has " growth[b] " growth frames"; exit }
		print "ok"
	}')
[ "$verdict" = ok ] && ok tails-ordered || fail tails-ordered "$verdict"

# The samples' largest allocations, counted again here, give the CSV's growth_frames.
verdict=$(grep -v '^#' "$tmp/growth-samples.csv" | awk -F, -v csv="$tmp/growth.csv" -v backends="$backends" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ if ($c["largest_alloc_bytes"] + 0 >= 65536) g[$c["backend"]]++; else g[$c["backend"]] += 0 }
	END {
		while ((getline line < csv) > 0) {
			if (line ~ /^#/) continue
			n = split(line, f, ",")
			if (!h) { for (i = 1; i <= n; i++) col[f[i]] = i; h = 1; continue }
			if (f[col["phase"]] == "frame" && f[col["growth_frames"]] != "") {
				if (f[col["growth_frames"]] + 0 != g[f[col["backend"]]]) { print f[col["backend"]] ": CSV " f[col["growth_frames"]] ", samples " g[f[col["backend"]]]; exit }
				seen++
			}
		}
		print seen == backends ? "ok" : "compared " seen " backends"
	}')
[ "$verdict" = ok ] && ok growth-frames || fail growth-frames "$verdict"

if scripts/answer.sh "$tmp/growth.csv" >"$tmp/answer.md" 2>"$tmp/stderr" &&
	grep -q '^### Frame-time tails' "$tmp/answer.md" && grep -q '^| archetype .* ([0-9.]*%) *| [0-9][0-9]* |$' "$tmp/answer.md" &&
	grep -q 'The order by p99 .*order by median' "$tmp/answer.md"; then
	ok answer-tails
else
	fail answer-tails "$(cat "$tmp/stderr"; sed -n '/Frame-time/,/By phase/p' "$tmp/answer.md")"
fi

if command -v gnuplot >/dev/null 2>&1; then
	if scripts/scenario_trace.sh -o "$tmp/plots" "$tmp/growth-samples.csv" >"$tmp/stdout" 2>"$tmp/stderr" &&
		[ "$(cat "$tmp/stdout")" = "$tmp/plots/growth-trace.png" ] && [ -s "$tmp/plots/growth-trace.png" ]; then
		ok trace
	else
		fail trace "$(cat "$tmp/stderr")"
	fi
	scripts/scenario_trace.sh -o "$tmp/plots" "$tmp/growth.csv" >/dev/null 2>"$tmp/stderr"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q 'not a scenario samples file' "$tmp/stderr" && ok trace-refuses ||
		fail trace-refuses "exit $rc: $(cat "$tmp/stderr")"
fi

# create-unreserved beside create: the same entities (the same checksum), in 64 blocks.
if "$bin" --workloads create,create-unreserved --entities 8192 --components 2 --processes 1 \
	--output "$tmp/cu.csv" 2>"$tmp/stderr"; then
	verdict=$(grep -v '^#' "$tmp/cu.csv" | awk -F, -v rows_each=$((backends + 1)) '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ sum[$c["workload"]] = $c["checksum"]; rows[$c["workload"]]++ }
		END { print rows["create"] == rows_each && rows["create-unreserved"] == rows_each && sum["create"] == sum["create-unreserved"] ? "ok" : "rows " rows["create"] "/" rows["create-unreserved"] ", checksums " sum["create"] " " sum["create-unreserved"] }')
	blocks=$(grep -v '^#' "$tmp/cu-samples.csv" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["workload"] == "create" && $c["block_ns_per_entity"] != "" { print "create has blocks"; exit }
		$c["workload"] == "create-unreserved" {
			n = $c["block_ns_per_entity"] == "" ? 0 : split($c["block_ns_per_entity"], x, ";")
			if (n != ($c["backend"] == "floor" ? 0 : 64)) { print $c["backend"] " has " n " blocks"; exit }
			for (i = 1; i <= n; i++) if (!(x[i] + 0 > 0)) { print $c["backend"] " block " i ": " x[i]; exit }
		}
		END { print "ok" }' | head -n 1)
	[ "$verdict" = ok ] && [ "$blocks" = ok ] && ok create-unreserved || fail create-unreserved "$verdict; $blocks"
else
	fail create-unreserved "exit status $?: $(tail -n 3 "$tmp/stderr")"
fi

if command -v gnuplot >/dev/null 2>&1; then
	if scripts/growth_plot.sh -o "$tmp/plots" "$tmp/cu-samples.csv" >"$tmp/stdout" 2>"$tmp/stderr" &&
		[ "$(cat "$tmp/stdout")" = "$tmp/plots/cu-growth-8192-k2.png" ] && [ -s "$tmp/plots/cu-growth-8192-k2.png" ]; then
		ok growth-plot
	else
		fail growth-plot "$(cat "$tmp/stderr" "$tmp/stdout")"
	fi
	scripts/growth_plot.sh -o "$tmp/plots" "$tmp/growth-samples.csv" >/dev/null 2>"$tmp/stderr"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q 'not a samples file with block_ns_per_entity' "$tmp/stderr" && ok growth-plot-refuses ||
		fail growth-plot-refuses "exit $rc: $(cat "$tmp/stderr")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
