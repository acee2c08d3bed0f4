#!/usr/bin/env bash
# The callgrind codec against valgrind's own reader and pprof's writer (issue 27):
#
#   1. callgrind_annotate and prof-text --top agree on every function's self cost (Ir) of the
#      real recordings in golden/callgrind/inputs (callgrind, --dump-instr=yes, --cache-sim=yes:
#      every event), functions summed by name as prof-text shows them (callgrind_annotate splits
#      a function by the files of its inlined code and by recursion level, f'2).
#   2. callgrind_annotate reads prof2callgrind's output (of the recordings, and of pprof
#      profiles) and its per-function totals are prof-text --top's flat values.
#   3. pprof -callgrind of the same pprof profile, read by callgrind_annotate, gives the same
#      per-function totals as our output (pprof converts into milliseconds: compared on a count
#      type, where nothing is scaled).
# valgrind is a Debian package (TEST_DEBS); pprof as the other interop tests find it.
name=interop-callgrind
. "$(dirname "$0")/interop/prelude.sh"
inputs=$root/golden/callgrind/inputs
if ! command -v callgrind_annotate >/dev/null 2>&1; then
  skip_installable "callgrind_annotate (Debian's valgrind) is missing"
fi

# callgrind_annotate's per-function self costs of event $2 in file $1: NAME<TAB>VALUE, summed by
# function name (file and object dropped, recursion levels folded), sorted.
annotate() {
  callgrind_annotate --threshold=100 --show="$2" --sort="$2" "$1" 2>/dev/null | awk '
    /file:function$/ { on = 1; getline; next }
    on && /^-+$/ { exit }
    on && NF >= 2 {
      v = $1; gsub(",", "", v)
      line = $0; sub(/^ *[0-9,]+ +(\([ 0-9.%]+\) +)?/, "", line)
      sub(/ \[[^]]*\]$/, "", line)                 # [object]
      name = line
      # file:function: the file has no ":" of its own in these recordings; the function may (C++)
      sub(/^[^:]*:/, "", name)
      sub(/'"'"'[0-9]+$/, "", name)
      if (v + 0 != 0) sum[name] += v
    }
    END { for (k in sum) printf "%s\t%d\n", k, sum[k] }' | sort
}

# prof-text's flat values of type $2 in $1 (any format), by function name: NAME<TAB>VALUE.
top() {
  prof-text --value "$2" --no-trim --raw-values "$1" 2>/dev/null | awk '
    NR > 1 && NF >= 6 && $1 ~ /^-?[0-9]+$/ {
      name = $0
      for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name)
      sub(/^ +/, "", name)
      if ($1 + 0 != 0) sum[name] += $1
    }
    END { for (k in sum) printf "%s\t%d\n", k, sum[k] }' | sort
}

compare() {  # WHAT A B
  checks=$((checks + 1))
  if [ ! -s "$2" ]; then
    problem "$1: nothing to compare (empty $(basename "$2"))"
  elif ! cmp -s "$2" "$3"; then
    problem "$1: per-function totals differ:"
    diff "$2" "$3" | head -10
  fi
}

for input in workload.callgrind workload.instr.callgrind workload.cachesim.callgrind; do
  zcat "$inputs/$input.gz" >"$T/$input"
  events=$(sed -n 's/^events: *//p' "$T/$input" | head -1)
  for event in $events; do
    annotate "$T/$input" "$event" >"$T/annotate"
    top "$T/$input" "$event" >"$T/top"
    compare "$input $event: callgrind_annotate vs prof-text --top" "$T/annotate" "$T/top"
  done
  # Our writer's output read by callgrind_annotate: the same flat values as prof-text's.
  prof2callgrind -o "$T/$input.out" "$T/$input" 2>/dev/null
  annotate "$T/$input.out" "Ir(count)" >"$T/annotate"
  top "$T/$input" Ir >"$T/top"
  compare "prof2callgrind of $input, read by callgrind_annotate" "$T/annotate" "$T/top"
  # Its PROGRAM TOTALS are our summary: line's (issue 43: without one callgrind_annotate says
  # "PROGRAM TOTALS (calculated)", and older ones have none) and prof-text's total.
  checks=$((checks + 1))
  theirs=$(callgrind_annotate --show="Ir(count)" "$T/$input.out" 2>&1 |
    awk '/PROGRAM TOTALS/ && !/calculated/ { v = $1; gsub(",", "", v); print v; exit }')
  ours=$(prof-text --value Ir --raw-values "$T/$input" 2>/dev/null |
    awk '/ total / { for (i = 1; i <= NF; i++) if ($(i + 1) == "total") { print $i; exit } }')
  [ -n "$theirs" ] && [ "$theirs" = "$ours" ] ||
    problem "prof2callgrind of $input: callgrind_annotate's PROGRAM TOTALS $theirs, prof-text's $ours"
