#!/usr/bin/env bash
# prof-text beside Google's pprof on the same .pb.gz (the generated 1,000,000-sample profile,
# through prof2pprof): --top, --diff-base (against a second profile of another seed), --tags,
# --peek, --dot, prof2callgrind and prof-svg --graph beside pprof -svg; and --timeline beside --top on the prof text. Each pair runs alternately, three times each, and the run of median CPU time is
# shown (issue 14). pprof comes from tests/interop/setup-pprof.sh (PPROF overrides).
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-pprof-reports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/measure.sh"

pprof=${PPROF:-/opt/pprof/pprof}
if [ ! -x "$pprof" ]; then
  echo "($pprof missing: run tests/interop/setup-pprof.sh)"
  exit 0
fi
gen-profile --samples 1000000 --seed 1 -o "$tmp/new.prof"
prof2pprof -o "$tmp/new.pb.gz" "$tmp/new.prof"
gen-profile --samples 1000000 --seed 2 | prof2pprof -o "$tmp/old.pb.gz"
new=$tmp/new.pb.gz
old=$tmp/old.pb.gz
echo "input: generated, 1,000,000 samples, 50,000 stacks, as .pb.gz (seeds 1 and 2)"
side_by_side 3 "prof-text --top" "$new" "prof-text --top $new >/dev/null" \
  "pprof -top" "$new" "$pprof -top -symbolize=none $new >/dev/null 2>&1"
side_by_side 3 "prof-text --top --diff-base old" "$new" \
  "prof-text --top --diff-base $old $new >/dev/null" \
  "pprof -top -diff_base old" "$new" "$pprof -top -symbolize=none -diff_base $old $new >/dev/null 2>&1"
side_by_side 3 "prof-text --tags" "$new" "prof-text --tags $new >/dev/null" \
  "pprof -tags" "$new" "$pprof -tags -symbolize=none $new >/dev/null 2>&1"
side_by_side 3 "prof-text --peek Method24" "$new" "prof-text --peek Method24 $new >/dev/null" \
  "pprof -peek Method24" "$new" "$pprof -peek Method24 -symbolize=none $new >/dev/null 2>&1"
side_by_side 3 "prof-text --dot" "$new" "prof-text --dot $new >/dev/null" \
  "pprof -dot" "$new" "$pprof -dot -symbolize=none $new >/dev/null 2>&1"
side_by_side 3 "prof2callgrind" "$new" "prof2callgrind $new >/dev/null 2>&1" \
  "pprof -callgrind" "$new" "$pprof -callgrind -symbolize=none $new >/dev/null 2>&1"
# The call graph as SVG: ours lays it out with Graphviz's library in-process, pprof runs dot.
side_by_side 3 "prof-svg --graph" "$new" "prof-svg --graph $new >/dev/null" \
  "pprof -svg" "$new" "$pprof -svg -symbolize=none $new >/dev/null 2>&1"
# pprof has no per-sample times: --timeline reads the prof text, beside --top on the same text.
text=$tmp/new.prof
side_by_side 3 "prof-text --timeline (prof text)" "$text" "prof-text --timeline $text >/dev/null" \
  "prof-text --top (prof text, the same reading)" "$text" "prof-text --top $text >/dev/null"
