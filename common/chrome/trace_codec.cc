// kChromeTraceReader: one source of type "chrome-trace"; the value types of V8ValueTypes, of
// StackSampleValueTypes for a trace whose samples are the sampled form's, or of SpanValueTypes
// for a trace of duration events only.
#include "common/chrome/trace_codec.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/chrome/cpuprofile_codec.h"
#include "common/chrome/trace_samples.h"
#include "common/chrome/trace_spans.h"
#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/chrome/v8_trace_profiles.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

class TraceReader {
 public:
  TraceReader(JsonDocument* json, const ReadContext& context)
      : json_(*json), context_(context), profiles_(json->name()) {}

  void ReadEvents(ondemand::array events);
  // The sampled form's top-level stackFrames and samples.
  void ReadStackFrames(JsonValue value) { stack_samples_.ReadStackFrames(json_, std::move(value)); }
  void ReadStackSamples(JsonValue value) { stack_samples_.ReadSamples(json_, std::move(value)); }
  // prof2chrome's output (otherData.producer): its X events are the profile; `weight` is the
  // type that weighed its samples array, the original's default type.
  void PreferDurationEvents(std::string weight) {
    prefer_spans_ = true;
    weight_type_ = std::move(weight);
  }
  void Emit(ProfileSink* sink);

 private:
  // An event's fields other than args, read in one pass over it in order.
  struct EventFields {
    std::string name;
    std::optional<std::string> ph;
    std::optional<int64_t> pid, tid, ts_ns, dur_ns, tdur_ns;
    std::optional<std::string> id;
    bool has_args = false;
  };
  // `byte`: where the event starts, for messages.
  void ReadEvent(ondemand::object event, uint64_t byte);
  EventFields ReadEventFields(ondemand::object& event);
  // Calls `on_args` with the event's args object, walking the event again from its start.
  template <typename F>
  void WithArgs(ondemand::object& event, F&& on_args);
  // args.data of a Profile, ProfileChunk or CpuProfile event.
  void ReadData(ondemand::object args, V8Profile* profile, V8ProfileFields* fields);
  void ReadSpan(const EventFields& event, char ph, uint64_t byte,
                std::unique_ptr<SpanValues> values = nullptr);
  // args.values, args.labels and args.time of an X event, as prof2chrome writes a sample's
  // innermost event; nullptr when it has no values.
  std::unique_ptr<SpanValues> ReadSpanValues(ondemand::object& event);
  void ReadLabelValues(std::string_view key, JsonValue value, std::vector<Label>* labels,
                       bool in_array = false);
  // The value types of prof2chrome's samples ("TYPE/UNIT" in the order its first sample lists
  // them) and their index; empty when no X event carries values.
  std::vector<std::string> value_types_;
  std::map<std::string, size_t> value_index_;
  std::string weight_type_;

  JsonDocument& json_;
  const ReadContext& context_;
  V8TraceProfiles profiles_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
  // Duration events by thread, threads in order of first appearance.
  std::map<std::pair<int64_t, int64_t>, size_t> span_index_;
  std::vector<std::pair<std::pair<int64_t, int64_t>, ThreadSpans>> spans_;
  StackFrameSamples stack_samples_;
  bool prefer_spans_ = false;  // prof2chrome's output: its X events, not its sampled form
  bool span_values_ = false;   // an X event had args.values
  // Profile and ProfileChunk events without args.data, skipped; the first one's byte.
  uint64_t chunks_without_data_ = 0, first_chunk_without_data_ = 0;
  bool node_trace_ = false;  // an event of node's own categories was read
};

