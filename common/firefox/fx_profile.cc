#include "common/firefox/fx_profile.h"

#include <cmath>
#include <map>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/firefox/fx_tables.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

constexpr double kMaxNanos = 9.2e18;  // a little under 2^63

// The profile's value types: samples always; the others when a thread has them.
struct Types {
  int tracing = -1, bytes = -1, cpu = -1;
  std::vector<ValueType> list;
};

Types TypesOf(const FxProfile& profile) {
  Types types;
  types.list.push_back({"samples", "count"});
  bool tracing = false, bytes = false, cpu = false;
  for (const FxThread& thread : profile.threads) {
    tracing |= thread.weight == FxWeight::kTracingMs;
    bytes |= thread.weight == FxWeight::kBytes;
    cpu |= !thread.sample_cpu.empty();
  }
  if (tracing) {
    // The profiler's tracing-ms weights: how long each sample's stack ran, in milliseconds.
    types.tracing = static_cast<int>(types.list.size());
    types.list.push_back({"wall", "microseconds"});
  }
  if (bytes) {
    types.bytes = static_cast<int>(types.list.size());
    types.list.push_back({"bytes", "bytes"});
  }
  if (cpu) {
    types.cpu = static_cast<int>(types.list.size());
    // threadCPUDelta: the CPU time (or cycles) the thread used since its previous sample.
    if (profile.cpu_unit == "ns") {
      types.list.push_back({"cpu", "nanoseconds"});
    } else if (profile.cpu_unit == "µs" || profile.cpu_unit.empty()) {
      types.list.push_back({"cpu", "microseconds"});
    } else {
      types.list.push_back({"cpu-cycles", "count"});
    }
  }
  return types;
}

int64_t Rounded(double value) {
  if (!(value > -kMaxNanos && value < kMaxNanos)) return 0;  // the readers check their ranges
  return std::llround(value);
}

class Converter {
 public:
  Converter(FxProfile& profile, ProfileSink* sink, uint64_t max_frames, const std::string& name)
      : profile_(profile), sink_(sink), interner_(sink) {
    interner_.LimitFrames(max_frames, name);
  }

  void Thread(const FxThread& thread, const Types& types);

 private:
  uint64_t MappingOf(size_t set, int64_t lib);
  uint64_t LocationOf(const FxThread& thread, size_t frame);

  FxProfile& profile_;
  ProfileSink* sink_;
  Interner interner_;
  std::map<std::pair<size_t, int64_t>, uint64_t> mappings_;
};

uint64_t Converter::MappingOf(size_t set, int64_t lib) {
  const auto found = mappings_.find({set, lib});
  if (found != mappings_.end()) return found->second;
  const FxLib& info = profile_.lib_sets[set][static_cast<size_t>(lib)];
  Mapping mapping;
  mapping.start = info.start;
  mapping.limit = info.end;
  mapping.offset = info.offset;
  mapping.file = info.path;
  mapping.build_id = info.build_id;
  const uint64_t id = interner_.Mapping(mapping);
  mappings_[{set, lib}] = id;
  return id;
}

uint64_t Converter::LocationOf(const FxThread& thread, size_t index) {
  const FxFrame& frame = thread.frames[index];
  Location location;
  if (frame.address) {
    location.address = *frame.address;
    if (frame.lib >= 0) location.mapping_id = MappingOf(thread.libs, frame.lib);
  }
  if (!frame.name.empty()) {
    Function function;
    function.name = frame.name;
    function.file = frame.file;
    function.start_line = frame.function_line;
    location.lines.push_back(Line{interner_.Function(function), frame.line, frame.column});
  }
  return interner_.Location(location);
}

