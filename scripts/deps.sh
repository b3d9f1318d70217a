#!/bin/sh
# Installs the Debian packages ecsbench needs, only when something is missing.
# Usage: scripts/deps.sh [core|plots|valgrind|fuzz|tsan|browser|gbench|png|all]...   (default: core)
# Checks files and commands, not dpkg state, so a system where the headers come from
# elsewhere is left alone. Runs apt-get as root, through sudo otherwise; failing both,
# prints the exact command to run and exits 1. Where apt-get cannot install (dpkg interrupted,
# its lock held, broken dependencies, a package it does not know), one line says what mends it
# (apt's own words go to a log named there), and the exit status is 1.
# For the tests, never a user: ECSBENCH_DEPS_ROOT, a folder the files are looked for under (an
# empty one: every file is missing); ECSBENCH_APT_GET, the apt-get to run (a stub), as it is.
set -eu
root=${ECSBENCH_DEPS_ROOT:-}

# Several groups are checked at once under `make -j` (core and plots, say), and two apt-gets at
# once fail on apt's lock: each run of this script waits for the others, then checks afresh.
if [ -z "${ECSBENCH_DEPS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	ECSBENCH_DEPS_LOCKED=1 exec flock "${TMPDIR:-/tmp}/ecsbench-deps.lock" "$0" "$@"
fi

need=""
recheck="" # groups to check again once what they need first is installed
want() { # want PACKAGE PATH-OR-COMMAND
	case "$2" in
	/*) [ -e "$root$2" ] || need="$need $1" ;;
	*) command -v "$2" >/dev/null 2>&1 || need="$need $1" ;;
	esac
}

[ $# -gt 0 ] || set -- core
for group in "$@"; do
	case "$group" in
	core)
		want uthash-dev /usr/include/uthash.h
		want libbsd-dev /usr/include/bsd/sys/tree.h
		want libinih-dev /usr/include/ini.h # scenario files (harness/scenario/scenario_file.c)
		;;
	plots) want gnuplot-nox gnuplot ;;
	valgrind)
		want valgrind valgrind
		want valgrind /usr/include/valgrind/callgrind.h
		;;
	fuzz) # clang, and the runtimes of libFuzzer and the sanitizers, which Debian's clang only
		# recommends (libclang-rt-N-dev, left out by --no-install-recommends); where clang is
		# missing, N is known once it is installed, so the group is checked again after that
		if ! command -v clang >/dev/null 2>&1; then
			need="$need clang"
			[ -n "${ECSBENCH_DEPS_RECHECK:-}" ] || recheck="$recheck fuzz"
		else
			scratch=$(mktemp -d)
			if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
				clang -fsanitize=fuzzer,address,undefined -x c - -o "$scratch/a.out" 2>/dev/null; then
				need="$need libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
			fi
			rm -rf "$scratch"
		fi
		;;
	tsan) # gcc's ThreadSanitizer runtime (make test's parallel suite): libtsan2 for gcc 12 and
		# later, libtsan0 before; checked by linking a program with it, in a scratch folder
		scratch=$(mktemp -d)
		if ! echo 'int main(void) { return 0; }' |
			${CC:-gcc} -fsanitize=thread -x c - -o "$scratch/a.out" 2>/dev/null; then
			v=$(${CC:-gcc} -dumpversion | cut -d. -f1)
			if [ "$v" -ge 12 ] 2>/dev/null; then need="$need libtsan2"; else need="$need libtsan0"; fi
		fi
		rm -rf "$scratch"
		;;
	browser) want chromium chromium ;; # make test-browser: the report page in headless Chromium
	gbench) # google benchmark's compare.py (Debian's libbenchmark-tools), which make test runs
		# on two runs' --format json, and the SciPy its U test imports, for Debian's python3
		want libbenchmark-tools /usr/share/benchmark/compare.py
		want python3-scipy /usr/lib/python3/dist-packages/scipy
		;;
	png) want libpng-dev /usr/include/png.h ;; # make test's reader of a figure's pixels (tests/png_ink.c)
	all) exec "$0" core plots valgrind fuzz tsan browser gbench png ;;
	*) echo "deps.sh: unknown group '$group' (valid: core, plots, valgrind, fuzz, tsan, browser, gbench, png, all)" >&2; exit 2 ;;
	esac
done

[ -n "$need" ] || exit 0
# shellcheck disable=SC2086 # one package a word
need=$(printf '%s\n' $need | sort -u | tr '\n' ' ')
echo "deps.sh: installing missing packages: $need" >&2

if [ -n "${ECSBENCH_APT_GET:-}" ]; then
	sudo=""
elif [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "deps.sh: not root and no password-less sudo; run this, then retry:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y $need" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_get=${ECSBENCH_APT_GET:-apt-get}
log=${TMPDIR:-/tmp}/ecsbench-deps-$(id -u).log
# mend: one line for what apt-get said in $log, the command that mends it first.
mend() {
	held=$(sed -n 's/.*[Ii]s held by process \([0-9]*\) *(\([^)]*\)).*/process \1, \2/p' "$log" | head -n 1)
	unknown=$(sed -n 's/^E: Unable to locate package \(.*\)/\1/p' "$log" | tr '\n' ' ')
	if grep -q 'dpkg was interrupted' "$log"; then
		echo "deps.sh: an earlier package installation was interrupted: run 'sudo dpkg --configure -a', then make again (apt-get's words: $log)" >&2
	elif grep -qi 'could not get lock\|unable to acquire the dpkg frontend lock\|unable to lock' "$log"; then
		echo "deps.sh: another program is installing packages${held:+ ($held)}: wait for it to end, then make again (apt-get's words: $log)" >&2
	elif grep -qi 'unmet dependencies\|held broken packages\|apt --fix-broken install' "$log"; then
		echo "deps.sh: apt's packages are in a broken state: run 'sudo apt-get --fix-broken install', then make again (apt-get's words: $log)" >&2
	elif [ -n "$unknown" ]; then
		echo "deps.sh: apt-get does not know ${unknown% }: run 'sudo apt-get update', then make again (apt-get's words: $log)" >&2
	else
		echo "deps.sh: apt-get could not install$need: $(grep '^E: ' "$log" | tail -n 1 | cut -c 4-)" \
			"(apt-get's words: $log; by hand: sudo apt-get install -y$need)" >&2
	fi
	exit 1
}
# A fresh machine has no package lists yet; an install without them finds nothing.
# Another program's apt-get (an unattended upgrade) is waited for too, up to five minutes.
# (A recheck comes right after an install: the lists are fresh.) What apt-get says goes to the
# log: a failed install is told in one line by mend.
: >"$log"
[ -n "${ECSBENCH_DEPS_RECHECK:-}" ] || $sudo "$apt_get" -o DPkg::Lock::Timeout=300 update -qq >>"$log" 2>&1 || true
# shellcheck disable=SC2086
$sudo "$apt_get" -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $need >>"$log" 2>&1 || mend
# shellcheck disable=SC2086 # one group a word
[ -z "$recheck" ] || ECSBENCH_DEPS_RECHECK=1 exec "$0" $recheck
