#!/bin/sh
# parallel.sh: build/tsan/ecsbench (the harness built with ThreadSanitizer) runs, in one process
# (--processes 1: the threads pinned as in a real run), into a scratch folder:
#   - a short parallel-iterate over every backend and the floor, k = 1..3, at every thread count
#     from 1 to the CPUs this process may run on;
#   - short scenario runs with systems marked parallel, on every backend, the floor and the
#     harness alone, at every thread count (--sweep scenario.threads): the shipped
#     particles-parallel.ini, and rpg.ini with four of its systems marked parallel (passes over
#     types that come and go, excludes, changes drawn after a parallel pass).
# ThreadSanitizer must report nothing (a report ends the run with exit status 66), and each run
# must end as a good run does (checksums agreeing). Ends with "N passed, N failed".
set -u
bin=${ECSBENCH_TSAN:-build/tsan/ecsbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpus=$(nproc)
passed=0
failed=0

check() {
	name=$1
	shift
	if TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$bin" --processes 1 --output "$tmp/$name.csv" \
		"$@" 2>"$tmp/stderr"; then
		if grep -q ThreadSanitizer "$tmp/stderr"; then
			echo "FAIL $name/tsan: $(cat "$tmp/stderr")"
			failed=$((failed + 1))
			return
		fi
		echo "ok   $name/tsan"
		passed=$((passed + 1))
	else
		echo "FAIL $name/tsan: exit status $?: $(head -n 40 "$tmp/stderr")"
		failed=$((failed + 1))
	fi
}

check parallel-iterate --workloads parallel-iterate --entities 2048 --components 1,2,3 --reps 2
# Every backend: a slow one (tree, or any under ThreadSanitizer) makes as many frames as the
# others (a long run's calibration is not a warm-up frame), so the checksums agree.
backends="--backends all"
# one point per thread count (a single CPU: the one point, threads = 1)
if [ "$cpus" -gt 1 ]; then
	sweep="--sweep scenario.threads=1..$cpus"
else
	sweep="--set scenario.threads=1"
fi
# shellcheck disable=SC2086 # $backends and $sweep are two words each
check scenario-particles-parallel --scenario scenarios/particles-parallel.ini $backends \
	--set scenario.scale=0.004 --set scenario.frames=3 --set scenario.warmup=1 $sweep
# shellcheck disable=SC2086
check scenario-rpg-parallel --scenario scenarios/rpg.ini $backends --set scenario.scale=0.05 \
	--set scenario.frames=3 --set scenario.warmup=1 --set system.ai.parallel=true \
	--set system.burn.parallel=true --set system.combat.parallel=true \
	--set system.damage.parallel=true $sweep
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
