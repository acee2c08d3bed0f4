// FlameGraph's folded stacks (`root;...;leaf VALUE` lines, as stackcollapse-*.pl, inferno,
// async-profiler -o collapsed, py-spy --format raw, bpftrace and bcc's profile -f and
// prof-text --folded write them) into a profile. Not a format of ours: it has no times, no
// addresses, and only what frame names and annotations say (formats/prof-text.md).
//
// Several inputs are one profile: one source of type "folded" per input. Identical stacks add
// up; the order of lines does not matter (samples are emitted at Finish, one per distinct stack
// and labels, in an order of their content). Memory grows with distinct stacks, not lines.
#ifndef PROFTOOLS_COMMON_FOLDED_FOLDED_READER_H_
#define PROFTOOLS_COMMON_FOLDED_FOLDED_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/io/input.h"
#include "common/model/model.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

// The registry's entry: name "folded", streaming, converter folded2prof.
extern const ReaderSpec kFoldedReader;

// kFoldedReader's sniffer: kPlausible when the first non-blank, non-comment lines of `head`
// look like `frame;... VALUE` (a line cut by the end of `head` is not held against it), never
// for prof text.
int SniffFolded(std::string_view head, bool text);

struct FoldedOptions {
  ValueType type{"samples", "count"};  // --type NAME/UNIT; two-value lines: before/after
  bool keep_annotations = false;       // _[k] and the like stay part of the name
  bool thread_root = false;            // a thread or process root frame becomes labels
  bool plain_frames = false;           // py-spy's `name (file:line)` kept whole
  bool raw_names = false;              // prof-text --folded's escapes kept as they are
  // Lines that do not parse are skipped and counted in one warning per input, as flamegraph.pl
  // ignores them ("Ignored N lines with invalid format"); folded2prof --strict refuses them.
  bool skip_invalid = true;
  bool allow_empty = false;            // an input without stacks is not an error
  size_t max_line = size_t{16} << 20;  // a longer line is an error (memory stays bounded)
};

// Parses `text` as --type's NAME/UNIT. Throws UsageError.
ValueType ParseFoldedType(const std::string& text);

class FoldedReader {
 public:
  // `warnings` (may be null) receives skipped lines and value conversions.
  FoldedReader(FoldedOptions options, DiagnosticHandler* warnings);
  ~FoldedReader();
  FoldedReader(const FoldedReader&) = delete;
  FoldedReader& operator=(const FoldedReader&) = delete;

  // Reads one input to its end (a source with `uri`; "" for standard input). Throws ProfError
  // `NAME:LINE: what is wrong` for a line it cannot read.
  void Add(Input& input, const std::string& uri);
  // Delivers the profile of every input added: OnHeader ... OnEnd.
  void Finish(ProfileSink* sink);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FOLDED_FOLDED_READER_H_
