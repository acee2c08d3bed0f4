#!/usr/bin/env bash
# prof-text --tags against Google's pprof -tags: for every label key with string values, the
# same values with the same sums, in the same order; on profiles with labels (golden inputs and
# perf captures through perf2prof, written as .pb.gz by prof2pprof --keep-samples).
#
# Compared on the first value type (a count of samples in these profiles), whose sums pprof
# prints exactly ("10.0"). Left out, on
# purpose (man prof-text, --tags): numeric labels, which pprof groups by their rounded display
# ("1MB" for 1048576 and 1048577 bytes) and prof-text keeps exact; and the proftools.* labels
# through which prof2pprof carries sources and times (they are not labels of the text).
name=interop-tags
source "$(dirname "$0")/interop/prelude.sh"

# KEY<TAB>NAME<TAB>VALUE per string label value, in report order.
ours() {
  prof-text --tags --raw-values --value "$2" "$1" | awk '
    /^[^ ].*: Total / { key = $0; sub(/: Total .*/, "", key); next }
    /^  / && key != "" { v = $1; pct = $2; name = $0; sub(/^ *[^ ]+ +[^ ]+  /, "", name)
      print key "\t" name "\t" v }'
}
theirs() {
  "$pprof" -tags -symbolize=none -sample_index="$2" "$1" 2>/dev/null | awk '
    /^ [^ ].*: Total / { key = $0; sub(/^ /, "", key); sub(/: Total .*/, "", key); next }
    /\): / && key != "" { line = $0; sub(/^ */, "", line); v = line; sub(/ .*/, "", v)
      name = line; sub(/^[^)]*\): /, "", name); printf "%s\t%s\t%d\n", key, name, v }'
}

profiles=("$root/golden/filter/inputs/heap-threads.prof" "$root/golden/inputs/worked-example.prof")
# (The project's own copies of the corpus, so that a clean clone tests the same profiles.)
for f in "$root"/golden/perf/corpus/flamegraph/perf-*.txt.gz; do [ -f "$f" ] && profiles+=("$f"); done

rows=0
for input in "${profiles[@]}"; do
  base=$(basename "$input")
  case $input in
    *.txt | *.txt.gz) perf2prof "$input" > "$T/$base.prof" 2>/dev/null || continue ;;
    *) cp "$input" "$T/$base.prof" ;;
  esac
  prof2pprof --keep-samples -o "$T/$base.pb.gz" "$T/$base.prof" || { problem "$base: prof2pprof"; continue; }
  # String-valued keys only: a numeric label's value starts with a digit in both reports.
  type=$(awk '/^type / { print $2; exit }' "$T/$base.prof")
  numeric_keys=$(grep -h -o '[^ =]*=-\?[0-9][0-9]*' "$T/$base.prof" | grep '^sample' -v | cut -d= -f1 | sort -u)
  ours "$T/$base.prof" "$type" | awk -F'\t' -v nk="$numeric_keys" 'BEGIN { n = split(nk, k, "\n"); for (i = 1; i <= n; i++) skip[k[i]] = 1 }
    !($1 in skip) && $1 !~ /^proftools\./' > "$T/ours"
  theirs "$T/$base.pb.gz" "$type" | awk -F'\t' -v nk="$numeric_keys" 'BEGIN { n = split(nk, k, "\n"); for (i = 1; i <= n; i++) skip[k[i]] = 1 }
    !($1 in skip) && $1 !~ /^proftools\./' > "$T/theirs"
  checks=$((checks + 1))
  rows=$((rows + $(wc -l < "$T/ours")))
  if ! cmp -s "$T/ours" "$T/theirs"; then
    problem "$base: prof-text --tags and pprof -tags differ:"
    diff "$T/ours" "$T/theirs" | head -10
  fi
done
echo "$name: $checks profiles ($rows label values) compared with $pprof_bin -tags, $fail problem(s)"
[ "$fail" -eq 0 ]
