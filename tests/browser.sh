#!/usr/bin/env bash
# prof-svg's and prof-html's pages opened in headless Chromium and used as a user would, driven
# over the DevTools protocol by tests/browser/ (Python's standard library): no console error,
# no network request, values equal to prof-text's. Screenshots go to build/browser/.
#
# Skips (with the reason) only when there is no chromium; `make check` installs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$root/build/test-bin:$PATH" LC_ALL=C TZ=UTC
out="$root/build/browser"
mkdir -p "$out"
if ! command -v chromium >/dev/null 2>&1; then
  echo "browser: SKIP: no chromium (Debian package chromium; make deps-test installs it)"
  exit 0
fi
cd "$root/tests/browser"

# The sum of the folded lines' values: what a flame graph of the same options draws.
folded_sum() {
  prof-text --folded --raw-values "$@" | awk '{ s += $NF } END { printf "%.0f\n", s }'
}

failures=0
# check_svg NAME SEARCH_TERM INPUT [prof-svg options...]
check_svg() {
  local name=$1 term=$2 input=$3
  shift 3
  prof-svg "$@" "$input" -o "$out/$name.svg"
  local total matched
  total=$(folded_sum "$input")
  matched=$(folded_sum --focus "$term" "$input")
  if ! python3 check_prof_svg.py "$out/$name.svg" "$total" "$term" "$matched" "$out/$name"; then
    failures=$((failures + 1))
  fi
}

perf_profile="$out/iperf.prof"
zcat "$root/golden/perf/corpus/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz" | perf2prof >"$perf_profile"

check_svg prof-svg-worked leaf "$root/golden/inputs/worked-example.prof"
check_svg prof-svg-inverted leaf "$root/golden/inputs/worked-example.prof" --inverted --reverse
check_svg prof-svg-perf tcp_ "$perf_profile" --min-width 0 --colors kind

# check_html NAME OTHER_TYPE INPUT [prof-html options...]
check_html() {
  local name=$1 other=$2 input=$3
  shift 3
  prof-html "$@" "$input" -o "$out/$name.html"
  # The page lists every row: prof-text's without pprof's trimming.
  prof-text --top --no-trim "$@" "$input" >"$out/$name.top"
  prof-text --top --no-trim --sort cum "$@" "$input" >"$out/$name.top-cum"
  prof-text --top --no-trim --value "$other" "$@" "$input" >"$out/$name.top-other"
  if ! python3 check_prof_html.py "$out/$name.html" "$out/$name.top" "$out/$name.top-cum" \
    "$other" "$out/$name.top-other" "$(folded_sum "$@" "$input")" "$out/$name" "$input"; then
    failures=$((failures + 1))
  fi
}

check_html prof-html-worked 0 "$root/golden/inputs/worked-example.prof"
# Every sample timed (prof-text --time refuses untimed ones), one 10ms long: the brush cuts it.
grep -v '^sample 1 3 - -' "$root/golden/inputs/worked-example.prof" >"$out/worked-timed.prof"
check_html prof-html-timed 0 "$out/worked-timed.prof"
check_html prof-html-perf 0 "$perf_profile"
# Two sources whose clocks differ: the brush is on the sources' clock, as prof-text --time @.
gen-profile --samples 3000 --stacks 40 --seed 3 -o "$out/gen-a.prof"
# The second recorded elsewhere 5 s later: its own source, every time moved by 5 s (exactly:
# the seconds and nanoseconds of the 19-digit times are added apart).
gen-profile --samples 2000 --stacks 30 --seed 4 |
  awk '$1 == "source" { $4 = "other-host"; $5 = substr($5, 1, 10) + 5 substr($5, 11) }
       $1 == "sample" && $4 ~ /^[0-9]+$/ && length($4) == 19 { $4 = substr($4, 1, 10) + 5 substr($4, 11) }
       { print }' >"$out/gen-b.prof"
prof-merge "$out/gen-a.prof" "$out/gen-b.prof" -o "$out/two-sources.prof"
check_html prof-html-two-sources 1 "$out/two-sources.prof"
# Recursion (the sequence view collapses repeated cycles as --peek-seq does) and odd names (a
# comma in a C++ template must not split the sequence in the URL).
check_html prof-html-recursive 0 "$root/golden/filter/inputs/frames-basic.prof"
check_html prof-html-names 0 "$root/golden/inputs/names.prof"

if [ "$failures" -gt 0 ]; then
  echo "browser: $failures check(s) failed"
  exit 1
fi
echo "browser: all checks passed (screenshots in build/browser/)"
