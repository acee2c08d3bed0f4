// The Firefox Profiler's two JSON formats as the registry sees them: one reader, "firefox", for
// the Gecko profile Firefox writes (gecko_json.h) and the processed profile the profiler and
// samply write (processed_json.h), told apart by meta.preprocessedProfileVersion.
#ifndef PROFTOOLS_COMMON_FIREFOX_FIREFOX_CODEC_H_
#define PROFTOOLS_COMMON_FIREFOX_FIREFOX_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "firefox", whole input, no converter of its own.
extern const ReaderSpec kFirefoxReader;

// kCertain for a JSON object whose head has "preprocessedProfileVersion", or "meta" with
// "version" and "threads" or "stackwalk"; kLikely for one that starts with libs as Firefox
// writes them ("breakpadId", "debugName"; Firefox puts them before meta, often past `head`);
// never for a Chrome trace ("traceEvents"), a speedscope file ("$schema") or a V8 profile
// ("callFrame").
int SniffFirefoxProfile(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_FIREFOX_CODEC_H_
