#include "common/elf/elf_symbolizer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "common/base/strings.h"
#include "common/elf/debug_file_search.h"
#include "common/elf/regular_file.h"

namespace proftools {
namespace {

// `directory/file`, with the `./` a compiler writes before a relative file left out.
std::string JoinPath(const std::string& directory, std::string_view file) {
  while (file.substr(0, 2) == "./") file.remove_prefix(2);
  return directory.back() == '/' ? directory + std::string(file)
                                 : directory + "/" + std::string(file);
}

// The name of a DWARF function entry: its linkage (mangled) name when it has one, else its
// name, following abstract origins and specifications.
const char* DieFunctionName(Dwarf_Die* die) {
  Dwarf_Attribute attribute;
  for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name}) {
    if (dwarf_attr_integrate(die, name, &attribute) != nullptr) {
      const char* text = dwarf_formstring(&attribute);
      if (text != nullptr) return text;
    }
  }
  return nullptr;
}

}  // namespace

class ElfSymbolizer::Object {
 public:
  // The callbacks and the search path they point at live as long as the session.
  Dwfl_Callbacks callbacks = {};
  std::unique_ptr<DebugFileSearch> debug_files;
  std::string path;  // the file read
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;
  GElf_Addr bias = 0;
  struct Segment {
    uint64_t offset;
    uint64_t size;
    uint64_t vaddr;
  };
  std::vector<Segment> segments;  // PT_LOAD
  // The PLT's entries, named as perf names them (`_exit@plt`): no symbol covers them.
  uint64_t plt_start = 0;
  uint64_t plt_end = 0;
  std::vector<std::string> plt_names;  // by entry, from .rela.plt

  // The symbol table sorted by address, for SymbolAt: dwfl_module_addrinfo scans the whole
  // table at each call (a fifth of a second for a thousand addresses in libc).
  struct Symbol {
    GElf_Addr value;
    GElf_Xword size;
    int binding;  // higher is better: global 3, weak 2, local 1
    int index;    // in the table: ties go to the first, as libdwfl's search
    GElf_Word section;
    const char* name;
  };
  // The allocated sections by address, for the section of an address (a symbol without size
  // names only addresses of its own section, as libdwfl's).
  struct Section {
    GElf_Addr start;
    GElf_Addr end;
    GElf_Word index;
  };
  std::vector<Section> sections;
  std::vector<Symbol> globals;  // by value
  std::vector<Symbol> locals;
  GElf_Xword largest = 0;  // the largest size: how far below an address a symbol may start
  bool symbols_read = false;

