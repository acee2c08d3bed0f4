#!/usr/bin/env bash
# Interop of prof-filter's frame and label filters with Google's pprof: for each filter pprof
# has (-focus, -ignore, -hide, -show, -show_from, -prune_from, -tagfocus, -tagignore, and
# -tagshow/-taghide beside --keep-labels/--drop-labels), on the
# corpus profiles and the golden frame inputs, `prof-filter OPTION | prof2pprof` and
# `pprof -OPTION -proto` are the same profile: pbdump -merge (pprof's own parser; every
# aggregated sample with its values, labels and frames: function, file, line, inlining) prints
# the same, apart from representation: the mappings, which prof-filter writes only when still
# used where pprof keeps them all, and counts of definitions, string table size, file name.
# pprof -traces -symbolize=none (header and totals included, "File:" aside: the first mapping's)
# must print the same bytes too. Both apply the profile's drop_frames. The expressions are
# words of each profile's functions (its 1st, 3rd and 6th by flat value) and "lib" (mapping
# files: libc.so, ...).
#
# The deliberate difference: pprof drops samples with an empty stack whatever the options;
# prof-filter keeps them unless --focus, --show or --show-from leaves them out
# (man/prof-filter-frames.txt). A profile with such samples is compared as pprof loads it (its
# `pprof -proto` without options), so both sides start without them.
#
# The tools come from tests/interop/setup-pprof.sh, as for tests/interop-pprof.sh.
name=interop-filter
. "$(dirname "$0")/interop/prelude.sh"

# pprof's report, without the comment line that says what prof-filter applied.
report() {
  "$pprof" "$1" -symbolize=none "$2" 2>&1 | grep -v -e '^proftext: meta proftools.filter ' -e '^File: '
}

# pbdump -merge: the header, totals, and every (stack, labels) with its values, each frame
# with its function, file and line, inlined ones marked. Left out: what says how it is stored
# (file name, string table size, the count of definitions, lint) and the mappings, since
# prof-filter writes only those still used; and our meta record.
dump() {
  "$pbdump" -merge "$1" 2>&1 | grep -v -e '^file:' -e '^string_table_size:' -e '^counts:' \
    -e '^lint:' -e '^mapping:' -e '^comment: proftext: meta proftools.filter '
}

# The same profile for pprof: pbdump -merge, and pprof -traces unless TRACES is 0, byte for byte.
# pbdump (0.01 s) holds every sample, frame and total; -traces (two starts of pprof, 0.1 s each)
# adds pprof's reading of them, so it runs for each option's first expression on a profile.
same_for_pprof() { # NAME OURS THEIRS [TRACES]
  if ! cmp -s <(dump "$2") <(dump "$3"); then
    problem "$1: pbdump -merge differs:
$(diff <(dump "$2") <(dump "$3") | head -12)"
  elif [ "${4:-1}" = 1 ] && ! cmp -s <(report -traces "$2") <(report -traces "$3"); then
    problem "$1: pprof -traces differs:
$(diff <(report -traces "$2") <(report -traces "$3") | head -12)"
  fi
}

# Words of the profile's function names: from the 1st, 3rd and 6th rows of prof-text --top.
words() {
  prof-text --top --no-trim --raw-values "$1" 2>/dev/null |
    awk 'rows { $1 = $2 = $3 = $4 = $5 = ""; print } /^ +flat +flat%/ { rows = 1 }' |
    sed -n '1p;3p;6p' | while IFS= read -r name; do
    grep -o '[A-Za-z_][A-Za-z0-9_]\{3,\}' <<<"$name" | awk '{ print length, $0 }' |
      sort -rn | head -1 | cut -d' ' -f2
  done | awk 'NF && !seen[$0]++'
}

