#include "common/report/text/folded_view.h"

#include <cstdint>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/model/frame_kind.h"
#include "common/report/frames.h"
#include "common/report/reports.h"

namespace proftools {
namespace {

// Where the argument list of a C++/Java name starts: the first `(` outside `<>`, `{}` and `[]`
// that does not open `(anonymous namespace)`; operator names (`operator()`, `operator<<`) are
// stepped over. npos when there is none. Go method names (`pkg.(*T).M`) have no argument list
// to cut.
size_t ArgumentListStart(std::string_view name) {
  const size_t go = name.find(".(");
  if (go != std::string_view::npos && name.find(").", go) != std::string_view::npos) {
    return std::string_view::npos;
  }
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == 'o' && name.compare(i, 8, "operator") == 0) {
      i += 8;
      if (name.compare(i, 2, "()") == 0) {
        ++i;
        continue;
      }
      while (i < name.size() &&
             std::string_view("<>=!+-*/%^&|~[],").find(name[i]) != std::string_view::npos) {
        ++i;
      }
      --i;
      continue;
    }
    if (c == '<' || c == '{' || c == '[') {
      ++depth;
    } else if ((c == '>' || c == '}' || c == ']') && depth > 0) {
      --depth;
    } else if (c == '(' && depth == 0) {
      if (name.compare(i, 21, "(anonymous namespace)") == 0) {
        i += 20;
        continue;
      }
      return i;
    }
  }
  return std::string_view::npos;
}

// A function name as stackcollapse-perf.pl would show it, without its mistakes.
std::string TidyName(std::string_view name, bool java) {
  const size_t cut = ArgumentListStart(name);
  if (cut != std::string_view::npos) name = name.substr(0, cut);
  if (java && !name.empty() && name[0] == 'L' && name.find('/') != std::string_view::npos) {
    name.remove_prefix(1);
  }
  std::string out(name);
  for (char& c : out) {
    if (c == ';') c = ':';
  }
  return out;
}

