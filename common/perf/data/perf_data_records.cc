#include "common/perf/data/perf_data_records.h"

#include <string>

#include "common/perf/data/perf_data_format.h"

namespace proftools {
namespace {

using namespace perf_data;

// Reads a record's fields in order, never past its end.
class FieldCursor {
 public:
  FieldCursor(const PerfBytes& bytes, const PerfRecordHeader& record)
      : bytes_(bytes), at_(record.at + kRecordHeaderSize), end_(record.at + record.size) {}
  uint64_t at() const { return at_; }
  uint64_t Skip(uint64_t n, const char* what) {
    if (n > end_ - at_) {
      bytes_.Fail(at_, std::string(what) + " of " + std::to_string(n) +
                           " bytes runs past the end of its record (" + std::to_string(end_ - at_) +
                           " bytes left)");
    }
    const uint64_t start = at_;
    at_ += n;
    return start;
  }
  uint64_t U64(const char* what) { return bytes_.U64(Skip(8, what)); }
  uint32_t U32(const char* what) { return bytes_.U32(Skip(4, what)); }

 private:
  const PerfBytes& bytes_;
  uint64_t at_;
  uint64_t end_;
};

int Popcount(uint64_t mask) {
  return __builtin_popcountll(mask);
}

}  // namespace

bool PerfRecordWalker::Next(PerfRecordHeader* record) {
  if (at_ >= end_) return false;
  if (end_ - at_ < kRecordHeaderSize) {
    bytes_.Fail(at_, "a record header cut short: the recording ends in the middle of a record");
  }
  record->at = at_;
  record->type = bytes_.U32(at_);
  record->misc = bytes_.U16(at_ + 4);
  record->size = bytes_.U16(at_ + 6);
  if (record->size < kRecordHeaderSize) {
    bytes_.Fail(at_ + 6, "a record of " + std::to_string(record->size) +
                             " bytes, shorter than its own header");
  }
  if (record->size > end_ - at_) {
    bytes_.Fail(at_, "a record of " + std::to_string(record->size) + " bytes where " +
                         std::to_string(end_ - at_) +
                         " are left: the recording ends in the middle of a record");
  }
  at_ += record->size;
  if (record->type == kHeaderTracingData && record->size >= kRecordHeaderSize + 4) {
    const uint64_t data = bytes_.U32(record->at + kRecordHeaderSize);
    const uint64_t padded = (data + 7) & ~uint64_t{7};
    if (padded > end_ - at_) bytes_.Fail(at_, "tracing data runs past the end of the input");
    at_ += padded;
  }
  return true;
}

PerfEventIndex::PerfEventIndex(const std::vector<PerfEventAttr>& attrs) : attrs_(attrs) {
  for (size_t i = 0; i < attrs.size(); ++i) {
    for (uint64_t id : attrs[i].ids) by_id_.emplace(id, static_cast<int>(i));
  }
  if (attrs.empty()) return;
  sample_type_ = attrs[0].sample_type;
  if (sample_type_ & kSampleIdentifier) {
    sample_id_offset_ = 0;
    trailer_id_from_end_ = 8;
  } else if (sample_type_ & kSampleId) {
    int offset = 0;
    for (uint64_t bit : {kSampleIp, kSampleTid, kSampleTime, kSampleAddr}) {
      if (sample_type_ & bit) offset += 8;
    }
    sample_id_offset_ = offset;
    int from_end = 8;  // the id itself
    for (uint64_t bit : {kSampleStreamId, kSampleCpu}) {
      if (sample_type_ & bit) from_end += 8;
    }
    trailer_id_from_end_ = from_end;
  }
}

int PerfEventIndex::ById(uint64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? -1 : it->second;
}

int PerfEventIndex::EventOfSample(const PerfBytes& bytes, const PerfRecordHeader& record) const {
  if (attrs_.size() == 1 || sample_id_offset_ < 0) return attrs_.empty() ? -1 : 0;
  const uint64_t at = record.at + kRecordHeaderSize + static_cast<uint64_t>(sample_id_offset_);
  if (at + 8 > record.at + record.size) bytes.Fail(at, "a sample too short to hold its id");
  return ById(bytes.U64(at));
}

int PerfEventIndex::EventOfOther(const PerfBytes& bytes, const PerfRecordHeader& record) const {
  if (attrs_.size() == 1 || trailer_id_from_end_ < 0) return attrs_.empty() ? -1 : 0;
  if ((attrs_[0].flags & kAttrSampleIdAll) == 0) return 0;
  if (record.size < kRecordHeaderSize + static_cast<uint64_t>(trailer_id_from_end_)) return -1;
  return ById(bytes.U64(record.at + record.size - static_cast<uint64_t>(trailer_id_from_end_)));
}

void DecodePerfSample(const PerfBytes& bytes, const PerfRecordHeader& record,
                      const PerfEventAttr& attr, PerfSample* sample) {
  *sample = PerfSample();
  const uint64_t type = attr.sample_type;
  FieldCursor in(bytes, record);
  if (type & kSampleIdentifier) in.U64("the sample's identifier");
  if (type & kSampleIp) sample->ip = in.U64("the sample's ip");
  if (type & kSampleTid) {
    sample->has_tid = true;
    sample->pid = static_cast<int32_t>(in.U32("the sample's pid"));
    sample->tid = static_cast<int32_t>(in.U32("the sample's tid"));
  }
  if (type & kSampleTime) sample->time = in.U64("the sample's time");
  if (type & kSampleAddr) in.U64("the sample's addr");
  if (type & kSampleId) in.U64("the sample's id");
  if (type & kSampleStreamId) in.U64("the sample's stream id");
  if (type & kSampleCpu) {
    sample->cpu = in.U32("the sample's cpu");
    in.U32("the sample's cpu");
  }
  if (type & kSamplePeriod) sample->period = in.U64("the sample's period");
  if (type & kSampleRead) {
    const uint64_t format = attr.read_format;
    const uint64_t per_value = 8 + ((format & kReadId) ? 8 : 0) + ((format & kReadLost) ? 8 : 0);
    const uint64_t times =
        ((format & kReadTotalTimeEnabled) ? 8 : 0) + ((format & kReadTotalTimeRunning) ? 8 : 0);
    if (format & kReadGroup) {
      const uint64_t values = in.U64("the sample's read group size");
      if (values > record.size / per_value)
        bytes.Fail(in.at() - 8, "a read group larger than its record");
      in.Skip(times + values * per_value, "the sample's read values");
    } else {
      in.Skip(per_value + times, "the sample's read value");
    }
  }
  if (type & kSampleCallchain) {
    sample->has_callchain = true;
    sample->callchain_nr = in.U64("the call chain's length");
    if (sample->callchain_nr > record.size / 8) {
      bytes.Fail(in.at() - 8, "a call chain of " + std::to_string(sample->callchain_nr) +
                                  " frames in a record of " + std::to_string(record.size) +
                                  " bytes");
    }
    sample->callchain_at = in.Skip(8 * sample->callchain_nr, "the call chain");
  }
  if (type & kSampleRaw) {
    const uint64_t size = in.U32("the raw data's size");
    sample->raw = bytes.Span(in.Skip(size, "the raw data"), size, "the raw data");
  }
  if (type & kSampleBranchStack) {
    sample->branch_nr = in.U64("the branch stack's length");
    if (attr.branch_sample_type & kBranchHwIndex) in.U64("the branch stack's hw index");
    if (sample->branch_nr > record.size / 24) {
      bytes.Fail(in.at() - 8, "a branch stack larger than its record");
    }
    sample->branch_at = in.Skip(24 * sample->branch_nr, "the branch stack");
  }
  if (type & kSampleRegsUser) {
    sample->regs_user_abi = in.U64("the user registers' abi");
    if (sample->regs_user_abi != 0) {
      sample->regs_user_nr = static_cast<uint64_t>(Popcount(attr.sample_regs_user));
      sample->regs_user_at = in.Skip(8 * sample->regs_user_nr, "the user registers");
    }
  }
  if (type & kSampleStackUser) {
    const uint64_t size = in.U64("the user stack's size");
    if (size != 0) {
      const uint64_t data = in.Skip(size, "the user stack");
      const uint64_t dyn_size = in.U64("the user stack's dynamic size");
      if (dyn_size > size) {
        bytes.Fail(in.at() - 8, "a user stack's dynamic size (" + std::to_string(dyn_size) +
                                    ") larger than its copy (" + std::to_string(size) + ")");
      }
      sample->stack_user = bytes.Span(data, dyn_size, "the user stack");
    }
  }
  // WEIGHT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, CGROUP, page sizes and AUX follow:
  // none of them is read, and nothing after them is, so they need no walking.
}

PerfSampleId DecodePerfSampleId(const PerfBytes& bytes, const PerfRecordHeader& record,
                                const PerfEventAttr& attr) {
  PerfSampleId id;
  if ((attr.flags & kAttrSampleIdAll) == 0) return id;
  const uint64_t type = attr.sample_type;
  uint64_t size = 0;
  for (uint64_t bit :
       {kSampleTid, kSampleTime, kSampleId, kSampleStreamId, kSampleCpu, kSampleIdentifier}) {
    if (type & bit) size += 8;
  }
  if (record.size < kRecordHeaderSize + size) {
    bytes.Fail(record.at, "a record too short for its sample_id trailer");
  }
  uint64_t at = record.at + record.size - size;
  if (type & kSampleTid) {
    id.pid = static_cast<int32_t>(bytes.U32(at));
    id.tid = static_cast<int32_t>(bytes.U32(at + 4));
    at += 8;
  }
  if (type & kSampleTime) {
    id.time = bytes.U64(at);
    at += 8;
  }
  if (type & kSampleId) at += 8;
  if (type & kSampleStreamId) at += 8;
  if (type & kSampleCpu) id.cpu = bytes.U32(at);
  return id;
}

}  // namespace proftools
