// The encodings folded stacks come in: UTF-8 with or without a byte-order mark (editors on
// Windows add one), and UTF-16 little- or big-endian with its mark (PowerShell's `>` writes
// UTF-16 LE), converted to UTF-8 so that the parser sees one encoding.
#ifndef PROFTOOLS_COMMON_FOLDED_FOLDED_ENCODING_H_
#define PROFTOOLS_COMMON_FOLDED_FOLDED_ENCODING_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/io/byte_stream.h"

namespace proftools {

enum class TextEncoding { kUtf8, kUtf8Bom, kUtf16Le, kUtf16Be };

// The encoding the first bytes announce (by their byte-order mark; none: UTF-8).
TextEncoding DetectEncoding(std::string_view head);

// `stream` as UTF-8 without a byte-order mark. Reads its first bytes to find out.
std::unique_ptr<ByteStream> DecodedStream(std::unique_ptr<ByteStream> stream);

// The same for bytes in memory (the sniffer's head; a cut last character is dropped).
std::string DecodeHead(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FOLDED_FOLDED_ENCODING_H_
