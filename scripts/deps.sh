#!/bin/sh
# Installs the Debian packages ecsbench needs, only when something is missing.
# Usage: scripts/deps.sh [core|plots|valgrind|fuzz|tsan|browser|gbench|all]...   (default: core)
# Checks files and commands, not dpkg state, so a system where the headers come from
# elsewhere is left alone. Runs apt-get as root, through sudo otherwise; failing both,
# prints the exact command to run and exits 1.
set -eu

# Several groups are checked at once under `make -j` (core and plots, say), and two apt-gets at
# once fail on apt's lock: each run of this script waits for the others, then checks afresh.
if [ -z "${ECSBENCH_DEPS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	ECSBENCH_DEPS_LOCKED=1 exec flock "${TMPDIR:-/tmp}/ecsbench-deps.lock" "$0" "$@"
fi

need=""
recheck="" # groups to check again once what they need first is installed
want() { # want PACKAGE PATH-OR-COMMAND
	case "$2" in
	/*) [ -e "$2" ] || need="$need $1" ;;
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
	all) exec "$0" core plots valgrind fuzz tsan browser gbench ;;
	*) echo "deps.sh: unknown group '$group' (valid: core, plots, valgrind, fuzz, tsan, browser, gbench, all)" >&2; exit 2 ;;
	esac
done

[ -n "$need" ] || exit 0
# shellcheck disable=SC2086 # one package a word
need=$(printf '%s\n' $need | sort -u | tr '\n' ' ')
echo "deps.sh: installing missing packages: $need" >&2

if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "deps.sh: not root and no password-less sudo; run this, then retry:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y $need" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; an install without them finds nothing.
# Another program's apt-get (an unattended upgrade) is waited for too, up to five minutes.
# (A recheck comes right after an install: the lists are fresh.)
[ -n "${ECSBENCH_DEPS_RECHECK:-}" ] || $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 || true
# shellcheck disable=SC2086
$sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $need >&2
# shellcheck disable=SC2086 # one group a word
[ -z "$recheck" ] || ECSBENCH_DEPS_RECHECK=1 exec "$0" $recheck
