#!/usr/bin/env bash
# perf2prof reads perf.data as perf reads it: the workload (tests/perf-data/workload.cc) is
# recorded here with the real perf in the ways users record (frame pointers, no call graph,
# two events, --call-graph dwarf, pipe mode, system-wide), and each recording converted twice:
# `perf2prof rec.data` (read and symbolised here) and `perf script --show-mmap-events | perf2prof`
# (perf's own reading and symbolisation). tests/perf-data/compare.py then holds every sample to
# perf's: time, values, labels, and each frame's object, address and (for the workload and the
# kernel) function. Skips when perf is missing or not permitted (tests/skip.sh).
set -u
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
name=interop-perf-data
source tests/skip.sh
fail() { echo "$name: FAIL: $*"; exit 1; }

command -v perf >/dev/null 2>&1 || skip_installable "perf is not installed (Debian package linux-perf)"
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
command -v python3 >/dev/null 2>&1 || skip_installable "python3 is not installed"
# Not /tmp/perf-*: perf takes those for JIT maps.
T=$(mktemp -d "${TMPDIR:-/tmp}/proftools-perf-data.XXXXXX")
trap 'rm -rf "$T"' EXIT
g++ -O2 -g -fno-omit-frame-pointer -fno-shrink-wrap -fno-optimize-sibling-calls -pthread \
  -o "$T/workload" tests/perf-data/workload.cc || fail "cannot build the workload"

# record NAME OPTIONS...: a recording of the workload, or a skip when perf is not permitted.
record() {
  local out=$1
  shift
  if ! perf record -q "$@" -o "$T/$out" -- "$T/workload" 20000000 >/dev/null 2>"$T/record.err"; then
    skip "perf record is not permitted here ($(grep -m1 -i 'perf_event\|permission\|error' \
      "$T/record.err" || head -1 "$T/record.err"))"
  fi
}
record fp.data -g -e cpu-clock -F 999
record plain.data -e cpu-clock -F 999
record events.data -g -F 999 -e cpu-clock -e page-faults
record dwarf.data --call-graph dwarf,4096 -e cpu-clock -F 499
record wide.data -a -g -e cpu-clock -F 499
perf record -q -g -e cpu-clock -F 999 -o - -- "$T/workload" 20000000 >"$T/pipe.data" 2>/dev/null ||
  fail "perf record -o - failed"

# A JIT's frames, named from its perf map (/tmp/perf-PID.map), as node writes it.
recordings="fp plain events dwarf wide pipe"
if command -v node >/dev/null 2>&1; then
  printf '%s\n' 'function hotLoop(n) { let x = 0; for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003; return x; }' \
    'let s = 0; for (let k = 0; k < 60; k++) s += hotLoop(100000); console.log(s);' >"$T/jit.js"
  # In the scratch directory: node writes its V8 log (isolate-*.log) where it runs.
  (cd "$T" && perf record -q -g -e cpu-clock -F 999 -o jit.data -- node --perf-basic-prof jit.js \
    >/dev/null 2>&1) || fail "perf record of node failed"
  # The map node wrote, /tmp/perf-PID.map: removed with the scratch directory.
  jit_pid=$(perf script -F pid -i "$T/jit.data" 2>/dev/null | awk 'NF { print $1; exit }')
  trap 'rm -rf "$T"; [ -n "$jit_pid" ] && rm -f "/tmp/perf-$jit_pid.map"' EXIT
  recordings="$recordings jit"
else
  skip_part_installable "node is not installed: no JIT recording" || exit 1
fi

pairs=()
for rec in $recordings; do
  fields=+pid
  [ $rec = wide ] && fields=+pid,+cpu
  perf2prof "$T/$rec.data" -o "$T/$rec.ours" 2>"$T/$rec.warnings" ||
    fail "perf2prof $rec.data: $(head -3 "$T/$rec.warnings")"
  prof-validate "$T/$rec.ours" || fail "prof-validate rejects perf2prof $rec.data"
  perf script -F "$fields" --ns --show-mmap-events -i "$T/$rec.data" 2>/dev/null |
    perf2prof -o "$T/$rec.perf" 2>/dev/null || fail "perf script -i $rec.data | perf2prof failed"
  pairs+=("$T/$rec.ours" "$T/$rec.perf")
done
python3 tests/perf-data/compare.py --names "$T/workload,[kernel.kallsyms],.map" \
  --comms workload,worker,swapper,node "${pairs[@]}" >"$T/compare.out"
status=$?
sed "s|$T/||" "$T/compare.out"
if [ $status != 0 ]; then
  mkdir -p build/interop-perf-data
  cp "$T"/*.data "$T"/*.ours "$T"/*.perf "$T/workload" build/interop-perf-data/
  fail "a conversion differs from perf script's (above; the files are in build/interop-perf-data/)"
fi

# perf report's self percentages (--no-children, by symbol) are prof-text --top's flat ones,
# for every function both name the same way (inlined frames off: perf report counts a sample
# for the function its address is in).
perf report -i "$T/fp.data" --stdio --no-children --sort sym -g none --percent-limit 0 \
  2>/dev/null | awk '/^ +[0-9.]+%/ { sub(/%/, "", $1); $2 = ""; name = $0; sub(/^[^ ]+  /, "", name)
    print name "\t" $1 }' | sort >"$T/report.rows"
perf2prof --no-inline "$T/fp.data" 2>/dev/null | prof-text --top --nodecount 1000000 |
  awk '$2 ~ /^[0-9.]+%$/ { pct = $2; sub(/%/, "", pct); name = $0
    sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", name); if (pct + 0 > 0) print name "\t" pct }' |
  sort >"$T/top.rows"
join -t "$(printf '\t')" "$T/report.rows" "$T/top.rows" >"$T/both.rows"
rows=$(wc -l <"$T/both.rows")
awk -F '\t' '$2 != $3 { print "  " $1 ": perf report " $2 "%, prof-text " $3 "%"; bad++ }
  END { exit bad > 0 }' "$T/both.rows" >"$T/report.diff" ||
  fail "perf report and prof-text --top differ: $(head -5 "$T/report.diff")"
grep -q 'workload::Hot' "$T/both.rows" || fail "workload::Hot is not in both reports"
echo "$name: perf report --no-children and prof-text --top agree on $rows functions"

# The workload's stacks, whole, from the DWARF recording: unwound here as perf unwinds them.
prof-text --folded "$T/dwarf.ours" | grep -q 'main;workload::Caller;workload::Hot;workload::Mix ' ||
  fail "no main;Caller;Hot;Mix stack unwound from --call-graph dwarf"
grep -q 'not unwound' "$T/dwarf.warnings" && fail "dwarf.data: $(cat "$T/dwarf.warnings")"
if [ -f "$T/jit.ours" ]; then
  prof-text --top "$T/jit.ours" | grep -q 'JS:\*\?hotLoop' || fail "no JIT frame named hotLoop"
fi
echo "$name: passed"
