#!/usr/bin/env bash
# The summary of `make check`: one line per suite (its result, time and CPU time), every SKIPPED:
# line, the suites' CPU time, and last the closing line "check: N passed, N failed, N skipped"
# (suites; a suite that skipped part of its checks counts once as skipped). Exits 1 when a suite
# failed or none ran.
set -u
dir="$(cd "$(dirname "$0")/.." && pwd)/build/suites"
passed=0
failed=0
skipped=0
failures=()
cpus=()
echo
echo "== suites"
for result in "$dir"/*.result; do
  [ -f "$result" ] || continue
  name=$(basename "$result" .result)
  read -r outcome seconds cpu rest <"$result"
  skips=$(grep -c 'SKIPPED: ' "$result")
  printf '%-26s %-6s %7ss %7ss CPU%s\n' "$name" "$outcome" "$seconds" "$cpu" \
    "$([ "$skips" -gt 0 ] && echo " ($skips skipped)")"
  cpus+=("$cpu")
  if [ "$outcome" = passed ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    failures+=("$name")
  fi
  [ "$skips" -gt 0 ] && skipped=$((skipped + 1))
done
if grep -qh 'SKIPPED: ' "$dir"/*.result 2>/dev/null; then
  echo "== skipped"
  grep -h 'SKIPPED: ' "$dir"/*.result
fi
[ ${#failures[@]} -gt 0 ] && printf '== failed: %s (logs: build/suites/NAME.log)\n' "${failures[*]}"
echo "suites' CPU time: $(printf '%s\n' "${cpus[@]}" | awk '{ s += $1 } END { printf "%.1f", s }') s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
