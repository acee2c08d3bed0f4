// PerfPipelinedReader hands the converter exactly the lines, classification and numbers a
// PerfScriptReader gives on the whole stream, however the input is cut into blocks and reads.
#include "common/perf/perf_pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/perf/perf_reader.h"

namespace proftools {
namespace perf_pipeline_test {  // a namespace of its own: the tests build as one unit
namespace {

// Returns its bytes in reads of random sizes (1 to 9 bytes), as a pipe may.
class TricklingStream : public ByteStream {
 public:
  TricklingStream(std::string data, unsigned seed) : data_(std::move(data)), random_(seed) {}
  size_t Read(char* buffer, size_t capacity) override {
    const size_t n =
        std::min({capacity, data_.size() - position_,
                  static_cast<size_t>(std::uniform_int_distribution<>(1, 9)(random_))});
    std::copy_n(data_.data() + position_, n, buffer);
    position_ += n;
    return n;
  }
  size_t bytes_read() const { return position_; }

 private:
  std::string data_;
  size_t position_ = 0;
  std::mt19937 random_;
};

// Everything a reader says about one line, as text.
template <typename Reader>
std::string Describe(const Reader& r) {
  using K = PerfScriptReader::Kind;
  std::string d =
      std::to_string(r.line_number()) + " " + std::to_string(static_cast<int>(r.kind()));
  switch (r.kind()) {
    case K::kFrame:
      d += " frame[" + std::string(r.frame_text()) + "]";
      break;
    case K::kSrcline:
      d += " src[" + std::string(r.src_file()) + ":" + std::to_string(r.src_line()) +
           (r.src_inlined() ? " inlined]" : "]");
      break;
    case K::kHeader: {
      const PerfHeader& h = r.header();
      d += " header[" + std::string(r.line()) + "|" + std::string(h.comm) + "|" +
           std::to_string(h.pid) + "/" + std::to_string(h.tid) + "|" + std::to_string(h.cpu) + "|" +
           std::to_string(h.time_nanos) + "|" + std::to_string(h.period) + "|" +
           std::string(h.event) + "|" + std::string(h.rest) + "]";
      if (r.header_frame()) d += " frame[" + std::string(r.frame_text()) + "]";
      break;
    }
    case K::kRecord: {
      const PerfRecordLine& rec = r.record();
      d += " record[" + std::to_string(static_cast<int>(rec.kind)) + "|" + std::to_string(rec.pid) +
           "|" + std::to_string(rec.start) + "|" + std::to_string(rec.length) + "|" +
           std::string(rec.build_id) + "|" + std::string(rec.file) + "|" +
           std::to_string(rec.header.time_nanos) + "]";
      break;
    }
    case K::kBlank:
    case K::kComment:
    case K::kUnknown:
      d += " line[" + std::string(r.line()) + "]";
      break;
  }
  return d;
}

template <typename Reader>
std::vector<std::string> DescribeAll(Reader* reader) {
  std::vector<std::string> lines;
  while (reader->Next()) lines.push_back(Describe(*reader));
  return lines;
}

// Pieces of perf script text, every kind of line and context the reader knows.
const char* const kPieces[] = {
    "# captured on: Thu Aug 17 14:14:43 2017\n",
    "# event : name = cycles:P, type = 0\n",
    "a 7 [001] 1.000000: 100 cycles: \n\t1 f+0x1 (/x)\n\t2 main+0x2 (/x)\n\n",
    "b 8/9 [002] 2.5: 3 cpu-clock:ppp: \n\tffff g (/y)\n  g.c:12\n\t7 h (inlined)\n  h.c:3 "
    "(inlined)\n\n",
    "  java 10 3.000001:     250000 cpu-clock:  7f00 Interpret->+0x17 (/tmp/perf-1.map)\n",
    "x 1 [000] 4.0: PERF_RECORD_MMAP2 1/1: [0x400000(0x1000) @ 0 fd:01 5 0]: r-xp /bin/x\n",
    "perf 0 [000] 0.0: PERF_RECORD_SWITCH_CPU_WIDE IN  prev pid/tid: 0/0\n",
    "sh 5 [003] 5.0: sched:sched_switch: prev_comm=sh prev_pid=5 prev_state=D next_pid=0\n"
    "\tffffffff81000000 schedule+0x0 ([kernel.kallsyms])\n\n",
    "not perf output at all\n",
    "\tb 2 2.0: 1 cpu-clock:  4 k (y)\n",  // tab-indented: a frame to a first pass
    " \t \r\n",
    "c 3 6.0: 1 task-clock:\r\n\t5 f (x)\r\n\r\n",
    "\t3 stray (x)\n",
    "\n",
    "2 g (x)\n",
};

std::string RandomText(unsigned seed, size_t pieces) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<size_t> pick(0, std::size(kPieces) - 1);
  std::string text;
  for (size_t i = 0; i < pieces; ++i) text += kPieces[pick(random)];
  if (seed % 3 == 0) text += "d 4 7.0: 1 cycles:\n\t9 last (x)";  // no final newline
  return text;
}

TEST(PerfPipelineTest, SameLinesAsTheSequentialReaderWhateverTheBlocks) {
  for (unsigned seed = 0; seed < 40; ++seed) {
    const std::string text = RandomText(seed, 60);
    MemoryStream whole(text);
    PerfScriptReader sequential(&whole);
    const std::vector<std::string> expected = DescribeAll(&sequential);
    ASSERT_GT(expected.size(), 60u);
    for (size_t block : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{1} << 20}) {
      TricklingStream trickling(text, seed);
      PerfPipelinedReader pipelined(&trickling, block);
      const std::vector<std::string> lines = DescribeAll(&pipelined);
      // The first difference only: the whole lists are long.
      const auto [got, want] =
          std::mismatch(lines.begin(), lines.end(), expected.begin(), expected.end());
      EXPECT_TRUE(got == lines.end() && want == expected.end())
          << "seed " << seed << ", block " << block << ": line "
          << (got == lines.end() ? "(none)" : *got) << "\n  expected "
          << (want == expected.end() ? "(none)" : *want);
    }
  }
}

TEST(PerfPipelineTest, EmptyInputHasNoLines) {
  MemoryStream empty("");
  PerfPipelinedReader reader(&empty, 16);
  EXPECT_FALSE(reader.Next());
}

TEST(PerfPipelineTest, ALineTooLongStopsAfterTheLinesBeforeIt) {
  for (size_t block : {size_t{1}, size_t{4}, size_t{64}}) {
    MemoryStream in("a 1 1.0: cycles:\n\t1 f (x)\n" + std::string(40, 'z') + "\n\t2 g (x)\n");
    PerfPipelinedReader reader(&in, block, /*max_line=*/20);
    ASSERT_TRUE(reader.Next());
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.frame_text(), "1 f (x)");
    try {
      reader.Next();
      FAIL() << "no error, block " << block;
    } catch (const LineReader::LineTooLong& e) {
      EXPECT_EQ(e.line_number, 3u) << "block " << block;
    }
  }
}

TEST(PerfPipelineTest, StoppingHalfWayDoesNotWaitForTheRest) {
  // More blocks than may be in flight: the reading thread is waiting for room when the reader
  // is destroyed, and must stop.
  const std::string text = RandomText(1, 5000);
  TricklingStream in(text, 1);
  {
    PerfPipelinedReader reader(&in, 256);
    ASSERT_TRUE(reader.Next());
  }
  // At most the blocks in flight, the one being read and the converter's were read.
  EXPECT_LT(in.bytes_read(), 256 * (PerfPipelinedReader::kBlocksInFlight + 4));
  EXPECT_GT(text.size(), 100000u);
}

}  // namespace
}  // namespace perf_pipeline_test
}  // namespace proftools
