#include "common/sqlite/sqlite_reader.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/id_table.h"
#include "common/base/text_syntax.h"
#include "common/sqlite/sqlite_schema.h"
#include "common/sqlite/table_reader.h"

namespace proftools {
namespace {

// The tables a profile is read from (views are derived and never read).
constexpr const char* kTables[] = {
    "meta",      "profile_meta",   "comments", "sources", "sample_types",  "mappings", "functions",
    "locations", "location_lines", "stacks",   "samples", "sample_values", "labels",
};

class DatabaseReader {
 public:
  DatabaseReader(SqliteDb* db, ProfileSink* sink) : db_(db), sink_(sink) {}

  void Read() {
    CheckLayout();
    ReadHeader();
    ReadMappings();
    ReadFunctions();
    ReadLocations();
    ReadStacks();
    ReadSamples();
    sink_->OnEnd();
  }

 private:
  void CheckLayout() {
    if (!db_->HasTable("meta")) {
      throw ProfError(db_->name(),
                      "not a profile database: it has no table 'meta' (prof2sqlite writes one)");
    }
    RequirePlainTable(db_, "meta");
    std::optional<std::string> schema;
    {
      TableReader meta(db_, "meta", "SELECT value FROM meta WHERE key = 'schema_version'");
      meta.SetRow("key 'schema_version'");
      if (meta.Next()) schema = meta.Text(0, "value");
    }
    if (!schema) {
      throw ProfError(db_->name(),
                      "not a profile database of prof2sqlite: table meta has no row "
                      "'schema_version'");
    }
    const std::optional<int64_t> version = ParseInt(*schema);
    if (!version || *version < 1) {
      throw ProfError(db_->name(), "table meta, row key 'schema_version': " + Printable(*schema) +
                                       " is not a schema version (a positive integer)");
    }
    if (*version > kSqliteSchemaVersion) {
      throw ProfError(db_->name(), "database schema version " + std::to_string(*version) +
                                       " is newer than this program reads (" +
                                       std::to_string(kSqliteSchemaVersion) +
                                       "); upgrade proftools");
    }
    for (const char* table : kTables) RequirePlainTable(db_, table);
  }

  void ReadHeader() {
    ProfileHeader header;
    std::optional<std::string> period_type, period_unit, period;
    {
      TableReader meta(db_, "meta", "SELECT key, value FROM meta ORDER BY key");
      while (meta.Next()) {
        const std::string key = meta.Text(0, "key");
        meta.SetRow("key " + Printable(key));
        const std::string value = meta.Text(1, "value");
        if (key == "version") {
          if (value != kProfileModelVersion) {
            meta.Fail("the model version is " + Printable(value) + ", not " + kProfileModelVersion);
          }
        } else if (key == "schema_version") {
        } else if (key == "time_nanos") {
          header.time_nanos = MetaTime(meta, value);
        } else if (key == "duration_nanos") {
          header.duration_nanos = MetaTime(meta, value);
        } else if (key == "period_type") {
          period_type = value;
        } else if (key == "period_unit") {
          period_unit = value;
        } else if (key == "period") {
          period = value;
        } else if (key == "doc_url" || key == "drop_frames" || key == "keep_frames") {
          if (value.empty()) meta.Fail("the value is empty (leave the row out instead)");
          (key == "doc_url"       ? header.doc_url
           : key == "drop_frames" ? header.drop_frames
                                  : header.keep_frames) = value;
        } else if (key == "default_type") {
          header.default_type = value;
        } else {
          meta.Fail("unknown key (the profile's own meta records go in table profile_meta)");
        }
      }
      if (period_type || period_unit || period) {
        meta.SetRow("key 'period'");
        if (!period_type || !period_unit || !period) {
          meta.Fail("period, period_type and period_unit come together");
        }
        const std::optional<int64_t> value = ParseInt(*period);
        if (!value) meta.Fail(Printable(*period) + " is not an integer");
        header.period = Period{{*period_type, *period_unit}, *value};
      }
    }
    {
      TableReader meta(db_, "profile_meta", "SELECT key, value FROM profile_meta ORDER BY key");
      while (meta.Next()) {
        const std::string key = meta.NonEmpty(0, "key");
        meta.SetRow("key " + Printable(key));
        if (!header.meta.empty() && header.meta.back().key == key) meta.Fail("a repeated key");
        header.meta.push_back({key, meta.Text(1, "value")});
      }
    }
    {
      TableReader comments(db_, "comments",
                           "SELECT comment_id, comment FROM comments ORDER BY comment_id");
      while (comments.Next()) {
        comments.SetRow("comment_id " + std::to_string(comments.Int(0, "comment_id")));
        header.comments.push_back(comments.Text(1, "comment"));
      }
    }
    {
      TableReader sources(db_, "sources",
                          "SELECT source_id, source_type, source_uri, source_time_nanos, "
                          "source_timestamp FROM sources ORDER BY source_id");
      while (sources.Next()) {
        Source s;
        s.id = RowId(sources, "source_id", &last_source_);
        s.type = sources.NonEmpty(1, "source_type");
        s.uri = sources.Text(2, "source_uri");
        s.time_nanos = sources.OptionalNonNegative(3, "source_time_nanos");
        // A row written by the seed's tools has only the seconds.
        if (!s.time_nanos) s.time_nanos = sources.OptionalSeconds(4, "source_timestamp");
        uint64_t ignored;
        source_ids_.Insert(s.id, 0, &ignored);
        header.sources.push_back(std::move(s));
      }
    }
    {
      TableReader types(db_, "sample_types",
                        "SELECT type_index, type, unit FROM sample_types ORDER BY type_index");
      uint64_t last = 0;
      while (types.Next()) {
        RowId(types, "type_index", &last);
        ValueType type{types.NonEmpty(1, "type"), types.Text(2, "unit")};
        if (type_index_.count(type.type) != 0) types.Fail("the type is named twice");
        type_index_[type.type] = header.types.size();
        header.types.push_back(std::move(type));
      }
      if (header.types.empty()) {
        types.SetRow("");
        types.Fail("it is empty: a profile declares at least one value type");
      }
    }
    if (!header.default_type.empty() && type_index_.count(header.default_type) == 0) {
      throw ProfError(db_->name(),
                      "table meta, row key 'default_type': " + Printable(header.default_type) +
                          " is not a type of table sample_types");
    }
    types_ = header.types;
    sink_->OnHeader(header);
  }

