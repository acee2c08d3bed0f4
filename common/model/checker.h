// The semantic validation rules of the format (formats/prof-text.md §6): ids, references,
// define-before-use, value counts, names, non-negative lines and times, record order.
//
// The checker sees records in stream order and remembers only the ids defined so far (memory
// grows with definitions, never with samples). The text reader runs it on every parsed line;
// CheckingSink runs it on records produced in memory, so converters are held to the same rules.
#ifndef PROFTOOLS_COMMON_MODEL_CHECKER_H_
#define PROFTOOLS_COMMON_MODEL_CHECKER_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/base/diagnostics.h"
#include "common/base/id_table.h"
#include "common/model/record.h"
#include "common/model/sink.h"

namespace proftools {

class Checker {
 public:
  // Violations go to `handler` (which may throw), located in `file`.
  Checker(DiagnosticHandler* handler, std::string file);

  // The line that following records come from (0: not tied to a line).
  void set_line(uint64_t line) { line_ = line; }

  // Checks one record, in stream order. Returns true when it is valid. An invalid definition
  // still counts as defined, so that one bad line does not make every later reference fail.
  bool Check(const Record& record);

  // Checks a whole preamble at once (for profiles built in memory).
  bool CheckHeader(const ProfileHeader& header);
  bool CheckMapping(const Mapping& mapping);
  bool CheckFunction(const Function& function);
  bool CheckLocation(const Location& location);
  bool CheckStack(const Stack& stack);
  bool CheckSample(const Sample& sample);

  // A record line that could not be parsed, `id` its id when that field could be (else 0): the
  // id counts as defined, so later references to it are not reported again; a `type` line still
  // declares a column of values; a body line still starts the body.
  void NoteUnparsedRecord(RecordKind kind, uint64_t id);

  // End of input: reports a profile that declared no type and had no body.
  void Finish();
  // Room for the ids of definitions about to come (ProfileSink::OnExpect).
  void Expect(const ExpectedDefinitions& expected);

  // How many values a sample holds: the `type` records of the preamble, including refused ones
  // (a bad type line still declares a column, so samples are not all reported after it).
  size_t sample_values() const { return type_count_; }

 private:
  using IdLines = IdMap;  // id -> line where it was defined

  bool CheckPreamble(const Record& record);
  void EnterBody();
  bool Fail(Rule rule, std::string message);
  bool CheckSingleton(RecordKind kind);
  bool CheckNonNegativeTime(const char* what, int64_t value);
  bool CheckNewId(RecordKind kind, uint64_t id, IdLines* ids);
  // Inline: it runs once per location id of every stack, and nearly always succeeds.
  bool CheckReference(const char* from, uint64_t from_id, const char* to, uint64_t id,
                      const IdLines& ids) {
    return ids.Contains(id) || ReportUndefined(from, from_id, to, id);
  }
  bool ReportUndefined(const char* from, uint64_t from_id, const char* to, uint64_t id);
  IdLines* TableFor(RecordKind kind);
  std::string OnLine(uint64_t line) const;

  DiagnosticHandler* handler_;
  std::string file_;
  uint64_t line_ = 0;
  bool in_body_ = false;
  bool no_types_reported_ = false;
  size_t type_count_ = 0;  // see sample_values()
  std::unordered_map<std::string, uint64_t> type_lines_;
  std::unordered_map<std::string, uint64_t> meta_lines_;
  std::unordered_map<int, uint64_t> singleton_lines_;  // RecordKind -> line
  IdLines sources_, mappings_, functions_, locations_, stacks_;
};

// "KIND id must be positive, not 0".
std::string IdZeroMessage(const char* kind);

// "sample has N values but the profile declares M types".
std::string ValueCountMessage(size_t values, size_t types);

// A sink decorator that checks every record and forwards the valid ones. Converters write
// through it so that whatever they produce is valid by construction, or fails loudly.
class CheckingSink : public ProfileSink {
 public:
  CheckingSink(ProfileSink* next, DiagnosticHandler* handler, std::string name);
  void OnHeader(const ProfileHeader& header) override;
  void OnExpect(const ExpectedDefinitions& expected) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

 private:
  ProfileSink* next_;
  Checker checker_;
};

// Checks a profile held in memory; violations go to `handler` (the default handler throws on the
// first). `name` names the profile in messages.
void ValidateProfile(const Profile& profile, DiagnosticHandler* handler, const std::string& name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_CHECKER_H_
