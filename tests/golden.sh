#!/usr/bin/env bash
# Golden-file tests: run the real programs on files in golden/ and compare with what is expected.
#
# A case is a directory under golden/ holding a file named `cmd`: a bash snippet (pipes
# allowed, run with `set -o pipefail`) executed in the case directory with bin/ and
# build/test-bin/ first on PATH and $T set to a fresh scratch directory (written "$T" where the
# outputs name it). Expected results sit beside it, for each of stdout and stderr at most one
# of (in the style of zstd's tests/cli-tests):
#   STREAM or STREAM.exact   the expected output, byte for byte (`stdout` and `stdout.exact` are
#                            the same thing; --update writes `stdout`, or `stdout.exact` when
#                            that is the one the case has)
#   STREAM.glob              each line a pattern matched against the corresponding actual line:
#                            `*` matches any text within the line (every other character is
#                            itself), and a line holding only `...` matches any number of lines
#                            (none included)
#   STREAM.ignore            an empty marker file: the stream is not compared (stderr.ignore
#                            for a case whose point is not its messages: noise of a reader)
#   (none)                   the stream must be empty
# and
#   status                   expected exit status (absent: 0)
#   setup, teardown          optional bash scripts run in the case directory with $T set,
#                            before and after cmd; a setup or teardown that fails fails the case
#                            (their output is shown then, and not compared otherwise)
# Inputs are files in the case directory or in golden/inputs/ (shared).
#
# A golden update is a code change; its diff is read line by line before committing. A
# pattern hides what it matches from every later change: use .glob and .ignore only for what
# legitimately varies or is not the case's point, and match what the case is about with grep
# on its content, never with a line number.
#
# Usage: tests/golden.sh [--update] [PATTERN...]
#   --update   rewrite the exact expectations and `status` from the actual results (then read
#              `git diff`); .glob and .ignore expectations are left as they are, and it says
#              whether each .glob still matches
#   PATTERN    run only cases whose path (relative to golden/) contains PATTERN
# GOLDEN_DIR (default golden/) runs the cases of another tree (tests/golden-selftest.sh).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/case_selection.sh"
golden=$(cd "${GOLDEN_DIR:-$root/golden}" && pwd)

export PATH="$root/bin:$root/build/test-bin:$PATH"
export LC_ALL=C TZ=UTC
scratch=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Absent expectations compare against an empty file of our own, not /dev/null (a run that
# turned /dev/null into a regular file must not make every case fail).
: >"$scratch/empty"

# glob_match PATTERNS ACTUAL: true when ACTUAL matches the .glob file PATTERNS (see above).
glob_match() {
  awk '
    function line_ok(pattern, s,   parts, n, i, at, k, last) {
      n = split(pattern, parts, "*")
      if (n == 1) return pattern == s
      if (substr(s, 1, length(parts[1])) != parts[1]) return 0
      at = length(parts[1]) + 1
      for (i = 2; i < n; i++) {
        k = index(substr(s, at), parts[i])
        if (k == 0) return 0
        at += k - 1 + length(parts[i])
      }
      last = parts[n]
      return length(s) - at + 1 >= length(last) && substr(s, length(s) - length(last) + 1) == last
    }
    # Pattern lines from i on match actual lines from j on (to the end of both).
    function match_from(i, j,   key, r, k) {
      key = i SUBSEP j
      if (key in memo) return memo[key]
      if (i > np) r = j > na
      else if (p[i] == "...") {
        r = 0
        for (k = j; k <= na + 1 && !r; k++) r = match_from(i + 1, k)
      } else r = j <= na && line_ok(p[i], a[j]) && match_from(i + 1, j + 1)
      memo[key] = r
      return r
    }
    FNR == NR { p[++np] = $0; next }
    { a[++na] = $0 }
    END { exit match_from(1, 1) ? 0 : 1 }
  ' "$1" "$2"
}

# expectation DIR STREAM: sets kind (exact, glob, ignore or ambiguous) and expected (the
# expected output's file, $scratch/empty when there is none; the files found, when ambiguous).
expectation() {
  local found=() f
  for f in "$2" "$2.exact" "$2.glob" "$2.ignore"; do
    [ -f "$1/$f" ] && found+=("$f")
  done
  kind=exact expected=$scratch/empty
  case ${#found[@]} in
    0) ;;
    1) expected=$1/${found[0]}
       case ${found[0]} in
         *.glob) kind=glob ;;
         *.ignore) kind=ignore ;;
       esac ;;
    *) kind=ambiguous expected=${found[*]} ;;
  esac
}

# run_script CASE_DIR SCRIPT: runs setup or teardown; its output goes to $T.SCRIPT.
run_script() {
  (cd "$1" && bash "./$2") >"$T.$2" 2>&1
}

# The cases of this run, and a scratch directory for each, made at once: the harness starts as
# few processes as it can per case (a start costs milliseconds on the test machines, and there
# are hundreds of cases).
cases=()
while IFS= read -r cmd_file; do
  dir=${cmd_file%/cmd}
  selected "${dir#"$golden/"}" && cases+=("$dir")
