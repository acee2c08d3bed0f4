// JSON string literals for the writers of JSON formats (prof-html's data, and the speedscope,
// Firefox Profiler and Chrome trace writers to come): one escaping rule for all of them.
#ifndef PROFTOOLS_COMMON_BASE_JSON_STRING_H_
#define PROFTOOLS_COMMON_BASE_JSON_STRING_H_

#include <string>
#include <string_view>

namespace proftools {

// Appends `text` as a JSON string literal, quotes included: valid UTF-8 as it is; `"` and `\`
// escaped; control bytes and DEL as \u00XX; a byte that is not part of valid UTF-8 (JSON cannot
// carry it) as the visible text \xHH, as the reports show such bytes. `html_safe` also escapes
// `<`, `>` and `&` as \u00XX, so that the literal can stand inside an HTML <script>.
void AppendJsonString(std::string* out, std::string_view text, bool html_safe = false);

inline std::string JsonString(std::string_view text, bool html_safe = false) {
  std::string out;
  AppendJsonString(&out, text, html_safe);
  return out;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_JSON_STRING_H_
