// Classifies the lines of `perf script` text in context: a sample is a header line followed by
// its frames (leaf first), each frame possibly followed by a `-F +srcline` line, and ends at a
// blank (or whitespace-only, or CR-only) line, at the next header, or at the end of the input.
//
// Context decides what indentation alone cannot: inside a sample, an indented line is tried as
// a frame first (the hot path); anything else is tried as a header first (right-aligned comms
// are indented too, and perf 3.2 did not indent frames). A line that is none of these, or a
// frame outside a sample, is kUnknown: the caller counts it, and it never joins a sample.
// Both converter passes use this class, so they agree on every line (headers_only, below, is
// the one narrow exception, which the second pass reports).
#ifndef PROFTOOLS_COMMON_PERF_PERF_READER_H_
#define PROFTOOLS_COMMON_PERF_PERF_READER_H_

#include <cstdint>
#include <string_view>

#include "common/io/byte_stream.h"
#include "common/perf/perf_records.h"
#include "common/perf/perf_script.h"

namespace proftools {

class PerfScriptReader {
 public:
  enum class Kind {
    kBlank,    // ends the sample in progress
    kComment,  // `# ...`
    kHeader,   // a new sample; header_frame() says whether its (only) frame is on the line
    kFrame,    // a frame of the current sample
    kSrcline,  // file and line of the frame just before
    kRecord,   // a side-band record (`PERF_RECORD_MMAP2 ...`): record() says which
    kUnknown,  // not understood
  };

  // `stream` must outlive the reader. Throws LineReader::LineTooLong for absurd lines.
  // `headers_only` is for a first pass that needs only the headers: a tab-indented line inside
  // a sample (how perf prints every frame) is then taken for a frame unread, and skipped: Next
  // returns the next line that is not one. A line so taken
  // that a full read would find to be a header is an odd line the second pass reports.
  explicit PerfScriptReader(ByteStream* stream, bool headers_only = false)
      : lines_(stream), headers_only_(headers_only) {}
  // A reader of blocks of whole lines handed in by ContinueWith (perf_pipeline.h), which carry
  // the context (and the line numbers) of the blocks before.
  PerfScriptReader() : lines_(std::string_view(), 0), headers_only_(false) {}
  // Reads `block` next; it must outlive the lines read from it. A block holds whole lines but
  // may end anywhere in a sample. A line longer than `max_line` throws LineReader::LineTooLong.
  void ContinueWith(std::string_view block, size_t max_line = LineReader::kDefaultMaxLine) {
    lines_ = LineReader(block, lines_.line_number(), max_line);
  }

  // Reads and classifies the next line; false at the end of the input.
  bool Next();

  Kind kind() const { return kind_; }
  std::string_view line() const { return line_; }
  uint64_t line_number() const { return lines_.line_number(); }
  const PerfHeader& header() const { return header_; }  // kHeader
  bool header_frame() const { return header_frame_; }   // kHeader: frame_text() is set
  // kFrame, or kHeader with a frame: the frame, trimmed (ParsePerfFrame takes it apart).
  std::string_view frame_text() const { return frame_text_; }
  std::string_view src_file() const { return src_file_; }  // kSrcline
  int64_t src_line() const { return src_line_; }           // kSrcline
  // kSrcline: the srcline carried the `(inlined)` tag of the frame before it.
  bool src_inlined() const { return src_inlined_; }
  const PerfRecordLine& record() const { return record_; }  // kRecord

 private:
  Kind Classify();

  LineReader lines_;
  bool headers_only_;
  std::string_view line_;
  Kind kind_ = Kind::kBlank;
  bool in_sample_ = false;    // frame lines may follow
  bool after_frame_ = false;  // a srcline may follow
  PerfHeader header_;
  bool header_frame_ = false;
  std::string_view frame_text_;
  std::string_view src_file_;
  int64_t src_line_ = 0;
  bool src_inlined_ = false;
  PerfRecordLine record_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_READER_H_
