// What a codec tells the registry about a reader (common/load/readers.cc holds the one table):
// its name, how to recognise its first bytes, how it reads, and what it reads into a sink.
// Adding a reader is a folder common/NAME/ with a `const ReaderSpec kNameReader` and one line
// in that table.
#ifndef PROFTOOLS_COMMON_MODEL_READER_SPEC_H_
#define PROFTOOLS_COMMON_MODEL_READER_SPEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/model/sink.h"

namespace proftools {

// How a reader goes through its input, and so what the memory rule allows it.
enum class ReaderShape {
  kStreaming,   // one pass; memory grows with distinct definitions
  kWholeInput,  // the whole (inflated) input in memory, capped by --max-input-size
  kTwoPasses,   // a first pass learns the preamble; a pipe is spooled to disk for the second
};

// How sure a sniffer is that the first bytes are its format. The registry takes the most
// confident reader; 0 is "not mine".
enum SniffConfidence : int {
  kNotMine = 0,
  kPlausible = 10,  // text that merely parses (folded stacks: "a;b 1")
  kLikely = 50,     // the shape of the format, without a signature
  kCertain = 100,   // a magic number or a signature line
};

// The default cap on an input read whole (pprof, JSON): such input is decoded in memory, so a
// gzip bomb or a runaway file must stop early. Every program that reads profiles offers
// --max-input-size to change it (CommandLine::AddMaxInputSizeOption).
inline constexpr uint64_t kDefaultMaxInputSize = uint64_t{1} << 30;  // 1 GiB

// A converter program's options for its format's reader, as data: {"symfs", "/srv/root"} for
// perf2prof --symfs. A reader takes the names it knows; the programs that offer none pass none.
using ReaderSettings = std::vector<std::pair<std::string, std::string>>;

// What a reader needs besides its input, the same for every reader: the program's input policy
// (cli/ fills it from --max-input-size and --allow-empty) and where diagnostics go.
struct ReadContext {
  std::string uri;  // the URI of the input's source: its path, "" for standard input
  uint64_t max_input_size = kDefaultMaxInputSize;  // whole-input readers refuse more (0: no cap)
  uint64_t max_spool_size = kDefaultMaxSpoolSize;  // a pipe read twice may spool no more (0: none)
  bool allow_empty = false;  // an input without samples gives a profile without samples
  DiagnosticHandler* violations = nullptr;  // format rules broken (nullptr: throw at the first)
  DiagnosticHandler* warnings = nullptr;    // converters' warnings (nullptr: dropped)
  ReaderSettings settings;                  // the converter program's options for the reader

  // The bound on the frames of the stacks a tree or nesting implies (Interner::LimitFrames):
  // 32 bytes a frame of --max-input-size (prof-html holds about 28 a frame of such stacks).
  uint64_t max_implied_frames() const { return max_input_size / 32; }

  // A converter's warning about the input `file` (dropped when nobody listens).
  void Warn(const std::string& file, const std::string& message) const {
    if (warnings != nullptr) warnings->Warning(Diagnostic{Rule::kInput, file, 0, message});
  }
};

struct ReaderSpec {
  const char* name;     // for --input-format NAME, and the source type of inputs without sources
  const char* summary;  // a noun phrase for messages ("perf script output", "an Rprof file")
  ReaderShape shape;
  // The program that converts this format with options of its own (e.g. "perf2prof"), or null.
  const char* converter;
  // The confidence that `head` (the first bytes of the decompressed input, up to 4 KiB; `text`:
  // no control bytes but TAB, CR, LF, FF, VT) is this format.
  int (*sniff)(std::string_view head, bool text);
  // Reads `input` into `sink` (OnHeader ... OnEnd). Throws ProfError for input it cannot read.
  // Whether what it delivers keeps the format's rules is the registry's to check, not its own,
  // unless `checks_itself`.
  void (*read)(Input& input, const ReadContext& context, ProfileSink* sink);
  bool checks_itself = false;
  // A format recognised only to say how to convert it (pprof's legacy formats, perf.data): `read`
  // throws that advice.
  bool only_advises = false;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_READER_SPEC_H_
