#!/usr/bin/env bash
# Records golden/perfetto/inputs/chromium-v8.pftrace.gz again: headless Chromium (Debian's)
# loading tests/perfetto/workload.html with startup tracing in Perfetto's protobuf format (the
# default without --trace-startup-format=json) and only V8's CPU profiler category, for 3 s.
# Then writes the hand-made traces (tests/perfetto/write_traces.py). Run by hand; the
# recording is committed, so that the golden cases do not depend on this machine's Chromium.
#
#   tests/perfetto/record.sh
set -eu
cd "$(dirname "$0")/../.."
inputs=golden/perfetto/inputs
run=$(mktemp -d /tmp/proftools-perfetto.XXXXXX)
trap 'rm -rf "$run"' EXIT
mkdir -p "$inputs"
cp tests/perfetto/workload.html "$run/"
# Chromium writes the trace after --trace-startup-duration and goes on running: timeout ends it.
timeout 10 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$run/profile" --trace-startup='-*,disabled-by-default-v8.cpu_profiler' \
  --trace-startup-file="$run/trace.pftrace" --trace-startup-duration=3 \
  "file://$run/workload.html" >/dev/null 2>&1 || true
[ -s "$run/trace.pftrace" ] || { echo "record.sh: Chromium wrote no trace" >&2; exit 1; }
gzip -9 -n -c "$run/trace.pftrace" >"$inputs/chromium-v8.pftrace.gz"
/usr/bin/python3 tests/perfetto/write_traces.py "$inputs"