// A frame name with the bytes that would break a folded line replaced (flamegraph view), or
// escaped (otherwise).
std::string FoldedSafe(std::string_view name, bool flamegraph) {
  if (!flamegraph) return EscapeFoldedFrame(name);
  std::string out(name);
  for (char& c : out) {
    if (c == ';') c = ':';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

const Label* FindLabel(const Sample& sample, std::string_view key) {
  for (const Label& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

}  // namespace

bool ParseAnnotate(const std::string& text, FoldedViewOptions* options) {
  if (text == "kernel") {
    options->annotate_kernel = true;
  } else if (text == "jit") {
    options->annotate_jit = true;
  } else if (text == "inline") {
    options->annotate_inline = true;
  } else if (text == "all") {
    options->annotate_kernel = options->annotate_jit = options->annotate_inline = true;
  } else {
    return false;
  }
  return true;
}

void CheckRootTemplate(const std::string& root) {
  size_t i = 0;
  while ((i = root.find('{', i)) != std::string::npos) {
    const size_t close = root.find('}', i);
    if (close == std::string::npos || close == i + 1) {
      throw UsageError("--root: each { must close with a label name and }, as in {comm}-{pid}");
    }
    i = close + 1;
  }
}

FoldedView::FoldedView(FoldedViewOptions options, std::string value)
    : options_(std::move(options)), value_name_(std::move(value)) {
  if (options_.flamegraph && options_.root.empty()) {
    options_.root = "{comm}";
    comm_root_ = true;
  }
}

void FoldedView::OnHeader(const ProfileHeader& header) {
  DefinitionKeepingSink::OnHeader(header);
  value_index_ = ResolveValueIndex(header, value_name_);
}

std::string FoldedView::Root(const Sample& sample) const {
  // The implicit thread-name root of --flamegraph is left out for samples without a comm
  // (profiles of other origins); an explicit --root shows '?'.
  if (comm_root_ && FindLabel(sample, "comm") == nullptr) return "";
  std::string out;
  const std::string& t = options_.root;
  size_t i = 0;
  while (i < t.size()) {
    if (t[i] != '{') {
      out.push_back(t[i++]);
      continue;
    }
    const size_t close = t.find('}', i);
    const Label* label = FindLabel(sample, std::string_view(t).substr(i + 1, close - i - 1));
    if (label == nullptr) {
      out += '?';
    } else if (label->is_num) {
      AppendInt(&out, label->num);
    } else {
      out += label->str;
    }
    i = close + 1;
  }
  // stackcollapse-perf.pl joins the words of a thread name with `_`.
  if (options_.flamegraph) {
    for (char& c : out) {
      if (c == ' ') c = '_';
    }
  }
  return FoldedSafe(out, options_.flamegraph);
}

void FoldedView::OnSample(const Sample& sample) {
  const int64_t value =
      static_cast<size_t>(value_index_) < sample.values.size() ? sample.values[value_index_] : 0;
  if (value == 0) return;
  const Label* comm = FindLabel(sample, "comm");
  const bool java =
      options_.flamegraph && comm != nullptr && !comm->is_num && StartsWith(comm->str, "java");
  std::string root = Root(sample);
  root.insert(root.begin(), java ? '\1' : '\0');
  auto [it, added] = root_ids_.emplace(std::move(root), static_cast<uint32_t>(roots_.size()));
  if (added) {
    roots_.push_back(it->first.substr(1));
    root_frame_ids_.push_back(lines_.Intern(roots_.back()));
    root_is_java_.push_back(java);
  }
  AddSaturating(&sums_[Key{it->second, sample.stack_id}], value);
}

const std::vector<uint32_t>& FoldedView::LocationFrames(uint64_t location_id, bool java) {
  auto& cache = frames_[java ? 1 : 0];
  auto it = cache.find(location_id);
  if (it != cache.end()) return it->second;
  std::vector<uint32_t> names;
  const Location* location = defs_.locations.Find(location_id);
  const Mapping* mapping = location != nullptr && location->mapping_id != 0
                               ? defs_.mappings.Find(location->mapping_id)
                               : nullptr;
  const std::string dso = mapping != nullptr ? mapping->file : "";
  std::string suffix;
  // The one classifier (model/frame_kind.h): it also knows the "[jit]" mapping folded2prof
  // gives `_[j]` frames, so that their annotation comes back.
  const CodeKind kind = CodeKindOfMapping(dso);
  if (options_.annotate_kernel && kind == CodeKind::kKernel) suffix += "_[k]";
  if (options_.annotate_jit && kind == CodeKind::kJit) suffix += "_[j]";
  if (location == nullptr || location->lines.empty()) {
    std::string name = dso.empty() ? "[unknown" : "[" + BaseName(dso);
    if (options_.unknown_addresses) {
      std::string hex;
      AppendHex(&hex, location != nullptr ? location->address : 0);
      name += " <" + hex.substr(2) + ">";
    }
    name += "]";
    names.push_back(lines_.Intern(FoldedSafe(name + suffix, options_.flamegraph)));
  } else {
    // Outermost first; the ones inlined into it are marked as stackcollapse-perf marks the
    // frames of a perf-map-agent inline chain (always: so does the Perl script), or when asked
    // (--annotate inline: the Perl script prints perf's `(inlined)` frames bare unless given
    // --inline, and FlameGraph users compare with its default).
    const bool mark_inlined = options_.annotate_inline ||
                              (options_.flamegraph && CodeKindOfMapping(dso) == CodeKind::kJit);
    for (size_t i = location->lines.size(); i-- > 0;) {
      const Function* function = defs_.functions.Find(location->lines[i].function_id);
      const std::string raw = function != nullptr ? function->name : "?";
      std::string name = options_.flamegraph ? TidyName(raw, java) : raw;
      if (mark_inlined && i + 1 < location->lines.size()) name += "_[i]";
      names.push_back(lines_.Intern(FoldedSafe(name + suffix, options_.flamegraph)));
    }
  }
  return cache.emplace(location_id, std::move(names)).first->second;
}

void FoldedView::Write(ByteSink* out) {
  std::vector<uint32_t> line;
  for (const auto& [key, value] : sums_) {
    line.clear();
    if (!roots_[key.root].empty()) line.push_back(root_frame_ids_[key.root]);
    const Stack* stack = defs_.stacks.Find(key.stack);
    if (stack != nullptr) {
      for (auto it = stack->location_ids.rbegin(); it != stack->location_ids.rend(); ++it) {
        const std::vector<uint32_t>& frames = LocationFrames(*it, root_is_java_[key.root]);
        line.insert(line.end(), frames.begin(), frames.end());
      }
    }
    lines_.Add(line, value);
  }
  lines_.Write(out);
}

}  // namespace proftools
