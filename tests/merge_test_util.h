// Merging prof text held in memory, for the prof-merge tests.
#ifndef PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_
#define PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/io/gzip_sink.h"
#include "common/io/input.h"
#include "common/merge/merge_pprof.h"
#include "common/merge/merger.h"
#include "common/pprof/pprof_writer.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools::testing {

struct NamedText {
  std::string name;
  std::string text;
};

inline void AddTexts(const std::vector<NamedText>& inputs, Merger* merger) {
  for (const NamedText& in : inputs) {
    Input input;
    input.name = in.name;
    input.text = true;
    input.stream = std::make_unique<MemoryStream>(in.text);
    merger->Add(input, in.name);
  }
}

// Merges `inputs` (prof text) as prof-merge does; returns the canonical text.
inline std::string MergeTexts(const std::vector<NamedText>& inputs, MergeOptions options = {}) {
  Merger merger(options);
  AddTexts(inputs, &merger);
  StringSink out;
  CanonicalWriter writer(&out);
  merger.Finish(&writer);
  return std::move(out.text());
}

// The same merge as prof-merge --pprof writes it (it aggregates): gzipped profile.proto.
inline std::string MergeTextsToPprof(const std::vector<NamedText>& inputs, MergeOptions options) {
  options.aggregate = true;
  Merger merger(options);
  AddTexts(inputs, &merger);
  StringSink out;
  GzipSink gzip(&out, 1);
  FinishAsPprof(&merger, &gzip);
  gzip.Finish();
  return std::move(out.text());
}

// Prof text as prof2pprof writes it by default: gzipped at level 1.
inline std::string Prof2Pprof(const std::string& text) {
  MemoryStream in(text);
  StringSink out;
  GzipSink gzip(&out, 1);
  PprofWriter writer(&gzip, PprofWriteOptions());
  ReadText(&in, "merged.prof", &writer);
  gzip.Finish();
  return std::move(out.text());
}

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_
