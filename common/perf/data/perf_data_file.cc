#include "common/perf/data/perf_data_file.h"

#include <cstring>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/perf/data/perf_data_format.h"

namespace proftools {
namespace {

using namespace perf_data;

constexpr std::string_view kMagic = "PERFILE2";
constexpr std::string_view kSwappedMagic = "2ELIFREP";  // written on a big-endian machine
constexpr uint64_t kMaxIds = uint64_t{1} << 20;         // sample ids of one event

// perf_event_attr at `at`, of `room` bytes at most; its own size field says how many it has.
PerfEventAttr ReadAttr(const PerfBytes& bytes, uint64_t at, uint64_t room) {
  PerfEventAttr attr;
  const uint64_t size = bytes.U32(at + 4);
  if (size < kAttrMinSize || size > room) {
    bytes.Fail(at + 4, "an event attribute of " + std::to_string(size) + " bytes where " +
                           std::to_string(room) + " are (at least " + std::to_string(kAttrMinSize) +
                           ")");
  }
  auto field = [&](uint64_t offset) { return offset + 8 <= size ? bytes.U64(at + offset) : 0; };
  attr.type = bytes.U32(at);
  attr.config = field(8);
  attr.sample_period = field(16);
  attr.sample_type = field(24);
  attr.read_format = field(32);
  attr.flags = field(40);
  attr.branch_sample_type = field(72);
  attr.sample_regs_user = field(80);
  attr.sample_regs_intr = field(96);
  return attr;
}

// A `u32 len; char str[len]` string of a feature section, advancing *at.
std::string FeatureString(const PerfBytes& bytes, uint64_t* at, uint64_t end) {
  const uint64_t length = bytes.U32(*at);
  if (length > end - *at - 4 || *at + 4 > end) bytes.Fail(*at, "a string runs past its section");
  std::string text(bytes.String(*at + 4, length));
  *at += 4 + length;
  return text;
}

void ReadBuildIds(const PerfBytes& bytes, uint64_t at, uint64_t end, PerfDataLayout* layout) {
  while (at + kRecordHeaderSize <= end) {
    const uint16_t misc = bytes.U16(at + 4);
    const uint64_t size = bytes.U16(at + 6);
    if (size < 8 + 4 + 24 || size > end - at) bytes.Fail(at + 6, "a build-id entry's size lies");
    PerfBuildId entry;
    entry.pid = static_cast<int32_t>(bytes.U32(at + 8));
    const uint16_t mode = misc & kMiscCpumodeMask;
    entry.kernel = mode == kCpumodeKernel || mode == kCpumodeGuestKernel;
    uint64_t id_size = 20;
    if ((misc & kMiscBuildIdSize) != 0) {
      id_size = static_cast<unsigned char>(bytes.Span(at + 12 + 20, 1, "a build-id size")[0]);
      if (id_size > 20) bytes.Fail(at + 12 + 20, "a build id longer than 20 bytes");
    }
    entry.build_id = LowerHex(bytes.Span(at + 12, id_size, "a build id"));
    entry.file = std::string(bytes.String(at + 12 + 24, size - (12 + 24)));
    layout->build_ids.push_back(std::move(entry));
    at += size;
  }
}

void ReadEventDesc(const PerfBytes& bytes, uint64_t at, uint64_t end, PerfDataLayout* layout) {
  const uint64_t events = bytes.U32(at);
  const uint64_t attr_size = bytes.U32(at + 4);
  at += 8;
  for (uint64_t e = 0; e < events; ++e) {
    if (at + attr_size + 4 > end) bytes.Fail(at, "an event description runs past its section");
    at += attr_size;  // the attribute again: the attribute section has it
    const uint64_t ids = bytes.U32(at);
    at += 4;
    std::string name = FeatureString(bytes, &at, end);
    if (ids > (end - at) / 8) bytes.Fail(at, "an event description has more ids than bytes");
    // The event whose ids these are; the attribute's place when it has none.
    PerfEventAttr* named = nullptr;
    for (uint64_t i = 0; i < ids && named == nullptr; ++i) {
      const uint64_t id = bytes.U64(at + 8 * i);
      for (PerfEventAttr& attr : layout->attrs) {
        for (uint64_t own : attr.ids) {
          if (own == id) named = &attr;
        }
      }
    }
    if (named == nullptr && e < layout->attrs.size()) named = &layout->attrs[e];
    if (named != nullptr && named->name.empty()) named->name = std::move(name);
    at += 8 * ids;
  }
}

// One header feature's section.
void ReadFeature(const PerfBytes& bytes, uint32_t feature, uint64_t at, uint64_t end,
                 PerfDataLayout* layout) {
  auto meta = [&](const char* key, std::string value) {
    if (!value.empty()) layout->recording.push_back(MetaEntry{key, std::move(value)});
  };
  switch (feature) {
    case kFeatHostname:
      meta("hostname", FeatureString(bytes, &at, end));
      break;
    case kFeatOsRelease:
      meta("os_release", FeatureString(bytes, &at, end));
      break;
    case kFeatVersion:
      meta("version", FeatureString(bytes, &at, end));
      break;
    case kFeatArch:
      meta("arch", FeatureString(bytes, &at, end));
      break;
    case kFeatCpuDesc:
      meta("cpu", FeatureString(bytes, &at, end));
      break;
    case kFeatTotalMem:
      meta("total_memory", std::to_string(bytes.U64(at)) + " kB");
      break;
    case kFeatCmdline: {
      const uint64_t count = bytes.U32(at);
      at += 4;
      std::string line;
      for (uint64_t i = 0; i < count; ++i) {
        if (at >= end) bytes.Fail(at, "the command line runs past its section");
        line += (i == 0 ? "" : " ") + FeatureString(bytes, &at, end);
      }
      meta("cmdline", std::move(line));
      break;
    }
    case kFeatBuildId:
      ReadBuildIds(bytes, at, end, layout);
      break;
    case kFeatTracingData:
      layout->tracing_data_at = at;
      layout->tracing_data_size = end - at;
      break;
    case kFeatEventDesc:
      ReadEventDesc(bytes, at, end, layout);
      break;
    case kFeatSampleTime:
      layout->first_sample_time = bytes.U64(at);
      layout->last_sample_time = bytes.U64(at + 8);
      break;
    default:
      break;
  }
}

void ReadIds(const PerfBytes& bytes, uint64_t at, uint64_t size, PerfEventAttr* attr) {
  if (size % 8 != 0 || size / 8 > kMaxIds) bytes.Fail(at, "an event's id list has a bad size");
  bytes.Span(at, size, "an event's ids");
  for (uint64_t i = 0; i < size / 8; ++i) attr->ids.push_back(bytes.U64(at + 8 * i));
}

void NameEvents(PerfDataLayout* layout) {
  for (PerfEventAttr& attr : layout->attrs) {
    if (attr.name.empty()) attr.name = PerfEventFallbackName(attr);
  }
}

}  // namespace

void PerfBytes::Fail(uint64_t at, const std::string& message) const {
  throw ProfError(name_, "byte " + std::to_string(at) + ": " + message);
}

std::string_view PerfBytes::Span(uint64_t at, uint64_t size, const char* what) const {
  if (at > bytes_.size() || size > bytes_.size() - at) {
    Fail(at, std::string(what) + " of " + std::to_string(size) +
                 " bytes runs past the end of the input (" + std::to_string(bytes_.size()) +
                 " bytes: is the recording cut short?)");
  }
  return bytes_.substr(at, size);
}

void PerfBytes::OutOfRange(uint64_t at, uint64_t size) const {
  Span(at, size, "a field");  // throws, saying where
  Fail(at, "a field out of range");
}

std::string_view PerfBytes::String(uint64_t at, uint64_t size) const {
  std::string_view text = Span(at, size, "a string");
  const size_t nul = text.find('\0');
  return nul == std::string_view::npos ? text : text.substr(0, nul);
}

PerfDataLayout ReadPerfDataLayout(const PerfBytes& bytes) {
  PerfDataLayout layout;
  const std::string_view magic = bytes.Span(0, 8, "the magic number");
  if (magic == kSwappedMagic) {
    bytes.Fail(0,
               "a perf.data file written on a big-endian machine, which this reader does not "
               "read (convert it there with 'perf script | perf2prof')");
  }
  if (magic != kMagic) {
    bytes.Fail(0,
               "not a perf.data file of the current format (PERFILE2): this reader does not "
               "read perf's first format (PERFFILE); 'perf script | perf2prof' does");
  }
  const uint64_t header_size = bytes.U64(8);
  if (header_size == kPipeHeaderSize) {
    layout.pipe = true;
    layout.data_offset = kPipeHeaderSize;
    layout.data_end = bytes.size();
    return layout;
  }
  if (header_size < kFileHeaderSize) {
    bytes.Fail(8, "a header of " + std::to_string(header_size) + " bytes (perf writes " +
                      std::to_string(kFileHeaderSize) + ", or 16 in pipe mode)");
  }
  const uint64_t attr_size = bytes.U64(16);
  const uint64_t attrs_at = bytes.U64(24);
  const uint64_t attrs_size = bytes.U64(32);
  layout.data_offset = bytes.U64(40);
  const uint64_t data_size = bytes.U64(48);
  bytes.Span(attrs_at, attrs_size, "the attribute section");
  bytes.Span(layout.data_offset, data_size, "the data section");
  layout.data_end = layout.data_offset + data_size;
  if (attr_size < kAttrMinSize + 16) {
    bytes.Fail(16, "event attributes of " + std::to_string(attr_size) + " bytes each");
  }
  for (uint64_t at = attrs_at; at + attr_size <= attrs_at + attrs_size; at += attr_size) {
    PerfEventAttr attr = ReadAttr(bytes, at, attr_size - 16);
    ReadIds(bytes, bytes.U64(at + attr_size - 16), bytes.U64(at + attr_size - 8), &attr);
    layout.attrs.push_back(std::move(attr));
  }
  if (layout.attrs.empty()) bytes.Fail(24, "no event attributes: no event was recorded");
  // One section descriptor per feature bit set, in bit order, after the data.
  uint64_t section = layout.data_end;
  for (uint32_t feature = 0; feature < kFeatLast; ++feature) {
    if ((bytes.U64(72 + 8 * (feature / 64)) >> (feature % 64) & 1) == 0) continue;
    const uint64_t at = bytes.U64(section);
    const uint64_t size = bytes.U64(section + 8);
    section += 16;
    bytes.Span(at, size, "a header feature's section");
    ReadFeature(bytes, feature, at, at + size, &layout);
  }
  NameEvents(&layout);
  return layout;
}

bool ApplyPerfHeaderRecord(const PerfBytes& bytes, uint64_t at, uint32_t type, uint64_t size,
                           PerfDataLayout* layout) {
  const uint64_t body = at + kRecordHeaderSize;
  const uint64_t end = at + size;
  switch (type) {
    case kHeaderAttr: {
      PerfEventAttr attr = ReadAttr(bytes, body, size - kRecordHeaderSize);
      const uint64_t attr_bytes = bytes.U32(body + 4);
      ReadIds(bytes, body + attr_bytes, end - body - attr_bytes, &attr);
      layout->attrs.push_back(std::move(attr));
      return true;
    }
    case kHeaderFeature: {
      const uint64_t feature = bytes.U64(body);
      if (feature < kFeatLast) {
        ReadFeature(bytes, static_cast<uint32_t>(feature), body + 8, end, layout);
      }
      return true;
    }
    case kHeaderBuildId:
      ReadBuildIds(bytes, at, end, layout);
      return true;
    case kEventUpdate: {
      constexpr uint64_t kUpdateName = 2;  // PERF_EVENT_UPDATE__NAME (0 unit, 1 scale)
      if (bytes.U64(body) == kUpdateName) {
        const uint64_t id = bytes.U64(body + 8);
        for (PerfEventAttr& attr : layout->attrs) {
          for (uint64_t own : attr.ids) {
            if (own == id) attr.name = std::string(bytes.String(body + 16, end - body - 16));
          }
        }
      }
      return true;
    }
    case kHeaderEventType:
      return true;
    default:
      return false;
  }
}

std::string PerfEventFallbackName(const PerfEventAttr& attr) {
  static const char* const kHardware[] = {"cycles",
                                          "instructions",
                                          "cache-references",
                                          "cache-misses",
                                          "branches",
                                          "branch-misses",
                                          "bus-cycles",
                                          "stalled-cycles-frontend",
                                          "stalled-cycles-backend",
                                          "ref-cycles"};
  static const char* const kSoftware[] = {
      "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
      "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
      "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches"};
  std::string name;
  if (attr.type == kTypeHardware && attr.config < std::size(kHardware)) {
    name = kHardware[attr.config];
  } else if (attr.type == kTypeSoftware && attr.config < std::size(kSoftware)) {
    name = kSoftware[attr.config];
  } else {
    char text[64];
    std::snprintf(text, sizeof text, "raw 0x%llx", static_cast<unsigned long long>(attr.config));
    name = attr.type == kTypeRaw ? std::string(text)
                                 : "type " + std::to_string(attr.type) + " " + (text + 4);
  }
  const bool no_user = (attr.flags & kAttrExcludeUser) != 0;
  const bool no_kernel = (attr.flags & kAttrExcludeKernel) != 0;
  if (no_kernel && !no_user) name += ":u";
  if (no_user && !no_kernel) name += ":k";
  return name;
}

}  // namespace proftools
