#!/usr/bin/env bash
# Reading Python's pstats (issue 44): `prof-text --top` on a cProfile file of PSTATS_FUNCTIONS
# functions (default 100,000; made by tests/bench/make-pstats.py, kept in build/bench-cache/)
# beside what a Python user types, `pstats.Stats(F).sort_stats("tottime").print_stats()` (the
# Debian python3's pstats: load and print the table), RUNS times each (default 3), alternating;
# the run of median CPU time of each. prof-validate alone is the reader's own cost.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-pstats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}
python=/usr/bin/python3  # Debian's, not a version manager's shim

cached_input input stats.pstats tests/bench/make-pstats.py "${PSTATS_FUNCTIONS:-100000}"
cat "$input" >/dev/null
echo "== $(basename "$input"): $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "pstats.Stats load + print_stats" "$input" \
  "$python -c 'import pstats, sys; pstats.Stats(sys.argv[1]).sort_stats(\"tottime\").print_stats()' '$input' >/dev/null" \
  "prof-text --top" "$input" "prof-text --top '$input' 2>/dev/null >/dev/null" | ratio
side_by_side "$runs" "pstats.Stats load" "$input" \
  "$python -c 'import pstats, sys; pstats.Stats(sys.argv[1])' '$input' >/dev/null" \
  "prof-validate" "$input" "prof-validate '$input' 2>/dev/null >/dev/null" | ratio
