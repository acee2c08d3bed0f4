#!/usr/bin/env bash
# Compares `rprof2prof NAME.out | prof-text` with R's own summaryRprof() results, which sit beside
# each Rprof file of the corpus (made by R 4.2.2; see golden/rprof/corpus/README.md):
#
#   NAME.by_total.tsv, NAME.by_self.tsv   summaryRprof(f): self and total time per function
#   NAME.summary.txt.gz                    also memory = "both" (mem.total per function, MB),
#                                          lines = "show" (by.line: self and total per line) and
#                                          lines = "show", memory = "both" (mem.total per line)
#
# Times are converted to sample counts (time / interval, R rounds to 3 digits); mem.total is
# compared with our `alloc` total in MiB to R's one decimal. For each file it prints one line
# per table saying that every row matches, or the rows that differ (R's and ours). The golden
# case golden/rprof/reference keeps that report: any change to a count shows up in its diff.
#
# Usage: tests/rprof-reference.sh DIR   (DIR holds NAME.out.gz and the files above)
# Needs rprof2prof and prof-text on PATH.
set -euo pipefail
export LC_ALL=C
dir=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/rprof-reference.XXXXXX")
trap 'rm -rf "$work"' EXIT

# R's tables -> "name<TAB>self<TAB>total" in sample counts. R keeps the quotes of each token
# (`"fib"`); a token that is not quoted on both sides (R split a name on a space) is kept as
# R wrote it. write.table escapes quotes inside its own quoting as \".
r_functions() {  # TSV INTERVAL_SECONDS
  awk -F'\t' -v iv="$2" 'NR > 1 {
      name = $1; sub(/^"/, "", name); sub(/"$/, "", name); gsub(/\\"/, "\"", name)
      if (length(name) >= 2 && name ~ /^".*"$/) name = substr(name, 2, length(name) - 2)
      # by_total has total.time total.pct self.time self.pct; by_self has self first.
      if (FILENAME ~ /by_total/) { total = $2; self = $4 } else { self = $2; total = $4 }
      printf "%s\t%d\t%d\n", name, int(self / iv + 0.5), int(total / iv + 0.5)
    }' "$1"
}

# A table printed by R inside summary.txt: the section whose title is $2, the table $3. Prints
# "name<TAB>number..." rows (the name is everything before the last N numbers).
r_printed_table() {  # SUMMARY_TXT SECTION TABLE NUMBERS
  awk -v section="==== $2 ====" -v table="\$$3" -v n="$4" '
    $0 == section { in_section = 1; next }
    /^==== / { in_section = 0 }
    in_section && $0 == table { in_table = 1; header = 1; next }
    in_table && header { header = 0; next }
    in_table && ($0 == "" || /^\$/) { in_table = 0 }
    in_table {
      # A row is a name and n numbers; anything else ("<0 rows>", an error) is no row.
      line = $0; numbers = ""; ok = 1
      for (i = 0; i < n; i++) {
        if (!match(line, / +[^ ]+ *$/)) { ok = 0; break }
        value = substr(line, RSTART, RLENGTH); gsub(/ /, "", value)
        if (value !~ /^-?[0-9.]+$/) { ok = 0; break }
        numbers = "\t" value numbers
        line = substr(line, 1, RSTART - 1)
      }
      sub(/ +$/, "", line)
      if (ok && line != "") print line numbers
    }' "$1"
}

# prof-text --top rows -> "name<TAB>flat<TAB>cum".
our_top() {  # PROF VALUE [GRANULARITY]
  prof-text --top --no-trim --raw-values --value "$2" --granularity "${3:-functions}" "$1" |
    awk 'seen && match($0, /^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /) {
           rest = substr($0, RLENGTH + 1); split($0, f, " ")
           printf "%s\t%s\t%s\n", rest, f[1], f[4]
         }
         /flat%/ { seen = 1 }'
}

