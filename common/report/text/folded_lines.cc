#include "common/report/text/folded_lines.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/base/text_syntax.h"

namespace proftools {

uint32_t FoldedLines::Intern(std::string frame) {
  return frames_.Intern(std::move(frame));
}

void FoldedLines::Add(const std::vector<uint32_t>& frames, int64_t value) {
  AddSaturating(&sums_[frames].value, value);
}

void FoldedLines::Add(const std::vector<uint32_t>& frames, int64_t base, int64_t value) {
  two_columns_ = true;
  Sums& sums = sums_[frames];
  AddSaturating(&sums.base, base);
  AddSaturating(&sums.value, value);
}

bool FoldedLines::Before(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) const {
  const size_t common = std::min(a.size(), b.size());
  for (size_t k = 0; k < common; ++k) {
    if (a[k] == b[k]) continue;
    // The lines agree up to here; from here on they read x[;...] and y[;...].
    const std::string& x = frames_.Text(a[k]);
    const std::string& y = frames_.Text(b[k]);
    const size_t n = std::min(x.size(), y.size());
    const int c = std::memcmp(x.data(), y.data(), n);
    if (c != 0) return c < 0;
    // One frame is a prefix of the other (they differ, so not both): the shorter line goes on
    // with ';' or ends, which sorts before any byte.
    if (x.size() < y.size()) {
      return k + 1 == a.size() || ';' < static_cast<unsigned char>(y[n]);
    }
    return !(k + 1 == b.size() || ';' < static_cast<unsigned char>(x[n]));
  }
  return a.size() < b.size();  // a prefix of the other, which goes on with ';'
}

void FoldedLines::Write(ByteSink* out, uint64_t min_magnitude) const {
  std::vector<const std::pair<const std::vector<uint32_t>, Sums>*> lines;
  lines.reserve(sums_.size());
  for (const auto& entry : sums_) {
    if ((entry.second.value == 0 && entry.second.base == 0) || entry.first.empty()) continue;
    if (Magnitude(entry.second.value) < min_magnitude &&
        Magnitude(entry.second.base) < min_magnitude) {
      continue;
    }
    if (entry.first.size() == 1 && frames_.Text(entry.first[0]).empty()) continue;
    lines.push_back(&entry);
  }
  std::sort(lines.begin(), lines.end(),
            [this](const auto* a, const auto* b) { return Before(a->first, b->first); });
  std::string text;
  for (const auto* line : lines) {
    for (size_t k = 0; k < line->first.size(); ++k) {
      if (k > 0) text += ';';
      text += frames_.Text(line->first[k]);
    }
    if (two_columns_) {
      text += ' ';
      AppendInt(&text, line->second.base);
    }
    text += ' ';
    AppendInt(&text, line->second.value);
    text += '\n';
    if (text.size() > (size_t{1} << 20)) {
      out->Write(text);
      text.clear();
    }
  }
  out->Write(text);
}

}  // namespace proftools
