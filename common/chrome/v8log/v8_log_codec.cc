#include "common/chrome/v8log/v8_log_codec.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/base/utf8.h"
#include "common/chrome/v8log/v8_code_names.h"
#include "common/chrome/v8log/v8_preprocessed.h"
#include "common/elf/elf_function_symbols.h"
#include "common/elf/symbol_names.h"
#include "common/io/byte_stream.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

// A field as V8's log writes it (log-utils.cc): commas as \x2C, backslashes doubled, newlines
// as \n, other unprintable bytes as \xHH, two-byte characters as \uHHHH.
std::string Unescape(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c != '\\' || i + 1 == field.size()) {
      out += c;
      continue;
    }
    const char kind = field[i + 1];
    const size_t digits = kind == 'x' ? 2 : kind == 'u' ? 4 : 0;
    uint64_t code = 0;
    if (digits != 0 && i + 2 + digits <= field.size() &&
        ParseHexDigits(field.substr(i + 2, digits), &code)) {
      if (kind == 'x') {
        out += static_cast<char>(code);
      } else {
        AppendUtf8(static_cast<uint32_t>(code), &out);
      }
      i += 1 + digits;
    } else if (kind == 'n') {
      out += '\n';
      ++i;
    } else {
      out += kind;  // "\\" and anything else escaped
      ++i;
    }
  }
  return out;
}

// What code-creation says of a piece of code.
struct Code {
  uint64_t size = 0;
  std::string type;       // "JS", "Builtin", "BytecodeHandler", ...
  std::string name;       // as logged (unescaped)
  bool js = false;        // a JS function's code (with its SharedFunctionInfo's address)
  uint64_t location = 0;  // its location, once made
};

struct Library {
  std::string path;
  uint64_t start = 0, end = 0, slide = 0;
  bool loaded = false;
  std::unique_ptr<ElfFunctionTable> functions;  // null: not readable
  uint64_t mapping = 0;
  std::unordered_map<size_t, uint64_t> function_locations;   // by function index
  std::unordered_map<uint64_t, uint64_t> address_locations;  // unsymbolised, by address
};

class V8LogReader {
 public:
  V8LogReader(Input& input, const ReadContext& context, ProfileSink* sink)
      : input_(input), context_(context), sink_(sink), interner_(sink) {
    for (const auto& [key, value] : context.settings) {
      if (key == "symfs") symfs_ = value;
    }
  }

  void Read() {
    LineReader lines(input_.stream.get(), LineReader::kDefaultMaxLine, input_.name);
    std::string_view line;
    std::vector<std::string_view> fields;
    while (lines.Next(&line)) {
      line_ = lines.line_number();
      Split(line, &fields);
      const std::string_view event = fields[0];
      if (event == "tick") {
        Tick(fields);
      } else if (event == "code-creation") {
        CodeCreation(fields);
      } else if (event == "code-move") {
        Need(fields, 3);
        CodeMove(Hex(fields[1]), Hex(fields[2]));
      } else if (event == "code-delete") {
        Need(fields, 2);
        code_.erase(Hex(fields[1]));
      } else if ((event == "script-source" || event == "script-details") && fields.size() >= 3) {
        scripts_.insert(Unescape(fields[2]));
      } else if (event == "shared-library") {
        SharedLibrary(fields);
      } else if (event == "profiler" && fields.size() >= 3 && fields[1] == "begin") {
        interval_us_ = Decimal(fields[2]);
        if (interval_us_ == 0) Fail("profiler,begin with a sampling interval of 0");
      } else if (event == "v8-version" && !header_sent_ && !HasMeta("v8.version")) {
        std::string version;
        for (size_t i = 1; i + 1 < fields.size() && i <= 4; ++i) {
          version += (i > 1 ? "." : "") + std::string(fields[i]);
        }
        if (fields.size() > 5) version += std::string(fields[5]);  // "-node.38"
        meta_.push_back({"v8.version", version});
      } else if (event == "v8-platform" && !header_sent_ && fields.size() >= 2 &&
                 !HasMeta("v8.platform")) {
        meta_.push_back({"v8.platform", Unescape(fields[1])});
      }
    }
    if (!header_sent_) {
      if (!context_.allow_empty) {
        throw ProfError(input_.name, "a V8 log without ticks (was it recorded with --prof?)");
      }
      SendHeader();
    }
    if (!unreadable_.empty()) {
      context_.Warn(
          input_.name,
          "libraries the log names that could not be read from this machine (their "
          "frames stay addresses in their mappings): " +
              unreadable_ +
              (unreadable_count_ > 10 ? " and " + std::to_string(unreadable_count_ - 10) + " more"
                                      : ""));
    }
    sink_->OnEnd();
  }

