#include "common/firefox/gecko_json.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/firefox/fx_tables.h"

namespace proftools {
bool ReadSharedMeta(JsonDocument& json, std::string_view key, JsonValue field,
                    const std::string& at, FxProfile* profile) {
  if (key == "interval") {
    if (const auto error = field.get_double().get(profile->interval_ms)) {
      json.Fail(error, at, "a number");
    }
  } else if (key == "product") {
    profile->product = std::string(json.String(std::move(field), at));
  } else if (key == "categories") {
    size_t i = 0;
    for (auto element : json.Array(std::move(field), at)) {
      const std::string where = at + "[" + std::to_string(i++) + "]";
      std::string name;
      ForEachField(json, json.Object(JsonValue(std::move(element)), where), where,
                   [&](std::string_view name_key, JsonValue name_value) {
                     if (name_key == "name") {
                       name = std::string(json.String(std::move(name_value), where + ".name"));
                     }
                   });
      profile->categories.push_back(std::move(name));
    }
  } else if (key == "sampleUnits") {
    ForEachField(json, json.Object(std::move(field), at), at,
                 [&](std::string_view unit_key, JsonValue unit) {
                   if (unit_key == "threadCPUDelta") {
                     profile->cpu_unit =
                         std::string(json.String(std::move(unit), at + ".threadCPUDelta"));
                   }
                 });
  } else {
    return false;
  }
  return true;
}

namespace {

// What a process object holds, kept until the whole object is read (its meta may come after
// its threads).
struct RawThread {
  std::string what;
  uint64_t byte = 0;
  FxThreadNames names;
  bool has_process_type = false;
  std::optional<FxTable> samples, stacks, frames;
  std::vector<std::string> strings;
};

struct RawProcess {
  std::string what;
  uint64_t byte = 0;
  std::optional<int64_t> version;
  std::optional<double> start_ms;
  std::vector<FxLib> libs;
  std::vector<RawThread> threads;
};

bool ParseDigits(std::string_view text, int64_t* value) {
  if (text.empty() || text.size() > 12) return false;
  int64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  *value = n;
  return true;
}

bool ParseHex(std::string_view text, uint64_t* value) {
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' || text[1] != 'x') return false;
  uint64_t n = 0;
  for (const char c : text.substr(2)) {
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return false;
    n = n << 4 | static_cast<uint64_t>(digit);
  }
  *value = n;
  return true;
}

// "URL:LINE" or "URL:LINE:COLUMN", URL not empty.
bool ParseUrlLine(std::string_view text, std::string* url, int64_t* line, int64_t* column) {
  const size_t last = text.rfind(':');
  if (last == std::string_view::npos) return false;
  int64_t last_number = 0;
  if (!ParseDigits(text.substr(last + 1), &last_number)) return false;
  const std::string_view before = text.substr(0, last);
  const size_t previous = before.rfind(':');
  int64_t first_number = 0;
  if (previous != std::string_view::npos &&
      ParseDigits(before.substr(previous + 1), &first_number) && previous > 0) {
    *url = std::string(before.substr(0, previous));
    *line = first_number;
    *column = last_number;
    return true;
  }
  if (before.empty()) return false;
  *url = std::string(before);
  *line = last_number;
  *column = 0;
  return true;
}

std::vector<FxLib> ReadLibs(JsonDocument& json, JsonValue value, const std::string& what) {
  std::vector<FxLib> libs;
  for (auto element : json.Array(value, what)) {
    const std::string at = what + "[" + std::to_string(libs.size()) + "]";
    FxLib lib;
    std::string breakpad, code, name, pdb_signature;
    std::optional<uint64_t> pdb_age;
    ForEachField(json, json.Object(JsonValue(std::move(element)), at), at,
                 [&](std::string_view key, JsonValue field) {
                   const std::string where = at + "." + std::string(key);
                   if (key == "start") {
                     lib.start = json.Unsigned(std::move(field), where);
                   } else if (key == "end") {
                     lib.end = json.Unsigned(std::move(field), where);
                   } else if (key == "offset") {
                     lib.offset = json.Unsigned(std::move(field), where);
                   } else if (key == "path") {
                     lib.path = std::string(json.String(std::move(field), where));
                   } else if (key == "name") {
                     name = std::string(json.String(std::move(field), where));
                   } else if (key == "pdbSignature") {
                     pdb_signature = std::string(json.String(std::move(field), where));
                   } else if (key == "pdbAge") {
                     pdb_age = json.Unsigned(std::move(field), where);
                   } else if (key == "breakpadId") {
                     breakpad = std::string(json.String(std::move(field), where));
                   } else if (key == "codeId") {
                     ondemand::json_type type;
                     if (field.type().get(type) == simdjson::SUCCESS &&
                         type == ondemand::json_type::string) {
                       code = std::string(json.String(std::move(field), where));
                     }
                   }
                 });
    // Before version 4 a library's path was its `name`, and a Windows one had a PDB signature
    // and age where the others have a breakpad id: the id is made of them as the Firefox
    // Profiler's upgrader makes it (the signature's hex digits in upper case, then the age).
    if (lib.path.empty()) lib.path = name;
    if (breakpad.empty() && !pdb_signature.empty()) {
      for (const char c : pdb_signature) {
        if (c != '{' && c != '}' && c != '-') breakpad += static_cast<char>(std::toupper(c));
      }
      if (pdb_age) breakpad += std::to_string(*pdb_age);
    }
    // The ELF build id where Firefox gives it (codeId), as pprof and symbol servers know it.
    lib.build_id = code.empty() ? breakpad : code;
    libs.push_back(std::move(lib));
  }
  return libs;
}

RawThread ReadThread(JsonDocument& json, JsonValue value, const std::string& what) {
  RawThread thread;
  thread.what = what;
  thread.byte = json.Byte();
  ForEachField(json, json.Object(value, what), what, [&](std::string_view key, JsonValue field) {
    const std::string at = what + "." + std::string(key);
    if (ReadThreadNames(json, key, field, at, &thread.names)) {
      return;
    } else if (key == "processType") {
      thread.has_process_type = true;
    } else if (key == "samples") {
      thread.samples = ReadSchemaTable(json, std::move(field), at);
    } else if (key == "stackTable") {
      thread.stacks = ReadSchemaTable(json, std::move(field), at);
    } else if (key == "frameTable") {
      thread.frames = ReadSchemaTable(json, std::move(field), at);
    } else if (key == "stringTable") {
      thread.strings = ReadStringArray(json, std::move(field), at);
    }
  });
  return thread;
}

void ReadMeta(JsonDocument& json, JsonValue value, const std::string& what, RawProcess* process,
              FxProfile* profile, bool parent) {
  ForEachField(json, json.Object(value, what), what, [&](std::string_view key, JsonValue field) {
    const std::string at = what + "." + std::string(key);
    if (key == "version") {
      const int64_t version = json.Signed(std::move(field), at);
      if (version > kGeckoMaxVersion) {
        json.Fail("Gecko profile version " + std::to_string(version) +
                  " is newer than proftools reads (" + std::to_string(kGeckoMinVersion) + " to " +
                  std::to_string(kGeckoMaxVersion) + ")");
      }
      if (version < kGeckoMinVersion) {
        json.Fail("Gecko profile version " + std::to_string(version) +
                  " is older than proftools reads (" + std::to_string(kGeckoMinVersion) + " to " +
                  std::to_string(kGeckoMaxVersion) +
                  "): the Firefox Profiler has no upgrade for it either");
      }
      process->version = version;
    } else if (key == "startTime") {
      double ms = 0;
      if (const auto error = field.get_double().get(ms)) json.Fail(error, at, "a number");
      process->start_ms = ms;
    } else if (parent) {
      ReadSharedMeta(json, key, std::move(field), at, profile);
    }
  });
}

bool IsString(JsonValue& value) {
  ondemand::json_type type;
  return value.type().get(type) == simdjson::SUCCESS && type == ondemand::json_type::string;
}

RawProcess ReadEmbeddedProcess(JsonDocument& json, JsonValue value, const std::string& what,
                               FxProfile* profile);

RawProcess ReadProcess(JsonDocument& json, ondemand::object object, const std::string& what,
                       FxProfile* profile, std::vector<RawProcess>* children) {
  RawProcess process;
  process.what = what;
  process.byte = json.Byte();
  const bool parent = children != nullptr;
  const std::string prefix = what.empty() ? "" : what + ".";
  ForEachField(
      json, object, what.empty() ? "the profile" : what,
      [&](std::string_view key, JsonValue field) {
        const std::string at = prefix + std::string(key);
        if (key == "meta") {
          ReadMeta(json, std::move(field), at, &process, profile, parent);
        } else if (key == "libs") {
          if (IsString(field)) {
            // Before version 4: the array as JSON text.
            JsonDocument text(json.name() + ", in the string " + at,
                              json.String(std::move(field), at));
            process.libs = ReadLibs(text, JsonValue(text.doc().get_value()), at);
          } else {
            process.libs = ReadLibs(json, std::move(field), at);
          }
        } else if (key == "threads") {
          size_t i = 0;
          for (auto element : json.Array(std::move(field), at)) {
            const std::string where = at + "[" + std::to_string(i++) + "]";
            JsonValue value(std::move(element));
            if (!IsString(value)) {
              process.threads.push_back(ReadThread(json, std::move(value), where));
              continue;
            }
            // Before version 5 a child process's profile was JSON text among the threads.
            if (!parent) {
              json.Fail(where +
                        ": a child process inside a child process (Firefox "
                        "nests processes one level only)");
            }
            children->push_back(ReadEmbeddedProcess(json, std::move(value), where, profile));
          }
        } else if (key == "processes") {
          size_t i = 0;
          for (auto element : json.Array(std::move(field), at)) {
            const std::string child = at + "[" + std::to_string(i++) + "]";
            if (!parent) {
              json.Fail(child +
                        ": a child process inside a child process (Firefox "
                        "nests processes one level only)");
            }
            children->push_back(ReadProcess(json, json.Object(JsonValue(std::move(element)), child),
                                            child, profile, nullptr));
          }
        }
      });
  if (!process.version) {
    json.Fail(prefix + "meta.version: missing (a Gecko profile names its version)", process.byte);
  }
  if (!process.start_ms) {
    json.Fail(prefix + "meta.startTime: missing (the times of samples count from it)",
              process.byte);
  }
  return process;
}

// A child process's profile held as JSON text in the string `value` (Gecko profiles before
// version 5). Messages while it is read count bytes within the text; those about its tables,
// given when they are converted, point at the string in the file.
RawProcess ReadEmbeddedProcess(JsonDocument& json, JsonValue value, const std::string& what,
                               FxProfile* profile) {
  const uint64_t byte = json.Byte();
  JsonDocument text(json.name() + ", in the string " + what, json.String(std::move(value), what));
  ondemand::object object;
  if (const auto error = text.doc().get_object().get(object)) {
    text.Fail(error, what, "an object (a child process's profile)");
  }
  RawProcess child = ReadProcess(text, object, what, profile, nullptr);
  child.byte = byte;
  for (RawThread& thread : child.threads) {
    thread.byte = byte;
    for (std::optional<FxTable>* table : {&thread.samples, &thread.stacks, &thread.frames}) {
      if (*table) (*table)->byte = byte;
    }
  }
  return child;
}

// The lib whose [start, end) holds `address` (libs sorted by start), or -1.
int64_t LibOf(const std::vector<FxLib>& libs, const std::vector<size_t>& order, uint64_t address) {
  auto it = std::upper_bound(order.begin(), order.end(), address,
                             [&](uint64_t a, size_t i) { return a < libs[i].start; });
  if (it == order.begin()) return -1;
  --it;
  return address < libs[*it].end ? static_cast<int64_t>(*it) : -1;
}

// Before version 11 a frame's category was a bit of js/public/ProfilingStack.h's list; the
// Firefox Profiler's upgrader gives each the index of its category in kOldGeckoCategories, and
// Other to any other value.
constexpr int64_t kFirstNamedCategories = 11;
constexpr const char* kOldGeckoCategories[] = {"Idle",     "Other", "JavaScript", "Layout",
                                               "Graphics", "DOM",   "GC / CC",    "Network"};
int64_t OldGeckoCategory(int64_t bit) {
  switch (bit) {
    case 1 << 5:  // CSS
      return 3;
    case 1 << 6:  // JS
      return 2;
    case 1 << 7:  // GC
    case 1 << 8:  // CC
      return 6;
    case 1 << 9:  // NETWORK
      return 7;
    case 1 << 10:  // GRAPHICS
      return 4;
    default:  // OTHER, STORAGE, EVENTS and anything else
      return 1;
  }
}

void ConvertThread(JsonDocument& json, RawThread& raw, int64_t version, int64_t start_ns,
                   size_t lib_set, const std::vector<FxLib>& libs, const std::vector<size_t>& order,
                   size_t categories, FxProfile* profile) {
  if (!raw.samples) json.Fail(raw.what + ": no `samples`", raw.byte);
  if (!raw.stacks) json.Fail(raw.what + ": no `stackTable`", raw.byte);
  if (!raw.frames) json.Fail(raw.what + ": no `frameTable`", raw.byte);
  FxThread thread;
  thread.what = raw.what;
  thread.byte = raw.byte;
  thread.names = raw.names;
  // Early version 3 profiles named a tab's main thread "Content" and gave no processType; the
  // Firefox Profiler names it as Firefox later did.
  if (version < 4 && !raw.has_process_type && thread.names.name == "Content") {
    thread.names.name = "GeckoMain";
  }
  thread.libs = lib_set;

  const FxTable& frames = *raw.frames;
  frames.Require(json, "location");
  const int64_t strings = static_cast<int64_t>(raw.strings.size());
  thread.frames.resize(frames.length);
  for (uint64_t i = 0; i < frames.length; ++i) {
    FxFrame& frame = thread.frames[i];
    const int64_t location = *frames.Index(json, "location", i, 0, strings - 1, false);
    ParseGeckoLocation(raw.strings[static_cast<size_t>(location)], &frame);
    // Before version 14 the label frames where JS is entered were named "AutoEntryScript
    // REASON"; since, REASON (the upgrader strips the prefix).
    constexpr std::string_view kEntryPrefix = "AutoEntryScript ";
    if (version < 14 && !frame.address && frame.name.size() > kEntryPrefix.size() &&
        StartsWith(frame.name, kEntryPrefix)) {
      frame.name.erase(0, kEntryPrefix.size());
    }
    if (frame.address) frame.lib = LibOf(libs, order, *frame.address);
    if (const auto line = frames.Index(json, "line", i, 0, INT32_MAX, true)) frame.line = *line;
    if (const auto column = frames.Index(json, "column", i, 0, INT32_MAX, true)) {
      frame.column = *column;
    }
    if (version < kFirstNamedCategories) {
      if (const auto bit = frames.Index(json, "category", i, 0, INT64_MAX, true)) {
        frame.category = OldGeckoCategory(*bit);
      }
    } else if (const auto category = frames.Index(json, "category", i, 0,
                                                  static_cast<int64_t>(categories) - 1, true)) {
      frame.category = *category;
    }
  }

  const FxTable& stacks = *raw.stacks;
  stacks.Require(json, "frame");
  thread.stack_frame.resize(stacks.length);
  thread.stack_prefix.resize(stacks.length);
  for (uint64_t i = 0; i < stacks.length; ++i) {
    thread.stack_frame[i] =
        *stacks.Index(json, "frame", i, 0, static_cast<int64_t>(frames.length) - 1, false);
    const auto prefix = stacks.Index(json, "prefix", i, 0, INT64_MAX, true);
    if (prefix && *prefix >= static_cast<int64_t>(i)) {
      stacks.Fail(json,
                  "prefix[" + std::to_string(i) + "]: " + std::to_string(*prefix) +
                      " is not a stack before it (a stack's prefix comes first in the table)");
    }
    thread.stack_prefix[i] = prefix.value_or(-1);
  }

  const FxTable& samples = *raw.samples;
  samples.Require(json, "stack");
  samples.Require(json, "time");
  const bool cpu = samples.Has("threadCPUDelta");
  for (uint64_t i = 0; i < samples.length; ++i) {
    const auto stack =
        samples.Index(json, "stack", i, 0, static_cast<int64_t>(stacks.length) - 1, true);
    const auto time = samples.Number(json, "time", i);
    if (!time) samples.Fail(json, "time[" + std::to_string(i) + "]: null where a time belongs");
    thread.sample_stack.push_back(stack.value_or(-1));
    thread.sample_time.push_back(AddMillis(json, start_ns, *time, samples.what, "time", i));
    if (cpu) thread.sample_cpu.push_back(samples.Number(json, "threadCPUDelta", i).value_or(0));
  }
  profile->threads.push_back(std::move(thread));
}

void ConvertProcess(JsonDocument& json, RawProcess& process, FxProfile* profile) {
  const int64_t start_ns =
      EpochMillisToNanos(json, *process.start_ms, process.what + "meta.startTime");
  const size_t set = profile->lib_sets.size();
  profile->lib_sets.push_back(process.libs);
  std::vector<size_t> order(process.libs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return process.libs[a].start < process.libs[b].start;
  });
  for (RawThread& thread : process.threads) {
    ConvertThread(json, thread, *process.version, start_ns, set, process.libs, order,
                  profile->categories.size(), profile);
  }
}

}  // namespace

