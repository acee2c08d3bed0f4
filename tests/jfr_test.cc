// The JFR reader (common/jfr/) on recordings built byte by byte here: one chunk with its
// metadata (types defined by the test, as a JDK or async-profiler would), constant pools and
// events, so that every field of the conversion and every refusal of bad input is pinned. Real
// recordings are golden/jfr's and tests/interop-jfr.sh's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "common/jfr/jfr_codec.h"
#include "common/jfr/jfr_converter.h"
#include "common/jfr/jfr_hidden_classes.h"
#include "common/jfr/jfr_input.h"
#include "common/jfr/jfr_settings.h"
#include "common/jfr/jfr_stream.h"
#include "tests/chrome_test_util.h"

namespace proftools {
namespace jfr_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Lines;

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>(0x80 | (v & 0x7f));
    v >>= 7;
  }
  return out + static_cast<char>(v);
}
std::string Utf8(const std::string& s) {
  return "\x03" + Varint(s.size()) + s;
}
std::string BigEndian(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>(v >> (8 * i) & 0xff);
  return out;
}
// An event: its size (4 bytes, padded LEB128 as the JDK writes it) and its bytes.
std::string Event(const std::string& body) {
  const uint64_t n = body.size() + 4;
  std::string size;
  size += static_cast<char>(0x80 | (n & 0x7f));
  size += static_cast<char>(0x80 | (n >> 7 & 0x7f));
  size += static_cast<char>(0x80 | (n >> 14 & 0x7f));
  size += static_cast<char>(n >> 21 & 0x7f);
  return size + body;
}

// The metadata's element tree, strings interned into its table.
struct Element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<Element> children;
};
Element Class(uint64_t id, const std::string& name, std::vector<Element> fields,
              const std::string& super = "") {
  Element e{"class", {{"id", std::to_string(id)}, {"name", name}}, std::move(fields)};
  if (!super.empty()) e.attributes.push_back({"superType", super});
  return e;
}
Element Field(const std::string& name, uint64_t type, bool pooled = false, bool array = false) {
  Element e{"field", {{"name", name}, {"class", std::to_string(type)}}, {}};
  if (pooled) e.attributes.push_back({"constantPool", "true"});
  if (array) e.attributes.push_back({"dimension", "1"});
  return e;
}

class Strings {
 public:
  size_t Index(const std::string& s) {
    auto [it, added] = index_.emplace(s, list_.size());
    if (added) list_.push_back(s);
    return it->second;
  }
  std::string Table() const {
    std::string out = Varint(list_.size());
    for (const std::string& s : list_) out += Utf8(s);
    return out;
  }

 private:
  std::map<std::string, size_t> index_;
  std::vector<std::string> list_;
};

std::string Encode(const Element& e, Strings* strings) {
  std::string out = Varint(strings->Index(e.name)) + Varint(e.attributes.size());
  for (const auto& [k, v] : e.attributes) {
    out += Varint(strings->Index(k));
    out += Varint(strings->Index(v));
  }
  out += Varint(e.children.size());
  for (const Element& c : e.children) out += Encode(c, strings);
  return out;
}

enum : uint64_t {
  kLong = 10,
  kInt = 11,
  kBoolean = 12,
  kString = 13,
  kThread = 20,
  kSymbol = 21,
  kClass = 22,
  kMethod = 23,
  kFrameType = 24,
  kFrame = 25,
  kTrace = 26,
  kSelf = 27,
  kExecution = 100,
  kSleep = 101,
  kSetting = 102,
};

