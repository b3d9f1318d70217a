#!/bin/sh
# outlive.sh: runs a command of a make recipe so that an interrupt (Ctrl-C) ends make quietly.
#
# Usage: scripts/outlive.sh COMMAND [ARGS...]   (exit status: COMMAND's; its signal, if it died of one)
#
# Why: Ctrl-C sends SIGINT to make and to the command at once. GNU make (4.3 here) cleans up in
# its signal handler, where it waits for its children again: when the command (build/ecsbench,
# whose handler takes a few microseconds) has died and been reaped by make's own main loop just
# before make's handler runs, that second wait finds no child and make prints "make[1]: ***
# wait: No child processes.  Stop." (7 runs of make bench in 8 interrupted through a terminal
# did). This shell stands between make and the command: it catches the interrupt, so that make's
# child is still alive when make's handler waits for it, and ends after the command ends, the
# same way (scripts/lock.sh does the same for the outer make). The command itself gets the
# default handling of each signal, as it would from make.
trap : INT TERM HUP
"$@"
rc=$?
# Died of SIGHUP, SIGINT or SIGTERM: this shell too, so that make says "Interrupt" as before;
# but a moment later (0.3 s), so that make's own handler, which a busy CPU can delay past the
# command's end, still finds this shell alive to wait for (the race was lost once more, in a
# make test with every process on one loaded CPU: "wait: No child processes").
case $rc in
129) sig=HUP ;;
130) sig=INT ;;
143) sig=TERM ;;
*) exit "$rc" ;;
esac
sleep 0.3
trap - "$sig"
kill -s "$sig" "$$"
exit "$rc"