// Every object of an event is walked in order (ForEachField), never searched with simdjson's
// find_field_unordered: a search that wraps around assumes the fields it passed were well
// formed, and asserts (aborts, in a release build too) when junk it skipped was not (found by
// fuzzing, twice). The first pass reads every field but args; the args of the few events that
// need them are read in a second pass from the event's start (object::reset), over fields the
// first pass has checked.
TraceReader::EventFields TraceReader::ReadEventFields(ondemand::object& event) {
  EventFields fields;
  ForEachField(json_, event, "an event", [&](std::string_view key, JsonValue value) {
    if (key == "name") {
      fields.name = std::string(json_.String(value, "an event's name"));
    } else if (key == "ph") {
      fields.ph = std::string(json_.String(value, "an event's ph"));
    } else if (key == "pid") {
      fields.pid = json_.Signed(value, "pid");
    } else if (key == "tid") {
      fields.tid = json_.Signed(value, "tid");
    } else if (key == "ts") {
      fields.ts_ns = json_.Microseconds(value, "ts", /*strings=*/true);
    } else if (key == "dur") {
      fields.dur_ns = json_.Microseconds(value, "dur", /*strings=*/true);
    } else if (key == "tdur") {
      fields.tdur_ns = json_.Microseconds(value, "tdur", /*strings=*/true);
    } else if (key == "id") {
      fields.id = json_.Token(value, "the event's id");
    } else if (key == "args") {
      fields.has_args = true;
    } else if (key == "cat" && !node_trace_) {
      // Node's own categories (node, node.bootstrap, ...): a trace node wrote. (A cat of
      // another type is no error: the format says nothing of it.)
      ondemand::json_type type;
      if (!value.type().get(type) && type == ondemand::json_type::string) {
        const std::string_view cat = json_.String(value, "an event's cat");
        node_trace_ = cat == "node" || cat.substr(0, 5) == "node,";
      }
    }
  });
  return fields;
}

template <typename F>
void TraceReader::WithArgs(ondemand::object& event, F&& on_args) {
  if (const auto error = event.reset().error()) json_.Fail(error, "an event", "an object");
  ForEachField(json_, event, "an event", [&](std::string_view key, JsonValue value) {
    if (key == "args") on_args(json_.Object(std::move(value), "the event's args"));
  });
}

void TraceReader::ReadData(ondemand::object args, V8Profile* profile, V8ProfileFields* fields) {
  bool has_data = false;
  ForEachField(json_, args, "the event's args", [&](std::string_view arg, JsonValue data_value) {
    if (arg != "data") return;
    has_data = true;
    ReadV8EventData(json_, json_.Object(std::move(data_value), "args.data"), profile, fields);
  });
  if (!has_data) ++chunks_without_data_;
}

std::unique_ptr<SpanValues> TraceReader::ReadSpanValues(ondemand::object& event) {
  std::unique_ptr<SpanValues> values;
  WithArgs(event, [&](ondemand::object args) {
    ForEachField(json_, args, "the event's args", [&](std::string_view key, JsonValue value) {
      if (key == "values") {
        if (values == nullptr) values = std::make_unique<SpanValues>();
        ForEachField(json_, json_.Object(std::move(value), "args.values"), "args.values",
                     [&](std::string_view type, JsonValue v) {
                       const auto inserted = value_index_.emplace(type, value_index_.size());
                       if (inserted.second) value_types_.emplace_back(type);
                       values->values.emplace_back(std::string(type),
                                                   json_.Signed(std::move(v), "args.values"));
                     });
      } else if (key == "labels") {
        if (values == nullptr) values = std::make_unique<SpanValues>();
        ForEachField(json_, json_.Object(std::move(value), "args.labels"), "args.labels",
                     [&](std::string_view label, JsonValue v) {
                       ReadLabelValues(label, std::move(v), &values->labels);
                     });
      } else if (key == "time") {
        if (values == nullptr) values = std::make_unique<SpanValues>();
        values->time_ns = json_.Microseconds(std::move(value), "args.time");
      }
    });
  });
  if (values != nullptr && values->values.empty()) values.reset();  // labels alone: not ours
  span_values_ = span_values_ || values != nullptr;
  return values;
}

// A label of prof2chrome's args: a number, a string, "N UNIT" (a number with a unit), or an
// array of those for a key given several times.
void TraceReader::ReadLabelValues(std::string_view key, JsonValue value, std::vector<Label>* labels,
                                  bool in_array) {
  ondemand::json_type type;
  if (const auto error = value.type().get(type)) json_.Fail(error, "args.labels", "a label");
  if (type == ondemand::json_type::array && !in_array) {
    for (JsonValue element : json_.Array(std::move(value), "args.labels")) {
      ReadLabelValues(key, std::move(element), labels, /*in_array=*/true);
    }
    return;
  }
  if (type == ondemand::json_type::number) {
    labels->push_back(
        Label::Number(std::string(key), json_.Signed(std::move(value), "args.labels")));
    return;
  }
  const std::string_view text = json_.String(std::move(value), "args.labels");
  const size_t space = text.find(' ');
  int64_t number = 0;
  if (space != std::string_view::npos && space > 0 && space + 1 < text.size() &&
      text.find(' ', space + 1) == std::string_view::npos &&
      std::from_chars(text.data(), text.data() + space, number).ptr == text.data() + space) {
    labels->push_back(Label::Number(std::string(key), number, std::string(text.substr(space + 1))));
  } else {
    labels->push_back(Label::String(std::string(key), std::string(text)));
  }
}

