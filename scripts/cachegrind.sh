#!/bin/sh
# cachegrind.sh: simulated cache figures of the timed phase of workloads, one valgrind run per
# backend x workload x N x k and one for the floor (the same work over plain arrays) of each
# swept workload x N x k, written to a CSV in which a case measured again replaces its old row
# (the other cases stay). What it prints is short: the cases, progress (a line rewritten on a
# terminal; in a log a line as each tenth of the cases ends), then a table of each case's D1
# and LLd misses per entity, a row per workload x N x k; cachegrind's closing summary of each
# case (as Vigier quotes it in his post) goes to NAME-summary.txt beside the CSV (NAME.csv), for
# this run's cases, and valgrind's own files of each case stay in FOLDER (-W).
#
# Usage: scripts/cachegrind.sh [-p PROFILE] [-b BACKENDS] [-w WORKLOADS] [-n ENTITIES]
#                              [-k COMPONENTS] [-S SYSTEMS] [-B BYTES] [-s SCALE] [-H HISTORY]
#                              [-o CSV] [-j JOBS] [-x BINARY] [-V VALGRIND] [-W FOLDER]
#   defaults: -p A -b all -w all -n 16384,131072 -k 2 -B 8 -s 1 -H lived-in
#             -o results/cachegrind-PROFILE.csv -j the number of cores
#             -W build/cachegrind/runs (valgrind's files of each case; scripts/instr.sh gives its own)
#             -x build/cachegrind/ecsbench (make cachegrind builds it) -V valgrind
#             (tests/figures.sh gives a stand-in that writes callgrind's totals)
#   ENTITIES takes what ecsbench takes: a comma list, A..B for every power of two in between.
#   BYTES is ecsbench's --component-size, SCALE its --scale (Varkor's fixed-size workloads,
#   varkor-*, which run once at their own N and k, whatever -n and -k say), HISTORY its --history
#   (one: what the storages go through before the timed call). A row's workload is named with
#   its history as the figures name it: "iterate" under lived-in, "iterate-pristine" under
#   pristine (scripts/common.sh, normalise).
#
# Method, and why. Valgrind 3.19's cachegrind counts the whole program and has no client requests
# to start and stop it, so its figures would be mostly setup: creating N entities before an
# iterate pass costs far more than the pass. Callgrind simulates the same caches
# (--cache-sim=yes) and can be switched on and off from inside the program. The harness built
# with -DECSB_CALLGRIND (build/cachegrind/, harness/core/measure.h) toggles collection around exactly
# the timed loop of each workload, and callgrind starts with collection off
# (--collect-atstart=no). Instrumentation stays on from the start, so the simulated caches see
# the setup and hold what the real caches would hold when the timed loop begins; only the events
# are not counted. The figures are totals of the events (the "totals:" line of callgrind's output
# file): Dr + Dw = D refs, D1mr + D1mw = D1 misses, DLmr + DLmw = LLd misses, as cachegrind adds
# them.
#
# The simulated caches are fixed here, so that figures from different machines compare; they are
# recorded in every row (columns i1, d1, ll: size:associativity:line bytes). The run is
# --processes 1 --reps 1 --warmup 0 --inner 1: measured in the process valgrind runs (a child
# process would run outside it), one timed sample of one run, no calibration runs and no warm-up
# runs, so that callgrind counts exactly one call of the workload's timed region; --no-floor, so
# that the floor is not counted with the backend; --no-pin (valgrind runs one thread at a time
# anyway). The floor gets a run of its own, --floor-alone (the floor and no backend), a row
# "floor" beside the backends' (Varkor's workloads have none): in one process with a backend, the
# floor's setup would run between the backend's setup and its timed call, and one's timed call
# before the other's, each evicting the other's data from the simulated caches (measured at N =
# 65536, k = 2, iterate: vector's LLd misses 74 beside the floor against 33 alone; at 2^17 and
# beyond, where a storage outgrows the 8 MiB LL, far more), so that neither would be measured
# as the backends are, each alone in its process. entity_ops is N x rounds x inner (rounds: the passes of a
# round-based workload over its N entities, as the CSV's ns_per_entity counts them), and the
# per-entity figures divide by it. Under valgrind the counts are exact and do not depend on load,
# so cases run JOBS at a time. The program runs with LD_BIND_NOW=1: with lazy binding the first
# call of each library function inside the timed call would run the dynamic linker's resolver
# there (_dl_runtime_resolve, _dl_fixup, _dl_lookup_*), a cost of the first call only.
#
# A case is backend x profile x systems x workload x N x k x component bytes: a new row of a case
# replaces the CSV's old one, so that a short trial never leaves stale rows beside fresh ones,
# and each row keeps the date and commit of the run that measured it: the CSV gathers the cases of
# every run into it on purpose. When a run replaces rows, the CSV as it was goes to
# previous/DATE-NAME/ beside it (DATE: when it was written), as build/ecsbench keeps a CSV it
# replaces, and the run says so. The CSV is rewritten through a temporary file: an interrupted or
# failed run (a full disk) leaves the previous one whole. One run at a time writes a CSV: the run
# holds its lock (scripts/lock.sh), and a second is refused while the first lasts.
set -eu

