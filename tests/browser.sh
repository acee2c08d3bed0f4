#!/usr/bin/env bash
# prof-svg's and prof-html's pages, prof2chrome's and prof2speedscope's output in speedscope,
# prof2chrome's in Chromium's DevTools Performance panel and prof2firefox's in the Firefox
# Profiler (when FIREFOX_PROFILER_SRC gives its source), opened in headless Chromium and used
# as a user would, driven over the DevTools protocol by tests/browser/ (Python's standard
# library): no console error, no network request, values equal to prof-text's. The script
# makes the pages and queues a check of each; run_checks.py runs them all in one Chromium at the
# end. Screenshots go to build/browser/ when BROWSER_SCREENSHOTS=1 (make check-browser sets it).
#
# Skips (with the reason, tests/skip.sh) only when there is no chromium or speedscope; `make check`
# installs them, and under CI=true their absence is a failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$root/build/test-bin:$PATH" LC_ALL=C TZ=UTC
out="$root/build/browser"
mkdir -p "$out"
name=browser
source "$root/tests/skip.sh"
if ! command -v chromium >/dev/null 2>&1; then
  skip_installable "no chromium (Debian package chromium; make deps-test installs it)"
fi
cd "$root/tests/browser"

# The sum of the folded lines' values: what a flame graph of the same options draws.
folded_sum() {
  prof-text --folded --raw-values "$@" | awk '{ s += $NF } END { printf "%.0f\n", s }'
}

