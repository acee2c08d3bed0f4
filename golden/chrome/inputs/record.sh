#!/bin/sh
# Records the inputs of golden/chrome with the real node (Debian's nodejs): app.js under
# --cpu-prof (app.cpuprofile) and under trace events with the CPU profiler's category, enabled by
# trace.js (app.trace.json: Profile and ProfileChunk events, thread names, node's own events),
# and node's own duration events alone (app.events.json); heap.js under --heap-prof
# (heap.heapprofile: V8's sampling heap profile, one sample per 32 KiB allocated on average).
# Profiles differ from run to run: re-recording means `make golden-update` and reading the diff.
# The Chromium trace of a page is record-chromium.py's.
#
#   golden/chrome/inputs/record.sh [cpu] [heap]     (from anywhere; no argument: both)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/app.js" "$here/trace.js" "$here/heap.js" "$tmp/"
cd "$tmp"
parts=" ${*:-cpu heap} "
if [ "${parts#* heap }" != "$parts" ]; then
  node --heap-prof --heap-prof-dir="$tmp/heap" --heap-prof-interval 32768 heap.js
  mv "$tmp"/heap/Heap.*.heapprofile "$here/heap.heapprofile"
  chmod 644 "$here/heap.heapprofile"
fi
[ "${parts#* cpu }" != "$parts" ] || { node --version >"$here/node-version.txt"; exit 0; }
node --cpu-prof --cpu-prof-dir="$tmp/prof" --cpu-prof-interval 1000 app.js
mv "$tmp"/prof/CPU.*.cpuprofile "$here/app.cpuprofile"
chmod 644 "$here/app.cpuprofile"  # node writes it for its owner only
node --trace-events-enabled --trace-event-categories node trace.js
mv node_trace.1.log "$here/app.trace.json"
# node's and V8's own duration events only (B/E, X: GC, timers, fs calls), no CPU profile.
node --trace-events-enabled --trace-event-categories node,v8 app.js
mv node_trace.1.log "$here/app.events.json"
node --version >"$here/node-version.txt"
