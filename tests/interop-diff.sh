#!/usr/bin/env bash
# prof-text --diff-base against Google's pprof -diff_base: the same total (the base's), the same
# flat and cumulative difference per function (--top, untrimmed and with both tools' default
# trimming: the same rows kept, the same number dropped), and the same difference per stack
# (--traces), on
#   - pbgen profiles of the same shape with other seeds (every function both grew and shrank);
#   - each corpus profile against itself less one function (prof-filter --ignore), so that the
#     difference is that function's stacks, negative;
#   - each corpus profile against itself (every difference 0: no rows, as pprof).
# Not compared: --normalize, which scales the base to this profile's total where pprof's
# -normalize scales this profile to the base's (man prof-text says why).
name=interop-diff
. "$(dirname "$0")/interop/prelude.sh"
. "$(dirname "$0")/interop/normalise.sh"

compare() {  # BASE PROFILE WHAT (pprof files)
  local base=$1 profile=$2 what=$3 unit
  checks=$((checks + 1))
  unit=$(default_unit "$profile")
  "$pprof" -top -symbolize=none -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit="$unit" \
    -diff_base "$base" "$profile" 2>/dev/null | normalise_top >"$T/want"
  prof-text --top --no-trim --raw-values --diff-base "$base" "$profile" | normalise_top >"$T/got"
  cmp -s "$T/want" "$T/got" || problem "$what: pprof -top -diff_base differs from prof-text --top --no-trim --diff-base:
$(diff "$T/want" "$T/got" | head -10)"
  { "$pprof" -top -symbolize=none -unit="$unit" -diff_base "$base" "$profile" 2>/dev/null |
    tee "$T/want.raw" | normalise_top; grep -o '^Dropped [0-9]* nodes*' "$T/want.raw"; } >"$T/want"
  { prof-text --top --raw-values --diff-base "$base" "$profile" | tee "$T/got.raw" | normalise_top
    grep -o '^Dropped [0-9]* nodes*' "$T/got.raw"; } >"$T/got"
  cmp -s "$T/want" "$T/got" || problem "$what: default trimming differs from pprof's:
$(diff "$T/want" "$T/got" | head -10)"
  # pprof -traces prints each sample, the base's negated: summed per stack they are our traces.
  "$pprof" -traces -symbolize=none -unit="$unit" -diff_base "$base" "$profile" 2>/dev/null |
    normalise_traces >"$T/want"
  prof-text --traces --raw-values --diff-base "$base" "$profile" | normalise_traces >"$T/got"
  cmp -s "$T/want" "$T/got" || problem "$what: pprof -traces -diff_base differs from prof-text --traces --diff-base:
$(diff "$T/want" "$T/got" | head -10)"
}

pbgen=$prefix/pbgen/pbgen
if [ -x "$pbgen" ]; then
  for seeds in "1 2" "3 4"; do
    set -- $seeds
    "$pbgen" -samples 3000 -funcs 40 -seed "$1" -o "$T/a.pb.gz" >/dev/null
    "$pbgen" -samples 2500 -funcs 40 -seed "$2" -o "$T/b.pb.gz" >/dev/null
    compare "$T/b.pb.gz" "$T/a.pb.gz" "pbgen seeds $1 - $2"
  done
fi

for f in "$root"/golden/pprof/corpus/*.*.pb.gz; do
  what=${f#"$root/"}
  compare "$f" "$f" "$what against itself"
  # The function of the 2nd row of --top, by its exact name.
  victim=$(prof-text --top --no-trim "$f" 2>/dev/null | awk 'rows == 2 { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print; exit } rows { rows++ } /^ +flat +flat%/ { rows = 1 }')
  [ -n "$victim" ] || continue
  regex=$(printf '%s' "$victim" | sed 's/[][\.*^$()+?{}|]/\\&/g')
  prof-filter --ignore "^$regex\$" "$f" | prof2pprof -o "$T/less.pb.gz" || { problem "$what: prof-filter failed"; continue; }
  compare "$f" "$T/less.pb.gz" "$what less $victim"
done

echo "interop-diff: $checks comparisons with $pprof_bin -diff_base, $fail problem(s)"
[ "$fail" = 0 ]
