#include "common/cli/cli.h"

#include "common/load/readers.h"

#include <unistd.h>

// cxxopts' own parser instead of std::regex: compiling and running the regular expressions of
// every option was a tenth of each program's start (and our test suites start thousands).
#define CXXOPTS_NO_REGEX 1
#include <cxxopts.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/text/text_reader.h"

namespace proftools {

namespace {

// Wraps `text` to lines of at most `width` columns.
std::string Wrap(const std::string& text, size_t width) {
  std::string out;
  size_t column = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find(' ', pos);
    const std::string word = text.substr(pos, end == std::string::npos ? end : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    if (word.empty()) continue;
    if (column > 0 && column + 1 + word.size() > width) {
      out += '\n';
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out + "\n";
}

// cxxopts quotes with typographic quotes; keep messages ASCII like the rest.
std::string AsciiQuotes(std::string text) {
  for (const char* curly : {"\u2018", "\u2019"}) {
    for (size_t at = text.find(curly); at != std::string::npos; at = text.find(curly)) {
      text.replace(at, std::string(curly).size(), "'");
    }
  }
  return text;
}

// cxxopts reports a flag given a value it cannot read ("--verbose=x") as "Argument 'x' failed
// to parse"; every other option's value is text here, parsed by Get. Find the flag in argv.
std::string BadFlagValue(int argc, char** argv, const std::string& message) {
  const std::string before = "Argument '";
  const std::string after = "' failed to parse";
  if (message.rfind(before, 0) != 0 || message.size() < before.size() + after.size()) {
    return message;
  }
  const std::string value =
      message.substr(before.size(), message.size() - before.size() - after.size());
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const size_t equals = argument.find('=');
    if (argument.rfind("--", 0) == 0 && equals != std::string::npos &&
        argument.substr(equals + 1) == value) {
      return argument.substr(0, equals) + " is a flag: it takes no value but true or false, not " +
             Printable(value);
    }
  }
  return message;
}

}  // namespace

// cxxopts' options and, after Parse, its result; and how an option is described.
struct CommandLine::Parser {
  explicit Parser(const std::string& program) : options(program, "") {}

  // cxxopts' description of `option` (a long name), or null.
  const cxxopts::HelpOptionDetails* Details(const std::string& option) const {
    for (const std::string& group : options.groups()) {
      for (const cxxopts::HelpOptionDetails& details : options.group_help(group).options) {
        if (!details.l.empty() && details.l.front() == option) return &details;
      }
    }
    return nullptr;
  }
  // The same for a short name (`o`), or null.
  const cxxopts::HelpOptionDetails* ShortDetails(char option) const {
    for (const std::string& group : options.groups()) {
      for (const cxxopts::HelpOptionDetails& details : options.group_help(group).options) {
        if (details.s.size() == 1 && details.s[0] == option) return &details;
      }
    }
    return nullptr;
  }

