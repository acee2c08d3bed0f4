#include "common/pprof/pprof_reader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/parse_context.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/bytes_hash.h"
#include "common/base/counted.h"
#include "common/base/id_table.h"
#include "common/base/text_syntax.h"
#include "common/base/view_index.h"
#include "common/pprof/pprof_conventions.h"
#include "common/pprof/pprof_merged.h"
#include "common/pprof/pprof_messages.h"
#include "formats/profile.pb.h"

namespace proftools {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
namespace pb = perftools::profiles;

// A length-delimited field: where its payload starts in the input, and the payload.
struct Span {
  size_t offset = 0;
  std::string_view bytes;
};

class Decoder {
 public:
  Decoder(std::string_view data, const std::string& name, ProfileSink* sink,
          const PprofReadOptions& options)
      : data_(data), name_(name), sink_(sink), options_(options) {}

  void Run() {
    ScanTopLevel();
    CheckStrings();
    ProfileHeader header = BuildHeader();
    sink_->OnHeader(header);
    EmitDefinitions();
    stacks_.Reserve(samples_.size());  // at most one new stack a sample
    for (size_t i = 0; i < samples_.size(); ++i) EmitSample(i);
    sink_->OnEnd();
  }

 private:
  [[noreturn]] void Fail(const std::string& message) const { throw ProfError(name_, message); }
  [[noreturn]] void FailAt(size_t offset, const std::string& message) const {
    Fail("byte " + std::to_string(offset) + ": " + message);
  }

  // Pass 1: every top-level field. Samples are only located; the rest is decoded.
  void ScanTopLevel() {
    if (data_.size() > static_cast<size_t>(INT_MAX)) {
      Fail("pprof data of " + std::to_string(data_.size()) +
           " bytes is larger than this program decodes (2 GiB)");
    }
    size_t offset = 0;
    while (offset < data_.size()) {
      const size_t next = ScanCommonField(offset);
      offset = next != 0 ? next : ScanField(offset);
    }
  }

