// kSpeedscopeReader: the file read whole (speedscope_file), then each profile converted in order.
#include "common/speedscope/speedscope_codec.h"

#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "common/base/counted.h"
#include "common/base/strings.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"
#include "common/speedscope/speedscope_file.h"
#include "common/speedscope/speedscope_units.h"

namespace proftools {
namespace {

// A sample may not be deeper than a prof text line can hold (as the pprof reader caps it).
constexpr size_t kMaxStackDepth = size_t{1} << 22;

class Converter {
 public:
  Converter(JsonDocument& json, const ReadContext& context, const SpeedscopeFile& file,
            ProfileSink* sink)
      : json_(json), context_(context), file_(file), sink_(sink), interner_(sink) {
    interner_.LimitFrames(context.max_implied_frames(), json.name());
  }

  void Run();

 private:
  // `number` (in speedscope's unit) times `factor`, rounded to an integer; a fraction is counted
  // for the warning, a result beyond 64 bits is an error naming `what` at `byte`.
  int64_t Scale(const JsonNumber& number, int64_t factor, uint64_t byte, const std::string& what);
  uint64_t LocationOf(uint64_t frame, uint64_t byte, const std::string& what);
  // The stack of the frames `root_first` (indexes already located in `locations_`).
  uint64_t StackOf(const std::vector<uint64_t>& root_first);
  void Sampled(size_t index, const SpeedscopeProfile& profile);
  void Evented(size_t index, const SpeedscopeProfile& profile);
  void Emit(uint64_t stack, std::optional<int64_t> time, std::optional<int64_t> duration,
            int64_t value);
  [[noreturn]] void Fail(uint64_t byte, const std::string& message) { json_.Fail(message, byte); }

