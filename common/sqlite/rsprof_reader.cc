#include "common/sqlite/rsprof_reader.h"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/model/producer_kit.h"
#include "common/sqlite/table_reader.h"

namespace proftools {
namespace {

constexpr const char* kRsprof = "rsprof";
constexpr int64_t kNanosPerMilli = 1000000;

// "2025-01-06T14:30:22Z", with optional fractions of a second and a "+hh:mm"/"-hh:mm" offset
// instead of Z (ISO 8601 as rsprof writes start_time), as nanoseconds since the epoch.
std::optional<int64_t> ParseIsoTime(const std::string& text) {
  int year, month, day, hour, minute, second;
  int used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute,
                  &second, &used) != 6 ||
      used != 19) {
    return std::nullopt;
  }
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
      second > 60) {
    return std::nullopt;
  }
  size_t at = 19;
  int64_t fraction = 0;
  if (at < text.size() && text[at] == '.') {
    int64_t scale = 100000000;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      fraction += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  int64_t offset_seconds = 0;
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else if (at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && text[at + 3] == ':') {
    int oh = 0, om = 0;
    if (std::sscanf(text.c_str() + at + 1, "%2d:%2d", &oh, &om) != 2 || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset_seconds = (text[at] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const int64_t seconds = static_cast<int64_t>(timegm(&tm)) - offset_seconds;
  if (seconds < 0 || seconds >= 9200000000) return std::nullopt;  // to 2262, as int64 nanos
  return seconds * 1000000000 + fraction;
}

class RsprofReader {
 public:
  RsprofReader(SqliteDb* db, const ReadContext& context, ProfileSink* sink)
      : db_(db), context_(context), sink_(sink) {}

  void Read() {
    for (const char* table : {"meta", "checkpoints", "symbols", "cpu_samples"}) {
      RequirePlainTable(db_, table);
    }
    with_heap_ = db_->HasTable("heap_events");
    if (with_heap_) RequirePlainTable(db_, "heap_events");
    ReadMeta();
    ReadCheckpoints();
    const bool cpu_rows = HasRows("cpu_samples");
    const bool heap_rows = with_heap_ && HasRows("heap_events");
    if (!cpu_rows && !heap_rows && !context_.allow_empty) {
      throw ProfError(db_->name(),
                      "an rsprof database without samples: tables cpu_samples and heap_events "
                      "are empty (--allow-empty reads it as a profile without samples)");
    }
    WriteHeader(cpu_rows || !heap_rows, heap_rows);
    ReadSymbols();
    if (cpu_rows) ReadCpuSamples();
    if (heap_rows) ReadHeapEvents();
    sink_->OnEnd();
  }

 private:
  bool HasRows(const char* table) {
    TableReader rows(db_, table, std::string("SELECT 1 FROM ") + table + " LIMIT 1", kRsprof);
    return rows.Next();
  }

  void ReadMeta() {
    TableReader meta(db_, "meta", "SELECT key, value FROM meta ORDER BY key", kRsprof);
    std::optional<std::string> version;
    while (meta.Next()) {
      const std::string key = meta.NonEmpty(0, "key");
      meta.SetRow("key " + Printable(key));
      if (!meta_.empty() && meta_.back().key == "rsprof." + key) meta.Fail("a repeated key");
      const std::string value = meta.Text(1, "value");
      meta_.push_back({"rsprof." + key, value});
      if (key == "version") {
        version = value;
      } else if (key == "start_time") {
        start_nanos_ = ParseIsoTime(value);
        if (!start_nanos_) {
          context_.Warn(db_->name(), "table meta, row key 'start_time': " + Printable(value) +
                                         " is not an ISO 8601 time (2025-01-06T14:30:22Z): the "
                                         "samples have no times");
        }
      } else if (key == "cpu_freq_hz") {
        const std::optional<int64_t> hz = ParseInt(value);
        if (hz && *hz > 0) {
          period_nanos_ = (1000000000 + *hz / 2) / *hz;
        } else {
          context_.Warn(db_->name(), "table meta, row key 'cpu_freq_hz': " + Printable(value) +
                                         " is not a frequency (a positive integer): no period");
        }
      } else if (key == "process_name") {
        if (!value.empty()) labels_.push_back(Label::String(kCommLabel, value));
      } else if (key == "pid") {
        const std::optional<int64_t> pid = ParseInt(value);
        if (pid && *pid >= 0) labels_.push_back(Label::Number(kPidLabel, *pid));
      }
    }
    meta.SetRow("");
    if (!version) meta.Fail("no row 'version' (rsprof writes one)");
    const std::optional<int64_t> number = ParseInt(*version);
    meta.SetRow("key 'version'");
    if (!number || *number < 1) meta.Fail(Printable(*version) + " is not a schema version");
    if (*number > kRsprofSchemaVersion) {
      throw ProfError(db_->name(), "rsprof schema version " + std::to_string(*number) +
                                       " is newer than this program reads (" +
                                       std::to_string(kRsprofSchemaVersion) +
                                       "); upgrade proftools");
    }
  }

  // Each checkpoint's interval: from the checkpoint before it in time (the first: from the
  // start of the recording) to its own timestamp_ms.
  void ReadCheckpoints() {
    TableReader rows(db_, "checkpoints",
                     "SELECT id, timestamp_ms FROM checkpoints ORDER BY timestamp_ms, id", kRsprof);
    int64_t previous = 0;
    // The bound keeps start + milliseconds within int64 nanoseconds.
    const int64_t max_millis =
        (std::numeric_limits<int64_t>::max() - start_nanos_.value_or(0)) / kNanosPerMilli;
    while (rows.Next()) {
      const int64_t id = rows.Int(0, "id");
      rows.SetRow("id " + std::to_string(id));
      const int64_t millis = rows.NonNegative(1, "timestamp_ms");
      if (millis > max_millis) rows.Fail("timestamp_ms is past the year 2262");
      checkpoints_[id] = Interval{previous, millis};
      previous = millis;
      end_millis_ = millis;
    }
  }

  void WriteHeader(bool cpu, bool heap) {
    ProfileHeader header;
    header.meta = meta_;
    header.sources.push_back(Source{1, kRsprof, context_.uri, start_nanos_});
    header.time_nanos = start_nanos_;
    if (start_nanos_ && !checkpoints_.empty()) header.duration_nanos = end_millis_ * kNanosPerMilli;
    if (cpu) {
      cpu_index_ = header.types.size();
      header.types.push_back({"samples", "count"});
      header.default_type = "samples";
      if (period_nanos_ != 0) header.period = Period{{"cpu", "nanoseconds"}, period_nanos_};
    }
    if (heap) {
      heap_index_ = header.types.size();
      header.types.push_back({"alloc_space", "bytes"});
      header.types.push_back({"free_space", "bytes"});
    }
    type_count_ = header.types.size();
    sink_->OnHeader(header);
  }

  void ReadSymbols() {
    TableReader rows(db_, "symbols", "SELECT addr, file, line, function FROM symbols ORDER BY addr",
                     kRsprof);
    while (rows.Next()) {
      const uint64_t address = static_cast<uint64_t>(rows.Int(0, "addr"));
      rows.SetRow("addr " + Hex(address));
      const std::string file = rows.IsNull(1) ? "" : rows.Text(1, "file");
      const int64_t line = rows.OptionalNonNegative(2, "line").value_or(0);
      const std::string function = rows.IsNull(3) ? "" : rows.Text(3, "function");
      Location location;
      location.id = locations_.size() + 1;
      location.address = address;
      if (!function.empty()) {
        auto [it, added] = functions_.try_emplace(function + '\0' + file, functions_.size() + 1);
        if (added) sink_->OnFunction(Function{it->second, function, function, file, 0});
        location.lines.push_back(Line{it->second, line, 0});
      }
      locations_[address] = location.id;
      sink_->OnLocation(location);
      sink_->OnStack(Stack{location.id, {location.id}});
    }
  }

  void ReadCpuSamples() {
    TableReader rows(db_, "cpu_samples",
                     "SELECT checkpoint_id, addr, count, rowid FROM cpu_samples ORDER BY rowid",
                     kRsprof);
    while (rows.Next()) {
      rows.SetRow("rowid " + std::to_string(rows.Int(3, "rowid")));
      Sample sample = SampleAt(rows);
      sample.values[cpu_index_] = rows.NonNegative(2, "count");
      sink_->OnSample(sample);
    }
  }

  void ReadHeapEvents() {
    TableReader rows(db_, "heap_events",
                     "SELECT checkpoint_id, addr, alloc_bytes, free_bytes, rowid FROM heap_events "
                     "ORDER BY rowid",
                     kRsprof);
    while (rows.Next()) {
      rows.SetRow("rowid " + std::to_string(rows.Int(4, "rowid")));
      Sample sample = SampleAt(rows);
      sample.values[heap_index_] = rows.NonNegative(2, "alloc_bytes");
      sample.values[heap_index_ + 1] = rows.NonNegative(3, "free_bytes");
      sink_->OnSample(sample);
    }
  }

  // A sample of the row's checkpoint (column 0) and address (column 1), its values zero.
  Sample SampleAt(TableReader& rows) {
    const int64_t checkpoint = rows.Int(0, "checkpoint_id");
    const auto interval = checkpoints_.find(checkpoint);
    if (interval == checkpoints_.end()) {
      rows.Fail("checkpoint_id " + std::to_string(checkpoint) + " is not in table checkpoints");
    }
    const uint64_t address = static_cast<uint64_t>(rows.Int(1, "addr"));
    const auto location = locations_.find(address);
    if (location == locations_.end()) {
      rows.Fail("addr " + Hex(address) + " is not in table symbols");
    }
    Sample sample;
    sample.source_id = 1;
    sample.stack_id = location->second;
    if (start_nanos_) {
      sample.time_nanos = *start_nanos_ + interval->second.start_millis * kNanosPerMilli;
      sample.duration_nanos =
          (interval->second.end_millis - interval->second.start_millis) * kNanosPerMilli;
    }
    sample.values.assign(type_count_, 0);
    sample.labels = labels_;
    sample.labels_id = 1;
    return sample;
  }

  static std::string Hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
  }

  struct Interval {
    int64_t start_millis = 0;
    int64_t end_millis = 0;
  };

  SqliteDb* db_;
  const ReadContext& context_;
  ProfileSink* sink_;
  bool with_heap_ = false;
  std::vector<MetaEntry> meta_;
  std::optional<int64_t> start_nanos_;
  int64_t period_nanos_ = 0;
  std::vector<Label> labels_;
  std::unordered_map<int64_t, Interval> checkpoints_;
  int64_t end_millis_ = 0;
  std::unordered_map<std::string, uint64_t> functions_;  // by name '\0' file
  std::unordered_map<uint64_t, uint64_t> locations_;     // by address
  size_t cpu_index_ = 0;
  size_t heap_index_ = 0;
  size_t type_count_ = 0;
};

}  // namespace

bool IsRsprofDatabase(SqliteDb* db) {
  return db->HasTable("checkpoints") && db->HasTable("cpu_samples") && db->HasTable("symbols");
}

void ReadRsprofDatabase(SqliteDb* db, const ReadContext& context, ProfileSink* sink) {
  RsprofReader(db, context, sink).Read();
}

}  // namespace proftools
