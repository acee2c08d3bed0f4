#!/usr/bin/env bash
# folded2prof throughput and peak memory on folded stacks shaped like a large C++ service's
# (tests/bench/make-folded.sh: long template names, 20 to 60 frames deep, 50,000 distinct
# stacks; FOLDED_MB megabytes, default 500, made once and kept in build/bench-cache/). Each
# command runs RUNS times (default 3); the figures are the runs of median CPU time.
# Beside it, when FLAMEGRAPH_PL=/path/to/flamegraph.pl is set (FlameGraph is not in Debian):
# the flame graph of the same file by `folded2prof | prof-svg` and by flamegraph.pl.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-folded.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}
mb=${FOLDED_MB:-500}

cached_input input folded.txt tests/bench/make-folded.sh "$mb"
$cached_input_reused && echo "input: $input (cached)" || echo "input: made by tests/bench/make-folded.sh, cached as $input"
cat "$input" >/dev/null  # page cache warm for every run
echo "== folded: $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(wc -l <"$input") lines"

# median LABEL COMMAND: RUNS runs, the one of median CPU time printed.
median() {
  : >"$tmp/runs"
  for _ in $(seq "$runs"); do measure "$1" "$input" "$2" >>"$tmp/runs"; done
  awk '{ match($0, /cpu +[0-9.]+/); print substr($0, RSTART + 4, RLENGTH - 4) + 0 "\t" $0 }' \
    "$tmp/runs" | sort -n -k1,1 | awk -v n="$runs" 'NR == int((n + 1) / 2)' | cut -f2-
}

median "folded2prof -o FILE" "folded2prof -o '$tmp/out.prof' '$input'"
median "cat | folded2prof > FILE" "cat '$input' | folded2prof > '$tmp/out2.prof'"
echo "  profile: $(grep -c '^sample' "$tmp/out.prof") samples, $(grep -c '^stack' "$tmp/out.prof") stacks, $(grep -c '^function' "$tmp/out.prof") functions"

peer=${FLAMEGRAPH_PL:-}
if [ -z "$peer" ]; then
  echo "flamegraph.pl: skipped (set FLAMEGRAPH_PL to a copy of FlameGraph's script)"
elif ! command -v perl >/dev/null 2>&1; then
  echo "flamegraph.pl: skipped (perl is not installed)"
elif [ ! -r "$peer" ]; then
  echo "flamegraph.pl: skipped (cannot read $peer)"
else
  side_by_side "$runs" "folded2prof | prof-svg" "$input" \
    "folded2prof '$input' | prof-svg > '$tmp/ours.svg'" \
    "flamegraph.pl" "$input" "perl '$peer' '$input' > '$tmp/theirs.svg'"
fi
