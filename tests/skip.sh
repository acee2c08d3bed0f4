# Sourced by the test scripts: how a test says it skipped, the same way everywhere, so that a
# summary can count the lines. Set $name (the word the script's messages start with) first.
#
#   skip REASON               prints "NAME: SKIPPED: REASON" and exits 0: the reason is outside
#                             our control (the kernel does not permit `perf record`, ...).
#   skip_installable REASON   the same for a dependency `make deps-test` (or deps-web) installs
#                             (chromium, pprof, dot, valgrind, jfr, R, perf, ...); under CI=true
#                             it prints "NAME: FAIL: REASON (...)" and exits 1 instead: CI ran
#                             deps-test, so what is missing is a defect, not a skip.
#   skip_part REASON, skip_part_installable REASON
#                             the same for one part of a script, which goes on: they return
#                             (skip_part_installable returns 1 under CI=true, for the script to
#                             count as a failure) instead of exiting.
skip_part() {
  echo "${name:?}: SKIPPED: $*"
}
skip_part_installable() {
  if [ "${CI:-}" = true ]; then
    echo "${name:?}: FAIL: $* (CI=true: make deps-test installs it, a skip is a failure)"
    return 1
  fi
  skip_part "$@"
}
skip() {
  skip_part "$@"
  exit 0
}
skip_installable() {
  skip_part_installable "$@" || exit 1
  exit 0
}
