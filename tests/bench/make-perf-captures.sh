#!/usr/bin/env bash
# make-perf-captures.sh OUTPUT [TARGET_MB]: the perf 6.1 captures of golden/perf/corpus/local
# (frame-pointer, DWARF with inlined frames, several events: C++ with long template names,
# std::function, lambdas) concatenated and repeated to TARGET_MB (default 300) MB: the second
# input of tests/bench/bench-perf.sh, deterministic, cached by tests/bench/cache.sh.
set -euo pipefail
out=$1
target=${2:-300}
cd "$(dirname "$0")/../.."
one=$(mktemp)
trap 'rm -f "$one"' EXIT
for f in golden/perf/corpus/local/perf61-{fp-default,dwarf,multi-event}.txt.gz; do
  zcat "$f"
  echo
done >"$one"
size=$(stat -c %s "$one")
for _ in $(seq $((target * 1000000 / size + 1))); do cat "$one"; done >"$out"
