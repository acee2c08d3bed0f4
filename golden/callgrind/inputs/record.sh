#!/bin/sh
# Records the inputs of golden/callgrind with Debian's valgrind: workload.c (known functions and
# call counts, see its comment) built with -O0 -g, then run under
#   callgrind (workload.callgrind: positions line, events Ir),
#   callgrind --dump-instr=yes (workload.instr.callgrind: positions instr line),
#   callgrind --separate-threads=yes (workload.thread-N.callgrind, one file per thread),
#   callgrind --cache-sim=yes (workload.cachesim.callgrind: several events),
#   cachegrind (workload.cachegrind: cachegrind's format, no calls),
# and callgrind_annotate's report of the first (workload.callgrind.annotate.txt).
# Each recording is gzipped (they hold the dynamic loader's and libc's functions too). Paths in
# the files are made relative to this folder (the cmd: line and fl= names) so that re-recording
# elsewhere gives the same names; counts may differ between valgrind and libc versions:
# re-recording means `make golden-update` and reading the diff.
#
#   golden/callgrind/inputs/record.sh      (from anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/workload.c" "$tmp/"
cd "$tmp"
cc -O0 -g -o workload workload.c -pthread
record() {  # record NAME TOOL OPTIONS...
  name=$1
  shift
  valgrind -q "$@" ./workload >/dev/null
}
record callgrind --tool=callgrind --callgrind-out-file=workload.callgrind
record instr --tool=callgrind --dump-instr=yes --callgrind-out-file=workload.instr.callgrind
record threads --tool=callgrind --separate-threads=yes --callgrind-out-file=workload.thread
record cachesim --tool=callgrind --cache-sim=yes --callgrind-out-file=workload.cachesim.callgrind
record cachegrind --tool=cachegrind --cachegrind-out-file=workload.cachegrind
for f in workload.callgrind workload.instr.callgrind workload.thread-* \
         workload.cachesim.callgrind workload.cachegrind; do
  out=$f
  case $f in workload.thread-*) out=workload.thread-${f##*-}.callgrind ;; esac
  sed -e "s|$tmp/||g" "$f" | gzip -9n >"$here/$out.gz"
done
# valgrind's own reader of the plain recording: its self cost per function, which
# golden/callgrind/workload-values holds prof-text's to.
callgrind_annotate --threshold=100 --auto=no workload.callgrind >"$here/workload.callgrind.annotate.txt"
valgrind --version >"$here/valgrind-version.txt"
