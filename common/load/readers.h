// The registry of readers: the one table of every format proftools recognises, and how an
// input's reader is chosen (--input-format NAME, else the most confident sniffer).
#ifndef PROFTOOLS_COMMON_LOAD_READERS_H_
#define PROFTOOLS_COMMON_LOAD_READERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/io/input.h"
#include "common/model/reader_spec.h"

namespace proftools {

// Every reader, in the order a tie between sniffers goes.
const std::vector<const ReaderSpec*>& Readers();

// The reader named `name`, or null.
const ReaderSpec* FindReader(std::string_view name);

// "prof, pprof, perf, ...": the names --input-format takes.
std::string ReaderNames();

// The reader `format` names; UsageError listing the names when none does.
const ReaderSpec& ReaderNamed(const std::string& format);

// The most confident sniffer's reader for `input`, or null when none claims it.
const ReaderSpec* SniffReader(const Input& input);

// The reader for `input`: the one `format` names when not empty, else the sniffed one. An empty
// input goes to the prof text reader (which says what a profile starts with). Throws ProfError,
// saying what the input looks like and which formats there are, when no reader claims it.
const ReaderSpec& ChooseReader(const Input& input, const std::string& format);

// For a converter that reads one format (perf2prof, rprof2prof, ...): throws ProfError when
// `input` is recognised as another format ("FILE: is pprof's profile.proto, not the text
// 'perf script' prints: read it with any proftools program"), unless `format` names `expected`.
void RequireFormat(Input& input, const ReaderSpec& expected, const std::string& format);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_READERS_H_
