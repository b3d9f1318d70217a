#!/bin/sh
# parallel.sh: build/tsan/ecsbench (the harness built with ThreadSanitizer) runs a short
# parallel-iterate over every backend and the floor, k = 1..3, at every thread count from 1 to
# the CPUs this process may run on, in one process (--processes 1: the threads pinned as in a
# real run), into a scratch folder. ThreadSanitizer must report nothing (a report ends the run
# with exit status 66), and the run must end as a good run does. Ends with "N passed, N failed".
set -u
bin=${ECSBENCH_TSAN:-build/tsan/ecsbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$bin" --processes 1 --workloads parallel-iterate \
	--entities 2048 --components 1,2,3 --reps 2 --output "$tmp/tsan.csv" 2>"$tmp/stderr"; then
	if grep -q ThreadSanitizer "$tmp/stderr"; then
		echo "FAIL parallel-iterate/tsan: $(cat "$tmp/stderr")"
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "ok   parallel-iterate/tsan"
	echo "1 passed, 0 failed"
else
	echo "FAIL parallel-iterate/tsan: exit status $?: $(head -n 40 "$tmp/stderr")"
	echo "0 passed, 1 failed"
	exit 1
fi
