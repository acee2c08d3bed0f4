#!/usr/bin/env bash
# Records golden/gprof/inputs/ again: workload.c built with gcc -pg (-O0, so that its calls stay
# calls) and run once; the executable, its gmon.out and gprof's reports of it are committed, so that the golden cases
# do not depend on this machine's compiler or libc (tests/interop-gprof.sh records afresh and
# compares with gprof).
#
#   tests/gprof/record.sh
set -eu
cd "$(dirname "$0")/../.."
inputs=golden/gprof/inputs
run=/tmp/proftools-gprof
mkdir -p "$run" "$inputs"
gcc -O0 -g -pg -o "$run/workload" tests/gprof/workload.c
(cd "$run" && rm -f gmon.out && ./workload >/dev/null)
cp "$run/workload" "$run/gmon.out" "$inputs/"
# gprof's own reports of it, which every program reads too.
gprof "$inputs/workload" "$inputs/gmon.out" >"$inputs/report.txt"
gprof -b -p "$inputs/workload" "$inputs/gmon.out" >"$inputs/report-flat.txt"
