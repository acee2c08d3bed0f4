#include "common/sqlite/sqlite_writer.h"

#include <string>

#include "common/base/diagnostics.h"
#include "common/sqlite/sqlite_schema.h"

namespace proftools {

struct SqliteWriter::Statements {
  explicit Statements(SqliteDb* db)
      : mapping(db, "INSERT INTO mappings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        function(db, "INSERT INTO functions VALUES (?, ?, ?, ?, ?)"),
        location(db, "INSERT INTO locations VALUES (?, ?, ?, ?, ?, ?, ?)"),
        location_line(db, "INSERT INTO location_lines VALUES (?, ?, ?, ?, ?)"),
        stack(db, "INSERT INTO stacks VALUES (?, ?, ?)"),
        sample(db, "INSERT INTO samples VALUES (?, ?, ?, ?, ?)"),
        value(db, "INSERT INTO sample_values VALUES (?, ?, ?, ?)"),
        label(db, "INSERT INTO labels VALUES (?, ?, ?, ?, ?, ?)") {}
  SqliteStatement mapping, function, location, location_line, stack, sample, value, label;
};

namespace {

// Unsigned 64-bit numbers keep their bits in SQLite's signed integers.
int64_t Bits(uint64_t value) {
  return static_cast<int64_t>(value);
}

void InsertMeta(SqliteStatement& insert, const std::string& key, const std::string& value) {
  insert.BindText(1, key);
  insert.BindText(2, value);
  insert.Run();
}

}  // namespace

SqliteWriter::SqliteWriter(SqliteDb* db) : db_(db) {
  db_->Exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON;");
  db_->Exec("BEGIN");
  db_->Exec(kSqliteTables);
  db_->Exec(kSqliteViews);
  statements_ = std::make_unique<Statements>(db_);
}

SqliteWriter::~SqliteWriter() = default;

uint64_t SqliteWriter::Renumber(IdMap* map, uint64_t id) {
  const uint64_t to = map->size() + 1;
  uint64_t ignored;
  map->Insert(id, to, &ignored);
  return to;
}

uint64_t SqliteWriter::Find(const IdMap& map, uint64_t id) const {
  uint64_t to = 0;
  // Writers are fed checked profiles: an unknown id is a bug upstream.
  if (!map.Find(id, &to)) throw ProfError(db_->name(), "a record refers to an undefined id");
  return to;
}

void SqliteWriter::OnHeader(const ProfileHeader& header) {
  types_ = header.types;
  SqliteStatement meta(db_, "INSERT INTO meta VALUES (?, ?)");
  InsertMeta(meta, "version", kProfileModelVersion);
  InsertMeta(meta, "schema_version", std::to_string(kSqliteSchemaVersion));
  if (header.time_nanos) InsertMeta(meta, "time_nanos", std::to_string(*header.time_nanos));
  if (header.duration_nanos) {
    InsertMeta(meta, "duration_nanos", std::to_string(*header.duration_nanos));
  }
  if (header.period.IsSet()) {
    InsertMeta(meta, "period_type", header.period.type.type);
    InsertMeta(meta, "period_unit", header.period.type.unit);
    InsertMeta(meta, "period", std::to_string(header.period.value));
  }
  if (!header.doc_url.empty()) InsertMeta(meta, "doc_url", header.doc_url);
  if (!header.drop_frames.empty()) InsertMeta(meta, "drop_frames", header.drop_frames);
  if (!header.keep_frames.empty()) InsertMeta(meta, "keep_frames", header.keep_frames);
  if (!header.default_type.empty()) InsertMeta(meta, "default_type", header.default_type);

  SqliteStatement profile_meta(db_, "INSERT INTO profile_meta VALUES (?, ?)");
  for (const MetaEntry& entry : header.meta) InsertMeta(profile_meta, entry.key, entry.value);

  SqliteStatement comment(db_, "INSERT INTO comments VALUES (?, ?)");
  for (size_t i = 0; i < header.comments.size(); ++i) {
    comment.BindInt(1, static_cast<int64_t>(i + 1));
    comment.BindText(2, header.comments[i]);
    comment.Run();
  }
  // The seed's four columns, then the exact time: source_timestamp is seconds as the seed
  // has it (a stored column, so that any SQLite and R's introspection list it).
  SqliteStatement source(db_,
                         "INSERT INTO sources (source_id, source_type, source_uri, "
                         "source_timestamp, source_time_nanos) VALUES (?1, ?2, ?3, ?4 / 1e9, ?4)");
  for (size_t i = 0; i < header.sources.size(); ++i) {
    const Source& s = header.sources[i];
    uint64_t ignored;
    sources_.Insert(s.id, i + 1, &ignored);
    source.BindInt(1, static_cast<int64_t>(i + 1));
    source.BindText(2, s.type);
    source.BindText(3, s.uri);
    source.BindOptional(4, s.time_nanos);
    source.Run();
  }
  SqliteStatement type(db_, "INSERT INTO sample_types VALUES (?, ?, ?)");
  for (size_t i = 0; i < types_.size(); ++i) {
    type.BindInt(1, static_cast<int64_t>(i + 1));
    type.BindText(2, types_[i].type);
    type.BindText(3, types_[i].unit);
    type.Run();
  }
}

void SqliteWriter::OnMapping(const Mapping& m) {
  const uint64_t id = Renumber(&mappings_, m.id);
  SqliteStatement& insert = statements_->mapping;
  insert.BindInt(1, Bits(id));
  insert.BindInt(2, Bits(m.start));
  insert.BindInt(3, Bits(m.limit));
  insert.BindInt(4, Bits(m.offset));
  insert.BindText(5, m.file);
  insert.BindText(6, m.build_id);
  insert.BindInt(7, m.has_functions);
  insert.BindInt(8, m.has_filenames);
  insert.BindInt(9, m.has_line_numbers);
  insert.BindInt(10, m.has_inline_frames);
  insert.Run();
}

void SqliteWriter::OnFunction(const Function& f) {
  const uint64_t id = Renumber(&functions_, f.id);
  SqliteStatement& insert = statements_->function;
  insert.BindInt(1, Bits(id));
  insert.BindText(2, f.name);
  insert.BindText(3, f.system_name);
  insert.BindText(4, f.file);
  insert.BindInt(5, f.start_line);
  insert.Run();
}

void SqliteWriter::OnLocation(const Location& l) {
  const uint64_t id = Renumber(&locations_, l.id);
  SqliteStatement& insert = statements_->location;
  insert.BindInt(1, Bits(id));
  // The innermost line is the location's own (the seed's function_id and line); the functions
  // it was inlined into follow in location_lines.
  if (l.lines.empty()) {
    insert.BindNull(2);
    insert.BindNull(3);
    insert.BindNull(4);
  } else {
    insert.BindInt(2, Bits(Find(functions_, l.lines[0].function_id)));
    insert.BindInt(3, l.lines[0].line);
    insert.BindInt(4, l.lines[0].column);
  }
  if (l.mapping_id == 0) {
    insert.BindNull(5);
  } else {
    insert.BindInt(5, Bits(Find(mappings_, l.mapping_id)));
  }
  insert.BindInt(6, Bits(l.address));
  insert.BindInt(7, l.is_folded);
  insert.Run();
  SqliteStatement& line = statements_->location_line;
  for (size_t i = 1; i < l.lines.size(); ++i) {
    line.BindInt(1, Bits(id));
    line.BindInt(2, static_cast<int64_t>(i + 1));
    line.BindInt(3, Bits(Find(functions_, l.lines[i].function_id)));
    line.BindInt(4, l.lines[i].line);
    line.BindInt(5, l.lines[i].column);
    line.Run();
  }
}

void SqliteWriter::OnStack(const Stack& s) {
  const uint64_t id = Renumber(&stacks_, s.id);
  SqliteStatement& insert = statements_->stack;
  insert.BindInt(1, Bits(id));
  if (s.location_ids.empty()) {  // an empty stack is one row at depth 0
    insert.BindInt(2, 0);
    insert.BindNull(3);
    insert.Run();
  }
  for (size_t i = 0; i < s.location_ids.size(); ++i) {
    insert.BindInt(2, static_cast<int64_t>(i + 1));
    insert.BindInt(3, Bits(Find(locations_, s.location_ids[i])));
    insert.Run();
  }
}

void SqliteWriter::OnSample(const Sample& s) {
  const int64_t id = static_cast<int64_t>(++samples_);
  SqliteStatement& insert = statements_->sample;
  insert.BindInt(1, id);
  insert.BindInt(2, Bits(Find(sources_, s.source_id)));
  insert.BindInt(3, Bits(Find(stacks_, s.stack_id)));
  insert.BindOptional(4, s.time_nanos);
  insert.BindOptional(5, s.duration_nanos);
  insert.Run();
  SqliteStatement& value = statements_->value;
  for (size_t i = 0; i < s.values.size() && i < types_.size(); ++i) {
    value.BindInt(1, id);
    value.BindText(2, types_[i].type);
    value.BindText(3, types_[i].unit);
    value.BindInt(4, s.values[i]);
    value.Run();
  }
  SqliteStatement& label = statements_->label;
  for (size_t i = 0; i < s.labels.size(); ++i) {
    const Label& l = s.labels[i];
    label.BindInt(1, id);
    label.BindInt(2, static_cast<int64_t>(i + 1));
    label.BindText(3, l.key);
    if (l.is_num) {
      label.BindNull(4);
      label.BindInt(5, l.num);
    } else {
      label.BindText(4, l.str);
      label.BindNull(5);
    }
    l.is_num && !l.unit.empty() ? label.BindText(6, l.unit) : label.BindNull(6);
    label.Run();
  }
}

void SqliteWriter::OnEnd() {
  statements_.reset();
  db_->Exec("COMMIT");
}

}  // namespace proftools
