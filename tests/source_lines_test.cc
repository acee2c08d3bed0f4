// Values per source line (common/report/source/source_lines.h), shared by prof-text --list and
// prof-html's source pane: pprof's attribution, and R's (flat at the innermost frame with a line).
#include "common/report/source/source_lines.h"

#include <gtest/gtest.h>

#include "common/text/text_reader.h"
#include "tests/test_util.h"

namespace proftools {
namespace source_lines_test {  // a namespace of its own: the tests build as one unit
namespace {

// R's shape: deep (line 16) calls deep, whose own frame has no line yet (a function without a
// file, line 0), or sits at line 13; and a recursion deep@16 -> deep@16.
const char* kProfile = R"(proftext 1.0
source 1 manual x -
type samples count
function 1 deep "" w.R 0
function 2 deep "" "" 0
location 1 - 0x0 - 1:16
location 2 - 0x0 - 2:0
location 3 - 0x0 - 1:13
stack 1 2 1
stack 2 3 1 1
sample 1 1 - - 5
sample 1 2 - - 7
)";

SourceLineValues Attribute(bool skip_lineless) {
  StackTotals totals;
  MemoryStream stream(kProfile);
  ReadText(&stream, "x", &totals);
  SourceFiles files("/nonexistent", "");
  return AttributeSourceLines(
      totals, 0, files, [](const std::string& name) { return name == "deep"; }, skip_lineless);
}

TEST(SourceLines, FlatAtTheLeafAsPprofOrAtTheInnermostLineAsR) {
  const SourceLineValues pprof = Attribute(false);
  std::vector<FunctionFile> files = FilesOf(pprof, "deep");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].file, "w.R");
  // The leaf without a line takes stack 1's flat (it has no file: listed nowhere).
  EXPECT_EQ(files[0].lines[16].flat, 0);
  EXPECT_EQ(files[0].lines[16].cum, 12);  // stack 2's recursion counts once
  EXPECT_EQ(files[0].lines[13].flat, 7);
  EXPECT_EQ(files[0].flat, 7);

  const SourceLineValues r = Attribute(true);
  files = FilesOf(r, "deep");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].lines[16].flat, 5);  // summaryRprof's self: the innermost srcref
  EXPECT_EQ(files[0].lines[16].cum, 12);
  EXPECT_EQ(files[0].flat, 12);
}

TEST(SourceLines, ShownRangeHasTheMarginAndWhatTheTextLacks) {
  std::map<int64_t, LineValues> lines{{3, {1, 1}}, {20, {2, 2}}, {40, {0, 4}}};
  SourceText text;
  text.found = true;
  text.content = std::string(30, '\n');
  for (int i = 0; i < 30; ++i) text.lines.push_back(std::string_view());
  const SourceRange range = ShownRange(lines, text);
  EXPECT_EQ(range.first_shown, 1);  // 3 - 5, not before line 1
  EXPECT_EQ(range.last_shown, 30);  // 40 + 5, cut at the text's end
  EXPECT_EQ(range.beyond, std::vector<int64_t>{40});
  const SourceRange missing = ShownRange(lines, SourceText());
  EXPECT_GT(missing.first_shown, missing.last_shown);
  EXPECT_EQ(missing.beyond, (std::vector<int64_t>{3, 20, 40}));
}

TEST(SourceLines, JavaMethodsAreInTheirTopLevelClassFile) {
  EXPECT_EQ(JavaSourceFile("Workload.spinA"), "Workload.java");
  EXPECT_EQ(JavaSourceFile("java.lang.Thread.run"), "java/lang/Thread.java");
  EXPECT_EQ(JavaSourceFile("a.b.Outer$Inner.m"), "a/b/Outer.java");
  EXPECT_EQ(JavaSourceFile("Workload$$Lambda.run"), "Workload.java");
  EXPECT_EQ(JavaSourceFile("Workload.lambda$main$0"), "Workload.java");
  EXPECT_EQ(JavaSourceFile("p.Ünicode.m"), "p/Ünicode.java");
  // Not dotted Java identifiers: no file.
  for (const char* name : {"main", ".m", "C.", "a..b", "C.m()", "a/b.m", "p.$Gen.m", "<init>",
                           "../../etc/passwd.x", "C m.x"}) {
    EXPECT_EQ(JavaSourceFile(name), "") << name;
  }
}

TEST(SourceLines, JfrFramesHaveTheirClassFileOthersNone) {
  for (const char* type : {"jfr", "manual"}) {
    const std::string profile = std::string("proftext 1.0\nsource 1 ") + type +
                                " x -\ntype samples count\n"
                                "function 1 p.C$1.run \"\" \"\" 0\n"
                                "location 1 - 0x0 - 1:7\nstack 1 1\nsample 1 1 - - 3\n";
    StackTotals totals;
    MemoryStream stream(profile);
    ReadText(&stream, "x", &totals);
    SourceFiles files("/nonexistent", "");
    const SourceLineValues values =
        AttributeSourceLines(totals, 0, files, [](const std::string&) { return true; });
    const std::vector<FunctionFile> found = FilesOf(values, "p.C$1.run");
    if (std::string(type) == "jfr") {
      ASSERT_EQ(found.size(), 1u);
      EXPECT_EQ(found[0].file, "p/C.java");
      EXPECT_EQ(found[0].lines.at(7).flat, 3);
    } else {
      EXPECT_TRUE(found.empty());
    }
  }
}

}  // namespace
}  // namespace source_lines_test
}  // namespace proftools
