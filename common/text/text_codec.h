// Prof text as a reader of the registry: the format of our own, recognised by its first line.
#ifndef PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_
#define PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

extern const ReaderSpec kProfTextReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_
