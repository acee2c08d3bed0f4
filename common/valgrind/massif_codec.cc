#include "common/valgrind/massif_codec.h"

#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/io/mapped_input.h"
#include "common/model/interner.h"
#include "common/valgrind/massif_file.h"
#include "common/valgrind/valgrind_frames.h"

namespace proftools {
namespace {

std::string SnapshotMeta(const MassifSnapshot& s, const std::string& time_unit) {
  return "time=" + std::to_string(s.time) + time_unit +
         " mem_heap_B=" + std::to_string(s.heap_bytes) +
         " mem_heap_extra_B=" + std::to_string(s.heap_extra_bytes) +
         " mem_stacks_B=" + std::to_string(s.stacks_bytes);
}

void ReadMassifInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  // Mapped, not copied: a file is read where it is (a pipe or gzip spooled first), twice.
  MappedInput data(input, context.max_spool_size);

  const MassifFile file = ParseMassif(data.bytes(), input.name);

  std::vector<const MassifSnapshot*> detailed;
  const MassifSnapshot* peak = nullptr;
  for (const MassifSnapshot& snapshot : file.snapshots) {
    if (snapshot.tree == MassifSnapshot::Tree::kEmpty) continue;
    detailed.push_back(&snapshot);
    if (snapshot.tree == MassifSnapshot::Tree::kPeak) peak = &snapshot;
  }
  if (detailed.empty() && !context.allow_empty) {
    throw ProfError(input.name,
                    "massif output without a detailed snapshot: no heap tree to read "
                    "(--allow-empty reads it as a profile without samples)");
  }
  if (peak == nullptr && !detailed.empty()) peak = detailed.back();

  ProfileHeader header;
  header.sources.push_back(Source{1, "massif", context.uri, std::nullopt});
  header.meta.push_back({"massif.cmd", file.cmd});
  header.meta.push_back({"massif.desc", file.desc});
  if (peak != nullptr) header.meta.push_back({"massif.peak", std::to_string(peak->number)});
  header.meta.push_back({"massif.time_unit", file.time_unit});
  header.types.push_back({"inuse_space", "bytes"});
  for (const MassifSnapshot* snapshot : detailed) {
    const std::string name = "snapshot_" + std::to_string(snapshot->number);
    for (const ValueType& type : header.types) {
      if (type.type == name) {
        throw ProfError(input.name, "snapshot " + std::to_string(snapshot->number) +
                                        " is detailed twice (its numbers repeat)");
      }
    }
    header.types.push_back({name, "bytes"});
    header.meta.push_back({"massif." + name, SnapshotMeta(*snapshot, file.time_unit)});
  }
  header.default_type = "inuse_space";
  sink->OnHeader(header);

  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), input.name);
  ValgrindFrames frames(&interner);
  std::vector<uint64_t> stack_order;                          // stacks by first use
  std::unordered_map<uint64_t, std::vector<int64_t>> values;  // by stack id
  std::vector<uint64_t> path;                                 // innermost first
  std::vector<int64_t> self;
  std::vector<size_t> parents;  // the open nodes' indices, by depth
  std::vector<MassifNode> nodes;
  for (size_t column = 0; column < detailed.size(); ++column) {
    ParseMassifTree(*detailed[column], input.name, &nodes);
    self.assign(nodes.size(), 0);
    parents.clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
      self[i] = nodes[i].bytes;
      parents.resize(nodes[i].depth);
      if (!parents.empty()) self[parents.back()] -= nodes[i].bytes;
      parents.push_back(i);
    }
    path.clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
      const MassifNode& node = nodes[i];
      if (node.depth == 0) {
        path.clear();
        if (self[i] == 0) continue;  // the allocation functions: their callers are the sites
      } else {
        const bool leaf = i + 1 == nodes.size() || nodes[i + 1].depth <= node.depth;
        if (leaf && self[i] == 0) continue;  // a site below the threshold with 0 bytes left
        path.resize(node.depth - 1);
        path.push_back(frames.LocationOf(node.frame));
      }
      if (self[i] == 0) continue;
      if (path.empty()) path.push_back(frames.LocationOf(node.frame));
      const uint64_t stack = interner.Stack(path);
      auto [it, added] = values.try_emplace(stack);
      if (added) {
        it->second.assign(header.types.size(), 0);
        stack_order.push_back(stack);
      }
      it->second[column + 1] += self[i];
      if (detailed[column] == peak) it->second[0] += self[i];
    }
  }
  for (const uint64_t stack : stack_order) {
    Sample sample;
    sample.source_id = 1;
    sample.stack_id = stack;
    sample.values = std::move(values[stack]);
    sink->OnSample(sample);
  }
  sink->OnEnd();
}

int SniffMassif(std::string_view head, bool text) {
  return text && LooksLikeMassif(head) ? kCertain : kNotMine;
}

}  // namespace

const ReaderSpec kMassifReader = {
    "massif",        "valgrind massif's output", ReaderShape::kTwoPasses, nullptr, SniffMassif,
    ReadMassifInput,
};

}  // namespace proftools
