#include "common/valgrind/dhat_codec.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/valgrind/valgrind_frames.h"

namespace proftools {
namespace {

// A program point's fields, in the order of the types they become.
constexpr std::array<const char*, 11> kPointFields = {"tb",  "tbk", "tl",  "mb", "mbk", "gb",
                                                      "gbk", "eb",  "ebk", "rb", "wb"};

// The program points, flat (a vector each cost a third of the reading): the fields of point i
// at values[i * kPointFields.size()...] (-1: absent), its frames (indices into the frame table,
// innermost first) from frames[frame_starts[i]] to frames[frame_starts[i + 1]].
struct ProgramPoints {
  std::vector<int64_t> values;
  std::vector<uint64_t> frames;
  std::vector<size_t> frame_starts{0};
  std::vector<uint64_t> bytes;  // where each point starts, for messages
  size_t size() const { return bytes.size(); }
};

class DhatReader {
 public:
  explicit DhatReader(JsonDocument* json) : json_(*json) {}

  void Read() {
    ondemand::object object;
    if (const auto error = json_.doc().get_object().get(object)) {
      json_.Fail(error, "the file", "an object");
    }
    ForEachField(json_, object, "the file", [&](std::string_view key, JsonValue value) {
      if (key == "dhatFileVersion") {
        version_ = json_.Unsigned(std::move(value), "dhatFileVersion");
      } else if (key == "mode") {
        mode_ = std::string(json_.String(std::move(value), "mode"));
      } else if (key == "verb") {
        verb_ = std::string(json_.String(std::move(value), "verb"));
      } else if (key == "tu") {
        time_unit_ = std::string(json_.String(std::move(value), "tu"));
      } else if (key == "cmd") {
        cmd_ = std::string(json_.String(std::move(value), "cmd"));
      } else if (key == "pid") {
        pid_ = std::to_string(json_.Unsigned(std::move(value), "pid"));
      } else if (key == "te") {
        t_end_ = std::to_string(json_.Unsigned(std::move(value), "te"));
      } else if (key == "tg") {
        t_gmax_ = std::to_string(json_.Unsigned(std::move(value), "tg"));
      } else if (key == "pps") {
        ReadPoints(std::move(value));
      } else if (key == "ftbl") {
        for (auto element : json_.Array(std::move(value), "ftbl")) {
          frames_.emplace_back(json_.String(std::move(element), "ftbl[]"));
        }
      }
    });
    if (!version_) json_.Fail("no dhatFileVersion: not DHAT's output", 1);
    if (*version_ != 2) {
      json_.Fail("dhatFileVersion " + std::to_string(*version_) +
                     " (this program reads DHAT's version 2, valgrind 3.15 and later)",
                 1);
    }
  }

