// A program's output: stdout, or a file written atomically.
//
// For a file, bytes go to a temporary file in the same directory, which Commit() renames over
// the target. A symbolic link is written through: its target (every level followed; a dangling
// link's target is created) is replaced, atomically, and the link stays. A run that fails (an
// exception, a signal) never leaves a truncated output behind and never touches an existing file:
// the temporary file is removed. An existing device, FIFO or socket (`-o /dev/null`, a named pipe)
// is written in place instead, never replaced.
#ifndef PROFTOOLS_COMMON_IO_OUTPUT_H_
#define PROFTOOLS_COMMON_IO_OUTPUT_H_

#include <string>
#include <string_view>

#include "common/io/byte_stream.h"

namespace proftools {

class Output : public ByteSink {
 public:
  // `path` empty or "-": stdout.
  explicit Output(const std::string& path);
  ~Output() override;
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void Write(std::string_view data) override;
  // Flushes; for a file, syncs it and renames it into place. Throws ProfError on failure.
  void Commit();

  bool is_stdout() const { return temp_path_.empty() && !in_place_; }
  // True when the output is a terminal (only possible for stdout).
  bool IsTerminal() const;
  // The temporary file Commit renames into place, for a writer that must open the file by name
  // (SQLite): it writes there instead of through Write, closes it, then calls Commit. Empty for
  // stdout and for outputs written in place.
  const std::string& temp_path() const { return temp_path_; }
  // The name for messages: the path, or "<stdout>".
  const std::string& name() const { return name_; }

 private:
  void Flush();
  void WriteAll(const char* data, size_t size);

  std::string name_;
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  bool in_place_ = false;  // an existing non-regular file, written directly
  std::string buffer_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_OUTPUT_H_