  void ReadSymbols() {
    symbols_read = true;
    const int count = dwfl_module_getsymtab(module);
    const int first_global = dwfl_module_getsymtab_first_global(module);
    for (int i = 1; i < count; ++i) {
      GElf_Sym symbol;
      GElf_Addr value = 0;
      GElf_Word section = 0;
      const char* name =
          dwfl_module_getsym_info(module, i, &symbol, &value, &section, nullptr, nullptr);
      if (name == nullptr || *name == '\0' || section == SHN_UNDEF) continue;
      const int type = GELF_ST_TYPE(symbol.st_info);
      if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) continue;
      const int bind = GELF_ST_BIND(symbol.st_info);
      const int binding = bind == STB_GLOBAL ? 3 : bind == STB_WEAK ? 2 : bind == STB_LOCAL ? 1 : 0;
      (i >= first_global ? globals : locals)
          .push_back({value, symbol.st_size, binding, i, section, name});
      largest = std::max(largest, symbol.st_size);
    }
    GElf_Addr bias_of_main = 0;
    if (Elf* elf = dwfl_module_getelf(module, &bias_of_main)) {
      for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr header;
        if (gelf_getshdr(scn, &header) == nullptr || (header.sh_flags & SHF_ALLOC) == 0) continue;
        sections.push_back({header.sh_addr + bias_of_main,
                            header.sh_addr + bias_of_main + header.sh_size,
                            static_cast<GElf_Word>(elf_ndxscn(scn))});
      }
    }
    for (std::vector<Symbol>* table : {&globals, &locals}) {
      std::stable_sort(table->begin(), table->end(),
                       [](const Symbol& a, const Symbol& b) { return a.value < b.value; });
    }
  }

  // libdwfl's choice among the symbols of `table` whose extent holds `address` (in table order,
  // one replaces the choice when it starts closer or binds better), or null; *sizeless gets
  // the nearest symbol without size below the address when none holds it.
  const Symbol* Best(const std::vector<Symbol>& table, GElf_Addr address,
                     const Symbol** sizeless) const {
    auto end = std::upper_bound(table.begin(), table.end(), address,
                                [](GElf_Addr a, const Symbol& s) { return a < s.value; });
    std::vector<const Symbol*> holding;
    GElf_Addr covered = 0;  // the end of the sized symbols below: a label inside one is none
    for (auto it = end; it != table.begin();) {
      --it;
      if (address - it->value > largest) break;
      if (it->size != 0) {
        covered = std::max(covered, it->value + it->size);
        if (address - it->value < it->size) holding.push_back(&*it);
      } else if (*sizeless == nullptr || it->value > (*sizeless)->value) {
        *sizeless = &*it;
      }
    }
    if (*sizeless != nullptr &&
        ((*sizeless)->value < covered || (*sizeless)->section != SectionOf(address))) {
      *sizeless = nullptr;
    }
    std::sort(holding.begin(), holding.end(),
              [](const Symbol* a, const Symbol* b) { return a->index < b->index; });
    const Symbol* best = nullptr;
    for (const Symbol* candidate : holding) {
      if (best == nullptr || best->value < candidate->value || best->binding < candidate->binding) {
        best = candidate;
      }
    }
    return best;
  }

  GElf_Word SectionOf(GElf_Addr address) const {
    for (const Section& section : sections) {
      if (address >= section.start && address < section.end) return section.index;
    }
    return SHN_UNDEF;
  }

  // The name of the function at `address`, as dwfl_module_addrinfo finds it: a global symbol
  // holding it, else a local one, else the nearest sizeless one.
  const char* SymbolAt(GElf_Addr address) {
    if (!symbols_read) ReadSymbols();
    const Symbol* sizeless = nullptr;
    const Symbol* best = Best(globals, address, &sizeless);
    if (best == nullptr && !(sizeless != nullptr && sizeless->value == address)) {
      best = Best(locals, address, &sizeless);
    }
    if (best == nullptr) best = sizeless;
    return best != nullptr ? best->name : nullptr;
  }

  // Each CU's inlined subroutines with their address ranges and nesting depth, made at the
  // CU's first lookup: one walk of its entries instead of one per address.
  struct InlinedRange {
    Dwarf_Addr low;
    Dwarf_Addr high;
    int depth;
    Dwarf_Off offset;
  };
  std::unordered_map<Dwarf_Off, std::vector<InlinedRange>> inlined_by_cu;

  // The inlined subroutines whose ranges hold `pc` (relative to the CU's module), innermost
  // first.
  void InlinedAt(Dwarf_Die* cu, Dwarf_Addr pc, std::vector<Dwarf_Off>* chain) {
    auto [it, added] = inlined_by_cu.try_emplace(dwarf_dieoffset(cu));
    if (added) IndexInlined(cu, &it->second);
    std::vector<const InlinedRange*> holding;
    for (const InlinedRange& range : it->second) {
      if (range.low <= pc && pc < range.high) holding.push_back(&range);
    }
    std::stable_sort(
        holding.begin(), holding.end(),
        [](const InlinedRange* a, const InlinedRange* b) { return a->depth > b->depth; });
    for (const InlinedRange* range : holding) chain->push_back(range->offset);
  }

  static void IndexInlined(Dwarf_Die* cu, std::vector<InlinedRange>* out) {
    // Depth-first over the entries that can hold code: functions, inlined calls, lexical
    // blocks, namespaces. `depth` counts the inlined calls above an entry.
    struct Pending {
      Dwarf_Die die;
      int depth;
    };
    std::vector<Pending> pending;
    Dwarf_Die child;
    if (dwarf_child(cu, &child) == 0) pending.push_back({child, 0});
    while (!pending.empty()) {
      Pending next = pending.back();
      pending.pop_back();
      Dwarf_Die sibling;
      if (dwarf_siblingof(&next.die, &sibling) == 0) pending.push_back({sibling, next.depth});
      const int tag = dwarf_tag(&next.die);
      int depth = next.depth;
      if (tag == DW_TAG_inlined_subroutine) {
        depth = next.depth + 1;
        Dwarf_Addr base = 0, low = 0, high = 0;
        for (ptrdiff_t at = 0; (at = dwarf_ranges(&next.die, at, &base, &low, &high)) > 0;) {
          out->push_back({low, high, depth, dwarf_dieoffset(&next.die)});
        }
      }
      const bool holds_code = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
                              tag == DW_TAG_lexical_block || tag == DW_TAG_namespace ||
                              tag == DW_TAG_entry_point;
      if (holds_code && dwarf_haschildren(&next.die) && dwarf_child(&next.die, &child) == 0) {
        pending.push_back({child, depth});
      }
    }
  }
  ~Object() {
    if (dwfl != nullptr) dwfl_end(dwfl);
  }
};

