#!/bin/sh
# lock.sh: runs a command holding the lock of an output file, as build/ecsbench does for its own
# run (harness/core/output.c), so that make bench holds it for the run and the figures drawn after
# it: a second run into the same output is refused while the first lasts, with the run that
# holds it named.
#
# Usage: scripts/lock.sh OUTPUT WHAT COMMAND [ARGS...]
#   OUTPUT   the file the command writes (a symlink is followed, as build/ecsbench follows it);
#            the lock is OUTPUT.lock, an flock(1) lock on descriptor 9, which COMMAND and its
#            children inherit (build/ecsbench finds it there and counts it as its own)
#   WHAT     what holds it, for a refused run's message ("make bench")
# The kernel drops the lock of a process that dies, so a lock file left by a crash blocks
# nothing; the file is removed when COMMAND ends.
# Exit status: COMMAND's; 2 if another run holds the lock, or OUTPUT cannot be written (COMMAND
# not run).
#
# Usage: scripts/lock.sh --check OUTPUT WHAT
#   whether OUTPUT can be written (and its lock, and what is made beside it), as build/ecsbench
#   checks its own output: exit 0, or 2 with one line saying why (the Makefile's preflight, so
#   that a run is refused before anything is compiled or run)
set -u
# check_output OUTPUT WHAT: the path is a regular file or nothing yet, and its folder (or the
# nearest one that exists: the rest is made) takes new files. Tried, not inferred from the
# modes: root may write any folder but /proc and a read-only file system take nothing.
check_output() {
	out=$1
	refuse() { echo "$2: cannot write $1: $3; nothing was run" >&2; exit 2; }
	if [ -L "$out" ]; then
		target=$(readlink -f "$out") && [ -e "$target" ] || refuse "$1" "$2" "it is a symlink to nothing that exists"
		out=$target
	fi
	if [ -d "$out" ]; then refuse "$1" "$2" "it is a folder"
	elif [ -e "$out" ] && [ ! -f "$out" ]; then refuse "$1" "$2" "it is not a regular file (a device, a fifo or a socket)"
	fi
	folder=$(dirname "$out")
	while [ ! -e "$folder" ]; do folder=$(dirname "$folder"); done
	[ -d "$folder" ] || refuse "$1" "$2" "$folder is not a folder"
	probe=$(mktemp "$folder/.ecsbench-probe.XXXXXX" 2>/dev/null) ||
		refuse "$1" "$2" "$folder takes no new files"
	rm -f "$probe"
	if [ -f "$out" ] && ! (: >>"$out") 2>/dev/null; then refuse "$1" "$2" "it cannot be written"; fi
}
if [ "${1:-}" = --check ]; then
	[ $# -eq 3 ] || { echo "usage: scripts/lock.sh --check OUTPUT WHAT" >&2; exit 2; }
	check_output "$2" "$3"
	exit 0
fi
[ $# -ge 3 ] || { echo "usage: scripts/lock.sh OUTPUT WHAT COMMAND [ARGS...]" >&2; exit 2; }
shown=$1 output=$1 what=$2
shift 2
check_output "$shown" "$what"
[ -L "$output" ] && output=$(readlink -f "$output")
lock=$output.lock
dir=$(dirname "$lock")
mkdir -p "$dir" 2>/dev/null || { echo "$what: cannot make the folder $dir; nothing was run" >&2; exit 2; }
command -v flock >/dev/null 2>&1 || { echo "lock.sh: flock is missing (util-linux)" >&2; exit 2; }
tries=0
while :; do
	{ exec 9>>"$lock"; } 2>/dev/null || { echo "$what: cannot make the lock file $lock; nothing was run" >&2; exit 2; }
	if ! flock -n 9; then
		echo "$what: another run is writing $shown ($(head -n 1 "$lock" 2>/dev/null)); nothing was run:" \
			"wait for it to end, or give another OUTPUT= (its lock: $lock)" >&2
		exit 2
	fi
	# A run that was ending may have removed the file between our open and our lock: the lock
	# counts only on the file the path still names.
	[ "$(stat -c %d:%i "$lock" 2>/dev/null)" = "$(stat -L -c %d:%i /proc/$$/fd/9)" ] && break
	tries=$((tries + 1))
	[ "$tries" -lt 100 ] || { echo "lock.sh: $lock keeps being replaced" >&2; exit 2; }
done
printf 'pid %s, since %s: %s\n' "$$" "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "$what" >"$lock"
# An interrupt reaches the command too (its process group): this shell removes the lock once
# the command has ended.
trap 'rm -f "$lock"; exit 130' INT
trap 'rm -f "$lock"; exit 143' TERM
trap 'rm -f "$lock"; exit 129' HUP
"$@"
rc=$?
rm -f "$lock"
exit "$rc"
