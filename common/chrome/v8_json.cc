#include "common/chrome/v8_json.h"

#include <string>
#include <utility>

namespace proftools {
void ReadV8CallFrame(JsonDocument& json, JsonValue value, V8CallFrame* frame) {
  ForEachField(json, json.Object(value, "a node's callFrame"), "a node's callFrame",
               [&](std::string_view key, JsonValue v) {
                 if (key == "functionName") {
                   frame->function_name = std::string(json.String(v, "callFrame.functionName"));
                 } else if (key == "url") {
                   frame->url = std::string(json.String(v, "callFrame.url"));
                 } else if (key == "lineNumber") {
                   frame->line = json.Signed(v, "callFrame.lineNumber");
                 } else if (key == "columnNumber") {
                   frame->column = json.Signed(v, "callFrame.columnNumber");
                 }
               });
}

namespace {

V8Node ReadNode(JsonDocument& json, JsonValue value) {
  V8Node node;
  node.byte = json.Byte();
  bool has_id = false;
  ForEachField(json, json.Object(value, "nodes[]"), "a node",
               [&](std::string_view key, JsonValue v) {
                 if (key == "id") {
                   node.id = json.Unsigned(v, "a node's id");
                   has_id = true;
                 } else if (key == "parent") {
                   node.parent = json.Unsigned(v, "a node's parent");
                 } else if (key == "callFrame") {
                   ReadV8CallFrame(json, v, &node.frame);
                 } else if (key == "children") {
                   node.children = ReadNodeIds(json, v, "a node's children");
                 } else if (key == "positionTicks") {
                   for (auto element : json.Array(v, "a node's positionTicks")) {
                     V8PositionTicks at;
                     ForEachField(json, json.Object(element, "positionTicks[]"),
                                  "a positionTicks entry", [&](std::string_view k, JsonValue t) {
                                    if (k == "line") at.line = json.Signed(t, "positionTicks.line");
                                    if (k == "ticks") {
                                      at.ticks = json.Unsigned(t, "positionTicks.ticks");
                                    }
                                  });
                     node.position_ticks.push_back(at);
                   }
                 }
               });
  if (!has_id) json.Fail("a node without an id", node.byte);
  return node;
}

}  // namespace

std::vector<uint64_t> ReadNodeIds(JsonDocument& json, JsonValue value, std::string_view what) {
  std::vector<uint64_t> ids;
  // Not reserved from count_elements: that is a second walk over the array's structure, dearer
  // than the vector's doublings (a tenth of a .cpuprofile's conversion).
  for (auto element : json.Array(value, what)) ids.push_back(json.Unsigned(element, what));
  return ids;
}

std::vector<int64_t> ReadDeltas(JsonDocument& json, JsonValue value, std::string_view what,
                                size_t expected) {
  std::vector<int64_t> deltas;
  deltas.reserve(expected);
  for (auto element : json.Array(value, what)) {
    deltas.push_back(json.Microseconds(element, what));
  }
  return deltas;
}

void ReadV8ProfileObject(JsonDocument& json, ondemand::object object, V8Profile* profile,
                         V8ProfileFields* fields) {
  ForEachField(json, object, "a profile", [&](std::string_view key, JsonValue v) {
    if (key == "nodes") {
      for (auto element : json.Array(v, "nodes")) profile->AddNode(ReadNode(json, element));
    } else if (key == "samples") {
      fields->samples_byte = json.Byte();
      fields->samples = ReadNodeIds(json, v, "samples");
    } else if (key == "timeDeltas") {
      fields->deltas_ns =
          ReadDeltas(json, v, "timeDeltas", fields->samples ? fields->samples->size() : 0);
    } else if (key == "startTime") {
      fields->start_ns = json.Microseconds(v, "startTime");
    } else if (key == "endTime") {
      fields->end_ns = json.Microseconds(v, "endTime");
    }
  });
}

void ReadV8EventData(JsonDocument& json, ondemand::object data, V8Profile* profile,
                     V8ProfileFields* fields) {
  ForEachField(json, data, "args.data", [&](std::string_view key, JsonValue value) {
    if (key == "cpuProfile") {
      ReadV8ProfileObject(json, json.Object(value, "args.data.cpuProfile"), profile, fields);
    } else if (key == "timeDeltas") {
      fields->deltas_ns = ReadDeltas(json, value, "args.data.timeDeltas",
                                     fields->samples ? fields->samples->size() : 0);
    } else if (key == "startTime") {
      fields->start_ns = json.Microseconds(value, "args.data.startTime");
    } else if (key == "endTime") {
      fields->end_ns = json.Microseconds(value, "args.data.endTime");
    }
  });
}

}  // namespace proftools
