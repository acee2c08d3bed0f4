#include "common/valgrind/massif_file.h"

#include <charconv>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"

namespace proftools {
namespace {

class MassifParser {
 public:
  MassifParser(std::string_view text, const std::string& name, uint64_t first_line = 0)
      : rest_(text), line_number_(first_line), name_(name) {}

  MassifFile Parse() {
    MassifFile file;
    file.desc = std::string(Field("desc: "));
    file.cmd = std::string(Field("cmd: "));
    file.time_unit = std::string(Field("time_unit: "));
    while (NextLine()) {
      if (line_.empty() || line_[0] == '#') continue;  // the separators
      if (!StartsWith(line_, "snapshot=")) Fail("expected snapshot=N");
      file.snapshots.push_back(Snapshot(Number(line_.substr(9), "the snapshot number")));
    }
    return file;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw ProfError(Diagnostic{Rule::kInput, name_, line_number_,
                               what + (line_.empty() ? "" : ", not " + Printable(line_, 60))});
  }

  bool NextLine() {
    if (rest_.empty()) return false;
    const size_t end = rest_.find('\n');
    line_ = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
    if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
    ++line_number_;
    return true;
  }

  // The next line that is not a separator: it must start with `prefix`; returns what follows.
  std::string_view Field(std::string_view prefix) {
    do {
      if (!NextLine()) {
        line_ = {};
        Fail("the file ends where " + std::string(prefix) + "... belongs");
      }
    } while (!line_.empty() && line_[0] == '#');
    if (!StartsWith(line_, prefix)) Fail("expected " + std::string(prefix) + "...");
    return line_.substr(prefix.size());
  }

  int64_t Number(std::string_view text, const char* what) const {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) {
      Fail(std::string(what) + " is not a number of 0 or more");
    }
    return value;
  }

  MassifSnapshot Snapshot(int64_t number) {
    MassifSnapshot snapshot;
    snapshot.number = number;
    snapshot.time = Number(Field("time="), "time");
    snapshot.heap_bytes = Number(Field("mem_heap_B="), "mem_heap_B");
    snapshot.heap_extra_bytes = Number(Field("mem_heap_extra_B="), "mem_heap_extra_B");
    snapshot.stacks_bytes = Number(Field("mem_stacks_B="), "mem_stacks_B");
    const std::string_view tree = Field("heap_tree=");
    if (tree == "empty") return snapshot;
    if (tree == "detailed") {
      snapshot.tree = MassifSnapshot::Tree::kDetailed;
    } else if (tree == "peak") {
      snapshot.tree = MassifSnapshot::Tree::kPeak;
    } else {
      Fail("heap_tree= is empty, detailed or peak");
    }
    snapshot.tree_line = line_number_ + 1;
    const char* start = rest_.data();
    ReadTree(nullptr);
    // From the tree's first line to the end of its last.
    snapshot.tree_text =
        std::string_view(start, static_cast<size_t>(line_.data() + line_.size() - start));
    return snapshot;
  }

 public:
  // The tree in depth-first order: each node "SPACES nK: BYTES FRAME" with as many spaces as
  // its depth, followed by its K children's subtrees; into `nodes` unless null.
  void ReadTree(std::vector<MassifNode>* nodes) {
    struct Level {
      int64_t children_left;
      int64_t parent_bytes;
      int64_t children_bytes;
    };
    std::vector<Level> open;
    do {
      if (!NextLine()) {
        line_ = {};
        Fail(open.empty() ? "the file ends where a heap tree belongs"
                          : "the file ends inside a heap tree");
      }
      MassifNode node;
      node.line = line_number_;
      node.depth = static_cast<uint32_t>(open.size());
      const size_t indent = line_.find_first_not_of(' ');
      if (indent != node.depth) {
        Fail("expected a heap tree node of depth " + std::to_string(node.depth) +
             ", indented by as many spaces");
      }
      std::string_view rest = line_.substr(indent);
      if (rest.empty() || rest[0] != 'n') Fail("expected a heap tree node (nK: BYTES ...)");
      const size_t colon = rest.find(": ");
      if (colon == std::string_view::npos) Fail("expected a heap tree node (nK: BYTES ...)");
      const int64_t children = Number(rest.substr(1, colon - 1), "the children count");
      rest = rest.substr(colon + 2);
      const size_t space = rest.find(' ');
      node.bytes = Number(rest.substr(0, space), "the bytes");
      node.frame = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      if (!open.empty()) {
        Level& parent = open.back();
        if (node.bytes > parent.parent_bytes - parent.children_bytes) {
          Fail("expected a node of at most " +
               std::to_string(parent.parent_bytes - parent.children_bytes) +
               " bytes (what its parent has left)");
        }
        parent.children_bytes += node.bytes;
        --parent.children_left;
      }
      if (nodes != nullptr) nodes->push_back(node);
      if (children > 0) {
        // A child is a line at least: a count past what is left of the file cannot be met.
        if (static_cast<uint64_t>(children) > rest_.size()) Fail("more children than lines");
        open.push_back(Level{children, node.bytes, 0});
      }
      while (!open.empty() && open.back().children_left == 0) open.pop_back();
    } while (!open.empty());
  }

 private:
  std::string_view rest_;
  std::string_view line_;
  uint64_t line_number_;
  const std::string& name_;
};

}  // namespace

MassifFile ParseMassif(std::string_view text, const std::string& name) {
  return MassifParser(text, name).Parse();
}

void ParseMassifTree(const MassifSnapshot& snapshot, const std::string& name,
                     std::vector<MassifNode>* nodes) {
  nodes->clear();
  MassifParser(snapshot.tree_text, name, snapshot.tree_line - 1).ReadTree(nodes);
}

bool LooksLikeMassif(std::string_view head) {
  if (!StartsWith(head, "desc:")) return false;
  const size_t cmd = head.find("\ncmd:");
  return cmd != std::string_view::npos && head.find("\ntime_unit:", cmd) != std::string_view::npos;
}

}  // namespace proftools
