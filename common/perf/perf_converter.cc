#include "common/perf/perf_converter.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "common/base/counted.h"
#include "common/base/text_syntax.h"
#include "common/io/spool.h"
#include "common/model/frame_kind.h"
#include "common/model/producer_kit.h"
#include "common/model/source_meta.h"
#include "common/perf/perf_events.h"
#include "common/perf/perf_offcpu.h"
#include "common/perf/perf_pipeline.h"
#include "common/perf/perf_reader.h"
#include "common/perf/perf_records.h"
#include "common/perf/perf_script.h"
#include "common/perf/perf_symbols.h"
#include "common/perf/perf_tracepoint.h"

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

// cpu-clock and task-clock periods are nanoseconds, and so is perf's offcpu-time (the time
// blocked); other events count occurrences.
const char* EventUnit(std::string_view event) {
  const std::string_view base = SplitPerfEvent(event).base;
  return base == "cpu-clock" || base == "task-clock" || base == "offcpu-time" ? "nanoseconds"
                                                                              : "count";
}

// The events --off-cpu reads.
constexpr std::string_view kSchedSwitch = "sched:sched_switch";
constexpr std::string_view kOffCpuTime = "offcpu-time";

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

// The period of every sample of `event` when perf printed none: --period, else what the event's
// `# event :` header line says (a fixed period; a frequency only for a time event, whose period
// in nanoseconds it gives: other events' periods vary as the kernel adjusts them). *note says
// which, or why none.
std::optional<int64_t> FixedPeriod(const std::vector<PerfInput>& inputs, std::string_view event,
                                   std::string_view unit, const PerfOptions& options,
                                   std::string* note) {
  const bool time_event = unit == "nanoseconds";
  const std::string units = time_event ? "nanoseconds" : "events";
  if (options.period) {
    if (options.period_is_time && !time_event) {
      throw UsageError("--period: " + EventName(event) +
                       " counts events, not time: give its period as a number of events");
    }
    *note = "each sample is worth " + std::to_string(*options.period) + " " + units +
            ", as --period says";
    return options.period;
  }
  const std::string_view base = SplitPerfEvent(event).base;
  for (const PerfInput& input : inputs) {
    const PerfPlan& plan = input.plan;
    for (size_t i = 0; i < plan.recorded_events.size() && i < plan.recorded_sampling.size(); ++i) {
      if (SplitPerfEvent(plan.recorded_events[i]).base != base || !plan.recorded_sampling[i]) {
        continue;
      }
      const PerfEventSampling& sampling = *plan.recorded_sampling[i];
      if (sampling.value == 0) continue;  // says nothing (and 0 Hz would divide by zero)
      const std::string value = std::to_string(sampling.value);
      if (!sampling.frequency) {
        if (sampling.value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) break;
        *note = "each sample is worth its sample_period, " + value + " " + units +
                ", from the '# event :' header";
        return static_cast<int64_t>(sampling.value);
      }
      if (time_event) {
        const int64_t nanos =
            static_cast<int64_t>((1000000000 + sampling.value / 2) / sampling.value);
        *note = "each sample is worth 1/" + value + " s = " + std::to_string(nanos) +
                " nanoseconds, from the sample_freq of the '# event :' header";
        return nanos;
      }
      *note = "it was sampled at " + value +
              " Hz, a period that varies: its type counts samples (unit count); give "
              "--period to weigh them";
      return std::nullopt;
    }
  }
  *note =
      "its type counts samples (unit count); to weigh them, print periods (perf script -F "
      "+period), or the header (perf script --header), or give --period";
  return std::nullopt;
}

}  // namespace

