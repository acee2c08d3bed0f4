#!/usr/bin/env bash
# Interop with Google's pprof: our .pb.gz files are what pprof reads, and pprof reports on them
# what prof-text reports on the text.
#
#   1. pbdump (pprof's own parser and CheckValid) accepts prof2pprof's output of every golden
#      text profile (golden/inputs and every prof text golden output, e.g. rprof2prof's).
#   2. pprof -top and -traces (with -symbolize=none) give the same total, the same flat and
#      cumulative value per function, and the same value per stack as prof-text --top and
#      --traces on the text, untrimmed and with both tools' default trimming (the same rows
#      kept and the same "Dropped N nodes") (formatting normalised: raw values, pprof's " (inline)" and
#      newline-broken names; labels ignored since prof-text --traces does not split by them).
#   3. Names: rprof2prof's <GC> and <Anonymous> frames keep their names in pprof even without
#      -symbolize=none (prof2pprof writes system_name so that pprof's demangler leaves them).
#   3b. The same -top comparison on real perf recordings through perf2prof (unsymbolised frames
#      are pprof's one <unknown>).
#   4. Every corpus .pb.gz through pprof2prof | prof2pprof --keep-samples is the same profile
#      for pbdump (lint lines and string table size aside: see formats/prof-text.md §8), and
#      with the default aggregation the same after pprof's merge (pbdump -merge); pprof -top
#      and -traces print the same bytes for the original and for both round trips.
#   5. A pbgen profile big enough for several gzip blocks (stored uncompressed) round-trips.
#   5b. Two prof2pprof profiles merged by pprof -proto (two `source 1` comments) read back, with
#      a warning, to prof-merge's totals.
#   6. The advice our programs give for pprof's legacy formats works: every legacy profile of
#      pprof's test data (and the copies in golden/format/legacy-pprof) is refused naming
#      'pprof -proto', and what 'pprof -proto FILE' writes is a valid profile for prof-validate.
#
# The tools come from tests/interop/setup-pprof.sh (a copy of the shared setup script: it
# installs Go and pprof's sources from Debian packages and builds pprof, pbdump and pbgen into
# $PPROF_PREFIX, default /opt/pprof). The test skips, saying why, only when they are missing
# and cannot be installed (no root to run apt-get, or apt-get failing).
name=interop
. "$(dirname "$0")/interop/prelude.sh"
. "$(dirname "$0")/interop/normalise.sh"

# --- 1-3: every golden text profile -----------------------------------------------------------
# One pprof session per profile (pprof_session: its header lines, which the comparisons leave
# out anyway, are not in `top`'s output). nodecount=0 is -top's default; nodefraction and
# edgefraction are pprof's defaults.
# A golden stdout may hold a profile followed by report lines: only whole, valid profiles.
# prof-validate checks each input on its own and names it in its messages: one run for all.
candidates=()
for f in "$root"/golden/inputs/*.prof $(grep -rl '^proftext 1' --include=stdout "$root/golden"); do
  read -r first <"$f"
  [[ $first == "proftext 1"* ]] && candidates+=("$f")
done
declare -A invalid=()
while IFS= read -r f; do
  invalid[$f]=1
done < <(prof-validate "${candidates[@]}" 2>&1 >/dev/null |
  sed -n '/^prof-validate: warning: /d; s/^prof-validate: \([^:]*\):.*/\1/p')
texts=()
for f in "${candidates[@]}"; do
  [ -n "${invalid[$f]-}" ] || texts+=("$f")
done
# Every profile's .pb.gz first, for one pbdump -compact (a line each) over all of them.
pbs=()
for i in "${!texts[@]}"; do
  if prof2pprof -o "$T/text-$i.pb.gz" "${texts[$i]}"; then
    pbs+=("$T/text-$i.pb.gz")
  else
    checks=$((checks + 1))
    problem "${texts[$i]#"$root/"}: prof2pprof failed"
  fi
