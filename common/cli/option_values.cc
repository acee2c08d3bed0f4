#include "common/cli/option_values.h"

#include <cctype>
#include <limits>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/base/quantity.h"
#include "common/base/text_syntax.h"

namespace proftools {
namespace {

[[noreturn]] void Refuse(const std::string& option, const std::string& form,
                         const std::string& text) {
  throw UsageError(option + " expects " + form + ", not " + Printable(text));
}

// The decimal digits at the start of `text` as a number; false when there are none or the
// number does not fit 64 bits.
bool LeadingDigits(std::string_view text, uint64_t* value, size_t* length) {
  *value = 0;
  *length = 0;
  while (*length < text.size() && std::isdigit(static_cast<unsigned char>(text[*length]))) {
    const uint64_t digit = static_cast<uint64_t>(text[*length] - '0');
    if (*value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    *value = *value * 10 + digit;
    ++*length;
  }
  return *length > 0;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The multiplier a size unit stands for; 0 for no unit we know.
uint64_t UnitMultiplier(std::string_view unit) {
  if (unit.empty() || EqualsIgnoringCase(unit, "B")) return 1;
  const std::string_view prefixes = "kmgt";
  const size_t power =
      prefixes.find(static_cast<char>(std::tolower(static_cast<unsigned char>(unit[0])))) + 1;
  if (power == 0) return 0;
  const std::string_view rest = unit.substr(1);
  // Powers of 1024 whatever the spelling, as pprof counts sizes and as prof-merge and
  // prof-filter read units (common/base/units.h): one rule across the programs.
  if (!rest.empty() && !EqualsIgnoringCase(rest, "iB") && !EqualsIgnoringCase(rest, "B")) return 0;
  const uint64_t base = 1024;
  uint64_t multiplier = 1;
  for (size_t i = 0; i < power; ++i) multiplier *= base;
  return multiplier;
}

}  // namespace

uint64_t ParseUnsignedOption(const std::string& option, const std::string& text, uint64_t max) {
  const std::string form = "a non-negative integer" + (max == std::numeric_limits<uint64_t>::max()
                                                           ? std::string()
                                                           : " up to " + std::to_string(max));
  uint64_t value;
  size_t length;
  if (!LeadingDigits(text, &value, &length) || length != text.size() || value > max) {
    Refuse(option, form, text);
  }
  return value;
}

int64_t ParseSignedOption(const std::string& option, const std::string& text, int64_t min,
                          int64_t max) {
  const std::string form = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = std::string_view(text).substr(negative ? 1 : 0);
  uint64_t magnitude;
  size_t length;
  if (!LeadingDigits(digits, &magnitude, &length) || length != digits.size()) {
    Refuse(option, form, text);
  }
  constexpr uint64_t kLeastMagnitude = uint64_t{1} << 63;  // of the least int64_t
  if (magnitude > (negative ? kLeastMagnitude : kLeastMagnitude - 1)) Refuse(option, form, text);
  // -(magnitude - 1) - 1, not -magnitude: 2^63 does not fit int64_t, its negation does.
  const int64_t value = negative && magnitude > 0 ? -static_cast<int64_t>(magnitude - 1) - 1
                                                  : static_cast<int64_t>(magnitude);
  if (value < min || value > max) Refuse(option, form, text);
  return value;
}

double ParseDecimalOption(const std::string& option, const std::string& text) {
  Decimal decimal;
  if (!ParseDecimal(text, &decimal) || decimal.negative || text[0] == '+') {
    Refuse(option, "a non-negative number such as 5 or 0.5", text);
  }
  double value = static_cast<double>(decimal.digits);
  for (int k = 0; k < decimal.scale; ++k) value /= 10;
  return value;
}

uint64_t ParseByteSizeOption(const std::string& option, const std::string& text) {
  uint64_t number;
  size_t length;
  if (!LeadingDigits(text, &number, &length)) Refuse(option, kByteSizeForm, text);
  const uint64_t multiplier = UnitMultiplier(std::string_view(text).substr(length));
  if (multiplier == 0) Refuse(option, kByteSizeForm, text);
  if (number > std::numeric_limits<uint64_t>::max() / multiplier) {
    Refuse(option, "a size below 16 EiB", text);
  }
  return number * multiplier;
}

}  // namespace proftools
