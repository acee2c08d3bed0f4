#!/usr/bin/env bash
# Round trip through the real perf: build a small C program, record it with `perf record -g`,
# print it with `perf script`, convert with perf2prof and check with prof-text that its
# functions are there, in the right caller order, and that there are as many samples as perf
# record says it wrote. Skips (exit 0, with the reason, tests/skip.sh) when perf is missing or
# not permitted; under CI=true a missing perf is a failure (make deps-test installs it).
set -u
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH" LC_ALL=C
name=perf-roundtrip
source tests/skip.sh
fail() { echo "perf-roundtrip: FAIL: $*"; exit 1; }

command -v perf >/dev/null 2>&1 || skip_installable "perf is not installed (Debian package linux-perf)"
command -v cc >/dev/null 2>&1 || skip "no C compiler"
T=$(mktemp -d "${TMPDIR:-/tmp}/proftools-roundtrip.XXXXXX")  # not /tmp/perf-*: perf takes those for JIT maps
trap 'rm -rf "$T"' EXIT

cat >"$T/prog.c" <<'C'
/* Two nested busy functions, kept apart by noinline and frame pointers. */
#include <stdint.h>
__attribute__((noinline)) uint64_t roundtrip_leaf(uint64_t n) {
  uint64_t x = 0;
  for (uint64_t i = 0; i < n; ++i) x = x * 6364136223846793005u + i;
  return x;
}
__attribute__((noinline)) uint64_t roundtrip_caller(uint64_t n) { return roundtrip_leaf(n) + 1; }
int main(void) {
  volatile uint64_t sink = 0;
  for (int i = 0; i < 40; ++i) sink += roundtrip_caller(10 * 1000 * 1000);
  return (int)(sink & 0);
}
C
cc -O0 -g -fno-omit-frame-pointer -o "$T/prog" "$T/prog.c" || fail "cannot build the test program"

# -e cpu-clock works in VMs without hardware counters too.
if ! perf record -q -g -e cpu-clock -F 499 -o "$T/perf.data" -- "$T/prog" >"$T/record.out" \
  2>"$T/record.err"; then
  skip "perf record is not permitted here ($(grep -m1 -i 'perf_event\|permission\|error' \
    "$T/record.err" || head -1 "$T/record.err"))"
fi
perf script -i "$T/perf.data" >"$T/script.txt" 2>"$T/script.err" ||
  fail "perf script failed: $(head -3 "$T/script.err")"
perf2prof -o "$T/prof" "$T/script.txt" || fail "perf2prof failed"
prof-validate "$T/prof" || fail "prof-validate rejects the profile"

# As many samples as perf itself counts (perf report's total, which reads perf.data directly).
expected=$(perf report -i "$T/perf.data" --stdio --header-only 2>/dev/null |
  sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -1)
[ -n "$expected" ] || expected=$(perf report -i "$T/perf.data" --stdio 2>/dev/null |
  sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -1)
got=$(grep -c '^sample' "$T/prof")
[ -n "$expected" ] || fail "cannot read the sample count from perf report"
[ "$got" = "$expected" ] || fail "perf2prof wrote $got samples, perf report counts $expected"

# The program's functions, caller before callee, with most of the samples.
prof-text --folded --flamegraph "$T/prof" >"$T/folded"
grep -q 'main;roundtrip_caller;roundtrip_leaf ' "$T/folded" ||
  fail "no main;roundtrip_caller;roundtrip_leaf stack: $(head -3 "$T/folded")"
prof-text --top --value cpu-clock_samples --raw-values "$T/prof" >"$T/top"
grep -q 'roundtrip_leaf' "$T/top" || fail "roundtrip_leaf is not in the top report"

# A failed recording is no profile: perf script of a missing file prints nothing.
perf script -i "$T/missing.data" 2>/dev/null | perf2prof -o "$T/empty.prof" 2>"$T/empty.err" &&
  fail "perf2prof accepted empty input"
grep -q 'no samples' "$T/empty.err" || fail "empty input: $(cat "$T/empty.err")"
[ -e "$T/empty.prof" ] && fail "empty input left an output file"

# With mmap records the program's mapping is real (its range holds its locations' addresses).
perf script --show-mmap-events -i "$T/perf.data" 2>/dev/null | perf2prof -o "$T/mmap.prof" ||
  fail "perf2prof failed on --show-mmap-events"
prof-validate "$T/mmap.prof" || fail "prof-validate rejects the --show-mmap-events profile"
awk -v prog="$T/prog" '
  $1 == "mapping" && $6 == prog { start[$2] = strtonum_($3); limit[$2] = strtonum_($4); n++ }
  $1 == "location" && ($3 in start) { a = strtonum_($4); checked++
    if (a < start[$3] || a >= limit[$3]) { print "location " $2 " at " $4 " outside " $3; bad++ } }
  function strtonum_(h,   i, v, c) { v = 0; h = tolower(substr(h, 3))
    for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; v = v * 16 + c }
    return v }
  END { if (n == 0) print "no mapping of the program"; else if (checked == 0) print "no location in it"
        else if (start[1] == 0 && limit[1] == 0) print "the mapping has no range"; exit (n == 0 || checked == 0 || bad > 0) }'   "$T/mmap.prof" >"$T/mmap.check" || fail "--show-mmap-events: $(head -3 "$T/mmap.check")"
echo "perf-roundtrip: ok ($got samples, main;roundtrip_caller;roundtrip_leaf present; empty input refused; real mappings)"
