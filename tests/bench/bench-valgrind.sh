#!/usr/bin/env bash
# Reading valgrind's heap profilers (issue 45): massif's output beside ms_print (valgrind's own
# report, Perl), and DHAT's JSON beside the simdjson parse floor (build/test-bin/json-floor: no
# peer prints DHAT files here; its viewer is a web page), on files made by
# tests/bench/make-valgrind.py (kept in build/bench-cache/): massif, MASSIF_SNAPSHOTS detailed
# snapshots (default 100) of 400 sites 12 callers deep; DHAT, DHAT_POINTS program points (default
# 200,000) of 12 frames. RUNS times each (default 3), alternating; the run of median CPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}

cached_input massif massif.out tests/bench/make-valgrind.py massif "${MASSIF_SNAPSHOTS:-100}" 400 12
cat "$massif" >/dev/null
echo "== $(basename "$massif"): $(awk -v b="$(stat -c %s "$massif")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "ms_print" "$massif" "ms_print '$massif' >/dev/null" \
  "prof-text --top" "$massif" "prof-text --top '$massif' 2>/dev/null >/dev/null" | ratio

cached_input dhat dhat.json tests/bench/make-valgrind.py dhat "${DHAT_POINTS:-200000}" 12
cat "$dhat" >/dev/null
echo "== $(basename "$dhat"): $(awk -v b="$(stat -c %s "$dhat")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "json-floor (simdjson, parse only)" "$dhat" "json-floor '$dhat' >/dev/null" \
  "prof-validate" "$dhat" "prof-validate '$dhat' 2>/dev/null >/dev/null" | ratio
side_by_side "$runs" "json-floor (simdjson, parse only)" "$dhat" "json-floor '$dhat' >/dev/null" \
  "prof-text --top" "$dhat" "prof-text --top '$dhat' 2>/dev/null >/dev/null" | ratio
