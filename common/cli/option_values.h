// Option values as users type them: integers and byte sizes, parsed with messages that name the
// option and the form it expects (cxxopts' own says only "Argument 'x' failed to parse").
#ifndef PROFTOOLS_COMMON_CLI_OPTION_VALUES_H_
#define PROFTOOLS_COMMON_CLI_OPTION_VALUES_H_

#include <cstdint>
#include <string>

namespace proftools {

// Each throws UsageError "OPTION expects FORM, not 'TEXT'"; `option` is the name to show
// ("--nodecount").

// A non-negative decimal integer no larger than `max`.
uint64_t ParseUnsignedOption(const std::string& option, const std::string& text, uint64_t max);

// A decimal integer, optionally negative, within [min, max].
int64_t ParseSignedOption(const std::string& option, const std::string& text, int64_t min,
                          int64_t max);

// A non-negative decimal number ("5", "0.5", "12.25"), without exponent.
double ParseDecimalOption(const std::string& option, const std::string& text);

// A number of bytes with an optional unit: k, M, G, T, with or without B or iB (KB, KiB, ...),
// letters in any case, are powers of 1024 whatever the spelling (1G = 1GB = 1GiB = 2^30
// bytes), as pprof counts sizes and as every proftools program reads units
// (common/base/units.h); B is bytes. "1073741824", "512MiB", "1G", "100M", "2GB".
uint64_t ParseByteSizeOption(const std::string& option, const std::string& text);

// The form ParseByteSizeOption reads, for help texts and messages.
inline constexpr const char* kByteSizeForm =
    "a size in bytes such as 1073741824, 512MiB or 1G (k, M, G, T, with B or iB or neither: "
    "powers of 1024)";

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_OPTION_VALUES_H_
