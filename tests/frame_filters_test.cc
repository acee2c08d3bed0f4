// The frame filters one by one (common/filter/: pprof's semantics, see man/prof-filter-frames.txt)
// on a small profile: each test applies one transform to one stack and shows the frames left.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <memory>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/filter/filter_spec.h"
#include "common/filter/focus_ignore.h"
#include "common/filter/focus_sequence.h"
#include "common/filter/frame_matcher.h"
#include "common/filter/hide_show.h"
#include "common/filter/prune_frames.h"
#include "common/filter/show_from.h"
#include "tests/test_util.h"

namespace proftools {
namespace frame_filters_test {  // a namespace of its own: the tests build as one unit
namespace {

// Stacks, leaf first; location 3 is Tokenizer::next inlined into parse, location 5 has no lines.
const char* kProfile =
    "proftext 1.0\n"
    "source 1 manual x -\n"
    "type samples count\n"
    "mapping 1 0x400000 0x500000 0x0 /usr/bin/app \"\" FN,FL,LN,IN\n"
    "mapping 2 0x7f0000 0x7f9000 0x0 /lib/libc.so.6 \"\" -\n"
    "function 1 main \"\" app/main.c 1\n"
    "function 2 serve \"\" app/server.c 10\n"
    "function 3 parse \"\" app/parse.c 20\n"
    "function 4 \"Tokenizer::next(char const*)\" _ZN9Tokenizer4nextEPKc app/token.cc 30\n"
    "function 5 checksum \"\" app/hash.c 40\n"
    "location 1 1 0x401000 - 1:5\n"
    "location 2 1 0x402000 - 2:12\n"
    "location 3 1 0x403000 - 4:33 3:22\n"
    "location 4 1 0x404000 - 5:41\n"
    "location 5 2 0x7f1000 -\n"
    "stack 1 4 3 2 1\n"      // main serve parse Tokenizer checksum
    "stack 2 5 4 2 1\n"      // main serve checksum [libc]
    "stack 3 3 2 3 2 1\n"    // main serve parse Tokenizer serve parse Tokenizer
    "stack 4\n"              // no frames
    "stack 5 4 3 2 4 2 1\n"  // main serve checksum serve parse Tokenizer checksum
    "sample 1 1 - - 1\n";

class FrameFilters : public ::testing::Test {
 protected:
  FrameFilters() : profile_(testing::Parse(kProfile)), emitter_(profile_.defs, nullptr) {}

  static std::shared_ptr<re2::RE2> Re(const std::string& pattern) {
    return CompileFrameRegex("--test", {pattern});
  }

  // The frames left of stack `stack_id` after `transform`, root first: function names (the
  // argument list cut), "[libc]" for the location without lines, "!" when the stack is dropped.
  std::string Apply(StackTransform* transform, uint64_t stack_id) {
    std::vector<FrameRef> frames;
    emitter_.Frames(stack_id, &frames);
    if (!transform->Apply(profile_.defs, &frames)) return "!";
    std::string out;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
      const Line* line = LineOf(profile_.defs, *it);
      out += out.empty() ? "" : " ";
      out += line == nullptr ? "[libc]"
                             : std::string(SimplifiedFunctionName(
                                   profile_.defs.functions.Find(line->function_id)->name));
    }
    return out;
  }

