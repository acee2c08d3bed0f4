// JSON profiles (V8's and Chrome's, speedscope's, the Firefox Profiler's), parsed with
// simdjson's On-Demand API over the whole input held in memory (the one exception to the
// streaming rule: JSON has no records to stream by; --max-input-size caps it). What every JSON
// reader needs of it: the document, and values taken with a message that says where
// (`FILE: byte N: what`) and what was expected.
#ifndef PROFTOOLS_COMMON_JSON_JSON_DOCUMENT_H_
#define PROFTOOLS_COMMON_JSON_JSON_DOCUMENT_H_

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "common/io/input.h"
#include "common/io/whole_input.h"

namespace proftools {

namespace ondemand = simdjson::ondemand;
using JsonValue = simdjson::simdjson_result<ondemand::value>;

class JsonDocument {
 public:
  // Reads `input` whole (more than `cap` bytes, 0: no cap, is an error naming `what`) and starts
  // parsing it. Throws ProfError.
  // With `allow_truncated`, an input that ends before its strings, arrays or objects are closed
  // is not an error but `truncated()`, and not parsed until Reparse.
  JsonDocument(Input& input, uint64_t cap, const char* what, bool allow_truncated = false);
  // JSON text held in a string of another document (old Gecko profiles keep their libraries and
  // child processes so), named `name` in messages; byte numbers count within `text`.
  JsonDocument(std::string name, std::string_view text);
  JsonDocument(const JsonDocument&) = delete;
  JsonDocument& operator=(const JsonDocument&) = delete;

  ondemand::document& doc() { return doc_; }
  bool truncated() const { return truncated_; }
  // Parses the first `end` bytes followed by `closing` ("]", "]}") instead of the whole input:
  // the part of a truncated input that was complete. Byte numbers stay those of the input.
  void Reparse(size_t end, std::string_view closing);
  const std::string& name() const { return name_; }
  std::string_view text() const { return data_.view(); }

  // Where the parser is: the offset of the next token, counted from 1 (the input's size + 1 at
  // its end).
  uint64_t Byte();
  // Throws ProfError "NAME: byte N: message" at the parser's place, or at `byte` when not 0.
  [[noreturn]] void Fail(const std::string& message, uint64_t byte = 0);
  // Throws for a simdjson error met while reading `what` ("nodes[3].id"), saying what the JSON
  // has there when it is a value of another type than `expected` ("a string").
  [[noreturn]] void Fail(simdjson::error_code error, std::string_view what, const char* expected);

  // Values of the types a profile holds, or a ProfError naming `what`.
  ondemand::object Object(JsonValue value, std::string_view what);
  ondemand::array Array(JsonValue value, std::string_view what);
  std::string_view String(JsonValue value, std::string_view what);
  uint64_t Unsigned(JsonValue value, std::string_view what);
  int64_t Signed(JsonValue value, std::string_view what);
  // A time in microseconds (an integer or a fraction, as V8 and the Trace Event Format write
  // them; with `strings`, a string holding one too, as Hermes writes ts and dur) in
  // nanoseconds; beyond 64-bit nanoseconds is an error.
  int64_t Microseconds(JsonValue value, std::string_view what, bool strings = false);
  // A string, or a number as its JSON text (the Trace Event Format's ids are either).
  std::string Token(JsonValue value, std::string_view what);
  // A number's JSON text, or with `strings` a string's content too (Hermes writes the Trace
  // Event Format's ts and dur as strings); any other value is an error naming `what`.
  std::string_view NumberText(JsonValue value, std::string_view what, bool strings);
  // NumberText's time in units of `ns_per_unit` nanoseconds (1000: microseconds), exactly (the
  // decimal digits scaled, not a double, unless it has an exponent), in nanoseconds, rounded;
  // not a number or beyond 64-bit nanoseconds is an error naming `what` and `unit`, at `byte`
  // when not 0.
  int64_t TimeText(std::string_view text, std::string_view what, int64_t ns_per_unit,
                   std::string_view unit, uint64_t byte = 0);

 private:
  // Starts parsing data_ (padded here).
  void Parse(bool allow_truncated);

  std::string name_;
  WholeInput data_;
  bool truncated_ = false;
  ondemand::parser parser_;
  ondemand::document doc_;
};

// For an input cut short: where the last complete element of an array at depth 1 or 2 (the
// events of a bare array, or of {"traceEvents": [...]}) ends, and in `closing` the brackets that
// close what is open there; 0 when no element is complete. One pass over the bytes.
size_t LastCompleteElement(std::string_view text, std::string* closing);

// Calls `on_field(key, value)` for each field of `object` in order. Throws ProfError for JSON
// that breaks off.
template <typename F>
void ForEachField(JsonDocument& json, ondemand::object object, std::string_view what,
                  F&& on_field) {
  for (auto result : object) {
    ondemand::field field;
    if (const auto error = std::move(result).get(field)) json.Fail(error, what, "an object");
    std::string_view key;
    if (const auto error = field.unescaped_key().get(key)) json.Fail(error, what, "a key");
    on_field(key, JsonValue(std::move(field).value()));
  }
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JSON_JSON_DOCUMENT_H_
