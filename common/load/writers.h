// The registry of writers: the one table of every format proftools writes through a WriterSpec
// (model/writer_spec.h), for the thin programs over cli/writer_program.h and for tests that hold
// every writer to the same rules (tests/writers_test.cc).
#ifndef PROFTOOLS_COMMON_LOAD_WRITERS_H_
#define PROFTOOLS_COMMON_LOAD_WRITERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/model/writer_spec.h"

namespace proftools {

// Every writer, in the table's order.
const std::vector<const WriterSpec*>& Writers();

// The writer named `name`, or null.
const WriterSpec* FindWriter(std::string_view name);

// "prof, pprof, chrome-trace": the writers' names.
std::string WriterNames();

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_WRITERS_H_
