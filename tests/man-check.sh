#!/usr/bin/env bash
# Every program (tools/NAME.cc) has a manual page, man/man1/NAME.1 (found by man(1) from the checkout: man-db looks in ../man of each directory on PATH, so with bin/ on PATH `man NAME` finds it), that renders without warnings; a
# row in README.md's programs table (a line starting "| `NAME` |"); and a page of the manual in
# docs/ with a heading that names it (a line starting with #, NAME in it as a word).
set -u
cd "$(dirname "$0")/.."
status=0
for src in tools/*.cc; do
  prog=$(basename "$src" .cc)
  [ -f "man/man1/$prog.1" ] || { echo "man-check: man/man1/$prog.1 is missing"; status=1; }
  grep -qF "| \`$prog\` |" README.md || {
    echo "man-check: README.md's programs table has no row for $prog"; status=1; }
  # Names hold '-', which grep's \b takes for a word's end: the boundaries are spelled out.
  grep -qE "^#+ (.*[^[:alnum:]_-])?$prog([^[:alnum:]_-]|\$)" docs/*.md || {
    echo "man-check: no page in docs/ has a heading naming $prog"; status=1; }
done
for page in man/man[1-9]/*.[1-9]; do
  # groff warnings (-ww) and man's own checks, rendered as `man -l` would.
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  if [ -n "$out" ]; then
    echo "man-check: $page renders with warnings:"
    echo "$out" | sed 's/^/  /'
    status=1
  fi
done
[ $status = 0 ] && echo "man-check: $(ls man/man[1-9]/*.[1-9] | wc -l) pages render cleanly;" \
  "$(ls tools/*.cc | wc -l) programs in README.md's table and in docs/"
exit $status