  // Reads the field at `offset` (any field, in any form) and returns where the next starts.
  size_t ScanField(size_t offset) {
    CodedInputStream in(reinterpret_cast<const uint8_t*>(data_.data()) + offset,
                        static_cast<int>(data_.size() - offset));
    const auto next = [&] { return offset + static_cast<size_t>(in.CurrentPosition()); };
    const uint32_t tag = in.ReadTag();
    if (tag == 0) FailAt(offset, "not a protobuf field (bad tag); is the file cut short?");
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    const auto wire = WireFormatLite::GetTagWireType(tag);
    if (field >= 1 && field <= 15) {
      const bool length_delimited = field <= 6 || field == 11;
      const bool ok = length_delimited
                          ? wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED
                          : (wire == WireFormatLite::WIRETYPE_VARINT ||
                             (field == 13 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
      if (!ok) {
        FailAt(offset, "field " + std::to_string(field) + " of Profile has wire type " +
                           std::to_string(wire) + ", which that field cannot have");
      }
    }
    if (wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED && field >= 1 && field <= 13) {
      Span span = ReadSpan(&in, offset, field);
      switch (field) {
        case 1:
          sample_types_.push_back(Parse<pb::ValueType>(span, "sample_type"));
          break;
        case 2:
        case 3:
        case 4:
        case 5:
        case 6:
          KeepSpan(field, span);
          break;
        case 11:
          period_type_ = Parse<pb::ValueType>(span, "period_type");
          has_period_type_ = true;
          break;
        case 13:
          ReadPackedComments(span);
          break;
        default:
          break;
      }
      return next();
    }
    if (field >= 7 && field <= 15 && field != 11) {
      uint64_t value;
      if (!in.ReadVarint64(&value))
        FailAt(offset, "field " + std::to_string(field) + ": bad varint");
      const int64_t v = static_cast<int64_t>(value);
      switch (field) {
        case 7:
          drop_frames_ = v;
          break;
        case 8:
          keep_frames_ = v;
          break;
        case 9:
          // As pprof: a second time_nanos means two profiles were concatenated (cat a b).
          if (time_nanos_ != 0) {
            FailAt(offset,
                   "time_nanos appears twice: concatenated profiles (combine profiles "
                   "with prof-merge, not cat)");
          }
          time_nanos_ = v;
          break;
        case 10:
          duration_nanos_ = v;
          break;
        case 12:
          period_ = v;
          break;
        case 13:
          comments_.push_back(v);
          break;
        case 14:
          default_sample_type_ = v;
          break;
        case 15:
          doc_url_ = v;
          break;
      }
      return next();
    }
    // A field this version of profile.proto does not have: skipped, as pprof does.
    if (!WireFormatLite::SkipField(&in, tag)) {
      FailAt(offset, "field " + std::to_string(field) + " is cut short or malformed");
    }
    return next();
  }

  // The fields that come by the thousand (samples, locations, functions, strings; mappings
  // too) in their common form, a one-byte tag and a length that fits, without libprotobuf's reader
  // (23 M of a fleet merge's 81 M instructions of scanning). Returns where the next field starts,
  // or 0 for any other field, or one that is malformed: ScanField reads it, and says what is
  // wrong.
  size_t ScanCommonField(size_t offset) {
    const auto* const bytes = reinterpret_cast<const uint8_t*>(data_.data());
    const uint8_t tag = bytes[offset];
    const int field = tag >> 3;
    if ((tag & 7) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED || field < 2 || field > 6) {
      return 0;
    }
    size_t at = offset + 1;
    uint64_t length = 0;
    for (int shift = 0;; shift += 7) {
      if (at == data_.size() || shift > 28) return 0;
      const uint8_t byte = bytes[at++];
      length |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
    if (length > data_.size() - at) return 0;
    KeepSpan(field, Span{offset, data_.substr(at, static_cast<size_t>(length))});
    return at + static_cast<size_t>(length);
  }

  // Keeps where a sample, mapping, location, function or string is: decoded later.
  void KeepSpan(int field, const Span& span) {
    switch (field) {
      case 2:
        samples_.push_back(span);
        break;
      case 3:
        mappings_.push_back(span);
        break;
      case 4:
        locations_.push_back(span);
        break;
      case 5:
        functions_.push_back(span);
        break;
      default:
        strings_.push_back(span.bytes);
        break;
    }
  }

  // The payload of the length-delimited field at `offset`, whose tag `in` (reading data_ from
  // `offset` on) has read.
  Span ReadSpan(CodedInputStream* in, size_t offset, int field) {
    uint64_t length;
    if (!in->ReadVarint64(&length))
      FailAt(offset, "field " + std::to_string(field) + ": bad length");
    const size_t start = offset + static_cast<size_t>(in->CurrentPosition());
    if (length > data_.size() - start) {
      const size_t remaining = data_.size() - start;
      FailAt(offset, "field " + std::to_string(field) + " declares " +
                         Counted(length, "byte", "bytes") + " but only " +
                         std::to_string(remaining) + (remaining == 1 ? " remains" : " remain") +
                         " (the data is cut short or corrupt)");
    }
    in->Skip(static_cast<int>(length));
    return {offset, data_.substr(start, static_cast<size_t>(length))};
  }

  template <typename Message>
  Message Parse(const Span& span, const char* what) {
    Message message;
    if (!message.ParseFromArray(span.bytes.data(), static_cast<int>(span.bytes.size()))) {
      FailAt(span.offset, std::string("malformed ") + what + " message");
    }
    return message;
  }

  // The messages that come by the thousand, decoded by pprof_messages.
  PbFunction ParseFunction(const Span& span) {
    PbFunction f;
    if (!DecodeFunction(span.bytes, &f)) FailAt(span.offset, "malformed function message");
    return f;
  }
  void ParseLocation(const Span& span, PbLocation* l) {
    if (!DecodeLocation(span.bytes, l)) FailAt(span.offset, "malformed location message");
  }

  void ReadPackedComments(const Span& span) {
    CodedInputStream in(reinterpret_cast<const uint8_t*>(span.bytes.data()),
                        static_cast<int>(span.bytes.size()));
    while (in.CurrentPosition() < static_cast<int>(span.bytes.size())) {
      uint64_t value;
      if (!in.ReadVarint64(&value)) FailAt(span.offset, "comment: bad packed varint");
      comments_.push_back(static_cast<int64_t>(value));
    }
  }

  void CheckStrings() {
    if (strings_.empty()) Fail("no string table (string_table[0] must be \"\")");
    if (!strings_[0].empty()) {
      Fail("string_table[0] must be \"\", found " + Printable(strings_[0]));
    }
  }

  // What names a field in a message: a string, or a callable that builds one. The hot paths
  // (every sample's labels, every function and location of every input of a merge) pass a
  // callable, so that the name is only built when there is an error to report.
  template <typename What>
  static std::string Describe(const What& what) {
    if constexpr (std::is_invocable_v<const What&>) {
      return what();
    } else {
      return std::string(what);
    }
  }

  // The string at `index`; `what` names the field for the message. Its size is charged to the
  // record being decoded (Charge).
  template <typename What>
  std::string Str(int64_t index, const What& what, size_t offset) {
    return std::string(StrView(index, what, offset));
  }
  // The same, in the string table: for a record kept from one to the next, whose strings keep
  // their memory (a fleet's every function, three strings each).
  template <typename What>
  std::string_view StrView(int64_t index, const What& what, size_t offset) {
    if (index < 0 || static_cast<uint64_t>(index) >= strings_.size()) {
      FailAt(offset, Describe(what) + ": string index " + std::to_string(index) +
                         " is out of range (the string table has " +
                         Counted(strings_.size(), "entry", "entries") + ")");
    }
    const std::string_view s = strings_[static_cast<size_t>(index)];
    Charge(s.size(), offset, what);
    return s;
  }

  // Strings are shared through the string table, so a few bytes of input can stand for many
  // copies of a long string. Every record is held to what one line of prof text may be
  // (64 MiB), and the header to four times that, so memory and output stay bounded by the
  // input's size whatever it references.
  template <typename What>
  void Charge(size_t bytes, size_t offset, const What& what) {
    record_bytes_ += bytes;
    header_bytes_ += in_header_ ? bytes : 0;
    if (record_bytes_ > kMaxRecordBytes) {
      FailAt(offset, Describe(what) + ": the record would be a prof text line of more than 64 MiB");
    }
    if (header_bytes_ > 4 * kMaxRecordBytes) {
      FailAt(offset, Describe(what) + ": the header records would take more than 256 MiB");
    }
  }

  ProfileHeader BuildHeader() {
    in_header_ = true;
    ProfileHeader header;
    for (size_t i = 0; i < sample_types_.size(); ++i) {
      const std::string what = "sample_type " + std::to_string(i + 1);
      header.types.push_back(
          {Str(sample_types_[i].type(), what, 0), Str(sample_types_[i].unit(), what, 0)});
    }
    if (!samples_.empty() && header.types.empty()) {
      Fail("the profile has samples but no sample_type");
    }
    header.default_type = Str(default_sample_type_, "default_sample_type", 0);
    if (has_period_type_) {
      header.period.type = {Str(period_type_.type(), "period_type", 0),
                            Str(period_type_.unit(), "period_type", 0)};
    }
    header.period.value = period_;
    if (time_nanos_ != 0) header.time_nanos = time_nanos_;
    if (duration_nanos_ != 0) header.duration_nanos = duration_nanos_;
    header.drop_frames = Str(drop_frames_, "drop_frames", 0);
    header.keep_frames = Str(keep_frames_, "keep_frames", 0);
    header.doc_url = Str(doc_url_, "doc_url", 0);
    for (int64_t index : comments_) {
      record_bytes_ = 0;
      const std::string comment = Str(index, "comment", 0);
      CarriedRecord carried = ParseCarried(comment);
      switch (carried.kind) {
        case CarriedRecord::kMeta:
          header.meta.push_back(std::move(carried.meta));
          break;
        case CarriedRecord::kSource:
          header.sources.push_back(std::move(carried.source));
          break;
        case CarriedRecord::kComment:
          header.comments.push_back(std::move(carried.comment));
          break;
        case CarriedRecord::kNone:
          header.comments.push_back(comment);
          break;
      }
    }
    for (const std::string& warning : CollapsePprofMergedRecords(&header)) {
      if (options_.handler != nullptr) {
        options_.handler->Warning(Diagnostic{Rule::kInput, name_, 0, warning});
      }
    }
    // A plain pprof profile: the file itself is the one source.
    if (header.sources.empty() && !samples_.empty()) {
      header.sources.push_back({1, kPprofSourceType, options_.uri, std::nullopt});
    }
    for (const Source& source : header.sources) source_ids_.push_back(source.id);
    ChooseEmptyNamePlaceholder(&header);
    in_header_ = false;
    return header;
  }

  // prof text names are non-empty: an empty pprof name gets a placeholder no other function
  // has, recorded in a meta record so that prof2pprof writes it back as empty.
  void ChooseEmptyNamePlaceholder(ProfileHeader* header) {
    // Most profiles have no empty name: the set of names (every function's, for each input of
    // a merge) is built only for one that has.
    bool any_empty = false;
    for (size_t i = 0; i < functions_.size() && !any_empty; ++i) {
      any_empty = ParseFunction(functions_[i]).name == 0;
    }
    if (!any_empty) return;
    std::unordered_set<std::string_view> names;
    for (const Span& span : functions_) {
      const int64_t index = ParseFunction(span).name;
      if (index > 0 && static_cast<uint64_t>(index) < strings_.size()) {
        names.insert(strings_[static_cast<size_t>(index)]);
      }
    }
    empty_name_ = kEmptyNamePlaceholder;
    for (int n = 2; names.count(empty_name_) > 0; ++n) {
      empty_name_ = "<unnamed-" + std::to_string(n) + ">";
    }
    header->meta.push_back({kEmptyNameMeta, empty_name_});
  }

  void EmitDefinitions() {
    IdMap mapping_ids, function_ids;
    // Ids are mostly 1 to the number of records.
    function_ids.Reserve(functions_.size());
    location_ids_.Reserve(locations_.size());
    uint64_t unused;
    pb::Mapping m;
    for (const Span& span : mappings_) {
      const size_t offset = span.offset;
      m = Parse<pb::Mapping>(span, "mapping");
      record_bytes_ = 0;
      if (m.id() == 0) FailAt(offset, "mapping with id 0 (ids must be positive)");
      if (!mapping_ids.Insert(m.id(), 0, &unused)) {
        FailAt(offset, "two mappings have id " + std::to_string(m.id()));
      }
      const auto what = [&](const char* field) {
        return [&m, field] { return "mapping " + std::to_string(m.id()) + field; };
      };
      Mapping mapping;
      mapping.id = m.id();
      mapping.start = m.memory_start();
      mapping.limit = m.memory_limit();
      mapping.offset = m.file_offset();
      mapping.file = Str(m.filename(), what(" filename"), offset);
      mapping.build_id = Str(m.build_id(), what(" build_id"), offset);
      mapping.has_functions = m.has_functions();
      mapping.has_filenames = m.has_filenames();
      mapping.has_line_numbers = m.has_line_numbers();
      mapping.has_inline_frames = m.has_inline_frames();
      sink_->OnMapping(mapping);
    }
    Function function;
    for (const Span& span : functions_) {
      const size_t offset = span.offset;
      const PbFunction f = ParseFunction(span);
      record_bytes_ = 0;
      if (f.id == 0) FailAt(offset, "function with id 0 (ids must be positive)");
      if (!function_ids.Insert(f.id, 0, &unused)) {
        FailAt(offset, "two functions have id " + std::to_string(f.id));
      }
      const auto what = [&](const char* field) {
        return [&f, field] { return "function " + std::to_string(f.id) + field; };
      };
      function.id = f.id;
      function.name.assign(StrView(f.name, what(" name"), offset));
      if (function.name.empty()) function.name = empty_name_;
      function.system_name.assign(StrView(f.system_name, what(" system_name"), offset));
      function.file.assign(StrView(f.filename, what(" filename"), offset));
      function.start_line = f.start_line;
      sink_->OnFunction(function);
    }
    Location location;
    PbLocation l;
    for (const Span& span : locations_) {
      const size_t offset = span.offset;
      ParseLocation(span, &l);
      record_bytes_ = 0;
      Charge(l.lines.size() * size_t{40}, offset,
             [&l] { return "location " + std::to_string(l.id); });
      if (l.id == 0) FailAt(offset, "location with id 0 (ids must be positive)");
      if (!location_ids_.Insert(l.id, 0, &unused)) {
        FailAt(offset, "two locations have id " + std::to_string(l.id));
      }
      location.id = l.id;
      location.mapping_id = l.mapping_id;
      if (location.mapping_id != 0 && !mapping_ids.Contains(location.mapping_id)) {
        // pprof accepts this and treats the location as unmapped; so do we, but say so.
        if (options_.handler != nullptr) {
          options_.handler->Warning(
              Diagnostic{Rule::kInput, name_, 0,
                         "byte " + std::to_string(offset) + ": location " + std::to_string(l.id) +
                             " refers to mapping " + std::to_string(location.mapping_id) +
                             ", which does not exist; it is read without a mapping"});
        }
        location.mapping_id = 0;
      }
      location.address = l.address;
      location.is_folded = l.is_folded;
      location.lines.clear();
      for (const PbLine& line : l.lines) {
        if (!function_ids.Contains(line.function_id)) {
          FailAt(offset, "location " + std::to_string(l.id) + " has a line with function " +
                             std::to_string(line.function_id) + ", which is not defined");
        }
        location.lines.push_back({line.function_id, line.line, line.column});
      }
      sink_->OnLocation(location);
    }
  }

  // Pass 2: one sample, decoded field by field (no Sample message: this is the hot path).
  void EmitSample(size_t index) {
    const Span& span = samples_[index];
    auto what = [&] { return "sample " + std::to_string(index + 1); };
    auto malformed = [&] { FailAt(span.offset, what() + ": malformed Sample message"); };
    CodedInputStream in(reinterpret_cast<const uint8_t*>(span.bytes.data()),
                        static_cast<int>(span.bytes.size()));
    const size_t end = span.bytes.size();
    std::string_view packed_ids;  // the location ids, when they are one packed field
    uint64_t packed_hash = 0;     // HashBytes(packed_ids)
    size_t id_fields = 0;
    loose_ids_.clear();
    sample_.values.clear();
    label_bytes_.clear();
    record_bytes_ = 0;
    while (static_cast<size_t>(in.CurrentPosition()) < end) {
      const uint32_t tag = in.ReadTag();
      const int field = WireFormatLite::GetTagFieldNumber(tag);
      const auto wire = WireFormatLite::GetTagWireType(tag);
      if (tag == 0) malformed();
      if ((field == 1 || field == 2) && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        uint64_t length;
        if (!in.ReadVarint64(&length)) malformed();
        const size_t start = static_cast<size_t>(in.CurrentPosition());
        if (length > end - start) malformed();
        const std::string_view payload = span.bytes.substr(start, length);
        if (field == 1) {
          packed_ids = payload;
          ++id_fields;
          // The stack's slot in stacks_ is fetched while the ids are decoded.
          packed_hash = HashBytes(payload);
          stacks_.Prefetch(packed_hash);
          if (!DecodePacked(payload, &loose_ids_, kMaxStackDepth)) TooDeep(span.offset, what());
        } else {
          std::vector<uint64_t>& raw = scratch_values_;
          raw.clear();
          if (!DecodePacked(payload, &raw, sample_types_.size() + 1)) {
            FailAt(span.offset, what() + ": a malformed value field, or more values than the " +
                                    std::to_string(sample_types_.size()) + " sample types");
          }
          for (uint64_t v : raw) sample_.values.push_back(static_cast<int64_t>(v));
        }
        in.Skip(static_cast<int>(length));
      } else if ((field == 1 || field == 2) && wire == WireFormatLite::WIRETYPE_VARINT) {
        uint64_t v;
        if (!in.ReadVarint64(&v)) malformed();
        if (field == 1) {
          if (loose_ids_.size() >= kMaxStackDepth) TooDeep(span.offset, what());
          loose_ids_.push_back(v);
          id_fields += 2;  // not one packed field: the key is built
        } else if (sample_.values.size() <= sample_types_.size()) {
          sample_.values.push_back(static_cast<int64_t>(v));
        }
      } else if (field == 3 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        uint64_t length;
        if (!in.ReadVarint64(&length)) malformed();
        const size_t start = static_cast<size_t>(in.CurrentPosition());
        if (length > end - start) malformed();
        Charge(sizeof(pb::Label), span.offset, what);
        label_bytes_.push_back(span.bytes.substr(start, length));  // decoded below, if new
        in.Skip(static_cast<int>(length));
      } else if (!WireFormatLite::SkipField(&in, tag)) {
        malformed();
      }
    }
    if (sample_.values.size() != sample_types_.size()) {
      FailAt(span.offset, what() + " has " + Counted(sample_.values.size(), "value", "values") +
                              " but there " + (sample_types_.size() == 1 ? "is " : "are ") +
                              Counted(sample_types_.size(), "sample type", "sample types"));
    }
    bool unused_stack = false;
    // Most samples have the labels of the one before, byte for byte (a thread's): those are
    // not decoded again: 26 M of a fleet merge's 1,461 M instructions.
    const bool same_bytes = sample_.labels_id != 0 && label_bytes_ == last_label_bytes_;
    if (!same_bytes) {
      labels_.clear();
      for (std::string_view bytes : label_bytes_) {
        labels_.emplace_back();
        if (!DecodeLabel(bytes, &labels_.back())) malformed();
      }
      last_label_bytes_.swap(label_bytes_);
    }
    if (same_bytes || (sample_.labels_id != 0 && labels_ == last_raw_labels_)) {
      // The labels of the sample before (a thread's, mostly): what they made of it, again, and
      // the same labels_id, which tells the sinks so.
      Charge(last_labels_bytes_, span.offset, what);
      unused_stack = last_unused_stack_;
    } else {
      const size_t charged = record_bytes_;
      unused_stack = EmitLabels(span.offset, what);
      last_labels_bytes_ = record_bytes_ - charged;
      last_unused_stack_ = unused_stack;
      last_raw_labels_ = labels_;
      ++sample_.labels_id;
    }
    const uint64_t stack_id =
        InternStack(packed_ids, packed_hash, id_fields == 1, span.offset, what);
    if (unused_stack) return;  // it only carried the stack
    sample_.stack_id = stack_id;
    sink_->OnSample(sample_);
  }

  // The sample's labels (labels_) into sample_: its labels, and the fields the conventions'
  // labels carry. Returns true when a label says the sample only carried its stack.
  template <typename What>
  bool EmitLabels(size_t offset, const What& what) {
    sample_.labels.clear();
    sample_.time_nanos.reset();
    sample_.duration_nanos.reset();
    sample_.source_id = source_ids_.empty() ? 0 : source_ids_[0];
    bool unused_stack = false;
    for (const PbLabel& l : labels_) {
      Label label;
      label.key = Str(
          l.key, [&] { return what() + " label key"; }, offset);
      if (label.key.empty()) FailAt(offset, what() + " has a label with an empty key");
      const auto label_what = [&] { return what() + " label " + Printable(label.key); };
      if (l.str != 0) {
        label.str = Str(l.str, label_what, offset);
      } else if (l.has_num || l.num_unit != 0) {
        label.is_num = true;
        label.num = l.num;
        label.unit = Str(l.num_unit, label_what, offset);
      }
      if (label.is_num && TakeConventionLabel(label, offset, what, &unused_stack)) continue;
      sample_.labels.push_back(std::move(label));
    }
    return unused_stack;
  }

  // Decodes a packed run of varints; false when it is malformed or would make `out` hold more
  // than `limit` values.
  bool DecodePacked(std::string_view payload, std::vector<uint64_t>* out, size_t limit) const {
    const char* p = payload.data();
    const char* const end = p + payload.size();
    // libprotobuf's inline varint parser (what its generated code uses) reads up to 10 bytes
    // without looking where the buffer ends: it runs while that many bytes of the input remain,
    // and a varint that overran the payload is refused as the checked decoder below refuses it.
    const char* const data_end = data_.data() + data_.size();
    const char* const unchecked_end = data_.size() >= 10 ? data_end - 10 : data_.data();
    while (p < end && p <= unchecked_end) {
      uint64_t v;
      p = google::protobuf::internal::VarintParse(p, &v);
      if (p == nullptr || p > end || out->size() >= limit) return false;
      out->push_back(v);
    }
    if (p == end) return true;
    CodedInputStream in(reinterpret_cast<const uint8_t*>(p), static_cast<int>(end - p));
    while (in.CurrentPosition() < end - p) {
      uint64_t v;
      if (!in.ReadVarint64(&v) || out->size() >= limit) return false;
      out->push_back(v);
    }
    return true;
  }

  // A stack deeper than this cannot be written as one prof text line (64 MiB) anyway.
  static constexpr size_t kMaxStackDepth = size_t{1} << 22;
  [[noreturn]] void TooDeep(size_t offset, const std::string& what) const {
    FailAt(offset, what + " has more than " + std::to_string(kMaxStackDepth) +
                       " locations (or a malformed location_id field)");
  }

  // The id of the stack with locations loose_ids_, emitting it the first time. Stacks are keyed
  // by their canonical varint encoding: the input bytes themselves when they are one packed
  // field in canonical form (no 0x00 byte: ids are not 0, and a minimal varint ends in a
  // non-zero byte), a copy otherwise. So the common case costs no copy and no allocation.
  template <typename What>
  uint64_t InternStack(std::string_view packed, uint64_t packed_hash, bool one_packed_field,
                       size_t offset, const What& what) {
    std::string_view key = packed;
    uint64_t hash = packed_hash;
    if (!one_packed_field || packed.find('\0') != std::string_view::npos) {
      std::string canonical;
      for (uint64_t id : loose_ids_) {
        uint8_t bytes[10];  // the longest varint
        const uint8_t* e = CodedOutputStream::WriteVarint64ToArray(id, bytes);
        canonical.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(e - bytes));
      }
      owned_keys_.push_back(std::move(canonical));
      key = owned_keys_.back();
      hash = HashBytes(key);
    }
    bool inserted;
    const uint64_t id = stacks_.Intern(key, hash, &inserted);
    if (!inserted) {
      if (key.data() != packed.data()) owned_keys_.pop_back();  // not needed after all
      return id;
    }
    for (uint64_t id : loose_ids_) {
      if (!location_ids_.Contains(id)) {
        FailAt(offset,
               what() + " refers to location " + std::to_string(id) + ", which is not defined");
      }
    }
    stack_.id = id;
    stack_.location_ids = loose_ids_;
    sink_->OnStack(stack_);
    return stack_.id;
  }

  // The labels of formats/prof-text.md §8 that carry sample fields. Returns true when `label`
  // was one (and is not a label of the text sample).
  template <typename What>
  bool TakeConventionLabel(const Label& label, size_t offset, const What& what,
                           bool* unused_stack) {
    // Every convention's key starts so; most numeric labels (a thread id, say) are none.
    if (label.key.compare(0, kConventionPrefix.size(), kConventionPrefix) != 0) return false;
    if (label.key == kSourceLabel && label.unit.empty()) {
      const uint64_t id = static_cast<uint64_t>(label.num);
      bool known = false;
      for (uint64_t source : source_ids_) known = known || source == id;
      if (!known) {
        FailAt(offset, what() + ": label " + kSourceLabel + " names source " +
                           std::to_string(label.num) + ", which no comment defines");
      }
      sample_.source_id = id;
      return true;
    }
    if (label.key == kTimeLabel && label.unit == "nanoseconds" && label.num >= 0) {
      sample_.time_nanos = label.num;
      return true;
    }
    if (label.key == kDurationLabel && label.unit == "nanoseconds" && label.num >= 0) {
      sample_.duration_nanos = label.num;
      return true;
    }
    if (label.key == kUnusedStackLabel && label.unit.empty() && label.num == 1) {
      *unused_stack = true;
      return true;
    }
    return false;
  }

  std::string_view data_;
  const std::string& name_;
  ProfileSink* sink_;
  PprofReadOptions options_;

  std::vector<std::string_view> strings_;
  std::vector<pb::ValueType> sample_types_;
  std::vector<Span> samples_;
  // Definitions are only located in pass 1 and decoded when emitted: a decoded message is
  // many times the size of its bytes, and hostile input could be nothing but definitions.
  std::vector<Span> mappings_, locations_, functions_;
  std::vector<int64_t> comments_;
  pb::ValueType period_type_;
  bool has_period_type_ = false;
  int64_t drop_frames_ = 0, keep_frames_ = 0, time_nanos_ = 0, duration_nanos_ = 0;
  int64_t period_ = 0, default_sample_type_ = 0, doc_url_ = 0;

  static constexpr size_t kMaxRecordBytes = size_t{64} << 20;  // formats/prof-text.md §2.1
  size_t record_bytes_ = 0, header_bytes_ = 0;
  bool in_header_ = false;

  std::vector<uint64_t> source_ids_;
  std::string empty_name_;
  IdMap location_ids_;
  // Encoded location ids (views into data_ or owned_keys_) -> stack id.
  ViewIndex stacks_;
  std::deque<std::string> owned_keys_;
  std::vector<uint64_t> loose_ids_, scratch_values_;
  std::vector<std::string_view> label_bytes_;  // the sample's Label messages (into data_)
  std::vector<PbLabel> labels_;                // decoded
  // The last labels made into sample_ (its labels_id numbers them): their raw form, the bytes
  // they were charged, and whether they said the sample only carried its stack. Their messages
  // are the last decoded ones.
  std::vector<std::string_view> last_label_bytes_;
  std::vector<PbLabel> last_raw_labels_;
  size_t last_labels_bytes_ = 0;
  bool last_unused_stack_ = false;
  Sample sample_;
  Stack stack_;
};

}  // namespace

void ReadPprof(std::string_view data, const std::string& name, ProfileSink* sink,
               const PprofReadOptions& options) {
  Decoder(data, name, sink, options).Run();
}

}  // namespace proftools
