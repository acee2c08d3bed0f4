#include "common/elf/debug_file_search.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/elf/elf_symbolizer.h"

namespace proftools {
namespace debug_file_search_test {  // a namespace of its own: the tests build as one unit
namespace {

// A libdwfl session over one file, reported at its own addresses.
class Session {
 public:
  explicit Session(const std::string& path) {
    callbacks_.find_debuginfo = DebugFileSearch::FindDebuginfo;
    callbacks_.section_address = dwfl_offline_section_address;
    dwfl_ = dwfl_begin(&callbacks_);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    module_ = dwfl_report_elf(dwfl_, path.c_str(), path.c_str(), fd, 0, true);
    dwfl_report_end(dwfl_, nullptr, nullptr);
    if (module_ == nullptr) close(fd);
  }
  ~Session() { dwfl_end(dwfl_); }
  Dwfl_Module* module() const { return module_; }

 private:
  Dwfl_Callbacks callbacks_ = {};
  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;
};

TEST(DebugFileSearchTest, TriesTheBuildIdTreesThenTheLinkedNamesAsLibdwflDoes) {
  Session session("/proc/self/exe");
  ASSERT_NE(session.module(), nullptr);
  const std::string id = ModuleBuildId(session.module());
  ASSERT_GT(id.size(), 2u) << "the test program has no build id";
  const std::string tail = id.substr(0, 2) + "/" + id.substr(2) + ".debug";
  // After the flag of the CRC check, an empty entry: the object's own directory.
  DebugFileSearch search("-:/debug/a:.debug:/usr/lib/debug");
  const std::vector<std::string> candidates =
      search.Candidates(session.module(), "/opt/app/bin/app", "app.debug");
  const std::vector<std::string> expected = {
      "/debug/a/.build-id/" + tail,
      "/usr/lib/debug/.build-id/" + tail,
      "/opt/app/bin/app.debug",
      "/debug/a/opt/app/bin/app.debug",
      "/debug/a/app.debug",
      "/opt/app/bin/.debug/app.debug",
      "/usr/lib/debug/opt/app/bin/app.debug",
      "/usr/lib/debug/app.debug",
  };
  EXPECT_EQ(candidates, expected);
  // Without an empty entry, not the object's own directory.
  DebugFileSearch other("/x");
  const std::vector<std::string> in_other = other.Candidates(session.module(), "/a/b", "b.debug");
  EXPECT_EQ(std::find(in_other.begin(), in_other.end(), "/a/b.debug"), in_other.end());
}

TEST(DebugFileSearchTest, FindsNothingWithoutAskingDebuginfod) {
  // A program of the system without its debug file (Debian installs none for coreutils).
  const std::string program = "/usr/bin/true";
  if (access("/usr/lib/x86_64-linux-gnu/libdebuginfod.so.1", R_OK) != 0) {
    GTEST_SKIP() << "no libdebuginfod on this machine: nothing could load it";
  }
  Session probe(program);
  ASSERT_NE(probe.module(), nullptr);
  if (access(("/usr/lib/debug/.build-id/" + ModuleBuildId(probe.module()).insert(2, "/") + ".debug")
                 .c_str(),
             R_OK) == 0) {
    GTEST_SKIP() << program << " has a debug file here";
  }
  ElfSymbolizer symbolizer(ElfSymbolizerOptions{"", {}, true, true});
  ElfSymbolizer::Found found;
  ElfSymbolizer::Object* object = symbolizer.Open(program, "", &found);
  ASSERT_NE(object, nullptr);
  EXPECT_FALSE(symbolizer.HasDwarf(object));
  // libdwfl's standard search would have loaded libdebuginfod (and libcurl) to ask servers.
  std::ifstream maps("/proc/self/maps");
  const std::string mapped((std::istreambuf_iterator<char>(maps)),
                           std::istreambuf_iterator<char>());
  EXPECT_EQ(mapped.find("libdebuginfod"), std::string::npos);
}

}  // namespace
}  // namespace debug_file_search_test
}  // namespace proftools
