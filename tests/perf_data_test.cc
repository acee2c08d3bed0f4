// The perf.data reader (common/perf/data/) on recordings built byte by byte here, in both layouts:
// what a sample becomes, perf's ordering of records, and the refusal of every kind of lie a
// crafted file can tell (sizes, offsets, counts), each with its byte offset. Real recordings are
// golden/perf-data's and tests/interop-perf-data.sh's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/perf/data/perf_data_format.h"
#include "common/perf/data/perf_tracepoint_format.h"
#include "tests/chrome_test_util.h"

namespace proftools {
namespace perf_data_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Lines;
using namespace perf_data;

std::string Le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xff);
  return out;
}
std::string U16(uint64_t v) {
  return Le(v, 2);
}
std::string U32(uint64_t v) {
  return Le(v, 4);
}
std::string U64(uint64_t v) {
  return Le(v, 8);
}

std::string Record(uint32_t type, const std::string& body, uint16_t misc = 0) {
  return U32(type) + U16(misc) + U16(8 + body.size()) + body;
}

constexpr uint64_t kSampleType =
    kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain;
constexpr uint64_t kFlags = kAttrSampleIdAll;

// cpu-clock (software event 0), sampled every 1 ms, the layout of perf_event_attr (128 bytes).
std::string Attr(uint64_t sample_type = kSampleType, uint32_t size = 128) {
  std::string attr = U32(kTypeSoftware) + U32(size) + U64(0) + U64(1000000) + U64(sample_type) +
                     U64(0) + U64(kFlags);
  attr.resize(128, '\0');
  return attr;
}

// The sample_id trailer of a non-sample record: pid, tid and time (kSampleType has them).
std::string SampleId(uint32_t pid, uint32_t tid, uint64_t time) {
  return U32(pid) + U32(tid) + U64(time);
}

std::string Comm(uint32_t pid, uint32_t tid, const std::string& name, uint64_t time) {
  std::string text = name;
  text.resize((name.size() + 8) / 8 * 8, '\0');
  return Record(kComm, U32(pid) + U32(tid) + text + SampleId(pid, tid, time));
}

std::string Sample(uint32_t tid, uint64_t time, const std::vector<uint64_t>& chain,
                   uint64_t period = 1000000) {
  std::string body = U64(chain.empty() ? 0 : chain[0]) + U32(tid) + U32(tid) + U64(time) +
                     U64(period) + U64(chain.size());
  for (uint64_t ip : chain) body += U64(ip);
  return Record(kSample, body, kCpumodeUser);
}

std::string FinishedRound() {
  return Record(kFinishedRound, "");
}

// The same records as a pipe (attributes as a HEADER_ATTR record) or as a file.
std::string Pipe(const std::string& records, const std::string& attr = Attr()) {
  return "PERFILE2" + U64(16) + Record(kHeaderAttr, attr + U64(42)) + records;
}
std::string File(const std::string& records, const std::string& attr = Attr()) {
  const uint64_t attrs_at = 104;
  const uint64_t ids_at = attrs_at + 128 + 16;
  const uint64_t data_at = ids_at + 8;
  std::string file = "PERFILE2" + U64(104) + U64(128 + 16) + U64(attrs_at) + U64(128 + 16) +
                     U64(data_at) + U64(records.size()) + U64(0) + U64(0) + std::string(32, '\0');
  return file + attr + U64(ids_at) + U64(8) + U64(42) + records;
}

std::string Read(const std::string& bytes) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(bytes), "rec.data");
  StringSink text;
  CanonicalWriter writer(&text);
  ReadOptions options;
  options.reader_settings = {{"symfs", "/nonexistent"}};
  ReadProfile(input, &writer, options);
  return text.text();
}

std::string Error(const std::string& bytes) {
  try {
    Read(bytes);
  } catch (const ProfError& e) {
    return e.diagnostic().Format();
  }
  return "";
}

const std::string kRecords = Comm(7, 7, "app", 50) + Sample(7, 200, {0x1000, 0x2000}) +
                             Sample(7, 100, {0x1010, 0x2000}) + FinishedRound() +
                             Sample(7, 300, {0x1000, 0x2000}, 2000000);

TEST(PerfData, SamplesWithTheirTimesThreadsAndStacksInTimeOrder) {
  const std::string text = Read(Pipe(kRecords));
  EXPECT_EQ(Lines(text, "type "), (std::vector<std::string>{"type cpu-clock_samples count",
                                                            "type cpu-clock nanoseconds"}));
  // Delivered by time (the second sample is older), each worth its period.
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 100 - 1 1000000 comm=app pid=7 tid=7",
                                      "sample 1 2 200 - 1 1000000 comm=app pid=7 tid=7",
                                      "sample 1 2 300 - 1 2000000 comm=app pid=7 tid=7"}));
  // No mapping holds these addresses: locations without mapping or function, leaf first.
  EXPECT_EQ(Lines(text, "stack "), (std::vector<std::string>{"stack 1 1 2", "stack 2 3 2"}));
  EXPECT_EQ(Lines(text, "location "),
            (std::vector<std::string>{"location 1 - 0x1010 -", "location 2 - 0x2000 -",
                                      "location 3 - 0x1000 -"}));
}

