#!/bin/sh
# Records the Gecko profile of golden/firefox with the real Firefox (Debian's firefox-esr, run
# headless): golden/chrome/inputs/page.html (the page Chromium's trace is recorded on: known JS
# functions, a worker) profiled from start-up by the Gecko profiler with JS and native stacks
# (features js,stackwalk,cpu) on the main threads and the page's worker, written when Firefox
# quits: a script added here closes the window once the page sets window.done, which a pref of a
# throwaway profile allows (a timeout stops Firefox otherwise). trim.py then cuts it to a size
# fit for the repository (markers emptied, the browser's own start-up dropped) and it is gzipped:
# page.gecko.json.gz.
# Profiles differ from run to run: re-recording means `tests/golden.sh --update firefox` and
# reading the diff.
#
#   golden/firefox/inputs/record.sh      (from anywhere)
set -eu
# Only this recipe needs Firefox (the tests read what it recorded), so make check does not
# install it: Debian's firefox-esr, installed here when missing and run as root.
if ! command -v firefox-esr >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "record.sh: needs firefox-esr (apt-get install firefox-esr)" >&2; exit 1; }
  apt-get install -y --no-install-recommends firefox-esr >/dev/null
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/profile"
{ cat "$here/../../chrome/inputs/page.html"
  echo '<script>setInterval(() => { if (window.done) window.close(); }, 50);</script>'
} >"$tmp/page.html"
cat >"$tmp/profile/user.js" <<'PREFS'
user_pref("dom.allow_scripts_to_close_windows", true);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
PREFS
MOZ_PROFILER_STARTUP=1 \
MOZ_PROFILER_STARTUP_INTERVAL=1 \
MOZ_PROFILER_STARTUP_FEATURES=js,stackwalk,cpu \
MOZ_PROFILER_STARTUP_FILTERS="GeckoMain,DOM Worker" \
MOZ_PROFILER_SHUTDOWN="$tmp/out.json" \
  timeout -s TERM 60 firefox-esr --headless --no-remote --profile "$tmp/profile" \
    "file://$tmp/page.html" >"$tmp/log" 2>&1 || true
[ -s "$tmp/out.json" ] || { echo "record.sh: Firefox wrote no profile:" >&2; cat "$tmp/log" >&2; exit 1; }
python3 "$here/trim.py" <"$tmp/out.json" | gzip -9n >"$here/page.gecko.json.gz"
firefox-esr --version >"$here/firefox-version.txt"
