// What the writers of other tools' formats share (prof2chrome, prof2speedscope, prof2firefox;
// prof-text's header resolves --value the same way), so that they choose, name and warn alike:
// the value type --value names, who ran a sample as its labels say, warnings naming the profile,
// and text built in a buffer and written out in blocks.
#ifndef PROFTOOLS_COMMON_MODEL_WRITER_KIT_H_
#define PROFTOOLS_COMMON_MODEL_WRITER_KIT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/model.h"

namespace proftools {

// The index in `header.types` of the type `value` names: "" for the profile's default type (-1
// when it declares none), a type's name, or, as pprof's -sample_index takes it, an index.
// Throws UsageError naming --value and the profile's types otherwise.
int ValueTypeIndex(const ProfileHeader& header, const std::string& value);

// Who ran a sample, as its labels say (model/producer_kit's keys): the first label of each key
// (pid and tid as numbers, thread, comm and process as strings). Pointers into the sample.
struct ThreadLabels {
  std::optional<int64_t> pid, tid;
  const std::string* thread = nullptr;   // a thread's name
  const std::string* comm = nullptr;     // the command (perf's comm)
  const std::string* process = nullptr;  // a process's name
  bool others = false;                   // a label besides those (or another of one key)
};
ThreadLabels ThreadLabelsOf(const Sample& sample);

// A key that tells threads apart: the source, pid, tid and thread name, and with `with_comm`
// the command too. Equal keys, same thread; the bytes are for lookups only.
std::string ThreadKey(uint64_t source_id, const ThreadLabels& labels, bool with_comm = false);

// Warnings of what a conversion cannot keep, naming the profile (`warnings` may be null: they
// are dropped then).
class WriterWarnings {
 public:
  WriterWarnings(std::string file, DiagnosticHandler* warnings)
      : file_(std::move(file)), warnings_(warnings) {}
  void operator()(const std::string& message) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  DiagnosticHandler* warnings_;
};

// Text (JSON) appended to `buffer()` and written to the sink in blocks of about 64 KiB.
class BufferedOutput {
 public:
  explicit BufferedOutput(ByteSink* out) : out_(*out) {}
  std::string& buffer() { return buffer_; }
  // Writes the buffer out once it holds a block.
  void FlushWhenFull() {
    if (buffer_.size() >= kBlockBytes) Flush();
  }
  void Flush();
  // Writes the buffer, then everything `stream` holds (a spooled part of the output).
  void FlushAndCopy(ByteStream& stream);

 private:
  static constexpr size_t kBlockBytes = 1 << 16;
  ByteSink& out_;
  std::string buffer_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_WRITER_KIT_H_