ElfSymbolizer::ElfSymbolizer(ElfSymbolizerOptions options) : options_(std::move(options)) {
  // libdwfl's search path for separate debug files: "-" skips the CRC check of a debuglink
  // (Debian's build-id files are found by id, which is stronger), then the directories.
  // Under --symfs, the system's debug directory is the one of that root.
  debuginfo_path_ = "-";
  for (const std::string& dir : options_.debug_dirs) debuginfo_path_ += ":" + dir;
  debuginfo_path_ += ":.debug:" + options_.symfs + "/usr/lib/debug";
  elf_version(EV_CURRENT);
}

ElfSymbolizer::~ElfSymbolizer() = default;

std::string ElfFileBuildId(const std::string& path) {
  const int fd = OpenRegularFile(path);
  if (fd < 0) return "";
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  std::string id;
  if (elf != nullptr) {
    const void* bits = nullptr;
    const ssize_t size = dwelf_elf_gnu_build_id(elf, &bits);
    if (size > 0) id = LowerHex(std::string_view(static_cast<const char*>(bits), size));
    elf_end(elf);
  }
  close(fd);
  return id;
}

namespace {

// The names of the PLT's entries: the symbol of each .rela.plt relocation, in order, and where
// the entries are (.plt.sec when the PLT is split for IBT, else .plt after its first entry).
void ReadPlt(Elf* elf, ElfSymbolizer::Object* object) {
  constexpr uint64_t kEntry = 16;  // x86-64's PLT entries
  size_t names_index = 0;
  if (elf_getshdrstrndx(elf, &names_index) != 0) return;
  GElf_Shdr plt = {}, plt_sec = {}, rela = {};
  Elf_Scn* rela_section = nullptr;
  for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr;
       section = elf_nextscn(elf, section)) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) == nullptr) continue;
    const char* name = elf_strptr(elf, names_index, header.sh_name);
    if (name == nullptr) continue;
    if (std::strcmp(name, ".plt") == 0) plt = header;
    if (std::strcmp(name, ".plt.sec") == 0) plt_sec = header;
    if (std::strcmp(name, ".rela.plt") == 0 && header.sh_type == SHT_RELA) {
      rela = header;
      rela_section = section;
    }
  }
  if (rela_section == nullptr || rela.sh_entsize == 0) return;
  if (plt_sec.sh_size != 0) {
    object->plt_start = plt_sec.sh_addr;
    object->plt_end = plt_sec.sh_addr + plt_sec.sh_size;
  } else if (plt.sh_size > kEntry) {
    object->plt_start = plt.sh_addr + kEntry;
    object->plt_end = plt.sh_addr + plt.sh_size;
  } else {
    return;
  }
  Elf_Scn* symbols_section = elf_getscn(elf, rela.sh_link);
  GElf_Shdr symbols_header;
  if (symbols_section == nullptr || gelf_getshdr(symbols_section, &symbols_header) == nullptr) {
    return;
  }
  Elf_Data* relocations = elf_getdata(rela_section, nullptr);
  Elf_Data* symbols = elf_getdata(symbols_section, nullptr);
  if (relocations == nullptr || symbols == nullptr) return;
  const uint64_t count = rela.sh_size / rela.sh_entsize;
  for (uint64_t i = 0; i < count && i < (object->plt_end - object->plt_start) / kEntry; ++i) {
    GElf_Rela relocation;
    GElf_Sym symbol;
    const char* name = nullptr;
    if (gelf_getrela(relocations, static_cast<int>(i), &relocation) != nullptr &&
        gelf_getsym(symbols, static_cast<int>(GELF_R_SYM(relocation.r_info)), &symbol) != nullptr) {
      name = elf_strptr(elf, symbols_header.sh_link, symbol.st_name);
    }
    object->plt_names.push_back(name != nullptr && *name != '\0' ? std::string(name) + "@plt"
                                                                 : std::string());
  }
}

