// V8's tick log: what `node --prof` (and d8 --prof, Chrome's --js-flags=--prof) writes,
// isolate-0x...-v8.log: one event per line, comma-separated, read in order as V8's own tick
// processor (tools/tickprocessor.mjs, `node --prof-process`) reads it. What a profile gets from
// a log (docs/chrome.md):
// - one source of type "v8-log" (its uri the path); meta v8.version and v8.platform;
// - a sample per `tick`, at its time (microseconds since the profiler began), with the value
//   types `samples` (count) and `cpu` (microseconds: the sampling interval of `profiler,begin`,
//   1 ms by default), the period that interval, and the label vm_state (JS, GC, PARSER,
//   BYTECODE_COMPILER, COMPILER, OTHER, EXTERNAL, ATOMICS_WAIT, IDLE, LOGGING);
// - its stack as the tick processor makes it: the pc (or the external callback's address), the
//   top of the stack when it is in a JS function (a frameless call), then the return addresses;
//   each resolved in the code map at that point of the log (code-creation, code-move,
//   code-delete), else in the shared libraries (shared-library) through their ELF symbol
//   tables (read from this machine, under --symfs); a return address resolving to nothing is
//   left out, a pc resolving to nothing is kept as an address;
// - functions: a JS function by its name, script, line and column (`spin app.js:2:14`; the
//   tier V8 ran it in, `~` `^` `+` `*`, is not kept: one function however compiled); other
//   code by its kind and name, as the tick processor names it (`Builtin: ArrayMap`,
//   `BytecodeHandler: Ldar`); a library's function demangled, with its mapping; an address in a
//   library without a symbol, as the address in its mapping.
// Libraries that could not be read are named in one warning. The tick processor's JSON
// (`node --prof-process --preprocess`) reads too (v8_preprocessed.h), whole.
#ifndef PROFTOOLS_COMMON_CHROME_V8LOG_V8_LOG_CODEC_H_
#define PROFTOOLS_COMMON_CHROME_V8LOG_V8_LOG_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "v8-log", streaming (one pass, in order).
extern const ReaderSpec kV8LogReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8LOG_V8_LOG_CODEC_H_
