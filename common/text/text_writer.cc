#include "common/text/text_writer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/base/decimal.h"
#include "common/base/diagnostics.h"
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

[[noreturn]] void Undefined(const char* kind, uint64_t id) {
  throw ProfError("(writer)", std::string("internal error: ") + kind + " " + std::to_string(id) +
                                  " was used before it was defined");
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

CanonicalWriter::CanonicalWriter(ByteSink* out) : out_(out) {}

CanonicalWriter::CanonicalWriter(ByteSink* out, uint64_t cached_ids)
    : out_(out), cached_ids_(std::min(cached_ids, kCachedIds)) {}

void CanonicalWriter::MaybeFlush() {
  if (buffer_.size() >= kFlushThreshold) {
    out_->Write(buffer_);
    buffer_.clear();
  }
}

void CanonicalWriter::OnHeader(const ProfileHeader& h) {
  std::string& b = buffer_;
  b += "proftext " + std::to_string(kFormatMajor) + "." + std::to_string(kFormatMinor) + "\n";
  b += ColumnComments(h.types);

  std::vector<const MetaEntry*> meta;
  for (const MetaEntry& entry : h.meta) meta.push_back(&entry);
  std::stable_sort(meta.begin(), meta.end(),
                   [](const MetaEntry* a, const MetaEntry* b) { return a->key < b->key; });
  for (const MetaEntry* entry : meta) {
    b += "meta ";
    AppendString(&b, entry->key);
    b.push_back(' ');
    AppendString(&b, entry->value);
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
  uint64_t next_source = 0;
  for (const Source& source : h.sources) {
    uint64_t ignored;
    source_ids_.Insert(source.id, ++next_source, &ignored);
    b += "source ";
    AppendUint(&b, next_source);
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

void CanonicalWriter::OnMapping(const Mapping& mapping) {
  mappings_.records.emplace(mapping.id, mapping);
  mappings_.order.push_back(mapping.id);
}

void CanonicalWriter::OnFunction(const Function& function) {
  functions_.records.emplace(function.id, function);
  functions_.order.push_back(function.id);
}

void CanonicalWriter::OnLocation(const Location& location) {
  locations_.records.emplace(location.id, location);
  locations_.order.push_back(location.id);
}

void CanonicalWriter::OnStack(const Stack& stack) {
  stacks_.order.push_back(stack.id);
  // A repeated id keeps its first definition, whether that waits in the slot or in the map.
  if (StackPending(stack.id)) return;
  if (last_stack_pending_) stacks_.records.emplace(last_stack_.id, std::move(last_stack_));
  last_stack_.id = stack.id;
  last_stack_.location_ids.assign(stack.location_ids.begin(), stack.location_ids.end());
  last_stack_pending_ = true;
}

uint64_t CanonicalWriter::WriteMapping(uint64_t id) {
  uint64_t done;
  if (mappings_.written.Find(id, &done)) return done;
  auto it = mappings_.records.find(id);
  if (it == mappings_.records.end()) Undefined("mapping", id);
  const Mapping& m = it->second;
  const uint64_t new_id = mappings_.written.size() + 1;
  std::string& b = buffer_;
  b += "mapping ";
  AppendUint(&b, new_id);
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
  mappings_.written.Insert(id, new_id, &done);
  mappings_.records.erase(it);
  return new_id;
}

uint64_t CanonicalWriter::WriteFunction(uint64_t id) {
  uint64_t done;
  if (functions_.written.Find(id, &done)) return done;
  auto it = functions_.records.find(id);
  if (it == functions_.records.end()) Undefined("function", id);
  const Function& f = it->second;
  const uint64_t new_id = functions_.written.size() + 1;
  std::string& b = buffer_;
  b += "function ";
  AppendUint(&b, new_id);
  b.push_back(' ');
  AppendString(&b, f.name);
  b.push_back(' ');
  AppendString(&b, f.system_name);
  b.push_back(' ');
  AppendString(&b, f.file);
  b.push_back(' ');
  AppendInt(&b, f.start_line);
  b.push_back('\n');
  functions_.written.Insert(id, new_id, &done);
  functions_.records.erase(it);
  return new_id;
}

uint64_t CanonicalWriter::WriteLocation(uint64_t id) {
  uint64_t done;
  if (locations_.written.Find(id, &done)) return done;
  auto it = locations_.records.find(id);
  if (it == locations_.records.end()) Undefined("location", id);
  const Location location = std::move(it->second);
  locations_.records.erase(it);
  const uint64_t mapping = location.mapping_id != 0 ? WriteMapping(location.mapping_id) : 0;
  std::vector<uint64_t> functions;
  functions.reserve(location.lines.size());
  for (const Line& line : location.lines) functions.push_back(WriteFunction(line.function_id));
  const uint64_t new_id = locations_.written.size() + 1;
  std::string& b = buffer_;
  b += "location ";
  AppendUint(&b, new_id);
  b.push_back(' ');
  if (mapping != 0) {
    AppendUint(&b, mapping);
  } else {
    b.push_back('-');
  }
  b.push_back(' ');
  AppendHex(&b, location.address);
  b += location.is_folded ? " folded" : " -";
  for (size_t i = 0; i < location.lines.size(); ++i) {
    const Line& line = location.lines[i];
    b.push_back(' ');
    AppendUint(&b, functions[i]);
    b.push_back(':');
    AppendInt(&b, line.line);
    if (line.column != 0) {
      b.push_back(':');
      AppendInt(&b, line.column);
    }
  }
  b.push_back('\n');
  locations_.written.Insert(id, new_id, &done);
  if (new_id < cached_ids_) {
    location_text_.resize(new_id + 1);
    LocationText& text = location_text_[new_id];
    text.bytes.fill(' ');
    text.size = static_cast<uint8_t>(WriteDecimal(&text.bytes[1], new_id) - &text.bytes[0]);
  }
  return new_id;
}

void CanonicalWriter::RenumberLocations(const std::vector<uint64_t>& location_ids) {
  scratch_ids_.clear();
  for (uint64_t location_id : location_ids) {
    // Most locations of a large profile are already written: that lookup stays inline here.
    // WriteLocation does not touch scratch_ids_, so collecting into it here is safe.
    uint64_t new_id;
    if (!locations_.written.Find(location_id, &new_id)) new_id = WriteLocation(location_id);
    scratch_ids_.push_back(new_id);
  }
}

uint64_t CanonicalWriter::WriteStack(uint64_t id) {
  uint64_t done;
  if (stacks_.written.Find(id, &done)) return done;
  if (last_stack_pending_ && last_stack_.id == id) {
    last_stack_pending_ = false;
    RenumberLocations(last_stack_.location_ids);
  } else {
    auto it = stacks_.records.find(id);
    if (it == stacks_.records.end()) Undefined("stack", id);
    const Stack stack = std::move(it->second);
    stacks_.records.erase(it);
    RenumberLocations(stack.location_ids);
  }
  const uint64_t new_id = stacks_.written.size() + 1;
  // Stack lines are most of a large profile's bytes: the digits go straight into the buffer,
  // sized for the longest ids first and trimmed after. Location ids are renumbered, so none is
  // longer than the count of locations written; the bound keeps resize() from zeroing several
  // times the bytes the line takes.
  // (A cached id is copied as all of its 8 bytes, so each takes at least 8 in the bound.)
  const size_t id_digits = std::max<size_t>(7, DecimalLength(locations_.written.size()));
  std::string& b = buffer_;
  const size_t start = b.size();
  b.resize(start + 6 + kMaxDecimalDigits + (1 + id_digits) * scratch_ids_.size() + 1);
  char* p = &b[start];
  std::memcpy(p, "stack ", 6);
  p = WriteDecimal(p + 6, new_id);
  for (uint64_t location_id : scratch_ids_) {
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
  stacks_.written.Insert(id, new_id, &done);
  return new_id;
}

void CanonicalWriter::OnSample(const Sample& sample) {
  const uint64_t stack = WriteStack(sample.stack_id);
  uint64_t source;
  if (!source_ids_.Find(sample.source_id, &source)) Undefined("source", sample.source_id);
  std::string& b = buffer_;
  b += "sample ";
  AppendUint(&b, source);
  b.push_back(' ');
  AppendUint(&b, stack);
  b.push_back(' ');
  AppendOptional(&b, sample.time_nanos);
  b.push_back(' ');
  AppendOptional(&b, sample.duration_nanos);
  for (int64_t value : sample.values) {
    b.push_back(' ');
    AppendInt(&b, value);
  }
  for (const Label& label : sample.labels) {
    b.push_back(' ');
    AppendLabel(&b, label);
  }
  b.push_back('\n');
  MaybeFlush();
}

void CanonicalWriter::OnEnd() {
  for (uint64_t id : mappings_.order) {
    if (mappings_.records.count(id) != 0) WriteMapping(id);
  }
  for (uint64_t id : functions_.order) {
    if (functions_.records.count(id) != 0) WriteFunction(id);
  }
  for (uint64_t id : locations_.order) {
    if (locations_.records.count(id) != 0) WriteLocation(id);
  }
  for (uint64_t id : stacks_.order) {
    if (StackPending(id)) WriteStack(id);
  }
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