// A libdwfl session over the one file at `fd` (consumed), placed at its own virtual addresses.
std::unique_ptr<ElfSymbolizer::Object> ReportObject(const std::string& path, int fd,
                                                    const std::string& debuginfo_path) {
  auto object = std::make_unique<ElfSymbolizer::Object>();
  object->path = path;
  object->debug_files = std::make_unique<DebugFileSearch>(debuginfo_path);
  object->callbacks.find_elf = dwfl_build_id_find_elf;
  object->callbacks.find_debuginfo = DebugFileSearch::FindDebuginfo;
  object->callbacks.section_address = dwfl_offline_section_address;
  object->callbacks.debuginfo_path = object->debug_files->path_pointer();
  object->dwfl = dwfl_begin(&object->callbacks);
  if (object->dwfl == nullptr) {
    close(fd);
    return nullptr;
  }
  object->module = dwfl_report_elf(object->dwfl, path.c_str(), path.c_str(), fd, 0, true);
  dwfl_report_end(object->dwfl, nullptr, nullptr);
  if (object->module == nullptr) {
    close(fd);  // libdwfl consumes the descriptor only on success
    return nullptr;
  }
  object->debug_files->Attach(object->module);
  Elf* elf = dwfl_module_getelf(object->module, &object->bias);
  size_t headers = 0;
  if (elf == nullptr || elf_getphdrnum(elf, &headers) != 0) return nullptr;
  for (size_t i = 0; i < headers; ++i) {
    GElf_Phdr header;
    if (gelf_getphdr(elf, static_cast<int>(i), &header) == nullptr) continue;
    if (header.p_type != PT_LOAD) continue;
    object->segments.push_back({header.p_offset, header.p_filesz, header.p_vaddr});
  }
  ReadPlt(elf, object.get());
  return object;
}

}  // namespace

// The objects being opened ahead by the prefetching thread, each with its finding once done.
// An object is opened by whichever thread comes to it first: the prefetching thread, in its
// order, or a caller of Open that needs it before then (rather than waiting behind the
// objects queued before it: libc, last of bigload's six, kept the first sample waiting 80 ms).
struct ElfSymbolizer::Prefetching {
  std::mutex mutex;
  std::condition_variable done;
  struct Entry {
    bool claimed = false;         // a thread is opening it, or has
    std::optional<Opened> ready;  // set by the prefetching thread when done
  };
  std::map<std::string, Entry> objects;  // by key
  std::thread thread;
  ~Prefetching() {
    if (thread.joinable()) thread.join();
  }
};

namespace {

std::string ObjectKey(const std::string& path, const std::string& build_id) {
  return build_id + '\0' + path;
}

}  // namespace

