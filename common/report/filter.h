// Sample filters shared by every report and program: --focus and --ignore.
//
// --focus RE keeps only samples with a frame whose function name matches RE; --ignore RE drops
// samples with such a frame. RE is RE2 syntax, matched anywhere in the name (add ^ and $ to
// anchor). A location without line entries is matched by the name reports give it
// ("[libc.so.6]" or its address).
#ifndef PROFTOOLS_COMMON_REPORT_FILTER_H_
#define PROFTOOLS_COMMON_REPORT_FILTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/definitions.h"

namespace re2 {
class RE2;
}

namespace proftools {

struct FilterOptions {
  std::string focus;   // empty: no focus
  std::string ignore;  // empty: nothing ignored
};

// One expression that matches where any of `patterns` matches, for an option given several
// times: the alternation "(?:A)|(?:B)" (each group keeps its own flags such as (?i)); a single
// pattern as it is; "" for none. Empty patterns are left out, as an empty --focus or --ignore
// filters nothing. Each pattern is compiled alone first, so that a bad one is named as the user
// wrote it (UsageError "--OPTION: bad regular expression ...").
std::string AnyOfPatterns(const std::vector<std::string>& patterns, const char* option);

class SampleFilter {
 public:
  // Throws UsageError when a regular expression does not compile.
  explicit SampleFilter(const FilterOptions& options);
  ~SampleFilter();
  SampleFilter(const SampleFilter&) = delete;
  SampleFilter& operator=(const SampleFilter&) = delete;

  bool active() const { return focus_ != nullptr || ignore_ != nullptr; }

  // Whether samples whose stack is `stack_id` pass. Decided once per stack and remembered.
  bool Keep(const Definitions& defs, uint64_t stack_id);

 private:
  struct Verdict {
    bool focus;   // matches the focus expression
    bool ignore;  // matches the ignore expression
  };
  Verdict MatchLocation(const Definitions& defs, uint64_t location_id);
  Verdict MatchName(const std::string& name) const;

  std::unique_ptr<re2::RE2> focus_;
  std::unique_ptr<re2::RE2> ignore_;
  std::unordered_map<uint64_t, bool> by_stack_;
  std::unordered_map<uint64_t, Verdict> by_location_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_FILTER_H_
