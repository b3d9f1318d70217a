#!/bin/bash
# variation.sh: the experiments of docs/variation.md (why separate processes of the same
# command disagree), each re-run with one command.
#
#   scripts/studies/variation.sh run EXPERIMENT...   measure (all: every experiment, about 25 min)
#   scripts/studies/variation.sh summary DIR...      the tables of docs/variation.md from measured data
#   scripts/studies/variation.sh list                the experiments and their arms
#
# An experiment turns one factor on or off. Each process is a fresh build/ecsbench
# --processes 1 --trace-samples, and the arms alternate process by process (A B C A B C ...,
# PER_ARM processes each, default 12), so that the machine's drift and the other users' load hit
# every arm alike. Before and after each process the script reads /proc/loadavg and /proc/stat
# (busy, idle and steal ticks of each CPU), so the load each process met is on record.
#
# Data go to OUT (default /tmp/ecsbench-variation), one folder per experiment:
#   samples.csv    a line per timed sample of every participant (ecsbench-trace lines): wall
#                  and CPU time of the timed region, page faults, context switches, the CPU it
#                  ended on, the time it ended (calibration and warm-up samples are left out)
#   processes.csv  a line per process: arm, start, load average, heap offset, brk, pinning,
#                  /proc/stat deltas of both CPUs
# The summary reads only these two files. Costs: each process takes 2 to 6 s on an idle 2-CPU
# machine (twice that under load); the CSVs are a few hundred KiB per experiment.
set -eu
cd "$(dirname "$0")/../.."
bin=${ECSBENCH:-build/ecsbench}
out=${OUT:-/tmp/ecsbench-variation}
per_arm=${PER_ARM:-12}
# CPU: the CPU the measured processes run on (taskset -c), or empty for the harness's own choice
# (it pins to the last CPU it may use). On a shared machine whose other benchmarks all pin to the
# last CPU, CPU=0 keeps these runs from slowing theirs (and theirs from slowing these).
cpu=${CPU:-}
last_cpu=$(($(nproc) - 1))
measured_cpu=${cpu:-$last_cpu}
other_cpu=$((measured_cpu == 0 ? 1 : 0))

# The command whose processes disagreed, and the other rows the study looks at (used through ${!name}).
# shellcheck disable=SC2034
create="--profile A --workloads create --backends vector,archetype,sparse --entities 16384,1048576 --components 1 --reps 5"
# shellcheck disable=SC2034
create_small="--profile A --workloads create --backends vector,archetype,sparse --entities 16384 --components 1 --reps 5"
# shellcheck disable=SC2034
iterate="--profile A --workloads iterate --backends vector,archetype,sparse --entities 16384 --components 2 --reps 5"
# The probe: vector's iterate, the row that moves most with the machine's state, beside
# archetype's, which moves least; 1000 samples of 1000 runs, about half a minute.
# shellcheck disable=SC2034
probe="--profile A --workloads iterate --backends vector,archetype --entities 16384 --components 2 --no-floor --warmup 0 --reps 1000 --inner 1000"

experiments="layout-create layout-iterate offset malloc inner cpu neighbour order probe harness"

# experiment -> "base-arguments-variable arm arm ..."; the first arm is the reference.
experiment_def() {
	case $1 in
	layout-create) echo "create random fixed" ;;
	layout-iterate) echo "iterate random fixed" ;;
	offset) echo "create off0 off64 off2048 off4096 off1M" ;;
	malloc) echo "create mallopt malloc-default hugetlb" ;;
	inner) echo "create_small inner4 inner1 inner2 inner8" ;;
	cpu) echo "create cpu1 cpu0 no-pin" ;;
	neighbour) echo "create quiet busy-other busy-same" ;;
	order) echo "create vas avs sva" ;;
	probe) echo "probe cpu0 cpu1" ;;
	harness) echo "create pin-last cpu0" ;;
	*) return 1 ;;
	esac
}