  Profile profile_;
  DefinitionEmitter emitter_;
};

TEST(SimplifiedFunctionName, CutsTheArgumentListAsPprofDoes) {
  EXPECT_EQ(SimplifiedFunctionName("Tokenizer::next(char const*)"), "Tokenizer::next");
  EXPECT_EQ(SimplifiedFunctionName("(anonymous namespace)::f(int)"), "(anonymous namespace)::f");
  EXPECT_EQ(SimplifiedFunctionName("Visitor::operator()(int) const"), "Visitor::operator()");
  EXPECT_EQ(SimplifiedFunctionName(".ppc_entry"), "ppc_entry");
  EXPECT_EQ(SimplifiedFunctionName("main.(*T).M"), "main.");
  EXPECT_EQ(SimplifiedFunctionName("plain"), "plain");
}

TEST(CompileFrameRegex, RepeatedExpressionsAreAlternativesAndErrorsNameTheFaultyOne) {
  const auto re = CompileFrameRegex("--focus", {"^a$", "b|c"});
  EXPECT_TRUE(re2::RE2::PartialMatch("a", *re));
  EXPECT_TRUE(re2::RE2::PartialMatch("xcx", *re));
  EXPECT_FALSE(re2::RE2::PartialMatch("xa", *re));
  EXPECT_EQ(CompileFrameRegex("--focus", {}), nullptr);
  try {
    CompileFrameRegex("--hide", {"ok", "a("});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--hide: bad regular expression 'a(': missing ): a( (=NAME or --literal matches a "
              "frame name as it is)");
  }
}

// Issue 24 item 8: C++ names pasted from a report are literal with =NAME or --literal, with the
// reports' escapes undone; a regular expression that is a frame's name but does not match it
// gets a hint.
TEST(FramePatternRegex, LiteralNamesAreQuotedAndAnchored) {
  EXPECT_EQ(FramePatternRegex("f(int*)", false), "f(int*)");
  EXPECT_EQ(FramePatternRegex("=f(int*)", false), "^f\\(int\\*\\)$");
  EXPECT_EQ(FramePatternRegex("a[]", true), "^a\\[\\]$");
  EXPECT_EQ(LiteralFrameName("=semi\\x3bcolon"), "semi;colon");
  const auto sequence = ParseFocusSequence("=f(int*);g", false);
  ASSERT_EQ(sequence.size(), 2u);
  EXPECT_TRUE(RE2::FullMatch("f(int*)", *sequence[0]));
  EXPECT_FALSE(RE2::PartialMatch("xf(int*)", *sequence[0]));
  EXPECT_TRUE(RE2::PartialMatch("xgx", *sequence[1]));

  Definitions defs;
  defs.functions.Add(Function{1, "f(int*)", "", "", 0});
  defs.functions.Add(Function{2, "main", "", "", 0});
  FrameSpec frames;
  frames.regex_patterns = {{"--focus", "f(int*)"}, {"--hide", "main"}, {"--show", "nothing"}};
  const std::vector<std::string> hints = FrameNameHints(frames, defs);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].rfind("--focus 'f(int*)' is a frame's name", 0), 0u) << hints[0];
}

TEST(ParseFocusSequence, SplitsOnSemicolonsAndRefusesEmptyElements) {
  EXPECT_EQ(ParseFocusSequence("a;b\\x3bc;d").size(), 3u);
  EXPECT_THROW(ParseFocusSequence("a;;b"), UsageError);
  EXPECT_THROW(ParseFocusSequence("a;"), UsageError);
  EXPECT_THROW(ParseFocusSequence("a;(b"), UsageError);
}

TEST_F(FrameFilters, MatcherUsesNameFileAndMappingButNotTheSystemName) {
  FrameMatcher by_file(Re("hash\\.c$"));
  EXPECT_TRUE(by_file.Function(profile_.defs, 5));
  EXPECT_FALSE(by_file.Function(profile_.defs, 4));
  FrameMatcher by_mapping(Re("libc"));
  EXPECT_TRUE(by_mapping.Mapping(profile_.defs, 2));
  EXPECT_FALSE(by_mapping.Mapping(profile_.defs, 0));
  EXPECT_TRUE(by_mapping.Frame(profile_.defs, FrameRef{5, 0}));
  FrameMatcher mangled(Re("_ZN9Tokenizer"));
  EXPECT_FALSE(mangled.Function(profile_.defs, 4));
}

TEST_F(FrameFilters, FocusNeedsAMatchingLocationAndIgnoreRefusesOne) {
  FocusIgnore focus(Re("^parse$"), nullptr);
  EXPECT_EQ(Apply(&focus, 1), "main serve parse Tokenizer::next checksum");  // inlined line
  EXPECT_EQ(Apply(&focus, 2), "!");
  EXPECT_EQ(Apply(&focus, 4), "!");  // no frame, no match
  FocusIgnore ignore(nullptr, Re("libc"));
  EXPECT_EQ(Apply(&ignore, 2), "!");  // by the mapping of a location without lines
  EXPECT_EQ(Apply(&ignore, 1), "main serve parse Tokenizer::next checksum");
  EXPECT_EQ(Apply(&ignore, 4), "");  // kept: pprof would drop it (documented difference)
  FocusIgnore both(Re("serve"), Re("checksum"));
  EXPECT_EQ(Apply(&both, 3), "main serve parse Tokenizer::next serve parse Tokenizer::next");
  EXPECT_EQ(Apply(&both, 1), "!");
}

