#!/usr/bin/env bash
# Replays every file of tests/fuzz/regressions/NAME/ through the harness fuzz_NAME.cc built with
# the ordinary compiler and tests/fuzz/replay_main.cc (build/fuzz-replay/NAME, no libFuzzer): a
# fault the fuzzers found stays fixed. Usage: tests/fuzz/replay.sh NAME...
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
for name in "$@"; do
  dir=$root/tests/fuzz/regressions/$name
  files=()
  [ -d "$dir" ] && while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -type f | sort)
  if [ ${#files[@]} -eq 0 ]; then
    echo "fuzz-regressions: $name: no regression inputs"
    continue
  fi
  if ! "$root/build/fuzz-replay/$name" "${files[@]}" >/dev/null; then
    echo "fuzz-regressions: $name: FAILED (run build/fuzz-replay/$name on each file of $dir)"
    failed=1
  else
    echo "fuzz-regressions: $name: ${#files[@]} inputs pass"
  fi
done
exit $failed
