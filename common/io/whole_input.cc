#include "common/io/whole_input.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"

namespace proftools {

WholeInput::~WholeInput() {
  std::free(data_);
}

char* WholeInput::Reserve(size_t n) {
  if (capacity_ - size_ < n) {
    const size_t capacity = std::max(capacity_ * 2, size_ + n);
    char* grown = static_cast<char*>(std::realloc(data_, capacity));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = grown;
    capacity_ = capacity;
  }
  return data_ + size_;
}

void ReadWholeInput(Input& input, uint64_t cap, const char* what, WholeInput* data) {
  constexpr size_t kRead = size_t{1} << 20;
  while (true) {
    const size_t got = input.stream->Read(data->Reserve(kRead), kRead);
    if (got == 0) break;
    if (cap != 0 && data->size() + got > cap) {
      throw ProfError(input.name, std::string(input.gzipped ? "inflates to" : "is") +
                                      " more than " + Counted(cap, "byte", "bytes") + " of " +
                                      what +
                                      " (a gzip bomb? raise the limit with --max-input-size)");
    }
    data->Commit(got);
  }
}

}  // namespace proftools
