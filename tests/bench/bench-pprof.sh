#!/usr/bin/env bash
# pprof2prof and prof2pprof against Google's pprof on a 1e6-sample profile (issue 4's
# benchmark): pbgen -o writes it (pbgen: 5000 functions, 20000 locations, stacks 20-60 deep,
# two sample types; 67 MB gzipped); then, in the same run,
#
#   pprof -proto big.pb.gz > FILE               pprof reading and rewriting the profile
#   pprof2prof big.pb.gz | prof2pprof -o FILE   the same round trip through prof text
#   pprof2prof big.pb.gz > FILE                 each half alone
#   prof2pprof -o FILE big.prof                 (default: aggregated; and --keep-samples)
#
# each with wall time, CPU time (user + system: less sensitive to other jobs on the machine)
# and peak RSS (of the largest process of a pipeline), then the ratios to pprof.
# BENCH_PPROF_INPUT=FILE uses an existing profile instead of generating one (e.g. the
# /tmp/big.pb.gz that setup-pprof.sh --big writes). Skips, saying why, without pprof/pbgen.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
prefix=${PPROF_PREFIX:-/opt/pprof}
if [ ! -x "$prefix/pprof" ] || [ ! -x "$prefix/pbgen/pbgen" ]; then
  PPROF_PREFIX=$prefix bash tests/interop/setup-pprof.sh >/dev/null 2>&1 || {
    echo "bench-pprof: SKIPPED: pprof and pbgen are not built and tests/interop/setup-pprof.sh failed"
    exit 0
  }
fi
# Files live on tmpfs when there is one (/dev/shm), for pprof and for us alike: on this kind of
# VM the kernel reclaims the page cache of /tmp proactively, so a file written a minute before
# may be read back from disk, which blurs wall times by up to a second.
scratch=${TMPDIR:-/tmp}
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch=/dev/shm; fi
tmp=$(mktemp -d "$scratch/bench-pprof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
big=$tmp/big.pb.gz
if [ -n "${BENCH_PPROF_INPUT:-}" ]; then
  cp "$BENCH_PPROF_INPUT" "$big"
else
  "$prefix/pbgen/pbgen" -o "$big" >/dev/null
fi

# LABEL COMMAND [RUNS] -> one line, the best wall time of RUNS (default 3; pprof runs once: it
# takes half a minute and gigabytes); the figures are kept in $tmp/fig-KEY for the ratios.
measure() {
  local key=$1 label=$2 command=$3 runs=${4:-3} seconds user system rss best=""
  for ((run = 0; run < runs; run++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" bash -c "$command"
    read -r seconds user system rss <"$tmp/time"
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$seconds
      echo "$seconds $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }') $rss" >"$tmp/fig-$key"
    fi
  done
  read -r seconds cpu rss <"$tmp/fig-$key"
  awk -v l="$label" -v s="$seconds" -v c="$cpu" -v rss="$rss" 'BEGIN {
    printf "%-44s %7.2f s  cpu %7.2f s  peak RSS %7.1f MB\n", l, s, c, rss / 1024 }'
}
ratio() {  # KEY: pprof's figures over KEY's
  read -r ps pc pr <"$tmp/fig-pprof"
  read -r s c r <"$tmp/fig-$1"
  awk -v k="$1" -v ps="$ps" -v pc="$pc" -v pr="$pr" -v s="$s" -v c="$c" -v r="$r" 'BEGIN {
    printf "  %-28s %5.1fx faster (wall), %5.1fx less CPU, %5.1fx less memory\n", k, ps / s,
      pc / c, pr / r }'
}

echo "input: $(stat -c %s "$big") bytes (${BENCH_PPROF_INPUT:-pbgen -o}), files in $scratch"
measure pprof "pprof -proto big.pb.gz > FILE" "'$prefix/pprof' -proto '$big' > '$tmp/pprof.pb.gz' 2>/dev/null" 1
rm -f "$tmp/pprof.pb.gz"
measure pipeline "pprof2prof big.pb.gz | prof2pprof -o FILE" \
  "pprof2prof '$big' | prof2pprof -o '$tmp/rt.pb.gz'"
measure pprof2prof "pprof2prof big.pb.gz > FILE" "pprof2prof '$big' > '$tmp/big.prof'"
echo "  (prof text: $(stat -c %s "$tmp/big.prof") bytes)"
measure prof2pprof "prof2pprof -o FILE big.prof" "prof2pprof -o '$tmp/out.pb.gz' '$tmp/big.prof'"
measure keep "prof2pprof --keep-samples -o FILE big.prof" \
  "prof2pprof --keep-samples -o '$tmp/out.pb.gz' '$tmp/big.prof'"
echo "against pprof -proto:"
for key in pipeline pprof2prof prof2pprof; do ratio $key; done
