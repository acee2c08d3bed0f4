// The frames valgrind's tools print, as locations: "0x109183: make_table (heap_workload.c:14)",
// "0x4841888: malloc (in /usr/libexec/valgrind/vgpreload_massif-amd64-linux.so)" (the object
// becomes the location's mapping), "0x4841888: ???" (an address only), and massif's
// "in 2 places, all below massif's threshold (1.00%)" (a frame of that name, in brackets).
// massif's heap trees and DHAT's frame table write them alike.
#ifndef PROFTOOLS_COMMON_VALGRIND_VALGRIND_FRAMES_H_
#define PROFTOOLS_COMMON_VALGRIND_VALGRIND_FRAMES_H_

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "common/model/interner.h"

namespace proftools {

class ValgrindFrames {
 public:
  explicit ValgrindFrames(Interner* interner) : interner_(interner) {}
  // The location of `frame` (interned once per text; the text must outlive this object).
  uint64_t LocationOf(std::string_view frame);

 private:
  Interner* interner_;
  std::unordered_map<std::string_view, uint64_t> locations_;  // by frame text
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_VALGRIND_VALGRIND_FRAMES_H_
