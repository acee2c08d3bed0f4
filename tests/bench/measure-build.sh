#!/usr/bin/env bash
# The build's and the suites' time on this machine (BENCHMARKS.md, "Build and test"): a clean
# clone of HEAD in a scratch directory, then, each timed (wall and CPU):
#   make all                 the programs (what `make demo` builds)
#   make build-tests         the rest of what `make check` builds
#   make test                the fast suites
#   make check-interop       the suites that need pprof, R, the JDK, valgrind, perf, dot
#   make check-browser       headless Chromium
# Packages are assumed installed (`make deps-test deps-web pprof-tools` first): their download is
# the network's time, not ours. Not in `make bench` (it takes minutes): run it by hand.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/src"
[ -d "$root/tests/web/node_modules" ] && cp -a "$root/tests/web/node_modules" "$tmp/src/tests/web/"
cd "$tmp/src"
echo "machine: $(nproc) cores; HEAD $(git rev-parse --short HEAD)"
for target in all build-tests test check-interop check-browser; do
  /usr/bin/time -f "make $target: %e s wall, %U s user + %S s system CPU" -o "$tmp/time" \
    make "$target" >"$tmp/$target.log" 2>&1 || { tail -20 "$tmp/$target.log"; echo "make $target failed"; }
  cat "$tmp/time"
done
