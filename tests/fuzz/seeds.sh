#!/usr/bin/env bash
# Copies the seed inputs of harness NAME from golden/ into DIR (decompressed text inputs, cut to
# 8 KiB: libFuzzer mutates small inputs far faster). Usage: tests/fuzz/seeds.sh NAME DIR
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
name=$1
dir=$2
n=0
add() {  # add FILE [zcat]: one seed named after its path
  local out="$dir/seed-$(echo "$1" | tr '/' '_')${2:+.inflated}"
  if [ "${2:-}" = zcat ]; then zcat "$1" 2>/dev/null | head -c 8192 >"$out"; else head -c 8192 "$1" >"$out"; fi
  n=$((n + 1))
}
prof_texts() {  # every golden file that is prof text (inputs and expected outputs)
  grep -rl -m1 '^proftext ' golden | while IFS= read -r f; do
    [ "$(head -c 9 "$f")" = "proftext " ] && echo "$f"
  done
}
cd "$root"
case $name in
  prof_text)
    while IFS= read -r f; do add "$f"; done < <(prof_texts) ;;
  pprof)
    # Both gzipped (as pprof writes them) and inflated, so that mutations reach the protobuf.
    for f in $(find golden -name '*.pb.gz' -o -name '*.pb'); do add "$f"; done
    for f in $(find golden -name '*.pb.gz'); do add "$f" zcat; done ;;
  perf_script)
    # (not results/: those are the folded outputs expected of the inputs)
    for f in $(find golden/perf -type f -name '*.txt' ! -path '*/results/*'); do add "$f"; done
    for f in $(find golden/perf -type f -name '*.txt.gz' ! -path '*/results/*'); do
      add "$f" zcat
    done ;;
  folded)
    # Hand-written producers' shapes and stackcollapse-perf.pl's real outputs.
    for f in golden/folded/inputs/*.txt; do add "$f"; done
    for f in $(find golden/perf/corpus -path '*/results/*' -name '*-collapsed-*.txt.gz' | sort | head -40); do
      add "$f" zcat
    done ;;
  pstats)
    # cProfile's recording (the direct reading's shape) and the profile module's.
    for f in golden/pstats/inputs/*.pstats; do add "$f"; done ;;
  readers)
    # The first byte picks the reader by its place in the registry's table (fuzz_readers.cc),
    # 255 lets the sniffers choose: each codec's inputs under both.
    seed() {  # seed BYTE FILE [zcat]
      local out="$dir/seed-readers-$1-$(echo "$2" | tr '/' '_')"
      { printf "\\$(printf '%03o' "$1")"; if [ "${3:-}" = zcat ]; then zcat "$2"; else cat "$2"; fi; } 2>/dev/null |
        head -c 8192 >"$out"
      n=$((n + 1))
    }
    for b in 0 255; do seed $b golden/inputs/worked-example.prof; done
    for b in 1 255; do seed $b golden/pprof/corpus/ok-inline.pb.gz; done
    for b in 3 255; do seed $b golden/format/perf-script-input-read/perf.txt; done
    for b in 5 255; do seed $b golden/format/rprof-input-read/Rprof.out; done
    for f in golden/perf-data/inputs/tiny*.data; do
      for b in 4 255; do seed $b "$f"; done
    done
    for f in golden/folded/inputs/*.txt; do
      for b in 7 255; do seed $b "$f"; done
    done
    for f in golden/chrome/inputs/*.cpuprofile; do
      for b in 8 255; do seed $b "$f"; done
    done
    for f in golden/chrome/inputs/*.json; do
      for b in 9 255; do seed $b "$f"; done
    done
    for f in golden/chrome/inputs/*.heapprofile; do
      for b in 10 255; do seed $b "$f"; done
    done
    for f in golden/speedscope/inputs/*.json; do
      for b in 11 255; do seed $b "$f"; done
    done
    for f in golden/speedscope/inputs/*.json.gz; do
      for b in 11 255; do seed $b "$f" zcat; done
    done
    for f in golden/callgrind/inputs/*.gz; do
      for b in 12 255; do seed $b "$f" zcat; done
    done
    for b in 12 255; do seed $b golden/callgrind/inputs/cachegrind.out.xdebug; done
    for f in golden/jfr/inputs/*.jfr golden/jfr/inputs/*.jfr.gz; do
      [ -f "$f" ] || continue
      case $f in *.gz) z=zcat ;; *) z= ;; esac
      for b in 13 255; do seed $b "$f" $z; done
    done
    for f in golden/firefox/inputs/*.json; do
      for b in 14 255; do seed $b "$f"; done
    done
    for b in 14 255; do seed $b golden/firefox/inputs/page.gecko.json.gz zcat; done
    for f in golden/pstats/inputs/*.pstats; do
      for b in 15 255; do seed $b "$f"; done
    done
    for f in golden/valgrind/inputs/massif*.out; do
      for b in 16 255; do seed $b "$f"; done
    done
    for f in golden/valgrind/inputs/dhat*.json; do
      for b in 17 255; do seed $b "$f"; done
    done
    for b in 6 255; do seed $b golden/inputs/rsprof-recording.db; done
    for f in golden/instruments/inputs/*.txt; do
      for b in 18 255; do seed $b "$f"; done
    done
    for f in golden/gprof/inputs/report*.txt; do
      for b in 19 255; do seed $b "$f"; done
    done
    for f in golden/perfetto/inputs/*.pftrace; do
      for b in 20 255; do seed $b "$f"; done
    done
    for b in 20 255; do seed $b golden/perfetto/inputs/chromium-v8.pftrace.gz zcat; done
    for f in golden/simpleperf/inputs/*.trace; do
      for b in 21 255; do seed $b "$f"; done
    done
    for f in golden/android/inputs/*.trace; do
      for b in 22 255; do seed $b "$f"; done
    done
    for f in golden/stackprof/inputs/*; do
      for b in 23 255; do seed $b "$f"; done
    done
    for f in golden/v8log/inputs/*.gz; do
      for b in 24 255; do seed $b "$f" zcat; done
    done
    # The log's first 8 KiB are builtins: a seed of its JS code and ticks besides.
    for b in 24 255; do
      { printf "\\$(printf '%03o' $b)"
        zcat golden/v8log/inputs/workload.v8.log.gz |
          grep -E '^(v8-version|shared-library,|profiler,|code-creation,JS,|code-move|tick,)' |
          awk '/^tick/ { if (++ticks > 40) next } { print }' | head -c 8000
      } >"$dir/seed-readers-$b-v8-log-excerpt"
      n=$((n + 1))
    done
    for f in golden/ghc/inputs/*.prof; do
      for b in 25 255; do seed $b "$f"; done
    done
    seed 255 golden/format/legacy-pprof/gobench.heap ;;
  gprof)
    # The first byte picks the address size (fuzz_gprof.cc): 64-bit, then 32-bit.
    for b in 0 1; do
      { printf "\\$(printf '%03o' $b)"; cat golden/gprof/inputs/gmon.out; } >"$dir/seed-gprof-$b"
      n=$((n + 1))
    done ;;
  rprof)
    for f in $(find golden/rprof -type f -name '*.out'); do add "$f"; done
    for f in $(find golden/rprof -type f -name '*.out.gz'); do add "$f" zcat; done ;;
  merge)
    while IFS= read -r f; do add "$f"; done < <(prof_texts | head -200)
    for f in $(find golden -name '*.pb.gz'); do add "$f"; done ;;
  filter)
    # Option lines, an empty line, then a profile (tests/fuzz/fuzz_filter.cc).
    i=0
    for f in golden/filter/inputs/*.prof golden/inputs/worked-example.prof; do
      for options in "time 10%..60%" "last 2s\nkeep-untimed" "coalesce\nsplit-on cpu_delta" \
                     "label-focus bytes=1KiB..64KiB\nlabel-ignore comm=^w" \
                     "focus main\nhide fib\nshow-from parse" "focus-seq main;parse\ncollapse-recursion" \
                     "derive live=alloc_space-free_space\ntypes live,samples" "time @1.5..@101.5\ndrop-labels comm"; do
        i=$((i + 1))
        { printf '%b\n\n' "$options"; head -c 8192 "$f"; } > "$dir/seed-filter-$i"
        n=$((n + 1))
      done
    done ;;
  sqlite)
    # A profile, the separator, and an edit such as users make with sqlite3 (fuzz_sqlite.cc);
    # the database files themselves are over libFuzzer's 8 KiB (a page per table).
    edits=("DELETE FROM samples WHERE sample_id % 2 = 0;"
           "UPDATE samples SET stack_id = stack_id + 1;"
           "DELETE FROM functions WHERE function_id = 1;"
           "INSERT INTO labels SELECT * FROM labels;"
           "UPDATE sample_types SET type = 'x';"
           "DELETE FROM stacks;"
           "UPDATE meta SET value = '2' WHERE key = 'schema_version';"
           "DROP VIEW stack_self; CREATE TABLE stack_self AS SELECT 1 AS x;"
           "UPDATE locations SET mapping_id = 7;"
           "INSERT INTO sources (source_type, source_uri) VALUES ('t', 'u');"
           "UPDATE sample_values SET value = 9223372036854775807;"
           "")
    i=0
    for f in golden/inputs/*.prof golden/filter/inputs/*.prof; do
      for edit in "${edits[@]}"; do
        i=$((i + 1))
        [ "$(wc -c <"$f")" -le 7000 ] || continue  # whole profiles only: a cut one makes no database
        { cat "$f"; printf '\n--- sql ---\n%s\n' "$edit"; } > "$dir/seed-sqlite-$i"
        n=$((n + 1))
      done
    done
    # An rsprof recording made by SQL on an empty database, and edited.
    rsprof_edits=("" "UPDATE meta SET value = '2' WHERE key = 'version';"
                  "DELETE FROM symbols WHERE addr % 2 = 0;" "DELETE FROM checkpoints WHERE id = 2;"
                  "UPDATE cpu_samples SET addr = -addr;" "UPDATE checkpoints SET timestamp_ms = 9223372036854775807;"
                  "UPDATE meta SET value = '2262-04-11T23:47:16.999999999+23:59' WHERE key = 'start_time';"
                  "DROP TABLE heap_events; CREATE VIEW heap_events AS SELECT 1;")
    for edit in "${rsprof_edits[@]}"; do
      i=$((i + 1))
      { printf '\n--- sql ---\n'; grep -v '^--' golden/inputs/rsprof-recording.sql; echo "$edit"; } \
        > "$dir/seed-sqlite-$i"
      n=$((n + 1))
    done
    cp golden/inputs/rsprof-recording.db "$dir/seed-sqlite-rsprof-db"  # the bytes of a database
    n=$((n + 1)) ;;
esac
# The regressions are seeds too: the neighbourhood of a past fault is worth exploring.
[ -d "tests/fuzz/regressions/$name" ] && cp tests/fuzz/regressions/"$name"/* "$dir"/ 2>/dev/null
echo "seeds: $name: $n from golden/"
