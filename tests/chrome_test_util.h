// Reading JSON bytes through the registry, as every program reads a file: for the tests of the
// Chrome readers (common/chrome/).
#ifndef PROFTOOLS_TESTS_CHROME_TEST_UTIL_H_
#define PROFTOOLS_TESTS_CHROME_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace chrome_test {

// Collects the warnings of a read, formatted.
struct Warnings : DiagnosticHandler {
  void Warning(const Diagnostic& diagnostic) override { messages.push_back(diagnostic.Format()); }
  std::vector<std::string> messages;
};

// The canonical text of `bytes` read as `format` ("" sniffs), its warnings into `warnings` when
// given. Throws what the reader throws.
inline std::string Read(const std::string& bytes, const std::string& format = "",
                        Warnings* warnings = nullptr) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(bytes), "in.json");
  StringSink text;
  CanonicalWriter writer(&text);
  ReadOptions options;
  options.format = format;
  options.warnings = warnings;
  ReadProfile(input, &writer, options);
  return text.text();
}

// The message of the error reading `bytes` gives, or "" when it reads.
inline std::string Error(const std::string& bytes, const std::string& format = "") {
  try {
    Read(bytes, format);
  } catch (const ProfError& e) {
    return e.diagnostic().Format();
  }
  return "";
}

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> Lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    if (line.compare(0, prefix.size(), prefix) == 0) lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

}  // namespace chrome_test
}  // namespace proftools

#endif  // PROFTOOLS_TESTS_CHROME_TEST_UTIL_H_
