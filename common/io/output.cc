#include "common/io/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "common/base/diagnostics.h"
#include "common/io/temp_files.h"

namespace proftools {
namespace {

constexpr size_t kBufferSize = size_t{1} << 16;

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file `path` names once symbolic links in its last component are followed, every level
// (a relative link is read from the link's directory); `path` itself when it is no link, and a
// dangling link's target, which is then created. Renaming onto the link would replace the link
// with a file; renaming onto its target writes through it, as `>` does, and stays atomic.
// A link is followed as the kernel's fs.protected_symlinks follows it: in a sticky directory
// that everyone may write (/tmp), only a link of the caller's or of the directory's owner.
// Another user's link there would make us replace, by rename, a file the caller may write and
// that user may not (their own ~/.bashrc): refused, where the shell's `>` is refused too.
std::string FollowLinks(const std::string& path) {
  constexpr int kMaxLevels = 40;  // the kernel's limit (ELOOP)
  std::string current = path;
  for (int level = 0; level < kMaxLevels; ++level) {
    struct stat link;
    if (lstat(current.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return current;
    struct stat directory;
    if (stat(DirectoryOf(current).c_str(), &directory) == 0 && (directory.st_mode & S_ISVTX) &&
        (directory.st_mode & S_IWOTH) && link.st_uid != geteuid() &&
        link.st_uid != directory.st_uid) {
      throw ProfError(path, current +
                                " is another user's symbolic link in a sticky directory that "
                                "everyone may write: not followed (as the kernel's "
                                "protected_symlinks refuses it); give the file's own path");
    }
    std::string target(4096, '\0');
    ssize_t length;
    while ((length = readlink(current.c_str(), &target[0], target.size())) ==
           static_cast<ssize_t>(target.size())) {
      target.resize(target.size() * 2);
    }
    if (length < 0) {
      throw ProfError(path,
                      "cannot read the symbolic link " + current + ": " + std::strerror(errno));
    }
    target.resize(static_cast<size_t>(length));
    current =
        !target.empty() && target.front() == '/' ? target : DirectoryOf(current) + "/" + target;
  }
  throw ProfError(path, "too many levels of symbolic links");
}

}  // namespace

Output::Output(const std::string& path) {
  buffer_.reserve(kBufferSize);
  // `-o /dev/stdout` is standard output itself, whatever it is: resolved to the file the shell
  // opened, it would be replaced, losing what `>>` appended to.
  if (path.empty() || path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" ||
      path == "/proc/self/fd/1") {
    name_ = "<stdout>";
    fd_ = 1;
    WidenPipe(fd_);
    return;
  }
  name_ = path;
  struct stat target;
  const bool exists = stat(path.c_str(), &target) == 0;
  if (exists && S_ISDIR(target.st_mode)) throw ProfError(path, "is a directory");
  if (exists && !S_ISREG(target.st_mode)) {
    // A device, FIFO or socket (`-o /dev/null`, `-o /dev/stdout`, a named pipe): renaming a
    // temporary file over it would replace the device node with a regular file, so write to
    // it in place. Atomicity means nothing for a stream anyway.
    fd_ = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw ProfError(path, std::string("cannot open: ") + std::strerror(errno));
    in_place_ = true;
    return;
  }
  path_ = FollowLinks(path);
  std::string temp = DirectoryOf(path_) + "/." + BaseOf(path_) + ".tmp-XXXXXX";
  fd_ = mkostemp(&temp[0], O_CLOEXEC);
  if (fd_ < 0) {
    const std::string next_to = path_ == path ? "it" : "its target " + path_;
    throw ProfError(
        path, "cannot create a temporary file next to " + next_to + ": " + std::strerror(errno));
  }
  temp_path_ = temp;
  RegisterTemp(temp_path_.c_str());
  // mkstemp creates mode 0600; give the file the mode a plain creat() would have, 0666 less the
  // umask, or the permissions of a file of the caller's that it replaces, less the umask. Never
  // the mode of another user's file (a 0666 decoy would make the report writable by them), nor
  // set-user-id, set-group-id or sticky.
  const mode_t mask = umask(0);
  umask(mask);
  mode_t mode = 0666 & ~mask;
  if (exists && target.st_uid == geteuid()) mode = target.st_mode & 0777 & ~mask;
  fchmod(fd_, mode);
}

Output::~Output() {
  if (in_place_) {
    if (fd_ >= 0) close(fd_);
    return;
  }
  if (temp_path_.empty()) return;
  if (fd_ >= 0) close(fd_);
  if (!committed_) unlink(temp_path_.c_str());
  UnregisterTemp(temp_path_.c_str());
}

bool Output::IsTerminal() const {
  return (is_stdout() || in_place_) && isatty(fd_);
}

void Output::WriteAll(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw ProfError(name_, std::string("write error: ") + std::strerror(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void Output::Write(std::string_view data) {
  if (buffer_.size() + data.size() > kBufferSize) {
    Flush();
    if (data.size() >= kBufferSize) {
      WriteAll(data.data(), data.size());
      return;
    }
  }
  buffer_.append(data.data(), data.size());
}

void Output::Flush() {
  if (buffer_.empty()) return;
  WriteAll(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void Output::Commit() {
  Flush();
  if (in_place_) {
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) throw ProfError(name_, std::string("write error: ") + std::strerror(errno));
    return;
  }
  if (temp_path_.empty()) return;
  if (fsync(fd_) != 0 && errno != EINVAL) {
    throw ProfError(name_, std::string("cannot sync: ") + std::strerror(errno));
  }
  if (close(fd_) != 0) {
    fd_ = -1;
    throw ProfError(name_, std::string("write error: ") + std::strerror(errno));
  }
  fd_ = -1;
  if (rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw ProfError(
        name_, std::string("cannot rename the temporary file into place: ") + std::strerror(errno));
  }
  committed_ = true;
}

}  // namespace proftools
