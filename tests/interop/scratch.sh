# Sourced by the interop tests with $name set (the word their messages start with): a temporary
# directory T, removed at exit, and problem() printing a failure and counting it in $fail
# ($checks counts what was compared).
T=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
checks=0
problem() {
  echo "$name: FAIL: $*"
  fail=$((fail + 1))
}