# shellcheck source=scripts/caches.sh
. "$(dirname "$0")/caches.sh"

usage() {
	sed -n '6,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

profile=A backends=all workloads=all entities=16384,131072 components=2 systems='' out='' jobs=''
bytes=8 scale=1 history=lived-in
bin=build/cachegrind/ecsbench
valgrind=valgrind
work=build/cachegrind/runs
while getopts p:b:w:n:k:S:B:s:H:o:j:x:V:W:h opt; do
	case "$opt" in
	p) profile=$OPTARG ;;
	b) backends=$OPTARG ;;
	w) workloads=$OPTARG ;;
	n) entities=$OPTARG ;;
	k) components=$OPTARG ;;
	S) systems=$OPTARG ;;
	B) bytes=$OPTARG ;;
	s) scale=$OPTARG ;;
	H) history=$OPTARG ;;
	o) out=$OPTARG ;;
	j) jobs=$OPTARG ;;
	x) bin=$OPTARG ;;
	V) valgrind=$OPTARG ;;
	W) work=$OPTARG ;;
	*) usage ;;
	esac
done
[ -n "$out" ] || out=results/cachegrind-$profile.csv
# Under the CSV's lock (two runs at once would each merge over the other's rows): the script runs
# again under scripts/lock.sh, with the same arguments ("$@" is whole until the shift below).
if [ -z "${CACHEGRIND_LOCKED:-}" ]; then
	CACHEGRIND_LOCKED=1 exec "$(dirname "$0")/lock.sh" "$out" cachegrind.sh "$0" "$@"
fi
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case "$jobs" in '' | *[!0-9]* | 0) echo "cachegrind.sh: bad job count '$jobs'" >&2; exit 2 ;; esac
command -v "$valgrind" >/dev/null 2>&1 || {
	echo "cachegrind.sh: valgrind is missing (scripts/deps.sh valgrind installs it)" >&2
	exit 1
}
[ -x "$bin" ] || { echo "cachegrind.sh: no $bin (make build/cachegrind/ecsbench)" >&2; exit 1; }

# Let ecsbench check the names and numbers (exit 2 and its message on a bad one), then expand
# "all" and ranges into single cases. --list prints "  name  description" under each heading.
"$bin" --profile "$profile" --backends "$backends" --workloads "$workloads" --entities "$entities" \
	--components "$components" ${systems:+--systems "$systems"} --component-size "$bytes" \
	--scale "$scale" --history "$history" --processes 1 --reps 1 --warmup 0 --inner 1 --no-floor \
	--no-pin --list >/dev/null