void Converter::Thread(const FxThread& thread, const Types& types) {
  // Stacks: built when a sample asks, from the leaf up (each prefix is before its stack, so the
  // walk ends), and remembered by row; a stack's category is its frame's, else its prefix's (as
  // the profiler derives it).
  const size_t stacks = thread.stack_frame.size();
  std::vector<uint64_t> locations(thread.frames.size(), 0);
  std::vector<int64_t> category(stacks, -1);
  for (size_t i = 0; i < stacks; ++i) {
    const size_t frame = static_cast<size_t>(thread.stack_frame[i]);
    if (locations[frame] == 0) locations[frame] = LocationOf(thread, frame);
    const int64_t prefix = thread.stack_prefix[i];
    category[i] = thread.frames[frame].category;
    if (category[i] < 0 && prefix >= 0) category[i] = category[static_cast<size_t>(prefix)];
  }
  std::vector<uint64_t> interned(stacks, 0);  // 0: not built yet
  std::vector<uint64_t> path;
  const auto stack_of = [&](size_t row) {
    if (interned[row] == 0) {
      path.clear();
      for (int64_t k = static_cast<int64_t>(row); k >= 0; k = thread.stack_prefix[k]) {
        path.push_back(locations[static_cast<size_t>(thread.stack_frame[k])]);
      }
      interned[row] = interner_.Stack(path);
    }
    return interned[row];
  };
  const uint64_t empty_stack = interner_.Stack({});

  Sample sample;
  sample.source_id = 1;
  sample.values.assign(types.list.size(), 0);
  std::vector<Label> labels;
  const FxThreadNames& names = thread.names;
  if (names.pid) labels.push_back(Label::Number(kPidLabel, *names.pid));
  if (names.tid) labels.push_back(Label::Number(kTidLabel, *names.tid));
  if (!names.name.empty()) labels.push_back(Label::String(kThreadLabel, names.name));
  if (!names.process_name.empty()) {
    labels.push_back(Label::String("process", names.process_name));
  }
  sample.labels = labels;
  for (size_t i = 0; i < thread.sample_stack.size(); ++i) {
    const int64_t stack = thread.sample_stack[i];
    sample.stack_id = stack < 0 ? empty_stack : stack_of(static_cast<size_t>(stack));
    sample.time_nanos = thread.sample_time[i];
    const double weight = thread.sample_weight.empty() ? 1 : thread.sample_weight[i];
    std::fill(sample.values.begin(), sample.values.end(), 0);
    switch (thread.weight) {
      case FxWeight::kSamples:
        sample.values[0] = Rounded(weight);
        break;
      case FxWeight::kTracingMs:
        sample.values[0] = 1;
        sample.values[types.tracing] = Rounded(weight * 1000);
        break;
      case FxWeight::kBytes:
        sample.values[0] = 1;
        sample.values[types.bytes] = Rounded(weight);
        break;
    }
    if (!thread.sample_cpu.empty()) sample.values[types.cpu] = Rounded(thread.sample_cpu[i]);
    // The thread's labels stay from one sample to the next; only the category is replaced.
    sample.labels.resize(labels.size());
    const int64_t cat = stack < 0 ? -1 : category[static_cast<size_t>(stack)];
    // One category says nothing (prof2firefox writes only "Other"); several are the profiler's.
    if (cat >= 0 && static_cast<size_t>(cat) < profile_.categories.size() &&
        profile_.categories.size() > 1) {
      sample.labels.push_back(Label::String("category", profile_.categories[cat]));
    }
    sink_->OnSample(sample);
  }
}

}  // namespace

bool ReadThreadNames(JsonDocument& json, std::string_view key, JsonValue& value,
                     const std::string& at, FxThreadNames* names) {
  if (key == "name") {
    names->name = std::string(json.String(std::move(value), at));
  } else if (key == "processName") {
    names->process_name = std::string(json.String(std::move(value), at));
  } else if (key == "pid") {
    names->pid = ReadFxId(json, std::move(value), at);
  } else if (key == "tid") {
    names->tid = ReadFxId(json, std::move(value), at);
  } else {
    return false;
  }
  return true;
}

int64_t EpochMillisToNanos(JsonDocument& json, double ms, const std::string& what) {
  if (!(ms >= 0 && ms < kMaxNanos / 1e6)) {
    json.Fail(what + ": not a time in milliseconds since 1970 that 64-bit nanoseconds hold");
  }
  // The whole milliseconds exactly, then the fraction: a double holds today's epoch
  // milliseconds to about 0.2 µs, its product with 1e6 only to 256 ns.
  const double whole = std::floor(ms);
  return static_cast<int64_t>(whole) * 1000000 + std::llround((ms - whole) * 1e6);
}

int64_t AddMillis(JsonDocument& json, int64_t base, double ms, const std::string& table,
                  const char* column, uint64_t row) {
  const auto fail = [&](const char* what) {
    json.Fail(table + "." + column + "[" + std::to_string(row) + "]: " + what);
  };
  const double nanos = ms * 1e6;
  if (!(nanos > -kMaxNanos && nanos < kMaxNanos)) {
    fail("a time beyond what 64-bit nanoseconds hold");
  }
  int64_t sum = 0;
  if (__builtin_add_overflow(base, std::llround(nanos), &sum) || sum < 0) {
    fail("a time beyond what 64-bit nanoseconds since 1970 hold");
  }
  return sum;
}

void ConvertFxProfile(JsonDocument& json, FxProfile& profile, const ReadContext& context,
                      ProfileSink* sink) {
  size_t samples = 0;
  for (const FxThread& thread : profile.threads) samples += thread.sample_stack.size();
  if (samples == 0 && !context.allow_empty) {
    throw ProfError(json.name(), std::string("a ") + profile.format +
                                     " without samples (was the profiler's sampling off?)");
  }
  const Types types = TypesOf(profile);
  ProfileHeader header;
  header.time_nanos = profile.start_ns;
  header.meta.push_back(
      {"format", std::string(profile.format) + " version " + std::to_string(profile.version)});
  if (!profile.product.empty()) header.meta.push_back({"product", profile.product});
  if (profile.interval_ms > 0 && profile.interval_ms < 1e9) {
    header.period = Period{{"wall", "nanoseconds"}, std::llround(profile.interval_ms * 1e6)};
  }
  header.sources.push_back(Source{1, "firefox", context.uri, profile.start_ns});
  header.types = types.list;
  header.default_type = "samples";
  sink->OnHeader(header);
  Converter converter(profile, sink, context.max_implied_frames(), json.name());
  for (const FxThread& thread : profile.threads) converter.Thread(thread, types);
  sink->OnEnd();
}

}  // namespace proftools
