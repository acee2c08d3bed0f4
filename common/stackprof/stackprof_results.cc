#include "common/stackprof/stackprof_results.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/json/json_document.h"
#include "common/stackprof/ruby_marshal.h"

namespace proftools {
namespace {

// The frame of `id`, added when new; a frame given twice is an error.
StackprofFrame* NewFrame(StackprofResults* results, uint64_t id, const std::string& name,
                         uint64_t byte) {
  const auto [it, added] =
      results->frame_of.emplace(id, static_cast<uint32_t>(results->frames.size()));
  if (!added) {
    throw ProfError(
        name, "byte " + std::to_string(byte) + ": frame " + std::to_string(id) + " is given twice");
  }
  results->frames.emplace_back();
  results->frames.back().id = id;
  return &results->frames.back();
}

// A frame's key in JSON: the decimal digits of an id.
uint64_t FrameKey(JsonDocument& json, std::string_view key) {
  uint64_t id = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), id);
  if (key.empty() || error != std::errc() || end != key.data() + key.size()) {
    json.Fail("frames: the key \"" + std::string(key.substr(0, 40)) +
              "\" is not a frame id (digits)");
  }
  return id;
}

// A line: from 1 on (0: none), as Ruby numbers them.
int64_t Line(JsonDocument& json, int64_t line) {
  if (line < 0) json.Fail("a frame's line is " + std::to_string(line));
  return line;
}

bool IsNull(JsonValue& value) {
  ondemand::json_type type;
  return value.type().get(type) == simdjson::SUCCESS && type == ondemand::json_type::null;
}

// A scalar as text (metadata's values); false for what is not one.
bool JsonScalar(JsonDocument& json, JsonValue value, std::string_view what, std::string* text) {
  ondemand::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return false;
  switch (type) {
    case ondemand::json_type::string:
    case ondemand::json_type::number:
      *text = json.Token(std::move(value), what);
      return true;
    case ondemand::json_type::boolean: {
      bool b = false;
      if (value.get_bool().get(b) != simdjson::SUCCESS) return false;
      *text = b ? "true" : "false";
      return true;
    }
    default:
      return false;
  }
}

template <typename T, typename Read>
void JsonNumbers(JsonDocument& json, JsonValue value, std::string_view what, std::vector<T>* out,
                 Read read) {
  for (auto element : json.Array(std::move(value), what)) {
    out->push_back(read(std::move(element)));
  }
}

void ReadJsonFrame(JsonDocument& json, StackprofResults* results, uint64_t id, JsonValue value) {
  StackprofFrame* frame = NewFrame(results, id, json.name(), json.Byte());
  ForEachField(json, json.Object(std::move(value), "frames[]"), "frames[]",
               [&](std::string_view key, JsonValue field) {
                 if (key == "name") {
                   if (!IsNull(field)) frame->name = json.String(std::move(field), "name");
                 } else if (key == "file") {
                   if (!IsNull(field)) frame->file = json.String(std::move(field), "file");
                 } else if (key == "line") {
                   if (!IsNull(field))
                     frame->line = Line(json, json.Signed(std::move(field), "line"));
                 } else if (key == "samples") {
                   frame->samples = json.Unsigned(std::move(field), "samples");
                 } else if (key == "edges") {
                   ForEachField(json, json.Object(std::move(field), "edges"), "edges",
                                [&](std::string_view callee, JsonValue count) {
                                  const uint64_t callee_id = FrameKey(json, callee);
                                  frame->edges.emplace_back(
                                      callee_id, json.Unsigned(std::move(count), "edges[]"));
                                });
                 }
               });
}

// Marshal: the value of a hash's key as a name (a symbol, or a string).
std::string_view KeyName(const RubyMarshal& data, const RubyValue& key) {
  if (key.kind == RubyValue::Kind::kSymbol || key.kind == RubyValue::Kind::kString) {
    return data.Text(key);
  }
  return {};
}

class MarshalResults {
 public:
  MarshalResults(std::string_view bytes, const std::string& name)
      : name_(name), data_(bytes, name) {}

