// kArtTraceReader: one source of type "art-trace". The file is mapped; the summary, threads and
// methods are read first (the streaming format has its summary, which says which clocks the
// records hold, at its end), then the records in file order.
#include "common/android/art_trace_codec.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/text_syntax.h"
#include "common/io/mapped_input.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

// A method or thread id: 0x hex, or decimal.
bool ParseArtNumber(std::string_view text, uint64_t* out) {
  if (text.substr(0, 2) == "0x" || text.substr(0, 2) == "0X") return ParseHex(text, out);
  return ParseId(text, out);
}

constexpr std::string_view kArtMagic = "SLOW";  // 0x574f4c53, little-endian
constexpr uint16_t kStreamingVersionMask = 0xf0;
enum ArtSpecialRecord : uint8_t { kArtMethod = 1, kArtThread = 2, kArtSummary = 3 };

struct ArtMethod {
  std::string name;  // class.method, as Android Studio and the Firefox Profiler show it
  std::string signature, file;
  int64_t line = 0;
  uint64_t location = 0;  // ours, once interned
};

// Where a thread is: its methods entered and not left (outermost first), its last times.
struct ArtThreadState {
  std::vector<uint64_t> stack;
  bool timed = false;
  uint32_t wall = 0, cpu = 0;
};

class ArtTraceReader {
 public:
  ArtTraceReader(std::string_view data, const Input& input, const ReadContext& context)
      : data_(data), name_(input.name), context_(context) {}

  void Parse();
  void Emit(ProfileSink* sink);

 private:
  [[noreturn]] void Fail(uint64_t byte, const std::string& message) const {
    throw ProfError(name_, "byte " + std::to_string(byte) + ": " + message);
  }
  // A line of the text part from `*at` (without its newline), *at moved past it.
  std::string_view Line(size_t* at) const;
  // The summary's lines after `*version` up to the next `*` line, which it returns.
  std::string_view ReadSummary(std::string_view text, size_t* at);
  void AddMethod(std::string_view line, uint64_t byte);
  // Calls each(line, byte) for the lines of a text section; returns the `*` line after them.
  template <typename F>
  std::string_view ReadSection(size_t* at, F&& each);
  template <typename T>
  T Get(size_t at, const char* what) const {
    if (at > data_.size() || data_.size() - at < sizeof(T)) {
      Fail(at, std::string(what) + " cut short by the end of the file");
    }
    T value;
    std::memcpy(&value, data_.data() + at, sizeof(T));  // little-endian, as ART writes it
    return value;
  }
  // The binary header at `at`: version, record size, start time; returns where records start.
  size_t ReadHeader(size_t at, bool streaming);
  uint64_t LocationOf(uint32_t method_id, Interner* interner);

  std::string_view data_;
  std::string name_;
  const ReadContext& context_;
  uint16_t version_ = 0;
  size_t record_size_ = 0;
  uint64_t start_us_ = 0;
  std::map<std::string, std::string> summary_;
  std::unordered_map<uint32_t, std::string> threads_;
  std::unordered_map<uint32_t, ArtMethod> methods_;
  std::vector<size_t> records_;  // where each record starts (the streaming format's), or
  size_t records_from_ = 0;      // the regular format's records: from here to the end
  bool streaming_ = false;
  uint64_t unknown_methods_ = 0, empty_exits_ = 0, mismatched_exits_ = 0;
};

std::string_view ArtTraceReader::Line(size_t* at) const {
  const size_t end = data_.find('\n', *at);
  const size_t stop = end == std::string_view::npos ? data_.size() : end;
  const std::string_view line = data_.substr(*at, stop - *at);
  *at = end == std::string_view::npos ? data_.size() : end + 1;
  return line;
}

std::string_view ArtTraceReader::ReadSummary(std::string_view text, size_t* at) {
  // *version, its number, then key=value lines (clock=dual, pid=..., vm=art).
  const auto line = [&]() {
    const size_t end = text.find('\n', *at);
    const size_t stop = end == std::string_view::npos ? text.size() : end;
    const std::string_view l = text.substr(*at, stop - *at);
    *at = end == std::string_view::npos ? text.size() : end + 1;
    return l;
  };
  if (line() != "*version") Fail(0, "no *version line: not an ART method trace");
  const std::string_view version = line();
  if (version != "1" && version != "2" && version != "3") {
    Fail(9, "version " + Printable(version) + " (ART traces are versions 1 to 3)");
  }
  summary_["version"] = std::string(version);
  while (*at < text.size()) {
    const std::string_view l = line();
    if (l.empty() || l[0] == '*') return l;
    const size_t equals = l.find('=');
    if (equals != std::string_view::npos) {
      summary_[std::string(l.substr(0, equals))] = std::string(l.substr(equals + 1));
    }
  }
  return {};
}

