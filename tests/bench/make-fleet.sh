#!/usr/bin/env bash
# make-fleet.sh OUTPUT [PARTS COPIES]: issue 29's fleet, as a tar of pprof profiles: a real perf
# recording of cc1plus compiling common/cli/text_report.cc (perf record -g at 2500 Hz, about
# 10,000 samples, many distinct stacks), its `perf script` output split into PARTS parts by
# sample (sample k to part k mod PARTS; default 16), each part converted (perf2prof |
# prof2pprof), and the parts copied COPIES times (default 10) as hosts host0... (issue 46 #17's
# fleet of small profiles: 24 parts of about 400 samples, 7 copies: 168 profiles). Needs perf
# and the programs in bin/; made once and cached by tests/bench/cache.sh (a recording differs
# from run to run: the cache keeps one).
set -euo pipefail
out=$1
parts=${2:-16}
copies=${3:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/make-fleet.XXXXXX")
trap 'rm -rf "$work"' EXIT
perf record -q -g -F 2500 -o "$work/perf.data" -- \
  g++ -std=c++17 -O2 -I"$root" -isystem "$root/build/gen" -c "$root/common/cli/text_report.cc" \
  -o "$work/text_report.o" \
  >/dev/null 2>&1
perf script -i "$work/perf.data" 2>/dev/null >"$work/perf.txt"
awk -v dir="$work" -v parts="$parts" 'BEGIN { RS = ""; ORS = "\n\n" }
  { print > sprintf("%s/part%03d.txt", dir, (NR - 1) % parts) }' \
  "$work/perf.txt"
mkdir "$work/fleet"
for part in "$work"/part*.txt; do
  name=$(basename "$part" .txt)
  "$root/bin/perf2prof" "$part" 2>/dev/null | "$root/bin/prof2pprof" -o "$work/$name.pb.gz"
  for ((host = 0; host < copies; ++host)); do
    cp "$work/$name.pb.gz" "$work/fleet/host$host-$name.pb.gz"
  done
done
tar -C "$work/fleet" -cf "$out" .
