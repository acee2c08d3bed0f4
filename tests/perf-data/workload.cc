// The workload tests/perf-data.sh records with perf: known functions, known callers, a thread
// with a name of its own, a child process and inlined code, so that the tests can say what a
// conversion of its recording must hold. Built with -O2 -g -fno-omit-frame-pointer
// -fno-shrink-wrap -fno-optimize-sibling-calls (so that every frame is on the chain).
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <thread>

namespace workload {

// Inlined into Hot at every call: its frames are the inlined ones.
__attribute__((always_inline)) inline uint64_t Mix(uint64_t x, uint64_t i) {
  return x * 6364136223846793005u + i;
}

// Called by Hot so that Hot is no leaf: gcc gives a leaf no frame pointer (whatever
// -mno-omit-leaf-frame-pointer says), and a frame-pointer stack would then skip Hot's caller;
// -fno-shrink-wrap makes Hot set its frame up before its loop, not only around this call.
__attribute__((noinline)) uint64_t Finish(uint64_t x) {
  return x ^ (x >> 7);
}

__attribute__((noinline)) uint64_t Hot(uint64_t n) {
  uint64_t x = 0;
  for (uint64_t i = 0; i < n; ++i) x = Mix(x, i);
  return Finish(x);
}

__attribute__((noinline)) uint64_t Caller(uint64_t n) {
  return Hot(n) + 1;
}

__attribute__((noinline)) uint64_t WorkerLoop(uint64_t n) {
  return Hot(n) ^ 7;
}

__attribute__((noinline)) uint64_t ChildSpin(uint64_t n) {
  return Hot(n) - 3;
}

// Sleeps `count` times `millis` ms: off-CPU time where it is known how much there must be.
__attribute__((noinline)) void Nap(int count, int millis) {
  for (int i = 0; i < count; ++i) usleep(static_cast<useconds_t>(millis) * 1000);
}

}  // namespace workload

int main(int argc, char** argv) {
  // `workload nap`: three naps of 30 ms, nothing else.
  if (argc > 1 && std::string_view(argv[1]) == "nap") {
    workload::Nap(3, 30);
    return 0;
  }
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000000;
  volatile uint64_t sink = 0;
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "worker");
    sink = sink + workload::WorkerLoop(n / 2);
  });
  const pid_t child = fork();
  if (child == 0) {
    sink = sink + workload::ChildSpin(n / 4);
    _exit(0);
  }
  sink = sink + workload::Caller(n);
  worker.join();
  int status = 0;
  waitpid(child, &status, 0);
  return static_cast<int>(sink & 0);
}
