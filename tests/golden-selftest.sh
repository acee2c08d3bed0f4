#!/usr/bin/env bash
# tests/golden.sh tested: cases with wrong expectations (exact, .glob, stderr, status, setup,
# teardown, two expectations for one stream) must FAIL, their right counterparts pass, and
# --update rewrites exact expectations while leaving .glob ones as they are. A runner that cannot
# fail would pass every golden case. Run by the golden case golden/golden-runner/self-test (and
# by hand: tests/golden-selftest.sh); prints one line per case and exits 1 on a surprise.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d "${TMPDIR:-/tmp}/golden-selftest.XXXXXX")
trap 'rm -rf "$tree"' EXIT
surprises=0

# new_case NAME CMD: a case directory with that cmd; expectation files are written after it.
new_case() {
  mkdir -p "$tree/$1"
  printf '%s\n' "$2" >"$tree/$1/cmd"
}
# expect OUTCOME NAME: runs the case NAME alone; OUTCOME is pass or fail.
expect() {
  local got=pass
  GOLDEN_DIR=$tree "$root/tests/golden.sh" "$2" >"$tree/$2.log" 2>&1 || got=fail
  grep -q "^golden: 1 passed, 0 failed$\|^golden: 0 passed, 1 failed$" "$tree/$2.log" || got=broken
  local says=${got/pass/passe}s
  if [ "$got" = "$1" ]; then
    echo "golden-selftest: $2: $says, as it must"
  else
    echo "golden-selftest: $2: $says, but it must $1:"
    sed 's/^/  /' "$tree/$2.log"
    surprises=$((surprises + 1))
  fi
}

# --- exact --------------------------------------------------------------------------------------
new_case exact-right 'echo hello'
echo hello >"$tree/exact-right/stdout"
new_case exact-wrong 'echo hello'
echo hullo >"$tree/exact-wrong/stdout"
new_case exact-file-wrong 'printf "a\nb\n"'
echo a >"$tree/exact-file-wrong/stdout.exact"
new_case exact-absent-means-empty 'echo something'

# --- glob ---------------------------------------------------------------------------------------
new_case glob-right 'echo "Time: $(date)"; echo "total 42 of 42"; printf "x\ny\nz\n"; echo "[a] b?"; echo end'
printf '%s\n' 'Time: *' '* 42 of *' '...' '[a] b?' '...' 'end' >"$tree/glob-right/stdout.glob"
new_case glob-wrong-text 'echo "total 42 at $(date)"'
printf '%s\n' 'total 43 at *' >"$tree/glob-wrong-text/stdout.glob"
new_case glob-extra-line 'printf "a\nb\n"'
printf '%s\n' 'a' >"$tree/glob-extra-line/stdout.glob"
new_case glob-missing-line 'printf "a\n"'
printf '%s\n' 'a' 'b' >"$tree/glob-missing-line/stdout.glob"
new_case glob-star-within-a-line 'printf "a\nb\nc\n"'
printf '%s\n' 'a*c' >"$tree/glob-star-within-a-line/stdout.glob"
new_case glob-brackets-are-literal 'echo x'
printf '%s\n' '[x]' >"$tree/glob-brackets-are-literal/stdout.glob"
new_case glob-question-mark-is-literal 'echo ab'
printf '%s\n' 'a?' >"$tree/glob-question-mark-is-literal/stdout.glob"
new_case glob-dots-then-the-end 'printf "a\nb\nc\n"'
printf '%s\n' '...' 'b' >"$tree/glob-dots-then-the-end/stdout.glob"
new_case glob-suffix-not-overlapping 'echo ab'
printf '%s\n' 'ab*b' >"$tree/glob-suffix-not-overlapping/stdout.glob"

# --- stderr and status --------------------------------------------------------------------------
new_case stderr-unexpected 'echo oops >&2'
new_case stderr-ignored 'echo "noise $RANDOM" >&2; echo out'
echo out >"$tree/stderr-ignored/stdout"
: >"$tree/stderr-ignored/stderr.ignore"
new_case stderr-ignore-keeps-stdout 'echo noise >&2; echo out'
echo other >"$tree/stderr-ignore-keeps-stdout/stdout"
: >"$tree/stderr-ignore-keeps-stdout/stderr.ignore"
new_case stderr-glob-wrong 'echo "warning: x" >&2'
printf '%s\n' 'error: *' >"$tree/stderr-glob-wrong/stderr.glob"
new_case status-wrong 'exit 3'
new_case status-right 'exit 3'
echo 3 >"$tree/status-right/status"
new_case two-expectations 'echo a'
echo a >"$tree/two-expectations/stdout"
echo a >"$tree/two-expectations/stdout.glob"