  int64_t MetaTime(TableReader& meta, const std::string& value) {
    const std::optional<int64_t> nanos = ParseInt(value);
    if (!nanos || *nanos < 0) meta.Fail(Printable(value) + " is not a time (nanoseconds, >= 0)");
    return *nanos;
  }

  // Reads the id of a table whose rows come in id order; refuses a repeated id.
  static uint64_t RowId(TableReader& table, const char* column, uint64_t* last) {
    table.SetRow("");
    const uint64_t id = table.Id(0, column);
    table.SetRow(std::string(column) + " " + std::to_string(id));
    if (id == *last) table.Fail("the id is repeated");
    *last = id;
    return id;
  }

  void ReadMappings() {
    TableReader rows(db_, "mappings",
                     "SELECT mapping_id, memory_start, memory_limit, file_offset, filename, "
                     "build_id, has_functions, has_filenames, has_line_numbers, "
                     "has_inline_frames FROM mappings ORDER BY mapping_id");
    uint64_t last = 0;
    while (rows.Next()) {
      Mapping m;
      m.id = RowId(rows, "mapping_id", &last);
      m.start = static_cast<uint64_t>(rows.Int(1, "memory_start"));
      m.limit = static_cast<uint64_t>(rows.Int(2, "memory_limit"));
      m.offset = static_cast<uint64_t>(rows.Int(3, "file_offset"));
      m.file = rows.Text(4, "filename");
      m.build_id = rows.Text(5, "build_id");
      m.has_functions = rows.Flag(6, "has_functions");
      m.has_filenames = rows.Flag(7, "has_filenames");
      m.has_line_numbers = rows.Flag(8, "has_line_numbers");
      m.has_inline_frames = rows.Flag(9, "has_inline_frames");
      Define(&mapping_ids_, m.id);
      sink_->OnMapping(m);
    }
  }

  void ReadFunctions() {
    TableReader rows(db_, "functions",
                     "SELECT function_id, name, system_name, filename, start_line "
                     "FROM functions ORDER BY function_id");
    uint64_t last = 0;
    while (rows.Next()) {
      Function f;
      f.id = RowId(rows, "function_id", &last);
      f.name = rows.NonEmpty(1, "name");
      f.system_name = rows.Text(2, "system_name");
      f.file = rows.Text(3, "filename");
      f.start_line = rows.NonNegative(4, "start_line");
      Define(&function_ids_, f.id);
      sink_->OnFunction(f);
    }
  }

