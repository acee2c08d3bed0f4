// Opening a program's inputs: a path or "-" for stdin, gunzipping, and the first bytes kept for
// the registry's sniffers. Reading the profile inside is common/load/read_profile.h.
#ifndef PROFTOOLS_COMMON_IO_INPUT_H_
#define PROFTOOLS_COMMON_IO_INPUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"

namespace proftools {

class WholeInput;

// An opened input, decompressed when it was gzipped. What format it holds is the registry's to
// say (common/load/readers.h), from `head`.
struct Input {
  std::string name;  // as given on the command line; "-" is shown as "<stdin>"
  // The path to open it again by (a second pass), "" when it cannot be: standard input, a pipe,
  // bytes in memory.
  std::string reopen_path;
  bool gzipped = false;
  std::string head;   // the first bytes of the (decompressed) content, up to kSniffBytes
  bool text = false;  // `head` has no control bytes but TAB, CR and LF
  std::unique_ptr<ByteStream> stream;  // yields the (decompressed) content from its first byte
  // A small gzipped file's content, inflated whole when it was opened (a fleet's inputs: once,
  // with libdeflate, instead of its first bytes with zlib to sniff them and then the whole
  // again); `stream` reads it, and ReadWholeInput takes it. Null otherwise.
  std::shared_ptr<WholeInput> inflated;
};

inline constexpr size_t kSniffBytes = 4096;

// Opens `path` ("-" is stdin) and sniffs its content. Throws ProfError when it cannot be opened.
// `max_inflate` caps the size of gzipped content (0: no cap). The programs pass none: streaming
// readers need no cap (memory grows with distinct definitions, not bytes), and whole-input
// readers cap what they hold themselves (ReadWholeInput, --max-input-size). The fuzzers pass one,
// to bound the time a gzip bomb costs a streaming reader.
Input OpenInput(const std::string& path, uint64_t max_inflate = 0);

// The same for content that is already open (bytes in memory as a MemoryStream, for tests and
// fuzzing): gunzips and sniffs `raw`, named `name` in messages.
Input OpenInputStream(std::unique_ptr<ByteStream> raw, std::string name, uint64_t max_inflate = 0);

// Whether `head` has no control bytes but TAB, CR and LF.
bool LooksLikeText(std::string_view head);

// The first line of `head` (without its newline), for messages.
std::string_view FirstLine(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_INPUT_H_
