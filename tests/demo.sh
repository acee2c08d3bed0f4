#!/usr/bin/env bash
# make demo: run the main job on a shipped example.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH"
example=golden/inputs/worked-example.prof
run() { printf '\n$ %s\n' "$*"; "$@"; }
run prof-validate --verbose "$example"
run prof-text "$example"
run prof-text --traces "$example"
run prof-text --folded "$example"
