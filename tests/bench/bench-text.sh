#!/usr/bin/env bash
# Reading and canonically rewriting a generated 1,000,000-sample prof text profile, and the
# memory of prof-validate as the number of samples grows tenfold (it must not grow with it).
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-text.XXXXXX")
trap 'rm -rf "$work"' EXIT

gen-profile --samples 100000 -o "$work/small.prof"
gen-profile --samples 1000000 -o "$work/big.prof"
bytes=$(stat -c %s "$work/big.prof")
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "input: generated, 1,000,000 samples, 50,000 stacks, $mib MiB"

# Best of 3 wall-clock runs (with that run's CPU time, user + system, which varies less on a busy
# machine); peak RSS of the last.
measure() {
  local label=$1; shift
  local best="" cpu="" rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" > /dev/null
    read -r secs kb user sys < "$work/time"
    if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$secs
      cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    fi
    rss=$kb
  done
  awk -v l="$label" -v s="$best" -v c="$cpu" -v b="$bytes" -v k="$rss" \
    'BEGIN { printf "%-34s %6.2f s  %7.1f MiB/s  CPU %6.2f s  peak RSS %6.1f MiB\n", l, s, (s > 0 ? b / 1048576 / s : 0), c, k / 1024 }'
}

# Through a pipe: `cat FILE > /dev/null` alone may never copy a byte (splice to /dev/null).
measure "cat | cat (I/O floor)" sh -c 'cat "$1" | cat' sh "$work/big.prof"
measure "prof-validate" prof-validate "$work/big.prof"
measure "prof-text --canonical" prof-text --canonical "$work/big.prof"
measure "prof-text --top" prof-text --top "$work/big.prof"
measure "prof-text --folded" prof-text --folded "$work/big.prof"

/usr/bin/time -f "%M" -o "$work/small.rss" prof-validate "$work/small.prof"
/usr/bin/time -f "%M" -o "$work/big.rss" prof-validate "$work/big.prof"
echo "prof-validate peak RSS: $(cat "$work/small.rss") KiB at 100,000 samples," \
     "$(cat "$work/big.rss") KiB at 1,000,000 samples"

# The peer for reports: Google's pprof on the same profile converted with prof2pprof (built by
# tests/interop/setup-pprof.sh; PPROF overrides the path).
pprof=${PPROF:-/opt/pprof/pprof}
if command -v prof2pprof >/dev/null 2>&1 && [ -x "$pprof" ]; then
  prof2pprof -o "$work/big.pb.gz" "$work/big.prof"
  pb_bytes=$(stat -c %s "$work/big.pb.gz")
  echo "same profile as .pb.gz (aggregated by prof2pprof): $(awk -v b="$pb_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB"
  bytes=$pb_bytes  # throughput below: of the .pb.gz input
  measure "prof-text --top big.pb.gz" prof-text --top "$work/big.pb.gz"
  measure "pprof -top big.pb.gz" "$pprof" -top -symbolize=none "$work/big.pb.gz"
  measure "prof-text --traces big.pb.gz" prof-text --traces "$work/big.pb.gz"
  measure "pprof -traces big.pb.gz" "$pprof" -traces -symbolize=none "$work/big.pb.gz"
else
  echo "(prof2pprof or $pprof missing: pprof -top not measured; run tests/interop/setup-pprof.sh)"
fi
