#!/usr/bin/env bash
# Records golden/ghc/inputs/: tests/ghc/Work.hs built with Debian's ghc and ghc-prof (9.0.2;
# `ghc -prof -fprof-auto`: every top-level function a cost centre) and run three times, as
# `+RTS -p` (percentages: work-p.prof), `+RTS -P` (ticks and bytes too: work-P.prof) and
# `+RTS -pj` (JSON: work.json.prof). Run once; the reports are committed (ghc is 1.5 GB
# installed: not a package `make check` installs).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/golden/ghc/inputs
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/tests/ghc/Work.hs" "$work/"
cd "$work"
ghc -O0 -prof -fprof-auto -rtsopts -o work Work.hs >/dev/null
./work +RTS -p -RTS >/dev/null && mv work.prof "$out/work-p.prof"
./work +RTS -P -RTS >/dev/null && mv work.prof "$out/work-P.prof"
./work +RTS -pj -RTS >/dev/null && mv work.prof "$out/work.json.prof"
ghc --numeric-version >"$out/ghc-version.txt"
