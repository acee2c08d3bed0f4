#include "common/sqlite/sqlite_schema.h"

namespace proftools {

// Ids are positive integers. Addresses and mapping bounds are unsigned 64-bit numbers stored in
// SQLite's signed INTEGER with the same bits (above 2^63 they read negative; printf('0x%x', …)
// shows them in hex). Strings are TEXT holding the profile's bytes exactly.
const char* const kSqliteTables = R"sql(
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE profile_meta (
  key TEXT PRIMARY KEY CHECK (key <> ''),
  value TEXT NOT NULL
);
CREATE TABLE comments (
  comment_id INTEGER PRIMARY KEY,
  comment TEXT NOT NULL
);
CREATE TABLE sources (
  source_id INTEGER PRIMARY KEY CHECK (source_id > 0),
  source_type TEXT NOT NULL CHECK (source_type <> ''),
  source_uri TEXT NOT NULL,
  source_timestamp REAL,
  source_time_nanos INTEGER CHECK (source_time_nanos >= 0)
);
CREATE TABLE sample_types (
  type_index INTEGER PRIMARY KEY CHECK (type_index > 0),
  type TEXT NOT NULL UNIQUE CHECK (type <> ''),
  unit TEXT NOT NULL,
  UNIQUE (type, unit)
);
CREATE TABLE mappings (
  mapping_id INTEGER PRIMARY KEY CHECK (mapping_id > 0),
  memory_start INTEGER NOT NULL,
  memory_limit INTEGER NOT NULL,
  file_offset INTEGER NOT NULL,
  filename TEXT NOT NULL,
  build_id TEXT NOT NULL,
  has_functions INTEGER NOT NULL CHECK (has_functions IN (0, 1)),
  has_filenames INTEGER NOT NULL CHECK (has_filenames IN (0, 1)),
  has_line_numbers INTEGER NOT NULL CHECK (has_line_numbers IN (0, 1)),
  has_inline_frames INTEGER NOT NULL CHECK (has_inline_frames IN (0, 1))
);
CREATE TABLE functions (
  function_id INTEGER PRIMARY KEY CHECK (function_id > 0),
  name TEXT NOT NULL CHECK (name <> ''),
  system_name TEXT NOT NULL,
  filename TEXT NOT NULL,
  start_line INTEGER NOT NULL CHECK (start_line >= 0)
);
CREATE TABLE locations (
  location_id INTEGER PRIMARY KEY CHECK (location_id > 0),
  function_id INTEGER REFERENCES functions,
  line INTEGER CHECK (line >= 0),
  column_number INTEGER CHECK (column_number >= 0),
  mapping_id INTEGER REFERENCES mappings,
  address INTEGER NOT NULL,
  is_folded INTEGER NOT NULL CHECK (is_folded IN (0, 1)),
  CHECK ((function_id IS NULL) = (line IS NULL) AND (line IS NULL) = (column_number IS NULL))
);
CREATE TABLE location_lines (
  location_id INTEGER NOT NULL REFERENCES locations ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 2),
  function_id INTEGER NOT NULL REFERENCES functions,
  line INTEGER NOT NULL CHECK (line >= 0),
  column_number INTEGER NOT NULL CHECK (column_number >= 0),
  PRIMARY KEY (location_id, position)
) WITHOUT ROWID;
CREATE TABLE stacks (
  stack_id INTEGER NOT NULL CHECK (stack_id > 0),
  depth INTEGER NOT NULL CHECK (depth >= 0),
  location_id INTEGER REFERENCES locations,
  PRIMARY KEY (stack_id, depth),
  CHECK ((depth = 0) = (location_id IS NULL))
) WITHOUT ROWID;
CREATE TABLE samples (
  sample_id INTEGER PRIMARY KEY CHECK (sample_id > 0),
  source_id INTEGER NOT NULL REFERENCES sources ON DELETE CASCADE,
  stack_id INTEGER NOT NULL,
  time_nanos INTEGER CHECK (time_nanos >= 0),
  duration_nanos INTEGER CHECK (duration_nanos >= 0)
);
CREATE TABLE sample_values (
  sample_id INTEGER NOT NULL REFERENCES samples ON DELETE CASCADE,
  type TEXT NOT NULL,
  unit TEXT NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (sample_id, type),
  FOREIGN KEY (type, unit) REFERENCES sample_types (type, unit)
) WITHOUT ROWID;
CREATE TABLE labels (
  sample_id INTEGER NOT NULL REFERENCES samples ON DELETE CASCADE,
  label_index INTEGER NOT NULL CHECK (label_index > 0),
  key TEXT NOT NULL CHECK (key <> ''),
  str TEXT,
  num INTEGER,
  unit TEXT CHECK (unit <> ''),
  PRIMARY KEY (sample_id, label_index),
  CHECK ((str IS NULL) <> (num IS NULL) AND (unit IS NULL OR num IS NOT NULL))
) WITHOUT ROWID;
)sql";

// Sums are taken per stack first (tens of thousands of stacks, not millions of samples), then
// spread over the stack's functions. Self: the innermost frame of the stack's first location;
// cumulative: every distinct function of the stack, inlined frames included, once per sample.
// The reports are by function name, as prof-text's and pprof's: two functions of one name (two
// files, two binaries) are one row, and a stack holding both counts once in its cumulative.
const char* const kSqliteViews = R"sql(
CREATE VIEW sample_locations AS
  SELECT s.sample_id, k.depth, k.location_id
  FROM samples s JOIN stacks k ON k.stack_id = s.stack_id
  WHERE k.depth > 0;
