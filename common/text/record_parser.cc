#include "common/text/record_parser.h"

#include <utility>

#include "common/base/text_syntax.h"
#include "common/model/checker.h"
#include "common/model/label_syntax.h"

namespace proftools {
namespace {

// Parses the fields of one line; each Field* method reports the first problem and returns false.
class FieldParser {
 public:
  FieldParser(RecordKind kind, const std::vector<std::string_view>& tokens, ParseFailure* failure)
      : kind_(kind), tokens_(tokens), failure_(failure) {}

  bool Fail(Rule rule, std::string message) {
    failure_->rule = rule;
    failure_->message = std::move(message);
    return false;
  }

  // Requires exactly `n` fields after the keyword (or at least `n` when `at_least`).
  bool ExpectFields(size_t n, bool at_least, const char* layout) {
    const size_t have = tokens_.size() - 1;
    if (have == n || (at_least && have > n)) return true;
    return Fail(Rule::kFieldCount, std::string("'") + RecordKindName(kind_) + "' needs " +
                                       (at_least ? "at least " : "") + std::to_string(n) +
                                       (n == 1 ? " field" : " fields") + " (" + layout +
                                       "), found " + std::to_string(have));
  }

  bool String(size_t index, const char* name, std::string* out) {
    std::string error;
    if (DecodeString(tokens_[index], out, &error)) return true;
    return Fail(Rule::kSyntax, std::string(name) + ": " + error);
  }

  // A reference. `0` is id-zero, not number: it is a number, but never an id (§6.1), and `-`
  // is the only spelling of an absent optional reference.
  bool Id(size_t index, const char* name, uint64_t* out) {
    if (tokens_[index] == "0") {
      return Fail(Rule::kIdZero, std::string(name) + " is 0, but ids start at 1");
    }
    if (ParseId(tokens_[index], out)) return true;
    return Fail(Rule::kNumber, Describe(index, name) + " is not an id (a positive integer)");
  }

  // The ID of a definition, always the first field.
  bool DefinitionId(uint64_t* out) {
    if (tokens_[1] == "0") return Fail(Rule::kIdZero, IdZeroMessage(RecordKindName(kind_)));
    return Id(1, (std::string(RecordKindName(kind_)) + " ID").c_str(), out);
  }

  bool OptionalId(size_t index, const char* name, uint64_t* out) {
    if (tokens_[index] == "-") {
      *out = 0;
      return true;
    }
    if (tokens_[index] == "0") {
      return Fail(Rule::kIdZero,
                  std::string(name) + " is 0, but ids start at 1 ('-' when there is none)");
    }
    return Id(index, name, out);
  }

  bool Int(size_t index, const char* name, int64_t* out) {
    if (ParseInt(tokens_[index], out)) return true;
    if (tokens_[index] == "-") {
      return Fail(Rule::kNumber, std::string(name) + " may not be '-' (unknown): it is required");
    }
    return Fail(Rule::kNumber, Describe(index, name) +
                                   " is not a decimal integer in range (no '+', no leading zeros)");
  }

  bool OptionalInt(size_t index, const char* name, std::optional<int64_t>* out) {
    if (tokens_[index] == "-") {
      out->reset();
      return true;
    }
    int64_t value;
    if (!Int(index, name, &value)) return false;
    *out = value;
    return true;
  }

  bool Hex(size_t index, const char* name, uint64_t* out) {
    if (ParseHex(tokens_[index], out)) return true;
    return Fail(Rule::kNumber, Describe(index, name) + " is not a hex number (0x...) in range");
  }

  std::string Describe(size_t index, const char* name) const {
    return std::string(name) + " " + Printable(tokens_[index]);
  }

  const std::string_view& token(size_t index) const { return tokens_[index]; }
  size_t size() const { return tokens_.size(); }

