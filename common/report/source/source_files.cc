#include "common/report/source/source_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "common/report/reports.h"

namespace proftools {
namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t colon = list.find(':', start);
    const size_t end = colon == std::string::npos ? list.size() : colon;
    if (end > start) parts.push_back(list.substr(start, end - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return parts;
}

std::string CleanBaseName(const std::string& path) {
  const std::string clean = CleanPath(path);
  const size_t slash = clean.rfind('/');
  return slash == std::string::npos ? clean : clean.substr(slash + 1);
}

std::string Parent(const std::string& dir) {
  const std::string clean = CleanPath(dir);
  const size_t slash = clean.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : clean.substr(0, slash);
}

// The real path of `path` (symbolic links resolved), or "" when it has none.
std::string RealPath(const std::string& path) {
  std::unique_ptr<char, void (*)(void*)> real(realpath(path.c_str(), nullptr), std::free);
  return real ? std::string(real.get()) : std::string();
}

// Whether `path` is `dir` or under it (both clean and absolute).
bool IsUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

std::string CleanPath(const std::string& path) {
  const bool absolute = !path.empty() && path[0] == '/';
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(start, slash - start);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!absolute) {
        parts.push_back(part);
      }
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = slash + 1;
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

SourceFiles::SourceFiles(std::string search_path, std::string trim_path)
    : search_path_(std::move(search_path)) {
  if (search_path_.empty()) {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) != nullptr) search_path_ = cwd;
  }
  search_dirs_ = SplitList(search_path_);
  for (const std::string& dir : search_dirs_) {
    std::string root = RealPath(dir);
    if (!root.empty()) roots_.push_back(std::move(root));
  }
  trim_given_ = !trim_path.empty();
  trim_prefixes_ = SplitList(trim_path);
  trim_prefixes_.push_back("/proc/self/cwd/./");
  trim_prefixes_.push_back("/proc/self/cwd/");
  for (std::string& prefix : trim_prefixes_) {
    if (prefix.back() != '/') prefix += '/';
  }
}

std::string SourceFiles::Trim(const std::string& path) const {
  if (!trim_given_) {
    // pprof's guess: a search directory's name inside the path ("/build/x/myproj/a/b.c" with
    // a search path ending in myproj) starts the relative path.
    for (const std::string& dir : search_dirs_) {
      const std::string want = "/" + CleanBaseName(dir) + "/";
      const size_t found = path.find(want);
      if (found != std::string::npos) return CleanPath(path.substr(found + want.size()));
    }
  }
  for (const std::string& prefix : trim_prefixes_) {
    if (path.compare(0, prefix.size(), prefix) == 0) return CleanPath(path.substr(prefix.size()));
  }
  return CleanPath(path);
}

const SourceText& SourceFiles::Get(const std::string& trimmed) {
  auto it = files_.find(trimmed);
  if (it == files_.end()) {
    // Read in place: the lines are views of the content, which must not move.
    it = files_.emplace(trimmed, SourceText()).first;
    Read(trimmed, &it->second);
  }
  return it->second;
}

bool SourceFiles::Permitted(const std::string& candidate, std::string* resolved,
                            std::string* why) const {
  *resolved = RealPath(candidate);
  if (resolved->empty()) {
    *why = "cannot resolve " + DisplayFrameName(candidate) + ": " + std::strerror(errno);
    return false;
  }
  for (const char* system : {"/proc", "/sys", "/dev"}) {
    if (IsUnder(*resolved, system)) {
      *why = "not reading " + DisplayFrameName(candidate) + ": under " + system;
      return false;
    }
  }
  for (const std::string& root : roots_) {
    if (*resolved == root || !IsUnder(*resolved, root)) continue;
    // The part below the root, from its slash: a hidden name is one after a slash.
    const std::string_view below =
        std::string_view(*resolved).substr(root == "/" ? 0 : root.size());
    if (below.find("/.") != std::string_view::npos) {
      *why = "not reading " + DisplayFrameName(candidate) +
             ": a hidden file or directory (a name starting with '.') under the source path";
      return false;
    }
    return true;
  }
  *why = "not reading " + DisplayFrameName(candidate) + ": outside the source path " +
         DisplayFrameName(search_path_) +
         ", symbolic links resolved (give its directory with --source-path)";
  return false;
}

void SourceFiles::Read(const std::string& trimmed, SourceText* out) const {
  SourceText& text = *out;
  std::vector<std::string> candidates;
  if (!trimmed.empty() && trimmed[0] == '/') {
    candidates.push_back(trimmed);
  } else {
    // Each directory and its parents, as pprof searches ("testdata/x.c" with --source-path
    // testdata is testdata/x.c); what is found must still be under a directory of the path.
    for (std::string dir : search_dirs_) {
      for (;;) {
        candidates.push_back(CleanPath(dir + "/" + trimmed));
        const std::string parent = Parent(dir);
        if (parent == CleanPath(dir)) break;
        dir = parent;
      }
    }
  }
  std::string found, real, refused;  // real: what is opened (the links resolved when checked)
  for (const std::string& candidate : candidates) {
    if (!IsRegularFile(candidate)) continue;
    std::string resolved, why;
    if (Permitted(candidate, &resolved, &why)) {
      found = candidate;
      real = resolved;
      break;
    }
    if (refused.empty()) refused = why;
  }
  if (found.empty()) {
    text.problem = !refused.empty() ? refused
                                    : "could not find file " + DisplayFrameName(trimmed) +
                                          " on path " + DisplayFrameName(search_path_);
    return;
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(real.c_str(), "rb"), std::fclose);
  if (!file) {
    text.problem = "cannot open " + found + ": " + std::strerror(errno);
    return;
  }
  char buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0;) {
    if (text.content.size() + n > kMaxFileSize) {
      text.problem = found + " is larger than 64 MiB";
      text.content.clear();
      return;
    }
    text.content.append(buffer, n);
  }
  if (text.content.find('\0') != std::string::npos) {
    text.problem = found + " is not a text file (it holds NUL bytes)";
    text.content.clear();
    return;
  }
  std::string_view rest(text.content);
  while (!rest.empty()) {
    const size_t newline = rest.find('\n');
    std::string_view line = rest.substr(0, newline);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // as Go's ScanLines
    text.lines.push_back(line);
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  text.found = true;
  text.path = found;
}

}  // namespace proftools