  cxxopts::Options options;
  cxxopts::ParseResult result;
};

OptionAdder& OptionAdder::operator()(const std::string& names, const std::string& help) {
  cli_->parser_->options.add_options(group_)(names, help);
  return *this;
}

OptionAdder& OptionAdder::operator()(const std::string& names, const std::string& help,
                                     const OptionValue& value, const std::string& value_name) {
  auto declared = cxxopts::value<std::string>();
  if (value.has_default_value_) declared->default_value(value.default_value_);
  if (value.has_implicit_value_) declared->implicit_value(value.implicit_value_);
  cli_->parser_->options.add_options(group_)(names, help, declared, value_name);
  return *this;
}

CommandLine::CommandLine(std::string program, std::string synopsis, std::string description,
                         std::string epilog)
    : program_(std::move(program)),
      synopsis_(std::move(synopsis)),
      description_(std::move(description)),
      epilog_(std::move(epilog)),
      parser_(std::make_unique<Parser>(program_)) {
  warnings_.set_program(program_.c_str());
  parser_->options.set_width(100);
  AddOptions()("h,help", "print this help and exit")("version", "print the version and exit");
}

CommandLine::~CommandLine() = default;

OptionAdder CommandLine::AddOptions(const std::string& group) {
  if (std::find(groups_.begin(), groups_.end(), group) == groups_.end()) groups_.push_back(group);
  return OptionAdder(this, group);
}

void CommandLine::AddOutputOption() {
  AddOptions()("o,output",
               "write to FILE instead of stdout (atomically: a temporary file is "
               "renamed into place only when the run succeeds)",
               OptionValue(), "FILE");
}

void CommandLine::AddMaxInputSizeOption() {
  AddOptions()("max-input-size",
               "refuse an input that would make the program hold more than SIZE bytes: in "
               "memory for formats read whole (pprof, JSON, pstats; a JFR chunk), default 1GiB; "
               "in a temporary file for a pipe read twice (perf script, Rprof, JFR, perf.data, "
               "a database), default 16GiB. 0: no limit; units k, M, G, T, with B, iB or "
               "neither, are powers of 1024: 1G, 1GB and 1GiB are all 2^30 bytes",
               OptionValue(), "SIZE");
}

uint64_t CommandLine::MaxInputSize() const {
  if (!Has("max-input-size")) return kDefaultMaxInputSize;
  return ParseByteSizeOption(DisplayName("max-input-size"), Get<std::string>("max-input-size"));
}

void CommandLine::AddInputFormatOption() {
  AddOptions()("input-format",
               "read every input as FORMAT instead of recognising its format by its content: " +
                   ReaderNames(),
               OptionValue(), "FORMAT");
}

void CommandLine::AddAllowEmptyOption(const std::string& empty_input) {
  AddOptions()("allow-empty", empty_input + " gives a profile without samples, not an error");
}

void CommandLine::AddSourceUriOption() {
  AddOptions()("source-uri", "the URI recorded for the input's source, in place of its path",
               OptionValue(), "URI");
}

std::optional<std::string> CommandLine::SourceUri() const {
  if (!Has("source-uri")) return std::nullopt;
  const size_t inputs = Inputs().size();
  if (inputs > 1) {
    throw UsageError("--source-uri names the source of one input; " + std::to_string(inputs) +
                     " inputs were given");
  }
  return Get<std::string>("source-uri");
}

ReadOptions CommandLine::InputReadOptions() {
  ReadOptions options;
  options.handler = nullptr;
  options.warnings = &warnings_;
  // One option, one cap, given or not: the defaults differ since a spool is on disk.
  if (parser_->Details("max-input-size") != nullptr && Has("max-input-size")) {
    options.max_input_size = options.max_spool_size = MaxInputSize();
  }
  if (parser_->Details("input-format") != nullptr && Has("input-format")) {
    options.format = ReaderNamed(Get<std::string>("input-format")).name;
  }
  if (parser_->Details("allow-empty") != nullptr) options.allow_empty = Has("allow-empty");
  return options;
}

void CommandLine::AddInputs(bool stdin_by_default) {
  has_inputs_ = true;
  stdin_by_default_ = stdin_by_default;
  parser_->options.add_options("positional")("inputs", "input files",
                                             cxxopts::value<std::vector<std::string>>());
  parser_->options.parse_positional({"inputs"});
}

bool CommandLine::Parse(int argc, char** argv) {
  // Before cxxopts, which reads a single-dash word as short options with a glued value.
  const std::string pprof_word = PprofSpellingHint(argc, argv, /*known_only=*/true);
  if (!pprof_word.empty()) throw UsageError(pprof_word);
  try {
    parser_->result = parser_->options.parse(argc, argv);
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    throw UsageError(BadFlagValue(argc, argv, AsciiQuotes(e.what())));
  } catch (const cxxopts::exceptions::exception& e) {
    const std::string hint = PprofSpellingHint(argc, argv);
    throw UsageError(hint.empty() ? AsciiQuotes(e.what()) : hint);
  }
  if (Has("help")) {
    // cxxopts' own text starts with the synopsis; keep only its option tables.
    std::string tables = parser_->options.help(groups_, false);
    tables.erase(0, tables.find("\n\n") + 2);
    for (size_t at = tables.find(" \n"); at != std::string::npos; at = tables.find(" \n")) {
      tables.erase(at, 1);
    }
    std::cout << "Usage: " << program_ << " " << synopsis_ << "\n\n"
              << Wrap(description_, 80) << "\n"
              << tables;
    if (!epilog_.empty()) std::cout << "\n" << epilog_;
    std::cout.flush();
    exit_status_ = kExitOk;
    return false;
  }
  if (Has("version")) {
    std::cout << program_ << " (proftools) " << kProftoolsVersion << "\n"
              << "prof text format " << kFormatMajor << "." << kFormatMinor << "\n";
    std::cout.flush();
    exit_status_ = kExitOk;
    return false;
  }
  if (!has_inputs_ && !parser_->result.unmatched().empty()) {
    throw UsageError("unexpected argument " + Printable(parser_->result.unmatched().front()));
  }
  RefuseRepeatedValues();
  if (has_inputs_ && stdin_by_default_ && !Has("inputs") && isatty(STDIN_FILENO)) {
    PrintUsageForTerminal();
    exit_status_ = kExitUsage;
    return false;
  }
  return true;
}

void CommandLine::PrintUsageForTerminal() const {
  // A program that reads standard input by default would wait silently for a profile typed on
  // the keyboard; someone who started it without arguments wants to know how to use it. An
  // explicit "-" still reads the terminal.
  std::fprintf(stderr,
               "Usage: %s %s\n"
               "%s: no FILE given and standard input is a terminal (- reads it anyway)\n"
               "Try '%s --help' for more information.\n",
               program_.c_str(), synopsis_.c_str(), program_.c_str(), program_.c_str());
}

namespace {

// pprof's flags whose proftools spelling is another word (pprof -h; internal/driver/flags).
struct PprofFlag {
  const char* pprof;
  const char* ours;  // the option (and value) to type instead
};
constexpr PprofFlag kPprofFlags[] = {
    {"sample_index", "--value"},
    {"tagfocus", "--label-focus"},
    {"tagignore", "--label-ignore"},
    {"tagshow", "--keep-labels"},
    {"taghide", "--drop-labels"},
    {"show_from", "--show-from"},
    {"prune_from", "--prune-from"},
    {"functions", "--granularity functions"},
    {"filefunctions", "--granularity filefunctions"},
    {"files", "--granularity files"},
    {"lines", "--granularity lines"},
    {"addresses", "--granularity addresses"},
    {"cum", "--sort cum"},
    {"flat", "--sort flat"},
    {"output", "-o"},
    {"raw", "--canonical"},
    {"proto", "prof2pprof (a program of its own)"},
    {"text", "--top"},
    {"svg", "prof-svg (a program of its own)"},
    {"web", "prof-svg or prof-html (programs of their own)"},
    {"http", "prof-html (a program of its own: a page that needs no server)"},
    {"flame", "prof-svg (a program of its own: the flame graph as one SVG)"},
    {"callgrind", "prof2callgrind (a program of its own)"},
    {"kcachegrind", "prof2callgrind -o out.callgrind, then kcachegrind out.callgrind"},
    {"inuse_space", "--value inuse_space"},
    {"inuse_objects", "--value inuse_objects"},
    {"alloc_space", "--value alloc_space"},
    {"alloc_objects", "--value alloc_objects"},
};

// pprof's other flags (pprof -h; internal/driver/flags.go, commands.go): a word spelled as one
// of these behind one dash is pprof's flag, never short options with a glued value.
constexpr const char* kPprofFlagNames[] = {
    "flame",
    "add_comment",
    "addressnoinlines",
    "alloc_objects",
    "alloc_space",
    "base",
    "buildid",
    "call_tree",
    "callgrind",
    "comments",
    "compact_labels",
    "contentions",
    "diff_base",
    "disasm",
    "divide_by",
    "dot",
    "drop_negative",
    "edgefraction",
    "eog",
    "evince",
    "focus",
    "gif",
    "gv",
    "hide",
    "http",
    "ignore",
    "intel_syntax",
    "inuse_objects",
    "inuse_space",
    "kcachegrind",
    "list",
    "mean",
    "mean_delay",
    "no_browser",
    "nodecount",
    "nodefraction",
    "noinlines",
    "normalize",
    "pdf",
    "peek",
    "png",
    "ps",
    "relative_percentages",
    "seconds",
    "show",
    "source_path",
    "svg",
    "symbolize",
    "tagleaf",
    "tagroot",
    "tags",
    "text",
    "timeout",
    "tls_ca",
    "tls_cert",
    "tls_key",
    "tools",
    "top",
    "topproto",
    "total_delay",
    "traces",
    "tree",
    "trim",
    "trim_path",
    "unit",
    "web",
    "weblist",
};

// pprof's flags whose value changes what to write: -trim=false is --no-trim, -nodefraction=0.01
// is --min-percent 1. "" for others.
std::string ValuedPprofFlag(std::string_view name, std::string_view value) {
  if (name == "trim" && (value == "false" || value == "0" || value == "f")) return "--no-trim";

  if ((name == "nodefraction" || name == "edgefraction") && !value.empty()) {
    char* end = nullptr;
    const std::string text(value);
    const double fraction = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && *end == '\0' && fraction >= 0 && fraction <= 1) {
      char percent[32];
      std::snprintf(percent, sizeof percent, "%g", fraction * 100);
      return std::string(name == "nodefraction" ? "--min-percent " : "--edge-percent ") + percent;
    }
  }
  return "";
}

bool IsPprofFlag(std::string_view name) {
  for (const PprofFlag& flag : kPprofFlags) {
    if (name == flag.pprof) return true;
  }
  for (const char* flag : kPprofFlagNames) {
    if (name == flag) return true;
  }
  return false;
}

}  // namespace

std::string CommandLine::PprofSpellingHint(int argc, char** argv, bool known_only) const {
  bool option_value = false;  // argv[i] is the value of the option before it
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;
    if (option_value) {
      option_value = false;
      continue;
    }
    // `--focus X` and `-o X`: X is a value, whatever it looks like.
    if (word.size() >= 2 && word[0] == '-' && word.find('=') == std::string_view::npos) {
      const cxxopts::HelpOptionDetails* details =
          word[1] == '-'     ? parser_->Details(std::string(word.substr(2)))
          : word.size() == 2 ? parser_->ShortDetails(word[1])
                             : nullptr;
      option_value = details != nullptr && !details->has_implicit;
    }
    if (word.size() < 3 || word[0] != '-') continue;
    // pprof's flags with two dashes (`--cum`, Go's flag package takes both) when this program
    // has no option of that name.
    const bool two_dashes = word[1] == '-';
    const size_t name_at = two_dashes ? 2 : 1;
    const std::string_view name = word.substr(name_at, word.find('=') - name_at);
    if (two_dashes && (parser_->Details(std::string(name)) != nullptr || !IsPprofFlag(name))) {
      continue;
    }
    const std::string_view value =
        word.find('=') == std::string_view::npos ? "" : word.substr(word.find('=') + 1);
    std::string dashed(name);
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    const bool pprof = IsPprofFlag(name);
    if (known_only && !pprof && name.size() < 2) continue;
    if (known_only && !pprof && parser_->Details(std::string(name)) == nullptr) continue;
    if (name == "trim" && (value.empty() || value == "true")) {
      if (parser_->Details("no-trim") != nullptr) {
        return std::string(word) +
               ": pprof's flag, whose behaviour is the default here (--no-trim "
               "turns it off)";
      }
    }
    std::string ours = ValuedPprofFlag(name, value);
    if (!ours.empty()) {
      const std::string option = ours.substr(2, ours.find(' ') - 2);
      if (parser_->Details(option) == nullptr) ours.clear();  // not this program's
      if (!ours.empty()) {
        return std::string(word) + ": pprof's spelling; here write " + ours +
               (two_dashes ? "" : " (options take two dashes)");
      }
    }
    for (const PprofFlag& flag : kPprofFlags) {
      if (name != flag.pprof) continue;
      // Only what this program has: --sort, say, is prof-text's.
      const std::string_view spelled = flag.ours;
      const std::string_view option = spelled.rfind("--", 0) == 0
                                          ? spelled.substr(2, spelled.find(' ') - 2)
                                      : spelled == "-o" ? "output"
                                                        : "";
      if (option.empty() || parser_->Details(std::string(option)) != nullptr) ours = flag.ours;
    }
    if (ours.empty() && parser_->Details(std::string(name)) != nullptr) {
      ours = "--" + std::string(name);
    }
    if (ours.empty() && parser_->Details(dashed) != nullptr) ours = "--" + dashed;  // diff_base
    if (ours.empty() && pprof) {
      return std::string(word) + ": pprof's flag, which " + program_ + " does not have (" +
             (two_dashes ? "see --help)" : "options take two dashes: see --help)");
    }
    if (ours.empty()) continue;
    if (!value.empty() && ours[0] == '-') ours += " " + std::string(value);
    return std::string(word) + ": pprof's spelling; here write " + ours +
           (ours.rfind("--", 0) == 0 && !two_dashes ? " (options take two dashes)" : "");
  }
  return "";
}

