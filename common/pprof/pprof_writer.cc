#include "common/pprof/pprof_writer.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/byte_arena.h"
#include "common/base/diagnostics.h"
#include "common/base/id_table.h"
#include "common/base/view_index.h"
#include "common/model/frame_kind.h"
#include "common/pprof/pprof_conventions.h"
#include "formats/profile.pb.h"

namespace proftools {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

// Profile.sample and the fields of Sample and Label, as numbered in formats/profile.proto.
constexpr int kProfileSample = perftools::profiles::Profile::kSampleFieldNumber;
constexpr int kSampleLocationId = perftools::profiles::Sample::kLocationIdFieldNumber;
constexpr int kSampleValue = perftools::profiles::Sample::kValueFieldNumber;
constexpr int kSampleLabel = perftools::profiles::Sample::kLabelFieldNumber;
constexpr int kLabelKey = perftools::profiles::Label::kKeyFieldNumber;
constexpr int kLabelStr = perftools::profiles::Label::kStrFieldNumber;
constexpr int kLabelNum = perftools::profiles::Label::kNumFieldNumber;
constexpr int kLabelNumUnit = perftools::profiles::Label::kNumUnitFieldNumber;

constexpr size_t kFlushBytes = size_t{1} << 20;

// Samples are encoded field by field with libprotobuf's wire primitives rather than through a
// Sample message: stacks are kept as their encoded location_id bytes and copied in whole.
void PutVarint(std::string* out, uint64_t value) {
  uint8_t bytes[10];  // the longest varint
  const uint8_t* end = CodedOutputStream::WriteVarint64ToArray(value, bytes);
  out->append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(end - bytes));
}

void PutVarintField(std::string* out, int field, uint64_t value) {
  if (value == 0) return;  // proto3: a zero scalar is not written
  PutVarint(out, WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_VARINT));
  PutVarint(out, value);
}

// A numeric label's num is written even when 0: that tells it from an empty string label.
void PutNumField(std::string* out, int64_t value) {
  PutVarint(out, WireFormatLite::MakeTag(kLabelNum, WireFormatLite::WIRETYPE_VARINT));
  PutVarint(out, static_cast<uint64_t>(value));
}

void PutBytesField(std::string* out, int field, std::string_view bytes) {
  PutVarint(out, WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
  PutVarint(out, bytes.size());
  out->append(bytes.data(), bytes.size());
}

// Encoding straight into arrays (stack blocks, the output buffer) rather than appending to
// strings: callers make room first, from these sizes.
constexpr size_t kMaxVarintBytes = 10;

// The bytes of the tag and length of a length-delimited field holding `size` bytes.
size_t FieldHeadSize(int field, size_t size) {
  const uint32_t tag = WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  return CodedOutputStream::VarintSize32(tag) + CodedOutputStream::VarintSize64(size);
}

// The bytes of a packed or bytes field that is left out when empty (proto3).
size_t OptionalFieldSize(int field, size_t size) {
  return size == 0 ? 0 : FieldHeadSize(field, size) + size;
}

uint8_t* PutFieldHead(uint8_t* at, int field, size_t size) {
  const uint32_t tag = WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  at = CodedOutputStream::WriteVarint32ToArray(tag, at);
  return CodedOutputStream::WriteVarint64ToArray(size, at);
}

uint8_t* PutBytes(uint8_t* at, std::string_view bytes) {
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return at + bytes.size();
}

// pprof takes the first mapping for the profiled program (its "File:" line, the binary it would
// symbolize). Converters that cannot know it, such as perf2prof, define mappings in the order
// samples first reach them, so the first is typically libc or the kernel; for profiles whose
// every source is perf, the first mapping that looks like a program goes first instead (the
// others keep their order; ids are unchanged).
void MoveExecutableMappingFirst(perftools::profiles::Profile* profile) {
  auto* mappings = profile->mutable_mapping();
  for (int i = 0; i < mappings->size(); ++i) {
    const int64_t file = mappings->Get(i).filename();
    if (file <= 0 || file >= profile->string_table_size()) continue;
    if (!LooksLikeExecutable(profile->string_table(static_cast<int>(file)))) continue;
    for (int k = i; k > 0; --k) mappings->SwapElements(k, k - 1);
    return;
  }
}

}  // namespace