PerfPlan ScanPerfScript(ByteStream* stream, const std::string& name, int spool_fd) {
  CopyingStream source(stream, spool_fd, name);
  PerfScriptReader reader(&source, /*headers_only=*/true);
  PerfPlan plan;
  std::unordered_map<std::string, size_t> seen;  // event -> index in plan.events
  std::string last_event = "\x01";               // not an event name
  size_t last_index = 0;
  try {
    while (reader.Next()) {
      switch (reader.kind()) {
        case PerfScriptReader::Kind::kHeader: {
          ++plan.samples;
          const std::string_view event = reader.header().event;
          if (event != last_event) {
            last_event.assign(event.data(), event.size());
            auto inserted = seen.emplace(last_event, plan.events.size());
            if (inserted.second) {
              plan.events.push_back(last_event);
              plan.event_samples.push_back(0);
              plan.event_periods.push_back(0);
            }
            last_index = inserted.first->second;
          }
          ++plan.event_samples[last_index];
          if (reader.header().has_period) ++plan.event_periods[last_index];
          break;
        }
        case PerfScriptReader::Kind::kRecord:
          if (reader.record().kind == PerfRecordLine::Kind::kMmap) ++plan.mmaps;
          break;
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
          std::string recorded;
          if (plan.samples == 0 && ParsePerfEventComment(reader.line(), &recorded)) {
            plan.recorded_events.push_back(std::move(recorded));
            PerfEventSampling sampling;
            plan.recorded_sampling.push_back(ParsePerfEventSampling(reader.line(), &sampling)
                                                 ? std::optional<PerfEventSampling>(sampling)
                                                 : std::nullopt);
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

ProfileHeader MakePerfHeader(const std::vector<PerfInput>& inputs, const PerfOptions& options) {
  ProfileHeader header;
  SourceMetaTable recording;
  for (size_t i = 0; i < inputs.size(); ++i) {
    header.sources.push_back(
        Source{i + 1, kPerfSourceType, inputs[i].uri, inputs[i].plan.capture_time_nanos});
    for (const MetaEntry& entry : inputs[i].plan.recording) {
      recording.Set("perf." + entry.key, i + 1, entry.value);
    }
  }
  // Per source (KEY@N) only where the recordings differ: one recording's are plain.
  header.meta = recording.Entries(inputs.size(), false);
  PerfValueTypes types = NamePerfValueTypes(inputs, options);
  for (MetaEntry& entry : types.event_names) header.meta.push_back(std::move(entry));
  header.types = std::move(types.types);
  // The chosen event's period type; with no event, the single placeholder type.
  header.default_type = header.types.size() >= 2 ? header.types[types.default_type].type : "";
  // A profile declares at least one type, even when no input has a sample.
  if (header.types.empty()) header.types.push_back(ValueType{"samples", "count"});
  return header;
}

PerfValueTypes NamePerfValueTypes(const std::vector<PerfInput>& inputs,
                                  const PerfOptions& options) {
  PerfValueTypes result;
  // Events `x` and `x_samples` would both want `x_samples`: the second gets `x_samples.2`.
  UniqueTypeNames names;
  auto unique = [&](const std::string& wanted) { return names.Take(wanted); };
  // Events that differ only in their modifiers (`cycles:u`, `cycles:k`) keep them.
  std::unordered_map<std::string_view, std::unordered_set<std::string_view>> by_base;
  for (const PerfInput& input : inputs) {
    for (const std::string& event : input.plan.events) {
      by_base[SplitPerfEvent(event).base].insert(event);
    }
  }
  std::unordered_map<std::string, uint64_t> samples;  // per event, over every input
  std::unordered_map<std::string, uint64_t> periods;  // per event: samples with a period
  for (const PerfInput& input : inputs) {
    for (size_t e = 0; e < input.plan.events.size() && e < input.plan.event_periods.size(); ++e) {
      periods[EventName(input.plan.events[e])] += input.plan.event_periods[e];
    }
  }
  std::vector<std::string_view> order;  // events in order of first appearance
  bool off_cpu_events = false;
  for (const PerfInput& input : inputs) {
    for (size_t e = 0; e < input.plan.events.size(); ++e) {
      const std::string& event = input.plan.events[e];
      const std::string key = EventName(event);
      samples[key] += e < input.plan.event_samples.size() ? input.plan.event_samples[e] : 0;
      if (!result.first_type.emplace(key, result.types.size()).second) continue;
      order.push_back(event);
      const PerfEventName split = SplitPerfEvent(event);
      off_cpu_events |= split.base == kSchedSwitch || split.base == kOffCpuTime;
      const bool strip = by_base[split.base].size() == 1;
      const std::string name = strip ? EventName(split.base) : key;
      result.types.push_back(ValueType{unique(name + "_samples"), "count"});
      const char* unit = EventUnit(event);
      if (periods[key] == 0) {
        // perf printed no period: a sample's worth is what we can learn of it, else 1 count.
        std::string note;
        const std::optional<int64_t> period = FixedPeriod(inputs, event, unit, options, &note);
        // Said when it changes what the type claims: a time event's unit, or a count event's
        // worth per sample (a tracepoint counted 1 per sample says what it always said); not
        // when --period said it.
        if (!options.period && (period || std::string_view(unit) == "nanoseconds")) {
          result.notes.push_back("perf printed no period for " + EventName(event) + ": " + note);
        }
        if (!period) unit = "count";
        result.fixed_period[key] = period.value_or(1);
      }
      result.types.push_back(ValueType{unique(name), unit});
      if (strip && !split.modifiers.empty()) {
        result.event_names.push_back(MetaEntry{"perf.event." + result.types.back().type, event});
      }
    }
  }
  if (options.off_cpu && off_cpu_events) {
    result.off_cpu = result.types.size();
    result.types.push_back(ValueType{unique("off-cpu"), "nanoseconds"});
  }
  // With --off-cpu the off-CPU time is what was asked for: it is the default.
  if (result.off_cpu) {
    result.default_type = *result.off_cpu;
    return result;
  }
  // The default: the event recorded first that has samples, else the one with the most.
  auto period_type = [&](std::string_view event) -> std::optional<size_t> {
    auto it = result.first_type.find(std::string(event));
    if (it == result.first_type.end() || samples[std::string(event)] == 0) return std::nullopt;
    return it->second + 1;
  };
  for (const PerfInput& input : inputs) {
    for (const std::string& recorded : input.plan.recorded_events) {
      std::optional<size_t> found = period_type(recorded);
      for (size_t i = 0; !found && i < order.size(); ++i) {  // the same event, other modifiers
        if (SplitPerfEvent(order[i]).base == SplitPerfEvent(recorded).base) {
          found = period_type(order[i]);
        }
      }
      if (found) {
        result.default_type = *found;
        return result;
      }
    }
  }
  uint64_t most = 0;
  for (std::string_view event : order) {
    const uint64_t n = samples[EventName(event)];
    if (n > most) {
      most = n;
      result.default_type = result.first_type[EventName(event)] + 1;
    }
  }
  if (result.types.size() >= 2 && most == 0) result.default_type = 1;
  return result;
}

PerfConverter::PerfConverter(ProfileSink* sink, const std::vector<PerfInput>& inputs,
                             DiagnosticHandler* warnings, PerfOptions options)
    : sink_(sink),
      inputs_(inputs),
      warnings_(warnings),
      options_(options),
      header_(MakePerfHeader(inputs, options)),
      interner_(sink) {
  PerfValueTypes types = NamePerfValueTypes(inputs, options);
  for (const PerfInput& input : inputs) input_bytes_ = std::max(input_bytes_, input.plan.bytes);
  event_index_ = std::move(types.first_type);
  fixed_period_ = std::move(types.fixed_period);
  std::string input_names;
  for (const PerfInput& input : inputs) {
    input_names += (input_names.empty() ? "" : ", ") + input.name;
  }
  for (const std::string& note : types.notes) {
    warnings_->Warning(Diagnostic{Rule::kInput, input_names, 0, note});
  }
  off_cpu_type_ = types.off_cpu;
  if (options_.off_cpu && !off_cpu_type_) {
    std::string names;
    for (const PerfInput& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
    warnings_->Warning(Diagnostic{Rule::kInput, names, 0,
                                  "--off-cpu: no sched:sched_switch or offcpu-time sample, so no "
                                  "off-CPU time (record with -e sched:sched_switch -g)"});
  }
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

uint64_t PerfConverter::FrameMapping(const PerfFrame& frame, bool absolute, uint64_t* address) {
  *address = frame.address;
  if (frame.unknown_dso) return 0;
  if (mappings_ != nullptr) {
    uint64_t runtime = 0;
    PerfMappings::Segment* segment =
        mappings_->Find(pid_, tid_, frame.dso, frame.address, !absolute, &runtime);
    if (segment != nullptr) {
      if (segment->mapping_id == 0) {
        Mapping mapping;
        mapping.start = segment->start;
        mapping.limit = segment->limit;
        mapping.offset = segment->offset;
        mapping.file = segment->file;
        mapping.build_id = segment->build_id;
        mapping.has_functions = true;
        segment->mapping_id = interner_.Mapping(mapping);
      }
      *address = runtime;
      return segment->mapping_id;
    }
  }
  Mapping mapping;
  mapping.file.assign(frame.dso.data(), frame.dso.size());
  mapping.has_functions = true;
  return interner_.Mapping(mapping);
}

uint64_t PerfConverter::FrameLocation(const FrameView* frames, size_t count, bool absolute) {
  // The frame that owns the location: the last one not inlined (the function the others are
  // inlined into), else the last.
  size_t owner = count - 1;
  for (size_t i = 0; i < count; ++i) {
    if (!frames[i].inlined) {
      owner = i;
      break;
    }
  }
  PerfFrame owner_frame;
  ParsePerfFrame(frames[owner].text, &owner_frame);  // it parsed when it was read
  if (owner_frame.inlined) owner_frame.unknown_dso = true;
  // With mmap records the same frame line means another location in another process: the
  // mapping and the runtime address are part of the key.
  uint64_t address = owner_frame.address;
  uint64_t mapping_id = 0;
  if (mappings_ != nullptr) mapping_id = FrameMapping(owner_frame, absolute, &address);
  std::string_view key = frames[0].text;
  if (count > 1 || frames[0].has_src || frames[0].inlined || mappings_ != nullptr) {
    key_.clear();
    for (size_t i = 0; i < count; ++i) {
      key_.append(frames[i].text.data(), frames[i].text.size());
      key_ += frames[i].inlined ? '\x02' : '\n';
      if (frames[i].has_src) {
        key_.append(frames[i].src_file.data(), frames[i].src_file.size());
        key_ += ':';
        AppendInt(&key_, frames[i].src_line);
      }
      key_ += '\n';
    }
    if (mappings_ != nullptr) {
      key_ += '@';
      AppendInt(&key_, static_cast<int64_t>(mapping_id));
      key_ += ':';
      AppendInt(&key_, static_cast<int64_t>(address));
    }
    key = key_;
  }
  auto it = locations_.find(key);
  if (it != locations_.end()) return it->second;
  Location location;
  location.address = address;
  location.mapping_id =
      mappings_ != nullptr ? mapping_id : FrameMapping(owner_frame, absolute, &address);
  for (size_t f = 0; f < count; ++f) {
    PerfFrame frame;
    ParsePerfFrame(frames[f].text, &frame);
    if (frame.unknown_symbol) continue;
    // perf-map-agent's inlined Java frames, in a JIT map only (perf_symbols.h).
    const std::vector<std::string_view> parts = CodeKindOfMapping(frame.dso) == CodeKind::kJit
                                                    ? SplitJitInlineChain(frame.symbol)
                                                    : std::vector<std::string_view>{frame.symbol};
    for (size_t i = parts.size(); i-- > 0;) {  // innermost first
      const bool innermost = i + 1 == parts.size();
      SymbolName names = DemangleSymbol(parts[i]);
      Function function;
      function.name = std::move(names.name);
      function.system_name = std::move(names.system_name);
      if (innermost) function.file.assign(frames[f].src_file.data(), frames[f].src_file.size());
      location.lines.push_back(
          Line{interner_.Function(function), innermost ? frames[f].src_line : 0, 0});
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
  // At most 64 Ki slots (about 2.5 MB), fewer for a small input: one slot per 256 bytes of
  // it, at least 256 (a fuzzer's thousands of small inputs each paid for 64 Ki strings).
  constexpr size_t kMemoSlotsMax = size_t{1} << 16;
  constexpr size_t kMemoSlotsMin = size_t{1} << 8;
  // Long lines (Java signatures can run to kilobytes) skip the memo, which so stays under
  // kMemoSlotsMax * kMemoMaxText bytes.
  constexpr size_t kMemoMaxText = 256;
  FrameView view;
  view.text = frame_text;
  if (frame_text.size() > kMemoMaxText) return FrameLocation(&view, 1, false);
  if (memo_.empty()) {
    size_t slots = kMemoSlotsMin;
    while (slots < kMemoSlotsMax && slots * 256 < input_bytes_) slots *= 2;
    memo_.resize(slots);
  }
  uint64_t head[2] = {0, 0};
  std::memcpy(head, frame_text.data(), frame_text.size() < 16 ? frame_text.size() : 16);
  uint64_t h = (head[0] ^ (head[1] * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
  MemoSlot& slot = memo_[(h >> 40) & (memo_.size() - 1)];
  if (slot.location != 0 && slot.text == frame_text) return slot.location;
  slot.location = FrameLocation(&view, 1, false);
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

void PerfConverter::AddFrame(std::string_view text, bool absolute) {
  const bool inlined = EndsWithInlined(text);
  if (group_size_ > 0) {
    // A frame continues the group when the one before was inlined at the same address.
    const PendingFrame& last = group_[group_size_ - 1];
    if (!(last.inlined && SameAddress(last.text, text))) FlushFrames();
  }
  if (group_size_ == group_.size()) group_.emplace_back();
  PendingFrame& frame = group_[group_size_++];
  frame.text.assign(text.data(), text.size());
  frame.has_src = false;
  frame.src_file.clear();
  frame.src_line = 0;
  frame.inlined = inlined;
  if (group_size_ == 1) group_absolute_ = absolute;
}

void PerfConverter::AddSrcline(std::string_view file, int64_t line, bool inlined) {
  if (group_size_ == 0) return;
  PendingFrame& frame = group_[group_size_ - 1];
  if (frame.has_src) return;
  frame.has_src = true;
  frame.src_file.assign(file.data(), file.size());
  frame.src_line = line;
  frame.inlined |= inlined;
}

void PerfConverter::FlushFrames() {
  if (group_size_ == 0) return;
  views_.clear();
  for (size_t i = 0; i < group_size_; ++i) {
    const PendingFrame& f = group_[i];
    views_.push_back(FrameView{f.text, f.src_file, f.src_line, f.has_src, f.inlined});
  }
  stack_.push_back(FrameLocation(views_.data(), views_.size(), group_absolute_));
  group_size_ = 0;
}

bool PerfConverter::EndsWithInlined(std::string_view text) {
  constexpr std::string_view kInlined = "(inlined)";
  return text.size() > kInlined.size() && text.substr(text.size() - kInlined.size()) == kInlined;
}

bool PerfConverter::SameAddress(std::string_view a, std::string_view b) {
  return a.substr(0, a.find_first_of(" \t")) == b.substr(0, b.find_first_of(" \t"));
}

void PerfConverter::Convert(size_t index, ByteStream* stream) {
  const PerfInput& input = inputs_[index];
  if (input.plan.late_capture_line != 0) {
    warnings_->Warning(Diagnostic{Rule::kInput, input.name, input.plan.late_capture_line,
                                  "a capture time past 2262 does not fit 64-bit nanoseconds "
                                  "since 1970: the source has no time"});
  }
  LimitedStream limited(stream, input.plan.bytes);
  unknown_lines_ = 0;
  mappings_.reset(input.plan.mmaps > 0 ? new PerfMappings : nullptr);
  // Frames go through the memo unless they need more than their own line.
  const bool plain_frames = input.plan.srclines == 0 && mappings_ == nullptr;
  Sample sample;
  sample.source_id = index + 1;
  bool open = false;  // a sample is being read
  std::string last_event = "\x01";
  size_t type_index = 0;
  int64_t no_period_worth = 1;  // of a sample of the current event without a period
  bool sched_switch = false;    // the current event is sched:sched_switch
  bool offcpu_time = false;     // the current event is perf's offcpu-time
  group_size_ = 0;

  // --off-cpu: the intervals of threads switched out, and what a switch-out waits for: its
  // stack, known at the end of its sample.
  std::unique_ptr<PerfOffCpu> off_cpu;
  Sample off_sample;
  off_sample.source_id = index + 1;
  if (off_cpu_type_) {
    off_cpu = std::make_unique<PerfOffCpu>([&](int64_t /*tid*/, uint64_t stack_id,
                                               const std::vector<Label>& labels, int64_t time,
                                               int64_t duration) {
      off_sample.stack_id = stack_id;
      off_sample.values.assign(header_.types.size(), 0);
      off_sample.values[*off_cpu_type_] = duration;
      off_sample.time_nanos = time;
      off_sample.duration_nanos = duration;
      off_sample.labels = labels;
      sink_->OnSample(off_sample);
    });
  }
  struct SwitchOut {
    bool pending = false;
    int64_t tid = 0;
    int64_t time = 0;
    std::vector<Label> labels;
    std::string state;
  } switch_out;
  int64_t last_time = 0;
  bool any_time = false;

  auto end_sample = [&] {
    FlushFrames();
    if (!open) return;
    open = false;
    sample.stack_id = interner_.Stack(stack_);
    sink_->OnSample(sample);
    if (switch_out.pending) {
      switch_out.pending = false;
      off_cpu->SwitchedOut(switch_out.tid, switch_out.time, sample.stack_id,
                           std::move(switch_out.labels), std::move(switch_out.state));
    }
  };

  // A PerfScriptReader, or a PerfPipelinedReader: the same lines either way.
  auto convert_lines = [&](auto& reader) {
    while (reader.Next()) {
      switch (reader.kind()) {
        case PerfScriptReader::Kind::kFrame:
          if (plain_frames && group_size_ == 0 && !EndsWithInlined(reader.frame_text())) {
            stack_.push_back(MemoizedFrameLocation(reader.frame_text()));  // the common case
            break;
          }
          AddFrame(reader.frame_text(), false);
          // Without srclines a frame not tagged (inlined) ends its group: no later frame joins
          // it, and the frames after it take the common path again.
          if (plain_frames && !group_[group_size_ - 1].inlined) FlushFrames();
          break;
        case PerfScriptReader::Kind::kSrcline:
          AddSrcline(reader.src_file(), reader.src_line(), reader.src_inlined());
          break;
        case PerfScriptReader::Kind::kBlank:
          end_sample();
          break;
        case PerfScriptReader::Kind::kComment:
          break;
        case PerfScriptReader::Kind::kRecord: {
          end_sample();
          const PerfRecordLine& record = reader.record();
          if (record.kind == PerfRecordLine::Kind::kMmap && mappings_ != nullptr) {
            mappings_->Add(record);
          }
          if (record.header.has_time) {
            last_time = std::max(last_time, record.header.time_nanos);
            any_time = true;
            if (off_cpu && record.kind == PerfRecordLine::Kind::kSwitchIn) {
              off_cpu->Running(record.header.tid, record.header.time_nanos);
            }
            // A thread that exits ran until then (--show-task-events prints the exits).
            if (off_cpu && record.kind == PerfRecordLine::Kind::kExit) {
              off_cpu->Running(record.tid, record.header.time_nanos);
            }
          }
          break;
        }
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
            auto fixed = fixed_period_.find(EventName(h.event));
            no_period_worth = fixed != fixed_period_.end() ? fixed->second : 1;
            const std::string_view base = SplitPerfEvent(h.event).base;
            sched_switch = base == kSchedSwitch;
            offcpu_time = base == kOffCpuTime;
          }
          open = true;
          stack_.clear();
          pid_ = h.has_pid ? h.pid : -1;
          tid_ = h.tid;
          sample.values.assign(header_.types.size(), 0);
          sample.values[type_index] = 1;
          sample.values[type_index + 1] = h.has_period ? h.period : no_period_worth;
          sample.time_nanos.reset();
          sample.duration_nanos.reset();
          if (h.has_time) {
            sample.time_nanos = h.time_nanos;
            last_time = std::max(last_time, h.time_nanos);
            any_time = true;
          }
          sample.labels.clear();
          if (!h.comm.empty())
            sample.labels.push_back(Label::String(kCommLabel, std::string(h.comm)));
          if (h.has_pid) sample.labels.push_back(Label::Number(kPidLabel, h.pid));
          sample.labels.push_back(Label::Number(kTidLabel, h.tid));
          if (off_cpu && h.has_time) {
            if (sched_switch) {
              // The thread leaving is prev_pid (the header's own thread when perf printed one).
              int64_t prev = h.tid;
              ParsePerfInteger(TracepointArgument(h.rest, "prev_pid"), &prev);
              int64_t next = -1;
              if (ParsePerfInteger(TracepointArgument(h.rest, "next_pid"), &next)) {
                off_cpu->Running(next, h.time_nanos);
              }
              switch_out.pending = true;
              switch_out.tid = prev;
              switch_out.time = h.time_nanos;
              switch_out.labels = sample.labels;
              switch_out.state = std::string(TracepointArgument(h.rest, "prev_state"));
            } else {
              off_cpu->Running(h.tid, h.time_nanos);
            }
            if (offcpu_time && h.has_period) {
              sample.values[*off_cpu_type_] = h.period;
              sample.duration_nanos = h.period;
            }
          }
          if (h.has_cpu) sample.labels.push_back(Label::Number("cpu", static_cast<int64_t>(h.cpu)));
          if (reader.header_frame()) {
            AddFrame(reader.frame_text(), true);
          } else if (!h.rest.empty()) {
            AppendTracepointLabels(h.rest, &sample.labels);
          }
          break;
        }
      }
    }
  };
  try {
    if (input.plan.bytes >= options_.pipeline_min_bytes &&
        std::thread::hardware_concurrency() != 1) {
      PerfPipelinedReader reader(&limited, options_.pipeline_block_bytes);
      convert_lines(reader);
    } else {
      PerfScriptReader reader(&limited);
      convert_lines(reader);
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, input.name, e.line_number,
                               "line longer than 64 MiB: this is not perf script output"});
  }
  end_sample();
  if (off_cpu && any_time) {
    // Intervals nothing closed run to the input's end, which may be long after the thread ran
    // again: say which, and what would have closed them.
    const std::string open = off_cpu->OpenThreadsSummary();
    if (!open.empty()) {
      warnings_->Warning(Diagnostic{
          Rule::kInput, input.name, 0,
          "--off-cpu: " + open +
              " switched out and not seen running again before the input ended: their last "
              "off-CPU interval runs to its last timestamp (perf script --show-task-events "
              "prints the exits that end them; record with -a or --switch-events to see when "
              "threads run)"});
    }
    off_cpu->End(last_time);
  }
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
