#!/usr/bin/env bash
# prof-merge: merging two 1,000,000-sample profiles, against `pprof -proto a b` in the same run.
#
#   text    two generated prof text profiles (gen-profile, seeds 1 and 2: 50,000 stacks each,
#           labels, timestamps), raw and --aggregate
#   pprof   two pprof profiles from pprof's own benchmark generator (pbgen, seeds 1 and 2: every
#           sample its own stack of 20-60 frames): prof-merge --pprof, the pipeline
#           prof-merge --aggregate | prof2pprof (the same bytes: checked), and `pprof -proto a b`
#           (skipped when /opt/pprof is not installed: tests/interop/setup-pprof.sh)
#
# Then peak RSS at 100,000 and 1,000,000 samples over the same 2,000 stacks: it must not grow.
# Commands compared are run in turn, RUNS times (3; BENCH_RUNS overrides), so that a busy
# moment of the machine falls on all of them; each figure is the median of its runs: wall time,
# CPU time (user + system, less sensitive to other jobs), peak RSS (from /usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT
pprof_dir=${PPROF_DIR:-/opt/pprof}
runs=${BENCH_RUNS:-3}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# alternate LABEL COMMAND [LABEL COMMAND...]: runs each COMMAND (a string run by bash) in turn,
# $runs rounds, then prints per command the median wall time, CPU time and peak RSS, and the
# wall time of each run.
alternate() {
  local n=$(($# / 2)) round i
  local -a labels commands
  for ((i = 0; i < n; ++i)); do
    labels[i]=$1 commands[i]=$2
    shift 2
    : >"$work/times.$i"
  done
  for ((round = 0; round < runs; ++round)); do
    for ((i = 0; i < n; ++i)); do
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" bash -c "${commands[i]}" >/dev/null
      cat "$work/time" >>"$work/times.$i"
    done
  done
  for ((i = 0; i < n; ++i)); do
    local wall cpu rss each
    wall=$(awk '{ print $1 }' "$work/times.$i" | median)
    cpu=$(awk '{ print $2 + $3 }' "$work/times.$i" | median)
    rss=$(awk '{ print $4 / 1024 }' "$work/times.$i" | median)
    each=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }' "$work/times.$i")
    printf '%-52s %7.2f s  CPU %7.2f s  peak RSS %7.1f MiB  (runs: %s s)\n' "${labels[i]}" \
      "$wall" "$cpu" "$rss" "$each"
    echo "$wall $cpu $rss" >"$work/median.$i"
  done
}

gen-profile --samples 1000000 --seed 1 -o "$work/a.prof"
gen-profile --samples 1000000 --seed 2 -o "$work/b.prof"
echo "text: two generated profiles, 1,000,000 samples each," \
     "$(du -m "$work/a.prof" | cut -f1) + $(du -m "$work/b.prof" | cut -f1) MB"
alternate "prof-merge a.prof b.prof" "prof-merge '$work/a.prof' '$work/b.prof' -o '$work/out.prof'" \
  "prof-merge --aggregate a.prof b.prof" \
  "prof-merge --aggregate '$work/a.prof' '$work/b.prof' -o '$work/out.prof'"

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
alternate "prof-merge --pprof a.pb.gz b.pb.gz" \
  "prof-merge --pprof '$work/a.pb.gz' '$work/b.pb.gz' -o '$work/direct.pb.gz'" \
  "prof-merge --aggregate a.pb.gz b.pb.gz | prof2pprof" \
  "prof-merge --aggregate '$work/a.pb.gz' '$work/b.pb.gz' | prof2pprof -o '$work/ours.pb.gz'" \
  "pprof -proto a.pb.gz b.pb.gz" \
  "'$pprof_dir/pprof' -proto '$work/a.pb.gz' '$work/b.pb.gz' > '$work/theirs.pb.gz' 2>/dev/null"
cmp "$work/direct.pb.gz" "$work/ours.pb.gz" && echo "prof-merge --pprof: the bytes of the pipeline"
read -r direct_wall direct_cpu direct_rss <"$work/median.0"
read -r pipe_wall pipe_cpu pipe_rss <"$work/median.1"
read -r pprof_wall pprof_cpu pprof_rss <"$work/median.2"
awk -v dw="$direct_wall" -v dc="$direct_cpu" -v dr="$direct_rss" -v pw="$pipe_wall" \
  -v pc="$pipe_cpu" -v pr="$pipe_rss" -v w="$pprof_wall" -v c="$pprof_cpu" -v r="$pprof_rss" '
  BEGIN {
    printf "against pprof -proto, medians: --pprof %.1fx wall, %.1fx CPU, 1/%.1f of its memory;", \
      w / dw, c / dc, r / dr
    printf " pipeline %.1fx wall, %.1fx CPU, 1/%.1f\n", w / pw, c / pc, r / pr
  }'
if [ -x "$pprof_dir/pbdump/pbdump" ]; then
  "$pprof_dir/pbdump/pbdump" -compact "$work/ours.pb.gz" "$work/theirs.pb.gz" |
    sed "s|$work/||; s/ strings=[0-9]*//"
fi

# Not run here: `pprof -proto` on the generated profiles converted with prof2pprof --keep-samples
# (a timestamp label on every sample) took 153 s and 14 GB once (BENCHMARKS.md) - too much for a
# shared machine.
