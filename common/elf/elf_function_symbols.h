// An executable's functions by address, from its ELF symbol table (.symtab, else .dynsym), as
// gprof takes them to attribute its histogram and call arcs: function symbols (STT_FUNC and
// GNU_IFUNC) defined in executable sections, names not starting with '.', one per address (a
// global one before a local or weak one). A function reaches to the next one's address; the
// last, to its own end (its size).
#ifndef PROFTOOLS_COMMON_ELF_ELF_FUNCTION_SYMBOLS_H_
#define PROFTOOLS_COMMON_ELF_ELF_FUNCTION_SYMBOLS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace proftools {

struct ElfFunction {
  uint64_t start = 0;
  uint64_t end = 0;   // the next function's start, or the last one's start + size
  std::string name;   // as the symbol table has it (mangled when it is)
  uint64_t size = 0;  // the symbol's own size (0: not given)
};

struct ElfFunctionTable {
  std::vector<ElfFunction> functions;  // by start, not overlapping
  bool is_64bit = true;
  bool little_endian = true;
  bool position_independent = false;  // ET_DYN: a shared library or PIE, its addresses from 0
  // The function containing `address`, or null.
  const ElfFunction* Find(uint64_t address) const;
};

// Which name a function of several symbols at one address (glibc's malloc and __libc_malloc)
// takes: gprof's choice, a global symbol before a weak one before a local one, else the first
// in the table; or nm -n's, the first by name (byte order), which V8's tick processor keeps.
enum class AliasChoice { kGlobalFirst, kFirstByName };

// Reads the executable at `path`. Throws ProfError naming it when it cannot be read, is not ELF,
// or has no function symbols (stripped).
ElfFunctionTable ReadElfFunctions(const std::string& path,
                                  AliasChoice aliases = AliasChoice::kGlobalFirst);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_ELF_FUNCTION_SYMBOLS_H_
