// Python's marshal (common/pstats/marshal.h) and the pstats reader: every object kind pstats
// files hold, references, the hostile inputs (truncated, forward and self references, nesting
// bombs, sizes that lie), the sniffer, and the stats dict made into a profile (cProfile's
// callers and the profile module's counts). Real recordings are golden/pstats's.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/model/interner.h"
#include "common/pstats/cprofile_direct.h"
#include "common/pstats/marshal.h"
#include "common/pstats/pstats_codec.h"
#include "tests/chrome_test_util.h"

namespace proftools {
namespace pstats_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Read;
using chrome_test::Warnings;

// Marshal's encodings, as Python writes them.
std::string I32(int32_t v) {
  std::string s(4, '\0');
  for (int k = 0; k < 4; ++k)
    s[k] = static_cast<char>((static_cast<uint32_t>(v) >> (8 * k)) & 0xff);
  return s;
}
std::string Int(int32_t v) {
  return "i" + I32(v);
}
std::string Str(const std::string& s) {
  return "z" + std::string(1, static_cast<char>(s.size())) + s;
}
std::string Float(double d) {
  std::string s = "g";
  char bytes[8];
  std::memcpy(bytes, &d, 8);
  return s + std::string(bytes, 8);
}
std::string TextFloat(const std::string& digits) {  // marshal version 0's
  return "f" + std::string(1, static_cast<char>(digits.size())) + digits;
}
std::string Tuple(const std::vector<std::string>& items) {
  std::string s = ")" + std::string(1, static_cast<char>(items.size()));
  for (const std::string& item : items) s += item;
  return s;
}
std::string Dict(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string s = "{";
  for (const auto& [k, v] : pairs) s += k + v;
  return s + "0";
}
std::string Ref(const std::string& object) {  // FLAG_REF on its type code
  std::string s = object;
  s[0] = static_cast<char>(s[0] | 0x80);
  return s;
}

std::string MarshalError(const std::string& bytes) {
  try {
    PythonMarshal marshal(bytes, "in.pstats");
  } catch (const ProfError& e) {
    return e.diagnostic().Format();
  }
  return "";
}

TEST(Marshal, ReadsTheObjectsOfPstatsFiles) {
  const std::string bytes =
      Tuple({Int(-7), Float(0.25), Str("f"), "N", "T",
             "l" + I32(-3) + std::string("\x01\x00\x02\x00\x03\x00", 6), Dict({{Int(1), "F"}})});
  const PythonMarshal m(bytes, "x");
  const MarshalValue& v = m.root();
  ASSERT_EQ(v.kind, MarshalValue::Kind::kTuple);
  ASSERT_EQ(v.count, 7u);
  EXPECT_EQ(m.item(v, 0).i, -7);
  EXPECT_EQ(m.item(v, 1).f, 0.25);
  EXPECT_EQ(m.Text(m.item(v, 2)), "f");
  EXPECT_EQ(m.item(v, 3).kind, MarshalValue::Kind::kNone);
  EXPECT_EQ(m.item(v, 4).i, 1);
  // A long: digits of 15 bits, least significant first, the sign on the count.
  EXPECT_EQ(m.item(v, 5).i, -(1 + (2 << 15) + (int64_t{3} << 30)));
  EXPECT_FALSE(m.item(v, 5).big);
  // A dict's key and value, after a nested container's items.
  const MarshalValue& dict = m.item(v, 6);
  ASSERT_EQ(dict.count, 2u);
  EXPECT_EQ(m.item(dict, 0).i, 1);
  EXPECT_EQ(m.item(dict, 1).kind, MarshalValue::Kind::kBool);
  EXPECT_EQ(m.item(dict, 1).i, 0);
  EXPECT_EQ(m.end(), bytes.size());
}

TEST(Marshal, NestedContainersKeepTheirOwnItems) {
  // A dict whose values are tuples holding dicts: each container's items are its own.
  const std::string bytes = Dict(
      {{Str("a"), Tuple({Int(1), Dict({{Str("b"), Int(2)}}), Int(3)})}, {Str("c"), Tuple({})}});
  const PythonMarshal m(bytes, "x");
  const MarshalValue& v = m.root();
  ASSERT_EQ(v.count, 4u);
  EXPECT_EQ(m.Text(m.item(v, 0)), "a");
  const MarshalValue& a = m.item(v, 1);
  ASSERT_EQ(a.count, 3u);
  EXPECT_EQ(m.item(a, 0).i, 1);
  EXPECT_EQ(m.Text(m.item(m.item(a, 1), 0)), "b");
  EXPECT_EQ(m.item(m.item(a, 1), 1).i, 2);
  EXPECT_EQ(m.item(a, 2).i, 3);
  EXPECT_EQ(m.Text(m.item(v, 2)), "c");
  EXPECT_EQ(m.item(v, 3).count, 0u);
}

TEST(Marshal, AReferenceIsTheObjectItNames) {
  // The first string numbered 0 (FLAG_REF), then named twice by 'r'.
  const std::string bytes = Tuple({Ref(Str("leaf")), "r" + I32(0), "r" + I32(0)});
  const PythonMarshal m(bytes, "x");
  EXPECT_EQ(m.Text(m.item(m.root(), 1)), "leaf");
  // Shared, not copied: one object, one number.
  EXPECT_EQ(&m.item(m.root(), 1), &m.item(m.root(), 2));
  EXPECT_EQ(&m.item(m.root(), 0), &m.item(m.root(), 2));
}

TEST(Marshal, ADictIsReadAnEntryAtATimeKeepingWhatIsReferenced) {
  // The dict marked for reference (number 0, as dump_stats's is); the first entry's key marked
  // (number 1) and named again by the second entry; its value not marked, gone with the entry.
  const std::string key = Ref(Tuple({Str("a.py"), Int(3), Str("f")}));
  const std::string bytes =
      Ref(Dict({{key, Tuple({Int(1), Float(0.5)})}, {Tuple({"r" + I32(1)}), Int(7)}}));
  PythonMarshal m(bytes, "x", PythonMarshal::Mode::kDictEntries);
  ASSERT_TRUE(m.streamed());
  const MarshalValue* k = nullptr;
  const MarshalValue* v = nullptr;
  ASSERT_TRUE(m.NextEntry(&k, &v));
  EXPECT_EQ(m.Text(m.item(*k, 2)), "f");
  EXPECT_EQ(m.item(*v, 1).f, 0.5);
  const MarshalValue* first_key = k;
  m.scratch(*k) = 42;  // kept with the object referenced
  const size_t kept = m.size();
  ASSERT_TRUE(m.NextEntry(&k, &v));
  EXPECT_EQ(m.size(), kept);  // the second entry's objects are its own: nothing more kept
  const MarshalValue& named = m.item(*k, 0);
  EXPECT_EQ(&named, first_key);
  EXPECT_EQ(m.scratch(named), 42);
  EXPECT_EQ(m.Text(m.item(named, 0)), "a.py");
  EXPECT_EQ(v->i, 7);
  EXPECT_FALSE(m.NextEntry(&k, &v));
  EXPECT_EQ(m.end(), bytes.size());
  EXPECT_FALSE(m.NextEntry(&k, &v));
}

TEST(Marshal, ADictReadAnEntryAtATimeRefusesWhatWholeReadingRefuses) {
  const auto streamed_error = [](const std::string& bytes) -> std::string {
    try {
      PythonMarshal m(bytes, "in.pstats", PythonMarshal::Mode::kDictEntries);
      const MarshalValue* k = nullptr;
      const MarshalValue* v = nullptr;
      while (m.NextEntry(&k, &v)) {
      }
    } catch (const ProfError& e) {
      return e.diagnostic().Format();
    }
    return "";
  };
  // A reference to the dict itself, still being read; a truncated entry; a missing end.
  for (const std::string& bytes :
       {Ref(Dict({{Int(1), "r" + I32(0)}})), std::string("{") + Int(1) + "i\x01",
        std::string("{") + Int(1) + Int(2)}) {
    const std::string streamed = streamed_error(bytes);
    EXPECT_NE(streamed, "");
    EXPECT_EQ(streamed, MarshalError(bytes));
  }
  // Not a dict: read whole.
  PythonMarshal m(Tuple({Int(1)}), "x", PythonMarshal::Mode::kDictEntries);
  EXPECT_FALSE(m.streamed());
  EXPECT_EQ(m.root().kind, MarshalValue::Kind::kTuple);
}

TEST(Marshal, HostileInputIsRefusedAtItsByte) {
  EXPECT_EQ(MarshalError(""),
            "in.pstats: byte 0: an object runs past the end of the input (1 bytes needed, 0 left)");
  EXPECT_EQ(MarshalError("i\x01\x02"),
            "in.pstats: byte 0: an int runs past the end of the input (4 bytes needed, 2 left)");
  // A reference to nothing read yet, and to the tuple that holds it (still being read).
  EXPECT_EQ(MarshalError(Tuple({"r" + I32(5)})),
            "in.pstats: byte 2: a reference to object 5 of 0 read so far");
  EXPECT_EQ(MarshalError(Ref(Tuple({"r" + I32(0)}))),
            "in.pstats: byte 2: a reference to object 0, which is still being read (a container in "
            "itself)");
  // Sizes that lie: more items or bytes than the input has.
  EXPECT_EQ(MarshalError("(" + I32(1000000) + "N"),
            "in.pstats: byte 0: a tuple of 1000000 runs past the end of the input (1 bytes left)");
  EXPECT_EQ(MarshalError("u" + I32(-1)), "in.pstats: byte 0: a string with a negative size (-1)");
  EXPECT_EQ(MarshalError("l" + I32(1) + std::string("\xff\xff", 2)),
            "in.pstats: byte 0: a long with a digit out of range (65535)");
  // Nesting beyond the bound: a stack bomb.
  std::string deep;
  for (int k = 0; k < 5000; ++k) deep += ")\x01";
  EXPECT_EQ(MarshalError(deep + "N"), "in.pstats: byte 402: objects nested more than 200 deep");
  EXPECT_EQ(MarshalError("?"), "in.pstats: byte 0: an unknown type code 0x3f");
}

// A stats dict: main calls work twice, work calls leaf 3 times and itself (recursion).
std::string Stats(const std::string& work_to_leaf_edge) {
  const std::string main = Tuple({Str("app.py"), Int(1), Str("main")});
  const std::string work = Tuple({Str("app.py"), Int(5), Str("work")});
  const std::string leaf = Tuple({Str("app.py"), Int(9), Str("leaf")});
  const std::string sleep = Tuple({Str("~"), Int(0), Str("<built-in method time.sleep>")});
  return Dict({
      {main, Tuple({Int(1), Int(1), Float(0.001), Float(0.010), Dict({})})},
      {work, Tuple({Int(2), Int(3), Float(0.002), Float(0.009),
                    Dict({{main, Tuple({Int(2), Int(2), Float(0.002), Float(0.009)})},
                          {work, Tuple({Int(1), Int(0), Float(0), Float(0.001)})}})})},
      {leaf,
       Tuple({Int(3), Int(3), Float(0.004), Float(0.004), Dict({{work, work_to_leaf_edge}})})},
      {sleep, Tuple({Int(1), Int(1), Float(0.003), Float(0.003),
                     Dict({{work, Tuple({Int(1), Int(1), Float(0.003), Float(0.003)})}})})},
  });
}

TEST(Pstats, FunctionsTheirTimesAndCallsBecomeStacks) {
  const std::string text = Read(Stats(Tuple({Int(3), Int(3), Float(0.004), Float(0.004)})));
  EXPECT_NE(text.find("source 1 pstats in.json -\ntype time nanoseconds\ntype calls count\n"
                      "default_type time\n"),
            std::string::npos)
      << text;
  // Functions by name, file and first line; built-ins without a file.
  EXPECT_NE(text.find("function 1 main main app.py 1\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find(
          "function 4 \"<built-in method time.sleep>\" \"<built-in method time.sleep>\" \"\" 0\n"),
      std::string::npos)
      << text;
  // Self times exact, each stack from the callers: main;work;leaf 4 ms and 3 calls.
  EXPECT_NE(text.find("sample 1 1 - - 1000000 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("sample 1 3 - - 4000000 3\n"), std::string::npos) << text;
}

TEST(Pstats, TheProfileModulesCountsShareTheTimeByCalls) {
  Warnings warnings;
  const std::string text = Read(Stats(Int(3)), "", &warnings);
  EXPECT_NE(text.find("sample 1 3 - - 4000000 3\n"), std::string::npos) << text;
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("callers without times"), std::string::npos);
}

TEST(Pstats, DataThatIsNotStatsIsRefusedSayingWhat) {
  auto error = [](const std::string& bytes) {
    try {
      Read(bytes, "pstats");
    } catch (const ProfError& e) {
      return e.diagnostic().Format();
    }
    return std::string();
  };
  EXPECT_EQ(error(Tuple({Int(1)})),
            "in.json: not pstats data: the data is a tuple, not a dict of functions");
  EXPECT_EQ(
      error(Dict({{Int(1), "N"}})),
      "in.json: not pstats data: a function's key is an int, not a tuple (file, line, function)");
  EXPECT_EQ(error(Stats(Str("x"))),
            "in.json: not pstats data: app.py:9(leaf): from app.py:5(work): a string where (calls, "
            "primitive calls, self, cumulative) belongs");
  EXPECT_EQ(error(Dict({}) + "N"), "in.json: byte 2: 1 bytes after the statistics");
}

// Both readings' graph, emitted: what a reader of either gives.
Profile Emitted(const std::string& bytes, PstatsReading reading) {
  bool shared_by_calls = false;
  CallGraph graph = ReadPstatsGraph(bytes, "in.pstats", reading, &shared_by_calls);
  ProfileBuilder builder;
  ProfileHeader header;
  header.sources.push_back(Source{1, "pstats", "", std::nullopt});
  header.types = {{"time", "nanoseconds"}, {"calls", "count"}};
  builder.OnHeader(header);
  Interner interner(&builder);
  graph.Emit(&interner, &builder, 1, true, {});
  builder.OnEnd();
  return builder.Take();
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// cProfile's files are read straight from the bytes (cprofile_direct.h): the same graph as
// reading them as marshal data, references to keys, strings and numbers included.
TEST(Pstats, CProfilesShapeIsReadStraightToTheGraphMarshalGives) {
  // References: 0 the dict, 1 main's key, 2 its file, 3 its line (1), 4 a time.
  const std::string main = Ref(Tuple({Ref(Str("app.py")), Ref(Int(1)), Str("main")}));
  const std::string work = Tuple({"r" + I32(2), Int(5), Str("work")});
  const std::string seconds = Ref(Float(0.25));
  const std::vector<std::string> files = {
      FileBytes("golden/pstats/inputs/cprofile.pstats"),
      Stats(Tuple({Int(3), Int(3), Float(0.004), Float(0.004)})),
      Ref(Dict({{main, Tuple({Int(1), Int(1), seconds, Float(1), Dict({})})},
                {work, Tuple({"r" + I32(3), Int(2), "r" + I32(4), "r" + I32(3),
                              Dict({{"r" + I32(1),
                                     Tuple({Int(1), Int(1), Float(0.5), "r" + I32(4)})}})})}})),
  };
  for (size_t i = 0; i < files.size(); ++i) {
    PstatsGraph direct;
    EXPECT_TRUE(ReadCProfileDirect(files[i], &direct)) << "file " << i;
    EXPECT_EQ(Emitted(files[i], PstatsReading::kDirectFirst),
              Emitted(files[i], PstatsReading::kMarshalOnly))
        << "file " << i;
  }
}

// What is not of that shape is read as marshal data: the profile module's callers (counts) and
// code objects, numbers of other kinds, references to what does not belong, every error.
TEST(Pstats, WhatIsNotCProfilesShapeIsReadAsMarshalData) {
  const std::string key = Tuple({Str("a.py"), Int(1), Str("f")});
  const std::string cprofile = FileBytes("golden/pstats/inputs/cprofile.pstats");
  const std::vector<std::string> files = {
      FileBytes("golden/pstats/inputs/profile.pstats"),
      Stats(Int(3)),  // a caller's count
      Dict({{key, Tuple({Int(1), Int(1), TextFloat("0.25"), Float(1), Dict({})})}}),
      Dict({{Ref(key),
             Tuple({Int(1), Int(1), Float(0), Float(1), Dict({{"r" + I32(0), Int(1)}})})}}),
      Dict({{key, Tuple({Int(1), Int(1), "r" + I32(0), Float(1), Dict({})})}}),  // no reference 0
      Dict({}) + "N",                           // bytes after the dict
      cprofile.substr(0, cprofile.size() / 2),  // cut short
  };
  auto message = [](const std::string& bytes, PstatsReading reading) {
    try {
      Emitted(bytes, reading);
    } catch (const ProfError& e) {
      return e.diagnostic().Format();
    }
    return std::string();
  };
  for (size_t i = 0; i < files.size(); ++i) {
    PstatsGraph direct;
    EXPECT_FALSE(ReadCProfileDirect(files[i], &direct)) << "file " << i;
    // Read the general way: the same profile, or the same message, as ever.
    const std::string refused = message(files[i], PstatsReading::kMarshalOnly);
    EXPECT_EQ(message(files[i], PstatsReading::kDirectFirst), refused) << "file " << i;
    EXPECT_EQ(refused.empty(), i < 4) << "file " << i << ": " << refused;
    if (refused.empty()) {
      EXPECT_EQ(Emitted(files[i], PstatsReading::kDirectFirst),
                Emitted(files[i], PstatsReading::kMarshalOnly))
          << "file " << i;
    }
  }
}

TEST(Pstats, Sniffs) {
  EXPECT_EQ(SniffPstats(Ref(Dict({{Tuple({Str("a"), Int(1), Str("f")}), "N"}})), false), kLikely);
  EXPECT_EQ(SniffPstats("{(" + I32(3), false), kLikely);
  EXPECT_EQ(SniffPstats("{)\x02", false), kNotMine);
  EXPECT_EQ(SniffPstats("{\"a\": 1}", true), kNotMine);  // JSON
}

}  // namespace
}  // namespace pstats_test
}  // namespace proftools
