#include "common/io/whole_input.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"

namespace proftools {

WholeInput::~WholeInput() {
  std::free(data_);
}

char* WholeInput::Reserve(size_t n) {
  if (capacity_ - size_ < n) {
    const size_t capacity = std::max(capacity_ * 2, size_ + n);
    char* grown = static_cast<char*>(std::realloc(data_, capacity));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = grown;
    capacity_ = capacity;
  }
  return data_ + size_;
}

namespace {

[[noreturn]] void TooLarge(const Input& input, uint64_t cap, const char* what) {
  throw ProfError(input.name, std::string(input.gzipped ? "inflates to" : "is") + " more than " +
                                  Counted(cap, "byte", "bytes") + " of " + what +
                                  " (a gzip bomb? raise the limit with --max-input-size)");
}

// A file's bytes, not zeroed before they are read in (a fleet's hundreds of small gzipped
// inputs were each zero-filled, then read over).
struct FileBytes {
  std::unique_ptr<char[]> data;
  size_t size = 0;
};

// The whole of a regular file, or false when it cannot be read (it is then read as a stream,
// which says why).
bool ReadFile(const std::string& path, uint64_t cap, FileBytes* bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            (cap == 0 || static_cast<uint64_t>(st.st_size) <= cap);
  if (ok) {
    bytes->size = static_cast<size_t>(st.st_size);
    bytes->data.reset(new char[bytes->size]);
    size_t have = 0;
    while (ok && have < bytes->size) {
      const ssize_t got = read(fd, bytes->data.get() + have, bytes->size - have);
      if (got < 0 && errno == EINTR) continue;
      ok = got > 0;
      if (ok) have += static_cast<size_t>(got);
    }
  }
  close(fd);
  return ok;
}

// One decompressor for each thread that inflates, kept from file to file: allocated and cleared
// for each of a fleet's inputs, it was 2% of their inflating.
libdeflate_decompressor* ThreadDecompressor() {
  thread_local const std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)>
      decompressor(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
  return decompressor.get();
}

enum class Inflated { kDone, kOverCap, kNot };

// Inflates a gzip file (its members one after another, as zcat does) into `data` with
// libdeflate, which inflates a buffer whole in 45% of the time zlib's streaming inflate takes
// (the fleet merge's 14 MB: 0.036 s against 0.080 s). kNot leaves `data` empty: the file could
// not be read, or its data is corrupt or cut short, for which zlib's stream gives the message.
Inflated InflateFile(const std::string& path, uint64_t cap, WholeInput* data) {
  FileBytes file;
  if (!ReadFile(path, cap, &file) || file.size < 18) return Inflated::kNot;
  const std::string_view compressed(file.data.get(), file.size);
  libdeflate_decompressor* const inflater = ThreadDecompressor();
  if (inflater == nullptr) return Inflated::kNot;
  // A member's size is its last four bytes (modulo 2^32): the first guess for a lone member.
  const auto* end = reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size());
  const uint64_t last_size = uint64_t{end[-4]} | uint64_t{end[-3]} << 8 | uint64_t{end[-2]} << 16 |
                             uint64_t{end[-1]} << 24;
  size_t at = 0;
  while (at < compressed.size()) {
    // Room for the member: guessed, doubled until it fits, but never past the cap (plus one
    // byte, to tell "more than the cap" from "exactly the cap").
    const uint64_t left = cap == 0 ? UINT64_MAX : cap - data->size() + 1;
    uint64_t room = std::min<uint64_t>(
        left, std::max<uint64_t>({last_size + 1, 4 * (compressed.size() - at), 1 << 16}));
    while (true) {
      size_t in_used = 0, out_got = 0;
      const libdeflate_result result = libdeflate_gzip_decompress_ex(
          inflater, compressed.data() + at, compressed.size() - at,
          data->Reserve(static_cast<size_t>(room)), static_cast<size_t>(room), &in_used, &out_got);
      if (result == LIBDEFLATE_SUCCESS) {
        data->Commit(out_got);
        if (cap != 0 && data->size() > cap) return Inflated::kOverCap;
        at += in_used;
        break;
      }
      if (result != LIBDEFLATE_INSUFFICIENT_SPACE) {
        data->Clear();
        return Inflated::kNot;
      }
      if (room >= left) return Inflated::kOverCap;
      room = std::min(room * 2, left);
    }
  }
  return Inflated::kDone;
}

}  // namespace

std::shared_ptr<WholeInput> InflateSmallFile(const std::string& path, uint64_t cap) {
  auto data = std::make_shared<WholeInput>();
  if (InflateFile(path, cap, data.get()) != Inflated::kDone) return nullptr;
  return data;
}

void ReadWholeInput(Input& input, uint64_t cap, const char* what, WholeInput* data) {
  // Inflated when it was opened: taken (its stream is not read after this).
  if (input.inflated != nullptr && data->size() == 0) {
    if (cap != 0 && input.inflated->size() > cap) TooLarge(input, cap, what);
    data->Swap(*input.inflated);
    return;
  }
  // A gzipped file is inflated whole from the file itself, where it can be: faster than the
  // stream (its first bytes, inflated to sniff them, are inflated again: 4 KiB).
  if (input.gzipped && !input.reopen_path.empty() && data->size() == 0) {
    switch (InflateFile(input.reopen_path, cap, data)) {
      case Inflated::kDone:
        return;
      case Inflated::kOverCap:
        TooLarge(input, cap, what);
      case Inflated::kNot:
        break;
    }
  }
  // Reads go into the room left while there is any: asking for a whole read's worth of room
  // before each read doubled the buffer for the read that finds the end. glibc grows it with
  // mremap, but AddressSanitizer's realloc copies, and its page faults were most of the pprof
  // fuzz harness's time (436 a small input, 80% of its CPU in the kernel). The buffer starts at
  // 64 KiB and doubles: a first 1 MiB for every input was a fresh mapping under
  // AddressSanitizer, and two thirds of the pstats and DHAT harnesses' CPU time (the kernel's,
  // mapping it and its shadow at each small input).
  constexpr size_t kFirstRead = size_t{64} << 10;
  // A regular file says its size: room for all of it (and a byte to find the end) at once, not
  // by doubling, whose copies and fresh pages were a tenth of reading a 20 MB pstats file. A
  // size over the cap is left to the reads to find (the cap's error, as for a pipe).
  struct stat st {};
  if (!input.gzipped && data->size() == 0 && !input.reopen_path.empty() &&
      stat(input.reopen_path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size > static_cast<off_t>(kFirstRead) &&
      (cap == 0 || static_cast<uint64_t>(st.st_size) <= cap)) {
    data->Reserve(static_cast<size_t>(st.st_size) + 1);
  }
  while (true) {
    const size_t want = data->room() > 0 ? data->room() : std::max(kFirstRead, data->size());
    const size_t got = input.stream->Read(data->Reserve(want), want);
    if (got == 0) break;
    if (cap != 0 && data->size() + got > cap) TooLarge(input, cap, what);
    data->Commit(got);
  }
}

}  // namespace proftools