describe() {
	cat <<'EOF'
layout-create   the reported command; random: ASLR, a heap offset of 0..64 KiB and 0..4 KiB of
                environment padding, drawn per process as the driver does; fixed: setarch -R, no
                offset, no padding (what --layout fixed does to its processes)
layout-iterate  the same two arms for iterate, k = 2, N = 16384
offset          the reported command under setarch -R, heap offset 0, 64, 2048, 4096, 1 MiB
malloc          mallopt (the harness's default: no mmap, no trim), --malloc-default, and
                GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (the heap madvised for huge pages)
inner           create at N = 16384 only, --inner 4 (about what the calibration picks), 1, 2, 8
cpu             taskset -c 1 (the harness's own choice on 2 CPUs: the last), taskset -c 0,
                --no-pin (the scheduler moves it)
neighbour       quiet, or another ecsbench streaming memory (iterate, N = 2^20, 64-byte
                components) during the process, pinned to the other CPU (busy-other) or to the
                measured process's own CPU (busy-same)
order           --backends vector,archetype,sparse / archetype,vector,sparse /
                sparse,vector,archetype: another cyclic order of the interleaved samples
probe           not arms but one long process on each CPU at the same time (vector and
                archetype iterate, k = 2, N = 16384, for about 30 s): does the machine's slow
                state come and go on both CPUs together, and does it move the ratio
harness         the reported command as a user runs it (--processes 5, the harness's own layout
                and pinning: the last CPU), against the same under taskset -c 0; HARNESS_RUNS
                runs each (default 4), alternating; what the CSV's medians and intervals say
Every arm but layout and offset uses the random layout, as a normal run's processes do. With
CPU=n set, every arm but cpu's runs under taskset -c n.
EOF
}

# /proc/stat's two CPUs as "busy idle steal" pairs, in ticks.
cpu_ticks() {
	awk '/^cpu[0-9]/ { printf "%s %d %d %d ", $1, $2 + $3 + $4 + $7 + $8, $5 + $6, $9 }' /proc/stat
}

# The processes this script started and may have to stop (by their pid, nothing else).
noise_pid=
probe_pids=
stop_noise() {
	local p
	for p in $noise_pid $probe_pids; do
		kill -TERM "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	noise_pid=
	probe_pids=
}
trap 'stop_noise' EXIT
trap 'stop_noise; exit 130' INT TERM

# run_one EXPERIMENT ARM RUN BASE-ARGS: one measured process, its lines appended to the CSVs.
run_one() {
	local exp=$1 arm=$2 run=$3 base=$4 dir=$out/$1
	local layout=random offset=0 pad=0 extra="" env_extra="" wrap=""
	[ -n "$cpu" ] && wrap="taskset -c $cpu"
	case $arm in
	fixed | off0) layout=fixed ;;
	off64) layout=fixed offset=64 ;;
	off2048) layout=fixed offset=2048 ;;
	off4096) layout=fixed offset=4096 ;;
	off1M) layout=fixed offset=1048576 ;;
	malloc-default) extra="--malloc-default" ;;
	hugetlb) env_extra="GLIBC_TUNABLES=glibc.malloc.hugetlb=1" ;;
	inner*) extra="--inner ${arm#inner}" ;;
	cpu0) wrap="taskset -c 0" ;;
	cpu1) wrap="taskset -c 1" ;;
	no-pin) extra="--no-pin" wrap="" ;;
	avs) base=${base/vector,archetype,sparse/archetype,vector,sparse} ;;
	sva) base=${base/vector,archetype,sparse/sparse,vector,archetype} ;;
	esac
	if [ "$layout" = random ]; then
		offset=$((16 * (RANDOM % 4096)))
		pad=$((RANDOM % 4097))
	fi
	[ "$offset" -gt 0 ] && extra="$extra --child-heap-offset $offset"
	[ "$layout" = fixed ] && wrap="$wrap setarch $(uname -m) -R"
	local padding
	padding=$(head -c "$pad" /dev/zero | tr '\0' x)
	if [ "$arm" = busy-other ] || [ "$arm" = busy-same ]; then
		local noise_cpu=$other_cpu
		[ "$arm" = busy-same ] && noise_cpu=$measured_cpu
		# (a scratch file, as last.csv and the probes' below: removed first, or build/ecsbench
		# would keep every one in previous/)
		rm -f "$dir/noise.csv" "$dir/noise-samples.csv"
		taskset -c "$noise_cpu" "$bin" --profile A --workloads iterate --backends vector \
			--entities 1048576 --components 2 --component-size 64 --processes 1 --warmup 0 \
			--reps 1000 --inner 1000 --no-floor --output "$dir/noise.csv" 2>/dev/null &
		noise_pid=$!
		sleep 2
	fi
	local load stat0 stat1 t0 t1 rc=0
	load=$(awk '{ split($4, r, "/"); print $1 "," $2 "," r[1] }' /proc/loadavg)
	stat0=$(cpu_ticks)
	t0=$(date +%s.%N)
	rm -f "$dir/last.csv" "$dir/last-samples.csv"
	# A fixed environment, so that the fixed layout's stack is the same in every process.
	# shellcheck disable=SC2086
	env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C ECSBENCH_STACK_PAD="$padding" $env_extra \
		$wrap "$bin" $base $extra --processes 1 --trace-samples --output "$dir/last.csv" \
		2>"$dir/last.trace" >/dev/null || rc=$?
	t1=$(date +%s.%N)
	stat1=$(cpu_ticks)
	stop_noise
	if [ "$rc" -ne 0 ]; then
		echo "variation.sh: $exp $arm run $run: ecsbench exit status $rc" >&2
		cat "$dir/last.trace" >&2
		return 1
	fi
	awk -v run="$run" -v arm="$arm" '$1 == "ecsbench-trace" && $8 == "timed" {
		printf "%d,%s", run, arm
		for (i = 3; i <= NF; i++) printf ",%s", $i
		printf "\n" }' "$dir/last.trace" >>"$dir/samples.csv"
	awk -v run="$run" -v arm="$arm" -v t0="$t0" -v t1="$t1" -v load="$load" -v pad="$pad" \
		-v s0="$stat0" -v s1="$stat1" '$1 == "ecsbench-trace-process" {
		pin = $6; for (i = 7; i <= NF; i++) pin = pin " " $i
		n0 = split(s0, a); split(s1, b)
		d = ""
		for (i = 2; i <= n0; i++) if ((i - 1) % 4) d = d "," (b[i] - a[i])
		printf "%d,%s,%.3f,%.3f,%s,%s,%s,%d,%s,%s%s\n", run, arm, t0, t1 - t0, load, $3, $4,
			pad, $5, pin, d }' "$dir/last.trace" >>"$dir/processes.csv"
	rm -f "$dir/last.csv" "$dir/last-samples.csv" "$dir/noise.csv" "$dir/noise-samples.csv"
}

