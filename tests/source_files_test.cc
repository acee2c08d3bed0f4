// prof-text --list's source files (common/report/source/source_files.h): names trimmed and files found
// as pprof's -list does (internal/report/source.go trimPath, openSourceFile).
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

TEST(SourceFiles, FindsInParentsAndSplitsLines) {
  char dir_template[] = "/tmp/source-files-test.XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  ASSERT_EQ(mkdir((dir + "/deep").c_str(), 0700), 0);
  ASSERT_EQ(mkdir((dir + "/deep/er").c_str(), 0700), 0);
  FILE* f = std::fopen((dir + "/a.c").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("one\r\ntwo\n\nfour", f);
  std::fclose(f);
  SourceFiles files(dir + "/deep/er", "");
  const SourceText& text = files.Get("a.c");  // found two directories up
  ASSERT_TRUE(text.found) << text.problem;
  ASSERT_EQ(text.lines.size(), 4u);
  EXPECT_EQ(text.lines[0], "one");  // \r\n ends a line, as Go's ScanLines
  EXPECT_EQ(text.lines[2], "");
  EXPECT_EQ(text.lines[3], "four");
  const SourceText& missing = files.Get("b.c");
  EXPECT_FALSE(missing.found);
  EXPECT_NE(missing.problem.find("could not find file b.c"), std::string::npos);
  std::remove((dir + "/a.c").c_str());
  rmdir((dir + "/deep/er").c_str());
  rmdir((dir + "/deep").c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace source_files_test
}  // namespace proftools
