#!/usr/bin/env bash
# prof-merge: merging two 1,000,000-sample profiles, against `pprof -proto a b` in the same run.
#
#   text    two generated prof text profiles (gen-profile, seeds 1 and 2: 50,000 stacks each,
#           labels, timestamps), raw and --aggregate
#   pprof   two pprof profiles from pprof's own benchmark generator (pbgen: every sample its own
#           stack of 20-60 frames), prof-merge --aggregate | prof2pprof, and `pprof -proto a b`
#           (skipped when /opt/pprof is not installed: /work/shared/tools/setup-pprof.sh)
#
# Then peak RSS at 100,000 and 1,000,000 samples over the same 2,000 stacks: it must not grow.
# Wall time is best of 3 for prof-merge, one run for pprof (about 30 s and 4 GB); CPU is user +
# system of that run; peak RSS from /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT
pprof_dir=${PPROF_DIR:-/opt/pprof}

# measure LABEL RUNS COMMAND...: prints wall (best of RUNS), CPU and peak RSS of the best run.
measure() {
  local label=$1 runs=$2; shift 2
  local best="" cpu="" rss=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" bash -c "$*" > /dev/null
    read -r secs user sys kb < "$work/time"
    if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$secs; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }'); rss=$kb
    fi
  done
  printf '%-58s %7.2f s  CPU %7.2f s  peak RSS %8.1f MiB\n' "$label" "$best" "$cpu" \
    "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
}

gen-profile --samples 1000000 --seed 1 -o "$work/a.prof"
gen-profile --samples 1000000 --seed 2 -o "$work/b.prof"
echo "text: two generated profiles, 1,000,000 samples each," \
     "$(du -m "$work/a.prof" | cut -f1) + $(du -m "$work/b.prof" | cut -f1) MB"
measure "prof-merge a.prof b.prof" 3 prof-merge "$work/a.prof" "$work/b.prof" -o "$work/out.prof"
measure "prof-merge --aggregate a.prof b.prof" 3 \
  prof-merge --aggregate "$work/a.prof" "$work/b.prof" -o "$work/out.prof"

gen-profile --samples 100000 --stacks 2000 -o "$work/s1.prof"
gen-profile --samples 1000000 --stacks 2000 -o "$work/s2.prof"
for f in s1 s2; do
  /usr/bin/time -f "%M" -o "$work/$f.rss" prof-merge "$work/$f.prof" "$work/$f.prof" -o /dev/null
  /usr/bin/time -f "%M" -o "$work/$f.agg" prof-merge --aggregate "$work/$f.prof" "$work/$f.prof" \
    -o /dev/null
done
echo "peak RSS, same 2,000 stacks: raw $(cat "$work/s1.rss") KiB at 2x100,000 samples," \
     "$(cat "$work/s2.rss") KiB at 2x1,000,000; --aggregate $(cat "$work/s1.agg") KiB," \
     "$(cat "$work/s2.agg") KiB"

if [ ! -x "$pprof_dir/pprof" ] || [ ! -x "$pprof_dir/pbgen/pbgen" ]; then
  echo "pprof: skipped ($pprof_dir not installed; see /work/shared/tools/setup-pprof.sh)"
  exit 0
fi
"$pprof_dir/pbgen/pbgen" -seed 1 -o "$work/a.pb.gz"
"$pprof_dir/pbgen/pbgen" -seed 2 -o "$work/b.pb.gz"
echo
echo "pprof: two pbgen profiles, 1,000,000 samples each (a distinct stack per sample)," \
     "$(du -m "$work/a.pb.gz" | cut -f1) + $(du -m "$work/b.pb.gz" | cut -f1) MB gzipped"
measure "prof-merge --aggregate a.pb.gz b.pb.gz -o m.prof" 3 \
  prof-merge --aggregate "$work/a.pb.gz" "$work/b.pb.gz" -o "$work/m.prof"
measure "prof-merge --aggregate a.pb.gz b.pb.gz | prof2pprof" 1 \
  "prof-merge --aggregate '$work/a.pb.gz' '$work/b.pb.gz' | prof2pprof -o '$work/ours.pb.gz'"
measure "pprof -proto a.pb.gz b.pb.gz" 1 \
  "'$pprof_dir/pprof' -proto '$work/a.pb.gz' '$work/b.pb.gz' > '$work/theirs.pb.gz' 2>/dev/null"
if [ -x "$pprof_dir/pbdump/pbdump" ]; then
  "$pprof_dir/pbdump/pbdump" -compact "$work/ours.pb.gz" "$work/theirs.pb.gz" |
    sed "s|$work/||; s/ strings=[0-9]*//"
fi

# Not run here: `pprof -proto` on the generated profiles converted with prof2pprof --keep-samples
# (a timestamp label on every sample) took 153 s and 14 GB once (BENCHMARKS.md) - too much for a
# shared machine.
