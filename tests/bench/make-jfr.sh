#!/usr/bin/env bash
# A large JFR file for the reading benchmark: the real recording golden/jfr/inputs/rec.jfr.gz
# (openjdk-17's Flight Recorder on the project's Workload.java, record.sh there) repeated until
# the file holds MB megabytes. A JFR file is a sequence of self-contained chunks, so the copies
# are a valid recording of as many chunks.
# Usage: make-jfr.sh OUT MB
set -euo pipefail
out=$1
mb=$2
src=$(dirname "$0")/../../golden/jfr/inputs/rec.jfr.gz
tmp=$(mktemp "${TMPDIR:-/tmp}/make-jfr.XXXXXX")
trap 'rm -f "$tmp"' EXIT
zcat "$src" >"$tmp"
copies=$((mb * 1000000 / $(stat -c %s "$tmp") + 1))
for ((i = 0; i < copies; i++)); do cat "$tmp"; done >"$out"
