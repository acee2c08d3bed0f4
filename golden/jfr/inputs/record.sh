#!/bin/sh
# Records the input of golden/jfr with the real JDK (Debian's openjdk-17-jdk-headless):
# Workload.java run under the JDK's Flight Recorder with its "profile" settings (execution
# samples every 10 ms, allocation samples, monitor, sleep and park events over 10 ms), gzipped
# (rec.jfr.gz; every proftools program gunzips its inputs). Recordings differ from run to run:
# re-recording means `tests/golden.sh --update jfr` and reading the diff.
#
#   golden/jfr/inputs/record.sh      (from anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/Workload.java" "$tmp/"
cd "$tmp"
javac -d . Workload.java
java -XX:StartFlightRecording=filename=rec.jfr,settings=profile Workload >/dev/null
gzip -9n <rec.jfr >"$here/rec.jfr.gz"
java -version 2>&1 | head -1 >"$here/java-version.txt"
