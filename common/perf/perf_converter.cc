#include "common/perf/perf_converter.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "common/base/counted.h"
#include "common/base/text_syntax.h"
#include "common/io/spool.h"
#include "common/perf/perf_reader.h"
#include "common/perf/perf_script.h"
#include "common/perf/perf_symbols.h"

namespace proftools {
namespace {

// The location cache is only a cache: past this many bytes of keys it starts again, so that a
// file of millions of distinct frames cannot make it grow without bound.
constexpr size_t kCacheBytesLimit = size_t{64} << 20;

// The type name of a sample without an event name (`perf script -F` without `event`).
constexpr const char* kNoEventName = "event";

std::string EventName(std::string_view event) {
  return event.empty() ? kNoEventName : std::string(event);
}

// cpu-clock and task-clock periods are nanoseconds; other events count occurrences.
const char* EventUnit(std::string_view event) {
  const std::string_view base = event.substr(0, event.find(':'));
  return base == "cpu-clock" || base == "task-clock" ? "nanoseconds" : "count";
}

// `# captured on: Thu Aug 17 14:14:43 2017`. perf prints local time without saying which zone;
// it is read as UTC, so that a file gives the same profile wherever it is converted. A time
// that nanoseconds since 1970 in 64 bits cannot hold (past 2262-04-11) is kTooLate.
enum class CaptureTimeKind { kNone, kTime, kTooLate };
CaptureTimeKind CaptureTime(std::string_view comment, int64_t* nanos) {
  const size_t at = comment.find("captured on");
  if (at == std::string_view::npos) return CaptureTimeKind::kNone;
  const size_t colon = comment.find(':', at);
  if (colon == std::string_view::npos) return CaptureTimeKind::kNone;
  const std::string text(TrimPerfLine(comment.substr(colon + 1)));
  struct tm tm = {};
  const char* end = strptime(text.c_str(), "%a %b %d %H:%M:%S %Y", &tm);
  if (end == nullptr || *end != '\0') return CaptureTimeKind::kNone;
  const time_t seconds = timegm(&tm);
  if (seconds < 0) return CaptureTimeKind::kNone;
  constexpr int64_t kNanosPerSecond = 1000000000;
  if (seconds > std::numeric_limits<int64_t>::max() / kNanosPerSecond) {
    return CaptureTimeKind::kTooLate;
  }
  *nanos = static_cast<int64_t>(seconds) * kNanosPerSecond;
  return CaptureTimeKind::kTime;
}

// The header comments worth keeping, and the meta key each becomes.
const struct {
  std::string_view comment;
  const char* key;
} kRecordingComments[] = {
    {"hostname", "hostname"},
    {"os release", "os_release"},
    {"perf version", "version"},
    {"arch", "arch"},
    {"cpudesc", "cpu"},
    {"cmdline", "cmdline"},
    {"total memory", "total_memory"},
};

// `# hostname : bgregg-lgud2` -> {"hostname", "bgregg-lgud2"}, for the comments listed above.
bool RecordingComment(std::string_view comment, MetaEntry* entry) {
  comment = TrimPerfLine(comment.substr(1));  // after '#'
  const size_t colon = comment.find(" : ");
  if (colon == std::string_view::npos) return false;
  const std::string_view name = TrimPerfLine(comment.substr(0, colon));
  for (const auto& known : kRecordingComments) {
    if (name == known.comment) {
      entry->key = known.key;
      entry->value = std::string(TrimPerfLine(comment.substr(colon + 3)));
      return true;
    }
  }
  return false;
}

}  // namespace

PerfPlan ScanPerfScript(ByteStream* stream, const std::string& name, int spool_fd) {
  CopyingStream source(stream, spool_fd, name);
  PerfScriptReader reader(&source, /*headers_only=*/true);
  PerfPlan plan;
  std::unordered_set<std::string> seen;
  std::string last_event = "\x01";  // not an event name
  try {
    while (reader.Next()) {
      switch (reader.kind()) {
        case PerfScriptReader::Kind::kHeader: {
          ++plan.samples;
          const std::string_view event = reader.header().event;
          if (event == last_event) break;
          last_event.assign(event.data(), event.size());
          if (seen.insert(last_event).second) plan.events.push_back(last_event);
          break;
        }
        case PerfScriptReader::Kind::kComment: {
          if (!plan.capture_time_nanos && plan.late_capture_line == 0) {
            int64_t nanos = 0;
            switch (CaptureTime(reader.line(), &nanos)) {
              case CaptureTimeKind::kTime:
                plan.capture_time_nanos = nanos;
                break;
              case CaptureTimeKind::kTooLate:
                plan.late_capture_line = reader.line_number();
                break;
              case CaptureTimeKind::kNone:
                break;
            }
          }
          MetaEntry entry;
          if (plan.samples == 0 && RecordingComment(TrimPerfLine(reader.line()), &entry) &&
              std::none_of(plan.recording.begin(), plan.recording.end(),
                           [&](const MetaEntry& e) { return e.key == entry.key; })) {
            plan.recording.push_back(std::move(entry));  // the first of each: keys are unique
          }
          break;
        }
        case PerfScriptReader::Kind::kUnknown:
          ++plan.unknown_lines;
          break;
        case PerfScriptReader::Kind::kSrcline:
          ++plan.srclines;
          break;
        default:
          break;
      }
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, name, e.line_number,
                               "line longer than 64 MiB: this is not perf script output"});
  }
  plan.bytes = source.bytes();
  return plan;
}

