#include "common/callgrind/callgrind_reader.h"

#include <unordered_map>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"

namespace proftools {
namespace {

constexpr size_t kMaxLine = size_t{16} << 20;  // names are long C++ symbols at most
constexpr size_t kMaxEvents = 256;

bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (IsBlank(s[i]) || s[i] == '\r')) ++i;
    const size_t start = i;
    while (i < s.size() && !IsBlank(s[i]) && s[i] != '\r') ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

// A decimal or 0x-hexadecimal unsigned number, the whole of `text`.
bool ParseNumber(std::string_view text, uint64_t* out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return false;
    }
    if (value > (UINT64_MAX - digit) / static_cast<unsigned>(base)) return false;
    value = value * static_cast<unsigned>(base) + digit;
  }
  *out = value;
  return true;
}

class Parser {
 public:
  Parser(ByteStream* stream, const std::string& name)
      : name_(name), lines_(stream, kMaxLine, name) {}

  CallgrindFile Run() {
    std::string_view line;
    while (lines_.Next(&line)) {
      const std::string_view text = Trim(line);
      if (text.empty() || text.front() == '#') continue;
      if (pending_call_ && !IsCostLine(text)) {
        Fail("a calls= line (line " + std::to_string(pending_line_) +
             ") must be followed by the cost line of the call");
      }
      if (IsCostLine(text)) {
        CostLine(text);
      } else {
        KeyLine(text);
      }
    }
    if (pending_call_) {
      Fail("the file ends after a calls= line (line " + std::to_string(pending_line_) +
           "): the cost line of the call is missing");
    }
    return std::move(file_);
  }

 private:
  [[noreturn]] void Fail(const std::string& message) const {
    throw ProfError(Diagnostic{Rule::kInput, name_, lines_.line_number(), message});
  }

  static bool IsCostLine(std::string_view text) {
    const char c = text.front();
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
  }

  size_t PositionCount() const { return (file_.has_instr ? 1 : 0) + (file_.has_line ? 1 : 0); }

  // Reads the subpositions at the start of `words` into `out` (relative to the last cost line's).
  void Positions(const std::vector<std::string_view>& words, size_t first, uint64_t* out) {
    const size_t count = PositionCount();
    if (words.size() < first + count) {
      Fail("a position list needs " + std::to_string(count) + " subposition" +
           (count == 1 ? "" : "s") + " (positions:" + (file_.has_instr ? " instr" : "") +
           (file_.has_line ? " line" : "") + ")");
    }
    for (size_t i = 0; i < count; ++i) {
      std::string_view word = words[first + i];
      uint64_t value = 0;
      if (word == "*") {
        value = last_[i];
      } else if (word.front() == '+' || word.front() == '-') {
        uint64_t delta = 0;
        if (!ParseNumber(word.substr(1), &delta)) Fail("not a subposition: " + Printable(word));
        value = word.front() == '+' ? last_[i] + delta : last_[i] - delta;
      } else if (!ParseNumber(word, &value)) {
        Fail("not a subposition: " + Printable(word) + " (a number, +N, -N or *)");
      }
      out[i] = value;
    }
  }

  void CostLine(std::string_view text) {
    if (file_.graph == nullptr) Fail("a cost line before the events: line");
    const std::vector<std::string_view> words = Words(text);
    uint64_t positions[2] = {0, 0};
    Positions(words, 0, positions);
    const size_t count = PositionCount();
    if (words.size() - count > costs_.size()) {
      Fail(std::to_string(words.size() - count) + " costs on a line but " +
           std::to_string(costs_.size()) + " event" + (costs_.size() == 1 ? "" : "s") +
           " (events:): the positions: line and the cost columns disagree");
    }
    for (size_t i = 0; i < costs_.size(); ++i) {
      costs_[i] = 0;
      if (count + i >= words.size()) continue;
      // A cost is a count; pprof -callgrind writes a difference of profiles signed.
      std::string_view word = words[count + i];
      const bool negative = word.size() > 1 && word[0] == '-';
      if (negative) word.remove_prefix(1);
      uint64_t value = 0;
      if (!ParseNumber(word, &value)) {
        Fail("not a cost: " + Printable(words[count + i]) + " (a number)");
      }
      if (value > static_cast<uint64_t>(INT64_MAX)) Fail("a cost beyond 2^63-1");
      costs_[i] = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
    }
    last_[0] = positions[0];
    last_[1] = positions[1];
    positions_seen_ = true;
    if (!function_) Fail("a cost line before any fn= line");
    if (pending_call_) {
      file_.graph->AddCall(*function_, callee_, call_count_, costs_);
      pending_call_ = false;
      call_object_.reset();
      call_file_.reset();
      return;
    }
    file_.graph->AddSelf(*function_, costs_);
  }

