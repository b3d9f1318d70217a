# full_disk.sh: a full disk for the tests of checked writes (sourced by cli.sh, figures.sh,
# report.sh, scenario_cli.sh). Never a device: either a small filesystem of the test's own (a
# tmpfs of 64 kB, which needs root) filled to its last few kB, or, where none can be mounted,
# a failing writer: the command runs with a file size limit (ulimit -f) and SIGXFSZ ignored, so
# that a write past the limit fails (EFBIG) as one past a full disk fails (ENOSPC).
#
#   full_disk_make DIR KB  makes DIR (a new folder) a disk with KB kB free (a multiple of 4, at
#                        most 60); sets full_disk_mode (tmpfs or ulimit)
#   on_full_disk CMD...  runs CMD with its writes into DIR failing past those KB kB (with the
#                        failing writer: any file CMD writes, anywhere, past KB kB)
#   full_disk_free       unmounts it (call it before the test's folder is removed)
# The few kB left let a writer start, as on a real disk, so that a file is cut short rather than
# never made.

full_disk_dir=
full_disk_mode=
full_disk_kb=
full_disk_make() {
	full_disk_dir=$1 full_disk_kb=$2
	mkdir -p "$full_disk_dir"
	if [ "${FULL_DISK:-}" != ulimit ] && mount -t tmpfs -o size=64k tmpfs "$full_disk_dir" 2>/dev/null; then
		full_disk_mode=tmpfs
		dd if=/dev/zero of="$full_disk_dir/.filler" bs=1024 count=$((64 - full_disk_kb)) 2>/dev/null
	else
		full_disk_mode=ulimit
	fi
}
on_full_disk() {
	if [ "$full_disk_mode" = tmpfs ]; then
		"$@"
	else
		# blocks of 512 bytes (dash's unit; bash's are 1024: twice the room, still far short).
		# The limit holds for every file the command writes, its own stdout and stderr too: they
		# go through pipes to theirs.
		full_disk_rc=$(mktemp)
		{ { sh -c 'trap "" XFSZ; ulimit -f "$0"; exec "$@"' $((full_disk_kb * 2)) "$@"
			echo $? >"$full_disk_rc"; } 2>&1 1>&3 3>&- | cat >&2; } 3>&1 | cat
		read -r full_disk_status <"$full_disk_rc"
		rm -f "$full_disk_rc"
		return "$full_disk_status"
	fi
}
full_disk_free() {
	[ "$full_disk_mode" != tmpfs ] || umount "$full_disk_dir" 2>/dev/null || true
	full_disk_mode=
}
