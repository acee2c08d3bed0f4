#include "common/pprof/pprof_conventions.h"

#include <vector>

#include "common/base/strings.h"
#include "common/base/text_syntax.h"

namespace proftools {
namespace {

// pprof's removeMatching: deletes balanced start..end groups, outermost level; gives up
// (returns the name unchanged) at an unmatched closing byte.
std::string RemoveMatching(std::string name, char start, char end) {
  int nesting = 0;
  size_t first = 0;
  for (size_t current = 0; current < name.size(); ++current) {
    if (name[current] == start) {
      if (++nesting == 1) first = current;
    } else if (name[current] == end) {
      --nesting;
      if (nesting < 0) return name;
      if (nesting == 0) {
        name.erase(first, current + 1 - first);
        current = first - 1;  // wraps for first == 0; ++current brings it back to 0
      }
    }
  }
  return name;
}

bool LooksLikeDemangledCplusplus(std::string_view name) {
  if (name.find(".<") != std::string_view::npos) return false;  // Java: class.<init>
  return name.find_first_of("<>[]") != std::string_view::npos ||
         name.find("::") != std::string_view::npos;
}

}  // namespace

std::string CarryMeta(const MetaEntry& meta) {
  std::string out(kCommentPrefix);
  out += "meta ";
  AppendString(&out, meta.key);
  out += ' ';
  AppendString(&out, meta.value);
  return out;
}

std::string CarrySource(const Source& source) {
  std::string out(kCommentPrefix);
  out += "source ";
  AppendUint(&out, source.id);
  out += ' ';
  AppendString(&out, source.type);
  out += ' ';
  AppendString(&out, source.uri);
  out += ' ';
  if (source.time_nanos) {
    AppendInt(&out, *source.time_nanos);
  } else {
    out += '-';
  }
  return out;
}

std::string CarryComment(const std::string& comment) {
  if (!StartsWith(comment, kCommentPrefix)) return comment;
  std::string out(kCommentPrefix);
  out += "comment ";
  AppendString(&out, comment);
  return out;
}

CarriedRecord ParseCarried(std::string_view comment) {
  CarriedRecord none;
  if (!StartsWith(comment, kCommentPrefix)) return none;
  std::vector<std::string_view> tokens;
  std::string error;
  if (!Tokenize(comment.substr(kCommentPrefix.size()), &tokens, &error) || tokens.empty()) {
    return none;
  }
  CarriedRecord carried;
  if (tokens[0] == "meta" && tokens.size() == 3) {
    if (!DecodeString(tokens[1], &carried.meta.key, &error) ||
        !DecodeString(tokens[2], &carried.meta.value, &error) || carried.meta.key.empty()) {
      return none;
    }
    carried.kind = CarriedRecord::kMeta;
  } else if (tokens[0] == "source" && tokens.size() == 5) {
    Source& s = carried.source;
    if (!ParseId(tokens[1], &s.id) || s.id == 0 || !DecodeString(tokens[2], &s.type, &error) ||
        s.type.empty() || !DecodeString(tokens[3], &s.uri, &error)) {
      return none;
    }
    if (tokens[4] != "-") {
      int64_t time;
      if (!ParseInt(tokens[4], &time) || time < 0) return none;
      s.time_nanos = time;
    }
    carried.kind = CarriedRecord::kSource;
  } else if (tokens[0] == "comment" && tokens.size() == 2) {
    if (!DecodeString(tokens[1], &carried.comment, &error)) return none;
    carried.kind = CarriedRecord::kComment;
  } else {
    return none;
  }
  return carried;
}

bool PprofWouldRewriteName(std::string_view name) {
  if (StartsWith(name, "_Z") || StartsWith(name, "_R")) return true;
  if (!LooksLikeDemangledCplusplus(name)) return false;
  const std::string original(name);
  std::string simplified = RemoveMatching(original, '(', ')');
  simplified = RemoveMatching(simplified, '<', '>');
  return simplified != original;
}

}  // namespace proftools
