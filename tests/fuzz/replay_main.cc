// A main for the fuzz harnesses without libFuzzer: `replay NAME FILE...` runs harness NAME's
// LLVMFuzzerTestOneInput once on each FILE (make test-fuzz-regressions replays
// tests/fuzz/regressions/NAME/). A finding aborts, as under libFuzzer.
//
// Every harness is in the one replay program: the Makefile's build/unity/fuzz-replay.cc
// #includes each tests/fuzz/fuzz_NAME.cc with its LLVMFuzzerTestOneInput renamed
// FuzzReplay_NAME, then this file with FUZZ_REPLAY_HARNESSES listing {"NAME", FuzzReplay_NAME}.
// (One unit and one link instead of one a harness: 22 s of CPU became 6 s.)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#ifndef FUZZ_REPLAY_HARNESSES
#error "compiled through build/unity/fuzz-replay.cc (the Makefile), which lists the harnesses"
#endif

namespace {

struct ReplayHarness {
  const char* name;
  int (*test_one_input)(const uint8_t* data, size_t size);
};

constexpr ReplayHarness kReplayHarnesses[] = {FUZZ_REPLAY_HARNESSES};

}  // namespace

int main(int argc, char** argv) {
  const ReplayHarness* harness = nullptr;
  if (argc >= 2) {
    for (const ReplayHarness& h : kReplayHarnesses) {
      if (std::strcmp(h.name, argv[1]) == 0) harness = &h;
    }
  }
  if (harness == nullptr) {
    std::fprintf(stderr, "usage: %s HARNESS FILE...; the harnesses:", argv[0]);
    for (const ReplayHarness& h : kReplayHarnesses) std::fprintf(stderr, " %s", h.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[i]);
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    harness->test_one_input(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%s %s: %d inputs replayed, no finding\n", argv[0], harness->name, argc - 2);
  return 0;
}