  // Locations and their inlined lines (location_lines) are read side by side, both in
  // location order.
  void ReadLocations() {
    TableReader rows(db_, "locations",
                     "SELECT location_id, function_id, line, column_number, mapping_id, "
                     "address, is_folded FROM locations ORDER BY location_id");
    TableReader lines(db_, "location_lines",
                      "SELECT location_id, position, function_id, line, column_number "
                      "FROM location_lines ORDER BY location_id, position");
    bool line_pending = lines.Next();
    uint64_t last = 0;
    Location l;
    while (rows.Next()) {
      l.id = RowId(rows, "location_id", &last);
      l.lines.clear();
      if (!rows.IsNull(1)) {
        l.lines.push_back(Line{FunctionRef(rows, 1), rows.NonNegative(2, "line"),
                               rows.NonNegative(3, "column_number")});
      } else if (!rows.IsNull(2) || !rows.IsNull(3)) {
        rows.Fail("a line without a function_id");
      }
      l.mapping_id = 0;
      if (!rows.IsNull(4)) {
        l.mapping_id = rows.Id(4, "mapping_id");
        if (!mapping_ids_.Contains(l.mapping_id)) {
          rows.Fail("mapping_id " + std::to_string(l.mapping_id) + " is not in table mappings");
        }
      }
      l.address = static_cast<uint64_t>(rows.Int(5, "address"));
      l.is_folded = rows.Flag(6, "is_folded");
      for (; line_pending; line_pending = lines.Next()) {
        lines.SetRow("");
        const uint64_t location = lines.Id(0, "location_id");
        const int64_t position = lines.Int(1, "position");
        lines.SetRow("location_id " + std::to_string(location) + ", position " +
                     std::to_string(position));
        if (location < l.id) lines.Fail("location_id is not in table locations");
        if (location > l.id) break;
        if (l.lines.empty()) lines.Fail("the location has no function_id of its own");
        if (position != static_cast<int64_t>(l.lines.size()) + 1) {
          lines.Fail("positions of a location run 2, 3, ... without a gap");
        }
        l.lines.push_back(Line{FunctionRef(lines, 2), lines.NonNegative(3, "line"),
                               lines.NonNegative(4, "column_number")});
      }
      Define(&location_ids_, l.id);
      sink_->OnLocation(l);
    }
    if (line_pending) lines.Fail("location_id is not in table locations");
  }

  uint64_t FunctionRef(TableReader& rows, int column) {
    const uint64_t id = rows.Id(column, "function_id");
    if (!function_ids_.Contains(id)) {
      rows.Fail("function_id " + std::to_string(id) + " is not in table functions");
    }
    return id;
  }

  void ReadStacks() {
    TableReader rows(db_, "stacks",
                     "SELECT stack_id, depth, location_id FROM stacks ORDER BY stack_id, depth");
    Stack stack;
    bool open = false;
    bool empty_marker = false;
    while (rows.Next()) {
      rows.SetRow("");
      const uint64_t id = rows.Id(0, "stack_id");
      const int64_t depth = rows.Int(1, "depth");
      rows.SetRow("stack_id " + std::to_string(id) + ", depth " + std::to_string(depth));
      if (!open || id != stack.id) {
        if (open) EndStack(rows, stack);
        stack.id = id;
        stack.location_ids.clear();
        open = true;
        empty_marker = false;
      }
      if (depth == 0) {
        if (!rows.IsNull(2)) rows.Fail("depth 0 (an empty stack) has a location_id");
        empty_marker = true;
        continue;
      }
      if (empty_marker) rows.Fail("an empty stack (depth 0) has locations");
      if (depth != static_cast<int64_t>(stack.location_ids.size()) + 1) {
        rows.Fail("depths of a stack run 1, 2, ... without a gap");
      }
      const uint64_t location = rows.Id(2, "location_id");
      if (!location_ids_.Contains(location)) {
        rows.Fail("location_id " + std::to_string(location) + " is not in table locations");
      }
      stack.location_ids.push_back(location);
    }
    if (open) EndStack(rows, stack);
  }

  void EndStack(TableReader& rows, const Stack& stack) {
    if (stack_ids_.Contains(stack.id)) rows.Fail("the stack is repeated");
    Define(&stack_ids_, stack.id);
    sink_->OnStack(stack);
  }