CREATE VIEW location_functions AS
  SELECT location_id, 1 AS position, function_id, line FROM locations
  WHERE function_id IS NOT NULL
  UNION ALL
  SELECT location_id, position, function_id, line FROM location_lines;
CREATE VIEW stack_functions AS
  SELECT DISTINCT k.stack_id, f.function_id
  FROM stacks k JOIN location_functions f ON f.location_id = k.location_id;
CREATE VIEW stack_self AS
  SELECT k.stack_id, l.function_id
  FROM stacks k JOIN locations l ON l.location_id = k.location_id
  WHERE k.depth = 1 AND l.function_id IS NOT NULL;
CREATE VIEW stack_names AS
  SELECT DISTINCT k.stack_id, n.name
  FROM stacks k JOIN location_functions f ON f.location_id = k.location_id
       JOIN functions n ON n.function_id = f.function_id;
CREATE VIEW stack_self_names AS
  SELECT x.stack_id, n.name
  FROM stack_self x JOIN functions n ON n.function_id = x.function_id;
CREATE VIEW type_totals AS
  SELECT t.type_index, t.type, t.unit, COALESCE(SUM(v.value), 0) AS total
  FROM sample_types t LEFT JOIN sample_values v ON v.type = t.type
  GROUP BY t.type_index;
CREATE VIEW stack_values AS
  SELECT s.stack_id, v.type, v.unit, SUM(v.value) AS value
  FROM samples s JOIN sample_values v ON v.sample_id = s.sample_id
  GROUP BY s.stack_id, v.type;
CREATE VIEW top_self AS
  SELECT v.type, v.unit, x.name, SUM(v.value) AS self,
         ROUND(100.0 * SUM(v.value) / NULLIF(t.total, 0), 2) AS percent
  FROM stack_values v JOIN stack_self_names x ON x.stack_id = v.stack_id
       JOIN type_totals t ON t.type = v.type
  GROUP BY t.type_index, x.name
  ORDER BY t.type_index, self DESC, x.name;
CREATE VIEW top_cumulative AS
  SELECT v.type, v.unit, x.name, SUM(v.value) AS cumulative,
         ROUND(100.0 * SUM(v.value) / NULLIF(t.total, 0), 2) AS percent
  FROM stack_values v JOIN stack_names x ON x.stack_id = v.stack_id
       JOIN type_totals t ON t.type = v.type
  GROUP BY t.type_index, x.name
  ORDER BY t.type_index, cumulative DESC, x.name;
CREATE VIEW sample_buckets AS
  SELECT s.sample_id, s.source_id, s.stack_id,
         (s.time_nanos - b.first_nanos) / 1000000000 AS bucket
  FROM samples s JOIN (SELECT source_id, MIN(time_nanos) AS first_nanos FROM samples
                       GROUP BY source_id) b ON b.source_id = s.source_id
  WHERE s.time_nanos IS NOT NULL;
CREATE VIEW time_buckets AS
  SELECT b.source_id, b.bucket, v.type, v.unit, COUNT(*) AS samples, SUM(v.value) AS value
  FROM sample_buckets b JOIN sample_values v ON v.sample_id = b.sample_id
  GROUP BY b.source_id, b.bucket, v.type
  ORDER BY b.source_id, b.bucket, v.type;
CREATE VIEW function_buckets AS
  WITH bucket_stacks AS (
    SELECT b.source_id, b.bucket, b.stack_id, v.type, v.unit, SUM(v.value) AS value
    FROM sample_buckets b JOIN sample_values v ON v.sample_id = b.sample_id
    GROUP BY b.source_id, b.bucket, b.stack_id, v.type)
  SELECT w.source_id, w.bucket, w.type, w.unit, n.name,
         SUM(CASE WHEN x.stack_id IS NULL THEN 0 ELSE w.value END) AS self,
         SUM(w.value) AS cumulative
  FROM bucket_stacks w JOIN stack_names n ON n.stack_id = w.stack_id
       LEFT JOIN stack_self_names x ON x.stack_id = w.stack_id AND x.name = n.name
  GROUP BY w.source_id, w.bucket, w.type, n.name;
CREATE VIEW live_bytes AS
  SELECT x.name,
         SUM(CASE WHEN v.type LIKE 'alloc%' THEN v.value ELSE 0 END) AS alloc_bytes,
         SUM(CASE WHEN v.type LIKE 'free%' OR v.type LIKE 'dealloc%' THEN v.value ELSE 0 END)
           AS free_bytes,
         SUM(CASE WHEN v.type LIKE 'alloc%' THEN v.value ELSE -v.value END) AS live_bytes
  FROM stack_values v JOIN stack_self_names x ON x.stack_id = v.stack_id
  WHERE v.unit = 'bytes'
    AND (v.type LIKE 'alloc%' OR v.type LIKE 'free%' OR v.type LIKE 'dealloc%')
  GROUP BY x.name
  ORDER BY live_bytes DESC, x.name;
)sql";

}  // namespace proftools