  JsonDocument& json_;
  const ReadContext& context_;
  const SpeedscopeFile& file_;
  ProfileSink* sink_;
  Interner interner_;
  std::vector<uint64_t> locations_;           // per frame, 0 until first used
  std::vector<const SpeedscopeUnit*> units_;  // per profile
  std::vector<size_t> type_of_;               // per profile: its value type's index
  size_t type_count_ = 0;
  size_t current_type_ = 0;  // the type of the profile being converted
  Sample sample_;
  uint64_t samples_ = 0;
  uint64_t rounded_ = 0;
  std::vector<uint64_t> scratch_;  // a stack, leaf first
};

int64_t Converter::Scale(const JsonNumber& number, int64_t factor, uint64_t byte,
                         const std::string& what) {
  int64_t out = 0;
  if (number.is_integer) {
    if (__builtin_mul_overflow(number.integer, factor, &out)) {
      Fail(byte, what + ": beyond what 64-bit integers hold in " +
                     (factor == 1 ? std::string("its unit") : std::string("nanoseconds")));
    }
    return out;
  }
  const double scaled = number.real * static_cast<double>(factor);
  if (!std::isfinite(scaled) || std::fabs(scaled) >= 9.2e18) {
    Fail(byte, what + ": beyond what 64-bit integers hold in " +
                   (factor == 1 ? std::string("its unit") : std::string("nanoseconds")));
  }
  out = static_cast<int64_t>(std::llround(scaled));
  if (static_cast<double>(out) != scaled) ++rounded_;
  return out;
}

uint64_t Converter::LocationOf(uint64_t frame, uint64_t byte, const std::string& what) {
  if (frame >= file_.frames.size()) {
    Fail(byte, what + ": frame " + std::to_string(frame) + " is not among the " +
                   Counted(file_.frames.size(), "shared frame", "shared frames"));
  }
  uint64_t& location = locations_[frame];
  if (location == 0) {
    const SpeedscopeFrame& f = file_.frames[frame];
    Function function;
    function.name = f.name.empty() ? "(no name)" : f.name;  // prof text's names are not empty
    function.file = f.file;
    function.start_line = f.line.value_or(0);
    Location l;
    l.lines.push_back(Line{interner_.Function(function), f.line.value_or(0), f.col.value_or(0)});
    location = interner_.Location(l);
  }
  return location;
}

uint64_t Converter::StackOf(const std::vector<uint64_t>& root_first) {
  scratch_.assign(root_first.rbegin(), root_first.rend());
  return interner_.Stack(scratch_);
}

void Converter::Emit(uint64_t stack, std::optional<int64_t> time, std::optional<int64_t> duration,
                     int64_t value) {
  sample_.stack_id = stack;
  sample_.time_nanos = time;
  sample_.duration_nanos = duration;
  sample_.values.assign(type_count_, 0);
  sample_.values[current_type_] = value;
  sink_->OnSample(sample_);
  ++samples_;
}

void Converter::Sampled(size_t index, const SpeedscopeProfile& profile) {
  const std::string at = "profiles[" + std::to_string(index) + "]";
  if (!profile.has_samples) Fail(profile.byte, at + ": a sampled profile without samples");
  if (!profile.has_weights) Fail(profile.byte, at + ": a sampled profile without weights");
  const size_t n = profile.stack_ends.size();
  if (profile.weights.size() != n) {
    // speedscope's own words: "Expected samples.length (N) to equal weights.length (M)".
    Fail(profile.weights_byte, at + ": " + Counted(n, "sample", "samples") + " but " +
                                   Counted(profile.weights.size(), "weight", "weights") +
                                   " (speedscope expects one weight per sample)");
  }
  std::vector<uint64_t> stack;
  size_t begin = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t end = profile.stack_ends[i];
    const std::string what = at + ".samples[" + std::to_string(i) + "]";
    if (end - begin > kMaxStackDepth) {
      Fail(profile.sample_bytes[i],
           what + ": more than " + std::to_string(kMaxStackDepth) + " frames");
    }
    stack.clear();
    for (size_t k = begin; k < end; ++k) {
      stack.push_back(LocationOf(profile.stack_frames[k], profile.sample_bytes[i], what));
    }
    begin = end;
    const int64_t value = Scale(profile.weights[i], units_[index]->factor, profile.weights_byte,
                                at + ".weights[" + std::to_string(i) + "]");
    Emit(StackOf(stack), std::nullopt, std::nullopt, value);
  }
}

void Converter::Evented(size_t index, const SpeedscopeProfile& profile) {
  const std::string at = "profiles[" + std::to_string(index) + "]";
  if (!profile.has_events) Fail(profile.byte, at + ": an evented profile without events");
  const SpeedscopeUnit& unit = *units_[index];
  std::optional<int64_t> start;
  if (profile.start) start = Scale(*profile.start, unit.factor, profile.byte, at + ".startValue");
  std::vector<uint64_t> frames;     // the open frames, root first
  std::vector<uint64_t> locations;  // their locations
  int64_t last = 0;
  bool has_last = false;
  for (size_t i = 0; i < profile.events.size(); ++i) {
    const SpeedscopeEvent& event = profile.events[i];
    const std::string what = at + ".events[" + std::to_string(i) + "]";
    const int64_t value = Scale(event.at, unit.factor, event.byte, what + ".at");
    // speedscope's importer: "Samples must be provided in increasing order of cumulative value"
    // (the first event is measured against startValue).
    if (has_last && value < last) {
      Fail(event.byte, what + ": at goes backwards (speedscope wants events in increasing order " +
                           "of at): " + std::to_string(value) + " after " + std::to_string(last) +
                           (unit.is_time ? " ns" : ""));
    }
    if (!has_last && start && value < *start) {
      Fail(event.byte, what + ": at is before the profile's startValue (speedscope wants events " +
                           "from startValue on)");
    }
    if (has_last && value > last && !frames.empty()) {
      if (unit.is_time && last < 0) {
        Fail(event.byte, what + ": a stretch starts before time 0 (prof text's times are from 0)");
      }
      Emit(StackOf(locations), unit.is_time ? std::optional<int64_t>(last) : std::nullopt,
           unit.is_time ? std::optional<int64_t>(value - last) : std::nullopt, value - last);
    }
    if (event.open) {
      if (frames.size() >= kMaxStackDepth) {
        Fail(event.byte, what + ": more than " + std::to_string(kMaxStackDepth) + " frames open");
      }
      locations.push_back(LocationOf(event.frame, event.byte, what));
      frames.push_back(event.frame);
    } else {
      LocationOf(event.frame, event.byte, what);  // in range
      if (frames.empty()) {
        Fail(event.byte, what + ": closes frame " + std::to_string(event.frame) + " (\"" +
                             file_.frames[event.frame].name +
                             "\") while no frame is open (speedscope: trying to leave a frame " +
                             "when the stack is empty)");
      }
      if (frames.back() != event.frame) {
        Fail(event.byte,
             what + ": closes frame " + std::to_string(event.frame) + " (\"" +
                 file_.frames[event.frame].name + "\") while frame " +
                 std::to_string(frames.back()) + " (\"" + file_.frames[frames.back()].name +
                 "\") is on top (speedscope: tried to leave a frame that was not at " + "the top)");
      }
      frames.pop_back();
      locations.pop_back();
    }
    last = value;
    has_last = true;
  }
  if (!frames.empty()) {
    Fail(profile.byte, at + ": " + Counted(frames.size(), "frame is", "frames are") +
                           " still open after the last event, the innermost " +
                           std::to_string(frames.back()) + " (\"" +
                           file_.frames[frames.back()].name +
                           "\") (speedscope: a non-empty stack at the end)");
  }
}

void Converter::Run() {
  if (file_.schema && *file_.schema != kSpeedscopeSchema) {
    Fail(1, "$schema is \"" + *file_.schema + "\", not speedscope's (" + kSpeedscopeSchema + ")");
  }
  if (!file_.has_profiles) Fail(1, "no `profiles`: not a speedscope file");
  if (!file_.has_frames) Fail(1, "no `shared.frames`: not a speedscope file");
  locations_.assign(file_.frames.size(), 0);

  // One value type per kind of unit, in order of first use.
  ProfileHeader header;
  header.sources.push_back(Source{1, "speedscope", context_.uri, std::nullopt});
  std::map<std::string, size_t> types;
  for (size_t i = 0; i < file_.profiles.size(); ++i) {
    const SpeedscopeProfile& profile = file_.profiles[i];
    const std::string at = "profiles[" + std::to_string(i) + "]";
    if (profile.type != "sampled" && profile.type != "evented") {
      Fail(profile.byte,
           at + ": type " +
               (profile.type.empty() ? std::string("missing") : "\"" + profile.type + "\"") +
               ": \"sampled\" or \"evented\" belongs here");
    }
    const SpeedscopeUnit* unit = FindSpeedscopeUnit(profile.unit);
    if (unit == nullptr) {
      Fail(profile.byte,
           at + ": unit " +
               (profile.unit.empty() ? std::string("missing") : "\"" + profile.unit + "\"") +
               ": one of none, nanoseconds, microseconds, milliseconds, seconds "
               "and bytes belongs here");
    }
    units_.push_back(unit);
    const auto inserted = types.emplace(unit->type, header.types.size());
    if (inserted.second) header.types.push_back(ValueType{unit->type, unit->unit});
    type_of_.push_back(inserted.first->second);
  }
  if (header.types.empty()) header.types.push_back(ValueType{"weight", "count"});
  type_count_ = header.types.size();
  if (file_.active_profile_index && *file_.active_profile_index >= 0 &&
      static_cast<uint64_t>(*file_.active_profile_index) < file_.profiles.size()) {
    header.default_type = header.types[type_of_[*file_.active_profile_index]].type;
  }
  if (file_.name) header.meta.push_back(MetaEntry{"speedscope.name", *file_.name});
  if (file_.exporter) header.meta.push_back(MetaEntry{"speedscope.exporter", *file_.exporter});
  sink_->OnHeader(header);

  sample_.source_id = 1;
  for (size_t i = 0; i < file_.profiles.size(); ++i) {
    const SpeedscopeProfile& profile = file_.profiles[i];
    current_type_ = type_of_[i];
    sample_.labels.clear();
    if (profile.name) {
      sample_.labels.push_back(Label::String(kThreadLabel, *profile.name));
    }
    if (profile.type == "sampled") {
      Sampled(i, profile);
    } else {
      Evented(i, profile);
    }
  }
  if (samples_ == 0 && !context_.allow_empty) {
    throw ProfError(json_.name(),
                    "a speedscope file without samples (no profile has a sample "
                    "or a stretch with frames open)");
  }
  if (rounded_ > 0 && context_.warnings != nullptr) {
    context_.warnings->Warning(Diagnostic{
        Rule::kInput, json_.name(), 0,
        Counted(rounded_, "weight or time was", "weights or times were") +
            " not a whole number of nanoseconds (times) or units (bytes, none): rounded"});
  }
  sink_->OnEnd();
}

void ReadSpeedscope(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  const SpeedscopeFile file = ReadSpeedscopeFile(json);
  Converter converter(json, context, file, sink);
  converter.Run();
}

}  // namespace

int SniffSpeedscope(std::string_view head, bool text) {
  if (!text) return kNotMine;
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '{') return kNotMine;
  if (Contains(head, "\"$schema\"") && Contains(head, kSpeedscopeSchema)) return kCertain;
  return Contains(head, "\"profiles\"") && Contains(head, "\"shared\"") ? kLikely : kNotMine;
}

const ReaderSpec kSpeedscopeReader = {
    "speedscope", "a speedscope file", ReaderShape::kWholeInput,
    nullptr,      SniffSpeedscope,     ReadSpeedscope,
};

}  // namespace proftools
