#!/usr/bin/env bash
# The main job from a perf.data file: `perf2prof rec.data` (read and symbolised here) beside
# `perf script -i rec.data | perf2prof` (perf's reading and symbolisation, then the text), in
# the same run, alternating, RUNS times (default 3); medians of wall and CPU (user + system)
# time and peak RSS. Two recordings of bigload (tests/bench/make-perf-data.sh, cached): frame
# pointers (about 30 MB) and --call-graph dwarf (about 2,500 samples). Needs perf, and
# permission to record.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-perf-data.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
runs=${RUNS:-3}

if ! command -v perf >/dev/null 2>&1 || [ ! -r "${BIGLOAD:-../shared/corpus/perf/local/bigload.cpp}" ]; then
  echo "perf.data: skipped (needs perf and ../shared/corpus/perf/local/bigload.cpp)"
  exit 0
fi

run() {  # run LABEL COMMAND: one run; appends "wall cpu rss_kib" to LABEL's runs
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" bash -c "$2"
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >>"$tmp/$1.runs"
}
median() { sort -n -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
report() {  # report LABEL
  local f="$tmp/$1.runs"
  awk -v l="$1" -v w="$(median "$f" 1)" -v c="$(median "$f" 2)" -v r="$(median "$f" 3)" \
    'BEGIN { printf "%-44s %6.2f s wall  %6.2f s cpu  peak RSS %6.1f MB\n", l, w, c, r / 1024 }'
}
ratio() {  # ratio OURS PEER
  awk -v ow="$(median "$tmp/$1.runs" 1)" -v oc="$(median "$tmp/$1.runs" 2)" \
    -v pw="$(median "$tmp/$2.runs" 1)" -v pc="$(median "$tmp/$2.runs" 2)" \
    'BEGIN { printf "  %-42s %6.1fx wall, %5.1fx CPU\n", "perf script | perf2prof / perf2prof", pw / ow, pc / oc }'
}

for kind in fp dwarf; do
  cached_input rec "perf-$kind.data" tests/bench/make-perf-data.sh "$kind" >"$tmp/make.log" 2>&1 || {
    echo "perf.data $kind: skipped (recording failed: $(tail -1 "$tmp/make.log"))"; continue; }
  cat "$rec" >/dev/null
  echo "== perf.data $kind: $(awk -v b="$(stat -c %s "$rec")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
  for _ in $(seq "$runs"); do
    run "$kind perf2prof rec.data" "perf2prof '$rec' -o '$tmp/ours.prof' 2>/dev/null"
    run "$kind perf script | perf2prof" "perf script -i '$rec' 2>/dev/null | perf2prof -o '$tmp/perf.prof'"
  done
  report "$kind perf2prof rec.data"
  report "$kind perf script | perf2prof"
  ratio "$kind perf2prof rec.data" "$kind perf script | perf2prof"
  echo "  profile: $(grep -c '^sample' "$tmp/ours.prof") samples, $(grep -c '^stack' "$tmp/ours.prof") stacks, $(grep -c '^location' "$tmp/ours.prof") locations"
done
