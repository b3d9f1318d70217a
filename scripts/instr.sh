#!/bin/sh
# instr.sh: instruction-count regressions. A small fixed set of rows (every backend and the floor,
# every workload of the set, profile A, N = 1024, k = 2) is measured under callgrind over each
# timed call alone (scripts/cachegrind.sh, build/instr/ecsbench): instructions and data
# references (reads + writes) per entity. Valgrind counts what the program executes, not time:
# the same binary on the same inputs gives the same counts on a loaded machine as on an idle one.
#
# Usage: scripts/instr.sh baseline [-x BINARY] [-o FILE] [-j JOBS]
#          measures the set and writes it, with what it was made with, to FILE
#          (default tests/instr-baseline.csv: make instr-baseline)
#        scripts/instr.sh check [-x BINARY] [-c FILE] [-t PERCENT] [-b BACKENDS] [-w WORKLOADS] [-j JOBS]
#          measures the set (or the part of it -b and -w name) and prints every row's change
#          against the baseline FILE (make instr; make test). Exit 1 when a row's instructions
#          or data references per entity grew by more than PERCENT (default 2, docs/comparing.md
#          says why), 0 otherwise; 0 too, saying so, when the baseline was made with another
#          compiler, flags, valgrind, C library or pin of it (its counts do not compare: not checked).
#   BINARY: default build/instr/ecsbench. JOBS: valgrind runs at once (default the cores).
#
# The same counts on every x86-64 machine. Two things follow the CPU, and both are fixed here:
# - the code: build/instr/ is compiled for one target (-march=x86-64-v2, the Makefile's INSTR_OPT),
#   not -march=native (an AMD EPYC's and an Intel Xeon's native builds are different programs);
# - the C library's: glibc picks memset, memcpy, strlen... by the CPU it sees (ifuncs; under
#   valgrind, a CPU valgrind presents after the host's). On an AVX2 host it picks
#   __memset_avx2_unaligned_erms, whose `rep stosb` valgrind counts a byte at a time: 82,107 of
#   sparse's create-batch's 171,712 instructions, against 9,145 in __memset_sse2_unaligned with
#   AVX2 masked. GLIBC_TUNABLES (LIBC_PIN below) switches off every feature and preference an
#   ifunc asks for beyond SSE2, which every x86-64 has, and fixes the cache sizes and thresholds
#   glibc derives from the CPU: each string function is then its SSE2 variant on any host.
#   Malloc and the copies stay counted: they are part of a backend's cost.
#
# What a baseline was made with (its `# identity` lines): the compiler and flags the binary
# records in its CSV header, valgrind's version, the C library's and its pin. The CPU is not
# among them (the `# made on` line says which it was). A flag -DECSB_TEST_* is left out of it: it
# is a test build of the same code (tests/instr.sh makes one backend's timed call heavier with
# -DECSB_TEST_HEAVIER, which the check must catch, not excuse).
set -eu
cd "$(dirname "$0")/.."

# The fixed set. varkor-relationship is left out: it runs 500 rounds whatever --scale says
# (105,500 entity operations, 8 of the 29 s of the whole set on one core); parallel-iterate
# too: threads make its counts depend on the scheduler.
PROFILE=A ENTITIES=1024 COMPONENTS=2 SCALE=0.001 HISTORY=lived-in
SET_WORKLOADS=create,create-batch,iterate,churn,add-remove,add-remove-batch,get,get-one,get-batch,fragmented,varkor-create,varkor-add,varkor-add-write-delete,varkor-distributed,varkor-random
THRESHOLD=2
# Every ifunc's choice pinned to SSE2 (see above); the cache sizes and thresholds are those glibc
# 2.36 derives under valgrind 3.19 on an AVX2 host, fixed so that no other host moves them.
LIBC_PIN=glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-FMA,-FMA4
LIBC_PIN=$LIBC_PIN,-BMI1,-BMI2,-LZCNT,-MOVBE,-POPCNT,-RTM,-SSSE3,-SSE4_1,-SSE4_2,-ERMS,-Prefer_ERMS
LIBC_PIN=$LIBC_PIN,-Prefer_FSRM,-Fast_Rep_String,-Fast_Copy_Backward,-Fast_Unaligned_Copy
LIBC_PIN=$LIBC_PIN,-Fast_Unaligned_Load,-Slow_BSF,-Prefer_No_VZEROUPPER,-AVX_Fast_Unaligned_Load
LIBC_PIN=$LIBC_PIN,-Prefer_PMINUB_for_stringop,-Prefer_AVX2_STRCMP,-Slow_SSE4_2
LIBC_PIN=$LIBC_PIN:glibc.cpu.x86_data_cache_size=0x8000:glibc.cpu.x86_shared_cache_size=0x800000
LIBC_PIN=$LIBC_PIN:glibc.cpu.x86_non_temporal_threshold=0x200000
LIBC_PIN=$LIBC_PIN:glibc.cpu.x86_rep_movsb_threshold=0x2000:glibc.cpu.x86_rep_stosb_threshold=0x800
# for every run below, the identity's and valgrind's (whatever the caller's environment held)
GLIBC_TUNABLES=$LIBC_PIN
export GLIBC_TUNABLES
COLUMNS_OUT=backend,workload,entities,components,entity_ops,instructions,d_refs,instr_per_entity,d_refs_per_entity

