#include "common/text/text_writer.h"

#include <algorithm>
#include <cstring>

#include "common/base/decimal.h"
#include "common/base/text_syntax.h"
#include "common/model/label_syntax.h"
#include "common/text/text_reader.h"

namespace proftools {
namespace {

constexpr size_t kFlushThreshold = size_t{1} << 20;

void AppendOptional(std::string* out, const std::optional<int64_t>& value) {
  if (value) {
    AppendInt(out, *value);
  } else {
    out->push_back('-');
  }
}

void AppendFlags(std::string* out, const Mapping& m) {
  const bool flags[] = {m.has_functions, m.has_filenames, m.has_line_numbers, m.has_inline_frames};
  static const char* const kNames[] = {"FN", "FL", "LN", "IN"};
  bool any = false;
  for (int i = 0; i < 4; ++i) {
    if (!flags[i]) continue;
    if (any) out->push_back(',');
    out->append(kNames[i]);
    any = true;
  }
  if (!any) out->push_back('-');
}

// Appends "KIND STRING\n" for a preamble record with one string field.
void AppendStringRecord(std::string* out, const char* kind, const std::string& value) {
  out->append(kind);
  out->push_back(' ');
  AppendString(out, value);
  out->push_back('\n');
}

}  // namespace

std::string ColumnComments(const std::vector<ValueType>& types) {
  std::string out =
      "# record kinds and their fields (formats/prof-text.md):\n"
      "#   meta KEY VALUE\n"
      "#   comment TEXT\n"
      "#   time NANOS | duration NANOS | period TYPE UNIT VALUE\n"
      "#   doc_url URL | drop_frames REGEX | keep_frames REGEX\n"
      "#   source ID TYPE URI TIME\n"
      "#   type NAME UNIT\n"
      "#   default_type NAME\n"
      "#   mapping ID START LIMIT OFFSET FILE BUILD_ID FLAGS\n"
      "#   function ID NAME SYSTEM_NAME FILE START_LINE\n"
      "#   location ID MAPPING ADDRESS FLAGS FUNCTION:LINE[:COLUMN]... (innermost first)\n"
      "#   stack ID LOCATION... (leaf first)\n"
      "#   sample SOURCE STACK TIME DURATION";
  if (types.empty()) out += " VALUE...";
  for (const ValueType& type : types) {
    out.push_back(' ');
    AppendString(&out, type.type + "/" + type.unit);
  }
  out += " [KEY=VALUE...]\n";
  return out;
}

CanonicalWriter::CanonicalWriter(ByteSink* out) : CanonicalWriter(out, kCachedIds) {}

CanonicalWriter::CanonicalWriter(ByteSink* out, uint64_t cached_ids)
    : lines_(out, std::min(cached_ids, kCachedIds)), order_(&lines_) {}

void CanonicalWriter::Lines::MaybeFlush() {
  if (buffer_.size() >= kFlushThreshold) {
    out_->Write(buffer_);
    buffer_.clear();
  }
}

void CanonicalWriter::Lines::OnHeader(const ProfileHeader& h) {
  std::string& b = buffer_;
  b += "proftext " + std::to_string(kFormatMajor) + "." + std::to_string(kFormatMinor) + "\n";
  b += ColumnComments(h.types);
  for (const MetaEntry& entry : h.meta) {  // sorted by the order
    b += "meta ";
    AppendString(&b, entry.key);
    b.push_back(' ');
    AppendString(&b, entry.value);
    b.push_back('\n');
  }
  for (const std::string& comment : h.comments) AppendStringRecord(&b, "comment", comment);
  if (h.time_nanos) {
    b += "time ";
    AppendInt(&b, *h.time_nanos);
    b.push_back('\n');
  }
  if (h.duration_nanos) {
    b += "duration ";
    AppendInt(&b, *h.duration_nanos);
    b.push_back('\n');
  }
  if (h.period.IsSet()) {
    b += "period ";
    AppendString(&b, h.period.type.type);
    b.push_back(' ');
    AppendString(&b, h.period.type.unit);
    b.push_back(' ');
    AppendInt(&b, h.period.value);
    b.push_back('\n');
  }
  if (!h.doc_url.empty()) AppendStringRecord(&b, "doc_url", h.doc_url);
  if (!h.drop_frames.empty()) AppendStringRecord(&b, "drop_frames", h.drop_frames);
  if (!h.keep_frames.empty()) AppendStringRecord(&b, "keep_frames", h.keep_frames);
  for (const Source& source : h.sources) {
    b += "source ";
    AppendUint(&b, source.id);
    b.push_back(' ');
    AppendString(&b, source.type);
    b.push_back(' ');
    AppendString(&b, source.uri);
    b.push_back(' ');
    AppendOptional(&b, source.time_nanos);
    b.push_back('\n');
  }
  for (const ValueType& type : h.types) {
    b += "type ";
    AppendString(&b, type.type);
    b.push_back(' ');
    AppendString(&b, type.unit);
    b.push_back('\n');
  }
  if (!h.default_type.empty()) AppendStringRecord(&b, "default_type", h.default_type);
  MaybeFlush();
}

void CanonicalWriter::Lines::OnMapping(const Mapping& m) {
  std::string& b = buffer_;
  b += "mapping ";
  AppendUint(&b, m.id);
  b.push_back(' ');
  AppendHex(&b, m.start);
  b.push_back(' ');
  AppendHex(&b, m.limit);
  b.push_back(' ');
  AppendHex(&b, m.offset);
  b.push_back(' ');
  AppendString(&b, m.file);
  b.push_back(' ');
  AppendString(&b, m.build_id);
  b.push_back(' ');
  AppendFlags(&b, m);
  b.push_back('\n');
}

void CanonicalWriter::Lines::OnFunction(const Function& f) {
  std::string& b = buffer_;
  b += "function ";
  AppendUint(&b, f.id);
  b.push_back(' ');
  AppendString(&b, f.name);
  b.push_back(' ');
  AppendString(&b, f.system_name);
  b.push_back(' ');
  AppendString(&b, f.file);
  b.push_back(' ');
  AppendInt(&b, f.start_line);
  b.push_back('\n');
}

void CanonicalWriter::Lines::OnLocation(const Location& location) {
  std::string& b = buffer_;
  b += "location ";
  AppendUint(&b, location.id);
  b.push_back(' ');
  if (location.mapping_id != 0) {
    AppendUint(&b, location.mapping_id);
  } else {
    b.push_back('-');
  }
  b.push_back(' ');
  AppendHex(&b, location.address);
  b += location.is_folded ? " folded" : " -";
  for (const Line& line : location.lines) {
    b.push_back(' ');
    AppendUint(&b, line.function_id);
    b.push_back(':');
    AppendInt(&b, line.line);
    if (line.column != 0) {
      b.push_back(':');
      AppendInt(&b, line.column);
    }
  }
  b.push_back('\n');
  locations_ = std::max(locations_, location.id);
  if (location.id < cached_ids_) {
    if (location_text_.size() <= location.id) location_text_.resize(location.id + 1);
    LocationText& text = location_text_[location.id];
    text.bytes.fill(' ');
    text.size = static_cast<uint8_t>(WriteDecimal(&text.bytes[1], location.id) - &text.bytes[0]);
  }
}

void CanonicalWriter::Lines::OnStack(const Stack& stack) {
  // Stack lines are most of a large profile's bytes: the digits go straight into the buffer,
  // sized for the longest ids first and trimmed after. Location ids are canonical, so none is
  // longer than the count of locations written; the bound keeps resize() from zeroing several
  // times the bytes the line takes.
  // (A cached id is copied as all of its 8 bytes, so each takes at least 8 in the bound.)
  const size_t id_digits = std::max<size_t>(7, DecimalLength(locations_));
  std::string& b = buffer_;
  const size_t start = b.size();
  b.resize(start + 6 + kMaxDecimalDigits + (1 + id_digits) * stack.location_ids.size() + 1);
  char* p = &b[start];
  std::memcpy(p, "stack ", 6);
  p = WriteDecimal(p + 6, stack.id);
  for (uint64_t location_id : stack.location_ids) {
    if (location_id < cached_ids_) {
      const LocationText& text = location_text_[location_id];
      std::memcpy(p, text.bytes.data(), 8);
      p += text.size;
    } else {
      *p++ = ' ';
      p = WriteDecimal(p, location_id);
    }
  }
  *p++ = '\n';
  b.resize(static_cast<size_t>(p - b.data()));
}

namespace {

// An integer's digits (and sign) at `p`; `p` past them. At most kMaxDecimalDigits + 1 bytes.
char* WriteSignedDecimal(char* p, int64_t value) {
  if (value < 0) *p++ = '-';
  // The magnitude in unsigned arithmetic, where that of INT64_MIN does not overflow.
  return WriteDecimal(p,
                      value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value));
}

}  // namespace

