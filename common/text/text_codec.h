// Prof text as a reader of the registry (the format of our own, recognised by its first line)
// and as a writer of the writers' registry (canonical text, as prof-text --canonical writes it).
#ifndef PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_
#define PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_

#include "common/model/reader_spec.h"
#include "common/model/writer_spec.h"

namespace proftools {

extern const ReaderSpec kProfTextReader;
extern const WriterSpec kProfTextWriter;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_TEXT_CODEC_H_