struct Recording {
  std::vector<Element> classes = {
      Class(kLong, "long", {}),
      Class(kInt, "int", {}),
      Class(kBoolean, "boolean", {}),
      Class(kString, "java.lang.String", {}),
      Class(kThread, "java.lang.Thread",
            {Field("javaName", kString), Field("osThreadId", kLong), Field("javaThreadId", kLong)}),
      Class(kSymbol, "jdk.types.Symbol", {Field("string", kString)}),
      Class(kClass, "java.lang.Class", {Field("name", kSymbol, true)}),
      Class(kMethod, "jdk.types.Method",
            {Field("type", kClass, true), Field("name", kSymbol, true),
             Field("descriptor", kSymbol, true)}),
      Class(kFrameType, "jdk.types.FrameType", {Field("description", kString)}),
      Class(kFrame, "jdk.types.StackFrame",
            {Field("method", kMethod, true), Field("lineNumber", kInt),
             Field("bytecodeIndex", kInt), Field("type", kFrameType, true)}),
      Class(kTrace, "jdk.types.StackTrace",
            {Field("truncated", kBoolean), Field("frames", kFrame, false, true)}),
      Class(kExecution, "jdk.ExecutionSample",
            {Field("startTime", kLong), Field("sampledThread", kThread, true),
             Field("stackTrace", kTrace, true)},
            "jdk.jfr.Event"),
      Class(
          kSleep, "jdk.ThreadSleep",
          {Field("startTime", kLong), Field("duration", kLong), Field("eventThread", kThread, true),
           Field("stackTrace", kTrace, true), Field("time", kLong)},
          "jdk.jfr.Event"),
      Class(kSetting, "jdk.ActiveSetting",
            {Field("startTime", kLong), Field("id", kLong), Field("name", kString),
             Field("value", kString)},
            "jdk.jfr.Event"),
  };
  // Pools: type id → entries (key, encoded value).
  std::map<uint64_t, std::vector<std::pair<uint64_t, std::string>>> pools = {
      {kThread, {{1, Utf8("main") + Varint(4242) + Varint(1)}}},
      {kSymbol,
       {{1, Utf8("a/B")},
        {2, Utf8("run")},
        {3, Utf8("()V")},
        {4, Utf8("sleep")},
        {5, Utf8("(J)V")},
        {6, Utf8("inl")}}},
      {kClass, {{1, Varint(1)}}},
      {kMethod,
       {{1, Varint(1) + Varint(2) + Varint(3)},
        {2, Varint(1) + Varint(4) + Varint(5)},
        {3, Varint(1) + Varint(6) + Varint(3)}}},
      {kFrameType, {{1, Utf8("Interpreted")}, {2, Utf8("JIT compiled")}, {3, Utf8("Inlined")}}},
      // 1: inl (inlined, line 5) into run (JIT, line 10); 2: sleep (interpreted), truncated.
      {kTrace,
       {{1, std::string("\x00", 1) + Varint(2) + Varint(3) + Varint(5) + Varint(0) + Varint(3) +
                Varint(1) + Varint(10) + Varint(7) + Varint(2)},
        {2, std::string("\x01", 1) + Varint(1) + Varint(2) + Varint(20) + Varint(0) + Varint(1)}}},
  };
  std::vector<std::string> events = {
      Event(Varint(kSetting) + Varint(1000) + Varint(kExecution) + Utf8("period") + Utf8("20 ms")),
      Event(Varint(kExecution) + Varint(2000) + Varint(1) + Varint(1)),
      Event(Varint(kExecution) + Varint(3000) + Varint(1) + Varint(1)),
      Event(Varint(kSleep) + Varint(4000) + Varint(300000000) + Varint(1) + Varint(2) +
            Varint(300)),
  };