void CanonicalWriter::Lines::OnSample(const Sample& sample) {
  // Sample lines are most of a timed profile's bytes: the digits go into a scratch line sized
  // once for the longest numbers (growing the buffer itself by that much would clear the bytes
  // for every line), then the line's real length is appended.
  const size_t longest = 7 + (kMaxDecimalDigits + 2) * (4 + sample.values.size());
  if (sample_line_.size() < longest) sample_line_.resize(longest);
  char* const line = sample_line_.data();
  char* p = line;
  std::memcpy(p, "sample ", 7);
  p = WriteDecimal(p + 7, sample.source_id);
  *p++ = ' ';
  p = WriteDecimal(p, sample.stack_id);
  *p++ = ' ';
  if (sample.time_nanos) {
    p = WriteSignedDecimal(p, *sample.time_nanos);
  } else {
    *p++ = '-';
  }
  *p++ = ' ';
  if (sample.duration_nanos) {
    p = WriteSignedDecimal(p, *sample.duration_nanos);
  } else {
    *p++ = '-';
  }
  for (int64_t value : sample.values) {
    *p++ = ' ';
    p = WriteSignedDecimal(p, value);
  }
  std::string& b = buffer_;
  b.append(line, static_cast<size_t>(p - line));
  if (sample.labels_id != 0) {
    LabelsText& known = labels_texts_[sample.labels_id % kLabelTexts];
    if (known.id != sample.labels_id) {
      known.id = sample.labels_id;
      known.text.clear();
      for (const Label& label : sample.labels) {
        known.text.push_back(' ');
        AppendLabel(&known.text, label);
      }
    }
    b += known.text;
  } else {
    if (sample.labels != last_labels_) {
      last_labels_ = sample.labels;
      last_labels_text_.clear();
      for (const Label& label : sample.labels) {
        last_labels_text_.push_back(' ');
        AppendLabel(&last_labels_text_, label);
      }
    }
    b += last_labels_text_;
  }
  b.push_back('\n');
  MaybeFlush();
}

void CanonicalWriter::Lines::OnEnd() {
  if (!buffer_.empty()) out_->Write(buffer_);
  buffer_.clear();
}

std::string ToCanonicalText(const Profile& profile) {
  StringSink sink;
  CanonicalWriter writer(&sink);
  EmitProfile(profile, writer);
  return std::move(sink.text());
}

}  // namespace proftools