  // `(ID) name`, `(ID)` or `name`, in the id space `names`.
  std::string Name(std::string_view value, std::unordered_map<uint64_t, std::string>* names) {
    value = Trim(value);
    if (value.size() < 2 || value[0] != '(' || value[1] < '0' || value[1] > '9') {
      return std::string(value);
    }
    const size_t close = value.find(')');
    uint64_t id = 0;
    if (close == std::string_view::npos || !ParseNumber(value.substr(1, close - 1), &id)) {
      Fail("a compressed name is (ID) NAME or (ID): " + Printable(value));
    }
    const std::string_view rest = Trim(value.substr(close + 1));
    const auto it = names->find(id);
    if (rest.empty()) {
      if (it == names->end()) Fail("name (" + std::to_string(id) + ") used before it is defined");
      return it->second;
    }
    if (it != names->end()) {
      if (it->second != rest) {
        Fail("name (" + std::to_string(id) + ") defined again as " + Printable(rest) + ", was " +
             Printable(it->second));
      }
      return it->second;
    }
    return names->emplace(id, std::string(rest)).first->second;
  }

  void Header(std::string_view key, std::string_view value) {
    if (key == "events") {
      std::vector<std::string> events;
      for (std::string_view word : Words(value)) events.emplace_back(word);
      if (events.empty()) Fail("events: names no event");
      if (events.size() > kMaxEvents) Fail("more than " + std::to_string(kMaxEvents) + " events");
      if (file_.graph != nullptr) {
        if (events != file_.events) Fail("events: differs from an earlier part's");
        return;
      }
      file_.events = std::move(events);
      file_.graph = std::make_unique<CallGraph>(file_.events.size());
      costs_.assign(file_.events.size(), 0);
    } else if (key == "positions") {
      bool instr = false, line = false;
      for (std::string_view word : Words(value)) {
        if (word == "instr") {
          instr = true;
        } else if (word == "line") {
          line = true;
        } else {
          Fail("positions: " + Printable(word) + " is not instr or line");
        }
      }
      if (!instr && !line) Fail("positions: names no position");
      if (positions_seen_ && (instr != file_.has_instr || line != file_.has_line)) {
        Fail("positions: changed after cost lines");
      }
      file_.has_instr = instr;
      file_.has_line = line;
    } else if (key == "summary" || key == "totals") {
      std::vector<int64_t>& costs = key == "summary" ? file_.summary : file_.totals;
      costs.clear();
      for (std::string_view word : Words(value)) {
        uint64_t v = 0;
        if (!ParseNumber(word, &v) || v > static_cast<uint64_t>(INT64_MAX)) {
          Fail(std::string(key) + ": " + Printable(word) + " is not a cost");
        }
        costs.push_back(static_cast<int64_t>(v));
      }
      if (costs.size() > kMaxEvents) Fail(std::string(key) + ": too many costs");
    } else if (key == "pid" || key == "thread" || key == "part") {
      uint64_t v = 0;
      if (!ParseNumber(Trim(value), &v) || v > static_cast<uint64_t>(INT64_MAX)) {
        Fail(std::string(key) + ": " + Printable(Trim(value)) + " is not a number");
      }
      if (key == "pid") file_.pid = static_cast<int64_t>(v);
      if (key == "thread") file_.thread = static_cast<int64_t>(v);
      if (key == "part") ++file_.parts;
    } else if (key == "cmd") {
      file_.cmd = std::string(Trim(value));
    } else if (key == "creator") {
      file_.creator = std::string(Trim(value));
    } else if (key == "version") {
      const std::string_view v = Trim(value);
      if (v != "1" && v != "0") Fail("version: " + Printable(v) + " (this reader knows 0 and 1)");
    }
    // desc:, event: (long names, inherited events: no raw data) and other keys say nothing
    // about costs.
  }

