#!/usr/bin/env bash
# Replays every file of tests/fuzz/regressions/NAME/ through the harness fuzz_NAME.cc built with
# the ordinary compiler into the replay program (tests/fuzz/replay_main.cc: build/fuzz-replay/replay
# NAME FILE..., no libFuzzer): a fault the fuzzers found stays fixed.
# Usage: tests/fuzz/replay.sh NAME...
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
name=fuzz-regressions
failed=0
for harness in "$@"; do
  dir=$root/tests/fuzz/regressions/$harness
  files=()
  [ -d "$dir" ] && while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -type f | sort)
  if [ ${#files[@]} -eq 0 ]; then
    # Nothing to replay is no skip: the fuzzers have found nothing for this harness yet.
    echo "fuzz-regressions: $harness: no regression inputs (no finding yet)"
    continue
  fi
  if ! "$root/build/fuzz-replay/replay" "$harness" "${files[@]}" >/dev/null; then
    echo "fuzz-regressions: $harness: FAILED (run build/fuzz-replay/replay $harness on each file of $dir)"
    failed=1
  else
    echo "fuzz-regressions: $harness: ${#files[@]} inputs pass"
  fi
done
exit $failed
