#!/usr/bin/env bash
# prof-merge at fleet scale (issue 29): 160 small pprof profiles of a real perf recording
# (tests/bench/make-fleet.sh: 16 parts of one recording, ten hosts each) merged into one .pb.gz,
# and issue 46 #17's fleet of 168 smaller ones (24 parts of about 400 samples, seven hosts),
# `prof-merge --pprof` beside `pprof -proto` (skipped when /opt/pprof is not installed:
# tests/interop/setup-pprof.sh). The two commands run in turn, RUNS times (BENCH_RUNS, default
# 3), so that both see the same load; each figure is the median of its runs: wall time, CPU
# time (user + system), peak RSS (tests/bench/timed.py: to the millisecond), and the protobuf
# read per wall second (inflated bytes).
# Then docs/prof-merge.md's tree merge with GNU parallel (groups of 8, two jobs at a time, then the 20
# parts into one), each level timed beside the same tree made by `pprof -proto` (skipped without
# parallel).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source tests/bench/cache.sh
pprof=${PPROF_DIR:-/opt/pprof}/pprof
runs=${BENCH_RUNS:-3}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# compare_fleet NAME TAR: unpacks TAR into $tmp/NAME (files: its profiles), then prof-merge
# beside pprof -proto on all of them.
compare_fleet() {
  local name=$1 i round wall cpu rss each ow oc pw pc
  mkdir "$tmp/$name"
  tar -C "$tmp/$name" -xf "$2"
  files=("$tmp/$name"/*.pb.gz)
  gz=$(cat "${files[@]}" | wc -c)
  raw=$(for f in "${files[@]}"; do zcat "$f"; done | wc -c)
  samples=$(prof-text --canonical "${files[0]}" | grep -c '^sample')
  echo "$name: ${#files[@]} profiles, $samples samples in the first; $((gz / 1000)) KB gzipped, $((raw / 1000)) KB of protobuf"
  labels=("prof-merge --pprof *.pb.gz" "pprof -proto *.pb.gz")
  commands=("prof-merge --pprof ${files[*]} -o $tmp/ours.pb.gz" "$pprof -proto ${files[*]} >$tmp/pprof.pb.gz 2>/dev/null")
  n=2
  [ -x "$pprof" ] || { echo "(pprof not installed: only prof-merge)"; n=1; }
  for ((i = 0; i < n; ++i)); do : >"$tmp/times.$i"; done
  for ((round = 0; round < runs; ++round)); do
    for ((i = 0; i < n; ++i)); do
      python3 tests/bench/timed.py "${commands[i]}" >>"$tmp/times.$i"
    done
  done
  for ((i = 0; i < n; ++i)); do
    wall=$(awk '{ print $1 }' "$tmp/times.$i" | median)
    cpu=$(awk '{ print $2 + $3 }' "$tmp/times.$i" | median)
    rss=$(awk '{ print $4 / 1024 }' "$tmp/times.$i" | median)
    each=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }' "$tmp/times.$i")
    printf '%-30s %6.3f s  CPU %6.3f s  peak RSS %7.1f MiB  %6.1f MB/s of protobuf  (runs: %s s)\n' \
      "${labels[i]}" "$wall" "$cpu" "$rss" "$(awk -v r="$raw" -v w="$wall" 'BEGIN { print r / 1e6 / w }')" "$each"
    echo "$wall $cpu" >"$tmp/median.$i"
  done
  if [ "$n" = 2 ]; then
    read -r ow oc <"$tmp/median.0"
    read -r pw pc <"$tmp/median.1"
    awk -v ow="$ow" -v oc="$oc" -v pw="$pw" -v pc="$pc" \
      'BEGIN { printf "prof-merge is %.1fx faster than pprof in wall time, %.1fx in CPU time\n", pw / ow, pc / oc }'
  fi
}

# Issue 46 #17's fleet of small profiles first: 24 parts of one recording (about 400 samples
# each), seven hosts: 168 profiles, where each file's fixed costs weigh most.
cached_input small_fleet fleet-small.tar tests/bench/make-fleet.sh 24 7
compare_fleet fleet-small "$small_fleet"
cached_input fleet fleet.tar tests/bench/make-fleet.sh
compare_fleet fleet "$fleet"

# docs/prof-merge.md's two-level tree: level 1 merges groups of 8 inputs, two jobs at a time; level 2
# merges the parts. Each level, for each tool, RUNS times alternating; medians of wall time.
command -v parallel >/dev/null || { echo "(GNU parallel not installed: no tree)"; exit 0; }
tree_level1() { # TOOL OUTDIR
  rm -rf "$2" && mkdir "$2"
  if [ "$1" = ours ]; then
    printf '%s\n' "${files[@]}" | parallel -j2 -N 8 "prof-merge --pprof -o $2/{0#}.pb.gz {}"
  else
    printf '%s\n' "${files[@]}" | parallel -j2 -N 8 "$pprof -proto {} >$2/{0#}.pb.gz 2>/dev/null"
  fi
}
tree_level2() { # TOOL PARTSDIR
  if [ "$1" = ours ]; then
    prof-merge --pprof -o "$tmp/tree-ours.pb.gz" "$2"/*.pb.gz
  else
    "$pprof" -proto "$2"/*.pb.gz >"$tmp/tree-pprof.pb.gz" 2>/dev/null
  fi
}
export -f tree_level1 tree_level2
export pprof tmp
tools=(ours)
[ "$n" = 2 ] && tools+=(pprof)
for t in "${tools[@]}"; do : >"$tmp/l1.$t" && : >"$tmp/l2.$t"; done
for ((round = 0; round < runs; ++round)); do
  for t in "${tools[@]}"; do
    python3 tests/bench/timed.py "$(declare -p files); tree_level1 $t $tmp/parts-$t" |
      cut -d' ' -f1 >>"$tmp/l1.$t"
    python3 tests/bench/timed.py "tree_level2 $t $tmp/parts-$t" | cut -d' ' -f1 >>"$tmp/l2.$t"
  done
done
parts=$(find "$tmp/parts-ours" -name '*.pb.gz' | wc -l)
echo "tree: level 1 = $parts jobs of 8 inputs (parallel -j2), level 2 = the $parts parts into one"
for t in "${tools[@]}"; do
  printf '%-6s level 1 %6.3f s   level 2 %6.3f s   (wall, medians)\n' "$t" \
    "$(median <"$tmp/l1.$t")" "$(median <"$tmp/l2.$t")"
done
cmp -s <(prof-merge --pprof -o - "${files[@]}" --force) "$tmp/tree-ours.pb.gz" &&
  echo "the tree's result is the same bytes as one prof-merge of every input"
