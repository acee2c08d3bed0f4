#!/usr/bin/env bash
# The prof text conformance suite (formats/conformance/, see its README.md) run against
# proftools' own reader and writer: prof-validate and prof-text --canonical.
#
# For each valid/NAME.prof (or .prof.gz): prof-validate accepts it (exit 0; warnings only),
# prof-text --canonical writes exactly valid/NAME.canonical, and that output is a fixed point
# (valid, and rewritten to the same bytes). For each invalid/NAME.prof (or .prof.gz): both
# programs exit 1, and the first message of each is located at the LINE and names the RULE of
# invalid/NAME.expect ("RULE LINE"; LINE 0: the message has no line); prof-text writes nothing
# to standard output. A full run also checks that every rule of the spec's table (§6) has an
# invalid case.
#
# Usage: tests/conformance.sh [--update] [PATTERN...]
#   --update   write valid/NAME.canonical from prof-text's output (then read `git diff`: the
#              expected output must be checked against the spec by hand, not trusted)
#   PATTERN    run only cases whose path (relative to formats/conformance/) contains PATTERN
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
suite="$root/formats/conformance"
source "$root/tests/case_selection.sh"

export PATH="$root/bin:$PATH"
export LC_ALL=C
scratch=$(mktemp -d "${TMPDIR:-/tmp}/conformance.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

pass=0
fail=0
failed=()
problem=""
# Records why the current case fails (the first reason is enough to look into it).
wrong() {
  [ -n "$problem" ] || problem=$1
}

# The case name: the file name without .prof or .prof.gz.
case_name() {
  local base=${1%.gz}
  echo "${base%.prof}"
}

check_valid() {
  local file=$1 name=$2 expected="$2.canonical"
  if ! prof-validate "$file" >/dev/null 2>"$scratch/err"; then
    wrong "prof-validate refuses it: $(head -1 "$scratch/err")"
  elif grep -qv ': warning: ' "$scratch/err"; then
    wrong "prof-validate accepts it but prints: $(grep -v ': warning: ' "$scratch/err" | head -1)"
  fi
  if ! prof-text --canonical "$file" >"$scratch/out" 2>"$scratch/err"; then
    wrong "prof-text --canonical refuses it: $(head -1 "$scratch/err")"
    return
  fi
  if [ $update = 1 ] && ! cmp -s "$scratch/out" "$expected"; then
    cp "$scratch/out" "$expected"
    echo "wrote $expected"
  fi
  if [ ! -f "$expected" ]; then
    wrong "$expected is missing (write it with --update, then check it against the spec)"
    return
  fi
  if ! cmp -s "$expected" "$scratch/out"; then
    wrong "prof-text --canonical differs from $expected:"$'\n'"$(diff -u --label expected \
      --label actual "$expected" "$scratch/out" | head -20)"
  fi
  if ! prof-validate "$expected" >/dev/null 2>"$scratch/err" || [ -s "$scratch/err" ]; then
    wrong "the canonical output is not valid: $(head -1 "$scratch/err")"
  fi
  prof-text --canonical "$expected" >"$scratch/again" 2>/dev/null
  cmp -s "$expected" "$scratch/again" || wrong "the canonical output is not a fixed point"
}

# Whether the first line of `messages` is PROGRAM's message at LINE naming RULE.
first_message_is() {
  local messages=$1 program=$2 file=$3 rule=$4 line=$5 first where
  first=$(head -1 "$messages")
  where="$program: $file:$line: "
  [ "$line" = 0 ] && where="$program: $file: "
  [[ $first == "$where"* && $first == *" [$rule]" ]]
}

check_invalid() {
  local file=$1 name=$2 rule line status
  if ! read -r rule line <"$name.expect" 2>/dev/null || [ -z "$line" ]; then
    wrong "$name.expect is missing or not 'RULE LINE'"
    return
  fi
  prof-validate "$file" >/dev/null 2>"$scratch/err"
  status=$?
  if [ $status != 1 ]; then
    wrong "prof-validate exits $status, expected 1"
  elif ! first_message_is "$scratch/err" prof-validate "$file" "$rule" "$line"; then
    wrong "prof-validate says: $(head -1 "$scratch/err"); expected [$rule] on line $line"
  fi
  prof-text --canonical "$file" >"$scratch/out" 2>"$scratch/err"
  status=$?
  if [ $status != 1 ]; then
    wrong "prof-text --canonical exits $status, expected 1"
  elif [ -s "$scratch/out" ]; then
    wrong "prof-text --canonical wrote output although it refused the input"
  elif [ "$(wc -l <"$scratch/err")" != 1 ] ||
    ! first_message_is "$scratch/err" prof-text "$file" "$rule" "$line"; then
    wrong "prof-text --canonical says: $(head -1 "$scratch/err"); expected [$rule] on line $line"
  fi
}

cd "$suite" || exit 2
for file in valid/*.prof valid/*.prof.gz invalid/*.prof invalid/*.prof.gz; do
  [ -f "$file" ] || continue
  name=$(case_name "$file")
  selected "$file" || continue
  problem=""
  case $file in
    valid/*) check_valid "$file" "$name" ;;
    invalid/*) check_invalid "$file" "$name" ;;
  esac
  if [ -z "$problem" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failed+=("$file")
    printf 'FAIL %s: %s\n' "$file" "$problem"
  fi
done

# Every expectation belongs to a case: a renamed input must not leave its expectation unused.
for expected in valid/*.canonical invalid/*.expect; do
  [ -f "$expected" ] || continue
  selected "$expected" || continue
  name=${expected%.*}
  if [ ! -f "$name.prof" ] && [ ! -f "$name.prof.gz" ]; then
    fail=$((fail + 1))
    failed+=("$expected")
    printf 'FAIL %s: no %s.prof for it\n' "$expected" "$name"
  fi
done

# Every rule of the spec's table (§6) has an invalid case, when the whole suite runs.
if [ ${#patterns[@]} -eq 0 ]; then
  rules=$(sed -n '/^| rule | what it requires/,/^$/s/^| `\([a-z-]*\)`.*/\1/p' "$root/formats/prof-text.md")
  [ -n "$rules" ] || { echo "conformance: no rule table found in formats/prof-text.md"; exit 2; }
  for rule in $rules; do
    if ! cat invalid/*.expect | grep -q "^$rule "; then
      fail=$((fail + 1))
      failed+=("$rule")
      printf 'FAIL rule %s: no invalid case expects it\n' "$rule"
    fi
  done
fi

echo "conformance: $pass passed, $fail failed"
[ $fail = 0 ] || exit 1
