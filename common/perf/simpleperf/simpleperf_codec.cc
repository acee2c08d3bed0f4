// kSimpleperfReader: one source of type "simpleperf". Two passes over the mapped file:
// report-sample writes the files and threads after the samples that name them.
#include "common/perf/simpleperf/simpleperf_codec.h"

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/proto_wire.h"
#include "common/io/mapped_input.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"
#include "common/perf/perf_events.h"

namespace proftools {
namespace {

constexpr std::string_view kSimpleperfMagic = "SIMPLEPERF";
constexpr size_t kSimpleperfHeaderBytes = 12;  // the magic, a 16-bit version

// Record's fields.
enum SimpleperfRecordField : uint32_t {
  kSampleRecord = 1,
  kLostRecord = 2,
  kFileRecord = 3,
  kThreadRecord = 4,
  kMetaInfoRecord = 5,
  kContextSwitchRecord = 6,
};

struct SimpleperfFile {
  std::string path;
  std::vector<std::string> symbols, mangled;
  uint64_t mapping_id = 0;  // ours, once interned
};

struct SimpleperfThread {
  int64_t pid = 0;
  std::string name;
};

class SimpleperfReader {
 public:
  SimpleperfReader(std::string_view data, const Input& input, const ReadContext& context)
      : data_(data), name_(input.name), context_(context) {}

  void Read(ProfileSink* sink);

 private:
  [[noreturn]] void Fail(uint64_t byte, const std::string& message) const {
    throw ProfError(name_, "byte " + std::to_string(byte) + ": " + message);
  }
  // Calls each(record) for every Record message, in order.
  template <typename F>
  void ForEachRecord(F&& each);
  void Learn(const ProtoField& record);  // the first pass: files, threads, event types
  void ReadSample(const ProtoField& sample, Interner* interner, ProfileSink* sink);
  uint64_t LocationOf(uint32_t file_id, int64_t symbol_id, uint64_t vaddr, Interner* interner);
  std::vector<Label> Labels(int64_t tid) const;

