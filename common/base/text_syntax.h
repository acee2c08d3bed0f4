// The lexical layer of the prof text format (formats/prof-text.md §2): splitting a line into
// tokens, decoding and encoding strings and numbers. It knows bytes and tokens, not records, so
// every layer may use it: it is also how any message shows a byte string (Printable). Labels,
// whose tokens decode into the model's Label, are in common/model/label_syntax.h.
#ifndef PROFTOOLS_COMMON_BASE_TEXT_SYNTAX_H_
#define PROFTOOLS_COMMON_BASE_TEXT_SYNTAX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

// Splits one line (without its LF; a CR before the LF already removed) into raw tokens, which
// are views into `line`. Leading/trailing blanks are skipped and a token that starts with '#'
// ends the line (a comment). Quoted parts are scanned (blanks inside them do not split) and
// validated. Returns false with a message in *error on a syntax error.
bool Tokenize(std::string_view line, std::vector<std::string_view>* tokens, std::string* error);

// Decodes a string field: a bare token or one quoted token. Returns false with *error when the
// token is neither (e.g. text after the closing quote).
bool DecodeString(std::string_view token, std::string* out, std::string* error);

// Scans the quoted part that starts at s[*pos] == '"', appending its decoded value to `out`
// when not null. On success *pos is just past the closing quote; on failure *error says why.
bool ScanQuoted(std::string_view s, size_t* pos, std::string* out, std::string* error);

// True when `value` may be written as a bare token.
bool CanBeBare(std::string_view value);

// Appends `value` as a token: bare when allowed, else quoted with canonical escapes.
void AppendString(std::string* out, std::string_view value);

// Appends `value` quoted with canonical escapes, whether or not it could be bare.
void AppendQuoted(std::string* out, std::string_view value);

// Numbers (§2.4). Each returns false when `text` is not exactly a number of that kind in range.
bool ParseId(std::string_view text, uint64_t* out);   // decimal, 0 accepted (rule id-zero)
bool ParseInt(std::string_view text, int64_t* out);   // decimal int64, no leading zeros
bool ParseHex(std::string_view text, uint64_t* out);  // 0x..., any case, leading zeros allowed
// The same with or without `0x`, at most 16 digits: addresses in perf's and the kernel's text
// (`ffffffff81000000`, a JIT map's `7f16b0006200`).
bool ParseHexDigits(std::string_view text, uint64_t* out);

void AppendUint(std::string* out, uint64_t value);
void AppendInt(std::string* out, int64_t value);
void AppendHex(std::string* out, uint64_t value);  // 0x, lowercase, no leading zeros

// Length of the valid UTF-8 sequence of two or more bytes that starts at s[i], or 0 (ASCII,
// an invalid or truncated sequence, an overlong form, a surrogate, or beyond U+10FFFF).
size_t Utf8SequenceLength(std::string_view s, size_t i);

// How every message quotes text it found in an input or on the command line, one way: in single
// quotes, valid UTF-8 as it is, \\ \' \t \n \r for themselves and \xHH for other control
// and invalid bytes; cut to at most `max` bytes of input with "..." appended.
std::string Printable(std::string_view value, size_t max = 60);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_TEXT_SYNTAX_H_
