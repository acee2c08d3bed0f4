// Opening a program's inputs: a path or "-" for stdin, content sniffing (prof text, gzip, pprof
// protobuf, or something else), and reading a profile of whatever supported format into a sink.
#ifndef PROFTOOLS_COMMON_INPUT_H_
#define PROFTOOLS_COMMON_INPUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/byte_stream.h"
#include "common/diagnostics.h"
#include "common/sink.h"

namespace proftools {

enum class InputFormat {
  kEmpty,     // no bytes at all
  kProfText,  // starts with "proftext "
  kPprof,     // looks like a serialized perftools.profiles.Profile
  kOther,     // text or binary of another kind
};

const char* InputFormatName(InputFormat format);

// An opened input, decompressed when it was gzipped.
struct Input {
  std::string name;  // as given on the command line; "-" is shown as "<stdin>"
  bool gzipped = false;
  InputFormat format = InputFormat::kOther;
  bool text = false;  // the content is text (not binary)
  std::string hint;   // for kOther: what it looks like and which program reads it, if known
  std::unique_ptr<ByteStream> stream;  // yields the (decompressed) content from its first byte
};

// Opens `path` ("-" is stdin) and sniffs its content. Throws ProfError when it cannot be opened.
// `max_inflate` caps the size of gzipped content (0: no cap).
Input OpenInput(const std::string& path, uint64_t max_inflate = 0);

struct Sniffed {
  InputFormat format = InputFormat::kOther;
  bool text = false;
  std::string hint;
};

// Guesses the format of the first bytes of (decompressed) content.
Sniffed SniffFormat(std::string_view head);

// The default cap on a pprof input's (inflated) size: pprof input is decoded in memory, so a
// gzip bomb or a runaway file must stop early. Every program that reads profiles offers
// --max-input-size to change it (CommandLine::AddMaxInputSizeOption).
inline constexpr uint64_t kDefaultMaxPprofSize = uint64_t{1} << 30;  // 1 GiB

struct ReadOptions {
  DiagnosticHandler* handler = nullptr;  // nullptr: throw at the first violation
  uint64_t max_pprof_size = kDefaultMaxPprofSize;
};

// Reads a profile in any supported format from `input` into `sink`. Throws ProfError (or reports
// to the handler) when the content is not a profile this build can read.
void ReadProfile(Input& input, ProfileSink* sink, const ReadOptions& options = {});

// Opens and reads a whole profile into memory.
Profile LoadProfile(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_INPUT_H_
