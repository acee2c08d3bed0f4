#!/usr/bin/env bash
# prof-filter on the generated 1,000,000-sample profile (stacks 20-60 deep, 50,000 distinct,
# timestamps and pid/tid/comm labels): MB/s of prof text for each kind of selection, and
# Google's pprof beside it for the filters pprof has (pprof -focus/-tagfocus ... -proto on the
# same profile as .pb.gz). Each command runs 3 times, alternating with its peer; the figures are
# medians (wall, and CPU = user + system, which varies less on a busy machine).
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-filter.XXXXXX")
[ -d /dev/shm ] && work=$(mktemp -d /dev/shm/bench-filter.XXXXXX)
trap 'rm -rf "$work"' EXIT

gen-profile --samples 1000000 -o "$work/big.prof"
bytes=$(stat -c %s "$work/big.prof")
echo "input: generated, 1,000,000 samples, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of prof text"

# run LABEL COMMAND...: one run; appends "wall cpu rss_kib" to $work/LABEL.runs
run() {
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time" >> "$work/$label.runs"
}

# median FILE COLUMN
median() { sort -n -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }

# report LABEL INPUT_BYTES: medians of the runs, each column on its own
report() {
  local f="$work/$1.runs"
  awk -v l="$1" -v b="$2" -v w="$(median "$f" 1)" -v c="$(median "$f" 2)" -v r="$(median "$f" 3)" \
    'BEGIN { printf "%-50s %6.2f s %7.1f MB/s  cpu %6.2f s %7.1f MB/s  peak RSS %6.1f MB\n", l, w,
      (w > 0 ? b / 1e6 / w : 0), c, (c > 0 ? b / 1e6 / c : 0), r / 1024 }'
}

filters=(
  "--time 10%..60%"
  "--time @1700000100..@1700000400"
  "--last 5m"
  "--label-focus tid=4242"
  "--label-ignore comm=^worker"
  "--keep-labels tid"
  "--coalesce=20ms"
  "--focus method_14"
  "--ignore Method5"
  "--hide Class7"
  "--show-from method_1"
  "--prune-from Method58"
  "--focus-seq ns12;ns14"
  "--collapse-recursion"
  "--derive twice=cpu+cpu"
)
for f in "${filters[@]}"; do
  for _ in 1 2 3; do run "prof-filter $f" prof-filter $f "$work/big.prof"; done
  report "prof-filter $f" "$bytes"
done

pprof=${PPROF:-/opt/pprof/pprof}
if [ -x "$pprof" ]; then
  prof2pprof --keep-samples -o "$work/big.pb.gz" "$work/big.prof"
  echo
  echo "beside pprof, on the same profile as .pb.gz ($(stat -c %s "$work/big.pb.gz") bytes):"
  # ours: .pb.gz in, .pb.gz out, as pprof -proto does
  pairs=(
    "--focus method_14|-focus=method_14"
    "--hide Class7|-hide=Class7"
    "--show-from method_1|-show_from=method_1"
    "--label-focus comm=app|-tagfocus=comm=app"
    "--label-ignore comm=^worker|-tagignore=comm=^worker"
  )
  for pair in "${pairs[@]}"; do
    ours=${pair%%|*}
    theirs=${pair#*|}
    for _ in 1 2 3; do
      run "prof-filter $ours | prof2pprof" bash -c "prof-filter $ours $work/big.pb.gz | prof2pprof -o $work/ours.pb.gz"
      run "pprof $theirs -proto" bash -c "$pprof -symbolize=none $theirs -proto $work/big.pb.gz > $work/theirs.pb.gz"
    done
    report "prof-filter $ours | prof2pprof" "$(stat -c %s "$work/big.pb.gz")"
    report "pprof $theirs -proto" "$(stat -c %s "$work/big.pb.gz")"
  done
else
  echo "($pprof missing: run tests/interop/setup-pprof.sh to measure pprof beside prof-filter)"
fi
