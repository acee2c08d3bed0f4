# Sourced by the interop tests (tests/interop-*.sh) with $name set (the word their messages
# start with): finds or builds Google's pprof and pbdump (setup-pprof.sh; skipping, with the
# reason, only when they are missing and cannot be installed), and sets root, prefix, pprof,
# pbdump, PATH (our programs first), a temporary directory T, and problem() counting failures.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PPROF_PREFIX:-/opt/pprof}
pprof=$prefix/pprof
pbdump=$prefix/pbdump/pbdump
export PATH="$root/bin:$PATH" LC_ALL=C TZ=UTC
# No object tools for pprof: it would otherwise run `llvm-objdump --version` and `objdump
# --version` at every start (0.2 to 0.3 s of a 0.15 s run) to look for a disassembler these
# checks never use (our profiles are symbolized; they run with -symbolize=none or need no binary).
export PPROF_TOOLS=${PPROF_TOOLS:-none:/nonexistent}
source "$root/tests/skip.sh"

if [ ! -x "$pprof" ] || [ ! -x "$pbdump" ]; then
  if [ "$(id -u)" != 0 ] && ! command -v go >/dev/null 2>&1; then
    skip_installable "$pprof is missing and Go cannot be installed without root" \
      "(run: sudo bash tests/interop/setup-pprof.sh)"
  fi
  if ! PPROF_PREFIX=$prefix bash "$root/tests/interop/setup-pprof.sh" >/dev/null 2>&1; then
    skip_installable "tests/interop/setup-pprof.sh could not install Go and build pprof"
  fi
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
checks=0
problem() {
  echo "$name: FAIL: $*"
  fail=$((fail + 1))
}
