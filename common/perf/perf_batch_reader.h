// PerfScriptReader with its input read on a second core: a thread reads the stream and splits
// it into lines, in batches of about 1 MiB (each a copy of its lines), which the converter's
// thread classifies (PerfScriptReader::ClassifyLine, so the lines are those of a
// PerfScriptReader and classified alike) and converts, so that reading and converting overlap.
// At most kInFlight batches exist at a time: memory stays flat. An error of the reading thread
// (a line too long, a broken gzip stream) is thrown by Next() where the line would have been.
#ifndef PROFTOOLS_COMMON_PERF_PERF_BATCH_READER_H_
#define PROFTOOLS_COMMON_PERF_PERF_BATCH_READER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/perf/perf_reader.h"

namespace proftools {

class PerfBatchReader {
 public:
  using Kind = PerfScriptReader::Kind;
  // `stream` must outlive the reader, and is read by the reader's thread only.
  explicit PerfBatchReader(ByteStream* stream);
  ~PerfBatchReader();
  PerfBatchReader(const PerfBatchReader&) = delete;
  PerfBatchReader& operator=(const PerfBatchReader&) = delete;

  bool Next();
  Kind kind() const { return lines_.kind(); }
  std::string_view line() const { return lines_.line(); }
  uint64_t line_number() const { return lines_.line_number(); }
  const PerfHeader& header() const { return lines_.header(); }
  bool header_frame() const { return lines_.header_frame(); }
  std::string_view frame_text() const { return lines_.frame_text(); }
  std::string_view src_file() const { return lines_.src_file(); }
  int64_t src_line() const { return lines_.src_line(); }
  bool src_inlined() const { return lines_.src_inlined(); }
  const PerfRecordLine& record() const { return lines_.record(); }

 private:
  struct Batch {
    std::string bytes;           // the lines, one after the other
    std::vector<uint32_t> ends;  // where each line ends in bytes
    uint64_t first_line = 0;     // the number of the first line
    std::exception_ptr error;    // after the lines: what the reading thread threw
    bool last = false;
  };
  static constexpr size_t kBatchBytes = size_t{1} << 20;
  static constexpr size_t kInFlight = 4;

  void Produce();

  ByteStream* stream_;
  PerfScriptReader lines_{nullptr};  // classifies; reads nothing
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> ready_;
  std::vector<std::unique_ptr<Batch>> spare_;  // consumed batches, reused for their buffers
  bool stop_ = false;
  std::unique_ptr<Batch> batch_;  // the batch being classified
  size_t next_ = 0;
  std::thread thread_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_BATCH_READER_H_