case "$history" in *,*) echo "cachegrind.sh: one history at a time (-H $history)" >&2; exit 2 ;; esac
listed() { "$bin" --list | awk -v h="$1" '/^[a-z]/ { on = $1 == h || $1 == h ":"; next } on { print $1 }'; }
[ "$backends" = all ] && backends=$(listed backends | paste -sd, -)
[ "$workloads" = all ] && workloads=$(listed workloads | paste -sd, -)
expand_counts() { # as build/ecsbench reads them: A..B doubles, 64k is 65536, 1M 1048576
	echo "$1" | tr ',' '\n' | awk -F'[.][.]' '
		function count(s,   u) { u = s ~ /[kK]$/ ? 1024 : s ~ /M$/ ? 1048576 : 1
			if (u > 1) s = substr(s, 1, length(s) - 1); return s * u }
		NF == 2 { for (n = count($1); n <= count($2); n *= 2) print n; next }
		{ print count($1) }'
}

mkdir -p "$work" "$(dirname "$out")"
header="date,commit,backend,profile,systems,workload,entities,components,component_bytes,inner,entity_ops,instructions,d_refs,d1_misses,lld_misses,d1_miss_pct,lld_miss_pct,instr_per_entity,d_refs_per_entity,d1_misses_per_entity,lld_misses_per_entity,i1,d1,ll,checksum"
if [ -s "$out" ]; then
	first=$(grep -v '^#' "$out" | head -n 1)
	[ "$first" = "$header" ] || {
		echo "cachegrind.sh: $out has other columns; move it away first" >&2
		exit 1
	}
else
	echo "$header" >"$out"
fi

# One case: valgrind over one row of ecsbench: one timed call (see above); BACKEND floor: the
# floor alone. Leaves $work/$name.{out,csv,log}, then $work/$name.done, and says how far the run
# is: under valgrind a case takes seconds, a run of many minutes.
run_case() { # run_case NAME BACKEND WORKLOAD N K
	# shellcheck disable=SC2086 # $who: --floor-alone, or --no-floor --backends NAME, split on purpose
	if [ "$2" = floor ]; then who=--floor-alone; else who="--no-floor --backends $2"; fi
	LD_BIND_NOW=1 "$valgrind" --tool=callgrind --cache-sim=yes --collect-atstart=no \
		--I1="$I1" --D1="$D1" --LL="$LL" --callgrind-out-file="$work/$1.out" \
		"$bin" --profile "$profile" $who --workloads "$3" --entities "$4" \
		--components "$5" ${systems:+--systems "$systems"} --component-size "$bytes" \
		--scale "$scale" --history "$history" --processes 1 --reps 1 --warmup 0 --inner 1 \
		--no-pin --output "$work/$1.csv" >"$work/$1.log" 2>&1 ||
		echo "exit $?" >>"$work/$1.log"
	: >"$work/$1.done"
	awk -v done="$(ls "$work" | grep -c '\.done$')" -v total="$total" -v took=$(($(date +%s) - started)) \
		-v what="$2 $3 N=$4 k=$5" -v tty="$tty" '
		function span(s) { return s < 100 ? sprintf("%d s", s) : sprintf("%.0f min", s / 60) }
		BEGIN {
			# in a log, a line as each tenth of the cases ends (every case of ten or fewer)
			if (!tty && done < total && int(done * 10 / total) == int((done - 1) * 10 / total)) exit
			printf "%scachegrind.sh: %d of %d cases done (%s); %s so far%s%s", tty ? "\r" : "", done, total, what,
				span(took), done < total ? ", about " span(took / done * (total - done)) " left" : "",
				tty ? "\033[K" : "\n" }' >&2
}
# progress on a terminal: one line, rewritten (stderr a terminal)
tty=
[ -t 2 ] && tty=1

# Varkor's workloads run at their own N and k: one case each, whatever -n and -k say (the row
# tells the N and k they ran at), and have no floor. The floor of a swept workload x N x k: a
# case of its own, after the backends'.
first_n=$(expand_counts "$entities" | head -n 1)
first_k=${components%%,*}
cases=
for w in $(echo "$workloads" | tr ',' ' '); do
	case "$w" in
	varkor-*) counts=$first_n ks=$first_k ;;
	*) counts=$(expand_counts "$entities") ks=$(echo "$components" | tr ',' ' ') ;;
	esac
	for k in $ks; do
		for n in $counts; do
			for b in $(echo "$backends" | tr ',' ' '); do
				cases="$cases $b:$w:$n:$k"
			done
			case "$w" in varkor-*) ;; *) cases="$cases floor:$w:$n:$k" ;; esac
		done
	done