  StackprofResults Read() {
    const RubyValue& root = data_.root();
    Expect(root, RubyValue::Kind::kHash, "the results");
    ForEach(root, [&](const RubyValue& key, const RubyValue& value) {
      const std::string_view field = KeyName(data_, key);
      if (field == "version") {
        if (value.kind == RubyValue::Kind::kFloat) {
          char text[32];
          std::snprintf(text, sizeof text, "%g", value.real);
          results_.version = text;
        } else {
          results_.version = std::to_string(Integer(value, "version"));
        }
      } else if (field == "mode") {
        results_.mode = Text(value, "mode");
      } else if (field == "interval") {
        results_.interval = Integer(value, "interval");
      } else if (field == "samples") {
        results_.samples = Count(value, "samples");
      } else if (field == "gc_samples") {
        results_.gc_samples = Count(value, "gc_samples");
      } else if (field == "missed_samples") {
        results_.missed_samples = Count(value, "missed_samples");
      } else if (field == "metadata") {
        ReadMetadata(value);
      } else if (field == "frames") {
        Expect(value, RubyValue::Kind::kHash, "frames");
        ForEach(value, [&](const RubyValue& id, const RubyValue& frame) {
          ReadFrame(Count(id, "a frame id"), frame);
        });
      } else if (field == "raw") {
        results_.has_raw = true;
        results_.raw_byte = value.byte;
        Numbers(value, "raw", &results_.raw);
      } else if (field == "raw_lines") {
        Numbers(value, "raw_lines", &results_.raw_lines);
      } else if (field == "raw_sample_timestamps") {
        Numbers(value, "raw_sample_timestamps", &results_.timestamps);
      } else if (field == "raw_timestamp_deltas") {
        Expect(value, RubyValue::Kind::kArray, "raw_timestamp_deltas");
        for (uint32_t i = 0; i < value.count; ++i) {
          results_.deltas.push_back(Integer(data_.element(value, i), "raw_timestamp_deltas[]"));
        }
      }
    });
    return std::move(results_);
  }

 private:
  [[noreturn]] void Fail(const RubyValue& at, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(at.byte) + ": " + what);
  }
  void Expect(const RubyValue& value, RubyValue::Kind kind, const char* what) const {
    if (value.kind != kind) {
      Fail(value, std::string(what) + " is " + RubyMarshal::KindName(value.kind) + ", not " +
                      RubyMarshal::KindName(kind));
    }
  }
  template <typename F>
  void ForEach(const RubyValue& hash, F&& f) const {
    for (uint32_t i = 0; i + 1 < hash.count; i += 2) {
      f(data_.element(hash, i), data_.element(hash, i + 1));
    }
  }
  int64_t Integer(const RubyValue& value, const char* what) const {
    Expect(value, RubyValue::Kind::kInteger, what);
    if (value.big) Fail(value, std::string(what) + " is past 64 bits");
    return value.integer;
  }
  uint64_t Count(const RubyValue& value, const char* what) const {
    const int64_t n = Integer(value, what);
    if (n < 0) Fail(value, std::string(what) + " is negative: " + std::to_string(n));
    return static_cast<uint64_t>(n);
  }
  std::string Text(const RubyValue& value, const char* what) const {
    if (value.kind != RubyValue::Kind::kSymbol && value.kind != RubyValue::Kind::kString) {
      Fail(value, std::string(what) + " is " + RubyMarshal::KindName(value.kind) +
                      ", not a symbol or a string");
    }
    return std::string(data_.Text(value));
  }
  // A string, or "" for nil.
  std::string OptionalText(const RubyValue& value, const char* what) const {
    return value.kind == RubyValue::Kind::kNil ? std::string() : Text(value, what);
  }
  void Numbers(const RubyValue& array, const char* what, std::vector<uint64_t>* out) const {
    Expect(array, RubyValue::Kind::kArray, what);
    out->reserve(array.count);
    for (uint32_t i = 0; i < array.count; ++i) out->push_back(Count(data_.element(array, i), what));
  }

  void ReadMetadata(const RubyValue& value) {
    if (value.kind != RubyValue::Kind::kHash) return;  // nil when none was given
    ForEach(value, [&](const RubyValue& key, const RubyValue& entry) {
      std::string text;
      switch (entry.kind) {
        case RubyValue::Kind::kSymbol:
        case RubyValue::Kind::kString:
          text = std::string(data_.Text(entry));
          break;
        case RubyValue::Kind::kInteger:
          if (entry.big) return;
          text = std::to_string(entry.integer);
          break;
        case RubyValue::Kind::kBool:
          text = entry.integer ? "true" : "false";
          break;
        default:
          return;
      }
      const std::string_view name = KeyName(data_, key);
      if (!name.empty()) results_.metadata.push_back({std::string(name), text});
    });
  }

  void ReadFrame(uint64_t id, const RubyValue& value) {
    Expect(value, RubyValue::Kind::kHash, "a frame");
    StackprofFrame* frame = NewFrame(&results_, id, name_, value.byte);
    ForEach(value, [&](const RubyValue& key, const RubyValue& field) {
      const std::string_view name = KeyName(data_, key);
      if (name == "name") {
        frame->name = OptionalText(field, "a frame's name");
      } else if (name == "file") {
        frame->file = OptionalText(field, "a frame's file");
      } else if (name == "line") {
        if (field.kind != RubyValue::Kind::kNil) frame->line = Count(field, "a frame's line");
      } else if (name == "samples") {
        frame->samples = Count(field, "a frame's samples");
      } else if (name == "edges") {
        Expect(field, RubyValue::Kind::kHash, "a frame's edges");
        ForEach(field, [&](const RubyValue& callee, const RubyValue& count) {
          frame->edges.emplace_back(Count(callee, "an edge's frame id"),
                                    Count(count, "an edge's samples"));
        });
      }
    });
  }

  const std::string& name_;
  RubyMarshal data_;
  StackprofResults results_;
};

}  // namespace