ProfileHeader MakePerfHeader(const std::vector<PerfInput>& inputs) {
  ProfileHeader header;
  for (size_t i = 0; i < inputs.size(); ++i) {
    header.sources.push_back(
        Source{i + 1, kPerfSourceType, inputs[i].uri, inputs[i].plan.capture_time_nanos});
    for (const MetaEntry& entry : inputs[i].plan.recording) {
      header.meta.push_back(
          MetaEntry{"perf." + entry.key + "." + std::to_string(i + 1), entry.value});
    }
  }
  PerfValueTypes types = NamePerfValueTypes(inputs);
  header.types = std::move(types.types);
  // The first event's period type; with no event, the single placeholder type.
  header.default_type = header.types.size() >= 2 ? header.types[1].type : "";
  // A profile declares at least one type, even when no input has a sample.
  if (header.types.empty()) header.types.push_back(ValueType{"samples", "count"});
  return header;
}

PerfValueTypes NamePerfValueTypes(const std::vector<PerfInput>& inputs) {
  PerfValueTypes result;
  std::unordered_set<std::string> taken;
  // `wanted`, or when an earlier type has that name, `wanted.N` with the smallest N >= 2 that is
  // free: events `x` and `x_samples` would both want `x_samples`.
  auto unique = [&](std::string wanted) {
    std::string name = wanted;
    for (uint64_t n = 2; !taken.insert(name).second; ++n) name = wanted + "." + std::to_string(n);
    return name;
  };
  for (const PerfInput& input : inputs) {
    for (const std::string& event : input.plan.events) {
      const std::string name = EventName(event);
      if (!result.first_type.emplace(name, result.types.size()).second) continue;
      result.types.push_back(ValueType{unique(name + "_samples"), "count"});
      result.types.push_back(ValueType{unique(name), EventUnit(event)});
    }
  }
  return result;
}

PerfConverter::PerfConverter(ProfileSink* sink, const std::vector<PerfInput>& inputs,
                             DiagnosticHandler* warnings, PerfOptions options)
    : sink_(sink),
      inputs_(inputs),
      warnings_(warnings),
      options_(options),
      header_(MakePerfHeader(inputs)),
      interner_(sink),
      event_index_(NamePerfValueTypes(inputs).first_type) {
  sink_->OnHeader(header_);
}

size_t PerfConverter::FrameHash::operator()(std::string_view text) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ text.size();
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, text.data() + i, text.size() - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return static_cast<size_t>(h ^ (h >> 29));
}

