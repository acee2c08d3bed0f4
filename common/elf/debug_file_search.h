// Where libdwfl looks for an object's separate debug file, kept to this machine's files.
//
// libdwfl's standard search (dwfl_standard_find_debuginfo: by build id in the search path's
// directories, then by .gnu_debuglink and dwz's .gnu_debugaltlink names) ends, when it finds
// nothing, by asking debuginfod servers: for that it loads libdebuginfod, and with it libcurl
// and some thirty libraries, once a process (40 ms of a 0.2 s conversion of a --call-graph
// dwarf recording here), and then goes to the network when DEBUGINFOD_URLS names a server.
// A converter reads the files it was given and the machine's debug directories, never the
// network (the recording may be private; a build step must not wait on a server). This
// search answers "none" without calling the standard one when no file it would try exists,
// and calls it otherwise, so that what is found, and how it is checked, stays libdwfl's.
#ifndef PROFTOOLS_COMMON_ELF_DEBUG_FILE_SEARCH_H_
#define PROFTOOLS_COMMON_ELF_DEBUG_FILE_SEARCH_H_

#include <elfutils/libdwfl.h>

#include <string>
#include <vector>

namespace proftools {

// The build id of a libdwfl session's module, lower-case hex; "" when it has none.
std::string ModuleBuildId(Dwfl_Module* module);

class DebugFileSearch {
 public:
  // `path` is libdwfl's debuginfo path: entries separated by ':' (the first may start with
  // '-' or '+', libdwfl's flag of the CRC check): an absolute directory, a directory relative
  // to the object's own, or empty for the object's own directory.
  explicit DebugFileSearch(std::string path);
  DebugFileSearch(const DebugFileSearch&) = delete;
  DebugFileSearch& operator=(const DebugFileSearch&) = delete;

  // libdwfl's default path (":.debug:/usr/lib/debug"), for sessions given none.
  static const DebugFileSearch& Default();

  // The path, for Dwfl_Callbacks::debuginfo_path (which must point at a char*: `*pointer`).
  char** path_pointer() { return &path_pointer_; }

  // Makes `module` searched by this search: the callback finds it in the module's user data
  // (it must be set before libdwfl first looks for the module's DWARF).
  void Attach(Dwfl_Module* module) const;

  // The Dwfl_Callbacks::find_debuginfo callback: the search attached to the module, or the
  // default one.
  static int FindDebuginfo(Dwfl_Module* module, void** userdata, const char* module_name,
                           Dwarf_Addr base, const char* file_name, const char* debuglink_file,
                           GElf_Word debuglink_crc, char** debuginfo_file_name);

  // The files the standard search may try for the module's debug file or its dwz alternate
  // file (the same callback finds both): by the module's build id, by the debug link's name,
  // and by the build id in `file_name`'s .gnu_debugaltlink.
  std::vector<std::string> Candidates(Dwfl_Module* module, const char* file_name,
                                      const char* debuglink_file) const;

 private:
  std::string path_;
  char* path_pointer_;
  std::vector<std::string> entries_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_DEBUG_FILE_SEARCH_H_
