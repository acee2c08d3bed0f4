#!/usr/bin/env bash
# Opens each FILE in KCachegrind, one after the other, and writes what it shows to FILE.shown
# (flat_profile.py's lines) and what it printed to FILE.stderr (its loader's complaints: "Loading
# FILE : LINE : message"). Run under a virtual X server and a D-Bus session of its own
# (KCachegrind exits at once without one), as tests/interop-kcachegrind.sh does:
#   xvfb-run -a dbus-run-session -- tests/kcachegrind/session.sh FILE...
# QT_ACCESSIBILITY=1 makes Qt publish the window's widgets on the accessibility bus (started by
# D-Bus activation from at-spi2-core), where flat_profile.py reads them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
export QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 QT_QPA_PLATFORM=xcb
export XDG_RUNTIME_DIR="$state/run" XDG_CONFIG_HOME="$state/config" XDG_DATA_HOME="$state/data"
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
chmod 700 "$XDG_RUNTIME_DIR"
# Cycle detection off (View > Cycle Detection): with it, KCachegrind merges the functions of a
# recursive cycle into an artificial "<cycle N>" whose members' inclusive costs are estimates;
# prof-text counts each sample once for each function on its stack, as KCachegrind does without.
printf '[GeneralSettings]\nShowCycles=false\n' >"$XDG_CONFIG_HOME/kcachegrindrc"
# A window that never reaches the accessibility bus (seen once in make check, on a loaded
# machine, for the session's first window: its start raced the bus's) gets a second start; a
# window that shows is read once, whatever it shows, so a file KCachegrind reads wrongly still
# fails.
status=0
for file in "$@"; do
  shown=0
  for wait_seconds in 30 60; do
    kcachegrind "$file" >/dev/null 2>"$file.stderr" &
    pid=$!
    # Debian's python3: python3-pyatspi is a Debian package, not in another interpreter's path.
    /usr/bin/python3 "$here/flat_profile.py" "$wait_seconds" >"$file.shown"
    result=$?
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ "$result" = 0 ] && shown=1
    [ "$result" != 2 ] && break
    [ "$wait_seconds" = 30 ] && echo "session.sh: $file: no window on the accessibility bus in 30 s; starting it again" >&2
  done
  [ "$shown" = 1 ] || status=1
done
exit "$status"
