#include "common/perf/data/perf_tracepoint_format.h"

#include <algorithm>
#include <cstring>

#include "common/base/strings.h"

namespace proftools {
namespace {

bool ParseNumber(std::string_view text, uint64_t* value) {
  text = Trim(text);
  int base = 10;
  if (text.substr(0, 2) == "0x") {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty() || text.size() > 16) return false;
  *value = 0;
  for (char c : text) {
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0 || digit >= base) return false;
    *value = *value * static_cast<uint64_t>(base) + static_cast<uint64_t>(digit);
  }
  return true;
}

// `field:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;`
bool ParseField(std::string_view line, TracepointField* field) {
  auto part = [&](std::string_view key) -> std::string_view {
    const size_t at = line.find(key);
    if (at == std::string_view::npos) return {};
    const size_t end = line.find(';', at);
    return end == std::string_view::npos ? std::string_view()
                                         : line.substr(at + key.size(), end - at - key.size());
  };
  std::string_view declaration = Trim(part("field:"));
  uint64_t offset = 0, size = 0, is_signed = 0;
  if (declaration.empty() || !ParseNumber(part("offset:"), &offset) ||
      !ParseNumber(part("size:"), &size) || offset > UINT32_MAX || size > UINT32_MAX) {
    return false;
  }
  ParseNumber(part("signed:"), &is_signed);
  field->is_data_loc = declaration.substr(0, 10) == "__data_loc";
  size_t bracket = declaration.rfind('[');
  const bool array = bracket != std::string_view::npos && declaration.back() == ']';
  std::string_view name = array ? declaration.substr(0, bracket) : declaration;
  name = Trim(name);
  const size_t space = name.find_last_of(" *");
  if (space != std::string_view::npos) name = name.substr(space + 1);
  if (name.empty()) return false;
  field->name = std::string(name);
  field->offset = static_cast<uint32_t>(offset);
  field->size = static_cast<uint32_t>(size);
  field->is_signed = is_signed != 0;
  field->is_string = array && declaration.find("char") != std::string_view::npos;
  return true;
}

// `{ 0x00000001, "S" }` pairs of a print fmt, and the preempted bit after the highest.
void ParseStateFlags(std::string_view fmt, TracepointFormat* format) {
  for (size_t at = fmt.find("{ 0x"); at != std::string_view::npos; at = fmt.find("{ 0x", at + 1)) {
    const size_t comma = fmt.find(',', at);
    const size_t open = fmt.find('"', at);
    if (comma == std::string_view::npos || open == std::string_view::npos) break;
    const size_t close = fmt.find('"', open + 1);
    if (close == std::string_view::npos) break;
    uint64_t bit = 0;
    if (!ParseNumber(fmt.substr(at + 2, comma - at - 2), &bit) || bit == 0) continue;
    format->state_flags.emplace_back(bit, std::string(fmt.substr(open + 1, close - open - 1)));
  }
  uint64_t highest = 0;
  for (const auto& flag : format->state_flags) highest = std::max(highest, flag.first);
  if (highest != 0 && highest < (uint64_t{1} << 62) &&
      fmt.find("? \"+\"") != std::string_view::npos) {
    format->preempted = highest << 1;
  }
}

uint64_t Unsigned(std::string_view raw, uint32_t offset, uint32_t size) {
  uint64_t value = 0;
  std::memcpy(&value, raw.data() + offset, size);  // little-endian, as the recording's machine
  return value;
}

}  // namespace

std::vector<TracepointFormat> ParseTracepointFormats(std::string_view data) {
  std::vector<TracepointFormat> formats;
  constexpr std::string_view kName = "name: ";
  for (size_t at = data.find(kName); at != std::string_view::npos; at = data.find(kName, at + 1)) {
    if (at > 0 && data[at - 1] != '\n' && data[at - 1] != '\0') continue;
    TracepointFormat format;
    size_t line_end = data.find('\n', at);
    if (line_end == std::string_view::npos) break;
    format.name = std::string(Trim(data.substr(at + kName.size(), line_end - at - kName.size())));
    size_t next = line_end + 1;
    bool has_id = false;
    // The block's lines, up to its print fmt.
    while (next < data.size()) {
      line_end = data.find('\n', next);
      if (line_end == std::string_view::npos) line_end = data.size();
      const std::string_view line = data.substr(next, line_end - next);
      next = line_end + 1;
      if (line.substr(0, 4) == "ID: ") {
        has_id = ParseNumber(line.substr(4), &format.id);
      } else if (Trim(line).substr(0, 6) == "field:") {
        TracepointField field;
        if (ParseField(line, &field) && field.name.substr(0, 7) != "common_") {
          format.fields.push_back(std::move(field));
        }
      } else if (line.substr(0, 10) == "print fmt:") {
        ParseStateFlags(line, &format);
        break;
      } else if (line.substr(0, kName.size()) == kName) {
        break;
      }
    }
    if (has_id) formats.push_back(std::move(format));
  }
  return formats;
}

std::string TracepointArguments(const TracepointFormat& format, std::string_view raw) {
  std::string args;
  for (const TracepointField& field : format.fields) {
    if (field.offset > raw.size() || field.size > raw.size() - field.offset) continue;
    std::string value;
    if (field.is_data_loc && field.size == 4) {
      const uint64_t loc = Unsigned(raw, field.offset, 4);
      const uint64_t at = loc & 0xffff, length = loc >> 16;
      if (at > raw.size() || length > raw.size() - at) continue;
      value = std::string(raw.substr(at, length));
      value.resize(std::strlen(value.c_str()));
    } else if (field.is_string) {
      value = std::string(raw.substr(field.offset, field.size));
      value.resize(std::strlen(value.c_str()));
    } else if (field.size == 1 || field.size == 2 || field.size == 4 || field.size == 8) {
      uint64_t bits = Unsigned(raw, field.offset, field.size);
      if (field.name == "prev_state" && !format.state_flags.empty()) {
        const uint64_t mask = format.preempted != 0 ? format.preempted - 1 : ~uint64_t{0};
        for (const auto& [bit, letter] : format.state_flags) {
          if ((bits & mask & bit) != 0) value += (value.empty() ? "" : "|") + letter;
        }
        if (value.empty()) value = "R";
        if (format.preempted != 0 && (bits & format.preempted) != 0) value += "+";
      } else if (field.is_signed) {
        const int shift = 64 - 8 * static_cast<int>(field.size);
        value = std::to_string(static_cast<int64_t>(bits << shift) >> shift);
      } else {
        value = std::to_string(bits);
      }
    } else {
      continue;
    }
    if (!args.empty()) args += field.name == "next_comm" ? " ==> " : " ";
    args += field.name + "=" + value;
  }
  return args;
}

}  // namespace proftools
