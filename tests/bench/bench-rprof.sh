#!/usr/bin/env bash
# rprof2prof throughput and peak memory on large Rprof files made from the corpus of real R
# output (golden/rprof/corpus) in a scratch directory, removed afterwards:
#
#   one-session   one long run with memory, GC and line profiling: the bodies of three real
#                 files repeated (realistic: a long run repeats its stacks)
#   all-modes     the whole corpus (every mode, appended runs, odd names, deep stacks)
#                 concatenated many times: thousands of sessions, caches restarted at each
#   distinct      a synthetic worst case: every sample line a different stack
#
# Each is converted from the file (-o, as a build step would) and, for one-session, from a pipe
# (the input is then spooled to $TMPDIR). When prof2pprof is built, rprof2prof | prof2pprof too.
# The R profile package cannot run here; its published figure is printed beside ours.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
corpus=golden/rprof/corpus
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-rprof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
target_mb=${BENCH_RPROF_MB:-150}

# Repeats $1 into $2 until it holds about target_mb MB.
repeat_to_size() {
  local size copies
  size=$(stat -c %s "$1")
  copies=$(((target_mb * 1000000 + size - 1) / size))
  for _ in $(seq "$copies"); do cat "$1"; done >"$2"
}

{
  echo 'memory profiling: GC profiling: line profiling: sample.interval=1000'
  echo '#File 1: /home/user/rproj/workloads.R'
} >"$tmp/one-session.head"
for name in closures_all memory_all recursion_all; do
  zcat "$corpus/$name.out.gz" | grep -v -e '^#File' -e '^memory profiling'
done >"$tmp/one-session.body"
repeat_to_size "$tmp/one-session.body" "$tmp/one-session.rest"
cat "$tmp/one-session.head" "$tmp/one-session.rest" >"$tmp/one-session.out"
rm "$tmp/one-session.body" "$tmp/one-session.rest"

for f in "$corpus"/*.out.gz; do zcat "$f"; done >"$tmp/corpus.out"
repeat_to_size "$tmp/corpus.out" "$tmp/all-modes.out"

awk -v mb="$target_mb" 'BEGIN {
  srand(42)
  print "memory profiling: line profiling: sample.interval=1000"
  print "#File 1: /home/user/a.R"; print "#File 2: /home/user/b.R"
  while (bytes < mb * 1000000) {
    line = ":" int(rand() * 1e6) ":" int(rand() * 1e6) ":" int(rand() * 1e8) ":" int(rand() * 9) ":"
    depth = 5 + int(rand() * 40)
    for (j = 0; j < depth; j++)
      line = line (1 + int(rand() * 2)) "#" int(rand() * 200) " \"f" int(rand() * 50) "\" "
    print line; bytes += length(line) + 1
  }
}' >"$tmp/distinct.out"

source tests/bench/measure.sh

samples=$(grep -c -v -e '^#File' -e 'sample.interval=' "$tmp/one-session.out")
echo "one-session: $samples sample lines; all-modes: $(grep -c 'sample.interval=' "$tmp/all-modes.out") sessions"
measure "cat one-session > FILE (the I/O floor)" "$tmp/one-session.out" \
  "cat '$tmp/one-session.out' > '$tmp/copy'"
rm -f "$tmp/copy"
measure "rprof2prof one-session -o FILE" "$tmp/one-session.out" \
  "rprof2prof -o '$tmp/out.prof' '$tmp/one-session.out'"
measure "cat one-session | rprof2prof > FILE (spooled)" "$tmp/one-session.out" \
  "cat '$tmp/one-session.out' | rprof2prof > '$tmp/out.prof'"
measure "rprof2prof all-modes -o FILE" "$tmp/all-modes.out" \
  "rprof2prof -o '$tmp/out.prof' '$tmp/all-modes.out' 2>'$tmp/warnings'"
measure "rprof2prof distinct -o FILE (worst case)" "$tmp/distinct.out" \
  "rprof2prof -o '$tmp/out.prof' '$tmp/distinct.out'"
if command -v prof2pprof >/dev/null 2>&1; then
  measure "rprof2prof one-session | prof2pprof -o FILE" "$tmp/one-session.out" \
    "rprof2prof '$tmp/one-session.out' | prof2pprof -o '$tmp/out.pb.gz'"
else
  echo "(prof2pprof not built: rprof2prof | prof2pprof not measured)"
fi
echo "R profile package read_rprof + write_pprof (published in BRIEF.md, not run here):"
echo "                                                  6.2 MB  16.40 s     0.4 MB/s                peak RSS  557.0 MB"