failures=0
# queue SCRIPT ARG...: a check of tests/browser/ in Chromium, run with the others at the end by
# run_checks.py in one Chromium (a start of Chromium and Python each would cost about 2.5 s of
# CPU). The arguments are one JSON array per line.
checks="$out/checks.list"
: >"$checks"
queue() {
  local line="[" sep="" arg
  for arg in "$@"; do
    arg=${arg//\\/\\\\}
    line+="$sep\"${arg//\"/\\\"}\""
    sep=", "
  done
  printf '%s]\n' "$line" >>"$checks"
}
# check_svg NAME SEARCH_TERM INPUT [prof-svg options...]
check_svg() {
  local name=$1 term=$2 input=$3
  shift 3
  prof-svg "$@" "$input" -o "$out/$name.svg"
  local total matched
  total=$(folded_sum "$input")
  matched=$(folded_sum --focus "$term" "$input")
  queue check_prof_svg.py "$out/$name.svg" "$total" "$term" "$matched" "$out/$name"
}

perf_profile="$out/iperf.prof"
zcat "$root/golden/perf/corpus/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz" | perf2prof >"$perf_profile"

check_svg prof-svg-worked leaf "$root/golden/inputs/worked-example.prof"
check_svg prof-svg-inverted leaf "$root/golden/inputs/worked-example.prof" --inverted --reverse
check_svg prof-svg-perf tcp_ "$perf_profile" --min-width 0 --colors kind

# check_graph NAME INPUT [prof-svg --graph options...]: the page against prof-text --dot's DOT.
check_graph() {
  local name=$1 input=$2
  shift 2
  prof-svg --graph "$@" "$input" -o "$out/$name.svg"
  prof-text --dot "$@" "$input" >"$out/$name.dot"
  queue check_prof_svg_graph.py "$out/$name.svg" "$out/$name.dot" "$out/$name"
}

check_graph prof-svg-graph-worked "$root/golden/inputs/worked-example.prof"
check_graph prof-svg-graph-callgrind "$root/golden/callgrind/inputs/workload.callgrind.gz" --nodecount 12
check_graph prof-svg-graph-perf "$perf_profile"

# check_html_graph NAME INPUT TYPE_INDEX TYPE [prof-html options...]: prof-html's call graph view
# of TYPE against prof-text --dot's DOT, as check_graph.
check_html_graph() {
  local name=$1 input=$2 index=$3 type=$4
  shift 4
  prof-html "$@" "$input" -o "$out/$name.html"
  prof-text --dot --value "$type" "$@" "$input" >"$out/$name.dot"
  queue check_prof_svg_graph.py "$out/$name.html" "$out/$name.dot" "$out/$name" "$index"
}

check_html_graph prof-html-graph-worked "$root/golden/inputs/worked-example.prof" 1 cpu
check_html_graph prof-html-graph-perf "$perf_profile" 0 cpu-clock_samples --nodecount 20

# A hostile unit (issue 47, item 1): clicking every node and edge of both call graph views runs
# none of the profile's script.
hostile_unit="$root/golden/security/unit-in-call-graph/hostile-unit.prof"
prof-svg --graph "$hostile_unit" -o "$out/hostile-graph.svg"
prof-html "$hostile_unit" -o "$out/hostile-graph.html"
queue check_graph_links.py "$out/hostile-graph.svg"
queue check_graph_links.py "$out/hostile-graph.html" 0

# [NO_GRAPH=1] check_html NAME OTHER_TYPE INPUT [prof-html options...] (NO_GRAPH: prof-html
# --no-graph, for a page whose call graph the check does not look at)
check_html() {
  local name=$1 other=$2 input=$3
  shift 3
  prof-html ${NO_GRAPH:+--no-graph} "$@" "$input" -o "$out/$name.html"
  # The page lists every row: prof-text's without pprof's trimming.
  prof-text --top --no-trim "$@" "$input" >"$out/$name.top"
  prof-text --top --no-trim --sort cum "$@" "$input" >"$out/$name.top-cum"
  prof-text --top --no-trim --value "$other" "$@" "$input" >"$out/$name.top-other"
  # The flame graph draws this profile's values, with or without a base.
  local drawn=("$@")
  if [ "${1:-}" = --diff-base ]; then drawn=("${@:3}"); fi
  queue check_prof_html.py "$out/$name.html" "$out/$name.top" "$out/$name.top-cum" \
    "$other" "$out/$name.top-other" "$(folded_sum "${drawn[@]}" "$input")" "$out/$name" \
    "$input" "$@"
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
# Generated stacks call any function from any other: Graphviz takes half a minute to lay out
# such a graph, which this check does not look at (check_html_graph does, on real profiles).
NO_GRAPH=1 check_html prof-html-two-sources 1 "$out/two-sources.prof"
# Recursion (the sequence view collapses repeated cycles as --peek-seq does) and odd names (a
# comma in a C++ template must not split the sequence in the URL).
check_html prof-html-recursive 0 "$root/golden/filter/inputs/frames-basic.prof"
check_html prof-html-names 0 "$root/golden/inputs/names.prof"
# C++ names longer than a cell, alike but for their end: elided in the middle, full on hover.
check_html prof-html-long-names 0 "$root/tests/browser/long-names.prof"

# The source pane (--source-path): each function's lines and values are prof-text --list's, on
# golden text/list-sources' worked example and sources (worker.c missing: the note).
list_sources=$root/golden/text/list-sources
prof-html --source-path "$list_sources/src" "$root/golden/inputs/worked-example.prof" \
  -o "$out/prof-html-source.html"
queue check_prof_html_source.py "$out/prof-html-source.html" \
  "$root/golden/inputs/worked-example.prof" "$out/prof-html-source" --source-path "$list_sources/src"

# --diff-base: the lists are prof-text --diff-base's, the flame graph coloured by change (the
# worked example against itself with main's samples at a third: they grew).
sed 's/^sample 1 1 1700000000010000000 - 3 30000000/sample 1 1 1700000000010000000 - 1 10000000/' \
  "$root/golden/inputs/worked-example.prof" >"$out/worked-base.prof"
check_html prof-html-diff 0 "$root/golden/inputs/worked-example.prof" --diff-base "$out/worked-base.prof"
# Two generated profiles, other seeds (the same functions, other stacks and times).
gen-profile --samples 20000 --stacks 300 --seed 6 -o "$out/gen-new.prof"
gen-profile --samples 20000 --stacks 300 --seed 7 | sed 's/^source 1 manual gen-profile/source 1 manual gen-base/' >"$out/gen-base.prof"
NO_GRAPH=1 check_html prof-html-diff-gen 1 "$out/gen-new.prof" --diff-base "$out/gen-base.prof"

# A large profile (20,000 distinct stacks, 40 frames deep on average): each change of the flame
# graph (search, zoom, icicle, type, brush) works and draws only what can be seen. With a
# source pane (no file found: every function's lines with values, without text). The 200 ms
# goal is `make bench`'s (tests/bench/bench-html-speed.sh): here, beside other suites on two
# cores, a bound of 2 s only catches a hang or a page that draws every element (each change
# once, not the median of 3).
gen-profile --samples 200000 --stacks 20000 --seed 5 |
  prof-html --no-graph --source-path "$out/no-sources" -o "$out/prof-html-large.html"
queue check_prof_html_speed.py "$out/prof-html-large.html" 2000 1

# prof2chrome's output opened in speedscope (npm's package, tests/web/, installed by make
# deps-web) as a user opens a file: it imports without error, and its Sandwich view gives every
# function the total and self weight prof-text gives (the samples array is weighted by the
# default type; speedscope shows the first thread, by pid and tid).
speedscope="$root/tests/web/node_modules/speedscope/dist/release/index.html"
# check_speedscope NAME INPUT
check_speedscope() {
  local name=$1 input=$2 first scale
  prof2chrome "$input" -o "$out/$name.json" 2>/dev/null
  # The first thread: speedscope's profile 1 of N; its labels as prof-text's filters.
  first=$(python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))
pid, tid = min((s["pid"], s["tid"]) for s in t["samples"])
print(f"--label-focus pid={pid} --label-focus tid={tid}" if len({(s["pid"], s["tid"]) for s in t["samples"]}) > 1 else "")' "$out/$name.json")
  # speedscope counts in microseconds: a time type scaled to them, a count taken as it is.
  scale=$(prof-text --raw-values "$input" | awk 'NR == 1 { u = $2; sub(/.*\//, "", u)
    print u == "nanoseconds" ? 0.001 : u == "milliseconds" ? 1000 : u == "seconds" ? 1e6 : 1 }')
  # shellcheck disable=SC2086
  prof-text --top --no-trim --raw-values $first "$input" |
    awk -v scale="$scale" 'NR > 1 && $1 ~ /^-?[0-9]+$/ && NF >= 6 {
      name = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
      printf "%s\t%.3f\t%.3f\n", name, $1 * scale, $4 * scale }' >"$out/$name.top"
  queue check_speedscope.py check "$speedscope" "$out/$name.json" "$out/$name.top" "$out/$name"
}
# prof2speedscope's output, validated against speedscope's published schema (its npm package's
# file-format-schema.json) and opened in speedscope: its first profile's Sandwich view gives
# every function prof-text's total and self weight for that thread (the profile's tid or pid).
# check_prof2speedscope NAME INPUT [prof2speedscope options...]
check_prof2speedscope() {
  local name=$1 input=$2 first scale
  shift 2
  prof2speedscope "$@" "$input" -o "$out/$name.speedscope.json" 2>/dev/null
  if ! python3 check_speedscope_schema.py "${speedscope%/index.html}/file-format-schema.json" \
    "$out/$name.speedscope.json"; then
    failures=$((failures + 1))
    return
  fi
  first=$(python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
m = re.search(r"\((tid|pid) (\d+)\)", d["profiles"][0]["name"])
print(f"--label-focus {m.group(1)}={m.group(2)}" if m and len(d["profiles"]) > 1 else "")' \
    "$out/$name.speedscope.json")
  scale=$(prof-text --raw-values "$@" "$input" | awk 'NR == 1 { u = $2; sub(/.*\//, "", u)
    print u == "nanoseconds" ? 0.001 : u == "milliseconds" ? 1000 : u == "seconds" ? 1e6 : 1 }')
  # shellcheck disable=SC2086
  prof-text --top --no-trim --raw-values $first "$@" "$input" |
    awk -v scale="$scale" 'NR > 1 && $1 ~ /^-?[0-9]+$/ && NF >= 6 {
      name = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
      printf "%s\t%.3f\t%.3f\n", name, $1 * scale, $4 * scale }' >"$out/$name.top"
  queue check_speedscope.py check "$speedscope" "$out/$name.speedscope.json" \
    "$out/$name.top" "$out/$name"
}
if [ -f "$speedscope" ]; then
  check_speedscope speedscope-cpuprofile "$root/golden/chrome/inputs/app.cpuprofile"
  check_speedscope speedscope-perf "$perf_profile"
  # Evented: wall time in time order, one thread (what prof2speedscope writes of a .cpuprofile
  # by default, spelled out for prof-text's side); perf's threads, sampled, weighed by samples.
  check_prof2speedscope prof2speedscope-cpuprofile "$root/golden/chrome/inputs/app.cpuprofile" \
    --value wall
  check_prof2speedscope prof2speedscope-perf "$perf_profile"
  # Evented: speedscope's own export of node's profile, read back (stretches with TIME and
  # DURATION weighed by their time), and of Chrome's trace.
  check_prof2speedscope prof2speedscope-evented "$root/golden/speedscope/inputs/app.speedscope.json"
  check_prof2speedscope prof2speedscope-trace "$root/golden/speedscope/inputs/trace.speedscope.json"
