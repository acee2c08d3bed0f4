// Source files of a profile's functions, found and read much as pprof's -list finds them
// (internal/report/source.go): the path in the profile, trimmed of --trim-path prefixes (or, by
// pprof's heuristic, up to a search directory's own name), then looked for in each --source-path
// directory and its parents. Used by prof-text --list and prof-html's source pane.
//
// The profile is untrusted and prof-html's page is shared, so a file is read only when it is,
// symbolic links resolved, strictly under a --source-path directory (the working directory by
// default), with no component below it that starts with '.', and not under /proc, /sys or /dev.
// Each directory's parents are searched as pprof searches them, but what they find must be under
// a directory of the path too; pprof also reads absolute paths anywhere: not here (issue 47: a
// profile naming /etc/passwd or ../.ssh/id_rsa had them embedded in a shared page).
#ifndef PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_FILES_H_
#define PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_FILES_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

struct SourceText {
  bool found = false;
  std::string path;     // the file read, as found on the search path
  std::string problem;  // why there is no text: not found, not text, too large
  std::string content;
  std::vector<std::string_view> lines;  // lines[0] is line 1, without its line end
};

class SourceFiles {
 public:
  // Files larger than this are not read (their lines are listed without text).
  static constexpr size_t kMaxFileSize = size_t{64} << 20;

  // `search_path` and `trim_path` are lists separated by ':'; an empty search path is the
  // working directory.
  SourceFiles(std::string search_path, std::string trim_path);

  // The path the profile names, as pprof shows it: a --trim-path prefix (or /proc/self/cwd/)
  // removed, or without --trim-path, everything up to a search directory's name; then cleaned
  // (no "." or empty components, ".." folded) as Go's filepath.Clean does.
  std::string Trim(const std::string& path) const;

  // The text of the file at `trimmed` (a Trim result), read once.
  const SourceText& Get(const std::string& trimmed);

  const std::string& search_path() const { return search_path_; }

 private:
  void Read(const std::string& trimmed, SourceText* text) const;

  // Whether `candidate`, an existing file, may be read: sets *resolved to its real path, and
  // *why to the reason when it may not.
  bool Permitted(const std::string& candidate, std::string* resolved, std::string* why) const;

  std::string search_path_;
  std::vector<std::string> search_dirs_;
  std::vector<std::string> roots_;  // the search directories' real paths
  std::vector<std::string> trim_prefixes_;
  bool trim_given_ = false;
  std::map<std::string, SourceText> files_;
};

// Go's filepath.Clean, as pprof cleans file names: no "." components, no repeated or trailing
// slashes, ".." folded into a preceding name; "" becomes ".".
std::string CleanPath(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_FILES_H_