struct PprofWriter::State {
  ByteSink* out = nullptr;
  PprofWriteOptions options;
  std::string buffer;  // encoded output not yet handed to `out`

  std::unordered_map<std::string, int64_t> string_index;
  // Everything but the samples, written at the end: on an arena, so that the messages of tens
  // of thousands of locations and functions are allocated and freed in bulk, not one by one.
  google::protobuf::Arena arena;
  perftools::profiles::Profile& tail =
      *google::protobuf::Arena::CreateMessage<perftools::profiles::Profile>(&arena);

  std::string empty_name;  // the placeholder written back as an empty name ("" when none)
  bool source_label = false;
  bool main_mapping_by_name = false;  // every source is perf: see MoveExecutableMappingFirst
  size_t type_count = 0;

  struct StackSpan {
    const char* bytes;  // the packed location ids, in a block of stack_blocks
    size_t size;
    bool used;
  };
  std::vector<StackSpan> stacks;
  IdMap stack_index;  // text stack id -> index into stacks
  // Encoded stacks: no doubling copy of a buffer that holds every stack (a hundred MB for a
  // million distinct stacks).
  ByteArena stack_bytes;

  // Encodes `ids` straight into the arena (room for the longest varint of each, so no scratch
  // string and no second copy), returning where they went.
  StackSpan StoreStack(const std::vector<uint64_t>& ids) {
    if (ids.empty()) return {nullptr, 0, false};  // an empty stack needs no bytes
    uint8_t* const start =
        reinterpret_cast<uint8_t*>(stack_bytes.Reserve(ids.size() * kMaxVarintBytes));
    uint8_t* at = start;
    for (uint64_t id : ids) at = CodedOutputStream::WriteVarint64ToArray(id, at);
    const size_t size = static_cast<size_t>(at - start);
    stack_bytes.Commit(size);
    return {reinterpret_cast<const char*>(start), size, false};
  }

  // Aggregation, in order of first occurrence. Samples without labels (the common case) are
  // found by stack index; others by key = varint(stack index) + encoded labels, kept in an
  // arena and indexed without an allocation per key (every perf sample has labels, and every
  // sample of a merged profile its source).
  static constexpr size_t kNone = ~size_t{0};
  std::vector<size_t> unlabelled_aggregate;  // stack index -> aggregate, or kNone
  ByteArena key_bytes;
  ViewIndex labelled_index;                      // key -> id, 1, 2, ...
  std::vector<size_t> labelled_aggregate;        // id - 1 -> aggregate
  std::vector<std::string_view> aggregate_keys;  // empty (data() null): no labels
  std::vector<size_t> aggregate_stacks;
  std::vector<int64_t> aggregate_values;  // type_count per aggregate

  // The string-table index of a constant (a label key or unit of §8), interned when first
  // used like any string but then found by its address: these go on every sample.
  std::vector<std::pair<const char*, int64_t>> constant_index;
  int64_t InternConstant(const char* constant) {
    for (const auto& [name, index] : constant_index) {
      if (name == constant) return index;
    }
    const int64_t index = Intern(constant);
    constant_index.emplace_back(constant, index);
    return index;
  }

  std::string labels, key;  // scratch
  // The source and labels that `labels` encodes, when it holds no times.
  std::optional<std::pair<uint64_t, std::vector<Label>>> labels_of;
  uint64_t labels_id_of = 0;  // their Sample::labels_id: the same non-zero id, the same labels

  int64_t Intern(const std::string& s) {
    auto inserted = string_index.emplace(s, static_cast<int64_t>(string_index.size()));
    if (inserted.second) tail.add_string_table(s);
    return inserted.first->second;
  }

