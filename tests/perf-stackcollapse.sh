#!/usr/bin/env bash
# stackcollapse-perf.pl's options, done with perf2prof | prof-text --folded --flamegraph: the
# mapping man/perf2prof.1 documents, used by the golden compatibility cases.
# Usage: perf-stackcollapse.sh [--pid] [--tid] [--kernel] [--jit] [--all] [--addrs]
#                              [--event-filter=EVENT] [FILE]
set -euo pipefail
view=(--folded --flamegraph)
input=-
for arg in "$@"; do
  case $arg in
    --pid) view+=(--root '{comm}-{pid}') ;;
    --tid) view+=(--root '{comm}-{pid}/{tid}') ;;
    --kernel) view+=(--annotate kernel) ;;
    --jit) view+=(--annotate jit) ;;
    --all) view+=(--annotate all) ;;
    --addrs) view+=(--unknown-addresses) ;;
    --event-filter=*) view+=(--value "${arg#--event-filter=}") ;;
    -*) echo "perf-stackcollapse.sh: unknown option $arg" >&2; exit 2 ;;
    *) input=$arg ;;
  esac
done
# stackcollapse-perf.pl shows the first event it meets; perf2prof's default type is the event
# recorded first (or with the most samples), so the first event's type is named here. Perl
# prints nothing for an empty input: --allow-empty.
profile=$(mktemp)
trap 'rm -f "$profile"' EXIT
# When perf printed no period, the script counts 1 per sample: so does --period 1 (without it,
# perf2prof would take a period from the '# event :' header).
perf2prof --allow-empty --period 1 "$input" >"$profile"
if [[ " ${view[*]} " != *" --value "* ]]; then
  first=$(awk '$1 == "type" { if (++n == 2) { print $2; exit } }' "$profile")
  [ -n "$first" ] && view+=(--value "$first")
fi
prof-text "${view[@]}" "$profile"
