// The main of a program that writes one format of the writers' registry (load/writers.h): a
// tools/prof2NAME.cc is its description and one call. It gets every program's conventions:
// FILE... or standard input (several inputs merged into one profile, each in any format the
// readers know), --input-format, --max-input-size, -o FILE written atomically (nothing written
// on an error), --help, --version, a usage instead of a wait on a terminal, errors as
// "PROGRAM: FILE:LINE: ...", the writer's warnings as "PROGRAM: warning: ...", and its own
// options (WriterSpec::options); a binary format is refused on a terminal unless --force, and a
// gzipped one takes --no-gzip.
#ifndef PROFTOOLS_COMMON_CLI_WRITER_PROGRAM_H_
#define PROFTOOLS_COMMON_CLI_WRITER_PROGRAM_H_

#include "common/model/writer_spec.h"

namespace proftools {

struct WriterProgramText {
  const char* description;  // --help's paragraph
  const char* examples;     // --help's epilog ("Examples:\n  ...")
};

// Parses argv, reads the inputs and writes them with `spec`; returns the exit status (messages
// printed as RunProgram prints them).
int RunWriterProgram(const WriterSpec& spec, const WriterProgramText& text, int argc, char** argv);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_WRITER_PROGRAM_H_
