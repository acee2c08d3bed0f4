# Shared by the benchmarks (sourced, not run): `measure LABEL INPUT COMMAND` runs COMMAND (one
# string, run by bash) and prints the size of INPUT, the wall time, MB/s of INPUT per wall
# second, the CPU time (user + system: less sensitive to other jobs on the machine), MB/s per
# CPU second and the peak RSS. Needs $tmp (a scratch directory) and GNU time.
measure() {  # LABEL INPUT COMMAND
  local label=$1 input=$2 command=$3 mb seconds user system rss
  mb=$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f", b / 1e6 }')
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" bash -c "$command"
  read -r seconds user system rss <"$tmp/time"
  awk -v l="$label" -v mb="$mb" -v s="$seconds" -v cpu="$user + $system" -v rss="$rss" 'BEGIN {
    split(cpu, c, " [+] "); cpu = c[1] + c[2]
    printf "%-46s %6.1f MB %6.2f s %7.1f MB/s  cpu %6.2f s %7.1f MB/s  peak RSS %6.1f MB\n", l,
      mb, s, (s > 0 ? mb / s : 0), cpu, (cpu > 0 ? mb / cpu : 0), rss / 1024
  }'
}

# `side_by_side RUNS LABEL_A INPUT_A COMMAND_A LABEL_B INPUT_B COMMAND_B`: runs A and B in turn,
# RUNS times each (A, B, A, B, ...), so that both see the same load, and prints for each the
# run of median CPU time.
side_by_side() {
  local runs=$1 i
  shift
  : >"$tmp/runs.a"
  : >"$tmp/runs.b"
  for ((i = 0; i < runs; i++)); do
    measure "$1" "$2" "$3" >>"$tmp/runs.a"
    measure "$4" "$5" "$6" >>"$tmp/runs.b"
  done
  for side in a b; do
    awk '{ match($0, /cpu +[0-9.]+/); print substr($0, RSTART + 4, RLENGTH - 4) + 0 "\t" $0 }' \
      "$tmp/runs.$side" | sort -n -k1,1 | awk -v n="$runs" 'NR == int((n + 1) / 2)' | cut -f2-
  done
}

# `ratio`: passes side_by_side's two lines on stdin through and prints the second's CPU time over
# the first's (ours over a floor or a peer). Needs $tmp.
ratio() {
  tee "$tmp/pair"
  awk '{ match($0, /cpu +[0-9.]+/); c[NR] = substr($0, RSTART + 4, RLENGTH - 4) + 0 }
       END { if (c[1] > 0) printf "  %.2fx the floor in CPU time\n", c[2] / c[1] }' "$tmp/pair"
}
