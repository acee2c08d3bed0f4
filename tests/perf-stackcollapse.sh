#!/usr/bin/env bash
# stackcollapse-perf.pl's options, done with perf2prof | prof-text --folded --flamegraph: the
# mapping man/man1/perf2prof.1 documents, used by the golden compatibility cases.
# Usage: perf-stackcollapse.sh [--pid] [--tid] [--kernel] [--jit] [--all] [--addrs]
#                              [--event-filter=EVENT] [--converted] [FILE]
#        perf-stackcollapse.sh --convert-only [FILE]
# --convert-only prints the conversion every view starts from; --converted reads FILE as that
# conversion (a case comparing several views converts its input once).
set -euo pipefail
view=(--folded --flamegraph)
input=-
converted=0
convert_only=0
for arg in "$@"; do
  case $arg in
    --pid) view+=(--root '{comm}-{pid}') ;;
    --tid) view+=(--root '{comm}-{pid}/{tid}') ;;
    --kernel) view+=(--annotate kernel) ;;
    --jit) view+=(--annotate jit) ;;
    --all) view+=(--annotate all) ;;
    --addrs) view+=(--unknown-addresses) ;;
    --event-filter=*) view+=(--value "${arg#--event-filter=}") ;;
    --converted) converted=1 ;;
    --convert-only) convert_only=1 ;;
    -*) echo "perf-stackcollapse.sh: unknown option $arg" >&2; exit 2 ;;
    *) input=$arg ;;
  esac
done
# stackcollapse-perf.pl shows the first event it meets; perf2prof's default type is the event
# recorded first (or with the most samples), so the first event's type is named here. Perl
# prints nothing for an empty input: --allow-empty.
# In bash's memory rather than a temporary file: three processes fewer a run (the golden cases
# run this hundreds of times). The --value by default: the profile's second type (perf's event,
# after samples), read from its header.
if [ $convert_only = 1 ]; then
  exec perf2prof --allow-empty --period 1 "$input"
elif [ $converted = 1 ]; then
  profile=$(<"$input")
else
  profile=$(perf2prof --allow-empty --period 1 "$input")
fi
if [[ " ${view[*]} " != *" --value "* ]]; then
  types=0
  while read -r record name _; do
    case $record in
      sample) break ;;
      type)
        types=$((types + 1))
        if [ $types = 2 ]; then
          view+=(--value "$name")
          break
        fi ;;
    esac
  done <<<"$profile"
fi
prof-text "${view[@]}" <<<"$profile"
