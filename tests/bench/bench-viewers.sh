#!/usr/bin/env bash
# The viewers' formats both ways (issue 26): prof2speedscope and prof2firefox on the generated
# 1,000,000-sample profile (prof text; aim: 2 s each), and their output read back (prof-validate:
# the registry's reader, the checker and a counting sink) beside simdjson's parse-only pass over
# the same file (build/test-bin/json-floor; aim: within 2.5x). RUNS (default 3) alternating runs,
# the run of median CPU time shown.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-viewers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/measure.sh
runs=${RUNS:-3}
gen-profile --samples 1000000 --seed 1 -o "$tmp/in.prof"
echo "input: generated, 1,000,000 samples, 50,000 stacks (prof text, $(stat -c %s "$tmp/in.prof") bytes)"
for writer in prof2speedscope prof2firefox; do
  side_by_side "$runs" "cat (prof text)" "$tmp/in.prof" "cat '$tmp/in.prof' >/dev/null" \
    "$writer" "$tmp/in.prof" "$writer '$tmp/in.prof' -o '$tmp/$writer.json' 2>/dev/null"
  side_by_side "$runs" "json-floor (simdjson, parse only)" "$tmp/$writer.json" \
    "json-floor '$tmp/$writer.json' >/dev/null" \
    "prof-validate (its output)" "$tmp/$writer.json" "prof-validate '$tmp/$writer.json' 2>/dev/null" |
    ratio
done
