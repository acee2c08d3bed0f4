// prof-text --list's source files (common/report/source/source_files.h): names trimmed and files
// found as pprof's -list does (internal/report/source.go trimPath, openSourceFile).
#include "common/report/source/source_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace proftools {
namespace source_files_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(SourceFiles, TrimsAsPprof) {
  // Without --trim-path: from a search directory's own name on (a profile made elsewhere).
  SourceFiles guess("/home/me/myproj", "");
  EXPECT_EQ(guess.Trim("/build/x/myproj/src/a.c"), "src/a.c");
  EXPECT_EQ(guess.Trim("/proc/self/cwd/./src/a.c"), "src/a.c");
  EXPECT_EQ(guess.Trim("src//./b/../a.c"), "src/a.c");  // cleaned as Go's filepath.Clean
  EXPECT_EQ(guess.Trim("/usr/include/stdio.h"), "/usr/include/stdio.h");
  // With it, the prefixes given (a missing final slash added), and no guess.
  SourceFiles given("/home/me/myproj", "/build/x:/other/");
  EXPECT_EQ(given.Trim("/build/x/myproj/src/a.c"), "myproj/src/a.c");
  EXPECT_EQ(given.Trim("/other/y.c"), "y.c");
}

void WriteFile(const std::string& path, const char* text) {
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(text, f);
  std::fclose(f);
}

TEST(SourceFiles, FindsUnderTheSourcePathAndSplitsLines) {
  char dir_template[] = "/tmp/source-files-test.XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  ASSERT_EQ(mkdir((dir + "/deep").c_str(), 0700), 0);
  ASSERT_EQ(mkdir((dir + "/deep/er").c_str(), 0700), 0);
  WriteFile(dir + "/deep/a.c", "one\r\ntwo\n\nfour");
  SourceFiles files(dir + "/deep", "");
  // "deep/a.c" is not in deep/ but its parent's deep/a.c is: pprof's search, inside the path.
  const SourceText& text = files.Get("deep/a.c");
  ASSERT_TRUE(text.found) << text.problem;
  ASSERT_EQ(text.lines.size(), 4u);
  EXPECT_EQ(text.lines[0], "one");  // \r\n ends a line, as Go's ScanLines
  EXPECT_EQ(text.lines[2], "");
  EXPECT_EQ(text.lines[3], "four");
  const SourceText& missing = files.Get("b.c");
  EXPECT_FALSE(missing.found);
  EXPECT_NE(missing.problem.find("could not find file b.c"), std::string::npos);
  std::remove((dir + "/deep/a.c").c_str());
  rmdir((dir + "/deep/er").c_str());
  rmdir((dir + "/deep").c_str());
  rmdir(dir.c_str());
}

// A profile is untrusted: nothing above the source path, hidden, under /proc, or reached by a
// link out of the path is read (issue 47, item 2).
TEST(SourceFiles, ReadsOnlyUnderTheSourcePath) {
  char dir_template[] = "/tmp/source-files-test.XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  ASSERT_EQ(mkdir((dir + "/proj").c_str(), 0700), 0);
  ASSERT_EQ(mkdir((dir + "/proj/.git").c_str(), 0700), 0);
  WriteFile(dir + "/above.c", "secret\n");
  WriteFile(dir + "/proj/.git/config", "secret\n");
  WriteFile(dir + "/proj/ok.c", "fine\n");
  ASSERT_EQ(symlink("../above.c", (dir + "/proj/link.c").c_str()), 0);
  SourceFiles files(dir + "/proj", "");
  EXPECT_TRUE(files.Get("ok.c").found);
  EXPECT_TRUE(files.Get(dir + "/proj/ok.c").found);  // absolute, under the path
  for (const std::string& name : {std::string("../above.c"), dir + "/above.c",
                                  std::string("link.c"), std::string(".git/config")}) {
    const SourceText& text = files.Get(name);
    EXPECT_FALSE(text.found) << name;
    EXPECT_NE(text.problem.find("not reading"), std::string::npos) << name << ": " << text.problem;
  }
  EXPECT_NE(files.Get("/proc/self/maps").problem.find("under /proc"), std::string::npos);
  SourceFiles from_root("/", "");
  EXPECT_FALSE(from_root.Get("/proc/self/maps").found);
  EXPECT_FALSE(from_root.Get(dir + "/proj/.git/config").found);
  EXPECT_TRUE(from_root.Get(dir + "/above.c").found);  // `/` given: the user's choice
  for (const char* name : {"/above.c", "/proj/.git/config", "/proj/ok.c", "/proj/link.c"}) {
    std::remove((dir + name).c_str());
  }
  rmdir((dir + "/proj/.git").c_str());
  rmdir((dir + "/proj").c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace source_files_test
}  // namespace proftools
