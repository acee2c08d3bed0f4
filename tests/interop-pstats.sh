#!/usr/bin/env bash
# Interop with Python's own pstats: a recording made here with Debian's python3 -m cProfile (of
# golden/pstats/inputs/workload.py), and the committed recordings, read by every program as
# pstats reads them: per function, the self time and the number of calls equal pstats'
# (tests/interop/pstats_compare.py, through prof2sqlite's tables).
set -u
name=interop-pstats
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C TZ=UTC
source "$root/tests/skip.sh"
python=/usr/bin/python3
if [ ! -x "$python" ]; then
  skip_installable "Debian's python3 is missing (apt-get install python3)"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0

compare() {  # compare STATS
  if ! prof2sqlite -o "$T/db" "$1" 2>"$T/warnings"; then
    echo "$name: FAIL: prof2sqlite $1: $(head -3 "$T/warnings")"
    fail=$((fail + 1))
    return
  fi
  if ! "$python" "$root/tests/interop/pstats_compare.py" "$1" "$T/db" >"$T/compared"; then
    fail=$((fail + 1))
  fi
  sed "s|^|$name: ${1##*/}: |" "$T/compared"
  rm -f "$T/db"
}

compare "$root/golden/pstats/inputs/cprofile.pstats"
cp "$root/golden/pstats/inputs/workload.py" "$T/"
(cd "$T" && "$python" -m cProfile -o fresh.pstats workload.py) || {
  echo "$name: FAIL: python3 -m cProfile"
  fail=$((fail + 1))
}
[ -s "$T/fresh.pstats" ] && compare "$T/fresh.pstats"
[ $fail = 0 ] && echo "$name: passed" || { echo "$name: $fail failures"; exit 1; }
