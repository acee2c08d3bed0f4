#include "common/json/json_document.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/quantity.h"
#include "common/base/text_syntax.h"

namespace proftools {
namespace {

const char* TypeName(ondemand::json_type type) {
  switch (type) {
    case ondemand::json_type::array:
      return "an array";
    case ondemand::json_type::object:
      return "an object";
    case ondemand::json_type::number:
      return "a number";
    case ondemand::json_type::string:
      return "a string";
    case ondemand::json_type::boolean:
      return "a boolean";
    case ondemand::json_type::null:
      return "null";
  }
  return "a value";
}

// 2^63 nanoseconds in microseconds: a time at or beyond it has no 64-bit nanoseconds.
constexpr int64_t kMaxMicroseconds = INT64_MAX / 1000;

}  // namespace

JsonDocument::JsonDocument(Input& input, uint64_t cap, const char* what, bool allow_truncated)
    : name_(input.name) {
  ReadWholeInput(input, cap, what, &data_);
  Parse(allow_truncated);
}

JsonDocument::JsonDocument(std::string name, std::string_view text) : name_(std::move(name)) {
  if (!text.empty()) std::memcpy(data_.Reserve(text.size()), text.data(), text.size());
  data_.Commit(text.size());
  Parse(false);
}

void JsonDocument::Parse(bool allow_truncated) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end; they are ours, and zero.
  std::memset(data_.Reserve(simdjson::SIMDJSON_PADDING), 0, simdjson::SIMDJSON_PADDING);
  const simdjson::error_code error =
      parser_.iterate(data_.view().data(), data_.size(), data_.size() + simdjson::SIMDJSON_PADDING)
          .get(doc_);
  // What simdjson finds only when it gets there: a document whose last bracket does not close
  // its first one ends early.
  const std::string_view text = data_.view();
  const size_t first = text.find_first_not_of(" \t\r\n");
  const size_t last = text.find_last_not_of(" \t\r\n");
  const bool unclosed =
      first != std::string_view::npos &&
      ((text[first] == '[' && text[last] != ']') || (text[first] == '{' && text[last] != '}'));
  if (allow_truncated && (error == simdjson::UNCLOSED_STRING || (!error && unclosed))) {
    truncated_ = true;
    return;
  }
  if (error == simdjson::UNCLOSED_STRING) {
    Fail("the JSON ends inside a string (a truncated file?)", data_.size() + 1);
  }
  if (error) Fail(std::string("not JSON: ") + simdjson::error_message(error), 1);
}

void JsonDocument::Reparse(size_t end, std::string_view closing) {
  // The bytes from `end` on are dropped: the closing brackets go over them (the padding after
  // the input leaves room even when `end` is the input's size).
  data_.Reserve(closing.size() + simdjson::SIMDJSON_PADDING);
  char* bytes = const_cast<char*>(data_.view().data());
  std::memcpy(bytes + end, closing.data(), closing.size());
  const size_t size = end + closing.size();
  const size_t capacity = data_.size() + closing.size() + simdjson::SIMDJSON_PADDING;
  std::memset(bytes + size, 0, capacity - size);
  const simdjson::error_code error = parser_.iterate(bytes, size, capacity).get(doc_);
  if (error) Fail(std::string("not JSON: ") + simdjson::error_message(error), 1);
  truncated_ = false;
}

uint64_t JsonDocument::Byte() {
  const char* at = nullptr;
  if (doc_.current_location().get(at) != simdjson::SUCCESS) return data_.size() + 1;
  return static_cast<uint64_t>(at - data_.view().data()) + 1;
}

void JsonDocument::Fail(const std::string& message, uint64_t byte) {
  throw ProfError(name_, "byte " + std::to_string(byte != 0 ? byte : Byte()) + ": " + message);
}