  std::string Bytes() const {
    std::string body;
    for (const std::string& e : events) body += e;
    const uint64_t pools_at = kJfrChunkHeaderSize + body.size();
    std::string pool = Varint(1) + Varint(0) + Varint(0) + Varint(0) + std::string("\x00", 1) +
                       Varint(pools.size());
    for (const auto& [type, entries] : pools) {
      pool += Varint(type) + Varint(entries.size());
      for (const auto& [key, value] : entries) pool += Varint(key) + value;
    }
    body += Event(pool);
    const uint64_t metadata_at = kJfrChunkHeaderSize + body.size();
    Strings strings;
    Element root{"root", {}, {Element{"metadata", {}, classes}, Element{"region", {}, {}}}};
    const std::string tree = Encode(root, &strings);
    body += Event(Varint(0) + Varint(0) + Varint(0) + Varint(1) + strings.Table() + tree);
    const uint64_t size = kJfrChunkHeaderSize + body.size();
    return std::string("FLR\0", 4) + BigEndian(2, 2) + BigEndian(1, 2) + BigEndian(size, 8) +
           BigEndian(pools_at, 8) + BigEndian(metadata_at, 8) + BigEndian(1700000000000000000, 8) +
           BigEndian(1000000000, 8) + BigEndian(1000, 8) + BigEndian(1000000000, 8) +
           BigEndian(0, 4) + body;
  }
};

std::string Read(const std::string& bytes, chrome_test::Warnings* warnings = nullptr) {
  return chrome_test::Read(bytes, "", warnings);
}
std::string Error(const std::string& bytes) {
  return chrome_test::Error(bytes);
}

TEST(Jfr, SniffsItsMagic) {
  EXPECT_EQ(SniffJfr(Recording().Bytes(), false), kCertain);
  EXPECT_EQ(SniffJfr("FLR", false), kNotMine);
  EXPECT_EQ(SniffJfr("FLX\0\0\2", false), kNotMine);
}

TEST(Jfr, ExecutionSamplesAndSleepsBecomeSamplesWithTimesThreadsAndFrames) {
  const std::string text = Read(Recording().Bytes());
  EXPECT_EQ(Lines(text, "type "),
            (std::vector<std::string>{"type samples count", "type cpu nanoseconds",
                                      "type thread-sleep nanoseconds"}));
  EXPECT_EQ(Lines(text, "default_type"), std::vector<std::string>{"default_type cpu"});
  EXPECT_EQ(Lines(text, "period"), std::vector<std::string>{"period cpu nanoseconds 20000000"});
  EXPECT_EQ(Lines(text, "function "),
            (std::vector<std::string>{
                "function 1 a.B.inl ()V \"\" 0", "function 2 a.B.run ()V \"\" 0",
                "function 3 a.B.sleep (J)V \"\" 0", "function 4 <truncated> \"\" \"\" 0"}));
  // The inlined frame is the first line of its JIT-compiled caller's location.
  EXPECT_EQ(Lines(text, "location "),
            (std::vector<std::string>{"location 1 1 0x0 - 1:5 2:10", "location 2 2 0x0 - 3:20",
                                      "location 3 - 0x0 - 4:0"}));
  EXPECT_EQ(Lines(text, "mapping "),
            (std::vector<std::string>{"mapping 1 0x0 0x0 0x0 [jit] \"\" FN,LN,IN",
                                      "mapping 2 0x0 0x0 0x0 [interpreted] \"\" FN,LN"}));
  // Ticks are nanoseconds here (10^9 a second) from tick 1000 at the chunk's start.
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{
                "sample 1 1 1700000000000001000 - 1 20000000 0 thread=main tid=4242 "
                "java-thread-id=1 event=jdk.ExecutionSample",
                "sample 1 1 1700000000000002000 - 1 20000000 0 thread=main tid=4242 "
                "java-thread-id=1 event=jdk.ExecutionSample",
                "sample 1 2 1700000000000003000 300000000 0 0 300000000 thread=main tid=4242 "
                "java-thread-id=1 event=jdk.ThreadSleep"}));
}

TEST(Jfr, ChunksBackToBackAreOneRecording) {
  const std::string one = Recording().Bytes();
  const std::string text = Read(one + one);
  EXPECT_EQ(Lines(text, "sample ").size(), 6u);
  EXPECT_EQ(Lines(text, "stack ").size(), 2u);  // the second chunk's stacks are the same content
  EXPECT_EQ(Lines(text, "duration "), std::vector<std::string>{"duration 1000000000"});
}

