// Opening a program's inputs: a path or "-" for stdin, gunzipping, and content sniffing (prof
// text, pprof protobuf, or something else, with a hint at the program that reads it). Reading
// the profile inside is common/load/read_profile.h.
#ifndef PROFTOOLS_COMMON_IO_INPUT_H_
#define PROFTOOLS_COMMON_IO_INPUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"

namespace proftools {

enum class InputFormat {
  kEmpty,        // no bytes at all
  kProfText,     // starts with "proftext "
  kPprof,        // looks like a serialized perftools.profiles.Profile
  kLegacyPprof,  // one of the older formats pprof reads (legacy_pprof.h); hint says what to do
  kOther,        // text or binary of another kind
};

const char* InputFormatName(InputFormat format);

// An opened input, decompressed when it was gzipped.
struct Input {
  std::string name;  // as given on the command line; "-" is shown as "<stdin>"
  bool gzipped = false;
  InputFormat format = InputFormat::kOther;
  bool text = false;  // the content is text (not binary)
  // For kOther: what it looks like and which program reads it, if known. For kLegacyPprof: the
  // whole message, "this is FORMAT, ...: convert it with ...".
  std::string hint;
  std::unique_ptr<ByteStream> stream;  // yields the (decompressed) content from its first byte
};

// Opens `path` ("-" is stdin) and sniffs its content. Throws ProfError when it cannot be opened.
// `max_inflate` caps the size of gzipped content (0: no cap).
Input OpenInput(const std::string& path, uint64_t max_inflate = 0);

// The same for content that is already open (bytes in memory as a MemoryStream, for tests and
// fuzzing): gunzips and sniffs `raw`, named `name` in messages.
Input OpenInputStream(std::unique_ptr<ByteStream> raw, std::string name, uint64_t max_inflate = 0);

struct Sniffed {
  InputFormat format = InputFormat::kOther;
  bool text = false;
  std::string hint;
};

// Guesses the format of the first bytes of (decompressed) content.
Sniffed SniffFormat(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_INPUT_H_
