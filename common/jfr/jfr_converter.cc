#include "common/jfr/jfr_converter.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"
#include "common/jfr/jfr_chunk.h"
#include "common/jfr/jfr_hidden_classes.h"
#include "common/jfr/jfr_input.h"
#include "common/jfr/jfr_metadata.h"
#include "common/jfr/jfr_settings.h"
#include "common/jfr/jfr_stream.h"
#include "common/jfr/jfr_values.h"
#include "common/model/frame_kind.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

constexpr uint64_t kMetadataEvent = 0;
constexpr uint64_t kConstantPoolEvent = 1;

enum class Weight { kCount, kPeriod, kDuration, kField };

// The event types whose values are more than a count or a duration: what they weigh.
struct KnownEvent {
  const char* event;
  const char* count;   // the type counting events
  const char* weight;  // the type weighing them
  const char* unit;
  Weight by;
  const char* field;  // Weight::kField: the event's field
};
constexpr KnownEvent kKnownEvents[] = {
    {"jdk.ExecutionSample", "samples", "cpu", "nanoseconds", Weight::kPeriod, ""},
    {"jdk.NativeMethodSample", "native-samples", "native", "nanoseconds", Weight::kPeriod, ""},
    {"jdk.ObjectAllocationSample", "alloc-samples", "alloc", "bytes", Weight::kField, "weight"},
    {"jdk.ObjectAllocationInNewTLAB", "tlab-objects", "tlab", "bytes", Weight::kField, "tlabSize"},
    {"jdk.ObjectAllocationOutsideTLAB", "outside-tlab-objects", "outside-tlab", "bytes",
     Weight::kField, "allocationSize"},
};

// What an event type becomes: its columns among the profile's value types.
struct Plan {
  std::string event;
  int count_column = -1;
  int weight_column = -1;
  Weight by = Weight::kCount;
  std::string field;
};

