// The string_view tests every reader's sniffing and parsing asks (C++17 has no starts_with).
#ifndef PROFTOOLS_COMMON_BASE_STRINGS_H_
#define PROFTOOLS_COMMON_BASE_STRINGS_H_

#include <string_view>

namespace proftools {

inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

inline bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_STRINGS_H_
