// Recognising pprof's legacy formats (common/pprof/legacy_pprof.h) through the registry: each kind
// by its header, look-alikes left alone, and every legacy file of pprof's own test data.
#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/pprof/legacy_pprof.h"
#include "common/pprof/pprof_codec.h"

namespace proftools {
namespace legacy_pprof_test {  // a namespace of its own: the tests build as one unit
namespace {

// Words `values` of `width` bytes each, in the given byte order.
std::string Words(const std::vector<uint64_t>& values, size_t width, bool big_endian) {
  std::string out;
  for (uint64_t value : values) {
    for (size_t i = 0; i < width; ++i) {
      const size_t shift = 8 * (big_endian ? width - 1 - i : i);
      out += static_cast<char>((value >> shift) & 0xff);
    }
  }
  return out;
}

TEST(LegacyPprof, BinaryCpuProfilesInEveryWordSizeAndByteOrder) {
  for (size_t width : {4, 8}) {
    for (bool big_endian : {false, true}) {
      const std::string cpp = Words({0, 3, 0, 10000, 0, 1, 1, 0x401000}, width, big_endian);
      EXPECT_EQ(LegacyPprofFormat(cpp), "a gperftools CPU profile (pprof's legacy binary format)")
          << width << big_endian;
      const std::string java = Words({0, 3, 1, 10000, 0}, width, big_endian);
      EXPECT_EQ(LegacyPprofFormat(java), "a Java CPU profile (pprof's legacy binary format)");
    }
  }
}

TEST(LegacyPprof, BinaryHeaderMustBeExact) {
  EXPECT_EQ(LegacyPprofFormat(Words({0, 3, 2, 10000, 0}, 8, false)), "");  // neither C++ nor Java
  EXPECT_EQ(LegacyPprofFormat(Words({0, 3, 0, 0, 0}, 8, false)), "");      // no period
  EXPECT_EQ(LegacyPprofFormat(Words({0, 3, 0, 100, 7}, 8, false)), "");    // padding not 0
  EXPECT_EQ(LegacyPprofFormat(Words({0, 3, 0, 100}, 4, false)), "");       // cut short
  EXPECT_EQ(LegacyPprofFormat(std::string(40, '\0')), "");
}

TEST(LegacyPprof, TextFormatsByTheirFirstLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"heap profile: 1: 2 [3: 4] @ heap/1048576\n", "heapz"},
      {"heap profile:   1:   2 [   3:   4] @ heap_v2/524288\n", "heap_v2"},
      {"heap profile: 85: 178257920 [ 85: 178257920] @ growthz\n", "growthz"},
      {"heap profile: 1: 2 [1: 2] @ fragmentationz\n", "fragmentation"},
      {"goroutine profile: total 12\n3 @ 0x1 0x2\n", "Go goroutine profile"},
      {"# comment\n\nthreadcreate profile: total 7\r\n", "Go threadcreate profile"},
      {"--- contentionz 1 ---\ncycles/second = 3201000000\n", "contentionz"},
      {"--- mutex:\ncycles/second=2000000000\n", "Go mutex profile"},
      {"--- contention:\ncycles/second=2000000000\n", "Go block (contention) profile"},
      {"--- threadz 1 ---\n\n--- Thread 7f (name: main/1) stack: ---\n", "threadz"},
      {"\n--- Thread 7eff063d9940 (name: main/25376) stack: ---\n", "threadz"},
      {"--- heapz 1 ---\nformat = java\n", "Java heap profile"},
  };
  for (const auto& [head, expected] : cases) {
    const std::string format = LegacyPprofFormat(head);
    EXPECT_NE(format.find(expected), std::string::npos) << head << " -> '" << format << "'";
  }
}

TEST(LegacyPprof, LookAlikesAreNotLegacy) {
  for (const char* head : {
           "proftext 1.0\n",
           "sample.interval=20000\n\"f\" \n",
           "# heap profile: 1: 2 [3: 4] @ heap\n",  // pprof takes the first line as it is
           "x heap profile: 1: 2\n",
           "goroutine profile: total many\n",
           "a b profile: total 3\n",
           "--- threadz\n",
           "--- heapz 2 ---\n",
           "bigload 4321/4322 1.0: 1 cpu-clock:\n\t 4005d0 main+0x1 (/bin/x)\n",
           "",
       }) {
    EXPECT_EQ(LegacyPprofFormat(head), "") << head;
  }
}

// The registry's reader for what a program opens (common/load/readers.h).
const ReaderSpec* Sniffed(const std::string& head) {
  Input input;
  input.head = head;
  input.text = LooksLikeText(head);
  return SniffReader(input);
}

std::string Advice(const std::string& head) {
  Input input;
  input.name = "x";
  input.head = head;
  input.text = LooksLikeText(head);
  try {
    ReadProfile(input, nullptr);
  } catch (const ProfError& e) {
    return e.diagnostic().message;
  }
  return "";
}

TEST(LegacyPprof, SniffNamesTheFormatAndTheConversion) {
  const std::string heap = "heap profile: 1: 2 [3: 4] @ heap/1048576\n";
  EXPECT_EQ(Sniffed(heap), &kLegacyPprofReader);
  EXPECT_EQ(Advice(heap),
            "this is a heap profile (pprof's legacy heapz text format), which only pprof reads: "
            "convert it with 'pprof -proto FILE > FILE.pb.gz' and use FILE.pb.gz");
  EXPECT_EQ(Sniffed(Words({0, 3, 0, 10000, 0}, 8, false)), &kLegacyPprofReader);
  // A profile.proto never starts with a zero byte (field 0 does not exist), so the binary
  // header cannot hide a pprof profile.
  EXPECT_EQ(Sniffed(std::string("\x0a\x04\x08\x01\x10\x02", 6)), &kPprofReader);
}

// Every legacy input of pprof's own tests (profile/profile_test.go, TestParse: the files
// without a .string suffix) is named. The directory comes with Debian's
// golang-github-google-pprof-dev (a test dependency in the Makefile).
TEST(LegacyPprof, EveryFileOfPprofsTestDataIsNamed) {
  const std::string dir = "/usr/share/gocode/src/github.com/google/pprof/profile/testdata";
  DIR* listing = opendir(dir.c_str());
  if (listing == nullptr) GTEST_SKIP() << dir << " is absent (golang-github-google-pprof-dev)";
  std::vector<std::string> names;
  while (const dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    const bool expected_output = name.size() > 7 && name.substr(name.size() - 7) == ".string";
    if (name[0] != '.' && !expected_output) names.push_back(name);
  }
  closedir(listing);
  EXPECT_GE(names.size(), 14u);  // 14 in the 2021 snapshot Debian 12 ships
  for (const std::string& name : names) {
    std::ifstream file(dir + "/" + name, std::ios::binary);
    std::string head(4096, '\0');
    file.read(&head[0], static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(file.gcount()));
    EXPECT_EQ(Sniffed(head), &kLegacyPprofReader) << name;
    EXPECT_NE(Advice(head).find("pprof -proto"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace legacy_pprof_test
}  // namespace proftools
