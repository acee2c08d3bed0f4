#include "common/callgrind/callgrind_writer.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/base/counted.h"
#include "common/base/saturating.h"
#include "common/model/sink.h"

namespace proftools {
namespace {

struct NodeKey {
  std::string object, file, name;
  int64_t line = 0;
  uint64_t address = 0;
  bool operator<(const NodeKey& o) const {
    return std::tie(name, file, object, line, address) <
           std::tie(o.name, o.file, o.object, o.line, o.address);
  }
};

struct Node {
  NodeKey key;
  std::vector<int64_t> flat;
  std::map<uint32_t, std::vector<int64_t>> out;  // callee -> inclusive values
};

// "(N) name" the first time, "(N)" after; nothing for an empty name (as pprof).
class Names {
 public:
  std::string operator()(const std::string& name) {
    if (name.empty()) return "";
    const auto [it, added] = ids_.emplace(name, ids_.size() + 1);
    if (!added) return "(" + std::to_string(it->second) + ")";
    // A name is the rest of its line: line breaks in it are written as \n and \r.
    std::string shown;
    for (char c : name) {
      if (c == '\n') {
        shown += "\\n";
      } else if (c == '\r') {
        shown += "\\r";
      } else {
        shown += c;
      }
    }
    return "(" + std::to_string(it->second) + ") " + shown;
  }

 private:
  std::unordered_map<std::string, size_t> ids_;
};

std::string Hex(uint64_t address) {
  char hex[32];
  snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
  return hex;
}

// An address relative to `last` when that is shorter, as pprof writes them.
std::string Address(uint64_t last, uint64_t address) {
  const std::string absolute = Hex(address);
  if (address == last) return "*";
  const int64_t diff = static_cast<int64_t>(address - last);
  const std::string relative = (diff > 0 ? "+" : "") + std::to_string(diff);
  return relative.size() < absolute.size() ? relative : absolute;
}

// A value type as an event name: blanks would split the events: line.
std::string EventName(const ValueType& type) {
  std::string name = type.type;
  if (!type.unit.empty()) name += "(" + type.unit + ")";
  for (char& c : name) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  }
  return name.empty() ? "samples" : name;
}

class CallgrindWriter : public DefinitionKeepingSink {
 public:
  CallgrindWriter(ByteSink* out, std::string name, const WriteContext& context)
      : out_(out), name_(std::move(name)), context_(context) {}

  void OnSample(const Sample& sample) override {
    if (!sample.labels.empty()) ++labelled_;
    if (sample.time_nanos || sample.duration_nanos) ++timed_;
    const std::vector<uint32_t>& path = Path(sample.stack_id);
    if (path.empty()) {
      ++unplaced_;
      return;
    }
    Add(&nodes_[path.back()].flat, sample.values);
    seen_.clear();
    for (size_t i = 1; i < path.size(); ++i) {
      const uint64_t edge = (uint64_t{path[i - 1]} << 32) | path[i];
      if (std::find(seen_.begin(), seen_.end(), edge) != seen_.end()) continue;
      seen_.push_back(edge);
      auto& values = nodes_[path[i - 1]].out[path[i]];
      Add(&values, sample.values);
    }
  }