TEST(PerfData, AFileAndAPipeOfTheSameRecordsAreOneProfile) {
  EXPECT_EQ(Read(File(kRecords)), Read(Pipe(kRecords)));
}

TEST(PerfData, ACommentOfTheThreadIsItsNameFromThenOn) {
  const std::string text =
      Read(Pipe(Sample(9, 10, {0x1}) + Comm(9, 9, "late", 20) + Sample(9, 30, {0x1})));
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 10 - 1 1000000 comm=:9 pid=9 tid=9",
                                      "sample 1 1 30 - 1 1000000 comm=late pid=9 tid=9"}));
}

TEST(PerfData, ACutOrLyingFileIsRefusedWithItsByteOffset) {
  const std::string file = File(kRecords);
  EXPECT_EQ(Error(file.substr(0, 20)),
            "rec.data: byte 16: a field of 8 bytes runs past the end of the input (20 bytes: is "
            "the recording cut short?)");
  // The attribute says it is longer than its slot.
  EXPECT_EQ(Error(File(kRecords, Attr(kSampleType, 200))),
            "rec.data: byte 108: an event attribute of 200 bytes where 128 are (at least 64)");
  // The data section lies past the end of the file.
  std::string past = file;
  past.replace(48, 8, U64(1 << 20));
  EXPECT_NE(Error(past).find("the data section of 1048576 bytes runs past the end"),
            std::string::npos)
      << Error(past);
  // A record shorter than its own header, and one longer than what is left.
  EXPECT_NE(Error(Pipe(U32(kSample) + U16(0) + U16(4))).find("shorter than its own header"),
            std::string::npos);
  EXPECT_NE(Error(Pipe(U32(kSample) + U16(0) + U16(400))).find("the recording ends in the middle"),
            std::string::npos);
}

TEST(PerfData, FieldsThatDisagreeWithTheirRecordAreRefused) {
  // A call chain longer than its record.
  std::string lying = Sample(7, 1, {0x1000});
  lying.replace(8 + 8 + 8 + 8 + 8, 8, U64(1000));
  EXPECT_NE(Error(Pipe(lying)).find("a call chain of 1000 frames in a record of"),
            std::string::npos)
      << Error(Pipe(lying));
  // sample_type asks for more fields than the record holds.
  const std::string attr = Attr(kSampleType | kSampleRaw);
  EXPECT_NE(Error(Pipe(Sample(7, 1, {0x1000}), attr)).find("runs past the end of its record"),
            std::string::npos)
      << Error(Pipe(Sample(7, 1, {0x1000}), attr));
  // A stack copy whose dynamic size exceeds the copy.
  const std::string stack_attr = Attr(kSampleIp | kSampleTid | kSampleStackUser);
  const std::string stack =
      Record(kSample, U64(0x1000) + U32(7) + U32(7) + U64(8) + std::string(8, '\0') + U64(4096));
  EXPECT_NE(Error(Pipe(stack, stack_attr)).find("dynamic size (4096) larger than its copy (8)"),
            std::string::npos)
      << Error(Pipe(stack, stack_attr));
}

TEST(PerfData, ARecordingWithoutSamplesIsNoProfile) {
  EXPECT_EQ(Error(Pipe(Comm(1, 1, "x", 1))),
            "rec.data: no samples (--allow-empty converts it to a profile without samples)");
}

// sched_switch's format as the kernel writes it in the tracing data (abridged print fmt).
const char kSchedSwitch[] =
    "name: sched_switch\nID: 372\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s ...\", __print_flags(REC->prev_state & 0xff, \"|\", "
    "{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000080, \"I\" }) : \"R\", "
    "REC->prev_state & 0x100 ? \"+\" : \"\"\n";

std::string SwitchRaw(uint64_t state) {
  std::string raw = U16(372) + U16(0) + U32(5) + std::string("app\0", 4) + std::string(12, '\0') +
                    U32(5) + U32(120) + U64(state) + std::string("swapper/0", 9) +
                    std::string(7, '\0') + U32(0) + U32(120);
  return raw;
}

TEST(PerfTracepoints, RawDataBecomesWhatPerfScriptPrints) {
  const std::vector<TracepointFormat> formats = ParseTracepointFormats(
      std::string("junk before\0", 12) + kSchedSwitch + "name: other\nformat:\n");
  ASSERT_EQ(formats.size(), 1u);  // a block without ID is none
  EXPECT_EQ(formats[0].id, 372u);
  EXPECT_EQ(formats[0].fields.size(), 7u);  // without the common_ fields
  EXPECT_EQ(TracepointArguments(formats[0], SwitchRaw(1)),
            "prev_comm=app prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/0 "
            "next_pid=0 next_prio=120");
  // Preempted while running, and two flags at once.
  EXPECT_NE(TracepointArguments(formats[0], SwitchRaw(0x100)).find("prev_state=R+ "),
            std::string::npos);
  EXPECT_NE(TracepointArguments(formats[0], SwitchRaw(3)).find("prev_state=S|D "),
            std::string::npos);
  // Raw data shorter than the format: the fields past its end are left out.
  EXPECT_EQ(TracepointArguments(formats[0], SwitchRaw(1).substr(0, 30)),
            "prev_comm=app prev_pid=5");
}

}  // namespace
}  // namespace perf_data_test
}  // namespace proftools