// "jdk.JavaMonitorEnter" → "java-monitor-enter".
std::string KebabName(const std::string& event) {
  const size_t dot = event.rfind('.');
  const std::string base = dot == std::string::npos ? event : event.substr(dot + 1);
  std::string out;
  for (size_t i = 0; i < base.size(); ++i) {
    const char c = base[i];
    if (c >= 'A' && c <= 'Z') {
      const bool after_lower = i > 0 && !(base[i - 1] >= 'A' && base[i - 1] <= 'Z');
      const bool before_lower = i + 1 < base.size() && base[i + 1] >= 'a' && base[i + 1] <= 'z';
      if (i > 0 && (after_lower || before_lower)) out += '-';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out.empty() ? "events" : out;
}

bool HasStacks(const JfrType& type) {
  const int f = type.FieldIndex("stackTrace");
  return type.is_event() && f >= 0 && type.fields[static_cast<size_t>(f)].pooled;
}

// Calls `event(type, input over the event's fields, start byte)` for each event of `chunk` but
// the metadata and constant-pool events.
template <typename F>
void ForEachEvent(const JfrBytes& file, const std::string& name, const JfrChunk& chunk, F&& event) {
  uint64_t at = chunk.start + kJfrChunkHeaderSize;
  while (at < chunk.end) {
    JfrInput in = JfrInput::Event(file, &name, at, chunk.end, "an event");
    const uint64_t end = in.end();
    const uint64_t type = in.Varint();
    if (type != kMetadataEvent && type != kConstantPoolEvent) event(type, &in, at);
    at = end;
  }
}

class Converter {
 public:
  Converter(ByteStream* stream, const std::function<ByteStream*()>& again, const std::string& name,
            const ReadContext& context, const JfrOptions& options, ProfileSink* sink)
      : stream_(stream),
        again_(again),
        name_(name),
        context_(context),
        options_(options),
        sink_(sink) {}

  void Run() {
    // A first reading, chunk by chunk, for what the header must declare (the event types with
    // stacks, the periods), then a second that converts the events; one chunk at a time in
    // memory either way. A recording of one chunk (the usual) is read once: it is still held.
    JfrChunkReader first(stream_, name_, context_.max_input_size);
    while (first.Next()) {
      chunks_.push_back(first.chunk());
      Survey(first.bytes(), first.chunk());
      if (first.last()) break;
    }
    if (chunks_.empty()) throw ProfError(name_, "an empty file, not a JFR recording");
    MakePlans();
    Header();
    Interner interner(sink_);
    interner_ = &interner;
    JfrPeriods periods;
    if (chunks_.size() == 1 && first.last()) {  // its bytes still held
      periods.Update(chunk_periods_[0]);
      Convert(first.bytes(), chunks_[0], periods);
    } else {
      JfrChunkReader second(again_(), name_, context_.max_input_size);
      for (size_t c = 0; c < chunks_.size(); ++c) {
        if (!second.Next() || second.chunk().end != chunks_[c].end) {
          throw ProfError(name_, "changed between its two readings (a recording still written?)");
        }
        periods.Update(chunk_periods_[c]);
        Convert(second.bytes(), chunks_[c], periods);
      }
    }
    Warn();
    sink_->OnEnd();
  }

 private:
  struct Chunk;  // what is known of the chunk being converted
  void Survey(const JfrBytes& file, const JfrChunk& chunk);
  void MakePlans();
  void Header();
  void Convert(const JfrBytes& file, const JfrChunk& chunk, const JfrPeriods& periods);
  void Warn();

  // A class's JVM name, without the ids of hidden classes unless --keep-lambda-ids.
  std::string Hidden(std::string jvm_name) const {
    return options_.keep_lambda_ids ? jvm_name : WithoutHiddenClassIds(std::move(jvm_name));
  }

  bool Selected(const std::string& event) const {
    if (options_.events.empty()) return true;
    for (const std::string& e : options_.events) {
      if (e == event || "jdk." + e == event) return true;
    }
    return false;
  }

  ByteStream* stream_;
  const std::function<ByteStream*()>& again_;  // the stream from its first byte again
  const std::string& name_;
  const ReadContext& context_;
  const JfrOptions& options_;
  ProfileSink* sink_;
  Interner* interner_ = nullptr;

  // What an event type needs from the survey, by its index in the metadata: found once per
  // metadata, not by name for every event. surveyed_ holds the metadata they were made for (a
  // pointer alone could be a freed metadata's, reused).
  struct SurveyKind {
    bool setting = false, stacks = false;
    bool jvm_information = false;  // jdk.JVMInformation: the program's arguments
    uint64_t* count = nullptr;     // in present_, when the first event of the type comes
    bool* seen = nullptr;          // in stacks_seen_
    bool* duration = nullptr;      // in has_duration_
  };
  std::vector<SurveyKind> kinds_;
  // The program the JVM ran (its main class or jar, from jdk.JVMInformation): the first mapping,
  // which pprof shows as the profile's "File:".
  std::string program_;
  bool program_mapped_ = false;
  std::shared_ptr<const JfrMetadata> surveyed_;
  std::vector<JfrChunk> chunks_;
  std::shared_ptr<const JfrMetadata> metadata_;  // the last chunk's
  std::vector<JfrPeriods> chunk_periods_;        // the settings each chunk states
  std::map<std::string, uint64_t> present_;      // stack-carrying event types and their counts
  std::map<std::string, bool> has_duration_;
  std::map<std::string, bool> stacks_seen_;  // whether an event of the type had a stack
  std::vector<proftools::Plan> plans_;
  std::unordered_map<std::string, size_t> plan_of_;
  std::vector<ValueType> types_;
  std::map<std::string, uint64_t> left_out_;  // event types --events did not select
  uint64_t unknown_frame_types_ = 0;
  uint64_t missing_ = 0;  // references to entries the pools lack
  std::string first_missing_;
  std::string unknown_frame_type_;
};

// The program in the JVM's javaArguments ("Workload 3", "-jar app.jar", "-m mod/app.Main"):
// the main class, the jar or the module's class; "" when there is none.
std::string ProgramOf(const std::string& arguments) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < arguments.size()) {
    const size_t space = std::min(arguments.find(' ', at), arguments.size());
    if (space > at) words.push_back(arguments.substr(at, space - at));
    at = space + 1;
  }
  for (size_t i = 0; i < words.size(); ++i) {
    if ((words[i] == "-jar" || words[i] == "-m" || words[i] == "--module") &&
        i + 1 < words.size()) {
      return words[i + 1];
    }
    if (words[i][0] != '-') return words[i];
  }
  return "";
}

