#!/usr/bin/env bash
# prof-text --list (issue 30) on the generated 1,000,000-sample profile, for a function whose
# samples are spread over 1,000 lines: the profile's first 1,000 locations (of 20,000) made lines
# 1..1000 of one function hot::spread in src/hot.cc, a source file of 1,010 lines written here.
# The prof text, and the same profile as .pb.gz beside Google's pprof -list on it; each pair runs
# alternately, three times each, and the run of median CPU time is shown. The target: ≤ 1 s.
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-list.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/measure.sh"

gen-profile --samples 1000000 --seed 1 |
  awk '$1 == "function" && !done { print "function 5001 hot::spread \"\" src/hot.cc 1"; done = 1 }
       $1 == "location" && $2 + 0 <= 1000 { $NF = "5001:" $2 }
       { print }' >"$tmp/hot.prof"
mkdir -p "$tmp/tree/src"
awk 'BEGIN { print "// hot::spread: 1,010 lines, one statement each"
             for (i = 2; i <= 1010; i++) printf "  total += step(%d);\n", i }' >"$tmp/tree/src/hot.cc"
prof2pprof -o "$tmp/hot.pb.gz" "$tmp/hot.prof"
text=$tmp/hot.prof
pb=$tmp/hot.pb.gz
list="--list '^hot::spread\$' --source-path $tmp/tree"
prof-text --list '^hot::spread$' --source-path "$tmp/tree" "$text" >"$tmp/ours"
echo "input: generated, 1,000,000 samples, 50,000 stacks; hot::spread has values on" \
  "$(awk '$2 != "." && $3 ~ /^[0-9]+:/' "$tmp/ours" | wc -l) of its" \
  "$(awk '$3 ~ /^[0-9]+:/' "$tmp/ours" | wc -l) listed lines"
side_by_side 3 "prof-text --list (prof text)" "$text" "prof-text $list $text >/dev/null" \
  "prof-text --top (the same prof text)" "$text" "prof-text --top $text >/dev/null"
pprof=${PPROF:-/opt/pprof/pprof}
if [ ! -x "$pprof" ]; then
  echo "($pprof missing: run tests/interop/setup-pprof.sh)"
  exit 0
fi
side_by_side 3 "prof-text --list (.pb.gz)" "$pb" "prof-text $list $pb >/dev/null" \
  "pprof -list" "$pb" "$pprof -list '^hot::spread\$' -symbolize=none -source_path $tmp/tree $pb >/dev/null 2>&1"
prof-text --list '^hot::spread$' --source-path "$tmp/tree" "$pb" >"$tmp/ours-pb"
"$pprof" -list '^hot::spread$' -symbolize=none -source_path "$tmp/tree" "$pb" >"$tmp/pprof" 2>/dev/null
echo "rows differing from pprof -list's: $(diff "$tmp/ours-pb" "$tmp/pprof" | grep -c '^<' || true)" \
  "of $(wc -l <"$tmp/ours-pb") (pprof writes values of an hour or more in hrs, prof-text in s)"
