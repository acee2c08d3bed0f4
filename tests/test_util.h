// Helpers shared by the unit tests: parse text into a Profile, collect diagnostics.
#ifndef PROFTOOLS_TESTS_TEST_UTIL_H_
#define PROFTOOLS_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/definitions.h"
#include "common/model/sink.h"
#include "common/model/writer_spec.h"
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

// A profile whose stacks are given root first as space-separated function names ("main a b"),
// one sample of the given value each, of type `types`. Functions and locations are numbered in
// order of first appearance and locations have address 0, so that two profiles that list their
// stacks in other orders hold the same definitions under other ids.
inline std::string StacksProfile(const std::vector<std::pair<std::string, int64_t>>& stacks,
                                 const std::string& types = "type samples count\n") {
  std::map<std::string, int> ids;
  std::string functions, stack_lines, samples;
  for (size_t s = 0; s < stacks.size(); ++s) {
    std::vector<std::string> names;
    std::string name;
    for (char c : stacks[s].first + " ") {
      if (c != ' ') {
        name += c;
      } else if (!name.empty()) {
        names.push_back(name);
        name.clear();
      }
    }
    stack_lines += "stack " + std::to_string(s + 1);
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
      auto [known, added] = ids.try_emplace(*it, static_cast<int>(ids.size()) + 1);
      const std::string id = std::to_string(known->second);
      if (added) {
        functions += "function " + id + " " + *it + " \"\" f.c 1\nlocation " + id + " - 0x0 - " +
                     id + ":1\n";
      }
      stack_lines += " " + id;
    }
    stack_lines += "\n";
    samples +=
        "sample 1 " + std::to_string(s + 1) + " - - " + std::to_string(stacks[s].second) + "\n";
  }
  return Preamble(types) + functions + stack_lines + samples;
}

// A profile held in memory as a ProfileSource.
// (What writers read: tests of WriterSpecs.)
class MemorySource : public ProfileSource {
 public:
  explicit MemorySource(Profile profile) : profile_(std::move(profile)) {}
  std::string name() const override { return "test.prof"; }
  void Read(ProfileSink* sink, bool) override { EmitProfile(profile_, *sink); }

 private:
  Profile profile_;
};

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_TEST_UTIL_H_