  void PutNumLabel(const char* key_name, int64_t num, const char* unit) {
    std::string label;
    PutVarintField(&label, kLabelKey, InternConstant(key_name));
    PutNumField(&label, num);
    if (unit[0] != '\0') PutVarintField(&label, kLabelNumUnit, InternConstant(unit));
    PutBytesField(&labels, kSampleLabel, label);
  }

  void EncodeLabels(const Sample& s) {
    // Readers of traces give runs of samples the same labels (a thread's): encoded once per run,
    // unless times are among them.
    if (!options.keep_samples && labels_of && labels_of->first == s.source_id &&
        ((s.labels_id != 0 && s.labels_id == labels_id_of) || labels_of->second == s.labels)) {
      labels_id_of = s.labels_id;
      return;
    }
    if (options.keep_samples) {
      labels_of.reset();
    } else {
      labels_of.emplace(s.source_id, s.labels);
    }
    labels_id_of = s.labels_id;
    labels.clear();
    std::string label;
    for (const Label& l : s.labels) {
      label.clear();
      PutVarintField(&label, kLabelKey, Intern(l.key));
      if (l.is_num) {
        PutNumField(&label, l.num);
        if (!l.unit.empty()) PutVarintField(&label, kLabelNumUnit, Intern(l.unit));
      } else {
        PutVarintField(&label, kLabelStr, Intern(l.str));
      }
      PutBytesField(&labels, kSampleLabel, label);
    }
    if (source_label) PutNumLabel(kSourceLabel, static_cast<int64_t>(s.source_id), "");
    if (options.keep_samples) {
      if (s.time_nanos) PutNumLabel(kTimeLabel, *s.time_nanos, "nanoseconds");
      if (s.duration_nanos) PutNumLabel(kDurationLabel, *s.duration_nanos, "nanoseconds");
    }
  }

  // Appends Profile.sample = {location_id: stack, value: values, label: encoded labels},
  // encoded in place at the end of `buffer`: sizes first, then the bytes, with no scratch
  // strings to build and copy once per sample.
  void WriteSample(size_t stack, const int64_t* vals, std::string_view encoded_labels) {
    const StackSpan& span = stacks[stack];
    size_t values_size = 0;
    for (size_t i = 0; i < type_count; ++i) {
      values_size += CodedOutputStream::VarintSize64(static_cast<uint64_t>(vals[i]));
    }
    const size_t sample_size = OptionalFieldSize(kSampleLocationId, span.size) +
                               OptionalFieldSize(kSampleValue, values_size) + encoded_labels.size();
    const size_t old_size = buffer.size();
    buffer.resize(old_size + FieldHeadSize(kProfileSample, sample_size) + sample_size);
    uint8_t* at = reinterpret_cast<uint8_t*>(&buffer[old_size]);
    at = PutFieldHead(at, kProfileSample, sample_size);
    if (span.size > 0) {
      at = PutFieldHead(at, kSampleLocationId, span.size);
      at = PutBytes(at, std::string_view(span.bytes, span.size));
    }
    if (values_size > 0) {
      at = PutFieldHead(at, kSampleValue, values_size);
      for (size_t i = 0; i < type_count; ++i) {
        at = CodedOutputStream::WriteVarint64ToArray(static_cast<uint64_t>(vals[i]), at);
      }
    }
    PutBytes(at, encoded_labels);
    if (buffer.size() >= kFlushBytes) Flush();
  }

  void Flush() {
    out->Write(buffer);
    buffer.clear();
  }
};

PprofWriter::PprofWriter(ByteSink* out, PprofWriteOptions options)
    : state_(std::make_unique<State>()) {
  state_->out = out;
  state_->options = options;
  state_->Intern("");  // string_table[0] must be ""
}

PprofWriter::~PprofWriter() = default;

