#include "common/cli.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <utility>

#include "common/diagnostics.h"
#include "common/text_reader.h"

namespace proftools {

CommandLine::CommandLine(std::string program, std::string synopsis, std::string description,
                         std::string epilog)
    : program_(std::move(program)),
      epilog_(std::move(epilog)),
      options_(program_, std::move(description)) {
  options_.custom_help(std::move(synopsis));
  options_.positional_help("");
  options_.set_width(100);
  options_.add_options()("h,help", "print this help and exit")("version",
                                                               "print the version and exit");
}

void CommandLine::AddOutputOption() {
  options_.add_options()("o,output",
                         "write to FILE instead of stdout (atomically: a temporary file is "
                         "renamed into place only when the run succeeds)",
                         cxxopts::value<std::string>(), "FILE");
}

void CommandLine::AddInputs() {
  has_inputs_ = true;
  options_.add_options()("inputs", "input files", cxxopts::value<std::vector<std::string>>());
  options_.parse_positional({"inputs"});
}

void CommandLine::Parse(int argc, char** argv) {
  try {
    result_ = options_.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(e.what());
  }
  if (Has("help")) {
    std::string help = options_.help();
    // cxxopts lists the positional pseudo-option; the usage line already shows FILE...
    const std::string positional = "      --inputs arg";
    const size_t at = help.find(positional);
    if (at != std::string::npos) help.erase(at, help.find('\n', at) - at + 1);
    std::cout << help;
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
