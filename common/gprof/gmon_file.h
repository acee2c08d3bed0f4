// gprof's gmon.out (glibc's, version 1: "gmon" and its records, tagged): the time histograms
// (bins of PC samples over an address range, at a rate, in a dimension), the call arcs (from a
// call site to a function's entry, with a count) and the basic-block counts (-fprofile-arcs'
// older cousin: counted, not read). Addresses are as the executable's symbols have them (glibc
// writes a PIE's relative to where it was loaded).
#ifndef PROFTOOLS_COMMON_GPROF_GMON_FILE_H_
#define PROFTOOLS_COMMON_GPROF_GMON_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

struct GmonHistogram {
  uint64_t low_pc = 0, high_pc = 0;
  uint32_t rate = 0;      // samples a second (prof_rate)
  std::string dimension;  // "seconds"
  std::vector<uint16_t> bins;
  uint64_t byte = 0;  // where the record starts, for messages
};

struct GmonArc {
  uint64_t from_pc = 0, self_pc = 0;
  uint32_t count = 0;
};

struct GmonFile {
  std::vector<GmonHistogram> histograms;
  std::vector<GmonArc> arcs;
  uint64_t basic_block_records = 0;
};

// Parses `data` (named `name` in messages) with addresses of `address_size` bytes (8 for a
// 64-bit executable, 4 for a 32-bit one). Throws ProfError ("NAME: byte N: what is wrong").
GmonFile ParseGmon(std::string_view data, size_t address_size, bool little_endian,
                   const std::string& name);

// Whether `head` starts as glibc's gmon.out does: "gmon" and version 1.
bool LooksLikeGmon(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GPROF_GMON_FILE_H_