StackprofResults ReadStackprofMarshal(std::string_view bytes, const std::string& name) {
  return MarshalResults(bytes, name).Read();
}

StackprofResults ReadStackprofJson(JsonDocument& json) {
  StackprofResults results;
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) {
    json.Fail(error, "the file", "an object");
  }
  ForEachField(json, object, "the file", [&](std::string_view key, JsonValue value) {
    if (key == "version") {
      results.version = json.Token(std::move(value), "version");
    } else if (key == "mode") {
      results.mode = std::string(json.String(std::move(value), "mode"));
    } else if (key == "interval") {
      results.interval = json.Signed(std::move(value), "interval");
    } else if (key == "samples") {
      results.samples = json.Unsigned(std::move(value), "samples");
    } else if (key == "gc_samples") {
      results.gc_samples = json.Unsigned(std::move(value), "gc_samples");
    } else if (key == "missed_samples") {
      results.missed_samples = json.Unsigned(std::move(value), "missed_samples");
    } else if (key == "metadata") {
      if (IsNull(value)) return;
      ForEachField(json, json.Object(std::move(value), "metadata"), "metadata",
                   [&](std::string_view name, JsonValue entry) {
                     std::string text;
                     if (JsonScalar(json, std::move(entry), "metadata[]", &text)) {
                       results.metadata.push_back({std::string(name), text});
                     }
                   });
    } else if (key == "frames") {
      ForEachField(json, json.Object(std::move(value), "frames"), "frames",
                   [&](std::string_view id, JsonValue frame) {
                     ReadJsonFrame(json, &results, FrameKey(json, id), std::move(frame));
                   });
    } else if (key == "raw") {
      results.has_raw = true;
      results.raw_byte = json.Byte();
      JsonNumbers(json, std::move(value), "raw", &results.raw,
                  [&](JsonValue v) { return json.Unsigned(std::move(v), "raw[]"); });
    } else if (key == "raw_lines") {
      JsonNumbers(json, std::move(value), "raw_lines", &results.raw_lines,
                  [&](JsonValue v) { return json.Unsigned(std::move(v), "raw_lines[]"); });
    } else if (key == "raw_sample_timestamps") {
      JsonNumbers(
          json, std::move(value), "raw_sample_timestamps", &results.timestamps,
          [&](JsonValue v) { return json.Unsigned(std::move(v), "raw_sample_timestamps[]"); });
    } else if (key == "raw_timestamp_deltas") {
      JsonNumbers(json, std::move(value), "raw_timestamp_deltas", &results.deltas,
                  [&](JsonValue v) { return json.Signed(std::move(v), "raw_timestamp_deltas[]"); });
    }
  });
  return results;
}

}  // namespace proftools
