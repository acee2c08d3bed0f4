// SHA-256 (FIPS 180-4), for the hashes of a page's own scripts in its Content-Security-Policy:
// a script whose hash the policy does not list does not run, whatever a profile slipped into
// the page.
#ifndef PROFTOOLS_COMMON_BASE_SHA256_H_
#define PROFTOOLS_COMMON_BASE_SHA256_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace proftools {

// The 32-byte digest of `data`.
std::array<uint8_t, 32> Sha256(std::string_view data);

// `bytes` in base64 (RFC 4648, with padding), as CSP's 'sha256-...' sources write digests.
std::string Base64(const uint8_t* bytes, size_t size);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_SHA256_H_