// Memory grows with a chunk, not the file: the reader holds one chunk's bytes (and the first
// bytes of the next, to know whether the file ends) at a time.
TEST(Jfr, ChunksAreReadOneAtATime) {
  Recording longer;
  longer.events.push_back(longer.events[1]);
  const std::string a = Recording().Bytes(), b = longer.Bytes();
  MemoryStream stream(a + b + a);
  const std::string name = "r.jfr";
  JfrChunkReader reader(&stream, name, 0);
  uint64_t start = 0;
  for (const std::string* chunk : {&a, &b, &a}) {
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.chunk().start, start);
    EXPECT_EQ(reader.chunk().end, start + chunk->size());
    EXPECT_EQ(reader.bytes().base, start);
    EXPECT_EQ(reader.bytes().data.substr(0, chunk->size()), *chunk);
    EXPECT_LE(reader.bytes().data.size(), chunk->size() + kJfrChunkHeaderSize + 1);
    EXPECT_EQ(reader.last(), chunk == &a && start > 0);
    start += chunk->size();
  }
  EXPECT_FALSE(reader.Next());
}

TEST(Jfr, AChunkLargerThanTheCapIsRefused) {
  const std::string bytes = Recording().Bytes();
  MemoryStream stream(bytes);
  const std::string name = "r.jfr";
  JfrChunkReader reader(&stream, name, bytes.size() - 1);
  try {
    reader.Next();
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_NE(std::string(e.what()).find("r.jfr: byte 8: a chunk of " +
                                         std::to_string(bytes.size()) + " bytes, more than the"),
              std::string::npos)
        << e.what();
  }
}

// A recording of several chunks is read twice (a first pass for the value types): a file that
// is not the same the second time is refused, not converted in part.
TEST(Jfr, ARecordingThatChangesBetweenItsReadingsIsRefused) {
  Recording longer;
  longer.events.push_back(longer.events[1]);
  const std::string one = Recording().Bytes();
  MemoryStream first(one + one), second(longer.Bytes() + one);
  StringSink text;
  CanonicalWriter writer(&text);
  try {
    ConvertJfr(
        &first, [&]() -> ByteStream* { return &second; }, "r.jfr", ReadContext{}, JfrOptions{},
        &writer);
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_NE(std::string(e.what()).find("r.jfr: changed between its two readings"),
              std::string::npos)
        << e.what();
  }
}

// Of two entries with the same key in a pool, the one read last is the one, as in the JDK.
TEST(Jfr, APoolEntryReadAgainReplacesTheFirst) {
  Recording r;
  r.pools[kThread].push_back({1, Utf8("worker") + Varint(7) + Varint(2)});
  EXPECT_EQ(Lines(Read(r.Bytes()), "sample 1 1 1700000000000001000")[0],
            "sample 1 1 1700000000000001000 - 1 20000000 0 thread=worker tid=7 "
            "java-thread-id=2 event=jdk.ExecutionSample");
}

TEST(Jfr, WithoutAStatedPeriodExecutionSamplesAreACount) {
  Recording r;
  r.events.erase(r.events.begin());
  const std::string text = Read(r.Bytes());
  EXPECT_EQ(Lines(text, "type "),
            (std::vector<std::string>{"type samples count", "type thread-sleep nanoseconds"}));
}

TEST(Jfr, ATruncatedRecordingIsRefusedWithTheByte) {
  const std::string bytes = Recording().Bytes();
  EXPECT_NE(Error(bytes.substr(0, 40)).find("in.json: byte 0: a chunk header of 40 bytes"),
            std::string::npos);
  EXPECT_NE(Error(bytes.substr(0, bytes.size() - 10)).find("byte 8: a chunk size of"),
            std::string::npos);
}

