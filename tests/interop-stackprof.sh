#!/usr/bin/env bash
# The stackprof reader against stackprof itself (issue 44), on recordings made here, now, with
# Debian's ruby and ruby-stackprof of tests/stackprof/workload.rb: in cpu, wall and object mode
# (raw) and cpu mode without raw data, each method's self samples in `prof-text --value samples`
# are the SAMPLES column of `stackprof --text` (summed by label: stackprof lists frames of one
# label apart, reports group by name), the total its `Samples:` line; `stackprof --json` of each
# dump reads as the dump does; the wall recording's Kernel#sleep (nap slept 100 ms) is within
# 10% of 100 ms.
name=interop-stackprof
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
source "$root/tests/skip.sh"
for tool in ruby stackprof; do
  command -v "$tool" >/dev/null 2>&1 || skip_installable "$tool (Debian's ruby, ruby-stackprof) is missing"
done
source "$root/tests/interop/scratch.sh"
compare() { same_rows stackprof "$@"; }  # WHAT THEIRS OURS
cd "$T"
workload=$root/tests/stackprof/workload.rb
# Half the workload's milliseconds: the suite's time is make check's.
ruby "$workload" cpu cpu.dump raw 0.5
ruby "$workload" wall wall.dump raw 0.5
ruby "$workload" object object.dump raw
ruby "$workload" cpu aggregate.dump aggregate 0.5
for dump in cpu.dump wall.dump object.dump aggregate.dump; do
  # stackprof --text: TOTAL (pct) SAMPLES (pct) FRAME...; self samples summed per label.
  stackprof "$dump" --text --limit 100000 | awk '
    /Samples: / { print "total", $2 }
    $1 ~ /^[0-9]+$/ && $2 ~ /^\(/ && $4 ~ /^\(/ && $3 != 0 { label = $5; for (i = 6; i <= NF; i++) label = label " " $i; sum[label] += $3 }
    END { for (l in sum) print l "\t" sum[l] }' | sort >theirs
  prof-text --raw-values --nodecount 0 --value samples "$dump" 2>/dev/null | awk '
    /^Showing/ { for (i = 1; i <= NF; i++) if ($i == "total") print "total", substr($(i + 1), 2) }
    /^ *flat/ { on = 1; next }
    on && $1 != 0 { label = $6; for (i = 7; i <= NF; i++) label = label " " $i; print label "\t" $1 }' |
    sort >ours
  compare "$dump: self samples per method and the total" theirs ours
  stackprof --json "$dump" >"$dump.json"
  checks=$((checks + 1))
  if ! cmp -s <(prof-text --canonical "$dump" 2>/dev/null | grep -v '^source ') \
    <(prof-text --canonical "$dump.json" 2>/dev/null | grep -v '^source '); then
    problem "$dump: its stackprof --json reads otherwise"
  fi
done
checks=$((checks + 1))
sleep_ms=$(prof-text --raw-values --nodecount 0 wall.dump 2>/dev/null | awk '/Kernel#sleep$/ { print int($1 / 1e6) }')
if [ -z "$sleep_ms" ] || [ "$sleep_ms" -lt 45 ] || [ "$sleep_ms" -gt 55 ]; then
  problem "wall.dump: Kernel#sleep weighs ${sleep_ms:-nothing} ms, where nap slept 50 ms"
fi
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
