#include "common/folded/folded_encoding.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/base/utf8.h"

namespace proftools {
namespace {

// Converts UTF-16 code units to UTF-8 as they come; a lone surrogate becomes U+FFFD (the text
// is names, and a name with a replacement character beats refusing the profile).
class Utf16Decoder {
 public:
  explicit Utf16Decoder(bool big_endian) : big_endian_(big_endian) {}

  // Decodes `in` (any length: an odd byte waits for the next call), appending to `out`.
  void Decode(std::string_view in, std::string* out) {
    for (char c : in) {
      if (!have_byte_) {
        byte_ = static_cast<uint8_t>(c);
        have_byte_ = true;
        continue;
      }
      have_byte_ = false;
      const uint8_t second = static_cast<uint8_t>(c);
      const uint32_t unit =
          big_endian_ ? (uint32_t{byte_} << 8 | second) : (uint32_t{second} << 8 | byte_);
      Unit(unit, out);
    }
  }
  // At the end of the input: what is left over is not a character.
  void Finish(std::string* out) {
    if (high_ != 0 || have_byte_) AppendUtf8(0xfffd, out);
    high_ = 0;
    have_byte_ = false;
  }

 private:
  void Unit(uint32_t unit, std::string* out) {
    if (high_ != 0) {
      if (unit >= 0xdc00 && unit < 0xe000) {
        AppendUtf8(0x10000 + ((high_ - 0xd800) << 10) + (unit - 0xdc00), out);
        high_ = 0;
        return;
      }
      AppendUtf8(0xfffd, out);
      high_ = 0;
    }
    if (unit >= 0xd800 && unit < 0xdc00) {
      high_ = unit;
    } else if (unit >= 0xdc00 && unit < 0xe000) {
      AppendUtf8(0xfffd, out);
    } else {
      AppendUtf8(unit, out);
    }
  }

  bool big_endian_;
  bool have_byte_ = false;
  uint8_t byte_ = 0;
  uint32_t high_ = 0;
};

class Utf16Stream : public ByteStream {
 public:
  Utf16Stream(std::unique_ptr<ByteStream> raw, bool big_endian)
      : raw_(std::move(raw)), decoder_(big_endian), in_(size_t{64} << 10) {}

  size_t Read(char* buffer, size_t capacity) override {
    while (position_ == pending_.size()) {
      pending_.clear();
      position_ = 0;
      if (done_) return 0;
      const size_t n = raw_->Read(in_.data(), in_.size());
      if (n == 0) {
        done_ = true;
        decoder_.Finish(&pending_);
      } else {
        decoder_.Decode(std::string_view(in_.data(), n), &pending_);
      }
    }
    const size_t n = std::min(capacity, pending_.size() - position_);
    std::memcpy(buffer, pending_.data() + position_, n);
    position_ += n;
    return n;
  }

 private:
  std::unique_ptr<ByteStream> raw_;
  Utf16Decoder decoder_;
  std::vector<char> in_;
  std::string pending_;
  size_t position_ = 0;
  bool done_ = false;
};

// Reads up to `n` bytes (fewer only at the end of the stream).
std::string ReadUpTo(ByteStream* stream, size_t n) {
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    const size_t r = stream->Read(out.data() + got, n - got);
    if (r == 0) break;
    got += r;
  }
  out.resize(got);
  return out;
}

}  // namespace

TextEncoding DetectEncoding(std::string_view head) {
  if (head.substr(0, 3) == "\xef\xbb\xbf") return TextEncoding::kUtf8Bom;
  if (head.substr(0, 2) == "\xff\xfe") return TextEncoding::kUtf16Le;
  if (head.substr(0, 2) == "\xfe\xff") return TextEncoding::kUtf16Be;
  return TextEncoding::kUtf8;
}

std::unique_ptr<ByteStream> DecodedStream(std::unique_ptr<ByteStream> stream) {
  std::string head = ReadUpTo(stream.get(), 3);
  const TextEncoding encoding = DetectEncoding(head);
  switch (encoding) {
    case TextEncoding::kUtf8:
      return std::make_unique<PrefixedStream>(std::move(head), std::move(stream));
    case TextEncoding::kUtf8Bom:
      return stream;
    case TextEncoding::kUtf16Le:
    case TextEncoding::kUtf16Be:
      return std::make_unique<Utf16Stream>(
          std::make_unique<PrefixedStream>(head.substr(2), std::move(stream)),
          encoding == TextEncoding::kUtf16Be);
  }
  return stream;
}

std::string DecodeHead(std::string_view head) {
  const TextEncoding encoding = DetectEncoding(head);
  switch (encoding) {
    case TextEncoding::kUtf8:
      return std::string(head);
    case TextEncoding::kUtf8Bom:
      return std::string(head.substr(3));
    case TextEncoding::kUtf16Le:
    case TextEncoding::kUtf16Be: {
      std::string out;
      Utf16Decoder decoder(encoding == TextEncoding::kUtf16Be);
      decoder.Decode(head.substr(2), &out);
      return out;
    }
  }
  return std::string(head);
}

}  // namespace proftools
