// common/base/proto_wire: fields of every wire type, packed and unpacked repeated varints, and
// every malformation located at its byte.
#include "common/base/proto_wire.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace proftools {
namespace proto_wire_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(ProtoWire, ReadsEveryWireTypeWithOffsets) {
  // field 1 varint 150; field 2 bytes "hi"; field 3 fixed64 1.5; field 4 fixed32 7;
  // field 5 a message holding field 1 = 3.
  const std::string data(
      "\x08\x96\x01"
      "\x12\x02hi"
      "\x19\x00\x00\x00\x00\x00\x00\xf8\x3f"
      "\x25\x07\x00\x00\x00"
      "\x2a\x02\x08\x03",
      25);
  ProtoReader reader(data, 100);
  ProtoField f;
  ASSERT_TRUE(reader.Next(&f));
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(f.value, 150u);
  EXPECT_EQ(f.offset, 100u);
  ASSERT_TRUE(reader.Next(&f));
  EXPECT_EQ(f.type, WireType::kBytes);
  EXPECT_EQ(f.bytes, "hi");
  EXPECT_EQ(f.content_offset, 105u);
  ASSERT_TRUE(reader.Next(&f));
  EXPECT_EQ(f.type, WireType::kFixed64);
  EXPECT_EQ(f.Double(), 1.5);
  ASSERT_TRUE(reader.Next(&f));
  EXPECT_EQ(f.type, WireType::kFixed32);
  EXPECT_EQ(f.value, 7u);
  ASSERT_TRUE(reader.Next(&f));
  ProtoReader inner(f);
  ProtoField g;
  ASSERT_TRUE(inner.Next(&g));
  EXPECT_EQ(g.value, 3u);
  EXPECT_EQ(g.offset, 123u);  // the outer input's offset, through the message
  EXPECT_FALSE(inner.Next(&g));
  EXPECT_FALSE(reader.Next(&f));
}

TEST(ProtoWire, VarintsOfEveryLengthWhereverTheyEnd) {
  // Every length from 1 to 10 bytes (the value with all its bits set, and one with only its top
  // bit), followed by 0 to 9 bytes: read by the word at a time and byte at a time paths alike.
  for (int bits = 1; bits <= 64; ++bits) {
    const uint64_t all = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (const uint64_t value : {all, uint64_t{1} << (bits - 1)}) {
      std::string encoded;
      for (uint64_t v = value;; v >>= 7) {
        encoded += static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        if (v < 0x80) break;
      }
      for (size_t after = 0; after < 10; ++after) {
        const std::string data = "\x01" + encoded + std::string(after, '\xff');
        size_t i = 1;
        EXPECT_EQ(ProtoReader::ReadVarint(data, &i, 0), value) << bits << " bits, " << after;
        EXPECT_EQ(i, 1 + encoded.size()) << bits << " bits, " << after;
      }
    }
  }
}

TEST(ProtoWire, RepeatedVarintsPackedOrNot) {
  std::vector<uint64_t> values;
  ProtoField unpacked;
  unpacked.type = WireType::kVarint;
  unpacked.value = 9;
  ProtoReader::ForEachVarint(unpacked, [&](uint64_t v) { values.push_back(v); });
  ProtoField packed;
  packed.type = WireType::kBytes;
  packed.bytes = std::string_view("\x01\xac\x02", 3);
  ProtoReader::ForEachVarint(packed, [&](uint64_t v) { values.push_back(v); });
  EXPECT_EQ(values, (std::vector<uint64_t>{9, 1, 300}));
}

// Every malformed message throws at the byte where it goes wrong.
TEST(ProtoWire, MalformedMessagesAreLocated) {
  const auto error_at = [](const std::string& data) -> uint64_t {
    ProtoReader reader(data, 10);
    ProtoField f;
    try {
      while (reader.Next(&f)) {
      }
    } catch (const ProtoWireError& e) {
      return e.offset();
    }
    return 0;
  };
  EXPECT_EQ(error_at(std::string("\x08") + std::string(10, '\xff') + "\x01"), 20u);  // > 64 bits
  EXPECT_EQ(error_at("\x08\x80"), 12u);  // a varint cut by the end
  EXPECT_EQ(error_at("\x08\x01\x12\x05"
                     "ab"),
            12u);                                        // a length past the end: the field's tag
  EXPECT_EQ(error_at(std::string("\x00\x01", 2)), 10u);  // field number 0
  EXPECT_EQ(error_at("\x0b"), 10u);                      // a group
  EXPECT_EQ(error_at("\x09\x01\x02"), 10u);              // fixed64 cut short
  EXPECT_EQ(error_at(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11)), 0u);
}

}  // namespace
}  // namespace proto_wire_test
}  // namespace proftools
