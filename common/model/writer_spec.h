// What a codec tells the registry about a writer (common/load/writers.cc holds the one table):
// its name, what it writes, how its output is opened, its own options, and how it writes a
// profile. Adding a writer is a folder common/NAME/ (or a file in its format's folder) with a
// `const WriterSpec kNameWriter`, one line in that table, and a tools/prof2NAME.cc of a few lines
// over cli/writer_program.h, which gives it every program's conventions.
#ifndef PROFTOOLS_COMMON_MODEL_WRITER_SPEC_H_
#define PROFTOOLS_COMMON_MODEL_WRITER_SPEC_H_

#include <map>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

// A profile a writer reads: streamed into a sink, once or, for a writer that needs two passes,
// again (cli/profile_inputs: a program's inputs, merged when several).
class ProfileSource {
 public:
  virtual ~ProfileSource() = default;
  // The name of the profile in messages: its file, "<stdin>" or "(merged profile)".
  virtual std::string name() const = 0;
  // Streams the whole profile into `sink` (OnHeader ... OnEnd). `again`: it will be read once
  // more (what cannot be reopened is spooled); pass true on every read but the last.
  virtual void Read(ProfileSink* sink, bool again = false) = 0;
};

// An option of a writer's own, added to its program's command line.
struct WriterOption {
  const char* name;        // the long name, without "--"
  const char* value_name;  // "TYPE", "DURATION"; nullptr for a flag
  const char* help;
};

// What a writer needs besides the profile and its output.
struct WriteContext {
  // The writer's options that were given: name -> value as typed ("" for a flag). The writer
  // parses them, throwing UsageError naming the option ("--NAME") for a bad value.
  std::map<std::string, std::string> options;
  // What the conversion cannot keep, as warnings naming the profile (nullptr: dropped).
  DiagnosticHandler* warnings = nullptr;
  // The file the output goes to (-o), "" for standard output: a writer may warn of a name that
  // misleads a viewer (speedscope picks its importer by the name first).
  std::string output_path;

  bool Has(const std::string& option) const { return options.count(option) != 0; }
  const std::string& Get(const std::string& option) const { return options.at(option); }
  void Warn(const std::string& file, const std::string& message) const {
    if (warnings != nullptr) warnings->Warning(Diagnostic{Rule::kInput, file, 0, message});
  }
};

struct WriterSpec {
  const char* name;       // the format's name ("chrome-trace"), as --input-format names readers
  const char* program;    // the program that writes it ("prof2chrome")
  const char* summary;    // a noun phrase for messages ("Chrome's Trace Event Format (JSON)")
  bool binary;            // refused on a terminal unless --force
  bool gzip;              // gzipped by default (the program then takes --no-gzip)
  const char* extension;  // the usual file name ending, ".json"
  std::vector<WriterOption> options;
  // Writes `profile` (read once or more) as bytes to `out`. Throws ProfError for a profile it
  // cannot write, UsageError for a bad option value; nothing is committed then.
  void (*write)(ProfileSource& profile, ByteSink* out, const WriteContext& context);
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_WRITER_SPEC_H_
