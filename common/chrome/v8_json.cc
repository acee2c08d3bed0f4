#include "common/chrome/v8_json.h"

#include <cstdint>
#include <string>
#include <utility>

namespace proftools {
namespace {

// A line or column as V8 writes them: a 32-bit int, -1 when unknown. Anything else is no place
// in a script (and 1-based, it would not fit in 64 bits once made so).
int64_t Position(JsonDocument& json, JsonValue value, std::string_view what) {
  const int64_t position = json.Signed(value, what);
  if (position < -1 || position > INT32_MAX) {
    json.Fail(std::string(what) + " " + std::to_string(position) +
              " is no line or column: V8 writes them as 32-bit numbers");
  }
  return position;
}

}  // namespace

void ReadV8CallFrame(JsonDocument& json, JsonValue value, V8CallFrame* frame) {
  ForEachField(json, json.Object(value, "a node's callFrame"), "a node's callFrame",
               [&](std::string_view key, JsonValue v) {
                 if (key == "functionName") {
                   frame->function_name = std::string(json.String(v, "callFrame.functionName"));
                 } else if (key == "url") {
                   frame->url = std::string(json.String(v, "callFrame.url"));
                 } else if (key == "lineNumber") {
                   frame->line = Position(json, v, "callFrame.lineNumber");
                 } else if (key == "columnNumber") {
                   frame->column = Position(json, v, "callFrame.columnNumber");
                 }
               });
}

namespace {

std::vector<V8PositionTicks> ReadPositionTicks(JsonDocument& json, JsonValue value) {
  std::vector<V8PositionTicks> ticks;
  for (auto element : json.Array(value, "a node's positionTicks")) {
    V8PositionTicks at;
    ForEachField(json, json.Object(element, "positionTicks[]"), "a positionTicks entry",
                 [&](std::string_view k, JsonValue t) {
                   if (k == "line") at.line = json.Signed(t, "positionTicks.line");
                   if (k == "ticks") at.ticks = json.Unsigned(t, "positionTicks.ticks");
                 });
    ticks.push_back(at);
  }
  return ticks;
}

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
                   node.position_ticks = ReadPositionTicks(json, v);
                 }
               });
  if (!has_id) json.Fail("a node without an id", node.byte);
  return node;
}

// A 1-based line or column of the legacy form as the protocol's 0-based one (-1: unknown).
int64_t ZeroBased(int64_t one_based) {
  return one_based > 0 ? one_based - 1 : -1;
}