# Compares "name<TAB>a<TAB>b" tables: R's ($1) against ours ($2). $3 names the table, $4 how to
# compare (counts: both columns equal; mib: column 2 of R, in MB to 1 decimal, against column 3
# of ours, in bytes). Prints one summary line, then the rows that differ.
compare() {  # R_ROWS OUR_ROWS WHAT MODE
  if [ ! -s "$1" ]; then
    # (awk cannot tell an empty first file from the second one.)
    echo "  $3: R gives no rows; ours $(wc -l <"$2" | tr -d ' ')"
    return
  fi
  awk -F'\t' -v what="$3" -v mode="$4" '
    FNR == NR { r[$1] = $2 "\t" $3; r_a[$1] = $2; r_b[$1] = $3; order[++n] = $1; next }
    { o[$1] = 1; o_a[$1] = $2; o_b[$1] = $3; if (!($1 in r)) extra[++m] = $1 }
    END {
      matched = 0
      for (i = 1; i <= n; i++) {
        k = order[i]
        # prof-text --top leaves out rows that are all 0 (as pprof does): as memory, 0 bytes.
        if (!(k in o) && mode == "mib") { o[k] = 1; o_a[k] = 0; o_b[k] = 0 }
        if (!(k in o)) { out = out sprintf("    %s: R %s; ours: none\n", k, show(r_a[k], r_b[k], "r")); continue }
        if (mode == "mib") ok = (o_b[k] / 1048576 - r_a[k] <= 0.0500001 && r_a[k] - o_b[k] / 1048576 <= 0.0500001)
        else ok = (r_a[k] == o_a[k] && r_b[k] == o_b[k])
        if (ok) matched++
        else out = out sprintf("    %s: R %s; ours %s\n", k, show(r_a[k], r_b[k], "r"), show(o_a[k], o_b[k], "o"))
      }
      for (i = 1; i <= m; i++) {
        k = extra[i]
        out = out sprintf("    %s: R none; ours %s\n", k, show(o_a[k], o_b[k], "o"))
      }
      if (out == "") printf "  %s: all %d rows match R\n", what, n
      else printf "  %s: %d of %d rows match R%s; differences:\n%s", what, matched, n,
                  (m > 0 ? sprintf(", %d more rows in ours", m) : ""), out
    }
    function show(a, b, side) {
      if (mode != "mib") return "self " a " total " b
      return side == "r" ? a " MB" : sprintf("%.3f MB", b / 1048576)
    }' "$1" "$2"
}
for out_gz in "$dir"/*.out.gz; do
  name=$(basename "$out_gz" .out.gz)
  base=$dir/$name
  [ -f "$base.by_total.tsv" ] || continue
  echo "$name"
  zcat "$out_gz" >"$work/$name.out"
  (cd "$work" && rprof2prof "$name.out" >"$name.prof" 2>/dev/null)
  prof=$work/$name.prof
  header=$(head -n 1 "$work/$name.out")
  interval=$(echo "$header" | sed 's/.*sample\.interval=\([0-9]*\).*/\1/' | awk '{ print $1 / 1e6 }')
  zcat "$base.summary.txt.gz" >"$work/summary.txt"

  # Samples: R's sampling.time / interval against the samples of our profile.
  r_samples=$(awk -v iv="$interval" '/^\$sampling.time/ { getline; print int($2 / iv + 0.5); exit }' \
    "$work/summary.txt")
  our_samples=$(prof-text --top --no-trim --raw-values --value samples "$prof" |
    sed -n 's/.*total (\([0-9]*\) samples\{0,1\}).*/\1/p')
  if [ "$r_samples" = "$our_samples" ]; then
    echo "  samples: $r_samples in R and ours"
  else
    echo "  samples: R $r_samples; ours $our_samples"
  fi

  # Functions: self and total sample counts, from both of R's tables.
  r_functions "$base.by_total.tsv" "$interval" >"$work/r_total"
  our_top "$prof" samples >"$work/ours"
  compare "$work/r_total" "$work/ours" "functions (by.total)" counts
  r_functions "$base.by_self.tsv" "$interval" >"$work/r_self"
  awk -F'\t' '$2 != 0' "$work/ours" >"$work/ours_self"
  compare "$work/r_self" "$work/ours_self" "functions (by.self)" counts

  # Memory: mem.total per function, where R computes it.
  if grep -q "^==== summaryRprof(f, memory = 'both') ====" "$work/summary.txt"; then
    r_printed_table "$work/summary.txt" "summaryRprof(f, memory = 'both')" by.total 5 |
      awk -F'\t' '{ name = $1; if (name ~ /^".*"$/) name = substr(name, 2, length(name) - 2)
                    print name "\t" $4 "\t" $4 }' >"$work/r_mem"
    if ! grep -A1 "^==== summaryRprof(f, memory = 'both') ====" "$work/summary.txt" | grep -q '<error>'; then
      our_top "$prof" alloc >"$work/ours_mem"
      compare "$work/r_mem" "$work/ours_mem" "mem.total per function" mib
    else
      echo "  mem.total per function: R fails: $(grep -A1 "memory = 'both') ====" "$work/summary.txt" |
        grep -m1 '<error>' | cut -c1-80)"
    fi
  fi

  # Lines: by.line of lines = "show" (self = innermost srcref, total = distinct srcrefs).
  if grep -q "^==== summaryRprof(f, lines = 'show') ====" "$work/summary.txt"; then
    r_printed_table "$work/summary.txt" "summaryRprof(f, lines = 'show')" by.line 4 |
      awk -F'\t' -v iv="$interval" '{ printf "%s\t%d\t%d\n", $1, int($2 / iv + 0.5), int($4 / iv + 0.5) }' \
        >"$work/r_lines_all"
    # Our rows are FILE:LINE (? for an empty file name): R shows basename#LINE.
    our_top "$prof" samples filelines |
      awk -F'\t' '{ key = $1; sub(/:[0-9]+$/, "", key); line = substr($1, length(key) + 2)
                    if (key == "?") key = ""; sub(/.*\//, "", key)
                    printf "%s#%s\t%s\t%s\n", key, line, $2, $3 }' >"$work/ours_lines"
    grep -v '^<no location>	' "$work/r_lines_all" >"$work/r_lines" || true
    compare "$work/r_lines" "$work/ours_lines" "by.line" counts
    # Samples without any srcref: R's <no location> row; ours: samples minus those with a line.
    r_none=$(awk -F'\t' '$1 == "<no location>" { print $2 } END { if (!NR) print 0 }' "$work/r_lines_all" | head -n 1)
    r_none=${r_none:-0}
    our_lined=$(awk -F'\t' '{ s += $2 } END { print s + 0 }' "$work/ours_lines")
    if [ "$r_none" = $((our_samples - our_lined)) ]; then
      echo "  <no location>: $r_none samples in R and ours"
    else
      echo "  <no location>: R $r_none samples; ours $((our_samples - our_lined))"
    fi
    if grep -q "^==== summaryRprof(f, lines = 'show', memory = 'both') ====" "$work/summary.txt"; then
      r_printed_table "$work/summary.txt" "summaryRprof(f, lines = 'show', memory = 'both')" by.line 5 |
        awk -F'\t' '$1 != "<no location>" { print $1 "\t" $6 "\t" $6 }' >"$work/r_lines_mem"
      our_top "$prof" alloc filelines |
        awk -F'\t' '{ key = $1; sub(/:[0-9]+$/, "", key); line = substr($1, length(key) + 2)
                      if (key == "?") key = ""; sub(/.*\//, "", key)
                      printf "%s#%s\t%s\t%s\n", key, line, $2, $3 }' >"$work/ours_lines_mem"
      if grep -A1 "^==== summaryRprof(f, lines = 'show', memory = 'both') ====" "$work/summary.txt" |
        grep -q '<error>'; then
        echo "  mem.total per line: R fails: $(grep -A1 "lines = 'show', memory = 'both') ====" \
          "$work/summary.txt" | grep -m1 '<error>' | cut -c1-80)"
      else
        compare "$work/r_lines_mem" "$work/ours_lines_mem" "mem.total per line" mib
      fi
    fi
  fi
done
