#!/usr/bin/env bash
# Every program has a manual page that renders without warnings, and a README section.
set -u
cd "$(dirname "$0")/.."
status=0
for src in tools/*.cc; do
  prog=$(basename "$src" .cc)
  [ -f "man/$prog.1" ] || { echo "man-check: man/$prog.1 is missing"; status=1; }
  grep -q "^## $prog\b\|^## .*\b$prog\b" README.md || {
    echo "man-check: README.md has no section for $prog"; status=1; }
done
for page in man/*.[1-9]; do
  # groff warnings (-ww) and man's own checks, rendered as `man -l` would.
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  if [ -n "$out" ]; then
    echo "man-check: $page renders with warnings:"
    echo "$out" | sed 's/^/  /'
    status=1
  fi
done
[ $status = 0 ] && echo "man-check: $(ls man/*.[1-9] | wc -l) pages render cleanly"
exit $status
