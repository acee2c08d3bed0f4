// kFirefoxReader: one source of type "firefox"; the value types of fx_profile.cc.
#include "common/firefox/firefox_codec.h"

#include "common/base/strings.h"
#include "common/firefox/fx_profile.h"
#include "common/firefox/gecko_json.h"
#include "common/firefox/processed_json.h"
#include "common/json/json_document.h"

namespace proftools {
namespace {

constexpr std::string_view kProcessedKey = "\"preprocessedProfileVersion\"";

void ReadFirefoxProfile(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) {
    json.Fail(error, "the profile", "an object");
  }
  FxProfile profile;
  // Only the processed format has this key (Firefox's own profiles never do), anywhere in meta.
  if (Contains(json.text(), kProcessedKey)) {
    ReadProcessedProfile(json, object, &profile);
  } else {
    ReadGeckoProfile(json, object, &profile);
  }
  ConvertFxProfile(json, profile, context, sink);
}

}  // namespace

int SniffFirefoxProfile(std::string_view head, bool text) {
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (!text || first == std::string_view::npos || head[first] != '{') return kNotMine;
  if (Contains(head, "\"traceEvents\"") || Contains(head, "\"$schema\"") ||
      Contains(head, "\"callFrame\"")) {
    return kNotMine;
  }
  if (Contains(head, kProcessedKey)) return kCertain;
  if (Contains(head, "\"meta\"") && Contains(head, "\"version\"") &&
      (Contains(head, "\"threads\"") || Contains(head, "\"stackwalk\""))) {
    return kCertain;
  }
  if (head.compare(first, 9, "{\"libs\":[") == 0 && Contains(head, "\"breakpadId\"") &&
      Contains(head, "\"debugName\"")) {
    return kLikely;
  }
  return kNotMine;
}

const ReaderSpec kFirefoxReader = {
    "firefox",
    "a Firefox Profiler profile (Gecko or processed, JSON)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffFirefoxProfile,
    ReadFirefoxProfile,
};

}  // namespace proftools
