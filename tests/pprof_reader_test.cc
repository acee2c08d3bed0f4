// pprof -> prof text: every field of profile.proto lands in the text, carried records come
// back, and malformed input is refused with a message naming the problem.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <random>

#include "common/io/gzip_sink.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/pprof/pprof_conventions.h"
#include "common/pprof/pprof_reader.h"
#include "tests/pprof_test_util.h"
#include "tests/test_util.h"

namespace proftools {
namespace pprof_reader_test {  // a namespace of its own: the tests build as one unit
namespace {

namespace pb = perftools::profiles;

// A profile with every field of profile.proto set to a value that is not its default.
pb::Profile EveryField() {
  pb::Profile p;
  const char* strings[] = {"",     "samples",   "count",       "cpu",    "nanoseconds", "/bin/x",
                           "b1d",  "leaf",      "_Z4leafv",    "x.c",    "main",        "drop.*",
                           "keep", "a comment", "https://doc", "thread", "io",          "bytes"};
  for (const char* s : strings) p.add_string_table(s);
  auto* t1 = p.add_sample_type();
  t1->set_type(1), t1->set_unit(2);
  auto* t2 = p.add_sample_type();
  t2->set_type(3), t2->set_unit(4);
  p.set_default_sample_type(1);
  p.mutable_period_type()->set_type(3);
  p.mutable_period_type()->set_unit(4);
  p.set_period(10000000);
  p.set_time_nanos(1700000000000000000);
  p.set_duration_nanos(1000000000);
  p.set_drop_frames(11);
  p.set_keep_frames(12);
  p.add_comment(13);
  p.set_doc_url(14);
  auto* m = p.add_mapping();
  m->set_id(7), m->set_memory_start(0x1000), m->set_memory_limit(0x9000);
  m->set_file_offset(0x200), m->set_filename(5), m->set_build_id(6);
  m->set_has_functions(true), m->set_has_filenames(true);
  m->set_has_line_numbers(true), m->set_has_inline_frames(true);
  auto* f1 = p.add_function();
  f1->set_id(3), f1->set_name(7), f1->set_system_name(8), f1->set_filename(9);
  f1->set_start_line(5);
  auto* f2 = p.add_function();
  f2->set_id(4), f2->set_name(10), f2->set_system_name(10), f2->set_filename(9);
  auto* l = p.add_location();
  l->set_id(9), l->set_mapping_id(7), l->set_address(0x1234), l->set_is_folded(true);
  auto* line1 = l->add_line();
  line1->set_function_id(3), line1->set_line(7), line1->set_column(3);
  auto* line2 = l->add_line();
  line2->set_function_id(4), line2->set_line(12);
  auto* s = p.add_sample();
  s->add_location_id(9);
  s->add_value(2), s->add_value(-20);
  auto* sl = s->add_label();
  sl->set_key(15), sl->set_str(16);
  auto* nl = s->add_label();
  nl->set_key(17), nl->set_num(4096), nl->set_num_unit(17);
  return p;
}

TEST(PprofReader, EveryFieldReachesTheText) {
  const std::string text = testing::PprofToText(EveryField().SerializeAsString());
  EXPECT_EQ(testing::Body(text),
            "comment \"a comment\"\n"
            "time 1700000000000000000\n"
            "duration 1000000000\n"
            "period cpu nanoseconds 10000000\n"
            "doc_url https://doc\n"
            "drop_frames drop.*\n"
            "keep_frames keep\n"
            "source 1 pprof in.pb -\n"
            "type samples count\n"
            "type cpu nanoseconds\n"
            "default_type samples\n"
            "mapping 1 0x1000 0x9000 0x200 /bin/x b1d FN,FL,LN,IN\n"
            "function 1 leaf _Z4leafv x.c 5\n"
            "function 2 main main x.c 0\n"
            "location 1 1 0x1234 folded 1:7:3 2:12\n"
            "stack 1 1\n"
            "sample 1 1 - - 2 -20 thread=io bytes=4096:bytes\n");
}

TEST(PprofReader, WriterGivesEveryFieldBack) {
  const std::string data = EveryField().SerializeAsString();
  const std::string text = testing::PprofToText(data);
  pb::Profile back;
  ASSERT_TRUE(back.ParseFromString(testing::TextToPprof(text, true)));
  const pb::Profile original = EveryField();
  auto s = [](const pb::Profile& p, int64_t i) { return p.string_table(static_cast<int>(i)); };
  EXPECT_EQ(back.comment_size(), 1);
  EXPECT_EQ(s(back, back.comment(0)), "a comment");  // a sole pprof source needs no comment
  EXPECT_EQ(s(back, back.doc_url()), "https://doc");
  EXPECT_EQ(s(back, back.drop_frames()), "drop.*");
  EXPECT_EQ(s(back, back.keep_frames()), "keep");
  EXPECT_EQ(s(back, back.default_sample_type()), "samples");
  EXPECT_EQ(back.period(), original.period());
  EXPECT_EQ(back.time_nanos(), original.time_nanos());
  EXPECT_EQ(back.duration_nanos(), original.duration_nanos());
  ASSERT_EQ(back.mapping_size(), 1);
  EXPECT_EQ(back.mapping(0).memory_start(), 0x1000u);
  EXPECT_EQ(back.mapping(0).file_offset(), 0x200u);
  EXPECT_EQ(s(back, back.mapping(0).build_id()), "b1d");
  EXPECT_TRUE(back.mapping(0).has_inline_frames());
  ASSERT_EQ(back.location_size(), 1);
  EXPECT_TRUE(back.location(0).is_folded());
  ASSERT_EQ(back.location(0).line_size(), 2);
  EXPECT_EQ(back.location(0).line(0).column(), 3);
  ASSERT_EQ(back.function_size(), 2);
  EXPECT_EQ(s(back, back.function(0).system_name()), "_Z4leafv");
  EXPECT_EQ(back.function(0).start_line(), 5);
  ASSERT_EQ(back.sample_size(), 1);
  EXPECT_EQ(back.sample(0).value(1), -20);
  ASSERT_EQ(back.sample(0).label_size(), 2);
  EXPECT_EQ(s(back, back.sample(0).label(1).num_unit()), "bytes");
  // And the text of what was written is the same text.
  EXPECT_EQ(testing::PprofToText(back.SerializeAsString()), text);
}

TEST(PprofReader, EmptyFunctionNamesGetAPlaceholderThatGoesBack) {
  pb::Profile p = EveryField();
  p.mutable_function(1)->set_name(0);
  const std::string text = testing::PprofToText(p.SerializeAsString());
  EXPECT_NE(text.find("meta proftools.pprof.empty_name <unnamed>\n"), std::string::npos);
  EXPECT_NE(text.find("function 2 <unnamed> main x.c 0\n"), std::string::npos);
  pb::Profile back;
  ASSERT_TRUE(back.ParseFromString(testing::TextToPprof(text, true)));
  EXPECT_EQ(back.function(1).name(), 0);
  EXPECT_EQ(back.comment_size(), 1);  // the meta record is not carried
}

TEST(PprofReader, PlaceholderAvoidsARealName) {
  pb::Profile p = EveryField();
  p.set_string_table(10, "<unnamed>");
  p.mutable_function(0)->set_name(0);
  const std::string text = testing::PprofToText(p.SerializeAsString());
  EXPECT_NE(text.find("meta proftools.pprof.empty_name <unnamed-2>\n"), std::string::npos);
}

TEST(PprofReader, MissingMappingIsAWarning) {
  pb::Profile p = EveryField();
  p.mutable_location(0)->set_mapping_id(99);
  testing::CollectingHandler handler;
  const std::string text = testing::PprofToText(p.SerializeAsString(), &handler);
  ASSERT_EQ(handler.warnings.size(), 1u);
  EXPECT_NE(handler.warnings[0].message.find("mapping 99, which does not exist"),
            std::string::npos);
  EXPECT_NE(text.find("location 1 - 0x1234"), std::string::npos);
}

TEST(PprofReader, EqualStacksShareOneStackRecord) {
  pb::Profile p = EveryField();
  *p.add_sample() = p.sample(0);
  auto* other = p.add_sample();
  other->add_value(1), other->add_value(1);  // empty stack
  const std::string body = testing::Body(testing::PprofToText(p.SerializeAsString()));
  EXPECT_NE(body.find("stack 1 1\nsample 1 1 - - 2 -20 thread=io bytes=4096:bytes\n"
                      "sample 1 1 - - 2 -20 thread=io bytes=4096:bytes\nstack 2\nsample 1 2"),
            std::string::npos)
      << body;
}

// Keeps what it is given of each sample.
class SampleKeeper : public DiscardingSink {
 public:
  void OnSample(const Sample& sample) override { samples.push_back(sample); }
  std::vector<Sample> samples;
};

TEST(PprofReader, SamplesWithTheRawLabelsOfTheOneBeforeShareTheirLabelsId) {
  pb::Profile p = EveryField();
  *p.add_sample() = p.sample(0);
  *p.add_sample() = p.sample(0);  // and a time: other raw labels
  auto* time = p.mutable_sample(2)->add_label();
  time->set_key(p.string_table_size());
  p.add_string_table(kTimeLabel);
  time->set_num(5);
  time->set_num_unit(p.string_table_size());
  p.add_string_table("nanoseconds");
  *p.add_sample() = p.sample(0);
  // Then sample 0's labels in other bytes (each key an overlong varint): decoded, they are equal.
  pb::Sample unlabelled = p.sample(0);
  unlabelled.clear_label();
  std::string overlong = unlabelled.SerializeAsString();
  for (const pb::Label& label : p.sample(0).label()) {
    std::string encoded = label.SerializeAsString();
    ASSERT_EQ(encoded[0], '\x08');  // the key first, in one byte
    ASSERT_LT(label.key(), 128);
    encoded.replace(1, 1, {static_cast<char>(label.key() | 0x80), '\0'});
    overlong += '\x1a' + std::string(1, static_cast<char>(encoded.size())) + encoded;
  }
  SampleKeeper keeper;
  const std::string bytes = p.SerializeAsString() + '\x12' +
                            std::string(1, static_cast<char>(overlong.size())) + overlong;
  ReadPprof(bytes, "test.pb", &keeper, PprofReadOptions{});
  ASSERT_EQ(keeper.samples.size(), 5u);
  const std::vector<Sample>& s = keeper.samples;
  EXPECT_NE(s[0].labels_id, 0u);
  EXPECT_EQ(s[1].labels_id, s[0].labels_id);
  EXPECT_NE(s[2].labels_id, s[1].labels_id);
  EXPECT_NE(s[3].labels_id, s[2].labels_id);
  EXPECT_EQ(s[4].labels_id, s[3].labels_id);
  for (const Sample& sample : s) {
    EXPECT_EQ(sample.labels, s[0].labels);
    ASSERT_EQ(sample.labels.size(), 2u);
  }
  EXPECT_FALSE(s[1].time_nanos.has_value());
  EXPECT_EQ(s[2].time_nanos, std::optional<int64_t>(5));
  EXPECT_FALSE(s[3].time_nanos.has_value());  // what s[2]'s labels made is not kept
}

// Read through the registry, a pprof profile's locations are checked as prof text's (spec §6):
// a negative line is refused, whether the location is the first or a later one (later ones go
// past the checker but for their lines); under a handler that goes on, the location is reported
// and left out, and the rest is read.
TEST(PprofReader, LocationsWithNegativeLinesAreViolationsWhereverTheyAre) {
  for (const bool first : {true, false}) {
    pb::Profile p = EveryField();
    pb::Location* negative = p.mutable_location(0);
    if (!first) {
      negative = p.add_location();
      negative->set_id(10);
      negative->add_line()->set_function_id(3);
    }
    negative->mutable_line(0)->set_line(-3);
    const std::string bytes = p.SerializeAsString();
    Input input = OpenInputStream(std::make_unique<MemoryStream>(bytes), "in.pb");
    DiscardingSink sink;
    const std::string id = first ? "9" : "10";
    try {
      ReadProfile(input, &sink);
      ADD_FAILURE() << "accepted";
    } catch (const ProfError& e) {
      EXPECT_NE(std::string(e.what()).find("location " + id + " has a negative line (-3)"),
                std::string::npos)
          << e.what();
    }
    if (first) continue;
    Input again = OpenInputStream(std::make_unique<MemoryStream>(bytes), "in.pb");
    testing::CollectingHandler handler;
    ReadOptions options;
    options.handler = &handler;
    StringSink out;
    CanonicalWriter writer(&out);
    ReadProfile(again, &writer, options);
    ASSERT_EQ(handler.errors.size(), 1u);
    EXPECT_NE(handler.errors[0].message.find("location 10 has a negative line"), std::string::npos);
    EXPECT_NE(out.text().find("\nlocation 1 "), std::string::npos);
    EXPECT_EQ(out.text().find("\nlocation 2 "), std::string::npos);  // the negative one
  }
}

// Each malformed input and the words its message must contain.
struct BadCase {
  const char* name;
  void (*mutate)(pb::Profile*);
  const char* message;
};

const BadCase kBadCases[] = {
    {"strtab0", [](pb::Profile* p) { p->set_string_table(0, "x"); },
     "string_table[0] must be \"\""},
    {"nostrtab", [](pb::Profile* p) { p->clear_string_table(); }, "no string table"},
    {"strindex", [](pb::Profile* p) { p->mutable_function(0)->set_name(1000); },
     "function 3 name: string index 1000 is out of range (the string table has 18 entries)"},
    {"negative strindex", [](pb::Profile* p) { p->mutable_mapping(0)->set_build_id(-1); },
     "mapping 7 build_id: string index -1 is out of range"},
    {"label unit index",
     [](pb::Profile* p) { p->mutable_sample(0)->mutable_label(1)->set_num_unit(99); },
     "sample 1 label 'bytes': string index 99"},
    {"comment index", [](pb::Profile* p) { p->add_comment(500); }, "comment: string index 500"},
    {"mapping id 0", [](pb::Profile* p) { p->mutable_mapping(0)->set_id(0); }, "mapping with id 0"},
    {"function id 0", [](pb::Profile* p) { p->mutable_function(0)->set_id(0); },
     "function with id 0"},
    {"location id 0", [](pb::Profile* p) { p->mutable_location(0)->set_id(0); },
     "location with id 0"},
    {"duplicate mapping", [](pb::Profile* p) { *p->add_mapping() = p->mapping(0); },
     "two mappings have id 7"},
    {"duplicate function", [](pb::Profile* p) { p->mutable_function(1)->set_id(3); },
     "two functions have id 3"},
    {"duplicate location", [](pb::Profile* p) { *p->add_location() = p->location(0); },
     "two locations have id 9"},
    {"dangling function",
     [](pb::Profile* p) { p->mutable_location(0)->mutable_line(1)->set_function_id(5); },
     "location 9 has a line with function 5, which is not defined"},
    {"dangling location", [](pb::Profile* p) { p->mutable_sample(0)->add_location_id(10); },
     "sample 1 refers to location 10, which is not defined"},
    {"value count", [](pb::Profile* p) { p->mutable_sample(0)->add_value(1); },
     "sample 1 has 3 values but there are 2 sample types"},
    {"many values",
     [](pb::Profile* p) {
       for (int i = 0; i < 5; ++i) p->mutable_sample(0)->add_value(1);
     },
     "sample 1: a malformed value field, or more values than the 2 sample types"},
    {"no sample type", [](pb::Profile* p) { p->clear_sample_type(); },
     "the profile has samples but no sample_type"},
    {"empty label key", [](pb::Profile* p) { p->mutable_sample(0)->mutable_label(0)->set_key(0); },
     "sample 1 has a label with an empty key"},
    {"unknown source",
     [](pb::Profile* p) {
       auto* l = p->mutable_sample(0)->add_label();
       l->set_key(p->string_table_size());
       p->add_string_table(kSourceLabel);
       l->set_num(3);
     },
     "label proftools.source names source 3, which no comment defines"},
};

TEST(PprofReader, RejectsEachMalformedProfileWithASpecificMessage) {
  for (const BadCase& c : kBadCases) {
    pb::Profile p = EveryField();
    c.mutate(&p);
    try {
      testing::PprofToText(p.SerializeAsString());
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const ProfError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
          << c.name << ": " << e.what();
    }
  }
}

TEST(PprofReader, RejectsBrokenWireFormat) {
  const std::string good = EveryField().SerializeAsString();
  const struct {
    std::string data;
    const char* message;
  } cases[] = {
      {good.substr(0, good.size() - 1), "bad varint"},
      {std::string("\x32\x05"
                   "ab",
                   4),
       "declares 5 bytes but only 2 remain"},
      {std::string("\x32\x02"
                   "a",
                   3),
       "declares 2 bytes but only 1 remains"},
      {std::string("\x32\x01", 2), "declares 1 byte but only 0 remain"},
      {std::string("\x12\xff\xff\xff\xff\x0f", 6), "declares 4294967295 bytes"},
      {std::string("\x48\x01\x48\x02\x32\x00", 6), "time_nanos appears twice"},
      {std::string("\x10\x05", 2), "field 2 of Profile has wire type 0"},
      {std::string("\x32\x00\x00", 3), "bad tag"},
      {std::string("\x50\xff\xff", 3), "bad varint"},
      {std::string("\x0a\x00\x12\x02\x0a\x05\x32\x00", 8), "malformed Sample message"},
  };
  for (const auto& c : cases) {
    try {
      testing::PprofToText(c.data);
      ADD_FAILURE() << c.message << ": accepted";
    } catch (const ProfError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

// Packed location ids are decoded by libprotobuf's unchecked inline parser while 10 bytes of
// input remain, by the checked one near the end: a sample reads the same in either place, and
// a varint that runs past its field is refused the same way.
TEST(PprofReader, PackedIdsReadTheSameWhereverTheSampleLies) {
  pb::Profile p = EveryField();
  for (uint64_t id : {uint64_t{300}, uint64_t{1} << 40}) {
    auto* l = p.add_location();
    l->set_id(id);
    l->add_line()->set_function_id(3);
  }
  pb::Sample sample;
  for (uint64_t id : {uint64_t{300}, uint64_t{1} << 40, uint64_t{9}}) sample.add_location_id(id);
  sample.add_value(5), sample.add_value(6);
  pb::Profile early = p;
  *early.add_sample() = sample;  // serialized with the samples, before every definition
  const std::string sample_field = "\x12" +
                                   std::string(1, static_cast<char>(sample.ByteSizeLong())) +
                                   sample.SerializeAsString();
  const std::string last = p.SerializeAsString() + sample_field;  // the input's last bytes
  const std::string text = testing::PprofToText(early.SerializeAsString());
  EXPECT_EQ(testing::PprofToText(last), text);
  EXPECT_NE(text.find("stack 2 2 3 1\n"), std::string::npos) << text;

  // Ids 0x89 0x81: the second byte says more follows, but the field ends. Then the sample is
  // last, or followed by a few empty strings (string_table entries of no use).
  const auto EmptyStrings = [](int n) {
    std::string bytes;
    for (int i = 0; i < n; ++i) bytes += std::string("\x32\x00", 2);
    return bytes;
  };
  const std::string overrun("\x12\x08\x0a\x02\x89\x81\x12\x02\x05\x06", 10);
  for (const std::string& data :
       {p.SerializeAsString() + overrun, p.SerializeAsString() + overrun + EmptyStrings(6)}) {
    try {
      testing::PprofToText(data);
      ADD_FAILURE() << "accepted";
    } catch (const ProfError& e) {
      EXPECT_NE(std::string(e.what()).find("malformed location_id field"), std::string::npos)
          << e.what();
    }
  }
}

// A few bytes of input can reference a long string many times: records are held to the size
// of one prof text line and the header to four, so memory stays bounded by the input.
TEST(PprofReader, StringReferencesCannotAmplifyWithoutBound) {
  pb::Profile p = EveryField();
  p.add_string_table(std::string(1 << 20, 'x'));
  const int64_t big = p.string_table_size() - 1;
  pb::Profile labels = p;
  for (int i = 0; i < 70; ++i) {
    auto* l = labels.mutable_sample(0)->add_label();
    l->set_key(15), l->set_str(big);
  }
  pb::Profile comments = p;
  for (int i = 0; i < 300; ++i) comments.add_comment(big);
  pb::Profile deep = p;
  for (int i = 0; i < (1 << 22); ++i) deep.mutable_sample(0)->add_location_id(9);
  const struct {
    const pb::Profile* profile;
    const char* message;
  } cases[] = {
      {&labels,
       "sample 1 label 'thread': the record would be a prof text line of more than 64 MiB"},
      {&comments, "comment: the header records would take more than 256 MiB"},
      {&deep, "sample 1 has more than 4194304 locations"},
  };
  for (const auto& c : cases) {
    try {
      testing::PprofToText(c.profile->SerializeAsString());
      ADD_FAILURE() << c.message << ": accepted";
    } catch (const ProfError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  // Within the bounds, the same long string is fine.
  pb::Profile some = p;
  for (int i = 0; i < 3; ++i) some.add_comment(big);
  EXPECT_NO_THROW(testing::PprofToText(some.SerializeAsString()));
}

// Mutated and truncated profiles: each is read or refused with a ProfError, nothing else (no
// crash, no other exception, no hang).
TEST(PprofReader, MutatedInputIsReadOrRefusedCleanly) {
  const std::string good = EveryField().SerializeAsString();
  std::mt19937 random(99);
  int refused = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string data = good;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % data.size();
      switch (random() % 3) {
        case 0:
          data[at] = static_cast<char>(random());
          break;
        case 1:
          data.resize(at);
          break;
        default:
          data.insert(at, 1, static_cast<char>(random()));
          break;
      }
      if (data.empty()) data = "x";
    }
    try {
      testing::PprofToText(data);
    } catch (const ProfError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 1000);  // the mutations do reach the checks
}

TEST(PprofReader, UnknownFieldsAreSkipped) {
  std::string data = EveryField().SerializeAsString();
  data += std::string("\xa8\x01\x05", 3);          // field 21, varint
  data += std::string("\xb2\x01\x02\x01\x02", 5);  // field 22, 2 bytes
  EXPECT_EQ(testing::PprofToText(data), testing::PprofToText(EveryField().SerializeAsString()));
}

TEST(PprofReader, InflatedSizeIsCapped) {
  // 4 MiB of zeros gzipped: the cap stops inflating before the decoder sees anything.
  StringSink gz;
  GzipSink gzip(&gz);
  gzip.Write(std::string(4 << 20, '\0'));
  gzip.Finish();
  char path[] = "/tmp/pprof-bomb-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, gz.text().data(), gz.text().size()), static_cast<ssize_t>(gz.text().size()));
  close(fd);
  Input input = OpenInput(path);
  ProfileBuilder builder;
  ReadOptions options;
  options.format = "pprof";  // zeros: no sniffer claims them
  options.max_input_size = 1 << 20;
  try {
    ReadProfile(input, &builder, options);
    ADD_FAILURE() << "accepted";
  } catch (const ProfError& e) {
    EXPECT_NE(std::string(e.what()).find("inflates to more than 1048576 bytes"), std::string::npos)
        << e.what();
  }
  unlink(path);
}

}  // namespace
}  // namespace pprof_reader_test
}  // namespace proftools