void ParseGeckoLocation(std::string_view location, FxFrame* frame) {
  uint64_t address = 0;
  if (ParseHex(location, &address)) {
    frame->address = address;
    return;  // no name: a bare address, for later symbolisation
  }
  // A JS function: "NAME (URL:LINE:COLUMN)" or "URL:LINE:COLUMN", then "[SOURCE INDEX]".
  std::string_view text = location;
  if (!text.empty() && text.back() == ']') {
    const size_t open = text.rfind('[');
    int64_t index = 0;
    if (open != std::string_view::npos &&
        ParseDigits(text.substr(open + 1, text.size() - open - 2), &index)) {
      text = text.substr(0, open);
    }
  }
  std::string url;
  int64_t line = 0, column = 0;
  if (!text.empty() && text.back() == ')') {
    const size_t open = text.rfind(" (");
    if (open != std::string_view::npos && open > 0 &&
        ParseUrlLine(text.substr(open + 2, text.size() - open - 3), &url, &line, &column)) {
      frame->name = std::string(text.substr(0, open));
      frame->file = url;
      frame->function_line = frame->line = line;
      frame->column = column;
      return;
    }
  } else if (text.find("://") != std::string_view::npos &&
             ParseUrlLine(text, &url, &line, &column)) {
    frame->name = std::string(text);  // an anonymous function: named by where it is
    frame->file = url;
    frame->function_line = frame->line = line;
    frame->column = column;
    return;
  }
  frame->name = location.empty() ? "(empty location)" : std::string(location);
}

void ReadGeckoProfile(JsonDocument& json, ondemand::object object, FxProfile* profile) {
  profile->format = "Gecko profile";
  std::vector<RawProcess> children;
  RawProcess parent = ReadProcess(json, object, "", profile, &children);
  profile->version = *parent.version;
  // (Categories a profile of an old version names anyway are not what its bits index.)
  if (*parent.version < kFirstNamedCategories) {
    profile->categories.assign(std::begin(kOldGeckoCategories), std::end(kOldGeckoCategories));
  }
  profile->start_ns = EpochMillisToNanos(json, *parent.start_ms, "meta.startTime");
  ConvertProcess(json, parent, profile);
  for (RawProcess& child : children) {
    child.what += ".";
    ConvertProcess(json, child, profile);
  }
}

}  // namespace proftools
