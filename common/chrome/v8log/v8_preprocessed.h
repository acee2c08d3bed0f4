// The JSON of `node --prof-process --preprocess LOG` (V8's tick processor, its JsonProfile): the
// log's code already symbolised (`code`: CPP and SHARED_LIB entries by nm's names, CODE by kind,
// JS with their function), `functions`, and `ticks` of {tm, vm, s: [code, offset, ...]}, the
// frames from the pc down, -1 for an address nothing holds. Read as the log is (v8_log_codec.h):
// the same types, labels and names (nm's symbol versions, @@GLIBC_2.2.5, dropped); a frame in a
// library without a symbol is the library with the offset as its address; an unknown frame is
// kept on top as its address, left out below.
#ifndef PROFTOOLS_COMMON_CHROME_V8LOG_V8_PREPROCESSED_H_
#define PROFTOOLS_COMMON_CHROME_V8LOG_V8_PREPROCESSED_H_

#include <string_view>

#include "common/json/json_document.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

void ReadV8Preprocessed(JsonDocument& json, const ReadContext& context, ProfileSink* sink);

// Whether `head` starts as --preprocess's JSON does ({"code":[).
bool LooksV8Preprocessed(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8LOG_V8_PREPROCESSED_H_
