// The streaming reader of the prof text format: lines -> tokens -> records -> checks -> sink.
//
// Memory is bounded by the definitions (ids the checker remembers, and whatever the sink keeps),
// never by the number of samples.
#ifndef PROFTOOLS_COMMON_TEXT_TEXT_READER_H_
#define PROFTOOLS_COMMON_TEXT_TEXT_READER_H_

#include <cstdint>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

// The version of the format this library reads and writes.
inline constexpr int kFormatMajor = 1;
inline constexpr int kFormatMinor = 0;

struct TextReadStats {
  int major = 0;
  int minor = 0;
  uint64_t lines = 0;
  uint64_t samples = 0;
  uint64_t skipped_records = 0;  // records of unknown kinds in a file of a newer minor version
};

// Reads prof text (already decompressed) from `stream`, named `name` in messages, into `sink`.
// Violations go to `handler`; the default handler (nullptr) throws ProfError at the first one.
// A handler that does not throw lets reading continue past bad lines (prof-validate); bad
// records are then not delivered to the sink.
TextReadStats ReadText(ByteStream* stream, const std::string& name, ProfileSink* sink,
                       DiagnosticHandler* handler = nullptr);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_TEXT_READER_H_
