#!/usr/bin/env bash
# prof2callgrind's output opened in KCachegrind (Debian's package) as a user opens it, under a
# virtual X server (xvfb-run) and a D-Bus session of its own: it loads without a loader complaint
# ("Loading FILE : LINE : ..." on its standard error), and what it shows, read through the
# accessibility bus as a screen reader reads it (tests/kcachegrind/flat_profile.py, Debian's
# python3-pyatspi), is prof-text's: the status bar's total, every listed function's self cost,
# and its inclusive cost where KCachegrind's rule gives prof-text's (docs/callgrind.md: every
# stack starts at one root and nothing recurses). Issue 43.
#
# Inputs: the worked example (names with a newline, quotes, a template; an unsymbolized frame),
# a perf recording of four processes (kernel and libraries: cut stacks and recursion) and a real
# callgrind recording read and written back (three threads' stacks rebuilt from its call graph):
# the inclusive costs of those two are not compared.
set -u
name=interop-kcachegrind
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C.UTF-8 TZ=UTC
source "$root/tests/skip.sh"
for tool in kcachegrind xvfb-run dbus-run-session; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    skip_installable "no $tool (Debian packages kcachegrind, xvfb, xauth, dbus, at-spi2-core, python3-pyatspi; make deps-test installs them)"
  fi
done
if ! /usr/bin/python3 -c 'import pyatspi' 2>/dev/null; then
  skip_installable "Debian's python3 has no pyatspi (python3-pyatspi; make deps-test installs it)"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0

# case NAME INPUT [--inclusive]: prof2callgrind of INPUT; what KCachegrind shows is compared
# after every file has been opened (one X server and D-Bus session for all).
cases=()
case_() {
  local name=$1 input=$2
  shift 2
  prof2callgrind "$input" -o "$T/$name.callgrind" 2>/dev/null
  # KCachegrind shows the first event: the profile's first value type.
  local type
  type=$(prof-text --raw-values --value 0 "$input" 2>/dev/null | awk 'NR == 1 { sub(/^Type: /, ""); sub(/\/[^\/]*$/, ""); print }')
  prof-text --top --no-trim --raw-values --value "$type" "$input" >"$T/$name.top"
  cases+=("$name" "$*")
}
case_ worked "$root/golden/inputs/worked-example.prof" --inclusive
zcat "$root/golden/perf/corpus/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz" | perf2prof 2>/dev/null >"$T/iperf.prof"
case_ perf "$T/iperf.prof"
case_ valgrind "$root/golden/callgrind/inputs/workload.callgrind.gz"

files=()
for ((i = 0; i < ${#cases[@]}; i += 2)); do files+=("$T/${cases[i]}.callgrind"); done
session() {
  xvfb-run -a -s "-screen 0 1600x1000x24" dbus-run-session -- \
    "$root/tests/kcachegrind/session.sh" "$@" >>"$T/session.log" 2>&1
}
if ! session "${files[@]}"; then
  # A session whose accessibility bus broke shows nothing more (seen in make check on a loaded
  # machine: KCachegrind aborted on an AT-SPI error, and no later window of that session reached
  # the bus): the files it did not show get one fresh X server and D-Bus session. A file shown,
  # rightly or wrongly, is not shown again: compare.py judges what the first session read.
  unshown=()
  for file in "${files[@]}"; do grep -q '^total' "$file.shown" 2>/dev/null || unshown+=("$file"); done
  if [ ${#unshown[@]} -eq 0 ] || ! session "${unshown[@]}"; then
    echo "$name: FAIL: KCachegrind did not show every file:"
    grep -v 'dbus-daemon\|SpiRegistry' "$T/session.log" | head -5
    failures=$((failures + 1))
  fi
fi
for ((i = 0; i < ${#cases[@]}; i += 2)); do
  case_name=${cases[i]}
  file=$T/$case_name.callgrind
  if grep -a '^Loading ' "$file.stderr" >/dev/null; then
    echo "$name: FAIL: $case_name: KCachegrind's loader complained:"
    grep -a '^Loading ' "$file.stderr" | head -5
    failures=$((failures + 1))
    continue
  fi
  # shellcheck disable=SC2086
  python3 "$root/tests/kcachegrind/compare.py" ${cases[i + 1]} "$file.shown" "$T/$case_name.top" ||
    failures=$((failures + 1))
done
if [ "$failures" -gt 0 ]; then
  echo "$name: $failures failed"
  exit 1
fi
echo "$name: all ${#files[@]} files shown as prof-text shows them"