// The legacy form's tree: each node's call frame in its own fields (lines and columns 1-based)
// or in a callFrame, its children nested in it; ids may follow the children, so parents are
// linked by place and given their ids at the end.
void ReadLegacyTree(JsonDocument& json, JsonValue head, V8Profile* profile) {
  struct Legacy {
    V8Node node;
    size_t parent = kNoV8Parent;
    bool has_id = false;
  };
  std::vector<Legacy> nodes;
  ReadNestedV8Tree(
      json, head,
      [&](size_t parent) {
        nodes.push_back(Legacy{});
        nodes.back().node.byte = json.Byte();
        nodes.back().parent = parent;
        return nodes.size() - 1;
      },
      [&](size_t i, std::string_view key, JsonValue v) {
        V8Node& node = nodes[i].node;
        if (key == "id") {
          node.id = json.Unsigned(v, "a node's id");
          nodes[i].has_id = true;
        } else if (key == "functionName") {
          node.frame.function_name = std::string(json.String(v, "a node's functionName"));
        } else if (key == "url") {
          node.frame.url = std::string(json.String(v, "a node's url"));
        } else if (key == "lineNumber") {
          node.frame.line = ZeroBased(Position(json, v, "a node's lineNumber"));
        } else if (key == "columnNumber") {
          node.frame.column = ZeroBased(Position(json, v, "a node's columnNumber"));
        } else if (key == "callFrame") {
          ReadV8CallFrame(json, v, &node.frame);
        } else if (key == "positionTicks") {
          node.position_ticks = ReadPositionTicks(json, v);
        }
      },
      [&](size_t i) {
        if (!nodes[i].has_id) json.Fail("a node without an id", nodes[i].node.byte);
      });
  for (Legacy& legacy : nodes) {
    if (legacy.parent != kNoV8Parent) legacy.node.parent = nodes[legacy.parent].node.id;
    profile->AddNode(std::move(legacy.node));
  }
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
  // startTime and endTime are microseconds, or seconds in the legacy form, which a later key
  // may reveal: their text is kept until the object is read.
  std::string_view start_text, end_text;
  uint64_t start_byte = 0, end_byte = 0;
  ForEachField(json, object, "a profile", [&](std::string_view key, JsonValue v) {
    if (key == "nodes") {
      for (auto element : json.Array(v, "nodes")) profile->AddNode(ReadNode(json, element));
    } else if (key == "head") {
      if (fields->legacy) json.Fail("a second head");
      fields->legacy = true;
      fields->head_byte = json.Byte();
      ReadLegacyTree(json, v, profile);
    } else if (key == "timestamps") {
      std::vector<int64_t> times;
      for (auto element : json.Array(v, "timestamps")) {
        times.push_back(json.Microseconds(element, "timestamps"));
      }
      fields->timestamps_ns = std::move(times);
    } else if (key == "samples") {
      fields->samples_byte = json.Byte();
      fields->samples = ReadNodeIds(json, v, "samples");
    } else if (key == "timeDeltas") {
      fields->deltas_ns =
          ReadDeltas(json, v, "timeDeltas", fields->samples ? fields->samples->size() : 0);
    } else if (key == "startTime") {
      start_byte = json.Byte();
      start_text = json.NumberText(v, "startTime", false);
    } else if (key == "endTime") {
      end_byte = json.Byte();
      end_text = json.NumberText(v, "endTime", false);
    }
  });
  const int64_t unit = fields->legacy ? 1000000000 : 1000;
  const char* unit_name = fields->legacy ? "seconds (the legacy form's unit)" : "microseconds";
  if (start_byte != 0) {
    fields->start_ns = json.TimeText(start_text, "startTime", unit, unit_name, start_byte);
  }
  if (end_byte != 0) fields->end_ns = json.TimeText(end_text, "endTime", unit, unit_name, end_byte);
}

void ReadNestedV8Tree(JsonDocument& json, JsonValue head, const std::function<size_t(size_t)>& open,
                      const std::function<void(size_t, std::string_view, JsonValue)>& field,
                      const std::function<void(size_t)>& close) {
  // The nodes open around the current one (On-Demand reads forward only): each with where its
  // fields are, and its children's when inside them.
  struct Open {
    size_t node;
    ondemand::object_iterator field, end;
    ondemand::array_iterator child, child_end;
    bool in_children = false;
    bool child_taken = false;  // *child was read: step past it when back from it
  };
  std::vector<Open> stack;
  const auto open_node = [&](JsonValue value, size_t parent) {
    ondemand::object object = json.Object(value, "a node");
    Open o;
    o.node = open(parent);
    if (const auto error = object.begin().get(o.field)) json.Fail(error, "a node", "an object");
    if (const auto error = object.end().get(o.end)) json.Fail(error, "a node", "an object");
    stack.push_back(o);
  };
  open_node(std::move(head), kNoV8Parent);
  while (!stack.empty()) {
    Open& o = stack.back();
    if (o.in_children) {
      if (o.child_taken) {
        ++o.child;
        o.child_taken = false;
      }
      if (o.child != o.child_end) {
        o.child_taken = true;
        const size_t parent = o.node;
        open_node(*o.child, parent);  // `o` may move: not used after this
        continue;
      }
      o.in_children = false;
      ++o.field;
      continue;
    }
    if (o.field == o.end) {
      const size_t node = o.node;
      stack.pop_back();
      close(node);
      continue;
    }
    ondemand::field f;
    if (const auto error = (*o.field).get(f)) json.Fail(error, "a node", "an object");
    std::string_view key;
    if (const auto error = f.unescaped_key().get(key)) json.Fail(error, "a node", "a key");
    JsonValue value(std::move(f).value());
    if (key == "children") {
      ondemand::array children = json.Array(std::move(value), "a node's children");
      if (const auto error = children.begin().get(o.child)) {
        json.Fail(error, "a node's children", "an array");
      }
      if (const auto error = children.end().get(o.child_end)) {
        json.Fail(error, "a node's children", "an array");
      }
      o.in_children = true;
      continue;  // the field is stepped past once its children are read
    }
    const size_t node = o.node;
    field(node, key, std::move(value));
    ++stack.back().field;
  }
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
