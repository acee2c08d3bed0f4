#!/usr/bin/env bash
# prof-text's sequence views on the generated 1,000,000-sample profile (stacks 20-60 deep, 50,000
# distinct): --sequences at the defaults, by self, and with a low threshold; --peek of one
# function, of a family of functions and of every frame; --peek-seq; and pprof -peek on the
# same profile through prof2pprof (tests/interop/setup-pprof.sh builds it; PPROF overrides).
# Goals (issue 14): --sequences <= 5 s, --peek <= 2 s of CPU. Medians of 3 by CPU time.
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-sequences.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/measure.sh"

gen-profile --samples 1000000 -o "$tmp/big.prof"
echo "input: generated, 1,000,000 samples, 50,000 stacks"

# The run of median CPU time among three.
median() {  # LABEL INPUT COMMAND
  for _ in 1 2 3; do measure "$@"; done | sort -t' ' -k1,1 | awk '
    { line[NR] = $0; match($0, /cpu +[0-9.]+/); cpu[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
    END {
      for (i = 1; i <= 3; i++) { below = 0
        for (j = 1; j <= 3; j++) if (cpu[j] < cpu[i] || (cpu[j] == cpu[i] && j < i)) below++
        if (below == 1) print line[i] }
    }'
}

big=$tmp/big.prof
median "prof-text --top (reading, for scale)" "$big" "prof-text --top $big >/dev/null"
median "prof-text --sequences" "$big" "prof-text --sequences $big >/dev/null"
median "prof-text --sequences --self" "$big" "prof-text --sequences --self $big >/dev/null"
median "prof-text --sequences --min-percent 0.1" "$big" \
  "prof-text --sequences --min-percent 0.1 $big >/dev/null"
median "prof-text --sequences --max-length 8" "$big" \
  "prof-text --sequences --max-length 8 $big >/dev/null"
median "prof-text --peek '^c_function_0\$'" "$big" "prof-text --peek '^c_function_0\$' $big >/dev/null"
median "prof-text --peek Method24 (36 functions)" "$big" "prof-text --peek Method24 $big >/dev/null"
median "prof-text --peek . (every frame)" "$big" "prof-text --peek . $big >/dev/null"
median "prof-text --peek-seq 'c_function_0;c_function_8'" "$big" \
  "prof-text --peek-seq 'c_function_0;c_function_8' $big >/dev/null"

pprof=${PPROF:-/opt/pprof/pprof}
if [ -x "$pprof" ]; then
  prof2pprof -o "$tmp/big.pb.gz" "$big"
  pb=$tmp/big.pb.gz
  median "prof-text --peek '^c_function_0\$' big.pb.gz" "$pb" \
    "prof-text --peek '^c_function_0\$' $pb >/dev/null"
  median "pprof -peek '^c_function_0\$' big.pb.gz" "$pb" \
    "$pprof -peek '^c_function_0\$' -symbolize=none $pb >/dev/null 2>&1"
  median "prof-text --peek Method24 big.pb.gz" "$pb" "prof-text --peek Method24 $pb >/dev/null"
  median "pprof -peek Method24 big.pb.gz" "$pb" \
    "$pprof -peek Method24 -symbolize=none $pb >/dev/null 2>&1"
else
  echo "($pprof missing: pprof -peek not measured; run tests/interop/setup-pprof.sh)"
fi
