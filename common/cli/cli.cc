#include "common/cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <utility>

#include "common/base/diagnostics.h"
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

}  // namespace

CommandLine::CommandLine(std::string program, std::string synopsis, std::string description,
                         std::string epilog)
    : program_(std::move(program)),
      synopsis_(std::move(synopsis)),
      description_(std::move(description)),
      epilog_(std::move(epilog)),
      options_(program_, "") {
  options_.set_width(100);
  AddOptions()("h,help", "print this help and exit")("version", "print the version and exit");
}

cxxopts::OptionAdder CommandLine::AddOptions(const std::string& group) {
  if (std::find(groups_.begin(), groups_.end(), group) == groups_.end()) groups_.push_back(group);
  return options_.add_options(group);
}

void CommandLine::AddOutputOption() {
  AddOptions()("o,output",
               "write to FILE instead of stdout (atomically: a temporary file is "
               "renamed into place only when the run succeeds)",
               cxxopts::value<std::string>(), "FILE");
}

void CommandLine::AddMaxInputSizeOption() {
  AddOptions()("max-input-size",
               "refuse a pprof input that is (or inflates to) more than N bytes of protobuf "
               "(default 1073741824, 1 GiB; 0: no limit)",
               cxxopts::value<uint64_t>(), "N");
}

uint64_t CommandLine::MaxInputSize() const {
  return Has("max-input-size") ? Get<uint64_t>("max-input-size") : kDefaultMaxPprofSize;
}

void CommandLine::AddInputs() {
  has_inputs_ = true;
  options_.add_options("positional")("inputs", "input files",
                                     cxxopts::value<std::vector<std::string>>());
  options_.parse_positional({"inputs"});
}

void CommandLine::Parse(int argc, char** argv) {
  try {
    result_ = options_.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(AsciiQuotes(e.what()));
  }
  if (Has("help")) {
    // cxxopts' own text starts with the synopsis; keep only its option tables.
    std::string tables = options_.help(groups_, false);
    tables.erase(0, tables.find("\n\n") + 2);
    for (size_t at = tables.find(" \n"); at != std::string::npos; at = tables.find(" \n")) {
      tables.erase(at, 1);
    }
    std::cout << "Usage: " << program_ << " " << synopsis_ << "\n\n"
              << Wrap(description_, 80) << "\n"
              << tables;
    if (!epilog_.empty()) std::cout << "\n" << epilog_;
    std::cout.flush();
    std::exit(kExitOk);
  }
  if (Has("version")) {
    std::cout << program_ << " (proftools) " << kProftoolsVersion << "\n"
              << "prof text format " << kFormatMajor << "." << kFormatMinor << "\n";
    std::cout.flush();
    std::exit(kExitOk);
  }
  if (!has_inputs_ && !result_.unmatched().empty()) {
    throw UsageError("unexpected argument '" + result_.unmatched().front() + "'");
  }
  if (has_inputs_ && !Has("inputs") && isatty(STDIN_FILENO)) ExitWithUsageForTerminal();
}

void CommandLine::ExitWithUsageForTerminal() const {
  // A program that reads standard input by default would wait silently for a profile typed on
  // the keyboard; someone who started it without arguments wants to know how to use it. An
  // explicit "-" still reads the terminal.
  std::fprintf(stderr,
               "Usage: %s %s\n"
               "%s: no FILE given and standard input is a terminal (- reads it anyway)\n"
               "Try '%s --help' for more information.\n",
               program_.c_str(), synopsis_.c_str(), program_.c_str(), program_.c_str());
  std::exit(kExitUsage);
}

std::vector<std::string> CommandLine::Inputs() const {
  if (!has_inputs_ || !Has("inputs")) return {"-"};
  return Get<std::vector<std::string>>("inputs");
}

std::string CommandLine::OutputPath() const {
  return Has("output") ? Get<std::string>("output") : std::string();
}

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