usage() {
	sed -n '8,17p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in baseline | check) ;; *) usage ;; esac
bin=build/instr/ecsbench file='' threshold=$THRESHOLD backends=all workloads=$SET_WORKLOADS jobs=''
while getopts x:o:c:t:b:w:j: opt; do
	case "$opt" in
	x) bin=$OPTARG ;;
	o | c) file=$OPTARG ;;
	t) threshold=$OPTARG ;;
	b) backends=$OPTARG ;;
	w) workloads=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[ -n "$file" ] || file=tests/instr-baseline.csv
case "$threshold" in '' | *[!0-9.]* | *.*.*) echo "instr.sh: threshold '$threshold' is not a percentage (e.g. 2 or 0.5)" >&2; exit 2 ;; esac
for w in $(echo "$workloads" | tr ',' ' '); do
	case ",$SET_WORKLOADS," in *",$w,"*) ;; *)
		echo "instr.sh: '$w' is not a workload of the set (valid: $SET_WORKLOADS)" >&2; exit 2 ;;
	esac
done
if [ "$mode" = check ] && [ ! -r "$file" ]; then
	echo "instr.sh: no baseline '$file': make instr-baseline writes it (and commit it)" >&2
	exit 2
fi
[ -x "$bin" ] || { echo "instr.sh: no $bin (make $bin builds it)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/instr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# What the binary was built with, as its own CSV header says, and what ran it.
identity() { # identity CSV-OF-A-CASE
	sed -n 's/^# compiler /compiler: /p' "$1" | sed 's/ -DECSB_TEST_[A-Za-z0-9_=]*//g'
	echo "valgrind: $(valgrind --version 2>/dev/null || echo none)"
	echo "libc: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)"
	echo "libc pinned: GLIBC_TUNABLES=$LIBC_PIN"
}

# The binary's identity from a tiny run of its own outside valgrind (its CSV header), so that a
# baseline made with another build is found before a minute of valgrind runs, not after.
if ! "$bin" --profile "$PROFILE" --backends hash --workloads create --entities 1024 --components 1 \
	--processes 1 --reps 1 --warmup 0 --inner 1 --no-floor --no-pin --output "$tmp/id.csv" \
	>"$tmp/id.log" 2>&1; then
	echo "instr.sh: $bin did not run: $(tail -n 3 "$tmp/id.log")" >&2
	exit 1
fi
identity "$tmp/id.csv" >"$tmp/identity"
commit=$(sed -n 's/^# ecsbench commit //p' "$tmp/id.csv")
if [ "$mode" = check ]; then
	sed -n 's/^# identity //p' "$file" >"$tmp/base-identity"
	if ! cmp -s "$tmp/identity" "$tmp/base-identity"; then
		echo "instr.sh: NOT COMPARABLE, not checked: $file was made with another build or machine; its"
		echo "  counts and this build's differ by what the compiler, its flags, valgrind, the C library or"
		echo "  its pin make of the same code, not by a change of ours."
		echo "  What differs (baseline < > this build):"
		diff "$tmp/base-identity" "$tmp/identity" | sed -n 's/^\([<>]\)/    \1/p'
		echo "  With this build: make instr-baseline writes a baseline of its own (commit it only when"
		echo "  the repository's build changes: a new compiler, flags or C library)."
		exit 0
	fi
fi

started=$(date +%s)
if ! scripts/cachegrind.sh -p "$PROFILE" -b "$backends" -w "$workloads" -n "$ENTITIES" -k "$COMPONENTS" \
	-s "$SCALE" -H "$HISTORY" ${jobs:+-j "$jobs"} -x "$bin" -W "$tmp/runs" -o "$tmp/counts.csv" \
	>"$tmp/log" 2>&1; then
	echo "instr.sh: the valgrind runs failed:" >&2
	grep -v '^cachegrind.sh: [0-9]* of ' "$tmp/log" | tail -n 20 >&2
	exit 1
fi
took=$(($(date +%s) - started))

# The measured rows, in the baseline's columns (by name, from cachegrind.sh's CSV)
awk -F, -v want="$COLUMNS_OUT" '
	BEGIN { n = split(want, w, ",") }
	/^#/ || !NF { next }
	!header { for (i = 1; i <= NF; i++) c[$i] = i; header = 1; print want; next }
	{ line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") $(c[w[i]]); print line }' \
	"$tmp/counts.csv" >"$tmp/rows.csv"

if [ "$mode" = baseline ]; then
	{
		echo "# ecsbench instruction baseline: make instr-baseline (scripts/instr.sh baseline), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $commit"
		echo "# the set: profile $PROFILE, N $ENTITIES, k $COMPONENTS, history $HISTORY, scale $SCALE, seed 1; every backend and the floor over $workloads; callgrind over each timed call alone (one run, --inner 1)"
		sed 's/^/# identity /' "$tmp/identity"
		echo "# made on $(sed -n 's/^# cpu \([^;]*\);.*/\1/p' "$tmp/id.csv") (not part of the identity: the counts do not depend on it)"
		cat "$tmp/rows.csv"
	} >"$tmp/baseline.csv"
	mkdir -p "$(dirname "$file")"
	mv "$tmp/baseline.csv" "$file"
	echo "instr.sh: wrote $file ($(($(wc -l <"$tmp/rows.csv") - 1)) rows, valgrind runs $took s)" >&2
	exit 0
fi

awk -F, -v t="$threshold" -v took="$took" -v file="$file" '
	FNR == 1 { header = 0 }
	/^#/ || !NF { next }
	!header { for (i = 1; i <= NF; i++) c[$i] = i; header = 1; next }
	{ key = $(c["backend"]) " " $(c["workload"]) " N=" $(c["entities"]) " k=" $(c["components"])
	  # per entity from the totals (the per-entity columns are rounded)
	  ops = $(c["entity_ops"]); i_pe = $(c["instructions"]) / ops; d_pe = $(c["d_refs"]) / ops }
	FNR == NR { bi[key] = i_pe; bd[key] = d_pe; next }
	{ rows[++n] = key; ni[key] = i_pe; nd[key] = d_pe }
	function pct(old, new) { return old > 0 ? 100 * (new - old) / old : (new > 0 ? 1e9 : 0) }
	END {
		printf "%-44s %12s %12s %8s %10s %10s %8s  %s\n", "row (per entity)", "instr old", "instr new",
			"change", "Dref old", "Dref new", "change", "verdict"
		for (i = 1; i <= n; i++) {
			k = rows[i]
			if (!(k in bi)) { printf "%-44s %12s %12.3f %8s %10s %10.3f %8s  new row (not in the baseline)\n",
				k, "-", ni[k], "", "-", nd[k], ""; continue }
			pi = pct(bi[k], ni[k]); pd = pct(bd[k], nd[k])
			v = (pi > t || pd > t) ? "GREW" : (pi < -t || pd < -t) ? "shrank" : (pi != 0 || pd != 0) ? "within" : "same"
			if (v == "GREW") grew++
			else if (v == "shrank") shrank++
			printf "%-44s %12.3f %12.3f %+7.2f%% %10.3f %10.3f %+7.2f%%  %s\n", k, bi[k], ni[k], pi, bd[k], nd[k], pd, v
		}
		printf "instr.sh: %d rows against %s in %d s (threshold %s%%): %d grew beyond it, %d shrank beyond it\n",
			n, file, took, t, grew, shrank
		if (grew)
			printf "instr.sh: FAIL: a timed call does more work than the baseline says. If that is meant, " \
				"make instr-baseline and commit the new baseline with the change.\n"
		else if (shrank)
			printf "instr.sh: a timed call does less work than the baseline says: make instr-baseline to " \
				"keep the gain (and commit it).\n"
		exit grew ? 1 : 0
	}' "$file" "$tmp/rows.csv"
