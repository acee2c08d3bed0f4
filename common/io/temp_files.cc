#include "common/io/temp_files.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <initializer_list>

namespace proftools {
namespace {

// Temporary files to remove when a signal ends the program. A fixed array of C strings, because
// a signal handler may only do async-signal-safe things (unlink is; malloc is not).
constexpr int kMaxTemps = 8;
std::atomic<const char*> g_temps[kMaxTemps];

void RemoveTempsAndReraise(int signal_number) {
  for (auto& temp : g_temps) {
    const char* path = temp.exchange(nullptr);
    if (path != nullptr) unlink(path);
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

}  // namespace

void RegisterTemp(const char* path) {
  static bool handlers_installed = false;
  if (!handlers_installed) {
    handlers_installed = true;
    for (int sig :
         {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ}) {
      struct sigaction action;
      std::memset(&action, 0, sizeof action);
      struct sigaction previous;
      sigaction(sig, nullptr, &previous);
      // Only a signal's default action is replaced: "ignored" stays as the shell asked, and a
      // handler of the program's host stays its own (libFuzzer's SIGALRM checks its timeout:
      // taken over, the first alarm ended the fuzzer as if it had found a fault).
      if ((previous.sa_flags & SA_SIGINFO) != 0 || previous.sa_handler != SIG_DFL) continue;
      action.sa_handler = RemoveTempsAndReraise;
      sigemptyset(&action.sa_mask);
      sigaction(sig, &action, nullptr);
    }
  }
  for (auto& temp : g_temps) {
    const char* expected = nullptr;
    if (temp.compare_exchange_strong(expected, path)) return;
  }
}

void UnregisterTemp(const char* path) {
  for (auto& temp : g_temps) {
    const char* expected = path;
    if (temp.compare_exchange_strong(expected, nullptr)) return;
  }
}

}  // namespace proftools
