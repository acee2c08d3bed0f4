// Helpers for the pprof tests: prof text <-> serialized profile.proto in memory.
#ifndef PROFTOOLS_TESTS_PPROF_TEST_UTIL_H_
#define PROFTOOLS_TESTS_PPROF_TEST_UTIL_H_

#include <string>

#include "common/io/byte_stream.h"
#include "common/pprof/pprof_reader.h"
#include "common/pprof/pprof_writer.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"
#include "formats/profile.pb.h"

namespace proftools::testing {

// Prof text -> serialized (not gzipped) pprof.
inline std::string TextToPprof(const std::string& text, bool keep_samples) {
  MemoryStream stream(text);
  StringSink out;
  PprofWriteOptions options;
  options.keep_samples = keep_samples;
  PprofWriter writer(&out, options);
  ReadText(&stream, "test.prof", &writer);
  return out.text();
}

// Serialized pprof -> canonical prof text. Throws ProfError on bad input.
inline std::string PprofToText(const std::string& data, DiagnosticHandler* handler = nullptr) {
  StringSink out;
  CanonicalWriter writer(&out);
  PprofReadOptions options;
  options.uri = "in.pb";
  options.handler = handler;
  ReadPprof(data, "in.pb", &writer, options);
  return out.text();
}

// The text after the header and the column comment block.
inline std::string Body(const std::string& text) {
  const size_t pos = text.find("\n#   sample ");
  return text.substr(text.find('\n', pos + 1) + 1);
}

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_PPROF_TEST_UTIL_H_
