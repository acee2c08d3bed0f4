#include "common/load/read_profile.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string_view>
#include <utility>

#include "common/base/counted.h"
#include "common/model/checker.h"
#include "common/pprof/pprof_reader.h"
#include "common/text/text_reader.h"

namespace proftools {
namespace {

// What pprof allows and prof text does not (duplicate type names, empty type names, negative
// line numbers, ...) is caught by the checker on the header and the definitions. Stacks and
// samples go straight through: the pprof reader already enforces their rules (ids it assigns
// itself, references to defined locations and sources, value counts, non-empty label keys,
// non-negative times), and checking a million samples twice is the cost of a second reader.
class PprofChecks : public ProfileSink {
 public:
  PprofChecks(ProfileSink* next, DiagnosticHandler* handler, std::string name)
      : next_(next), checked_(next, handler, std::move(name)) {}
  void OnHeader(const ProfileHeader& header) override { checked_.OnHeader(header); }
  void OnMapping(const Mapping& mapping) override { checked_.OnMapping(mapping); }
  void OnFunction(const Function& function) override { checked_.OnFunction(function); }
  void OnLocation(const Location& location) override { checked_.OnLocation(location); }
  void OnStack(const Stack& stack) override { next_->OnStack(stack); }
  void OnSample(const Sample& sample) override { next_->OnSample(sample); }
  void OnEnd() override { checked_.OnEnd(); }

 private:
  ProfileSink* next_;
  CheckingSink checked_;
};

// A growing buffer on malloc/realloc: glibc moves a large block with mremap, so growing it
// neither copies nor holds the old and the new block at once (std::string would do both, and
// briefly need 2.5 times the input).
class ReallocBuffer {
 public:
  ReallocBuffer() = default;
  ~ReallocBuffer() { std::free(data_); }
  ReallocBuffer(const ReallocBuffer&) = delete;
  ReallocBuffer& operator=(const ReallocBuffer&) = delete;
  // Room for `n` more bytes at end().
  char* Reserve(size_t n) {
    if (capacity_ - size_ < n) {
      const size_t capacity = std::max(capacity_ * 2, size_ + n);
      char* grown = static_cast<char*>(std::realloc(data_, capacity));
      if (grown == nullptr) throw std::bad_alloc();
      data_ = grown;
      capacity_ = capacity;
    }
    return data_ + size_;
  }
  void Commit(size_t n) { size_ += n; }
  std::string_view view() const { return std::string_view(data_, size_); }
  size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// The whole (inflated) content, refusing more than `cap` bytes (0: no cap).
void ReadAllCapped(Input& input, uint64_t cap, ReallocBuffer* data) {
  constexpr size_t kRead = size_t{1} << 20;
  while (true) {
    const size_t got = input.stream->Read(data->Reserve(kRead), kRead);
    if (got == 0) break;
    if (cap != 0 && data->size() + got > cap) {
      throw ProfError(input.name, std::string(input.gzipped ? "inflates to" : "is") +
                                      " more than " + Counted(cap, "byte", "bytes") +
                                      " of pprof data (a gzip bomb? raise the limit with "
                                      "--max-input-size)");
    }
    data->Commit(got);
  }
}

}  // namespace

void ReadProfile(Input& input, ProfileSink* sink, const ReadOptions& options) {
  switch (input.format) {
    case InputFormat::kEmpty:
    case InputFormat::kProfText:
      // The text reader reports an empty input as a missing header.
      ReadText(input.stream.get(), input.name, sink, options.handler);
      return;
    case InputFormat::kPprof: {
      ReallocBuffer data;
      ReadAllCapped(input, options.max_pprof_size, &data);
      PprofReadOptions pprof_options;
      pprof_options.uri = input.name == "<stdin>" ? "" : input.name;
      pprof_options.handler = options.handler;
      DiagnosticHandler throw_on_violation;
      PprofChecks checked(sink, options.handler != nullptr ? options.handler : &throw_on_violation,
                          input.name);
      ReadPprof(data.view(), input.name, &checked, pprof_options);
      return;
    }
    case InputFormat::kLegacyPprof:
      throw ProfError(Diagnostic{Rule::kHeader, input.name, input.text ? 1u : 0u, input.hint});
    case InputFormat::kOther:
      throw ProfError(Diagnostic{Rule::kHeader, input.name, input.text ? 1u : 0u,
                                 "not a prof text file: " + input.hint});
  }
}

Profile LoadProfile(const std::string& path) {
  Input input = OpenInput(path);
  ProfileBuilder builder;
  ReadProfile(input, &builder);
  return builder.Take();
}

}  // namespace proftools
