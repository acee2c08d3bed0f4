#!/usr/bin/env bash
# Our V8 .cpuprofile reader against speedscope's importer (issue 25: at least 10x faster), on
# the same generated profile (tests/bench/make-cpuprofile.py; SPEEDSCOPE_MB, default 5: speedscope runs out of memory on 20 MB), in
# the same run, alternating: ours is `prof-validate` (the registry's reader, the checker and a
# counting sink: reading and nothing else), speedscope's is the npm package (tests/web, make
# deps-web) in headless Chromium, from its file input's change event to the first frame drawn
# with the profile (tests/browser/check_speedscope.py time), CPU time of every Chromium process
# meanwhile. Medians of RUNS (default 3). Skips, saying why, without chromium or speedscope.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/measure.sh
source tests/bench/cache.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=${RUNS:-3}
mb=${SPEEDSCOPE_MB:-5}
index=$PWD/tests/web/node_modules/speedscope/dist/release/index.html
if ! command -v chromium >/dev/null || [ ! -f "$index" ]; then
  echo "bench-speedscope: SKIP: needs chromium and speedscope (make deps-test deps-web)"
  exit 0
fi
cached_input profile "cpuprofile-$mb" tests/bench/make-cpuprofile.py "$mb"
ln -sf "$PWD/$profile" "$tmp/big.cpuprofile"  # speedscope reads the name's extension
echo "input: $(stat -c %s "$profile") bytes, $(prof-text "$profile" | sed -n 2p)"
: >"$tmp/ours"
: >"$tmp/speedscope"
for ((i = 0; i < runs; i++)); do
  measure "prof-validate (ours)" "$profile" "prof-validate $profile >/dev/null" >>"$tmp/ours"
  (cd tests/browser && python3 check_speedscope.py time "$index" "$tmp/big.cpuprofile" 1) |
    sed -n 1p >>"$tmp/speedscope"
done
cat "$tmp/ours"
awk '{ print "speedscope import to first frame: " $1 " ms wall, cpu " $2 " s" }' "$tmp/speedscope"
ours_cpu=$(awk '{ match($0, /cpu +[0-9.]+/); print substr($0, RSTART + 4, RLENGTH - 4) + 0 }' \
  "$tmp/ours" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')
ours_wall=$(awk '{ match($0, /MB +[0-9.]+ s/); print substr($0, RSTART + 3, RLENGTH - 5) + 0 }' \
  "$tmp/ours" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')
their_cpu=$(cut -f2 "$tmp/speedscope" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')
their_wall=$(cut -f1 "$tmp/speedscope" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')
awk -v oc="$ours_cpu" -v ow="$ours_wall" -v tc="$their_cpu" -v tw="$their_wall" -v n="$runs" 'BEGIN {
  printf "medians of %d: ours %.2f s wall, %.2f s cpu; speedscope %.2f s wall, %.2f s cpu: %.1fx wall, %.1fx cpu\n",
    n, ow, oc, tw / 1000, tc, (tw / 1000) / ow, tc / oc }'
