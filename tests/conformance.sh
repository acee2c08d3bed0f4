#!/usr/bin/env bash
# The prof text conformance suite (formats/conformance/, see its README.md) run against
# proftools' own reader and writer: prof-validate and prof-text --canonical.
#
# For each valid/NAME.prof (or .prof.gz): prof-validate accepts it (exit 0; warnings only),
# prof-text --canonical writes exactly valid/NAME.canonical, and that output is a fixed point
# (valid, and rewritten to the same bytes). For each invalid/NAME.prof (or .prof.gz): both
# programs exit 1, and the first message of each is located at the LINE and names the RULE of
# invalid/NAME.expect ("RULE LINE"; LINE 0: the message has no line); prof-text writes nothing
# to standard output. prof-validate checks each of several inputs on its own, so it runs once
# over the valid inputs and their canonical outputs, and once over the invalid inputs, its
# messages sorted to their cases by the file names they start with. A full run also checks that every rule of the spec's table (§6) has an
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

# Sets name to the case's name: the file name without .prof or .prof.gz (no subshell: a
# process costs milliseconds, and there are hundreds of cases).
case_name() {
  name=${1%.gz}
  name=${name%.prof}
}

check_valid() {
  local file=$1 name=$2 expected="$2.canonical"
  local messages=${validate_messages[$file]-}
  if [ -n "$messages" ]; then
    wrong "prof-validate: ${messages%%$'\n'*}"
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
  messages=${validate_messages[$expected]-}
  [ -z "$messages" ] || wrong "the canonical output is not valid: ${messages%%$'\n'*}"
  prof-text --canonical "$expected" >"$scratch/again" 2>/dev/null
  cmp -s "$expected" "$scratch/again" || wrong "the canonical output is not a fixed point"
}

# Whether MESSAGE is PROGRAM's message at LINE naming RULE.
message_is() {
  local message=$1 program=$2 file=$3 rule=$4 line=$5 where
  where="$program: $file:$line: "
  [ "$line" = 0 ] && where="$program: $file: "
  [[ $message == "$where"* && $message == *" [$rule]" ]]
}

check_invalid() {
  local file=$1 name=$2 rule line status first err
  if ! read -r rule line <"$name.expect" 2>/dev/null || [ -z "$line" ]; then
    wrong "$name.expect is missing or not 'RULE LINE'"
    return
  fi
  first=${validate_messages[$file]-}
  first=${first%%$'\n'*}
  if [ -z "$first" ]; then
    wrong "prof-validate accepts it (exit status $validate_invalid_status for the invalid inputs)"
  elif ! message_is "$first" prof-validate "$file" "$rule" "$line"; then
    wrong "prof-validate says: $first; expected [$rule] on line $line"
  fi
  prof-text --canonical "$file" >"$scratch/out" 2>"$scratch/err"
  status=$?
  err=$(<"$scratch/err")
  if [ $status != 1 ]; then
    wrong "prof-text --canonical exits $status, expected 1"
  elif [ -s "$scratch/out" ]; then
    wrong "prof-text --canonical wrote output although it refused the input"
  elif [[ -z $err || $err == *$'\n'* ]] || ! message_is "$err" prof-text "$file" "$rule" "$line"; then
    wrong "prof-text --canonical says: ${err%%$'\n'*}; expected [$rule] on line $line"
  fi
}

# validate_batch STATUS_VARIABLE FILE...: one prof-validate run over every FILE (each input is
# checked on its own, its messages prefixed with its name: one process instead of one per
# file); validate_messages[FILE] gets FILE's messages that are not warnings, in order. A line
# that names no FILE of the batch is kept under "?", and fails the run.
declare -A validate_messages=()
validate_batch() {
  local -n batch_status=$1
  shift
  [ $# -gt 0 ] || { batch_status=0; return; }
  local -A known=()
  local file message rest
  for file in "$@"; do known[$file]=1; done
  prof-validate "$@" >/dev/null 2>"$scratch/batch"
  batch_status=$?
  while IFS= read -r message; do
    rest=${message#prof-validate: }
    file=${rest%%:*}
    [ "$rest" != "$message" ] && [ -n "${known[$file]-}" ] || file="?"
    [[ $file != "?" && $message == *": warning: "* ]] && continue
    validate_messages[$file]+=${validate_messages[$file]:+$'\n'}$message
  done <"$scratch/batch"
}

cd "$suite" || exit 2
valid=() invalid=()
for file in valid/*.prof valid/*.prof.gz invalid/*.prof invalid/*.prof.gz; do
  [ -f "$file" ] || continue
  selected "$file" || continue
  case $file in
    valid/*) valid+=("$file") ;;
    invalid/*) invalid+=("$file") ;;
  esac
done
# prof-validate runs twice: over the valid inputs with their expected canonical outputs (exit
# status 0, no message but warnings), and over the invalid inputs (exit status 1, each one's
# first message checked by its case).
canonicals=()
for file in "${valid[@]}"; do
  case_name "$file"
  [ -f "$name.canonical" ] && canonicals+=("$name.canonical")
done
[ $update = 1 ] || validate_batch validate_valid_status "${valid[@]}" "${canonicals[@]}"
validate_batch validate_invalid_status "${invalid[@]}"
if [ ${#valid[@]} -gt 0 ] && [ $update = 0 ] && [ "$validate_valid_status" != 0 ] &&
  [ ${#validate_messages[@]} -eq 0 ]; then
  validate_messages["?"]="prof-validate exits $validate_valid_status over the valid inputs"
fi
if [ ${#invalid[@]} -gt 0 ] && [ "$validate_invalid_status" != 1 ]; then
  validate_messages["?"]+="prof-validate exits $validate_invalid_status over the invalid inputs, expected 1"
fi

for file in "${valid[@]}" "${invalid[@]}"; do
  case_name "$file"
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
if [ -n "${validate_messages["?"]-}" ]; then
  fail=$((fail + 1))
  failed+=("prof-validate")
  printf 'FAIL prof-validate: %s\n' "${validate_messages["?"]}"
fi

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