 private:
  RecordKind kind_;
  const std::vector<std::string_view>& tokens_;
  ParseFailure* failure_;
};

bool ParseMappingFlags(std::string_view text, Mapping* mapping) {
  mapping->has_functions = mapping->has_filenames = false;
  mapping->has_line_numbers = mapping->has_inline_frames = false;
  if (text == "-") return true;
  static const char* const kNames[] = {"FN", "FL", "LN", "IN"};
  bool* const flags[] = {&mapping->has_functions, &mapping->has_filenames,
                         &mapping->has_line_numbers, &mapping->has_inline_frames};
  size_t next = 0;  // flags must come in the documented order, each at most once
  size_t pos = 0;
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string_view name =
        text.substr(pos, comma == std::string_view::npos ? comma : comma - pos);
    while (next < 4 && name != kNames[next]) ++next;
    if (next == 4) return false;
    *flags[next++] = true;
    if (comma == std::string_view::npos) return true;
    pos = comma + 1;
  }
}

bool ParseLineEntry(std::string_view text, Line* line) {
  const size_t first = text.find(':');
  if (first == std::string_view::npos) return false;
  const size_t second = text.find(':', first + 1);
  if (!ParseId(text.substr(0, first), &line->function_id)) return false;
  const std::string_view line_text =
      text.substr(first + 1, second == std::string_view::npos ? second : second - first - 1);
  if (!ParseInt(line_text, &line->line)) return false;
  line->column = 0;
  if (second != std::string_view::npos) {
    if (!ParseInt(text.substr(second + 1), &line->column)) return false;
  }
  return true;
}

bool ParseBody(RecordKind kind, FieldParser& p, size_t sample_values, Record* r,
               ParseFailure* failure) {
  switch (kind) {
    case RecordKind::kMapping: {
      Mapping& m = r->mapping;
      if (!p.ExpectFields(7, false, "ID START LIMIT OFFSET FILE BUILD_ID FLAGS")) return false;
      if (!p.DefinitionId(&m.id)) return false;
      failure->id = m.id;
      if (!p.Hex(2, "mapping START", &m.start) || !p.Hex(3, "mapping LIMIT", &m.limit) ||
          !p.Hex(4, "mapping OFFSET", &m.offset) || !p.String(5, "mapping FILE", &m.file) ||
          !p.String(6, "mapping BUILD_ID", &m.build_id)) {
        return false;
      }
      if (!ParseMappingFlags(p.token(7), &m)) {
        return p.Fail(Rule::kFlags, "mapping FLAGS " + Printable(p.token(7)) +
                                        " must be '-' or a comma-separated list of FN,FL,LN,IN "
                                        "in that order");
      }
      return true;
    }
    case RecordKind::kFunction: {
      Function& f = r->function;
      if (!p.ExpectFields(5, false, "ID NAME SYSTEM_NAME FILE START_LINE")) return false;
      if (!p.DefinitionId(&f.id)) return false;
      failure->id = f.id;
      return p.String(2, "function NAME", &f.name) &&
             p.String(3, "function SYSTEM_NAME", &f.system_name) &&
             p.String(4, "function FILE", &f.file) &&
             p.Int(5, "function START_LINE", &f.start_line);
    }
    case RecordKind::kLocation: {
      Location& l = r->location;
      if (!p.ExpectFields(4, true, "ID MAPPING ADDRESS FLAGS FUNCTION:LINE[:COLUMN]...")) {
        return false;
      }
      if (!p.DefinitionId(&l.id)) return false;
      failure->id = l.id;
      if (!p.OptionalId(2, "location MAPPING", &l.mapping_id) ||
          !p.Hex(3, "location ADDRESS", &l.address)) {
        return false;
      }
      if (p.token(4) == "-") {
        l.is_folded = false;
      } else if (p.token(4) == "folded") {
        l.is_folded = true;
      } else {
        return p.Fail(Rule::kFlags,
                      "location FLAGS " + Printable(p.token(4)) + " must be '-' or 'folded'");
      }
      l.lines.resize(p.size() - 5);
      for (size_t i = 5; i < p.size(); ++i) {
        if (p.token(i).substr(0, p.token(i).find(':')) == "0") {
          return p.Fail(Rule::kIdZero, "location line entry " + Printable(p.token(i)) +
                                           " refers to function 0, but ids start at 1");
        }
        if (!ParseLineEntry(p.token(i), &l.lines[i - 5])) {
          return p.Fail(Rule::kLineEntry, "location line entry " + Printable(p.token(i)) +
                                              " is not FUNCTION:LINE or FUNCTION:LINE:COLUMN "
                                              "(a function id and decimal integers)");
        }
      }
      return true;
    }
    case RecordKind::kStack: {
      Stack& s = r->stack;
      if (!p.ExpectFields(1, true, "ID LOCATION...")) return false;
      if (!p.DefinitionId(&s.id)) return false;
      failure->id = s.id;
      s.location_ids.resize(p.size() - 2);
      for (size_t i = 2; i < p.size(); ++i) {
        if (!p.Id(i, "stack LOCATION", &s.location_ids[i - 2])) return false;
      }
      return true;
    }
    case RecordKind::kSample: {
      Sample& s = r->sample;
      if (!p.ExpectFields(4, true, "SOURCE STACK TIME DURATION VALUE... [KEY=VALUE...]")) {
        return false;
      }
      if (!p.Id(1, "sample SOURCE", &s.source_id) || !p.Id(2, "sample STACK", &s.stack_id) ||
          !p.OptionalInt(3, "sample TIME", &s.time_nanos) ||
          !p.OptionalInt(4, "sample DURATION", &s.duration_nanos)) {
        return false;
      }
      // The declared types say how many fields are values (§4.3.5); every field after them is
      // a label. A label token where a value is due means the values stopped short.
      size_t i = 5;
      s.values.resize(sample_values);
      for (size_t k = 0; k < sample_values; ++i, ++k) {
        if (i >= p.size() || p.token(i).find('=') != std::string_view::npos) {
          return p.Fail(Rule::kValueCount, ValueCountMessage(k, sample_values));
        }
        if (!p.Int(i, "sample VALUE", &s.values[k])) return false;
      }
      s.labels.resize(p.size() - i);
      for (size_t k = 0; i < p.size(); ++i, ++k) {
        std::string error;
        if (!DecodeLabel(p.token(i), &s.labels[k], &error)) {
          if (p.token(i).find('=') == std::string_view::npos) {
            error = "expected a label (KEY=VALUE): the profile declares " +
                    std::to_string(sample_values) +
                    (sample_values == 1
                         ? " type, so a sample has 1 value"
                         : " types, so a sample has " + std::to_string(sample_values) + " values");
          }
          return p.Fail(Rule::kLabel, "sample label " + Printable(p.token(i)) + ": " + error);
        }
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool ParseRecord(RecordKind kind, const std::vector<std::string_view>& tokens, size_t sample_values,
                 Record* r, ParseFailure* failure) {
  FieldParser p(kind, tokens, failure);
  failure->id = 0;
  r->kind = kind;
  switch (kind) {
    case RecordKind::kMeta:
      return p.ExpectFields(2, false, "KEY VALUE") && p.String(1, "meta KEY", &r->meta.key) &&
             p.String(2, "meta VALUE", &r->meta.value);
    case RecordKind::kComment:
      return p.ExpectFields(1, false, "TEXT") && p.String(1, "comment TEXT", &r->text);
    case RecordKind::kDocUrl:
      return p.ExpectFields(1, false, "URL") && p.String(1, "doc_url URL", &r->text);
    case RecordKind::kDropFrames:
      return p.ExpectFields(1, false, "REGEX") && p.String(1, "drop_frames REGEX", &r->text);
    case RecordKind::kKeepFrames:
      return p.ExpectFields(1, false, "REGEX") && p.String(1, "keep_frames REGEX", &r->text);
    case RecordKind::kDefaultType:
      return p.ExpectFields(1, false, "NAME") && p.String(1, "default_type NAME", &r->text);
    case RecordKind::kTime:
      return p.ExpectFields(1, false, "NANOS") && p.Int(1, "time NANOS", &r->number);
    case RecordKind::kDuration:
      return p.ExpectFields(1, false, "NANOS") && p.Int(1, "duration NANOS", &r->number);
    case RecordKind::kPeriod:
      return p.ExpectFields(3, false, "TYPE UNIT VALUE") &&
             p.String(1, "period TYPE", &r->period.type.type) &&
             p.String(2, "period UNIT", &r->period.type.unit) &&
             p.Int(3, "period VALUE", &r->period.value);
    case RecordKind::kSource: {
      if (!p.ExpectFields(4, false, "ID TYPE URI TIME")) return false;
      if (!p.DefinitionId(&r->source.id)) return false;
      failure->id = r->source.id;
      return p.String(2, "source TYPE", &r->source.type) &&
             p.String(3, "source URI", &r->source.uri) &&
             p.OptionalInt(4, "source TIME", &r->source.time_nanos);
    }
    case RecordKind::kType:
      return p.ExpectFields(2, false, "NAME UNIT") && p.String(1, "type NAME", &r->type.type) &&
             p.String(2, "type UNIT", &r->type.unit);
    default:
      return ParseBody(kind, p, sample_values, r, failure);
  }
}

}  // namespace proftools
