#include "common/jfr/jfr_hidden_classes.h"

#include <cctype>
#include <string_view>

namespace proftools {
namespace {

bool AllOf(std::string_view text, int (*is)(int)) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!is(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Decimal digits, or 0x and hex digits.
bool IsNumber(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    return AllOf(text.substr(2), isxdigit);
  }
  return AllOf(text, isdigit);
}

}  // namespace

std::string WithoutHiddenClassIds(std::string jvm_name) {
  // The hidden class's suffix: a Java identifier never starts with a digit, so a last path
  // component that is a number is no package's or class's name.
  const size_t slash = jvm_name.rfind('/');
  if (slash != std::string::npos && IsNumber(std::string_view(jvm_name).substr(slash + 1))) {
    jvm_name.erase(slash);
  }
  // The lambda's counter and address: $$Lambda$94+0x00007f602c007c28 (to the end).
  static constexpr std::string_view kLambda = "$$Lambda$";
  const size_t lambda = jvm_name.rfind(kLambda);
  if (lambda != std::string::npos) {
    const std::string_view rest = std::string_view(jvm_name).substr(lambda + kLambda.size());
    const size_t plus = rest.find('+');
    const std::string_view counter = rest.substr(0, plus);
    const bool address = plus == std::string_view::npos || IsNumber(rest.substr(plus + 1));
    if (AllOf(counter, isdigit) && address) jvm_name.erase(lambda + kLambda.size() - 1);
  }
  return jvm_name;
}

}  // namespace proftools
