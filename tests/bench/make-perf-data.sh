#!/usr/bin/env bash
# make-perf-data.sh OUTPUT KIND: a perf.data recording of bigload (../shared/corpus/perf/local/
# bigload.cpp: threads, deep and mutual recursion, templates, libstdc++, libc, libm, syscalls),
# for tests/bench/bench-perf-data.sh, cached by tests/bench/cache.sh. KIND is
#   fp      perf record -g -F 9999 -e cpu-clock, 12 s: about 30 MB;
#   dwarf   perf record --call-graph dwarf -F 249 -e cpu-clock, 5 s: about 2,500 samples.
# The binary is built in build/bench-cache/perf-data-bin/, which the recording names, and stays
# there: perf script and perf2prof both symbolise it.
set -euo pipefail
out=$1
kind=$2
cd "$(dirname "$0")/../.."
source=${BIGLOAD:-../shared/corpus/perf/local/bigload.cpp}
bin=$PWD/${BENCH_CACHE:-build/bench-cache}/perf-data-bin
mkdir -p "$bin"
g++ -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread -o "$bin/bigload" "$source"
case $kind in
  fp) perf record -q -g -e cpu-clock -F 9999 -o "$out" -- "$bin/bigload" 12 >/dev/null ;;
  dwarf) perf record -q --call-graph dwarf -e cpu-clock -F 249 -o "$out" -- "$bin/bigload" 5 >/dev/null ;;
  *) echo "make-perf-data.sh: KIND is fp or dwarf" >&2; exit 2 ;;
esac
