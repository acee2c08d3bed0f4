#include "common/sqlite/rsprof_writer.h"

#include <cstdio>
#include <ctime>
#include <set>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/units.h"
#include "common/model/producer_kit.h"
#include "common/sqlite/rsprof_reader.h"

namespace proftools {
namespace {

// rsprof's schema, as its storage design gives it (section 7.3).
constexpr const char* kRsprofSchema = R"(
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    timestamp_ms INTEGER NOT NULL  -- offset from start_time
);
CREATE TABLE symbols (
    addr INTEGER PRIMARY KEY,
    file TEXT,
    line INTEGER,
    function TEXT
);
CREATE TABLE cpu_samples (
    checkpoint_id INTEGER NOT NULL,
    addr INTEGER NOT NULL,
    count INTEGER NOT NULL,
    FOREIGN KEY (checkpoint_id) REFERENCES checkpoints(id),
    FOREIGN KEY (addr) REFERENCES symbols(addr)
);
CREATE INDEX idx_cpu_checkpoint ON cpu_samples(checkpoint_id);
CREATE INDEX idx_cpu_addr ON cpu_samples(addr);
CREATE TABLE heap_events (
    checkpoint_id INTEGER NOT NULL,
    addr INTEGER NOT NULL,
    alloc_bytes INTEGER NOT NULL DEFAULT 0,
    free_bytes INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (checkpoint_id) REFERENCES checkpoints(id),
    FOREIGN KEY (addr) REFERENCES symbols(addr)
);
CREATE INDEX idx_heap_checkpoint ON heap_events(checkpoint_id);
CREATE INDEX idx_heap_addr ON heap_events(addr);
)";

constexpr const char* kRsprofMetaPrefix = "rsprof.";

// Nanoseconds since the epoch as rsprof's start_time: "2025-01-06T14:30:22Z", with the
// fraction of a second when there is one.
std::string IsoTime(int64_t nanos) {
  std::tm tm{};
  if (!UtcCalendarTime(nanos, &tm)) return "";
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string result = text;
  const int64_t fraction = ((nanos % 1000000000) + 1000000000) % 1000000000;
  if (fraction != 0) {
    char digits[16];
    std::snprintf(digits, sizeof digits, ".%09lld", static_cast<long long>(fraction));
    std::string tail = digits;
    while (tail.back() == '0') tail.pop_back();
    result += tail;
  }
  return result + "Z";
}

}  // namespace

RsprofWriter::RsprofWriter(SqliteDb* db, int64_t checkpoint_millis,
                           std::function<void(const std::string&)> warn)
    : db_(db), checkpoint_millis_(checkpoint_millis), warn_(std::move(warn)) {}

void RsprofWriter::OnHeader(const ProfileHeader& header) {
  header_ = header;
  start_nanos_ = header.time_nanos;
  // rsprof's start_time is the recording's start: the profile's time, else its source's.
  start_time_ = header.time_nanos;
  if (!start_time_ && header.sources.size() == 1) start_time_ = header.sources[0].time_nanos;
  for (size_t i = 0; i < header.types.size(); ++i) {
    const ValueType& type = header.types[i];
    if (type.type == "samples" && type.unit == "count") cpu_type_ = static_cast<int>(i);
    if (type.type == "alloc_space" && type.unit == "bytes") alloc_type_ = static_cast<int>(i);
    if (type.type == "free_space" && type.unit == "bytes") free_type_ = static_cast<int>(i);
  }
  if (cpu_type_ < 0) {
    for (size_t i = 0; i < header.types.size() && cpu_type_ < 0; ++i) {
      if (header.types[i].unit == "count") cpu_type_ = static_cast<int>(i);
    }
  }
  std::string dropped;
  for (size_t i = 0; i < header.types.size(); ++i) {
    const int index = static_cast<int>(i);
    if (index != cpu_type_ && index != alloc_type_ && index != free_type_) {
      dropped += (dropped.empty() ? "" : ", ") + header.types[i].type + "/" + header.types[i].unit;
    }
  }
  if (!dropped.empty()) {
    warn_("rsprof's layout has sample counts and allocated and freed bytes only: the types " +
          dropped + " are not written");
  }
}

