// The string_view tests every reader's sniffing and parsing asks (C++17 has no starts_with), and
// bytes as lower-case hex (build ids).
#ifndef PROFTOOLS_COMMON_BASE_STRINGS_H_
#define PROFTOOLS_COMMON_BASE_STRINGS_H_

#include <string>
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

// `s` without the spaces, tabs and carriage returns at its ends.
inline std::string_view Trim(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// `bytes` as lower-case hexadecimal, two digits a byte: how build ids are written.
inline std::string LowerHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (char c : bytes) {
    hex += kDigits[static_cast<unsigned char>(c) >> 4];
    hex += kDigits[static_cast<unsigned char>(c) & 15];
  }
  return hex;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_STRINGS_H_
