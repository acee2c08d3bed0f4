#!/usr/bin/env bash
# prof-text --peek against Google's pprof -peek: for every frame, the same flat (our self) and
# cum values, and the same callers and callees with the same values, on the golden profiles
# (through prof2pprof), the pprof corpus under golden/pprof/corpus (as they are) and the perf
# captures under golden/perf/corpus/flamegraph (through perf2prof).
#
# Frames without a function name are "<unknown>" in pprof and their address or [unknown] in
# prof-text: they are compared as one "<unknown>" frame, whose own block is left out (pprof
# merges them). A name holding a newline is compared by its first line (pprof prints it raw),
# and bytes the two print differently (escapes, invalid UTF-8, non-ASCII) as "?".
#
# Deliberate differences, left out of the comparison (man prof-text, --peek): frames marked
# "(recursive)" (some sample holds them twice: pprof counts every distinct edge of a sample,
# prof-text the caller of the outermost and the callee of the innermost call, so that callers
# and callees each add up to cum), and the [root] and [self] rows pprof does not have.
#
# Uses $PPROF_PREFIX/pprof (tests/interop/setup-pprof.sh); skips, saying why, without it.
name=interop-peek
. "$(dirname "$0")/interop/prelude.sh"
skipped=0

. "$(dirname "$0")/interop/normalise.sh"  # default_unit

# pprof -peek -> "node NAME flat cum", "in NODE CALLER value", "out NODE CALLEE value" (tab
# separated; names escaped as prof-text writes sequences: \ -> \\, ; -> \x3b).
normalise_pprof() {
  awk -v skip="$1" '
    function esc(s) { gsub(/\\/, "\\\\\\\\", s); gsub(/;/, "\\x3b", s); gsub(/\t/, "?", s); return s }
    function num(s) { sub(/[a-zA-Z]+$/, "", s); return s }
    function flush(   i) {
      if (node != "" && !(node in recursive)) {
        print "node\t" node "\t" flat "\t" cum
        for (i = 1; i <= n; i++) print edge[i]
      }
      node = ""; n = 0
    }
    BEGIN { while ((getline line < skip) > 0) recursive[line] = 1 }
    /^-+\+-+$/ { flush(); next }
    /^ +flat +flat%/ { next }
    / \| / {
      left = $0; sub(/ \| .*/, "", left); name = $0; sub(/^[^|]*\| /, "", name)
      sub(/ \(inline\)$/, "", name)
      split(left, f, " ")
      if (f[3] != "") {  # the node: flat flat% sum% cum cum%
        node = esc(name); flat = num(f[1]); cum = num(f[4])
        for (i = 1; i <= n; i++) edge[i] = "in\t" node substr(edge[i], 8)
        after = 1; next
      }
      sub(/^  /, "", name)
      edge[++n] = (node == "" ? "in\tNODE\t" : "out\t" node "\t") esc(name) "\t" num(f[1])
      next
    }
    END { flush() }' | sort | merge_unknown
}

# prof-text --peek --raw-values -> the same records; recursive frames go to file $1.
normalise_ours() {
  awk -v skip="$1" '
    function flush(   i) {
      if (node != "" && !recursive) {
        print "node\t" node "\t" self "\t" cum
        for (i = 1; i <= n; i++) print edge[i]
      }
      node = ""; n = 0; side = ""
    }
    /^-+\+-+\+-+$/ { flush(); started = 1; next }
    !started { next }
    node == "" {
      node = $0; recursive = sub(/   \(recursive\)$/, "", node)
      if (recursive) print node > skip
      next
    }
    /^  callers/ { side = "in"; next }
    /^  callees/ { side = "out"; next }
    $3 == "cum" && side == "" { cum = $1; next }
    $3 == "self" && side == "" { self = $1; next }
    {
      value = $1; seq = $0
      if (NF == 3 && ($3 == "[root]" || $3 == "[self]")) next  # pprof has no such rows
      sub(/.*   /, "", seq); k = split(seq, part, ";")
      edge[++n] = side "\t" node "\t" (side == "in" ? part[1] : part[k]) "\t" value
    }
    END { flush() }' | sort | merge_unknown
}

# Address-only frames as "<unknown>", their values summed; no block of their own.
merge_unknown() {
  awk -F '\t' -v OFS='\t' '
    {
      for (i = 2; i <= 3; i++) {
        if ($i ~ /^0x[0-9a-f]+$/ || $i == "<unknown>" || $i == "[unknown]") $i = "<unknown>"
        sub(/\\n.*/, "", $i)  # pprof prints a newline in a name as it is: the first line
        # Bytes both print differently (escapes, invalid UTF-8, tabs) as one "?" per run.
        gsub(/\\x3b/, ";", $i); gsub(/\\x[0-9a-f][0-9a-f]/, "?", $i); gsub(/\\[tr]/, "?", $i)
        gsub(/[^ -~]/, "?", $i); gsub(/\?+/, "?", $i)
      }
    }
    $1 == "node" && $2 == "<unknown>" { next }
    $2 == "<unknown>" { next }
    $1 == "node" { print; next }
    { sum[$1 OFS $2 OFS $3] += $4 }
    END { for (k in sum) print k, sum[k] }' | sort
}

compare() {  # NAME PPROF-INPUT OUR-INPUT
  local name=$1 pb=$2 ours=$3 unit
  unit=$(default_unit "$ours")
  checks=$((checks + 1))
  : >"$T/recursive"
  prof-text --peek . --raw-values "$ours" 2>/dev/null | sed 's/ *$//' |
    normalise_ours "$T/recursive" >"$T/got"
  "$pprof" -peek . -symbolize=none -unit="$unit" "$pb" 2>/dev/null | normalise_pprof "$T/recursive" \
    >"$T/want"
  skipped=$((skipped + $(wc -l <"$T/recursive")))
  if ! cmp -s "$T/want" "$T/got"; then
    echo "interop-peek: FAIL: $name: pprof -peek differs from prof-text --peek:"
    diff "$T/want" "$T/got" | head -10
    fail=$((fail + 1))
  fi
}

for f in "$root"/golden/inputs/*.prof "$root"/golden/sequences/inputs/*.prof; do
  prof2pprof -o "$T/p.pb.gz" "$f" || continue
  compare "${f#"$root/"}" "$T/p.pb.gz" "$f"
done
# (The project's own copies of the corpus, so that a clean clone tests the same profiles.)
for f in "$root"/golden/pprof/corpus/*.*.pb.gz; do
  [ -f "$f" ] && compare "${f#"$root/"}" "$f" "$f"
done
for f in "$root"/golden/perf/corpus/flamegraph/perf-*.txt.gz; do
  [ -f "$f" ] || continue
  perf2prof "$f" >"$T/p.prof" 2>/dev/null && prof2pprof -o "$T/p.pb.gz" "$T/p.prof" || continue
  compare "${f#"$root/"}" "$T/p.pb.gz" "$T/p.prof"
done
echo "interop-peek: $checks profiles, $fail failed ($skipped recursive frames left out)"
[ "$fail" = 0 ]