void RsprofWriter::OnMapping(const Mapping& mapping) {
  if (exe_path_.empty()) exe_path_ = mapping.file;
  mapping_files_[mapping.id] = mapping.file;
}

void RsprofWriter::OnFunction(const Function& function) {
  functions_[function.id] = {function.name, function.file};
}

void RsprofWriter::OnLocation(const Location& location) {
  Symbol symbol;
  if (!location.lines.empty()) {
    const Line& innermost = location.lines.front();
    const auto function = functions_.find(innermost.function_id);
    if (function != functions_.end()) {
      symbol.function = function->second.first;
      if (!function->second.second.empty()) symbol.file = function->second.second;
    }
    if (innermost.line != 0) symbol.line = innermost.line;
  } else if (location.mapping_id != 0) {
    // An unsymbolised address: its binary is the file, as rsprof's resolver would know it.
    const auto mapping = mapping_files_.find(location.mapping_id);
    if (mapping != mapping_files_.end() && !mapping->second.empty()) symbol.file = mapping->second;
  }
  const int64_t addr = AddressFor(location, symbol);
  symbol.addr = addr;
  location_addrs_[location.id] = addr;
  symbols_.emplace(addr, std::move(symbol));
}

int64_t RsprofWriter::AddressFor(const Location& location, const Symbol& symbol) {
  const int64_t address = static_cast<int64_t>(location.address);
  if (location.address != 0) {
    const auto known = symbols_.find(address);
    if (known == symbols_.end()) return address;
    const Symbol& other = known->second;
    if (other.file == symbol.file && other.function == symbol.function &&
        other.line == symbol.line) {
      return address;
    }
  }
  while (symbols_.count(next_synthetic_) != 0) --next_synthetic_;
  return next_synthetic_--;
}

void RsprofWriter::OnStack(const Stack& stack) {
  if (stack.location_ids.size() > 1) cut_stacks_ = true;
  if (stack.location_ids.empty()) return;
  const auto leaf = location_addrs_.find(stack.location_ids.front());
  if (leaf != location_addrs_.end()) stack_addrs_[stack.id] = leaf->second;
}

void RsprofWriter::OnSample(const Sample& sample) {
  if (!any_sample_) {
    any_sample_ = true;
    first_labels_ = sample.labels;
    if (!start_nanos_) start_nanos_ = sample.time_nanos;
  }
  const auto addr = stack_addrs_.find(sample.stack_id);
  if (addr == stack_addrs_.end()) return;  // the empty stack: no address to count at
  int64_t checkpoint = 1;
  if (sample.time_nanos && start_nanos_ && *sample.time_nanos > *start_nanos_) {
    const int64_t offset_millis = (*sample.time_nanos - *start_nanos_) / 1000000;
    checkpoint = offset_millis / checkpoint_millis_ + 1;
  }
  Sums& sums = sums_[{checkpoint, addr->second}];
  const auto value = [&](int type) { return type < 0 ? 0 : sample.values[type]; };
  AddSaturating(&sums.count, value(cpu_type_));
  AddSaturating(&sums.alloc, value(alloc_type_));
  AddSaturating(&sums.free, value(free_type_));
}

