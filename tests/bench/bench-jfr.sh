#!/usr/bin/env bash
# Reading JFR (issue 28): jfr2prof (to prof text) and prof-validate (read and check: the reader's
# own cost) on a recording of JFR_MB megabytes (default 100) made by tests/bench/make-jfr.sh
# from a real recording (kept in build/bench-cache/), beside `cat` (the floor: reading the bytes)
# and beside the JDK's own reader, `jfr print --json` (openjdk-17). The pairs with cat run RUNS
# times (default 3), alternating, and show the run of median CPU time; the JDK's reader runs
# once (it takes a minute or more), then jfr2prof once beside it. MB/s by CPU time and by wall time
# (the JVM's CPU time counts its every thread: its wall time is the fairer figure for it).
# When the JDK cannot read the big file within JDK_TIMEOUT seconds (default 600), it is measured
# on a recording of 10 MB made the same way, and the output says so.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-jfr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
source tests/bench/measure.sh
runs=${RUNS:-3}

cached_input input rec.jfr tests/bench/make-jfr.sh "${JFR_MB:-100}"
cat "$input" >/dev/null  # page cache warm for every run
echo "== $(basename "$input"): $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
side_by_side "$runs" "cat (the floor)" "$input" "cat '$input' >/dev/null" \
  "jfr2prof >/dev/null" "$input" "jfr2prof '$input' 2>/dev/null >/dev/null" | ratio
side_by_side "$runs" "cat (the floor)" "$input" "cat '$input' >/dev/null" \
  "prof-validate" "$input" "prof-validate '$input' 2>/dev/null >/dev/null" | ratio

if ! command -v jfr >/dev/null; then
  echo "(jfr missing: apt-get install openjdk-17-jdk-headless)"
  exit 0
fi
# The JDK's reader once (it takes a minute or more), bounded: `timeout` ends it and its JVM.
jdk="jfr print --json (openjdk-17)"
peer=$tmp/rec.jfr  # jfr reads only names that end in .jfr
ln -s "$(realpath "$input")" "$peer"
measure "$jdk" "$input" \
  "timeout ${JDK_TIMEOUT:-600} jfr print --json '$peer' >/dev/null 2>'$tmp/jdk.err' || touch '$tmp/failed'" >"$tmp/jdk"
if [ -e "$tmp/failed" ]; then
  echo "  (jfr print --json did not finish on $(basename "$input") within ${JDK_TIMEOUT:-600} s:" \
    "both measured on a 10 MB recording made the same way; $(head -c 200 "$tmp/jdk.err"))"
  input=$tmp/small.jfr peer=$tmp/small.jfr
  tests/bench/make-jfr.sh "$peer" 10
  measure "$jdk" "$peer" "jfr print --json '$peer' >/dev/null" >"$tmp/jdk"
fi
{
  cat "$tmp/jdk"
  measure "jfr2prof >/dev/null" "$input" "jfr2prof '$peer' 2>/dev/null >/dev/null"
} | awk '{ print; match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0
           match($0, /MB +[0-9.]+ s/); w[NR] = substr($0, RSTART + 3, RLENGTH - 5) + 0 }
         END { if (c[2] > 0 && w[2] > 0)
                 printf "  jfr2prof %.1fx faster in CPU time, %.1fx in wall time\n", c[1] / c[2], w[1] / w[2] }'
