#!/bin/sh
# The library's layers (ARCHITECTURE.md): a file under common/ may include files of its own
# layer folder (its rooms, common/LAYER/ROOM/, included) and of folders of a lower rank, never of a higher one nor of a sibling of the same rank
# (the codecs do not know each other; nor do merge and filter). Nothing under common/ includes
# tools/ or tests/. Fails naming FILE:LINE for each include that points the wrong way, for a
# folder with no rank, and for a source file straight in common/.
#
#   tests/layer-check.sh [ROOT]     (ROOT defaults to the repository root)
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"

# rank folder... : one line a rank, lowest first.
ranks='0 base
1 io
2 model json elf
3 text pprof perf rprof sqlite folded chrome speedscope callgrind jfr firefox pstats valgrind gprof instruments android stackprof ghc
4 load sqlite_load
5 merge filter
6 report
7 cli'

status=0
for f in common/*.h common/*.cc; do
  [ -e "$f" ] || continue
  echo "$f: a library file must be in a layer folder (common/LAYER/)" >&2
  status=1
done

for dir in common/*/; do
  folder=$(basename "$dir")
  echo "$ranks" | grep -qw -- "$folder" || {
    echo "$dir: no rank: add the folder to tests/layer-check.sh and ARCHITECTURE.md" >&2
    status=1
  }
done

# awk reads every file's include lines and the rank table; prints one line a violation.
violations=$(find common -name '*.h' -o -name '*.cc' | LC_ALL=C sort | xargs awk -v ranks="$ranks" '
  BEGIN {
    n = split(ranks, lines, "\n")
    for (i = 1; i <= n; i++) {
      m = split(lines[i], words, " ")
      for (j = 2; j <= m; j++) rank[words[j]] = words[1]
    }
  }
  FNR == 1 { split(FILENAME, parts, "/"); from = parts[2] }
  /^[ \t]*#[ \t]*include[ \t]*"/ {
    target = $0
    sub(/^[^"]*"/, "", target); sub(/".*$/, "", target)
    if (target ~ /^(tools|tests)\//) {
      printf "%s:%d: includes %s: the library never includes programs or tests\n", FILENAME, FNR, target
      next
    }
    if (target !~ /^common\//) next
    split(target, tparts, "/")
    to = tparts[2]
    if (to == from || !(from in rank) || !(to in rank)) next
    if (rank[to] > rank[from]) {
      printf "%s:%d: includes %s: %s (layer %d) may not include %s (layer %d), which is above it\n", FILENAME, FNR, target, from, rank[from], to, rank[to]
    } else if (rank[to] == rank[from]) {
      printf "%s:%d: includes %s: %s and %s are siblings (layer %d) and stay independent; move what both need down a layer\n", FILENAME, FNR, target, from, to, rank[from]
    }
  }')
if [ -n "$violations" ]; then
  echo "$violations" >&2
  status=1
fi
[ $status = 0 ] && echo "layer-check: $(find common -name '*.h' -o -name '*.cc' | wc -l) files, includes point down"
exit $status
