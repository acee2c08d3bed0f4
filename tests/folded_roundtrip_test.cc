// Property: prof-text --folded's text, read by the folded reader and folded again, is the same
// text, whatever bytes the names hold (`;`, blanks, backslashes, control and invalid bytes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "common/folded/folded_reader.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/model/checker.h"
#include "common/model/sink.h"
#include "common/report/reports.h"
#include "common/report/stack_totals.h"
#include "tests/random_profile.h"

namespace proftools {
namespace folded_roundtrip_test {  // a namespace of its own: the tests build as one unit
namespace {

// What prof-text --folded prints of `profile`'s default type.
std::string Folded(const Profile& profile) {
  StackTotals totals;
  EmitProfile(profile, totals);
  ReportOptions options;
  options.value_index = ResolveValueIndex(totals.header(), "");
  StringSink out;
  WriteFoldedReport(totals, options, &out);
  return out.text();
}

Profile ReadFolded(const std::string& text) {
  // Names like `f (a:1)` are py-spy frames only when asked for: here every frame is plain.
  FoldedOptions options;
  options.plain_frames = true;
  options.allow_empty = true;
  FoldedReader reader(options, nullptr);
  Input input = OpenInputStream(std::make_unique<MemoryStream>(text), "folded");
  reader.Add(input, "folded");
  ProfileBuilder builder;
  DiagnosticHandler bugs;
  CheckingSink checked(&builder, &bugs, "folded");
  reader.Finish(&checked);
  return builder.Take();
}

TEST(FoldedRoundTrip, FoldedTextReadsBackToTheSameText) {
  testing::RandomProfileGenerator generator(20261126);
  int nonempty = 0;
  for (int i = 0; i < 500; ++i) {
    Profile profile = generator.Next();
    for (Sample& sample : profile.samples) {
      // Folded stacks carry no negative counts, and sums must not saturate.
      for (int64_t& value : sample.values) value = std::llabs(value % 1000000000);
    }
    for (Function& function : const_cast<std::vector<Function>&>(profile.defs.functions.items())) {
      // A leaf ending in ` DIGITS` on the first line would read as difffolded.pl's two
      // columns: the one ambiguity of the format (man/man1/folded2prof.1).
      if (!function.name.empty() && function.name.back() >= '0' && function.name.back() <= '9') {
        function.name += "x";
      }
    }
    const std::string text = Folded(profile);
    if (!text.empty()) ++nonempty;
    SCOPED_TRACE("profile " + std::to_string(i) + ":\n" + text);
    EXPECT_EQ(Folded(ReadFolded(text)), text);
  }
  EXPECT_GT(nonempty, 300);
}

}  // namespace
}  // namespace folded_roundtrip_test
}  // namespace proftools
