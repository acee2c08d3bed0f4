#!/usr/bin/env bash
# make demo: run the main job on a shipped example.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH"
example=golden/inputs/worked-example.prof
run() { printf '\n$ %s\n' "$*"; "$@"; }
run prof-validate --verbose "$example"
run prof-text "$example"
run prof-text --traces "$example"
run prof-text --folded "$example"

# perf: a real `perf script` capture (perf 6.1, frame-pointer call graphs) to prof text, then the
# top functions and FlameGraph folded stacks as stackcollapse-perf.pl would make them.
perf_example=golden/perf/corpus/local/perf61-fp-default.txt.gz
perf_prof=$(mktemp "${TMPDIR:-/tmp}/demo-perf.XXXXXX")
trap 'rm -f "$perf_prof" "$perf_prof.folded" "$perf_prof.pb.gz"' EXIT
run perf2prof -o "$perf_prof" "$perf_example"
run prof-text --nodecount 8 "$perf_prof"
printf '\n$ prof-text --folded --flamegraph --root {comm}-{tid} %s | head -3\n' "$perf_prof"
prof-text --folded --flamegraph --root '{comm}-{tid}' -o "$perf_prof.folded" "$perf_prof"
head -3 "$perf_prof.folded" | cut -c1-160

# The main job: perf script text to pprof's .pb.gz, which prof-text (and pprof) read back.
printf '\n$ perf2prof %s | prof2pprof -o cpu.pb.gz\n' "$perf_example"
perf2prof "$perf_example" | prof2pprof -o "$perf_prof.pb.gz"
printf '\n$ prof-text --nodecount 5 cpu.pb.gz\n'
prof-text --nodecount 5 "$perf_prof.pb.gz"

# The main job from perf record's own file: perf.data read and symbolised here (no perf needed),
# the recorded program found under --symfs (the recording was made on another machine).
perf_data=golden/perf-data/inputs/fp.data
printf '\n$ perf2prof --symfs golden/perf-data/root %s | prof2pprof -o cpu.pb.gz\n' "$perf_data"
perf2prof --symfs golden/perf-data/root "$perf_data" 2>/dev/null | prof2pprof -o "$perf_prof.pb.gz"
printf '\n$ prof-text --nodecount 5 cpu.pb.gz\n'
prof-text --nodecount 5 "$perf_prof.pb.gz"

# Every program reads every format it recognises: perf script text and folded stacks straight
# into prof-text, no converter in between.
printf '\n$ prof-text --nodecount 3 %s\n' "$perf_example"
prof-text --nodecount 3 "$perf_example"
# Folded stacks say nothing of their unit: folded2prof --type names it (default samples/count).
printf '\n$ folded2prof --type cpu/nanoseconds cpu.folded | prof-text --nodecount 3\n'
folded2prof --type cpu/nanoseconds "$perf_prof.folded" | prof-text --nodecount 3
