#!/usr/bin/env bash
# Runs one test suite for make: tests/suite.sh NAME COMMAND [ARG...]
#
# The suite's output goes to the terminal and to build/suites/NAME.log; its result to
# build/suites/NAME.result: `passed` or `failed`, its seconds and CPU seconds, then the SKIPPED:
# lines it printed (a suite that skipped part of its checks says why, on a line holding
# "SKIPPED: reason"). tests/suite-summary.sh counts them. The exit status is the command's,
# unless SUITES_KEEP_GOING=1 (make check), where every suite runs and the summary fails the run.
set -u
name=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build/suites"
mkdir -p "$dir"
start=$EPOCHREALTIME
"$@" 2>&1 | tee "$dir/$name.log"
status=${PIPESTATUS[0]}
end=$EPOCHREALTIME
# The CPU time (user and system) of the suite's processes, which this shell waited for: on two
# cores it is what make check's time is made of. bash's `times` (its second line, "XmY.YYYs
# XmY.YYYs", written by this shell: in a pipe it would be a subshell's), not /usr/bin/time, which
# Debian does not install by default.
times >"$dir/$name.times"
read -r seconds cpu < <(awk -v s="$start" -v e="$end" 'NR == 2 {
    split($1, u, /[ms]/); split($2, y, /[ms]/)
    printf "%.1f %.1f\n", e - s, u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$dir/$name.times")
{
  if [ "$status" = 0 ]; then echo "passed $seconds $cpu"; else echo "failed $seconds $cpu (exit status $status)"; fi
  grep -a 'SKIPPED: ' "$dir/$name.log" || true
} >"$dir/$name.result"
if [ "$status" != 0 ]; then
  echo "suite $name: FAILED (exit status $status, ${seconds}s)"
  [ "${SUITES_KEEP_GOING:-0}" = 1 ] && exit 0
fi
exit "$status"