# Both CPUs' probes at once; their samples carry the time they ended (end_ns), so the summary
# can line them up.
run_probe() {
	local dir=$out/probe c
	for c in 0 1; do
		rm -f "$dir/probe$c.csv" "$dir/probe$c-samples.csv"
		env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C taskset -c "$c" "$bin" $probe --processes 1 \
			--trace-samples --output "$dir/probe$c.csv" 2>"$dir/probe$c.trace" >/dev/null &
		probe_pids="$probe_pids $!"
	done
	local load stat0 stat1 t0 t1
	load=$(awk '{ split($4, r, "/"); print $1 "," $2 "," r[1] }' /proc/loadavg)
	stat0=$(cpu_ticks)
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	wait $probe_pids
	probe_pids=
	t1=$(date +%s.%N)
	stat1=$(cpu_ticks)
	for c in 0 1; do
		awk -v run=$((c + 1)) -v arm="cpu$c" '$1 == "ecsbench-trace" && $8 == "timed" {
			printf "%d,%s", run, arm
			for (i = 3; i <= NF; i++) printf ",%s", $i
			printf "\n" }' "$dir/probe$c.trace" >>"$dir/samples.csv"
		awk -v run=$((c + 1)) -v arm="cpu$c" -v t0="$t0" -v t1="$t1" -v load="$load" \
			-v s0="$stat0" -v s1="$stat1" '$1 == "ecsbench-trace-process" {
			pin = $6; for (i = 7; i <= NF; i++) pin = pin " " $i
			n0 = split(s0, a); split(s1, b)
			d = ""
			for (i = 2; i <= n0; i++) if ((i - 1) % 4) d = d "," (b[i] - a[i])
			printf "%d,%s,%.3f,%.3f,%s,%s,%s,0,%s,%s%s\n", run, arm, t0, t1 - t0, load, $3, $4,
				$5, pin, d }' "$dir/probe$c.trace" >>"$dir/processes.csv"
		rm -f "$dir/probe$c.csv" "$dir/probe$c-samples.csv" "$dir/probe$c.trace"
	done
}

# The reported command run as a user runs it, its CSVs kept (a few KiB each): does the run's own
# interval show what the separate processes disagree on?
run_harness() {
	local dir=$out/harness i arm wrap
	for ((i = 1; i <= ${HARNESS_RUNS:-4}; i++)); do
		for arm in pin-last cpu0; do
			wrap=""
			[ "$arm" = cpu0 ] && wrap="taskset -c 0"
			printf '\rvariation.sh: harness %d/%d (%s)   ' "$i" "${HARNESS_RUNS:-4}" "$arm" >&2
			local load
			load=$(awk '{ split($4, r, "/"); print $1 "," $2 "," r[1] }' /proc/loadavg)
			# shellcheck disable=SC2086
			env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C $wrap "$bin" $create --trace-samples \
				--output "$dir/$arm-$i.csv" 2>"$dir/last.trace" >/dev/null || {
				echo "variation.sh: harness $arm run $i failed" >&2
				cat "$dir/last.trace" >&2
				return 1
			}
			awk -v run="$i" -v arm="$arm" '$1 == "ecsbench-trace" && $8 == "timed" {
				printf "%d,%s", run, arm
				for (i = 2; i <= NF; i++) printf ",%s", $i
				printf "\n" }' "$dir/last.trace" >>"$dir/samples.csv"
			echo "$i,$arm,$load" >>"$dir/processes.csv"
			rm -f "$dir/$arm-$i-samples.csv" # the same samples as the trace's, fewer columns
		done
	done
	rm -f "$dir/last.trace"
	printf '\rvariation.sh: harness done in %s\033[K\n' "$dir" >&2
}

