#include "common/firefox/processed_json.h"

#include <utility>

#include "common/base/diagnostics.h"
#include "common/firefox/fx_tables.h"
#include "common/firefox/gecko_json.h"

namespace proftools {
namespace {

// The tables a thread uses: its own, or (from version 60) the profile's shared ones.
struct Tables {
  std::optional<FxTable> samples, stacks, frames, funcs, resources, sources;
  std::optional<std::vector<std::string>> strings;
};

struct ProcessedThread {
  std::string what;
  uint64_t byte = 0;
  FxThreadNames names;
  Tables tables;
  std::optional<std::vector<FxLib>> libs;  // before version 41, each thread had its own
};

void ReadTable(JsonDocument& json, std::string_view key, JsonValue field, const std::string& at,
               Tables* tables) {
  if (key == "samples") {
    tables->samples = ReadColumnTable(json, std::move(field), at);
  } else if (key == "stackTable") {
    tables->stacks = ReadColumnTable(json, std::move(field), at);
  } else if (key == "frameTable") {
    tables->frames = ReadColumnTable(json, std::move(field), at);
  } else if (key == "funcTable") {
    tables->funcs = ReadColumnTable(json, std::move(field), at);
  } else if (key == "resourceTable") {
    tables->resources = ReadColumnTable(json, std::move(field), at);
  } else if (key == "sources") {
    tables->sources = ReadColumnTable(json, std::move(field), at);
  } else if (key == "stringArray") {
    tables->strings = ReadStringArray(json, std::move(field), at);
  }
}

std::vector<FxLib> ReadProcessedLibs(JsonDocument& json, JsonValue value, const std::string& what) {
  std::vector<FxLib> libs;
  for (auto element : json.Array(value, what)) {
    const std::string at = what + "[" + std::to_string(libs.size()) + "]";
    FxLib lib;
    std::string breakpad, code, name;
    ForEachField(
        json, json.Object(JsonValue(std::move(element)), at), at,
        [&](std::string_view key, JsonValue field) {
          const std::string where = at + "." + std::string(key);
          ondemand::json_type type;
          if (field.type().get(type) != simdjson::SUCCESS || type != ondemand::json_type::string) {
            return;  // codeId may be null; other fields are not read
          }
          if (key == "path") {
            lib.path = std::string(json.String(std::move(field), where));
          } else if (key == "name") {
            name = std::string(json.String(std::move(field), where));
          } else if (key == "breakpadId") {
            breakpad = std::string(json.String(std::move(field), where));
          } else if (key == "codeId") {
            code = std::string(json.String(std::move(field), where));
          }
        });
    if (lib.path.empty()) lib.path = name;
    lib.build_id = code.empty() ? breakpad : code;
    libs.push_back(std::move(lib));
  }
  return libs;
}

const FxTable& Need(JsonDocument& json, const ProcessedThread& thread,
                    const std::optional<FxTable>& own, const std::optional<FxTable>& shared,
                    const char* name) {
  if (own) return *own;
  if (shared) return *shared;
  json.Fail(thread.what + ": no `" + name + "`, in the thread or in `shared`", thread.byte);
}

int64_t Last(const FxTable& table) {
  return static_cast<int64_t>(table.length) - 1;
}

// Before version 38 a native frame's address was the return address the stack walk found
// (for a caller) or the instruction pointer (for a sample's own frame); since, a return address
// is one less, inside the call instruction, as pprof's locations want it too. As the Firefox
// Profiler's upgrader 38 does: the frames of stacks that are prefixes are return addresses and
// are nudged; a frame also used as a sample's own keeps a copy un-nudged, and a stack that is
// both a prefix and a sample's own gets a twin for its samples.
void NudgeReturnAddresses(FxThread* thread) {
  const size_t stack_count = thread->stack_frame.size();
  const size_t frame_count = thread->frames.size();
  std::vector<char> sampled(stack_count), prefix(stack_count);
  for (const int64_t stack : thread->sample_stack) {
    if (stack >= 0) sampled[static_cast<size_t>(stack)] = 1;
  }
  for (const int64_t p : thread->stack_prefix) {
    if (p >= 0) prefix[static_cast<size_t>(p)] = 1;
  }
  std::vector<char> ip(frame_count), returns(frame_count);
  for (size_t i = 0; i < stack_count; ++i) {
    const auto f = static_cast<size_t>(thread->stack_frame[i]);
    if (!thread->frames[f].address) continue;
    if (sampled[i]) ip[f] = 1;
    if (prefix[i]) returns[f] = 1;
  }
  std::vector<int64_t> ip_frame(frame_count, -1);
  for (size_t f = 0; f < frame_count; ++f) {
    if (!returns[f]) continue;
    if (ip[f]) {
      ip_frame[f] = static_cast<int64_t>(thread->frames.size());
      thread->frames.push_back(thread->frames[f]);
    }
    uint64_t& address = *thread->frames[f].address;
    if (address > 0) --address;
  }
  std::vector<int64_t> twin(stack_count, -1);
  for (size_t i = 0; i < stack_count; ++i) {
    const int64_t copy = ip_frame[static_cast<size_t>(thread->stack_frame[i])];
    if (copy < 0 || !sampled[i]) continue;
    if (!prefix[i]) {
      thread->stack_frame[i] = copy;
      continue;
    }
    twin[i] = static_cast<int64_t>(thread->stack_frame.size());
    thread->stack_frame.push_back(copy);
    thread->stack_prefix.push_back(thread->stack_prefix[i]);
  }
  for (int64_t& stack : thread->sample_stack) {
    if (stack >= 0 && twin[static_cast<size_t>(stack)] >= 0)
      stack = twin[static_cast<size_t>(stack)];
  }
}

void ConvertThread(JsonDocument& json, ProcessedThread& raw, const Tables& shared, int64_t version,
                   FxProfile* profile) {
  FxThread thread;
  thread.what = raw.what;
  thread.byte = raw.byte;
  thread.names = raw.names;
  if (raw.libs) {
    thread.libs = profile->lib_sets.size();
    profile->lib_sets.push_back(std::move(*raw.libs));
  }
  const Tables& own = raw.tables;
  if (!own.samples) json.Fail(raw.what + ": no `samples`", raw.byte);
  const FxTable& samples = *own.samples;
  const FxTable& stacks = Need(json, raw, own.stacks, shared.stacks, "stackTable");
  const FxTable& frames = Need(json, raw, own.frames, shared.frames, "frameTable");
  const FxTable& funcs = Need(json, raw, own.funcs, shared.funcs, "funcTable");
  const FxTable* resources = own.resources      ? &*own.resources
                             : shared.resources ? &*shared.resources
                                                : nullptr;
  const FxTable* sources = shared.sources ? &*shared.sources : nullptr;
  const std::vector<std::string>* strings = own.strings      ? &*own.strings
                                            : shared.strings ? &*shared.strings
                                                             : nullptr;
  if (strings == nullptr) {
    json.Fail(raw.what + ": no `stringArray`, in the thread or in `shared`", raw.byte);
  }
  const int64_t last_string = static_cast<int64_t>(strings->size()) - 1;
  const int64_t libs = static_cast<int64_t>(profile->lib_sets[thread.libs].size());

  // Functions, then the frames that point at them.
  funcs.Require(json, "name");
  std::vector<FxFrame> functions(funcs.length);
  for (uint64_t i = 0; i < funcs.length; ++i) {
    FxFrame& f = functions[i];
    f.name = (*strings)[*funcs.Index(json, "name", i, 0, last_string, false)];
    if (f.name.empty()) f.name = "(empty name)";
    if (const auto file = funcs.Index(json, "fileName", i, 0, last_string, true)) {
      f.file = (*strings)[*file];
    } else if (const auto source =
                   funcs.Index(json, "source", i, 0, sources ? Last(*sources) : -1, true)) {
      if (const auto file = sources->Index(json, "filename", *source, 0, last_string, true)) {
        f.file = (*strings)[*file];
      }
    }
    if (const auto line = funcs.Index(json, "lineNumber", i, 0, INT32_MAX, true)) {
      f.function_line = f.line = *line;
    }
    if (const auto column = funcs.Index(json, "columnNumber", i, 0, INT32_MAX, true)) {
      f.column = *column;
    }
    if (resources != nullptr && version < 70) {
      const auto resource = funcs.Index(json, "resource", i, -1, Last(*resources), true);
      if (resource && *resource >= 0) {
        // (-1: no lib, as versions before 41 wrote it.)
        const auto lib = resources->Index(json, "lib", *resource, -1, libs - 1, true);
        if (lib && *lib >= 0) f.lib = *lib;
      }
    }
  }
  frames.Require(json, "func");
  const int64_t categories = static_cast<int64_t>(profile->categories.size());
  thread.frames.resize(frames.length);
  for (uint64_t i = 0; i < frames.length; ++i) {
    FxFrame& frame = thread.frames[i];
    frame = functions[*frames.Index(json, "func", i, 0, Last(funcs), false)];
    const auto address = frames.Index(json, "address", i, -1, INT64_MAX, true);
    if (address && *address >= 0) frame.address = static_cast<uint64_t>(*address);
    // An unsymbolicated frame: its function is named by its address, as the profiler names it
    // (prof2firefox too, also for addresses a frame cannot hold); the location keeps the
    // address alone, for later symbolisation.
    FxFrame bare;
    ParseGeckoLocation(frame.name, &bare);
    if (bare.address && (!frame.address || bare.address == frame.address)) {
      frame.address = bare.address;
      frame.name.clear();
    }
    if (const auto lib = frames.Index(json, "lib", i, -1, libs - 1, true)) frame.lib = *lib;
    if (const auto line = frames.Index(json, "line", i, 0, INT32_MAX, true)) frame.line = *line;
    if (const auto column = frames.Index(json, "column", i, 0, INT32_MAX, true)) {
      frame.column = *column;
    }
    if (const auto category = frames.Index(json, "category", i, 0, categories - 1, true)) {
      frame.category = *category;
    }
  }

  stacks.Require(json, "frame");
  const bool offsets = !stacks.Has("prefix") && stacks.Has("prefixOffset");
  thread.stack_frame.resize(stacks.length);
  thread.stack_prefix.resize(stacks.length);
  for (uint64_t i = 0; i < stacks.length; ++i) {
    thread.stack_frame[i] = *stacks.Index(json, "frame", i, 0, Last(frames), false);
    int64_t prefix = -1;
    if (offsets) {
      // k > 0: the stack k rows before; 0: a root.
      const int64_t k = *stacks.Index(json, "prefixOffset", i, 0, static_cast<int64_t>(i), false);
      prefix = k == 0 ? -1 : static_cast<int64_t>(i) - k;
    } else if (const auto p = stacks.Index(json, "prefix", i, 0, INT64_MAX, true)) {
      if (*p >= static_cast<int64_t>(i)) {
        stacks.Fail(json, "prefix[" + std::to_string(i) + "]: " + std::to_string(*p) +
                              " is not a stack before it (a stack's prefix comes first in the "
                              "table)");
      }
      prefix = *p;
    }
    thread.stack_prefix[i] = prefix;
  }

  samples.Require(json, "stack");
  const bool deltas = !samples.Has("time");
  if (deltas) samples.Require(json, "timeDeltas");
  const auto type = samples.strings.find("weightType");
  const std::string weight_type = type == samples.strings.end() ? "samples" : type->second;
  if (weight_type == "tracing-ms") {
    thread.weight = FxWeight::kTracingMs;
  } else if (weight_type == "bytes") {
    thread.weight = FxWeight::kBytes;
  } else if (weight_type != "samples") {
    samples.Fail(json, "weightType " + weight_type +
                           ": not a weight type of the format (samples, tracing-ms, bytes)");
  }
  // Before version 29 the weight column was `duration` (profiles made by diffing).
  const char* const weight_column =
      !samples.Has("weight") && version < 29 && samples.Has("duration") ? "duration" : "weight";
  const bool weights = samples.Has(weight_column);
  const bool cpu = samples.Has("threadCPUDelta");
  int64_t base = profile->start_ns;
  // The table's columns were read and hold `length` cells each.
  thread.sample_stack.reserve(samples.length);
  thread.sample_time.reserve(samples.length);
  if (weights) thread.sample_weight.reserve(samples.length);
  if (cpu) thread.sample_cpu.reserve(samples.length);
  for (uint64_t i = 0; i < samples.length; ++i) {
    const auto stack = samples.Index(json, "stack", i, 0, Last(stacks), true);
    thread.sample_stack.push_back(stack.value_or(-1));
    const char* const time_column = deltas ? "timeDeltas" : "time";
    const auto time = samples.Number(json, time_column, i);
    if (!time) samples.Fail(json, time_column + ("[" + std::to_string(i) + "]: null"));
    const int64_t t = AddMillis(json, base, *time, samples.what, time_column, i);
    if (deltas) base = t;
    thread.sample_time.push_back(t);
    if (weights) {
      thread.sample_weight.push_back(samples.Number(json, weight_column, i).value_or(1));
    }
    if (cpu) thread.sample_cpu.push_back(samples.Number(json, "threadCPUDelta", i).value_or(0));
  }
  if (version < 38) NudgeReturnAddresses(&thread);
  profile->threads.push_back(std::move(thread));
}

}  // namespace

void ReadProcessedProfile(JsonDocument& json, ondemand::object object, FxProfile* profile) {
  profile->format = "processed profile";
  std::optional<int64_t> version;
  std::optional<double> start_ms;
  Tables shared;
  std::vector<ProcessedThread> threads;
  profile->lib_sets.emplace_back();
  ForEachField(json, object, "the profile", [&](std::string_view key, JsonValue field) {
    const std::string at(key);
    if (key == "meta") {
      ForEachField(json, json.Object(std::move(field), "meta"), "meta",
                   [&](std::string_view meta_key, JsonValue value) {
                     const std::string where = "meta." + std::string(meta_key);
                     if (meta_key == "preprocessedProfileVersion") {
                       version = json.Signed(std::move(value), where);
                       const std::string range = std::to_string(kProcessedMinVersion) + " to " +
                                                 std::to_string(kProcessedMaxVersion);
                       if (*version > kProcessedMaxVersion) {
                         json.Fail("processed profile version " + std::to_string(*version) +
                                   " is newer than proftools reads (" + range + ")");
                       }
                       if (*version < kProcessedMinVersion) {
                         json.Fail("processed profile version " + std::to_string(*version) +
                                   " is older than proftools reads (" + range +
                                   "): the Firefox Profiler upgrades it; save it from there");
                       }
                     } else if (meta_key == "startTime") {
                       double ms = 0;
                       if (const auto error = value.get_double().get(ms)) {
                         json.Fail(error, where, "a number");
                       }
                       start_ms = ms;
                     } else {
                       ReadSharedMeta(json, meta_key, std::move(value), where, profile);
                     }
                   });
    } else if (key == "libs") {
      profile->lib_sets[0] = ReadProcessedLibs(json, std::move(field), at);
    } else if (key == "shared") {
      ForEachField(json, json.Object(std::move(field), at), at,
                   [&](std::string_view table, JsonValue value) {
                     ReadTable(json, table, std::move(value), "shared." + std::string(table),
                               &shared);
                   });
    } else if (key == "threads") {
      size_t i = 0;
      for (auto element : json.Array(std::move(field), at)) {
        ProcessedThread thread;
        thread.what = "threads[" + std::to_string(i++) + "]";
        thread.byte = json.Byte();
        ForEachField(json, json.Object(JsonValue(std::move(element)), thread.what), thread.what,
                     [&](std::string_view thread_key, JsonValue value) {
                       const std::string where = thread.what + "." + std::string(thread_key);
                       if (thread_key == "libs") {
                         thread.libs = ReadProcessedLibs(json, std::move(value), where);
                       } else if (!ReadThreadNames(json, thread_key, value, where, &thread.names)) {
                         ReadTable(json, thread_key, std::move(value), where, &thread.tables);
                       }
                     });
        threads.push_back(std::move(thread));
      }
    }
  });
  if (!version) json.Fail("meta.preprocessedProfileVersion: missing", 1);
  if (!start_ms) json.Fail("meta.startTime: missing (the times of samples count from it)", 1);
  profile->version = *version;
  profile->start_ns = EpochMillisToNanos(json, *start_ms, "meta.startTime");
  for (ProcessedThread& thread : threads) ConvertThread(json, thread, shared, *version, profile);
}

}  // namespace proftools
