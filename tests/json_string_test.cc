// JSON string literals (common/base/json_string.h), the one escaping rule of the JSON writers.
#include "common/base/json_string.h"

#include <gtest/gtest.h>

namespace proftools {
namespace json_string_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(JsonString, EscapesWhatJsonRequires) {
  EXPECT_EQ(JsonString("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(JsonString(std::string("\n\t\x01\x7f", 4)), R"("\u000a\u0009\u0001\u007f")");
  EXPECT_EQ(JsonString(""), "\"\"");
}

TEST(JsonString, KeepsUtf8AndShowsOtherBytes) {
  EXPECT_EQ(JsonString("caf\xc3\xa9 \xe2\x86\x92"), "\"caf\xc3\xa9 \xe2\x86\x92\"");
  // A lone continuation byte and a cut sequence cannot be carried: shown as \xHH text.
  EXPECT_EQ(JsonString("a\x80z\xc3"), R"("a\\x80z\\xc3")");
}

TEST(JsonString, HtmlSafeForScripts) {
  EXPECT_EQ(JsonString("</script>&"), R"("</script>&")");
  EXPECT_EQ(JsonString("</script>&", true), R"("\u003c/script\u003e\u0026")");
}

}  // namespace
}  // namespace json_string_test
}  // namespace proftools
