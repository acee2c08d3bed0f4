// The second pass of perf2prof on two cores. Reading perf script text is two jobs of about the
// same size: cutting it into lines and classifying them (headers parsed, frames trimmed,
// records recognised: PerfScriptReader), and turning frames into locations and stacks (the
// converter's interning). A PerfPipelinedReader does the first on a thread of its own, ahead
// of the converter, in blocks of whole lines, and hands the converter the same lines, in the
// same order, with the same classification as a PerfScriptReader on the whole stream (its
// state carries from block to block): the output does not depend on it.
//
// Memory stays bounded: at most kBlocksInFlight blocks (each its bytes and a small record per
// line) exist at a time; the reading thread waits for the converter, not the other way round.
#ifndef PROFTOOLS_COMMON_PERF_PERF_PIPELINE_H_
#define PROFTOOLS_COMMON_PERF_PERF_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/perf/perf_reader.h"

namespace proftools {

class PerfPipelinedReader {
 public:
  using Kind = PerfScriptReader::Kind;
  static constexpr size_t kDefaultBlockBytes = size_t{1} << 20;
  static constexpr size_t kBlocksInFlight = 4;

  // Starts reading `stream` (which must outlive the reader, and which only the reading thread
  // touches from now on) in blocks of about `block_bytes`: more when a line is longer, up to
  // `max_line`, beyond which Next throws LineReader::LineTooLong as PerfScriptReader does.
  explicit PerfPipelinedReader(ByteStream* stream, size_t block_bytes = kDefaultBlockBytes,
                               size_t max_line = LineReader::kDefaultMaxLine);
  // Stops the reading thread (a conversion that failed half-way ends here).
  ~PerfPipelinedReader();
  PerfPipelinedReader(const PerfPipelinedReader&) = delete;
  PerfPipelinedReader& operator=(const PerfPipelinedReader&) = delete;

  // The next line, as PerfScriptReader::Next; rethrows what stopped the reading thread (a line
  // too long, a read error) once the lines before it are consumed. The views of a line stay
  // valid until the next call.
  bool Next();

  Kind kind() const { return entry_->kind; }
  std::string_view line() const;  // kHeader, kComment, kUnknown, kBlank
  uint64_t line_number() const { return entry_->line_number; }
  const PerfHeader& header() const { return batch_->headers[entry_->index].header; }
  bool header_frame() const { return entry_->flag; }
  std::string_view frame_text() const;
  std::string_view src_file() const { return entry_->text; }
  int64_t src_line() const { return entry_->number; }
  bool src_inlined() const { return entry_->flag; }
  const PerfRecordLine& record() const { return batch_->records[entry_->index]; }

 private:
  // One classified line. text: the frame (kFrame), the file (kSrcline), else the line.
  struct Entry {
    Kind kind;
    bool flag;       // kHeader: header_frame; kSrcline: src_inlined
    size_t index;    // kHeader: into headers; kRecord: into records
    int64_t number;  // kSrcline: src_line
    std::string_view text;
    uint64_t line_number;
  };
  struct HeaderLine {
    PerfHeader header;
    std::string_view line;
    std::string_view frame_text;
  };
  struct Batch {
    std::unique_ptr<char[]> bytes;  // whole lines; every view of the batch points here
    size_t capacity = 0;            // of bytes
    std::vector<Entry> entries;
    std::vector<HeaderLine> headers;
    std::vector<PerfRecordLine> records;
    std::exception_ptr error;  // what ended the reading, after the entries
    bool last = false;
  };

  void Produce();
  // The next block of whole lines into `batch->bytes` (its size in `*size`); false at the end.
  bool ReadBlock(Batch* batch, size_t* size, uint64_t lines_before);
  void Classify(std::string_view block, Batch* batch);
  void Push(std::unique_ptr<Batch> batch);
  std::unique_ptr<Batch> EmptyBatch();

  ByteStream* stream_;
  size_t block_bytes_;
  size_t max_line_;
  PerfScriptReader reader_;  // the reading thread's
  std::vector<char> carry_;  // the start of a line cut by the end of a block
  bool eof_ = false;

  std::mutex mutex_;
  std::condition_variable ready_;  // a batch for the converter
  std::condition_variable room_;   // room for another batch, or stopping
  std::deque<std::unique_ptr<Batch>> queue_;
  // Batches the converter is done with, for the reading thread to fill again: fresh memory
  // for every block cost more system time (page faults) than the thread saved.
  std::vector<std::unique_ptr<Batch>> spare_;
  bool stopping_ = false;
  std::thread thread_;

  std::unique_ptr<Batch> batch_;  // the converter's
  size_t position_ = 0;           // of the next entry in batch_
  const Entry* entry_ = nullptr;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_PIPELINE_H_