else
  skip_part_installable "speedscope: tests/web/node_modules has no speedscope (make deps-web runs npm ci; it failed or was not run)" ||
    failures=$((failures + 1))
fi

# prof2chrome's output in Chromium's own DevTools Performance panel (served by the chromium
# above on its debugging port, devtools/trace_app.html): it loads, and the Bottom-up table of the
# busiest thread (the panel lists the busiest process first, its busiest thread first) gives
# every function prof-text's self and total time for that thread. The panel shows the trace's
# event times: SCALE turns prof-text's raw values of the type drawn into its microseconds.
# busiest LABEL INPUT [prof-text options...]: "--label-focus LABEL=V" for the label value with
# the largest share of the samples, or nothing when no sample has that label.
busiest() {
  local label=$1
  shift
  prof-text --tags --raw-values "$@" | awk -v label="$label" '
    $1 == label ":" { found = 1; next }
    found && NF >= 3 { print "--label-focus " label "=" $3; exit }'
}
# check_devtools NAME INPUT SCALE [prof-text options...]
check_devtools() {
  local name=$1 input=$2 scale=$3 process thread
  shift 3
  prof2chrome "$input" -o "$out/$name.json" 2>/dev/null
  process=$(busiest pid "$input")
  # shellcheck disable=SC2086
  thread=$(busiest tid $process "$input")
  # shellcheck disable=SC2086
  prof-text --top --no-trim --raw-values $process $thread "$@" "$input" |
    awk -v scale="$scale" 'NR > 1 && $1 ~ /^-?[0-9]+$/ && NF >= 6 {
      name = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
      printf "%s\t%.3f\t%.3f\n", name, $1 * scale, $4 * scale }' >"$out/$name.top"
  queue check_devtools.py "$out/$name.json" "$out/$name.top" "$out/$name"
}
# Node's profile: one thread, each sample as long as its wall time (idle included).
check_devtools devtools-cpuprofile "$root/golden/chrome/inputs/app.cpuprofile" 1 --value wall
# perf's threads in four processes, untimed: prof2chrome makes each sample 1 ms long.
check_devtools devtools-perf "$perf_profile" 1000

