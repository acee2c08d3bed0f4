// Fuzzes the prof text reader: prof-validate and prof-text --canonical agree on validity, and
// the canonical text of a valid profile reads back to itself.
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools::fuzz;
  std::string canonical;
  if (ValidateAndCanonicalAgree({reinterpret_cast<const char*>(data), size}, &canonical)) {
    RequireCanonicalRoundTrip(canonical);
  }
  return 0;
}
