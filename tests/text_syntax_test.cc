#include "common/base/text_syntax.h"
#include "common/model/label_syntax.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace proftools {
namespace text_syntax_test {  // a namespace of its own: the tests build as one unit
namespace {

std::vector<std::string> Tokens(const std::string& line) {
  std::vector<std::string_view> views;
  std::string error;
  EXPECT_TRUE(Tokenize(line, &views, &error)) << error;
  return std::vector<std::string>(views.begin(), views.end());
}

std::string TokenizeError(const std::string& line) {
  std::vector<std::string_view> views;
  std::string error;
  EXPECT_FALSE(Tokenize(line, &views, &error)) << line;
  return error;
}

std::string Decode(const std::string& token) {
  std::string out, error;
  EXPECT_TRUE(DecodeString(token, &out, &error)) << token << ": " << error;
  return out;
}

std::string Encode(const std::string& value) {
  std::string out;
  AppendString(&out, value);
  return out;
}

TEST(Tokenize, SplitsOnRunsOfBlanksAndSkipsLeadingAndTrailing) {
  EXPECT_EQ(Tokens("  a \t b   c\t"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Tokenize, QuotedTokensKeepTheirBlanks) {
  EXPECT_EQ(Tokens(R"(function 1 "a b" "" x)"),
            (std::vector<std::string>{"function", "1", "\"a b\"", "\"\"", "x"}));
}

TEST(Tokenize, HashStartsACommentOnlyAtTokenStart) {
  EXPECT_EQ(Tokens("a b#c # the rest \"unclosed"), (std::vector<std::string>{"a", "b#c"}));
  EXPECT_TRUE(Tokens("# only a comment").empty());
  EXPECT_TRUE(Tokens("").empty());
}

TEST(Tokenize, LabelTokensMayJoinQuotedParts) {
  EXPECT_EQ(Tokens(R"(k="a b" "x y"=1:"u v")"),
            (std::vector<std::string>{"k=\"a b\"", "\"x y\"=1:\"u v\""}));
}

TEST(Tokenize, RejectsMalformedTokensWithTheColumn) {
  EXPECT_EQ(TokenizeError("a \"open"), "column 3: quoted string is not closed (missing \")");
  EXPECT_EQ(TokenizeError("a \"x\"y"), "column 6: a blank must follow the closing quote");
  EXPECT_EQ(TokenizeError("a b\\c"),
            "column 4: backslash outside quotes (quote the string and write \\\\)");
  EXPECT_EQ(TokenizeError("a \xc3\xa9"), "column 3: byte 0xc3 must be written inside quotes");
  EXPECT_EQ(TokenizeError("\"\\q\""),
            "column 2: invalid escape \\q (valid: \\\" \\\\ \\n \\t \\r \\xHH)");
  EXPECT_EQ(TokenizeError("\"\\x4\""), "column 2: \\x must be followed by two hex digits");
  EXPECT_EQ(TokenizeError("\"a\tb\""),
            "column 3: control byte 0x09 inside quotes must be escaped (\\x09)");
}

TEST(Strings, BareAndQuotedSpellingsAreEquivalent) {
  EXPECT_EQ(Decode("main"), "main");
  EXPECT_EQ(Decode("\"main\""), "main");
  EXPECT_EQ(Decode("\"\""), "");
  EXPECT_EQ(Decode("-"), "-");
  EXPECT_EQ(Decode(R"("a\"b\\c\n\t\r\x00\xff")"), std::string("a\"b\\c\n\t\r\0\xff", 10));
}

TEST(Strings, DecodeRejectsQuotesInsideBareTokensAndTextAfterQuotes) {
  std::string out, error;
  EXPECT_FALSE(DecodeString("ab\"c\"", &out, &error));
  EXPECT_FALSE(DecodeString("\"a\"=b", &out, &error));
  EXPECT_EQ(error, "unexpected text after the closing quote");
  EXPECT_FALSE(DecodeString("#x", &out, &error));
}

TEST(Strings, EncodeIsBareOnlyWhenAllowed) {
  EXPECT_EQ(Encode("std::vector<int>::push_back"), "std::vector<int>::push_back");
  EXPECT_EQ(Encode("a;b"), "a;b");
  EXPECT_EQ(Encode(""), "\"\"");
  EXPECT_EQ(Encode("a b"), "\"a b\"");
  EXPECT_EQ(Encode("#x"), "\"#x\"");
  EXPECT_EQ(Encode("x#"), "x#");
  EXPECT_EQ(Encode("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(Encode("a\\b"), "\"a\\\\b\"");
}

TEST(Strings, EncodeWritesValidUtf8RawAndEverythingElseEscaped) {
  EXPECT_EQ(Encode("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(Encode("\xe2\x98\x95"), "\"\xe2\x98\x95\"");
  EXPECT_EQ(Encode("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
  EXPECT_EQ(Encode("bad \xff\xfe"), "\"bad \\xff\\xfe\"");
  EXPECT_EQ(Encode("\xc0\xaf"), "\"\\xc0\\xaf\"");           // overlong '/'
  EXPECT_EQ(Encode("\xed\xa0\x80"), "\"\\xed\\xa0\\x80\"");  // UTF-16 surrogate
  EXPECT_EQ(Encode("\xe2\x98"), "\"\\xe2\\x98\"");           // truncated sequence
  EXPECT_EQ(Encode(std::string("\0\x01\x7f\n", 4)), "\"\\x00\\x01\\x7f\\n\"");
}

TEST(Strings, EveryByteStringRoundTrips) {
  std::mt19937 random(12345);
  for (int round = 0; round < 2000; ++round) {
    std::string value(random() % 12, '\0');
    for (char& c : value) c = static_cast<char>(random() % 256);
    const std::string encoded = Encode(value);
    // The encoding is a single token, and decodes to the same bytes.
    std::vector<std::string_view> tokens;
    std::string error;
    ASSERT_TRUE(Tokenize(encoded, &tokens, &error)) << error;
    ASSERT_EQ(tokens.size(), 1u) << encoded;
    EXPECT_EQ(Decode(encoded), value);
  }
}

Label DecodedLabel(const std::string& token) {
  Label label;
  std::string error;
  EXPECT_TRUE(DecodeLabel(token, &label, &error)) << token << ": " << error;
  return label;
}

std::string LabelError(const std::string& token) {
  Label label;
  std::string error;
  EXPECT_FALSE(DecodeLabel(token, &label, &error)) << token;
  return error;
}

std::string EncodedLabel(const Label& label) {
  std::string out;
  AppendLabel(&out, label);
  return out;
}

TEST(Labels, DecodeStringAndNumericForms) {
  EXPECT_EQ(DecodedLabel("thread=main"), Label::String("thread", "main"));
  EXPECT_EQ(DecodedLabel("comm=\"net io 2\""), Label::String("comm", "net io 2"));
  EXPECT_EQ(DecodedLabel("pid=4096"), Label::Number("pid", 4096));
  EXPECT_EQ(DecodedLabel("delta=-7"), Label::Number("delta", -7));
  EXPECT_EQ(DecodedLabel("alloc=4096:bytes"), Label::Number("alloc", 4096, "bytes"));
  EXPECT_EQ(DecodedLabel("n=1:\"my unit\""), Label::Number("n", 1, "my unit"));
  EXPECT_EQ(DecodedLabel("v=\"12\""), Label::String("v", "12"));
  EXPECT_EQ(DecodedLabel("v=12abc"), Label::String("v", "12abc"));
  EXPECT_EQ(DecodedLabel("v=a=b:c"), Label::String("v", "a=b:c"));
  EXPECT_EQ(DecodedLabel("\"a=b\"=x"), Label::String("a=b", "x"));
  EXPECT_EQ(DecodedLabel("\"\"=x"), Label::String("", "x"));  // empty key: a checker matter
  EXPECT_EQ(DecodedLabel("v=-"), Label::String("v", "-"));
}

TEST(Labels, RejectMalformedTokens) {
  EXPECT_EQ(LabelError("novalue"), "expected KEY=VALUE, found no '='");
  EXPECT_EQ(LabelError("=x"), "expected KEY=VALUE, the key is missing");
  EXPECT_EQ(LabelError("k="), "label 'k' has no value (write \"\" for an empty string)");
  EXPECT_EQ(LabelError("k=007"),
            "bad number '007' in label (a string that looks like a number must be quoted)");
  EXPECT_EQ(LabelError("k=12:"), "label unit after ':' is empty");
  EXPECT_EQ(LabelError("k=99999999999999999999"),
            "bad number '99999999999999999999' in label (a string that looks like a number "
            "must be quoted)");
  EXPECT_EQ(LabelError("\"k\"x=1"), "expected KEY=VALUE: '=' must follow the quoted key");
}

TEST(Labels, EncodeQuotesWhatWouldBeMisread) {
  EXPECT_EQ(EncodedLabel(Label::String("v", "12")), "v=\"12\"");
  EXPECT_EQ(EncodedLabel(Label::String("v", "-3:x")), "v=\"-3:x\"");
  EXPECT_EQ(EncodedLabel(Label::String("v", "12abc")), "v=12abc");
  EXPECT_EQ(EncodedLabel(Label::String("a=b", "")), "\"a=b\"=\"\"");
  EXPECT_EQ(EncodedLabel(Label::Number("n", -3, "unit x")), "n=-3:\"unit x\"");
  EXPECT_EQ(EncodedLabel(Label::Number("n", 0)), "n=0");
}

TEST(Labels, RandomLabelsRoundTrip) {
  std::mt19937 random(99);
  const std::string alphabet = "ab=:-0123 \"\\\n\xc3\xa9\xff";
  auto random_string = [&](size_t max) {
    std::string s(random() % max, ' ');
    for (char& c : s) c = alphabet[random() % alphabet.size()];
    return s;
  };
  for (int round = 0; round < 3000; ++round) {
    Label label;
    do label.key = random_string(6);
    while (label.key.empty());
    if (random() % 2) {
      label =
          Label::Number(label.key, static_cast<int64_t>(random()) - (1 << 30), random_string(4));
    } else {
      label = Label::String(label.key, random_string(6));
    }
    const std::string token = EncodedLabel(label);
    std::vector<std::string_view> tokens;
    std::string error;
    ASSERT_TRUE(Tokenize(token, &tokens, &error)) << token << ": " << error;
    ASSERT_EQ(tokens.size(), 1u) << token;
    EXPECT_EQ(DecodedLabel(token), label) << token;
  }
}

TEST(Numbers, IdsAndIntsHaveOneSpelling) {
  uint64_t id;
  int64_t value;
  EXPECT_TRUE(ParseId("1", &id) && id == 1);
  EXPECT_TRUE(ParseId("0", &id) && id == 0);  // syntactically fine; rule id-zero
  EXPECT_TRUE(ParseId("18446744073709551615", &id) && id == UINT64_MAX);
  EXPECT_FALSE(ParseId("18446744073709551616", &id));
  EXPECT_FALSE(ParseId("01", &id));
  EXPECT_FALSE(ParseId("+1", &id));
  EXPECT_FALSE(ParseId("", &id));
  EXPECT_TRUE(ParseInt("-9223372036854775808", &value) && value == INT64_MIN);
  EXPECT_TRUE(ParseInt("9223372036854775807", &value) && value == INT64_MAX);
  EXPECT_FALSE(ParseInt("9223372036854775808", &value));
  EXPECT_FALSE(ParseInt("-9223372036854775809", &value));
  EXPECT_FALSE(ParseInt("-0", &value));
  EXPECT_FALSE(ParseInt("1.5", &value));
  EXPECT_FALSE(ParseInt("-", &value));
  // 19 and 20 digits: checked for overflow past the 18th.
  EXPECT_TRUE(ParseInt("1700000000001035795", &value) && value == 1700000000001035795);
  EXPECT_FALSE(ParseInt("17000000000010357950", &value));
  EXPECT_FALSE(ParseId("99999999999999999999", &id));  // wraps around uint64_t
  EXPECT_FALSE(ParseId("36893488147419103231", &id));  // 2^65 - 1: wraps to under the limit
  EXPECT_FALSE(ParseId("1844674407370955161x", &id));
}

TEST(Numbers, HexAcceptsCaseAndLeadingZerosButNotOverflow) {
  uint64_t value;
  EXPECT_TRUE(ParseHex("0x0", &value) && value == 0);
  EXPECT_TRUE(ParseHex("0x00007F0000ABCDEF", &value) && value == 0x7f0000abcdefu);
  EXPECT_TRUE(ParseHex("0xffffffffffffffff", &value) && value == UINT64_MAX);
  EXPECT_TRUE(ParseHex("0x0000ffffffffffffffff", &value) && value == UINT64_MAX);
  EXPECT_FALSE(ParseHex("0x1ffffffffffffffff", &value));
  EXPECT_FALSE(ParseHex("0x", &value));
  EXPECT_FALSE(ParseHex("0X1", &value));
  EXPECT_FALSE(ParseHex("1234", &value));
  std::string out;
  AppendHex(&out, 0x4005d0);
  EXPECT_EQ(out, "0x4005d0");
}

TEST(Printable, QuotesForMessagesAndCutsLongValues) {
  EXPECT_EQ(Printable("host"), "'host'");
  // One way for every text (issue 24 item 13): single quotes, escapes only where needed.
  EXPECT_EQ(Printable("a b"), "'a b'");
  EXPECT_EQ(Printable("{\"a\":1}"), "'{\"a\":1}'");
  EXPECT_EQ(Printable("it's \\ \t\n\r"), "'it\\'s \\\\ \\t\\n\\r'");
  EXPECT_EQ(Printable(std::string("\x01\x7f\xff", 3)), "'\\x01\\x7f\\xff'");
  EXPECT_EQ(Printable("caf\xc3\xa9"), "'caf\xc3\xa9'");  // valid UTF-8 as it is
  EXPECT_EQ(Printable(std::string(100, 'x'), 10), "'xxxxxxxxxx'...");
}

}  // namespace
}  // namespace text_syntax_test
}  // namespace proftools
