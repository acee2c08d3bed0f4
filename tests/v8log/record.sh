#!/usr/bin/env bash
# Records golden/v8log/inputs/workload.v8.log.gz: `node --prof` of tests/v8log/workload.js
# (node from the machine: its version goes to node-version.txt beside the log). Run once; the
# log is committed gzipped (the golden cases need a fixed input and read it with --symfs
# pointing nowhere, so that no library of the machine running them is read;
# tests/interop-v8log.sh records afresh and compares with node --prof-process).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/golden/v8log/inputs
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
node --prof "$root/tests/v8log/workload.js"
gzip -9 -c isolate-*-v8.log >"$out/workload.v8.log.gz"
node --version >"$out/node-version.txt"
