#!/usr/bin/env bash
# The Chrome readers (common/chrome/) against simdjson's own parse-only pass over the same file
# (build/test-bin/json-floor: On-Demand, every value touched, nothing kept), on a trace of
# TRACE_MB megabytes (default 300) made from Chromium's real trace of golden/chrome's page and a
# .cpuprofile of CPUPROFILE_MB (default 100) made from node's real one
# (tests/bench/make-chrome.py: the recordings' events or samples repeated as one long
# recording; made once, kept in build/bench-cache/). Each pair runs RUNS times (default 3),
# alternating, so that both see the same load; the figures are the runs of median CPU time, and
# the ratio is of those CPU times. Three conversions: prof-validate (read and check: the reader's
# own cost), prof-text --canonical -o (to prof text, whose lines are longer than the JSON's
# numbers: the writer's cost too) and prof2pprof -o (to gzipped pprof).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-chrome.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}
inputs=golden/chrome/inputs
sum() { sha256sum "$1" | cut -c1-16; }

json-floor --implementations
cached_input trace chrome-trace.json tests/bench/make-chrome.py trace "${TRACE_MB:-300}" \
  "$(sum $inputs/page.trace.json)"
cached_input cpuprofile chrome.cpuprofile tests/bench/make-chrome.py cpuprofile \
  "${CPUPROFILE_MB:-100}" "$(sum $inputs/app.cpuprofile)"

for input in "$trace" "$cpuprofile"; do
  cat "$input" >/dev/null  # page cache warm for every run
  echo "== $(basename "$input"): $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
  side_by_side "$runs" "json-floor (simdjson, parse only)" "$input" "json-floor '$input' >/dev/null" \
    "prof-validate" "$input" "prof-validate '$input' >/dev/null" | ratio
  side_by_side "$runs" "json-floor (simdjson, parse only)" "$input" "json-floor '$input' >/dev/null" \
    "prof-text --canonical -o FILE" "$input" "prof-text --canonical '$input' -o '$tmp/out.prof'" | ratio
  echo "  prof text: $(awk -v b="$(stat -c %s "$tmp/out.prof")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(grep -c '^sample' "$tmp/out.prof") samples"
  side_by_side "$runs" "json-floor (simdjson, parse only)" "$input" "json-floor '$input' >/dev/null" \
    "prof2pprof -o FILE" "$input" "prof2pprof '$input' -o '$tmp/out.pb.gz'" | ratio
done
