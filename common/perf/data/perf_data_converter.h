// Converting a perf.data file (perf record's binary format, file or pipe mode) into a profile,
// symbolised here with elfutils rather than by `perf script`: the same profile as
// `perf script -F +pid,+srcline --inline --show-mmap-events | perf2prof` (man/man1/perf2prof.1 says
// where it differs: nanosecond times, build ids on mappings, whole source paths).
//
// - value types and the default type as perf2prof names them (perf_converter.h), from the
//   recording's events (named by its event-description feature) and the sample counts a first
//   pass over the records takes;
// - records in perf's order: those with a time are queued and delivered sorted by time, each
//   FINISHED_ROUND releasing what is older than the round before it (perf's ordered events), so
//   that a sample sees the mappings and command names perf script shows it with;
// - a sample's frames: its call chain (PERF_CONTEXT_* markers say kernel or user), else its ip;
//   a user frame's location is at its runtime address in the mapping of its process, with the
//   functions (inlined first), files and lines of the object at that file offset
//   (common/elf/elf_symbolizer.h); a kernel frame's function comes from /proc/kallsyms when the
//   running kernel is the recording's; a frame no mapping holds, or no symbol covers, is a
//   location without function, as perf's `[unknown]`;
// - labels comm, pid, tid and cpu (when the event recorded it).
//
// Memory grows with mappings, objects' symbols and distinct frames and stacks, not with samples:
// the input is mapped (common/io/mapped_input.h), not read into the heap.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_CONVERTER_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_CONVERTER_H_

#include <optional>
#include <string>
#include <vector>

#include "common/io/input.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct PerfDataOptions {
  bool symbolize = true;                    // false: addresses and mappings only (--no-symbolize)
  bool inlines = true;                      // inlined frames from DWARF
  std::string symfs;                        // --symfs: a root the recording's paths are under
  std::vector<std::string> debug_dirs;      // --debug-dir
  std::string kallsyms = "/proc/kallsyms";  // the kernel's symbols, used when they match
  bool kallsyms_given = false;              // --kallsyms: used whatever kernel runs here
  bool off_cpu = false;                     // perf2prof --off-cpu (perf_offcpu.h)
  std::optional<int64_t> period;  // perf2prof --period (a sample's worth without a period)
  bool period_is_time = false;
};

// Reads the perf.data `input` into `sink`. Throws ProfError (with the byte offset) for input
// that is not a perf.data file this reader reads, or that is cut short or inconsistent.
void ReadPerfData(Input& input, const ReadContext& context, const PerfDataOptions& options,
                  ProfileSink* sink);

// The options perf2prof gives the registry's reader (ReadContext::settings): symfs, debug-dir
// (repeated), kallsyms, symbolize=no, inline=no, off-cpu, period, period-is-time.
PerfDataOptions PerfDataOptionsFrom(const ReaderSettings& settings);

// Whether `head` starts a perf.data file (PERFILE2, or perf's first format PERFFILE).
bool LooksLikePerfData(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_CONVERTER_H_
