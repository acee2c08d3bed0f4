#include "common/speedscope/speedscope_file.h"

#include <utility>

namespace proftools {
namespace {

// A line or column: an integer from 0 (speedscope counts lines from 1, columns as its importers
// give them).
int64_t Position(JsonDocument& json, JsonValue value, std::string_view what) {
  const JsonNumber number = ReadJsonNumber(json, std::move(value), what);
  if (!number.is_integer || number.integer < 0) {
    json.Fail(std::string(what) + ": an integer from 0 belongs here");
  }
  return number.integer;
}

SpeedscopeFrame ReadFrame(JsonDocument& json, JsonValue value) {
  SpeedscopeFrame frame;
  frame.byte = json.Byte();
  bool has_name = false;
  ForEachField(json, json.Object(std::move(value), "a frame"), "a frame",
               [&](std::string_view key, JsonValue v) {
                 if (key == "name") {
                   frame.name = std::string(json.String(std::move(v), "a frame's name"));
                   has_name = true;
                 } else if (key == "file") {
                   frame.file = std::string(json.String(std::move(v), "a frame's file"));
                 } else if (key == "line") {
                   frame.line = Position(json, std::move(v), "a frame's line");
                 } else if (key == "col") {
                   frame.col = Position(json, std::move(v), "a frame's col");
                 }
               });
  if (!has_name) json.Fail("a frame without a name (the schema requires one)", frame.byte);
  return frame;
}

void ReadShared(JsonDocument& json, JsonValue value, SpeedscopeFile* file) {
  file->has_shared = true;
  ForEachField(json, json.Object(std::move(value), "shared"), "shared",
               [&](std::string_view key, JsonValue v) {
                 if (key != "frames") return;
                 file->has_frames = true;
                 for (JsonValue frame : json.Array(std::move(v), "shared.frames")) {
                   file->frames.push_back(ReadFrame(json, std::move(frame)));
                 }
               });
}

// A frame index: an integer from 0 (its range is checked once the frames are known).
uint64_t FrameIndex(JsonDocument& json, JsonValue value, std::string_view what) {
  return json.Unsigned(std::move(value), what);
}

void ReadSamples(JsonDocument& json, JsonValue value, SpeedscopeProfile* profile) {
  profile->has_samples = true;
  for (JsonValue stack : json.Array(std::move(value), "a profile's samples")) {
    profile->sample_bytes.push_back(json.Byte());
    for (JsonValue frame : json.Array(std::move(stack), "a sample (frame indexes)")) {
      profile->stack_frames.push_back(FrameIndex(json, std::move(frame), "a sample's frame"));
    }
    profile->stack_ends.push_back(profile->stack_frames.size());
  }
}

void ReadEvents(JsonDocument& json, JsonValue value, SpeedscopeProfile* profile) {
  profile->has_events = true;
  for (JsonValue element : json.Array(std::move(value), "a profile's events")) {
    SpeedscopeEvent event;
    event.byte = json.Byte();
    bool has_type = false, has_frame = false, has_at = false;
    ForEachField(json, json.Object(std::move(element), "an event"), "an event",
                 [&](std::string_view key, JsonValue v) {
                   if (key == "type") {
                     const std::string_view type = json.String(std::move(v), "an event's type");
                     if (type != "O" && type != "C") {
                       json.Fail("an event's type \"" + std::string(type) +
                                     "\": \"O\" (open a frame) or \"C\" (close it) belongs here",
                                 event.byte);
                     }
                     event.open = type == "O";
                     has_type = true;
                   } else if (key == "frame") {
                     event.frame = FrameIndex(json, std::move(v), "an event's frame");
                     has_frame = true;
                   } else if (key == "at") {
                     event.at = ReadJsonNumber(json, std::move(v), "an event's at");
                     has_at = true;
                   }
                 });
    const std::string at = "events[" + std::to_string(profile->events.size()) + "]";
    if (!has_type) json.Fail(at + ": no type", event.byte);
    if (!has_frame) json.Fail(at + ": no frame", event.byte);
    if (!has_at) json.Fail(at + ": no at", event.byte);
    profile->events.push_back(event);
  }
}

SpeedscopeProfile ReadProfile(JsonDocument& json, JsonValue value) {
  SpeedscopeProfile profile;
  profile.byte = json.Byte();
  ForEachField(json, json.Object(std::move(value), "a profile"), "a profile",
               [&](std::string_view key, JsonValue v) {
                 if (key == "type") {
                   profile.type = std::string(json.String(std::move(v), "a profile's type"));
                 } else if (key == "name") {
                   profile.name = std::string(json.String(std::move(v), "a profile's name"));
                 } else if (key == "unit") {
                   profile.unit = std::string(json.String(std::move(v), "a profile's unit"));
                 } else if (key == "startValue") {
                   profile.start = ReadJsonNumber(json, std::move(v), "a profile's startValue");
                 } else if (key == "endValue") {
                   profile.end = ReadJsonNumber(json, std::move(v), "a profile's endValue");
                 } else if (key == "samples") {
                   ReadSamples(json, std::move(v), &profile);
                 } else if (key == "weights") {
                   profile.has_weights = true;
                   profile.weights_byte = json.Byte();
                   for (JsonValue weight : json.Array(std::move(v), "a profile's weights")) {
                     profile.weights.push_back(ReadJsonNumber(json, std::move(weight), "a weight"));
                   }
                 } else if (key == "events") {
                   ReadEvents(json, std::move(v), &profile);
                 }
               });
  return profile;
}

}  // namespace

JsonNumber ReadJsonNumber(JsonDocument& json, JsonValue value, std::string_view what) {
  JsonNumber number;
  if (value.get_int64().get(number.integer) == simdjson::SUCCESS) return number;
  ondemand::json_type type;
  if (value.type().get(type) == simdjson::SUCCESS && type != ondemand::json_type::number) {
    json.Fail(std::string(what) + ": a number belongs here");
  }
  number.is_integer = false;
  if (const auto error = value.get_double().get(number.real)) json.Fail(error, what, "a number");
  return number;
}

SpeedscopeFile ReadSpeedscopeFile(JsonDocument& json) {
  SpeedscopeFile file;
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) {
    json.Fail(error, "the file", "an object");
  }
  ForEachField(json, object, "the file", [&](std::string_view key, JsonValue v) {
    if (key == "$schema") {
      file.schema = std::string(json.String(std::move(v), "$schema"));
    } else if (key == "name") {
      file.name = std::string(json.String(std::move(v), "name"));
    } else if (key == "exporter") {
      file.exporter = std::string(json.String(std::move(v), "exporter"));
    } else if (key == "activeProfileIndex") {
      const JsonNumber index = ReadJsonNumber(json, std::move(v), "activeProfileIndex");
      if (index.is_integer) file.active_profile_index = index.integer;
    } else if (key == "shared") {
      ReadShared(json, std::move(v), &file);
    } else if (key == "profiles") {
      file.has_profiles = true;
      for (JsonValue profile : json.Array(std::move(v), "profiles")) {
        file.profiles.push_back(ReadProfile(json, std::move(profile)));
      }
    }
  });
  return file;
}

}  // namespace proftools
