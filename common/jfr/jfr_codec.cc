#include "common/jfr/jfr_codec.h"

#include "common/io/spool.h"
#include "common/jfr/jfr_chunk.h"

namespace proftools {

int SniffJfr(std::string_view head, bool text) {
  if (text || head.size() < 6 || head.substr(0, 4) != kJfrMagic) return kNotMine;
  // The major version, big-endian: 2 since JDK 11 (1 was JDK 9 and 10's, not read).
  return head[4] == 0 && (head[5] == 2 || head[5] == 1) ? kCertain : kLikely;
}

void ReadJfr(Input& input, const ReadContext& context, const JfrOptions& options,
             ProfileSink* sink) {
  // A regular file is opened again for a second reading; anything else is spooled to disk as
  // it is read the first time.
  TwoPassInput passes(input.reopen_path);
  passes.CapSpool(&input, context.max_spool_size);
  CopyingStream first(input.stream.get(), passes.spool_fd(), input.name);
  ConvertJfr(
      &first, [&] { return passes.Again(input.name); }, input.name, context, options, sink);
}

namespace {

void ReadJfrDefault(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadJfr(input, context, JfrOptions{}, sink);
}

}  // namespace

const ReaderSpec kJfrReader = {
    "jfr",
    "a Java Flight Recorder recording (.jfr)",
    ReaderShape::kTwoPasses,
    "jfr2prof",
    SniffJfr,
    ReadJfrDefault,
};

}  // namespace proftools
