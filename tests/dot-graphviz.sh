#!/usr/bin/env bash
# prof-text --dot's output is valid Graphviz input: every golden DOT output (golden/*/dot-*/stdout)
# rendered by Graphviz's own `dot -Tsvg` (Debian's graphviz) exits 0 with nothing on stderr. And
# prof-svg --graph, which links Graphviz's library, draws what `dot -Tsvg` draws from
# prof-text --dot's output: the same <g id="graph0"> group, byte for byte, on each golden DOT
# case's command.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$root/build/test-bin:$PATH" LC_ALL=C TZ=UTC
name=dot-graphviz
source "$root/tests/skip.sh"
if ! command -v dot >/dev/null; then
  skip_installable "no dot (Debian package graphviz; make deps-test installs it)"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/dot-graphviz.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
checks=0

# The drawing: Graphviz's <g id="graph0"> group, without the prolog and version comment before it
# and what follows it (dot's </svg>; prof-svg's </g> of its viewport, help line and script).
dot_drawing() {
  sed -n '/^<g id="graph0"/,$p' "$1" | head -n -1
}
page_drawing() {
  sed -n '/^<g id="graph0"/,/^<text id="help"/p' "$1" | head -n -2
}

for stdout in "$root"/golden/*/dot-*/stdout; do
  case_dir=$(dirname "$stdout")
  name=${case_dir#"$root/golden/"}
  checks=$((checks + 1))
  if ! dot -Tsvg "$stdout" >"$T/dot.svg" 2>"$T/dot.err"; then
    echo "dot-graphviz: FAIL: $name: dot -Tsvg exits $?: $(head -3 "$T/dot.err")"
    fail=$((fail + 1))
    continue
  fi
  if [ -s "$T/dot.err" ]; then
    echo "dot-graphviz: FAIL: $name: dot -Tsvg warns: $(head -3 "$T/dot.err")"
    fail=$((fail + 1))
  fi
  # The case's command as prof-svg --graph (the same trimming options), run where the case runs.
  cmd=$(cat "$case_dir/cmd")
  case $cmd in
    "prof-text --dot "*) ;;
    *) continue ;;
  esac
  svg_cmd="prof-svg --graph ${cmd#prof-text --dot }"
  checks=$((checks + 1))
  if ! (cd "$case_dir" && eval "$svg_cmd") >"$T/ours.svg" 2>"$T/ours.err"; then
    echo "dot-graphviz: FAIL: $name: $svg_cmd failed: $(head -3 "$T/ours.err")"
    fail=$((fail + 1))
    continue
  fi
  dot_drawing "$T/dot.svg" >"$T/dot.drawing"
  page_drawing "$T/ours.svg" >"$T/ours.drawing"
  if [ ! -s "$T/ours.drawing" ] || ! cmp -s "$T/dot.drawing" "$T/ours.drawing"; then
    echo "dot-graphviz: FAIL: $name: $svg_cmd draws otherwise than dot -Tsvg:"
    diff "$T/dot.drawing" "$T/ours.drawing" | head -5
    fail=$((fail + 1))
  fi
done

if [ "$fail" -gt 0 ]; then
  echo "dot-graphviz: $fail of $checks checks failed"
  exit 1
fi
echo "dot-graphviz: $checks checks passed"
