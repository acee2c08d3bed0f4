// Ruby's Marshal (common/stackprof/ruby_marshal.h): every encoding of integers, bignums, floats,
// strings with their encoding, symbols and their links, links to objects, hashes with a
// default, structs, from bytes Ruby 3.1 wrote; and the hostile inputs (nesting bombs, sizes
// that lie, links forward). Real stackprof recordings are golden/stackprof's.
#include <gtest/gtest.h>

#include <string>

#include "common/base/diagnostics.h"
#include "common/stackprof/ruby_marshal.h"

namespace proftools {
namespace stackprof_test {  // a namespace of its own: the tests build as one unit
namespace {

using Kind = RubyValue::Kind;

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s += static_cast<char>(b);
  return s;
}

// ruby -e 'S = Struct.new(:x); s = "ab"; print Marshal.dump([0, 1, -1, 122, -123, 255, -256,
//   1000, -1000, 2**30, 2**40, -(2**40), 2**70, 1.5, s, s, :k, :k, nil, true, false, {k: 2},
//   Hash.new(7).merge!(z: 1), S.new(3), "end"])'   (Ruby 3.1)
const std::string kRubyWrote = Bytes(
    {0x04, 0x08, 0x5b, 0x1e, 0x69, 0x00, 0x69, 0x06, 0x69, 0xfa, 0x69, 0x7f, 0x69, 0x80, 0x69, 0x01,
     0xff, 0x69, 0xff, 0x00, 0x69, 0x02, 0xe8, 0x03, 0x69, 0xfe, 0x18, 0xfc, 0x6c, 0x2b, 0x07, 0x00,
     0x00, 0x00, 0x40, 0x6c, 0x2b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x6c, 0x2d, 0x08, 0x00,
     0x00, 0x00, 0x00, 0x00, 0x01, 0x6c, 0x2b, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
     0x40, 0x00, 0x66, 0x08, 0x31, 0x2e, 0x35, 0x49, 0x22, 0x07, 0x61, 0x62, 0x06, 0x3a, 0x06, 0x45,
     0x54, 0x40, 0x0b, 0x3a, 0x06, 0x6b, 0x3b, 0x06, 0x30, 0x54, 0x46, 0x7b, 0x06, 0x3b, 0x06, 0x69,
     0x07, 0x7d, 0x06, 0x3a, 0x06, 0x7a, 0x69, 0x06, 0x69, 0x0c, 0x53, 0x3a, 0x06, 0x53, 0x06, 0x3a,
     0x06, 0x78, 0x69, 0x08, 0x49, 0x22, 0x08, 0x65, 0x6e, 0x64, 0x06, 0x3b, 0x00, 0x54});

TEST(RubyMarshal, ReadsWhatRubyWrites) {
  const RubyMarshal data(kRubyWrote, "x.dump");
  const RubyValue& array = data.root();
  ASSERT_EQ(array.kind, Kind::kArray);
  ASSERT_EQ(array.count, 25u);
  const auto at = [&](uint32_t i) -> const RubyValue& { return data.element(array, i); };
  const int64_t integers[] = {0,
                              1,
                              -1,
                              122,
                              -123,
                              255,
                              -256,
                              1000,
                              -1000,
                              int64_t{1} << 30,
                              int64_t{1} << 40,
                              -(int64_t{1} << 40)};
  for (uint32_t i = 0; i < 12; ++i) {
    EXPECT_EQ(at(i).kind, Kind::kInteger) << i;
    EXPECT_FALSE(at(i).big) << i;
    EXPECT_EQ(at(i).integer, integers[i]) << i;
  }
  EXPECT_EQ(at(12).kind, Kind::kInteger);
  EXPECT_TRUE(at(12).big);  // 2**70
  EXPECT_EQ(at(13).kind, Kind::kFloat);
  EXPECT_EQ(at(13).real, 1.5);
  EXPECT_EQ(at(14).kind, Kind::kString);
  EXPECT_EQ(data.Text(at(14)), "ab");
  EXPECT_EQ(data.Text(at(15)), "ab");  // a link to the same string
  EXPECT_EQ(at(16).kind, Kind::kSymbol);
  EXPECT_EQ(data.Text(at(16)), "k");
  EXPECT_EQ(data.Text(at(17)), "k");  // a link to the symbol
  EXPECT_EQ(at(18).kind, Kind::kNil);
  EXPECT_EQ(at(19).kind, Kind::kBool);
  EXPECT_EQ(at(19).integer, 1);
  EXPECT_EQ(at(20).integer, 0);
  const RubyValue& hash = at(21);
  ASSERT_EQ(hash.kind, Kind::kHash);
  ASSERT_EQ(hash.count, 2u);
  EXPECT_EQ(data.Text(data.element(hash, 0)), "k");
  EXPECT_EQ(data.element(hash, 1).integer, 2);
  const RubyValue& with_default = at(22);
  ASSERT_EQ(with_default.kind, Kind::kHash);
  EXPECT_EQ(data.Text(data.element(with_default, 0)), "z");
  EXPECT_EQ(at(23).kind, Kind::kOther);  // the struct
  EXPECT_EQ(data.Text(at(24)), "end");   // after all of them: every length was right
}

std::string Error(const std::string& bytes) {
  try {
    RubyMarshal data(bytes, "x.dump");
  } catch (const ProfError& error) {
    return error.what();
  }
  return "";
}

TEST(RubyMarshal, RefusesHostileInput) {
  EXPECT_NE(Error("\x04\x07"
                  "0")
                .find("not Ruby's Marshal 4.8"),
            std::string::npos);
  // An array claiming more elements than bytes are left: refused before anything is allocated.
  EXPECT_NE(Error(Bytes({4, 8, '[', 0x04, 0xff, 0xff, 0xff, 0x7f, '0'}))
                .find("runs past the end of the data"),
            std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, '[', 0xfa})).find("of -1 elements"), std::string::npos);
  // Arrays nested past the bound.
  std::string deep = "\x04\x08";
  for (int i = 0; i < 1000; ++i) deep += "[\x06";
  deep += "0";
  EXPECT_NE(Error(deep).find("nested past 64 deep"), std::string::npos);
  // A link to an object not read, to the array that holds it, a symbol link past the table.
  EXPECT_NE(Error(Bytes({4, 8, '[', 6, '@', 7})).find("a link to object 2, of 1 read"),
            std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, '[', 6, '@', 0})).find("which contains it"), std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, ';', 0})).find("a link to symbol 0, of 0 read"), std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, 'f', 8, 'x', 'y', 'z'})).find("a float written \"xyz\""),
            std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, 'i'})).find("byte 3: the data ends inside an object"),
            std::string::npos);
  EXPECT_NE(Error(Bytes({4, 8, '0', '0'})).find("byte 3: 1 byte after the object"),
            std::string::npos);
}

}  // namespace
}  // namespace stackprof_test
}  // namespace proftools