uint64_t PerfConverter::FrameLocation(std::string_view frame_text, std::string_view src_file,
                                      int64_t src_line, bool has_src) {
  std::string_view key = frame_text;
  if (has_src) {
    key_.assign(frame_text.data(), frame_text.size());
    key_ += '\n';
    key_.append(src_file.data(), src_file.size());
    key_ += ':';
    AppendInt(&key_, src_line);
    key = key_;
  }
  auto it = locations_.find(key);
  if (it != locations_.end()) return it->second;
  PerfFrame frame;
  ParsePerfFrame(frame_text, &frame);  // it parsed when it was read
  Location location;
  location.address = frame.address;
  if (!frame.unknown_dso) {
    Mapping mapping;
    mapping.file.assign(frame.dso.data(), frame.dso.size());
    mapping.has_functions = true;
    location.mapping_id = interner_.Mapping(mapping);
  }
  if (!frame.unknown_symbol) {
    // perf-map-agent writes inlined Java frames as `outer->inner->innermost` in a JIT map;
    // elsewhere `->` is part of a name (`operator->`). An arrow with nothing after it
    // (`Interpret->`) separates nothing: it stays in the name, which must not be empty.
    std::vector<std::string_view> parts;
    std::string_view symbol = frame.symbol;
    if (IsJitDso(frame.dso)) {
      size_t arrow;
      while ((arrow = symbol.find("->")) != std::string_view::npos && arrow > 0 &&
             arrow + 2 < symbol.size()) {
        parts.push_back(symbol.substr(0, arrow));
        symbol.remove_prefix(arrow + 2);
      }
    }
    parts.push_back(symbol);
    for (size_t i = parts.size(); i-- > 0;) {  // innermost first
      const bool innermost = i + 1 == parts.size();
      PerfSymbol names = DemanglePerfSymbol(parts[i]);
      Function function;
      function.name = std::move(names.name);
      function.system_name = std::move(names.system_name);
      if (innermost) function.file.assign(src_file.data(), src_file.size());
      location.lines.push_back(Line{interner_.Function(function), innermost ? src_line : 0, 0});
    }
  }
  const uint64_t id = interner_.Location(location);
  if (location_key_bytes_ > kCacheBytesLimit) {
    locations_.clear();
    location_keys_.clear();
    location_key_bytes_ = 0;
  }
  location_key_bytes_ += key.size() + 64;
  location_keys_.emplace_back(key);
  locations_.emplace(location_keys_.back(), id);
  return id;
}

