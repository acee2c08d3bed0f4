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
# must print the same bytes too, for the first expression's --focus and --hide and for
# --label-focus and the label keys (pprof's reading of ours, at two starts of pprof). Both
# apply the profile's drop_frames. The expressions are words of each profile's functions (its
# 1st, 3rd and 6th by flat value) and "lib" (mapping files: libc.so, ...).
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
# prof-filter writes only those still used; and our meta record. dump FILE... writes each
# FILE's dump to FILE.dump, from one run of pbdump.
dump() {
  "$pbdump" -merge "$@" 2>&1 | awk '
    /^file: / { out = substr($0, 7) ".dump"; printf "" >out; next }
    /^(string_table_size|counts|lint|mapping):/ || /^comment: proftext: meta proftools.filter / { next }
    { print >out }'
}

# The cases of one profile, run together: one pprof session (pprof_session) makes every case's
# profile, and one pbdump dumps them all.
# add_case LABEL TRACES PPROF-OPTION PPROF-VALUE OUR-OPTION...
case_labels=()
case_traces=()
case_pprof_options=()
case_pprof_values=()
case_ours=()
add_case() {
  case_labels+=("$1")
  case_traces+=("$2")
  case_pprof_options+=("$3")
  case_pprof_values+=("$4")
  local IFS=$'\t'
  shift 4
  case_ours+=("$*")
}
# run_cases FILE: the cases added for FILE; for each, `prof-filter OPTIONS | prof2pprof` and
# pprof's profile are the same for pbdump -merge, and pprof -traces prints the same bytes for
# both (when TRACES is 1: -traces adds pprof's reading of a profile, at two starts of pprof).
run_cases() {
  local f=$1 i ours theirs options script="" files=()
  rm -f "$T"/ours-*.pb.gz "$T"/theirs-*.pb.gz  # (one rm, not one a case: a start costs ms)
  for i in "${!case_labels[@]}"; do
    ours=$T/ours-$i.pb.gz theirs=$T/theirs-$i.pb.gz
    IFS=$'\t' read -r -a options <<<"${case_ours[$i]}"
    prof-filter "${options[@]}" "$f" 2>/dev/null | prof2pprof -o "$ours" || rm -f "$ours"
    # The option, the profile, and the option cleared for the next case.
    script+="${case_pprof_options[$i]}=${case_pprof_values[$i]}"$'\n'"proto > $theirs"$'\n'
    script+="${case_pprof_options[$i]}="$'\n'
  done
  pprof_session "$f" <<<"$script" >/dev/null
  for i in "${!case_labels[@]}"; do
    for side in ours theirs; do [ -f "$T/$side-$i.pb.gz" ] && files+=("$T/$side-$i.pb.gz"); done
  done
  [ ${#files[@]} -gt 0 ] && dump "${files[@]}"
  for i in "${!case_labels[@]}"; do
    checks=$((checks + 1))
    ours=$T/ours-$i.pb.gz theirs=$T/theirs-$i.pb.gz
    if [ ! -f "$ours" ]; then
      problem "${case_labels[$i]}: prof-filter | prof2pprof failed"
    elif [ ! -f "$theirs" ]; then
      problem "${case_labels[$i]}: pprof failed"
    elif ! cmp -s "$ours.dump" "$theirs.dump"; then
      problem "${case_labels[$i]}: pbdump -merge differs:
$(diff "$ours.dump" "$theirs.dump" | head -12)"
    elif [ "${case_traces[$i]}" = 1 ] &&
      ! cmp -s <(report -traces "$ours") <(report -traces "$theirs"); then
      problem "${case_labels[$i]}: pprof -traces differs:
$(diff <(report -traces "$ours") <(report -traces "$theirs") | head -12)"
    fi
  done
  case_labels=() case_traces=() case_pprof_options=() case_pprof_values=() case_ours=()
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
    for option in focus ignore hide show show_from prune_from; do
      # pprof -traces on the first expression's --focus (samples left out) and --hide (frames).
      traces=0
      [ "$re" = "${res[0]}" ] && [[ $option = focus || $option = hide ]] && traces=1
      add_case "$name: --${option//_/-} $re" "$traces" "$option" "$re" "--${option//_/-}" "$re"
    done
  done
  run_cases "$f"
done

# Label filters, on the profiles that have labels: a string label by regular expression, a
# numeric one by range.
label_case() { # FILE OUR-SPEC PPROF-SPEC
  local option traces
  for option in focus ignore; do
    traces=0
    [ $option = focus ] && traces=1  # pprof -traces on --label-focus
    add_case "${1#"$root/"}: --label-$option $2" $traces "tag$option" "$3" "--label-$option" "$2"
  done
}
# Which label keys samples keep: --keep-labels and --drop-labels take keys, pprof's -tagshow and
# -taghide regular expressions over keys; anchored, they select the same.
keys_case() { # FILE OUR-OPTION KEYS PPROF-OPTION RE
  add_case "${1#"$root/"}: --$2 $3" 1 "$4" "$5" "--$2" "$3"
}

corpus=$root/golden/pprof/corpus
label_case "$corpus/ok-labels.pb.gz" 'thread=ma' 'thread=ma'
keys_case "$corpus/ok-labels.pb.gz" keep-labels thread tagshow '^thread$'
keys_case "$corpus/ok-labels.pb.gz" drop-labels thread taghide '^thread$'
run_cases "$corpus/ok-labels.pb.gz"
for heap in "$corpus"/*.heap.pb.gz; do
  label_case "$heap" 'bytes=1KiB..' 'bytes=1kb:'
  label_case "$heap" 'bytes=..600B' 'bytes=:600b'
  keys_case "$heap" drop-labels bytes taghide '^bytes$'
  run_cases "$heap"
done

if [ "$fail" -gt 0 ]; then
  echo "interop-filter: $fail of $checks checks failed"
  exit 1
fi
echo "interop-filter: $checks checks passed (${#profiles[@]} profiles)"