void PprofWriter::OnHeader(const ProfileHeader& header) {
  State& s = *state_;
  auto& tail = s.tail;
  for (const ValueType& type : header.types) {
    auto* vt = tail.add_sample_type();
    vt->set_type(s.Intern(type.type));
    vt->set_unit(s.Intern(type.unit));
  }
  s.type_count = header.types.size();
  if (!header.default_type.empty()) tail.set_default_sample_type(s.Intern(header.default_type));
  if (header.period.IsSet()) {
    tail.mutable_period_type()->set_type(s.Intern(header.period.type.type));
    tail.mutable_period_type()->set_unit(s.Intern(header.period.type.unit));
    tail.set_period(header.period.value);
  }
  if (header.time_nanos) tail.set_time_nanos(*header.time_nanos);
  if (header.duration_nanos) tail.set_duration_nanos(*header.duration_nanos);
  if (!header.drop_frames.empty()) tail.set_drop_frames(s.Intern(header.drop_frames));
  if (!header.keep_frames.empty()) tail.set_keep_frames(s.Intern(header.keep_frames));
  if (!header.doc_url.empty()) tail.set_doc_url(s.Intern(header.doc_url));
  // What pprof has no field for travels as comments, before the profile's own comments.
  for (const MetaEntry& meta : header.meta) {
    if (meta.key == kEmptyNameMeta) {
      s.empty_name = meta.value;
      continue;
    }
    tail.add_comment(s.Intern(CarryMeta(meta)));
  }
  const bool sole_pprof_source = header.sources.size() == 1 &&
                                 header.sources[0].type == kPprofSourceType &&
                                 !header.sources[0].time_nanos;
  if (!sole_pprof_source) {
    for (const Source& source : header.sources) tail.add_comment(s.Intern(CarrySource(source)));
  }
  s.source_label = header.sources.size() > 1;
  s.main_mapping_by_name =
      !header.sources.empty() &&
      std::all_of(header.sources.begin(), header.sources.end(),
                  [](const Source& source) { return source.type == kPerfSourceType; });
  for (const std::string& comment : header.comments) {
    tail.add_comment(s.Intern(CarryComment(comment)));
  }
}

void PprofWriter::OnMapping(const Mapping& mapping) {
  State& s = *state_;
  auto* m = s.tail.add_mapping();
  m->set_id(mapping.id);
  m->set_memory_start(mapping.start);
  m->set_memory_limit(mapping.limit);
  m->set_file_offset(mapping.offset);
  m->set_filename(s.Intern(mapping.file));
  m->set_build_id(s.Intern(mapping.build_id));
  m->set_has_functions(mapping.has_functions);
  m->set_has_filenames(mapping.has_filenames);
  m->set_has_line_numbers(mapping.has_line_numbers);
  m->set_has_inline_frames(mapping.has_inline_frames);
}

void PprofWriter::OnFunction(const Function& function) {
  State& s = *state_;
  auto* f = s.tail.add_function();
  f->set_id(function.id);
  const bool placeholder = !s.empty_name.empty() && function.name == s.empty_name;
  f->set_name(s.Intern(placeholder ? std::string() : function.name));
  // pprof rewrites a name whose system_name equals it when the name looks mangled or like
  // demangled C++ (<GC> would show as ""): such a function gets no system_name.
  const bool same = function.system_name.empty() || function.system_name == function.name;
  const bool keep_system_name = !same || !PprofWouldRewriteName(function.name);
  f->set_system_name(keep_system_name ? s.Intern(function.system_name) : 0);
  f->set_filename(s.Intern(function.file));
  f->set_start_line(function.start_line);
}

void PprofWriter::OnLocation(const Location& location) {
  State& s = *state_;
  auto* l = s.tail.add_location();
  l->set_id(location.id);
  l->set_mapping_id(location.mapping_id);
  l->set_address(location.address);
  l->set_is_folded(location.is_folded);
  for (const Line& line : location.lines) {
    auto* pl = l->add_line();
    pl->set_function_id(line.function_id);
    pl->set_line(line.line);
    pl->set_column(line.column);
  }
}

