// The numbers of perf.data's format, as Linux's uapi perf_event.h and perf's
// tools/perf/util/header.h and event.h define them (perf 6.1): record types, sample_type and
// read_format bits, attribute flags, header features. Only what the reader uses.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FORMAT_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FORMAT_H_

#include <cstdint>

namespace proftools {
namespace perf_data {

// Records of the kernel (perf_event_type) and of perf itself (perf_user_event_type).
enum RecordType : uint32_t {
  kMmap = 1,
  kLost = 2,
  kComm = 3,
  kExit = 4,
  kThrottle = 5,
  kUnthrottle = 6,
  kFork = 7,
  kRead = 8,
  kSample = 9,
  kMmap2 = 10,
  kAux = 11,
  kItraceStart = 12,
  kLostSamples = 13,
  kSwitch = 14,
  kSwitchCpuWide = 15,
  kKernelTypeEnd = 64,  // below: the kernel's records, which may carry a sample_id trailer
  kHeaderAttr = 64,
  kHeaderEventType = 65,
  kHeaderTracingData = 66,
  kHeaderBuildId = 67,
  kFinishedRound = 68,
  kIdIndex = 69,
  kAuxtraceInfo = 70,
  kAuxtrace = 71,
  kAuxtraceError = 72,
  kEventUpdate = 78,
  kHeaderFeature = 80,
  kCompressed = 81,
};

// perf_event_attr.sample_type.
enum SampleType : uint64_t {
  kSampleIp = 1u << 0,
  kSampleTid = 1u << 1,
  kSampleTime = 1u << 2,
  kSampleAddr = 1u << 3,
  kSampleRead = 1u << 4,
  kSampleCallchain = 1u << 5,
  kSampleId = 1u << 6,
  kSampleCpu = 1u << 7,
  kSamplePeriod = 1u << 8,
  kSampleStreamId = 1u << 9,
  kSampleRaw = 1u << 10,
  kSampleBranchStack = 1u << 11,
  kSampleRegsUser = 1u << 12,
  kSampleStackUser = 1u << 13,
  kSampleWeight = 1u << 14,
  kSampleDataSrc = 1u << 15,
  kSampleIdentifier = 1u << 16,
  kSampleTransaction = 1u << 17,
  kSampleRegsIntr = 1u << 18,
  kSamplePhysAddr = 1u << 19,
  kSampleAux = 1u << 20,
  kSampleCgroup = 1u << 21,
  kSampleDataPageSize = 1u << 22,
  kSampleCodePageSize = 1u << 23,
  kSampleWeightStruct = 1u << 24,
};

// perf_event_attr.read_format.
enum ReadFormat : uint64_t {
  kReadTotalTimeEnabled = 1u << 0,
  kReadTotalTimeRunning = 1u << 1,
  kReadId = 1u << 2,
  kReadGroup = 1u << 3,
  kReadLost = 1u << 4,
};

// Bits of perf_event_attr's flag word (the bitfield after read_format).
enum AttrFlag : uint64_t {
  kAttrExcludeUser = uint64_t{1} << 4,
  kAttrExcludeKernel = uint64_t{1} << 5,
  kAttrExcludeHv = uint64_t{1} << 6,
  kAttrFreq = uint64_t{1} << 10,
  kAttrSampleIdAll = uint64_t{1} << 18,
};

// perf_branch_sample_type: the branch stack has hw_idx before its entries.
inline constexpr uint64_t kBranchHwIndex = uint64_t{1} << 17;

// perf_event_header.misc.
inline constexpr uint16_t kMiscCpumodeMask = 7;
enum Cpumode : uint16_t {
  kCpumodeUnknown = 0,
  kCpumodeKernel = 1,
  kCpumodeUser = 2,
  kCpumodeHypervisor = 3,
  kCpumodeGuestKernel = 4,
  kCpumodeGuestUser = 5,
};
inline constexpr uint16_t kMiscMmapData = 1u << 13;     // MMAP/MMAP2 of data, not code
inline constexpr uint16_t kMiscCommExec = 1u << 13;     // COMM: the thread exec'ed
inline constexpr uint16_t kMiscSwitchOut = 1u << 13;    // SWITCH: the thread left the CPU
inline constexpr uint16_t kMiscMmapBuildId = 1u << 14;  // MMAP2 carries a build id
inline constexpr uint16_t kMiscBuildIdSize = 1u << 15;  // a build-id entry says its size

// The markers in a call chain that say whose frames follow (PERF_CONTEXT_*).
inline constexpr uint64_t kContextHv = static_cast<uint64_t>(-32);
inline constexpr uint64_t kContextKernel = static_cast<uint64_t>(-128);
inline constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);
inline constexpr uint64_t kContextGuest = static_cast<uint64_t>(-2048);
inline constexpr uint64_t kContextGuestKernel = static_cast<uint64_t>(-2176);
inline constexpr uint64_t kContextGuestUser = static_cast<uint64_t>(-2560);
inline constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);

// perf_event_attr.type.
enum AttrType : uint32_t {
  kTypeHardware = 0,
  kTypeSoftware = 1,
  kTypeTracepoint = 2,
  kTypeHwCache = 3,
  kTypeRaw = 4,
  kTypeBreakpoint = 5,
};

// Header features (HEADER_*), the bits of the file header's feature bitmap.
enum Feature : uint32_t {
  kFeatTracingData = 1,
  kFeatBuildId = 2,
  kFeatHostname = 3,
  kFeatOsRelease = 4,
  kFeatVersion = 5,
  kFeatArch = 6,
  kFeatNrCpus = 7,
  kFeatCpuDesc = 8,
  kFeatCpuId = 9,
  kFeatTotalMem = 10,
  kFeatCmdline = 11,
  kFeatEventDesc = 12,
  kFeatSampleTime = 21,
  kFeatClockData = 29,
  kFeatLast = 256,
};

inline constexpr uint64_t kFileHeaderSize = 104;  // perf_file_header
inline constexpr uint64_t kPipeHeaderSize = 16;   // perf_pipe_file_header
inline constexpr uint64_t kRecordHeaderSize = 8;  // perf_event_header
inline constexpr uint64_t kAttrMinSize = 64;      // PERF_ATTR_SIZE_VER0

}  // namespace perf_data
}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FORMAT_H_
