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
# same_rows PEER WHAT THEIRS OURS: counts a check; a problem when THEIRS (what PEER printed,
# made into rows) is empty or differs from OURS.
same_rows() {
  checks=$((checks + 1))
  if [ ! -s "$3" ]; then
    problem "$2: nothing to compare ($1 printed no rows)"
  elif ! cmp -s "$3" "$4"; then
    problem "$2 differ ($1, then ours):"
    diff "$3" "$4" | head -10
  fi
}
