// The .heapprofile reader (common/chrome/heapprofile_codec): V8's sampling heap profiles, with
// samples and without, deep trees, and every kind of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tests/chrome_test_util.h"

namespace proftools {
namespace chrome_heapprofile_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Error;
using chrome_test::Lines;
using chrome_test::Read;
using chrome_test::Warnings;

std::string Frame(const std::string& name, const std::string& url = "", int line = -1) {
  return R"j({"functionName":")j" + name + R"j(","scriptId":"0","url":")j" + url +
         R"j(","lineNumber":)j" + std::to_string(line) + R"j(,"columnNumber":-1})j";
}

// (root) -> main -> alloc (a.js line 4), and (root) -> (GC).
const std::string kHead = R"j("head":{"callFrame":)j" + Frame("(root)") +
                          R"j(,"selfSize":0,"id":1,"children":[{"callFrame":)j" + Frame("main") +
                          R"j(,"selfSize":100,"id":2,"children":[{"callFrame":)j" +
                          Frame("alloc", "a.js", 3) +
                          R"j(,"selfSize":5000,"id":3,"children":[]}]},{"callFrame":)j" +
                          Frame("(GC)") + R"j(,"selfSize":40,"id":4,"children":[]}]})j";

TEST(ChromeHeapProfile, OneSamplePerEntryOfSamplesInOrdinalOrder) {
  const std::string text =
      Read("{" + kHead +
           R"j(,"samples":[{"size":3000,"nodeId":3,"ordinal":7},{"size":100,"nodeId":2,)j"
           R"j("ordinal":2},{"size":40,"nodeId":4,"ordinal":9},{"size":2000,"nodeId":3,)j"
           R"j("ordinal":3}]})j");
  EXPECT_EQ(Lines(text, "type "),
            (std::vector<std::string>{"type samples count", "type space bytes"}));
  EXPECT_EQ(Lines(text, "default_type"), (std::vector<std::string>{"default_type space"}));
  EXPECT_EQ(Lines(text, "source "), (std::vector<std::string>{"source 1 heapprofile in.json -"}));
  // Ordinals 2, 3, 7, 9; no times (the format has none).
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 - - 1 100", "sample 1 2 - - 1 2000",
                                      "sample 1 2 - - 1 3000", "sample 1 3 - - 1 40"}));
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1", "stack 2 2 1", "stack 3 3"}));
  EXPECT_EQ(Lines(text, "function 2"), (std::vector<std::string>{"function 2 alloc \"\" a.js 4"}));
}

TEST(ChromeHeapProfile, WithoutSamplesEachNodesSelfSizeIsASample) {
  const std::string text = Read("{" + kHead + "}");
  EXPECT_EQ(Lines(text, "type "), (std::vector<std::string>{"type space bytes"}));
  EXPECT_EQ(
      Lines(text, "sample "),
      (std::vector<std::string>{"sample 1 1 - - 100", "sample 1 2 - - 5000", "sample 1 3 - - 40"}));
  // An empty samples array is no samples either.
  EXPECT_EQ(Lines(Read("{" + kHead + R"j(,"samples":[]})j"), "sample ").size(), 3u);
}

TEST(ChromeHeapProfile, AHundredThousandLevelsDeepIsNoProblem) {
  // The tree is nested in the JSON: the reader keeps the open nodes in a vector, not on the
  // call stack.
  const int kDepth = 100000;
  std::string json = "{\"head\":";
  for (int i = 1; i <= kDepth; ++i) {
    json += R"j({"callFrame":{"functionName":"f)j" + std::to_string(i % 7) + R"j("},"selfSize":)j" +
            std::to_string(i == kDepth ? 8 : 0) + ",\"id\":" + std::to_string(i) +
            ",\"children\":[";
  }
  for (int i = 1; i <= kDepth; ++i) json += "]}";
  json += R"j(,"samples":[{"size":8,"nodeId":100000,"ordinal":1}]})j";
  const std::string text = Read(json, "heapprofile");
  const std::vector<std::string> stacks = Lines(text, "stack ");
  ASSERT_EQ(stacks.size(), 1u);
  EXPECT_EQ(std::count(stacks[0].begin(), stacks[0].end(), ' '), 1 + kDepth);
}

