# caches.sh: the simulated caches of scripts/cachegrind.sh, profile.sh and callgrind-pair.sh
# (sourced by them), fixed on valgrind's command line because its auto-detection reports nonsense on some
# virtual machines, and so that figures from different machines compare. size,ways,line bytes.
# shellcheck shell=sh disable=SC2034 # used by the scripts that source this file
I1=32768,8,64
D1=32768,8,64
LL=8388608,16,64

# split_history BINARY NAME -> "WORKLOAD HISTORY": a workload named with its history as the
# figures name it ("iterate-pristine": iterate under pristine; a plain name is lived-in, or the
# workload's only one), split by the binary's list of histories.
split_history() {
	for h in $("$1" --list 2>/dev/null | awk '/^[a-z]/ { on = $1 == "histories"; next } on { print $1 }'); do
		case "$2" in *?-"$h") echo "${2%-"$h"} $h"; return ;; esac
	done
	echo "$2 lived-in"
}
