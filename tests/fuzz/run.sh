#!/usr/bin/env bash
# Runs each libFuzzer harness build/fuzz/NAME for SECONDS, one after the other, on a corpus under
# build/fuzz/corpus/NAME seeded from golden/ (seeds.sh), with the dictionary
# tests/fuzz/dict/NAME.dict when there is one. Findings (crashes, leaks, timeouts) are written
# to build/fuzz/findings/NAME/; the last line of each run (execs, cov, ft) goes to
# build/fuzz/NAME.log. Usage: tests/fuzz/run.sh SECONDS NAME...
# NAME may be readers:FORMAT: the registry's harness with its reader pinned to FORMAT
# (FUZZ_READER), on a corpus of its own (build/fuzz/corpus/readers-FORMAT).
# FUZZ_TIMEOUT (default 20 s) is libFuzzer's -timeout, which counts wall time: a run that shares
# the machine with builds and benchmarks (stopped with SIGSTOP while they are timed) needs a
# longer one, or every pause is reported as a hang. Slow units (over 10 s) are still reported.
set -u
timeout_seconds=${FUZZ_TIMEOUT:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=$1
shift
status=0
for spec in "$@"; do
  harness=${spec%%:*}
  pinned=
  [ "$harness" != "$spec" ] && pinned=${spec#*:}
  name=$harness${pinned:+-$pinned}
  corpus=$root/build/fuzz/corpus/$name
  findings=$root/build/fuzz/findings/$name
  mkdir -p "$corpus" "$findings"
  "$root/tests/fuzz/seeds.sh" "$harness" "$corpus"
  dict=()
  [ -f "$root/tests/fuzz/dict/$harness.dict" ] && dict=(-dict="$root/tests/fuzz/dict/$harness.dict")
  echo "fuzz: $name for ${seconds}s ($(find "$corpus" -type f | wc -l) corpus files)"
  # -rss_limit_mb: inputs are capped (kMaxInflate), so a run that needs more is a finding.
  # The CPU time (user + sys) is what counts on a shared machine, not the wall time.
  TIMEFORMAT="fuzz: $name: %R s wall, %U s user, %S s sys"
  time {
    if ! FUZZ_READER=$pinned ASAN_OPTIONS=detect_leaks=1 "$root/build/fuzz/$harness" -max_total_time="$seconds" \
        -max_len=8192 -timeout="$timeout_seconds" -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$findings/" "$corpus" >"$root/build/fuzz/$name.log" 2>&1; then
      status=1
      echo "fuzz: $name: FINDING, see build/fuzz/$name.log and $findings/"
    fi
  }
  grep -E '^#[0-9]+' "$root/build/fuzz/$name.log" | tail -1
done
exit $status