 private:
  // Whether the log gave this meta entry already (a log of several isolates, or appended to,
  // repeats its first lines: the first is kept).
  bool HasMeta(const char* key) const {
    for (const MetaEntry& entry : meta_) {
      if (entry.key == key) return true;
    }
    return false;
  }

  [[noreturn]] void Fail(const std::string& what) const {
    throw ProfError(Diagnostic{Rule::kInput, input_.name, line_, what});
  }
  void Need(const std::vector<std::string_view>& fields, size_t n) const {
    if (fields.size() < n) {
      Fail(std::string(fields[0]) + " with " + std::to_string(fields.size() - 1) +
           " fields, where it has " + std::to_string(n - 1));
    }
  }
  uint64_t Hex(std::string_view text) const {
    uint64_t value = 0;
    if (!ParseHex(text, &value))
      Fail("not a hexadecimal address: " + Printable(text.substr(0, 40)));
    return value;
  }
  uint64_t Decimal(std::string_view text) const {
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      Fail("not a number: " + Printable(text.substr(0, 40)));
    }
    return value;
  }

  static void Split(std::string_view line, std::vector<std::string_view>* fields) {
    fields->clear();
    size_t from = 0;
    while (true) {
      const size_t comma = line.find(',', from);
      fields->push_back(line.substr(from, comma == std::string_view::npos ? comma : comma - from));
      if (comma == std::string_view::npos) return;
      from = comma + 1;
    }
  }

  void SendHeader() {
    sink_->OnHeader(V8TicksHeader(context_.uri, static_cast<int64_t>(interval_us_), meta_));
    header_sent_ = true;
  }

  // code-creation,TYPE,KIND,TIMESTAMP,ADDRESS,SIZE,NAME[,SFI_ADDRESS,STATE]
  void CodeCreation(const std::vector<std::string_view>& fields) {
    Need(fields, 7);
    Code code;
    code.type = Unescape(fields[1]);
    const uint64_t start = Hex(fields[4]);
    code.size = Decimal(fields[5]);
    // A JS function's code ends with its SharedFunctionInfo's address and its tier mark; the
    // name before them may hold commas V8 left unescaped ("weird name, with comma").
    const size_t n = fields.size();
    code.js = n >= 9 && StartsWith(fields[n - 2], "0x") && fields[n - 1].size() <= 1;
    const size_t name_end = code.js ? n - 2 : n;
    std::string name(fields[6]);
    for (size_t i = 7; i < name_end; ++i) name += "," + std::string(fields[i]);
    code.name = Unescape(name);
    Place(start, std::move(code));
  }

  // Code at `start` replaces every code it overlaps (V8 reuses freed space), as the tick
  // processor's CodeMap.addCode deletes the nodes it covers.
  void Place(uint64_t start, Code code) {
    const uint64_t end = start + code.size < start ? UINT64_MAX : start + code.size;
    auto it = code_.lower_bound(start);
    if (it != code_.begin()) {
      auto before = std::prev(it);
      if (before->first + before->second.size > start) code_.erase(before);
    }
    while (it != code_.end() && it->first < end) it = code_.erase(it);
    code_[start] = std::move(code);
  }

  void CodeMove(uint64_t from, uint64_t to) {
    const auto it = code_.find(from);
    if (it == code_.end()) return;  // code the log never created (before the profiler began)
    Code code = std::move(it->second);
    code_.erase(it);
    Place(to, std::move(code));
  }

  // shared-library,PATH,START,END,ASLR_SLIDE
  void SharedLibrary(const std::vector<std::string_view>& fields) {
    Need(fields, 4);
    Library library;
    library.path = Unescape(fields[1]);
    library.start = Hex(fields[2]);
    library.end = Hex(fields[3]);
    if (fields.size() >= 5 && !fields[4].empty()) {  // decimal (V8 prints it with %d)
      library.slide = StartsWith(fields[4], "0x") ? Hex(fields[4]) : Decimal(fields[4]);
    }
    if (library.end <= library.start) return;
    // node logs its binary once a mapping, from one start: the widest is kept. Libraries are
    // found by start (a log can name many: lookups must not scan them all).
    const auto [it, added] = libraries_.emplace(library.start, Library());
    if (added || (!it->second.loaded && library.end > it->second.end)) {
      it->second = std::move(library);
    }
  }

  // The code containing `address`, or null.
  Code* FindCode(uint64_t address) {
    auto it = code_.upper_bound(address);
    if (it == code_.begin()) return nullptr;
    --it;
    return address - it->first < it->second.size ? &it->second : nullptr;
  }

  // The library containing `address`: the one starting last at or before it, or null.
  Library* FindLibrary(uint64_t address) {
    auto it = libraries_.upper_bound(address);
    if (it == libraries_.begin()) return nullptr;
    --it;
    return address < it->second.end ? &it->second : nullptr;
  }

  uint64_t CodeLocation(Code* code) {
    if (code->location == 0) {
      code->location = code->js ? JsLocation(&interner_, code->name, scripts_)
                                : NamedLocation(&interner_, code->type + ": " + code->name);
    }
    return code->location;
  }

  uint64_t LibraryLocation(Library* library, uint64_t address) {
    if (!library->loaded) {
      library->loaded = true;
      try {
        library->functions = std::make_unique<ElfFunctionTable>(
            ReadElfFunctions(symfs_ + library->path, AliasChoice::kFirstByName));
      } catch (const ProfError&) {
        if (!library->path.empty() && library->path[0] != '[') {  // [vdso] has no file
          if (++unreadable_count_ <= 10) {
            unreadable_ += (unreadable_.empty() ? "" : ", ") + library->path;
          }
        }
      }
      Mapping mapping;
      mapping.start = library->start;
      mapping.limit = library->end;
      mapping.file = library->path;
      mapping.has_functions = library->functions != nullptr;
      library->mapping = interner_.Mapping(mapping);
    }
    // As the tick processor places a library's symbols: a shared object's from its start,
    // an executable's at their addresses (moved by the ASLR slide).
    if (library->functions != nullptr) {
      const uint64_t base =
          library->functions->position_independent ? library->start : library->slide;
      // Within the symbol's own size, as the tick processor takes nm's sizes: past it (padding,
      // code the table does not describe) is the library's.
      const ElfFunction* function = library->functions->Find(address - base);
      if (function != nullptr && function->size != 0 &&
          address - base >= function->start + function->size) {
        function = nullptr;
      }
      if (function != nullptr) {
        const size_t index = static_cast<size_t>(function - library->functions->functions.data());
        const auto it = library->function_locations.find(index);
        if (it != library->function_locations.end()) return it->second;
        SymbolName names = DemangleSymbol(function->name);
        Function f;
        f.name = std::move(names.name);
        f.system_name = std::move(names.system_name);
        Location location;
        location.mapping_id = library->mapping;
        location.address = function->start + base;
        location.lines.push_back(Line{interner_.Function(f), 0, 0});
        return library->function_locations[index] = interner_.Location(location);
      }
    }
    const auto it = library->address_locations.find(address);
    if (it != library->address_locations.end()) return it->second;
    Location location;
    location.mapping_id = library->mapping;
    location.address = address;
    return library->address_locations[address] = interner_.Location(location);
  }

  // The location of `address`; 0 when nothing holds it.
  uint64_t Resolve(uint64_t address) {
    if (Code* code = FindCode(address)) return CodeLocation(code);
    if (Library* library = FindLibrary(address)) return LibraryLocation(library, address);
    return 0;
  }

  // tick,PC,TIME_US,IS_EXTERNAL_CALLBACK,TOS_OR_EXTERNAL_CALLBACK,VM_STATE,STACK...
  void Tick(const std::vector<std::string_view>& fields) {
    Need(fields, 6);
    if (!header_sent_) SendHeader();
    uint64_t pc = Hex(fields[1]);
    const uint64_t time_us = Decimal(fields[2]);
    const bool external = fields[3] == "1";
    uint64_t tos = Hex(fields[4]);
    const uint64_t state = Decimal(fields[5]);
    if (external) {
      // In an external callback the pc may point into the callback's code: the tick
      // processor takes the callback's address instead.
      pc = tos;
      tos = 0;
    } else if (tos != 0) {
      const Code* code = FindCode(tos);
      if (code == nullptr || !code->js) tos = 0;  // not a frameless call into JS
    }
    stack_.clear();
    const uint64_t top = Resolve(pc);
    if (top != 0) {
      stack_.push_back(top);
    } else {
      Location location;
      location.address = pc;
      stack_.push_back(interner_.Location(location));
    }
    if (tos != 0) stack_.push_back(Resolve(tos));
    uint64_t previous = pc;
    for (size_t i = 6; i < fields.size(); ++i) {
      const std::string_view frame = fields[i];
      uint64_t address = 0;
      if (!frame.empty() && (frame[0] == '+' || frame[0] == '-')) {
        // An offset from the frame before (older V8s).
        uint64_t offset = 0;
        if (!ParseHexDigits(frame.substr(1), &offset)) {
          Fail("not a hexadecimal offset: " + Printable(frame.substr(0, 40)));
        }
        address = frame[0] == '+' ? previous + offset : previous - offset;
      } else if (!frame.empty() && frame[0] == 'o') {
        continue;  // "overflow": the stack was cut
      } else {
        address = Hex(frame);
      }
      previous = address;
      if (const uint64_t location = Resolve(address)) stack_.push_back(location);
    }
    Sample sample;
    sample.source_id = 1;
    sample.stack_id = interner_.Stack(stack_);
    if (time_us > static_cast<uint64_t>(INT64_MAX / 1000)) Fail("a tick's time is past 2^63 ns");
    sample.time_nanos = static_cast<int64_t>(time_us) * 1000;
    sample.values = {1, static_cast<int64_t>(interval_us_)};
    sample.labels.push_back(VmStateLabel(state));
    sink_->OnSample(sample);
  }

  Input& input_;
  const ReadContext& context_;
  ProfileSink* sink_;
  Interner interner_;
  std::string symfs_;
  uint64_t line_ = 0;
  uint64_t interval_us_ = 1000;  // V8's --prof_sampling_interval default
  bool header_sent_ = false;
  std::vector<MetaEntry> meta_;
  std::map<uint64_t, Code> code_;            // by start address
  std::unordered_set<std::string> scripts_;  // the scripts' names (script-source)
  std::map<uint64_t, Library> libraries_;    // by start
  std::string unreadable_;                   // the first ten
  uint64_t unreadable_count_ = 0;
  std::vector<uint64_t> stack_;
};

void ReadV8LogInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  if (LooksV8Preprocessed(input.head)) {
    JsonDocument json(input, context.max_input_size, "JSON");
    ReadV8Preprocessed(json, context, sink);
    return;
  }
  V8LogReader(input, context, sink).Read();
}

int SniffV8Log(std::string_view head, bool text) {
  if (!text) return kNotMine;
  return StartsWith(head, "v8-version,") || LooksV8Preprocessed(head) ? kCertain : kNotMine;
}

}  // namespace

const ReaderSpec kV8LogReader = {
    "v8-log",       "a V8 tick log (node --prof)", ReaderShape::kStreaming, nullptr, SniffV8Log,
    ReadV8LogInput,
};

}  // namespace proftools
