#!/usr/bin/env bash
# perf2prof throughput and peak memory on two large `perf script` texts, beside FlameGraph's
# stackcollapse-perf.pl in the same run: each command runs RUNS times (default 3), alternating
# with the peer; the figures are medians (wall, and CPU = user + system, which varies less on a
# busy machine), and the ratio is the peer's median over ours.
#
# Inputs, each made once and kept in build/bench-cache/ (tests/bench/cache.sh: made again only
# when the script that makes it changes):
#   1. real: $PERF_BIG when set, else ../shared/tools/make-big-perf.sh (about 300 MiB of
#      perf record -g output of a multi-threaded C++ load program; about 5 minutes to make);
#   2. captures: tests/bench/make-perf-captures.sh, the perf 6.1 captures of
#      golden/perf/corpus/local repeated to 300 MB (DWARF call graphs with inlined frames, C++
#      template names, three events: few distinct stacks).
# Peer: STACKCOLLAPSE_PERF=/path/to/stackcollapse-perf.pl (FlameGraph's script is not in
# Debian and is not shipped here); without it, or without perl, its rows are skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-perf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
runs=${RUNS:-3}

# run LABEL COMMAND: one run (a bash command line); appends "wall cpu rss_kib" to LABEL's runs.
run() {
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" bash -c "$2"
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >>"$tmp/$1.runs"
}
median() { sort -n -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
# report LABEL INPUT: medians of LABEL's runs.
report() {
  local f="$tmp/$1.runs"
  awk -v l="$1" -v b="$(stat -c %s "$2")" -v w="$(median "$f" 1)" -v c="$(median "$f" 2)" \
    -v r="$(median "$f" 3)" 'BEGIN { printf "%-44s %6.2f s %7.1f MB/s  cpu %6.2f s %7.1f MB/s  peak RSS %6.1f MB\n",
      l, w, (w > 0 ? b / 1e6 / w : 0), c, (c > 0 ? b / 1e6 / c : 0), r / 1024 }'
}
# ratio OURS PEER: the peer's medians over ours, wall and CPU.
ratio() {
  awk -v ow="$(median "$tmp/$1.runs" 1)" -v oc="$(median "$tmp/$1.runs" 2)" \
    -v pw="$(median "$tmp/$2.runs" 1)" -v pc="$(median "$tmp/$2.runs" 2)" \
    'BEGIN { printf "%-44s %6.1fx wall, %5.1fx CPU\n", "  stackcollapse-perf.pl / perf2prof", pw / ow, pc / oc }'
}

peer=${STACKCOLLAPSE_PERF:-}
if [ -z "$peer" ]; then
  echo "stackcollapse-perf.pl: skipped (set STACKCOLLAPSE_PERF to a copy of FlameGraph's script)"
elif ! command -v perl >/dev/null 2>&1; then
  echo "stackcollapse-perf.pl: skipped (perl is not installed)"; peer=
elif [ ! -r "$peer" ]; then
  echo "stackcollapse-perf.pl: skipped (cannot read $peer)"; peer=
fi

# bench NAME INPUT: ours and the peer, alternating.
bench() {
  local name=$1 input=$2
  cat "$input" >/dev/null  # page cache warm for every run
  echo "== $name: $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $(wc -l <"$input") lines"
  for _ in $(seq "$runs"); do
    run "$name perf2prof -o FILE" "perf2prof -o '$tmp/out.prof' '$input'"
    [ -n "$peer" ] && run "$name stackcollapse-perf.pl" "perl '$peer' '$input' > '$tmp/perl.folded' 2>/dev/null"
    run "$name cat | perf2prof > FILE" "cat '$input' | perf2prof > '$tmp/out2.prof'"
    run "$name perf2prof | prof-text --folded" "perf2prof '$input' | prof-text --folded --flamegraph > '$tmp/ours.folded'"
  done
  report "$name perf2prof -o FILE" "$input"
  [ -n "$peer" ] && report "$name stackcollapse-perf.pl" "$input" && ratio "$name perf2prof -o FILE" "$name stackcollapse-perf.pl"
  report "$name cat | perf2prof > FILE" "$input"
  report "$name perf2prof | prof-text --folded" "$input"
  [ -n "$peer" ] && ratio "$name perf2prof | prof-text --folded" "$name stackcollapse-perf.pl"
  echo "  profile: $(grep -c '^sample' "$tmp/out.prof") samples, $(grep -c '^stack' "$tmp/out.prof") stacks, $(grep -c '^location' "$tmp/out.prof") locations; folded: $(wc -l <"$tmp/ours.folded") lines"
}

generator=${MAKE_BIG_PERF:-../shared/tools/make-big-perf.sh}
if [ -n "${PERF_BIG:-}" ]; then
  bench real "$PERF_BIG"
elif [ -x "$generator" ] && command -v perf >/dev/null 2>&1; then
  cached_input real big-perf.txt "$generator" 300 30 >"$tmp/generate.log" 2>&1 || {
    echo "make-big-perf.sh failed:"; tail -5 "$tmp/generate.log"; exit 1; }
  $cached_input_reused && echo "real: $real (cached)" || echo "real: made by $generator, cached as $real"
  bench real "$real"
else
  echo "real: skipped (no generator at $generator, or no perf)"
fi
cached_input captures perf-captures.txt tests/bench/make-perf-captures.sh 300
$cached_input_reused && echo "captures: $captures (cached)" || echo "captures: made, cached as $captures"
bench captures "$captures"
