// A main for the fuzz harnesses without libFuzzer: runs LLVMFuzzerTestOneInput once on each
// file named on the command line (make test-fuzz-regressions replays tests/fuzz/regressions/).
// A finding aborts, as under libFuzzer.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[i]);
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%s: %d inputs replayed, no finding\n", argv[0], argc - 1);
  return 0;
}
