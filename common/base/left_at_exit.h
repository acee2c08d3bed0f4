// Memory a program holds to its end, left for the kernel to take back when the process exits
// rather than freed an allocation at a time: a report's totals of a large profile are hundreds
// of thousands of allocations (a call graph's 231,000 stacks and 100,000 functions: freeing
// them, just before prof-text exits, was a twentieth of its time). Only for objects whose
// destructors do nothing but free memory, in code that runs once a process. Builds with
// AddressSanitizer free them, so that its leak check keeps its meaning.
#ifndef PROFTOOLS_COMMON_BASE_LEFT_AT_EXIT_H_
#define PROFTOOLS_COMMON_BASE_LEFT_AT_EXIT_H_

#include <memory>

namespace proftools {

template <typename T>
void LeaveAtExit(std::unique_ptr<T> object) {
#if defined(__SANITIZE_ADDRESS__)
  object.reset();
#else
  static_cast<void>(object.release());
#endif
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_LEFT_AT_EXIT_H_
