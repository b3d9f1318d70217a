#!/bin/sh
# setup.sh: what make checks before it compiles or runs anything (the Makefile's preflight), in a
# copy of the sources in a temporary folder, with stubs for the compiler, the package check and
# apt-get (never the real apt, never the real build):
#   packages first   make test with a package reported missing and apt-get failing as after an
#                    interrupted dpkg: one line naming 'dpkg --configure -a', nothing compiled,
#                    even with -j2; apt's lock held, a package apt does not know: one line each
#   one check        make test checks every group it needs in one call, before the first
#                    compile; the makes it runs check nothing again
#   outputs          OUTPUT=/proc/x.csv, a folder, a fifo: one line, exit 2, nothing compiled
#   names            OUTPUT=x.txt: everything made from it is named x.txt-... (as build/ecsbench
#                    names its samples), on a short real run
# Costs: a few seconds (no compiler runs; one short run of build/ecsbench and its figure).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   setup/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL setup/$1: $2"; failed=$((failed + 1)); }
# The tests' makes are a user's: whatever make ran this, they check.
unset ECSBENCH_PREFLIGHT MAKEFLAGS MFLAGS MAKELEVEL

# The sources, without the build: a make there that compiled would show in the compiler's log.
tree=$tmp/tree
mkdir -p "$tree/tests"
cp -r Makefile impls harness scripts "$tree/"
cp tests/*.c tests/*.h "$tree/tests/"
# The compiler: answers make's question about -march=native, logs every compile, and fails it.
cat >"$tmp/cc" <<EOF
#!/bin/sh
case " \$* " in *" -c "*) echo "cc \$*" >>"$tmp/log"; exit 1 ;; esac
exit 1
EOF
# apt-get as it fails after an interrupted dpkg, with its lock held, or for a package it does
# not know (its update succeeds)
apt_stub() { # apt_stub NAME MESSAGE
	printf '#!/bin/sh\ncase "$*" in *install*) echo %s >&2; exit 100 ;; esac\nexit 0\n' "'$2'" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
apt_stub apt-interrupted "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem."
apt_stub apt-locked "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)"
apt_stub apt-unknown "E: Unable to locate package uthash-dev"
# The package check as a stub: logs its groups, finds nothing missing
printf '#!/bin/sh\necho "deps $*" >>"%s/log"\n' "$tmp" >"$tmp/deps"
chmod +x "$tmp/cc" "$tmp/deps"
mkdir -p "$tmp/empty"

# make_tree ARGS...: make in the copy with the stub compiler -> $tmp/out (stdout and stderr), $?
make_tree() { make -C "$tree" --no-print-directory CC="$tmp/cc" "$@" >"$tmp/out" 2>&1; }
compiled() { grep -c '^cc ' "$tmp/log" 2>/dev/null || true; }

# --- packages first ------------------------------------------------------------------------
: >"$tmp/log"
ECSBENCH_DEPS_ROOT=$tmp/empty ECSBENCH_APT_GET=$tmp/apt-interrupted make_tree -j2 test
rc=$?
errs=$(grep -c '^deps.sh: ' "$tmp/out")
if [ "$rc" -ne 0 ] && [ "$(compiled)" -eq 0 ] && ! grep -q '  CC  ' "$tmp/out" &&
	grep -q "^deps.sh: an earlier package installation was interrupted: run 'sudo dpkg --configure -a', then make again" "$tmp/out" &&
	[ "$errs" -eq 2 ] && ! grep -q '^E: ' "$tmp/out"; then
	ok packages-before-compiling
else
	fail packages-before-compiling "exit $rc, $(compiled) compiles, output: $(head -c 600 "$tmp/out")"
fi
for case in locked:"another program is installing packages (process 4242, unattended-upgr): wait for it to end" \
	unknown:"apt-get does not know uthash-dev: run 'sudo apt-get update'"; do
	name=${case%%:*} want=${case#*:}
	ECSBENCH_DEPS_ROOT=$tmp/empty ECSBENCH_APT_GET=$tmp/apt-$name scripts/deps.sh core >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(grep -c . "$tmp/out")" -eq 2 ] && grep -qF "deps.sh: $want" "$tmp/out" &&
		! grep -q '^E: ' "$tmp/out"; then
		ok "apt-$name"
	else
		fail "apt-$name" "exit $rc: $(cat "$tmp/out")"
	fi
done

# --- one check, before the first compile ---------------------------------------------------
: >"$tmp/log"
DEPS_SH=$tmp/deps make_tree -j2 test
first=$(head -n 1 "$tmp/log")
if [ "$(grep -c '^deps ' "$tmp/log")" -eq 1 ] && [ "$first" = "deps core fuzz gbench plots png tsan valgrind" ] &&
	[ "$(compiled)" -ge 1 ]; then
	ok packages-checked-once-first
else
	fail packages-checked-once-first "the log: $(head -n 4 "$tmp/log")"
fi
: >"$tmp/log"
DEPS_SH=$tmp/deps make_tree build/cachegrind/ecsbench
if [ "$(head -n 1 "$tmp/log")" = "deps core valgrind" ]; then
	ok variant-packages
else
	fail variant-packages "a callgrind build checked: $(head -n 1 "$tmp/log")"
fi

# --- outputs that cannot be written --------------------------------------------------------
mkfifo "$tmp/fifo"
for case in "/proc/x.csv:/proc takes no new files" "$tmp:it is a folder" \
	"$tmp/fifo:it is not a regular file (a device, a fifo or a socket)"; do
	out=${case%%:*} why=${case#*:}
	: >"$tmp/log"
	DEPS_SH=$tmp/deps make_tree bench OUTPUT="$out"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(grep -c . "$tmp/out")" -eq 1 ] &&
		grep -qF "make bench: cannot write $out: $why; nothing was run" "$tmp/out" && [ ! -s "$tmp/log" ]; then
		ok "output-refused${out#"$tmp"}"
	else
		fail "output-refused${out#"$tmp"}" "exit $rc, log $(cat "$tmp/log"): $(cat "$tmp/out")"
	fi
done
DEPS_SH=$tmp/deps make_tree bench SCENARIO=scenarios/shooter.ini OUTPUT=/proc/s.csv
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "make bench: cannot write /proc/s.csv" "$tmp/out"; then
	ok output-refused-scenario
else
	fail output-refused-scenario "exit $rc: $(cat "$tmp/out")"
fi

# --- OUTPUT=x.txt: what is made from it is named x.txt-... ---------------------------------
if [ -x build/ecsbench ]; then
	make --no-print-directory bench OUTPUT="$tmp/run/x.txt" BACKENDS=vector WORKLOADS=iterate ENTITIES=64 \
		COMPONENTS=1 PROCESSES=1 REPS=1 WARMUP=0 >"$tmp/out" 2>&1
	rc=$?
	made=$(cd "$tmp/run" && ls -d x* | tr '\n' ' ')
	if [ "$rc" -eq 0 ] && [ -f "$tmp/run/x.txt-samples.csv" ] && [ -f "$tmp/run/x.txt-answer.md" ] &&
		ls "$tmp/run/x.txt-plots/A/"*.png >/dev/null 2>&1 && [ -z "$(cd "$tmp/run" && ls -d x-* 2>/dev/null)" ]; then
		ok output-names
	else
		fail output-names "exit $rc, made: $made; $(tail -n 3 "$tmp/out")"
	fi
else
	fail output-names "no build/ecsbench (make builds it)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