void TraceReader::ReadSpan(const EventFields& event, char ph, uint64_t byte,
                           std::unique_ptr<SpanValues> values) {
  const int64_t pid = event.pid.value_or(0);
  const int64_t tid = event.tid.value_or(0);
  if (!event.ts_ns) json_.Fail("a duration event without ts", byte);
  const int64_t ts = *event.ts_ns;
  if (ts < 0) json_.Fail("ts: a time before 0", byte);
  const std::string& name = event.name;
  const auto inserted = span_index_.emplace(std::make_pair(pid, tid), spans_.size());
  if (inserted.second) spans_.emplace_back(std::make_pair(pid, tid), ThreadSpans());
  ThreadSpans& spans = spans_[inserted.first->second].second;
  if (ph == 'B') {
    spans.Begin(ts, name, byte);
  } else if (ph == 'E') {
    spans.End(ts, name, byte);
  } else if (ph == 'I' || ph == 'i') {
    spans.Complete(ts, 0, name, byte);  // an instant: counted where it happened, no time of its own
  } else {
    // (An X event with its thread time and no wall time: tdur stands for dur, as speedscope
    // takes it.)
    const int64_t dur = event.dur_ns ? *event.dur_ns : event.tdur_ns.value_or(0);
    if (dur < 0) json_.Fail("dur: a negative duration", byte);
    if (ts > INT64_MAX - dur) json_.Fail("ts + dur: beyond what 64-bit nanoseconds hold", byte);
    spans.Complete(ts, dur, name, byte, std::move(values));
  }
}

void TraceReader::ReadEvent(ondemand::object event, uint64_t byte) {
  const EventFields fields = ReadEventFields(event);
  if (!fields.ph) return;  // not an event we read
  const std::string& name = fields.name;
  const std::string_view ph = *fields.ph;
  const bool v8_profile = name == "Profile" || name == "ProfileChunk" || name == "CpuProfile";
  // (The older CpuProfile event is an instant event: the name decides.)
  if (!v8_profile && (ph == "B" || ph == "E" || ph == "X" || ph == "I" || ph == "i")) {
    // (An X event's args may hold a sample's values, as prof2chrome writes them.)
    ReadSpan(fields, ph[0], byte, ph == "X" && fields.has_args ? ReadSpanValues(event) : nullptr);
    return;
  }
  if (ph == "M" && name == "thread_name") {
    if (!fields.has_args) json_.Fail("a thread_name event without args", byte);
    std::string thread;
    WithArgs(event, [&](ondemand::object args) {
      ForEachField(json_, args, "the event's args", [&](std::string_view key, JsonValue value) {
        if (key == "name") thread = std::string(json_.String(std::move(value), "args.name"));
      });
    });
    thread_names_[{fields.pid.value_or(0), fields.tid.value_or(0)}] = thread;
    return;
  }
  if (!v8_profile) return;
  const int64_t pid = fields.pid.value_or(0);
  const int64_t ts = fields.ts_ns.value_or(0);
  V8Profile nodes(json_.name());  // the event's nodes, until its id names their profile
  V8ProfileFields data;
  // (A chunk saved without its data, as a trace cut short may hold: counted, and skipped.)
  if (fields.has_args) {
    WithArgs(event, [&](ondemand::object args) { ReadData(args, &nodes, &data); });
  } else {
    ++chunks_without_data_;
  }
  if (chunks_without_data_ > 0 && first_chunk_without_data_ == 0) first_chunk_without_data_ = byte;
  if (name != "CpuProfile" && !fields.id) {
    json_.Fail("a " + name + " event without an id (its profile's id)", byte);
  }
  profiles_.Add(name, pid, fields.tid, fields.id.value_or(""), ts, &nodes, &data, byte);
}

void TraceReader::ReadEvents(ondemand::array events) {
  for (JsonValue element : events) {
    const uint64_t byte = json_.Byte();
    ReadEvent(json_.Object(element, "an event"), byte);
  }
}

