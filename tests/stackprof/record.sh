#!/usr/bin/env bash
# Records the stackprof inputs of golden/stackprof/ with Debian's ruby and ruby-stackprof
# (stackprof 0.2.21), running tests/stackprof/workload.rb: cpu.dump (cpu mode, raw), cpu.json
# (the same, through `stackprof --json`), wall.dump (wall mode, raw), aggregate.dump (cpu mode,
# without raw: frames and edges only), object.dump (object mode, raw). Run once; the files are
# committed (the golden cases need fixed inputs; tests/interop-stackprof.sh records afresh).
# Usage: tests/stackprof/record.sh [DIR] (default golden/stackprof/inputs)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/golden/stackprof/inputs}
mkdir -p "$out"
cd "$out"
workload=$root/tests/stackprof/workload.rb
ruby "$workload" cpu cpu.dump raw
stackprof --json cpu.dump >cpu.json
ruby "$workload" wall wall.dump raw
ruby "$workload" cpu aggregate.dump aggregate
ruby "$workload" object object.dump raw
