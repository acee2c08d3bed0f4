// The hand decoders of pprof_messages against libprotobuf's generated parser: on valid
// messages, on the same messages mutated (bytes flipped, cut, unknown fields of every wire type
// inserted) and on random bytes, both accept the same inputs and read the same fields.
#include "common/pprof/pprof_messages.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "formats/profile.pb.h"

namespace proftools {
namespace pprof_messages_test {  // a namespace of its own: the tests build as one unit
namespace {

namespace pb = perftools::profiles;

// A field of a random wire type and number (1-20, so known numbers with wrong types come too).
std::string RandomField(std::mt19937_64& random) {
  std::string field;
  const auto varint = [&](uint64_t v) {
    while (v >= 0x80) {
      field.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    field.push_back(static_cast<char>(v));
  };
  const uint32_t number = 1 + random() % 20;
  const uint32_t wire = random() % 6;  // 3 and 4 start and end a group
  varint(number << 3 | wire);
  switch (wire) {
    case 0:
      varint(random() >> (random() % 64));
      break;
    case 1:
      field.append(8, static_cast<char>(random()));
      break;
    case 2: {
      const size_t n = random() % 6;
      varint(n);
      field.append(n, static_cast<char>(random() % 3));
      break;
    }
    case 3:
      if (random() % 2) varint(number << 3 | 4);  // a matched, empty group
      break;
    case 5:
      field.append(4, static_cast<char>(random()));
      break;
    default:
      break;
  }
  return field;
}

std::string Mutate(std::string bytes, std::mt19937_64& random) {
  switch (random() % 5) {
    case 0:
      if (!bytes.empty()) bytes[random() % bytes.size()] ^= static_cast<char>(1 << random() % 8);
      break;
    case 1:
      bytes.resize(random() % (bytes.size() + 1));
      break;
    case 2:
      bytes.insert(random() % (bytes.size() + 1), RandomField(random));
      break;
    case 3:
      bytes += RandomField(random) + RandomField(random);
      break;
    default:
      break;  // unchanged
  }
  return bytes;
}

std::string RandomBytes(std::mt19937_64& random) {
  std::string bytes(random() % 24, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  return bytes;
}

std::string Hex(const std::string& bytes) {
  std::string hex;
  for (unsigned char c : bytes) {
    const char* digits = "0123456789abcdef";
    hex += digits[c >> 4];
    hex += digits[c & 15];
    hex += ' ';
  }
  return hex;
}

int64_t RandomInt(std::mt19937_64& random) {
  return static_cast<int64_t>(random() >> (random() % 64)) * (random() % 4 == 0 ? -1 : 1);
}

// Over 200,000 messages made by `make` (then mutated, or replaced by random bytes), `decode`
// (ours) accepts what libprotobuf's parser of `Message` accepts, and `same(ours, theirs)` holds
// for what both accept. Both kinds must be seen many times: the test compares, it does not only
// refuse.
template <typename Message, typename Ours, typename Make, typename Decode, typename Same>
void ExpectDecodedAsLibprotobufDecodes(uint64_t seed, Make make, Decode decode, Same same) {
  std::mt19937_64 random(seed);
  size_t accepted = 0;
  const int count = 200000;
  for (int i = 0; i < count; ++i) {
    const Message made = make(random);
    const std::string bytes =
        i % 10 == 9 ? RandomBytes(random) : Mutate(made.SerializeAsString(), random);
    Message theirs;
    const bool they_accept = theirs.ParseFromString(bytes);
    Ours ours;
    ASSERT_EQ(decode(bytes, &ours), they_accept) << i << ": " << Hex(bytes);
    if (!they_accept) continue;
    ++accepted;
    ASSERT_TRUE(same(ours, theirs)) << i << ": " << Hex(bytes);
  }
  EXPECT_GT(accepted, count / 4u);
  EXPECT_LT(accepted, count * 19 / 20u);
}

TEST(PprofMessages, LocationsDecodeAsLibprotobufDecodesThem) {
  ExpectDecodedAsLibprotobufDecodes<pb::Location, PbLocation>(
      1,
      [](std::mt19937_64& random) {
        pb::Location made;
        made.set_id(random() % 1000);
        if (random() % 2) made.set_mapping_id(random() % 10);
        if (random() % 2) made.set_address(random());
        if (random() % 4 == 0) made.set_is_folded(true);
        for (int n = static_cast<int>(random() % 4); n > 0; --n) {
          pb::Line* line = made.add_line();
          line->set_function_id(random() % 100);
          line->set_line(RandomInt(random));
          if (random() % 3 == 0) line->set_column(RandomInt(random));
        }
        return made;
      },
      [](const std::string& bytes, PbLocation* ours) {
        ours->lines.push_back({7, 7, 7});  // as if left from a previous call: must go
        return DecodeLocation(bytes, ours);
      },
      [](const PbLocation& ours, const pb::Location& theirs) {
        if (ours.id != theirs.id() || ours.mapping_id != theirs.mapping_id() ||
            ours.address != theirs.address() || ours.is_folded != theirs.is_folded() ||
            ours.lines.size() != static_cast<size_t>(theirs.line_size())) {
          return false;
        }
        for (size_t k = 0; k < ours.lines.size(); ++k) {
          const pb::Line& line = theirs.line(static_cast<int>(k));
          if (ours.lines[k].function_id != line.function_id() ||
              ours.lines[k].line != line.line() || ours.lines[k].column != line.column()) {
            return false;
          }
        }
        return true;
      });
}

TEST(PprofMessages, FunctionsDecodeAsLibprotobufDecodesThem) {
  ExpectDecodedAsLibprotobufDecodes<pb::Function, PbFunction>(
      2,
      [](std::mt19937_64& random) {
        pb::Function made;
        made.set_id(random() % 1000);
        made.set_name(RandomInt(random));
        if (random() % 2) made.set_system_name(RandomInt(random));
        if (random() % 2) made.set_filename(RandomInt(random));
        if (random() % 2) made.set_start_line(RandomInt(random));
        return made;
      },
      DecodeFunction,
      [](const PbFunction& ours, const pb::Function& theirs) {
        return ours.id == theirs.id() && ours.name == theirs.name() &&
               ours.system_name == theirs.system_name() && ours.filename == theirs.filename() &&
               ours.start_line == theirs.start_line();
      });
}

TEST(PprofMessages, LabelsDecodeAsLibprotobufDecodesThem) {
  ExpectDecodedAsLibprotobufDecodes<pb::Label, PbLabel>(
      3,
      [](std::mt19937_64& random) {
        pb::Label made;
        made.set_key(RandomInt(random));
        if (random() % 2) made.set_str(RandomInt(random));
        if (random() % 2) made.set_num(random() % 3 == 0 ? 0 : RandomInt(random));
        if (random() % 2) made.set_num_unit(RandomInt(random));
        return made;
      },
      DecodeLabel,
      [](const PbLabel& ours, const pb::Label& theirs) {
        return ours.key == theirs.key() && ours.str == theirs.str() &&
               ours.has_num == theirs.has_num() && ours.num == theirs.num() &&
               ours.num_unit == theirs.num_unit();
      });
}

}  // namespace
}  // namespace pprof_messages_test
}  // namespace proftools
