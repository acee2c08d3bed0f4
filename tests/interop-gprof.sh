#!/usr/bin/env bash
# gprof2prof against gprof itself (issue 45), on a recording made here, now, of
# tests/gprof/workload.c (gcc -pg, as PIE and not): each function's self seconds and calls in
# `gprof -b -p` are prof-text's flat time (in seconds, to gprof's two decimals) and flat calls
# (gprof's: recursive calls not counted); gprof -q's calls per caller and callee are the calls
# on our stacks' edges, and its "% time" of each function our cumulative percentage (functions
# outside cycles: gprof makes a cycle one node, we do not); two gmon.out files summed as gprof
# sums them.
name=interop-gprof
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
source "$root/tests/skip.sh"
for tool in gprof gcc; do
  command -v "$tool" >/dev/null 2>&1 || skip_installable "$tool (Debian's binutils, gcc) is missing"
done
source "$root/tests/interop/scratch.sh"
compare() { same_rows gprof "$@"; }  # WHAT THEIRS OURS
cd "$T"
for pie in -pie -no-pie; do
  gcc -O0 -g -pg "$pie" -o "workload$pie" "$root/tests/gprof/workload.c"
  rm -f gmon.out
  "./workload$pie" >/dev/null
  mv gmon.out "gmon$pie.out"
  # gprof's flat profile: NAME SELF-SECONDS CALLS (calls 0 when the column is empty).
  gprof -b -p "workload$pie" "gmon$pie.out" | awk '
    /^ *%/ { on = 1; next }
    on && $1 == "time" { next }
    on && NF >= 4 { if (NF >= 7) print $7, $3, $4; else print $NF, $3, 0 }' | sort >"gprof$pie"
  gprof2prof -o "w$pie.prof" "workload$pie" "gmon$pie.out"
  prof-text --raw-values --nodecount 0 "w$pie.prof" |
    awk '/^ *flat/ { on = 1; next } on { printf "%s %.2f\n", $6, $1 / 1e9 }' | sort >time
  prof-text --raw-values --nodecount 0 --value calls "w$pie.prof" |
    awk '/^ *flat/ { on = 1; next } on { print $6, $1 }' | sort >calls
  join time calls >ours
  # Functions gprof lists with neither time nor calls are not in our profile.
  awk '$2 != "0.00" || $3 != 0' "gprof$pie" >theirs
  awk '$2 != "0.00" || $3 != 0' ours >ours-listed
  compare "gcc $pie: self seconds and calls per function" theirs ours-listed
  # Two gmon.out files (the same run twice) summed as gprof sums them.
  gprof -b -p "workload$pie" "gmon$pie.out" "gmon$pie.out" | awk '
    /^ *%/ { on = 1; next }
    on && $1 == "time" { next }
    on && NF >= 4 { if (NF >= 7) print $7, $3, $4; else print $NF, $3, 0 }' | sort |
    awk '$2 != "0.00" || $3 != 0' >summed-theirs
  gprof2prof -o "summed$pie.prof" "workload$pie" "gmon$pie.out" "gmon$pie.out"
  prof-text --raw-values --nodecount 0 "summed$pie.prof" |
    awk '/^ *flat/ { on = 1; next } on { printf "%s %.2f\n", $6, $1 / 1e9 }' | sort >summed-time
  prof-text --raw-values --nodecount 0 --value calls "summed$pie.prof" |
    awk '/^ *flat/ { on = 1; next } on { print $6, $1 }' | sort >summed-calls
  join summed-time summed-calls | awk '$2 != "0.00" || $3 != 0' >summed-ours
  compare "gcc $pie: two gmon.out summed, self seconds and calls" summed-theirs summed-ours
  # gprof's full report, read by every program, gives the same flat profile.
  gprof "workload$pie" "gmon$pie.out" >"report$pie.txt" 2>/dev/null
  prof-text --raw-values --nodecount 0 "report$pie.txt" |
    awk '/^ *flat/ { on = 1; next } on { printf "%s %.2f\n", $6, $1 / 1e9 }' | sort >report-time
  prof-text --raw-values --nodecount 0 --value calls "report$pie.txt" |
    awk '/^ *flat/ { on = 1; next } on { print $6, $1 }' | sort >report-calls
  join report-time report-calls | awk '$2 != "0.00" || $3 != 0' >report-listed
  compare "gcc $pie: the flat profile read from gprof's report" theirs report-listed
  # gprof -q: the child lines (self children N/TOTAL name [index]) after each function's own
  # line ([index] ... name [index]): N calls from it; ours: the calls on the stacks' leaf frames
  # summed by (parent, leaf). Recursive calls (N without /TOTAL) are gprof's "+N", not ours.
  # Arcs to or from a member of a cycle (gprof's <cycle N>) are left out: our stacks count the
  # calls within a cycle on its member's frame under the cycle's caller (flat calls stay exact).
  gprof -b -q "workload$pie" "gmon$pie.out" >"q$pie"
  sed -n 's/.* \([^ ]*\) <cycle [0-9]*> \[[0-9]*\]$/\1/p' "q$pie" | sort -u >cycle-members
  sed 's/ <cycle [0-9]*>//' "q$pie" | awk '
    /^\[[0-9]+\]/ { primary = $(NF - 1); next }
    /^-+$/ { primary = ""; next }
    primary != "" && $(NF - 2) ~ /^[0-9]+\/[0-9]+$/ { split($(NF - 2), n, "/"); print primary, $(NF - 1), n[1] }' |
    grep -v -w -F -f cycle-members | sort >arcs-theirs
  prof-text --folded --value calls "w$pie.prof" | awk '
    { n = split($1, f, ";"); if (n >= 2) sum[f[n - 1] " " f[n]] += $2 }
    END { for (k in sum) if (sum[k] != 0) print k, sum[k] }' |
    grep -v -w -F -f cycle-members | sort >arcs-ours
  compare "gcc $pie: calls per caller and callee (gprof -q)" arcs-theirs arcs-ours
  # gprof -q's "% time" of each function outside a cycle (its time and its callees' shares) is
  # our cumulative percentage, to gprof's one decimal.
  sed 's/ <cycle [0-9]*>//' "q$pie" | awk '/^\[[0-9]+\]/ { print $(NF - 1), $2 }' |
    grep -v -w -F -f cycle-members | grep -v '^whole>' | sort >cum-theirs  # not <cycle N as a whole>
  prof-text --nodecount 0 "w$pie.prof" | awk '/^ *flat/ { on = 1; next } on { c = $5; sub("%", "", c); printf "%s %.1f\n", $6, c }' |
    grep -v -w -F -f cycle-members | sort >cum-ours
  compare "gcc $pie: % time per function (gprof -q)" cum-theirs cum-ours
done
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
