// The profile model: exactly the content of the prof text format (formats/prof-text.md).
//
// Records are plain structs. Ids are those of the file they came from; the canonical writer
// renumbers them. A whole profile is a ProfileHeader (the preamble), the definitions, and the
// samples; streaming code sees the header once and then the body records one by one (sink.h).
#ifndef PROFTOOLS_COMMON_MODEL_MODEL_H_
#define PROFTOOLS_COMMON_MODEL_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proftools {

struct MetaEntry {
  std::string key;
  std::string value;
  bool operator==(const MetaEntry& o) const { return key == o.key && value == o.value; }
};

struct ValueType {
  std::string type;
  std::string unit;
  bool operator==(const ValueType& o) const { return type == o.type && unit == o.unit; }
};

struct Source {
  uint64_t id = 0;
  std::string type;
  std::string uri;
  std::optional<int64_t> time_nanos;
  bool operator==(const Source& o) const {
    return id == o.id && type == o.type && uri == o.uri && time_nanos == o.time_nanos;
  }
};

// The source type perf2prof writes. Here, not in the perf codec, because the pprof writer
// reads it too (see common/pprof/pprof_conventions.h).
inline constexpr const char* kPerfSourceType = "perf";

// pprof's period_type and period. Written only when not all empty/zero.
struct Period {
  ValueType type;
  int64_t value = 0;
  bool IsSet() const { return !type.type.empty() || !type.unit.empty() || value != 0; }
  bool operator==(const Period& o) const { return type == o.type && value == o.value; }
};

// The preamble: everything that describes the profile as a whole.
struct ProfileHeader {
  std::vector<MetaEntry> meta;
  std::vector<std::string> comments;
  std::optional<int64_t> time_nanos;
  std::optional<int64_t> duration_nanos;
  Period period;
  std::string doc_url;
  std::string drop_frames;
  std::string keep_frames;
  std::vector<Source> sources;
  std::vector<ValueType> types;
  std::string default_type;  // empty: none declared

  // Index of the type reports show by default: default_type, else the last type (as pprof).
  // -1 when there are no types.
  int DefaultTypeIndex() const;
  // Index of the type named `name`, or -1.
  int TypeIndex(const std::string& name) const;
  const Source* FindSource(uint64_t id) const;

  bool operator==(const ProfileHeader& o) const;
};

struct Mapping {
  uint64_t id = 0;
  uint64_t start = 0;
  uint64_t limit = 0;
  uint64_t offset = 0;
  std::string file;
  std::string build_id;
  bool has_functions = false;
  bool has_filenames = false;
  bool has_line_numbers = false;
  bool has_inline_frames = false;
  bool operator==(const Mapping& o) const;
};

struct Function {
  uint64_t id = 0;
  std::string name;
  std::string system_name;
  std::string file;
  int64_t start_line = 0;
  bool operator==(const Function& o) const {
    return id == o.id && name == o.name && system_name == o.system_name && file == o.file &&
           start_line == o.start_line;
  }
};

struct Line {
  uint64_t function_id = 0;
  int64_t line = 0;
  int64_t column = 0;
  bool operator==(const Line& o) const {
    return function_id == o.function_id && line == o.line && column == o.column;
  }
};

struct Location {
  uint64_t id = 0;
  uint64_t mapping_id = 0;  // 0: no mapping
  uint64_t address = 0;
  bool is_folded = false;
  std::vector<Line> lines;  // innermost inlined first
  bool operator==(const Location& o) const {
    return id == o.id && mapping_id == o.mapping_id && address == o.address &&
           is_folded == o.is_folded && lines == o.lines;
  }
};

struct Stack {
  uint64_t id = 0;
  std::vector<uint64_t> location_ids;  // leaf first
  bool operator==(const Stack& o) const { return id == o.id && location_ids == o.location_ids; }
};

struct Label {
  std::string key;
  bool is_num = false;
  std::string str;   // string labels
  int64_t num = 0;   // numeric labels
  std::string unit;  // numeric labels; may be empty
  static Label String(std::string key, std::string value);
  static Label Number(std::string key, int64_t value, std::string unit = "");
  bool operator==(const Label& o) const {
    return key == o.key && is_num == o.is_num && str == o.str && num == o.num && unit == o.unit;
  }
};

struct Sample {
  uint64_t source_id = 0;
  uint64_t stack_id = 0;
  std::optional<int64_t> time_nanos;
  std::optional<int64_t> duration_nanos;
  std::vector<int64_t> values;  // one per declared type
  std::vector<Label> labels;
  // Set by a reader that numbers its samples' label sets: samples of one stream with the same
  // non-zero labels_id have equal labels, so that a sink may skip copying or comparing them
  // (a fleet's samples repeat a few sets: comm, tid). 0: not numbered. Not part of the
  // sample's content; a sink that changes labels and passes the sample on leaves it 0.
  uint64_t labels_id = 0;
  bool operator==(const Sample& o) const {
    return source_id == o.source_id && stack_id == o.stack_id && time_nanos == o.time_nanos &&
           duration_nanos == o.duration_nanos && values == o.values && labels == o.labels;
  }
};

// Whether `sample`'s labels are `labels`, kept from a sample whose labels_id was `labels_id`:
// by number when the sample is numbered and the numbers agree (samples of one stream with the
// same non-zero labels_id have equal labels), else by content.
inline bool HasLabels(const Sample& sample, uint64_t labels_id, const std::vector<Label>& labels) {
  return (sample.labels_id != 0 && labels_id == sample.labels_id) || labels == sample.labels;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_MODEL_H_
