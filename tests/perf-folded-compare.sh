#!/usr/bin/env bash
# Compares two folded-stack files (ours, theirs) and prints a short, stable summary for golden
# cases: the total weight of each, then "identical", or how many stacks each side has that the
# other lacks and, pairing those stacks in sorted order, the first frame where each pair
# differs (and how many pairs differ that way) — so a reviewer sees *what* differs.
# Usage: perf-folded-compare.sh OURS THEIRS
set -u
export LC_ALL=C
# The totals, and the usual verdict (identical stacks), in one process: the golden cases run
# this hundreds of times.
summary=$(awk '
  FNR == NR { n = split($0, f, " "); ours += f[n]; count[$0]++; next }
  { n = split($0, f, " "); theirs += f[n]; count[$0]-- }
  END {
    printf "total weight: ours %d, theirs %d\n", ours, theirs
    for (line in count) if (count[line] != 0) exit
    print "identical"
  }' "$1" "$2")
echo "$summary"
[[ $summary == *$'\n'identical ]] && exit 0
ours_only=$(mktemp) theirs_only=$(mktemp)
trap 'rm -f "$ours_only" "$theirs_only"' EXIT
comm -23 <(sort "$1") <(sort "$2") >"$ours_only"
comm -13 <(sort "$1") <(sort "$2") >"$theirs_only"
echo "only ours: $(wc -l <"$ours_only") stacks; only theirs: $(wc -l <"$theirs_only") stacks"
paste -d '\n' "$ours_only" "$theirs_only" | awk '
  NR % 2 == 1 { a = $0; next }
  {
    b = $0
    sub(/ -?[0-9]+$/, "", a); sub(/ -?[0-9]+$/, "", b)
    na = split(a, fa, ";"); nb = split(b, fb, ";")
    for (i = 1; i <= na || i <= nb; i++) if (fa[i] != fb[i]) break
    x = (i <= na ? fa[i] : "(none)"); y = (i <= nb ? fb[i] : "(none)")
    # Long names (C++ templates) are shown from a little before where they part.
    for (p = 1; p <= length(x) && substr(x, p, 1) == substr(y, p, 1); p++) {}
    from = p > 60 ? p - 40 : 1
    cut = from > 1 ? "..." : ""
    key = "  ours [" cut substr(x, from, 120) "] theirs [" cut substr(y, from, 120) "]"
    if (!(key in count)) order[++k] = key
    count[key]++
  }
  END { for (j = 1; j <= k; j++) printf "%s x%d\n", order[j], count[order[j]] }'