void ElfSymbolizer::Prefetch(std::vector<std::pair<std::string, std::string>> objects) {
  if (prefetching_ != nullptr || objects.empty()) return;
  prefetching_ = std::make_unique<Prefetching>();
  for (const auto& [path, build_id] : objects) {
    prefetching_->objects.try_emplace(ObjectKey(path, build_id));
  }
  prefetching_->thread = std::thread([this, objects = std::move(objects)] {
    for (const auto& [path, build_id] : objects) {
      Prefetching::Entry* entry;
      {
        std::lock_guard<std::mutex> lock(prefetching_->mutex);
        entry = &prefetching_->objects[ObjectKey(path, build_id)];
        if (entry->claimed) continue;
        entry->claimed = true;
      }
      Opened opened = FindReady(path, build_id);
      std::lock_guard<std::mutex> lock(prefetching_->mutex);
      entry->ready = std::move(opened);
      prefetching_->done.notify_all();
    }
  });
}

ElfSymbolizer::Opened ElfSymbolizer::FindReady(const std::string& path,
                                               const std::string& build_id) {
  Opened opened = Find(path, build_id);
  if (opened.object != nullptr) {
    HasDwarf(opened.object.get());  // reads (and inflates) the DWARF
    opened.object->SymbolAt(0);     // sorts the symbols
  }
  return opened;
}

ElfSymbolizer::Opened ElfSymbolizer::Find(const std::string& path,
                                          const std::string& build_id) const {
  Opened opened;
  // Where to look, in order: perf's build-id cache and the debug directories' build-id trees,
  // then the path itself.
  std::vector<std::string> candidates;
  if (build_id.size() > 2) {
    const std::string tail = build_id.substr(0, 2) + "/" + build_id.substr(2);
    // perf's build-id cache is this machine's: not consulted for another root (--symfs).
    const char* home = options_.symfs.empty() ? std::getenv("HOME") : nullptr;
    if (home != nullptr && *home != '\0') {
      candidates.push_back(std::string(home) + "/.debug/.build-id/" + tail + "/elf");
    }
    for (const std::string& dir : options_.debug_dirs) {
      candidates.push_back(dir + "/.build-id/" + tail + "/elf");
    }
  }
  if (!path.empty() && path[0] == '/') candidates.push_back(options_.symfs + path);
  opened.found = Found::kMissing;
  for (const std::string& candidate : candidates) {
    const int fd = OpenRegularFile(candidate);
    if (fd < 0) continue;
    std::unique_ptr<Object> object = ReportObject(candidate, fd, debuginfo_path_);
    if (object == nullptr) {
      if (opened.found == Found::kMissing) opened.found = Found::kNotElf;
      continue;
    }
    if (!build_id.empty() && ModuleBuildId(object->module) != build_id) {
      opened.found = Found::kOtherBuildId;
      continue;
    }
    opened.found = Found::kYes;
    opened.object = std::move(object);
    break;
  }
  return opened;
}

ElfSymbolizer::Object* ElfSymbolizer::Open(const std::string& path, const std::string& build_id,
                                           Found* found) {
  const std::string key = ObjectKey(path, build_id);
  auto cached = objects_.find(key);
  if (cached == objects_.end()) {
    std::optional<Opened> ready;
    if (prefetching_ != nullptr) {
      std::unique_lock<std::mutex> lock(prefetching_->mutex);
      auto ahead = prefetching_->objects.find(key);
      if (ahead != prefetching_->objects.end()) {
        Prefetching::Entry& entry = ahead->second;
        if (!entry.claimed) {
          entry.claimed = true;  // not started: opened here, not waited for
          lock.unlock();
          ready = FindReady(path, build_id);
        } else {
          prefetching_->done.wait(lock, [&] { return entry.ready.has_value(); });
          ready = std::move(entry.ready);
        }
      }
    }
    cached = objects_.emplace(key, ready ? std::move(*ready) : Find(path, build_id)).first;
  }
  *found = cached->second.found;
  return cached->second.object.get();
}

bool ElfSymbolizer::Ready(const std::string& path, const std::string& build_id) {
  if (prefetching_ == nullptr) return true;
  const std::string key = ObjectKey(path, build_id);
  if (objects_.count(key) != 0) return true;
  std::lock_guard<std::mutex> lock(prefetching_->mutex);
  auto ahead = prefetching_->objects.find(key);
  return ahead == prefetching_->objects.end() || !ahead->second.claimed ||
         ahead->second.ready.has_value();
}