void JsonDocument::Fail(simdjson::error_code error, std::string_view what, const char* expected) {
  switch (error) {
    case simdjson::INCORRECT_TYPE:
      Fail(std::string(what) + ": " + expected + " belongs here");
    case simdjson::NO_SUCH_FIELD:
      Fail(std::string(what) + ": missing");
    case simdjson::NUMBER_OUT_OF_RANGE:
      Fail(std::string(what) + ": a number out of range (" + expected + " belongs here)");
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      // Found before the parser gets there: the place to show is the end.
      Fail(std::string(what) + ": the JSON ends before its arrays and objects are closed " +
               "(a truncated file?)",
           data_.size() + 1);
    case simdjson::TAPE_ERROR:
    case simdjson::EMPTY:
      Fail(std::string(what) + ": the JSON ends early or is broken here (" +
           simdjson::error_message(error) + ")");
    default:
      Fail(std::string(what) + ": " + simdjson::error_message(error));
  }
}

ondemand::object JsonDocument::Object(JsonValue value, std::string_view what) {
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::object) {
    Fail(std::string(what) + ": " + TypeName(type) + " where an object belongs");
  }
  ondemand::object object;
  if (const auto error = value.get_object().get(object)) Fail(error, what, "an object");
  return object;
}

ondemand::array JsonDocument::Array(JsonValue value, std::string_view what) {
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::array) {
    Fail(std::string(what) + ": " + TypeName(type) + " where an array belongs");
  }
  ondemand::array array;
  if (const auto error = value.get_array().get(array)) Fail(error, what, "an array");
  return array;
}

std::string_view JsonDocument::String(JsonValue value, std::string_view what) {
  // The common case first: simdjson's getters move past a value only when they succeed.
  std::string_view fast;
  if (value.get_string().get(fast) == simdjson::SUCCESS) return fast;
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::string) {
    Fail(std::string(what) + ": " + TypeName(type) + " where a string belongs");
  }
  std::string_view text;
  if (const auto error = value.get_string().get(text)) Fail(error, what, "a string");
  return text;
}

uint64_t JsonDocument::Unsigned(JsonValue value, std::string_view what) {
  uint64_t fast = 0;
  if (value.get_uint64().get(fast) == simdjson::SUCCESS) return fast;
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::number) {
    Fail(std::string(what) + ": " + TypeName(type) + " where a number belongs");
  }
  uint64_t number = 0;
  if (const auto error = value.get_uint64().get(number)) {
    Fail(error, what, "an integer from 0 to 2^64-1");
  }
  return number;
}

int64_t JsonDocument::Signed(JsonValue value, std::string_view what) {
  int64_t fast = 0;
  if (value.get_int64().get(fast) == simdjson::SUCCESS) return fast;
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::number) {
    Fail(std::string(what) + ": " + TypeName(type) + " where a number belongs");
  }
  int64_t number = 0;
  if (const auto error = value.get_int64().get(number)) {
    Fail(error, what, "an integer from -2^63 to 2^63-1");
  }
  return number;
}

int64_t JsonDocument::Microseconds(JsonValue value, std::string_view what, bool strings) {
  const auto beyond = [&]() {
    Fail(std::string(what) + ": beyond what 64-bit nanoseconds hold (2^63 ns, 292 years)");
  };
  int64_t fast = 0;  // an integer, as V8 writes its times
  if (value.get_int64().get(fast) == simdjson::SUCCESS) {
    if (fast > kMaxMicroseconds || fast < -kMaxMicroseconds) beyond();
    return fast * 1000;
  }
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::number) {
    if (strings && type == ondemand::json_type::string) {
      return TimeText(String(value, what), what, 1000, "microseconds");
    }
    Fail(std::string(what) + ": " + TypeName(type) + " where a time in microseconds belongs");
  }
  // (Not get_number(): simdjson 3.0.1's gives 0 for a fraction of 19 digits or more, such as
  // 1.000000000000000000; get_double() reads it right.)
  ondemand::number_type kind;
  if (const auto error = value.get_number_type().get(kind)) {
    Fail(error, what, "a time in microseconds");
  }
  switch (kind) {
    case ondemand::number_type::signed_integer: {
      int64_t us = 0;
      if (const auto error = value.get_int64().get(us)) Fail(error, what, "a time in microseconds");
      if (us > kMaxMicroseconds || us < -kMaxMicroseconds) beyond();
      return us * 1000;
    }
    case ondemand::number_type::unsigned_integer:
      beyond();
      return 0;
    default: {
      double us = 0;
      if (const auto error = value.get_double().get(us)) {
        Fail(error, what, "a time in microseconds");
      }
      const double ns = us * 1000;
      if (!std::isfinite(ns) || std::fabs(ns) >= 9.2e18) beyond();
      return static_cast<int64_t>(std::llround(ns));
    }
  }
}

