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

// A number of bytes with an optional unit, as GNU coreutils reads sizes (sort -S, head -c): a
// bare letter k/K, M, G or T and the IEC forms KiB, MiB, GiB, TiB are powers of 1024 (1G is
// 2^30 bytes); kB, MB, GB, TB are powers of 1000 (1GB is 10^9); B is bytes. Letters in any
// case. "1073741824", "512MiB", "1G", "100M", "2GB".
uint64_t ParseByteSizeOption(const std::string& option, const std::string& text);

// The form ParseByteSizeOption reads, for help texts and messages.
inline constexpr const char* kByteSizeForm =
    "a size in bytes such as 1073741824, 512MiB or 1G (k, M, G, T and KiB, MiB, GiB, TiB: "
    "powers of 1024; kB, MB, GB, TB: powers of 1000)";

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_OPTION_VALUES_H_
