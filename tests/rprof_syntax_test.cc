#include "common/rprof/rprof_syntax.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace proftools {
namespace rprof_syntax_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(RprofHeader, ReadsFlagsAndInterval) {
  RprofHeader header;
  ASSERT_TRUE(ParseRprofHeader("sample.interval=20000", &header));
  EXPECT_EQ(header.interval_us, 20000u);
  EXPECT_FALSE(header.memory || header.gc || header.lines);
  EXPECT_EQ(header.text, "sample.interval=20000");

  ASSERT_TRUE(ParseRprofHeader(
      "memory profiling: GC profiling: line profiling: sample.interval=1000", &header));
  EXPECT_EQ(header.interval_us, 1000u);
  EXPECT_TRUE(header.memory && header.gc && header.lines);

  ASSERT_TRUE(ParseRprofHeader("line profiling: sample.interval=2000", &header));
  EXPECT_TRUE(header.lines);
  EXPECT_FALSE(header.memory || header.gc);
}

TEST(RprofHeader, AcceptsUnknownPrefixes) {
  RprofHeader header;
  ASSERT_TRUE(ParseRprofHeader("event profiling: memory profiling: sample.interval=5", &header));
  EXPECT_TRUE(header.memory);
  EXPECT_EQ(header.interval_us, 5u);
}

TEST(RprofHeader, RejectsWhatIsNotAHeader) {
  RprofHeader header;
  EXPECT_FALSE(ParseRprofHeader("", &header));
  EXPECT_FALSE(ParseRprofHeader("sample.interval=", &header));
  EXPECT_FALSE(ParseRprofHeader("sample.interval=x", &header));
  EXPECT_FALSE(ParseRprofHeader("\"f\" sample.interval=5", &header));
  EXPECT_FALSE(ParseRprofHeader("name\" \"sample.interval=5\" ", &header));  // a continuation
  EXPECT_FALSE(ParseRprofHeader(":1:2:3:4:sample.interval=5", &header));
  EXPECT_FALSE(ParseRprofHeader("proftext 1.0", &header));
  // The interval must fit as int64 nanoseconds.
  EXPECT_FALSE(ParseRprofHeader("sample.interval=9223372036854776", &header));
  EXPECT_TRUE(ParseRprofHeader("sample.interval=9223372036854775", &header));
}

TEST(RprofFileLine, TakesThePathVerbatim) {
  uint64_t number = 0;
  std::string_view path;
  ASSERT_TRUE(ParseRprofFileLine("#File 12: /home/u/dir with space/odd names.R", &number, &path));
  EXPECT_EQ(number, 12u);
  EXPECT_EQ(path, "/home/u/dir with space/odd names.R");
  ASSERT_TRUE(ParseRprofFileLine("#File 1: ", &number, &path));
  EXPECT_EQ(path, "");
  ASSERT_TRUE(ParseRprofFileLine("#File 3: <text>", &number, &path));
  EXPECT_EQ(path, "<text>");
  EXPECT_FALSE(ParseRprofFileLine("#File 0: x", &number, &path));
  EXPECT_FALSE(ParseRprofFileLine("#File x: y", &number, &path));
  EXPECT_FALSE(ParseRprofFileLine("#File 1 y", &number, &path));
}

TEST(RprofLineKind, ClassifiesByFirstBytes) {
  EXPECT_EQ(ClassifyRprofLine("sample.interval=1000"), RprofLineKind::kHeader);
  EXPECT_EQ(ClassifyRprofLine("#File 1: a.R"), RprofLineKind::kFile);
  EXPECT_EQ(ClassifyRprofLine("\"f\" "), RprofLineKind::kSample);
  EXPECT_EQ(ClassifyRprofLine(":1:2:3:4:"), RprofLineKind::kSample);
  EXPECT_EQ(ClassifyRprofLine("1#2 \"f\" "), RprofLineKind::kSample);
  EXPECT_EQ(ClassifyRprofLine("name\" \"eval\" "), RprofLineKind::kOther);
  EXPECT_EQ(ClassifyRprofLine("#comment"), RprofLineKind::kOther);
  EXPECT_EQ(ClassifyRprofLine(""), RprofLineKind::kOther);
}

TEST(RprofMemoryPrefix, ReadsTheFourFields) {
  RprofMemory memory;
  size_t length = 0;
  ASSERT_EQ(ParseRprofMemoryPrefix(":251173:728544:26880280:138:\"f\" ", &memory, &length),
            RprofPrefix::kValid);
  EXPECT_EQ(memory.small_v, 251173u);
  EXPECT_EQ(memory.big_v, 728544u);
  EXPECT_EQ(memory.nodes, 26880280u);
  EXPECT_EQ(memory.dup_count, 138u);
  EXPECT_EQ(length, 28u);
  // A bare prefix: work at top level.
  ASSERT_EQ(ParseRprofMemoryPrefix(":1:2:3:4:", &memory, &length), RprofPrefix::kValid);
  EXPECT_EQ(length, 9u);
}

