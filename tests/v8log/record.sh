#!/usr/bin/env bash
# Records golden/v8log/inputs/workload.v8.log.gz: `node --prof` of tests/v8log/workload.js,
# and workload.preprocessed.json.gz, its node --prof-process --preprocess (node from the
# machine: its version goes to node-version.txt beside the log). Run once; the files are
# committed gzipped (the golden cases need fixed inputs, and read the log with its libraries'
# paths made unreadable, so that no file of the machine running them is read;
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
# The tick processor's JSON of the same log (node --prof-process --preprocess), its libraries'
# paths made unreadable first, as the golden cases read the log: what it holds then does not
# depend on this machine's files.
zcat "$out/workload.v8.log.gz" | sed 's|^shared-library,/|shared-library,/nonexistent/|' >unreadable.log
node --prof-process --preprocess unreadable.log 2>/dev/null | gzip -9 >"$out/workload.preprocessed.json.gz"
