// pprof's profile.proto as a reader of the registry, and pprof's legacy formats as readers that
// only say how to convert them (legacy_pprof.h).
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_CODEC_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"
#include "common/model/writer_spec.h"

namespace proftools {

extern const ReaderSpec kPprofReader;
extern const ReaderSpec kLegacyPprofReader;
// prof2pprof's default output (samples summed by stack, source and labels), gzipped.
extern const WriterSpec kPprofWriter;

// True when `head` parses as the start of a perftools.profiles.Profile message: every field
// number is one of the message's (1-15) with its wire type.
bool LooksLikeProfileProto(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_CODEC_H_
