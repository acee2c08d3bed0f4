#include "common/io/input.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <utility>

namespace proftools {
namespace {

// Reads up to `n` bytes (fewer only at the end of the stream).
std::string ReadHead(ByteStream* stream, size_t n) {
  std::string head(n, '\0');
  size_t have = 0;
  while (have < n) {
    const size_t got = stream->Read(&head[have], n - have);
    if (got == 0) break;
    have += got;
  }
  head.resize(have);
  return head;
}

bool IsTextByte(unsigned char c) {
  return c >= 0x20 || c == '\n' || c == '\r' || c == '\t';
}

}  // namespace

bool LooksLikeText(std::string_view head) {
  for (char c : head) {
    if (!IsTextByte(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string_view FirstLine(std::string_view head) {
  return head.substr(0, head.find('\n'));
}

Input OpenInput(const std::string& path, uint64_t max_inflate) {
  if (path == "-") {
    return OpenInputStream(std::make_unique<FdStream>(0, "<stdin>", false), "<stdin>", max_inflate);
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ProfError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    throw ProfError(path, "is a directory");
  }
  Input input = OpenInputStream(std::make_unique<FdStream>(fd, path, true), path, max_inflate);
  if (S_ISREG(st.st_mode)) input.reopen_path = path;
  return input;
}

Input OpenInputStream(std::unique_ptr<ByteStream> raw, std::string name, uint64_t max_inflate) {
  Input input;
  input.name = std::move(name);
  std::string head = ReadHead(raw.get(), kSniffBytes);
  std::unique_ptr<ByteStream> stream = std::make_unique<PrefixedStream>(head, std::move(raw));
  if (LooksGzipped(head)) {
    input.gzipped = true;
    stream = std::make_unique<GzipStream>(std::move(stream), input.name, max_inflate);
    head = ReadHead(stream.get(), kSniffBytes);
    stream = std::make_unique<PrefixedStream>(head, std::move(stream));
  }
  input.text = LooksLikeText(head);
  input.head = std::move(head);
  input.stream = std::move(stream);
  return input;
}

}  // namespace proftools