void ArtTraceReader::AddMethod(std::string_view line, uint64_t byte) {
  // 0x3f4 <TAB> class <TAB> method <TAB> signature <TAB> source file [<TAB> line]
  std::vector<std::string_view> columns;
  size_t from = 0;
  while (true) {
    const size_t tab = line.find('\t', from);
    columns.push_back(line.substr(from, tab == std::string_view::npos ? line.npos : tab - from));
    if (tab == std::string_view::npos) break;
    from = tab + 1;
  }
  if (columns.size() < 3) Fail(byte, "a method line without its class and name");
  uint64_t id = 0;
  if (!ParseArtNumber(columns[0], &id) || id > UINT32_MAX) {
    Fail(byte, "a method id that is no number: " + Printable(columns[0]));
  }
  ArtMethod method;
  method.name = std::string(columns[1]) + "." + std::string(columns[2]);
  if (columns.size() > 3) method.signature = std::string(columns[3]);
  if (columns.size() > 4) method.file = std::string(columns[4]);
  if (columns.size() > 5) {
    uint64_t number = 0;
    if (ParseArtNumber(columns[5], &number) && number < INT32_MAX) method.line = number;
  }
  methods_[static_cast<uint32_t>(id) & ~3u] = std::move(method);
}

size_t ArtTraceReader::ReadHeader(size_t at, bool streaming) {
  if (data_.substr(at, 4) != kArtMagic) Fail(at, "no \"SLOW\" where the records' header starts");
  uint16_t version = Get<uint16_t>(at + 4, "the header");
  if (streaming) version ^= kStreamingVersionMask;
  if (version < 1 || version > 3) {
    Fail(at + 4, "version " + std::to_string(version) + " (ART traces are versions 1 to 3)");
  }
  version_ = version;
  const uint16_t header_size = Get<uint16_t>(at + 6, "the header");
  start_us_ = Get<uint64_t>(at + 8, "the header");
  // Every record's time (a 32-bit count of microseconds after the start) must fit in 64-bit
  // nanoseconds.
  if (start_us_ > static_cast<uint64_t>(INT64_MAX) / 1000 - UINT32_MAX) {
    Fail(at + 8, "a start time of " + std::to_string(start_us_) +
                     " microseconds, beyond what 64-bit nanoseconds hold");
  }
  record_size_ = version == 1 ? 9 : version == 2 ? 10 : Get<uint16_t>(at + 16, "the header");
  const size_t minimum = (version == 1 ? 1 : 2) + 4 + 4;
  if (record_size_ < minimum) {
    Fail(at + 16, "records of " + std::to_string(record_size_) + " bytes (at least " +
                      std::to_string(minimum) + ")");
  }
  if (header_size < 16) Fail(at + 6, "a header of " + std::to_string(header_size) + " bytes");
  return at + header_size;
}

template <typename F>
std::string_view ArtTraceReader::ReadSection(size_t* at, F&& each) {
  while (true) {
    const size_t line_at = *at;
    if (*at >= data_.size()) Fail(*at, "the text part ends before *end");
    const std::string_view line = Line(at);
    if (!line.empty() && line[0] == '*') return line;
    each(line, line_at);
  }
}

