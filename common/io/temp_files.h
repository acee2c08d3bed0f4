// Files removed when a signal ends the program: an output's temporary file, a temporary
// database. What the kernel ends a program with by default, but for SIGKILL and SIGSTOP, which
// cannot be caught: SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2,
// SIGXCPU and SIGXFSZ (a signal the shell ignores stays ignored, and one the host program
// handles stays its own). The handler removes the files and dies of the signal, as the program
// would have.
#ifndef PROFTOOLS_COMMON_IO_TEMP_FILES_H_
#define PROFTOOLS_COMMON_IO_TEMP_FILES_H_

namespace proftools {

// `path` is removed if a signal ends the program before UnregisterTemp. It must stay valid until
// then. At most 8 at once (more are not removed by a signal).
void RegisterTemp(const char* path);
void UnregisterTemp(const char* path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_TEMP_FILES_H_
