#!/usr/bin/env bash
# prof-merge at fleet scale (issue 29): 160 small pprof profiles of a real perf recording
# (tests/bench/make-fleet.sh: 16 parts of one recording, ten hosts each) merged into one .pb.gz,
# `prof-merge --pprof` beside `pprof -proto` (skipped when /opt/pprof is not installed:
# tests/interop/setup-pprof.sh). The two commands run in turn, RUNS times (BENCH_RUNS, default
# 3), so that both see the same load; each figure is the median of its runs: wall time, CPU
# time (user + system), peak RSS, and the protobuf read per wall second (inflated bytes).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
pprof=${PPROF_DIR:-/opt/pprof}/pprof
runs=${BENCH_RUNS:-3}

cached_input fleet fleet.tar tests/bench/make-fleet.sh
mkdir "$tmp/fleet"
tar -C "$tmp/fleet" -xf "$fleet"
files=("$tmp"/fleet/*.pb.gz)
gz=$(cat "${files[@]}" | wc -c)
raw=$(for f in "${files[@]}"; do zcat "$f"; done | wc -c)
samples=$(prof-text --canonical "${files[0]}" | grep -c '^sample')
echo "fleet: ${#files[@]} profiles, $samples samples in the first; $((gz / 1000)) KB gzipped, $((raw / 1000)) KB of protobuf"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
labels=("prof-merge --pprof *.pb.gz" "pprof -proto *.pb.gz")
commands=("prof-merge --pprof ${files[*]} -o $tmp/ours.pb.gz" "$pprof -proto ${files[*]} >$tmp/pprof.pb.gz 2>/dev/null")
n=2
[ -x "$pprof" ] || { echo "(pprof not installed: only prof-merge)"; n=1; }
for ((i = 0; i < n; ++i)); do : >"$tmp/times.$i"; done
for ((round = 0; round < runs; ++round)); do
  for ((i = 0; i < n; ++i)); do
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" bash -c "${commands[i]}"
    cat "$tmp/time" >>"$tmp/times.$i"
  done
done
for ((i = 0; i < n; ++i)); do
  wall=$(awk '{ print $1 }' "$tmp/times.$i" | median)
  cpu=$(awk '{ print $2 + $3 }' "$tmp/times.$i" | median)
  rss=$(awk '{ print $4 / 1024 }' "$tmp/times.$i" | median)
  each=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }' "$tmp/times.$i")
  printf '%-30s %6.2f s  CPU %6.2f s  peak RSS %7.1f MiB  %6.1f MB/s of protobuf  (runs: %s s)\n' \
    "${labels[i]}" "$wall" "$cpu" "$rss" "$(awk -v r="$raw" -v w="$wall" 'BEGIN { print r / 1e6 / w }')" "$each"
  echo "$wall $cpu" >"$tmp/median.$i"
done
if [ "$n" = 2 ]; then
  read -r ow oc <"$tmp/median.0"
  read -r pw pc <"$tmp/median.1"
  awk -v ow="$ow" -v oc="$oc" -v pw="$pw" -v pc="$pc" \
    'BEGIN { printf "prof-merge is %.1fx faster than pprof in wall time, %.1fx in CPU time\n", pw / ow, pc / oc }'
fi
