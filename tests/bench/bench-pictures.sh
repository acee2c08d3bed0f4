#!/usr/bin/env bash
# prof-svg and prof-html on the generated 1,000,000-sample profile (50,000 distinct stacks),
# beside the way a FlameGraph user draws the same graph today, `prof-text --folded |
# flamegraph.pl` (when flamegraph.pl is on PATH or FLAMEGRAPH names it: Debian 12 has no package
# for it). The runs alternate between the commands; medians of 5 by CPU time, and the median of
# the 5 rounds' ratios of the goals' pairs (each round's runs are next to one another, so a
# slower minute of the shared machine slows both). Then the size of each output and how long
# Chromium takes to load and draw it (tests/browser/load_time.py).
# Goals (issue 15): prof-svg and prof-html <= 3 s each; the HTML opens in under 3 s. Issue 46:
# prof-html <= 1.5x prof-svg's time (#15); and on one Rprof sample line of 1.5 million frames
# (8.7 MB, a stack that deep), prof-svg <= 2x prof-text --top's time (#16: deep stacks linear).
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-pictures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/measure.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

gen-profile --samples 1000000 -o "$tmp/big.prof"
big=$tmp/big.prof
echo "input: generated, 1,000,000 samples, 50,000 stacks"

flamegraph=${FLAMEGRAPH:-$(command -v flamegraph.pl || true)}
labels=("prof-text --folded (for scale)" "prof-svg" "prof-html" "prof-html --no-graph")
commands=("prof-text --folded $big >$tmp/folded" "prof-svg $big -o $tmp/big.svg"
  "prof-html $big -o $tmp/big.html" "prof-html --no-graph $big -o $tmp/big-no-graph.html")
if [ -n "$flamegraph" ]; then
  labels+=("prof-text --folded | flamegraph.pl")
  commands+=("prof-text --folded $big | $flamegraph >$tmp/fg.svg")
else
  echo "(flamegraph.pl not found: Debian 12 has no flamegraph package; set FLAMEGRAPH=PATH)"
fi

# Five rounds, each running every command once, so that load on the shared machine hits all
# alike; then the run of median CPU time of each.
rounds=5
for ((round = 1; round <= rounds; round++)); do
  for i in "${!labels[@]}"; do
    measure "${labels[$i]}" "$big" "${commands[$i]}" >>"$tmp/runs.$i"
  done
done
# median_by_cpu FILE: the run of FILE (measure's lines) of median CPU time.
median_by_cpu() {
  awk '
    { line[NR] = $0; match($0, /cpu +[0-9.]+/); cpu[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
    END {
      for (i = 1; i <= NR; i++) { below = 0
        for (j = 1; j <= NR; j++) if (cpu[j] < cpu[i] || (cpu[j] == cpu[i] && j < i)) below++
        if (below == int(NR / 2)) print line[i] }
    }' "$1"
}
for i in "${!labels[@]}"; do median_by_cpu "$tmp/runs.$i"; done
# round_ratios LABEL A B: the median over the rounds of B's wall and CPU time over A's in the same
# round (measure's lines, one a round, in order).
round_ratios() {
  paste -d '\n' "$2" "$3" | awk -v label="$1" '
    { match($0, / [0-9.]+ s /); wall = substr($0, RSTART + 1, RLENGTH - 3) + 0
      match($0, /cpu +[0-9.]+/); cpu = substr($0, RSTART + 4, RLENGTH - 4) + 0
      if (NR % 2) { a_wall = wall; a_cpu = cpu } else { n++; w[n] = wall / a_wall; c[n] = cpu / a_cpu } }
    function median(v, n,   i, j, t) {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    END { printf "%s: %.2fx in wall time, %.2fx in CPU time (median of %d rounds)\n", label, median(w, n), median(c, n), n }'
}
round_ratios "prof-html / prof-svg (goal: <= 1.5x)" "$tmp/runs.1" "$tmp/runs.2"

# The deep stack: one sample line of 1,500,000 frames (f0 ... f49 over and over).
awk 'BEGIN { print "sample.interval=20000"; for (i = 0; i < 1500000; i++) printf "\"f%d\" ", i % 50; print "" }' \
  >"$tmp/deep.out"
echo "input: an Rprof sample line of 1,500,000 frames"
deep_labels=("prof-text --top (deep)" "prof-svg (deep)")
deep_commands=("prof-text --top $tmp/deep.out >/dev/null 2>&1" "prof-svg $tmp/deep.out >/dev/null 2>&1")
for ((round = 1; round <= rounds; round++)); do
  for i in "${!deep_labels[@]}"; do
    measure "${deep_labels[$i]}" "$tmp/deep.out" "${deep_commands[$i]}" >>"$tmp/deep-runs.$i"
  done
done
for i in "${!deep_labels[@]}"; do median_by_cpu "$tmp/deep-runs.$i"; done
round_ratios "prof-svg / prof-text --top, deep (goal: <= 2x)" "$tmp/deep-runs.0" "$tmp/deep-runs.1"

for file in "$tmp/big.svg" "$tmp/big.html"; do
  size=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
  if command -v chromium >/dev/null 2>&1; then
    load=$(cd "$root/tests/browser" && python3 load_time.py "$file")
    echo "$(basename "$file"): $size, loads and draws in Chromium in $load s (median of 3)"
  else
    echo "$(basename "$file"): $size (no chromium: load time not measured)"
  fi
done
