// Symbols, source lines and inlined frames of addresses in ELF objects, with elfutils' libdwfl:
// function names from .symtab (else .dynsym), file and line from DWARF's line table, and the
// functions inlined at an address from DWARF's inlined-subroutine entries, as
// `perf script -F +srcline --inline` and addr2line -i show them.
//
// An object is looked up by build id first (perf's cache, ~/.debug/.build-id/XX/REST/elf, and
// each --debug-dir's .build-id), then at its path. Under --symfs (another machine's root) the
// path and the system debug directory are that root's, and this machine's cache is not used. A file
// whose build id differs from the one the recording gives is never used: its frames would be
// another program's. Separate debug files are found by libdwfl's standard rules (build id under the
// debug directories, then .gnu_debuglink), so Debian's -dbgsym packages give lines and inlines.
// Objects are untrusted input: libdwfl checks what it reads, and a corrupt object gives no
// symbols, never a crash.
#ifndef PROFTOOLS_COMMON_ELF_ELF_SYMBOLIZER_H_
#define PROFTOOLS_COMMON_ELF_ELF_SYMBOLIZER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace proftools {

struct ElfSymbolizerOptions {
  std::string symfs;                    // a root the objects' paths are under ("" for /)
  std::vector<std::string> debug_dirs;  // searched before /usr/lib/debug
  bool lines = true;                    // file and line from DWARF
  bool inlines = true;                  // inlined frames from DWARF
};

// One function at an address: innermost first in a list, the last being the function the
// others are inlined into.
struct ElfFrame {
  std::string function;  // as the object has it (mangled when it is); "" when unknown
  std::string file;      // "" when DWARF says nothing
  int64_t line = 0;
};

class ElfSymbolizer {
 public:
  explicit ElfSymbolizer(ElfSymbolizerOptions options);
  ~ElfSymbolizer();
  ElfSymbolizer(const ElfSymbolizer&) = delete;
  ElfSymbolizer& operator=(const ElfSymbolizer&) = delete;

  class Object;  // public for the .cc's helpers; opaque to callers
  enum class Found { kYes, kMissing, kOtherBuildId, kNotElf };
  // The object at `path` whose build id is `build_id` (lower-case hex; "" when the recording
  // has none, and then the file at the path is taken as it is). Opened once; null when it
  // cannot be used, *found says why.
  Object* Open(const std::string& path, const std::string& build_id, Found* found);

  // Whether Open would not wait for the prefetching thread: the object is opened, or is not
  // one that thread opens, or that thread has not started on it (Open then opens it itself).
  bool Ready(const std::string& path, const std::string& build_id);

  // Opens these objects (path, build id) on a thread of its own, in order, reading their
  // symbols and DWARF ahead of the first lookup, while the caller goes on: Open then takes
  // the object ready, or waits for it. Call once, before the first Open.
  void Prefetch(std::vector<std::pair<std::string, std::string>> objects);

  // The file the object was read from (a build-id cache entry, or the path under --symfs).
  static const std::string& PathOf(const Object* object);

  // Whether the object has DWARF (its own or a separate debug file's): file, line and inlined
  // frames come from it.
  bool HasDwarf(Object* object);

  // The frames at `file_offset` of `object` (an address perf gives as `ip - start + pgoff`),
  // and the object's own virtual address for it (what perf script prints). False when no
  // loadable segment holds the offset; frames is then empty. A frame without symbol has an
  // empty function.
  bool Symbolize(Object* object, uint64_t file_offset, uint64_t* vaddr,
                 std::vector<ElfFrame>* frames);

 private:
  ElfSymbolizerOptions options_;
  std::string debuginfo_path_;  // libdwfl's search path, kept alive for its callbacks
  struct Opened {
    std::unique_ptr<Object> object;
    Found found = Found::kMissing;
  };
  std::map<std::string, Opened> objects_;  // by build id and path
  // Opened here or by the prefetching thread: the finding, without touching objects_.
  Opened Find(const std::string& path, const std::string& build_id) const;
  // The same with its DWARF read and its symbols sorted, as the prefetching thread opens it.
  Opened FindReady(const std::string& path, const std::string& build_id);
  struct Prefetching;
  std::unique_ptr<Prefetching> prefetching_;
};

// The build id of the ELF file at `path`, lower-case hex; "" when it has none or is not ELF.
std::string ElfFileBuildId(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_ELF_SYMBOLIZER_H_
