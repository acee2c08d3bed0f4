#include "common/jfr/jfr_input.h"

#include "common/base/diagnostics.h"
#include "common/base/utf8.h"

namespace proftools {

void JfrInput::FailAt(uint64_t byte, const std::string& message) const {
  throw ProfError(*name_, "byte " + std::to_string(byte) + ": " + message);
}

JfrInput JfrInput::Event(const JfrBytes& bytes, const std::string* name, uint64_t at, uint64_t end,
                         const char* what) {
  JfrInput in(bytes, name, at, end);
  const uint64_t size = in.Count(end - at, (std::string(what) + "'s size").c_str());
  // The size counts its own bytes: one that does not cover them would put the event's end
  // before the cursor.
  if (size <= in.position() - at) {
    in.FailAt(at, std::string(what) + " of " + std::to_string(size) + " bytes");
  }
  return JfrInput(bytes, name, in.position(), at + size);
}

void JfrInput::Seek(uint64_t position) {
  if (position > end_) Fail("an offset past the end of its region");
  position_ = position;
}

void JfrInput::Need(uint64_t n, const char* what) {
  if (n > end_ - position_) {
    Fail(std::string(what) + " runs past the end of " +
         (end_ == file_size_ ? "the file (a truncated recording?)" : "its event or chunk"));
  }
}

uint8_t JfrInput::Byte() {
  Need(1, "a byte");
  return At(position_++);
}

uint64_t JfrInput::BigEndian(int bytes) {
  Need(static_cast<uint64_t>(bytes), "an integer");
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = value << 8 | At(position_++);
  return value;
}

uint64_t JfrInput::LongVarint() {
  // JFR's LEB128: seven bits a byte while the top bit is set, the ninth byte whole, so a 64-bit
  // value takes at most 9 bytes and no longer form exists to refuse.
  uint64_t value = 0;
  if (end_ - position_ >= 9) {  // all nine there: no check of the end at each byte
    const char* p = data_ + (position_ - base_);
    for (int i = 0; i < 8; ++i) {
      const uint8_t b = static_cast<uint8_t>(p[i]);
      value |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        position_ += static_cast<uint64_t>(i) + 1;
        return value;
      }
    }
    position_ += 9;
    return value | static_cast<uint64_t>(static_cast<uint8_t>(p[8])) << 56;
  }
  for (int i = 0; i < 8; ++i) {
    if (position_ == end_) Need(1, "an integer");
    const uint8_t b = At(position_++);
    value |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) return value;
  }
  if (position_ == end_) Need(1, "an integer");
  return value | static_cast<uint64_t>(At(position_++)) << 56;
}

uint64_t JfrInput::Count(uint64_t limit, const char* what) {
  const uint64_t at = position_;
  const uint64_t value = Varint();
  if (value > limit) {
    FailAt(at, std::string(what) + " of " + std::to_string(value) + " is more than the " +
                   std::to_string(limit) + " the bytes left allow");
  }
  return value;
}

uint64_t JfrInput::Length(const char* what) {
  const uint64_t at = position_;
  const uint64_t value = Varint();
  // Against what is left after the length itself: a limit taken before reading it let a string
  // end up to nine bytes past its event (a fuzz finding).
  if (value > remaining()) {
    FailAt(at, std::string(what) + " of " + std::to_string(value) + " is more than the " +
                   std::to_string(remaining()) + " the bytes left allow");
  }
  return value;
}

void JfrInput::ReadString(JfrString* out) {
  const uint64_t at = position_;
  const uint8_t tag = Byte();
  out->tag = static_cast<JfrStringTag>(tag);
  out->text.clear();
  out->key = 0;
  switch (out->tag) {
    case JfrStringTag::kNull:
    case JfrStringTag::kEmpty:
      return;
    case JfrStringTag::kPoolRef:
      out->key = Varint();
      return;
    case JfrStringTag::kUtf8: {
      const uint64_t size = Length("a string's length");
      out->text.assign(data_ + (position_ - base_), size);
      position_ += size;
      return;
    }
    case JfrStringTag::kLatin1: {
      const uint64_t size = Length("a string's length");
      for (uint64_t i = 0; i < size; ++i) AppendUtf8(At(position_++), &out->text);
      return;
    }
    case JfrStringTag::kUtf16: {
      const uint64_t size = Length("a string's length");  // a char takes a byte or more
      uint32_t high = 0;  // a high surrogate waiting for its low half
      for (uint64_t i = 0; i < size; ++i) {
        const uint64_t c = Varint() & 0xffff;
        if (c < 0x80 && high == 0) {  // ASCII, most of what the JDK writes so: a byte
          out->text.push_back(static_cast<char>(c));
          continue;
        }
        if (c >= 0xd800 && c < 0xdc00) {
          if (high != 0) AppendUtf8(0xfffd, &out->text);
          high = static_cast<uint32_t>(c);
          continue;
        }
        if (c >= 0xdc00 && c < 0xe000 && high != 0) {
          AppendUtf8(0x10000 + ((high - 0xd800) << 10) + (static_cast<uint32_t>(c) - 0xdc00),
                     &out->text);
          high = 0;
          continue;
        }
        if (high != 0) AppendUtf8(0xfffd, &out->text);
        high = 0;
        AppendUtf8(static_cast<uint32_t>(c), &out->text);
      }
      if (high != 0) AppendUtf8(0xfffd, &out->text);
      return;
    }
  }
  FailAt(at, "a string of encoding " + std::to_string(tag) + " (JFR's are 0 to 5)");
}

void JfrInput::SkipString() {
  const uint64_t at = position_;
  const uint8_t tag = Byte();
  switch (static_cast<JfrStringTag>(tag)) {
    case JfrStringTag::kNull:
    case JfrStringTag::kEmpty:
      return;
    case JfrStringTag::kPoolRef:
      Varint();
      return;
    case JfrStringTag::kUtf8:
    case JfrStringTag::kLatin1:
      position_ += Length("a string's length");
      return;
    case JfrStringTag::kUtf16:
      for (uint64_t n = Length("a string's length"); n > 0; --n) Varint();
      return;
  }
  FailAt(at, "a string of encoding " + std::to_string(tag) + " (JFR's are 0 to 5)");
}

}  // namespace proftools
