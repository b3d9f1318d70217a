# caches.sh: the simulated caches of scripts/cachegrind.sh and scripts/profile.sh (sourced by
# both), fixed on valgrind's command line because its auto-detection reports nonsense on some
# virtual machines, and so that figures from different machines compare. size,ways,line bytes.
# shellcheck shell=sh disable=SC2034 # used by the scripts that source this file
I1=32768,8,64
D1=32768,8,64
LL=8388608,16,64