  void Emit(const ReadContext& context, ProfileSink* sink) {
    if (points_.size() == 0 && !context.allow_empty) {
      throw ProfError(json_.name(),
                      "DHAT output without program points (--allow-empty reads it as a profile "
                      "without samples)");
    }
    // The types: each field some program point has, under the viewer's names.
    static constexpr std::array<const char*, kPointFields.size()> kHeapNames = {
        "total_bytes", "total_blocks", "lifetimes",  "max_bytes",  "max_blocks", "gmax_bytes",
        "gmax_blocks", "end_bytes",    "end_blocks", "read_bytes", "write_bytes"};
    const bool ad_hoc = mode_ == "ad-hoc";
    std::array<bool, kPointFields.size()> present{};
    present[0] = present[1] = true;
    for (size_t i = 0; i < points_.values.size(); ++i) {
      present[i % kPointFields.size()] |= points_.values[i] >= 0;
    }
    ProfileHeader header;
    header.sources.push_back(Source{1, "dhat", context.uri, std::nullopt});
    const auto meta = [&](const char* key, const std::string& value) {
      if (!value.empty()) header.meta.push_back({std::string("dhat.") + key, value});
    };
    meta("cmd", cmd_);
    meta("mode", mode_);
    meta("pid", pid_);
    meta("t_end", t_end_);
    meta("t_gmax", t_gmax_);
    meta("time_unit", time_unit_);
    meta("verb", verb_);
    std::vector<size_t> columns;  // the field of each type
    for (size_t i = 0; i < kPointFields.size(); ++i) {
      if (!present[i]) continue;
      columns.push_back(i);
      if (ad_hoc && i < 2) {
        header.types.push_back({i == 0 ? "total_units" : "total_events", "count"});
      } else {
        const bool blocks = std::string_view(kHeapNames[i]).find("blocks") != std::string::npos;
        header.types.push_back({kHeapNames[i], i == 2   ? Unit(time_unit_)
                                               : blocks ? "count"
                                                        : "bytes"});
      }
    }
    header.default_type = header.types[0].type;
    sink->OnHeader(header);

    Interner interner(sink);
    ValgrindFrames locations(&interner);
    std::vector<uint64_t> location_of(frames_.size(), 0);  // by frame index; 0: not yet
    std::vector<uint64_t> stack;
    Sample sample;
    sample.source_id = 1;
    for (size_t point = 0; point < points_.size(); ++point) {
      stack.clear();
      for (size_t f = points_.frame_starts[point]; f < points_.frame_starts[point + 1]; ++f) {
        const uint64_t frame = points_.frames[f];
        if (frame >= frames_.size()) {
          json_.Fail("fs names frame " + std::to_string(frame) + ", but ftbl has " +
                         std::to_string(frames_.size()),
                     points_.bytes[point]);
        }
        if (location_of[frame] == 0) location_of[frame] = locations.LocationOf(frames_[frame]);
        stack.push_back(location_of[frame]);
      }
      sample.stack_id = interner.Stack(stack);
      sample.values.clear();
      const int64_t* values = &points_.values[point * kPointFields.size()];
      for (const size_t column : columns)
        sample.values.push_back(std::max<int64_t>(values[column], 0));
      sink->OnSample(sample);
    }
    sink->OnEnd();
  }

 private:
  // DHAT's time units as units: "instrs" are instructions.
  static std::string Unit(const std::string& time_unit) {
    return time_unit == "instrs" ? "instructions" : time_unit.empty() ? "count" : time_unit;
  }

  void ReadPoints(JsonValue value) {
    for (auto element : json_.Array(std::move(value), "pps")) {
      points_.bytes.push_back(json_.Byte());
      const size_t first = points_.values.size();
      points_.values.resize(first + kPointFields.size(), -1);
      ForEachField(json_, json_.Object(std::move(element), "pps[]"), "pps[]",
                   [&](std::string_view key, JsonValue field) {
                     if (key == "fs") {
                       for (auto frame : json_.Array(std::move(field), "pps[].fs")) {
                         points_.frames.push_back(json_.Unsigned(std::move(frame), "pps[].fs[]"));
                       }
                       return;
                     }
                     for (size_t i = 0; i < kPointFields.size(); ++i) {
                       if (key == kPointFields[i]) {
                         const uint64_t number = json_.Unsigned(std::move(field), key);
                         if (number > static_cast<uint64_t>(INT64_MAX)) {
                           json_.Fail(std::string(key) + " is past 2^63 - 1");
                         }
                         points_.values[first + i] = static_cast<int64_t>(number);
                         return;
                       }
                     }
                   });
      points_.frame_starts.push_back(points_.frames.size());
    }
  }

  JsonDocument& json_;
  std::optional<uint64_t> version_;
  std::string mode_, verb_, time_unit_, cmd_, pid_, t_end_, t_gmax_;
  ProgramPoints points_;
  std::vector<std::string> frames_;
};

void ReadDhatInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  DhatReader reader(&json);
  reader.Read();
  reader.Emit(context, sink);
}

int SniffDhat(std::string_view head, bool text) {
  const size_t start = head.find_first_not_of(" \t\r\n");
  if (!text || start == std::string_view::npos || head[start] != '{') return kNotMine;
  return Contains(head.substr(0, 200), "\"dhatFileVersion\"") ? kCertain : kNotMine;
}

}  // namespace

const ReaderSpec kDhatReader = {
    "dhat", "valgrind DHAT's output", ReaderShape::kWholeInput, nullptr, SniffDhat, ReadDhatInput,
};

}  // namespace proftools
