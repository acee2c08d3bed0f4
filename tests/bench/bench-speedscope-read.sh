#!/usr/bin/env bash
# The speedscope reader (common/speedscope/) against simdjson's own parse-only pass over the same
# file (build/test-bin/json-floor: On-Demand, every value touched, nothing kept), on a speedscope
# file of SPEEDSCOPE_READ_MB megabytes (default 200) made by tests/bench/make-speedscope.py (a
# sampled and an evented profile, about half the bytes each; made once, kept in
# build/bench-cache/). Each pair runs RUNS times (default 3), alternating, so that both see the
# same load; the figures are the runs of median CPU time, and the ratio is of those CPU times.
# Two conversions: prof-validate (read and check: the reader's own cost) and prof-text
# --canonical -o (to prof text: the writer's cost too); then prof2speedscope of that text back
# to a speedscope file.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-speedscope-read.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}

json-floor --implementations
cached_input input speedscope.json tests/bench/make-speedscope.py "${SPEEDSCOPE_READ_MB:-200}"

cat "$input" >/dev/null  # page cache warm for every run
echo "== $(basename "$input"): $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "json-floor (simdjson, parse only)" "$input" "json-floor '$input' >/dev/null" \
  "prof-validate" "$input" "prof-validate '$input' >/dev/null" | ratio
side_by_side "$runs" "json-floor (simdjson, parse only)" "$input" "json-floor '$input' >/dev/null" \
  "prof-text --canonical -o FILE" "$input" "prof-text --canonical '$input' -o '$tmp/out.prof'" | ratio
echo "  prof text: $(awk -v b="$(stat -c %s "$tmp/out.prof")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(grep -c '^sample' "$tmp/out.prof") samples"
measure "prof2speedscope -o FILE (of that text)" "$tmp/out.prof" \
  "prof2speedscope '$tmp/out.prof' -o '$tmp/back.json' 2>/dev/null"