  void KeyLine(std::string_view text) {
    const size_t eq = text.find('=');
    const size_t colon = text.find(':');
    if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
      const std::string_view key = Trim(text.substr(0, colon));
      if (key.empty() || key.find_first_of(" \t") != std::string_view::npos) {
        Fail("not a line of the callgrind format: " + Printable(text));
      }
      Header(key, text.substr(colon + 1));
      return;
    }
    if (eq == std::string_view::npos)
      Fail("not a line of the callgrind format: " + Printable(text));
    const std::string_view key = text.substr(0, eq);
    const std::string_view value = text.substr(eq + 1);
    if (key == "fn") {
      if (file_.graph == nullptr) Fail("fn= before the events: line");
      function_ = file_.graph->Function(object_, Name(value, &functions_), function_file_);
    } else if (key == "fl") {
      function_file_ = file_name_ = Name(value, &files_);
    } else if (key == "fi" || key == "fe") {
      file_name_ = Name(value, &files_);  // inlined code: the function stays
    } else if (key == "ob") {
      object_ = Name(value, &objects_);
    } else if (key == "cob") {
      call_object_ = Name(value, &objects_);
    } else if (key == "cfi" || key == "cfl") {
      call_file_ = Name(value, &files_);
    } else if (key == "cfn") {
      call_function_ = Name(value, &functions_);
    } else if (key == "jfi") {
      Name(value, &files_);  // defines an id, for later lines
    } else if (key == "jfn") {
      Name(value, &functions_);
    } else if (key == "calls") {
      Call(value);
    } else if (key == "jump" || key == "jcnd") {
      ++file_.jumps;
    } else {
      Fail("not a line of the callgrind format: " + Printable(text));
    }
  }

  void Call(std::string_view value) {
    if (file_.graph == nullptr) Fail("calls= before the events: line");
    if (!function_) Fail("calls= before any fn= line");
    if (!call_function_) Fail("calls= without a cfn= line naming the function called");
    const std::vector<std::string_view> words = Words(value);
    if (words.empty() || !ParseNumber(words[0], &call_count_)) {
      Fail("calls= needs a call count: calls=COUNT TARGET");
    }
    uint64_t target[2];
    Positions(words, 1, target);  // checked; the target does not move the last position
    // Numbers past the target's positions are left, as KCachegrind leaves them (Xdebug writes
    // `calls=1 0 0` with `positions: line`).
    for (size_t i = 1 + PositionCount(); i < words.size(); ++i) {
      uint64_t ignored;
      if (!ParseNumber(words[i], &ignored)) {
        Fail("calls=: " + Printable(std::string(words[i])) + " is not a number");
      }
    }
    callee_ = file_.graph->Function(call_object_ ? *call_object_ : object_, *call_function_,
                                    call_file_ ? *call_file_ : file_name_);
    pending_call_ = true;
    pending_line_ = lines_.line_number();
  }

  std::string name_;
  LineReader lines_;
  CallgrindFile file_;
  std::vector<int64_t> costs_;
  std::unordered_map<uint64_t, std::string> objects_, files_, functions_;
  std::string object_, function_file_, file_name_;
  std::optional<uint32_t> function_;
  std::optional<std::string> call_object_, call_file_, call_function_;
  uint64_t last_[2] = {0, 0};
  bool positions_seen_ = false;
  bool pending_call_ = false;
  uint64_t pending_line_ = 0;
  uint64_t call_count_ = 0;
  uint32_t callee_ = 0;
};

}  // namespace

CallgrindFile ReadCallgrind(ByteStream* stream, const std::string& name) {
  return Parser(stream, name).Run();
}

}  // namespace proftools
