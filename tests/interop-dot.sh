#!/usr/bin/env bash
# prof-text --dot against Google's pprof -dot, byte for byte: the same graph (nodes, order,
# values, colours, font sizes, edges, tags) and legend, on the golden profiles (through
# prof2pprof) and the pprof corpus under golden/pprof/corpus, by function (the default), line,
# file and address, and with a small --nodecount. Then pprof's own expected DOT outputs in its
# sources (Debian's golang-github-google-pprof-dev) for the profiles its driver tests build
# that we have in prof text (golden/pprof/testdata), with the options those tests use.
#
# Uses $PPROF_PREFIX/pprof (tests/interop/setup-pprof.sh); skips, saying why, without it.
name=interop-dot
. "$(dirname "$0")/interop/prelude.sh"

# prof2pprof keeps our records in the profile's comments ("proftext: ..."), which pprof shows in
# the legend and prof-text reads back as records: left out, and the legend box named LEGEND.
#
# Edges of equal weight between nodes of equal names (at file granularity several functions'
# nodes are named by their file) come out of pprof in the order of a Go map: such runs of lines
# are sorted in both outputs. names.prof has a label with an empty value, which pprof reads as
# no label at all (profile.proto cannot tell them apart) and prof-text keeps: left out here.
legend_canon() {
  sed -E 's/proftext: ([^"\\]|\\[^l])*\\l//g
          s/^subgraph cluster_L \{ ".*" \[shape=box fontsize=16 label=/subgraph cluster_L { "LEGEND" [shape=box fontsize=16 label=/
          s/\\nempty:\\n/\\n/' |
    awk '
      function flush(   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && run[j - 1] > run[j]; j--) { t = run[j]; run[j] = run[j - 1]; run[j - 1] = t }
        for (i = 1; i <= n; i++) print run[i]
        n = 0
      }
      /^N[0-9]+ -> N[0-9]+ \[/ {
        key = $0; sub(/^N[0-9]+ -> N[0-9]+ /, "", key)
        if (n > 0 && key != last) flush()
        run[++n] = $0; last = key; next
      }
      { flush(); print }
      END { flush() }'
}

# check NAME WANT OUR-INPUT OUR-FLAGS...: pprof's DOT in the file WANT against prof-text --dot's.
check() {
  local label=$1 want=$2 ours=$3
  shift 3
  [ -s "$want" ] || return 0
  checks=$((checks + 1))
  legend_canon <"$want" >"$T/want"
  prof-text --dot "$@" "$ours" 2>"$T/err" | legend_canon >"$T/got"
  [ "${PIPESTATUS[0]}" = 0 ] || {
    problem "$label: prof-text --dot $* failed: $(head -c 300 "$T/err")"
    return 0
  }
  if ! cmp -s "$T/want" "$T/got"; then
    problem "$label: pprof -dot and prof-text --dot $* differ:"
    diff "$T/want" "$T/got" | head -8
  fi
}

compare() {  # NAME PPROF-INPUT OUR-INPUT
  "$pprof" -dot -symbolize=none "$2" >"$T/want.dot" 2>/dev/null
  check "$1" "$T/want.dot" "$3"
}

# The variants of one profile from one pprof session (edges of equal weight come in another
# order, which legend_canon sorts): functions, lines, files, addresses, and 6 nodes.
variants() {  # NAME PPROF-INPUT OUR-INPUT
  rm -f "$T"/want-*.dot
  pprof_session "$2" >/dev/null <<EOF
dot > $T/want-functions.dot
granularity=lines
dot > $T/want-lines.dot
granularity=files
dot > $T/want-files.dot
granularity=addresses
dot > $T/want-addresses.dot
granularity=functions
nodecount=6
dot > $T/want-nodecount.dot
EOF
  check "$1" "$T/want-functions.dot" "$3"
  check "$1 (lines)" "$T/want-lines.dot" "$3" --granularity lines
  check "$1 (files)" "$T/want-files.dot" "$3" --granularity files
  check "$1 (addresses)" "$T/want-addresses.dot" "$3" --granularity addresses
  check "$1 (-nodecount=6)" "$T/want-nodecount.dot" "$3" --nodecount 6
}

for f in "$root"/golden/inputs/*.prof "$root"/golden/sequences/inputs/*.prof; do
  prof2pprof -o "$T/p.pb.gz" "$f" 2>/dev/null || continue
  variants "${f#"$root/"}" "$T/p.pb.gz" "$f"
done
for f in "$root"/golden/pprof/corpus/*.*.pb.gz; do
  [ -f "$f" ] && variants "${f#"$root/"}" "$f" "$f"
done
# Every format's golden inputs (callgrind, Chrome, Firefox, folded, JFR, speedscope ...), by
# function: our readers' profiles drawn by both.
for f in "$root"/golden/*/inputs/*; do
  case $f in */golden/sequences/*) continue ;; esac
  [ -f "$f" ] && prof2pprof -o "$T/p.pb.gz" "$f" 2>/dev/null || continue
  compare "${f#"$root/"}" "$T/p.pb.gz" "$f"
done

# pprof's expected outputs, for the profiles of its driver_test.go we have in prof text.
expected=/usr/share/gocode/src/github.com/google/pprof/internal/driver/testdata
if [ -d "$expected" ]; then
  # driver_test.go's baseFlags: nodecount 20, nodefraction 0.05, edgefraction 0.01.
  checks=$((checks + 1))
  if ! prof-text --dot --nodecount 20 --min-percent 5 --edge-percent 1 \
    "$root/golden/pprof/testdata/cpu.prof" | cmp -s - "$expected/pprof.cpu.flat.functions.dot"; then
    problem "prof-text --dot differs from pprof's pprof.cpu.flat.functions.dot"
  fi
fi
echo "$name: $checks graphs compared with pprof's, $fail differ"
[ "$fail" = 0 ]