// The JDK writes such references now and then (threads that ended before the checkpoint): its
// reader makes them null, and so do we, with a warning naming the first.
// Prof text's times are not negative (found by the fuzzer: tests/fuzz/regressions/readers/).
TEST(Jfr, TimesBefore1970AreRefused) {
  std::string bytes = Recording().Bytes();
  bytes[32] = '\x80';  // the chunk's start in nanoseconds, big-endian: negative
  EXPECT_NE(Error(bytes).find("byte 32: a chunk starting"), std::string::npos);
  Recording r;
  r.events[1] = Event(Varint(kExecution) + Varint(static_cast<uint64_t>(-2000000000000000000LL)) +
                      Varint(1) + Varint(1));
  EXPECT_NE(Error(r.Bytes()).find("byte 91: jdk.ExecutionSample: a start at tick"),
            std::string::npos)
      << Error(r.Bytes());
}

TEST(Jfr, AReferenceToAMissingPoolEntryIsNullWithAWarning) {
  Recording r;
  r.events[1] = Event(Varint(kExecution) + Varint(2000) + Varint(5) + Varint(9));
  chrome_test::Warnings warnings;
  const std::string text = Read(r.Bytes(), &warnings);
  EXPECT_EQ(Lines(text, "sample 1 1 1700000000000001000")[0],
            "sample 1 1 1700000000000001000 - 1 20000000 0 event=jdk.ExecutionSample");
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("2 references to entries the constant pools lack, read as "
                                      "null as the JDK reads them (the first: byte 91: "
                                      "jdk.ExecutionSample: stack trace 9)"),
            std::string::npos)
      << warnings.messages[0];
}

TEST(Jfr, ATypeThatContainsItselfIsRefusedNotFollowed) {
  Recording r;
  r.classes.push_back(Class(kSelf, "Self", {Field("self", kSelf)}));
  r.pools[kSelf] = {{1, std::string(100, '\0')}};
  const std::string message = Error(r.Bytes());
  EXPECT_NE(message.find("a value of Self nested more than 32 deep"), std::string::npos) << message;
}

TEST(Jfr, CountsLargerThanTheBytesLeftAreRefused) {
  Recording r;
  r.pools[kTrace] = {{1, std::string("\x00", 1) + Varint(1000000)}};
  const std::string message = Error(r.Bytes());
  EXPECT_NE(message.find("an array's length of 1000000 is more than the"), std::string::npos)
      << message;
}

TEST(Jfr, ArraysOfValuesThatTakeNoBytesAreRefused) {
  Recording r;
  r.classes.push_back(Class(kSelf, "Empty", {}));
  r.classes.push_back(Class(kSelf + 1, "Holder", {Field("many", kSelf, false, true)}));
  r.pools[kSelf + 1] = {{1, Varint(1000)}};
  const std::string message = Error(r.Bytes());
  EXPECT_NE(message.find("an array of Empty, values that take no bytes"), std::string::npos)
      << message;
}