TEST(ChromeHeapProfile, TheIdsMayComeAfterTheChildrenAndKeysInAnyOrder) {
  const std::string text = Read(
      R"j({"samples":[{"ordinal":1,"nodeId":9,"size":16}],"head":{"children":[{"children":[],)j"
      R"j("selfSize":16,"callFrame":{"functionName":"leaf"},"id":9}],"id":1,"callFrame":)j"
      R"j({"functionName":"(root)"},"selfSize":0}})j",
      "heapprofile");
  EXPECT_EQ(Lines(text, "sample "), (std::vector<std::string>{"sample 1 1 - - 1 16"}));
}

TEST(ChromeHeapProfile, ASampleNamingANodeNotInTheTreeIsLeftOutWithAWarning) {
  // node 20 wrote such a sample in a real profile: DevTools shows the tree, without it.
  const std::string json = "{" + kHead + R"j(,"samples":[{"size":64,"nodeId":62,"ordinal":1},)j" +
                           R"j({"size":100,"nodeId":2,"ordinal":2}]})j";
  Warnings warnings;
  EXPECT_EQ(Lines(Read(json, "", &warnings), "sample "),
            (std::vector<std::string>{"sample 1 1 - - 1 100"}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("1 sample names a node not in the tree"), std::string::npos)
      << warnings.messages[0];
  EXPECT_NE(warnings.messages[0].find("left out: 64 bytes"), std::string::npos);
}

void ExpectError(const std::string& json, const std::string& part) {
  const std::string message = Error(json, "heapprofile");
  EXPECT_EQ(message.rfind("in.json: byte ", 0), 0u) << message;
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST(ChromeHeapProfile, NodesWithoutIdsAreReadByTheirPlace) {
  // V8 before it wrote samples (2018): no ids, selfSize only (issue 43).
  const std::string text =
      Read(R"j({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"children":[)j"
           R"j({"callFrame":{"functionName":"main"},"selfSize":7,"children":[)j"
           R"j({"callFrame":{"functionName":"grow"},"selfSize":64}]}]}})j");
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 - - 7", "sample 1 2 - - 64"}));
  EXPECT_EQ(Lines(text, "stack "), (std::vector<std::string>{"stack 1 1", "stack 2 2 1"}));
}

TEST(ChromeHeapProfile, BadInputIsAnErrorNamingTheByte) {
  const std::string good = "{" + kHead + R"j(,"samples":[{"size":3,"nodeId":3,"ordinal":1}]})j";
  for (size_t cut : {size_t{1}, size_t{30}, good.size() / 2, good.size() - 1}) {
    const std::string message = Error(good.substr(0, cut), "heapprofile");
    EXPECT_EQ(message.rfind("in.json: byte ", 0), 0u) << cut << ": " << message;
  }
  ExpectError(R"j({"head":{"callFrame":{"functionName":5},"id":1,"selfSize":1}})j",
              "a number where a string belongs");
  ExpectError("{" + kHead + R"j(,"samples":[[[[[[[[[[{"size":3,"nodeId":3}]]]]]]]]]]})j",
              "an array where an object belongs");
  ExpectError(
      R"j({"head":{"callFrame":{},"id":1,"selfSize":1,"children":[[[[[[[[[[{}]]]]]]]]]]}})j",
      "an array where an object belongs");
  ExpectError(R"j({"head":{"callFrame":{},"id":1,"children":[{"callFrame":{},"id":1}]}})j",
              "node 1 is defined twice");
  ExpectError(R"j({"head":{"callFrame":{},"id":1,"selfSize":-4}})j", "selfSize");
  ExpectError(R"j({"head":{"callFrame":{},"id":1,"selfSize":9223372036854775808}})j",
              "beyond 2^63-1 bytes");
  ExpectError("{" + kHead + R"j(,"samples":[{"size":3,"ordinal":1}]})j", "no nodeId");
  ExpectError(R"j({"samples":[]})j", "no `head`");
  EXPECT_NE(Error(R"j({"head":{"callFrame":{},"id":1,"selfSize":0}})j", "heapprofile")
                .find("without samples or allocated bytes"),
            std::string::npos);
}

}  // namespace
}  // namespace chrome_heapprofile_test
}  // namespace proftools