std::string_view JsonDocument::NumberText(JsonValue value, std::string_view what, bool strings) {
  ondemand::json_type type;
  if (const auto error = value.type().get(type)) Fail(error, what, "a number");
  if (type == ondemand::json_type::string && strings) return String(value, what);
  if (type != ondemand::json_type::number) {
    Fail(std::string(what) + ": " + TypeName(type) + " where a number belongs");
  }
  std::string_view raw = value.raw_json_token();
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\r' || raw.back() == '\n')) {
    raw.remove_suffix(1);
  }
  return raw;
}

int64_t JsonDocument::TimeText(std::string_view text, std::string_view what, int64_t ns_per_unit,
                               std::string_view unit, uint64_t byte) {
  const std::string shown(text.substr(0, 40));
  const auto beyond = [&]() {
    Fail(std::string(what) + ": " + shown + " " + std::string(unit) +
             " is beyond what 64-bit nanoseconds hold (2^63 ns, 292 years)",
         byte);
  };
  Decimal decimal;
  if (ParseDecimal(text, &decimal)) {
    // digits × ns_per_unit / 10^scale, rounded half away from zero, in 128 bits (30 digits
    // times 10^9 would not fit: digits past what a nanosecond can show are rounded off first).
    const unsigned __int128 most = ~static_cast<unsigned __int128>(0) / ns_per_unit;
    while (decimal.digits > most && decimal.scale > 0) {
      decimal.digits = (decimal.digits + 5) / 10;
      --decimal.scale;
    }
    if (decimal.digits > most) beyond();
    unsigned __int128 scaled = decimal.digits * static_cast<unsigned __int128>(ns_per_unit);
    unsigned __int128 divisor = 1;
    for (int i = 0; i < decimal.scale; ++i) divisor *= 10;
    scaled = (scaled + divisor / 2) / divisor;
    if (scaled > static_cast<unsigned __int128>(INT64_MAX)) beyond();
    const auto ns = static_cast<int64_t>(scaled);
    return decimal.negative ? -ns : ns;
  }
  double number = 0;  // with an exponent (1.7e9): as the double it is
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    Fail(std::string(what) + ": '" + shown + "' where a time in " + std::string(unit) + " belongs",
         byte);
  }
  const double ns = number * static_cast<double>(ns_per_unit);
  if (!std::isfinite(ns) || std::fabs(ns) >= 9.2e18) beyond();
  return static_cast<int64_t>(std::llround(ns));
}

std::string JsonDocument::Token(JsonValue value, std::string_view what) {
  ondemand::json_type type;
  if (const auto error = value.type().get(type)) Fail(error, what, "a string or a number");
  if (type == ondemand::json_type::string) return std::string(String(value, what));
  if (type != ondemand::json_type::number) {
    Fail(std::string(what) + ": " + TypeName(type) + " where a string or a number belongs");
  }
  ondemand::value number;
  if (const auto error = value.get(number)) Fail(error, what, "a string or a number");
  std::string_view raw = number.raw_json_token();
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t' ||
          raw.back() == ',' || raw.back() == '}' || raw.back() == ']')) {
    raw.remove_suffix(1);
  }
  // Consume the number so that the object goes on past it.
  double ignored;
  if (number.get_double().get(ignored) != simdjson::SUCCESS)
    Fail(std::string(what) + ": not a number");
  return std::string(raw);
}

size_t LastCompleteElement(std::string_view text, std::string* closing) {
  std::string open;  // the brackets open at this point, outermost first
  size_t end = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      open.push_back(c);
    } else if (c == ']' || c == '}') {
      if (open.empty()) break;
      open.pop_back();
      if (c == '}' && !open.empty() && open.size() <= 2 && open.back() == '[') {
        end = i + 1;
        closing->clear();
        for (auto it = open.rbegin(); it != open.rend(); ++it)
          closing->push_back(*it == '[' ? ']' : '}');
      }
    }
  }
  return end;
}

}  // namespace proftools