uint64_t PerfConverter::MemoizedFrameLocation(std::string_view frame_text) {
  constexpr size_t kMemoSlots = size_t{1} << 16;
  // Long lines (Java signatures can run to kilobytes) skip the memo, which so stays under
  // kMemoSlots * kMemoMaxText bytes.
  constexpr size_t kMemoMaxText = 256;
  if (frame_text.size() > kMemoMaxText) return FrameLocation(frame_text, {}, 0, false);
  if (memo_.empty()) memo_.resize(kMemoSlots);
  uint64_t head[2] = {0, 0};
  std::memcpy(head, frame_text.data(), frame_text.size() < 16 ? frame_text.size() : 16);
  uint64_t h = (head[0] ^ (head[1] * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
  MemoSlot& slot = memo_[(h >> 40) & (kMemoSlots - 1)];
  if (slot.location != 0 && slot.text == frame_text) return slot.location;
  slot.location = FrameLocation(frame_text, {}, 0, false);
  slot.text.assign(frame_text.data(), frame_text.size());
  return slot.location;
}

void PerfConverter::Problem(const PerfInput& input, uint64_t line_number, std::string_view line) {
  const std::string message = "not a line of perf script output: " + Printable(line, 80);
  if (options_.strict) {
    throw ProfError(Diagnostic{Rule::kInput, input.name, line_number, message + " (--strict)"});
  }
  if (unknown_lines_++ == 0) {
    first_unknown_line_ = line_number;
    first_unknown_ = message;
  }
}

void PerfConverter::Convert(size_t index, ByteStream* stream) {
  const PerfInput& input = inputs_[index];
  if (input.plan.late_capture_line != 0) {
    warnings_->Warning(Diagnostic{Rule::kInput, input.name, input.plan.late_capture_line,
                                  "a capture time past 2262 does not fit 64-bit nanoseconds "
                                  "since 1970: the source has no time"});
  }
  LimitedStream limited(stream, input.plan.bytes);
  PerfScriptReader reader(&limited);
  unknown_lines_ = 0;
  Sample sample;
  sample.source_id = index + 1;
  bool open = false;            // a sample is being read
  bool frame_waiting = false;   // frame_text_ waits for a possible srcline
  std::vector<uint64_t> stack;  // locations of the open sample, leaf first
  std::string last_event = "\x01";
  size_t type_index = 0;

  auto flush_frame = [&](std::string_view src_file, int64_t src_line, bool has_src) {
    if (!frame_waiting) return;
    frame_waiting = false;
    stack.push_back(FrameLocation(frame_text_, src_file, src_line, has_src));
  };
  auto end_sample = [&] {
    flush_frame({}, 0, false);
    if (!open) return;
    open = false;
    sample.stack_id = interner_.Stack(stack);
    sink_->OnSample(sample);
  };

  try {
    while (reader.Next()) {
      switch (reader.kind()) {
        case PerfScriptReader::Kind::kFrame:
          if (input.plan.srclines == 0) {  // the common case: no need to keep the line
            stack.push_back(MemoizedFrameLocation(reader.frame_text()));
            break;
          }
          flush_frame({}, 0, false);
          frame_text_.assign(reader.frame_text().data(), reader.frame_text().size());
          frame_waiting = true;
          break;
        case PerfScriptReader::Kind::kSrcline:
          flush_frame(reader.src_file(), reader.src_line(), true);
          break;
        case PerfScriptReader::Kind::kBlank:
        case PerfScriptReader::Kind::kComment:
          if (reader.kind() == PerfScriptReader::Kind::kBlank) end_sample();
          break;
        case PerfScriptReader::Kind::kUnknown:
          Problem(input, reader.line_number(), reader.line());
          break;
        case PerfScriptReader::Kind::kHeader: {
          end_sample();
          const PerfHeader& h = reader.header();
          if (h.event != last_event) {
            last_event.assign(h.event.data(), h.event.size());
            auto it = event_index_.find(EventName(h.event));
            if (it == event_index_.end()) {
              // Only a header indented with a tab, inside a sample, escapes the first pass.
              last_event = "\x01";
              end_sample();
              Problem(input, reader.line_number(), reader.line());
              break;
            }
            type_index = it->second;
          }
          open = true;
          stack.clear();
          sample.values.assign(header_.types.size(), 0);
          sample.values[type_index] = 1;
          sample.values[type_index + 1] = h.has_period ? h.period : 1;
          sample.time_nanos.reset();
          if (h.has_time) sample.time_nanos = h.time_nanos;
          sample.labels.clear();
          if (!h.comm.empty()) sample.labels.push_back(Label::String("comm", std::string(h.comm)));
          if (h.has_pid) sample.labels.push_back(Label::Number("pid", static_cast<int64_t>(h.pid)));
          sample.labels.push_back(Label::Number("tid", static_cast<int64_t>(h.tid)));
          if (h.has_cpu) sample.labels.push_back(Label::Number("cpu", static_cast<int64_t>(h.cpu)));
          if (reader.header_frame()) {
            frame_text_.assign(reader.frame_text().data(), reader.frame_text().size());
            frame_waiting = true;
          }
          break;
        }
      }
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, input.name, e.line_number,
                               "line longer than 64 MiB: this is not perf script output"});
  }
  end_sample();
  if (unknown_lines_ > 0) {
    std::string message = first_unknown_;
    if (unknown_lines_ > 1) {
      message += " (and " + Counted(unknown_lines_ - 1, "more such line", "more such lines") +
                 ", skipped)";
    } else {
      message += " (skipped)";
    }
    warnings_->Warning(Diagnostic{Rule::kInput, input.name, first_unknown_line_, message});
  }
}

void PerfConverter::Finish() {
  sink_->OnEnd();
}

}  // namespace proftools
