#!/usr/bin/env bash
# The massif and DHAT readers against valgrind's own numbers (issue 45), on recordings made
# here, now, of tests/valgrind/heap_workload.c (massif by default, and with every snapshot
# detailed, no threshold, time in bytes and trees 3 deep; DHAT in heap and copy mode):
#
#   1. ms_print: every detailed snapshot's useful heap is our snapshot_N total, the peak's is
#      inuse_space's, and the peak tree's allocation sites (ms_print's "->" lines of the first
#      level, summed by function) are prof-text's flat bytes per function.
#   2. DHAT: the summary valgrind prints at exit (Total, At t-gmax, At t-end, Reads, Writes)
#      is our totals of total_bytes/blocks, gmax_bytes/blocks, end_bytes/blocks, read_bytes
#      and write_bytes, which DHAT's viewer shows.
name=interop-valgrind
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
source "$root/tests/skip.sh"
for tool in valgrind ms_print gcc; do
  command -v "$tool" >/dev/null 2>&1 || skip_installable "$tool (Debian's valgrind, gcc) is missing"
done
source "$root/tests/interop/scratch.sh"
check() {  # WHAT EXPECTED ACTUAL
  checks=$((checks + 1))
  if [ -z "$2" ] || [ "$2" != "$3" ]; then
    problem "$1: valgrind says '$2', proftools '$3'"
  fi
}
# prof-text's total of type $2 in $1, in raw units.
total() {
  prof-text --raw-values --default-type "$2" "$1" | sed -n 's/.* of \([0-9]*\) total.*/\1/p'
}
gcc -O0 -g -o "$T/heap_workload" "$root/tests/valgrind/heap_workload.c"
cd "$T"

n=0
for options in "" "--threshold=0 --detailed-freq=1 --time-unit=B --depth=3"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  valgrind -q --tool=massif $options --massif-out-file="massif$n.out" ./heap_workload
  ms_print "massif$n.out" >"ms$n.txt"
  # The table rows of detailed snapshots: "  n  time  total  useful-heap  extra  stacks", then the
  # tree; ms_print lists the detailed snapshots on its line "Detailed snapshots: [9, 12 (peak)]".
  detailed=$(sed -n 's/^ Detailed snapshots: \[\(.*\)\]/\1/p' "ms$n.txt" | tr -d ' ' | tr ',' ' ')
  for entry in $detailed; do
    number=${entry%(peak)}
    useful=$(awk -v n="$number" '$1 == n && NF == 6 { gsub(",", "", $4); print $4; exit }' "ms$n.txt")
    check "massif $options: snapshot $number's useful heap" "$useful" \
      "$(total "massif$n.out" "snapshot_$number")"
    if [ "$number" != "$entry" ]; then
      check "massif $options: the peak's useful heap" "$useful" "$(total "massif$n.out" inuse_space)"
      # The peak's tree: from its row to the next table header, the first level's sites.
      awk -v n="$number" '
        $1 == n && NF == 6 { on = 1; next }
        on && /^-+$/ { exit }
        on && /^->/ && !/below ms_print/ {
          bytes = $2; gsub(/[(,B)]/, "", bytes)
          name = $0; sub(/^[^:]*: /, "", name); sub(/ \([^()]*\)$/, "", name)
          sum[name] += bytes
        }
        END { for (k in sum) if (sum[k] != 0) printf "%s\t%d\n", k, sum[k] }' "ms$n.txt" |
        sort >"ms-sites$n"
      prof-text --raw-values --nodecount 0 "massif$n.out" |
        awk '/^ *flat/ { on = 1; next } on && $1 != 0 { print $6 "\t" $1 }' | sort >"our-sites$n"
      checks=$((checks + 1))
      if [ ! -s "ms-sites$n" ] || ! cmp -s "ms-sites$n" "our-sites$n"; then
        problem "massif $options: the peak's allocation sites differ (ms_print, then ours):"
        diff "ms-sites$n" "our-sites$n" | head -10
      fi
    fi
  done
  [ -n "$detailed" ] || problem "massif $options: ms_print lists no detailed snapshot"
done

for mode in heap copy; do
  valgrind --tool=dhat --mode=$mode --dhat-out-file="dhat-$mode.json" ./heap_workload \
    2>"dhat-$mode.err" >/dev/null
  summary() {  # LABEL FIELD: the number after LABEL in DHAT's exit summary
    sed -n "s/^==[0-9]*== $1: *\([0-9,]*\) .*/\1/p" "dhat-$mode.err" | tr -d , | head -1
  }
  blocks() {
    sed -n "s/^==[0-9]*== $1: *[0-9,]* bytes in \([0-9,]*\) blocks.*/\1/p" "dhat-$mode.err" | tr -d ,
  }
  check "DHAT $mode: Total bytes" "$(summary Total)" "$(total "dhat-$mode.json" total_bytes)"
  check "DHAT $mode: Total blocks" "$(blocks Total)" "$(total "dhat-$mode.json" total_blocks)"
  if [ "$mode" = heap ]; then
    check "DHAT: At t-gmax bytes" "$(summary 'At t-gmax')" "$(total dhat-heap.json gmax_bytes)"
    check "DHAT: At t-gmax blocks" "$(blocks 'At t-gmax')" "$(total dhat-heap.json gmax_blocks)"
    check "DHAT: At t-end bytes" "$(summary 'At t-end')" "$(total dhat-heap.json end_bytes)"
    check "DHAT: At t-end blocks" "$(blocks 'At t-end')" "$(total dhat-heap.json end_blocks)"
    check "DHAT: Reads" "$(summary Reads)" "$(total dhat-heap.json read_bytes)"
    check "DHAT: Writes" "$(summary Writes)" "$(total dhat-heap.json write_bytes)"
  fi
done
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
