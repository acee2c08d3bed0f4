#include "common/model/checker.h"

#include <utility>

#include "common/base/text_syntax.h"

namespace proftools {

std::string ValueCountMessage(size_t values, size_t types) {
  return "sample has " + std::to_string(values) + (values == 1 ? " value" : " values") +
         " but the profile declares " + std::to_string(types) + (types == 1 ? " type" : " types");
}

std::string IdZeroMessage(const char* kind) {
  return std::string(kind) + " id must be positive, not 0";
}

Checker::Checker(DiagnosticHandler* handler, std::string file)
    : handler_(handler), file_(std::move(file)) {}

bool Checker::Fail(Rule rule, std::string message) {
  handler_->Error(Diagnostic{rule, file_, line_, std::move(message)});
  return false;
}

std::string Checker::OnLine(uint64_t line) const {
  return line == 0 ? std::string() : " on line " + std::to_string(line);
}

Checker::IdLines* Checker::TableFor(RecordKind kind) {
  switch (kind) {
    case RecordKind::kSource:
      return &sources_;
    case RecordKind::kMapping:
      return &mappings_;
    case RecordKind::kFunction:
      return &functions_;
    case RecordKind::kLocation:
      return &locations_;
    case RecordKind::kStack:
      return &stacks_;
    default:
      return nullptr;
  }
}

void Checker::NoteUnparsedRecord(RecordKind kind, uint64_t id) {
  // A type line that failed to parse still declares a column of values: counting it keeps every
  // later sample from being reported for the one bad line.
  if (kind == RecordKind::kType && !in_body_) ++type_count_;
  // A body line that failed to parse still starts the body (no-types, order).
  if (!IsPreamble(kind)) EnterBody();
  IdLines* ids = TableFor(kind);
  uint64_t ignored;
  if (ids != nullptr && id != 0) ids->Insert(id, line_, &ignored);
}

bool Checker::CheckNewId(RecordKind kind, uint64_t id, IdLines* ids) {
  if (id == 0) return Fail(Rule::kIdZero, IdZeroMessage(RecordKindName(kind)));
  uint64_t first_line;
  if (!ids->Insert(id, line_, &first_line)) {
    return Fail(Rule::kIdDuplicate, std::string(RecordKindName(kind)) + " " + std::to_string(id) +
                                        " is already defined" + OnLine(first_line));
  }
  return true;
}

bool Checker::ReportUndefined(const char* from, uint64_t from_id, const char* to, uint64_t id) {
  std::string subject = from;
  if (from_id != 0) subject += " " + std::to_string(from_id);
  if (id == 0) {
    return Fail(Rule::kIdZero, subject + " refers to " + to + " 0: ids are positive");
  }
  return Fail(Rule::kUndefined, subject + " refers to " + to + " " + std::to_string(id) +
                                    ", which is not defined" +
                                    (line_ != 0 ? " on an earlier line" : ""));
}

bool Checker::CheckSingleton(RecordKind kind) {
  auto inserted = singleton_lines_.emplace(static_cast<int>(kind), line_);
  if (inserted.second) return true;
  return Fail(Rule::kRepeated, std::string("'") + RecordKindName(kind) +
                                   "' may appear only once (first given" +
                                   OnLine(inserted.first->second) + ")");
}

bool Checker::CheckNonNegativeTime(const char* what, int64_t value) {
  if (value >= 0) return true;
  return Fail(Rule::kNegativeTime,
              std::string(what) + " is negative (" + std::to_string(value) + ")");
}

void Checker::EnterBody() {
  if (in_body_) return;
  in_body_ = true;
  if (type_count_ == 0 && !no_types_reported_) {
    no_types_reported_ = true;
    Fail(Rule::kNoTypes,
         "no value type is declared before the first body record "
         "(declare at least one: 'type NAME UNIT')");
  }
}

void Checker::Expect(const ExpectedDefinitions& expected) {
  // IdMap::Reserve does nothing once a table has ids (then they are what they are).
  functions_.Reserve(ExpectedDefinitions::Room(expected.functions));
  locations_.Reserve(ExpectedDefinitions::Room(expected.locations));
  stacks_.Reserve(ExpectedDefinitions::Room(expected.stacks));
}

void Checker::Finish() {
  if (type_count_ == 0 && !no_types_reported_) {
    no_types_reported_ = true;
    line_ = 0;
    Fail(Rule::kNoTypes,
         "the profile declares no value type (declare at least one: "
         "'type NAME UNIT')");
  }
}

bool Checker::Check(const Record& record) {
  if (IsPreamble(record.kind)) return CheckPreamble(record);
  switch (record.kind) {
    case RecordKind::kMapping:
      return CheckMapping(record.mapping);
    case RecordKind::kFunction:
      return CheckFunction(record.function);
    case RecordKind::kLocation:
      return CheckLocation(record.location);
    case RecordKind::kStack:
      return CheckStack(record.stack);
    case RecordKind::kSample:
      return CheckSample(record.sample);
    default:
      return true;
  }
}

bool Checker::CheckPreamble(const Record& record) {
  if (in_body_) {
    return Fail(Rule::kOrder, std::string("'") + RecordKindName(record.kind) +
                                  "' belongs to the preamble and must come before the first "
                                  "mapping, function, location, stack or sample");
  }
  switch (record.kind) {
    case RecordKind::kMeta: {
      if (record.meta.key.empty()) return Fail(Rule::kEmptyName, "meta key is empty");
      auto inserted = meta_lines_.emplace(record.meta.key, line_);
      if (!inserted.second) {
        return Fail(Rule::kMetaDuplicate, "meta key " + Printable(record.meta.key) +
                                              " is already defined" +
                                              OnLine(inserted.first->second));
      }
      return true;
    }
    case RecordKind::kComment:
      return true;
    case RecordKind::kTime:
    case RecordKind::kDuration: {
      if (!CheckSingleton(record.kind)) return false;
      return CheckNonNegativeTime(RecordKindName(record.kind), record.number);
    }
    case RecordKind::kPeriod:
      return CheckSingleton(record.kind);
    case RecordKind::kDocUrl:
    case RecordKind::kDropFrames:
    case RecordKind::kKeepFrames:
      if (!CheckSingleton(record.kind)) return false;
      // pprof has "" for "not set": an empty value could not survive a trip through pprof.
      if (record.text.empty()) {
        return Fail(Rule::kEmptyName, std::string(RecordKindName(record.kind)) +
                                          " is empty (leave the record out instead)");
      }
      return true;
    case RecordKind::kSource: {
      const Source& source = record.source;
      if (!CheckNewId(RecordKind::kSource, source.id, &sources_)) return false;
      if (source.type.empty()) {
        return Fail(Rule::kEmptyName, "source " + std::to_string(source.id) + " has an empty type");
      }
      if (source.time_nanos) return CheckNonNegativeTime("source time", *source.time_nanos);
      return true;
    }
    case RecordKind::kType: {
      const ValueType& type = record.type;
      ++type_count_;  // a column of values, even when the line is refused (see sample_values)
      if (type.type.empty()) return Fail(Rule::kEmptyName, "type name is empty");
      auto inserted = type_lines_.emplace(type.type, line_);
      if (!inserted.second) {
        return Fail(Rule::kTypeDuplicate, "type " + Printable(type.type) + " is already declared" +
                                              OnLine(inserted.first->second));
      }
      return true;
    }
    case RecordKind::kDefaultType: {
      if (!CheckSingleton(record.kind)) return false;
      if (type_lines_.count(record.text) == 0) {
        return Fail(Rule::kUndefined, "default_type " + Printable(record.text) +
                                          " names no type declared" +
                                          (line_ != 0 ? " on an earlier line" : ""));
      }
      return true;
    }
    default:
      return true;
  }
}

bool Checker::CheckHeader(const ProfileHeader& header) {
  bool ok = true;
  Record record;
  auto check = [&](RecordKind kind) {
    record.kind = kind;
    ok = CheckPreamble(record) && ok;
  };
  for (const MetaEntry& meta : header.meta) {
    record.meta = meta;
    check(RecordKind::kMeta);
  }
  if (header.time_nanos) {
    record.number = *header.time_nanos;
    check(RecordKind::kTime);
  }
  if (header.duration_nanos) {
    record.number = *header.duration_nanos;
    check(RecordKind::kDuration);
  }
  for (const Source& source : header.sources) {
    record.source = source;
    check(RecordKind::kSource);
  }
  for (const ValueType& type : header.types) {
    record.type = type;
    check(RecordKind::kType);
  }
  if (!header.default_type.empty()) {
    record.text = header.default_type;
    check(RecordKind::kDefaultType);
  }
  return ok;
}

bool Checker::CheckMapping(const Mapping& mapping) {
  EnterBody();
  return CheckNewId(RecordKind::kMapping, mapping.id, &mappings_);
}

bool Checker::CheckFunction(const Function& function) {
  EnterBody();
  if (!CheckNewId(RecordKind::kFunction, function.id, &functions_)) return false;
  // The subject is named only for a message: every function of every input passes this way.
  const auto subject = [&] { return "function " + std::to_string(function.id); };
  if (function.name.empty()) return Fail(Rule::kEmptyName, subject() + " has an empty name");
  if (function.start_line < 0) {
    return Fail(Rule::kNegativeLine, subject() + " has a negative start line (" +
                                         std::to_string(function.start_line) + ")");
  }
  return true;
}

bool Checker::CheckLocation(const Location& location) {
  EnterBody();
  if (!CheckNewId(RecordKind::kLocation, location.id, &locations_)) return false;
  if (location.mapping_id != 0 &&
      !CheckReference("location", location.id, "mapping", location.mapping_id, mappings_)) {
    return false;
  }
  for (const Line& line : location.lines) {
    if (!CheckReference("location", location.id, "function", line.function_id, functions_)) {
      return false;
    }
    if (line.line < 0 || line.column < 0) {
      // The message is built here only: every location of every input passes this way.
      return Fail(Rule::kNegativeLine, "location " + std::to_string(location.id) +
                                           " has a negative " +
                                           (line.line < 0 ? "line" : "column") + " (" +
                                           std::to_string(line.line < 0 ? line.line : line.column) +
                                           ") for function " + std::to_string(line.function_id));
    }
  }
  return true;
}

bool Checker::CheckStack(const Stack& stack) {
  EnterBody();
  if (!CheckNewId(RecordKind::kStack, stack.id, &stacks_)) return false;
  for (uint64_t location_id : stack.location_ids) {
    if (!CheckReference("stack", stack.id, "location", location_id, locations_)) return false;
  }
  return true;
}

bool Checker::CheckSample(const Sample& sample) {
  EnterBody();
  if (!CheckReference("sample", 0, "source", sample.source_id, sources_)) return false;
  if (!CheckReference("sample", 0, "stack", sample.stack_id, stacks_)) return false;
  if (sample.values.size() != type_count_) {
    return Fail(Rule::kValueCount, ValueCountMessage(sample.values.size(), type_count_));
  }
  if (sample.time_nanos && !CheckNonNegativeTime("sample time", *sample.time_nanos)) return false;
  if (sample.duration_nanos && !CheckNonNegativeTime("sample duration", *sample.duration_nanos)) {
    return false;
  }
  for (const Label& label : sample.labels) {
    if (label.key.empty()) return Fail(Rule::kEmptyName, "sample has a label with an empty key");
  }
  return true;
}

CheckingSink::CheckingSink(ProfileSink* next, DiagnosticHandler* handler, std::string name)
    : next_(next), checker_(handler, std::move(name)) {}

void CheckingSink::OnHeader(const ProfileHeader& header) {
  if (checker_.CheckHeader(header)) next_->OnHeader(header);
}
void CheckingSink::OnMapping(const Mapping& mapping) {
  if (checker_.CheckMapping(mapping)) next_->OnMapping(mapping);
}
void CheckingSink::OnFunction(const Function& function) {
  if (checker_.CheckFunction(function)) next_->OnFunction(function);
}
void CheckingSink::OnLocation(const Location& location) {
  if (checker_.CheckLocation(location)) next_->OnLocation(location);
}
void CheckingSink::OnExpect(const ExpectedDefinitions& expected) {
  checker_.Expect(expected);
  next_->OnExpect(expected);
}
void CheckingSink::OnStack(const Stack& stack) {
  if (checker_.CheckStack(stack)) next_->OnStack(stack);
}
void CheckingSink::OnSample(const Sample& sample) {
  if (checker_.CheckSample(sample)) next_->OnSample(sample);
}
void CheckingSink::OnEnd() {
  checker_.Finish();
  next_->OnEnd();
}

void ValidateProfile(const Profile& profile, DiagnosticHandler* handler, const std::string& name) {
  DiscardingSink discard;
  CheckingSink checking(&discard, handler, name);
  EmitProfile(profile, checking);
}

}  // namespace proftools
