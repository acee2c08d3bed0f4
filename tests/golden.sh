#!/usr/bin/env bash
# Golden-file tests: run the real programs on files in golden/ and compare byte for byte.
#
# A case is a directory under golden/ holding a file named `cmd`: a bash snippet (pipes
# allowed, run with `set -o pipefail`) executed in the case directory with bin/ and
# build/test-bin/ first on PATH and $T set to a fresh scratch directory (written "$T" where the
# outputs name it). Expected results sit
# beside it:
#   stdout   expected standard output (absent: must be empty)
#   stderr   expected standard error  (absent: must be empty)
#   status   expected exit status     (absent: 0)
# Inputs are files in the case directory or in golden/inputs/ (shared).
#
# Usage: tests/golden.sh [--update] [PATTERN...]
#   --update   rewrite the expectations from the actual results (then review `git diff`)
#   PATTERN    run only cases whose path (relative to golden/) contains PATTERN
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/case_selection.sh"

export PATH="$root/bin:$root/build/test-bin:$PATH"
export LC_ALL=C TZ=UTC
scratch=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Absent expectations compare against an empty file of our own, not /dev/null (a run that
# turned /dev/null into a regular file must not make every case fail).
: >"$scratch/empty"

# Writes `content file` when content is non-empty, removes the file otherwise.
keep_if_nonempty() {
  if [ -s "$1" ]; then cp "$1" "$2"; else rm -f "$2"; fi
}

pass=0
fail=0
failed=()
while IFS= read -r cmd_file; do
  dir=$(dirname "$cmd_file")
  name=${dir#"$root/golden/"}
  selected "$name" || continue
  T="$scratch/$(echo "$name" | tr / _)"
  mkdir -p "$T"
  (
    cd "$dir" || exit 99
    export T
    bash -c "set -o pipefail; $(cat cmd)" >"$T.stdout" 2>"$T.stderr"
    echo $? >"$T.status"
    # The scratch directory's name changes from run to run: messages naming a file in it are
    # compared with "$T" in its place.
    sed -i "s|$T|\$T|g" "$T.stdout" "$T.stderr"
  )
  status=$(cat "$T.status")
  if [ $update = 1 ]; then
    cp "$T.stdout" "$dir/stdout"
    [ -s "$dir/stdout" ] || rm -f "$dir/stdout"
    keep_if_nonempty "$T.stderr" "$dir/stderr"
    if [ "$status" = 0 ]; then rm -f "$dir/status"; else echo "$status" >"$dir/status"; fi
    pass=$((pass + 1))
    continue
  fi
  expected_status=0
  [ -f "$dir/status" ] && expected_status=$(cat "$dir/status")
  ok=1
  report=""
  if [ "$status" != "$expected_status" ]; then
    ok=0
    report+="  exit status $status, expected $expected_status"$'\n'
  fi
  for stream in stdout stderr; do
    expected="$dir/$stream"
    [ -f "$expected" ] || expected="$scratch/empty"
    if ! cmp -s "$expected" "$T.$stream"; then
      ok=0
      report+="  $stream differs:"$'\n'
      report+=$(diff -u --label expected --label actual "$expected" "$T.$stream" | head -40)
      report+=$'\n'
    fi
  done
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failed+=("$name")
    printf 'FAIL %s\n%s' "$name" "$report"
  fi
done < <(find "$root/golden" -name cmd -type f | LC_ALL=C sort)

if [ $update = 1 ]; then
  echo "golden: rewrote $pass case(s); review the changes with: git diff -- golden/"
  exit 0
fi
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ] || { printf '  failed: %s\n' "${failed[@]}"; exit 1; }