void TraceReader::Emit(ProfileSink* sink) {
  const uint64_t samples = profiles_.Finish();
  // V8's samples, the sampled form's samples and the duration events cover the same time: one
  // of them is the profile, in this order of preference (a DevTools trace always has duration
  // events too: no warning).
  const bool use_stack_samples =
      samples == 0 && !stack_samples_.empty() && !(prefer_spans_ && !spans_.empty());
  const bool use_spans = samples == 0 && !use_stack_samples && !spans_.empty();
  if (samples == 0 && !use_stack_samples && !use_spans && !context_.allow_empty) {
    throw ProfError(json_.name(),
                    "a trace without V8 CPU profile samples (Profile and ProfileChunk events: "
                    "record with the category disabled-by-default-v8.cpu_profiler), stack samples "
                    "(stackFrames and samples) or duration events (B/E, X)");
  }
  // prof2chrome's own output: its samples, with the values and labels it wrote.
  const bool use_values = use_spans && prefer_spans_ && span_values_;
  ProfileHeader header;
  header.sources.push_back(Source{1, "chrome-trace", context_.uri, std::nullopt});
  if (use_values) {
    for (const std::string& type : value_types_) {
      const size_t slash = type.rfind('/');
      header.types.push_back(slash == std::string::npos
                                 ? ValueType{type, ""}
                                 : ValueType{type.substr(0, slash), type.substr(slash + 1)});
    }
    const auto weight = value_index_.find(weight_type_);
    header.default_type = header.types[weight == value_index_.end() ? 0 : weight->second].type;
  } else {
    header.types = use_spans           ? SpanValueTypes()
                   : use_stack_samples ? StackSampleValueTypes()
                                       : V8ValueTypes();
    header.default_type = use_spans           ? kSpanDefaultType
                          : use_stack_samples ? kStackSampleDefaultType
                                              : kV8DefaultType;
  }
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context_.max_implied_frames(), json_.name());
  const auto labels_of = [&](int64_t pid, std::optional<int64_t> tid) {
    std::vector<Label> labels = {Label::Number(kPidLabel, pid)};
    if (tid) {
      labels.push_back(Label::Number(kTidLabel, *tid));
      const auto name = thread_names_.find({pid, *tid});
      if (name != thread_names_.end()) labels.push_back(Label::String(kThreadLabel, name->second));
    }
    return labels;
  };
  if (use_stack_samples) {
    // The format's samples carry a tid and often no pid: a thread is then named by the one
    // process that has a thread of that id, if only one has.
    const auto thread_labels = [&](std::optional<int64_t> pid, std::optional<int64_t> tid) {
      if (pid) return labels_of(*pid, tid);
      std::vector<Label> labels;
      if (!tid) return labels;
      labels.push_back(Label::Number(kTidLabel, *tid));
      const std::string* name = nullptr;
      int named = 0;
      for (const auto& thread : thread_names_) {
        if (thread.first.second == *tid && ++named == 1) name = &thread.second;
      }
      if (named == 1) labels.push_back(Label::String(kThreadLabel, *name));
      return labels;
    };
    stack_samples_.Convert(json_, &interner, 1, thread_labels, sink);
  } else if (use_spans) {
    if (node_trace_ && stack_samples_.empty()) {
      context_.Warn(json_.name(),
                    "a Node trace without JavaScript samples: its duration events are V8's and "
                    "node's own (startup, GC, fs); node --trace-event-categories does not start "
                    "V8's CPU profiler: enable disabled-by-default-v8.cpu_profiler with the "
                    "trace_events module (docs/chrome.md), or record a .cpuprofile with node "
                    "--cpu-prof");
    }
    ThreadSpans::Unmatched unmatched;
    for (auto& thread : spans_) {
      thread.second.Convert(&interner, 1, labels_of(thread.first.first, thread.first.second), sink,
                            &unmatched, use_values ? &value_index_ : nullptr);
    }
    // "byte B: N things what", for each case that happened.
    const auto warn = [&](uint64_t n, uint64_t byte, const char* one, const char* many,
                          const char* what) {
      if (n == 0) return;
      context_.Warn(json_.name(), "byte " + std::to_string(byte) + ": " + std::to_string(n) +
                                      (n == 1 ? one : many) + what);
    };
    warn(unmatched.ends, unmatched.first_end_byte, " E event", " E events",
         " with no B open on its thread, ignored");
    warn(unmatched.renamed, unmatched.first_renamed_byte, " E event names", " E events name",
         " another span than the innermost B open on its thread: each closed that B, as Chrome's "
         "trace viewer does");
    warn(unmatched.begins, unmatched.first_begin_byte, " B event", " B events",
         " never closed by an E: each closed at its thread's last time in the trace");
    warn(unmatched.clipped, unmatched.first_clipped_byte, " span runs", " spans run",
         " past the end of the span around it on its thread (overlapping X events): cut at that "
         "end, so that no time is counted twice");
  } else {
    profiles_.Convert(&interner, 1, labels_of, sink, context_);
  }
  if (chunks_without_data_ > 0 && !use_spans && !use_stack_samples) {
    context_.Warn(json_.name(),
                  "byte " + std::to_string(first_chunk_without_data_) + ": " +
                      std::to_string(chunks_without_data_) +
                      (chunks_without_data_ == 1 ? " profile event" : " profile events") +
                      " without args.data (a trace saved with part of its profile?), "
                      "skipped");
  }
  sink->OnEnd();
}