TEST(RprofMemoryPrefix, TellsMissingFromMalformed) {
  RprofMemory memory;
  size_t length = 0;
  EXPECT_EQ(ParseRprofMemoryPrefix("\"f\" ", &memory, &length), RprofPrefix::kNone);
  EXPECT_EQ(ParseRprofMemoryPrefix(":1:2:3:\"f\" ", &memory, &length), RprofPrefix::kMalformed);
  EXPECT_EQ(ParseRprofMemoryPrefix(":1:2:x:4:", &memory, &length), RprofPrefix::kMalformed);
  EXPECT_EQ(ParseRprofMemoryPrefix(":1:2:3:4", &memory, &length), RprofPrefix::kMalformed);
  // Vector cells become bytes (x8): more than int64 can hold is malformed.
  EXPECT_EQ(ParseRprofMemoryPrefix(":1152921504606846976:0:0:0:", &memory, &length),
            RprofPrefix::kMalformed);
  EXPECT_EQ(ParseRprofMemoryPrefix(":1152921504606846975:0:0:0:", &memory, &length),
            RprofPrefix::kValid);
  EXPECT_EQ(ParseRprofMemoryPrefix(":99999999999999999999:0:0:0:", &memory, &length),
            RprofPrefix::kMalformed);
}

// The frames of `text` as "name" or "name@k#l", then "| trailing k#l" when there is one.
std::vector<std::string> Frames(std::string_view text, RprofStackText* parsed) {
  ParseRprofStack(text, parsed);
  std::vector<std::string> out;
  for (const RprofFrame& frame : parsed->frames) {
    std::string item(frame.name);
    if (frame.srcref.present()) {
      item += "@" + std::to_string(frame.srcref.file) + "#" + std::to_string(frame.srcref.line);
    }
    out.push_back(item);
  }
  if (parsed->trailing.present()) {
    out.push_back("| " + std::to_string(parsed->trailing.file) + "#" +
                  std::to_string(parsed->trailing.line));
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(RprofStack, FramesInnermostFirstWithTheSrcrefBeforeThem) {
  RprofStackText parsed;
  EXPECT_EQ(Frames("\"sum\" 1#39 \"ctr$inc\" 1#51 \"run\" ", &parsed),
            (Strings{"sum", "ctr$inc@1#39", "run@1#51"}));
  EXPECT_EQ(parsed.end, RprofLineEnd::kComplete);
  // A leading srcref belongs to the innermost frame.
  EXPECT_EQ(Frames("1#39 \"sum\" 1#39 \"ctr$inc\" ", &parsed),
            (Strings{"sum@1#39", "ctr$inc@1#39"}));
  // The GC marker comes before the leading srcref.
  EXPECT_EQ(Frames("\"<GC>\" 2#68 \"c\" 1#85 \"run\" ", &parsed),
            (Strings{"<GC>", "c@2#68", "run@1#85"}));
}

TEST(RprofStack, TrailingSrcrefBelongsToNoFrame) {
  RprofStackText parsed;
  EXPECT_EQ(Frames("1#3 \"f\" 1#3 ", &parsed), (Strings{"f@1#3", "| 1#3"}));
  EXPECT_EQ(parsed.end, RprofLineEnd::kComplete);
  EXPECT_EQ(Frames("4#7 ", &parsed), (Strings{"| 4#7"}));
  EXPECT_EQ(Frames("", &parsed), Strings{});
  EXPECT_EQ(parsed.end, RprofLineEnd::kComplete);
}

TEST(RprofStack, NamesAreTakenExactlyAsWritten) {
  RprofStackText parsed;
  EXPECT_EQ(Frames("\"fns[[\"sq\"]]\" 1#52 \"run\" ", &parsed),
            (Strings{"fns[[\"sq\"]]", "run@1#52"}));
  EXPECT_EQ(Frames("\"a\"b\" \"my fun\" \"1#2\" \"f\xc3\xbcn\" \"<Anonymous>\" ", &parsed),
            (Strings{"a\"b", "my fun", "1#2", "f\xc3\xbcn", "<Anonymous>"}));
  EXPECT_FALSE(parsed.quote_space_in_name);
  EXPECT_EQ(Frames("\"a\"\" \"b\" ", &parsed), (Strings{"a\"", "b"}));  // a name ending in "
  const std::string long_name(498, 'L');
  EXPECT_EQ(Frames("\"" + long_name + "\" ", &parsed), (Strings{long_name}));
}

TEST(RprofStack, QuoteSpaceInsideANameIsOneNameUnlessATokenFollows) {
  RprofStackText parsed;
  // `" ` followed by something that cannot start a token: part of the name.
  EXPECT_EQ(Frames("\"a\" b\" \"run\" ", &parsed), (Strings{"a\" b", "run"}));
  EXPECT_TRUE(parsed.quote_space_in_name);
  EXPECT_EQ(Frames("\"a\" 1b\" ", &parsed), (Strings{"a\" 1b"}));
  EXPECT_TRUE(parsed.quote_space_in_name);
  // `x" "y` cannot be told from two frames: R's output is identical.
  EXPECT_EQ(Frames("1#14 \"x\" \"y\" 1#48 \"run\" ", &parsed),
            (Strings{"x@1#14", "y", "run@1#48"}));
  EXPECT_FALSE(parsed.quote_space_in_name);
}

TEST(RprofStack, EndingsOfCutAndBrokenLines) {
  RprofStackText parsed;
  // Ends inside a name: cut short, or a name that goes on after a newline.
  EXPECT_EQ(Frames("\"a\" 1#34 \"nl", &parsed), (Strings{"a", "| 1#34"}));
  EXPECT_EQ(parsed.end, RprofLineEnd::kOpenQuote);
  // A name closed right at the end: kept, but the line lacks its final space.
  EXPECT_EQ(Frames("\"a\" \"eval\"", &parsed), (Strings{"a", "eval"}));
  EXPECT_EQ(parsed.end, RprofLineEnd::kCut);
  // A srcref cut anywhere is dropped, and the name before it is complete.
  for (const char* text : {"\"a\" 5#", "\"a\" 5#41", "\"a\" 5"}) {
    EXPECT_EQ(Frames(text, &parsed), (Strings{"a"})) << text;
    EXPECT_EQ(parsed.end, RprofLineEnd::kCut) << text;
    EXPECT_FALSE(parsed.quote_space_in_name) << text;
  }
  // Text that is no token: frames before it are kept.
  EXPECT_EQ(Frames("\"a\" 1#2 xyz \"b\" ", &parsed), (Strings{"a", "| 1#2"}));
  EXPECT_EQ(parsed.end, RprofLineEnd::kGarbage);
  EXPECT_EQ(parsed.garbage_offset, 8u);
  EXPECT_EQ(Frames("1#2 3#4 \"f\" ", &parsed), (Strings{"| 1#2"}));  // two srcrefs in a row
  EXPECT_EQ(parsed.end, RprofLineEnd::kGarbage);
  EXPECT_EQ(Frames("\"a\"  \"b\" ", &parsed), (Strings{"a\"  \"b"}));  // double space: odd name
  EXPECT_EQ(Frames("\"\" \"f\" ", &parsed), (Strings{"", "f"}));
  EXPECT_TRUE(parsed.empty_name);
}

TEST(RprofStack, SpansCoverSrcrefAndName) {
  RprofStackText parsed;
  ParseRprofStack("\"a\" 12#7 \"b c\" ", &parsed);
  ASSERT_EQ(parsed.frames.size(), 2u);
  EXPECT_EQ(parsed.frames[0].span, "\"a\"");
  EXPECT_EQ(parsed.frames[1].span, "12#7 \"b c\"");
}

// RprofStillInsideName looks at the appended text only; it must agree with parsing the whole
// joined text, for every text that ends inside a name and every continuation.
TEST(RprofStack, StillInsideNameAgreesWithParsingTheJoinedText) {
  const char kAlphabet[] = {'"', ' ', 'a', '1', '#', '"', ' '};
  uint64_t seed = 12345;
  auto random_text = [&](size_t max_length) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    std::string text;
    for (size_t n = (seed >> 33) % (max_length + 1); n > 0; --n) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      text += kAlphabet[(seed >> 33) % sizeof kAlphabet];
    }
    return text;
  };
  RprofStackText parsed;
  int open_texts = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string before = random_text(8);
    ParseRprofStack(before, &parsed);
    if (parsed.end != RprofLineEnd::kOpenQuote) continue;
    ++open_texts;
    for (int j = 0; j < 8; ++j) {
      const std::string more = random_text(8);
      ParseRprofStack(before + "\n" + more, &parsed);
      EXPECT_EQ(RprofStillInsideName(more), parsed.end == RprofLineEnd::kOpenQuote)
          << "[" << before << "] + [" << more << "]";
    }
  }
  EXPECT_GT(open_texts, 1000);  // the property was tested on many texts
}

}  // namespace
}  // namespace rprof_syntax_test
}  // namespace proftools