run_experiment() {
	local exp=$1 def base arms dir=$out/$1
	def=$(experiment_def "$exp") || {
		echo "variation.sh: unknown experiment '$exp' (valid: $experiments, all)" >&2
		exit 2
	}
	base=${def%% *}
	base=${!base}
	arms=${def#* }
	mkdir -p "$dir"
	echo "run,arm,backend,workload,entities,components,sample,kind,inner,wall_ns,cpu_ns,minflt,majflt,nvcsw,nivcsw,cpu,end_ns" >"$dir/samples.csv"
	echo "run,arm,start_s,seconds,load1,load5,runnable,pid,heap_offset,pad,brk,pinning,busy0,idle0,steal0,busy1,idle1,steal1" >"$dir/processes.csv"
	{
		if [ "$exp" = probe ]; then
			echo "# variation.sh run probe: one process on each CPU at the same time"
		elif [ "$exp" = harness ]; then
			echo "# variation.sh run harness: ${HARNESS_RUNS:-4} runs per arm ($arms), alternating"
		else
			echo "# variation.sh run $exp: $per_arm processes per arm ($arms), alternating"
		fi
		echo "# commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); $(date -u +%FT%TZ)"
		if [ "$exp" = harness ]; then
			echo "# base: $bin $base --trace-samples (5 processes, the harness's own layout)"
		elif [ "$exp" = probe ]; then
			echo "# base: $bin $base --processes 1 --trace-samples, one under taskset -c 0, one under taskset -c 1"
		else
			echo "# base: $bin $base --processes 1 --trace-samples${cpu:+, under taskset -c $cpu}"
		fi
		echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); $(nproc) CPUs; kernel $(uname -r); THP $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	} >"$dir/README"
	if [ "$exp" = harness ]; then
		echo "run,arm,process,backend,workload,entities,components,sample,kind,inner,wall_ns,cpu_ns,minflt,majflt,nvcsw,nivcsw,cpu,end_ns" >"$dir/samples.csv"
		echo "run,arm,load1,load5,runnable" >"$dir/processes.csv"
		run_harness
		return
	fi
	if [ "$exp" = probe ]; then
		echo "variation.sh: probe: one process on each CPU at once, about 30 s" >&2
		run_probe
		echo "variation.sh: probe done in $dir" >&2
		return
	fi
	local run=0 i arm
	for ((i = 0; i < per_arm; i++)); do
		for arm in $arms; do
			run=$((run + 1))
			printf '\rvariation.sh: %s %d/%d (%s)   ' "$exp" "$run" $((per_arm * $(echo $arms | wc -w))) "$arm" >&2
			run_one "$exp" "$arm" "$run" "$base"
		done
	done
	rm -f "$dir/last.trace"
	printf '\rvariation.sh: %s done in %s\033[K\n' "$exp" "$dir" >&2
}

# The tables of one experiment folder (Markdown).
summary() {
	local dir=$1
	[ -r "$dir/samples.csv" ] && [ -r "$dir/processes.csv" ] || {
		echo "variation.sh: no samples.csv and processes.csv in '$dir'" >&2
		exit 2
	}
	echo "### $(basename "$dir")"
	echo
	grep '^#' "$dir/README" 2>/dev/null | sed 's/^# /    /'
	echo
	if [ "$(basename "$dir")" = probe ]; then
		awk -F, -f scripts/studies/variation-probe.awk "$dir/samples.csv"
	elif [ "$(basename "$dir")" = harness ]; then
		awk -F, -f scripts/studies/variation-harness.awk "$dir"/pin-last-*.csv "$dir"/cpu0-*.csv "$dir/samples.csv"
	else
		awk -F, -f scripts/studies/variation.awk "$dir/processes.csv" "$dir/samples.csv"
	fi
}

case ${1:-} in
run)
	shift
	[ $# -gt 0 ] || set -- all
	[ "$1" = all ] && set -- $experiments
	[ -x "$bin" ] || { echo "variation.sh: $bin is not built (make)" >&2; exit 2; }
	for exp in "$@"; do experiment_def "$exp" >/dev/null || {
		echo "variation.sh: unknown experiment '$exp' (valid: $experiments, all)" >&2
		exit 2
	}; done
	for exp in "$@"; do run_experiment "$exp"; done
	;;
summary)
	shift
	[ $# -gt 0 ] || set -- "$out"/*/
	for d in "$@"; do summary "${d%/}"; done
	;;
list)
	describe
	;;
*)
	echo "usage: scripts/studies/variation.sh run EXPERIMENT...|all; summary DIR...; list" >&2
	echo "experiments: $experiments" >&2
	exit 2
	;;
esac