void ReadChromeTrace(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON", /*allow_truncated=*/true);
  if (json.truncated()) {
    // A tracer stopped mid-write leaves the array unclosed; the format allows it.
    std::string closing;
    const size_t end = LastCompleteElement(json.text(), &closing);
    if (end == 0)
      json.Fail("the JSON ends before its first event is complete", json.text().size() + 1);
    context.Warn(input.name,
                 "byte " + std::to_string(json.text().size() + 1) +
                     ": the trace ends before its array is closed (a tracer stopped mid-write?): "
                     "read up to its last complete event, which ends at byte " +
                     std::to_string(end));
    json.Reparse(end, closing);
  }
  TraceReader reader(&json, context);
  ondemand::json_type type;
  if (const auto error = json.doc().type().get(type)) json.Fail(error, "the trace", "JSON");
  if (type == ondemand::json_type::array) {
    ondemand::array events;
    if (const auto error = json.doc().get_array().get(events)) {
      json.Fail(error, "the trace", "an array");
    }
    reader.ReadEvents(events);
  } else {
    ondemand::object object;
    if (const auto error = json.doc().get_object().get(object)) {
      json.Fail(error, "the trace", "an object or an array");
    }
    bool has_events = false;
    ForEachField(json, object, "the trace", [&](std::string_view key, JsonValue value) {
      if (key == "traceEvents") {
        reader.ReadEvents(json.Array(std::move(value), "traceEvents"));
        has_events = true;
      } else if (key == "stackFrames") {
        reader.ReadStackFrames(std::move(value));
      } else if (key == "samples") {
        reader.ReadStackSamples(std::move(value));
      } else if (key == "otherData") {
        // prof2chrome writes every sample twice, as X events (with durations and every value)
        // and in the sampled form (for speedscope), and says so here: its events are the profile.
        ondemand::object other;
        if (value.get_object().get(other)) return;
        std::string_view producer, weight;
        ForEachField(json, other, "otherData", [&](std::string_view field, JsonValue v) {
          ondemand::json_type kind;
          if (v.type().get(kind) || kind != ondemand::json_type::string) return;
          if (field == "producer") producer = json.String(std::move(v), "otherData.producer");
          if (field == "weight") weight = json.String(std::move(v), "otherData.weight");
        });
        if (producer == "proftools") reader.PreferDurationEvents(std::string(weight));
      }
    });
    if (!has_events) json.Fail("no traceEvents: not a trace", 1);
  }
  reader.Emit(sink);
}

}  // namespace

int SniffChromeTrace(std::string_view head, bool text) {
  if (!text) return kNotMine;
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return kNotMine;
  if (head[first] == '{') {
    return head.find("\"traceEvents\"") != std::string_view::npos ? kCertain : kNotMine;
  }
  if (head[first] != '[') return kNotMine;
  const size_t second = head.find_first_not_of(" \t\r\n", first + 1);
  if (second == std::string_view::npos || head[second] != '{') return kNotMine;
  return head.find("\"ph\"") != std::string_view::npos ? kLikely : kNotMine;
}

const ReaderSpec kChromeTraceReader = {
    "chrome-trace",           "a Chrome trace (the Trace Event Format's JSON)",
    ReaderShape::kWholeInput, nullptr,
    SniffChromeTrace,         ReadChromeTrace,
};

}  // namespace proftools
