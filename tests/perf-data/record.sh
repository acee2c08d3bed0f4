#!/usr/bin/env bash
# Records golden/perf-data/inputs/ again: the workload (workload.cc, built here) under perf 6.1
# in the ways the perf.data reader must read. Run by hand (perf record must be permitted); the
# recordings and the binary they name are committed, so that the golden cases do not depend on
# this machine's perf, kernel or compiler. The binary is recorded at a fixed path, which the
# cases find under --symfs golden/perf-data/root.
#
#   tests/perf-data/record.sh
set -eu
cd "$(dirname "$0")/../.."
root=golden/perf-data/root
inputs=golden/perf-data/inputs
run=/tmp/proftools-perf-data
mkdir -p "$run" "$root$run" "$inputs"
g++ -O2 -g -fno-omit-frame-pointer -fno-shrink-wrap -fno-optimize-sibling-calls -pthread -o "$run/workload" tests/perf-data/workload.cc
cp "$run/workload" "$root$run/workload"
rm -f "$inputs"/*.data
record() {  # record NAME PERF-RECORD-OPTIONS...
  local name=$1
  shift
  perf record -q "$@" -o "$inputs/$name" -- "$run/workload" 20000000 >/dev/null
}
record fp.data -g -e cpu-clock -F 999
record no-callchain.data -e cpu-clock -F 999
record two-events.data -g -F 999 -e cpu-clock -e page-faults
record dwarf.data --call-graph dwarf,2048 -e cpu-clock -F 499
# Off-CPU time: three naps of 30 ms, each switch-out with its stack.
perf record -q -e sched:sched_switch -g -o "$inputs/naps.data" -- "$run/workload" nap >/dev/null
# Small enough for the fuzzer's seeds (8 KiB): a few samples.
perf record -q -g -e cpu-clock -c 1000000 -o "$inputs/tiny.data" -- "$run/workload" 2000000 >/dev/null
perf record -q -g -e cpu-clock -c 1000000 -o - -- "$run/workload" 2000000 >"$inputs/tiny-pipe.data"
# (and a pipe's tracing data, with sched_switch's format, near its start)
perf record -q -e sched:sched_switch -o - -- "$run/workload" nap >"$inputs/tiny-switch-pipe.data"
perf record -q -g -e cpu-clock -F 999 -o - -- "$run/workload" 20000000 >"$inputs/pipe.data"
ls -l "$inputs" "$root$run"
