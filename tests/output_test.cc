// -o FILE's safety where other users can write (common/io/output.h): a symbolic link of another
// user's in a sticky directory is not followed, and another user's file does not give its mode.
// Both need files of another user: as root, which CI and `make check` on a fresh machine are;
// skipped otherwise, saying so.
#include "common/io/output.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/base/diagnostics.h"
#include "common/sqlite/temporary_database.h"

namespace proftools {
namespace output_test {  // a namespace of its own: the tests build as one unit
namespace {

constexpr uid_t kOtherUser = 65534;  // nobody

// A scratch directory, removed with what it holds.
struct Scratch {
  Scratch() {
    char name[] = "/tmp/output_test.XXXXXX";
    path = mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string path;
};

void WriteFile(const std::string& path, const std::string& text) {
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr) << path;
  std::fputs(text.c_str(), file);
  std::fclose(file);
}

std::string ReadFile(const std::string& path) {
  std::string text;
  FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) return "(none)";
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  std::fclose(file);
  return text;
}

std::string Refusal(const std::string& path) {
  try {
    Output output(path);
    output.Write("new");
    output.Commit();
  } catch (const ProfError& e) {
    return e.what();
  }
  return "(written)";
}

// Issue 47, item 3: in a sticky directory everyone may write, another user's link to the
// caller's file is not followed (the caller's file stays as it was); the caller's own link is.
TEST(Output, AnotherUsersLinkInAStickyDirectoryIsNotFollowed) {
  if (geteuid() != 0) GTEST_SKIP() << "SKIPPED: needs root, to own a link as another user";
  Scratch scratch;
  const std::string shared = scratch.path + "/shared";
  ASSERT_EQ(mkdir(shared.c_str(), 0777), 0);
  ASSERT_EQ(chmod(shared.c_str(), 01777), 0);
  const std::string victim = scratch.path + "/bashrc";
  WriteFile(victim, "mine");
  const std::string planted = shared + "/report.txt";
  ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
  ASSERT_EQ(lchown(planted.c_str(), kOtherUser, kOtherUser), 0);
  EXPECT_NE(Refusal(planted).find("is another user's symbolic link in a sticky directory"),
            std::string::npos)
      << Refusal(planted);
  EXPECT_EQ(ReadFile(victim), "mine");

  const std::string own = shared + "/own.txt";
  ASSERT_EQ(symlink(victim.c_str(), own.c_str()), 0);
  EXPECT_EQ(Refusal(own), "(written)");
  EXPECT_EQ(ReadFile(victim), "new");
}

// Issue 47, item 4: the mode of a file the output replaces is kept only when it is the
// caller's, less the umask and without set-id or sticky bits; another user's decoy gives none.
TEST(Output, OnlyTheCallersFileGivesItsMode) {
  if (geteuid() != 0) GTEST_SKIP() << "SKIPPED: needs root, to own a file as another user";
  Scratch scratch;
  const mode_t mask = umask(022);
  const std::string decoy = scratch.path + "/decoy.txt";
  WriteFile(decoy, "decoy");
  ASSERT_EQ(chmod(decoy.c_str(), 0666), 0);
  ASSERT_EQ(chown(decoy.c_str(), kOtherUser, kOtherUser), 0);
  EXPECT_EQ(Refusal(decoy), "(written)");
  struct stat written;
  ASSERT_EQ(stat(decoy.c_str(), &written), 0);
  EXPECT_EQ(written.st_mode & 07777, 0644u);

  const std::string own = scratch.path + "/own.txt";
  WriteFile(own, "own");
  ASSERT_EQ(chmod(own.c_str(), 04751), 0);
  EXPECT_EQ(Refusal(own), "(written)");
  ASSERT_EQ(stat(own.c_str(), &written), 0);
  EXPECT_EQ(written.st_mode & 07777, 0751u);
  umask(mask);
}

// The names in `directory`, "." and ".." aside.
std::string Entries(const std::string& directory) {
  std::string names;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return "(no directory)";
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names += (names.empty() ? "" : " ") + name;
  }
  closedir(dir);
  return names;
}

// Issue 47, item 9: a signal the program dies of removes the output's temporary file, for
// every signal that ends a program by default and can be caught (those that dump core are left
// out here, so that no core file is written).
TEST(OutputDeathTest, ASignalRemovesTheTemporaryFile) {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGUSR1, SIGUSR2}) {
    // A signal the shell ignores stays ignored (a background job's SIGINT): nothing to test.
    struct sigaction current;
    sigaction(signal_number, nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;
    Scratch scratch;
    const std::string path = scratch.path + "/out.prof";
    EXPECT_EXIT(
        {
          Output output(path);
          output.Write("partial");
          raise(signal_number);
        },
        ::testing::KilledBySignal(signal_number), "");
    EXPECT_EQ(Entries(scratch.path), "") << strsignal(signal_number);
  }
}

// A temporary database (sqlite2prof's copy of standard input, prof2sqlite's for standard
// output) goes too.
TEST(OutputDeathTest, ASignalRemovesATemporaryDatabase) {
  Scratch scratch;
  const char* previous = getenv("TMPDIR");
  const std::string saved = previous != nullptr ? previous : "";
  setenv("TMPDIR", scratch.path.c_str(), 1);
  EXPECT_EXIT(
      {
        TemporaryDatabase database;
        raise(SIGUSR1);
      },
      ::testing::KilledBySignal(SIGUSR1), "");
  if (previous != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_EQ(Entries(scratch.path), "");
}

}  // namespace
}  // namespace output_test
}  // namespace proftools
