#!/usr/bin/env bash
# prof-text --list against Google's pprof -list (issue 30): the same bytes, on
#   1. the profile pprof's driver_test.go builds (golden/pprof/testdata/cpu.prof) with the
#      source files pprof's own tests list it against (file1000.src ... in pprof's testdata,
#      found as pprof finds them: in --source-path's parent), for several expressions, with
#      inlined lines, recursion, --focus and another value type;
#   2. a real perf recording with source lines (perf script -F +srcline: perf61-srcline) and
#      its program's source, bigload.cpp.
# Where a file is missing the two differ on purpose (pprof prints an error and no lines, we list
# the values without text and warn): those lines are left out of the comparison.
name=interop-list
. "$(dirname "$0")/interop/prelude.sh"

compare() {  # compare LABEL PROFILE.pb.gz PROFILE SOURCE_PATH [pprof option] -- [prof-text option]
  local label=$1 pb=$2 text=$3 path=$4
  shift 4
  local theirs=() ours=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do theirs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  ours=("$@")
  checks=$((checks + 1))
  # Lines without text (empty source lines, and ours where a file is missing) and pprof's
  # error for a missing file are left out of both.
  local no_text='^ *[^ ]+ +[^ ]+ +[0-9]+:$'
  "$pprof" -symbolize=none -source_path "$path" "${theirs[@]}" "$pb" 2>/dev/null |
    grep -Ev -e "$no_text" -e '^ Error: could not find file' >"$T/want"
  prof-text --source-path "$path" "${ours[@]}" "$text" 2>"$T/err" | grep -Ev "$no_text" >"$T/got"
  if [ ! -s "$T/want" ]; then
    problem "$label: pprof printed nothing"
  elif ! cmp -s "$T/want" "$T/got"; then
    problem "$label: pprof -list and prof-text --list differ:
$(diff "$T/want" "$T/got" | head -10)"
  fi
}

# --- 1: pprof's test profile and sources --------------------------------------------------
testdata=/usr/share/gocode/src/github.com/google/pprof/internal/driver/testdata
cpu=$root/golden/pprof/testdata/cpu.prof
prof2pprof -o "$T/cpu.pb.gz" "$cpu"
if [ -f "$testdata/file1000.src" ]; then
  for re in 'line[13]000' . line2 '^line300[12]$' 'line1000'; do
    compare "cpu.prof -list '$re'" "$T/cpu.pb.gz" "$cpu" "$testdata" -list "$re" -- --list "$re"
  done
  compare "cpu.prof -list . -focus line2000" "$T/cpu.pb.gz" "$cpu" "$testdata" \
    -list . -focus line2000 -- --list . --focus line2000
  compare "cpu.prof -list line3 -sample_index 0" "$T/cpu.pb.gz" "$cpu" "$testdata" \
    -list line3 -sample_index 0 -- --list line3 --value 0
else
  skip_part_installable "part 1: $testdata/file1000.src is missing (golang-github-google-pprof-dev)" ||
    fail=$((fail + 1))
fi

# --- 2: a real perf recording and its program's source ---------------------------------------
local_corpus=$root/golden/perf/corpus/local
zcat "$local_corpus/perf61-srcline.txt.gz" | perf2prof >"$T/srcline.prof"
prof2pprof -o "$T/srcline.pb.gz" "$T/srcline.prof"
for re in 'fib$' 'work::' 'level_'; do
  compare "perf61-srcline -list '$re'" "$T/srcline.pb.gz" "$T/srcline.prof" "$local_corpus" \
    -list "$re" -- --list "$re"
done
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
