#!/usr/bin/env bash
# Records golden/valgrind/inputs/ again: heap_workload.c (built here, -O0 so that its mallocs
# and frees stay calls) under valgrind's massif and DHAT. Run by hand; the recordings are
# committed, so that the golden cases do not depend on this machine's valgrind, libc or
# compiler (tests/interop-valgrind.sh records afresh and compares with ms_print and DHAT).
#
#   tests/valgrind/record.sh
set -eu
cd "$(dirname "$0")/../.."
inputs=golden/valgrind/inputs
run=/tmp/proftools-valgrind
mkdir -p "$run" "$inputs"
gcc -O0 -g -o "$run/heap_workload" tests/valgrind/heap_workload.c
cd "$run"
valgrind -q --tool=massif --massif-out-file=massif.out ./heap_workload
valgrind -q --tool=massif --time-unit=B --detailed-freq=4 --massif-out-file=massif-B.out \
  ./heap_workload
valgrind -q --tool=dhat --dhat-out-file=dhat.json ./heap_workload 2>/dev/null
valgrind -q --tool=dhat --mode=copy --dhat-out-file=dhat-copy.json ./heap_workload 2>/dev/null
cd - >/dev/null
cp "$run"/massif.out "$run"/massif-B.out "$run"/dhat.json "$run"/dhat-copy.json "$inputs"/