TEST_F(FrameFilters, HideRemovesMatchingLinesAndShowKeepsOnlyThem) {
  HideShowFrames hide(HideShowFrames::Mode::kHide, Re("Tokenizer"));
  EXPECT_EQ(Apply(&hide, 1), "main serve parse checksum");
  HideShowFrames hide_libc(HideShowFrames::Mode::kHide, Re("libc"));
  EXPECT_EQ(Apply(&hide_libc, 2), "main serve checksum");
  HideShowFrames hide_all(HideShowFrames::Mode::kHide, Re("."));
  EXPECT_EQ(Apply(&hide_all, 1), "!");
  EXPECT_EQ(Apply(&hide_all, 4), "");
  HideShowFrames show(HideShowFrames::Mode::kShow, Re("serve|main"));
  EXPECT_EQ(Apply(&show, 3), "main serve serve");
  HideShowFrames show_app(HideShowFrames::Mode::kShow, Re("/usr/bin/app"));
  EXPECT_EQ(Apply(&show_app, 1), "main serve parse Tokenizer::next checksum");
  // A location without lines never shows, even when its mapping matches (pprof keeps lines).
  HideShowFrames show_libc(HideShowFrames::Mode::kShow, Re("libc"));
  EXPECT_EQ(Apply(&show_libc, 2), "!");
}

TEST_F(FrameFilters, ShowFromKeepsFromTheRootMostMatchAndTrimsInlinedCallers) {
  ShowFrom serve(Re("^serve$"));
  EXPECT_EQ(Apply(&serve, 3), "serve parse Tokenizer::next serve parse Tokenizer::next");
  EXPECT_EQ(Apply(&serve, 4), "!");
  ShowFrom tokenizer(Re("Tokenizer"));
  // Both occurrences of location 3 lose parse, the function Tokenizer::next is inlined into.
  EXPECT_EQ(Apply(&tokenizer, 3), "Tokenizer::next serve Tokenizer::next");
  ShowFrom libc(Re("libc"));
  EXPECT_EQ(Apply(&libc, 2), "[libc]");
}

TEST_F(FrameFilters, PruneFromCutsBelowTheLeafMostMatch) {
  PruneFrom serve(Re("^serve$"));
  EXPECT_EQ(Apply(&serve, 3), "main serve parse Tokenizer::next serve");
  EXPECT_EQ(Apply(&serve, 4), "");
  // Matched without the argument list; inlined lines below the match go.
  PruneFrom parse(Re("^parse$"));
  EXPECT_EQ(Apply(&parse, 1), "main serve parse");
  PruneFrom tokenizer(Re("^Tokenizer::next$"));
  EXPECT_EQ(Apply(&tokenizer, 1), "main serve parse Tokenizer::next");
}

TEST_F(FrameFilters, DropFramesPrunesBelowTheFirstUserFrameFromTheRoot) {
  // Anchored, as RemoveUninteresting anchors the profile's expressions.
  DropFrames drop(Re("^(checksum|Tokenizer::next)$"), nullptr);
  // Tokenizer::next matches below parse's line: the location stays with parse only.
  EXPECT_EQ(Apply(&drop, 1), "main serve parse");
  EXPECT_EQ(Apply(&drop, 2), "main serve");
  // The first match from the root is where the cut is, whatever lies below.
  EXPECT_EQ(Apply(&drop, 5), "main serve");
  EXPECT_EQ(Apply(&drop, 3), "main serve parse");
  DropFrames drop_main(Re("^(main|serve)$"), nullptr);
  EXPECT_EQ(Apply(&drop_main, 2), "main serve checksum [libc]");  // nothing above: kept
  DropFrames keep(Re("^(checksum|Tokenizer::next)$"), Re("^(checksum)$"));
  EXPECT_EQ(Apply(&keep, 2), "main serve checksum [libc]");
}

TEST_F(FrameFilters, FocusSequenceNeedsConsecutiveFramesAndReRootsAtTheFirst) {
  FocusSequence serve_parse(ParseFocusSequence("^serve$;^parse$"));
  EXPECT_EQ(Apply(&serve_parse, 3), "serve parse Tokenizer::next serve parse Tokenizer::next");
  EXPECT_EQ(Apply(&serve_parse, 5), "serve parse Tokenizer::next checksum");  // root-most A
  EXPECT_EQ(Apply(&serve_parse, 2), "!");
  FocusSequence not_adjacent(ParseFocusSequence("^serve$;Tokenizer"));
  EXPECT_EQ(Apply(&not_adjacent, 1), "!");
  FocusSequence inlined(ParseFocusSequence("Tokenizer;^serve$;^parse$"));
  EXPECT_EQ(Apply(&inlined, 3), "Tokenizer::next serve parse Tokenizer::next");
  FocusSequence into_libc(ParseFocusSequence("checksum;libc"));
  EXPECT_EQ(Apply(&into_libc, 2), "checksum [libc]");
  FocusSequence too_long(ParseFocusSequence("a;b;c;d;e;f;g;h"));
  EXPECT_EQ(Apply(&too_long, 1), "!");
}

}  // namespace
}  // namespace frame_filters_test
}  // namespace proftools