# prof2firefox's output in the Firefox Profiler, built from its public source when the suite is
# given it (FIREFOX_PROFILER_SRC=DIR, a git directory of github.com/firefox-devtools/profiler:
# tests/firefox-profiler/build.sh builds it into FIREFOX_PROFILER_WORK, by default
# build/firefox-profiler, about 2 GB): each thread's inverted call tree gives every function
# prof-text's self value for that thread. Nothing installs the profiler's source: without it
# this part says SKIPPED, also under CI.
# ffp_profile NAME INPUT: prof2firefox's output and, per thread, prof-text's self values in the
# unit the profile's samples weigh (milliseconds for a time), as INDEX=TSV arguments.
ffp_profile() {
  local name=$1 input=$2 scale
  prof2firefox "$input" -o "$out/$name.json" 2>/dev/null
  scale=$(prof-text --raw-values "$input" | awk 'NR == 1 { u = $2; sub(/.*\//, "", u)
    print u == "nanoseconds" ? 1e-6 : u == "microseconds" ? 0.001 : u == "seconds" ? 1000 : 1 }')
  ffp_args=()
  local index pid tid labels
  while read -r index pid tid; do
    labels=()
    [ "$pid" != - ] && labels+=(--label-focus "pid=$pid")
    [ "$tid" != - ] && labels+=(--label-focus "tid=$tid")
    prof-text --top --no-trim --raw-values "${labels[@]}" "$input" |
      awk -v scale="$scale" 'NR > 1 && $1 ~ /^-?[0-9]+$/ && NF >= 6 {
        name = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
        printf "%s\t%.6f\n", name, $1 * scale }' >"$out/$name-thread-$index.top"
    ffp_args+=("$index=$out/$name-thread-$index.top")
  done < <(python3 -c 'import json, sys
threads = json.load(open(sys.argv[1]))["threads"]
for i, t in enumerate(threads):
    # One thread is the whole profile; else its pid and tid labels select it.
    print(i, *("-" if len(threads) == 1 else t.get(k, "-") for k in ("pid", "tid")))' \
    "$out/$name.json")
}
if [ -n "${FIREFOX_PROFILER_SRC:-}" ]; then
  ffp_work=${FIREFOX_PROFILER_WORK:-$root/build/firefox-profiler}
  if ffp_dist=$("$root/tests/firefox-profiler/build.sh" "$FIREFOX_PROFILER_SRC" "$ffp_work" \
    2>"$out/firefox-profiler-build.log" | tail -1) && [ -f "$ffp_dist/index.html" ]; then
    # perf's ten threads in four processes, counts; node's one thread, in milliseconds.
    ffp_profile firefox-perf "$perf_profile"
    queue check_firefox_profiler.py "$ffp_dist" "$out/firefox-perf.json" "$out/firefox-perf" "${ffp_args[@]}"
    ffp_profile firefox-cpuprofile "$root/golden/chrome/inputs/app.cpuprofile"
    queue check_firefox_profiler.py "$ffp_dist" "$out/firefox-cpuprofile.json" \
      "$out/firefox-cpuprofile" "${ffp_args[@]}"
  else
    echo "browser: FAIL: tests/firefox-profiler/build.sh could not build the Firefox Profiler" \
      "from $FIREFOX_PROFILER_SRC (build/browser/firefox-profiler-build.log)"
    tail -5 "$out/firefox-profiler-build.log"
    failures=$((failures + 1))
  fi
else
  skip_part "the Firefox Profiler check: FIREFOX_PROFILER_SRC is not set (a git directory of" \
    "github.com/firefox-devtools/profiler, which tests/firefox-profiler/build.sh builds)"
fi

python3 run_checks.py "$checks" || failures=$((failures + 1))

if [ "$failures" -gt 0 ]; then
  echo "browser: $failures check(s) failed (BROWSER_SCREENSHOTS=1 tests/browser.sh keeps screenshots)"
  exit 1
fi
if [ "${BROWSER_SCREENSHOTS:-}" = 1 ]; then
  echo "browser: all checks passed (screenshots in build/browser/)"
else
  echo "browser: all checks passed (BROWSER_SCREENSHOTS=1, or make check-browser, keeps screenshots)"
fi
