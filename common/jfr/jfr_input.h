// Reading JFR's primitive encodings out of a recording's bytes in memory (a chunk at a time,
// JfrBytes, positions counted in the whole file): big-endian fixed
// integers (the chunk header, floats and doubles), JFR's LEB128 integers (at most 9 bytes: eight
// of 7 bits, the ninth of 8) and its tagged strings. Every read is checked against the end of
// the region being read (an event, a constant pool, a chunk), so no length in the input is
// trusted; errors are `FILE: byte N: what`, N the offset in the file from 0.
#ifndef PROFTOOLS_COMMON_JFR_JFR_INPUT_H_
#define PROFTOOLS_COMMON_JFR_JFR_INPUT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace proftools {

// How a string is given (the first byte of JFR's strings).
enum class JfrStringTag : uint8_t {
  kNull = 0,
  kEmpty = 1,
  kPoolRef = 2,  // a key into the constant pool of java.lang.String
  kUtf8 = 3,
  kUtf16 = 4,  // chars, each a LEB128 integer
  kLatin1 = 5,
};

struct JfrString {
  JfrStringTag tag = JfrStringTag::kNull;
  std::string text;  // UTF-8 (kUtf8, kUtf16, kLatin1)
  uint64_t key = 0;  // kPoolRef
};

// Bytes [base, base + data.size()) of a file (a chunk, read on its own), and the file's size
// when they are known to end it (else kUnknown).
struct JfrBytes {
  static constexpr uint64_t kUnknown = ~uint64_t{0};
  std::string_view data;
  uint64_t base = 0;
  uint64_t file_size = kUnknown;
  uint64_t end() const { return base + data.size(); }
};

// A cursor over [position, end) of the file's bytes, which `bytes` must hold.
class JfrInput {
 public:
  JfrInput(const JfrBytes& bytes, const std::string* name, uint64_t position, uint64_t end)
      : data_(bytes.data.data()),
        base_(bytes.base),
        file_size_(bytes.file_size),
        name_(name),
        position_(position),
        end_(end) {}
  // Over a whole file in memory.
  JfrInput(std::string_view file, const std::string* name, uint64_t position, uint64_t end)
      : JfrInput(JfrBytes{file, 0, file.size()}, name, position, end) {}

  // The cursor over the event at `at` (before `end`), after its size: its bytes from its type on.
  // Fails naming `what` ("an event") when the size runs past `end` or does not even cover itself.
  static JfrInput Event(const JfrBytes& bytes, const std::string* name, uint64_t at, uint64_t end,
                        const char* what);

  uint64_t position() const { return position_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - position_; }
  void Seek(uint64_t position);

  uint8_t Byte();
  uint64_t BigEndian(int bytes);
  // Most integers of a recording take one byte: that case inline, the rest out of line.
  uint64_t Varint() {
    if (position_ < end_) {
      const uint8_t b = At(position_);
      if (b < 0x80) {
        ++position_;
        return b;
      }
    }
    return LongVarint();
  }
  // A Varint that must fit `limit` (a count, a size, an int field): `what` names it in errors.
  uint64_t Count(uint64_t limit, const char* what);
  // A Varint giving a number of bytes that follow it (a string's length): at most what is left
  // after it.
  uint64_t Length(const char* what);
  void ReadString(JfrString* out);
  void SkipString();

  [[noreturn]] void Fail(const std::string& message) const { FailAt(position_, message); }
  [[noreturn]] void FailAt(uint64_t byte, const std::string& message) const;
  const std::string& name() const { return *name_; }

 private:
  void Need(uint64_t n, const char* what);
  uint64_t LongVarint();
  uint8_t At(uint64_t position) const { return static_cast<uint8_t>(data_[position - base_]); }

  const char* data_;  // the byte at base_
  uint64_t base_;
  uint64_t file_size_;
  const std::string* name_;
  uint64_t position_;
  uint64_t end_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_INPUT_H_
