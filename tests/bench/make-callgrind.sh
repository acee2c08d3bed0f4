#!/usr/bin/env bash
# A large callgrind file for the reading benchmark: the real recording
# golden/callgrind/inputs/workload.callgrind.gz (valgrind --tool=callgrind, record.sh there),
# its header once and its cost and call lines repeated until the file holds MB megabytes, each
# repetition a part of its own (`part:`), as callgrind writes dumps of one run.
# Usage: make-callgrind.sh OUT MB
set -euo pipefail
out=$1
mb=$2
src=$(dirname "$0")/../../golden/callgrind/inputs/workload.callgrind.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-callgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
zcat "$src" >"$tmp/one"
# The header ends at the events: line (and the summary after it); the body is the rest.
header_end=$(grep -n '^summary:' "$tmp/one" | cut -d: -f1)
head -n "$header_end" "$tmp/one" | grep -v '^summary:' >"$tmp/header"
tail -n "+$((header_end + 1))" "$tmp/one" | grep -v '^totals:' >"$tmp/body"
body_bytes=$(stat -c %s "$tmp/body")
copies=$((mb * 1000000 / body_bytes + 1))
{
  cat "$tmp/header"
  for ((i = 0; i < copies; i++)); do cat "$tmp/body"; done
} >"$out"
