#include "common/gprof/gmon_file.h"

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

constexpr size_t kHeaderSize = 20;  // "gmon", version, 12 spare bytes
enum GmonTag : uint8_t { kTimeHistogram = 0, kCallArc = 1, kBasicBlockCount = 2 };

class GmonReader {
 public:
  GmonReader(std::string_view data, size_t address_size, bool little_endian,
             const std::string& name)
      : data_(data), address_size_(address_size), little_(little_endian), name_(name) {}

  GmonFile Read() {
    GmonFile file;
    if (!LooksLikeGmon(data_)) Fail(0, "not glibc's gmon.out (\"gmon\", version 1)");
    at_ = kHeaderSize;
    while (at_ < data_.size()) {
      const uint64_t start = at_;
      const uint8_t tag = static_cast<uint8_t>(Unsigned(1, "a record tag"));
      if (tag == kTimeHistogram) {
        GmonHistogram histogram;
        histogram.byte = start;
        histogram.low_pc = Unsigned(address_size_, "low_pc");
        histogram.high_pc = Unsigned(address_size_, "high_pc");
        const uint64_t bins = Unsigned(4, "hist_size");
        histogram.rate = static_cast<uint32_t>(Unsigned(4, "prof_rate"));
        histogram.dimension = std::string(Bytes(15, "dimen"));
        histogram.dimension.resize(histogram.dimension.find('\0') == std::string::npos
                                       ? histogram.dimension.size()
                                       : histogram.dimension.find('\0'));
        Bytes(1, "dimen_abbrev");
        if (histogram.high_pc <= histogram.low_pc) Fail(start, "high_pc is not above low_pc");
        if (histogram.rate == 0) Fail(start, "prof_rate is 0");
        if (bins > (data_.size() - at_) / 2) Fail(start, "hist_size is past the end of the file");
        histogram.bins.reserve(bins);
        for (uint64_t i = 0; i < bins; ++i) {
          histogram.bins.push_back(static_cast<uint16_t>(Unsigned(2, "a bin")));
        }
        file.histograms.push_back(std::move(histogram));
      } else if (tag == kCallArc) {
        GmonArc arc;
        arc.from_pc = Unsigned(address_size_, "from_pc");
        arc.self_pc = Unsigned(address_size_, "self_pc");
        arc.count = static_cast<uint32_t>(Unsigned(4, "count"));
        file.arcs.push_back(arc);
      } else if (tag == kBasicBlockCount) {
        const uint64_t count = Unsigned(4, "ncounts");
        if (count > (data_.size() - at_) / (address_size_ + 8)) {
          Fail(start, "ncounts is past the end of the file");
        }
        at_ += count * (address_size_ + 8);
        ++file.basic_block_records;
      } else {
        Fail(start, "record tag " + std::to_string(tag) + " (0 histogram, 1 arc, 2 basic blocks)");
      }
    }
    return file;
  }

 private:
  [[noreturn]] void Fail(uint64_t byte, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(byte) + ": " + what);
  }

  std::string_view Bytes(size_t n, const char* what) {
    if (data_.size() - at_ < n) Fail(at_, std::string("the file ends in ") + what);
    const std::string_view bytes = data_.substr(at_, n);
    at_ += n;
    return bytes;
  }

  uint64_t Unsigned(size_t n, const char* what) {
    const std::string_view bytes = Bytes(n, what);
    uint64_t value = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t byte = static_cast<unsigned char>(bytes[little_ ? n - 1 - i : i]);
      value = value << 8 | byte;
    }
    return value;
  }

  std::string_view data_;
  size_t address_size_;
  bool little_;
  const std::string& name_;
  size_t at_ = 0;
};

}  // namespace

GmonFile ParseGmon(std::string_view data, size_t address_size, bool little_endian,
                   const std::string& name) {
  return GmonReader(data, address_size, little_endian, name).Read();
}

bool LooksLikeGmon(std::string_view head) {
  // The version is a 32-bit integer in the machine's order: 1.
  return head.size() >= kHeaderSize && head.substr(0, 4) == "gmon" &&
         (head.substr(4, 4) == std::string_view("\1\0\0\0", 4) ||
          head.substr(4, 4) == std::string_view("\0\0\0\1", 4));
}

}  // namespace proftools