void Converter::Survey(const JfrBytes& file, const JfrChunk& chunk) {
  static const JfrPools kNoPools;
  metadata_ = ReadJfrMetadata(file, name_, chunk, metadata_);
  const JfrMetadata& metadata = *metadata_;
  if (surveyed_ != metadata_) {
    surveyed_ = metadata_;
    kinds_.assign(metadata.types.size(), SurveyKind{});
    for (size_t t = 0; t < metadata.types.size(); ++t) {
      kinds_[t].setting = metadata.types[t].name == "jdk.ActiveSetting";
      kinds_[t].jvm_information = metadata.types[t].name == "jdk.JVMInformation";
      kinds_[t].stacks = HasStacks(metadata.types[t]);
    }
  }
  std::unique_ptr<JfrPools> pools;  // only for settings that need them
  JfrPeriods periods;
  JfrDecoder decoder(&metadata);
  JfrValue value;
  ForEachEvent(file, name_, chunk, [&](uint64_t id, JfrInput* in, uint64_t at) {
    const auto index = metadata.by_id.find(id);
    if (index == metadata.by_id.end()) {
      in->FailAt(
          at, "an event of class " + std::to_string(id) + ", which the metadata does not define");
    }
    SurveyKind& kind = kinds_[index->second];
    const uint64_t fields_at = in->position();
    if (kind.setting) {
      decoder.ReadValue(in, index->second, &value);
      // The JDK writes settings' strings in place: the pools are read only when one is not.
      if (pools == nullptr && JfrPeriods::NeedsPools(value, metadata)) {
        pools = std::make_unique<JfrPools>(file, &name_, chunk, metadata);
      }
      periods.Read(value, metadata, pools != nullptr ? *pools : kNoPools);
      in->Seek(fields_at);  // read again below when it has stack traces
    }
    if (kind.jvm_information && program_.empty()) {
      decoder.ReadValue(in, index->second, &value);
      if (pools == nullptr) pools = std::make_unique<JfrPools>(file, &name_, chunk, metadata);
      if (const JfrValue* arguments = JfrFieldOf(value, metadata, "javaArguments")) {
        program_ = ProgramOf(JfrText(*arguments, metadata, *pools));
      }
      return;
    }
    if (!kind.stacks) return;
    const JfrType& type = metadata.types[index->second];
    if (kind.count == nullptr) {
      kind.seen = &stacks_seen_.emplace(type.name, false).first->second;
      kind.count = &present_[type.name];
      kind.duration = &has_duration_[type.name];
    }
    // A type counts as carrying stacks once one of its events has one: many of the JDK's
    // types have the field and never fill it (settings, periodic statistics).
    if (!*kind.seen) {
      // The event is checked whole, but only its stack's key is kept (HasStacks: pooled).
      const size_t field = static_cast<size_t>(type.FieldIndex("stackTrace"));
      if (type.fields[field].array) {
        decoder.SkipValue(in, index->second);
      } else {
        *kind.seen = decoder.SkipValueButKey(in, index->second, field) != 0;
      }
      *kind.duration = type.FieldIndex("duration") >= 0;
    }
    ++*kind.count;
  });
  chunk_periods_.push_back(std::move(periods));
}