done

# The self cost lines (not the calls' inclusive ones) of column $2 of a callgrind file $1, and
# its calls' inclusive costs, by function name: "fn NAME<TAB>V" and "call CALLER -> CALLEE<TAB>V".
# Read here rather than by callgrind_annotate, which takes pprof's calls=0 for no call and counts
# the call's inclusive cost as the caller's own.
costs() {
  awk -v col="$2" '
    function name(v, space,   id) {
      if (v ~ /^\([0-9]+\)/) { id = v; sub(/\).*/, "", id); sub(/^\(/, "", id)
        sub(/^\([0-9]+\) ?/, "", v); if (v != "") names[space, id] = v; else v = names[space, id] }
      return v
    }
    /^fn=/ { sub(/^fn=/, ""); fn = name($0, "fn"); next }
    # pprof suffixes a callee name with [i/n] when one file and name are several functions.
    /^cfn=/ { sub(/^cfn=/, ""); cfn = name($0, "fn"); sub(/ \[[0-9]+\/[0-9]+\]$/, "", cfn); next }
    /^calls=/ { call = 1; next }
    /^[0-9+*-]/ { v = $(3 + col); if (call) calls[fn " -> " cfn] += v; else self[fn] += v; call = 0 }
    END {
      for (k in self) if (self[k] != 0) printf "fn %s\t%d\n", k, self[k]
      for (k in calls) if (calls[k] != 0) printf "call %s\t%d\n", k, calls[k]
    }' "$1" | sort
}

# pprof profiles: our output and pprof -callgrind's agree on every node's flat value and every
# edge's inclusive value, summed by function name, on a count type (pprof scales times to ms).
for input in "$root/golden/pprof/testdata/cpu.prof" "$inputs/workload.callgrind.gz"; do
  base=$(basename "$input")
  prof2pprof -o "$T/$base.pb.gz" "$input" 2>/dev/null
  prof2callgrind -o "$T/ours" "$T/$base.pb.gz" 2>/dev/null
  type=$(prof-text --canonical "$T/$base.pb.gz" | awk '$1 == "type" && $3 == "count" { print $2; exit }')
  "$pprof" -callgrind -sample_index="$type" -output "$T/theirs" "$T/$base.pb.gz" 2>/dev/null
  event=$(sed -n 's/^events: *//p' "$T/theirs")
  column=$(sed -n 's/^events: *//p' "$T/ours" | tr ' ' '\n' | grep -n -x -F -- "$event" | cut -d: -f1)
  costs "$T/ours" "$((column - 1))" >"$T/c-ours"
  costs "$T/theirs" 0 >"$T/c-theirs"
  compare "$base ($type): prof2callgrind vs pprof -callgrind, flat and call costs" \
    "$T/c-theirs" "$T/c-ours"
  # callgrind_annotate's per-function totals of our output are prof-text's.
  annotate "$T/ours" "$event" >"$T/a-ours"
  top "$T/$base.pb.gz" "$type" >"$T/top"
  compare "$base ($type): prof2callgrind read by callgrind_annotate vs prof-text --top" \
    "$T/a-ours" "$T/top"
done
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