void ArtTraceReader::Parse() {
  if (data_.substr(0, 9) == "*version\n") {
    size_t at = 0;
    std::string_view section = ReadSummary(data_, &at);
    if (section != "*threads") Fail(at, "no *threads section after the summary");
    section = ReadSection(&at, [&](std::string_view line, size_t line_at) {
      const size_t tab = line.find('\t');
      uint64_t tid = 0;
      if (tab == std::string_view::npos || !ParseArtNumber(line.substr(0, tab), &tid) ||
          tid > UINT32_MAX) {
        Fail(line_at, "a thread line that is not TID<TAB>NAME");
      }
      threads_[static_cast<uint32_t>(tid)] = std::string(line.substr(tab + 1));
    });
    if (section != "*methods") Fail(at, "no *methods section after *threads");
    section =
        ReadSection(&at, [&](std::string_view line, size_t line_at) { AddMethod(line, line_at); });
    if (section != "*end") Fail(at, "no *end after *methods");
    records_from_ = ReadHeader(at, false);
    if (std::to_string(version_) != summary_["version"]) {
      Fail(at + 4, "version " + std::to_string(version_) + " in the records' header, " +
                       summary_["version"] + " in the summary");
    }
    return;
  }
  // Streaming: records, and between them (a record whose thread is 0) definitions.
  streaming_ = true;
  size_t at = ReadHeader(0, true);
  while (at < data_.size()) {
    const uint16_t first = Get<uint16_t>(at, "a record");
    if (first != 0 || version_ == 1) {
      if (data_.size() - at < record_size_) Fail(at, "a record cut short by the end of the file");
      records_.push_back(at);
      at += record_size_;
      continue;
    }
    const uint8_t code = Get<uint8_t>(at + 2, "a definition");
    if (code == kArtMethod) {
      const uint16_t length = Get<uint16_t>(at + 3, "a method definition");
      if (data_.size() - at - 5 < length) Fail(at, "a method definition cut short");
      std::string_view text = data_.substr(at + 5, length);
      if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
      AddMethod(text, at);
      at += 5 + length;
    } else if (code == kArtThread) {
      const uint16_t tid = Get<uint16_t>(at + 3, "a thread definition");
      const uint16_t length = Get<uint16_t>(at + 5, "a thread definition");
      if (data_.size() - at - 7 < length) Fail(at, "a thread definition cut short");
      threads_[tid] = std::string(data_.substr(at + 7, length));
      at += 7 + length;
    } else if (code == kArtSummary) {
      const uint32_t length = Get<uint32_t>(at + 3, "the summary");
      if (data_.size() - at - 7 < length) Fail(at, "the summary cut short");
      size_t summary_at = 0;
      ReadSummary(data_.substr(at + 7, length), &summary_at);
      if (std::to_string(version_) != summary_["version"]) {
        Fail(at, "version " + std::to_string(version_) + " in the header, " + summary_["version"] +
                     " in the summary");
      }
      return;
    } else {
      Fail(at + 2, "a definition of code " + std::to_string(code) + " (1 to 3 are known)");
    }
  }
  context_.Warn(name_,
                "the trace ends without its summary (cut short?): its clock is taken to "
                "be thread-cpu, ART's default");
}

uint64_t ArtTraceReader::LocationOf(uint32_t method_id, Interner* interner) {
  auto method = methods_.find(method_id);
  if (method == methods_.end()) {
    // Android Studio shows such frames as unknown; so do the Firefox Profiler and this reader.
    ++unknown_methods_;
    char name[48];
    std::snprintf(name, sizeof(name), "<unknown method ID 0x%x>", method_id);
    ArtMethod unknown;
    unknown.name = name;
    method = methods_.emplace(method_id, std::move(unknown)).first;
  }
  ArtMethod& m = method->second;
  if (m.location == 0) {
    Function function;
    function.name = m.name;
    if (!m.signature.empty()) function.system_name = m.name + m.signature;
    function.file = m.file;
    Location location;
    location.lines.push_back(proftools::Line{interner->Function(function), m.line, 0});
    m.location = interner->Location(location);
  }
  return m.location;
}

