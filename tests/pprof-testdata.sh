#!/usr/bin/env bash
# prof-text against pprof's own expected outputs: golden/pprof/testdata/cpu.prof is the profile
# pprof's driver_test.go builds (cpuProfile), and the pprof.cpu.* files of pprof's sources
# (Debian's golang-github-google-pprof-dev, a test dependency: read where it installs them, not
# copied) are what pprof prints for it. The same rows in the same order (ties included:
# pprof sorts equal flat values by name), the same flat and cum values, the same tags and traces.
# Values are compared in milliseconds (pprof prints 1.10s, prof-text --raw-values 1100); tags by
# their percentages; traces with their label lines.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
profile=$root/golden/pprof/testdata/cpu.prof
dir=/usr/share/gocode/src/github.com/google/pprof/internal/driver/testdata
name=pprof-testdata
source "$root/tests/skip.sh"
if [ ! -d "$dir" ]; then
  skip_installable "$dir is missing (apt-get install golang-github-google-pprof-dev)"
fi
fail=0
checks=0

# "1.10s" / "100.0ms" / "10ms" / "0" -> milliseconds.
AWK_MS='function ms(v) {
  if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
  if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
  if (v ~ /s$/) { sub(/s$/, "", v); return v * 1000 }
  return v + 0
}'

# top rows in order -> "name<TAB>flat<TAB>cum" (names without pprof's " (inline)").
top_rows() {
  awk "$AWK_MS"'
    /^ +flat +flat%/ { rows = 1; next }
    rows {
      name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /, "", name); sub(/ \(inline\)$/, "", name)
      printf "%s\t%d\t%d\n", name, ms($1), ms($4)
    }'
}

# tags -> "key<TAB>percent<TAB>tag" in order. Values are left out: pprof rounds them for display
# (a total of 1.12s shows as 1.1s), so the percentages of the key's total, which it prints to two
# decimals, are compared instead.
tag_rows() {
  awk '
    /: Total / { key = $1; sub(/:$/, "", key); next }
    NF >= 2 && key != "" {
      pct = $0; sub(/%.*/, "", pct); sub(/.*[ (]/, "", pct)
      printf "%s\t%.2f\t%s\n", key, pct, $NF
    }'
}

# traces -> "labels<TAB>value<TAB>frame;frame;..." in order.
trace_rows() {
  awk "$AWK_MS"'
    function flush() { if (stack != "") printf "%s\t%d\t%s\n", labels, value, stack; stack = ""; labels = "" }
    /^-----------\+/ { flush(); next }
    /^ *[^ ]+:  / { l = $0; sub(/^ +/, "", l); labels = labels "|" l; next }
    /^ *[0-9.]+[a-z]*   [^ ]/ { value = ms($1); f = $0; sub(/^ *[^ ]+   /, "", f); stack = f; next }
    /^             [^ ]/ { f = substr($0, 14); stack = stack ";" f; next }
    END { flush() }'
}

check() {  # EXPECTED NORMALISER PROF-TEXT-ARGS...
  local expected=$1 normaliser=$2
  shift 2
  checks=$((checks + 1))
  if ! cmp -s <("$normaliser" <"$dir/$expected") <(prof-text --raw-values "$@" "$profile" | "$normaliser"); then
    echo "pprof-testdata: FAIL: prof-text $* differs from pprof's $expected:"
    diff <("$normaliser" <"$dir/$expected") <(prof-text --raw-values "$@" "$profile" | "$normaliser") | head -10
    fail=$((fail + 1))
  fi
}

check pprof.cpu.flat.functions.text top_rows --top
check pprof.cpu.cum.lines.text.show top_rows --top --granularity lines --sort cum --show '[12]00'
check pprof.cpu.cum.lines.text.hide top_rows --top --granularity lines --sort cum --hide 'line[X3]0'
check pprof.cpu.cum.lines.text.focus.hide top_rows --top --granularity lines --sort cum \
  --hide 'line[X3]0' --focus '[12]00'
check pprof.cpu.tags tag_rows --tags
check pprof.cpu.traces trace_rows --traces
echo "pprof-testdata: $checks reports compared with pprof's expected outputs, $fail differ"
[ "$fail" = 0 ]
