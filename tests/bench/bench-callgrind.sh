#!/usr/bin/env bash
# Reading callgrind (issue 27): prof-text --top beside valgrind's own reader, callgrind_annotate,
# on a callgrind file of CALLGRIND_MB megabytes (default 200) made by
# tests/bench/make-callgrind.sh from a real recording (kept in build/bench-cache/). Each runs
# RUNS times (default 1: callgrind_annotate takes minutes on it), alternating; CPU times and
# their ratio. (prof2callgrind beside pprof -callgrind: bench-pprof-reports.sh.)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-callgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
if ! command -v callgrind_annotate >/dev/null; then
  echo "(callgrind_annotate missing: apt-get install valgrind)"
  exit 0
fi
cached_input input workload.callgrind tests/bench/make-callgrind.sh "${CALLGRIND_MB:-200}"
cat "$input" >/dev/null  # page cache warm for every run
echo "== $(basename "$input"): $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "${RUNS:-1}" "callgrind_annotate" "$input" "callgrind_annotate '$input' >/dev/null" \
  "prof-text --top" "$input" "prof-text --top '$input' >/dev/null" |
  awk '{ print; match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
       END { if (c[2] > 0) printf "  prof-text %.1fx faster in CPU time\n", c[1] / c[2] }' 
