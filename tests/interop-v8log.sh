#!/usr/bin/env bash
# The V8 tick log reader against V8's own tick processor (issue 44), on a log made here, now:
# `node --prof` of tests/v8log/workload.js, then `node --prof-process` of the log. Each function
# of its [JavaScript] and [C++] tables (every tier of a JS function summed, as we keep one
# function: `*spin` and `~spin` are spin; C++ names without their symbol version, @@GLIBC_2.2.5)
# has the ticks `prof-text --value samples` gives it as flat; the total is its tick count; a
# stack of the log goes through main.
name=interop-v8log
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
source "$root/tests/skip.sh"
command -v node >/dev/null 2>&1 || skip_installable "node (Debian's nodejs) is missing"
source "$root/tests/interop/scratch.sh"
compare() { same_rows "node --prof-process" "$@"; }  # WHAT THEIRS OURS
cd "$T"
node --prof "$root/tests/v8log/workload.js" 0.5 >/dev/null
log=$(ls isolate-*-v8.log)
node --prof-process "$log" 2>/dev/null >processed
# Its tables: "ticks total nonlib name"; the name's tier mark and position dropped for JS.
awk '
  /^ \[JavaScript\]:/ { table = "js"; next }
  /^ \[C\+\+\]:/ { table = "cpp"; next }
  /^ \[/ { table = ""; next }
  /^Statistical profiling result/ { match($0, /\(([0-9]+) ticks/); print "total\t" substr($0, RSTART + 1, RLENGTH - 7) }
  table != "" && $1 ~ /^[0-9]+$/ && $2 ~ /%$/ {
    line = $0; sub(/^ *[0-9]+ +[0-9.]+% +([0-9.]+% +)?/, "", line)
    if (table == "js") { sub(/^JS: [~^+*]?/, "", line); sub(/ [^ ]*$/, "", line); if (line == "") line = "(anonymous)" }
    else { sub(/@@?[A-Za-z0-9_.]+$/, "", line) }
    sum[line] += $1; kind[line] = table
  }
  END { for (l in sum) print l "\t" sum[l] "\t" kind[l] }' processed >theirs-all
prof-text --raw-values --nodecount 0 --value samples "$log" 2>/dev/null | awk '
  /^Showing/ { for (i = 1; i <= NF; i++) if ($i == "total") print "total\t" substr($(i + 1), 2) }
  /^ *flat/ { on = 1; next }
  on { line = $0; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9.]+% +/, "", line); print line "\t" $1 }' |
  sort >all-ours
# Ours, for the functions its tables name (we also name what it cannot: node's own functions).
# (Two symbols at one address, glibc's malloc and __libc_malloc, are named as nm -n orders them:
# the first by name, as the tick processor keeps it.)
cut -f1,2 theirs-all | sort >theirs
cut -f1 theirs | grep -v -x total >names
awk -F'\t' 'NR == FNR { want[$1] = 1; next } $1 == "total" || ($1 in want)' names all-ours >ours
compare "ticks per function ([JavaScript], [C++]) and in all" theirs ours
checks=$((checks + 1))
if ! prof-text --traces "$log" 2>/dev/null | grep -q -x ' *main'; then
  problem "no stack of the log goes through main"
fi
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