bool CommandLine::Has(const std::string& option) const {
  if (parser_->result.count(option) == 0) return false;
  const cxxopts::HelpOptionDetails* details = parser_->Details(option);
  return details == nullptr || !details->is_boolean || parser_->result[option].as<bool>();
}

std::string CommandLine::GetText(const std::string& option) const {
  return parser_->result[option].as<std::string>();
}

std::vector<std::string> CommandLine::GetTexts(const std::string& option) const {
  return parser_->result[option].as<std::vector<std::string>>();
}

std::string CommandLine::DisplayName(const std::string& option) const {
  const cxxopts::HelpOptionDetails* details = parser_->Details(option);
  if (details != nullptr && !details->s.empty()) return "-" + details->s + "/--" + option;
  return "--" + option;
}

std::vector<std::string> CommandLine::GetAll(const std::string& option) const {
  std::vector<std::string> values;
  for (const cxxopts::KeyValue& argument : parser_->result.arguments()) {
    if (argument.key() == option) values.push_back(argument.value());
  }
  return values;
}

void CommandLine::RefuseRepeatedValues() const {
  for (const std::string& group : parser_->options.groups()) {
    for (const cxxopts::HelpOptionDetails& details : parser_->options.group_help(group).options) {
      if (details.is_boolean || details.is_container || details.l.empty()) continue;
      const std::string& option = details.l.front();
      const size_t count = parser_->result.count(option);
      if (count < 2 || repeatable_.count(option) > 0) continue;
      std::string values;
      for (const std::string& value : GetAll(option)) {
        values += (values.empty() ? "" : ", ") + Printable(value);
      }
      throw UsageError(DisplayName(option) + " takes one value, but is given " +
                       std::to_string(count) + " times (" + values + ")");
    }
  }
}