# --- setup and teardown -------------------------------------------------------------------------
new_case setup-teardown-right 'cat "$T/made-by-setup"; echo cmd >"$T/made-by-cmd"'
echo 'echo setup >"$T/made-by-setup"' >"$tree/setup-teardown-right/setup"
echo 'test "$(cat "$T/made-by-cmd")" = cmd' >"$tree/setup-teardown-right/teardown"
echo setup >"$tree/setup-teardown-right/stdout"
new_case setup-fails 'echo a'
echo a >"$tree/setup-fails/stdout"
echo 'exit 1' >"$tree/setup-fails/setup"
new_case teardown-fails 'echo a'
echo a >"$tree/teardown-fails/stdout"
echo 'test -f "$T/never-made"' >"$tree/teardown-fails/teardown"

# Every case in one run of the runner (a run starts hundreds of processes less than a run per
# case): each must-fail case is named on a FAIL line, no must-pass case is, and the summary
# counts them all.
must_pass=(exact-right glob-right stderr-ignored status-right setup-teardown-right)
must_fail=(exact-wrong exact-file-wrong exact-absent-means-empty glob-wrong-text glob-extra-line
  glob-missing-line glob-star-within-a-line glob-brackets-are-literal
  glob-question-mark-is-literal glob-dots-then-the-end glob-suffix-not-overlapping
  stderr-unexpected stderr-ignore-keeps-stdout stderr-glob-wrong status-wrong two-expectations
  setup-fails teardown-fails)
GOLDEN_DIR=$tree "$root/tests/golden.sh" >"$tree/all.log" 2>&1
all_status=$?
all_log=$'\n'$(<"$tree/all.log")$'\n'
for c in "${must_pass[@]}" "${must_fail[@]}"; do
  want=pass
  [[ " ${must_fail[*]} " == *" $c "* ]] && want=fail
  got=pass
  [[ $all_log == *$'\n'"FAIL $c"$'\n'* ]] && got=fail
  says=${got/pass/passe}s
  if [ "$got" = "$want" ]; then
    echo "golden-selftest: $c: $says, as it must"
  else
    echo "golden-selftest: $c: $says, but it must $want"
    surprises=$((surprises + 1))
  fi
done
summary="golden: ${#must_pass[@]} passed, ${#must_fail[@]} failed"
if ! grep -qx "$summary" "$tree/all.log" || [ "$all_status" = 0 ]; then
  echo "golden-selftest: the run did not end with \"$summary\" and a failure status ($all_status):"
  sed 's/^/  /' "$tree/all.log"
  surprises=$((surprises + 1))
fi

# --- --update -----------------------------------------------------------------------------------
# It rewrites the exact expectation (stdout.exact, the file the case has) and leaves the .glob
# one, saying whether it matches; then the exact case passes and the glob one still fails.
cp "$tree/glob-wrong-text/stdout.glob" "$tree/glob-before-update"
GOLDEN_DIR=$tree "$root/tests/golden.sh" --update exact-file-wrong glob-wrong-text \
  >"$tree/update.log" 2>&1
if [ "$(cat "$tree/exact-file-wrong/stdout.exact")" = "$(printf 'a\nb')" ] &&
  [ ! -f "$tree/exact-file-wrong/stdout" ] &&
  cmp -s "$tree/glob-before-update" "$tree/glob-wrong-text/stdout.glob" &&
  grep -q "glob-wrong-text: stdout.glob left as it is, and it does NOT match" "$tree/update.log"; then
  echo "golden-selftest: --update rewrites stdout.exact, leaves stdout.glob and says it does not match"
else
  echo "golden-selftest: --update did not do as it must:"
  sed 's/^/  /' "$tree/update.log"
  surprises=$((surprises + 1))
fi
expect pass exact-file-wrong
expect fail glob-wrong-text

[ $surprises = 0 ] || { echo "golden-selftest: $surprises surprise(s)"; exit 1; }