profiles=()
for f in "$root"/golden/pprof/corpus/{ok,lenient}-*.pb.gz "$root"/golden/pprof/corpus/*.*.pb.gz; do
  profiles+=("$f")
done
n=0
for f in "$root"/golden/filter/inputs/frames-*.prof; do
  n=$((n + 1))
  prof2pprof -o "$T/golden-$n.pb.gz" "$f" && profiles+=("$T/golden-$n.pb.gz")
done

for original in "${profiles[@]}"; do
  name=${original#"$root/"}
  f=$original
  if prof-text --traces --keep-dropped-frames "$f" 2>/dev/null | grep -q '(no frames)'; then
    f=$T/loaded.pb.gz
    "$pprof" -proto -symbolize=none "$original" >"$f" 2>/dev/null
  fi
  mapfile -t res < <(words "$f")
  res+=(lib)
  for re in "${res[@]}"; do
    traces=0
    [ "$re" = "${res[0]}" ] && traces=1
    for option in focus ignore hide show show_from prune_from; do
      checks=$((checks + 1))
      label="$name: --${option//_/-} $re"
      if ! prof-filter "--${option//_/-}" "$re" "$f" 2>/dev/null | prof2pprof -o "$T/ours.pb.gz"; then
        problem "$label: prof-filter | prof2pprof failed"
        continue
      fi
      "$pprof" "-$option=$re" -proto -symbolize=none "$f" >"$T/theirs.pb.gz" 2>/dev/null ||
        { problem "$label: pprof -proto failed"; continue; }
      same_for_pprof "$label" "$T/ours.pb.gz" "$T/theirs.pb.gz" "$traces"
    done
  done
done

# Label filters, on the profiles that have labels: a string label by regular expression, a
# numeric one by range.
label_case() { # FILE OUR-SPEC PPROF-SPEC
  local f=$1 label
  for option in focus ignore; do
    checks=$((checks + 1))
    label="${f#"$root/"}: --label-$option $2"
    prof-filter "--label-$option" "$2" "$f" 2>/dev/null | prof2pprof -o "$T/ours.pb.gz" ||
      { problem "$label: prof-filter | prof2pprof failed"; continue; }
    "$pprof" "-tag$option=$3" -proto -symbolize=none "$f" >"$T/theirs.pb.gz" 2>/dev/null ||
      { problem "$label: pprof -proto failed"; continue; }
    same_for_pprof "$label" "$T/ours.pb.gz" "$T/theirs.pb.gz"
  done
}
corpus=$root/golden/pprof/corpus
label_case "$corpus/ok-labels.pb.gz" 'thread=ma' 'thread=ma'
for heap in "$corpus"/*.heap.pb.gz; do
  label_case "$heap" 'bytes=1KiB..' 'bytes=1kb:'
  label_case "$heap" 'bytes=..600B' 'bytes=:600b'
done

# Which label keys samples keep: --keep-labels and --drop-labels take keys, pprof's -tagshow and
# -taghide regular expressions over keys; anchored, they select the same.
keys_case() { # FILE OUR-OPTION KEYS PPROF-OPTION RE
  local f=$1 label="${1#"$root/"}: --$2 $3"
  checks=$((checks + 1))
  prof-filter "--$2" "$3" "$f" 2>/dev/null | prof2pprof -o "$T/ours.pb.gz" ||
    { problem "$label: prof-filter | prof2pprof failed"; return; }
  "$pprof" "-$4=$5" -proto -symbolize=none "$f" >"$T/theirs.pb.gz" 2>/dev/null ||
    { problem "$label: pprof -proto failed"; return; }
  same_for_pprof "$label" "$T/ours.pb.gz" "$T/theirs.pb.gz"
}
keys_case "$corpus/ok-labels.pb.gz" keep-labels thread tagshow '^thread$'
keys_case "$corpus/ok-labels.pb.gz" drop-labels thread taghide '^thread$'
for heap in "$corpus"/*.heap.pb.gz; do
  keys_case "$heap" drop-labels bytes taghide '^bytes$'
done

if [ "$fail" -gt 0 ]; then
  echo "interop-filter: $fail of $checks checks failed"
  exit 1
fi
echo "interop-filter: $checks checks passed (${#profiles[@]} profiles)"
