#!/usr/bin/env bash
# Reading V8's tick log (issue 44; goal: 10x node --prof-process): `node --prof` of
# tests/v8log/workload.js at SCALE (default 10: about 2,000 ticks; V8 logs its builtins and
# bytecode handlers first, so a short run's log is mostly code-creation lines), then
# node --prof-process beside prof-text --top and prof-validate, RUNS times each (default 3),
# alternating; the run of median CPU time. Both read the libraries the log names (theirs through
# nm, ours through libelf).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-v8log.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/measure.sh
runs=${RUNS:-3}
command -v node >/dev/null || { echo "bench-v8log: SKIPPED: node is missing"; exit 0; }
(cd "$tmp" && node --prof "$OLDPWD/tests/v8log/workload.js" "${SCALE:-10}" >/dev/null)
log=$(ls "$tmp"/isolate-*-v8.log)
echo "== $(basename "$log"): $(awk -v b="$(stat -c %s "$log")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(grep -c '^tick,' "$log") ticks, node $(node --version)"
faster() {
  tee "$tmp/pair"
  awk '{ match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
       END { if (c[2] > 0) printf "  ours %.2fx as fast in CPU time\n", c[1] / c[2] }' "$tmp/pair"
}
side_by_side "$runs" "node --prof-process" "$log" "node --prof-process '$log' >/dev/null 2>&1" \
  "prof-text --top" "$log" "prof-text --top '$log' >/dev/null 2>&1" | faster
side_by_side "$runs" "node --prof-process" "$log" "node --prof-process '$log' >/dev/null 2>&1" \
  "prof-validate" "$log" "prof-validate '$log' >/dev/null 2>&1" | faster
