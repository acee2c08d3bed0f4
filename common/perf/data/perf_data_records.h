// The records of a perf.data data section: their headers, the fields of a SAMPLE as its event's
// sample_type lays them out, and the sample_id trailer (pid, tid, time, cpu) that the kernel
// appends to its other records when the event has sample_id_all.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_RECORDS_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_RECORDS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/perf/data/perf_data_file.h"

namespace proftools {

struct PerfRecordHeader {
  uint64_t at = 0;  // offset of the record in the input
  uint32_t type = 0;
  uint16_t misc = 0;
  uint64_t size = 0;  // of the record, header included
};

// Walks the records of [begin, end): Next() gives each header, checked to fit (a record never
// shorter than its header). In pipe mode, HEADER_TRACING_DATA's data, which follows its record
// outside the record's size, is stepped over.
class PerfRecordWalker {
 public:
  PerfRecordWalker(const PerfBytes& bytes, uint64_t begin, uint64_t end)
      : bytes_(bytes), at_(begin), end_(end) {}
  bool Next(PerfRecordHeader* record);

 private:
  const PerfBytes& bytes_;
  uint64_t at_;
  uint64_t end_;
};

// Which event a record belongs to, by the sample id perf puts where the events' sample_type
// says (IDENTIFIER first in a sample and last in a trailer, else ID's place).
class PerfEventIndex {
 public:
  explicit PerfEventIndex(const std::vector<PerfEventAttr>& attrs);
  // The index in attrs of the event of a SAMPLE record, or of another kernel record; -1 when
  // its id is not one of them.
  int EventOfSample(const PerfBytes& bytes, const PerfRecordHeader& record) const;
  int EventOfOther(const PerfBytes& bytes, const PerfRecordHeader& record) const;

 private:
  int ById(uint64_t id) const;
  const std::vector<PerfEventAttr>& attrs_;
  std::unordered_map<uint64_t, int> by_id_;
  uint64_t sample_type_ = 0;      // of the first event: perf requires the id where it is for all
  int sample_id_offset_ = -1;     // in a SAMPLE's body, bytes; -1: none
  int trailer_id_from_end_ = -1;  // in another record, bytes before its end; -1: none
};

struct PerfSample {
  std::optional<uint64_t> ip;
  bool has_tid = false;
  int32_t pid = -1;
  int32_t tid = -1;
  std::optional<uint64_t> time;
  std::optional<uint32_t> cpu;
  std::optional<uint64_t> period;
  // The call chain, `callchain_nr` u64 entries at `callchain_at` (PERF_CONTEXT_* markers kept).
  uint64_t callchain_at = 0;
  uint64_t callchain_nr = 0;
  bool has_callchain = false;
  std::string_view raw;  // a tracepoint's fields
  // The branch stack (LBR): `branch_nr` {from, to, flags} entries at `branch_at`.
  uint64_t branch_at = 0;
  uint64_t branch_nr = 0;
  // --call-graph dwarf: the user registers (`regs_user_abi` 0: none) and the stack copy.
  uint64_t regs_user_abi = 0;
  uint64_t regs_user_at = 0;
  uint64_t regs_user_nr = 0;
  std::string_view stack_user;  // dyn_size bytes, the part the kernel filled
};

// Decodes the SAMPLE record `record` of event `attr`. Throws ProfError (with the byte offset)
// when the fields its sample_type asks for do not fit in the record.
void DecodePerfSample(const PerfBytes& bytes, const PerfRecordHeader& record,
                      const PerfEventAttr& attr, PerfSample* sample);

// The sample_id trailer of a kernel record other than SAMPLE (what of pid, tid, time and cpu
// the event's sample_type has; nothing without sample_id_all).
struct PerfSampleId {
  std::optional<int32_t> pid;
  std::optional<int32_t> tid;
  std::optional<uint64_t> time;
  std::optional<uint32_t> cpu;
};
PerfSampleId DecodePerfSampleId(const PerfBytes& bytes, const PerfRecordHeader& record,
                                const PerfEventAttr& attr);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_RECORDS_H_