  std::string_view data_;
  std::string name_;
  const ReadContext& context_;
  bool ended_ = false;  // the size-0 record that ends the file was there
  std::unordered_map<uint32_t, SimpleperfFile> files_;
  std::unordered_map<int64_t, SimpleperfThread> threads_;
  std::vector<std::string> event_types_;
  std::string app_package_;
  uint64_t lost_ = 0, recorded_ = 0, switches_ = 0;
  uint64_t undefined_files_ = 0, first_undefined_ = 0;
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> locations_;  // (file, vaddr) → ours
  std::unordered_map<int64_t, std::vector<Label>> labels_;
  Sample sample_;
};

template <typename F>
void SimpleperfReader::ForEachRecord(F&& each) {
  size_t at = kSimpleperfHeaderBytes;
  while (at < data_.size()) {
    if (data_.size() - at < 4) Fail(at, "a record size cut short by the end of the file");
    uint32_t size;
    std::memcpy(&size, data_.data() + at, 4);  // little-endian, as the format says
    if (size == 0) {
      ended_ = true;
      return;
    }
    if (size > data_.size() - at - 4) {
      Fail(at, "a record of " + std::to_string(size) + " bytes where " +
                   std::to_string(data_.size() - at - 4) + " are left (a file cut short?)");
    }
    ProtoReader record(data_.substr(at + 4, size), at + 4);
    ProtoField field;
    while (record.Next(&field)) each(field);
    at += 4 + size;
  }
}

void SimpleperfReader::Learn(const ProtoField& record) {
  if (record.type != WireType::kBytes) return;
  ProtoReader reader(record);
  ProtoField f;
  switch (record.number) {
    case kFileRecord: {
      uint32_t id = 0;
      SimpleperfFile file;
      while (reader.Next(&f)) {
        if (f.number == 1 && f.type == WireType::kVarint) id = static_cast<uint32_t>(f.value);
        if (f.type != WireType::kBytes) continue;
        if (f.number == 2) file.path = std::string(f.bytes);
        if (f.number == 3) file.symbols.emplace_back(f.bytes);
        if (f.number == 4) file.mangled.emplace_back(f.bytes);
      }
      files_[id] = std::move(file);
      break;
    }
    case kThreadRecord: {
      int64_t tid = 0;
      SimpleperfThread thread;
      while (reader.Next(&f)) {
        if (f.number == 1 && f.type == WireType::kVarint) tid = static_cast<uint32_t>(f.value);
        if (f.number == 2 && f.type == WireType::kVarint)
          thread.pid = static_cast<uint32_t>(f.value);
        if (f.number == 3 && f.type == WireType::kBytes) thread.name = std::string(f.bytes);
      }
      threads_[tid] = std::move(thread);
      break;
    }
    case kMetaInfoRecord:
      while (reader.Next(&f)) {
        if (f.type != WireType::kBytes) continue;
        if (f.number == 1) event_types_.emplace_back(f.bytes);
        if (f.number == 2) app_package_ = std::string(f.bytes);
      }
      break;
    case kLostRecord:
      while (reader.Next(&f)) {
        if (f.number == 1 && f.type == WireType::kVarint) recorded_ += f.value;
        if (f.number == 2 && f.type == WireType::kVarint) lost_ += f.value;
      }
      break;
    case kContextSwitchRecord:
      ++switches_;
      break;
    default:
      break;
  }
}

std::vector<Label> SimpleperfReader::Labels(int64_t tid) const {
  std::vector<Label> labels;
  const auto thread = threads_.find(tid);
  if (thread != threads_.end()) {
    labels.push_back(Label::Number(kPidLabel, thread->second.pid));
    // The process is named by its main thread (the thread whose id is the process's).
    const auto main = threads_.find(thread->second.pid);
    if (main != threads_.end() && !main->second.name.empty()) {
      labels.push_back(Label::String(kProcessLabel, main->second.name));
    }
  }
  labels.push_back(Label::Number(kTidLabel, tid));
  if (thread != threads_.end() && !thread->second.name.empty()) {
    labels.push_back(Label::String(kThreadLabel, thread->second.name));
  }
  return labels;
}

uint64_t SimpleperfReader::LocationOf(uint32_t file_id, int64_t symbol_id, uint64_t vaddr,
                                      Interner* interner) {
  const auto cached = locations_.find({file_id, vaddr});
  if (cached != locations_.end()) return cached->second;
  Location location;
  location.address = vaddr;
  const auto file = files_.find(file_id);
  if (file != files_.end()) {
    SimpleperfFile& f = file->second;
    if (f.mapping_id == 0) {
      Mapping mapping;  // addresses are the ELF's (vaddr_in_file): the mapping starts at 0
      mapping.file = f.path;
      mapping.has_functions = !f.symbols.empty();
      f.mapping_id = interner->Mapping(mapping);
    }
    location.mapping_id = f.mapping_id;
    // (An empty symbol is no name: the address alone, as for symbol_id -1.)
    if (symbol_id >= 0 && static_cast<uint64_t>(symbol_id) < f.symbols.size() &&
        !f.symbols[symbol_id].empty()) {
      Function function;
      function.name = f.symbols[symbol_id];
      if (static_cast<uint64_t>(symbol_id) < f.mangled.size() &&
          f.mangled[symbol_id] != function.name) {
        function.system_name = f.mangled[symbol_id];
      }
      location.lines.push_back(Line{interner->Function(function), 0, 0});
    }
  }
  const uint64_t id = interner->Location(location);
  locations_.emplace(std::make_pair(file_id, vaddr), id);
  return id;
}

void SimpleperfReader::ReadSample(const ProtoField& field, Interner* interner, ProfileSink* sink) {
  ProtoReader reader(field);
  ProtoField f;
  std::optional<int64_t> time;
  int64_t tid = 0, count = 0;
  uint64_t event = 0;
  std::vector<uint64_t> stack;  // leaf first, as report-sample writes the callchain
  while (reader.Next(&f)) {
    switch (f.number) {
      case 1:
        time = static_cast<int64_t>(std::min<uint64_t>(f.value, INT64_MAX));
        break;
      case 2:
        tid = static_cast<int32_t>(f.value);
        break;
      case 3: {
        if (f.type != WireType::kBytes) break;
        ProtoReader entry(f);
        ProtoField e;
        uint64_t vaddr = 0;
        uint32_t file_id = 0;
        int64_t symbol_id = -1;
        while (entry.Next(&e)) {
          if (e.type != WireType::kVarint) continue;
          if (e.number == 1) vaddr = e.value;
          if (e.number == 2) file_id = static_cast<uint32_t>(e.value);
          if (e.number == 3) symbol_id = static_cast<int32_t>(e.value);
        }
        if (files_.count(file_id) == 0 && undefined_files_++ == 0) first_undefined_ = f.offset;
        stack.push_back(LocationOf(file_id, symbol_id, vaddr, interner));
        break;
      }
      case 4:
        count = static_cast<int64_t>(std::min<uint64_t>(f.value, INT64_MAX));
        break;
      case 5:
        event = f.value;
        break;
      default:
        break;
    }
  }
  const size_t types = std::max<size_t>(event_types_.size(), 1);
  if (event >= types)
    Fail(field.offset, "a sample of event type " + std::to_string(event) +
                           ", where the meta info names " + std::to_string(event_types_.size()));
  sample_.stack_id = interner->Stack(stack);
  sample_.time_nanos = time;
  sample_.values.assign(2 * types, 0);
  sample_.values[2 * event] = 1;
  sample_.values[2 * event + 1] = count;
  auto labels = labels_.find(tid);
  if (labels == labels_.end()) labels = labels_.emplace(tid, Labels(tid)).first;
  sample_.labels = labels->second;
  sink->OnSample(sample_);
}

void SimpleperfReader::Read(ProfileSink* sink) {
  if (data_.size() < kSimpleperfHeaderBytes ||
      data_.substr(0, kSimpleperfMagic.size()) != kSimpleperfMagic) {
    Fail(0, "not simpleperf's report-sample protobuf (it starts with \"SIMPLEPERF\")");
  }
  uint16_t version;
  std::memcpy(&version, data_.data() + kSimpleperfMagic.size(), 2);
  if (version != 1) {
    Fail(kSimpleperfMagic.size(),
         "version " + std::to_string(version) + " (this reader reads report-sample's version 1)");
  }
  uint64_t samples = 0;
  try {
    ForEachRecord([&](const ProtoField& record) {
      if (record.number == kSampleRecord) {
        ++samples;
      } else {
        Learn(record);
      }
    });
  } catch (const ProtoWireError& e) {
    Fail(e.offset(), e.what());
  }
  if (samples == 0 && !context_.allow_empty) {
    throw ProfError(name_,
                    "simpleperf report-sample output without samples (--allow-empty reads it as a "
                    "profile without samples)");
  }
  ProfileHeader header;
  header.sources.push_back(Source{1, "simpleperf", context_.uri, std::nullopt});
  if (!app_package_.empty()) header.meta.push_back({"simpleperf.app_package_name", app_package_});
  // Per event, as perf2prof gives perf's: its samples, and its events (nanoseconds for the
  // clock events, whose counts are times).
  const std::vector<std::string> events =
      event_types_.empty() ? std::vector<std::string>{"event"} : event_types_;
  // (A type's name must be unique: an event named twice, or "x" beside "x_samples", is told
  // apart by a number.)
  std::set<std::string> names;
  const auto unique = [&](std::string name) {
    const std::string base = name;
    for (int n = 2; !names.insert(name).second; ++n) name = base + "#" + std::to_string(n);
    return name;
  };
  for (const std::string& named : events) {
    const std::string event = named.empty() ? "event" : named;  // a type needs a name
    const std::string_view base = SplitPerfEvent(event).base;
    const char* unit = base == "cpu-clock" || base == "task-clock" ? "nanoseconds" : "count";
    header.types.push_back({unique(event + "_samples"), "count"});
    header.types.push_back({unique(event), unit});
  }
  header.default_type = header.types[1].type;
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context_.max_implied_frames(), name_);
  sample_.source_id = 1;
  try {
    ForEachRecord([&](const ProtoField& record) {
      if (record.number == kSampleRecord && record.type == WireType::kBytes) {
        ReadSample(record, &interner, sink);
      }
    });
  } catch (const ProtoWireError& e) {
    Fail(e.offset(), e.what());
  }
  if (!ended_) {
    context_.Warn(name_, "the file ends without report-sample's closing record (cut short?)");
  }
  if (lost_ > 0) {
    context_.Warn(name_, "simpleperf lost " + std::to_string(lost_) + " of " +
                             std::to_string(recorded_ + lost_) +
                             " samples while recording (its LostSituation record)");
  }
  if (undefined_files_ > 0) {
    context_.Warn(name_, "byte " + std::to_string(first_undefined_) + ": " +
                             std::to_string(undefined_files_) +
                             " frame(s) of files the output does not describe: kept as addresses");
  }
  if (switches_ > 0) {
    context_.Warn(name_, std::to_string(switches_) +
                             " context switch records (--trace-offcpu) not read: samples only");
  }
  sink->OnEnd();
}

void ReadSimpleperfInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  MappedInput data(input, context.max_spool_size);
  SimpleperfReader reader(data.bytes(), input, context);
  reader.Read(sink);
}

}  // namespace

int SniffSimpleperf(std::string_view head, bool) {
  return head.size() >= kSimpleperfHeaderBytes &&
                 head.substr(0, kSimpleperfMagic.size()) == kSimpleperfMagic
             ? kCertain
             : kNotMine;
}

const ReaderSpec kSimpleperfReader = {
    "simpleperf",
    "simpleperf report-sample's protobuf output",
    ReaderShape::kTwoPasses,
    nullptr,
    SniffSimpleperf,
    ReadSimpleperfInput,
};

}  // namespace proftools