  void OnEnd() override {
    const std::vector<ValueType>& types = header_.types;
    const int shown = header_.DefaultTypeIndex();
    std::vector<uint32_t> order(nodes_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    auto flat = [&](uint32_t n) {
      return shown < 0 || nodes_[n].flat.empty() ? 0 : nodes_[n].flat[static_cast<size_t>(shown)];
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (flat(a) != flat(b)) return flat(a) > flat(b);
      return nodes_[a].key < nodes_[b].key;
    });
    std::string text = "# callgrind format\npositions: instr line\nevents:";
    for (const ValueType& type : types) text += " " + EventName(type);
    if (types.empty()) text += " samples";
    text += "\n";
    Names objects, files, functions;
    const Node* previous = nullptr;
    uint64_t last = 0;
    for (uint32_t n : order) {
      const Node& node = nodes_[n];
      if (previous == nullptr || previous->key.object != node.key.object ||
          previous->key.file != node.key.file || previous->key.name != node.key.name) {
        text += "\nob=" + objects(node.key.object) + "\nfl=" + files(node.key.file) +
                "\nfn=" + functions(node.key.name) + "\n";
      }
      text += (previous == nullptr ? Hex(node.key.address) : Address(last, node.key.address));
      text += " " + std::to_string(node.key.line);
      Values(node.flat, &text);
      last = node.key.address;
      for (const auto& [callee, values] : node.out) {
        const Node& target = nodes_[callee];
        text += "cfl=" + files(target.key.file) + "\ncfn=" + functions(target.key.name) +
                "\ncalls=1 " + Address(last, target.key.address) + " " +
                std::to_string(target.key.line) + "\n* *";
        Values(values, &text);
      }
      previous = &node;
      if (text.size() > (size_t{1} << 20)) {
        out_->Write(text);
        text.clear();
      }
    }
    out_->Write(text);
    if (labelled_ > 0) {
      context_.Warn(name_, Counted(labelled_, "sample's labels", "samples' labels") +
                               " left out (callgrind has no labels)");
    }
    if (timed_ > 0) {
      context_.Warn(name_,
                    Counted(timed_, "sample's time or duration", "samples' times or durations") +
                        " left out (callgrind has no times)");
    }
    if (unplaced_ > 0) {
      context_.Warn(name_,
                    Counted(unplaced_, "sample", "samples") +
                        " with an empty stack left out (callgrind costs belong to functions)");
    }
  }

 private:
  void Add(std::vector<int64_t>* sums, const std::vector<int64_t>& values) {
    if (sums->empty()) sums->assign(header_.types.size(), 0);
    for (size_t i = 0; i < values.size() && i < sums->size(); ++i) {
      AddSaturating(&(*sums)[i], values[i]);
    }
  }

  void Values(const std::vector<int64_t>& values, std::string* text) const {
    for (size_t i = 0; i < header_.types.size(); ++i) {
      *text += " " + std::to_string(i < values.size() ? values[i] : 0);
    }
    *text += "\n";
  }

  uint32_t NodeOf(NodeKey key) {
    const auto [it, added] = node_of_.emplace(key, static_cast<uint32_t>(nodes_.size()));
    if (added) nodes_.push_back(Node{std::move(key), {}, {}});
    return it->second;
  }

  // The stack's frames as nodes, outermost first.
  const std::vector<uint32_t>& Path(uint64_t stack_id) {
    const auto found = paths_.find(stack_id);
    if (found != paths_.end()) return found->second;
    std::vector<uint32_t> path;
    const Stack* stack = defs_.stacks.Find(stack_id);
    for (auto it = stack->location_ids.rbegin(); it != stack->location_ids.rend(); ++it) {
      const Location* location = defs_.locations.Find(*it);
      const Mapping* mapping =
          location->mapping_id == 0 ? nullptr : defs_.mappings.Find(location->mapping_id);
      if (location->lines.empty()) {  // an address only: a node named by it
        path.push_back(NodeOf(
            {mapping ? mapping->file : "", "", Hex(location->address), 0, location->address}));
        continue;
      }
      for (auto line = location->lines.rbegin(); line != location->lines.rend(); ++line) {
        const proftools::Function* function = defs_.functions.Find(line->function_id);
        path.push_back(NodeOf({mapping ? mapping->file : "", function->file, function->name,
                               line->line, location->address}));
      }
    }
    return paths_.emplace(stack_id, std::move(path)).first->second;
  }

  ByteSink* out_;
  std::string name_;
  const WriteContext& context_;
  std::vector<Node> nodes_;
  std::map<NodeKey, uint32_t> node_of_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> paths_;
  std::vector<uint64_t> seen_;
  uint64_t labelled_ = 0, timed_ = 0, unplaced_ = 0;
};

void WriteCallgrind(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  CallgrindWriter writer(out, profile.name(), context);
  profile.Read(&writer);
}

}  // namespace

const WriterSpec kCallgrindWriter = {
    "callgrind",      "prof2callgrind", "the callgrind format (KCachegrind, callgrind_annotate)",
    /*binary=*/false,
    /*gzip=*/false,   ".callgrind",     {},
    WriteCallgrind,
};

}  // namespace proftools