void RsprofWriter::OnEnd() {
  if (cut_stacks_) {
    warn_("rsprof's layout keeps the sampled address only: stacks are cut to their leaf frame");
  }
  db_->Exec("PRAGMA journal_mode = OFF");
  db_->Exec("PRAGMA synchronous = OFF");
  db_->Exec("BEGIN");
  db_->Exec(kRsprofSchema);

  // meta: an rsprof recording's own keys first, then what the profile says.
  std::map<std::string, std::string> meta;
  for (const MetaEntry& entry : header_.meta) {
    if (entry.key.compare(0, 7, kRsprofMetaPrefix) == 0 && entry.key.size() > 7) {
      meta[entry.key.substr(7)] = entry.value;
    }
  }
  meta["version"] = std::to_string(kRsprofSchemaVersion);
  meta["checkpoint_interval_ms"] = std::to_string(checkpoint_millis_);
  if (start_time_ && meta.count("start_time") == 0) meta["start_time"] = IsoTime(*start_time_);
  if (header_.period.type.type == "cpu" && header_.period.type.unit == "nanoseconds" &&
      header_.period.value > 0) {
    meta["cpu_freq_hz"] =
        std::to_string((1000000000 + header_.period.value / 2) / header_.period.value);
  }
  for (const Label& label : first_labels_) {
    if (label.key == kPidLabel && meta.count("pid") == 0) {
      if (const std::optional<int64_t> pid = LabelNumber(label)) {
        meta["pid"] = std::to_string(*pid);
      }
    }
    if (label.key == kCommLabel && !label.is_num && meta.count("process_name") == 0) {
      meta["process_name"] = label.str;
    }
  }
  if (!exe_path_.empty() && meta.count("exe_path") == 0) meta["exe_path"] = exe_path_;
  {
    SqliteStatement insert(db_, "INSERT INTO meta (key, value) VALUES (?, ?)");
    for (const auto& [key, value] : meta) {
      insert.BindText(1, key);
      insert.BindText(2, value);
      insert.Run();
    }
  }
  // Every checkpoint up to the last with samples, as rsprof flushes one each interval.
  const int64_t last = sums_.empty() ? 0 : sums_.rbegin()->first.first;
  {
    SqliteStatement insert(db_, "INSERT INTO checkpoints (id, timestamp_ms) VALUES (?, ?)");
    for (int64_t id = 1; id <= last; ++id) {
      insert.BindInt(1, id);
      insert.BindInt(2, id > INT64_MAX / checkpoint_millis_ ? INT64_MAX : id * checkpoint_millis_);
      insert.Run();
    }
  }
  std::set<int64_t> used;
  {
    SqliteStatement cpu(db_,
                        "INSERT INTO cpu_samples (checkpoint_id, addr, count) VALUES (?, ?, ?)");
    SqliteStatement heap(db_,
                         "INSERT INTO heap_events (checkpoint_id, addr, alloc_bytes, free_bytes) "
                         "VALUES (?, ?, ?, ?)");
    for (const auto& [key, sums] : sums_) {
      if (cpu_type_ >= 0 && sums.count != 0) {
        cpu.BindInt(1, key.first);
        cpu.BindInt(2, key.second);
        cpu.BindInt(3, sums.count);
        cpu.Run();
        used.insert(key.second);
      }
      if ((alloc_type_ >= 0 || free_type_ >= 0) && (sums.alloc != 0 || sums.free != 0)) {
        heap.BindInt(1, key.first);
        heap.BindInt(2, key.second);
        heap.BindInt(3, sums.alloc);
        heap.BindInt(4, sums.free);
        heap.Run();
        used.insert(key.second);
      }
    }
  }
  {
    SqliteStatement insert(db_,
                           "INSERT INTO symbols (addr, file, line, function) VALUES (?, ?, ?, ?)");
    for (const int64_t addr : used) {
      const Symbol& symbol = symbols_.at(addr);
      insert.BindInt(1, addr);
      symbol.file ? insert.BindText(2, *symbol.file) : insert.BindNull(2);
      insert.BindOptional(3, symbol.line);
      symbol.function ? insert.BindText(4, *symbol.function) : insert.BindNull(4);
      insert.Run();
    }
  }
  db_->Exec("COMMIT");
}

}  // namespace proftools
