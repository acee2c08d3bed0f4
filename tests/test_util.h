// Helpers shared by the unit tests: parse text into a Profile, collect diagnostics.
#ifndef PROFTOOLS_TESTS_TEST_UTIL_H_
#define PROFTOOLS_TESTS_TEST_UTIL_H_

#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/sink.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools::testing {

// Records every diagnostic instead of throwing.
class CollectingHandler : public DiagnosticHandler {
 public:
  void Error(const Diagnostic& d) override { errors.push_back(d); }
  void Warning(const Diagnostic& d) override { warnings.push_back(d); }
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;
};

// Parses prof text; throws ProfError at the first violation.
inline Profile Parse(const std::string& text) {
  MemoryStream stream(text);
  ProfileBuilder builder;
  ReadText(&stream, "test.prof", &builder);
  return builder.Take();
}

// Every violation in `text`, in order.
inline std::vector<Diagnostic> Violations(const std::string& text) {
  MemoryStream stream(text);
  ProfileBuilder builder;
  CollectingHandler handler;
  ReadText(&stream, "test.prof", &builder, &handler);
  return handler.errors;
}

// The rule names of every violation in `text`, in order.
inline std::vector<std::string> RulesBroken(const std::string& text) {
  std::vector<std::string> rules;
  for (const Diagnostic& d : Violations(text)) rules.push_back(RuleName(d.rule));
  return rules;
}

// Re-emits text in canonical form by streaming it through the reader and the writer.
inline std::string Canonicalize(const std::string& text) {
  MemoryStream stream(text);
  StringSink out;
  CanonicalWriter writer(&out);
  ReadText(&stream, "test.prof", &writer);
  return out.text();
}

// A minimal valid preamble with one source and the given type lines.
inline std::string Preamble(const std::string& types = "type samples count\n") {
  return "proftext 1.0\nsource 1 manual test -\n" + types;
}

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_TEST_UTIL_H_
