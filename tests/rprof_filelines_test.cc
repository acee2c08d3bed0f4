// The `filelines` granularity of reports (added for R's per-line view, summaryRprof(lines =
// "show")): a frame is FILE:LINE and frames with an unknown line are left out.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/report/frames.h"

namespace proftools {
namespace rprof_filelines_test {  // a namespace of its own: the tests build as one unit
namespace {

std::vector<std::string> Names(FrameExpander* frames, uint64_t stack) {
  std::vector<const Frame*> out;
  frames->StackFrames(stack, &out);
  std::vector<std::string> names;
  for (const Frame* frame : out) names.push_back(frame->name + (frame->inlined ? " (inline)" : ""));
  return names;
}

TEST(FileLinesGranularity, NamesFileAndLineAndSkipsUnknownLines) {
  Granularity granularity;
  ASSERT_TRUE(ParseGranularity("filelines", &granularity));
  EXPECT_EQ(granularity, Granularity::kFileLines);

  Definitions defs;
  defs.functions.Add(Function{1, "f", "", "/p/a.R", 0});
  defs.functions.Add(Function{2, "sum", "", "", 0});
  defs.functions.Add(Function{3, "g", "", "", 0});
  defs.locations.Add(Location{1, 0, 0, false, {Line{1, 7, 0}}});
  defs.locations.Add(Location{2, 0, 0, false, {Line{2, 0, 0}}});                 // no line
  defs.locations.Add(Location{3, 0, 0, false, {Line{3, 4, 0}, Line{1, 9, 0}}});  // inlined
  defs.locations.Add(Location{4, 0, 0x1234, false, {}});                         // no lines
  defs.stacks.Add(Stack{1, {2, 1, 3, 4}});
  defs.stacks.Add(Stack{2, {2, 4}});

  FrameExpander frames(defs, Granularity::kFileLines);
  EXPECT_EQ(Names(&frames, 1), (std::vector<std::string>{"/p/a.R:7", "?:4 (inline)", "/p/a.R:9"}));
  EXPECT_TRUE(Names(&frames, 2).empty());

  // The other granularities are unchanged: every frame is shown.
  FrameExpander lines(defs, Granularity::kLines);
  // A location with neither function nor mapping is pprof's "<unknown>" (one row for all), its
  // address shown only by address.
  EXPECT_EQ(Names(&lines, 2), (std::vector<std::string>{"sum ?:0", "<unknown>"}));
  FrameExpander addresses(defs, Granularity::kAddresses);
  EXPECT_EQ(Names(&addresses, 2), (std::vector<std::string>{"0x0 sum ?:0", "0x1234 <unknown>"}));
}

}  // namespace
}  // namespace rprof_filelines_test
}  // namespace proftools