void ArtTraceReader::Emit(ProfileSink* sink) {
  const std::string clock = summary_.count("clock") ? summary_["clock"] : "thread-cpu";
  const bool dual = clock == "dual";  // (asked once, not per record)
  const bool has_wall = clock == "wall" || dual;
  const bool has_cpu = clock != "wall";
  ProfileHeader header;
  header.sources.push_back(Source{1, "art-trace", context_.uri, std::nullopt});
  for (const auto& entry : summary_) header.meta.push_back({"art." + entry.first, entry.second});
  if (has_wall) header.types.push_back({"wall", "nanoseconds"});
  if (has_cpu) header.types.push_back({"cpu", "nanoseconds"});
  header.default_type = header.types[0].type;
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context_.max_implied_frames(), name_);
  int64_t pid = 0;
  const bool has_pid = summary_.count("pid") && ParseInt(summary_["pid"], &pid);
  std::unordered_map<uint32_t, ArtThreadState> states;
  std::unordered_map<uint32_t, std::vector<Label>> labels;
  Sample sample;
  sample.source_id = 1;
  std::vector<uint64_t> leaf_first;
  uint64_t samples = 0;
  const auto record = [&](size_t at) {
    const uint32_t tid =
        version_ == 1 ? Get<uint8_t>(at, "a record") : Get<uint16_t>(at, "a record");
    const size_t after_tid = version_ == 1 ? 1 : 2;
    const uint32_t method_and_action = Get<uint32_t>(at + after_tid, "a record");
    const uint32_t first_time = Get<uint32_t>(at + after_tid + 4, "a record");
    const uint32_t wall = dual ? Get<uint32_t>(at + after_tid + 8, "a record") : first_time;
    const uint32_t cpu = first_time;  // wall-only traces have no cpu column (not emitted)
    const uint32_t action = method_and_action & 3;
    if (action > 2) Fail(at + after_tid, "a method action of 3 (0 enter, 1 exit, 2 unwind)");
    ArtThreadState& state = states[tid];
    // The interval since the thread's last action, in the method on top then.
    if (state.timed && !state.stack.empty() && wall >= state.wall &&
        (wall > state.wall || cpu > state.cpu)) {
      leaf_first.assign(state.stack.rbegin(), state.stack.rend());
      sample.stack_id = interner.Stack(leaf_first);
      sample.values.clear();
      const int64_t wall_ns = static_cast<int64_t>(wall - state.wall) * 1000;
      if (has_wall) sample.values.push_back(wall_ns);
      if (has_cpu) sample.values.push_back(cpu >= state.cpu ? int64_t{cpu - state.cpu} * 1000 : 0);
      if (has_wall) {
        sample.time_nanos = static_cast<int64_t>((start_us_ + state.wall) * 1000);
        sample.duration_nanos = wall_ns;
      }
      auto set = labels.find(tid);
      if (set == labels.end()) {
        std::vector<Label> l;
        if (has_pid) l.push_back(Label::Number(kPidLabel, pid));
        l.push_back(Label::Number(kTidLabel, tid));
        const auto thread = threads_.find(tid);
        if (thread != threads_.end()) l.push_back(Label::String(kThreadLabel, thread->second));
        set = labels.emplace(tid, std::move(l)).first;
      }
      sample.labels = set->second;
      sink->OnSample(sample);
      ++samples;
    }
    state.timed = true;
    state.wall = wall;
    state.cpu = cpu;
    if (action == 0) {
      state.stack.push_back(LocationOf(method_and_action & ~3u, &interner));
    } else if (state.stack.empty()) {
      ++empty_exits_;
    } else {
      if (state.stack.back() != LocationOf(method_and_action & ~3u, &interner)) ++mismatched_exits_;
      state.stack.pop_back();
    }
  };
  if (streaming_) {
    for (const size_t at : records_) record(at);
  } else {
    for (size_t at = records_from_; at < data_.size(); at += record_size_) {
      if (data_.size() - at < record_size_) {
        context_.Warn(name_, "byte " + std::to_string(at) +
                                 ": the last record is cut short by the end of the file (a "
                                 "trace cut short?): left out");
        break;
      }
      record(at);
    }
  }
  if (samples == 0 && !context_.allow_empty) {
    throw ProfError(name_,
                    "an ART trace without time spent in any method (--allow-empty reads "
                    "it as a profile without samples)");
  }
  if (unknown_methods_ > 0) {
    context_.Warn(name_, std::to_string(unknown_methods_) +
                             " method id(s) the trace does not define: shown as <unknown method "
                             "ID 0x...>, as Android Studio shows them");
  }
  if (empty_exits_ > 0) {
    context_.Warn(name_, std::to_string(empty_exits_) +
                             " exit(s) of a method on a thread with none entered: ignored");
  }
  if (mismatched_exits_ > 0) {
    context_.Warn(name_, std::to_string(mismatched_exits_) +
                             " exit(s) of another method than the thread's last entered: the "
                             "last entered was left, as the Firefox Profiler does");
  }
  sink->OnEnd();
}

void ReadArtTraceInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  MappedInput data(input, context.max_spool_size);
  ArtTraceReader reader(data.bytes(), input, context);
  reader.Parse();
  reader.Emit(sink);
}

}  // namespace

int SniffArtTrace(std::string_view head, bool) {
  if (head.size() >= 11 && head.substr(0, 9) == "*version\n" && head[9] >= '1' && head[9] <= '3' &&
      head[10] == '\n') {
    return kCertain;
  }
  // The streaming format: the magic, then a version with 0xf0 mixed in.
  if (head.size() >= 6 && head.substr(0, 4) == kArtMagic &&
      (static_cast<uint8_t>(head[4]) & kStreamingVersionMask) == kStreamingVersionMask) {
    return kCertain;
  }
  return kNotMine;
}

const ReaderSpec kArtTraceReader = {
    "art-trace",
    "an Android ART method trace",
    ReaderShape::kTwoPasses,
    nullptr,
    SniffArtTrace,
    ReadArtTraceInput,
};

}  // namespace proftools
