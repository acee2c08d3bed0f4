// "1 error", "2 errors": a number with its noun in the right number, for messages.
#ifndef PROFTOOLS_COMMON_BASE_COUNTED_H_
#define PROFTOOLS_COMMON_BASE_COUNTED_H_

#include <cstdint>
#include <string>

namespace proftools {

inline std::string Counted(uint64_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_COUNTED_H_