done

total=$(echo "$cases" | wc -w)
echo "cachegrind.sh: $total cases (the floor's among them), $jobs at a time; caches I1 $I1, D1 $D1, LL $LL" >&2
started=$(date +%s)
running=0
rm -f "$work"/*.done
for c in $cases; do
	# shellcheck disable=SC2046
	set -- $(echo "$c" | tr ':' ' ')
	b=$1 w=$2 n=$3 k=$4
	rm -f "$work/$b-$w-$n-$k".*
	run_case "$b-$w-$n-$k" "$b" "$w" "$n" "$k" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
[ -z "$tty" ] || printf '\r\033[K' >&2
echo "cachegrind.sh: valgrind runs took $(($(date +%s) - started)) s" >&2

date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
status=0
fresh=$work/fresh.$$.csv # this run's rows, merged into $out at the end
sizes=$work/sizes.$$.csv # each case's bytes an entity (its run's peak_bytes / N): "backend,row,N,bytes"
merged=$out.tmp.$$
summary=${out%.csv}-summary.txt # cachegrind's closing lines of each case of this run
summary_tmp=$summary.tmp.$$
trap 'rm -f "$fresh" "$sizes" "$merged" "$summary_tmp"' EXIT
trap 'exit 1' HUP INT TERM
: >"$fresh"
: >"$sizes"
echo "cachegrind.sh, $date: the timed phase of each case under callgrind (caches I1 $I1, D1 $D1, LL $LL)" >"$summary_tmp"
for c in $cases; do
	# shellcheck disable=SC2046
	set -- $(echo "$c" | tr ':' ' ')
	b=$1 w=$2 n=$3 k=$4
	name=$b-$w-$n-$k
	if grep -q '^exit ' "$work/$name.log" || [ ! -s "$work/$name.out" ]; then
		echo "cachegrind.sh: $b $w N=$n k=$k failed:" >&2
		sed 's/^/  /' "$work/$name.log" >&2
		status=1
		continue
	fi
	# The header row and the row the run wrote (inner, checksum, systems, commit; columns by
	# name), then callgrind's totals.
	commit=$(sed -n 's/^# ecsbench commit //p' "$work/$name.csv")
	{
		awk '!/^#/ && NF' "$work/$name.csv" | head -n 2
		sed -n 's/^events: //p; s/^totals: //p; s/^summary: //p' "$work/$name.out" | head -n 2
	} | awk -v date="$date" -v commit="$commit" -v i1="$I1" -v d1="$D1" -v ll="$LL" -v summary="$summary_tmp" \
		-v sizes="$sizes" '
		NR == 1 { for (i = split($0, h, ","); i > 0; i--) c[h[i]] = i; next }
		NR == 2 {
			split($0, v, ",")
			backend = v[c["backend"]]; prof = v[c["profile"]]; systems = v[c["systems"]]
			workload = v[c["workload"]]; n = v[c["entities"]]; k = v[c["components"]]
			hist = ("history" in c) ? v[c["history"]] : "-"
			if (hist != "lived-in" && hist != "-" && hist != "") workload = workload "-" hist
			bytes = v[c["component_bytes"]]; inner = v[c["inner"]]; checksum = v[c["checksum"]]
			# ns_per_entity = median_ns / (N x rounds): the rounds come back from that ratio.
			npe = v[c["ns_per_entity"]] + 0
			rounds = npe > 0 && n > 0 ? int(v[c["median_ns"]] / (npe * n) + 0.5) : 1
			if (rounds < 1) rounds = 1
			peak = ("peak_bytes" in c) ? v[c["peak_bytes"]] + 0 : 0; ents = n
			next
		}
		NR == 3 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		NR == 4 {
			for (i = 1; i <= NF; i++) v[i] = $i
			ir = v[col["Ir"]]; dr = v[col["Dr"]]; dw = v[col["Dw"]]
			d1r = v[col["D1mr"]]; d1w = v[col["D1mw"]]; llr = v[col["DLmr"]]; llw = v[col["DLmw"]]
			refs = dr + dw; d1m = d1r + d1w; llm = llr + llw
			ops = n * rounds * inner
			gsub(",", ":", i1); gsub(",", ":", d1); gsub(",", ":", ll)
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.2f,%.2f,%.3f,%.3f,%.4f,%.4f,%s,%s,%s,%s\n",
				date, commit, backend, prof, systems, workload, n, k, bytes, inner, ops, ir, refs,
				d1m, llm, refs ? 100 * d1m / refs : 0, refs ? 100 * llm / refs : 0,
				ir / ops, refs / ops, d1m / ops, llm / ops, i1, d1, ll, checksum
			# The closing lines of cachegrind as Vigier quotes them in his post, for the timed phase alone.
			printf "\n%s %s, profile %s, N=%s, k=%s%s: timed phase, %s run%s%s = %.0f entity operations\n",
				backend, workload, prof, n, k, (bytes == 8 ? "" : ", " bytes "-byte components"),
				inner, (inner == 1 ? "" : "s"), (rounds > 1 ? " of " rounds " rounds" : ""), ops >> summary
			n = "%" length(big(refs)) "s"  # right-aligned as cachegrind does
			p = "%" (length(big(refs)) - 1) ".1f%%"
			printf "D   refs:      " n "  (%s rd   + %s wr)\n", big(refs), big(dr), big(dw) >> summary
			printf "D1  misses:    " n "  (%s rd   + %s wr)\n", big(d1m), big(d1r), big(d1w) >> summary
			printf "LLd misses:    " n "  (%s rd   + %s wr)\n", big(llm), big(llr), big(llw) >> summary
			printf "D1  miss rate: " p " (%.1f%%  + %.1f%%  )\n", pct(d1m, refs), pct(d1r, dr), pct(d1w, dw) >> summary
			printf "LLd miss rate: " p " (%.1f%%  + %.1f%%  )\n", pct(llm, refs), pct(llr, dr), pct(llw, dw) >> summary
			printf "per entity: %.1f instructions, %.2f D refs, %.3f D1 misses, %.3f LLd misses\n",
				ir / ops, refs / ops, d1m / ops, llm / ops >> summary
			# the storage size, for whether it fits the simulated LL (the table below)
			if (peak > 0 && ents > 0) printf "%s,%s N=%s k=%s,%s,%.1f\n", backend, workload, ents, k, ents, peak / ents >> sizes
		}
		function pct(a, b) { return b ? 100 * a / b : 0 }
		function big(x,    s, out) { # 1234567 -> 1,234,567
			s = sprintf("%.0f", x)
			out = ""
			while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
			return s out
		}' >>"$fresh"
done

# The merge: the old rows of every case this run did not measure, then this run's rows.
awk -F, -v header="$header" '
	BEGIN { n = split(header, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i
		m = split("backend profile systems workload entities components component_bytes", kc, " ") }
	function key(   i, k) { k = ""; for (i = 1; i <= m; i++) k = k "," $(c[kc[i]]); return k }
	FNR == NR { fresh[key()] = 1; rows[++nf] = $0; next }
	/^#/ || !NF || $0 == header { print; next }
	key() in fresh { replaced++; next }
	{ print }
	END { for (i = 1; i <= nf; i++) print rows[i]
		printf "cachegrind.sh: %d row%s measured, %d of them replacing an older row of the same case" \
			" (the other rows stay)\n", nf, nf == 1 ? "" : "s", replaced > "/dev/stderr"
		print replaced + 0 > count }' count="$work/replaced.$$" "$fresh" "$out" >"$merged"
replaced=$(cat "$work/replaced.$$")
rm -f "$work/replaced.$$"
if [ "$replaced" -gt 0 ]; then
	base=$(dirname "$out")/previous/$(date -u -r "$out" +%Y-%m-%dT%H%M%SZ)-$(basename "$out" .csv)
	keep=$base i=1
	while [ -e "$keep" ]; do i=$((i + 1)); keep=$base-$i; done
	mkdir -p "$keep"
	mv "$out" "$keep/"
	echo "cachegrind.sh: the previous $out is kept in $keep/" >&2
fi
mv "$merged" "$out"

# The backends must have done the same work: equal checksums per workload x N x k x size.
awk -F, -v d="$date" '$1 == "date" { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == d { key = $(c["workload"]) " N=" $(c["entities"]) " k=" $(c["components"]) " " $(c["component_bytes"]) "B"
		s = $(c["checksum"]); b = $(c["backend"])
		if (key in sum && sum[key] != s) { print "cachegrind.sh: checksum mismatch: " key ": " who[key] " " sum[key] ", " b " " s; bad = 1 }
		sum[key] = s; who[key] = b }
	END { exit bad }' "$out" >&2 || status=1
# What this run measured, in short: per workload x N x k, each backend's D1 and LLd misses per
# entity (of one run's timed phase; the figures draw them, the summary file has every count),
# "*" where the storage fits the simulated LL. An LLd figure near 0 there says that the data
# stays in the LL, not that its layout is good: the storage's bytes (the counting allocator's
# peak_bytes of the case's own run, over N: its bytes an entity B, the lived-in history's other
# entities and every table and map included) are at most the LL's size, and it stops fitting at
# N = LL / B. Then, per row, that N for each backend.
mv "$summary_tmp" "$summary"
awk -F, -v llsize="${LL%%,*}" -v sizes="$sizes" '
	BEGIN { while ((getline line < sizes) > 0) { split(line, f, ","); bpe[f[1], f[2]] = f[4] } }
	{ b = $3; key = $6 " N=" $7 " k=" $8; if (!(b in col)) { col[b] = ++nb; name[nb] = b }
	  if (!(key in row)) { row[key] = ++nr; rkey[nr] = key }
	  fit = ((b, key) in bpe) && bpe[b, key] * $7 <= llsize
	  if (fit) fits++
	  v[key, b] = sprintf("%s%.3g/%.3g", fit ? "*" : "", $20, $21) }
	function mib(x) { return x >= 1048576 ? sprintf("%g MiB", x / 1048576) : sprintf("%g KiB", x / 1024) }
	END {
		if (!nr) exit
		printf "D1/LLd misses per entity (timed phase; *: the storage fits the simulated %s LL):\n%-28s", mib(llsize), ""
		for (j = 1; j <= nb; j++) printf " %13s", name[j]
		printf "\n"
		for (i = 1; i <= nr; i++) {
			printf "%-28s", rkey[i]
			for (j = 1; j <= nb; j++) printf " %13s", ((rkey[i], name[j]) in v) ? v[rkey[i], name[j]] : "-"
			printf "\n"
		}
		printf "Where each storage stops fitting the simulated LL (%s): N = %d / B, B its bytes an entity\n", mib(llsize), llsize
		printf "(its run'"'"'s peak_bytes / N, from the counting allocator); at or below that N its LLd misses\n"
		printf "are few because its data stays in the LL, whatever its layout (%d of these cells: *):\n", fits
		for (i = 1; i <= nr; i++) {
			line = ""
			for (j = 1; j <= nb; j++)
				if ((name[j], rkey[i]) in bpe)
					line = line sprintf(" %s %.0f B (N %d)", name[j], bpe[name[j], rkey[i]], llsize / bpe[name[j], rkey[i]])
			if (line != "") printf "%-28s%s\n", rkey[i], line
		}
	}' "$fresh" >&2
echo "cachegrind.sh: wrote $out; each case's closing summary in $summary" >&2
exit $status
