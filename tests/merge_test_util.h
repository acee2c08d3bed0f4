// Merging prof text held in memory, for the prof-merge tests.
#ifndef PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_
#define PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/io/input.h"
#include "common/merge/merger.h"
#include "common/text/text_writer.h"

namespace proftools::testing {

struct NamedText {
  std::string name;
  std::string text;
};

// Merges `inputs` (prof text) as prof-merge does; returns the canonical text.
inline std::string MergeTexts(const std::vector<NamedText>& inputs, MergeOptions options = {}) {
  Merger merger(options);
  for (const NamedText& in : inputs) {
    Input input;
    input.name = in.name;
    input.format = InputFormat::kProfText;
    input.text = true;
    input.stream = std::make_unique<MemoryStream>(in.text);
    merger.Add(input, in.name);
  }
  StringSink out;
  CanonicalWriter writer(&out);
  merger.Finish(&writer);
  return std::move(out.text());
}

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_MERGE_TEST_UTIL_H_
