#include "common/elf/debug_file_search.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string_view>

#include "common/base/strings.h"

namespace proftools {
namespace {

std::string DirectoryOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

// `<directory>/.build-id/xx/rest.debug`, where Debian's -dbgsym packages put debug files.
std::string BuildIdFile(const std::string& directory, const std::string& hex) {
  return directory + "/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2) + ".debug";
}

// The build id named by `file`'s .gnu_debugaltlink section (dwz's shared debug file), in hex;
// "" when it has none.
std::string AltLinkBuildId(const char* file) {
  const int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string hex;
  if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
    size_t names = 0;
    if (elf_getshdrstrndx(elf, &names) == 0) {
      for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr && hex.empty();
           section = elf_nextscn(elf, section)) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) == nullptr) continue;
        const char* name = elf_strptr(elf, names, header.sh_name);
        if (name == nullptr || std::string_view(name) != ".gnu_debugaltlink") continue;
        // The alternate file's name, a NUL, then its build id.
        Elf_Data* data = elf_getdata(section, nullptr);
        if (data == nullptr || data->d_buf == nullptr) break;
        const std::string_view bytes(static_cast<const char*>(data->d_buf), data->d_size);
        const size_t nul = bytes.find('\0');
        if (nul != std::string_view::npos && nul + 1 < bytes.size()) {
          hex = LowerHex(bytes.substr(nul + 1));
        }
      }
    }
    elf_end(elf);
  }
  close(fd);
  return hex;
}

}  // namespace

std::string ModuleBuildId(Dwfl_Module* module) {
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int size = dwfl_module_build_id(module, &bits, &vaddr);
  return size > 0 ? LowerHex(std::string_view(reinterpret_cast<const char*>(bits), size))
                  : std::string();
}

DebugFileSearch::DebugFileSearch(std::string path) : path_(std::move(path)) {
  path_pointer_ = path_.data();
  std::string_view rest = path_;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '+')) rest.remove_prefix(1);
  for (;;) {
    const size_t colon = rest.find(':');
    entries_.emplace_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
}

const DebugFileSearch& DebugFileSearch::Default() {
  static const DebugFileSearch* const search = new DebugFileSearch(":.debug:/usr/lib/debug");
  return *search;
}

void DebugFileSearch::Attach(Dwfl_Module* module) const {
  void** userdata = nullptr;
  if (dwfl_module_info(module, &userdata, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr) !=
          nullptr &&
      userdata != nullptr) {
    *userdata = const_cast<DebugFileSearch*>(this);
  }
}

std::vector<std::string> DebugFileSearch::Candidates(Dwfl_Module* module, const char* file_name,
                                                     const char* debuglink_file) const {
  std::vector<std::string> candidates;
  auto by_build_id = [&](const std::string& hex) {
    if (hex.size() <= 2) return;
    for (const std::string& entry : entries_) {
      if (!entry.empty() && entry[0] == '/') candidates.push_back(BuildIdFile(entry, hex));
    }
  };
  by_build_id(ModuleBuildId(module));
  if (debuglink_file != nullptr && *debuglink_file != '\0') {
    const std::string link = debuglink_file;
    if (link[0] == '/') candidates.push_back(link);
    // The object's directory, and that of the file its name links to.
    std::vector<std::string> directories;
    if (file_name != nullptr && *file_name != '\0') {
      directories.push_back(DirectoryOf(file_name));
      char resolved[PATH_MAX];
      if (realpath(file_name, resolved) != nullptr) {
        const std::string real = DirectoryOf(resolved);
        if (real != directories[0]) directories.push_back(real);
      }
    }
    for (const std::string& directory : directories) {
      for (const std::string& entry : entries_) {
        if (entry.empty()) {
          candidates.push_back(directory + "/" + link);
        } else if (entry[0] != '/') {
          candidates.push_back(directory + "/" + entry + "/" + link);
        } else {
          candidates.push_back(entry + directory + "/" + link);
          candidates.push_back(entry + "/" + link);
        }
      }
    }
  }
  if (file_name != nullptr && *file_name != '\0') by_build_id(AltLinkBuildId(file_name));
  return candidates;
}

int DebugFileSearch::FindDebuginfo(Dwfl_Module* module, void** userdata, const char* module_name,
                                   Dwarf_Addr base, const char* file_name,
                                   const char* debuglink_file, GElf_Word debuglink_crc,
                                   char** debuginfo_file_name) {
  const DebugFileSearch& search = userdata != nullptr && *userdata != nullptr
                                      ? *static_cast<const DebugFileSearch*>(*userdata)
                                      : Default();
  bool any = false;
  for (const std::string& candidate : search.Candidates(module, file_name, debuglink_file)) {
    if (access(candidate.c_str(), R_OK) == 0) {
      any = true;
      break;
    }
  }
  if (!any) {
    errno = ENOENT;
    return -1;
  }
  return dwfl_standard_find_debuginfo(module, userdata, module_name, base, file_name,
                                      debuglink_file, debuglink_crc, debuginfo_file_name);
}

}  // namespace proftools