void Converter::MakePlans() {
  for (const auto& [event, seen] : stacks_seen_) {
    if (!seen) present_.erase(event);
  }
  UniqueTypeNames names;
  auto add = [&](const std::string& type, const char* unit) {
    types_.push_back(ValueType{names.Take(type), unit});
    return static_cast<int>(types_.size() - 1);
  };
  bool any_period[std::size(kKnownEvents)] = {};
  for (const JfrPeriods& p : chunk_periods_) {
    for (size_t k = 0; k < std::size(kKnownEvents); ++k) {
      if (p.Find(kKnownEvents[k].event) != nullptr) any_period[k] = true;
    }
  }
  for (size_t k = 0; k < std::size(kKnownEvents); ++k) {
    const KnownEvent& known = kKnownEvents[k];
    if (!present_.count(known.event) || !Selected(known.event)) continue;
    proftools::Plan plan;
    plan.event = known.event;
    plan.count_column = add(known.count, "count");
    // A sampling period the recording does not state leaves the samples a count only.
    if (known.by != Weight::kPeriod || any_period[k]) {
      plan.weight_column = add(known.weight, known.unit);
      plan.by = known.by;
      plan.field = known.field;
    }
    plan_of_[plan.event] = plans_.size();
    plans_.push_back(std::move(plan));
  }
  for (const auto& [event, count] : present_) {
    if (plan_of_.count(event)) continue;
    if (!Selected(event)) {
      left_out_[event] = count;
      continue;
    }
    bool known = false;
    for (const KnownEvent& k : kKnownEvents) known = known || event == k.event;
    if (known) continue;
    proftools::Plan plan;
    plan.event = event;
    if (has_duration_[event]) {
      plan.weight_column = add(KebabName(event), "nanoseconds");
      plan.by = Weight::kDuration;
    } else {
      plan.count_column = add(KebabName(event), "count");
    }
    plan_of_[plan.event] = plans_.size();
    plans_.push_back(std::move(plan));
  }
  if (!options_.events.empty()) {
    for (const std::string& e : options_.events) {
      bool found = false;
      for (const auto& [event, count] : present_)
        found = found || e == event || "jdk." + e == event;
      if (!found) {
        throw UsageError("--events: " + e +
                         ": the recording has no events of that type with stack traces");
      }
    }
  }
  if (plans_.empty() && !context_.allow_empty) {
    throw ProfError(name_,
                    "a JFR recording without events that carry stack traces (no "
                    "jdk.ExecutionSample, allocation or blocking events)");
  }
}

void Converter::Header() {
  ProfileHeader header;
  const JfrChunk& first = chunks_.front();
  int64_t end = first.start_nanos;
  for (const JfrChunk& c : chunks_) {
    int64_t chunk_end = 0;  // a header's duration is not to be trusted: negative or overflowing
    if (c.duration_nanos > 0 &&
        !__builtin_add_overflow(c.start_nanos, c.duration_nanos, &chunk_end)) {
      end = std::max(end, chunk_end);
    }
  }
  header.time_nanos = first.start_nanos;
  header.duration_nanos = end - first.start_nanos;
  header.sources.push_back(Source{1, "jfr", context_.uri, first.start_nanos});
  header.types = types_;
  for (const proftools::Plan& plan : plans_) {
    if (plan.by == Weight::kPeriod && plan.event == "jdk.ExecutionSample") {
      header.default_type = types_[static_cast<size_t>(plan.weight_column)].type;
      // The period pprof shows, when one period held for the whole recording.
      int64_t period = 0;
      bool one = true;
      for (const JfrPeriods& p : chunk_periods_) {
        if (const int64_t* v = p.Find(plan.event)) {
          one = one && (period == 0 || period == *v);
          period = *v;
        }
      }
      if (one && period > 0) {
        header.period = Period{ValueType{header.default_type, "nanoseconds"}, period};
      }
    }
  }
  if (header.default_type.empty() && !plans_.empty()) {
    const proftools::Plan& plan = plans_.front();
    header.default_type = types_[static_cast<size_t>(plan.weight_column >= 0 ? plan.weight_column
                                                                             : plan.count_column)]
                              .type;
  }
  sink_->OnHeader(header);
}

