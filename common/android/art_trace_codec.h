// kArtTraceReader: Android's ART method traces (`.trace`: Debug.startMethodTracing and
// startMethodTracingSampling, Android Studio's recordings), as the Firefox Profiler and Android
// Studio import them: the regular format (a text summary, `*threads`, `*methods`, `*end`, then
// binary records after the magic "SLOW") and the streaming one (all binary: records with thread
// and method definitions between them, the summary last). Each record is a method entered or
// left on a thread at a time; docs/android.md says how they become samples.
#ifndef PROFTOOLS_COMMON_ANDROID_ART_TRACE_CODEC_H_
#define PROFTOOLS_COMMON_ANDROID_ART_TRACE_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

int SniffArtTrace(std::string_view head, bool text);

extern const ReaderSpec kArtTraceReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ANDROID_ART_TRACE_CODEC_H_
