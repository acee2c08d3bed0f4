#include "common/elf/elf_function_symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/base/diagnostics.h"
#include "common/elf/regular_file.h"

namespace proftools {
namespace {

struct Candidate {
  uint64_t start, size;
  int rank;  // 0 global, 1 weak, 2 local: the lower kept at an address
  std::string name;
};

// The function symbols of the symbol table section `section` (SHT_SYMTAB or SHT_DYNSYM).
void ReadSymbols(Elf* elf, Elf_Scn* section, const GElf_Shdr& header, std::vector<Candidate>* out) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (data == nullptr || header.sh_entsize == 0) return;
  const size_t count = header.sh_size / header.sh_entsize;
  for (size_t i = 0; i < count; ++i) {
    GElf_Sym symbol;
    if (gelf_getsym(data, static_cast<int>(i), &symbol) == nullptr) break;
    const int type = GELF_ST_TYPE(symbol.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || symbol.st_shndx == SHN_UNDEF ||
        symbol.st_shndx >= SHN_LORESERVE) {
      continue;
    }
    Elf_Scn* code = elf_getscn(elf, symbol.st_shndx);
    GElf_Shdr code_header;
    if (code == nullptr || gelf_getshdr(code, &code_header) == nullptr ||
        (code_header.sh_flags & SHF_EXECINSTR) == 0) {
      continue;
    }
    const char* name = elf_strptr(elf, header.sh_link, symbol.st_name);
    if (name == nullptr || name[0] == '\0' || name[0] == '.') continue;
    const int binding = GELF_ST_BIND(symbol.st_info);
    out->push_back(Candidate{symbol.st_value, symbol.st_size,
                             binding == STB_GLOBAL ? 0
                             : binding == STB_WEAK ? 1
                                                   : 2,
                             name});
  }
}

}  // namespace

const ElfFunction* ElfFunctionTable::Find(uint64_t address) const {
  auto after =
      std::upper_bound(functions.begin(), functions.end(), address,
                       [](uint64_t a, const ElfFunction& function) { return a < function.start; });
  if (after == functions.begin()) return nullptr;
  const ElfFunction& function = *(after - 1);
  return address < function.end ? &function : nullptr;
}

ElfFunctionTable ReadElfFunctions(const std::string& path, AliasChoice aliases) {
  errno = 0;
  const int fd = OpenRegularFile(path);
  if (fd < 0) {
    throw ProfError(path, errno != 0 ? std::string("cannot open: ") + std::strerror(errno)
                                     : std::string("not a regular file"));
  }
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  struct Closer {
    int fd;
    Elf* elf;
    ~Closer() {
      if (elf != nullptr) elf_end(elf);
      close(fd);
    }
  } closer{fd, elf};
  GElf_Ehdr elf_header;
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &elf_header) == nullptr) {
    throw ProfError(path, "not an ELF executable (gprof2prof takes the program gmon.out is of)");
  }
  ElfFunctionTable table;
  table.is_64bit = elf_header.e_ident[EI_CLASS] == ELFCLASS64;
  table.little_endian = elf_header.e_ident[EI_DATA] == ELFDATA2LSB;
  table.position_independent = elf_header.e_type == ET_DYN;
  std::vector<Candidate> candidates;
  for (const Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr;
         section = elf_nextscn(elf, section)) {
      GElf_Shdr header;
      if (gelf_getshdr(section, &header) != nullptr && header.sh_type == wanted) {
        ReadSymbols(elf, section, header, &candidates);
      }
    }
    if (!candidates.empty()) break;  // .dynsym only for a stripped executable
  }
  if (candidates.empty()) {
    throw ProfError(path, "has no function symbols (stripped?): gprof needs them too");
  }
  const bool by_name = aliases == AliasChoice::kFirstByName;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [by_name](const Candidate& a, const Candidate& b) {
                     if (a.start != b.start) return a.start < b.start;
                     return by_name ? a.name < b.name : a.rank < b.rank;
                   });
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0 && candidates[i].start == candidates[i - 1].start) continue;
    table.functions.push_back(ElfFunction{candidates[i].start,
                                          candidates[i].start + candidates[i].size,
                                          std::move(candidates[i].name), candidates[i].size});
  }
  for (size_t i = 0; i + 1 < table.functions.size(); ++i) {
    table.functions[i].end = table.functions[i + 1].start;
  }
  return table;
}

}  // namespace proftools
