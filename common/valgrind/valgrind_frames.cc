#include "common/valgrind/valgrind_frames.h"

#include <charconv>
#include <string>

#include "common/base/strings.h"
#include "common/model/model.h"

namespace proftools {

uint64_t ValgrindFrames::LocationOf(std::string_view frame) {
  const auto known = locations_.find(frame);
  if (known != locations_.end()) return known->second;
  Location location;
  std::string_view rest = frame;
  if (StartsWith(rest, "0x")) {
    const size_t colon = rest.find(": ");
    uint64_t address = 0;
    const char* first = rest.data() + 2;
    const char* last = rest.data() + (colon == std::string_view::npos ? rest.size() : colon);
    const auto [end, error] = std::from_chars(first, last, address, 16);
    if (error == std::errc() && end == last && colon != std::string_view::npos) {
      location.address = address;
      rest = rest.substr(colon + 2);
    }
  }
  Function function;
  std::string_view name = rest;
  int64_t line = 0;
  if (EndsWith(rest, ")")) {
    const size_t open = rest.rfind(" (");
    if (open != std::string_view::npos) {
      const std::string_view inside = rest.substr(open + 2, rest.size() - open - 3);
      if (StartsWith(inside, "in ")) {
        Mapping mapping;
        mapping.file = std::string(inside.substr(3));
        mapping.has_functions = true;
        location.mapping_id = interner_->Mapping(mapping);
        name = rest.substr(0, open);
      } else if (const size_t at = inside.rfind(':'); at != std::string_view::npos) {
        int64_t number = 0;
        const std::string_view digits = inside.substr(at + 1);
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (error == std::errc() && end == digits.data() + digits.size() && number > 0) {
          function.file = std::string(inside.substr(0, at));
          line = number;
          name = rest.substr(0, open);
        }
      }
    }
  }
  if (StartsWith(frame, "in ")) {
    function.name = "[" + std::string(frame) + "]";  // below massif's threshold
  } else if (name != "???" && !name.empty()) {
    function.name = std::string(name);
  }
  if (!function.name.empty()) {
    function.system_name = function.name;
    location.lines.push_back(Line{interner_->Function(function), line, 0});
  } else if (location.address == 0) {
    function.name = function.system_name = "???";
    location.lines.push_back(Line{interner_->Function(function), 0, 0});
  }
  const uint64_t id = interner_->Location(location);
  locations_.emplace(frame, id);
  return id;
}

}  // namespace proftools