// tests/fuzz/seeds.sh seeds the registry's fuzzer with this recording (a real one is larger
// than a seed's 8 KiB, its metadata at the end): the committed file is these bytes.
// JFR_WRITE_SEED=1 build/unit-tests --gtest_filter=Jfr.* rewrites it.
TEST(Jfr, TheFuzzSeedIsTheTestRecording) {
  const std::string path = "golden/jfr/inputs/tiny.jfr";
  const std::string bytes = Recording().Bytes();
  if (std::getenv("JFR_WRITE_SEED") != nullptr) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  std::ifstream in(path, std::ios::binary);
  const std::string committed((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  EXPECT_EQ(committed, bytes);
}

TEST(Jfr, AnIntegerRunningPastItsEventIsRefused) {
  Recording r;
  r.events[1] = Event(Varint(kExecution) + std::string(6, '\xff'));
  EXPECT_NE(Error(r.Bytes()).find("an integer runs past the end of its event or chunk"),
            std::string::npos);
}

TEST(Jfr, StringsInEveryEncoding) {
  const std::string name = "t";
  // UTF-16 chars as LEB128 (a surrogate pair for U+1F600), Latin-1, null, empty, pool ref.
  const std::string bytes = std::string("\x04\x03", 2) + Varint(0x48) + Varint(0xd83d) +
                            Varint(0xde00) + std::string("\x05\x01\xe9", 3) +
                            std::string("\x00\x01\x02\x07", 4);
  JfrInput in(bytes, &name, 0, bytes.size());
  JfrString s;
  in.ReadString(&s);
  EXPECT_EQ(s.text, "H\xf0\x9f\x98\x80");
  in.ReadString(&s);
  EXPECT_EQ(s.text, "\xc3\xa9");
  in.ReadString(&s);
  EXPECT_EQ(s.tag, JfrStringTag::kNull);
  in.ReadString(&s);
  EXPECT_EQ(s.tag, JfrStringTag::kEmpty);
  in.ReadString(&s);
  EXPECT_EQ(s.tag, JfrStringTag::kPoolRef);
  EXPECT_EQ(s.key, 7u);
  const std::string bad("\x09", 1);
  JfrInput in2(bad, &name, 0, 1);
  EXPECT_THROW(in2.ReadString(&s), ProfError);
}

TEST(Jfr, NineByteIntegersTakeTheLastByteWhole) {
  const std::string name = "t";
  const std::string bytes = std::string(8, '\xff') + "\xff";
  JfrInput in(bytes, &name, 0, bytes.size());
  EXPECT_EQ(in.Varint(), UINT64_MAX);
  EXPECT_EQ(in.remaining(), 0u);
}

// LEB128 integers are read without a check of the end at each byte when nine bytes are left,
// with one otherwise: both give the same values and positions, and a cut one is refused.
TEST(Jfr, IntegersReadTheSameNearTheEndAsFarFromIt) {
  const std::string name = "t";
  for (const uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 40,
                           uint64_t{1} << 55, UINT64_MAX}) {
    const std::string bytes = v == UINT64_MAX ? std::string(9, '\xff') : Varint(v);
    const std::string padded = bytes + std::string(9, '\0');
    JfrInput far(padded, &name, 0, padded.size());
    JfrInput near(bytes, &name, 0, bytes.size());
    EXPECT_EQ(far.Varint(), v);
    EXPECT_EQ(near.Varint(), v);
    EXPECT_EQ(far.position(), bytes.size());
    EXPECT_EQ(near.position(), bytes.size());
    if (bytes.size() > 1) {
      JfrInput cut(bytes, &name, 0, bytes.size() - 1);
      EXPECT_THROW(cut.Varint(), ProfError);
    }
  }
}

// An event's size counts its own bytes: the JDK pads it to 4 bytes, so a size of 1 to 4 written
// so ends the event before its size does (a fuzzed metadata event of size 1 read past the file).
TEST(Jfr, AnEventSizeThatDoesNotCoverItselfIsRefused) {
  const std::string name = "t";
  const JfrBytes bytes{std::string_view("\x81\x80\x80\x00\xff\xff\xff\xff\xff\xff", 10), 0, 10};
  try {
    JfrInput::Event(bytes, &name, 0, 10, "the metadata event");
    FAIL() << "a size of 1 in 4 bytes was taken";
  } catch (const ProfError& error) {
    EXPECT_NE(std::string(error.what()).find("byte 0: the metadata event of 1 bytes"),
              std::string::npos)
        << error.what();
  }
  const JfrBytes fits{std::string_view("\x86\x80\x80\x00\x01\x02\xff", 7), 0, 7};
  JfrInput in = JfrInput::Event(fits, &name, 0, 7, "an event");
  EXPECT_EQ(in.position(), 4u);
  EXPECT_EQ(in.end(), 6u);
  EXPECT_THROW(JfrInput::Event(fits, &name, 0, 5, "an event"), ProfError);  // past the end
}

// A string's length counts the bytes after it: a length that fits the bytes left before it
// was read (a fuzzed metadata string) must still be refused, not read past the event.
TEST(Jfr, AStringLengthIsCheckedAgainstTheBytesAfterIt) {
  const std::string name = "t";
  // Tag 3 (UTF-8), length 3 in one byte, then only two bytes: 4 bytes in all before the length.
  const std::string bytes = std::string("\x03\x03", 2) + "ab";
  for (const bool skip : {false, true}) {
    JfrInput in(bytes, &name, 0, bytes.size());
    JfrString s;
    try {
      skip ? in.SkipString() : in.ReadString(&s);
      FAIL() << "a string of 3 bytes read from 2";
    } catch (const ProfError& error) {
      EXPECT_NE(std::string(error.what()).find("byte 1: a string's length of 3 is more than the 2"),
                std::string::npos)
          << error.what();
    }
  }
  const std::string fits = std::string("\x03\x02", 2) + "ab";
  JfrInput in(fits, &name, 0, fits.size());
  JfrString s;
  in.ReadString(&s);
  EXPECT_EQ(s.text, "ab");
  EXPECT_EQ(in.position(), fits.size());
}

TEST(Jfr, Timespans) {
  EXPECT_EQ(ParseJfrTimespan("10 ms"), 10000000);
  EXPECT_EQ(ParseJfrTimespan("20ms"), 20000000);
  EXPECT_EQ(ParseJfrTimespan("1 s"), 1000000000);
  EXPECT_EQ(ParseJfrTimespan("5 us"), 5000);
  EXPECT_EQ(ParseJfrTimespan("everyChunk"), std::nullopt);
  EXPECT_EQ(ParseJfrTimespan("99999999999999999999 d"), std::nullopt);
}

TEST(Jfr, EventsSelectsTypesAndWarnsOfTheRest) {
  JfrOptions options;
  options.events = {"ThreadSleep"};
  Input input = OpenInputStream(std::make_unique<MemoryStream>(Recording().Bytes()), "r.jfr");
  StringSink text;
  CanonicalWriter writer(&text);
  chrome_test::Warnings warnings;
  ReadContext context;
  context.warnings = &warnings;
  ReadJfr(input, context, options, &writer);
  EXPECT_EQ(Lines(text.text(), "type "), std::vector<std::string>{"type thread-sleep nanoseconds"});
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("jdk.ExecutionSample (2)"), std::string::npos);
  options.events = {"jdk.Nope"};
  Input again = OpenInputStream(std::make_unique<MemoryStream>(Recording().Bytes()), "r.jfr");
  EXPECT_THROW(ReadJfr(again, context, options, &writer), UsageError);
}