  // Samples, their values and their labels, three queries in sample order joined here.
  void ReadSamples() {
    TableReader rows(db_, "samples",
                     "SELECT sample_id, source_id, stack_id, time_nanos, duration_nanos "
                     "FROM samples ORDER BY sample_id");
    TableReader values(db_, "sample_values",
                       "SELECT sample_id, type, unit, value FROM sample_values "
                       "ORDER BY sample_id");
    TableReader labels(db_, "labels",
                       "SELECT sample_id, label_index, key, str, num, unit FROM labels "
                       "ORDER BY sample_id, label_index");
    bool value_pending = values.Next();
    bool label_pending = labels.Next();
    uint64_t last = 0;
    Sample s;
    std::vector<bool> seen(types_.size());
    while (rows.Next()) {
      const uint64_t id = RowId(rows, "sample_id", &last);
      s.source_id = rows.Id(1, "source_id");
      if (!source_ids_.Contains(s.source_id)) {
        rows.Fail("source_id " + std::to_string(s.source_id) + " is not in table sources");
      }
      s.stack_id = rows.Id(2, "stack_id");
      if (!stack_ids_.Contains(s.stack_id)) {
        rows.Fail("stack_id " + std::to_string(s.stack_id) + " is not in table stacks");
      }
      s.time_nanos = rows.OptionalNonNegative(3, "time_nanos");
      s.duration_nanos = rows.OptionalNonNegative(4, "duration_nanos");
      // A type with no row for this sample is 0: "not measured" counts as nothing.
      s.values.assign(types_.size(), 0);
      seen.assign(types_.size(), false);
      for (; value_pending; value_pending = values.Next()) {
        const uint64_t sample = SampleRef(values, id);
        if (sample > id) break;
        const std::string type = values.Text(1, "type");
        values.SetRow("sample_id " + std::to_string(sample) + ", type " + Printable(type));
        auto found = type_index_.find(type);
        if (found == type_index_.end()) values.Fail("the type is not in table sample_types");
        if (seen[found->second]) values.Fail("the type is repeated");
        seen[found->second] = true;
        if (values.Text(2, "unit") != types_[found->second].unit) {
          values.Fail("the unit is not the type's unit in table sample_types");
        }
        s.values[found->second] = values.Int(3, "value");
      }
      s.labels.clear();
      for (; label_pending; label_pending = labels.Next()) {
        const uint64_t sample = SampleRef(labels, id);
        if (sample > id) break;
        labels.SetRow("sample_id " + std::to_string(sample) + ", label_index " +
                      std::to_string(labels.Int(1, "label_index")));
        s.labels.push_back(ReadLabel(labels));
      }
      sink_->OnSample(s);
    }
    if (value_pending) SampleRef(values, UINT64_MAX);
    if (label_pending) SampleRef(labels, UINT64_MAX);
  }

  // The sample_id of a row of values or labels; fails when it names no sample (ids below the
  // current sample's have all been read).
  static uint64_t SampleRef(TableReader& rows, uint64_t current) {
    rows.SetRow("");
    const uint64_t sample = rows.Id(0, "sample_id");
    if (sample < current || current == UINT64_MAX) {
      rows.SetRow("sample_id " + std::to_string(sample));
      rows.Fail("sample_id is not in table samples");
    }
    return sample;
  }

  static Label ReadLabel(TableReader& labels) {
    Label label;
    label.key = labels.NonEmpty(2, "key");
    const bool has_str = !labels.IsNull(3);
    const bool has_num = !labels.IsNull(4);
    if (has_str == has_num) labels.Fail("a label has exactly one of str and num");
    if (has_str) {
      if (!labels.IsNull(5)) labels.Fail("a string label has no unit");
      label.str = labels.Text(3, "str");
      return label;
    }
    label.is_num = true;
    label.num = labels.Int(4, "num");
    if (!labels.IsNull(5)) label.unit = labels.NonEmpty(5, "unit");
    return label;
  }

  static void Define(IdMap* ids, uint64_t id) {
    uint64_t ignored;
    ids->Insert(id, 0, &ignored);
  }

  SqliteDb* db_;
  ProfileSink* sink_;
  std::vector<ValueType> types_;
  std::unordered_map<std::string, size_t> type_index_;
  uint64_t last_source_ = 0;
  IdMap source_ids_, mapping_ids_, function_ids_, location_ids_, stack_ids_;
};

}  // namespace

void ReadDatabase(SqliteDb* db, ProfileSink* sink) {
  db->Exec("BEGIN");  // one snapshot: a writer beside us cannot change what we read midway
  DatabaseReader(db, sink).Read();
  db->Exec("COMMIT");
}

}  // namespace proftools
