// What every libFuzzer harness of tests/fuzz/ shares: the bytes as an input, the one rule of
// errors (nothing but ProfError and UsageError may escape the library), and the checks that
// hold for any output (it reads back to the same canonical text). A failed check aborts, which
// libFuzzer reports as a finding (tests/fuzz/README.md).
#ifndef PROFTOOLS_TESTS_FUZZ_FUZZ_UTIL_H_
#define PROFTOOLS_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/model/checker.h"
#include "common/model/two_pass.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace fuzz {

// Far below the programs' 1 GiB: a fuzz input that inflates past this is refused, not read.
constexpr uint64_t kMaxInflate = uint64_t{16} << 20;

[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

inline void Require(bool condition, const std::string& what) {
  if (!condition) Fail(what);
}

// An input of two parts: what comes before the first `separator` (a line of its own, given with
// the newlines around it: the first part keeps its last newline) and what comes after.
struct TwoParts {
  bool found = false;
  std::string_view first, second;  // without a separator: both the whole input
};
inline TwoParts SplitAtLine(std::string_view bytes, std::string_view separator) {
  const size_t at = bytes.find(separator);
  if (at == std::string_view::npos) return TwoParts{false, bytes, bytes};
  return TwoParts{true, bytes.substr(0, at + 1), bytes.substr(at + separator.size())};
}

// Opens bytes as a program opens a file: gunzipped and sniffed.
inline Input OpenBytes(std::string_view bytes, const std::string& name = "fuzz") {
  return OpenInputStream(std::make_unique<MemoryStream>(std::string(bytes)), name, kMaxInflate);
}

// Runs `work`; the library's own errors are the normal answer to bad input, anything else
// escaping is a finding. Returns the ProfError's diagnostic rule, or nothing.
struct Outcome {
  bool failed = false;  // a ProfError or UsageError was thrown
  Diagnostic diagnostic;
};
template <typename Work>
Outcome OnlyOurErrors(Work work) {
  Outcome outcome;
  try {
    work();
  } catch (const ProfError& e) {
    outcome.failed = true;
    outcome.diagnostic = e.diagnostic();
  } catch (const UsageError&) {
    outcome.failed = true;
  } catch (const std::exception& e) {
    Fail(std::string("an exception not of the library's types escaped: ") + e.what());
  } catch (...) {
    Fail("a non-std exception escaped");
  }
  return outcome;
}

// Canonical text of whatever profile `input` holds (ReadProfile, checked) or a ProfError.
inline std::string CanonicalText(Input& input) {
  StringSink text;
  CanonicalWriter writer(&text);
  ReadProfile(input, &writer);
  return text.text();
}

// Canonical text our programs wrote must read back, valid, to the very same bytes.
inline void RequireCanonicalRoundTrip(const std::string& canonical) {
  const Outcome again = OnlyOurErrors([&] {
    Input input = OpenBytes(canonical, "canonical");
    Require(CanonicalText(input) == canonical, "canonical text does not read back to itself");
  });
  Require(!again.failed, "canonical output is refused: " + again.diagnostic.Format());
}

// What prof-validate says of `bytes` (ReadProfile with a handler that records and goes on) must
// be what prof-text --canonical says (ReadProfile stopping at the first violation): both valid,
// or both not. Returns the canonical text when valid.
class CountingHandler : public DiagnosticHandler {
 public:
  void Error(const Diagnostic&) override { ++errors; }
  void Warning(const Diagnostic&) override {}
  size_t errors = 0;
};

// Warnings are part of a normal conversion; the harnesses ignore them.
class NullHandler : public DiagnosticHandler {
 public:
  void Warning(const Diagnostic&) override {}
};

inline bool ValidateAndCanonicalAgree(std::string_view bytes, std::string* canonical) {
  CountingHandler handler;
  const Outcome validate = OnlyOurErrors([&] {
    Input input = OpenBytes(bytes);
    DiscardingSink counts;
    ReadOptions options;
    options.handler = &handler;
    ReadProfile(input, &counts, options);
  });
  const bool valid = !validate.failed && handler.errors == 0;
  const Outcome text = OnlyOurErrors([&] {
    Input input = OpenBytes(bytes);
    *canonical = CanonicalText(input);
  });
  if (valid != !text.failed) {
    Fail(std::string("prof-validate says ") + (valid ? "valid" : "invalid") +
         ", prof-text --canonical " +
         (text.failed ? "refuses it: " + text.diagnostic.Format() : "accepts it"));
  }
  return valid;
}

// Runs a two-pass converter as perf2prof and rprof2prof do (load/two_pass_conversion.h) on
// `bytes`: first pass `scan(stream, name)`, second pass ConvertScanned into canonical text,
// which must read back to itself. The converter's checker must never refuse what the converter
// wrote: its messages carry a format rule, the converters' own input errors Rule::kInput.
// Returns what came out: the canonical text, or the error's message, for harnesses that
// compare two ways of converting.
template <typename Converter, typename Scanned, typename Options, typename Scan>
std::string ConvertTwoPasses(std::string_view bytes, const ReaderSpec& format,
                             const Options& options, Scan scan) {
  std::string canonical;
  const Outcome outcome = OnlyOurErrors([&] {
    Input first = OpenBytes(bytes);
    // As the programs refuse another format before scanning (load/two_pass_conversion.h).
    RequireFormat(first, format, "");
    std::vector<Scanned> inputs{scan(first.stream.get(), first.name)};
    Input second = OpenBytes(bytes);
    NullHandler warnings;
    StringSink text;
    CanonicalWriter writer(&text);
    ConvertScanned<Converter>(inputs, {second.stream.get()}, options, &warnings, &writer);
    canonical = text.text();
  });
  if (outcome.failed) {
    Require(outcome.diagnostic.rule == Rule::kInput,
            "the converter's output breaks a rule: " + outcome.diagnostic.Format());
    return "error: " + outcome.diagnostic.Format();
  }
  if (!canonical.empty()) RequireCanonicalRoundTrip(canonical);
  return canonical;
}

}  // namespace fuzz
}  // namespace proftools

#endif  // PROFTOOLS_TESTS_FUZZ_FUZZ_UTIL_H_
