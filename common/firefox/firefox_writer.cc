#include "common/firefox/firefox_writer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"
#include "common/base/flat_index.h"
#include "common/base/json_string.h"
#include "common/base/quantity.h"
#include "common/model/producer_kit.h"
#include "common/model/writer_kit.h"

namespace proftools {
namespace {

constexpr int64_t kDefaultIntervalNanos = 1000000;  // 1 ms, when nothing says the interval

enum class WeightKind { kSamples, kTracingMs, kBytes };

// Nanoseconds as milliseconds, exactly: "1234.5" for 1234500000.
void AppendMillis(std::string* out, int64_t nanos) {
  const uint64_t magnitude =
      nanos < 0 ? uint64_t{0} - static_cast<uint64_t>(nanos) : static_cast<uint64_t>(nanos);
  if (nanos < 0) out->push_back('-');
  *out += std::to_string(magnitude / 1000000);
  uint64_t fraction = magnitude % 1000000;
  if (fraction == 0) return;
  char digits[6];
  for (int i = 5; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + fraction % 10);
    fraction /= 10;
  }
  size_t length = 6;
  while (digits[length - 1] == '0') --length;
  out->push_back('.');
  out->append(digits, length);
}

// Pairs of ids as keys of hash maps.
struct PairHash {
  template <typename A, typename B>
  size_t operator()(const std::pair<A, B>& p) const {
    // Mixed so that the high bits count too (libstdc++ takes the hash modulo a prime).
    uint64_t h = (static_cast<uint64_t>(p.first) + 1) * 0x9E3779B97F4A7C15ULL;
    h ^= static_cast<uint64_t>(p.second) * 0xC2B2AE3D27D4EB4FULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

// A column of a table being built: its JSON text, cell after cell.
class Column {
 public:
  void Add(const std::string& cell) { Add(std::string_view(cell)); }
  void Add(std::string_view cell) {
    text_ += empty_ ? "" : ",";
    text_ += cell;
    empty_ = false;
  }
  void Add(int64_t cell) { Add(std::to_string(cell)); }
  void Null() { Add(std::string_view("null")); }
  void Bool(bool cell) { Add(std::string_view(cell ? "true" : "false")); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  bool empty_ = true;
};

void AppendColumn(std::string* out, const char* name, const Column& column) {
  *out += '"';
  *out += name;
  *out += "\":[";
  *out += column.text();
  *out += "],";
}

// The sink that writes the processed profile (see firefox_writer.h).
class FirefoxWriter : public ProfileSink {
 public:
  // `value`: the type that weighs the samples ("": the default type). `warn`: what the format
  // cannot keep, named after the profile.
  FirefoxWriter(ByteSink* out, std::string value, WriterWarnings warn)
      : output_(out), value_(std::move(value)), warn_(std::move(warn)) {}

  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override { mappings_[mapping.id] = mapping; }
  void OnFunction(const Function& function) override { functions_[function.id] = function; }
  void OnLocation(const Location& location) override { locations_[location.id] = location; }
  void OnStack(const Stack& stack) override { stacks_[stack.id] = stack.location_ids; }
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

 private:
  struct Row {
    uint64_t stack = 0;
    int64_t time = 0;
    int64_t duration = 0;  // 0: none
    int64_t weight = 0;
    int64_t cpu = 0;  // microseconds
    bool timed = false;
  };
  struct Thread {
    uint64_t source = 0;
    std::string pid;             // the profiler's pids are strings
    std::optional<int64_t> tid;  // else made up
    std::string name, process;
    std::vector<Row> rows;
  };
  // A thread's tables, built while its samples are written.
  struct Tables {
    std::vector<std::string> strings;
    std::unordered_map<std::string, int64_t> string_index;
    Column func_name, func_js, func_relevant, func_resource, func_file, func_line, func_column;
    int64_t funcs = 0;
    std::unordered_map<std::pair<uint64_t, size_t>, int64_t, PairHash>
        func_index;  // (function or location, kind)
    Column frame_address, frame_inline, frame_category, frame_subcategory, frame_func, frame_symbol,
        frame_window, frame_implementation, frame_line, frame_column;
    int64_t frames = 0;
    // A location's frames, one per line (-1: not made yet), from location_slots[location id].
    FlatIndex location_slots;
    std::vector<int64_t> location_frames;
    std::vector<uint32_t> location_lines;  // at a location's first slot: its number of lines
    Column stack_frame, stack_prefix, stack_category, stack_subcategory;
    int64_t stacks_count = 0;
    // (prefix + 1) << 32 | frame -> stack: an open-addressing table, since every frame of every
    // distinct stack is looked up here.
    FlatIndex stack_index;
    std::unordered_map<uint64_t, int64_t> sample_stack;  // model stack -> its index
    Column resource_lib, resource_name, resource_host, resource_type;
    int64_t resources = 0;
    std::unordered_map<int64_t, int64_t> resource_of_lib;
  };

  Thread& ThreadFor(const Sample& sample);
  int64_t String(Tables& t, const std::string& text);
  int64_t LibOf(uint64_t mapping_id);
  int64_t ResourceOf(Tables& t, int64_t lib);
  // The frame's address in the profiler's terms: relative to its library; -1 for none.
  int64_t RelativeAddress(const Location& location) const;
  int64_t FuncOf(Tables& t, const Location& location, size_t line);
  int64_t FrameOf(Tables& t, const Location& location, size_t line, int64_t depth);
  int64_t StackOf(Tables& t, uint64_t stack_id);
  void WriteThread(Thread& thread, bool main);

  BufferedOutput output_;
  std::string& buffer_ = output_.buffer();  // flushed to the output in blocks
  std::string value_;
  WriterWarnings warn_;
  ProfileHeader header_;
  int weight_index_ = -1;  // -1: each sample weighs 1
  int64_t weight_factor_ = 1;
  WeightKind weight_kind_ = WeightKind::kSamples;
  int cpu_index_ = -1;
  int64_t cpu_factor_ = 1;
  int64_t period_nanos_ = 0;
  int64_t start_ = 0;  // meta.startTime: times are written from it

  std::unordered_map<uint64_t, Mapping> mappings_;
  std::unordered_map<uint64_t, Function> functions_;
  std::unordered_map<uint64_t, Location> locations_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> stacks_;
  std::map<std::string, size_t> thread_index_;
  std::vector<Thread> threads_;
  std::vector<uint64_t> libs_;  // mapping ids, in order of first use
  std::unordered_map<uint64_t, int64_t> lib_index_;

  uint64_t untimed_ = 0, reordered_ = 0, negative_ = 0, labelled_ = 0, inexact_ = 0;
};

void FirefoxWriter::OnHeader(const ProfileHeader& header) {
  header_ = header;
  weight_index_ = ValueTypeIndex(header, value_);
  if (weight_index_ >= 0) {
    switch (UnitKindOf(header.types[weight_index_].unit, &weight_factor_)) {
      case UnitKind::kTime:
        weight_kind_ = WeightKind::kTracingMs;
        break;
      case UnitKind::kBytes:
        weight_kind_ = WeightKind::kBytes;
        break;
      case UnitKind::kNone:
        weight_kind_ = WeightKind::kSamples;
        weight_factor_ = 1;
        break;
    }
  }
  for (size_t i = 0; i < header.types.size(); ++i) {
    int64_t factor = 1;
    if (static_cast<int>(i) != weight_index_ && header.types[i].type == "cpu" &&
        UnitKindOf(header.types[i].unit, &factor) == UnitKind::kTime) {
      cpu_index_ = static_cast<int>(i);
      cpu_factor_ = factor;
      break;
    }
  }
  int64_t factor = 1;
  if (header.period.value > 0 && UnitKindOf(header.period.type.unit, &factor) == UnitKind::kTime) {
    period_nanos_ = ScaleRounded(header.period.value, factor, 1);
  }
}

FirefoxWriter::Thread& FirefoxWriter::ThreadFor(const Sample& sample) {
  const ThreadLabels labels = ThreadLabelsOf(sample);
  const std::optional<int64_t>& pid = labels.pid;
  const std::optional<int64_t>& tid = labels.tid;
  const std::string *thread = labels.thread, *comm = labels.comm, *process = labels.process;
  // (The firefox reader's category label too: a frame's in the format, not a label.)
  if (labels.others) ++labelled_;
  const auto inserted = thread_index_.emplace(ThreadKey(sample.source_id, labels), threads_.size());
  if (!inserted.second) return threads_[inserted.first->second];
  Thread created;
  created.source = sample.source_id;
  // A process without a pid is its source's: a pid the reader does not take for a number.
  created.pid = pid ? std::to_string(*pid) : "source " + std::to_string(sample.source_id);
  created.tid = tid;
  created.name = thread ? *thread : comm ? *comm : tid ? "thread " + std::to_string(*tid) : "";
  if (process != nullptr) {
    created.process = *process;
  } else if (comm != nullptr) {
    created.process = *comm;
  }
  if (created.name.empty()) {
    const Source* source = header_.FindSource(sample.source_id);
    created.name = source == nullptr      ? "samples"
                   : !source->uri.empty() ? Basename(source->uri)
                                          : source->type;
  }
  threads_.push_back(std::move(created));
  return threads_.back();
}

void FirefoxWriter::OnSample(const Sample& sample) {
  Thread& thread = ThreadFor(sample);
  Row row;
  row.stack = sample.stack_id;
  row.timed = sample.time_nanos.has_value();
  row.time = sample.time_nanos.value_or(0);
  row.duration = sample.duration_nanos.value_or(0);
  int64_t weight = 1;
  if (weight_index_ >= 0) {
    weight =
        weight_index_ < static_cast<int>(sample.values.size()) ? sample.values[weight_index_] : 0;
  }
  if (weight < 0) {
    ++negative_;
    weight = 0;
  }
  row.weight = weight;
  if (weight > (int64_t{1} << 53) / std::max<int64_t>(weight_factor_, 1)) ++inexact_;
  if (cpu_index_ >= 0 && cpu_index_ < static_cast<int>(sample.values.size())) {
    row.cpu = std::max<int64_t>(0, ScaleRounded(sample.values[cpu_index_], cpu_factor_, 1000));
  }
  thread.rows.push_back(row);
}

int64_t FirefoxWriter::String(Tables& t, const std::string& text) {
  const auto inserted = t.string_index.emplace(text, static_cast<int64_t>(t.strings.size()));
  if (inserted.second) t.strings.push_back(text);
  return inserted.first->second;
}

int64_t FirefoxWriter::LibOf(uint64_t mapping_id) {
  const auto inserted = lib_index_.emplace(mapping_id, static_cast<int64_t>(libs_.size()));
  if (inserted.second) libs_.push_back(mapping_id);
  return inserted.first->second;
}

int64_t FirefoxWriter::ResourceOf(Tables& t, int64_t lib) {
  const auto inserted = t.resource_of_lib.emplace(lib, t.resources);
  if (!inserted.second) return inserted.first->second;
  const Mapping& mapping = mappings_.at(libs_[static_cast<size_t>(lib)]);
  t.resource_lib.Add(lib);
  t.resource_name.Add(String(t, mapping.file.empty() ? "(no file)" : Basename(mapping.file)));
  t.resource_host.Null();
  t.resource_type.Add(int64_t{1});  // a library
  return t.resources++;
}

int64_t FirefoxWriter::RelativeAddress(const Location& location) const {
  if (location.address == 0) return -1;
  const auto mapping = mappings_.find(location.mapping_id);
  uint64_t address = location.address;
  if (location.mapping_id != 0 && mapping != mappings_.end() &&
      location.address >= mapping->second.start) {
    // Library-relative, as the profiler's addresses are.
    address = location.address - mapping->second.start + mapping->second.offset;
  }
  // The profiler's addresses are JavaScript numbers: exact below 2^53.
  return address < (uint64_t{1} << 53) ? static_cast<int64_t>(address) : -1;
}

int64_t FirefoxWriter::FuncOf(Tables& t, const Location& location, size_t line) {
  const bool bare = location.lines.empty();
  const auto mapping = mappings_.find(location.mapping_id);
  const bool mapped = location.mapping_id != 0 && mapping != mappings_.end();
  // A function is its model function; a location without lines is one of its own.
  const std::pair<uint64_t, size_t> key =
      bare ? std::make_pair(location.id, size_t{1})
           : std::make_pair(location.lines[line].function_id, size_t{0});
  const auto found = t.func_index.find(key);
  if (found != t.func_index.end()) return found->second;
  std::string name, file;
  int64_t start_line = 0;
  if (bare) {
    // Named by the address the frame has (library-relative), as the profiler names the frames
    // of a profile not symbolicated yet; the firefox reader takes it back for a bare address.
    // (An address the frame cannot hold, 2^53 or more, is kept in the name alone.)
    const int64_t relative = RelativeAddress(location);
    char address[24];
    std::snprintf(address, sizeof address, "0x%llx",
                  static_cast<unsigned long long>(relative >= 0 ? static_cast<uint64_t>(relative)
                                                                : location.address));
    name = address;
  } else {
    const auto function = functions_.find(location.lines[line].function_id);
    if (function != functions_.end()) {
      name = function->second.name;
      file = function->second.file;
      start_line = function->second.start_line;
    }
    if (name.empty()) name = "[unknown]";
  }
  t.func_name.Add(String(t, name));
  // JS in the profiler's sense: code with a source file and no library (its sidebar and
  // source view use the file and line of such functions).
  t.func_js.Bool(!file.empty() && !mapped);
  t.func_relevant.Bool(false);
  t.func_resource.Add(mapped ? ResourceOf(t, LibOf(location.mapping_id)) : int64_t{-1});
  if (file.empty()) {
    t.func_file.Null();
  } else {
    t.func_file.Add(String(t, file));
  }
  if (start_line > 0) {
    t.func_line.Add(start_line);
  } else {
    t.func_line.Null();
  }
  t.func_column.Null();
  t.func_index[key] = t.funcs;
  return t.funcs++;
}

int64_t FirefoxWriter::FrameOf(Tables& t, const Location& location, size_t line, int64_t depth) {
  const size_t lines = std::max<size_t>(location.lines.size(), 1);
  if (t.location_frames.size() + lines >= FlatIndex::kAbsent) {
    throw ProfError(warn_.file(), "too many frames for one thread of a Firefox profile");
  }
  bool added;
  const size_t slots = t.location_slots.FindOrAdd(
      location.id, static_cast<uint32_t>(t.location_frames.size()), &added);
  if (added) {
    t.location_frames.resize(t.location_frames.size() + lines, -1);
    t.location_lines.resize(t.location_frames.size(), 0);
    t.location_lines[slots] = static_cast<uint32_t>(lines);
  }
  if (t.location_frames[slots + line] >= 0) return t.location_frames[slots + line];
  const int64_t func = FuncOf(t, location, line);
  t.frame_address.Add(RelativeAddress(location));
  t.frame_inline.Add(depth);
  t.frame_category.Add(int64_t{0});
  t.frame_subcategory.Add(int64_t{0});
  t.frame_func.Add(func);
  t.frame_symbol.Null();
  t.frame_window.Add(int64_t{0});
  t.frame_implementation.Null();
  const Line* info = location.lines.empty() ? nullptr : &location.lines[line];
  if (info != nullptr && info->line > 0) {
    t.frame_line.Add(info->line);
  } else {
    t.frame_line.Null();
  }
  if (info != nullptr && info->column > 0) {
    t.frame_column.Add(info->column);
  } else {
    t.frame_column.Null();
  }
  t.location_frames[slots + line] = t.frames;
  return t.frames++;
}

int64_t FirefoxWriter::StackOf(Tables& t, uint64_t stack_id) {
  const auto found = t.sample_stack.find(stack_id);
  if (found != t.sample_stack.end()) return found->second;
  int64_t prefix = -1;
  const auto stack = stacks_.find(stack_id);
  if (stack != stacks_.end()) {
    // Outermost first: the locations from the root, each location's lines from the outermost.
    for (auto id = stack->second.rbegin(); id != stack->second.rend(); ++id) {
      // A location seen before in this thread has its frames, outermost first, in
      // location_frames: no lookup of the location itself.
      uint32_t slots = t.location_slots.Find(*id);
      size_t lines;
      if (slots != FlatIndex::kAbsent) {
        lines = t.location_lines[slots];
      } else {
        const auto location = locations_.find(*id);
        if (location == locations_.end()) continue;  // the checker refuses this before
        const Location& loc = location->second;
        lines = std::max<size_t>(loc.lines.size(), 1);
        for (size_t k = lines; k-- > 0;) FrameOf(t, loc, k, static_cast<int64_t>(lines - 1 - k));
        slots = t.location_slots.Find(*id);
      }
      for (size_t k = lines; k-- > 0;) {
        const int64_t frame = t.location_frames[slots + k];
        if (prefix + 1 >= int64_t{1} << 32 || frame >= int64_t{1} << 32 ||
            t.stacks_count >= int64_t{FlatIndex::kAbsent}) {
          throw ProfError(warn_.file(),
                          "too many frames or stacks for one thread of a Firefox profile");
        }
        bool added;
        const uint32_t index = t.stack_index.FindOrAdd(
            static_cast<uint64_t>(prefix + 1) << 32 | static_cast<uint64_t>(frame),
            static_cast<uint32_t>(t.stacks_count), &added);
        if (!added) {
          prefix = index;
          continue;
        }
        t.stack_frame.Add(frame);
        if (prefix < 0) {
          t.stack_prefix.Null();
        } else {
          t.stack_prefix.Add(prefix);
        }
        t.stack_category.Add(int64_t{0});
        t.stack_subcategory.Add(int64_t{0});
        prefix = t.stacks_count++;
      }
    }
  }
  t.sample_stack[stack_id] = prefix;
  return prefix;
}

void FirefoxWriter::WriteThread(Thread& thread, bool main) {
  Tables t;
  Column stack, time, weight, cpu;
  int64_t count = 0;
  const bool has_cpu = cpu_index_ >= 0;
  const auto add = [&](int64_t s, int64_t at, int64_t w, int64_t c) {
    if (s < 0) {
      stack.Null();
    } else {
      stack.Add(s);
    }
    std::string ms;
    AppendMillis(&ms, at - start_);
    time.Add(ms);
    if (weight_kind_ == WeightKind::kTracingMs) {
      std::string value;
      AppendMillis(&value, ScaleRounded(w, weight_factor_, 1));
      weight.Add(value);
    } else {
      weight.Add(ScaleRounded(w, weight_factor_, 1));
    }
    if (has_cpu) cpu.Add(c);
    ++count;
  };
  for (const Row& row : thread.rows) add(StackOf(t, row.stack), row.time, row.weight, row.cpu);
  const char* weight_type = weight_kind_ == WeightKind::kTracingMs ? "tracing-ms"
                            : weight_kind_ == WeightKind::kBytes   ? "bytes"
                                                                   : "samples";
  std::string begin;
  AppendMillis(&begin, (thread.rows.empty() ? start_ : thread.rows.front().time) - start_);

  buffer_ += "{\"processType\":\"default\",\"processStartupTime\":" + begin +
             ",\"processShutdownTime\":null,\"registerTime\":" + begin +
             ",\"unregisterTime\":null,\"pausedRanges\":[],\"name\":";
  AppendJsonString(&buffer_, thread.name);
  buffer_ += std::string(",\"isMainThread\":") + (main ? "true" : "false");
  if (!thread.process.empty()) {
    buffer_ += ",\"processName\":";
    AppendJsonString(&buffer_, thread.process);
  }
  buffer_ += ",\"pid\":";
  AppendJsonString(&buffer_, thread.pid);
  buffer_ += ",\"tid\":";
  if (thread.tid) {
    buffer_ += std::to_string(*thread.tid);
  } else {
    AppendJsonString(&buffer_, thread.pid + ": " + thread.name);  // no number: made up
  }
  buffer_ += ",\n\"samples\":{";
  AppendColumn(&buffer_, "stack", stack);
  AppendColumn(&buffer_, "time", time);
  AppendColumn(&buffer_, "weight", weight);
  if (has_cpu) AppendColumn(&buffer_, "threadCPUDelta", cpu);
  buffer_ += std::string("\"weightType\":\"") + weight_type +
             "\",\"length\":" + std::to_string(count) + "},\n";
  buffer_ +=
      "\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
      "\"category\":[],\"length\":0},\n\"stackTable\":{";
  AppendColumn(&buffer_, "frame", t.stack_frame);
  AppendColumn(&buffer_, "prefix", t.stack_prefix);
  AppendColumn(&buffer_, "category", t.stack_category);
  AppendColumn(&buffer_, "subcategory", t.stack_subcategory);
  buffer_ += "\"length\":" + std::to_string(t.stacks_count) + "},\n\"frameTable\":{";
  AppendColumn(&buffer_, "address", t.frame_address);
  AppendColumn(&buffer_, "inlineDepth", t.frame_inline);
  AppendColumn(&buffer_, "category", t.frame_category);
  AppendColumn(&buffer_, "subcategory", t.frame_subcategory);
  AppendColumn(&buffer_, "func", t.frame_func);
  AppendColumn(&buffer_, "nativeSymbol", t.frame_symbol);
  AppendColumn(&buffer_, "innerWindowID", t.frame_window);
  AppendColumn(&buffer_, "implementation", t.frame_implementation);
  AppendColumn(&buffer_, "line", t.frame_line);
  AppendColumn(&buffer_, "column", t.frame_column);
  buffer_ += "\"length\":" + std::to_string(t.frames) + "},\n\"funcTable\":{";
  AppendColumn(&buffer_, "isJS", t.func_js);
  AppendColumn(&buffer_, "relevantForJS", t.func_relevant);
  AppendColumn(&buffer_, "name", t.func_name);
  AppendColumn(&buffer_, "resource", t.func_resource);
  AppendColumn(&buffer_, "fileName", t.func_file);
  AppendColumn(&buffer_, "lineNumber", t.func_line);
  AppendColumn(&buffer_, "columnNumber", t.func_column);
  buffer_ += "\"length\":" + std::to_string(t.funcs) + "},\n\"resourceTable\":{";
  AppendColumn(&buffer_, "lib", t.resource_lib);
  AppendColumn(&buffer_, "name", t.resource_name);
  AppendColumn(&buffer_, "host", t.resource_host);
  AppendColumn(&buffer_, "type", t.resource_type);
  buffer_ += "\"length\":" + std::to_string(t.resources) +
             "},\n\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],"
             "\"functionSize\":[],\"length\":0},\n\"stringArray\":[";
  for (size_t i = 0; i < t.strings.size(); ++i) {
    if (i != 0) buffer_ += ',';
    AppendJsonString(&buffer_, t.strings[i]);
    output_.FlushWhenFull();
  }
  buffer_ += "]}";
  output_.Flush();
}

void FirefoxWriter::OnEnd() {
  // Times: samples without one laid end to end from their thread's start; then each thread in
  // time order.
  bool any_time = false;
  int64_t earliest = 0;
  for (const Thread& thread : threads_) {
    for (const Row& row : thread.rows) {
      if (row.timed && (!any_time || row.time < earliest)) earliest = row.time;
      any_time |= row.timed;
    }
  }
  int64_t start = header_.time_nanos.value_or(any_time ? earliest : 0);
  if (any_time && earliest < start) start = earliest;
  // The profiler's start to the whole millisecond, so that every time keeps its nanoseconds
  // through the reader's doubles.
  start_ = start >= 0 ? start / 1000000 * 1000000 : -((-start + 999999) / 1000000 * 1000000);
  for (Thread& thread : threads_) {
    int64_t clock = start;
    for (Row& row : thread.rows) {
      if (row.timed) continue;
      ++untimed_;
      row.time = clock;
      const int64_t step = row.duration > 0    ? row.duration
                           : period_nanos_ > 0 ? period_nanos_
                                               : kDefaultIntervalNanos;
      clock = clock > INT64_MAX - step ? INT64_MAX : clock + step;
      row.timed = true;
    }
    for (size_t i = 1; i < thread.rows.size(); ++i) {
      if (thread.rows[i].time < thread.rows[i - 1].time) ++reordered_;
    }
    // A long sample: its start with its CPU delta, then the rest of its weight at its end
    // (which may come after later samples: sorted with them).
    const size_t rows = thread.rows.size();
    for (size_t i = 0; i < rows; ++i) {
      Row& row = thread.rows[i];
      if (weight_kind_ != WeightKind::kSamples || row.duration <= 0 || row.weight <= 1) continue;
      Row end = row;
      end.time = row.time > INT64_MAX - row.duration ? INT64_MAX : row.time + row.duration;
      end.weight = row.weight - 1;
      end.cpu = 0;
      row.weight = 1;
      thread.rows.push_back(end);
    }
    std::stable_sort(thread.rows.begin(), thread.rows.end(),
                     [](const Row& a, const Row& b) { return a.time < b.time; });
  }

  std::string interval;
  AppendMillis(&interval, period_nanos_ > 0 ? period_nanos_ : kDefaultIntervalNanos);
  std::string product = "proftools";
  if (header_.sources.size() == 1 && !header_.sources[0].uri.empty()) {
    product += ": " + Basename(header_.sources[0].uri);
  }
  buffer_ = "{\"meta\":{\"interval\":" + interval + ",\"startTime\":";
  AppendMillis(&buffer_, start_);
  buffer_ += ",\"processType\":0,\"product\":";
  AppendJsonString(&buffer_, product);
  buffer_ += ",\"stackwalk\":0,\"version\":27,\"preprocessedProfileVersion\":" +
             std::to_string(kWrittenProcessedVersion) +
             ",\"symbolicated\":true,\"markerSchema\":[],"
             "\"categories\":[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":"
             "[\"Other\"]}]";
  if (cpu_index_ >= 0) {
    buffer_ += ",\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"µs\"}";
  }
  buffer_ += "},\n\"threads\":[\n";
  std::map<std::string, bool> processes;  // pid -> has its main thread
  for (size_t i = 0; i < threads_.size(); ++i) {
    if (i != 0) buffer_ += ",\n";
    Thread& thread = threads_[i];
    // A process's main thread: the one whose tid is its pid, else its first thread.
    bool main = false;
    if (processes.count(thread.pid) == 0) {
      main = true;
      for (const Thread& other : threads_) {
        if (other.pid == thread.pid && other.tid && std::to_string(*other.tid) == other.pid &&
            &other != &thread) {
          main = false;
        }
      }
    }
    if (thread.tid && std::to_string(*thread.tid) == thread.pid) main = true;
    if (main) processes[thread.pid] = true;
    WriteThread(thread, main);
    thread.rows = std::vector<Row>();
  }
  buffer_ += "\n],\n\"libs\":[";
  for (size_t i = 0; i < libs_.size(); ++i) {
    const Mapping& mapping = mappings_.at(libs_[i]);
    const std::string base = Basename(mapping.file);
    buffer_ += i == 0 ? "\n{\"arch\":\"\",\"name\":" : ",\n{\"arch\":\"\",\"name\":";
    AppendJsonString(&buffer_, base);
    buffer_ += ",\"path\":";
    AppendJsonString(&buffer_, mapping.file);
    buffer_ += ",\"debugName\":";
    AppendJsonString(&buffer_, base);
    buffer_ += ",\"debugPath\":";
    AppendJsonString(&buffer_, mapping.file);
    buffer_ += ",\"breakpadId\":";
    AppendJsonString(&buffer_, mapping.build_id);
    buffer_ += ",\"codeId\":";
    if (mapping.build_id.empty()) {
      buffer_ += "null";
    } else {
      AppendJsonString(&buffer_, mapping.build_id);
    }
    buffer_ += '}';
  }
  buffer_ += "\n],\"pages\":[],\"counters\":[]}\n";
  output_.Flush();

  // What the processed profile could not keep as the profile had it.
  const int kept = weight_index_;
  if (header_.types.size() > 1) {
    std::string message = std::to_string(header_.types.size()) +
                          " value types: the samples weigh their " +
                          (kept >= 0 ? header_.types[kept].type : std::string("count"));
    if (cpu_index_ >= 0)
      message += " and carry their " + header_.types[cpu_index_].type + " as threadCPUDelta";
    warn_(message + " (--value TYPE for another); the other types are not kept");
  }
  if (labelled_ > 0) {
    warn_(Counted(labelled_, "sample", "samples") +
          " with labels other than pid, tid, thread, process and comm: the processed profile "
          "keeps only those, as its threads");
  }
  if (untimed_ > 0) {
    warn_(Counted(untimed_, "sample", "samples") +
          " without a time: laid end to end on their thread from the profile's start");
  }
  if (reordered_ > 0) {
    warn_(Counted(reordered_, "sample", "samples") +
          " earlier than the sample before them on their thread: put in time order, as the "
          "profiler needs them");
  }
  if (inexact_ > 0) {
    warn_(Counted(inexact_, "sample", "samples") +
          " weigh 2^53 or more: the format's numbers (JavaScript's) hold them only approximately");
  }
  if (negative_ > 0) {
    warn_(Counted(negative_, "sample", "samples") + " with a negative " + header_.types[kept].type +
          " weigh 0");
  }
}

void WriteFirefox(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  FirefoxWriter writer(out, context.Has("value") ? context.Get("value") : std::string(),
                       WriterWarnings(profile.name(), context.warnings));
  profile.Read(&writer);
}

}  // namespace

const WriterSpec kFirefoxWriter = {
    "firefox",
    "prof2firefox",
    "the Firefox Profiler's processed profile (JSON)",
    /*binary=*/false,
    /*gzip=*/false,
    ".json",
    {
        {"value", "TYPE",
         "the value type that weighs the samples (default: the profile's default type): a time "
         "is written as tracing-ms, bytes as bytes, anything else as sample counts"},
    },
    WriteFirefox,
};

}  // namespace proftools
