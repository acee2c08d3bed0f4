#!/usr/bin/env bash
# gprof's recordings (issue 45: gmon ≥ 10× gprof): gprof2prof beside gprof -b (its flat profile
# and call graph, from the same executable and gmon.out), on two recordings of generated programs
# made by tests/bench/make-gprof.sh (kept in build/bench-cache/):
# - dense: GPROF_FUNCTIONS functions (default 4000; some 600 are reached), GPROF_CHAINS chains of
#   12 calls (default 2,000,000), each function calling one of the 50 after it: a small program
#   with a dense call graph, the case where building stacks from call arcs costs most
#   (gprof2prof's tree reaches its 200,000 nodes) and gprof has little to do;
# - large: GPROF_LARGE_FUNCTIONS functions (default 40,000, all reached), GPROF_LARGE_CHAINS
#   chains (default 400,000), each function calling one of the 3 after it: a program the size
#   of a real application's, where gprof's own cost grows faster than the number of functions.
# RUNS times each (default 3), alternating; the run of median CPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-gprof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}
# gprof's CPU time over ours (above 1: ours is faster).
faster() {
  tee "$tmp/pair"
  awk '{ match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
       END { if (c[2] > 0) printf "  ours %.2fx as fast in CPU time\n", c[1] / c[2] }' "$tmp/pair"
}
command -v gprof >/dev/null || { echo "bench-gprof: SKIPPED: gprof (binutils) is missing"; exit 0; }

# bench_recording LABEL FUNCTIONS CHAINS FANOUT STARTS
bench_recording() {
  local recording gmon exe
  cached_input recording "gprof-recording-$1" tests/bench/make-gprof.sh "$2" "$3" "$4" "$5"
  gmon=$recording/gmon.out exe=$recording/workload
  echo "== $1: gmon.out of $(basename "$exe"): $(awk -v b="$(stat -c %s "$gmon")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(gprof -b -p "$exe" "$gmon" | awk 'NF >= 7 && $4 ~ /^[0-9]+$/' | wc -l) functions called, $(gprof -b -q "$exe" "$gmon" | grep -c '^ .*\[[0-9]*\]$') call graph lines"
  side_by_side "$runs" "gprof -b" "$gmon" "gprof -b '$exe' '$gmon' >/dev/null" \
    "gprof2prof" "$gmon" "gprof2prof '$exe' '$gmon' 2>/dev/null >/dev/null" | faster
  side_by_side "$runs" "gprof -b -p (flat profile)" "$gmon" "gprof -b -p '$exe' '$gmon' >/dev/null" \
    "gprof2prof | prof-text --top" "$gmon" \
    "gprof2prof '$exe' '$gmon' 2>/dev/null | prof-text --top >/dev/null" | faster
}
bench_recording dense "${GPROF_FUNCTIONS:-4000}" "${GPROF_CHAINS:-2000000}" 50 100
bench_recording large "${GPROF_LARGE_FUNCTIONS:-40000}" "${GPROF_LARGE_CHAINS:-400000}" 3 0
