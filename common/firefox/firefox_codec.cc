// kFirefoxReader: one source of type "firefox"; the value types of fx_profile.cc.
#include "common/firefox/firefox_codec.h"

#include <utility>

#include "common/base/strings.h"
#include "common/firefox/fx_profile.h"
#include "common/firefox/gecko_json.h"
#include "common/firefox/processed_json.h"
#include "common/json/json_document.h"

namespace proftools {
namespace {

constexpr std::string_view kProcessedKey = "\"preprocessedProfileVersion\"";

// The first key of the object at `first` and the first character of its value, whitespace
// between the tokens allowed (a profile pretty-printed by jq or json.tool); false when `head`
// does not start so.
bool FirstKey(std::string_view head, size_t first, std::string_view* key, char* value_start) {
  const auto skip = [&](size_t at) {
    const size_t next = head.find_first_not_of(" \t\r\n", at);
    return next == std::string_view::npos ? head.size() : next;
  };
  size_t at = skip(first + 1);
  if (at >= head.size() || head[at] != '"') return false;
  const size_t close = head.find('"', at + 1);
  if (close == std::string_view::npos) return false;
  *key = head.substr(at + 1, close - at - 1);
  at = skip(close + 1);
  if (at >= head.size() || head[at] != ':') return false;
  at = skip(at + 1);
  if (at >= head.size()) return false;
  *value_start = head[at];
  return true;
}

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
    ConvertFxProfile(json, profile, context, sink);
    return;
  }
  // The old Firefox DevTools performance panel (before the Firefox Profiler's) saved its
  // recordings ("Recorded Performance Data") as an object whose `profile` is a Gecko profile;
  // its markers, ticks and memory are not samples. A Gecko profile has no `profile` key: unless
  // the object starts as Firefox starts one, looking for it skims the top level once (2% of a
  // 5 MB profile's time), and the document is read again from its start.
  const std::string_view text = json.text();
  std::string_view key;
  char value = 0;
  const bool gecko = FirstKey(text, text.find_first_not_of(" \t\r\n"), &key, &value) &&
                     (key == "meta" || key == "libs" || key == "threads");
  if (!gecko) {
    JsonValue wrapped = object.find_field_unordered("profile");
    // A broken document is said so here: after a parse error simdjson cannot rewind.
    if (const auto error = wrapped.error(); error && error != simdjson::NO_SUCH_FIELD) {
      json.Fail(error, "the profile", "an object");
    }
    ondemand::json_type type;
    if (wrapped.type().get(type) == simdjson::SUCCESS && type == ondemand::json_type::object) {
      ReadGeckoProfile(json, json.Object(std::move(wrapped), "profile"), &profile);
      profile.format = "Firefox DevTools recording of a Gecko profile";
      ConvertFxProfile(json, profile, context, sink);
      return;
    }
    json.doc().rewind();
    if (const auto error = json.doc().get_object().get(object)) {
      json.Fail(error, "the profile", "an object");
    }
  }
  ReadGeckoProfile(json, object, &profile);
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
  std::string_view key;
  char value = 0;
  if (!FirstKey(head, first, &key, &value)) return kNotMine;
  // Firefox writes the libs first (before version 4 as JSON text).
  if (key == "libs" && value == '[' && Contains(head, "\"breakpadId\"") &&
      Contains(head, "\"debugName\"")) {
    return kLikely;
  }
  if (key == "libs" && value == '"' && Contains(head, "breakpadId")) return kLikely;
  // A Firefox DevTools recording: JSON.stringify of {label, duration, markers, ...}, the profile
  // after the markers, its fileType at the end.
  if (key == "label" && Contains(head, "\"duration\"") && Contains(head, "\"markers\"")) {
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
