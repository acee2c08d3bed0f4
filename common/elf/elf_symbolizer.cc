#include "common/elf/elf_symbolizer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "common/base/strings.h"

namespace proftools {
namespace {

// Opens `path` for reading only when it is a regular file: a FIFO or a device named by a
// recording must not block or be read. -1 otherwise.
int OpenRegularFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

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
  std::string debuginfo_path;
  char* debuginfo_path_pointer = nullptr;
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
  object->debuginfo_path = debuginfo_path;
  object->debuginfo_path_pointer = object->debuginfo_path.data();
  object->callbacks.find_elf = dwfl_build_id_find_elf;
  object->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  object->callbacks.section_address = dwfl_offline_section_address;
  object->callbacks.debuginfo_path = &object->debuginfo_path_pointer;
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

std::string ModuleBuildId(Dwfl_Module* module) {
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int size = dwfl_module_build_id(module, &bits, &vaddr);
  return size > 0 ? LowerHex(std::string_view(reinterpret_cast<const char*>(bits), size))
                  : std::string();
}

}  // namespace

ElfSymbolizer::Object* ElfSymbolizer::Open(const std::string& path, const std::string& build_id,
                                           Found* found) {
  const std::string key = build_id + '\0' + path;
  auto cached = objects_.find(key);
  if (cached != objects_.end()) {
    *found = cached->second.found;
    return cached->second.object.get();
  }
  Opened& opened = objects_[key];
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
  *found = opened.found;
  return opened.object.get();
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
  GElf_Off symbol_offset = 0;
  GElf_Sym symbol;
  const char* name = dwfl_module_addrinfo(object->module, address, &symbol_offset, &symbol, nullptr,
                                          nullptr, nullptr);
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
  // dwarf_getscopes gives the innermost entry holding the address (after an inlined
  // subroutine it goes on with its abstract origin's scopes, not the code around it); the
  // entries physically around that one are the chain of inlined calls.
  Dwarf_Die* innermost = nullptr;
  const int found = cu != nullptr ? dwarf_getscopes(cu, address - cu_bias, &innermost) : 0;
  Dwarf_Die* scopes = nullptr;
  const int depth = found > 0 ? dwarf_getscopes_die(&innermost[0], &scopes) : 0;
  free(innermost);
  Dwarf_Files* files = nullptr;
  size_t file_count = 0;
  if (depth > 0 && dwarf_getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
  for (int i = 0; i < depth; ++i) {
    Dwarf_Die* scope = &scopes[i];
    if (dwarf_tag(scope) != DW_TAG_inlined_subroutine) continue;
    ElfFrame inlined;
    const char* inlined_name = DieFunctionName(scope);
    if (inlined_name != nullptr) inlined.function = inlined_name;
    inlined.file = std::move(file);
    inlined.line = line;
    frames->push_back(std::move(inlined));
    // The call site: where the next frame out is.
    Dwarf_Attribute attribute;
    Dwarf_Word value = 0;
    file.clear();
    line = 0;
    if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &attribute), &value) == 0 &&
        files != nullptr && value < file_count) {
      const char* source = dwarf_filesrc(files, value, nullptr, nullptr);
      if (source != nullptr)
        file =
            source[0] == '/' || comp_dir.empty() ? std::string(source) : JoinPath(comp_dir, source);
    }
    if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &attribute), &value) == 0) {
      line = static_cast<int64_t>(value);
    }
  }
  free(scopes);
  outer.file = std::move(file);
  outer.line = line;
  frames->push_back(std::move(outer));
  return true;
}

}  // namespace proftools
