#include "common/jfr/jfr_codec.h"

#include "common/io/whole_input.h"
#include "common/jfr/jfr_chunk.h"

namespace proftools {

int SniffJfr(std::string_view head, bool text) {
  if (text || head.size() < 6 || head.substr(0, 4) != kJfrMagic) return kNotMine;
  // The major version, big-endian: 2 since JDK 11 (1 was JDK 9 and 10's, not read).
  return head[4] == 0 && (head[5] == 2 || head[5] == 1) ? kCertain : kLikely;
}

void ReadJfr(Input& input, const ReadContext& context, const JfrOptions& options,
             ProfileSink* sink) {
  WholeInput data;
  ReadWholeInput(input, context.max_input_size, "a JFR recording", &data);
  ConvertJfr(data.view(), input.name, context, options, sink);
}

namespace {

void ReadJfrDefault(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadJfr(input, context, JfrOptions{}, sink);
}

}  // namespace

const ReaderSpec kJfrReader = {
    "jfr",
    "a Java Flight Recorder recording (.jfr)",
    ReaderShape::kWholeInput,
    "jfr2prof",
    SniffJfr,
    ReadJfrDefault,
};

}  // namespace proftools