void PprofWriter::OnStack(const Stack& stack) {
  State& s = *state_;
  uint64_t existing;
  s.stack_index.Insert(stack.id, s.stacks.size(), &existing);
  s.stacks.push_back(s.StoreStack(stack.location_ids));
}

void PprofWriter::OnSample(const Sample& sample) {
  State& s = *state_;
  uint64_t stack;
  if (!s.stack_index.Find(sample.stack_id, &stack)) {
    throw ProfError("<pprof writer>",
                    "sample refers to undefined stack " + std::to_string(sample.stack_id));
  }
  s.stacks[stack].used = true;
  s.EncodeLabels(sample);
  if (s.options.keep_samples || s.options.unique_samples) {
    s.WriteSample(stack, sample.values.data(), s.labels);
    return;
  }
  size_t aggregate;
  std::string_view key;
  if (s.labels.empty()) {
    if (s.unlabelled_aggregate.size() <= stack) {
      s.unlabelled_aggregate.resize(s.stacks.size(), State::kNone);
    }
    aggregate = s.unlabelled_aggregate[stack];
    if (aggregate == State::kNone) s.unlabelled_aggregate[stack] = s.aggregate_keys.size();
  } else {
    s.key.clear();
    PutVarint(&s.key, stack);
    s.key += s.labels;
    // Stored first (the index keeps a view of it), given back when the key is known.
    const std::string_view stored = s.key_bytes.Store(s.key);
    bool inserted;
    const uint64_t id = s.labelled_index.Intern(stored, &inserted);
    if (inserted) {
      s.labelled_aggregate.push_back(s.aggregate_keys.size());
      aggregate = State::kNone;
      key = stored;
    } else {
      s.key_bytes.Unstore(stored);
      aggregate = s.labelled_aggregate[id - 1];
    }
  }
  if (aggregate == State::kNone) {
    s.aggregate_keys.push_back(key);
    s.aggregate_stacks.push_back(stack);
    s.aggregate_values.insert(s.aggregate_values.end(), sample.values.begin(), sample.values.end());
    return;
  }
  int64_t* sums = &s.aggregate_values[aggregate * s.type_count];
  for (size_t i = 0; i < s.type_count; ++i) {
    // Wrapping addition, as pprof's int64 sums: differential profiles may mix signs.
    sums[i] = static_cast<int64_t>(static_cast<uint64_t>(sums[i]) +
                                   static_cast<uint64_t>(sample.values[i]));
  }
}

void PprofWriter::OnEnd() {
  State& s = *state_;
  for (size_t i = 0; i < s.aggregate_keys.size(); ++i) {
    std::string_view labels;
    if (s.aggregate_keys[i].data() != nullptr) {
      labels = s.aggregate_keys[i];
      size_t stack_varint = 1;  // the key starts with the stack index
      while (static_cast<unsigned char>(labels[stack_varint - 1]) & 0x80) ++stack_varint;
      labels.remove_prefix(stack_varint);
    }
    s.WriteSample(s.aggregate_stacks[i], &s.aggregate_values[i * s.type_count], labels);
  }
  // A stack no sample uses has no place in pprof but a sample: a zero-valued one, marked.
  const std::vector<int64_t> zeros(s.type_count, 0);
  for (size_t i = 0; i < s.stacks.size(); ++i) {
    if (s.stacks[i].used) continue;
    s.labels.clear();
    s.PutNumLabel(kUnusedStackLabel, 1, "");
    const std::string marker = s.labels;
    s.WriteSample(i, zeros.data(), marker);
  }
  if (s.main_mapping_by_name) MoveExecutableMappingFirst(&s.tail);
  std::string tail;
  s.tail.SerializeToString(&tail);
  s.buffer += tail;
  s.Flush();
}

}  // namespace proftools
