# Sourced by the interop tests (tests/interop-*.sh) with $name set (the word their messages
# start with): finds or builds Google's pprof and pbdump (setup-pprof.sh; skipping, with the
# reason, only when they are missing and cannot be installed), and sets root, prefix, pprof (a
# command: run as "$pprof" ARG...), pprof_session, pprof_bin, pbdump, PATH (our programs first),
# a temporary directory T, and problem() counting failures (scratch.sh).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PPROF_PREFIX:-/opt/pprof}
pprof_bin=$prefix/pprof
pbdump=$prefix/pbdump/pbdump
export PATH="$root/bin:$PATH" LC_ALL=C TZ=UTC
# "$pprof" runs pprof without object tools: at every start it looks for a disassembler, and runs
# `llvm-objdump --version` (65 ms of CPU, three quarters of a short pprof run) when PATH has one,
# even with PPROF_TOOLS set. These checks never disassemble or symbolize (our profiles are
# symbolized; they run with -symbolize=none or need no binary).
run_pprof() {
  PATH=/nonexistent PPROF_TOOLS=none:/nonexistent "$pprof_bin" "$@"
}
pprof=run_pprof
# pprof_session FILE: pprof's interactive mode on FILE, its commands on stdin (`top > OUT`,
# `focus=RE`, `focus=` to clear it), its greeting and messages on stdout: one start of pprof
# for many reports (a start costs 0.1 to 0.2 s). Its `proto`, `top`, `traces` and `dot` write
# what -proto, -top, -traces and -dot write, but for the header lines (File:, Type:, ...) and
# comments, which the greeting prints once, and for the order of dot's edges of equal weight;
# `traces` after a filter gives the unfiltered total. Interactive `top` shows 10 rows unless
# nodecount is set (nodecount=0: all, as -top).
pprof_session() {
  "$pprof" -symbolize=none "$1" 2>&1
}
source "$root/tests/skip.sh"

if [ ! -x "$pprof_bin" ] || [ ! -x "$pbdump" ]; then
  if [ "$(id -u)" != 0 ] && ! command -v go >/dev/null 2>&1; then
    skip_installable "$pprof_bin is missing and Go cannot be installed without root" \
      "(run: sudo bash tests/interop/setup-pprof.sh)"
  fi
  if ! PPROF_PREFIX=$prefix bash "$root/tests/interop/setup-pprof.sh" >/dev/null 2>&1; then
    skip_installable "tests/interop/setup-pprof.sh could not install Go and build pprof"
  fi
fi

source "$root/tests/interop/scratch.sh"