done < <(find "$golden" -name cmd -type f | LC_ALL=C sort)
scratch_dirs=()
for dir in "${cases[@]}"; do
  name=${dir#"$golden/"}
  scratch_dirs+=("$scratch/${name//\//_}")
done
[ ${#scratch_dirs[@]} -gt 0 ] && mkdir -p "${scratch_dirs[@]}"

pass=0
fail=0
failed=()
for dir in "${cases[@]}"; do
  name=${dir#"$golden/"}
  T="$scratch/${name//\//_}"
  export T
  ok=1
  report=""
  if [ -f "$dir/setup" ] && ! run_script "$dir" setup; then
    ok=0
    report+="  setup failed:"$'\n'"$(head -20 "$T.setup")"$'\n'
  fi
  started=${EPOCHREALTIME/./}  # microseconds, without a process per case
  script=$(<"$dir/cmd")
  (cd "$dir" || exit 99; exec bash -o pipefail -c "$script") >"$T.stdout" 2>"$T.stderr"
  status=$?
  # The scratch directory's name changes from run to run: messages naming a file in it are
  # compared with "$T" in its place.
  # (sed only for a stream that names it: bash reads the stream without a process.)
  for stream in stdout stderr; do
    [ -s "$T.$stream" ] || continue
    { content=$(<"$T.$stream"); } 2>/dev/null  # (a NUL byte of binary output is dropped)
    [[ $content == *"$T"* ]] && sed -i "s|$T|\$T|g" "$T.$stream"
  done
  if [ -f "$dir/teardown" ] && ! run_script "$dir" teardown; then
    ok=0
    report+="  teardown failed:"$'\n'"$(head -20 "$T.teardown")"$'\n'
  fi
  if [ $update = 1 ]; then
    for stream in stdout stderr; do
      expectation "$dir" "$stream"
      case $kind in
        exact)
          [ "$expected" = "$scratch/empty" ] && expected=$dir/$stream
          cp "$T.$stream" "$expected"
          [ -s "$expected" ] || rm -f "$expected" ;;
        glob)
          if glob_match "$expected" "$T.$stream"; then
            echo "golden: $name: ${expected##*/} left as it is (it matches)"
          else
            echo "golden: $name: ${expected##*/} left as it is, and it does NOT match: edit it"
          fi ;;
        ignore) echo "golden: $name: ${expected##*/}: $stream not compared, nothing to write" ;;
        ambiguous) echo "golden: $name: $stream has several expectations ($expected): keep one" ;;
      esac
    done
    if [ "$status" = 0 ]; then rm -f "$dir/status"; else echo "$status" >"$dir/status"; fi
    [ $ok = 1 ] || printf 'golden: %s:\n%s' "$name" "$report"
    pass=$((pass + 1))
    continue
  fi
  expected_status=0
  [ -f "$dir/status" ] && read -r expected_status <"$dir/status"
  if [ "$status" != "$expected_status" ]; then
    ok=0
    report+="  exit status $status, expected $expected_status"$'\n'
  fi
  for stream in stdout stderr; do
    expectation "$dir" "$stream"
    case $kind in
      exact)
        # No expectation: the stream must be empty (a test, not a cmp, for most stderr).
        if { [ "$expected" = "$scratch/empty" ] && [ -s "$T.$stream" ]; } ||
          { [ "$expected" != "$scratch/empty" ] && ! cmp -s "$expected" "$T.$stream"; }; then
          ok=0
          report+="  $stream differs:"$'\n'
          report+=$(diff -u --label expected --label actual "$expected" "$T.$stream" | head -40)
          report+=$'\n'
        fi ;;
      glob)
        if ! glob_match "$expected" "$T.$stream"; then
          ok=0
          report+="  $stream does not match $stream.glob (the diff shows the patterns):"$'\n'
          report+=$(diff -u --label "$stream.glob" --label actual "$expected" "$T.$stream" |
            head -40)
          report+=$'\n'
        fi ;;
      ignore) ;;
      ambiguous)
        ok=0
        report+="  $stream has several expectations ($expected): keep one"$'\n' ;;
    esac
  done
  # Each case's time, for the slowest to be named at the end (the suite's time is make check's).
  echo "$(((${EPOCHREALTIME/./} - started) / 1000)) $name" >>"$scratch/times"
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failed+=("$name")
    printf 'FAIL %s\n%s' "$name" "$report"
  fi
done

if [ $update = 1 ]; then
  echo "golden: rewrote $pass case(s); read every line of: git diff -- golden/"
  exit 0
fi
[ -s "$scratch/times" ] &&
  echo "golden: slowest: $(sort -rn "$scratch/times" | head -5 | awk '{ printf "%s%s (%.1fs)", (NR > 1 ? ", " : ""), $2, $1 / 1000 }')"
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ] || { printf '  failed: %s\n' "${failed[@]}"; exit 1; }
