// kHeapProfileReader: one source of type "heapprofile", the value types samples/count and
// space/bytes (space/bytes alone for a profile without samples).
#include "common/chrome/heapprofile_codec.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/strings.h"
#include "common/chrome/cpuprofile_codec.h"
#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/model/parent_stacks.h"

namespace proftools {
namespace {

constexpr size_t kNoNode = SIZE_MAX;

struct HeapNode {
  uint64_t id = 0;
  bool has_id = false;
  size_t parent = kNoNode;  // index in the nodes, in the order they open
  V8CallFrame frame;
  int64_t self_size = 0;
  uint64_t byte = 0;
};

struct HeapSample {
  uint64_t node = 0;
  int64_t size = 0;
  uint64_t ordinal = 0;
  uint64_t byte = 0;
};

class HeapProfileReader {
 public:
  explicit HeapProfileReader(JsonDocument* json) : json_(*json) {}

  void Read();
  void Emit(const ReadContext& context, ProfileSink* sink);

 private:
  void ReadTree(JsonValue head);
  int64_t Size(JsonValue value, std::string_view what);
  void ReadSamples(JsonValue value);

  JsonDocument& json_;
  std::vector<HeapNode> nodes_;
  std::vector<HeapSample> samples_;
  bool has_head_ = false;
  uint64_t samples_byte_ = 0;
};

int64_t HeapProfileReader::Size(JsonValue value, std::string_view what) {
  const uint64_t size = json_.Unsigned(value, what);
  if (size > static_cast<uint64_t>(INT64_MAX)) {
    json_.Fail(std::string(what) + ": beyond 2^63-1 bytes");
  }
  return static_cast<int64_t>(size);
}

// Nodes are known by their place in the tree; a node's id is what samples name it by (V8
// before samples, 2018, wrote nodes without ids: only their selfSize counts then).
void HeapProfileReader::ReadTree(JsonValue head) {
  has_head_ = true;
  ReadNestedV8Tree(
      json_, std::move(head),
      [&](size_t parent) {
        HeapNode node;
        node.parent = parent == kNoV8Parent ? kNoNode : parent;
        node.byte = json_.Byte();
        nodes_.push_back(std::move(node));
        return nodes_.size() - 1;
      },
      [&](size_t i, std::string_view key, JsonValue value) {
        HeapNode& node = nodes_[i];
        if (key == "id") {
          node.id = json_.Unsigned(std::move(value), "a node's id");
          node.has_id = true;
        } else if (key == "selfSize") {
          node.self_size = Size(std::move(value), "a node's selfSize");
        } else if (key == "callFrame") {
          ReadV8CallFrame(json_, std::move(value), &node.frame);
        }
      },
      [](size_t) {});
}

void HeapProfileReader::ReadSamples(JsonValue value) {
  samples_byte_ = json_.Byte();
  for (JsonValue element : json_.Array(std::move(value), "samples")) {
    HeapSample sample;
    sample.byte = json_.Byte();
    bool has_node = false, has_size = false;
    ForEachField(json_, json_.Object(std::move(element), "samples[]"), "a sample",
                 [&](std::string_view key, JsonValue v) {
                   if (key == "nodeId") {
                     sample.node = json_.Unsigned(std::move(v), "a sample's nodeId");
                     has_node = true;
                   } else if (key == "size") {
                     sample.size = Size(std::move(v), "a sample's size");
                     has_size = true;
                   } else if (key == "ordinal") {
                     sample.ordinal = json_.Unsigned(std::move(v), "a sample's ordinal");
                   }
                 });
    if (!has_node)
      json_.Fail("samples[" + std::to_string(samples_.size()) + "]: no nodeId", sample.byte);
    if (!has_size)
      json_.Fail("samples[" + std::to_string(samples_.size()) + "]: no size", sample.byte);
    samples_.push_back(sample);
  }
}

void HeapProfileReader::Read() {
  ondemand::object object;
  if (const auto error = json_.doc().get_object().get(object)) {
    json_.Fail(error, "the profile", "an object");
  }
  ForEachField(json_, object, "the profile", [&](std::string_view key, JsonValue v) {
    if (key == "head") {
      if (has_head_) json_.Fail("a second head");
      ReadTree(std::move(v));
    } else if (key == "samples") {
      ReadSamples(std::move(v));
    }
  });
  if (!has_head_) json_.Fail("no `head`: not a V8 heap profile", 1);
}

void HeapProfileReader::Emit(const ReadContext& context, ProfileSink* sink) {
  std::unordered_map<uint64_t, size_t> index;
  index.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].has_id && !index.emplace(nodes_[i].id, i).second) {
      json_.Fail("node " + std::to_string(nodes_[i].id) + " is defined twice", nodes_[i].byte);
    }
  }
  // V8 writes samples only since 2018: before, the nodes' selfSize is all there is.
  const bool by_samples = !samples_.empty();
  if (!by_samples && !context.allow_empty &&
      std::none_of(nodes_.begin(), nodes_.end(),
                   [](const HeapNode& node) { return node.self_size > 0; })) {
    throw ProfError(json_.name(),
                    "a heap profile without samples or allocated bytes (was the sampling stopped "
                    "as soon as it started?)");
  }

  ProfileHeader header;
  header.sources.push_back(Source{1, "heapprofile", context.uri, std::nullopt});
  if (by_samples) header.types.push_back(ValueType{"samples", "count"});
  header.types.push_back(ValueType{"space", "bytes"});
  header.default_type = "space";
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), json_.name());
  // Nodes are known by their place: a tree nested in the JSON has no cycles, whatever its ids.
  ParentLinkedStacks stacks(&interner, json_.name());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    stacks.Add(i, nodes_[i].parent == kNoNode ? ParentLinkedStacks::kNoParent : nodes_[i].parent,
               V8Location(&interner, nodes_[i].frame));
  }
  Sample sample;
  sample.source_id = 1;
  if (by_samples) {
    std::stable_sort(
        samples_.begin(), samples_.end(),
        [](const HeapSample& a, const HeapSample& b) { return a.ordinal < b.ordinal; });
    // V8 (node 20) writes now and then a sample whose node has left the tree: DevTools, which
    // shows the tree, does not count it; neither do we, and we say so.
    uint64_t missing = 0, missing_bytes = 0, first_missing_byte = 0;
    for (const HeapSample& s : samples_) {
      const auto it = index.find(s.node);
      if (it == index.end()) {
        if (missing++ == 0) first_missing_byte = s.byte;
        missing_bytes += static_cast<uint64_t>(s.size);
        continue;
      }
      sample.stack_id = stacks.StackOf(it->second);
      sample.values = {1, s.size};
      sink->OnSample(sample);
    }
    if (missing > 0 && context.warnings != nullptr) {
      context.warnings->Warning(
          Diagnostic{Rule::kInput, json_.name(), 0,
                     "byte " + std::to_string(first_missing_byte) + ": " + std::to_string(missing) +
                         (missing == 1 ? " sample names a node" : " samples name nodes") +
                         " not in the tree (V8 writes such samples now and then), left out: " +
                         std::to_string(missing_bytes) + " bytes"});
    }
  } else {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (nodes_[i].self_size == 0) continue;
      sample.stack_id = stacks.StackOf(i);
      sample.values = {nodes_[i].self_size};
      sink->OnSample(sample);
    }
  }
  sink->OnEnd();
}

void ReadHeapProfile(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  HeapProfileReader reader(&json);
  reader.Read();
  reader.Emit(context, sink);
}

}  // namespace

int SniffHeapProfile(std::string_view head, bool text) {
  if (!text || !JsonStartsWith(head, '{')) return kNotMine;
  if (!Contains(head, "\"head\"") || !Contains(head, "\"callFrame\"")) return kNotMine;
  return Contains(head, "\"selfSize\"") ? kCertain : kLikely;
}

const ReaderSpec kHeapProfileReader = {
    "heapprofile",
    "a V8 sampling heap profile (.heapprofile)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffHeapProfile,
    ReadHeapProfile,
};

}  // namespace proftools
