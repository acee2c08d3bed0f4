#include "common/io/input.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "common/base/text_syntax.h"
#include "common/io/legacy_pprof.h"

namespace proftools {
namespace {

constexpr size_t kSniffBytes = 4096;

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

bool ReadVarint(std::string_view s, size_t* i, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && *i < s.size(); shift += 7) {
    const unsigned char byte = static_cast<unsigned char>(s[(*i)++]);
    *value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0) return true;
  }
  return false;
}

bool IsTextByte(unsigned char c) {
  return c >= 0x20 || c == '\n' || c == '\r' || c == '\t';
}

// True when `head` parses as the start of a perftools.profiles.Profile message: every field
// number is one of the message's (1-15) with its wire type. Plain text never gets here.
bool LooksLikeProfileProto(std::string_view head) {
  size_t i = 0;
  int fields = 0;
  while (i < head.size()) {
    uint64_t tag;
    if (!ReadVarint(head, &i, &tag)) break;  // cut by the sniff window
    const uint64_t field = tag >> 3;
    const uint64_t wire = tag & 7;
    if (field < 1 || field > 15) return false;
    const bool length_delimited = field <= 6 || field == 11;
    const bool ok = length_delimited ? wire == 2 : (wire == 0 || (field == 13 && wire == 2));
    if (!ok) return false;
    uint64_t value;
    if (!ReadVarint(head, &i, &value)) break;
    if (wire == 2) {
      if (value > head.size() - i) break;  // runs past the window: fine
      i += static_cast<size_t>(value);
    }
    ++fields;
  }
  return fields > 0;
}

std::string_view FirstLine(std::string_view head) {
  const size_t newline = head.find('\n');
  return head.substr(0, newline);
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool LooksLikeRprof(std::string_view head) {
  std::string_view line = FirstLine(head);
  for (std::string_view prefix : {"memory profiling: ", "GC profiling: ", "line profiling: "}) {
    if (StartsWith(line, prefix)) line.remove_prefix(prefix.size());
  }
  return StartsWith(line, "sample.interval=");
}

bool LooksLikePerfScript(std::string_view head) {
  if (StartsWith(head, "# ========")) return true;
  // A stack line: a tab, then a hex address, then a symbol.
  for (size_t pos = head.find("\n\t"); pos != std::string_view::npos;
       pos = head.find("\n\t", pos + 1)) {
    size_t i = pos + 2;
    while (i < head.size() && head[i] == ' ') ++i;
    size_t digits = 0;
    while (i + digits < head.size() &&
           std::isxdigit(static_cast<unsigned char>(head[i + digits]))) {
      ++digits;
    }
    if (digits >= 4 && i + digits < head.size() && head[i + digits] == ' ') return true;
  }
  return false;
}

}  // namespace

const char* InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kEmpty:
      return "empty";
    case InputFormat::kProfText:
      return "prof text";
    case InputFormat::kPprof:
      return "pprof protobuf";
    case InputFormat::kLegacyPprof:
      return "legacy pprof";
    case InputFormat::kOther:
      return "unknown";
  }
  return "unknown";
}

Sniffed SniffFormat(std::string_view head) {
  Sniffed sniffed;
  bool text = true;
  for (char c : head) text = text && IsTextByte(static_cast<unsigned char>(c));
  sniffed.text = text;
  if (head.empty()) {
    sniffed.format = InputFormat::kEmpty;
  } else if (StartsWith(head, "proftext ")) {
    sniffed.format = InputFormat::kProfText;
  } else if (std::string legacy = LegacyPprofFormat(head); !legacy.empty()) {
    sniffed.format = InputFormat::kLegacyPprof;
    sniffed.hint = LegacyPprofAdvice(legacy);
  } else if (StartsWith(head, std::string_view("SQLite format 3\0", 16))) {
    sniffed.hint = "it is a SQLite database; convert it with sqlite2prof";
  } else if (!text && LooksLikeProfileProto(head)) {
    sniffed.format = InputFormat::kPprof;
  } else if (text && LooksLikeRprof(head)) {
    sniffed.hint = "it looks like an R Rprof() file; convert it with rprof2prof";
  } else if (text && LooksLikePerfScript(head)) {
    sniffed.hint = "it looks like 'perf script' output; convert it with perf2prof";
  } else if (text) {
    sniffed.hint = "the first line must be 'proftext MAJOR.MINOR', found " +
                   Printable(FirstLine(head).substr(0, 60));
  } else {
    sniffed.hint = "it is binary data, neither a prof text nor a pprof profile";
  }
  return sniffed;
}

Input OpenInput(const std::string& path, uint64_t max_inflate) {
  if (path == "-") {
    return OpenInputStream(std::make_unique<FdStream>(0, "<stdin>", false), "<stdin>", max_inflate);
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ProfError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    throw ProfError(path, "is a directory");
  }
  return OpenInputStream(std::make_unique<FdStream>(fd, path, true), path, max_inflate);
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
  Sniffed sniffed = SniffFormat(head);
  input.format = sniffed.format;
  input.text = sniffed.text;
  input.hint = std::move(sniffed.hint);
  input.stream = std::move(stream);
  return input;
}

}  // namespace proftools
