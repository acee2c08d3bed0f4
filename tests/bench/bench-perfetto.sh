#!/usr/bin/env bash
# Reading Perfetto traces (issue 45: at least 200 MB/s on a 100 MB trace): prof-validate (the
# reader and the format's checks) and prof-text --top beside the floor, `cat` of the same file
# (no peer reads Perfetto traces here: trace_processor is not a Debian package), on a trace of
# PERFETTO_MB megabytes (default 100) of Android perf samples made by
# tests/bench/make-perfetto.py (kept in build/bench-cache/). RUNS times each (default 3),
# alternating; the run of median CPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-perfetto.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}

cached_input trace perfetto.pftrace tests/bench/make-perfetto.py "${PERFETTO_MB:-100}"
cat "$trace" >/dev/null
echo "== $(basename "$trace"): $(awk -v b="$(stat -c %s "$trace")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "cat (the floor)" "$trace" "cat '$trace' >/dev/null" \
  "prof-validate" "$trace" "prof-validate '$trace' 2>/dev/null >/dev/null" | ratio
side_by_side "$runs" "cat (the floor)" "$trace" "cat '$trace' >/dev/null" \
  "prof-text --top" "$trace" "prof-text --top '$trace' 2>/dev/null >/dev/null" | ratio
