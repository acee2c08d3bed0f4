#!/usr/bin/env bash
# prof2sqlite and sqlite2prof on the generated 1,000,000-sample profile (gen-profile: 50,000
# stacks of 20-60 frames, timestamps, pid/tid/comm labels), beside the floor the issue set:
# sqlite3's own `.import` of the same rows from CSV into tables of the same columns and keys
# but no constraints (schema.sql below; the CSV files made beforehand from prof2sqlite's
# database). Both loads run with the journal and syncing off; .import commits once per table,
# prof2sqlite once. Runs alternate,
# 3 each; figures are medians of wall and of CPU (user + system) and peak RSS. Then the top_self
# and top_cumulative views queried with sqlite3, beside prof-text --top on the text.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH" LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-sqlite.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v sqlite3 > /dev/null || { echo "sqlite3: skipped (install the sqlite3 package)"; exit 0; }

gen-profile --samples 1000000 -o "$work/big.prof"
prof2sqlite -o "$work/ref.db" "$work/big.prof"
# The tables in load order (foreign keys point backwards), each as CSV without a header.
tables="meta profile_meta comments sources sample_types mappings functions locations
        location_lines stacks samples sample_values labels"
rows=0
for t in $tables; do
  columns='*'
  sqlite3 -csv -noheader "$work/ref.db" "SELECT $columns FROM $t" > "$work/$t.csv"
  rows=$((rows + $(sqlite3 "$work/ref.db" "SELECT COUNT(*) FROM $t")))
done
# The floor's tables: prof2sqlite's columns and keys (WITHOUT ROWID where it has them), but no
# CHECK or foreign key (CSV cannot say NULL: .import stores '' where a NULL was exported).
cat > "$work/schema.sql" <<'SQL'
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE profile_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE comments (comment_id INTEGER PRIMARY KEY, comment TEXT);
CREATE TABLE sources (source_id INTEGER PRIMARY KEY, source_type TEXT, source_uri TEXT,
  source_timestamp REAL, source_time_nanos INTEGER);
CREATE TABLE sample_types (type_index INTEGER PRIMARY KEY, type TEXT UNIQUE, unit TEXT,
  UNIQUE (type, unit));
CREATE TABLE mappings (mapping_id INTEGER PRIMARY KEY, memory_start INTEGER,
  memory_limit INTEGER, file_offset INTEGER, filename TEXT, build_id TEXT,
  has_functions INTEGER, has_filenames INTEGER, has_line_numbers INTEGER,
  has_inline_frames INTEGER);
CREATE TABLE functions (function_id INTEGER PRIMARY KEY, name TEXT, system_name TEXT,
  filename TEXT, start_line INTEGER);
CREATE TABLE locations (location_id INTEGER PRIMARY KEY, function_id INTEGER, line INTEGER,
  column_number INTEGER, mapping_id INTEGER, address INTEGER, is_folded INTEGER);
CREATE TABLE location_lines (location_id INTEGER, position INTEGER, function_id INTEGER,
  line INTEGER, column_number INTEGER, PRIMARY KEY (location_id, position)) WITHOUT ROWID;
CREATE TABLE stacks (stack_id INTEGER, depth INTEGER, location_id INTEGER,
  PRIMARY KEY (stack_id, depth)) WITHOUT ROWID;
CREATE TABLE samples (sample_id INTEGER PRIMARY KEY, source_id INTEGER, stack_id INTEGER,
  time_nanos INTEGER, duration_nanos INTEGER);
CREATE TABLE sample_values (sample_id INTEGER, type TEXT, unit TEXT, value INTEGER,
  PRIMARY KEY (sample_id, type)) WITHOUT ROWID;
CREATE TABLE labels (sample_id INTEGER, label_index INTEGER, key TEXT, str TEXT, num INTEGER,
  unit TEXT, PRIMARY KEY (sample_id, label_index)) WITHOUT ROWID;
SQL
{
  echo 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;'
  cat "$work/schema.sql"
  for t in $tables; do echo ".import --csv $work/$t.csv $t"; done
} > "$work/import.sql"
csv_mb=$(cat "$work"/*.csv | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')
echo "input: $(du -m "$work/big.prof" | cut -f1) MB of prof text; $rows rows" \
     "($csv_mb MB of CSV); database $(du -m "$work/ref.db" | cut -f1) MB"

# run LABEL COMMAND: one run; appends "wall cpu rss_kib" to $work/LABEL.runs
run() {
  local label=$1; shift
  rm -f "$work/out.db"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" bash -c "$*" > /dev/null
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time" >> "$work/$label.runs"
}
median() { sort -n -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
report() {
  local f="$work/$1.runs"
  printf '%-44s %7.2f s  CPU %7.2f s  peak RSS %7.1f MiB\n' "$1" "$(median "$f" 1)" \
    "$(median "$f" 2)" "$(awk -v k="$(median "$f" 3)" 'BEGIN { print k / 1024 }')"
}

top_self="SELECT name, self FROM top_self WHERE type = 'cpu' LIMIT 10"
top_cum="SELECT name, cumulative FROM top_cumulative WHERE type = 'cpu' LIMIT 10"
for _ in 1 2 3; do
  run "prof2sqlite big.prof -o out.db" prof2sqlite "$work/big.prof" -o "$work/out.db"
  run "sqlite3 out.db < import.sql (floor)" "sqlite3 '$work/out.db' < '$work/import.sql'"
  run "sqlite2prof ref.db" sqlite2prof "$work/ref.db"
  # The views beside the report that answers the same question from the text.
  run "sqlite3 ref.db top_self" "sqlite3 '$work/ref.db' \"$top_self\""
  run "sqlite3 ref.db top_cumulative" "sqlite3 '$work/ref.db' \"$top_cum\""
  run "prof-text --top big.prof (same answer)" prof-text --value cpu "$work/big.prof"
done
for label in "prof2sqlite big.prof -o out.db" "sqlite3 out.db < import.sql (floor)" \
             "sqlite2prof ref.db" "sqlite3 ref.db top_self" "sqlite3 ref.db top_cumulative" \
             "prof-text --top big.prof (same answer)"; do
  report "$label"
done
for label in "prof2sqlite big.prof -o out.db" "sqlite3 out.db < import.sql (floor)"; do
  median "$work/$label.runs" 1 >> "$work/walls"
  median "$work/$label.runs" 2 >> "$work/cpus"
done
paste "$work/walls" "$work/cpus" | awk 'NR == 1 { w = $1; c = $2 } NR == 2 {
  printf "prof2sqlite / sqlite3 .import: %.2fx wall, %.2fx CPU (goal: within 2x)\n", w / $1, c / $2 }'