TEST(JfrHiddenClasses, LoseTheIdsOfTheirRun) {
  // JDK 17's lambda classes, JDK 21's, and other hidden classes.
  EXPECT_EQ(WithoutHiddenClassIds("Workload$$Lambda$88+0x00007f8434007a08/360062456"),
            "Workload$$Lambda");
  EXPECT_EQ(WithoutHiddenClassIds("java/util/regex/Pattern$CharPredicate$$Lambda$21+0x80000002d/"
                                  "32863545"),
            "java/util/regex/Pattern$CharPredicate$$Lambda");
  EXPECT_EQ(WithoutHiddenClassIds("App$$Lambda/0x000001d8c1003200"), "App$$Lambda");
  EXPECT_EQ(WithoutHiddenClassIds("App$$Lambda$7/1234"), "App$$Lambda");
  EXPECT_EQ(WithoutHiddenClassIds("java/lang/invoke/LambdaForm$MH/0x0000000800c0a000"),
            "java/lang/invoke/LambdaForm$MH");
  // Names that only look alike stay as they are: a class named in hex letters, a $$Lambda$
  // followed by a name.
  EXPECT_EQ(WithoutHiddenClassIds("com/example/cafe"), "com/example/cafe");
  EXPECT_EQ(WithoutHiddenClassIds("App$$Lambda$Handler"), "App$$Lambda$Handler");
  EXPECT_EQ(WithoutHiddenClassIds("Workload"), "Workload");
  EXPECT_EQ(WithoutHiddenClassIds(""), "");
}

}  // namespace
}  // namespace jfr_test
}  // namespace proftools
