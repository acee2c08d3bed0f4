#!/usr/bin/env bash
# jfr2prof against the JDK's own reader (issue 28): on the committed recording of
# golden/jfr/inputs, on one recorded now when java is there, and on the committed one twice (two
# chunks), `jfr print --json --stack-depth 100000` (its default keeps 5 frames) per event type
# gives the number of events, their start times, the events per stack and the sum of durations
# that our conversion must equal exactly (tests/interop/jfr_compare.py). Needs the JDK's `jfr`
# (Debian's openjdk-17-jdk-headless, in the Makefile's TEST_DEBS); skips, saying so, without it.
set -u
name=interop-jfr
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C TZ=UTC
source "$root/tests/skip.sh"
if ! command -v jfr >/dev/null 2>&1; then
  skip_installable "the JDK's jfr is missing (apt-get install openjdk-17-jdk-headless)"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0

types=(jdk.ExecutionSample jdk.NativeMethodSample jdk.ObjectAllocationSample
  jdk.ObjectAllocationInNewTLAB jdk.ObjectAllocationOutsideTLAB jdk.JavaMonitorEnter
  jdk.JavaMonitorWait jdk.ThreadPark jdk.ThreadSleep jdk.SocketRead jdk.SocketWrite
  jdk.FileRead jdk.FileWrite)

compare() {  # compare RECORDING
  local rec=$1
  # With the names of hidden classes as the JDK gives them (jfr2prof's default drops their ids).
  jfr2prof --keep-lambda-ids "$rec" >"$T/rec.prof" 2>"$T/warnings" || { echo "$name: FAIL: jfr2prof $rec"; fail=$((fail + 1)); return; }
  # Every type in one run of jfr (a start of the JVM costs half a second of CPU).
  jfr print --json --stack-depth 100000 --events "$(IFS=,; echo "${types[*]}")" "$rec" >"$T/events.json"
  python3 "$root/tests/interop/jfr_compare.py" "$T/rec.prof" "$T/events.json" >"$T/compared"
  local status=$?
  sed "s|^|$name: |" "$T/compared"
  if [ "$status" != 0 ]; then
    echo "$name: FAIL: $rec differs from jfr print --json"
    fail=$((fail + 1))
  fi
}

zcat "$root/golden/jfr/inputs/rec.jfr.gz" >"$T/committed.jfr"
compare "$T/committed.jfr"
# A fresh recording of the same workload: what today's JDK writes reads as well.
if command -v javac >/dev/null 2>&1; then
  (cd "$T" && cp "$root/golden/jfr/inputs/Workload.java" . && javac -d . Workload.java &&
    java -XX:StartFlightRecording=filename=fresh.jfr,settings=profile Workload >/dev/null 2>&1) &&
    compare "$T/fresh.jfr"
fi
# Two chunks back to back: the committed recording twice (the JDK's reader carries constant
# pools over from chunk to chunk, as one JVM's chunks allow; chunks of two JVMs would mix their
# keys there, so the same chunk twice it is): every count doubles.
cat "$T/committed.jfr" "$T/committed.jfr" >"$T/two-chunks.jfr"
compare "$T/two-chunks.jfr"
[ "$fail" = 0 ] && echo "$name: ok" || { echo "$name: $fail failures"; exit 1; }