done
"$pbdump" -compact "${pbs[@]}" >"$T/compact" 2>&1
for i in "${!texts[@]}"; do
  f=${texts[$i]}
  pb=$T/text-$i.pb.gz
  [ -f "$pb" ] || continue
  name=${f#"$root/"}
  checks=$((checks + 1))
  out=$(grep -F "$pb	" "$T/compact")
  case $out in *"	OK	"*) ;; *) problem "$name: pbdump: $out"; continue ;; esac
  # Only profiles with samples have reports to compare. One awk for what the checks need: the
  # default type's unit (default_unit's rule), whether there are samples, the names of 3.
  prof-text --canonical "$f" >"$T/canonical.prof"
  IFS=$'\t' read -r unit has_samples specials < <(awk '
    $1 == "type" { unit[$2] = $3; last = $3 }
    $1 == "default_type" { d = unit[$2] }
    $1 == "sample" { samples = 1 }
    $1 == "function" && ($3 == "<GC>" || $3 == "<Anonymous>") { special[$3] = 1 }
    END {
      names = ""
      for (name in special) names = names " " name
      printf "%s\t%s\t%s\n", (d != "" ? d : last), (samples ? "yes" : "no"), names
    }' "$T/canonical.prof")
  [ "$has_samples" = yes ] || continue
  pprof_session "$pb" >/dev/null <<EOF
unit=$unit
nodecount=1000000
nodefraction=0
edgefraction=0
top > $T/want-all.raw
nodecount=0
nodefraction=0.005
edgefraction=0.001
top > $T/want.raw
traces > $T/want-traces.raw
EOF
  normalise_top <"$T/want-all.raw" >"$T/want.top"
  prof-text --top --no-trim --raw-values "$f" | normalise_top >"$T/got.top"
  cmp -s "$T/want.top" "$T/got.top" ||
    problem "$name: pprof -top differs from prof-text --top --no-trim:
$(diff "$T/want.top" "$T/got.top" | head -10)"
  # Default trimming (pprof's nodefraction 0.005): the same rows kept, the same number dropped.
  { normalise_top <"$T/want.raw"; grep -o '^Dropped [0-9]* nodes*' "$T/want.raw"; } >"$T/want.top"
  { prof-text --top --raw-values "$f" | tee "$T/got.raw" | normalise_top
    grep -o '^Dropped [0-9]* nodes*' "$T/got.raw"; } >"$T/got.top"
  cmp -s "$T/want.top" "$T/got.top" ||
    problem "$name: pprof -top differs from prof-text --top (default trimming):
$(diff "$T/want.top" "$T/got.top" | head -10)"
  normalise_traces <"$T/want-traces.raw" >"$T/want.traces"
  prof-text --traces --raw-values "$f" | normalise_traces >"$T/got.traces"
  cmp -s "$T/want.traces" "$T/got.traces" ||
    problem "$name: pprof -traces differs from prof-text --traces:
$(diff "$T/want.traces" "$T/got.traces" | head -10)"
  # 3: names pprof would blank survive its default symbolization.
  for special in $specials; do
    "$pprof" -top -nodecount=1000000 -nodefraction=0 "$pb" 2>/dev/null |
      grep -q " $special\$" || problem "$name: pprof does not show $special by name"
  done
done

# --- 3b: real perf recordings through perf2prof: pprof -top's rows, total and "Dropped N nodes"
# (pprof's one <unknown> node for frames with neither symbol nor binary: issue 24, item 5).
for f in "$root"/golden/perf/corpus/flamegraph/*.txt.gz "$root"/golden/perf/corpus/local/perf61-{fp-default,multi-event,offcpu-sched-switch,srcline}.txt.gz; do
  name=${f#"$root/"}
  checks=$((checks + 1))
  zcat "$f" | perf2prof 2>/dev/null >"$T/perf.prof" || { problem "$name: perf2prof failed"; continue; }
  prof2pprof -o "$T/perf.pb.gz" "$T/perf.prof"
  unit=$(default_unit "$T/perf.prof")
  { "$pprof" -top -symbolize=none -unit="$unit" "$T/perf.pb.gz" 2>/dev/null | tee "$T/want.raw" |
    normalise_top; grep -o '^Dropped [0-9]* nodes*' "$T/want.raw"; } >"$T/want.top"
  { prof-text --top --raw-values "$T/perf.prof" | tee "$T/got.raw" | normalise_top
    grep -o '^Dropped [0-9]* nodes*' "$T/got.raw"; } >"$T/got.top"
  cmp -s "$T/want.top" "$T/got.top" ||
    problem "$name: pprof -top differs from prof-text --top on perf2prof's output:
$(diff "$T/want.top" "$T/got.top" | head -10)"
done

# --- 4: every corpus .pb.gz round trip ------------------------------------------------------
dump() { "$pbdump" "$@" 2>&1 | grep -v -e '^file:' -e '^string_table_size:' -e '^lint:'; }
for f in "$root"/golden/pprof/corpus/{ok,lenient}-*.pb.gz "$root"/golden/pprof/corpus/*.*.pb.gz; do
  case $f in */bad-*) continue ;; esac
  name=${f#"$root/"}
  checks=$((checks + 1))
  pprof2prof -o "$T/rt.prof" "$f" 2>/dev/null && prof2pprof --keep-samples -o "$T/k.pb.gz" "$T/rt.prof" ||
    { problem "$name: round trip failed"; continue; }
  prof2pprof -o "$T/a.pb.gz" "$T/rt.prof"
  cmp -s <(dump "$f") <(dump "$T/k.pb.gz") ||
    problem "$name: pbdump differs after pprof2prof | prof2pprof --keep-samples:
$(diff <(dump "$f") <(dump "$T/k.pb.gz") | head -10)"
  cmp -s <(dump -merge "$f") <(dump -merge "$T/a.pb.gz") ||
    problem "$name: pbdump -merge differs after pprof2prof | prof2pprof"
  # And pprof itself reports the same, byte for byte: its header (the session's greeting: the
  # main binary, type, time, comments, totals), -top and -traces; one pprof session each.
  for out in orig k a; do
    pb=$T/$out.pb.gz
    [ $out = orig ] && pb=$f
    pprof_session "$pb" >"$T/$out.session" <<EOF
nodecount=0
top > $T/$out.top
traces > $T/$out.traces
EOF
    # Left out: the names of the report files.
    sed -i '/^Generating report in /d' "$T/$out.session"
  done
  for out in k a; do
    for part in session top traces; do
      cmp -s "$T/orig.$part" "$T/$out.$part" ||
        problem "$name: pprof's $part differs after pprof2prof | prof2pprof ($out)"
    done
  done
done

# --- 5: a profile of several gzip blocks, stored uncompressed ---------------------------------
# pbgen's stacks never repeat, so prof2pprof stores its 1 MiB blocks uncompressed
# (formats/prof-text.md §8); Go's gzip reader must take them, and the profile must survive.
pbgen=$prefix/pbgen/pbgen
if [ -x "$pbgen" ]; then
  checks=$((checks + 1))
  "$pbgen" -samples 30000 -seed 7 -o "$T/gen.pb.gz" >/dev/null
  if ! pprof2prof "$T/gen.pb.gz" | prof2pprof -o "$T/gen-rt.pb.gz"; then
    problem "pbgen profile: round trip failed"
  elif [ "$(stat -c %s "$T/gen-rt.pb.gz")" -lt $((2 << 20)) ]; then
    problem "pbgen profile: the round trip is under 2 MiB, too small to test several blocks"
  elif ! cmp -s <(dump -merge "$T/gen.pb.gz") <(dump -merge "$T/gen-rt.pb.gz"); then
    problem "pbgen profile: pbdump -merge differs after pprof2prof | prof2pprof"
  fi
fi

# --- 5b: our profiles merged by pprof read back (issue 29): pprof's merge keeps each distinct
# comment once, so two prof2pprof files of other sources give two `source 1` records and two
# values of a meta key; they must read (as one source standing for both, with a warning), with
# the samples of both.
name=interop
checks=$((checks + 1))
zcat "$root/golden/perf/corpus/local/perf61-multi-event-header.txt.gz" >"$T/host-a.txt"
sed 's/^# hostname : vm$/# hostname : vm-2/' "$T/host-a.txt" >"$T/host-b.txt"
perf2prof "$T/host-a.txt" | prof2pprof -o "$T/host-a.pb.gz"
perf2prof "$T/host-b.txt" | prof2pprof -o "$T/host-b.pb.gz"
"$pprof" -proto "$T/host-a.pb.gz" "$T/host-b.pb.gz" >"$T/pprof-merged.pb.gz" 2>/dev/null
if [ "$("$pprof" -comments "$T/pprof-merged.pb.gz" 2>/dev/null | grep -c '^proftext: source 1 ')" != 2 ]; then
  problem "pprof-merged: pprof's merge did not keep both sources (the test checks nothing)"
elif ! prof-validate "$T/pprof-merged.pb.gz" 2>"$T/merged.err"; then
  problem "pprof-merged: prof-validate refuses a profile pprof merged from ours: $(head -2 "$T/merged.err")"
elif ! grep -q "one source stands for 2 profiles" "$T/merged.err" ||
  ! grep -q "other values of meta 'perf.hostname'" "$T/merged.err"; then
  problem "pprof-merged: no warning says what was merged: $(cat "$T/merged.err")"
else
  # The total of every type (pprof's merge sums equal samples, so counts of records differ).
  totals() { for v in 0 1 2 3; do prof-text --raw-values --value $v "$@" 2>/dev/null | grep -o 'of [0-9]* total'; done; }
  prof-merge "$T/host-a.pb.gz" "$T/host-b.pb.gz" >"$T/ours-merged.prof"
  want=$(totals "$T/ours-merged.prof")
  got=$(totals "$T/pprof-merged.pb.gz")
  [ "$want" = "$got" ] || problem "pprof-merged: totals differ from prof-merge's: $got, not $want"
fi

# --- 6: legacy formats: the conversion we advise works -----------------------------------------
legacy_dir=/usr/share/gocode/src/github.com/google/pprof/profile/testdata
for f in "$legacy_dir"/* "$root"/golden/format/legacy-pprof/*; do
  case $f in *.string | *.md | */cmd | */stdout | */stderr | */status) continue ;; esac
  [ -f "$f" ] || continue
  checks=$((checks + 1))
  name=${f#"$root/"}
  if ! prof-validate "$f" 2>&1 | grep -q "pprof -proto FILE > FILE.pb.gz"; then
    problem "$name: prof-validate does not advise 'pprof -proto'"
  elif ! "$pprof" -proto "$f" >"$T/legacy.pb.gz" 2>/dev/null; then
    problem "$name: pprof -proto fails on it"
  elif ! prof-validate "$T/legacy.pb.gz"; then
    problem "$name: what pprof -proto writes is not a valid profile for prof-validate"
  fi
done

problems="$fail problems"
[ $fail = 1 ] && problems="1 problem"
echo "interop: $checks profiles checked against $pprof_bin, $problems"
[ $fail = 0 ]
