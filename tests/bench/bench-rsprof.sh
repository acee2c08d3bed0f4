#!/usr/bin/env bash
# Reading rsprof's database (issue 45): rsprof's own "top CPU" query (its storage design,
# ../shared/background/002, section 7.5) run by sqlite3, beside prof-text --granularity lines
# (the same rows: file, line, function, samples) and prof-validate (the whole database read and
# checked), on a database written by prof2sqlite --schema rsprof --checkpoint 10ms from the
# generated 1,000,000-sample profile (gen-profile: rsprof keeps leaf addresses, so about a
# million cpu_samples rows over 105,000 checkpoints and 18,000 symbols, 44 MB). RUNS times each
# (default 3), alternating; the run of median CPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-rsprof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/measure.sh
runs=${RUNS:-3}
command -v sqlite3 >/dev/null || { echo "bench-rsprof: SKIPPED: sqlite3 is missing"; exit 0; }

gen-profile --samples 1000000 -o "$tmp/big.prof"
prof2sqlite --schema rsprof --checkpoint 10ms -o "$tmp/rs.db" "$tmp/big.prof" 2>/dev/null
db=$tmp/rs.db
echo "== rsprof database: $(awk -v b="$(stat -c %s "$db")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(sqlite3 "$db" 'SELECT COUNT(*) FROM cpu_samples') cpu_samples rows"
# rsprof's CPU time over ours (above 1: ours is faster).
faster() {
  tee "$tmp/pair"
  awk '{ match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
       END { if (c[2] > 0) printf "  ours %.2fx as fast in CPU time\n", c[1] / c[2] }' "$tmp/pair"
}
query="SELECT s.file, s.line, s.function, SUM(c.count) as samples FROM cpu_samples c
  JOIN symbols s ON c.addr = s.addr GROUP BY c.addr ORDER BY samples DESC"
side_by_side "$runs" "sqlite3, rsprof's top CPU query" "$db" "sqlite3 '$db' '$query' >/dev/null" \
  "prof-text --granularity lines" "$db" "prof-text --granularity lines '$db' >/dev/null" | faster
side_by_side "$runs" "sqlite3, rsprof's top CPU query" "$db" "sqlite3 '$db' '$query' >/dev/null" \
  "prof-validate" "$db" "prof-validate '$db' >/dev/null" | faster