std::vector<std::string> CommandLine::Inputs() const {
  if (!has_inputs_ || !Has("inputs")) return {"-"};
  return Get<std::vector<std::string>>("inputs");
}

std::string CommandLine::OutputPath() const {
  return Has("output") ? Get<std::string>("output") : std::string();
}

}  // namespace proftools

// jemalloc's settings (the Makefile links it as every program's malloc), read when it starts:
// transparent huge pages for its memory. Where the kernel gives huge pages only to memory that
// asks (THP "madvise", this machine's kernel and many distributions'), every 4 KB page of a large
// profile's hundreds of megabytes was a page fault, costly in a virtual machine: prof-svg on a
// million samples took 2.1 s, 0.9 s so. One arena for all threads (jemalloc's default is four
// a core): the programs' threads are a reader and its consumer, or a few helpers, which seldom
// allocate at the same moment, and with an arena each every thread's first allocations of each
// size took fresh huge pages of their own, each zeroed by the kernel (perf2prof on a 58 MB
// recording 0.41 -> 0.38 s, prof-svg on a million samples 0.86 -> 0.73 s, prof-text --top on
// 100,000 Python functions 1.24 -> 1.02 s; prof-merge's reading threads unchanged). Defined here,
// beside RunProgram, so that every program's link keeps it; a build without jemalloc ignores it.
extern "C" const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:auto,narenas:1";

namespace proftools {

int RunProgram(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const ProfError& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.diagnostic().Format().c_str());
    return kExitFailure;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", program.c_str(),
                 e.what(), program.c_str());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", program.c_str());
    return kExitFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return kExitFailure;
  }
}

void Warn(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: warning: %s\n", program.c_str(), message.c_str());
}

}  // namespace proftools
