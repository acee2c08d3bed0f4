#include "common/load/read_profile.h"

#include <string>

#include "common/load/readers.h"
#include "common/model/checker.h"

namespace proftools {

const ReaderSpec& ReaderFor(const Input& input, const ReadOptions& options) {
  return ChooseReader(input, options.format);
}

std::string DefaultSourceUri(const Input& input) {
  return input.name == "<stdin>" ? "" : input.name;
}

ReadContext ReadContextFor(const Input& input, const ReadOptions& options) {
  ReadContext context;
  context.uri = options.uri ? *options.uri : DefaultSourceUri(input);
  context.max_input_size = options.max_input_size;
  context.max_spool_size = options.max_spool_size;
  context.allow_empty = options.allow_empty;
  context.violations = options.handler;
  context.warnings = options.warnings;
  context.settings = options.reader_settings;
  return context;
}

void ReadProfile(Input& input, ProfileSink* sink, const ReadOptions& options) {
  const ReaderSpec& reader = ReaderFor(input, options);
  const ReadContext context = ReadContextFor(input, options);
  if (reader.checks_itself) {
    reader.read(input, context, sink);
    return;
  }
  // What a converter delivers must keep the format's rules: a violation is its bug, so it throws.
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(sink, &throw_on_violation, input.name);
  reader.read(input, context, &checked);
}

}  // namespace proftools