// Per chunk: the fields each planned event type has there, and what was made of its pools.
struct Converter::Chunk {
  struct Fields {
    size_t plan = 0;
    int start = -1, duration = -1, thread = -1, stack = -1, state = -1, object_class = -1,
        weight = -1;
  };
  std::unordered_map<uint64_t, Fields> events;  // by event type id
  std::unordered_map<uint64_t, uint64_t> stacks;
  std::unordered_map<uint64_t, uint64_t> functions;
  std::unordered_map<uint64_t, std::vector<Label>> threads;
  uint64_t mappings[5] = {};
};

std::string JavaName(std::string name) {
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

// A class as Java source names it: the JVM's array descriptors ("[B", "[[Ljava/lang/String;")
// as "byte[]", "java.lang.String[][]"; other names with dots for slashes.
std::string ClassName(const std::string& jvm) {
  size_t dims = 0;
  while (dims < jvm.size() && jvm[dims] == '[') ++dims;
  if (dims == 0 || dims == jvm.size()) return JavaName(jvm);
  static const std::pair<char, const char*> kPrimitives[] = {
      {'B', "byte"}, {'C', "char"}, {'D', "double"}, {'F', "float"},
      {'I', "int"},  {'J', "long"}, {'S', "short"},  {'Z', "boolean"},
  };
  std::string element;
  const std::string rest = jvm.substr(dims);
  if (rest.size() > 2 && rest.front() == 'L' && rest.back() == ';') {
    element = JavaName(rest.substr(1, rest.size() - 2));
  } else if (rest.size() == 1) {
    for (const auto& [code, name] : kPrimitives) {
      if (rest[0] == code) element = name;
    }
  }
  if (element.empty()) return JavaName(jvm);
  for (size_t i = 0; i < dims; ++i) element += "[]";
  return element;
}

void Converter::Convert(const JfrBytes& file, const JfrChunk& chunk, const JfrPeriods& periods) {
  metadata_ = ReadJfrMetadata(file, name_, chunk, metadata_);
  const JfrMetadata& metadata = *metadata_;
  const JfrPools pools(file, &name_, chunk, metadata);
  if (!program_.empty() && !program_mapped_) {
    proftools::Mapping program;
    program.file = program_;
    interner_->Mapping(program);
    program_mapped_ = true;
  }
  Chunk state;
  for (const JfrType& type : metadata.types) {
    const auto plan = plan_of_.find(type.name);
    if (plan == plan_of_.end() || !type.is_event()) continue;
    Chunk::Fields f;
    f.plan = plan->second;
    f.start = type.FieldIndex("startTime");
    f.duration = type.FieldIndex("duration");
    f.thread = type.FieldIndex("sampledThread");
    if (f.thread < 0) f.thread = type.FieldIndex("eventThread");
    f.stack = type.FieldIndex("stackTrace");
    f.state = type.FieldIndex("state");
    f.object_class = type.FieldIndex("objectClass");
    if (!plans_[f.plan].field.empty()) f.weight = type.FieldIndex(plans_[f.plan].field);
    state.events[type.id] = f;
  }
  const std::string* event_name = nullptr;
  uint64_t event_at = 0;
  // The JDK writes now and then a reference its pools lack (a thread that ended before the
  // checkpoint): its reader makes it null; so do we, and say so once with the first place.
  auto missing = [&](const char* what, uint64_t key) {
    if (missing_++ == 0) {
      first_missing_ = "byte " + std::to_string(event_at) + ": " + *event_name + ": " + what + " " +
                       std::to_string(key);
    }
  };
  auto mapping = [&](CodeKind kind) -> uint64_t {
    if (kind == CodeKind::kNative) return 0;
    uint64_t& id = state.mappings[static_cast<int>(kind)];
    if (id == 0) {
      proftools::Mapping m;
      m.file = std::string(MappingFileForKind(kind));
      m.has_functions = true;
      m.has_line_numbers = true;
      m.has_inline_frames = kind == CodeKind::kJit;
      id = interner_->Mapping(m);
    }
    return id;
  };
  auto function = [&](const JfrValue& ref) -> uint64_t {
    const bool cacheable = ref.tag == JfrValue::kRef;
    if (cacheable) {
      const auto it = state.functions.find(static_cast<uint64_t>(ref.i));
      if (it != state.functions.end()) return it->second;
    }
    const JfrValue* method = JfrDeref(ref, pools);
    proftools::Function f;
    if (method == nullptr) {
      missing("method", static_cast<uint64_t>(ref.i));
      f.name = "<unknown>";
      return interner_->Function(f);
    }
    std::string class_name;
    if (const JfrValue* type = JfrFieldOf(*method, metadata, "type")) {
      class_name = JavaName(Hidden(JfrText(*type, metadata, pools)));
    }
    std::string method_name;
    if (const JfrValue* n = JfrFieldOf(*method, metadata, "name")) {
      method_name = JfrText(*n, metadata, pools);
    }
    f.name = class_name.empty()    ? method_name
             : method_name.empty() ? class_name
                                   : class_name + "." + method_name;
    if (f.name.empty()) f.name = "<unknown>";
    if (const JfrValue* d = JfrFieldOf(*method, metadata, "descriptor")) {
      f.system_name = JfrText(*d, metadata, pools);
    }
    const uint64_t id = interner_->Function(f);
    if (cacheable) state.functions[static_cast<uint64_t>(ref.i)] = id;
    return id;
  };
  // The fields of the frames' type, and the names of frame types by their pool key.
  struct {
    size_t type = ~size_t{0};
    int line = -1, kind = -1, method = -1;
  } frame_fields;
  std::unordered_map<uint64_t, std::string> frame_kinds;
  std::string frame_kind;
  auto FrameKindName = [&](const JfrValue* type) -> const std::string& {
    if (type == nullptr) {
      frame_kind.clear();
      return frame_kind;
    }
    if (type->tag != JfrValue::kRef) return frame_kind = JfrText(*type, metadata, pools);
    const auto [it, added] = frame_kinds.try_emplace(static_cast<uint64_t>(type->i));
    if (added) it->second = JfrText(*type, metadata, pools);
    return it->second;
  };
  std::vector<uint64_t> locations;
  auto stack = [&](const JfrValue& ref) -> uint64_t {
    if (ref.tag == JfrValue::kNull) return interner_->Stack({});
    const bool cacheable = ref.tag == JfrValue::kRef;  // a key; else a trace written in place
    if (cacheable) {
      const auto cached = state.stacks.find(static_cast<uint64_t>(ref.i));
      if (cached != state.stacks.end()) return cached->second;
    }
    const JfrValue* trace = JfrDeref(ref, pools);
    if (trace == nullptr) {
      if (ref.i != 0) missing("stack trace", static_cast<uint64_t>(ref.i));  // 0: no stack
      return interner_->Stack({});
    }
    locations.clear();
    proftools::Location location;
    if (const JfrValue* frames = JfrFieldOf(*trace, metadata, "frames")) {
      for (const JfrValue& frame : frames->items) {
        if (frame.tag != JfrValue::kStruct) continue;  // no method
        if (frame.type != frame_fields.type) {         // found by name once, not per frame
          const JfrType& type = metadata.types[frame.type];
          frame_fields = {frame.type, type.FieldIndex("lineNumber"), type.FieldIndex("type"),
                          type.FieldIndex("method")};
        }
        auto field = [&](int i) { return i < 0 ? nullptr : &frame.items[static_cast<size_t>(i)]; };
        int64_t line = 0;
        if (const JfrValue* l = field(frame_fields.line)) line = std::max<int64_t>(l->i, 0);
        const JfrValue* method = field(frame_fields.method);
        if (method == nullptr) continue;
        const std::string& kind_name = FrameKindName(field(frame_fields.kind));
        location.lines.push_back(proftools::Line{function(*method), line, 0});
        // An inlined frame is a line of the location of the compiled caller after it.
        if (kind_name == "Inlined") continue;
        CodeKind kind = CodeKind::kNative;
        if (kind_name == "Interpreted") {
          kind = CodeKind::kInterpreted;
        } else if (kind_name == "JIT compiled" || kind_name == "C1 compiled" ||
                   kind_name == "C2 compiled") {
          kind = CodeKind::kJit;
        } else if (kind_name == "Kernel") {
          kind = CodeKind::kKernel;
        } else if (kind_name != "Native" && kind_name != "C++") {
          if (unknown_frame_types_++ == 0) unknown_frame_type_ = kind_name;
        }
        location.mapping_id = mapping(kind);
        locations.push_back(interner_->Location(location));
        location.lines.clear();
      }
      if (!location.lines.empty()) {  // inlined frames whose caller was cut off
        location.mapping_id = mapping(CodeKind::kJit);
        locations.push_back(interner_->Location(location));
        location.lines.clear();
      }
    }
    const JfrValue* truncated = JfrFieldOf(*trace, metadata, "truncated");
    if (truncated != nullptr && truncated->i != 0) {
      // The JVM kept only the innermost frames (its stackdepth): said by a root frame.
      proftools::Function f;
      f.name = "<truncated>";
      location.mapping_id = 0;
      location.lines.push_back(proftools::Line{interner_->Function(f), 0, 0});
      locations.push_back(interner_->Location(location));
    }
    const uint64_t id = interner_->Stack(locations);
    if (cacheable) state.stacks[static_cast<uint64_t>(ref.i)] = id;
    return id;
  };
  auto thread = [&](const JfrValue& ref, std::vector<Label>* labels) {
    if (ref.tag != JfrValue::kRef) return;  // the JDK's threads are always pooled
    auto it = state.threads.find(static_cast<uint64_t>(ref.i));
    if (it == state.threads.end()) {
      std::vector<Label> made;
      const JfrValue* t = JfrDeref(ref, pools);
      // A thread that starts or ends as the recording stops is never pooled: every JDK
      // recording has one (jfr print shows it as N/A), and its event loses only its thread.
      const bool routine = *event_name == "jdk.ThreadStart" || *event_name == "jdk.ThreadEnd";
      if (t == nullptr && ref.i != 0 && !routine) missing("thread", static_cast<uint64_t>(ref.i));
      if (t != nullptr) {
        std::string name;
        if (const JfrValue* n = JfrFieldOf(*t, metadata, "javaName"))
          name = JfrText(*n, metadata, pools);
        if (name.empty()) {
          if (const JfrValue* n = JfrFieldOf(*t, metadata, "osName"))
            name = JfrText(*n, metadata, pools);
        }
        if (!name.empty()) made.push_back(Label::String(kThreadLabel, name));
        const JfrValue* tid = JfrFieldOf(*t, metadata, "osThreadId");
        if (tid != nullptr && tid->tag == JfrValue::kInt)
          made.push_back(Label::Number(kTidLabel, tid->i));
        const JfrValue* jid = JfrFieldOf(*t, metadata, "javaThreadId");
        if (jid != nullptr && jid->tag == JfrValue::kInt && jid->i > 0) {
          made.push_back(Label::Number("java-thread-id", jid->i));
        }
      }
      it = state.threads.emplace(static_cast<uint64_t>(ref.i), std::move(made)).first;
    }
    labels->insert(labels->end(), it->second.begin(), it->second.end());
  };

  JfrDecoder decoder(&metadata);
  JfrValue event;
  Sample sample;
  sample.source_id = 1;
  ForEachEvent(file, name_, chunk, [&](uint64_t id, JfrInput* in, uint64_t at) {
    const auto found = state.events.find(id);
    if (found == state.events.end()) return;
    const Chunk::Fields& f = found->second;
    const proftools::Plan& plan = plans_[f.plan];
    event_name = &plan.event;
    event_at = at;
    decoder.ReadValue(in, metadata.by_id.at(id), &event);
    auto field = [&](int i) -> const JfrValue* {
      return i < 0 ? nullptr : &event.items[static_cast<size_t>(i)];
    };
    sample.values.assign(types_.size(), 0);
    sample.labels.clear();
    sample.time_nanos.reset();
    sample.duration_nanos.reset();
    if (const JfrValue* start = field(f.start)) {
      sample.time_nanos = chunk.TimeNanos(start->i);
      if (*sample.time_nanos < 0) {
        in->FailAt(at, plan.event + ": a start at tick " + std::to_string(start->i) +
                           ", before 1970 by the chunk's clock");
      }
    }
    if (const JfrValue* d = field(f.duration)) {
      if (plan.by == Weight::kDuration)
        sample.duration_nanos = std::max<int64_t>(chunk.DurationNanos(d->i), 0);
    }
    const JfrValue* trace = field(f.stack);  // a later chunk's type may lack the field
    sample.stack_id = trace == nullptr ? interner_->Stack({}) : stack(*trace);
    if (const JfrValue* t = field(f.thread)) thread(*t, &sample.labels);
    if (const JfrValue* s = field(f.state)) {
      const std::string text = JfrText(*s, metadata, pools);
      if (!text.empty()) sample.labels.push_back(Label::String("state", text));
    }
    if (const JfrValue* c = field(f.object_class)) {
      const std::string text = ClassName(Hidden(JfrText(*c, metadata, pools)));
      if (!text.empty()) sample.labels.push_back(Label::String("class", text));
    }
    sample.labels.push_back(Label::String("event", plan.event));
    if (plan.count_column >= 0) sample.values[static_cast<size_t>(plan.count_column)] = 1;
    if (plan.weight_column >= 0) {
      int64_t weight = 0;
      if (plan.by == Weight::kPeriod) {
        const int64_t* period = periods.Find(plan.event);
        weight = period == nullptr ? 0 : *period;
      } else if (plan.by == Weight::kDuration) {
        weight = sample.duration_nanos.value_or(0);
      } else if (const JfrValue* w = field(f.weight)) {
        weight = w->tag == JfrValue::kInt ? w->i : 0;
      }
      sample.values[static_cast<size_t>(plan.weight_column)] = weight;
    }
    sink_->OnSample(sample);
  });
}

void Converter::Warn() {
  if (context_.warnings == nullptr) return;
  auto warn = [&](const std::string& message) {
    context_.warnings->Warning(Diagnostic{Rule::kInput, name_, 0, message});
  };
  if (!left_out_.empty()) {
    std::string list;
    for (const auto& [event, count] : left_out_) {
      list += (list.empty() ? "" : ", ") + event + " (" + std::to_string(count) + ")";
    }
    warn("events with stack traces left out (not in --events): " + list);
  }
  if (missing_ > 0) {
    warn(Counted(missing_, "reference", "references") +
         " to entries the constant pools lack, read as null as the JDK reads them (the first: " +
         first_missing_ + ")");
  }
  if (unknown_frame_types_ > 0) {
    warn(std::to_string(unknown_frame_types_) + " frames of a type not known (first: \"" +
         unknown_frame_type_ + "\") read as native code");
  }
}

}  // namespace

void ConvertJfr(ByteStream* stream, const std::function<ByteStream*()>& again,
                const std::string& name, const ReadContext& context, const JfrOptions& options,
                ProfileSink* sink) {
  Converter(stream, again, name, context, options, sink).Run();
}

}  // namespace proftools
