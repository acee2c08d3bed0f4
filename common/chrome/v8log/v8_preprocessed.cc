#include "common/chrome/v8log/v8_preprocessed.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/chrome/v8log/v8_code_names.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

struct CodeEntry {
  std::string type, name, kind;
  int64_t func = -1;
  uint64_t location = 0;  // once made
  uint64_t mapping = 0;   // SHARED_LIB
};

struct Tick {
  uint64_t time_us = 0, state = 0;
  size_t first = 0, count = 0;  // frames: pairs in `frames`
  uint64_t byte = 0;
};

// nm's "_IO_fwrite@@GLIBC_2.2.5" is the log reader's "_IO_fwrite".
std::string WithoutSymbolVersion(const std::string& name) {
  const size_t at = name.find('@');
  if (at == std::string::npos || at == 0) return name;
  for (size_t i = at; i < name.size(); ++i) {
    const char c = name[i];
    if (!(c == '@' || c == '_' || c == '.' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
      return name;
    }
  }
  return name.substr(0, at);
}

class Preprocessed {
 public:
  Preprocessed(JsonDocument* json, const ReadContext& context, ProfileSink* sink)
      : json_(*json), context_(context), sink_(sink), interner_(sink) {}

  void Read() {
    ondemand::object object;
    if (const auto error = json_.doc().get_object().get(object)) {
      json_.Fail(error, "the file", "an object");
    }
    bool has_ticks = false;
    ForEachField(json_, object, "the file", [&](std::string_view key, JsonValue value) {
      if (key == "code") {
        for (auto element : json_.Array(std::move(value), "code")) ReadCode(std::move(element));
      } else if (key == "functions") {
        for (auto element : json_.Array(std::move(value), "functions")) {
          std::string name;
          ForEachField(json_, json_.Object(std::move(element), "functions[]"), "functions[]",
                       [&](std::string_view field, JsonValue v) {
                         if (field == "name")
                           name = std::string(json_.String(std::move(v), "name"));
                       });
          functions_.push_back(std::move(name));
        }
      } else if (key == "scripts") {
        for (auto element : json_.Array(std::move(value), "scripts")) {
          ondemand::json_type type;
          if (element.type().get(type) != simdjson::SUCCESS ||
              type != ondemand::json_type::object) {
            continue;  // null for a script without a source
          }
          ForEachField(json_, json_.Object(std::move(element), "scripts[]"), "scripts[]",
                       [&](std::string_view field, JsonValue v) {
                         if (field == "url")
                           scripts_.insert(std::string(json_.String(std::move(v), "url")));
                       });
        }
      } else if (key == "ticks") {
        has_ticks = true;
        for (auto element : json_.Array(std::move(value), "ticks")) ReadTick(std::move(element));
      }
    });
    if (!has_ticks) json_.Fail("no ticks: not the JSON of node --prof-process --preprocess", 1);
    Emit();
  }

 private:
  void ReadCode(JsonValue value) {
    CodeEntry code;
    ForEachField(json_, json_.Object(std::move(value), "code[]"), "code[]",
                 [&](std::string_view key, JsonValue field) {
                   if (key == "name") {
                     code.name = std::string(json_.String(std::move(field), "name"));
                   } else if (key == "type") {
                     code.type = std::string(json_.String(std::move(field), "type"));
                   } else if (key == "kind") {
                     code.kind = std::string(json_.String(std::move(field), "kind"));
                   } else if (key == "func") {
                     code.func = json_.Signed(std::move(field), "func");
                   }
                 });
    code_.push_back(std::move(code));
  }

  void ReadTick(JsonValue value) {
    Tick tick;
    tick.byte = json_.Byte();
    tick.first = frames_.size();
    ForEachField(json_, json_.Object(std::move(value), "ticks[]"), "ticks[]",
                 [&](std::string_view key, JsonValue field) {
                   if (key == "tm") {
                     tick.time_us = json_.Unsigned(std::move(field), "tm");
                   } else if (key == "vm") {
                     tick.state = json_.Unsigned(std::move(field), "vm");
                   } else if (key == "s") {
                     for (auto frame : json_.Array(std::move(field), "s")) {
                       frames_.push_back(json_.Signed(std::move(frame), "s[]"));
                     }
                   }
                 });
    tick.count = frames_.size() - tick.first;
    if (tick.count % 2 != 0)
      json_.Fail("a tick's frames are not pairs of code and offset", tick.byte);
    ticks_.push_back(tick);
  }

  uint64_t CodeLocation(size_t index, int64_t offset, const Tick& tick) {
    CodeEntry& code = code_[index];
    if (code.type == "SHARED_LIB") {
      if (code.mapping == 0) {
        Mapping mapping;
        mapping.file = code.name;
        code.mapping = interner_.Mapping(mapping);
      }
      Location location;
      location.mapping_id = code.mapping;
      location.address = static_cast<uint64_t>(offset);
      return interner_.Location(location);
    }
    if (code.location != 0) return code.location;
    if (code.type == "JS") {
      if (code.func < 0 || static_cast<size_t>(code.func) >= functions_.size()) {
        json_.Fail("code " + std::to_string(index) + " names function " +
                       std::to_string(code.func) + ", of " + std::to_string(functions_.size()),
                   tick.byte);
      }
      code.location = JsLocation(&interner_, functions_[static_cast<size_t>(code.func)], scripts_);
    } else if (code.type == "CODE") {
      code.location =
          NamedLocation(&interner_, (code.kind.empty() ? "Code" : code.kind) + ": " + code.name);
    } else {
      code.location = NamedLocation(&interner_, WithoutSymbolVersion(code.name));
    }
    return code.location;
  }

  void Emit() {
    // The JSON does not say the interval: V8's default.
    sink_->OnHeader(V8TicksHeader(context_.uri, 1000, {}));
    context_.Warn(json_.name(),
                  "the tick processor's JSON does not give the sampling interval: each tick is "
                  "taken as 1 ms, V8's default (the log itself says it)");
    std::vector<uint64_t> stack;
    Sample sample;
    sample.source_id = 1;
    for (const Tick& tick : ticks_) {
      stack.clear();
      for (size_t i = 0; i < tick.count; i += 2) {
        const int64_t code = frames_[tick.first + i];
        const int64_t offset = frames_[tick.first + i + 1];
        if (code < 0 || static_cast<uint64_t>(code) >= code_.size()) {
          if (code != -1) {
            json_.Fail("a tick names code " + std::to_string(code) + ", of " +
                           std::to_string(code_.size()),
                       tick.byte);
          }
          if (i == 0) {  // the pc, nothing holding it: its address
            Location location;
            location.address = static_cast<uint64_t>(offset);
            stack.push_back(interner_.Location(location));
          }
          continue;
        }
        stack.push_back(CodeLocation(static_cast<size_t>(code), offset, tick));
      }
      sample.stack_id = interner_.Stack(stack);
      if (tick.time_us > static_cast<uint64_t>(INT64_MAX / 1000)) {
        json_.Fail("a tick's time is past 2^63 ns", tick.byte);
      }
      sample.time_nanos = static_cast<int64_t>(tick.time_us) * 1000;
      sample.values = {1, 1000};
      sample.labels.clear();
      sample.labels.push_back(VmStateLabel(tick.state));
      sink_->OnSample(sample);
    }
    sink_->OnEnd();
  }

  JsonDocument& json_;
  const ReadContext& context_;
  ProfileSink* sink_;
  Interner interner_;
  std::vector<CodeEntry> code_;
  std::vector<std::string> functions_;
  std::unordered_set<std::string> scripts_;  // their urls
  std::vector<int64_t> frames_;
  std::vector<Tick> ticks_;
};

}  // namespace

void ReadV8Preprocessed(JsonDocument& json, const ReadContext& context, ProfileSink* sink) {
  Preprocessed(&json, context, sink).Read();
}

bool LooksV8Preprocessed(std::string_view head) {
  const size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || head[start] != '{') return false;
  const size_t key = head.find_first_not_of(" \t\r\n", start + 1);
  return key != std::string_view::npos && StartsWith(head.substr(key), "\"code\"") &&
         Contains(head, "\"type\"");
}

}  // namespace proftools