const std::string& ElfSymbolizer::PathOf(const Object* object) {
  return object->path;
}

bool ElfSymbolizer::HasDwarf(Object* object) {
  Dwarf_Addr bias = 0;
  return options_.lines && dwfl_module_getdwarf(object->module, &bias) != nullptr;
}

bool ElfSymbolizer::Symbolize(Object* object, uint64_t file_offset, uint64_t* vaddr,
                              std::vector<ElfFrame>* frames) {
  frames->clear();
  const Object::Segment* segment = nullptr;
  for (const Object::Segment& s : object->segments) {
    if (file_offset >= s.offset && file_offset - s.offset < s.size) {
      segment = &s;
      break;
    }
  }
  if (segment == nullptr) return false;
  *vaddr = file_offset - segment->offset + segment->vaddr;
  const Dwarf_Addr address = *vaddr + object->bias;
  const char* name = object->SymbolAt(address);
  ElfFrame outer;
  if (name != nullptr) {
    outer.function = name;
  } else if (*vaddr >= object->plt_start && *vaddr < object->plt_end) {
    const uint64_t entry = (*vaddr - object->plt_start) / 16;
    if (entry < object->plt_names.size()) outer.function = object->plt_names[entry];
  }
  if (!options_.lines) {
    frames->push_back(std::move(outer));
    return true;
  }
  // The line table gives the innermost function's file and line.
  std::string file;
  std::string comp_dir;
  int64_t line = 0;
  if (Dwfl_Line* entry = dwfl_module_getsrc(object->module, address)) {
    int number = 0;
    const char* source = dwfl_lineinfo(entry, nullptr, &number, nullptr, nullptr, nullptr);
    if (source != nullptr) file = source;
    // A relative path is relative to the compilation directory.
    const char* directory = dwfl_line_comp_dir(entry);
    if (!file.empty() && file[0] != '/' && directory != nullptr && *directory != '\0') {
      comp_dir = directory;
      file = JoinPath(comp_dir, file);
    }
    line = number;
  }
  // The inlined subroutines around the address, innermost first: each is a frame, and the
  // call site it records is the file and line in the frame around it.
  Dwarf_Addr cu_bias = 0;
  Dwarf_Die* cu =
      options_.inlines ? dwfl_module_addrdie(object->module, address, &cu_bias) : nullptr;
  // The inlined calls around the address, innermost first, from the CU's index (one walk
  // of its entries, then a scan per address: dwarf_getscopes walks the CU anew each time).
  std::vector<Dwarf_Off> chain;
  Dwarf_Files* files = nullptr;
  size_t file_count = 0;
  Dwarf* dwarf = nullptr;
  if (cu != nullptr) {
    dwarf = dwarf_cu_getdwarf(cu->cu);
    object->InlinedAt(cu, address - cu_bias, &chain);
    if (!chain.empty() && dwarf_getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
  }
  for (Dwarf_Off offset : chain) {
    Dwarf_Die scope;
    if (dwarf == nullptr || dwarf_offdie(dwarf, offset, &scope) == nullptr) break;
    ElfFrame inlined;
    const char* inlined_name = DieFunctionName(&scope);
    if (inlined_name != nullptr) inlined.function = inlined_name;
    inlined.file = std::move(file);
    inlined.line = line;
    frames->push_back(std::move(inlined));
    // The call site: where the next frame out is.
    Dwarf_Attribute attribute;
    Dwarf_Word value = 0;
    file.clear();
    line = 0;
    if (dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attribute), &value) == 0 &&
        files != nullptr && value < file_count) {
      const char* source = dwarf_filesrc(files, value, nullptr, nullptr);
      if (source != nullptr)
        file =
            source[0] == '/' || comp_dir.empty() ? std::string(source) : JoinPath(comp_dir, source);
    }
    if (dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attribute), &value) == 0) {
      line = static_cast<int64_t>(value);
    }
  }
  outer.file = std::move(file);
  outer.line = line;
  frames->push_back(std::move(outer));
  return true;
}

}  // namespace proftools
